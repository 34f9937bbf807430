// IEEE 754 binary16 <-> binary32 (NNAPI's FLOAT16 and TENSOR_FLOAT16), the SDK's one copy for the
// runtime, the tools and every driver. Round to nearest even; overflow gives infinity; NaN stays NaN;
// subnormals are exact both ways. Pure functions.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace nnrt::driver {

inline uint16_t floatToHalf(float value) {
  const uint32_t f = std::bit_cast<uint32_t>(value);
  const uint32_t sign = (f >> 16) & 0x8000u;
  const uint32_t exponent = (f >> 23) & 0xffu;
  uint32_t mantissa = f & 0x7fffffu;
  if (exponent == 0xffu) return static_cast<uint16_t>(sign | 0x7c00u | (mantissa != 0 ? 0x200u : 0u));
  const int32_t e = static_cast<int32_t>(exponent) - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (e <= 0) {  // subnormal half, or zero
    if (e < -10) return static_cast<uint16_t>(sign);
    mantissa |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u) != 0)) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u) != 0))
    ++half;  // may carry into the exponent: correct
  return static_cast<uint16_t>(sign | half);
}

inline float halfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1fu) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    if (mantissa == 0) return std::bit_cast<float>(sign);
    int32_t e = -1;
    do {  // normalize the subnormal
      ++e;
      mantissa <<= 1;
    } while ((mantissa & 0x400u) == 0);
    return std::bit_cast<float>(sign | (static_cast<uint32_t>(127 - 15 - e) << 23) |
                                ((mantissa & 0x3ffu) << 13));
  }
  return std::bit_cast<float>(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
}

// Whole tensors, through memcpy: request buffers need not be aligned for their element type.
inline void floatsToHalves(const void* in, size_t count, void* out) {
  auto* src = static_cast<const uint8_t*>(in);
  auto* dst = static_cast<uint8_t*>(out);
  for (size_t i = 0; i < count; ++i) {
    float f;
    std::memcpy(&f, src + i * sizeof f, sizeof f);
    const uint16_t h = floatToHalf(f);
    std::memcpy(dst + i * sizeof h, &h, sizeof h);
  }
}
inline void halvesToFloats(const void* in, size_t count, void* out) {
  auto* src = static_cast<const uint8_t*>(in);
  auto* dst = static_cast<uint8_t*>(out);
  for (size_t i = 0; i < count; ++i) {
    uint16_t h;
    std::memcpy(&h, src + i * sizeof h, sizeof h);
    const float f = halfToFloat(h);
    std::memcpy(dst + i * sizeof f, &f, sizeof f);
  }
}

}  // namespace nnrt::driver
