// Internal to the kernel library: the sum and the mean of one row of float32, as MEAN over the last axes
// computes it (reduce.cpp) and the fused element-wise kernel's row means do (fused_elementwise.cpp), and
// one row's extremum (REDUCE_MAX/MIN, ARGMAX/ARGMIN, SOFTMAX's maximum).
//
// Written on GCC's vector types, so that every instruction set gets the same operations in the same order
// (the same bits), vectorized where the caller is compiled for it (AVX-512 in the kernels' target_clones):
// sums in double with 32 partial sums (four chains of eight, so that the additions do not wait on each
// other), extrema with 64 running values.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace nnrt::cpu::detail {

using Floats8 = float __attribute__((vector_size(32)));
using Floats16 = float __attribute__((vector_size(64)));
using Doubles8 = double __attribute__((vector_size(64)));

// The sum of term(x[i]) over the row (term gives a double) by 8 partial sums in a fixed order.
template <typename Term>
[[gnu::always_inline]] inline double rowSum(const float* x, size_t length, const Term& term) {
  double partial[8] = {};
  size_t i = 0;
  for (; i + 8 <= length; i += 8) {
    for (size_t k = 0; k < 8; ++k) partial[k] += term(x[i + k]);
  }
  double sum = 0.0;
  for (double p : partial) sum += p;
  for (; i < length; ++i) sum += term(x[i]);
  return sum;
}

// The loop the row functions share: `step(acc, at)` over four accumulators in turn, blocks of 4 * kWidth
// values (four chains that do not wait on each other), joined as (a, b), (c, d), then (a, c) by
// `join(into, from)`, then blocks of kWidth into `a`; returns where the scalar tail starts. The other
// three start as copies of `a`.
template <size_t kWidth, typename Acc, typename Step, typename Join>
[[gnu::always_inline]] inline size_t fourChains(size_t length, Acc& a, const Step& step, const Join& join) {
  Acc b = a, c = a, d = a;
  size_t i = 0;
  for (; i + 4 * kWidth <= length; i += 4 * kWidth) {
    step(a, i);
    step(b, i + kWidth);
    step(c, i + 2 * kWidth);
    step(d, i + 3 * kWidth);
  }
  join(a, b);
  join(c, d);
  join(a, c);
  for (; i + kWidth <= length; i += kWidth) step(a, i);
  return i;
}

// The sum of the row's values in double: partial sums k, k + 8, k + 16 and k + 24 of every 32 values,
// added pairwise, then the tail.
[[gnu::always_inline]] inline double rowSum(const float* x, size_t length) {
  // Lambdas that take and give vectors by reference: a vector argument or result outside AVX-512 code
  // would change the ABI (GCC warns), even for a call that is inlined.
  auto add = [x](Doubles8& acc, size_t at) {
    Floats8 v;
    std::memcpy(&v, x + at, sizeof v);
    acc += __builtin_convertvector(v, Doubles8);
  };
  Doubles8 a = {};
  size_t i = fourChains<8>(length, a, add, [](Doubles8& into, const Doubles8& from) { into += from; });
  double sum = 0.0;
  for (size_t k = 0; k < 8; ++k) sum += a[k];
  for (; i < length; ++i) sum += static_cast<double>(x[i]);
  return sum;
}

[[gnu::always_inline]] inline float rowMean(const float* x, size_t length) {
  return static_cast<float>(rowSum(x, length) / static_cast<double>(length));
}

// The row's largest (kLarger) or smallest value and `init`; NaNs are passed over, as std::max(acc, v)
// passes them (a comparison with NaN is false, the running value stays).
template <bool kLarger>
[[gnu::always_inline]] inline float rowExtremum(const float* x, size_t length, float init) {
  auto pick = [](Floats16& acc, const Floats16& v) {
    if constexpr (kLarger) {
      acc = acc < v ? v : acc;
    } else {
      acc = v < acc ? v : acc;
    }
  };
  auto pickAt = [&pick, x](Floats16& acc, size_t at) {
    Floats16 v;
    std::memcpy(&v, x + at, sizeof v);
    pick(acc, v);
  };
  Floats16 a;
  for (size_t k = 0; k < 16; ++k) a[k] = init;
  const size_t i = fourChains<16>(length, a, pickAt, pick);
  float acc = init;
  for (size_t k = 0; k < 16; ++k) acc = kLarger ? std::max(acc, a[k]) : std::min(acc, a[k]);
  for (size_t k = i; k < length; ++k) acc = kLarger ? std::max(acc, x[k]) : std::min(acc, x[k]);
  return acc;
}

}  // namespace nnrt::cpu::detail
