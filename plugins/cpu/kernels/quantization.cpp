#include "plugins/cpu/kernels/quantization.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nnrt::cpu {

std::pair<int32_t, int32_t> activationRangeQuant8(Activation act, Quant out) {
  const driver::QuantizedRange range = driver::activationRange(act, out.scale, out.zeroPoint, 0, 255);
  return {range.min, range.max};
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
