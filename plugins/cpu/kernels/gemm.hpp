// Internal to the kernel library: the float GEMM shared by FULLY_CONNECTED and CONV_2D.
#pragma once

#include <cstddef>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu::detail {

// out[m, n] = act(sum_k lhs[m, k] * rhs[n, k] + bias[n]) for an M x K lhs and an N x K rhs (both
// row-major, so rhs is used transposed), via cblas_sgemm. bias may be null.
void gemmBiasActivation(const float* lhs, const float* rhs, const float* bias, size_t m, size_t n, size_t k,
                        Activation act, float* out);

// A single-threaded SGEMM faster than OpenBLAS's, for the products of the kernels the calling thread
// runs (the fast layer's oneDNN sgemm: FastLayer::sgemm, set per kernel call with ScopedSgemm): c[m, n]
// += a[m, k] * b[n, k]^T, rows lda, ldb and ldc floats apart. Returns false when it cannot (OpenBLAS
// then runs). Null: OpenBLAS.
using SgemmFn = bool (*)(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb,
                         float* c, size_t ldc);
inline thread_local SgemmFn currentSgemm = nullptr;

class ScopedSgemm {
 public:
  explicit ScopedSgemm(SgemmFn sgemm) : saved_(currentSgemm) { currentSgemm = sgemm; }
  ~ScopedSgemm() { currentSgemm = saved_; }
  ScopedSgemm(const ScopedSgemm&) = delete;
  ScopedSgemm& operator=(const ScopedSgemm&) = delete;

 private:
  SgemmFn saved_;
};

// Matrix-vector products over constant matrices that the fast layer prepared for one step at
// preparation (packed for its own product: FastLayer::prepareProducts; the recurrent operations'
// weights, multiplied by a new state every time step). gemvAccumulate offers it every product, and
// it takes those over the matrices it holds. Set per kernel call (ScopedProducts), on the thread that
// runs the kernel and only while the execution holds every core (it runs on the OpenMP team).
class PreparedProducts {
 public:
  virtual ~PreparedProducts() = default;
  // out[rows] += matrix[rows, cols] * vec when those rows lie within one of the prepared matrices (cols
  // the same); returns false, having done nothing, otherwise.
  virtual bool accumulate(const float* matrix, size_t rows, size_t cols, const float* vec, float* out) const = 0;
};
inline thread_local const PreparedProducts* currentProducts = nullptr;

class ScopedProducts {
 public:
  explicit ScopedProducts(const PreparedProducts* products) : saved_(currentProducts) { currentProducts = products; }
  ~ScopedProducts() { currentProducts = saved_; }
  ScopedProducts(const ScopedProducts&) = delete;
  ScopedProducts& operator=(const ScopedProducts&) = delete;

 private:
  const PreparedProducts* saved_;
};

// out[m, n] += sum_k lhs[m, k] * rhs[n, k]: lhs rows `lda` floats apart, rhs rows `ldb` apart, out rows
// `ldc` apart. OpenBLAS runs single-threaded (cpu_device.cpp: its own threads spin for tens of
// milliseconds after each call, against the OpenMP team and oneTBB), so the product is split here,
// over the pool the calling kernel runs on: rows of out, or its columns when they are more.
void gemmAccumulate(const float* lhs, size_t lda, const float* rhs, size_t ldb, size_t m, size_t n, size_t k,
                    float* out, size_t ldc);

// out[rows] += matrix[rows, cols] * vec (row-major), split over rows the same way; by the prepared
// products (currentProducts) when they hold the matrix.
void gemvAccumulate(const float* matrix, size_t rows, size_t cols, const float* vec, float* out);

}  // namespace nnrt::cpu::detail
