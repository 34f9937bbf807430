// QUANTIZED_16BIT_LSTM and QUANTIZED_LSTM (part of the recurrent family): seeded random steps against
// ref::quantizedLstm16 and ref::quantizedLstm (tests/support/reference_recurrent.hpp), which work in
// real numbers and round where NNAPI's fixed-point formats do. QUANTIZED_16BIT_LSTM: sizes from one
// unit to odd shapes, weights of several scales and zero points, and a case whose pre-activations and
// cell state saturate. QUANTIZED_LSTM: the plain cell, CIFG, peephole, layer normalization,
// projection with bias and clip, their combinations, and odd sizes (a layer normalization over a
// number of units that is not a power of two, a cell state at 2^-12, the cell clip).
//
// QUANTIZED_16BIT_LSTM tolerances:
// Tolerances: the driver rescales its exact int32 accumulators with a fixed-point multiplier exact to
// 2^-31 relative, the reference multiplies in double; only a pre-activation within that distance of a
// rounding tie can come out one 2^-12 step apart. Such a step moves a gate value by at most 2^-12
// (tanh's slope is at most 1), hence i * g by at most 2^-11 and f * c_prev by at most 16 * 2^-14:
// 1 + 2 cell-state units of 2^-11 after rounding, plus 1 for the rounding itself, 4 in all. Four cell
// units (2^-9) move the output by at most 2^-9 + 2^-14 < one 2^-7 output step: 1 step.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "conformance/operation_case.hpp"
#include "support/reference_recurrent.hpp"

