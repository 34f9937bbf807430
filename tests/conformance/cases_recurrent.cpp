// RNN, SVDF and LSTM (one time step each) and their sequence forms, on TENSOR_FLOAT32 and
// TENSOR_FLOAT16. RNN and SVDF have a hand-checked case each (arithmetic in the comments) and seeded
// random cases against the double-precision references of tests/support/reference_recurrent.hpp: RNN
// with each FuseCode, SVDF of rank 1 and 2 (with and without bias), and LSTM in every form NNAPI
// defines: basic, CIFG, peephole (with and without CIFG), projection with and without its bias, layer
// normalization (the 27-input form, with and without CIFG; and that form with the normalization
// weights omitted), cell and projection clipping, each activation the cell may take. The sequence
// forms run those steps over time (time- or batch-major), the bidirectional ones with each aux
// linking, merged or separate outputs and the final states.
//
// LSTM's scratch buffer (output 0) is working memory whose contents NNAPI does not define: only its
// shape is checked. Absent optional tensors are omitted operands (NO_VALUE); NNAPI's other form, a
// tensor without elements, cannot be written here: the runtime reads a 0 dimension as unknown (a
// constant needs a value, a model input needs its dimensions from the request).
#include <string>
#include <utility>
#include <vector>

#include "conformance/operation_case.hpp"
#include "support/reference_recurrent.hpp"

