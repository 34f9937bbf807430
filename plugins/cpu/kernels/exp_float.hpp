// The float32 exponential of the element-wise kernels (EXP, LOGISTIC, their fused forms, tanhFloat and the
// recurrent cells' sigmoid).
//
// The C library's expf is a call per element that no loop vectorizes; this one is plain float and
// integer arithmetic, so a loop over it vectorizes (AVX-512 where a kernel is compiled for it), and it
// gives the same bits whatever the instruction set: the kernels are compiled with -ffp-contract=off,
// so no multiply-add is fused on one target and not on another.
//
// Method: x = n·ln2 + r with n the nearest integer to x·log2(e) and |r| <= ln2/2 (ln2 split in two
// parts, the first exact in n·ln2hi), e^r by its Taylor polynomial of degree 7 (truncation below 6e-9
// relative), scaled by 2^n in two exact steps (2^(n/2) · 2^(n - n/2)), so that overflow gives +inf and
// results below the normal range are rounded once. Within 1.17 ulp of the exact exponential on every
// 61st float32 from -104 to 89 (ExpFloat test, against double-precision exp; the C library's expf is
// within about 0.5), so never more than 2 ulp from the correctly rounded result; exp(0) = 1 exactly,
// exp(+inf) = +inf, exp(-inf) = 0, NaN stays NaN.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace nnrt::cpu {

inline float expFloat(float x) {
  // Beyond these, e^x is +inf or rounds to 0; clamping keeps n in [-150, 129]. NaN passes through
  // std::max and std::min unchanged (they return their first argument when a comparison is false).
  x = std::min(std::max(x, -104.0f), 89.0f);
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kLn2Hi = 0.693359375f;  // 355/512: n·kLn2Hi is exact for |n| <= 150
  constexpr float kLn2Lo = -2.12194440e-4f;
  constexpr float kRound = 12582912.0f;  // 1.5·2^23: adding and subtracting it rounds to the nearest integer
  const float n = (x * kLog2e + kRound) - kRound;
  const float r = (x - n * kLn2Hi) - n * kLn2Lo;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const auto k = static_cast<int32_t>(n == n ? n : 0.0f);  // for NaN the result is NaN through p
  const int32_t half = k / 2;
  auto powerOfTwo = [](int32_t e) {
    const uint32_t bits = static_cast<uint32_t>(e + 127) << 23;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  };
  return p * powerOfTwo(half) * powerOfTwo(k - half);
}

}  // namespace nnrt::cpu
