// The float32 sine of SIN, in arithmetic a loop vectorizes (the C library's sinf is a call per element):
// computed in double, so that the result is the exact sine rounded once to float in all but the rarest
// cases, for |x| <= kSinFloatLimit; beyond it (and for infinities and NaN) sinFloatInRange's result is
// not used: sinValues takes the C library's sin for those values. SIN (math.cpp) and the fused
// element-wise kernel's SIN both run sinValues: the same bits.
//
// Method: x = n·π/2 + r with n the nearest integer to x·2/π and |r| <= π/4, π/2 in two parts (the first
// with 33 significant bits, so that n times it is exact for |n| < 2^20); sin r and cos r by their Taylor
// polynomials to r^13 and r^14 (truncation below 1e-12 relative); the quadrant n mod 4 picks ±sin r or
// ±cos r. The same operations in the same order on every instruction set (-ffp-contract=off). Written so
// that GCC vectorizes a loop over it: the quadrant in doubles, selects between computed doubles.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "plugins/cpu/kernels/values_in_range.hpp"

namespace nnrt::cpu {

inline constexpr float kSinFloatLimit = 524288.0f;  // 2^19: |n| < 2^19 · 2/π

inline float sinFloatInRange(float x) {
  constexpr double kTwoOverPi = 0.63661977236758134308;
  constexpr double kPiOver2Hi = 1.5707963267341256141;   // the first 33 bits of π/2
  constexpr double kPiOver2Lo = 6.0771005065061922e-11;  // π/2 - kPiOver2Hi
  constexpr double kRound = 6755399441055744.0;          // 1.5·2^52: adding and subtracting it rounds to an integer
  const double xd = x;
  const double n = (xd * kTwoOverPi + kRound) - kRound;
  // The quadrant q = n mod 4 in 0..3, as high = q >= 2 and low = q mod 2, in double arithmetic (selects
  // of doubles only: a loop with them vectorizes).
  const double quarter = n * 0.25;  // exact
  const double nearest = (quarter + kRound) - kRound;
  const double q = n - 4.0 * (nearest - (nearest > quarter ? 1.0 : 0.0));
  const double high = q >= 2.0 ? 1.0 : 0.0;
  const double low = q - 2.0 * high;
  const double r = (xd - n * kPiOver2Hi) - n * kPiOver2Lo;
  const double r2 = r * r;
  double s = -1.0 / 6227020800.0;  // -1/13!
  s = s * r2 + 1.0 / 39916800.0;
  s = s * r2 - 1.0 / 362880.0;
  s = s * r2 + 1.0 / 5040.0;
  s = s * r2 - 1.0 / 120.0;
  s = s * r2 + 1.0 / 6.0;
  const double sine = r * (1.0 - r2 * s);  // a product by r: sin(-0) is -0
  double c = 1.0 / 87178291200.0;  // 1/14!
  c = c * r2 - 1.0 / 479001600.0;
  c = c * r2 + 1.0 / 3628800.0;
  c = c * r2 - 1.0 / 40320.0;
  c = c * r2 + 1.0 / 720.0;
  c = c * r2 - 1.0 / 24.0;
  c = c * r2 + 0.5;
  const double cosine = 1.0 - r2 * c;
  const double value = low != 0.0 ? cosine : sine;
  return static_cast<float>(value * (high != 0.0 ? -1.0 : 1.0));  // a product, not a negation in one arm
}

// out[i] = sin(in[i]) for i < n: sinFloatInRange, the C library's sin beyond its range (values_in_range.hpp);
// `out` may be `in`.
[[gnu::always_inline]] inline void sinValues(const float* in, size_t n, float* out) {
  detail::valuesInRange(
      in, n, out, [](float x) { return sinFloatInRange(x); }, [](float x) { return std::fabs(x) <= kSinFloatLimit; },
      [](float x) { return std::sin(x); });
}

}  // namespace nnrt::cpu
