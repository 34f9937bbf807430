#include "plugins/cpu/kernels/quantized_lstm.hpp"

#include <algorithm>
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
  const int64_t variance =
      std::max<int64_t>(1, (sumSquares * ((int64_t{1} << 20) / count) - mean * mean) / (int64_t{1} << 20));
  const QuantizedMultiplier inverseDeviation =
      QuantizedMultiplier::fromReal(1.0 / std::sqrt(static_cast<double>(variance)));
  const QuantizedMultiplier toGate = QuantizedMultiplier::fromReal(lnScale * 4096.0);
  for (size_t u = 0; u < n; ++u) {
    const int64_t normalized = inverseDeviation.apply(1024 * pre[u] - mean);  // 2^-10 units
    const int64_t weighted = roundingShiftRight(normalized * weights[u] + bias[u], 10);
    pre[u] = saturate16(toGate.apply(weighted));
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
        int64_t v = saturate16(fromInput[k].apply(acc));
        acc = sumOfProducts(h, p.outputZeroPoint, p.recurrentWeights[k] + u * p.outputSize, p.outputSize);
        v = saturate16(v + fromRecurrent[k].apply(acc));
        if (k < 2 && p.peephole[k] != nullptr)
          v = saturate16(v + fromPeephole[k].apply(int64_t{p.peephole[k][u]} * cPrev[u]));
        pre[k][u] = v;
      }
      if (normalized && k != 3) layerNormalize(pre[k].data(), n, p.layerNorm[k], p.biases[k], p.layerNormScale[k]);
    }
    for (size_t u = 0; u < n; ++u) {
      const int64_t forgetGate = gate(pre[1][u], sigmoid);
      const int64_t inputGate = cifg ? 32767 - forgetGate : gate(pre[0][u], sigmoid);
      const int64_t cellGate = gate(pre[2][u], hyperbolicTangent);
      int64_t cell = saturate16(roundingShiftRight(forgetGate * cPrev[u], 15) +
                                saturate16(roundingShiftRight(inputGate * cellGate, 30 + p.cellShift)));
      if (p.cellClip > 0) cell = std::clamp<int64_t>(cell, -p.cellClip, p.cellClip);
      c[u] = static_cast<int16_t>(cell);
      if (p.peephole[3] != nullptr)
        pre[3][u] = saturate16(pre[3][u] + fromPeephole[3].apply(int64_t{p.peephole[3][u]} * cell));
    }
    if (p.layerNorm[3] != nullptr) layerNormalize(pre[3].data(), n, p.layerNorm[3], p.biases[3], p.layerNormScale[3]);
    const double cellScale = std::ldexp(1.0, p.cellShift);
    for (size_t u = 0; u < n; ++u) {
      const int64_t outputGate = gate(pre[3][u], sigmoid);
      const int64_t activated = saturate16(static_cast<int64_t>(std::round(32768.0 * std::tanh(c[u] * cellScale))));
      hidden[u] = std::clamp<int64_t>(toHidden.apply(outputGate * activated) - p.hiddenZeroPoint, -128, 127);
    }
    int8_t* out = output + b * p.outputSize;
    for (size_t k = 0; k < p.outputSize; ++k) {
      int64_t v = hidden[k < n ? k : 0];
      if (p.projection != nullptr) {
        int64_t acc = p.projectionBias != nullptr ? p.projectionBias[k] : 0;
        const int8_t* w = p.projection + k * n;
        for (size_t u = 0; u < n; ++u)
          acc += (hidden[u] + p.hiddenZeroPoint) * w[u];
        v = std::clamp<int64_t>(toOutput.apply(acc) + p.outputZeroPoint, -128, 127);
        if (p.projectionClip > 0) v = std::clamp<int64_t>(v, -p.projectionClip, p.projectionClip);
      }
      out[k] = static_cast<int8_t>(v);
    }
  }
}

}  // namespace nnrt::cpu
