// AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D over NHWC tensors with explicit padding.
//
// in [N, H, W, C], out [N, OH, OW, C] as the driver computed it. Output position (oy, ox) covers input
// rows oy * strideH - padTop + [0, filterH) and the matching columns; only the part inside the input
// is pooled, so padding never counts (averages divide by the number of input elements covered). A
// window lying wholly in the padding yields a real 0.
#pragma once

#include <cstdint>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

void averagePool2d(const float* in, const Shape& inShape, const Pool2DParams& params, float* out,
                   const Shape& outShape);
void maxPool2d(const float* in, const Shape& inShape, const Pool2DParams& params, float* out,
               const Shape& outShape);
// sqrt(sum of squares / count).
void l2Pool2d(const float* in, const Shape& inShape, const Pool2DParams& params, float* out,
              const Shape& outShape);

// Quantized pools: NNAPI requires the output to share the input's parameters (`quant`), so these work
// on the integers directly. The average is rounded to nearest.
void averagePool2d(const uint8_t* in, const Shape& inShape, Quant quant, const Pool2DParams& params,
                   uint8_t* out, const Shape& outShape);
void maxPool2d(const uint8_t* in, const Shape& inShape, Quant quant, const Pool2DParams& params, uint8_t* out,
               const Shape& outShape);

}  // namespace nnrt::cpu
