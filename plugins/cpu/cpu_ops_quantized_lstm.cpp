// The cpu driver's quantized LSTM cells on kernels/quantized_lstm: QUANTIZED_16BIT_LSTM (feature
// level 3; input 0 TENSOR_QUANT8_ASYMM) and QUANTIZED_LSTM (feature level 4; TENSOR_QUANT8_ASYMM_SIGNED).
// ops::validate checks the operand types, and for QUANTIZED_16BIT_LSTM the quantization NNAPI fixes
// (data at 1/128 and 128, shared weight quantization, biases at the weights' scale / 128, the cell
// state at 2^-11) when the model is prepared; the adapters check the shapes, which optional inputs
// come together, and the scales the kernels read.
#include <algorithm>
#include <cmath>
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

// Input or output `what` of operation `name` has dimensions `dims`.
Result<void> expectDims(const std::string& name, const Arg& a, const std::string& what,
                        std::initializer_list<uint32_t> dims) {
  if (a.rank() != dims.size() || !std::equal(dims.begin(), dims.end(), a.dims.begin())) {
    std::string want;
    for (uint32_t d : dims)
      want += (want.empty() ? "" : ", ") + std::to_string(d);
    return driver::invalidArgument(name + " " + what + " must be [" + want + "]");
  }
  return {};
}

// Inputs: 0 input [batch, inputSize]; 1..4 input-to-{input, forget, cell, output} weights
// [outputSize, inputSize]; 5..8 the recurrent weights [outputSize, outputSize]; 9..12 the gate biases
// [outputSize]; 13 previous cell state and 14 previous output, [batch, outputSize]. Outputs: the cell
// state and the output, [batch, outputSize].
Result<void> quantized16BitLstm(const KernelCall& c) {
  const std::string name = ops::operationName(c.op.type);
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
    NNRT_RETURN_IF_ERROR(expectDims(name, c.op.inputs[i], "input " + std::to_string(i),
                                    {outputSize, i <= 4 ? inputSize : outputSize}));
  }
  for (size_t i = 1; i <= 14; ++i) {
    if (c.op.inputs[i].data == nullptr)
      return driver::invalidArgument(name + " input " + std::to_string(i) + " has no value");
  }
  for (size_t i = 9; i <= 12; ++i)
    NNRT_RETURN_IF_ERROR(expectDims(name, c.op.inputs[i], "input " + std::to_string(i), {outputSize}));
  NNRT_RETURN_IF_ERROR(expectDims(name, c.op.inputs[13], "input 13 (prev_cell_state)", {batch, outputSize}));
  NNRT_RETURN_IF_ERROR(expectDims(name, previousOutput, "input 14 (prev_output)", {batch, outputSize}));
  for (size_t k = 0; k < 2; ++k)
    NNRT_RETURN_IF_ERROR(
        expectDims(name, c.op.outputs[k], "output " + std::to_string(k), {batch, outputSize}));

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