namespace nnrt::test::conformance {

namespace {

using O = OperationType;
constexpr auto Q16 = OperandType::TENSOR_QUANT16_SYMM;
constexpr auto Q8Symm = OperandType::TENSOR_QUANT8_SYMM;

struct Quantized16Spec {
  std::string name;
  size_t batch = 2, inputSize = 3, outputSize = 4;
  float weightsScale = 0.01f;
  int32_t weightsZeroPoint = 128;
  int weightsSpread = 100;  // stored weights uniform in zero point +- spread (clamped to 0..255)
  int biasRange = 2000;     // stored biases uniform in +-range
  int cellRange = 8000;     // stored previous cell state uniform in +-range (2^-11 units)
  uint32_t seed = 0;
};

OperationCase quantized16BitLstmRandom(const Quantized16Spec& s) {
  CaseBuilder c(s.name, O::QUANTIZED_16BIT_LSTM);
  const size_t n = s.outputSize;
  uint32_t seed = s.seed;
  ref::QuantizedLstm16Params p;
  p.batch = s.batch;
  p.inputSize = s.inputSize;
  p.outputSize = n;
  p.weightsScale = s.weightsScale;
  p.weightsZeroPoint = s.weightsZeroPoint;
  const int lo = std::max(0, s.weightsZeroPoint - s.weightsSpread),
            hi = std::min(255, s.weightsZeroPoint + s.weightsSpread);
  for (size_t k = 0; k < 4; ++k) {
    p.inputWeights[k] = randomQuant(n * s.inputSize, seed++, lo, hi);
    p.recurrentWeights[k] = randomQuant(n * n, seed++, lo, hi);
    p.biases[k] = randomQuant(n, seed++, -s.biasRange, s.biasRange);
  }
  const auto x = randomQuant(s.batch * s.inputSize, seed++, 0, 255);
  const auto cellIn = randomQuant(s.batch * n, seed++, -s.cellRange, s.cellRange);
  const auto outputIn = randomQuant(s.batch * n, seed++, 0, 255);
  const ref::QuantizedLstm16Result want = ref::quantizedLstm16(p, x, cellIn, outputIn);

  const float dataScale = 1.0f / 128.0f, biasScale = s.weightsScale / 128.0f, cellScale = 1.0f / 2048.0f;
  const uint32_t batch = uint32_t(s.batch), in = uint32_t(s.inputSize), out = uint32_t(n);
  std::vector<uint32_t> ops{c.input(Q8, {batch, in}, x, dataScale, 128)};
  for (size_t k = 0; k < 4; ++k)
    ops.push_back(c.constant(Q8, {out, in}, p.inputWeights[k], s.weightsScale, s.weightsZeroPoint));
  for (size_t k = 0; k < 4; ++k)
    ops.push_back(c.constant(Q8, {out, out}, p.recurrentWeights[k], s.weightsScale, s.weightsZeroPoint));
  for (size_t k = 0; k < 4; ++k)
    ops.push_back(c.constant(I32, {out}, p.biases[k], biasScale, 0));
  ops.push_back(c.input(Q16, {batch, out}, cellIn, cellScale, 0));
  ops.push_back(c.input(Q8, {batch, out}, outputIn, dataScale, 128));
  c.output(Q16, {batch, out}, want.cellState, cellScale, 0);
  c.tolerance(4.0, 0.0);  // see the file comment
  c.output(Q8, {batch, out}, want.output, dataScale, 128);
  return c.build(ops);
}

// QUANTIZED_LSTM's cases. Weights are int8 in +-127, the scales below put pre-activations, cell states
// and outputs mostly inside their ranges with some saturation.
struct QuantizedLstmSpec {
  std::string name;
  size_t batch = 2, inputSize = 3, numUnits = 4, outputSize = 4;
  bool cifg = false, peephole = false, layerNorm = false, projection = false, projectionBias = false;
  float cellScale = 0x1p-11f;
  float cellClip = 0.0f, projectionClip = 0.0f;
  int32_t hiddenZeroPoint = 0;
  uint32_t seed = 0;
};

// Tolerances, in stored units of each output. The kernel rounds where the reference does, but takes
// sigmoid and tanh from Android's 16-bit fixed-point approximations (exhaustively over all int16
// inputs: sigmoid within 6, tanh within 12 units of 2^-15 of the exact value the reference rounds) and
// the layer normalization's 1 / sqrt from its Newton iteration (relative error below 1.3e-6, which
// moves a normalized value by under 0.004 of its 2^-10 step: no rounding on this data is that close
// to a tie, so the pre-activations agree).
// - Cell state, in units of cellScale: f * c_prev moves by at most 6 * 2^-15 * |c_prev| and i * g by
//   6 * 2^-15 * |g| + |i| * 12 * 2^-15 <= 18 * 2^-15 (|i|, |g| <= 1; under CIFG i = 1 - f moves like f);
//   each is rounded to the cell scale (+1 unit each). With |c_prev| < 8000 units: at 2^-11,
//   (6 * 3.91 + 18) / 16 + 2 = 4.6; at 2^-12, (6 * 1.96 + 18) / 8 + 2 = 5.7: 5 units.
// - Hidden state: o * tanh(c) moves by at most (6 + 12) * 2^-15 plus the 5 cell units through tanh
//   (slope <= 1: <= 5 * 2^-11) and through the output gate's peephole, well under one 2^-7 hidden
//   step: 1 unit. Without projection that is the output: 1 unit.
// - With projection each hidden unit moves the output by |w| * projection scale * hidden scale /
//   output scale <= 127 * 0.005 * 0.5 units: 1 + floor(0.3175 * numUnits) units.
OperationCase quantizedLstmRandom(const QuantizedLstmSpec& s) {
  CaseBuilder c(s.name, O::QUANTIZED_LSTM);
  uint32_t seed = s.seed;
  ref::QuantizedLstmParams p;
  p.batch = s.batch;
  p.inputSize = s.inputSize;
  p.numUnits = s.numUnits;
  p.outputSize = s.outputSize;
  p.cifg = s.cifg;
  p.peephole = s.peephole;
  p.layerNorm = s.layerNorm;
  p.projection = s.projection;
  p.inputScale = 1.0 / 128.0;
  p.inputZeroPoint = -3;
  // Without projection the output is the hidden state: its scale, and its zero point negated (Android
  // stores the hidden state as real / scale - zero point).
  p.hiddenScale = 1.0 / 128.0;
  p.hiddenZeroPoint = s.hiddenZeroPoint;
  p.outputScale = s.projection ? 1.0 / 64.0 : p.hiddenScale;
  p.outputZeroPoint = s.projection ? 2 : -s.hiddenZeroPoint;
  p.cellScale = s.cellScale;
  p.cellClip = s.cellClip;
  p.projectionClip = s.projectionClip;
  const size_t n = s.numUnits;
  for (size_t k = s.cifg ? 1 : 0; k < 4; ++k) {
    p.inputWeights[k] = randomQuant(n * s.inputSize, seed++, -127, 127);
    p.recurrentWeights[k] = randomQuant(n * s.outputSize, seed++, -127, 127);
    p.inputWeightScale[k] = 0.01 + 0.002 * double(k);
    p.recurrentWeightScale[k] = 0.008 + 0.001 * double(k);
    if (s.peephole && k != 2) {
      p.peepholeWeights[k] = randomQuant(n, seed++, -32767, 32767);
      p.peepholeScale[k] = 0x1p-16;
    }
    if (s.layerNorm) {
      // Biases at the layer normalization weights' scale / 1024: +-0.5.
      p.layerNormWeights[k] = randomQuant(n, seed++, 4000, 30000);
      p.layerNormScale[k] = 1.0 / 16384.0;
      p.biases[k] = randomQuant(n, seed++, -8000000, 8000000);
      p.intermediateScale[k] = 0x1p-10 * (1.0 + 0.25 * double(k));
    } else {
      // Biases at the input scale times the input weights' scale: +-0.5. Without layer normalization
      // the intermediate value is the gate input itself (2^-12).
      p.biases[k] = randomQuant(n, seed++, -6400, 6400);
      p.intermediateScale[k] = 0x1p-12;
    }
  }
  if (s.projection) {
    p.projectionWeights = randomQuant(s.outputSize * n, seed++, -127, 127);
    p.projectionScale = 0.005;
    if (s.projectionBias) p.projectionBias = randomQuant(s.outputSize, seed++, -5000, 5000);
  }
  const auto x = randomQuant(s.batch * s.inputSize, seed++, -128, 127);
  const auto outputIn = randomQuant(s.batch * s.outputSize, seed++, -128, 127);
  const auto cellIn = randomQuant(s.batch * n, seed++, -8000, 8000);
  const ref::QuantizedLstmResult want = ref::quantizedLstm(p, x, outputIn, cellIn);

  const uint32_t batch = uint32_t(s.batch), in = uint32_t(s.inputSize), units = uint32_t(n),
                 out = uint32_t(s.outputSize);
  auto f = [](double v) { return float(v); };
  std::vector<uint32_t> ops{c.input(Q8S, {batch, in}, x, f(p.inputScale), p.inputZeroPoint)};
  for (size_t k = 0; k < 4; ++k) {
    ops.push_back(s.cifg && k == 0
                      ? c.omitted(Q8Symm)
                      : c.constant(Q8Symm, {units, in}, p.inputWeights[k], f(p.inputWeightScale[k]), 0));
  }
  for (size_t k = 0; k < 4; ++k) {
    ops.push_back(s.cifg && k == 0 ? c.omitted(Q8Symm)
                                   : c.constant(Q8Symm, {units, out}, p.recurrentWeights[k],
                                                f(p.recurrentWeightScale[k]), 0));
  }
  for (size_t k : {0u, 1u, 3u}) {
    ops.push_back(!s.peephole || (s.cifg && k == 0)
                      ? c.omitted(Q16)
                      : c.constant(Q16, {units}, p.peepholeWeights[k], f(p.peepholeScale[k]), 0));
  }
  for (size_t k = 0; k < 4; ++k) {
    const double biasScale =
        s.layerNorm ? p.layerNormScale[k] / 1024.0 : p.inputScale * p.inputWeightScale[k];
    ops.push_back(s.cifg && k == 0 ? c.omitted(I32) : c.constant(I32, {units}, p.biases[k], f(biasScale), 0));
  }
  ops.push_back(s.projection ? c.constant(Q8Symm, {out, units}, p.projectionWeights, f(p.projectionScale), 0)
                             : c.omitted(Q8Symm));
  ops.push_back(s.projectionBias
                    ? c.constant(I32, {out}, p.projectionBias, f(p.projectionScale * p.hiddenScale), 0)
                    : c.omitted(I32));
  ops.push_back(c.input(Q8S, {batch, out}, outputIn, f(p.outputScale), p.outputZeroPoint));
  ops.push_back(c.input(Q16, {batch, units}, cellIn, s.cellScale, 0));
  for (size_t k = 0; k < 4; ++k) {
    ops.push_back(!s.layerNorm || (s.cifg && k == 0)
                      ? c.omitted(Q16)
                      : c.constant(Q16, {units}, p.layerNormWeights[k], f(p.layerNormScale[k]), 0));
  }
  ops.push_back(c.float32(s.cellClip));
  ops.push_back(c.float32(s.projectionClip));
  for (size_t k = 0; k < 4; ++k)
    ops.push_back(c.float32(f(p.intermediateScale[k])));
  ops.push_back(c.int32(s.hiddenZeroPoint));
  ops.push_back(c.float32(f(p.hiddenScale)));
  // See the tolerances above.
  const double outputTolerance =
      s.projection ? 1.0 + std::floor(127.0 * p.projectionScale * p.hiddenScale / p.outputScale * double(n))
                   : 1.0;
  c.output(Q8S, {batch, out}, want.output, f(p.outputScale), p.outputZeroPoint);
  c.tolerance(outputTolerance, 0.0);
  c.output(Q16, {batch, units}, want.cellState, s.cellScale, 0);
  c.tolerance(5.0, 0.0);
  c.output(Q8S, {batch, out}, want.output, f(p.outputScale), p.outputZeroPoint);
  c.tolerance(outputTolerance, 0.0);
  return c.build(ops);
}

}  // namespace

std::vector<std::pair<OperationCase, std::string>> quantizedLstmRefusedCases() {
  std::vector<std::pair<OperationCase, std::string>> cases;
  cases.emplace_back(
      quantizedLstmRandom({.name = "quantized_lstm_cell_scale_2e-8", .cellScale = 0x1p-8f, .seed = 3700}),
      "input 19 (cell_state_in) scale");
  cases.emplace_back(quantizedLstmRandom({.name = "quantized_lstm_hidden_zero_point_200",
                                          .projection = true,
                                          .hiddenZeroPoint = 200,
                                          .seed = 3800}),
                     "input 30 (hidden_state_zero_point) must be in -128..127, not 200");
  cases.emplace_back(
      quantizedLstmRandom(
          {.name = "quantized_lstm_output_size_without_projection", .outputSize = 3, .seed = 3900}),
      "without projection the output size (3) must equal the number of units (4)");
  return cases;
}

std::vector<OperationCase> quantizedLstmCases() {
  std::vector<OperationCase> cases;
  cases.push_back(quantized16BitLstmRandom({.name = "quantized_16bit_lstm", .seed = 2000}));
  cases.push_back(quantized16BitLstmRandom(
      {.name = "quantized_16bit_lstm_one_unit", .batch = 1, .inputSize = 1, .outputSize = 1, .seed = 2100}));
  cases.push_back(quantized16BitLstmRandom({.name = "quantized_16bit_lstm_odd_sizes",
                                            .batch = 3,
                                            .inputSize = 5,
                                            .outputSize = 2,
                                            .weightsScale = 0.00390625f,
                                            .weightsZeroPoint = 100,
                                            .seed = 2200}));
  cases.push_back(quantized16BitLstmRandom({.name = "quantized_16bit_lstm_wide_state",
                                            .batch = 2,
                                            .inputSize = 4,
                                            .outputSize = 6,
                                            .weightsScale = 0.02f,
                                            .weightsZeroPoint = 140,
                                            .cellRange = 32000,
                                            .seed = 2300}));
  // Weights of scale 0.5: pre-activations past +-8 and cell states past +-16 saturate.
  cases.push_back(quantized16BitLstmRandom({.name = "quantized_16bit_lstm_saturating",
                                            .weightsScale = 0.5f,
                                            .weightsZeroPoint = 128,
                                            .weightsSpread = 127,
                                            .biasRange = 100000,
                                            .cellRange = 32767,
                                            .seed = 2400}));

  cases.push_back(quantizedLstmRandom({.name = "quantized_lstm", .seed = 3000}));
  cases.push_back(quantizedLstmRandom({.name = "quantized_lstm_cifg", .cifg = true, .seed = 3100}));
  cases.push_back(quantizedLstmRandom({.name = "quantized_lstm_peephole", .peephole = true, .seed = 3200}));
  cases.push_back(
      quantizedLstmRandom({.name = "quantized_lstm_layer_norm", .layerNorm = true, .seed = 3300}));
  cases.push_back(quantizedLstmRandom({.name = "quantized_lstm_projection",
                                       .outputSize = 3,
                                       .layerNorm = true,
                                       .projection = true,
                                       .projectionBias = true,
                                       .projectionClip = 0.1f,
                                       .hiddenZeroPoint = 3,
                                       .seed = 3400}));
  cases.push_back(quantizedLstmRandom({.name = "quantized_lstm_cifg_peephole_layer_norm",
                                       .numUnits = 8,
                                       .outputSize = 5,
                                       .cifg = true,
                                       .peephole = true,
                                       .layerNorm = true,
                                       .projection = true,
                                       .seed = 3500}));
  cases.push_back(quantizedLstmRandom({.name = "quantized_lstm_odd_sizes",
                                       .batch = 3,
                                       .inputSize = 5,
                                       .numUnits = 3,
                                       .outputSize = 2,
                                       .peephole = true,
                                       .layerNorm = true,
                                       .projection = true,
                                       .projectionBias = true,
                                       .cellScale = 0x1p-12f,
                                       .cellClip = 1.5f,
                                       .hiddenZeroPoint = -5,
                                       .seed = 3600}));
  return cases;
}

}  // namespace nnrt::test::conformance
