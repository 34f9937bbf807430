#include "plugins/cpu/kernels/quantized_lstm.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "plugins/cpu/kernels/quantization.hpp"

namespace nnrt::cpu {

namespace {

int64_t saturate16(int64_t v) {
  return std::clamp<int64_t>(v, INT16_MIN, INT16_MAX);
}

// A function of a 3-integer-bit value as a 0-integer-bit one: sat16(round(2^15 * fn(raw / 2^12))).
template <typename Fn>
int64_t gate(int64_t raw, Fn fn) {
  return saturate16(static_cast<int64_t>(std::round(32768.0 * fn(static_cast<double>(raw) / 4096.0))));
}

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}
double hyperbolicTangent(double x) {
  return std::tanh(x);
}

// x * m as Android's reference rescales (gemmlowp): x shifted left by m's positive exponent, the
// rounded doubling high product with the mantissa, then a rounding shift right by its negative one;
// two roundings, each to nearest with halves away from zero.
// Precondition: m's exponent at most 31 (the adapter refuses larger multipliers); below -62 the
// result is 0, as Android's reference treats multipliers under 2^-31.
int64_t rescale(int64_t x, QuantizedMultiplier m) {
  if (m.exponent < -62) return 0;
  const __int128 product = static_cast<__int128>(x) * (int64_t{1} << std::max(m.exponent, 0)) * m.mantissa;
  const __int128 nudge = product >= 0 ? (__int128{1} << 30) : 1 - (__int128{1} << 30);
  const int64_t high = static_cast<int64_t>((product + nudge) / (__int128{1} << 31));
  return m.exponent < 0 ? roundingShiftRight(high, -m.exponent) : high;
}

// 32-bit fixed point for the inverse square root below.
int32_t highMul32(int32_t a, int32_t b) {
  const int64_t product = int64_t{a} * b;
  const int64_t nudge = product >= 0 ? (int64_t{1} << 30) : 1 - (int64_t{1} << 30);
  return static_cast<int32_t>((product + nudge) / (int64_t{1} << 31));
}
int32_t saturatingShiftLeft32(int32_t x, int shift) {
  return static_cast<int32_t>(std::clamp<int64_t>(int64_t{x} << shift, INT32_MIN, INT32_MAX));
}
int32_t wrap32(int64_t v) {
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));
}

// 1 / sqrt(v) for v >= 0 as Android's layer normalization computes it: v normalized by powers of 4
// into [2^27, 2^29), five Newton-Raphson steps from 1 in 32-bit fixed point with 3 integer bits, then
// times sqrt(2) / 2; v <= 1 gives (almost) 1.
QuantizedMultiplier inverseSqrt(int64_t v) {
  if (v <= 1) return {INT32_MAX, 0};
  int shift = 11;
  while (v >= (int64_t{1} << 29)) {
    v /= 4;
    ++shift;
  }
  const int pairs = (std::countl_zero(static_cast<uint32_t>(v)) - 1) / 2 - 1;
  shift -= pairs;
  v <<= 2 * pairs;
  const int32_t input = static_cast<int32_t>(v >> 1);  // 3 integer bits
  const int32_t halfInput = static_cast<int32_t>(roundingShiftRight(input, 1));
  const int32_t halfThree = (1 << 28) + (1 << 27);
  int32_t x = 1 << 28;
  for (int i = 0; i < 5; ++i) {
    const int32_t cube = saturatingShiftLeft32(highMul32(highMul32(x, x), x), 6);
    x = saturatingShiftLeft32(wrap32(int64_t{highMul32(halfThree, x)} - highMul32(halfInput, cube)), 3);
  }
  x = highMul32(x, 1518500250);  // sqrt(2) / 2
  if (shift < 0) {
    x <<= -shift;
    shift = 0;
  }
  return {x, -shift};
}

// ---- 16-bit fixed point as Android's QUANTIZED_LSTM evaluates sigmoid and tanh (gemmlowp's
// FixedPoint<int16_t> arithmetic): raw int16 values with a number of integer bits, products by
// saturating rounding doubling high multiplication, sums wrapping except where noted. ----

