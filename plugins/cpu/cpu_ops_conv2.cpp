// The cpu driver's table for GROUPED_CONV_2D, TRANSPOSE_CONV_2D, RESIZE_NEAREST_NEIGHBOR,
// INSTANCE_NORMALIZATION and BATCH_MATMUL, in every operand type the SDK's validation accepts for them
// (through feature level 4; BATCH_MATMUL as Android 13 defines it). GROUPED_CONV_2D,
// TRANSPOSE_CONV_2D and BATCH_MATMUL take their parameters decoded by the SDK (ops::decode*, at
// preparation when they are known then); the others read theirs at execution from the operation's
// inputs (FLOAT16 scalars arrive widened to FLOAT32 through viaFloat32).
#include <cstdint>
#include <span>
#include <string>
#include <utility>

#include "nnrt/driver/ops/operand_types.hpp"
#include "nnrt/driver/ops/params.hpp"
#include "plugins/cpu/conv_per_channel.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/kernels/conv2.hpp"
#include "plugins/cpu/kernels/quantization.hpp"
#include "plugins/cpu/type_adapters.hpp"

namespace nnrt::cpu {

std::span<const KernelEntry> conv2Kernels();

namespace {

using driver::OperandType;
using driver::Result;
using ops::Arg;

bool isPerChannel(const KernelCall& c) {
  return ops::isType(c.op.inputs[1].type, OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL);
}

// ---- GROUPED_CONV_2D -------------------------------------------------------------------------------------

Result<void> groupedConvFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* g, paramsOf<ops::GroupedConv2DParams>(c));
  const Shape filterShape = shapeOf(c.op.inputs[1]);
  runNhwc(c, g->nchw, sizeof(float),
          [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
            groupedConv2d(static_cast<const float*>(in), inShape, input<float>(c, 1), filterShape,
                          input<float>(c, 2), g->groups, convParams(*g), static_cast<float*>(out), outShape);
          });
  return {};
}

Result<void> groupedConvQuant(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* g, paramsOf<ops::GroupedConv2DParams>(c));
  const Shape filterShape = shapeOf(c.op.inputs[1]);
  const Quant inQuant = quantOf(c.op.inputs[0]), outQuant = quantOf(c.op.outputs[0]);
  if (isPerChannel(c)) {
    NNRT_ASSIGN_OR_RETURN(const float* scales, per_channel_detail::filterScales(c, 0));
    runNhwc(c, g->nchw, 1, [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
      groupedConv2dPerChannel(static_cast<const uint8_t*>(in), inShape, inQuant, input<int8_t>(c, 1),
                              filterShape, scales, input<int32_t>(c, 2), g->groups, convParams(*g),
                              static_cast<uint8_t*>(out), outShape, outQuant);
    });
    return {};
  }
  runNhwc(c, g->nchw, 1, [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
    groupedConv2d(static_cast<const uint8_t*>(in), inShape, inQuant, input<uint8_t>(c, 1), filterShape,
                  quantOf(c.op.inputs[1]), input<int32_t>(c, 2), g->groups, convParams(*g),
                  static_cast<uint8_t*>(out), outShape, outQuant);
  });
  return {};
}

// ---- TRANSPOSE_CONV_2D -----------------------------------------------------------------------------------

Result<void> transposeConvFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* t, paramsOf<ops::TransposeConv2DParams>(c));
  const Shape filterShape = shapeOf(c.op.inputs[1]);
  runNhwc(c, t->nchw, sizeof(float),
          [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
            transposeConv2d(static_cast<const float*>(in), inShape, input<float>(c, 1), filterShape,
                            input<float>(c, 2), convParams(*t), static_cast<float*>(out), outShape);
          });
  return {};
}

Result<void> transposeConvQuant(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* t, paramsOf<ops::TransposeConv2DParams>(c));
  const Shape filterShape = shapeOf(c.op.inputs[1]);
  const Quant inQuant = quantOf(c.op.inputs[0]), outQuant = quantOf(c.op.outputs[0]);
  if (isPerChannel(c)) {
    NNRT_ASSIGN_OR_RETURN(const float* scales, per_channel_detail::filterScales(c, 0));
    runNhwc(c, t->nchw, 1, [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
      transposeConv2dPerChannel(static_cast<const uint8_t*>(in), inShape, inQuant, input<int8_t>(c, 1),
                                filterShape, scales, input<int32_t>(c, 2), convParams(*t),
                                static_cast<uint8_t*>(out), outShape, outQuant);
    });
    return {};
  }
  runNhwc(c, t->nchw, 1, [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
    transposeConv2d(static_cast<const uint8_t*>(in), inShape, inQuant, input<uint8_t>(c, 1), filterShape,
                    quantOf(c.op.inputs[1]), input<int32_t>(c, 2), convParams(*t), static_cast<uint8_t*>(out),
                    outShape, outQuant);
  });
  return {};
}

// ---- RESIZE_NEAREST_NEIGHBOR -----------------------------------------------------------------------------

// Inputs 3, 4, 5: layout, align corners, half pixel centers (each optional). The values are copied as
// stored.
Result<void> resizeNearestAny(const KernelCall& c) {
  const bool align = flagAt(c, 4), halfPixel = flagAt(c, 5);
  const size_t size = ops::elementSize(c.op.inputs[0].type);
  runNhwcOrPlanes(c, flagAt(c, 3), [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
    resizeNearest(in, inShape, size, align, halfPixel, out, outShape);
  });
  return {};
}

