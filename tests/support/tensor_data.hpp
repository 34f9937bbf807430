// Tensor values for tests, held as doubles and encoded to (or decoded from) the bytes of an NNAPI
// operand type: floats as float32 or IEEE half, quantized types as their stored integers (the caller
// quantizes), TENSOR_INT32 as int32. Plus seeded random data and half-precision conversion written
// here, independently of any driver.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "nnrt/driver/types.hpp"

namespace nnrt::test {

// Nearest IEEE binary16 value (round half to even), with overflow to infinity.
inline uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t absBits = bits & 0x7FFFFFFFu;
  if (absBits >= 0x7F800000u)
    return static_cast<uint16_t>(sign | (absBits > 0x7F800000u ? 0x7E00u : 0x7C00u));
  if (absBits >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // rounds past 65504
  if (absBits < 0x38800000u) {  // below the smallest normal half: a subnormal or zero
    const float magnitude = std::fabs(value) * 16777216.0f;  // in units of 2^-24
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(magnitude)));
  }
  const uint32_t exponent = (absBits >> 23) - 112;
  uint32_t half = (exponent << 10) | ((absBits >> 13) & 0x3FFu);
  const uint32_t rest = absBits & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u) != 0)) ++half;  // a carry into the exponent is right
  return static_cast<uint16_t>(sign | half);
}

inline float halfToFloat(uint16_t half) {
  const int exponent = (half >> 10) & 0x1F;
  const int mantissa = half & 0x3FF;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa + 1024), exponent - 25);
  }
  return (half & 0x8000u) != 0 ? -magnitude : magnitude;
}

inline size_t elementCount(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims)
    n *= d;
  return n;
}

inline size_t elementSize(driver::OperandType type) {
  using T = driver::OperandType;
  switch (type) {
    case T::TENSOR_FLOAT32:
    case T::FLOAT32:
    case T::TENSOR_INT32:
    case T::INT32:
      return 4;
    case T::TENSOR_FLOAT16:
    case T::FLOAT16:
    case T::TENSOR_QUANT16_SYMM:
      return 2;
    case T::TENSOR_QUANT8_ASYMM:
    case T::TENSOR_QUANT8_ASYMM_SIGNED:
    case T::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case T::TENSOR_QUANT8_SYMM:
    case T::TENSOR_BOOL8:
    case T::BOOL:
      return 1;
    default:
      throw std::invalid_argument("tensor_data: no encoding for this operand type");
  }
}

// `values` stored as `type`: floats rounded to the type, integers truncated toward zero.
inline std::vector<uint8_t> encode(driver::OperandType type, const std::vector<double>& values) {
  using T = driver::OperandType;
  std::vector<uint8_t> bytes(values.size() * elementSize(type));
  for (size_t i = 0; i < values.size(); ++i) {
    uint8_t* at = bytes.data() + i * elementSize(type);
    const double v = values[i];
    switch (type) {
      case T::TENSOR_FLOAT32: {
        const float f = static_cast<float>(v);
        std::memcpy(at, &f, 4);
        break;
      }
      case T::TENSOR_FLOAT16: {
        const uint16_t h = floatToHalf(static_cast<float>(v));
        std::memcpy(at, &h, 2);
        break;
      }
      case T::TENSOR_INT32:
      case T::INT32: {
        const int32_t x = static_cast<int32_t>(v);
        std::memcpy(at, &x, 4);
        break;
      }
      case T::TENSOR_QUANT8_ASYMM:
        *at = static_cast<uint8_t>(v);
        break;
      case T::TENSOR_QUANT16_SYMM: {
        const int16_t x = static_cast<int16_t>(v);
        std::memcpy(at, &x, 2);
        break;
      }
      case T::TENSOR_BOOL8:
        *at = v != 0.0 ? 1 : 0;
        break;
      case T::TENSOR_QUANT8_ASYMM_SIGNED:
      case T::TENSOR_QUANT8_SYMM_PER_CHANNEL:
      case T::TENSOR_QUANT8_SYMM:
        *at = static_cast<uint8_t>(static_cast<int8_t>(v));
        break;
      default:
        throw std::invalid_argument("tensor_data: no encoding for this operand type");
    }
  }
  return bytes;
}

inline std::vector<double> decode(driver::OperandType type, std::span<const uint8_t> bytes) {
  using T = driver::OperandType;
  const size_t size = elementSize(type);
  std::vector<double> values(bytes.size() / size);
  for (size_t i = 0; i < values.size(); ++i) {
    const uint8_t* at = bytes.data() + i * size;
    switch (type) {
      case T::TENSOR_FLOAT32: {
        float f;
        std::memcpy(&f, at, 4);
        values[i] = f;
        break;
      }
      case T::TENSOR_FLOAT16: {
        uint16_t h;
        std::memcpy(&h, at, 2);
        values[i] = halfToFloat(h);
        break;
      }
      case T::TENSOR_INT32:
      case T::INT32: {
        int32_t x;
        std::memcpy(&x, at, 4);
        values[i] = x;
        break;
      }
      case T::TENSOR_QUANT8_ASYMM:
      case T::TENSOR_BOOL8:
        values[i] = *at;
        break;
      case T::TENSOR_QUANT16_SYMM: {
        int16_t x;
        std::memcpy(&x, at, 2);
        values[i] = x;
        break;
      }
      default:
        values[i] = static_cast<int8_t>(*at);
        break;
    }
  }
  return values;
}

// What a tensor of `type` actually holds after encoding `values` (e.g. floats rounded to half).
inline std::vector<double> roundTrip(driver::OperandType type, const std::vector<double>& values) {
  return decode(type, encode(type, values));
}

// Seeded uniform reals in [lo, hi].
inline std::vector<double> randomReals(size_t n, double lo, double hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(n);
  for (double& x : v)
    x = dist(rng);
  return v;
}

// Seeded uniform integers in [lo, hi], as doubles (quantized values, int32 tensors).
inline std::vector<double> randomIntegers(size_t n, int lo, int hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<double> v(n);
  for (double& x : v)
    x = dist(rng);
  return v;
}

}  // namespace nnrt::test