int16_t wrap16(int32_t v) {
  return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint32_t>(v)));
}
// a * b / 2^15, rounded to nearest with halves away from zero (-1 * -1 saturates).
int16_t highMul16(int16_t a, int16_t b) {
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  const int32_t product = int32_t{a} * b;
  const int32_t nudge = product >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((product + nudge) / (1 << 15));
}
// x * 2^exponent, saturated (exponent > 0) or rounded to nearest with halves away from zero.
int16_t mulByPowerOfTwo16(int16_t x, int exponent) {
  if (exponent >= 0) return static_cast<int16_t>(saturate16(int64_t{x} << exponent));
  return static_cast<int16_t>(roundingShiftRight(x, -exponent));
}
// A 32-bit fixed-point constant (raw value of a 2^-31-scaled fraction) in 16 bits, rounded.
constexpr int16_t constant16(int32_t raw32) {
  return static_cast<int16_t>(raw32 >= 0 ? (int64_t{raw32} + (1 << 15)) >> 16
                                         : -((-int64_t{raw32} + (1 << 15)) >> 16));
}
int16_t addSaturating16(int16_t a, int16_t b) {
  return static_cast<int16_t>(saturate16(int64_t{a} + b));
}
// (a + b) / 2 rounded half away from zero.
int16_t halfSum16(int16_t a, int16_t b) {
  const int32_t sum = int32_t{a} + b;
  return static_cast<int16_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
}

// exp(a) for a in [-1/4, 0), 0 integer bits: a Taylor expansion around -1/8.
int16_t expOnQuarterInterval16(int16_t a) {
  const int16_t constantTerm = constant16(1895147668);  // exp(-1/8)
  const int16_t oneThird = constant16(715827883);
  const int16_t x = wrap16(a + (1 << 12));  // a + 1/8
  const int16_t x2 = highMul16(x, x), x3 = highMul16(x2, x), x4 = highMul16(x2, x2);
  const int16_t x4Over4 = mulByPowerOfTwo16(x4, -2);
  const int16_t poly = mulByPowerOfTwo16(wrap16(highMul16(wrap16(x4Over4 + x3), oneThird) + x2), -1);
  return addSaturating16(constantTerm, highMul16(constantTerm, wrap16(x + poly)));
}

// exp(a) for a <= 0 with `integerBits` integer bits, as 0 integer bits.
int16_t expOnNegative16(int16_t a, int integerBits) {
  const int fractionalBits = 15 - integerBits;
  const int32_t quarter = 1 << (fractionalBits - 2);
  const int16_t modQuarterMinusQuarter = wrap16((a & (quarter - 1)) - quarter);
  int16_t result = expOnQuarterInterval16(mulByPowerOfTwo16(modQuarterMinusQuarter, integerBits));
  const int16_t remainder = wrap16(modQuarterMinusQuarter - a);
  // exp(-2^e) for e = -2 .. 4, as 32-bit constants.
  static constexpr int32_t kExpOfMinusPowerOfTwo[] = {1672461947, 1302514674, 790015084, 290630308,
                                                      39332535,   720401,     242};
  for (int e = -2; e <= 4; ++e) {
    if (integerBits > e && (remainder & (1 << (fractionalBits + e))) != 0)
      result = highMul16(result, constant16(kExpOfMinusPowerOfTwo[e + 2]));
  }
  // Below -32 the result is 0 (only reachable with more than 5 integer bits).
  if (integerBits > 5 && int32_t{a} < -(32 << fractionalBits)) result = 0;
  return a == 0 ? INT16_MAX : result;
}

// Newton-Raphson for 1 / (1 + a), a in [0, 1], 0 integer bits; returns x ~ 2 / (1 + a) with 2
// integer bits.
int16_t twoOverOnePlus16(int16_t a) {
  const int16_t halfDenominator = halfSum16(a, INT16_MAX);
  int16_t x = wrap16(constant16(1515870810) +
                     highMul16(halfDenominator, constant16(-1010580540)));  // 48/17 - 32/17 d
  const int16_t one = 1 << 13;
  for (int i = 0; i < 3; ++i) {
    const int16_t oneMinusDx = wrap16(one - highMul16(halfDenominator, x));
    x = wrap16(x + mulByPowerOfTwo16(highMul16(x, oneMinusDx), 2));
  }
  return x;
}

// sigmoid of a raw value with 3 integer bits, as 0 integer bits.
int16_t fixedSigmoid(int16_t a) {
  if (a == 0) return 1 << 14;
  const int16_t absolute = a > 0 ? a : wrap16(-int32_t{a});
  const int16_t e = expOnNegative16(wrap16(-int32_t{absolute}), 3);
  const int16_t positive = mulByPowerOfTwo16(twoOverOnePlus16(e), 1);  // x / 2 to 0 integer bits
  return a > 0 ? positive : wrap16(INT16_MAX - positive);
}

// tanh of a raw value with `integerBits` integer bits, as 0 integer bits.
int16_t fixedTanh(int16_t a, int integerBits) {
  if (a == 0) return 0;
  const int16_t negative = a < 0 ? a : wrap16(-int32_t{a});
  // exp(2 n), n <= 0: the same raw value read with one more integer bit.
  const int16_t e = expOnNegative16(negative, integerBits + 1);
  const int16_t t = mulByPowerOfTwo16(wrap16(twoOverOnePlus16(e) - (1 << 13)), 2);  // (1 - e) / (1 + e)
  return a < 0 ? wrap16(-int32_t{t}) : t;
}

}  // namespace

