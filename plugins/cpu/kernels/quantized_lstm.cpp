#include "plugins/cpu/kernels/quantized_lstm.hpp"

#include <algorithm>
#include <cmath>

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

}  // namespace nnrt::cpu
