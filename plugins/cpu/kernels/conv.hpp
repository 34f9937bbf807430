// CONV_2D and DEPTHWISE_CONV_2D over NHWC tensors with explicit padding, strides and dilation (the
// driver transposes NCHW models and resolves implicit padding).
//
// Output position (oy, ox) reads input rows oy * strideH - padTop + ky * dilationH and columns
// ox * strideW - padLeft + kx * dilationW; positions outside the input count as real zeros.
// outShape is [N, OH, OW, Cout] as the driver computed it. bias may be null (treated as zeros).
#pragma once

#include <cstdint>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

// input [N, H, W, Cin], filter [Cout, KH, KW, Cin], bias [Cout]. im2col + OpenBLAS SGEMM (the
// im2col step is skipped for 1x1 filters with stride 1 and no padding).
void conv2d(const float* input, const Shape& inShape, const float* filter, const Shape& filterShape,
            const float* bias, const Conv2DParams& params, float* out, const Shape& outShape);

// TENSOR_QUANT8_ASYMM input, filter, output; TENSOR_INT32 bias with scale
// inQuant.scale * filterQuant.scale and zero point 0. Exact int32 accumulation, then rescaling by
// inQuant.scale * filterQuant.scale / outQuant.scale with round to nearest.
void conv2d(const uint8_t* input, const Shape& inShape, Quant inQuant, const uint8_t* filter,
            const Shape& filterShape, Quant filterQuant, const int32_t* bias, const Conv2DParams& params,
            uint8_t* out, const Shape& outShape, Quant outQuant);

// input [N, H, W, Cin], filter [1, KH, KW, Cout], bias [Cout], Cout = Cin * depthMultiplier (the
// multiplier is read from the shapes): output channel c reads input channel c / depthMultiplier.
void depthwiseConv2d(const float* input, const Shape& inShape, const float* filter, const Shape& filterShape,
                     const float* bias, const Conv2DParams& params, float* out, const Shape& outShape);

// Quantized depthwise convolution; parameters as for the quantized conv2d.
void depthwiseConv2d(const uint8_t* input, const Shape& inShape, Quant inQuant, const uint8_t* filter,
                     const Shape& filterShape, Quant filterQuant, const int32_t* bias,
                     const Conv2DParams& params, uint8_t* out, const Shape& outShape, Quant outQuant);

// Per-channel quantized filters (TENSOR_QUANT8_SYMM_PER_CHANNEL: int8, zero point 0, one scale per
// output channel). filterScales has Cout entries: output channel c of conv2dPerChannel uses
// filterScales[c] (filter dimension 0), of depthwiseConv2dPerChannel filterScales[c] (filter dimension
// 3). Input and output are TENSOR_QUANT8_ASYMM; bias[c] is TENSOR_INT32 with scale
// inQuant.scale * filterScales[c] and zero point 0. Exact int32 accumulation, then each channel is
// rescaled by inQuant.scale * filterScales[c] / outQuant.scale with round to nearest (halves away from
// zero) and clamped to the fused activation's range.
void conv2dPerChannel(const uint8_t* input, const Shape& inShape, Quant inQuant, const int8_t* filter,
                      const Shape& filterShape, const float* filterScales, const int32_t* bias,
                      const Conv2DParams& params, uint8_t* out, const Shape& outShape, Quant outQuant);

void depthwiseConv2dPerChannel(const uint8_t* input, const Shape& inShape, Quant inQuant, const int8_t* filter,
                               const Shape& filterShape, const float* filterScales, const int32_t* bias,
                               const Conv2DParams& params, uint8_t* out, const Shape& outShape,
                               Quant outQuant);

}  // namespace nnrt::cpu
