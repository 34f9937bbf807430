// NNAPI's fused activations (FuseCode): the bounds ADD, CONV_2D, FULLY_CONNECTED, the pools and the
// other fusing operations clamp their results to. The SDK's one copy, for the runtime and every
// driver. Pure functions.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace nnrt::driver {

// NNAPI FuseCode values.
enum class Activation : int32_t { None = 0, Relu = 1, Relu1 = 2, Relu6 = 3 };

inline bool isFuseCode(int32_t value) {
  return value >= 0 && value <= 3;
}

// Bounds an activation clamps a float result to: None (-inf, inf), Relu [0, inf), Relu1 [-1, 1],
// Relu6 [0, 6].
struct FloatRange {
  float min, max;
};
inline FloatRange activationRange(Activation activation) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  switch (activation) {
    case Activation::Relu:
      return {0.0f, inf};
    case Activation::Relu1:
      return {-1.0f, 1.0f};
    case Activation::Relu6:
      return {0.0f, 6.0f};
    case Activation::None:
      break;
  }
  return {-inf, inf};
}

// The same bounds in the quantized domain of an output with this scale and zero point whose type
// holds typeMin..typeMax (0..255 for TENSOR_QUANT8_ASYMM, -128..127 for _SIGNED): each finite bound
// quantized with round to nearest (halves away from zero), then limited to the type's range.
struct QuantizedRange {
  int32_t min, max;
};
inline QuantizedRange activationRange(Activation activation, float scale, int32_t zeroPoint, int32_t typeMin,
                                      int32_t typeMax) {
  const FloatRange real = activationRange(activation);
  auto quantize = [&](float x, int32_t fallback) {
    if (std::isinf(x) || !(scale > 0)) return fallback;
    const double q = static_cast<double>(zeroPoint) + std::round(static_cast<double>(x) / scale);
    return static_cast<int32_t>(std::clamp(q, static_cast<double>(typeMin), static_cast<double>(typeMax)));
  };
  return {quantize(real.min, typeMin), quantize(real.max, typeMax)};
}

}  // namespace nnrt::driver
