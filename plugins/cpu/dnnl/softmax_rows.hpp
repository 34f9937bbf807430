// SOFTMAX along the last axis (attention's scores, a classifier's rows) as a kernel of the fast layer's
// own on AVX-512 CPUs (avx512Supported()): per row its maximum, e^(beta (x - max)) written and summed
// in one pass (exp16, avx512.hpp),
// then the row scaled by the reciprocal of the sum; rows split over the layer's OpenMP threads. oneDNN
// 2.6's softmax took 62-70 us for ViT's [1, 3, 197, 197] scores, the reference kernel 84, this one
// fewer (docs/cpu-performance.md, "Softmax rows"). Within 2e-6 of the reference kernel
// (FastPathTest.SoftmaxRowsOfTheLayersOwn).
#pragma once

#include <cstddef>
#include <string>

#include "plugins/cpu/fast_path.hpp"

namespace nnrt::cpu::dnnl_layer {

// out[i] = e^(beta (in[i] - max)) / sum over the row of `length` (at least 1) values.
void softmaxRow(const float* in, float* out, size_t length, float beta);

// SOFTMAX of `rows` rows of `length` values each.
class SoftmaxRows final : public FastKernel {
 public:
  SoftmaxRows(size_t rows, size_t length, float beta, int threads)
      : rows_(rows), length_(length), beta_(beta), threads_(threads) {}
  const std::string& name() const override { return name_; }
  driver::Result<void> run(const KernelCall& call) override;

 private:
  size_t rows_, length_;
  float beta_;
  int threads_;
  std::string name_ = "softmax rows (avx512)";
};

}  // namespace nnrt::cpu::dnnl_layer
