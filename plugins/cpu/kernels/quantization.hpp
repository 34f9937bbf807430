// Shared arithmetic of the quantized kernels: activation ranges, fixed-point multipliers and
// 256-entry lookup tables. Every kernel that rescales integers goes through these helpers, so there is
// one rounding rule in the library: round to nearest, halves away from zero.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <utility>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

// [lo, hi] that a fused activation clamps a float result to: driver::activationRange (found by
// argument-dependent lookup).

// [lo, hi] in the quantized domain of `out` for a fused activation, already intersected with 0..255:
// the activation bounds are quantized with round to nearest (Relu1's -1 and 1, Relu6's 6).
std::pair<int32_t, int32_t> activationRangeQuant8(Activation act, Quant out);

// A positive real multiplier as mantissa * 2^(exponent - 31), mantissa in [2^30, 2^31) (0 for 0).
// Rescaling an int32 accumulator with it needs no floating point and is exact to 2^-31 relative.
struct QuantizedMultiplier {
  int32_t mantissa = 0;
  int32_t exponent = 0;

  // Precondition: real >= 0 and finite.
  static QuantizedMultiplier fromReal(double real);
  // round(x * real), halves away from zero. Precondition: |x| < 2^32.
  int64_t apply(int64_t x) const;
};

// x / 2^shift rounded to nearest, halves away from zero. Precondition: 0 < shift < 63.
int64_t roundingShiftRight(int64_t x, int shift);

inline uint8_t clampToUint8(int64_t v, int32_t lo, int32_t hi) {
  return static_cast<uint8_t>(v < lo ? lo : (v > hi ? hi : v));
}

// The real value (q - zeroPoint) * scale of a TENSOR_QUANT8_ASYMM byte.
inline double realValue(uint8_t q, Quant p) {
  return static_cast<double>(static_cast<int32_t>(q) - p.zeroPoint) * p.scale;
}

// round(real / scale) + zeroPoint (halves away from zero), saturated to 0..255.
inline uint8_t quantizeReal(double real, Quant p) {
  const double q = std::round(real / p.scale) + p.zeroPoint;
  return static_cast<uint8_t>(std::fmin(255.0, std::fmax(0.0, q)));
}

// q (real value (q - from.zeroPoint) * from.scale) expressed in `to`'s parameters, rounded and clamped
// to 0..255, for every q. Used where each input byte maps to one output byte (CONCATENATION).
std::array<uint8_t, 256> requantizeTable(Quant from, Quant to);

// round(fn(real(q)) / to.scale) + to.zeroPoint clamped to 0..255, for every q; fn maps real to real.
// Used by LOGISTIC and TANH, whose quantized output parameters NNAPI fixes.
template <typename Fn>
std::array<uint8_t, 256> unaryTable(Quant from, Quant to, Fn fn) {
  std::array<uint8_t, 256> table{};
  for (int32_t q = 0; q < 256; ++q) {
    const double real = fn(static_cast<double>(q - from.zeroPoint) * from.scale);
    const double quantized = std::round(real / to.scale) + to.zeroPoint;
    table[q] = static_cast<uint8_t>(std::fmin(255.0, std::fmax(0.0, quantized)));
  }
  return table;
}

}  // namespace nnrt::cpu
