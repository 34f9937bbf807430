// FULLY_CONNECTED: out[b, u] = act(sum_k in[b, k] * weights[u, k] + bias[u]).
//
// Shapes: in [batch, inputSize] (the driver flattens higher ranks), weights [numUnits, inputSize],
// bias [numUnits], out [batch, numUnits]. bias may be null (treated as zeros).
#pragma once

#include <cstdint>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

// One OpenBLAS SGEMM. Thread-safe; OpenBLAS may use its own threads for large products.
void fullyConnected(const float* in, const float* weights, const float* bias, uint32_t batch,
                    uint32_t inputSize, uint32_t numUnits, Activation act, float* out);

// TENSOR_QUANT8_ASYMM in/weights/out, TENSOR_INT32 bias with scale inQuant.scale * weightsQuant.scale
// and zero point 0. Accumulates exactly in int32, then rescales by
// inQuant.scale * weightsQuant.scale / outQuant.scale (any positive value) with round to nearest.
void fullyConnected(const uint8_t* in, Quant inQuant, const uint8_t* weights, Quant weightsQuant,
                    const int32_t* bias, uint32_t batch, uint32_t inputSize, uint32_t numUnits,
                    Activation act, uint8_t* out, Quant outQuant);

}  // namespace nnrt::cpu
