// The cpu driver's table for the activations and conversions of feature levels 3 and 4: PRELU, ELU,
// HARD_SWISH, POW, LOG_SOFTMAX, CAST, QUANTIZE, FILL and RANK, in every operand type NNAPI lists for them
// through feature level 4. Float16 runs through viaFloat32 (FLOAT16 scalars widened too) and signed
// quant8 through viaUnsigned (both exact, type_adapters.hpp).
#include <cstdint>
#include <cstring>
#include <span>

#include "nnrt/driver/ops/operand_types.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/kernels/nonlinear.hpp"
#include "plugins/cpu/type_adapters.hpp"

namespace nnrt::cpu {

std::span<const KernelEntry> nonlinearKernels();

namespace {

using driver::OperandType;
using driver::Result;

Result<void> preluFloat(const KernelCall& c) {
  prelu(input<float>(c, 0), shapeOf(c.op.inputs[0]), input<float>(c, 1), shapeOf(c.op.inputs[1]), output<float>(c),
        shapeOf(c.op.outputs[0]));
  return {};
}
Result<void> preluQuant(const KernelCall& c) {
  prelu(input<uint8_t>(c, 0), shapeOf(c.op.inputs[0]), quantOf(c.op.inputs[0]), input<uint8_t>(c, 1),
        shapeOf(c.op.inputs[1]), quantOf(c.op.inputs[1]), output<uint8_t>(c), shapeOf(c.op.outputs[0]),
        quantOf(c.op.outputs[0]));
  return {};
}

Result<void> eluFloat(const KernelCall& c) {
  elu(input<float>(c, 0), elementsOf(c.op.inputs[0]), c.op.inputs[1].scalar<float>(), output<float>(c));
  return {};
}

Result<void> hardSwishFloat(const KernelCall& c) {
  hardSwish(input<float>(c, 0), elementsOf(c.op.inputs[0]), output<float>(c));
  return {};
}
Result<void> hardSwishQuant(const KernelCall& c) {
  hardSwish(input<uint8_t>(c, 0), elementsOf(c.op.inputs[0]), quantOf(c.op.inputs[0]), output<uint8_t>(c),
            quantOf(c.op.outputs[0]));
  return {};
}

Result<void> powFloat(const KernelCall& c) {
  pow(input<float>(c, 0), shapeOf(c.op.inputs[0]), input<float>(c, 1), shapeOf(c.op.inputs[1]), output<float>(c),
      shapeOf(c.op.outputs[0]));
  return {};
}

// LOG_SOFTMAX(input, beta, axis): the axis may be negative.
Result<void> logSoftmaxFloat(const KernelCall& c) {
  const auto rank = static_cast<int32_t>(c.op.inputs[0].rank());
  const int32_t axis = c.op.inputs[2].scalar<int32_t>();
  logSoftmax(input<float>(c, 0), shapeOf(c.op.inputs[0]), c.op.inputs[1].scalar<float>(),
             static_cast<uint32_t>(axis < 0 ? axis + rank : axis), output<float>(c));
  return {};
}

// CAST between TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32 and TENSOR_QUANT8_ASYMM; the other types
// cast only to themselves (a copy).
Result<void> castAny(const KernelCall& c) {
  const ops::Arg& in = c.op.inputs[0];
  const ops::Arg& out = c.op.outputs[0];
  if (in.type == out.type) {
    std::memcpy(c.outputData[0], in.data, elementsOf(in) * ops::elementSize(in.type));
    return {};
  }
  cast(in.data, in.type, elementsOf(in), c.outputData[0], out.type);
  return {};
}

// QUANTIZE into TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED.
Result<void> quantizeFloat(const KernelCall& c) {
  const bool isSigned = c.op.outputs[0].type == static_cast<int32_t>(OperandType::TENSOR_QUANT8_ASYMM_SIGNED);
  quantize(input<float>(c, 0), elementsOf(c.op.inputs[0]), quantOf(c.op.outputs[0]), isSigned ? -128 : 0,
           isSigned ? 127 : 255, output<uint8_t>(c));
  return {};
}

// FILL(dims, value): the value scalar has the output's element type (FLOAT16 as its 2 bytes).
Result<void> fillAny(const KernelCall& c) {
  const ops::Arg& value = c.op.inputs[1];
  const size_t size = ops::elementSize(c.op.outputs[0].type);
  const size_t count = elementsOf(c.op.outputs[0]);
  auto* out = static_cast<uint8_t*>(c.outputData[0]);
  for (size_t i = 0; i < count; ++i) std::memcpy(out + i * size, value.data, size);
  return {};
}

// RANK: the rank of input 0 (any type) as an INT32 scalar.
Result<void> rankAny(const KernelCall& c) {
  *output<int32_t>(c) = static_cast<int32_t>(c.op.inputs[0].rank());
  return {};
}

using namespace table_names;
constexpr auto B8 = OperandType::TENSOR_BOOL8;
constexpr auto Q16A = OperandType::TENSOR_QUANT16_ASYMM;
constexpr auto Q16S = OperandType::TENSOR_QUANT16_SYMM;

const KernelEntry kNonlinear[] = {
    {T::PRELU, F32, noParams, preluFloat},
    {T::PRELU, F16, noParams, viaFloat32<preluFloat>},
    {T::PRELU, Q8, noParams, preluQuant},
    {T::PRELU, Q8S, noParams, viaUnsigned<preluQuant>},
    {T::ELU, F32, noParams, eluFloat},
    {T::ELU, F16, noParams, viaFloat32<eluFloat>},
    {T::HARD_SWISH, F32, noParams, hardSwishFloat},
    {T::HARD_SWISH, F16, noParams, viaFloat32<hardSwishFloat>},
    {T::HARD_SWISH, Q8, noParams, hardSwishQuant},
    {T::HARD_SWISH, Q8S, noParams, viaUnsigned<hardSwishQuant>},
    {T::POW, F32, noParams, powFloat},
    {T::POW, F16, noParams, viaFloat32<powFloat>},
    {T::LOG_SOFTMAX, F32, noParams, logSoftmaxFloat},
    {T::LOG_SOFTMAX, F16, noParams, viaFloat32<logSoftmaxFloat>},
    {T::CAST, F32, noParams, castAny},
    {T::CAST, F16, noParams, castAny},
    {T::CAST, I32, noParams, castAny},
    {T::CAST, Q8, noParams, castAny},
    {T::CAST, B8, noParams, castAny},
    {T::CAST, Q16A, noParams, castAny},
    {T::CAST, Q16S, noParams, castAny},
    {T::CAST, Q8S, noParams, castAny},
    {T::CAST, Q8Symm, noParams, castAny},
    {T::QUANTIZE, F32, noParams, quantizeFloat},
    {T::QUANTIZE, F16, noParams, viaFloat32<quantizeFloat>},
    {T::FILL, I32, noParams, fillAny},
    {T::RANK, F32, noParams, rankAny},
    {T::RANK, F16, noParams, rankAny},
    {T::RANK, I32, noParams, rankAny},
    {T::RANK, Q8, noParams, rankAny},
    {T::RANK, Q8S, noParams, rankAny},
    {T::RANK, Q8Symm, noParams, rankAny},
    {T::RANK, Q8C, noParams, rankAny},
    {T::RANK, B8, noParams, rankAny},
    {T::RANK, Q16A, noParams, rankAny},
    {T::RANK, Q16S, noParams, rankAny},
};

}  // namespace

std::span<const KernelEntry> nonlinearKernels() {
  return kNonlinear;
}

}  // namespace nnrt::cpu