namespace nnrt::test::conformance {

std::vector<OperationCase> recurrentCases();

namespace {

using O = OperationType;

// The float scalar of the data type: FLOAT32 for TENSOR_FLOAT32 data, FLOAT16 for TENSOR_FLOAT16.
uint32_t floatScalar(CaseBuilder& c, OperandType type, float value) {
  return type == F16 ? c.float16(value) : c.float32(value);
}

const char* suffix(OperandType type) {
  return type == F16 ? "_float16" : "";
}

// ---- RNN ---------------------------------------------------------------------------------------------

// x = [1, 2], h = [2, -1], relu:
//   unit 0: 1*1 + 0*2 + 0.5*2 + 0*(-1) + 0.5 = 2.5
//   unit 1: 0.5*1 - 1*2 + 0*2 + 1*(-1) + 1 = -1.5 -> relu -> 0
OperationCase rnnByHand() {
  CaseBuilder c("rnn_by_hand", O::RNN);
  const uint32_t x = c.input(F32, {1, 2}, {1, 2});
  const uint32_t w = c.constant(F32, {2, 2}, {1, 0, 0.5, -1});
  const uint32_t r = c.constant(F32, {2, 2}, {0.5, 0, 0, 1});
  const uint32_t b = c.constant(F32, {2}, {0.5, 1});
  const uint32_t h = c.input(F32, {1, 2}, {2, -1});
  c.output(F32, {1, 2}, {2.5, 0});
  c.output(F32, {1, 2}, {2.5, 0});
  return c.build({x, w, r, b, h, c.int32(1)});
}

OperationCase rnnRandom(std::string name, OperandType type, int32_t fuse, uint32_t seed) {
  const size_t batch = 2, inputSize = 3, units = 4;
  CaseBuilder c(std::move(name), O::RNN);
  const auto x = randomValues(type, batch * inputSize, seed);
  const auto w = randomValues(type, units * inputSize, seed + 1, -0.8, 0.8);
  const auto r = randomValues(type, units * units, seed + 2, -0.5, 0.5);
  const auto b = randomValues(type, units, seed + 3);
  const auto h = randomValues(type, batch * units, seed + 4);
  const auto want = ref::rnn(x, w, r, b, h, batch, inputSize, units, fuse);
  const uint32_t xi = c.input(type, {batch, inputSize}, x);
  const uint32_t wi = c.constant(type, {units, inputSize}, w);
  const uint32_t ri = c.constant(type, {units, units}, r);
  const uint32_t bi = c.constant(type, {units}, b);
  const uint32_t hi = c.input(type, {batch, units}, h);
  c.output(type, {batch, units}, want);
  c.output(type, {batch, units}, want);
  return c.build({xi, wi, ri, bi, hi, c.int32(fuse)});
}

// UNIDIRECTIONAL_SEQUENCE_RNN: the RNN step of ref::rnn applied maxTime times, the hidden state
// carried; time-major or batch-major; with or without the final-state output of feature level 4.
OperationCase sequenceRnnRandom(std::string name, OperandType type, int32_t fuse, bool timeMajor, bool finalState,
                                uint32_t seed) {
  const size_t maxTime = 4, batch = 2, inputSize = 3, units = 5;
  CaseBuilder c(std::move(name), O::UNIDIRECTIONAL_SEQUENCE_RNN);
  const auto x = randomValues(type, maxTime * batch * inputSize, seed);  // as laid out in the operand
  const auto w = randomValues(type, units * inputSize, seed + 1, -0.8, 0.8);
  const auto r = randomValues(type, units * units, seed + 2, -0.5, 0.5);
  const auto b = randomValues(type, units, seed + 3);
  const auto h0 = randomValues(type, batch * units, seed + 4);
  // Element (t, n, i) of a time-major or batch-major [.., .., size] operand.
  auto at = [&](size_t t, size_t n, size_t size) { return timeMajor ? (t * batch + n) * size : (n * maxTime + t) * size; };
  std::vector<double> out(maxTime * batch * units), h = h0;
  for (size_t t = 0; t < maxTime; ++t) {
    std::vector<double> xt(batch * inputSize);
    for (size_t n = 0; n < batch; ++n)
      for (size_t i = 0; i < inputSize; ++i) xt[n * inputSize + i] = x[at(t, n, inputSize) + i];
    h = ref::rnn(xt, w, r, b, h, batch, inputSize, units, fuse);
    for (size_t n = 0; n < batch; ++n)
      for (size_t u = 0; u < units; ++u) out[at(t, n, units) + u] = h[n * units + u];
  }
  const std::vector<uint32_t> inDims = timeMajor ? std::vector<uint32_t>{maxTime, batch, inputSize}
                                                 : std::vector<uint32_t>{batch, maxTime, inputSize};
  const std::vector<uint32_t> outDims = timeMajor ? std::vector<uint32_t>{maxTime, batch, units}
                                                  : std::vector<uint32_t>{batch, maxTime, units};
  const uint32_t xi = c.input(type, inDims, x);
  const uint32_t wi = c.constant(type, {units, inputSize}, w);
  const uint32_t ri = c.constant(type, {units, units}, r);
  const uint32_t bi = c.constant(type, {units}, b);
  const uint32_t hi = c.input(type, {batch, units}, h0);
  c.output(type, outDims, out);
  if (finalState) c.output(type, {batch, units}, h);
  return c.build({xi, wi, ri, bi, hi, c.int32(fuse), c.int32(timeMajor ? 1 : 0)});
}

// BIDIRECTIONAL_SEQUENCE_RNN: a forward and a backward ref::rnn over the sequence. `linking`: 0 no
// aux tensors, 1 the aux input alone (the backward network's input), 2 aux input and aux weights (each
// network adds its aux weights x aux input). Merged outputs put the backward units after the forward
// ones; `states` adds the final hidden states.
OperationCase bidirectionalRnnRandom(std::string name, OperandType type, int32_t fuse, int linking, bool timeMajor,
                                     bool merge, bool states, uint32_t seed) {
  const size_t maxTime = 3, batch = 2, inputSize = 3, auxSize = linking == 1 ? inputSize : 2, fwUnits = 4,
               bwUnits = 3;
  CaseBuilder c(std::move(name), O::BIDIRECTIONAL_SEQUENCE_RNN);
  const auto x = randomValues(type, maxTime * batch * inputSize, seed);
  const auto aux = randomValues(type, maxTime * batch * auxSize, seed + 1);
  auto w = [&](size_t n, uint32_t s) { return randomValues(type, n, seed + s, -0.6, 0.6); };
  const auto fwW = w(fwUnits * inputSize, 2), fwR = w(fwUnits * fwUnits, 3), fwB = w(fwUnits, 4),
             fwH = w(batch * fwUnits, 5), bwW = w(bwUnits * inputSize, 6), bwR = w(bwUnits * bwUnits, 7),
             bwB = w(bwUnits, 8), bwH = w(batch * bwUnits, 9), fwAux = w(fwUnits * auxSize, 10),
             bwAux = w(bwUnits * auxSize, 11);
  auto at = [&](size_t t, size_t b, size_t size) { return timeMajor ? (t * batch + b) * size : (b * maxTime + t) * size; };
  auto stepOf = [&](const std::vector<double>& seq, size_t t, size_t size) {
    std::vector<double> v(batch * size);
    for (size_t b = 0; b < batch; ++b)
      for (size_t i = 0; i < size; ++i) v[b * size + i] = seq[at(t, b, size) + i];
    return v;
  };
  // One direction: h = act(W x_t (+ Waux aux_t) + R h + b), through ref::rnn with a zero aux part
  // folded into the bias: the aux product is added to each batch row's pre-activation by giving
  // ref::rnn an input and weights extended by the aux input and weights.
  auto direction = [&](const std::vector<double>& W, const std::vector<double>& R, const std::vector<double>& B,
                       const std::vector<double>& H, const std::vector<double>& Waux, size_t units, bool backward,
                       bool auxAsInput, std::vector<double>& ys) {
    std::vector<double> h = H;
    ys.assign(maxTime * batch * units, 0.0);
    for (size_t i = 0; i < maxTime; ++i) {
      const size_t t = backward ? maxTime - 1 - i : i;
      std::vector<double> xt = auxAsInput ? stepOf(aux, t, auxSize) : stepOf(x, t, inputSize);
      std::vector<double> weights = W;
      size_t width = inputSize;
      if (linking == 2) {
        const auto at2 = stepOf(aux, t, auxSize);
        std::vector<double> joined, joinedW;
        for (size_t b = 0; b < batch; ++b) {
          joined.insert(joined.end(), xt.begin() + b * inputSize, xt.begin() + (b + 1) * inputSize);
          joined.insert(joined.end(), at2.begin() + b * auxSize, at2.begin() + (b + 1) * auxSize);
        }
        for (size_t u = 0; u < units; ++u) {
          joinedW.insert(joinedW.end(), W.begin() + u * inputSize, W.begin() + (u + 1) * inputSize);
          joinedW.insert(joinedW.end(), Waux.begin() + u * auxSize, Waux.begin() + (u + 1) * auxSize);
        }
        xt = joined;
        weights = joinedW;
        width = inputSize + auxSize;
      }
      h = ref::rnn(xt, weights, R, B, h, batch, width, units, fuse);
      for (size_t b = 0; b < batch; ++b)
        for (size_t u = 0; u < units; ++u) ys[(t * batch + b) * units + u] = h[b * units + u];
    }
    return h;
  };
  std::vector<double> fwY, bwY;
  const auto fwState = direction(fwW, fwR, fwB, fwH, fwAux, fwUnits, false, false, fwY);
  const auto bwState = direction(bwW, bwR, bwB, bwH, bwAux, bwUnits, true, linking == 1, bwY);
  // Time-major ys to the operand layout, `offset` units into rows of `width`.
  auto layout = [&](const std::vector<double>& ys, size_t units, size_t width, size_t offset, std::vector<double>& out) {
    for (size_t t = 0; t < maxTime; ++t)
      for (size_t b = 0; b < batch; ++b)
        for (size_t u = 0; u < units; ++u) out[at(t, b, width) + offset + u] = ys[(t * batch + b) * units + u];
  };
  auto dims3 = [&](size_t last) {
    return timeMajor ? std::vector<uint32_t>{uint32_t(maxTime), uint32_t(batch), uint32_t(last)}
                     : std::vector<uint32_t>{uint32_t(batch), uint32_t(maxTime), uint32_t(last)};
  };
  std::vector<uint32_t> ops{c.input(type, dims3(inputSize), x)};
  ops.push_back(c.constant(type, {uint32_t(fwUnits), uint32_t(inputSize)}, fwW));
  ops.push_back(c.constant(type, {uint32_t(fwUnits), uint32_t(fwUnits)}, fwR));
  ops.push_back(c.constant(type, {uint32_t(fwUnits)}, fwB));
  ops.push_back(c.input(type, {uint32_t(batch), uint32_t(fwUnits)}, fwH));
  ops.push_back(c.constant(type, {uint32_t(bwUnits), uint32_t(inputSize)}, bwW));
  ops.push_back(c.constant(type, {uint32_t(bwUnits), uint32_t(bwUnits)}, bwR));
  ops.push_back(c.constant(type, {uint32_t(bwUnits)}, bwB));
  ops.push_back(c.input(type, {uint32_t(batch), uint32_t(bwUnits)}, bwH));
  ops.push_back(linking == 0 ? c.omitted(type) : c.input(type, dims3(auxSize), aux));
  ops.push_back(linking == 2 ? c.constant(type, {uint32_t(fwUnits), uint32_t(auxSize)}, fwAux) : c.omitted(type));
  ops.push_back(linking == 2 ? c.constant(type, {uint32_t(bwUnits), uint32_t(auxSize)}, bwAux) : c.omitted(type));
  ops.push_back(c.int32(fuse));
  ops.push_back(c.boolean(timeMajor));
  ops.push_back(c.boolean(merge));
  if (merge) {
    std::vector<double> out(maxTime * batch * (fwUnits + bwUnits));
    layout(fwY, fwUnits, fwUnits + bwUnits, 0, out);
    layout(bwY, bwUnits, fwUnits + bwUnits, fwUnits, out);
    c.output(type, dims3(fwUnits + bwUnits), out);
  } else {
    std::vector<double> fwOut(maxTime * batch * fwUnits), bwOut(maxTime * batch * bwUnits);
    layout(fwY, fwUnits, fwUnits, 0, fwOut);
    layout(bwY, bwUnits, bwUnits, 0, bwOut);
    c.output(type, dims3(fwUnits), fwOut);
    c.output(type, dims3(bwUnits), bwOut);
  }
  if (states) {
    c.output(type, {uint32_t(batch), uint32_t(fwUnits)}, fwState);
    c.output(type, {uint32_t(batch), uint32_t(bwUnits)}, bwState);
  }
  return c.build(ops);
}

// ---- SVDF --------------------------------------------------------------------------------------------

// One unit, rank 1, memory 3. The state keeps 3 entries, oldest first, the last one the free slot:
//   activation = [0.5, 1] . [1, 2] = 2.5, memory after the push [4, 5, 2.5]
//   output = [1, 2, 3] . [4, 5, 2.5] + bias -1.5 = 4 + 10 + 7.5 - 1.5 = 20
//   state out = the memory shifted, free slot 0: [5, 2.5, 0]
OperationCase svdfByHand() {
  CaseBuilder c("svdf_by_hand", O::SVDF);
  const uint32_t x = c.input(F32, {1, 2}, {1, 2});
  const uint32_t wf = c.constant(F32, {1, 2}, {0.5, 1});
  const uint32_t wt = c.constant(F32, {1, 3}, {1, 2, 3});
  const uint32_t b = c.constant(F32, {1}, {-1.5});
  const uint32_t s = c.input(F32, {1, 3}, {4, 5, 0});
  c.output(F32, {1, 3}, {5, 2.5, 0});
  c.output(F32, {1, 1}, {20});
  return c.build({x, wf, wt, b, s, c.int32(1), c.int32(0)});
}

// One LSTM step with one input, one cell, one output, no peephole, projection or clipping, tanh:
// x = 1, previous output 0 (so the recurrent weights do not count), previous cell 2.
//   input gate  i = sigmoid(1 * 1 - 1)   = 0.5
//   forget gate f = sigmoid(2 * 1 + 1)   = sigmoid(3) = 0.952574127
//   cell input  g = tanh(0.5 * 1 + 0)    = 0.462117157
//   output gate o = sigmoid(-1 * 1 + 1)  = 0.5
//   cell c = f * 2 + i * g = 1.905148254 + 0.231058579 = 2.136206832
//   output h = o * tanh(c) = 0.5 * 0.972487592 = 0.486243796
OperationCase lstmByHand() {
  CaseBuilder c("lstm_by_hand", O::LSTM);
  auto one = [&](double v) { return c.constant(F32, {1, 1}, {v}); };
  auto bias = [&](double v) { return c.constant(F32, {1}, {v}); };
  std::vector<uint32_t> in{c.input(F32, {1, 1}, {1})};
  for (double w : {1.0, 2.0, 0.5, -1.0}) in.push_back(one(w));  // input to input, forget, cell, output
  for (double w : {0.3, -0.7, 0.9, 0.4}) in.push_back(one(w));  // recurrent weights (times h = 0)
  for (int k = 0; k < 3; ++k) in.push_back(c.omitted(F32));      // no peephole
  for (double b : {-1.0, 1.0, 0.0, 1.0}) in.push_back(bias(b));  // gate biases
  in.push_back(c.omitted(F32));                                  // no projection weights
  in.push_back(c.omitted(F32));                                  // no projection bias
  in.push_back(c.input(F32, {1, 1}, {0}));                       // output state in
  in.push_back(c.input(F32, {1, 1}, {2}));                       // cell state in
  in.push_back(c.int32(4));                                      // tanh
  in.push_back(c.float32(0));                                    // no cell clipping
  in.push_back(c.float32(0));                                    // no projection clipping
  c.output(F32, {1, 4}, {0, 0, 0, 0});
  c.tolerance(1e300, 0.0);  // the scratch buffer: contents undefined, shape checked
  c.output(F32, {1, 1}, {0.486243796});
  c.output(F32, {1, 1}, {2.136206832});
  c.output(F32, {1, 1}, {0.486243796});
  return c.build(in);
}

struct SvdfSpec {
  std::string name;
  OperandType type = F32;
  size_t batch = 2, inputSize = 3, units = 4, rank = 1, memory = 5;
  bool bias = true;
  int32_t fuse = 0;
  uint32_t seed = 0;
};

OperationCase svdfRandom(const SvdfSpec& s) {
  const size_t filters = s.units * s.rank;
  CaseBuilder c(s.name, O::SVDF);
  const auto x = randomValues(s.type, s.batch * s.inputSize, s.seed);
  const auto wf = randomValues(s.type, filters * s.inputSize, s.seed + 1);
  const auto wt = randomValues(s.type, filters * s.memory, s.seed + 2);
  const auto b = randomValues(s.type, s.units, s.seed + 3);
  // The state as an earlier step leaves it: each filter's last (free) slot 0.
  auto state = randomValues(s.type, s.batch * filters * s.memory, s.seed + 4);
  for (size_t i = s.memory - 1; i < state.size(); i += s.memory)
    state[i] = 0.0;
  const auto want = ref::svdf(x, wf, wt, s.bias ? &b : nullptr, state, s.batch, s.inputSize, filters,
                              s.memory, s.rank, s.fuse);
  const uint32_t xi = c.input(s.type, {uint32_t(s.batch), uint32_t(s.inputSize)}, x);
  const uint32_t wfi = c.constant(s.type, {uint32_t(filters), uint32_t(s.inputSize)}, wf);
  const uint32_t wti = c.constant(s.type, {uint32_t(filters), uint32_t(s.memory)}, wt);
  const uint32_t bi = s.bias ? c.constant(s.type, {uint32_t(s.units)}, b) : c.omitted(s.type);
  const uint32_t si = c.input(s.type, {uint32_t(s.batch), uint32_t(filters * s.memory)}, state);
  c.output(s.type, {uint32_t(s.batch), uint32_t(filters * s.memory)}, want.state);
  c.output(s.type, {uint32_t(s.batch), uint32_t(s.units)}, want.output);
  return c.build({xi, wfi, wti, bi, si, c.int32(int32_t(s.rank)), c.int32(s.fuse)});
}

// ---- LSTM --------------------------------------------------------------------------------------------

struct LstmSpec {
  std::string name;
  OperandType type = F32;
  size_t batch = 2, inputSize = 3, units = 4, outputSize = 4;
  bool cifg = false, peephole = false, projection = false, projectionBias = false;
  bool layerNormForm = false;  // 27 inputs
  bool layerNorm = false;      // the normalization weights given (else omitted)
  int32_t activation = 4;
  float cellClip = 0.0f, projClip = 0.0f;
  double weightRange = 0.5;  // weights uniform in [-range, range]
  uint32_t seed = 0;
};

// The random weights of an LSTM step as `s` describes them (empty vectors for absent tensors), drawn
// from `seed` onwards.
ref::LstmParams lstmParams(const LstmSpec& s, uint32_t& seed) {
  const OperandType t = s.type;
  ref::LstmParams p;
  p.batch = s.batch;
  p.inputSize = s.inputSize;
  p.units = s.units;
  p.outputSize = s.projection ? s.outputSize : s.units;
  p.activation = s.activation;
  p.cellClip = s.cellClip;
  p.projClip = s.projClip;
  const size_t n = s.units, in = s.inputSize, out = p.outputSize;
  auto weights = [&](size_t count) { return randomValues(t, count, seed++, -s.weightRange, s.weightRange); };
  if (!s.cifg) p.inputToInput = weights(n * in);
  p.inputToForget = weights(n * in);
  p.inputToCell = weights(n * in);
  p.inputToOutput = weights(n * in);
  if (!s.cifg) p.recurrentToInput = weights(n * out);
  p.recurrentToForget = weights(n * out);
  p.recurrentToCell = weights(n * out);
  p.recurrentToOutput = weights(n * out);
  if (s.peephole) {
    if (!s.cifg) p.cellToInput = weights(n);
    p.cellToForget = weights(n);
    p.cellToOutput = weights(n);
  }
  if (!s.cifg) p.inputBias = randomValues(t, n, seed++);
  p.forgetBias = randomValues(t, n, seed++, 0.0, 1.0);
  p.cellBias = randomValues(t, n, seed++);
  p.outputBias = randomValues(t, n, seed++);
  if (s.projection) {
    p.projection = weights(out * n);
    if (s.projectionBias) p.projectionBias = randomValues(t, out, seed++);
  }
  if (s.layerNorm) {
    if (!s.cifg) p.inputNorm = randomValues(t, n, seed++, 0.5, 1.5);
    p.forgetNorm = randomValues(t, n, seed++, 0.5, 1.5);
    p.cellNorm = randomValues(t, n, seed++, 0.5, 1.5);
    p.outputNorm = randomValues(t, n, seed++, 0.5, 1.5);
  }
  return p;
}

// The 17 gate tensors of an LSTM cell (LSTM's inputs 1..17: weights as constants, absent ones
// omitted), appended to `ops`.
void lstmGateOperands(CaseBuilder& c, const LstmSpec& s, const ref::LstmParams& p, std::vector<uint32_t>& ops) {
  const OperandType t = s.type;
  const uint32_t in = uint32_t(p.inputSize), n = uint32_t(s.units), out = uint32_t(p.outputSize);
  auto tensor = [&](const std::vector<double>& v, std::vector<uint32_t> dims) {
    return v.empty() ? c.omitted(t) : c.constant(t, std::move(dims), v);
  };
  for (const auto* v : {&p.inputToInput, &p.inputToForget, &p.inputToCell, &p.inputToOutput})
    ops.push_back(tensor(*v, {n, in}));
  for (const auto* v : {&p.recurrentToInput, &p.recurrentToForget, &p.recurrentToCell, &p.recurrentToOutput})
    ops.push_back(tensor(*v, {n, out}));
  for (const auto* v : {&p.cellToInput, &p.cellToForget, &p.cellToOutput, &p.inputBias, &p.forgetBias,
                        &p.cellBias, &p.outputBias})
    ops.push_back(tensor(*v, {n}));
  ops.push_back(tensor(p.projection, {out, n}));
  ops.push_back(tensor(p.projectionBias, {out}));
}

// Inputs 1..22 of LSTM and UNIDIRECTIONAL_SEQUENCE_LSTM (weights as constants, absent ones omitted),
// appended to `ops`.
void lstmOperands(CaseBuilder& c, const LstmSpec& s, const ref::LstmParams& p, const std::vector<double>& hIn,
                  const std::vector<double>& cIn, std::vector<uint32_t>& ops) {
  const OperandType t = s.type;
  const uint32_t batch = uint32_t(s.batch), n = uint32_t(s.units), out = uint32_t(p.outputSize);
  lstmGateOperands(c, s, p, ops);
  ops.push_back(c.input(t, {batch, out}, hIn));
  ops.push_back(c.input(t, {batch, n}, cIn));
  ops.push_back(c.int32(s.activation));
  ops.push_back(floatScalar(c, t, s.cellClip));
  ops.push_back(floatScalar(c, t, s.projClip));
}

// The layer normalization weights (inputs 23..26 of LSTM, 24..27 of the sequence form).
void layerNormOperands(CaseBuilder& c, const LstmSpec& s, const ref::LstmParams& p, std::vector<uint32_t>& ops) {
  for (const auto* v : {&p.inputNorm, &p.forgetNorm, &p.cellNorm, &p.outputNorm})
    ops.push_back(v->empty() ? c.omitted(s.type) : c.constant(s.type, {uint32_t(s.units)}, *v));
}

OperationCase lstmRandom(const LstmSpec& s) {
  CaseBuilder c(s.name, O::LSTM);
  const OperandType t = s.type;
  uint32_t seed = s.seed;
  const auto x = randomValues(t, s.batch * s.inputSize, seed++);
  const size_t outputSize = s.projection ? s.outputSize : s.units;
  const auto hIn = randomValues(t, s.batch * outputSize, seed++);
  const auto cIn = randomValues(t, s.batch * s.units, seed++, -2.0, 2.0);
  const ref::LstmParams p = lstmParams(s, seed);
  const ref::LstmResult want = ref::lstm(p, x, hIn, cIn);
  const uint32_t batch = uint32_t(s.batch), n = uint32_t(s.units), out = uint32_t(p.outputSize);

  std::vector<uint32_t> ops{c.input(t, {batch, uint32_t(s.inputSize)}, x)};
  lstmOperands(c, s, p, hIn, cIn, ops);
  if (s.layerNormForm) layerNormOperands(c, s, p, ops);

  const uint32_t gates = s.cifg ? 3 : 4;
  c.output(t, {batch, n * gates}, std::vector<double>(size_t{batch} * n * gates, 0.0));
  c.tolerance(1e300, 0.0);  // the scratch buffer: contents undefined, shape checked
  c.output(t, {batch, out}, want.outputState);
  c.output(t, {batch, n}, want.cellState);
  c.output(t, {batch, out}, want.outputState);
  return c.build(ops);
}

// UNIDIRECTIONAL_SEQUENCE_LSTM: ref::lstm once per time step, the states carried; time-major or
// batch-major; the final states as outputs 1 and 2 (feature level 4) or not. Uses the LstmSpec fields
// of one step (layerNormForm is implied: the operation always has 28 inputs).
OperationCase sequenceLstmRandom(const LstmSpec& s, bool timeMajor, bool states, size_t maxTime) {
  CaseBuilder c(s.name, O::UNIDIRECTIONAL_SEQUENCE_LSTM);
  const OperandType t = s.type;
  uint32_t seed = s.seed;
  const auto x = randomValues(t, maxTime * s.batch * s.inputSize, seed++);  // as laid out in the operand
  const size_t outputSize = s.projection ? s.outputSize : s.units;
  const auto hIn = randomValues(t, s.batch * outputSize, seed++);
  const auto cIn = randomValues(t, s.batch * s.units, seed++, -2.0, 2.0);
  const ref::LstmParams p = lstmParams(s, seed);
  const uint32_t batch = uint32_t(s.batch), in = uint32_t(s.inputSize), n = uint32_t(s.units),
                 out = uint32_t(p.outputSize), time = uint32_t(maxTime);
  // Element (step, b, i) of a time-major or batch-major [.., .., size] operand.
  auto at = [&](size_t step, size_t b, size_t size) {
    return timeMajor ? (step * s.batch + b) * size : (b * maxTime + step) * size;
  };
  std::vector<double> y(maxTime * s.batch * p.outputSize), h = hIn, cell = cIn;
  for (size_t step = 0; step < maxTime; ++step) {
    std::vector<double> xt(s.batch * s.inputSize);
    for (size_t b = 0; b < s.batch; ++b)
      for (size_t i = 0; i < s.inputSize; ++i) xt[b * s.inputSize + i] = x[at(step, b, s.inputSize) + i];
    const ref::LstmResult r = ref::lstm(p, xt, h, cell);
    h = r.outputState;
    cell = r.cellState;
    for (size_t b = 0; b < s.batch; ++b)
      for (size_t o = 0; o < p.outputSize; ++o) y[at(step, b, p.outputSize) + o] = h[b * p.outputSize + o];
  }

  const std::vector<uint32_t> inDims = timeMajor ? std::vector<uint32_t>{time, batch, in}
                                                 : std::vector<uint32_t>{batch, time, in};
  std::vector<uint32_t> ops{c.input(t, inDims, x)};
  lstmOperands(c, s, p, hIn, cIn, ops);
  ops.push_back(c.boolean(timeMajor));
  layerNormOperands(c, s, p, ops);
  c.output(t, timeMajor ? std::vector<uint32_t>{time, batch, out} : std::vector<uint32_t>{batch, time, out}, y);
  if (states) {
    c.output(t, {batch, out}, h);
    c.output(t, {batch, n}, cell);
  }
  return c.build(ops);
}

// BIDIRECTIONAL_SEQUENCE_LSTM: a forward and a backward ref::lstm over the sequence, the backward cell
// with one unit more (and one projected output more) than `s` gives the forward one, so that a mix-up
// shows. `linking`: 0 no aux tensors; 1 the aux input alone (the backward cell's input); 2 aux input
// and aux weights (each cell adds its aux weights x aux input, modelled here as a cell whose input
// weights are extended by the aux weights over the input and aux input side by side). Merged outputs
// put the backward outputs after the forward ones; `states` adds the four final states.
OperationCase bidirectionalLstmRandom(const LstmSpec& s, int linking, bool timeMajor, bool merge, bool states,
                                      size_t maxTime) {
  CaseBuilder c(s.name, O::BIDIRECTIONAL_SEQUENCE_LSTM);
  const OperandType t = s.type;
  const size_t batch = s.batch, inputSize = s.inputSize, auxSize = inputSize + 1;
  LstmSpec bwSpec = s;
  bwSpec.units = s.units + 1;
  bwSpec.outputSize = s.outputSize + 1;
  if (linking == 1) bwSpec.inputSize = auxSize;
  uint32_t seed = s.seed;
  const auto x = randomValues(t, maxTime * batch * inputSize, seed++);  // as laid out in the operands
  const auto aux = randomValues(t, maxTime * batch * auxSize, seed++);
  const ref::LstmParams fw = lstmParams(s, seed);
  const ref::LstmParams bw = lstmParams(bwSpec, seed);
  const auto fwH = randomValues(t, batch * fw.outputSize, seed++);
  const auto fwC = randomValues(t, batch * fw.units, seed++, -2.0, 2.0);
  const auto bwH = randomValues(t, batch * bw.outputSize, seed++);
  const auto bwC = randomValues(t, batch * bw.units, seed++, -2.0, 2.0);
  // Aux weights (input, forget, cell, output gate; the input gate's absent with CIFG).
  auto auxWeights = [&](const ref::LstmParams& p) {
    std::vector<std::vector<double>> w(4);
    for (size_t k = s.cifg ? 1 : 0; k < 4; ++k)
      w[k] = randomValues(t, p.units * auxSize, seed++, -s.weightRange, s.weightRange);
    return w;
  };
  const auto fwAux = auxWeights(fw), bwAux = auxWeights(bw);

  // Element (step, b, i) of a time-major or batch-major [.., .., size] operand.
  auto at = [&](size_t step, size_t b, size_t size) {
    return timeMajor ? (step * batch + b) * size : (b * maxTime + step) * size;
  };
  auto stepOf = [&](const std::vector<double>& seq, size_t step, size_t size) {
    std::vector<double> v(batch * size);
    for (size_t b = 0; b < batch; ++b)
      for (size_t i = 0; i < size; ++i) v[b * size + i] = seq[at(step, b, size) + i];
    return v;
  };
  // One cell over the sequence; ys[step] its output at that step. Returns the final states.
  auto direction = [&](ref::LstmParams p, const std::vector<std::vector<double>>& auxW, const std::vector<double>& h0,
                       const std::vector<double>& c0, bool backward, std::vector<std::vector<double>>& ys) {
    const size_t width = p.inputSize;
    if (linking == 2) {
      std::vector<double>* gates[] = {&p.inputToInput, &p.inputToForget, &p.inputToCell, &p.inputToOutput};
      for (size_t k = 0; k < 4; ++k) {
        if (gates[k]->empty()) continue;
        std::vector<double> joined;
        for (size_t u = 0; u < p.units; ++u) {
          joined.insert(joined.end(), gates[k]->begin() + u * width, gates[k]->begin() + (u + 1) * width);
          joined.insert(joined.end(), auxW[k].begin() + u * auxSize, auxW[k].begin() + (u + 1) * auxSize);
        }
        *gates[k] = joined;
      }
      p.inputSize = width + auxSize;
    }
    ref::LstmResult r{h0, c0};
    ys.assign(maxTime, {});
    for (size_t i = 0; i < maxTime; ++i) {
      const size_t step = backward ? maxTime - 1 - i : i;
      std::vector<double> xt = linking == 1 && backward ? stepOf(aux, step, auxSize) : stepOf(x, step, inputSize);
      if (linking == 2) {
        const auto a = stepOf(aux, step, auxSize);
        std::vector<double> joined;
        for (size_t b = 0; b < batch; ++b) {
          joined.insert(joined.end(), xt.begin() + b * inputSize, xt.begin() + (b + 1) * inputSize);
          joined.insert(joined.end(), a.begin() + b * auxSize, a.begin() + (b + 1) * auxSize);
        }
        xt = joined;
      }
      r = ref::lstm(p, xt, r.outputState, r.cellState);
      ys[step] = r.outputState;
    }
    return r;
  };
  std::vector<std::vector<double>> fwY, bwY;
  const ref::LstmResult fwLast = direction(fw, fwAux, fwH, fwC, false, fwY);
  const ref::LstmResult bwLast = direction(bw, bwAux, bwH, bwC, true, bwY);

  auto dims3 = [&](size_t last) {
    return timeMajor ? std::vector<uint32_t>{uint32_t(maxTime), uint32_t(batch), uint32_t(last)}
                     : std::vector<uint32_t>{uint32_t(batch), uint32_t(maxTime), uint32_t(last)};
  };
  std::vector<uint32_t> ops{c.input(t, dims3(inputSize), x)};
  lstmGateOperands(c, s, fw, ops);
  lstmGateOperands(c, bwSpec, bw, ops);
  ops.push_back(c.input(t, {uint32_t(batch), uint32_t(fw.outputSize)}, fwH));
  ops.push_back(c.input(t, {uint32_t(batch), uint32_t(fw.units)}, fwC));
  ops.push_back(c.input(t, {uint32_t(batch), uint32_t(bw.outputSize)}, bwH));
  ops.push_back(c.input(t, {uint32_t(batch), uint32_t(bw.units)}, bwC));
  ops.push_back(linking == 0 ? c.omitted(t) : c.input(t, dims3(auxSize), aux));
  for (const auto* w : {&fwAux, &bwAux}) {
    for (size_t k = 0; k < 4; ++k) {
      const uint32_t units = uint32_t((*w)[k].size() / auxSize);
      ops.push_back(linking == 2 && !(*w)[k].empty() ? c.constant(t, {units, uint32_t(auxSize)}, (*w)[k])
                                                     : c.omitted(t));
    }
  }
  ops.push_back(c.int32(s.activation));
  ops.push_back(floatScalar(c, t, s.cellClip));
  ops.push_back(floatScalar(c, t, s.projClip));
  ops.push_back(c.boolean(merge));
  ops.push_back(c.boolean(timeMajor));
  layerNormOperands(c, s, fw, ops);
  layerNormOperands(c, bwSpec, bw, ops);

  // The outputs in the operands' layout, `offset` values into rows of `width`.
  auto layout = [&](const std::vector<std::vector<double>>& ys, size_t size, size_t width, size_t offset,
                    std::vector<double>& out) {
    for (size_t step = 0; step < maxTime; ++step)
      for (size_t b = 0; b < batch; ++b)
        for (size_t o = 0; o < size; ++o) out[at(step, b, width) + offset + o] = ys[step][b * size + o];
  };
  if (merge) {
    const size_t width = fw.outputSize + bw.outputSize;
    std::vector<double> out(maxTime * batch * width);
    layout(fwY, fw.outputSize, width, 0, out);
    layout(bwY, bw.outputSize, width, fw.outputSize, out);
    c.output(t, dims3(width), out);
  } else {
    std::vector<double> fwOut(maxTime * batch * fw.outputSize), bwOut(maxTime * batch * bw.outputSize);
    layout(fwY, fw.outputSize, fw.outputSize, 0, fwOut);
    layout(bwY, bw.outputSize, bw.outputSize, 0, bwOut);
    c.output(t, dims3(fw.outputSize), fwOut);
    c.output(t, dims3(bw.outputSize), bwOut);
  }
  if (states) {
    c.output(t, {uint32_t(batch), uint32_t(fw.outputSize)}, fwLast.outputState);
    c.output(t, {uint32_t(batch), uint32_t(fw.units)}, fwLast.cellState);
    c.output(t, {uint32_t(batch), uint32_t(bw.outputSize)}, bwLast.outputState);
    c.output(t, {uint32_t(batch), uint32_t(bw.units)}, bwLast.cellState);
  }
  return c.build(ops);
}

std::vector<LstmSpec> lstmSpecs() {
  std::vector<LstmSpec> specs;
  auto add = [&](LstmSpec s) { specs.push_back(std::move(s)); };
  add({.name = "lstm_basic", .seed = 10});
  add({.name = "lstm_batch1_odd_sizes", .batch = 1, .inputSize = 5, .units = 3, .outputSize = 3, .seed = 20});
  add({.name = "lstm_cifg", .cifg = true, .seed = 30});
  add({.name = "lstm_peephole", .peephole = true, .seed = 40});
  add({.name = "lstm_cifg_peephole", .cifg = true, .peephole = true, .seed = 50});
  add({.name = "lstm_projection", .outputSize = 3, .projection = true, .projectionBias = true, .seed = 60});
  add({.name = "lstm_projection_no_bias", .outputSize = 5, .projection = true, .seed = 70});
  add({.name = "lstm_peephole_projection",
       .outputSize = 2,
       .peephole = true,
       .projection = true,
       .projectionBias = true,
       .seed = 80});
  add({.name = "lstm_layer_norm", .layerNormForm = true, .layerNorm = true, .seed = 90});
  add({.name = "lstm_layer_norm_peephole_projection",
       .units = 5,
       .outputSize = 3,
       .peephole = true,
       .projection = true,
       .projectionBias = true,
       .layerNormForm = true,
       .layerNorm = true,
       .seed = 100});
  add({.name = "lstm_layer_norm_cifg",
       .cifg = true,
       .peephole = true,
       .layerNormForm = true,
       .layerNorm = true,
       .seed = 110});
  add({.name = "lstm_27_inputs_no_layer_norm", .peephole = true, .layerNormForm = true, .seed = 120});
  add({.name = "lstm_cell_clip", .cellClip = 0.5f, .weightRange = 2.0, .seed = 130});
  add({.name = "lstm_cell_and_projection_clip",
       .outputSize = 3,
       .projection = true,
       .projectionBias = true,
       .cellClip = 0.75f,
       .projClip = 0.25f,
       .weightRange = 2.0,
       .seed = 140});
  add({.name = "lstm_activation_relu", .activation = 1, .seed = 150});
  add({.name = "lstm_activation_relu6", .activation = 3, .weightRange = 2.0, .seed = 160});
  add({.name = "lstm_activation_sigmoid", .activation = 6, .seed = 170});
  add({.name = "lstm_activation_none", .activation = 0, .seed = 180});
  // TENSOR_FLOAT16 (FLOAT16 clips).
  add({.name = "lstm_basic_float16", .type = F16, .seed = 210});
  add({.name = "lstm_cifg_peephole_float16", .type = F16, .cifg = true, .peephole = true, .seed = 220});
  add({.name = "lstm_projection_clip_float16",
       .type = F16,
       .outputSize = 3,
       .projection = true,
       .projectionBias = true,
       .cellClip = 0.75f,
       .projClip = 0.25f,
       .weightRange = 2.0,
       .seed = 230});
  add({.name = "lstm_layer_norm_float16",
       .type = F16,
       .peephole = true,
       .layerNormForm = true,
       .layerNorm = true,
       .seed = 240});
  return specs;
}

}  // namespace

std::vector<OperationCase> recurrentCases() {
  std::vector<OperationCase> cases;
  cases.push_back(rnnByHand());
  for (OperandType type : {F32, F16}) {
    const std::string sfx = suffix(type);
    const uint32_t seed = type == F16 ? 500 : 0;
    cases.push_back(rnnRandom("rnn_none" + sfx, type, 0, seed + 1));
    cases.push_back(rnnRandom("rnn_relu" + sfx, type, 1, seed + 11));
    cases.push_back(rnnRandom("rnn_relu1" + sfx, type, 2, seed + 21));
    cases.push_back(rnnRandom("rnn_relu6" + sfx, type, 3, seed + 31));
    cases.push_back(sequenceRnnRandom("sequence_rnn_time_major_relu" + sfx, type, 1, true, false, seed + 41));
    cases.push_back(sequenceRnnRandom("sequence_rnn_batch_major_none" + sfx, type, 0, false, false, seed + 51));
    cases.push_back(sequenceRnnRandom("sequence_rnn_final_state_relu1" + sfx, type, 2, true, true, seed + 61));
    cases.push_back(sequenceRnnRandom("sequence_rnn_batch_major_final_state_relu6" + sfx, type, 3, false, true,
                                      seed + 71));
    cases.push_back(bidirectionalRnnRandom("bidirectional_rnn_merged_time_major" + sfx, type, 4, 0, true, true, false,
                                           seed + 81));
    cases.push_back(bidirectionalRnnRandom("bidirectional_rnn_parallel_aux_batch_major_states" + sfx, type, 1, 1,
                                           false, false, true, seed + 91));
    cases.push_back(bidirectionalRnnRandom("bidirectional_rnn_cross_aux_merged_states" + sfx, type, 6, 2, true, true,
                                           true, seed + 101));
  }

  cases.push_back(svdfByHand());
  cases.push_back(lstmByHand());
  for (OperandType type : {F32, F16}) {
    const std::string sfx = suffix(type);
    const uint32_t seed = type == F16 ? 600 : 0;
    cases.push_back(svdfRandom({.name = "svdf_rank1" + sfx, .type = type, .seed = seed + 40}));
    cases.push_back(svdfRandom({.name = "svdf_rank1_relu_no_bias" + sfx,
                                .type = type,
                                .bias = false,
                                .fuse = 1,
                                .seed = seed + 50}));
    cases.push_back(svdfRandom(
        {.name = "svdf_rank2" + sfx, .type = type, .units = 3, .rank = 2, .memory = 4, .seed = seed + 60}));
    cases.push_back(svdfRandom({.name = "svdf_rank2_relu1_no_bias" + sfx,
                                .type = type,
                                .batch = 1,
                                .inputSize = 4,
                                .units = 2,
                                .rank = 2,
                                .memory = 3,
                                .bias = false,
                                .fuse = 2,
                                .seed = seed + 70}));
  }
  cases.push_back(svdfRandom({.name = "svdf_rank1_memory1", .memory = 1, .seed = 80}));

  for (const LstmSpec& s : lstmSpecs())
    cases.push_back(lstmRandom(s));
  for (OperandType type : {F32, F16}) {
    const std::string sfx = suffix(type);
    cases.push_back(sequenceLstmRandom({.name = "sequence_lstm_time_major" + sfx, .type = type, .seed = 900}, true,
                                       false, 3));
    cases.push_back(sequenceLstmRandom(
        {.name = "sequence_lstm_batch_major_states_cifg_peephole" + sfx, .type = type, .cifg = true, .peephole = true,
         .seed = 910},
        false, true, 4));
    cases.push_back(sequenceLstmRandom({.name = "sequence_lstm_projection_layer_norm_clips" + sfx,
                                        .type = type,
                                        .outputSize = 3,
                                        .projection = true,
                                        .projectionBias = true,
                                        .layerNorm = true,
                                        .cellClip = 1.5f,
                                        .projClip = 0.8f,
                                        .seed = 920},
                                       true, true, 3));
  }
  // Longer than the block of steps whose input products the cpu driver computes at once (64): a
  // block boundary inside the sequence, forwards and (bidirectional, below) backwards.
  cases.push_back(sequenceLstmRandom(
      {.name = "sequence_lstm_150_steps_peephole_layer_norm", .type = F32, .peephole = true, .layerNorm = true,
       .seed = 930},
      false, true, 150));
  for (OperandType type : {F32, F16}) {
    const std::string sfx = suffix(type);
    cases.push_back(bidirectionalLstmRandom({.name = "bidirectional_lstm_time_major" + sfx, .type = type, .seed = 1000},
                                            0, true, false, false, 3));
    cases.push_back(bidirectionalLstmRandom({.name = "bidirectional_lstm_merged_batch_major_states_cifg_peephole" + sfx,
                                             .type = type,
                                             .cifg = true,
                                             .peephole = true,
                                             .seed = 1100},
                                            0, false, true, true, 4));
    cases.push_back(bidirectionalLstmRandom({.name = "bidirectional_lstm_parallel_aux_projection_clips" + sfx,
                                             .type = type,
                                             .outputSize = 3,
                                             .projection = true,
                                             .projectionBias = true,
                                             .cellClip = 1.5f,
                                             .projClip = 0.8f,
                                             .seed = 1200},
                                            1, true, false, true, 3));
    cases.push_back(bidirectionalLstmRandom({.name = "bidirectional_lstm_cross_aux_layer_norm_merged" + sfx,
                                             .type = type,
                                             .peephole = true,
                                             .layerNorm = true,
                                             .seed = 1300},
                                            2, false, true, false, 3));
    cases.push_back(bidirectionalLstmRandom({.name = "bidirectional_lstm_cross_aux_cifg_layer_norm_states" + sfx,
                                             .type = type,
                                             .cifg = true,
                                             .layerNorm = true,
                                             .activation = 6,
                                             .seed = 1400},
                                            2, true, false, true, 2));
  }
  cases.push_back(bidirectionalLstmRandom({.name = "bidirectional_lstm_130_steps_cifg", .type = F32, .cifg = true,
                                           .seed = 1500},
                                          0, true, false, true, 130));
  for (OperationCase& q : quantizedLstmCases())
    cases.push_back(std::move(q));
  return cases;
}

}  // namespace nnrt::test::conformance
