// Helpers for the kernel tests: seeded random data, quantization arithmetic written out in double, and
// comparisons that name the first mismatching elements. Nothing here calls into the kernel library,
// so the references built on it stay independent of the code under test.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu::test {

inline std::vector<float> randomFloats(size_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v)
    x = dist(rng);
  return v;
}

inline std::vector<uint8_t> randomBytes(size_t n, uint32_t seed, int lo = 0, int hi = 255) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<uint8_t> v(n);
  for (uint8_t& x : v)
    x = static_cast<uint8_t>(dist(rng));
  return v;
}

inline std::vector<int32_t> randomInts(size_t n, int32_t lo, int32_t hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> dist(lo, hi);
  std::vector<int32_t> v(n);
  for (int32_t& x : v)
    x = dist(rng);
  return v;
}

inline size_t countOf(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims)
    n *= d;
  return n;
}

// The fused activation, written out independently of the library's tables.
inline double activate(double x, Activation act) {
  switch (act) {
    case Activation::Relu:
      return std::max(0.0, x);
    case Activation::Relu1:
      return std::min(1.0, std::max(-1.0, x));
    case Activation::Relu6:
      return std::min(6.0, std::max(0.0, x));
    case Activation::None:
      break;
  }
  return x;
}

inline double dequantize(uint8_t q, Quant p) {
  return (static_cast<double>(q) - p.zeroPoint) * p.scale;
}

// round(real / scale) + zeroPoint clamped to 0..255: the exact answer a quantized kernel must be within 1 of.
inline int quantize(double real, Quant p) {
  const double q = std::round(real / p.scale) + p.zeroPoint;
  return static_cast<int>(std::min(255.0, std::max(0.0, q)));
}

// Output parameters that spread `reals` over most of 0..255, so that results are not all saturated.
inline Quant quantFor(const std::vector<double>& reals) {
  double lo = 0.0, hi = 0.0;
  for (double r : reals) {
    lo = std::min(lo, r);
    hi = std::max(hi, r);
  }
  const double scale = std::max((hi - lo) / 240.0, 1e-6);
  const auto zero = static_cast<int32_t>(std::clamp(std::round(-lo / scale) + 8.0, 0.0, 255.0));
  return {static_cast<float>(scale), zero};
}

// |actual - expected| <= absTol + relTol * |expected| + magTol * magnitude[i] for every element.
// magnitude (optional) is the sum of |terms| of a reduction: a float32 sum's rounding error grows with
// it, not with the result, which may cancel to near zero.
inline void expectFloatsNear(const std::vector<float>& actual, const std::vector<double>& expected,
                             double absTol = 1e-5, double relTol = 1e-5,
                             const std::vector<double>& magnitude = {}, double magTol = 0.0) {
  ASSERT_EQ(actual.size(), expected.size());
  int reported = 0;
  size_t failures = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    const double mag = magnitude.empty() ? 0.0 : magnitude[i];
    const double tol = absTol + relTol * std::fabs(expected[i]) + magTol * mag;
    const bool ok = std::fabs(actual[i] - expected[i]) <= tol;  // false for NaN
    if (!ok) {
      ++failures;
      if (reported++ < 5)
        ADD_FAILURE() << "element " << i << ": got " << actual[i] << ", want " << expected[i];
    }
  }
  EXPECT_EQ(failures, 0u) << "of " << actual.size() << " elements";
}

// Every quantized result within `tolerance` steps of the exact rounded answer.
inline void expectQuantNear(const std::vector<uint8_t>& actual, const std::vector<int>& expected,
                            int tolerance = 1) {
  ASSERT_EQ(actual.size(), expected.size());
  int reported = 0;
  size_t failures = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::abs(int{actual[i]} - expected[i]) > tolerance) {
      ++failures;
      if (reported++ < 5)
        ADD_FAILURE() << "element " << i << ": got " << int{actual[i]} << ", want " << expected[i];
    }
  }
  EXPECT_EQ(failures, 0u) << "of " << actual.size() << " elements";
}

// Flat index into `in` of the element that output element `outIndex` reads under broadcasting
// (dims aligned from the trailing end; a size-1 input dimension always reads index 0).
inline size_t broadcastSource(const Shape& in, const Shape& out, size_t outIndex) {
  size_t source = 0, stride = 1;
  for (size_t k = 0; k < out.rank(); ++k) {
    const size_t o = out.rank() - 1 - k;  // walk from the innermost dimension
    const size_t coordinate = outIndex % out.dims[o];
    outIndex /= out.dims[o];
    if (k < in.rank()) {
      const uint32_t d = in.dims[in.rank() - 1 - k];
      source += (d == 1 ? 0 : coordinate) * stride;
      stride *= d;
    }
  }
  return source;
}

}  // namespace nnrt::cpu::test
