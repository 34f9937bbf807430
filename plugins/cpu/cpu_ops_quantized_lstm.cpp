// The cpu driver's quantized LSTM cell: QUANTIZED_16BIT_LSTM (feature level 3; input 0
// TENSOR_QUANT8_ASYMM) on kernels/quantized_lstm. ops::validate checks the operand types and the
// quantization NNAPI fixes (data at 1/128 and 128, shared weight quantization, biases at the weights'
// scale / 128, the cell state at 2^-11) when the model is prepared; the adapter checks the shapes.
//
// QUANTIZED_LSTM (feature level 4) has no kernel here yet: selectKernel refuses it as not implemented.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>

#include "nnrt/driver/ops/operand_types.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/kernels/quantized_lstm.hpp"

namespace nnrt::cpu {

std::span<const KernelEntry> quantizedLstmKernels();

namespace {

using driver::Result;
using ops::Arg;

// Inputs: 0 input [batch, inputSize]; 1..4 input-to-{input, forget, cell, output} weights
// [outputSize, inputSize]; 5..8 the recurrent weights [outputSize, outputSize]; 9..12 the gate biases
// [outputSize]; 13 previous cell state and 14 previous output, [batch, outputSize]. Outputs: the cell
// state and the output, [batch, outputSize].
Result<void> quantized16BitLstm(const KernelCall& c) {
  const std::string name = ops::operationName(c.op.type);
  auto expectDims = [&](const Arg& a, const std::string& what,
                        std::initializer_list<uint32_t> dims) -> Result<void> {
    if (a.rank() != dims.size() ||
        !std::equal(dims.begin(), dims.end(), a.dims.begin())) {
      std::string want;
      for (uint32_t d : dims)
        want += (want.empty() ? "" : ", ") + std::to_string(d);
      return driver::invalidArgument(name + " " + what + " must be [" + want + "]");
    }
    return {};
  };
  const Arg& in = c.op.inputs[0];
  const Arg& previousOutput = c.op.inputs[14];
  if (in.rank() != 2 || previousOutput.rank() != 2)
    return driver::invalidArgument(name + " inputs 0 (input) and 14 (prev_output) must be 2-D");
  const uint32_t batch = in.dims[0], inputSize = in.dims[1], outputSize = previousOutput.dims[1];
  if (size_t{inputSize} + outputSize >= (size_t{1} << 16)) {
    return driver::invalidArgument(name + ": input_size + output_size of " +
                                   std::to_string(inputSize + outputSize) +
                                   " is not supported (at most 65535: the int32 accumulator)");
  }
  for (size_t i = 1; i <= 8; ++i) {
    NNRT_RETURN_IF_ERROR(expectDims(c.op.inputs[i], "input " + std::to_string(i),
                                    {outputSize, i <= 4 ? inputSize : outputSize}));
  }
  for (size_t i = 1; i <= 14; ++i) {
    if (c.op.inputs[i].data == nullptr)
      return driver::invalidArgument(name + " input " + std::to_string(i) + " has no value");
  }
  for (size_t i = 9; i <= 12; ++i)
    NNRT_RETURN_IF_ERROR(expectDims(c.op.inputs[i], "input " + std::to_string(i), {outputSize}));
  NNRT_RETURN_IF_ERROR(expectDims(c.op.inputs[13], "input 13 (prev_cell_state)", {batch, outputSize}));
  NNRT_RETURN_IF_ERROR(expectDims(previousOutput, "input 14 (prev_output)", {batch, outputSize}));
  for (size_t k = 0; k < 2; ++k)
    NNRT_RETURN_IF_ERROR(expectDims(c.op.outputs[k], "output " + std::to_string(k), {batch, outputSize}));

  QuantizedLstm16 p;
  p.batch = batch;
  p.inputSize = inputSize;
  p.outputSize = outputSize;
  for (size_t k = 0; k < 4; ++k) {
    p.inputWeights[k] = input<uint8_t>(c, 1 + k);
    p.recurrentWeights[k] = input<uint8_t>(c, 5 + k);
    p.biases[k] = input<int32_t>(c, 9 + k);
  }
  p.weightsZeroPoint = c.op.inputs[1].zeroPoint;
  p.biasScale = c.op.inputs[9].scale;
  quantizedLstm16(input<uint8_t>(c, 0), p, input<int16_t>(c, 13), input<uint8_t>(c, 14),
                  output<int16_t>(c, 0), output<uint8_t>(c, 1));
  return {};
}

using namespace table_names;

const KernelEntry kQuantizedLstmKernels[] = {
    {T::QUANTIZED_16BIT_LSTM, Q8, noParams, quantized16BitLstm},
};

}  // namespace

std::span<const KernelEntry> quantizedLstmKernels() {
  return kQuantizedLstmKernels;
}

}  // namespace nnrt::cpu
