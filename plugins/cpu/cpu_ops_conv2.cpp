// The cpu driver's table for GROUPED_CONV_2D, TRANSPOSE_CONV_2D, RESIZE_NEAREST_NEIGHBOR,
// INSTANCE_NORMALIZATION and BATCH_MATMUL, in every operand type the SDK's validation accepts for them
// (through feature level 4; BATCH_MATMUL as Android 13 defines it). Scalar parameters are read at
// execution from the operation's inputs (every value is known then; FLOAT16 scalars arrive widened to
// FLOAT32 through viaFloat32). Implicit padding is the SDK's ops::implicitPadding (CONV_2D's rule):
// on the input for GROUPED_CONV_2D, on the output size for TRANSPOSE_CONV_2D (only the leading pads
// matter there, the output shape fixes the rest).
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

int32_t intAt(const KernelCall& c, size_t index) {
  return c.op.inputs[index].scalar<int32_t>();
}

// Explicit pads at inputs first..first+3 (left, right, top, bottom) into `p`.
void explicitPads(const KernelCall& c, size_t first, Conv2DParams& p) {
  p.padLeft = static_cast<uint32_t>(intAt(c, first));
  p.padRight = static_cast<uint32_t>(intAt(c, first + 1));
  p.padTop = static_cast<uint32_t>(intAt(c, first + 2));
  p.padBottom = static_cast<uint32_t>(intAt(c, first + 3));
}

// Implicit pads for padding scheme `code` over `image` ([N, H, W, C] or [N, C, H, W]) into `p`.
void implicitPads(int32_t code, const Arg& image, bool nchw, const Arg& filter, Conv2DParams& p) {
  const uint32_t h = nchw ? image.dims[2] : image.dims[1], w = nchw ? image.dims[3] : image.dims[2];
  std::tie(p.padLeft, p.padRight) = ops::implicitPadding(code, w, filter.dims[2], p.strideW);
  std::tie(p.padTop, p.padBottom) = ops::implicitPadding(code, h, filter.dims[1], p.strideH);
}

bool isPerChannel(const KernelCall& c) {
  return ops::isType(c.op.inputs[1].type, OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL);
}

// ---- GROUPED_CONV_2D -------------------------------------------------------------------------------------

// Explicit (12 inputs): pads 3..6, strides 7, 8, groups 9, FuseCode 10, layout 11.
// Implicit (9 inputs): padding scheme 3, strides 4, 5, groups 6, FuseCode 7, layout 8.
struct GroupedWindow {
  Conv2DParams window;
  uint32_t groups = 1;
  bool nchw = false;
};

GroupedWindow groupedWindow(const KernelCall& c) {
  GroupedWindow g;
  const bool explicitForm = c.op.inputs.size() == 12;
  const size_t s = explicitForm ? 7 : 4;  // stride width
  Conv2DParams& p = g.window;
  p.strideW = static_cast<uint32_t>(intAt(c, s));
  p.strideH = static_cast<uint32_t>(intAt(c, s + 1));
  g.groups = static_cast<uint32_t>(intAt(c, s + 2));
  p.act = static_cast<Activation>(intAt(c, s + 3));
  g.nchw = flagAt(c, s + 4);
  if (explicitForm) {
    explicitPads(c, 3, p);
  } else {
    implicitPads(intAt(c, 3), c.op.inputs[0], g.nchw, c.op.inputs[1], p);
  }
  return g;
}

Result<void> groupedConvFloat(const KernelCall& c) {
  const GroupedWindow g = groupedWindow(c);
  const Shape filterShape = shapeOf(c.op.inputs[1]);
  runNhwc(c, g.nchw, sizeof(float), [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
    groupedConv2d(static_cast<const float*>(in), inShape, input<float>(c, 1), filterShape, input<float>(c, 2),
                  g.groups, g.window, static_cast<float*>(out), outShape);
  });
  return {};
}

