#include "plugins/cpu/kernels/recurrent.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "plugins/cpu/kernels/exp_float.hpp"
#include "plugins/cpu/kernels/gemm.hpp"
#include "plugins/cpu/kernels/tanh_float.hpp"

namespace nnrt::cpu {

namespace {

// x[i] = sigmoid(x[i]) (as LOGISTIC), and x[i] = act(x[i]), over n values: the function chosen once
// outside the loop, so that the loop vectorizes (compiled for AVX-512 and AVX2 as well as the
// baseline; the same bits on each, as the kernels are built without contracted multiply-adds).
__attribute__((target_clones("avx512f", "avx2", "default")))
void sigmoidAll(float* x, size_t n) {
  for (size_t i = 0; i < n; ++i)
    x[i] = 1.0f / (1.0f + expFloat(-x[i]));
}
__attribute__((target_clones("avx512f", "avx2", "default")))
void activateAll(RecurrentActivation act, float* x, size_t n) {
  switch (act) {
    case RecurrentActivation::None:
      return;
    case RecurrentActivation::Relu:
      for (size_t i = 0; i < n; ++i) x[i] = std::max(x[i], 0.0f);
      return;
    case RecurrentActivation::Relu1:
      for (size_t i = 0; i < n; ++i) x[i] = std::clamp(x[i], -1.0f, 1.0f);
      return;
    case RecurrentActivation::Relu6:
      for (size_t i = 0; i < n; ++i) x[i] = std::clamp(x[i], 0.0f, 6.0f);
      return;
    case RecurrentActivation::Tanh:
      for (size_t i = 0; i < n; ++i) x[i] = tanhFloat(x[i]);
      return;
    case RecurrentActivation::Sigmoid:
      sigmoidAll(x, n);
      return;
  }
}

// The gates of lstm() in its scratch order (the input gate only without CIFG): their weights and bias.
struct LstmGate {
  const float* inputWeights;
  const float* recurrentWeights;
  const float* bias;
};
size_t lstmGates(const LstmWeights& w, LstmGate (&gates)[4]) {
  size_t count = 0;
  if (w.inputToInput != nullptr) gates[count++] = {w.inputToInput, w.recurrentToInput, w.inputGateBias};
  gates[count++] = {w.inputToForget, w.recurrentToForget, w.forgetGateBias};
  gates[count++] = {w.inputToCell, w.recurrentToCell, w.cellBias};
  gates[count++] = {w.inputToOutput, w.recurrentToOutput, w.outputGateBias};
  return count;
}

// The gates' recurrent weights as one [gates * numUnits, outputSize] matrix when they lie one after
// the other in memory in lstm()'s order (the ONNX front end writes them so), else null: one product
// per step instead of one per gate (a 64-step, 512-unit LSTM: 3.3 -> 2.9 ms).
const float* stackedRecurrentWeights(const LstmWeights& w, const LstmDims& d) {
  LstmGate gates[4];
  const size_t count = lstmGates(w, gates), block = d.numUnits * d.outputSize;
  for (size_t g = 1; g < count; ++g)
    if (gates[g].recurrentWeights != gates[g - 1].recurrentWeights + block) return nullptr;
  return gates[0].recurrentWeights;
}

// x = (x - mean) / sqrt(variance + 1e-8) over n entries, then scaled by `weights` and shifted by `bias`.
void layerNorm(float* x, size_t n, const float* weights, const float* bias) {
  double sum = 0.0, squares = 0.0;
  for (size_t i = 0; i < n; ++i) {
    sum += x[i];
    squares += static_cast<double>(x[i]) * x[i];
  }
  const double mean = sum / static_cast<double>(n);
  const double variance = std::max(squares / static_cast<double>(n) - mean * mean, 0.0);
  const double inv = 1.0 / std::sqrt(variance + 1e-8);
  for (size_t i = 0; i < n; ++i)
    x[i] = static_cast<float>((x[i] - mean) * inv) * weights[i] + bias[i];
}

}  // namespace

bool isRecurrentActivation(int32_t code) {
  return (code >= 0 && code <= 4) || code == 6;
}

void rnn(const float* input, const float* weights, const float* recurrentWeights, const float* bias,
         const float* hiddenIn, size_t batch, size_t inputSize, size_t numUnits, RecurrentActivation act,
         float* hiddenOut, float* output) {
  for (size_t b = 0; b < batch; ++b) {
    float* out = output + b * numUnits;
    std::copy(bias, bias + numUnits, out);
    detail::gemvAccumulate(weights, numUnits, inputSize, input + b * inputSize, out);
    detail::gemvAccumulate(recurrentWeights, numUnits, numUnits, hiddenIn + b * numUnits, out);
    activateAll(act, out, numUnits);
  }
  std::copy(output, output + batch * numUnits, hiddenOut);
}

void svdf(const float* input, const float* weightsFeature, const float* weightsTime, const float* bias,
          const float* stateIn, const SvdfDims& d, RecurrentActivation act, float* stateOut, float* output) {
  const size_t numUnits = d.numFilters / d.rank;
  const size_t mem = d.memorySize;
  std::vector<float> filterSums(d.numFilters);
  for (size_t b = 0; b < d.batch; ++b) {
    const float* x = input + b * d.inputSize;
    const float* in = stateIn + b * d.numFilters * mem;
    float* state = stateOut + b * d.numFilters * mem;
    for (size_t f = 0; f < d.numFilters; ++f) {
      // The memory with the new activation in its last slot.
      const float* wf = weightsFeature + f * d.inputSize;
      float activation = 0.0f;
      for (size_t i = 0; i < d.inputSize; ++i)
        activation += wf[i] * x[i];
      const float* wt = weightsTime + f * mem;
      float sum = mem > 0 ? wt[mem - 1] * activation : 0.0f;
      for (size_t m = 0; m + 1 < mem; ++m)
        sum += wt[m] * in[f * mem + m];
      filterSums[f] = sum;
      // Shifted: slots 1..mem-2 of the old memory, the new activation, then 0.
      float* s = state + f * mem;
      for (size_t m = 0; m + 2 < mem; ++m)
        s[m] = in[f * mem + m + 1];
      if (mem >= 2) s[mem - 2] = activation;
      if (mem >= 1) s[mem - 1] = 0.0f;
    }
    float* out = output + b * numUnits;
    for (size_t u = 0; u < numUnits; ++u) {
      float sum = bias != nullptr ? bias[u] : 0.0f;
      for (size_t r = 0; r < d.rank; ++r)
        sum += filterSums[u * d.rank + r];
      out[u] = sum;
    }
    activateAll(act, out, numUnits);
  }
}

void lstmInputPreactivations(const float* input, size_t rows, const LstmWeights& w, const LstmDims& d, float* out) {
  LstmGate gates[4];
  const size_t count = lstmGates(w, gates), n = d.numUnits, width = count * n;
  const bool layerNorm_ = w.outputLayerNorm != nullptr;
  for (size_t g = 0; g < count; ++g) {
    for (size_t r = 0; r < rows; ++r) {
      float* row = out + r * width + g * n;
      if (layerNorm_ || gates[g].bias == nullptr) {
        std::fill(row, row + n, 0.0f);
      } else {
        std::copy(gates[g].bias, gates[g].bias + n, row);
      }
    }
    detail::gemmAccumulate(input, d.inputSize, gates[g].inputWeights, d.inputSize, rows, n, d.inputSize, out + g * n, width);
  }
}

void lstm(const float* input, const LstmWeights& w, const LstmDims& d, const float* outputStateIn,
          const float* cellStateIn, RecurrentActivation act, float cellClip, float projClip, float* scratch,
          float* outputStateOut, float* cellStateOut, float* output, const float* inputPreactivations) {
  const size_t n = d.numUnits;
  const bool cifg = w.inputToInput == nullptr;
  const bool peephole = w.cellToOutput != nullptr;
  const bool layerNorm_ = w.outputLayerNorm != nullptr;
  const size_t gates = cifg ? 3 : 4;
  LstmGate parts[4];
  lstmGates(w, parts);
  const float* stacked = stackedRecurrentWeights(w, d);
  // Before layer normalization the gates start from 0, else from their biases.
  auto start = [&](float* gate, const float* bias) {
    if (layerNorm_ || bias == nullptr) {
      std::fill(gate, gate + n, 0.0f);
    } else {
      std::copy(bias, bias + n, gate);
    }
  };
  for (size_t b = 0; b < d.batch; ++b) {
    const float* x = input + b * d.inputSize;
    const float* h = outputStateIn + b * d.outputSize;
    const float* cIn = cellStateIn + b * n;
    float* cOut = cellStateOut + b * n;
    float* row = scratch + b * n * gates;
    float* inputGate = cifg ? nullptr : row;
    float* forgetGate = row + (cifg ? 0 : n);
    float* cellGate = forgetGate + n;
    float* outputGate = cellGate + n;

    // The pre-activations: W x + R h (+ bias without layer normalization); W x (+ bias) as given when
    // a sequence computed it for many steps at once (lstmInputPreactivations).
    if (inputPreactivations != nullptr) {
      const float* given = inputPreactivations + b * n * gates;
      std::copy(given, given + n * gates, row);
    }
    for (size_t g = 0; g < gates; ++g) {
      float* gate = row + g * n;
      if (inputPreactivations == nullptr) {
        start(gate, parts[g].bias);
        detail::gemvAccumulate(parts[g].inputWeights, n, d.inputSize, x, gate);
      }
      if (stacked == nullptr) detail::gemvAccumulate(parts[g].recurrentWeights, n, d.outputSize, h, gate);
    }
    if (stacked != nullptr) detail::gemvAccumulate(stacked, n * gates, d.outputSize, h, row);

    // Input and forget gates (peepholes on the previous cell state).
    if (!cifg) {
      if (peephole) {
        for (size_t i = 0; i < n; ++i)
          inputGate[i] += w.cellToInput[i] * cIn[i];
      }
      if (layerNorm_) layerNorm(inputGate, n, w.inputLayerNorm, w.inputGateBias);
      sigmoidAll(inputGate, n);
    }
    if (peephole) {
      for (size_t i = 0; i < n; ++i)
        forgetGate[i] += w.cellToForget[i] * cIn[i];
    }
    if (layerNorm_) layerNorm(forgetGate, n, w.forgetLayerNorm, w.forgetGateBias);
    sigmoidAll(forgetGate, n);

    // The new cell state.
    if (layerNorm_) layerNorm(cellGate, n, w.cellLayerNorm, w.cellBias);
    activateAll(act, cellGate, n);
    for (size_t i = 0; i < n; ++i) {
      const float in = cifg ? 1.0f - forgetGate[i] : inputGate[i];
      float c = forgetGate[i] * cIn[i] + in * cellGate[i];
      if (cellClip > 0.0f) c = std::clamp(c, -cellClip, cellClip);
      cOut[i] = c;
    }

    // Output gate (peephole on the new cell state) and the hidden values.
    if (peephole) {
      for (size_t i = 0; i < n; ++i)
        outputGate[i] += w.cellToOutput[i] * cOut[i];
    }
    if (layerNorm_) layerNorm(outputGate, n, w.outputLayerNorm, w.outputGateBias);
    sigmoidAll(outputGate, n);
    float* hidden = cellGate;  // the candidate is used up: its place holds the hidden values
    std::copy(cOut, cOut + n, hidden);
    activateAll(act, hidden, n);
    for (size_t i = 0; i < n; ++i)
      hidden[i] = outputGate[i] * hidden[i];

    float* out = output + b * d.outputSize;
    if (w.projectionWeights != nullptr) {
      if (w.projectionBias != nullptr) {
        std::copy(w.projectionBias, w.projectionBias + d.outputSize, out);
      } else {
        std::fill(out, out + d.outputSize, 0.0f);
      }
      detail::gemvAccumulate(w.projectionWeights, d.outputSize, n, hidden, out);
      if (projClip > 0.0f) {
        for (size_t i = 0; i < d.outputSize; ++i)
          out[i] = std::clamp(out[i], -projClip, projClip);
      }
    } else {
      std::copy(hidden, hidden + d.outputSize, out);
    }
    std::copy(out, out + d.outputSize, outputStateOut + b * d.outputSize);
  }
}

}  // namespace nnrt::cpu
