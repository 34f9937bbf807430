// The cpu driver's table for the reductions of feature level 3: REDUCE_SUM, REDUCE_PROD, REDUCE_MAX,
// REDUCE_MIN, REDUCE_ALL, REDUCE_ANY (over a set of axes), ARGMAX, ARGMIN (along one) and TOPK_V2, in every
// operand type NNAPI lists for them through feature level 4. Float16 runs through viaFloat32 and
// signed quant8 through viaUnsigned (both exact, and order-preserving for the extrema).
#include <cstdint>
#include <span>
#include <string>

#include "nnrt/driver/ops/operand_types.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/kernels/reduce.hpp"
#include "plugins/cpu/type_adapters.hpp"

namespace nnrt::cpu {

std::span<const KernelEntry> reduceKernels();

namespace {

using driver::Result;

// REDUCE_*(input, axes, keep_dims): the axes made non-negative (repeats allowed). keep_dims only
// shapes the output, which the SDK has inferred.
Result<OpParams> decodeReduce(const ops::OpArgs& op) {
  const ops::Arg& axes = op.inputs[1];
  const auto rank = static_cast<int32_t>(op.inputs[0].rank());
  if (!axes.hasValue() || rank == 0) return driver::invalidArgument(ops::operationName(op.type) + ": axes not known yet");
  ops::MeanParams p;
  const auto* values = static_cast<const int32_t*>(axes.data);
  for (size_t i = 0; i < axes.length / sizeof(int32_t); ++i) {
    const int32_t axis = values[i];
    if (axis < -rank || axis >= rank) {
      return driver::invalidArgument(ops::operationName(op.type) + ": axis " + std::to_string(axis) +
                                     " is outside [" + std::to_string(-rank) + ", " + std::to_string(rank) + ")");
    }
    p.axes.push_back(static_cast<uint32_t>(axis < 0 ? axis + rank : axis));
  }
  return OpParams(std::move(p));
}

using FloatReduce = void (*)(const float*, const Shape&, std::span<const uint32_t>, float*);
using ByteReduce = void (*)(const uint8_t*, const Shape&, std::span<const uint32_t>, uint8_t*);

template <FloatReduce F>
Result<void> reduceFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::MeanParams>(c));
  F(input<float>(c, 0), shapeOf(c.op.inputs[0]), p->axes, output<float>(c));
  return {};
}

template <ByteReduce F>
Result<void> reduceBytes(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::MeanParams>(c));
  F(input<uint8_t>(c, 0), shapeOf(c.op.inputs[0]), p->axes, output<uint8_t>(c));
  return {};
}

uint32_t argAxis(const KernelCall& c) {
  const auto rank = static_cast<int32_t>(c.op.inputs[0].rank());
  const int32_t axis = c.op.inputs[1].scalar<int32_t>();
  return static_cast<uint32_t>(axis < 0 ? axis + rank : axis);
}

template <typename T, bool Largest>
Result<void> argExtremum(const KernelCall& c) {
  if constexpr (Largest) {
    argMax(input<T>(c, 0), shapeOf(c.op.inputs[0]), argAxis(c), output<int32_t>(c));
  } else {
    argMin(input<T>(c, 0), shapeOf(c.op.inputs[0]), argAxis(c), output<int32_t>(c));
  }
  return {};
}

// TOPK_V2(input, k) -> (values, indices) along the last dimension.
template <typename T>
Result<void> topKRun(const KernelCall& c) {
  const ops::Arg& in = c.op.inputs[0];
  const size_t rowLength = in.dims.back();
  const auto k = static_cast<uint32_t>(c.op.inputs[1].scalar<int32_t>());
  topK(input<T>(c, 0), elementsOf(in) / rowLength, rowLength, k, output<T>(c, 0), output<int32_t>(c, 1));
  return {};
}

using namespace table_names;
constexpr auto B8 = driver::OperandType::TENSOR_BOOL8;

const KernelEntry kReduce[] = {
    {T::REDUCE_SUM, F32, decodeReduce, reduceFloat<reduceSum>},
    {T::REDUCE_SUM, F16, decodeReduce, viaFloat32<reduceFloat<reduceSum>>},
    {T::REDUCE_PROD, F32, decodeReduce, reduceFloat<reduceProd>},
    {T::REDUCE_PROD, F16, decodeReduce, viaFloat32<reduceFloat<reduceProd>>},
    {T::REDUCE_MAX, F32, decodeReduce, reduceFloat<reduceMax>},
    {T::REDUCE_MAX, F16, decodeReduce, viaFloat32<reduceFloat<reduceMax>>},
    {T::REDUCE_MAX, Q8, decodeReduce, reduceBytes<reduceMax>},
    {T::REDUCE_MAX, Q8S, decodeReduce, viaUnsigned<reduceBytes<reduceMax>>},
    {T::REDUCE_MIN, F32, decodeReduce, reduceFloat<reduceMin>},
    {T::REDUCE_MIN, F16, decodeReduce, viaFloat32<reduceFloat<reduceMin>>},
    {T::REDUCE_MIN, Q8, decodeReduce, reduceBytes<reduceMin>},
    {T::REDUCE_MIN, Q8S, decodeReduce, viaUnsigned<reduceBytes<reduceMin>>},
    {T::REDUCE_ALL, B8, decodeReduce, reduceBytes<reduceAll>},
    {T::REDUCE_ANY, B8, decodeReduce, reduceBytes<reduceAny>},
    {T::ARGMAX, F32, noParams, argExtremum<float, true>},
    {T::ARGMAX, F16, noParams, viaFloat32<argExtremum<float, true>>},
    {T::ARGMAX, I32, noParams, argExtremum<int32_t, true>},
    {T::ARGMAX, Q8, noParams, argExtremum<uint8_t, true>},
    {T::ARGMAX, Q8S, noParams, viaUnsigned<argExtremum<uint8_t, true>>},
    {T::ARGMIN, F32, noParams, argExtremum<float, false>},
    {T::ARGMIN, F16, noParams, viaFloat32<argExtremum<float, false>>},
    {T::ARGMIN, I32, noParams, argExtremum<int32_t, false>},
    {T::ARGMIN, Q8, noParams, argExtremum<uint8_t, false>},
    {T::ARGMIN, Q8S, noParams, viaUnsigned<argExtremum<uint8_t, false>>},
    {T::TOPK_V2, F32, noParams, topKRun<float>},
    {T::TOPK_V2, F16, noParams, viaFloat32<topKRun<float>>},
    {T::TOPK_V2, I32, noParams, topKRun<int32_t>},
    {T::TOPK_V2, Q8, noParams, topKRun<uint8_t>},
    {T::TOPK_V2, Q8S, noParams, viaUnsigned<topKRun<uint8_t>>},
};

}  // namespace

std::span<const KernelEntry> reduceKernels() {
  return kReduce;
}

}  // namespace nnrt::cpu