void quantizedLstm16(const uint8_t* input, const QuantizedLstm16& p, const int16_t* cellIn,
                     const uint8_t* outputIn, int16_t* cellOut, uint8_t* output) {
  const QuantizedMultiplier toGateInput = QuantizedMultiplier::fromReal(4096.0 * p.biasScale);
  const size_t n = p.outputSize;
  for (size_t b = 0; b < p.batch; ++b) {
    const uint8_t* x = input + b * p.inputSize;
    const uint8_t* h = outputIn + b * n;
    for (size_t u = 0; u < n; ++u) {
      std::array<int64_t, 4> pre{};  // input, forget, cell, output gates
      for (size_t k = 0; k < 4; ++k) {
        int64_t acc = p.biases[k][u];
        const uint8_t* w = p.inputWeights[k] + u * p.inputSize;
        for (size_t i = 0; i < p.inputSize; ++i)
          acc += (int64_t{x[i]} - 128) * (int64_t{w[i]} - p.weightsZeroPoint);
        const uint8_t* r = p.recurrentWeights[k] + u * n;
        for (size_t j = 0; j < n; ++j)
          acc += (int64_t{h[j]} - 128) * (int64_t{r[j]} - p.weightsZeroPoint);
        pre[k] = saturate16(toGateInput.apply(acc));
      }
      const int64_t inputGate = gate(pre[0], sigmoid);
      const int64_t forgetGate = gate(pre[1], sigmoid);
      const int64_t cellGate = gate(pre[2], hyperbolicTangent);
      const int64_t outputGate = gate(pre[3], sigmoid);
      // i * g to the gates' 2^-15, then to the cell's 2^-11; f * cPrev (2^-26) to 2^-11.
      const int64_t inputTimesCell = saturate16(roundingShiftRight(inputGate * cellGate, 15));
      const int64_t cell = saturate16(roundingShiftRight(inputTimesCell, 4) +
                                      roundingShiftRight(forgetGate * int64_t{cellIn[b * n + u]}, 15));
      cellOut[b * n + u] = static_cast<int16_t>(cell);
      const int64_t activated = gate(saturate16(2 * cell), hyperbolicTangent);
      const int64_t hidden = roundingShiftRight(outputGate * activated, 15);  // 2^-15
      output[b * n + u] =
          static_cast<uint8_t>(128 + std::clamp<int64_t>(roundingShiftRight(hidden, 8), -128, 127));
    }
  }
}

namespace {

// The layer normalization of one batch entry's pre-activations `pre` [n] (in place): Android's
// integer mean and variance, an exact inverse square root, then the weights L, the bias and the
// scale lnScale * 2^12 to the gates' 3-integer-bit format.
void layerNormalize(int64_t* pre, size_t n, const int16_t* weights, const int32_t* bias, double lnScale) {
  int64_t sum = 0, sumSquares = 0;
  for (size_t u = 0; u < n; ++u) {
    sum += pre[u];
    sumSquares += pre[u] * pre[u];
  }
  const int64_t count = static_cast<int64_t>(n);
  const int64_t mean = sum * 1024 / count;  // 2^-10 units, truncated as Android does
  const int64_t variance = (sumSquares * ((int64_t{1} << 20) / count) - mean * mean) / (int64_t{1} << 20);
  const QuantizedMultiplier inverseDeviation = inverseSqrt(std::max<int64_t>(variance, 0));
  const QuantizedMultiplier toGate = QuantizedMultiplier::fromReal(lnScale * 4096.0);
  for (size_t u = 0; u < n; ++u) {
    const int64_t normalized = rescale(1024 * pre[u] - mean, inverseDeviation);  // 2^-10 units
    const int64_t weighted = roundingShiftRight(normalized * weights[u] + bias[u], 10);
    pre[u] = saturate16(rescale(weighted, toGate));
  }
}

int64_t sumOfProducts(const int8_t* data, int32_t zeroPoint, const int8_t* weights, size_t n) {
  int64_t acc = 0;
  for (size_t i = 0; i < n; ++i)
    acc += (int64_t{data[i]} - zeroPoint) * weights[i];
  return acc;
}

}  // namespace

