// SOFTMAX along one axis: out = exp((x - max) * beta) / sum over the axis of the same.
//
// axis is non-negative and < rank (the driver resolves -1, the default, to rank - 1); beta > 0.
#pragma once

#include <cstdint>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

void softmax(const float* in, const Shape& shape, float beta, uint32_t axis, float* out);

// NNAPI fixes the output at scale 1/256, zero point 0; probabilities are rounded to nearest and an
// exact 1.0 saturates to 255.
void softmax(const uint8_t* in, const Shape& shape, Quant inQuant, float beta, uint32_t axis, uint8_t* out);

}  // namespace nnrt::cpu
