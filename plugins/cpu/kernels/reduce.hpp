// MEAN over a set of axes.
#pragma once

#include <cstdint>
#include <span>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

// out = mean of `in` over `axes` (non-negative, < rank, repeats allowed). keep_dims only changes the
// output's shape, not its element order, so the kernel does not need it: `out` holds one value per
// combination of the kept dimensions, in row-major order. Sums are accumulated in double.
void mean(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out);

// TENSOR_QUANT8_ASYMM: the real mean of the dequantized inputs (sums exact in int64), requantized to
// outQuant with round to nearest, halves away from zero, saturated to 0..255. outQuant may differ from
// inQuant.
void mean(const uint8_t* in, const Shape& inShape, Quant inQuant, std::span<const uint32_t> axes, uint8_t* out,
          Quant outQuant);

}  // namespace nnrt::cpu