void quantizedLstm(const int8_t* input, const QuantizedLstm& p, const int8_t* outputIn, const int16_t* cellIn,
                   int16_t* cellOut, int8_t* output) {
  const size_t n = p.numUnits;
  const bool cifg = p.inputWeights[0] == nullptr;
  std::array<QuantizedMultiplier, 4> fromInput{}, fromRecurrent{}, fromPeephole{};
  for (size_t k = 0; k < 4; ++k) {
    fromInput[k] = QuantizedMultiplier::fromReal(p.inputEffective[k]);
    fromRecurrent[k] = QuantizedMultiplier::fromReal(p.recurrentEffective[k]);
    fromPeephole[k] = QuantizedMultiplier::fromReal(p.peepholeEffective[k]);
  }
  const QuantizedMultiplier toHidden = QuantizedMultiplier::fromReal(p.hiddenEffective);
  const QuantizedMultiplier toOutput = QuantizedMultiplier::fromReal(p.projectionEffective);
  std::array<std::vector<int64_t>, 4> pre;
  for (auto& v : pre)
    v.resize(n);
  std::vector<int64_t> hidden(n);
  for (size_t b = 0; b < p.batch; ++b) {
    const int8_t* x = input + b * p.inputSize;
    const int8_t* h = outputIn + b * p.outputSize;
    const int16_t* cPrev = cellIn + b * n;
    int16_t* c = cellOut + b * n;
    // The gates' pre-activations, each term rescaled to the gate's intermediate scale and saturated.
    // The output gate's peephole needs the new cell state: it is added below.
    for (size_t k = cifg ? 1 : 0; k < 4; ++k) {
      const bool normalized = p.layerNorm[k] != nullptr;
      for (size_t u = 0; u < n; ++u) {
        int64_t acc = sumOfProducts(x, p.inputZeroPoint, p.inputWeights[k] + u * p.inputSize, p.inputSize);
        if (!normalized) acc += p.biases[k][u];
        int64_t v = saturate16(rescale(acc, fromInput[k]));
        acc = sumOfProducts(h, p.outputZeroPoint, p.recurrentWeights[k] + u * p.outputSize, p.outputSize);
        v = saturate16(v + rescale(acc, fromRecurrent[k]));
        if (k < 2 && p.peephole[k] != nullptr)
          v = saturate16(v + rescale(int64_t{p.peephole[k][u]} * cPrev[u], fromPeephole[k]));
        pre[k][u] = v;
      }
      if (normalized && k != 3)
        layerNormalize(pre[k].data(), n, p.layerNorm[k], p.biases[k], p.layerNormScale[k]);
    }
    for (size_t u = 0; u < n; ++u) {
      const int64_t forgetGate = fixedSigmoid(static_cast<int16_t>(pre[1][u]));
      const int64_t inputGate = cifg ? 32767 - forgetGate : fixedSigmoid(static_cast<int16_t>(pre[0][u]));
      const int64_t cellGate = fixedTanh(static_cast<int16_t>(pre[2][u]), 3);
      int64_t cell = saturate16(roundingShiftRight(forgetGate * cPrev[u], 15) +
                                saturate16(roundingShiftRight(inputGate * cellGate, 30 + p.cellShift)));
      if (p.cellClip > 0) cell = std::clamp<int64_t>(cell, -p.cellClip, p.cellClip);
      c[u] = static_cast<int16_t>(cell);
      if (p.peephole[3] != nullptr)
        pre[3][u] = saturate16(pre[3][u] + rescale(int64_t{p.peephole[3][u]} * cell, fromPeephole[3]));
    }
    if (p.layerNorm[3] != nullptr)
      layerNormalize(pre[3].data(), n, p.layerNorm[3], p.biases[3], p.layerNormScale[3]);
    for (size_t u = 0; u < n; ++u) {
      const int64_t outputGate = fixedSigmoid(static_cast<int16_t>(pre[3][u]));
      const int64_t activated = fixedTanh(c[u], p.cellShift + 15);
      hidden[u] =
          std::clamp<int64_t>(rescale(outputGate * activated, toHidden) - p.hiddenZeroPoint, -128, 127);
    }
    int8_t* out = output + b * p.outputSize;
    for (size_t k = 0; k < p.outputSize; ++k) {
      int64_t v = hidden[k < n ? k : 0];
      if (p.projection != nullptr) {
        int64_t acc = p.projectionBias != nullptr ? p.projectionBias[k] : 0;
        const int8_t* w = p.projection + k * n;
        for (size_t u = 0; u < n; ++u)
          acc += (hidden[u] + p.hiddenZeroPoint) * w[u];
        v = std::clamp<int64_t>(rescale(acc, toOutput) + p.outputZeroPoint, -128, 127);
        if (p.projectionClip > 0) v = std::clamp<int64_t>(v, -p.projectionClip, p.projectionClip);
      }
      out[k] = static_cast<int8_t>(v);
    }
  }
}

}  // namespace nnrt::cpu
