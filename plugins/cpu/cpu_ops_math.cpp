// The cpu driver's table for the element-wise math of feature level 3: ABS, EXP, LOG, NEG, RSQRT, SIN,
// SQRT, the six comparisons, MAXIMUM, MINIMUM, LOGICAL_AND, LOGICAL_OR, LOGICAL_NOT and SELECT, in every
// operand type NNAPI lists for them through feature level 4. Float16 runs through viaFloat32 and signed
// quant8 through viaUnsigned (both exact, type_adapters.hpp).
#include <cstdint>
#include <span>

#include "nnrt/driver/ops/operand_types.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/kernels/math.hpp"
#include "plugins/cpu/type_adapters.hpp"

namespace nnrt::cpu {

std::span<const KernelEntry> mathKernels();

namespace {

using driver::OperandType;
using driver::Result;

template <UnaryMath F>
Result<void> unaryFloat(const KernelCall& c) {
  unaryMath(input<float>(c, 0), elementsOf(c.op.inputs[0]), F, output<float>(c));
  return {};
}

template <UnaryMath F>
Result<void> unaryInt32(const KernelCall& c) {
  unaryMath(input<int32_t>(c, 0), elementsOf(c.op.inputs[0]), F, output<int32_t>(c));
  return {};
}

// Comparisons: two operands of one type (quantized ones each with their parameters), BOOL8 out.
template <Comparison C>
Result<void> compareFloat(const KernelCall& c) {
  compare(input<float>(c, 0), shapeOf(c.op.inputs[0]), input<float>(c, 1), shapeOf(c.op.inputs[1]), C,
          output<uint8_t>(c), shapeOf(c.op.outputs[0]));
  return {};
}
template <Comparison C>
Result<void> compareInt32(const KernelCall& c) {
  compare(input<int32_t>(c, 0), shapeOf(c.op.inputs[0]), input<int32_t>(c, 1), shapeOf(c.op.inputs[1]), C,
          output<uint8_t>(c), shapeOf(c.op.outputs[0]));
  return {};
}
template <Comparison C>
Result<void> compareBool8(const KernelCall& c) {
  compareBool(input<uint8_t>(c, 0), shapeOf(c.op.inputs[0]), input<uint8_t>(c, 1), shapeOf(c.op.inputs[1]), C,
              output<uint8_t>(c), shapeOf(c.op.outputs[0]));
  return {};
}
template <Comparison C>
Result<void> compareQuant(const KernelCall& c) {
  compare(input<uint8_t>(c, 0), shapeOf(c.op.inputs[0]), quantOf(c.op.inputs[0]), input<uint8_t>(c, 1),
          shapeOf(c.op.inputs[1]), quantOf(c.op.inputs[1]), C, output<uint8_t>(c), shapeOf(c.op.outputs[0]));
  return {};
}

// MAXIMUM (Larger) and MINIMUM.
template <bool Larger>
Result<void> extremumFloat(const KernelCall& c) {
  const auto* a = input<float>(c, 0);
  const auto* b = input<float>(c, 1);
  const Shape as = shapeOf(c.op.inputs[0]), bs = shapeOf(c.op.inputs[1]), os = shapeOf(c.op.outputs[0]);
  if constexpr (Larger) {
    maximum(a, as, b, bs, output<float>(c), os);
  } else {
    minimum(a, as, b, bs, output<float>(c), os);
  }
  return {};
}
template <bool Larger>
Result<void> extremumInt32(const KernelCall& c) {
  const auto* a = input<int32_t>(c, 0);
  const auto* b = input<int32_t>(c, 1);
  const Shape as = shapeOf(c.op.inputs[0]), bs = shapeOf(c.op.inputs[1]), os = shapeOf(c.op.outputs[0]);
  if constexpr (Larger) {
    maximum(a, as, b, bs, output<int32_t>(c), os);
  } else {
    minimum(a, as, b, bs, output<int32_t>(c), os);
  }
  return {};
}
template <bool Larger>
Result<void> extremumQuant(const KernelCall& c) {
  const auto* a = input<uint8_t>(c, 0);
  const auto* b = input<uint8_t>(c, 1);
  const Shape as = shapeOf(c.op.inputs[0]), bs = shapeOf(c.op.inputs[1]), os = shapeOf(c.op.outputs[0]);
  const Quant aq = quantOf(c.op.inputs[0]), bq = quantOf(c.op.inputs[1]), oq = quantOf(c.op.outputs[0]);
  if constexpr (Larger) {
    maximum(a, as, aq, b, bs, bq, output<uint8_t>(c), os, oq);
  } else {
    minimum(a, as, aq, b, bs, bq, output<uint8_t>(c), os, oq);
  }
  return {};
}

template <Logical L>
Result<void> logicalBinary(const KernelCall& c) {
  logical(input<uint8_t>(c, 0), shapeOf(c.op.inputs[0]), input<uint8_t>(c, 1), shapeOf(c.op.inputs[1]), L,
          output<uint8_t>(c), shapeOf(c.op.outputs[0]));
  return {};
}

Result<void> logicalNotRun(const KernelCall& c) {
  logicalNot(input<uint8_t>(c, 0), elementsOf(c.op.inputs[0]), output<uint8_t>(c));
  return {};
}

// SELECT(condition, a, b): the row is keyed by the condition (always TENSOR_BOOL8); the data type is
// input 1's. Quantized operands with parameters other than the output's are requantized.
Result<void> selectQuant(const KernelCall& c) {
  select(input<uint8_t>(c, 0), input<uint8_t>(c, 1), quantOf(c.op.inputs[1]), input<uint8_t>(c, 2),
         quantOf(c.op.inputs[2]), elementsOf(c.op.outputs[0]), output<uint8_t>(c), quantOf(c.op.outputs[0]));
  return {};
}

Result<void> selectAny(const KernelCall& c) {
  const ops::Arg& a = c.op.inputs[1];
  const ops::Arg& b = c.op.inputs[2];
  const ops::Arg& out = c.op.outputs[0];
  if (ops::isQuantizedType(a.type)) {
    const bool sameQuant = a.scale == out.scale && b.scale == out.scale && a.zeroPoint == out.zeroPoint &&
                           b.zeroPoint == out.zeroPoint;
    if (!sameQuant) {
      return a.type == static_cast<int32_t>(OperandType::TENSOR_QUANT8_ASYMM_SIGNED) ? viaUnsigned<selectQuant>(c)
                                                                                       : selectQuant(c);
    }
  }
  select(input<uint8_t>(c, 0), a.data, b.data, elementsOf(out), ops::elementSize(out.type), c.outputData[0]);
  return {};
}

using namespace table_names;
constexpr auto B8 = driver::OperandType::TENSOR_BOOL8;

#define NNRT_COMPARISON_ROWS(OP, C)                                                \
  {T::OP, B8, noParams, compareBool8<C>}, {T::OP, F32, noParams, compareFloat<C>},  \
      {T::OP, F16, noParams, viaFloat32<compareFloat<C>>},                          \
      {T::OP, I32, noParams, compareInt32<C>}, {T::OP, Q8, noParams, compareQuant<C>}, \
      {T::OP, Q8S, noParams, viaUnsigned<compareQuant<C>>}

const KernelEntry kMath[] = {
    {T::ABS, F32, noParams, unaryFloat<UnaryMath::Abs>},
    {T::ABS, F16, noParams, viaFloat32<unaryFloat<UnaryMath::Abs>>},
    {T::ABS, I32, noParams, unaryInt32<UnaryMath::Abs>},
    {T::EXP, F32, noParams, unaryFloat<UnaryMath::Exp>},
    {T::EXP, F16, noParams, viaFloat32<unaryFloat<UnaryMath::Exp>>},
    {T::LOG, F32, noParams, unaryFloat<UnaryMath::Log>},
    {T::LOG, F16, noParams, viaFloat32<unaryFloat<UnaryMath::Log>>},
    {T::NEG, F32, noParams, unaryFloat<UnaryMath::Neg>},
    {T::NEG, F16, noParams, viaFloat32<unaryFloat<UnaryMath::Neg>>},
    {T::NEG, I32, noParams, unaryInt32<UnaryMath::Neg>},
    {T::RSQRT, F32, noParams, unaryFloat<UnaryMath::Rsqrt>},
    {T::RSQRT, F16, noParams, viaFloat32<unaryFloat<UnaryMath::Rsqrt>>},
    {T::SIN, F32, noParams, unaryFloat<UnaryMath::Sin>},
    {T::SIN, F16, noParams, viaFloat32<unaryFloat<UnaryMath::Sin>>},
    {T::SQRT, F32, noParams, unaryFloat<UnaryMath::Sqrt>},
    {T::SQRT, F16, noParams, viaFloat32<unaryFloat<UnaryMath::Sqrt>>},
    NNRT_COMPARISON_ROWS(EQUAL, Comparison::Equal),
    NNRT_COMPARISON_ROWS(NOT_EQUAL, Comparison::NotEqual),
    NNRT_COMPARISON_ROWS(GREATER, Comparison::Greater),
    NNRT_COMPARISON_ROWS(GREATER_EQUAL, Comparison::GreaterEqual),
    NNRT_COMPARISON_ROWS(LESS, Comparison::Less),
    NNRT_COMPARISON_ROWS(LESS_EQUAL, Comparison::LessEqual),
    {T::MAXIMUM, F32, noParams, extremumFloat<true>},
    {T::MAXIMUM, F16, noParams, viaFloat32<extremumFloat<true>>},
    {T::MAXIMUM, I32, noParams, extremumInt32<true>},
    {T::MAXIMUM, Q8, noParams, extremumQuant<true>},
    {T::MAXIMUM, Q8S, noParams, viaUnsigned<extremumQuant<true>>},
    {T::MINIMUM, F32, noParams, extremumFloat<false>},
    {T::MINIMUM, F16, noParams, viaFloat32<extremumFloat<false>>},
    {T::MINIMUM, I32, noParams, extremumInt32<false>},
    {T::MINIMUM, Q8, noParams, extremumQuant<false>},
    {T::MINIMUM, Q8S, noParams, viaUnsigned<extremumQuant<false>>},
    {T::LOGICAL_AND, B8, noParams, logicalBinary<Logical::And>},
    {T::LOGICAL_OR, B8, noParams, logicalBinary<Logical::Or>},
    {T::LOGICAL_NOT, B8, noParams, logicalNotRun},
    {T::SELECT, B8, noParams, selectAny},
};

#undef NNRT_COMPARISON_ROWS

}  // namespace

std::span<const KernelEntry> mathKernels() {
  return kMath;
}

}  // namespace nnrt::cpu
