// Matrix-vector products on weights packed at preparation, kernels of the fast layer's own
// (plugins/cpu/fast_path.hpp): a float32 FULLY_CONNECTED of one row, and the products the recurrent
// operations' reference kernels do over their weights once per time step (FastLayer::prepareProducts).
// oneDNN's inner product is built for many rows: on one it reads the weights at a third of the speed
// the cache delivers them. On AVX-512 CPUs only (avx512Supported(), avx512.hpp); elsewhere oneDNN's
// inner product and the reference kernels' products serve. Measurements: docs/cpu-performance.md,
// "Recurrent models".
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nnrt/driver/activation.hpp"
#include "plugins/cpu/fast_path.hpp"

namespace nnrt::cpu::dnnl_layer {

// A row-major rows x cols matrix and its bias (null: zeros) in panels of 64 rows, each stored column by
// column (a column of a panel is one 256-byte line of its 64 rows' weights), read front to back; rows
// past the last are 0. The kernels of one model over the same weights share one (SharedForms).
struct PackedMatrix {
  PackedMatrix(const float* weights, const float* bias, size_t rows, size_t cols);
  static constexpr size_t kPanelRows = 64;
  struct Free {
    void operator()(float* p) const;
  };
  const float* source;  // the constant it was packed from
  size_t rows, cols, panelCount;
  std::unique_ptr<float[], Free> weights, bias;  // 64-byte aligned
  // The direction of the next product over these weights: every other one reads the panels from the
  // last down, so that it starts with those the one before read last (still in the core's cache).
  // Only the order of the reads depends on it, never a value.
  mutable std::atomic<bool> backwards{false};
};

// Rows [first, last) of matrix * in into out[0, last - first): from the bias (the packed one, or `bias`
// when given: row r's at bias[r]), clamped to [low, high], or (accumulate) added to out's values. The
// panels holding those rows are split evenly over up to `threads` OpenMP threads, the same panels to the same thread each time. Each output is summed in
// the same order whatever the split and direction (the even columns and the odd ones apart, then the
// two added).
void packedProduct(const PackedMatrix& matrix, const float* in, float* out, size_t first, size_t last,
                   bool accumulate, float low, float high, int threads, const float* bias = nullptr);

// out[n] = activation(bias[n] + sum_k weights[n, k] * in[k]): FULLY_CONNECTED of one row. `biasAtRun`:
// the bias is the operation's input 2 as the execution gives it (an unrolled recurrence's per-step
// input projection), not the packed one; it is read as each panel starts, beside the weights. An
// `epilogue` without a residual (a classifier head's HARD_SWISH, say) follows the product over the
// row's values, with the reference kernels' own scalar functions (the same bits as the operations).
class MatrixVectorKernel final : public FastKernel {
 public:
  MatrixVectorKernel(std::shared_ptr<const PackedMatrix> matrix, driver::Activation activation, int threads,
                     bool biasAtRun = false, Epilogue epilogue = {});
  const std::string& name() const override { return name_; }
  driver::Result<void> run(const KernelCall& call) override;

 private:
  std::shared_ptr<const PackedMatrix> matrix_;
  float low_, high_;  // the fused activation's range
  int threads_;
  bool biasAtRun_;
  Epilogue epilogue_;
  std::string name_ = "matrix-vector product on packed weights (avx512)";
};

// The products over the packed forms of a step's constant matrices (FastLayer::prepareProducts).
class PackedProducts final : public detail::PreparedProducts {
 public:
  PackedProducts(std::vector<std::shared_ptr<const PackedMatrix>> matrices, int threads)
      : matrices_(std::move(matrices)), threads_(threads) {}
  bool accumulate(const float* matrix, size_t rows, size_t cols, const float* vec, float* out) const override;

 private:
  std::vector<std::shared_ptr<const PackedMatrix>> matrices_;
  int threads_;
};

// The packed form of `matrix` (with `bias`, may be null), from `shared` when an operation of the same
// model made it already (null `shared`: a new one).
std::shared_ptr<const PackedMatrix> packedForm(const ConstantMatrix& matrix, const float* bias, SharedForms* shared);

}  // namespace nnrt::cpu::dnnl_layer