Result<void> groupedConvQuant(const KernelCall& c) {
  const GroupedWindow g = groupedWindow(c);
  const Shape filterShape = shapeOf(c.op.inputs[1]);
  const Quant inQuant = quantOf(c.op.inputs[0]), outQuant = quantOf(c.op.outputs[0]);
  if (isPerChannel(c)) {
    NNRT_ASSIGN_OR_RETURN(const float* scales, per_channel_detail::filterScales(c, 0));
    runNhwc(c, g.nchw, 1, [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
      groupedConv2dPerChannel(static_cast<const uint8_t*>(in), inShape, inQuant, input<int8_t>(c, 1), filterShape,
                              scales, input<int32_t>(c, 2), g.groups, g.window, static_cast<uint8_t*>(out),
                              outShape, outQuant);
    });
    return {};
  }
  runNhwc(c, g.nchw, 1, [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
    groupedConv2d(static_cast<const uint8_t*>(in), inShape, inQuant, input<uint8_t>(c, 1), filterShape,
                  quantOf(c.op.inputs[1]), input<int32_t>(c, 2), g.groups, g.window, static_cast<uint8_t*>(out),
                  outShape, outQuant);
  });
  return {};
}

// ---- TRANSPOSE_CONV_2D -----------------------------------------------------------------------------------

// Explicit (11 inputs): pads 3..6, strides 7, 8, FuseCode 9, layout 10.
// Implicit (9 inputs): output shape 3, padding scheme 4, strides 5, 6, FuseCode 7, layout 8.
struct TransposeWindow {
  Conv2DParams window;
  bool nchw = false;
};

TransposeWindow transposeWindow(const KernelCall& c) {
  TransposeWindow t;
  const bool explicitForm = c.op.inputs.size() == 11;
  const size_t s = explicitForm ? 7 : 5;
  Conv2DParams& p = t.window;
  p.strideW = static_cast<uint32_t>(intAt(c, s));
  p.strideH = static_cast<uint32_t>(intAt(c, s + 1));
  p.act = static_cast<Activation>(intAt(c, s + 2));
  t.nchw = flagAt(c, s + 3);
  if (explicitForm) {
    explicitPads(c, 3, p);
  } else {
    implicitPads(intAt(c, 4), c.op.outputs[0], t.nchw, c.op.inputs[1], p);  // the rule on the output size
  }
  return t;
}

Result<void> transposeConvFloat(const KernelCall& c) {
  const TransposeWindow t = transposeWindow(c);
  const Shape filterShape = shapeOf(c.op.inputs[1]);
  runNhwc(c, t.nchw, sizeof(float), [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
    transposeConv2d(static_cast<const float*>(in), inShape, input<float>(c, 1), filterShape, input<float>(c, 2),
                    t.window, static_cast<float*>(out), outShape);
  });
  return {};
}

Result<void> transposeConvQuant(const KernelCall& c) {
  const TransposeWindow t = transposeWindow(c);
  const Shape filterShape = shapeOf(c.op.inputs[1]);
  const Quant inQuant = quantOf(c.op.inputs[0]), outQuant = quantOf(c.op.outputs[0]);
  if (isPerChannel(c)) {
    NNRT_ASSIGN_OR_RETURN(const float* scales, per_channel_detail::filterScales(c, 0));
    runNhwc(c, t.nchw, 1, [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
      transposeConv2dPerChannel(static_cast<const uint8_t*>(in), inShape, inQuant, input<int8_t>(c, 1),
                                filterShape, scales, input<int32_t>(c, 2), t.window, static_cast<uint8_t*>(out),
                                outShape, outQuant);
    });
    return {};
  }
  runNhwc(c, t.nchw, 1, [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
    transposeConv2d(static_cast<const uint8_t*>(in), inShape, inQuant, input<uint8_t>(c, 1), filterShape,
                    quantOf(c.op.inputs[1]), input<int32_t>(c, 2), t.window, static_cast<uint8_t*>(out), outShape,
                    outQuant);
  });
  return {};
}

