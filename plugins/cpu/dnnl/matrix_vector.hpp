// A float32 FULLY_CONNECTED of one row (a matrix-vector product) on weights packed at preparation, a
// kernel of the fast layer's own (plugins/cpu/fast_path.hpp). oneDNN's inner product is built for
// many rows: on one it reads the weights at a third of the speed the cache delivers them, and an
// unrolled recurrence (the ONNX front end's GRU) runs one such product over the same weights per
// step. Measurements: docs/cpu-performance.md, "Matrix-vector products".
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>

#include "nnrt/driver/activation.hpp"
#include "plugins/cpu/fast_path.hpp"

namespace nnrt::cpu::dnnl_layer {

// Whether this CPU runs the kernel (AVX-512F); elsewhere oneDNN's inner product serves.
bool matrixVectorSupported();

// A row-major rows x cols matrix and its bias in panels of 64 rows, each stored column by column (a
// column of a panel is one 256-byte line of its 64 rows' weights), read front to back; rows past the
// last are 0. The kernels of one model over the same weights share one (SharedForms).
struct PackedMatrix {
  PackedMatrix(const float* weights, const float* bias, size_t rows, size_t cols);
  static constexpr size_t kPanelRows = 64;
  struct Free {
    void operator()(float* p) const;
  };
  size_t rows, cols, panelCount;
  std::unique_ptr<float[], Free> weights, bias;  // 64-byte aligned
  // The direction of the next product over these weights: every other one reads the panels from the
  // last down, so that it starts with those the one before read last (still in the core's cache).
  // Only the order of the reads depends on it, never a value.
  mutable std::atomic<bool> backwards{false};
};

// out[n] = activation(bias[n] + sum_k weights[n, k] * in[k]) on a PackedMatrix. A run splits the panels
// evenly over `threads` OpenMP threads, the same panels to the same thread each time. Each output is
// summed in the same order whatever the split and direction (the even columns and the odd ones
// apart, from the bias and from 0, then the two added).
class MatrixVectorKernel final : public FastKernel {
 public:
  MatrixVectorKernel(std::shared_ptr<const PackedMatrix> matrix, driver::Activation activation, int threads);
  const std::string& name() const override { return name_; }
  driver::Result<void> run(const KernelCall& call) override;

 private:
  // Panels [first, last) of the product into out, in `backwards` order.
  void panels(const float* in, float* out, size_t first, size_t last, bool backwards) const;

  std::shared_ptr<const PackedMatrix> matrix_;
  float low_, high_;  // the fused activation's range
  int threads_;
  std::string name_ = "matrix-vector product on packed weights (avx512)";
};

}  // namespace nnrt::cpu::dnnl_layer
