// Internal to the kernel library: the float GEMM shared by FULLY_CONNECTED and CONV_2D.
#pragma once

#include <cstddef>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu::detail {

// out[m, n] = act(sum_k lhs[m, k] * rhs[n, k] + bias[n]) for an M x K lhs and an N x K rhs (both
// row-major, so rhs is used transposed), via cblas_sgemm. bias may be null.
void gemmBiasActivation(const float* lhs, const float* rhs, const float* bias, size_t m, size_t n, size_t k,
                        Activation act, float* out);

}  // namespace nnrt::cpu::detail