// QUANTIZED_LSTM. Inputs: 0 input [batch, inputSize]; 1..4 input-to-{input, forget, cell, output}
// weights [numUnits, inputSize]; 5..8 the recurrent weights [numUnits, outputSize]; 9..11 the
// peephole weights of the input, forget and output gates [numUnits]; 12..15 the gate biases [numUnits];
// 16 projection weights [outputSize, numUnits] and 17 its bias [outputSize]; 18 previous output
// [batch, outputSize]; 19 previous cell state [batch, numUnits]; 20..23 layer normalization weights
// [numUnits]; 24 cell clip, 25 projection clip; 26..29 the gates' intermediate scales; 30 the hidden
// state's zero point and 31 its scale. Outputs: the output state, the cell state, the output.
// Optional inputs come in groups, as Android's reference requires: the input gate's (1, 5, 12 and,
// with layer normalization, 20) all or none (CIFG); the peephole weights (9 only without CIFG); the
// layer normalization weights; the projection bias only with projection weights.
Result<void> quantizedLstmCell(const KernelCall& c) {
  const std::string name = ops::operationName(c.op.type);
  const auto& in = c.op.inputs;
  auto label = [&](size_t i) { return "input " + std::to_string(i); };
  for (size_t i : {0u, 2u, 3u, 4u, 6u, 7u, 8u, 13u, 14u, 15u, 18u, 19u}) {
    if (absent(in[i])) return driver::invalidArgument(name + " " + label(i) + " has no value");
  }
  if (in[0].rank() != 2 || in[4].rank() != 2 || in[8].rank() != 2)
    return driver::invalidArgument(name + " inputs 0, 4 and 8 must be 2-D");
  const uint32_t batch = in[0].dims[0], inputSize = in[0].dims[1], numUnits = in[4].dims[0],
                 outputSize = in[8].dims[1];
  for (uint32_t size : {inputSize, numUnits, outputSize}) {
    if (size >= (1u << 15)) {
      return driver::invalidArgument(name + ": input, unit and output sizes of " + std::to_string(inputSize) +
                                     ", " + std::to_string(numUnits) + ", " + std::to_string(outputSize) +
                                     " are not supported (each below 32768: the int32 accumulators)");
    }
  }
  const bool cifg = absent(in[1]);
  if (absent(in[5]) != cifg || absent(in[12]) != cifg) {
    return driver::invalidArgument(name +
                                   " inputs 1, 5 and 12 (the input gate's weights and bias) must all be "
                                   "given or all be absent (CIFG)");
  }
  const bool peephole = !absent(in[10]);
  if (absent(in[11]) == peephole || (!cifg && absent(in[9]) == peephole) || (cifg && !absent(in[9]))) {
    return driver::invalidArgument(name +
                                   " inputs 9..11 (peephole weights) must all be given or all be absent"
                                   " (input 9 absent with CIFG)");
  }
  const bool layerNorm = !absent(in[21]);
  if (absent(in[22]) == layerNorm || absent(in[23]) == layerNorm || (!cifg && absent(in[20]) == layerNorm) ||
      (cifg && !absent(in[20]))) {
    return driver::invalidArgument(name +
                                   " inputs 20..23 (layer normalization weights) must all be given or "
                                   "all be absent (input 20 absent with CIFG)");
  }
  const bool projection = !absent(in[16]);
  if (!projection && !absent(in[17]))
    return driver::invalidArgument(
        name + " input 17 (projection_bias) is given without input 16 (projection weights)");
  if (!projection && outputSize != numUnits) {
    return driver::invalidArgument(name + ": without projection the output size (" +
                                   std::to_string(outputSize) + ") must equal the number of units (" +
                                   std::to_string(numUnits) + ")");
  }
  for (size_t k = 0; k < 4; ++k) {
    if (k == 0 && cifg) continue;
    NNRT_RETURN_IF_ERROR(expectDims(name, in[1 + k], label(1 + k), {numUnits, inputSize}));
    NNRT_RETURN_IF_ERROR(expectDims(name, in[5 + k], label(5 + k), {numUnits, outputSize}));
    NNRT_RETURN_IF_ERROR(expectDims(name, in[12 + k], label(12 + k), {numUnits}));
    if (layerNorm) NNRT_RETURN_IF_ERROR(expectDims(name, in[20 + k], label(20 + k), {numUnits}));
  }
  if (peephole) {
    for (size_t i = cifg ? 10 : 9; i <= 11; ++i)
      NNRT_RETURN_IF_ERROR(expectDims(name, in[i], label(i), {numUnits}));
  }
  if (projection) {
    NNRT_RETURN_IF_ERROR(expectDims(name, in[16], label(16), {outputSize, numUnits}));
    if (!absent(in[17])) NNRT_RETURN_IF_ERROR(expectDims(name, in[17], label(17), {outputSize}));
  }
  NNRT_RETURN_IF_ERROR(expectDims(name, in[18], "input 18 (output_state_in)", {batch, outputSize}));
  NNRT_RETURN_IF_ERROR(expectDims(name, in[19], "input 19 (cell_state_in)", {batch, numUnits}));
  NNRT_RETURN_IF_ERROR(expectDims(name, c.op.outputs[0], "output 0", {batch, outputSize}));
  NNRT_RETURN_IF_ERROR(expectDims(name, c.op.outputs[1], "output 1", {batch, numUnits}));
  NNRT_RETURN_IF_ERROR(expectDims(name, c.op.outputs[2], "output 2", {batch, outputSize}));
  for (size_t i = 24; i <= 31; ++i) {
    if (!in[i].hasValue()) return driver::invalidArgument(name + " " + label(i) + " has no value");
  }

  // The scales the kernel reads: the cell state's a power of two 2^s (its tanh reads s + 15 integer
  // bits, which Android's reference allows from 0 to 6), positive intermediate and hidden scales.
  const double cellLog2 = std::log2(static_cast<double>(in[19].scale));
  const int cellShift = static_cast<int>(std::lround(cellLog2));
  if (!(in[19].scale > 0) || std::fabs(cellLog2 - cellShift) >= 1e-3 || cellShift < -15 || cellShift > -9) {
    return driver::invalidArgument(name + " input 19 (cell_state_in) scale " + std::to_string(in[19].scale) +
                                   " is not supported (a power of two from 2^-15 to 2^-9)");
  }
  const float hiddenScale = in[31].scalar<float>();
  const int32_t hiddenZeroPoint = in[30].scalar<int32_t>();
  if (!(hiddenScale > 0) || !std::isfinite(hiddenScale))
    return driver::invalidArgument(name + " input 31 (hidden_state_scale) must be positive, not " +
                                   std::to_string(hiddenScale));
  if (hiddenZeroPoint < -128 || hiddenZeroPoint > 127)
    return driver::invalidArgument(name + " input 30 (hidden_state_zero_point) must be in -128..127, not " +
                                   std::to_string(hiddenZeroPoint));

  QuantizedLstm p;
  p.batch = batch;
  p.inputSize = inputSize;
  p.numUnits = numUnits;
  p.outputSize = outputSize;
  p.cellShift = cellShift;
  p.inputZeroPoint = in[0].zeroPoint;
  p.outputZeroPoint = in[18].zeroPoint;
  const double cellScale = std::ldexp(1.0, cellShift);
  static constexpr size_t kPeephole[] = {9, 10, 0, 11};  // per gate; the cell gate has none
  // The effective scales are rounded to float where Android's reference computes them in float.
  for (size_t k = cifg ? 1 : 0; k < 4; ++k) {
    const float intermediate = in[26 + k].scalar<float>();
    if (!(intermediate > 0) || !std::isfinite(intermediate)) {
      return driver::invalidArgument(name + " " + label(26 + k) +
                                     " (intermediate scale) must be positive, not " +
                                     std::to_string(intermediate));
    }
    p.inputWeights[k] = input<int8_t>(c, 1 + k);
    p.recurrentWeights[k] = input<int8_t>(c, 5 + k);
    p.inputEffective[k] = in[1 + k].scale * in[0].scale / intermediate;
    p.recurrentEffective[k] = in[5 + k].scale * in[18].scale / intermediate;
    p.biases[k] = input<int32_t>(c, 12 + k);
    if (peephole && k != 2) {
      p.peephole[k] = input<int16_t>(c, kPeephole[k]);
      p.peepholeEffective[k] = static_cast<float>(cellScale * in[kPeephole[k]].scale / intermediate);
    }
    if (layerNorm) {
      p.layerNorm[k] = input<int16_t>(c, 20 + k);
      p.layerNormScale[k] = in[20 + k].scale;
    }
  }
  // The clips as Android's reference quantizes them: truncated, the projection's with the projection
  // weights' scale; 0 or less disables them.
  const float cellClip = in[24].scalar<float>(), projectionClip = in[25].scalar<float>();
  if (cellClip > 0)
    p.cellClip = static_cast<int32_t>(std::min(std::max(cellClip / in[19].scale, -32768.0f), 32767.0f));
  p.hiddenEffective = static_cast<float>(std::ldexp(1.0, -15) / hiddenScale * std::ldexp(1.0, -15));
  p.hiddenZeroPoint = hiddenZeroPoint;
  if (projection) {
    p.projection = input<int8_t>(c, 16);
    p.projectionBias = absent(in[17]) ? nullptr : input<int32_t>(c, 17);
    p.projectionEffective = in[16].scale * hiddenScale / in[18].scale;
    if (projectionClip > 0)
      p.projectionClip =
          static_cast<int32_t>(std::min(std::max(projectionClip / in[16].scale, -128.0f), 127.0f));
  }
  // Multipliers of 2^31 and more would shift Android's int32 arithmetic out of range.
  for (double scale :
       {p.inputEffective[0], p.inputEffective[1], p.inputEffective[2], p.inputEffective[3],
        p.recurrentEffective[0], p.recurrentEffective[1], p.recurrentEffective[2], p.recurrentEffective[3],
        p.peepholeEffective[0], p.peepholeEffective[1], p.peepholeEffective[3], p.layerNormScale[0] * 4096.0,
        p.layerNormScale[1] * 4096.0, p.layerNormScale[2] * 4096.0, p.layerNormScale[3] * 4096.0,
        p.hiddenEffective, p.projectionEffective}) {
    if (!(scale < 0x1p31) || !std::isfinite(scale)) {
      return driver::invalidArgument(
          name + ": a rescaling factor of " + std::to_string(scale) +
          " (from the operands' and intermediate scales) is not supported (at most 2^31)");
    }
  }
  int8_t* out = output<int8_t>(c, 2);
  quantizedLstm(input<int8_t>(c, 0), p, input<int8_t>(c, 18), input<int16_t>(c, 19), output<int16_t>(c, 1),
                out);
  std::copy_n(out, size_t{batch} * outputSize, output<int8_t>(c, 0));
  return {};
}

using namespace table_names;

const KernelEntry kQuantizedLstmKernels[] = {
    {T::QUANTIZED_16BIT_LSTM, Q8, noParams, quantized16BitLstm},
    {T::QUANTIZED_LSTM, Q8S, noParams, quantizedLstmCell},
};

}  // namespace

std::span<const KernelEntry> quantizedLstmKernels() {
  return kQuantizedLstmKernels;
}

}  // namespace nnrt::cpu