// Quant8: the stored values are copied, then requantized when the output has other parameters than
// the input (rounded to nearest, clamped).
Result<void> resizeNearestQuant(const KernelCall& c) {
  NNRT_RETURN_IF_ERROR(resizeNearestAny(c));
  const Quant from = quantOf(c.op.inputs[0]), to = quantOf(c.op.outputs[0]);
  if (from.scale == to.scale && from.zeroPoint == to.zeroPoint) return {};
  const auto table = requantizeTable(from, to);
  uint8_t* out = output<uint8_t>(c);
  for (size_t i = 0, n = elementsOf(c.op.outputs[0]); i < n; ++i) out[i] = table[out[i]];
  return {};
}

// ---- INSTANCE_NORMALIZATION ------------------------------------------------------------------------------

// Inputs: gamma 1, beta 2, epsilon 3, layout 4.
Result<void> instanceNormFloat(const KernelCall& c) {
  const float gamma = c.op.inputs[1].scalar<float>(), beta = c.op.inputs[2].scalar<float>(),
              epsilon = c.op.inputs[3].scalar<float>();
  runNhwcOrPlanes(c, flagAt(c, 4), [&](const void* in, const Shape& inShape, void* out, const Shape&) {
    instanceNormalization(static_cast<const float*>(in), inShape, gamma, beta, epsilon, static_cast<float*>(out));
  });
  return {};
}

// ---- BATCH_MATMUL ----------------------------------------------------------------------------------------

// Inputs: lhs 0, rhs 1, adjoint lhs 2, adjoint rhs 3.
template <class E>
Result<void> batchMatmulPlain(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::BatchMatmulParams>(c));
  batchMatmul(input<E>(c, 0), shapeOf(c.op.inputs[0]), input<E>(c, 1), shapeOf(c.op.inputs[1]), p->adjointLhs,
              p->adjointRhs, output<E>(c), shapeOf(c.op.outputs[0]));
  return {};
}

Result<void> batchMatmulQuant(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::BatchMatmulParams>(c));
  batchMatmul(input<uint8_t>(c, 0), shapeOf(c.op.inputs[0]), quantOf(c.op.inputs[0]), input<uint8_t>(c, 1),
              shapeOf(c.op.inputs[1]), quantOf(c.op.inputs[1]), p->adjointLhs, p->adjointRhs,
              output<uint8_t>(c), shapeOf(c.op.outputs[0]), quantOf(c.op.outputs[0]));
  return {};
}

using namespace table_names;

const KernelEntry kConv2Kernels[] = {
    {T::GROUPED_CONV_2D, F32, decodeWith<ops::decodeGroupedConv2D>, groupedConvFloat},
    {T::GROUPED_CONV_2D, F16, decodeWith<ops::decodeGroupedConv2D>, viaFloat32<groupedConvFloat>},
    {T::GROUPED_CONV_2D, Q8, decodeWith<ops::decodeGroupedConv2D>, groupedConvQuant},
    {T::GROUPED_CONV_2D, Q8S, decodeWith<ops::decodeGroupedConv2D>, viaUnsigned<groupedConvQuant>},
    {T::TRANSPOSE_CONV_2D, F32, decodeWith<ops::decodeTransposeConv2D>, transposeConvFloat},
    {T::TRANSPOSE_CONV_2D, F16, decodeWith<ops::decodeTransposeConv2D>, viaFloat32<transposeConvFloat>},
    {T::TRANSPOSE_CONV_2D, Q8, decodeWith<ops::decodeTransposeConv2D>, transposeConvQuant},
    {T::TRANSPOSE_CONV_2D, Q8S, decodeWith<ops::decodeTransposeConv2D>, viaUnsigned<transposeConvQuant>},
    {T::RESIZE_NEAREST_NEIGHBOR, F32, noParams, resizeNearestAny},
    {T::RESIZE_NEAREST_NEIGHBOR, F16, noParams, resizeNearestAny},
    {T::RESIZE_NEAREST_NEIGHBOR, Q8, noParams, resizeNearestQuant},
    {T::RESIZE_NEAREST_NEIGHBOR, Q8S, noParams, viaUnsigned<resizeNearestQuant>},
    {T::INSTANCE_NORMALIZATION, F32, noParams, instanceNormFloat},
    {T::INSTANCE_NORMALIZATION, F16, noParams, viaFloat32<instanceNormFloat>},
    {T::BATCH_MATMUL, F32, decodeWith<ops::decodeBatchMatmul>, batchMatmulPlain<float>},
    {T::BATCH_MATMUL, F16, decodeWith<ops::decodeBatchMatmul>, viaFloat32<batchMatmulPlain<float>>},
    {T::BATCH_MATMUL, I32, decodeWith<ops::decodeBatchMatmul>, batchMatmulPlain<int32_t>},
    {T::BATCH_MATMUL, Q8S, decodeWith<ops::decodeBatchMatmul>, viaUnsigned<batchMatmulQuant>},
};

}  // namespace

std::span<const KernelEntry> conv2Kernels() {
  return kConv2Kernels;
}

}  // namespace nnrt::cpu