// ---- RESIZE_NEAREST_NEIGHBOR -----------------------------------------------------------------------------

// Inputs 3, 4, 5: layout, align corners, half pixel centers (each optional). The values are copied as
// stored.
Result<void> resizeNearestAny(const KernelCall& c) {
  const bool align = flagAt(c, 4), halfPixel = flagAt(c, 5);
  const size_t size = ops::elementSize(c.op.inputs[0].type);
  runNhwc(c, flagAt(c, 3), size, [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
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
  runNhwc(c, flagAt(c, 4), sizeof(float), [&](const void* in, const Shape& inShape, void* out, const Shape&) {
    instanceNormalization(static_cast<const float*>(in), inShape, gamma, beta, epsilon, static_cast<float*>(out));
  });
  return {};
}

// ---- BATCH_MATMUL ----------------------------------------------------------------------------------------

// Inputs: lhs 0, rhs 1, adjoint lhs 2, adjoint rhs 3.
template <class E>
Result<void> batchMatmulPlain(const KernelCall& c) {
  batchMatmul(input<E>(c, 0), shapeOf(c.op.inputs[0]), input<E>(c, 1), shapeOf(c.op.inputs[1]), flagAt(c, 2),
              flagAt(c, 3), output<E>(c), shapeOf(c.op.outputs[0]));
  return {};
}

Result<void> batchMatmulQuant(const KernelCall& c) {
  batchMatmul(input<uint8_t>(c, 0), shapeOf(c.op.inputs[0]), quantOf(c.op.inputs[0]), input<uint8_t>(c, 1),
              shapeOf(c.op.inputs[1]), quantOf(c.op.inputs[1]), flagAt(c, 2), flagAt(c, 3), output<uint8_t>(c),
              shapeOf(c.op.outputs[0]), quantOf(c.op.outputs[0]));
  return {};
}

using namespace table_names;

const KernelEntry kConv2Kernels[] = {
    {T::GROUPED_CONV_2D, F32, noParams, groupedConvFloat},
    {T::GROUPED_CONV_2D, F16, noParams, viaFloat32<groupedConvFloat>},
    {T::GROUPED_CONV_2D, Q8, noParams, groupedConvQuant},
    {T::GROUPED_CONV_2D, Q8S, noParams, viaUnsigned<groupedConvQuant>},
    {T::TRANSPOSE_CONV_2D, F32, noParams, transposeConvFloat},
    {T::TRANSPOSE_CONV_2D, F16, noParams, viaFloat32<transposeConvFloat>},
    {T::TRANSPOSE_CONV_2D, Q8, noParams, transposeConvQuant},
    {T::TRANSPOSE_CONV_2D, Q8S, noParams, viaUnsigned<transposeConvQuant>},
    {T::RESIZE_NEAREST_NEIGHBOR, F32, noParams, resizeNearestAny},
    {T::RESIZE_NEAREST_NEIGHBOR, F16, noParams, resizeNearestAny},
    {T::RESIZE_NEAREST_NEIGHBOR, Q8, noParams, resizeNearestQuant},
    {T::RESIZE_NEAREST_NEIGHBOR, Q8S, noParams, viaUnsigned<resizeNearestQuant>},
    {T::INSTANCE_NORMALIZATION, F32, noParams, instanceNormFloat},
    {T::INSTANCE_NORMALIZATION, F16, noParams, viaFloat32<instanceNormFloat>},
    {T::BATCH_MATMUL, F32, noParams, batchMatmulPlain<float>},
    {T::BATCH_MATMUL, F16, noParams, viaFloat32<batchMatmulPlain<float>>},
    {T::BATCH_MATMUL, I32, noParams, batchMatmulPlain<int32_t>},
    {T::BATCH_MATMUL, Q8S, noParams, viaUnsigned<batchMatmulQuant>},
};

}  // namespace

std::span<const KernelEntry> conv2Kernels() {
  return kConv2Kernels;
}

}  // namespace nnrt::cpu
