#include "plugins/cpu/kernels/quantization.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nnrt::cpu {

std::pair<float, float> activationRange(Activation act) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  switch (act) {
    case Activation::Relu:
      return {0.0f, kInf};
    case Activation::Relu1:
      return {-1.0f, 1.0f};
    case Activation::Relu6:
      return {0.0f, 6.0f};
    case Activation::None:
      break;
  }
  return {-kInf, kInf};
}

std::pair<int32_t, int32_t> activationRangeQuant8(Activation act, Quant out) {
  const auto quantize = [&](double real) {
    return static_cast<int32_t>(std::round(real / out.scale)) + out.zeroPoint;
  };
  int32_t lo = 0;
  int32_t hi = 255;
  switch (act) {
    case Activation::Relu:
      lo = quantize(0.0);
      break;
    case Activation::Relu1:
      lo = quantize(-1.0);
      hi = quantize(1.0);
      break;
    case Activation::Relu6:
      lo = quantize(0.0);
      hi = quantize(6.0);
      break;
    case Activation::None:
      break;
  }
  return {std::clamp(lo, 0, 255), std::clamp(hi, 0, 255)};
}

QuantizedMultiplier QuantizedMultiplier::fromReal(double real) {
  QuantizedMultiplier m;
  if (real <= 0.0) return m;
  int exponent = 0;
  const double fraction = std::frexp(real, &exponent);  // real = fraction * 2^exponent, fraction in [0.5, 1)
  int64_t mantissa = std::llround(fraction * static_cast<double>(int64_t{1} << 31));
  if (mantissa == (int64_t{1} << 31)) {  // fraction rounded up to 1.0
    mantissa >>= 1;
    ++exponent;
  }
  m.mantissa = static_cast<int32_t>(mantissa);
  m.exponent = exponent;
  return m;
}

int64_t roundingShiftRight(int64_t x, int shift) {
  const int64_t half = int64_t{1} << (shift - 1);
  return x >= 0 ? (x + half) >> shift : -((-x + half) >> shift);
}

int64_t QuantizedMultiplier::apply(int64_t x) const {
  // |x| < 2^32 and mantissa < 2^31 keep the product below 2^63.
  const int64_t product = x * mantissa;
  const int shift = 31 - exponent;
  if (shift <= 0) return product << -shift;  // multipliers of 2^31 and more: out of any real use
  if (shift >= 63) return 0;
  return roundingShiftRight(product, shift);
}

std::array<uint8_t, 256> requantizeTable(Quant from, Quant to) {
  return unaryTable(from, to, [](double real) { return real; });
}

}  // namespace nnrt::cpu
