// Double-precision references for NNAPI's recurrent cells (RNN, SVDF, LSTM), written from the NNAPI
// definitions and sharing no code with any driver. One call is one time step for every batch entry;
// matrices are row-major [rows, cols] and multiply vectors of `cols` entries.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace nnrt::test::ref {

// The activation codes of the recurrent operations: 0 none, 1 relu, 2 relu1, 3 relu6, 4 tanh,
// 6 sigmoid.
inline double recurrentActivation(int32_t code, double x) {
  switch (code) {
    case 1:
      return std::max(x, 0.0);
    case 2:
      return std::clamp(x, -1.0, 1.0);
    case 3:
      return std::clamp(x, 0.0, 6.0);
    case 4:
      return std::tanh(x);
    case 6:
      return 1.0 / (1.0 + std::exp(-x));
    default:
      return x;
  }
}

inline double logistic(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

// sum_c m[r * cols + c] * v[c]
inline double rowDot(const std::vector<double>& m, size_t r, size_t cols, const double* v) {
  double s = 0.0;
  for (size_t c = 0; c < cols; ++c)
    s += m[r * cols + c] * v[c];
  return s;
}

// RNN: h_t = act(W x + R h_{t-1} + b), [batch, units]; it is both outputs.
inline std::vector<double> rnn(const std::vector<double>& x, const std::vector<double>& weights,
                               const std::vector<double>& recurrent, const std::vector<double>& bias,
                               const std::vector<double>& hidden, size_t batch, size_t inputSize,
                               size_t units, int32_t act) {
  std::vector<double> out(batch * units);
  for (size_t b = 0; b < batch; ++b) {
    for (size_t u = 0; u < units; ++u) {
      const double v = rowDot(weights, u, inputSize, &x[b * inputSize]) +
                       rowDot(recurrent, u, units, &hidden[b * units]) + bias[u];
      out[b * units + u] = recurrentActivation(act, v);
    }
  }
  return out;
}

// SVDF with `rank` filters per unit (filters u * rank .. u * rank + rank - 1 feed unit u). The state
// keeps `memory` activations per batch entry and filter, oldest first ([batch, filters * memory]).
// The new activation (weights_feature x) is pushed as the newest entry (dropping the oldest), the
// output is act(bias + sum over the unit's filters of weights_time . memory), and the state out is
// the memory after the push, shifted one slot towards the front with 0 as its last entry (the slot
// the next step's activation takes).
struct SvdfResult {
  std::vector<double> state, output;
};
inline SvdfResult svdf(const std::vector<double>& x, const std::vector<double>& weightsFeature,
                       const std::vector<double>& weightsTime, const std::vector<double>* bias,
                       const std::vector<double>& state, size_t batch, size_t inputSize, size_t filters,
                       size_t memory, size_t rank, int32_t act) {
  const size_t units = filters / rank;
  SvdfResult r{std::vector<double>(batch * filters * memory), std::vector<double>(batch * units)};
  for (size_t b = 0; b < batch; ++b) {
    std::vector<double> perFilter(filters);
    for (size_t f = 0; f < filters; ++f) {
      // The memory after the push: entries 1..memory-1 of the old state, then the new activation.
      std::vector<double> mem(memory);
      const double* old = &state[(b * filters + f) * memory];
      for (size_t m = 0; m + 1 < memory; ++m)
        mem[m] = old[m];  // the last old entry is the free slot, 0 after every step
      mem[memory - 1] = rowDot(weightsFeature, f, inputSize, &x[b * inputSize]);
      perFilter[f] = rowDot(weightsTime, f, memory, mem.data());
      double* next = &r.state[(b * filters + f) * memory];
      for (size_t m = 0; m + 1 < memory; ++m)
        next[m] = mem[m + 1];
      next[memory - 1] = 0.0;
    }
    for (size_t u = 0; u < units; ++u) {
      double s = bias != nullptr ? (*bias)[u] : 0.0;
      for (size_t k = 0; k < rank; ++k)
        s += perFilter[u * rank + k];
      r.output[b * units + u] = recurrentActivation(act, s);
    }
  }
  return r;
}

// LSTM weights; empty vectors are absent optional tensors (CIFG: inputToInput, recurrentToInput,
// inputBias; peephole: cellTo*; projection; layer normalization: the *Norm vectors).
struct LstmParams {
  size_t batch = 1, inputSize = 1, units = 1, outputSize = 1;
  std::vector<double> inputToInput, inputToForget, inputToCell, inputToOutput;
  std::vector<double> recurrentToInput, recurrentToForget, recurrentToCell, recurrentToOutput;
  std::vector<double> cellToInput, cellToForget, cellToOutput;
  std::vector<double> inputBias, forgetBias, cellBias, outputBias;
  std::vector<double> projection, projectionBias;
  std::vector<double> inputNorm, forgetNorm, cellNorm, outputNorm;
  int32_t activation = 4;
  double cellClip = 0.0, projClip = 0.0;
};
struct LstmResult {
  std::vector<double> outputState, cellState;  // the output equals outputState
};

// (v - mean) / sqrt(variance + 1e-8), then * weights (layer normalization as NNAPI's LSTM uses it).
inline std::vector<double> normalized(const std::vector<double>& v, const std::vector<double>& weights) {
  double mean = 0.0;
  for (double e : v)
    mean += e;
  mean /= static_cast<double>(v.size());
  double variance = 0.0;
  for (double e : v)
    variance += (e - mean) * (e - mean);
  variance /= static_cast<double>(v.size());
  std::vector<double> out(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    out[i] = (v[i] - mean) / std::sqrt(variance + 1e-8) * weights[i];
  return out;
}

// One LSTM step:
//   i = sigmoid(LN(W_i x + R_i h + P_i . c_prev) + b_i)      (CIFG: i = 1 - f)
//   f = sigmoid(LN(W_f x + R_f h + P_f . c_prev) + b_f)
//   g = act(LN(W_c x + R_c h) + b_c)
//   c = clip(f . c_prev + i . g, cell_clip)
//   o = sigmoid(LN(W_o x + R_o h + P_o . c) + b_o)
//   m = o . act(c);   h = projection ? clip(W_proj m + b_proj, proj_clip) : m
// where LN is the identity without layer normalization (and the bias is then simply added).
inline LstmResult lstm(const LstmParams& p, const std::vector<double>& x, const std::vector<double>& hIn,
                       const std::vector<double>& cIn) {
  const size_t n = p.units;
  const bool cifg = p.inputToInput.empty();
  const bool peephole = !p.cellToOutput.empty();
  const bool norm = !p.outputNorm.empty();
  LstmResult r{std::vector<double>(p.batch * p.outputSize), std::vector<double>(p.batch * n)};
  for (size_t b = 0; b < p.batch; ++b) {
    const double* xb = &x[b * p.inputSize];
    const double* hb = &hIn[b * p.outputSize];
    const double* cb = &cIn[b * n];
    auto gate = [&](const std::vector<double>& wx, const std::vector<double>& wh,
                    const std::vector<double>* peep, const double* cell, const std::vector<double>& layerNorm,
                    const std::vector<double>& bias) {
      std::vector<double> v(n);
      for (size_t u = 0; u < n; ++u) {
        v[u] = rowDot(wx, u, p.inputSize, xb) + rowDot(wh, u, p.outputSize, hb);
        if (peep != nullptr) v[u] += (*peep)[u] * cell[u];
      }
      if (norm) v = normalized(v, layerNorm);
      for (size_t u = 0; u < n; ++u)
        v[u] += bias[u];
      return v;
    };
    const auto fPre = gate(p.inputToForget, p.recurrentToForget, peephole ? &p.cellToForget : nullptr, cb,
                           p.forgetNorm, p.forgetBias);
    std::vector<double> f(n), i(n);
    for (size_t u = 0; u < n; ++u)
      f[u] = logistic(fPre[u]);
    if (cifg) {
      for (size_t u = 0; u < n; ++u)
        i[u] = 1.0 - f[u];
    } else {
      const auto iPre = gate(p.inputToInput, p.recurrentToInput, peephole ? &p.cellToInput : nullptr, cb,
                             p.inputNorm, p.inputBias);
      for (size_t u = 0; u < n; ++u)
        i[u] = logistic(iPre[u]);
    }
    const auto gPre = gate(p.inputToCell, p.recurrentToCell, nullptr, cb, p.cellNorm, p.cellBias);
    std::vector<double> c(n);
    for (size_t u = 0; u < n; ++u) {
      c[u] = f[u] * cb[u] + i[u] * recurrentActivation(p.activation, gPre[u]);
      if (p.cellClip > 0.0) c[u] = std::clamp(c[u], -p.cellClip, p.cellClip);
      r.cellState[b * n + u] = c[u];
    }
    const auto oPre = gate(p.inputToOutput, p.recurrentToOutput, peephole ? &p.cellToOutput : nullptr,
                           c.data(), p.outputNorm, p.outputBias);
    std::vector<double> m(n);
    for (size_t u = 0; u < n; ++u)
      m[u] = logistic(oPre[u]) * recurrentActivation(p.activation, c[u]);
    for (size_t k = 0; k < p.outputSize; ++k) {
      double h = m[k < n ? k : 0];
      if (!p.projection.empty()) {
        h = (p.projectionBias.empty() ? 0.0 : p.projectionBias[k]) + rowDot(p.projection, k, n, m.data());
        if (p.projClip > 0.0) h = std::clamp(h, -p.projClip, p.projClip);
      }
      r.outputState[b * p.outputSize + k] = h;
    }
  }
  return r;
}

// QUANTIZED_16BIT_LSTM in real numbers, rounded where NNAPI's fixed-point formats round: the gates'
// pre-activations to 2^-12 (saturated to [-8, 8)), the gate values to 2^-15 (in [-1, 1)), the input
// gate x cell gate product to 2^-15 and then, like the forget gate x previous cell term, to the cell
// state's 2^-11 (saturated to [-16, 16)), the cell state saturated to [-8, 8) for the output tanh, the
// output gate x tanh product to 2^-15 and the output to 2^-7 (saturated to [-1, 1)). Rounding is to
// nearest, halves away from zero. Weights and biases are given as stored integers; the inputs and
// outputs as stored integers too (uint8 with zero point 128, int16 cell state).
struct QuantizedLstm16Params {
  size_t batch = 1, inputSize = 1, outputSize = 1;
  // input, forget, cell, output gate: [outputSize, inputSize], [outputSize, outputSize], [outputSize]
  std::vector<double> inputWeights[4], recurrentWeights[4], biases[4];
  double weightsScale = 1.0;
  int32_t weightsZeroPoint = 0;
};
struct QuantizedLstm16Result {
  std::vector<double> cellState, output;  // stored int16 and uint8 values
};

// round(v / step) * step, clamped to [lo, hi).
inline double onGrid(double v, double step, double lo, double hi) {
  return std::clamp(std::round(v / step) * step, lo, hi - step);
}

inline QuantizedLstm16Result quantizedLstm16(const QuantizedLstm16Params& p, const std::vector<double>& x,
                                             const std::vector<double>& cellIn,
                                             const std::vector<double>& outputIn) {
  const size_t n = p.outputSize;
  const double biasScale = p.weightsScale / 128.0;
  QuantizedLstm16Result r{std::vector<double>(p.batch * n), std::vector<double>(p.batch * n)};
  auto gateValue = [](double v) { return onGrid(v, 0x1p-15, -1.0, 1.0); };
  for (size_t b = 0; b < p.batch; ++b) {
    std::vector<double> xb(p.inputSize), hb(n);
    for (size_t i = 0; i < p.inputSize; ++i)
      xb[i] = (x[b * p.inputSize + i] - 128.0) / 128.0;
    for (size_t j = 0; j < n; ++j)
      hb[j] = (outputIn[b * n + j] - 128.0) / 128.0;
    for (size_t u = 0; u < n; ++u) {
      double pre[4];
      for (size_t k = 0; k < 4; ++k) {
        double v = p.biases[k][u] * biasScale;
        for (size_t i = 0; i < p.inputSize; ++i)
          v += xb[i] * (p.inputWeights[k][u * p.inputSize + i] - p.weightsZeroPoint) * p.weightsScale;
        for (size_t j = 0; j < n; ++j)
          v += hb[j] * (p.recurrentWeights[k][u * n + j] - p.weightsZeroPoint) * p.weightsScale;
        pre[k] = onGrid(v, 0x1p-12, -8.0, 8.0);
      }
      const double in = gateValue(logistic(pre[0])), forget = gateValue(logistic(pre[1]));
      const double cell = gateValue(std::tanh(pre[2])), out = gateValue(logistic(pre[3]));
      const double cellPrev = cellIn[b * n + u] / 2048.0;
      const double c = std::clamp(onGrid(gateValue(in * cell), 0x1p-11, -16.0, 16.0) +
                                      onGrid(forget * cellPrev, 0x1p-11, -16.0, 16.0),
                                  -16.0, 16.0 - 0x1p-11);
      const double hidden = gateValue(out * gateValue(std::tanh(std::clamp(c, -8.0, 8.0 - 0x1p-12))));
      r.cellState[b * n + u] = c * 2048.0;
      r.output[b * n + u] = onGrid(hidden, 0x1p-7, -1.0, 1.0) * 128.0 + 128.0;
    }
  }
  return r;
}

// QUANTIZED_LSTM in real numbers, rounded where Android's integer reference rounds (values to nearest,
// halves away from zero): each matrix product and peephole term to the gate's intermediate scale and
// int16 range, added with saturation; with layer normalization, the integer mean (2^-10 units) and
// variance Android truncates, the normalized value to 2^-10 and the weighted sum to the layer
// normalization weights' scale, then the gate input to 2^-12 in [-8, 8) (without layer normalization
// the intermediate value is read at 2^-12 directly, as Android does); gate values to 2^-15 in [-1, 1);
// f * c_prev and i * g each to the cell state's scale; the cell state to int16 and the clip; tanh of
// the cell state to 2^-15, o * tanh to the hidden scale (stored minus its zero point, int8); the
// projection to the output scale. Values are stored integers; scales as the operands give them.
struct QuantizedLstmParams {
  size_t batch = 1, inputSize = 1, numUnits = 1, outputSize = 1;
  bool cifg = false, peephole = false, layerNorm = false, projection = false;
  // input, forget, cell, output gate (the input gate's empty under CIFG; the cell gate has no peephole)
  std::vector<double> inputWeights[4], recurrentWeights[4], peepholeWeights[4], layerNormWeights[4],
      biases[4];
  double inputWeightScale[4] = {1, 1, 1, 1}, recurrentWeightScale[4] = {1, 1, 1, 1};
  double peepholeScale[4] = {1, 1, 1, 1}, layerNormScale[4] = {1, 1, 1, 1},
         intermediateScale[4] = {1, 1, 1, 1};
  std::vector<double> projectionWeights, projectionBias;  // [outputSize, numUnits], [outputSize] or empty
  double projectionScale = 1.0;
  double inputScale = 1.0, outputScale = 1.0;  // input 0 and input 18 / the outputs
  int32_t inputZeroPoint = 0, outputZeroPoint = 0;
  double cellScale = 0x1p-11;
  double cellClip = 0.0, projectionClip = 0.0;
  double hiddenScale = 1.0;
  int32_t hiddenZeroPoint = 0;
};
struct QuantizedLstmResult {
  std::vector<double> cellState, output;  // stored int16 and int8 values
};

inline QuantizedLstmResult quantizedLstm(const QuantizedLstmParams& p, const std::vector<double>& x,
                                         const std::vector<double>& outputIn,
                                         const std::vector<double>& cellIn) {
  const size_t n = p.numUnits;
  QuantizedLstmResult r{std::vector<double>(p.batch * n), std::vector<double>(p.batch * p.outputSize)};
  auto sat16 = [](double v) { return std::clamp(v, -32768.0, 32767.0); };
  auto gateValue = [](double v) { return onGrid(v, 0x1p-15, -1.0, 1.0); };
  const double cellLo = -32768.0 * p.cellScale, cellHi = 32768.0 * p.cellScale;
  // Android truncates the clips to stored units.
  const double cellClip = p.cellClip > 0 ? std::min(std::trunc(p.cellClip / p.cellScale), 32767.0) : 0.0;
  const double projectionClip =
      p.projectionClip > 0 ? std::min(std::trunc(p.projectionClip / p.projectionScale), 127.0) : 0.0;
  for (size_t b = 0; b < p.batch; ++b) {
    std::vector<double> xb(p.inputSize), hb(p.outputSize), cPrev(n), c(n);
    for (size_t i = 0; i < p.inputSize; ++i)
      xb[i] = (x[b * p.inputSize + i] - p.inputZeroPoint) * p.inputScale;
    for (size_t j = 0; j < p.outputSize; ++j)
      hb[j] = (outputIn[b * p.outputSize + j] - p.outputZeroPoint) * p.outputScale;
    for (size_t u = 0; u < n; ++u)
      cPrev[u] = cellIn[b * n + u] * p.cellScale;
    // Gate k's values in [-1, 1) from its inputs; `cell` is the state its peephole reads.
    auto gate = [&](size_t k, const std::vector<double>& cell, bool tanhGate) {
      const double s = p.intermediateScale[k];
      std::vector<double> t(n);  // intermediate units
      for (size_t u = 0; u < n; ++u) {
        double in = p.layerNorm ? 0.0 : p.biases[k][u] * p.inputScale * p.inputWeightScale[k];
        for (size_t i = 0; i < p.inputSize; ++i)
          in += xb[i] * p.inputWeights[k][u * p.inputSize + i] * p.inputWeightScale[k];
        double rec = 0.0;
        for (size_t j = 0; j < p.outputSize; ++j)
          rec += hb[j] * p.recurrentWeights[k][u * p.outputSize + j] * p.recurrentWeightScale[k];
        t[u] = sat16(sat16(std::round(in / s)) + std::round(rec / s));
        if (p.peephole && k != 2)
          t[u] = sat16(t[u] + std::round(p.peepholeWeights[k][u] * p.peepholeScale[k] * cell[u] / s));
      }
      std::vector<double> pre(t);  // 2^-12 units
      if (p.layerNorm) {
        double sum = 0.0, sumSquares = 0.0;
        for (double v : t) {
          sum += v;
          sumSquares += v * v;
        }
        const double mean = std::trunc(sum * 1024.0 / double(n));
        const double variance =
            std::max(1.0, std::trunc((sumSquares * std::trunc(0x1p20 / double(n)) - mean * mean) / 0x1p20));
        for (size_t u = 0; u < n; ++u) {
          const double z = std::round((1024.0 * t[u] - mean) / std::sqrt(variance));  // 2^-10 units
          const double weighted = std::round((z * p.layerNormWeights[k][u] + p.biases[k][u]) / 1024.0);
          pre[u] = sat16(std::round(weighted * p.layerNormScale[k] * 4096.0));
        }
      }
      std::vector<double> g(n);
      for (size_t u = 0; u < n; ++u)
        g[u] = gateValue(tanhGate ? std::tanh(pre[u] / 4096.0) : logistic(pre[u] / 4096.0));
      return g;
    };
    const auto f = gate(1, cPrev, false), g = gate(2, cPrev, true);
    std::vector<double> i(n);
    if (p.cifg) {
      for (size_t u = 0; u < n; ++u)
        i[u] = 1.0 - 0x1p-15 - f[u];
    } else {
      i = gate(0, cPrev, false);
    }
    for (size_t u = 0; u < n; ++u) {
      c[u] = std::clamp(onGrid(f[u] * cPrev[u], p.cellScale, cellLo, cellHi) +
                            onGrid(i[u] * g[u], p.cellScale, cellLo, cellHi),
                        cellLo, cellHi - p.cellScale);
      if (cellClip > 0) c[u] = std::clamp(c[u], -cellClip * p.cellScale, cellClip * p.cellScale);
      r.cellState[b * n + u] = c[u] / p.cellScale;
    }
    const auto o = gate(3, c, false);
    std::vector<double> hidden(n);  // stored int8 values
    for (size_t u = 0; u < n; ++u) {
      const double real = o[u] * gateValue(std::tanh(c[u]));
      hidden[u] = std::clamp(std::round(real / p.hiddenScale) - p.hiddenZeroPoint, -128.0, 127.0);
    }
    for (size_t k = 0; k < p.outputSize; ++k) {
      double v = hidden[k];
      if (p.projection) {
        double real =
            p.projectionBias.empty() ? 0.0 : p.projectionBias[k] * p.projectionScale * p.hiddenScale;
        for (size_t u = 0; u < n; ++u)
          real += (hidden[u] + p.hiddenZeroPoint) * p.hiddenScale * p.projectionWeights[k * n + u] *
                  p.projectionScale;
        v = std::clamp(std::round(real / p.outputScale) + p.outputZeroPoint, -128.0, 127.0);
        if (projectionClip > 0) v = std::clamp(v, -projectionClip, projectionClip);
      }
      r.output[b * p.outputSize + k] = v;
    }
  }
  return r;
}

}  // namespace nnrt::test::ref
