// GROUPED_CONV_2D, TRANSPOSE_CONV_2D, RESIZE_NEAREST_NEIGHBOR, INSTANCE_NORMALIZATION and BATCH_MATMUL
// over NHWC tensors with explicit padding (the driver transposes NCHW models and resolves implicit
// padding). Quantized forms take TENSOR_QUANT8_ASYMM data (the driver serves the signed type through
// its exact +128 adapter) and rescale their exact int32 sums with QuantizedMultiplier (round to
// nearest, halves away from zero), as the quantized CONV_2D does.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

// GROUPED_CONV_2D: input [N, H, W, groups * Cg], filter [Cout, KH, KW, Cg], bias [Cout], Cout a
// multiple of groups. Output channels [g * Cout/groups, (g + 1) * Cout/groups) read input channels
// [g * Cg, (g + 1) * Cg) only: each group is a CONV_2D (conv.hpp) of its own.
void groupedConv2d(const float* input, const Shape& inShape, const float* filter, const Shape& filterShape,
                   const float* bias, uint32_t groups, const Conv2DParams& params, float* out,
                   const Shape& outShape);
// Per-tensor quantized filter (TENSOR_QUANT8_ASYMM), TENSOR_INT32 bias of scale inScale * filterScale.
void groupedConv2d(const uint8_t* input, const Shape& inShape, Quant inQuant, const uint8_t* filter,
                   const Shape& filterShape, Quant filterQuant, const int32_t* bias, uint32_t groups,
                   const Conv2DParams& params, uint8_t* out, const Shape& outShape, Quant outQuant);
// Per-channel quantized filter (int8, zero point 0, filterScales[Cout] along dimension 0).
void groupedConv2dPerChannel(const uint8_t* input, const Shape& inShape, Quant inQuant, const int8_t* filter,
                             const Shape& filterShape, const float* filterScales, const int32_t* bias,
                             uint32_t groups, const Conv2DParams& params, uint8_t* out, const Shape& outShape,
                             Quant outQuant);

// TRANSPOSE_CONV_2D: input [N, H, W, Cin], filter [Cout, KH, KW, Cin], bias [Cout], output
// [N, OH, OW, Cout] as declared. Input pixel (iy, ix) adds input * filter[oc, ky, kx, :] to output
// (iy * strideH - padTop + ky, ix * strideW - padLeft + kx) where that lies inside the output; then
// the bias is added and the fused activation applied. Only padLeft/padTop and the strides of
// `params` are read (the output shape fixes the rest); dilation must be 1.
void transposeConv2d(const float* input, const Shape& inShape, const float* filter, const Shape& filterShape,
                     const float* bias, const Conv2DParams& params, float* out, const Shape& outShape);
void transposeConv2d(const uint8_t* input, const Shape& inShape, Quant inQuant, const uint8_t* filter,
                     const Shape& filterShape, Quant filterQuant, const int32_t* bias, const Conv2DParams& params,
                     uint8_t* out, const Shape& outShape, Quant outQuant);
void transposeConv2dPerChannel(const uint8_t* input, const Shape& inShape, Quant inQuant, const int8_t* filter,
                               const Shape& filterShape, const float* filterScales, const int32_t* bias,
                               const Conv2DParams& params, uint8_t* out, const Shape& outShape,
                               Quant outQuant);

// RESIZE_NEAREST_NEIGHBOR on NHWC elements of `elementSize` bytes (copied as they are). Output row y
// reads input row min(f(y * scale), H - 1) with f = round (halves away from zero) when alignCorners,
// floor otherwise; with halfPixelCenters the coordinate is (y + 0.5) * scale and clamped at 0 too.
// scale = (H - 1) / (OH - 1) with alignCorners and OH > 1, H / OH otherwise; columns alike.
void resizeNearest(const void* input, const Shape& inShape, size_t elementSize, bool alignCorners,
                   bool halfPixelCenters, void* out, const Shape& outShape);

// INSTANCE_NORMALIZATION on NHWC: every (batch, channel) plane is normalized by its own mean and
// (biased) variance: out = (x - mean) * gamma / sqrt(variance + epsilon) + beta.
void instanceNormalization(const float* input, const Shape& shape, float gamma, float beta, float epsilon,
                           float* out);

// BATCH_MATMUL: lhs [..., M, K] (or [..., K, M] when adjLhs), rhs [..., K, N] (or [..., N, K] when
// adjRhs), both of one rank 2..4; batch dimensions of size 1 broadcast. out [..., M, N] as declared.
void batchMatmul(const float* lhs, const Shape& lhsShape, const float* rhs, const Shape& rhsShape, bool adjLhs,
                 bool adjRhs, float* out, const Shape& outShape);
// TENSOR_INT32: exact int32 products and sums (wrapping like two's complement on overflow).
void batchMatmul(const int32_t* lhs, const Shape& lhsShape, const int32_t* rhs, const Shape& rhsShape,
                 bool adjLhs, bool adjRhs, int32_t* out, const Shape& outShape);
// Quantized: sum (l - lhsZero)(r - rhsZero) rescaled by lhsScale * rhsScale / outScale, plus the output
// zero point, clamped to 0..255.
void batchMatmul(const uint8_t* lhs, const Shape& lhsShape, Quant lhsQuant, const uint8_t* rhs,
                 const Shape& rhsShape, Quant rhsQuant, bool adjLhs, bool adjRhs, uint8_t* out,
                 const Shape& outShape, Quant outQuant);

}  // namespace nnrt::cpu
