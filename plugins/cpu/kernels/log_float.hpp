// The float32 natural logarithm of LOG and the fused element-wise kernel's LOG (softplus, Mish), in
// arithmetic a loop vectorizes (the C library's logf is a call per element: Mish over 64x112x112 took
// 0.96 ms, mostly in it). Computed in double, so that the result is the exact logarithm rounded once to
// float in all but the rarest cases; zero, negative, infinite and NaN inputs take the C library's log.
//
// Method: x = m·2^e with m in [√½, √2) (from x's bits), ln x = e·ln 2 + ln m, ln m = 2 atanh(s) with
// s = (m - 1) / (m + 1), |s| <= 0.172, by its series to s^13 (truncation below 1e-13 relative). The same
// operations in the same order on every instruction set (-ffp-contract=off).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "plugins/cpu/kernels/values_in_range.hpp"

namespace nnrt::cpu {

// ln x for a positive float, subnormal ones included (scaled by 2^24 first); anything else gives a
// meaningless value (logValues replaces it). Selects of computed values only: GCC vectorizes a loop over
// it (an operation inside one arm of a select, or a select of selects, kept it from doing so).
inline float logPositive(float x) {
  constexpr float kSmallestNormal = 1.17549435e-38f;
  const bool subnormal = x < kSmallestNormal;
  const float scaled = x * 16777216.0f;  // 2^24: exact
  const float normal = subnormal ? scaled : x;
  const double shift = subnormal ? 24.0 : 0.0;
  uint32_t bits;
  std::memcpy(&bits, &normal, sizeof bits);
  const uint32_t mantissaBits = (bits & 0x007FFFFFu) | 0x3F800000u;  // m in [1, 2)
  float m;
  std::memcpy(&m, &mantissaBits, sizeof m);
  const auto e = static_cast<float>(static_cast<int32_t>(bits >> 23) - 127);
  const bool above = m > 1.41421356f;  // then m / 2 in [√½, 1) and one more in the exponent
  const double md = above ? 0.5 * static_cast<double>(m) : static_cast<double>(m);
  const double exponent = static_cast<double>(e) + (above ? 1.0 : 0.0) - shift;
  const double s = (md - 1.0) / (md + 1.0);
  const double s2 = s * s;
  double p = 1.0 / 13.0;
  p = p * s2 + 1.0 / 11.0;
  p = p * s2 + 1.0 / 9.0;
  p = p * s2 + 1.0 / 7.0;
  p = p * s2 + 1.0 / 5.0;
  p = p * s2 + 1.0 / 3.0;
  return static_cast<float>(exponent * 0.69314718055994530942 + (2.0 * s + 2.0 * s * s2 * p));
}

// out[i] = ln(in[i]) for i < n: logPositive, the C library's log for the values that are not positive and
// finite (zero, negative numbers, the infinities, NaN) (values_in_range.hpp); `out` may be `in`.
[[gnu::always_inline]] inline void logValues(const float* in, size_t n, float* out) {
  constexpr float kLargest = 3.40282347e+38f;
  detail::valuesInRange(
      in, n, out, [](float x) { return logPositive(x); }, [](float x) { return (x > 0.0f) & (x <= kLargest); },
      [](float x) { return std::log(x); });
}

}  // namespace nnrt::cpu
