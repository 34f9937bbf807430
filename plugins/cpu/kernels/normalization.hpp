// Normalization, resizing and dequantization kernels: L2_NORMALIZATION, LOCAL_RESPONSE_NORMALIZATION,
// RESIZE_BILINEAR and DEQUANTIZE. Pure functions over caller-owned buffers (see types.hpp); `axis` is
// already non-negative and within the shape's rank; image tensors are NHWC.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

// x / max(sqrt(sum of x^2 along `axis`), 1e-6) for every element.
void l2Normalization(const float* in, const Shape& shape, uint32_t axis, float* out);
// The quantized form: the input's scale cancels; the output has NNAPI's fixed parameters (scale
// 1/128, zero point 128): round(128 * v / sqrt(sum v^2)) + 128 with v = q - zeroPoint, clamped to
// 0..255 (128 where the whole vector is zero).
void l2Normalization(const uint8_t* in, const Shape& shape, Quant inQuant, uint32_t axis, uint8_t* out);

// x / (bias + alpha * sum of x^2 over the window [c - radius, c + radius] along `axis`)^beta.
void localResponseNormalization(const float* in, const Shape& shape, uint32_t axis, int32_t radius, float bias,
                                float alpha, float beta, float* out);

// RESIZE_BILINEAR of an NHWC tensor to outShape's height and width (TensorFlow's rules: the scale
// is in/out, or (in - 1)/(out - 1) when aligning corners; half-pixel centers sample at (y + 0.5) *
// scale - 0.5; source coordinates are clamped to the image).
void resizeBilinear(const float* in, const Shape& inShape, bool alignCorners, bool halfPixelCenters, float* out,
                    const Shape& outShape);
// The quantized form: interpolates the stored values and requantizes to `outQuant` (rounded to
// nearest, clamped to 0..255).
void resizeBilinear(const uint8_t* in, const Shape& inShape, Quant inQuant, bool alignCorners,
                    bool halfPixelCenters, uint8_t* out, const Shape& outShape, Quant outQuant);

// (q - zeroPoint) * scale for `count` values.
void dequantize(const uint8_t* in, size_t count, Quant quant, float* out);
void dequantize(const int8_t* in, size_t count, Quant quant, float* out);
// Per-channel symmetric values: q * scales[index along channelDim].
void dequantizePerChannel(const int8_t* in, const Shape& shape, uint32_t channelDim, const float* scales,
                          float* out);

}  // namespace nnrt::cpu
