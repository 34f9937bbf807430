// QUANTIZED_16BIT_LSTM (part of the recurrent family): seeded random steps against
// ref::quantizedLstm16 (tests/support/reference_recurrent.hpp), which works in real numbers and rounds
// where NNAPI's fixed-point formats do. Sizes from one unit to odd shapes, weights of several scales
// and zero points, and a case whose pre-activations and cell state saturate.
//
// Tolerances: the driver rescales its exact int32 accumulators with a fixed-point multiplier exact to
// 2^-31 relative, the reference multiplies in double; only a pre-activation within that distance of a
// rounding tie can come out one 2^-12 step apart. Such a step moves a gate value by at most 2^-12
// (tanh's slope is at most 1), hence i * g by at most 2^-11 and f * c_prev by at most 16 * 2^-14:
// 1 + 2 cell-state units of 2^-11 after rounding, plus 1 for the rounding itself, 4 in all. Four cell
// units (2^-9) move the output by at most 2^-9 + 2^-14 < one 2^-7 output step: 1 step.
#include <string>
#include <utility>
#include <vector>

#include "conformance/operation_case.hpp"
#include "support/reference_recurrent.hpp"

namespace nnrt::test::conformance {

namespace {

using O = OperationType;
constexpr auto Q16 = OperandType::TENSOR_QUANT16_SYMM;

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

}  // namespace

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
  return cases;
}

}  // namespace nnrt::test::conformance
