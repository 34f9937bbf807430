// RELU, RELU1, RELU6, LOGISTIC and TANH, element-wise over `count` elements. out may alias in.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

void relu(const float* in, size_t count, float* out);      // max(0, x)
void relu1(const float* in, size_t count, float* out);     // min(1, max(-1, x))
void relu6(const float* in, size_t count, float* out);     // min(6, max(0, x))
void logistic(const float* in, size_t count, float* out);  // 1 / (1 + exp(-x)), exp by expFloat
void tanh(const float* in, size_t count, float* out);

// Quantized RELU family: NNAPI requires the output to keep the input's scale and zero point, so these
// clamp in the quantized domain (bounds quantized with round to nearest).
void relu(const uint8_t* in, size_t count, Quant quant, uint8_t* out);
void relu1(const uint8_t* in, size_t count, Quant quant, uint8_t* out);
void relu6(const uint8_t* in, size_t count, Quant quant, uint8_t* out);

// Quantized LOGISTIC: NNAPI fixes the output at scale 1/256, zero point 0 (an exact 1.0 saturates to
// 255). TANH: scale 1/128, zero point 128. Results are rounded to nearest.
void logistic(const uint8_t* in, size_t count, Quant inQuant, uint8_t* out);
void tanh(const uint8_t* in, size_t count, Quant inQuant, uint8_t* out);

}  // namespace nnrt::cpu
