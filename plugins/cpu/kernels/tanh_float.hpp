// The float32 hyperbolic tangent of the kernels (TANH, its fused form, and the recurrent cells).
//
// The C library's tanhf is a call per element that no loop vectorizes, and slow (about 14 ns per
// value here: half of a 512-unit GRU step's element-wise work); this one is plain float arithmetic on
// the vectorizable exponential of exp_float.hpp, so a loop over it vectorizes and gives the same bits
// on every instruction set (the kernels are compiled with -ffp-contract=off).
//
// Method: below |x| = 0.625 an odd polynomial, x·p(x²) with p of degree 5 fitted to tanh(x)/x
// (least squares, relative); from there 1 − 2/(e^{2|x|} + 1), which has no cancellation while the
// result is at least 0.55, with the sign of x put back. Within 1.3 ulp of the exact tangent on the
// polynomial's range and 1.7 ulp beyond it (the exponential's own 1.17 ulp included; TanhFloat test,
// against double precision): never more than 2 ulp. tanh(±0) = ±0, tanh(±inf) = ±1, NaN stays NaN.
#pragma once

#include <cmath>

#include "plugins/cpu/kernels/exp_float.hpp"

namespace nnrt::cpu {

inline float tanhFloat(float x) {
  const float a = std::fabs(x);
  const float u = x * x;
  float p = -0.005648165475577116f;
  p = p * u + 0.020568322390317917f;
  p = p * u - 0.053708337247371674f;
  p = p * u + 0.13330845534801483f;
  p = p * u - 0.333332359790802f;
  p = p * u + 1.0f;
  const float small = x * p;
  const float large = 1.0f - 2.0f / (expFloat(2.0f * a) + 1.0f);
  // NaN fails the comparison and takes the second form, which keeps it NaN.
  return a < 0.625f ? small : std::copysign(large, x);
}

}  // namespace nnrt::cpu
