#include "plugins/cpu/kernels/gemm.hpp"

#include <cblas.h>

#include <algorithm>
#include <cstring>

#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/quantization.hpp"

namespace nnrt::cpu::detail {

void gemmBiasActivation(const float* lhs, const float* rhs, const float* bias, size_t m, size_t n, size_t k,
                        Activation act, float* out) {
  if (m == 0 || n == 0) return;
  // Start from the bias and let SGEMM accumulate on top of it (beta = 1).
  parallelFor(m, n, [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      if (bias != nullptr) {
        std::memcpy(out + row * n, bias, n * sizeof(float));
      } else {
        std::fill(out + row * n, out + (row + 1) * n, 0.0f);
      }
    }
  });
  if (k > 0 && m == 1) {  // one row: a matrix-vector product (sgemm would pack the weights first)
    cblas_sgemv(CblasRowMajor, CblasNoTrans, static_cast<int>(n), static_cast<int>(k), 1.0f, rhs,
                static_cast<int>(k), lhs, 1, 1.0f, out, 1);
  } else if (k > 0) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(m), static_cast<int>(n),
                static_cast<int>(k), 1.0f, lhs, static_cast<int>(k), rhs, static_cast<int>(k), 1.0f, out,
                static_cast<int>(n));
  }
  if (act == Activation::None) return;
  const auto [lo, hi] = activationRange(act);
  parallelFor(m * n, 1, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      out[i] = std::min(std::max(out[i], lo), hi);
  });
}

}  // namespace nnrt::cpu::detail
