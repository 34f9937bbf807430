// Internal to the kernel library: the sum and the mean of one row of float32, as MEAN over the last axes
// computes it (reduce.cpp) and the fused element-wise kernel's row means do (fused_elementwise.cpp):
// summed in double with 8 partial sums in a fixed order, so that the loop vectorizes and both give
// the same bits.
#pragma once

#include <array>
#include <cstddef>

namespace nnrt::cpu::detail {

// The sum of term(x[i]) over the row (term gives a double); rowSum(x, n) sums x[i] itself.
template <typename Term>
[[gnu::always_inline]] inline double rowSum(const float* x, size_t length, const Term& term) {
  std::array<double, 8> partial{};
  size_t i = 0;
  for (; i + 8 <= length; i += 8) {
    for (size_t k = 0; k < 8; ++k) partial[k] += term(x[i + k]);
  }
  double sum = 0.0;
  for (double p : partial) sum += p;
  for (; i < length; ++i) sum += term(x[i]);
  return sum;
}

[[gnu::always_inline]] inline double rowSum(const float* x, size_t length) {
  return rowSum(x, length, [](float v) { return static_cast<double>(v); });
}

[[gnu::always_inline]] inline float rowMean(const float* x, size_t length) {
  return static_cast<float>(rowSum(x, length) / static_cast<double>(length));
}

}  // namespace nnrt::cpu::detail
