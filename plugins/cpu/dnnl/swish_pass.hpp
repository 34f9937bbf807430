// The swish epilogue (LOGISTIC then MUL: x * logistic(x), SiLU) as a pass of the fast layer's own over a
// kernel's output, instead of oneDNN's eltwise_swish post-op. oneDNN's injector takes about 0.26 ns per
// value and core inside a convolution; this pass 0.13, and runs while the output is still in the
// caches: a 1x1 convolution 16 -> 96 over 112x112 with swish took 230 us with the post-op and 169 with
// the pass (plain: 86). Measurements: docs/cpu-performance.md, "Swish".
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "plugins/cpu/fast_path.hpp"

namespace nnrt::cpu::dnnl_layer {

// values[i] = values[i] / (1 + exp(-values[i])) for i < count, on AVX-512 CPUs (avx512Supported();
// elsewhere the post-op serves): the exponential is avx512.hpp's exp16, within 2e-7 of the exact value
// relative to it; NaN stays NaN (FastPathTest.SwishEpilogueAsAPassOrAPostOp).
void swishInPlace(float* values, size_t count);

// `inner`, then the pass over its float32 output of `count` values, split over `threads` OpenMP threads.
class SwishAfter final : public FastKernel {
 public:
  SwishAfter(std::unique_ptr<FastKernel> inner, size_t count, int threads)
      : inner_(std::move(inner)), count_(count), threads_(threads), name_(inner_->name() + " + swish pass (avx512)") {}
  const std::string& name() const override { return name_; }
  driver::Result<void> run(const KernelCall& call) override;

 private:
  std::unique_ptr<FastKernel> inner_;
  size_t count_;
  int threads_;
  std::string name_;
};

}  // namespace nnrt::cpu::dnnl_layer
