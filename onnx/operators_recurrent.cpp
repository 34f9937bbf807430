// ONNX recurrent operators -> NNAPI: RNN, LSTM and GRU.
#include "onnx/operators_common.hpp"

namespace nnrt::onnxfront {

namespace {

// The initial state of direction `d` as [batch, hidden]: a SLICE of `initial` ([dirs, batch, hidden], layout
// 0, or [batch, dirs, hidden], layout 1), or zeros when there is none (kNoOperand).
Result<uint32_t> directionState(GraphBuilder& b, uint32_t initial, uint32_t d, int64_t layout, uint32_t batch,
                                uint32_t hidden) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  if (initial == kNoOperand) return constFilled(b, f32, {batch, hidden}, 0.0);
  NNRT_ASSIGN_OR_RETURN(uint32_t begin,
                        b.constInts(layout == 0 ? std::vector<int32_t>{static_cast<int32_t>(d), 0, 0}
                                                : std::vector<int32_t>{0, static_cast<int32_t>(d), 0}));
  NNRT_ASSIGN_OR_RETURN(uint32_t size, b.constInts(layout == 0 ? std::vector<int32_t>{1, -1, -1}
                                                               : std::vector<int32_t>{-1, 1, -1}));
  NNRT_ASSIGN_OR_RETURN(uint32_t sliced,
                        apply(b, ANEURALNETWORKS_SLICE, {initial, begin, size}, f32,
                              layout == 0 ? Dims{1, batch, hidden} : Dims{batch, 1, hidden}));
  return b.reshape(sliced, f32, {batch, hidden});
}

// Output `i` of the current node (when it is wanted): the directions' `parts`, each of `dims` with the
// direction axis `axis` of size 1, CONCATENATEd along that axis.
Result<void> defineDirections(GraphBuilder& b, int i, const std::vector<uint32_t>& parts, const Dims& dims,
                              int32_t axis) {
  if (b.node()->output_size() <= i || b.node()->output(i).empty()) return {};
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  Dims out = dims;
  out[axis] = static_cast<uint32_t>(parts.size());
  uint32_t joined = parts[0];
  if (parts.size() > 1) {
    NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(axis));
    std::vector<uint32_t> inputs = parts;
    inputs.push_back(axisOperand);
    NNRT_ASSIGN_OR_RETURN(joined, apply(b, ANEURALNETWORKS_CONCATENATION, inputs, f32, out));
  }
  defineOperand(b, i, joined, f32, out);
  return {};
}

// The number of directions of `direction`, or a refusal.
Result<uint32_t> directionCount(GraphBuilder& b, const std::string& direction) {
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    return b.refused("direction '" + direction + "' is not supported");
  return direction == "bidirectional" ? 2u : 1u;
}

// sequence_lens (input 4), when given, must be the whole sequence for every batch entry: the NNAPI
// recurrent operations have no per-entry lengths.
Result<void> refuseShortSequences(GraphBuilder& b, uint32_t seq) {
  NNRT_ASSIGN_OR_RETURN(const Value* lengths, b.input(4));
  if (lengths == nullptr) return {};
  NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(4));
  for (int32_t v : values)
    if (v != static_cast<int32_t>(seq)) return b.refused("sequence_lens shorter than the sequence");
  return {};
}

}  // namespace

// RNN (one layer) -> UNIDIRECTIONAL_SEQUENCE_RNN per direction: W [dirs, hidden, input] and
// R [dirs, hidden, hidden] are NNAPI's weights and recurrent weights, the bias Wb + Rb (constants, summed
// at load time), the initial state initial_h (zeros when absent), layout 0/1 NNAPI's time-major flag.
// The reverse direction runs on X REVERSEd along time, its Y REVERSEd back (its Y_h is the state after
// the first step of the sequence, as ONNX's). Y and Y_h are the directions' outputs with the direction
// axis inserted (concatenated along it when bidirectional).
Result<void> mapRnn(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (x->dims.size() != 3 || !allKnown(x->dims)) return b.refused("X must be 3-D with a known shape");
  NNRT_ASSIGN_OR_RETURN(std::string direction, b.attrString("direction", "forward"));
  NNRT_ASSIGN_OR_RETURN(const uint32_t dirs, directionCount(b, direction));
  for (const char* unsupported : {"activation_alpha", "activation_beta", "clip"}) {
    if (b.attribute(unsupported) != nullptr)
      return b.refused(std::string("attribute '") + unsupported + "' is not supported");
  }
  std::vector<int32_t> activations(dirs, 4);  // NNAPI's recurrent activation codes: Tanh
  if (const auto* a = b.attribute("activations")) {
    if (a->strings_size() != static_cast<int>(dirs))
      return b.refused("activations must name one function per direction");
    for (uint32_t d = 0; d < dirs; ++d) {
      const std::string& f = a->strings(static_cast<int>(d));
      activations[d] = f == "Tanh" ? 4 : f == "Relu" ? 1 : f == "Sigmoid" ? 6 : -1;
      if (activations[d] < 0) return b.refused("activation '" + f + "' is not supported");
    }
  }
  NNRT_ASSIGN_OR_RETURN(int64_t layout, b.attrInt("layout", 0));
  NNRT_ASSIGN_OR_RETURN(int64_t hiddenSize, b.attrInt("hidden_size", 0));
  const uint32_t seq = layout == 0 ? x->dims[0] : x->dims[1], batch = layout == 0 ? x->dims[1] : x->dims[0];
  const uint32_t inputSize = x->dims[2], hidden = static_cast<uint32_t>(hiddenSize);
  NNRT_ASSIGN_OR_RETURN(std::vector<float> w, b.constantFloats(1));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> r, b.constantFloats(2));
  if (hidden < 1 || w.size() != static_cast<size_t>(dirs) * hidden * inputSize ||
      r.size() != static_cast<size_t>(dirs) * hidden * hidden)
    return b.refused("W and R do not match hidden_size, the directions and the input");
  std::vector<float> bias(static_cast<size_t>(dirs) * hidden, 0.0f);
  NNRT_ASSIGN_OR_RETURN(const Value* bInput, b.input(3));
  if (bInput != nullptr) {
    NNRT_ASSIGN_OR_RETURN(std::vector<float> values, b.constantFloats(3));
    if (values.size() != 2 * static_cast<size_t>(dirs) * hidden)
      return b.refused("B must have 2 * hidden_size values per direction");
    for (uint32_t d = 0; d < dirs; ++d) {
      for (uint32_t i = 0; i < hidden; ++i)
        bias[d * hidden + i] = values[2 * d * hidden + i] + values[(2 * d + 1) * hidden + i];
    }
  }
  NNRT_RETURN_IF_ERROR(refuseShortSequences(b, seq));
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(const Value* initial, b.input(5));
  uint32_t initialOperand = kNoOperand;
  if (initial != nullptr) {
    if (elementCount(initial->dims) != static_cast<size_t>(dirs) * batch * hidden)
      return b.refused("initial_h has the wrong size");
    NNRT_ASSIGN_OR_RETURN(uint32_t h, b.operand(*initial));
    // [dirs, batch, hidden] (layout 0) or [batch, dirs, hidden] (layout 1).
    NNRT_ASSIGN_OR_RETURN(
        initialOperand,
        b.reshape(h, f32, layout == 0 ? Dims{dirs, batch, hidden} : Dims{batch, dirs, hidden}));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t timeMajor, b.scalarInt(layout == 0 ? 1 : 0));
  NNRT_ASSIGN_OR_RETURN(uint32_t timeAxis, b.constInts({layout == 0 ? 0 : 1}));
  const Dims sequenceDims = layout == 0 ? Dims{seq, batch, hidden} : Dims{batch, seq, hidden};
  const Dims yDims = layout == 0 ? Dims{seq, 1, batch, hidden} : Dims{batch, seq, 1, hidden};
  const Dims yhDims = layout == 0 ? Dims{1, batch, hidden} : Dims{batch, 1, hidden};
  std::vector<uint32_t> ys, yhs;
  for (uint32_t d = 0; d < dirs; ++d) {
    const bool reverse = direction == "reverse" || d == 1;
    NNRT_ASSIGN_OR_RETURN(uint32_t state, directionState(b, initialOperand, d, layout, batch, hidden));
    uint32_t sequence = in;
    if (reverse) {
      NNRT_ASSIGN_OR_RETURN(sequence, apply(b, ANEURALNETWORKS_REVERSE, {in, timeAxis}, f32, x->dims));
    }
    const size_t wSize = static_cast<size_t>(hidden) * inputSize,
                 rSize = static_cast<size_t>(hidden) * hidden;
    NNRT_ASSIGN_OR_RETURN(uint32_t weights, b.constFloats(std::vector<float>(w.begin() + d * wSize,
                                                                             w.begin() + (d + 1) * wSize),
                                                          {hidden, inputSize}));
    NNRT_ASSIGN_OR_RETURN(uint32_t recurrent, b.constFloats(std::vector<float>(r.begin() + d * rSize,
                                                                               r.begin() + (d + 1) * rSize),
                                                            {hidden, hidden}));
    NNRT_ASSIGN_OR_RETURN(
        uint32_t biasOperand,
        b.constFloats(std::vector<float>(bias.begin() + d * hidden, bias.begin() + (d + 1) * hidden)));
    NNRT_ASSIGN_OR_RETURN(uint32_t activationOperand, b.scalarInt(activations[d]));
    NNRT_ASSIGN_OR_RETURN(uint32_t y, b.addTensor(f32, sequenceDims));
    NNRT_ASSIGN_OR_RETURN(uint32_t yh, b.addTensor(f32, {batch, hidden}));
    NNRT_RETURN_IF_ERROR(b.addOperation(
        ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN,
        {sequence, weights, recurrent, biasOperand, state, activationOperand, timeMajor}, {y, yh}));
    if (reverse) {
      NNRT_ASSIGN_OR_RETURN(y, apply(b, ANEURALNETWORKS_REVERSE, {y, timeAxis}, f32, sequenceDims));
    }
    NNRT_ASSIGN_OR_RETURN(y, b.reshape(y, f32, yDims));
    NNRT_ASSIGN_OR_RETURN(yh, b.reshape(yh, f32, yhDims));
    ys.push_back(y);
    yhs.push_back(yh);
  }
  // The direction axis: 1 of Y and 0 of Y_h (layout 0), 2 and 1 (layout 1).
  NNRT_RETURN_IF_ERROR(defineDirections(b, 0, ys, yDims, layout == 0 ? 1 : 2));
  return defineDirections(b, 1, yhs, yhDims, layout == 0 ? 0 : 1);
}

namespace {

// What LSTM and GRU check alike: X 3-D float32 of a known shape, the direction, no activation_alpha,
// activation_beta or clip, and `activations`, when given, the defaults `gates` for every direction.
struct RecurrentInput {
  const Value* x;
  uint32_t dirs;
  bool reverse;  // direction "reverse" (its one direction runs from the last step)
};
Result<RecurrentInput> recurrentInput(GraphBuilder& b, const std::vector<std::string>& gates) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (x->dims.size() != 3 || !allKnown(x->dims)) return b.refused("X must be 3-D with a known shape");
  NNRT_ASSIGN_OR_RETURN(std::string direction, b.attrString("direction", "forward"));
  NNRT_ASSIGN_OR_RETURN(const uint32_t dirs, directionCount(b, direction));
  for (const char* unsupported : {"activation_alpha", "activation_beta", "clip"}) {
    if (b.attribute(unsupported) != nullptr)
      return b.refused(std::string("attribute '") + unsupported + "' is not supported");
  }
  if (const auto* a = b.attribute("activations")) {
    bool defaults = a->strings_size() == static_cast<int>(gates.size() * dirs);
    for (int i = 0; defaults && i < a->strings_size(); ++i) defaults = a->strings(i) == gates[i % gates.size()];
    if (!defaults) {
      std::string names;
      for (const std::string& g : gates) names += (names.empty() ? "" : ", ") + g;
      return b.refused("activations other than " + names + " are not supported");
    }
  }
  return RecurrentInput{x, dirs, direction == "reverse"};
}

}  // namespace

// LSTM (one layer, default activations) -> UNIDIRECTIONAL_SEQUENCE_LSTM per direction: ONNX's gate blocks
// (i, o, f, c in W [dirs, 4H, I], R [dirs, 4H, H], B [dirs, 8H] as Wb then Rb, P [dirs, 3H] as i, o, f)
// are split into NNAPI's per-gate weights at load time, the biases summed; initial_h and initial_c (zeros
// when absent) are the states in. As RNN's: the reverse direction runs on X REVERSEd along time, its Y
// REVERSEd back, and Y, Y_h and Y_c are the directions' outputs with the direction axis inserted.
Result<void> mapLstm(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const RecurrentInput input, recurrentInput(b, {"Sigmoid", "Tanh", "Tanh"}));
  const Value* x = input.x;
  const uint32_t dirs = input.dirs;
  NNRT_ASSIGN_OR_RETURN(int64_t coupled, b.attrInt("input_forget", 0));
  if (coupled != 0) return b.refused("input_forget 1 is not supported");
  NNRT_ASSIGN_OR_RETURN(int64_t layout, b.attrInt("layout", 0));
  NNRT_ASSIGN_OR_RETURN(int64_t hiddenSize, b.attrInt("hidden_size", 0));
  const uint32_t seq = layout == 0 ? x->dims[0] : x->dims[1], batch = layout == 0 ? x->dims[1] : x->dims[0];
  const uint32_t inputSize = x->dims[2], H = static_cast<uint32_t>(hiddenSize);
  NNRT_ASSIGN_OR_RETURN(std::vector<float> w, b.constantFloats(1));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> r, b.constantFloats(2));
  if (H < 1 || w.size() != size_t{dirs} * 4 * H * inputSize || r.size() != size_t{dirs} * 4 * H * H)
    return b.refused("W and R do not match hidden_size, the directions and the input");
  std::vector<float> bias(size_t{dirs} * 4 * H, 0.0f);
  NNRT_ASSIGN_OR_RETURN(const Value* bInput, b.input(3));
  if (bInput != nullptr) {
    NNRT_ASSIGN_OR_RETURN(std::vector<float> values, b.constantFloats(3));
    if (values.size() != size_t{dirs} * 8 * H)
      return b.refused("B must have 8 * hidden_size values per direction");
    for (uint32_t d = 0; d < dirs; ++d) {
      for (size_t i = 0; i < size_t{4} * H; ++i)
        bias[d * 4 * H + i] = values[d * 8 * H + i] + values[d * 8 * H + 4 * H + i];
    }
  }
  NNRT_RETURN_IF_ERROR(refuseShortSequences(b, seq));
  std::vector<float> peepholes;
  NNRT_ASSIGN_OR_RETURN(const Value* pInput, b.input(7));
  if (pInput != nullptr) {
    NNRT_ASSIGN_OR_RETURN(peepholes, b.constantFloats(7));
    if (peepholes.size() != size_t{dirs} * 3 * H)
      return b.refused("P must have 3 * hidden_size values per direction");
  }
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  uint32_t initialStates[2] = {kNoOperand, kNoOperand};
  for (int i : {5, 6}) {  // initial_h, initial_c: [dirs, batch, H] (layout 0) or [batch, dirs, H] (layout 1)
    NNRT_ASSIGN_OR_RETURN(const Value* initial, b.input(i));
    if (initial == nullptr) continue;
    if (elementCount(initial->dims) != size_t{dirs} * batch * H)
      return b.refused("initial states have the wrong size");
    NNRT_ASSIGN_OR_RETURN(uint32_t s, b.operand(*initial));
    NNRT_ASSIGN_OR_RETURN(initialStates[i - 5],
                          b.reshape(s, f32, layout == 0 ? Dims{dirs, batch, H} : Dims{batch, dirs, H}));
  }
  // Gate `gate` (ONNX's order i, o, f, c) of direction `d`, blocks of `size` values.
  auto block = [&](const std::vector<float>& all, uint32_t d, int gates, int gate, size_t size) {
    auto from = all.begin() + (size_t{d} * gates + gate) * size;
    return std::vector<float>(from, from + size);
  };
  constexpr int kOnnxGate[4] = {0, 2, 3, 1};  // NNAPI's i, f, c, o in ONNX's order
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t timeAxis, b.constInts({layout == 0 ? 0 : 1}));
  const Dims sequenceDims = layout == 0 ? Dims{seq, batch, H} : Dims{batch, seq, H};
  const Dims yDims = layout == 0 ? Dims{seq, 1, batch, H} : Dims{batch, seq, 1, H};
  const Dims stateDims = layout == 0 ? Dims{1, batch, H} : Dims{batch, 1, H};
  std::vector<uint32_t> results[3];  // Y, Y_h, Y_c per direction
  for (uint32_t d = 0; d < dirs; ++d) {
    const bool reverse = input.reverse || d == 1;
    std::vector<uint32_t> inputs{in};
    if (reverse) {
      NNRT_ASSIGN_OR_RETURN(inputs[0], apply(b, ANEURALNETWORKS_REVERSE, {in, timeAxis}, f32, x->dims));
    }
    for (int g : kOnnxGate) {
      NNRT_ASSIGN_OR_RETURN(uint32_t o,
                            b.constFloats(block(w, d, 4, g, size_t{H} * inputSize), {H, inputSize}));
      inputs.push_back(o);
    }
    for (int g : kOnnxGate) {
      NNRT_ASSIGN_OR_RETURN(uint32_t o, b.constFloats(block(r, d, 4, g, size_t{H} * H), {H, H}));
      inputs.push_back(o);
    }
    for (int g : {0, 2, 1}) {  // cell to input, forget, output: ONNX's P is i, o, f
      uint32_t o;
      if (peepholes.empty()) {
        NNRT_ASSIGN_OR_RETURN(o, b.addConstant(f32, {H}, {}));  // omitted
      } else {
        NNRT_ASSIGN_OR_RETURN(o, b.constFloats(block(peepholes, d, 3, g, H), {H}));
      }
      inputs.push_back(o);
    }
    for (int g : kOnnxGate) {
      NNRT_ASSIGN_OR_RETURN(uint32_t o, b.constFloats(block(bias, d, 4, g, H), {H}));
      inputs.push_back(o);
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t projection, b.addConstant(f32, {H, H}, {}));   // omitted
    NNRT_ASSIGN_OR_RETURN(uint32_t projectionBias, b.addConstant(f32, {H}, {}));  // omitted
    inputs.push_back(projection);
    inputs.push_back(projectionBias);
    for (uint32_t initial : initialStates) {
      NNRT_ASSIGN_OR_RETURN(uint32_t state, directionState(b, initial, d, layout, batch, H));
      inputs.push_back(state);
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t activation, b.scalarInt(4));  // tanh
    NNRT_ASSIGN_OR_RETURN(uint32_t cellClip, b.scalarFloat(0.0f));
    NNRT_ASSIGN_OR_RETURN(uint32_t projClip, b.scalarFloat(0.0f));
    NNRT_ASSIGN_OR_RETURN(uint32_t timeMajor, b.scalarBool(layout == 0));
    for (uint32_t o : {activation, cellClip, projClip, timeMajor})
      inputs.push_back(o);
    for (int i = 0; i < 4; ++i) {                                      // no layer normalization weights
      NNRT_ASSIGN_OR_RETURN(uint32_t o, b.addConstant(f32, {H}, {}));  // omitted
      inputs.push_back(o);
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t y, b.addTensor(f32, sequenceDims));
    NNRT_ASSIGN_OR_RETURN(uint32_t yh, b.addTensor(f32, {batch, H}));
    NNRT_ASSIGN_OR_RETURN(uint32_t yc, b.addTensor(f32, {batch, H}));
    NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, inputs, {y, yh, yc}));
    if (reverse) {
      NNRT_ASSIGN_OR_RETURN(y, apply(b, ANEURALNETWORKS_REVERSE, {y, timeAxis}, f32, sequenceDims));
    }
    NNRT_ASSIGN_OR_RETURN(y, b.reshape(y, f32, yDims));
    NNRT_ASSIGN_OR_RETURN(yh, b.reshape(yh, f32, stateDims));
    NNRT_ASSIGN_OR_RETURN(yc, b.reshape(yc, f32, stateDims));
    results[0].push_back(y);
    results[1].push_back(yh);
    results[2].push_back(yc);
  }
  NNRT_RETURN_IF_ERROR(defineDirections(b, 0, results[0], yDims, layout == 0 ? 1 : 2));
  NNRT_RETURN_IF_ERROR(defineDirections(b, 1, results[1], stateDims, layout == 0 ? 0 : 1));
  return defineDirections(b, 2, results[2], stateDims, layout == 0 ? 0 : 1);
}

// GRU (one layer, activations Sigmoid and Tanh) has no NNAPI operation: its steps are unrolled into ONNX's
// equations, each step's operations in ONNX's order. Per direction, the input projections of every step
// are two FULLY_CONNECTED over the whole (time-major) sequence, z and r together and h, biased by Wb + Rb
// (the candidate h with linear_before_reset: Wb only), SLICEd per step; per step, with H the state:
//   [z r] = LOGISTIC([xz xr] + FC(H, [Rz; Rr])), SLICEd apart,
//   h = TANH(xh + FC(r * H, Rh)) (linear_before_reset 0) or TANH(xh + r * FC(H, Rh, Rbh)) (1),
//   H = (1 - z) * h + z * H.
// The reverse direction takes the steps from the last; Y holds each step's H in time order; layout 1
// runs on X TRANSPOSEd to time-major and TRANSPOSEs Y and Y_h back.
Result<void> mapGru(GraphBuilder& b) {
  constexpr uint32_t kMaxSteps = 256;  // per direction: each step is about 15 operations
  NNRT_ASSIGN_OR_RETURN(const RecurrentInput input, recurrentInput(b, {"Sigmoid", "Tanh"}));
  const Value* x = input.x;
  const uint32_t dirs = input.dirs;
  NNRT_ASSIGN_OR_RETURN(int64_t linearBeforeReset, b.attrInt("linear_before_reset", 0));
  NNRT_ASSIGN_OR_RETURN(int64_t layout, b.attrInt("layout", 0));
  NNRT_ASSIGN_OR_RETURN(int64_t hiddenSize, b.attrInt("hidden_size", 0));
  const uint32_t seq = layout == 0 ? x->dims[0] : x->dims[1], batch = layout == 0 ? x->dims[1] : x->dims[0];
  const uint32_t inputSize = x->dims[2], H = static_cast<uint32_t>(hiddenSize);
  if (seq > kMaxSteps)
    return b.refused("a sequence of " + std::to_string(seq) + " steps: at most " + std::to_string(kMaxSteps) +
                     " are unrolled");
  NNRT_ASSIGN_OR_RETURN(std::vector<float> w, b.constantFloats(1));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> r, b.constantFloats(2));
  if (H < 1 || w.size() != size_t{dirs} * 3 * H * inputSize || r.size() != size_t{dirs} * 3 * H * H)
    return b.refused("W and R do not match hidden_size, the directions and the input");
  std::vector<float> biases(size_t{dirs} * 6 * H, 0.0f);  // per direction: Wb z, r, h then Rb z, r, h
  NNRT_ASSIGN_OR_RETURN(const Value* bInput, b.input(3));
  if (bInput != nullptr) {
    NNRT_ASSIGN_OR_RETURN(biases, b.constantFloats(3));
    if (biases.size() != size_t{dirs} * 6 * H)
      return b.refused("B must have 6 * hidden_size values per direction");
  }
  NNRT_RETURN_IF_ERROR(refuseShortSequences(b, seq));
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(const Value* initial, b.input(5));
  uint32_t initialOperand = kNoOperand;
  if (initial != nullptr) {
    if (elementCount(initial->dims) != size_t{dirs} * batch * H)
      return b.refused("initial_h has the wrong size");
    NNRT_ASSIGN_OR_RETURN(uint32_t h, b.operand(*initial));
    NNRT_ASSIGN_OR_RETURN(initialOperand,
                          b.reshape(h, f32, layout == 0 ? Dims{dirs, batch, H} : Dims{batch, dirs, H}));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  if (layout != 0) {
    NNRT_ASSIGN_OR_RETURN(uint32_t perm, b.constInts({1, 0, 2}));
    NNRT_ASSIGN_OR_RETURN(in, apply(b, ANEURALNETWORKS_TRANSPOSE, {in, perm}, f32, {seq, batch, inputSize}));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t rows, b.reshape(in, f32, {seq * batch, inputSize}));
  NNRT_ASSIGN_OR_RETURN(uint32_t none, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_ASSIGN_OR_RETURN(uint32_t one, b.constFloats({1.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeroBias, b.constFloats(std::vector<float>(H, 0.0f)));
  auto values = [](const std::vector<float>& all, size_t from, size_t count) {
    return std::vector<float>(all.begin() + from, all.begin() + from + count);
  };
  auto fullyConnected = [&](uint32_t input, uint32_t weights, uint32_t bias, uint32_t count) {
    return apply(b, ANEURALNETWORKS_FULLY_CONNECTED, {input, weights, bias, none}, f32, {count, H});
  };
  const Dims stepDims{batch, H};
  std::vector<uint32_t> ys, yhs;
  for (uint32_t d = 0; d < dirs; ++d) {
    const bool reverse = input.reverse || d == 1;
    const size_t wBase = size_t{d} * 3 * H * inputSize, rBase = size_t{d} * 3 * H * H,
                 bBase = size_t{d} * 6 * H;
    // The update and reset gates go together: one input projection, one state product and one
    // LOGISTIC over [batch, 2H] per step, then SLICEd apart (a state product per gate costs a pass over
    // its weights and a fork and join each: a 64-step, 512-unit GRU about 3.5 -> 3.25 ms, alternating runs).
    std::vector<float> zrBias(2 * size_t{H});
    for (uint32_t g = 0; g < 2; ++g) {
      for (uint32_t i = 0; i < H; ++i)
        zrBias[g * H + i] = biases[bBase + g * H + i] + biases[bBase + (3 + g) * H + i];
    }
    std::vector<float> hBias = values(biases, bBase + 2 * H, H);
    if (linearBeforeReset == 0) {
      for (uint32_t i = 0; i < H; ++i)
        hBias[i] += biases[bBase + 5 * H + i];
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t zrWeights,
                          b.constFloats(values(w, wBase, 2 * size_t{H} * inputSize), {2 * H, inputSize}));
    NNRT_ASSIGN_OR_RETURN(uint32_t zrBiasOperand, b.constFloats(zrBias));
    NNRT_ASSIGN_OR_RETURN(uint32_t projectedZR,
                          apply(b, ANEURALNETWORKS_FULLY_CONNECTED, {rows, zrWeights, zrBiasOperand, none}, f32,
                                {seq * batch, 2 * H}));
    NNRT_ASSIGN_OR_RETURN(uint32_t hWeights,
                          b.constFloats(values(w, wBase + 2 * H * inputSize, size_t{H} * inputSize), {H, inputSize}));
    NNRT_ASSIGN_OR_RETURN(uint32_t hBiasOperand, b.constFloats(hBias));
    NNRT_ASSIGN_OR_RETURN(uint32_t projectedH, fullyConnected(rows, hWeights, hBiasOperand, seq * batch));
    // Without linear_before_reset the candidate's state product reads r * H: [Rz; Rr] and Rh apart.
    // With it the three need only H: one FULLY_CONNECTED over [Rz; Rr; Rh] per step (biased by
    // [0; 0; Rbh]), SLICEd into the gates' part and the candidate's (64 steps of 512 units against two
    // products per step: 3.10-3.45 -> 2.47-2.80 ms).
    uint32_t recurrentZR = kNoOperand, recurrentH = kNoOperand, zeroBiasZR = kNoOperand;
    uint32_t recurrentAll = kNoOperand, recurrentAllBias = kNoOperand;
    if (linearBeforeReset == 0) {
      NNRT_ASSIGN_OR_RETURN(recurrentZR, b.constFloats(values(r, rBase, 2 * size_t{H} * H), {2 * H, H}));
      NNRT_ASSIGN_OR_RETURN(recurrentH, b.constFloats(values(r, rBase + 2 * H * H, size_t{H} * H), {H, H}));
      NNRT_ASSIGN_OR_RETURN(zeroBiasZR, b.constFloats(std::vector<float>(2 * size_t{H}, 0.0f)));
    } else {
      NNRT_ASSIGN_OR_RETURN(recurrentAll, b.constFloats(values(r, rBase, 3 * size_t{H} * H), {3 * H, H}));
      std::vector<float> allBias(3 * size_t{H}, 0.0f);
      std::copy_n(biases.begin() + static_cast<std::ptrdiff_t>(bBase + 5 * H), H, allBias.begin() + 2 * H);
      NNRT_ASSIGN_OR_RETURN(recurrentAllBias, b.constFloats(allBias));
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t state, directionState(b, initialOperand, d, layout, batch, H));
    NNRT_ASSIGN_OR_RETURN(uint32_t gateSize, b.constInts({static_cast<int32_t>(batch), static_cast<int32_t>(H)}));
    NNRT_ASSIGN_OR_RETURN(uint32_t zBegin, b.constInts({0, 0}));
    NNRT_ASSIGN_OR_RETURN(uint32_t rBegin, b.constInts({0, static_cast<int32_t>(H)}));
    NNRT_ASSIGN_OR_RETURN(uint32_t hBegin, b.constInts({0, 2 * static_cast<int32_t>(H)}));
    NNRT_ASSIGN_OR_RETURN(uint32_t pairSize, b.constInts({static_cast<int32_t>(batch), 2 * static_cast<int32_t>(H)}));
    const Dims pairDims{batch, 2 * H};
    // A step's rows of a projection over the whole sequence: SLICE [t * batch, 0] of `width` columns
    // (-1: all of them).
    auto stepRows = [&](uint32_t projected, uint32_t t, int32_t width, const Dims& dims) -> Result<uint32_t> {
      NNRT_ASSIGN_OR_RETURN(uint32_t begin, b.constInts({static_cast<int32_t>(t * batch), 0}));
      NNRT_ASSIGN_OR_RETURN(uint32_t size, b.constInts({static_cast<int32_t>(batch), width}));
      return apply(b, ANEURALNETWORKS_SLICE, {projected, begin, size}, f32, dims);
    };
    // The new state from the update gate z and the candidate: (1 - z) * candidate + z * h.
    auto newState = [&](uint32_t z, uint32_t candidate, uint32_t h) -> Result<uint32_t> {
      NNRT_ASSIGN_OR_RETURN(uint32_t keep, arithmetic(b, ANEURALNETWORKS_SUB, one, z, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t fresh, arithmetic(b, ANEURALNETWORKS_MUL, keep, candidate, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t kept, arithmetic(b, ANEURALNETWORKS_MUL, z, h, f32, stepDims));
      return arithmetic(b, ANEURALNETWORKS_ADD, fresh, kept, f32, stepDims);
    };
    // A step without linear_before_reset. The gates are taken apart before their element-wise work, so
    // that the reset gate's (LOGISTIC MUL) and the rest's (the update gate, the candidate and the new
    // state: LOGISTIC TANH SUB MUL MUL ADD) are each consecutive, one fused step each; the slices of one
    // row are views. With one row (batch 1) the step's rows of the input projections are the biases of
    // the two state products, read as each product's panels start (the fast layer's one-row kernel
    // reads a bias that is not a constant at every run); with more, ADDs after them.
    const bool rowBiases = batch == 1;
    uint32_t flatZR = kNoOperand, flatH = kNoOperand;
    if (linearBeforeReset == 0 && rowBiases) {
      NNRT_ASSIGN_OR_RETURN(flatZR, b.reshape(projectedZR, f32, {seq * 2 * H}));
      NNRT_ASSIGN_OR_RETURN(flatH, b.reshape(projectedH, f32, {seq * H}));
    }
    auto resetFirstStep = [&](uint32_t t, uint32_t h) -> Result<uint32_t> {
      auto row = [&](uint32_t flat, uint32_t width) -> Result<uint32_t> {
        NNRT_ASSIGN_OR_RETURN(uint32_t at, b.constInts({static_cast<int32_t>(t * width)}));
        NNRT_ASSIGN_OR_RETURN(uint32_t count, b.constInts({static_cast<int32_t>(width)}));
        return apply(b, ANEURALNETWORKS_SLICE, {flat, at, count}, f32, {width});
      };
      uint32_t xzr = kNoOperand, xz = kNoOperand, xr = kNoOperand, xh = kNoOperand;
      if (rowBiases) {
        NNRT_ASSIGN_OR_RETURN(xzr, row(flatZR, 2 * H));
        NNRT_ASSIGN_OR_RETURN(xh, row(flatH, H));
      } else {
        NNRT_ASSIGN_OR_RETURN(uint32_t rColumns,
                              b.constInts({static_cast<int32_t>(t * batch), static_cast<int32_t>(H)}));
        NNRT_ASSIGN_OR_RETURN(xz, stepRows(projectedZR, t, static_cast<int32_t>(H), stepDims));
        NNRT_ASSIGN_OR_RETURN(xr, apply(b, ANEURALNETWORKS_SLICE, {projectedZR, rColumns, gateSize}, f32, stepDims));
        NNRT_ASSIGN_OR_RETURN(xh, stepRows(projectedH, t, -1, stepDims));
      }
      NNRT_ASSIGN_OR_RETURN(uint32_t fromStateZR,
                            apply(b, ANEURALNETWORKS_FULLY_CONNECTED, {h, recurrentZR, rowBiases ? xzr : zeroBiasZR, none},
                                  f32, pairDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t zIn, apply(b, ANEURALNETWORKS_SLICE, {fromStateZR, zBegin, gateSize}, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t rIn, apply(b, ANEURALNETWORKS_SLICE, {fromStateZR, rBegin, gateSize}, f32, stepDims));
      if (!rowBiases) {
        NNRT_ASSIGN_OR_RETURN(rIn, arithmetic(b, ANEURALNETWORKS_ADD, xr, rIn, f32, stepDims));
      }
      NNRT_ASSIGN_OR_RETURN(uint32_t r, apply(b, ANEURALNETWORKS_LOGISTIC, {rIn}, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t reset, arithmetic(b, ANEURALNETWORKS_MUL, r, h, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t candidateIn, fullyConnected(reset, recurrentH, rowBiases ? xh : zeroBias, batch));
      if (!rowBiases) {
        NNRT_ASSIGN_OR_RETURN(zIn, arithmetic(b, ANEURALNETWORKS_ADD, xz, zIn, f32, stepDims));
        NNRT_ASSIGN_OR_RETURN(candidateIn, arithmetic(b, ANEURALNETWORKS_ADD, xh, candidateIn, f32, stepDims));
      }
      NNRT_ASSIGN_OR_RETURN(uint32_t z, apply(b, ANEURALNETWORKS_LOGISTIC, {zIn}, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t candidate, apply(b, ANEURALNETWORKS_TANH, {candidateIn}, f32, stepDims));
      return newState(z, candidate, h);
    };
    // A step with linear_before_reset: one product over [Rz; Rr; Rh] (biased by [0; 0; Rbh]), SLICEd
    // into the gates' part (one ADD and LOGISTIC, SLICEd into z and r) and the candidate's.
    auto linearFirstStep = [&](uint32_t t, uint32_t h) -> Result<uint32_t> {
      NNRT_ASSIGN_OR_RETURN(uint32_t xzr, stepRows(projectedZR, t, -1, pairDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t xh, stepRows(projectedH, t, -1, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t fromState,
                            apply(b, ANEURALNETWORKS_FULLY_CONNECTED, {h, recurrentAll, recurrentAllBias, none},
                                  f32, {batch, 3 * H}));
      NNRT_ASSIGN_OR_RETURN(uint32_t fromStateZR, apply(b, ANEURALNETWORKS_SLICE, {fromState, zBegin, pairSize}, f32, pairDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t fromStateH, apply(b, ANEURALNETWORKS_SLICE, {fromState, hBegin, gateSize}, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t sumZR, arithmetic(b, ANEURALNETWORKS_ADD, xzr, fromStateZR, f32, pairDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t gatesZR, apply(b, ANEURALNETWORKS_LOGISTIC, {sumZR}, f32, pairDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t z, apply(b, ANEURALNETWORKS_SLICE, {gatesZR, zBegin, gateSize}, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t r, apply(b, ANEURALNETWORKS_SLICE, {gatesZR, rBegin, gateSize}, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t candidateIn, arithmetic(b, ANEURALNETWORKS_MUL, r, fromStateH, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t sum, arithmetic(b, ANEURALNETWORKS_ADD, xh, candidateIn, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t candidate, apply(b, ANEURALNETWORKS_TANH, {sum}, f32, stepDims));
      return newState(z, candidate, h);
    };
    std::vector<uint32_t> steps(seq);
    for (uint32_t s = 0; s < seq; ++s) {
      const uint32_t t = reverse ? seq - 1 - s : s;
      NNRT_ASSIGN_OR_RETURN(state, linearBeforeReset == 0 ? resetFirstStep(t, state) : linearFirstStep(t, state));
      NNRT_ASSIGN_OR_RETURN(steps[t], b.reshape(state, f32, {1, 1, batch, H}));
    }
    uint32_t y = steps[0];
    if (seq > 1) {
      NNRT_ASSIGN_OR_RETURN(uint32_t axis, b.scalarInt(0));
      steps.push_back(axis);
      NNRT_ASSIGN_OR_RETURN(y, apply(b, ANEURALNETWORKS_CONCATENATION, steps, f32, {seq, 1, batch, H}));
    }
    ys.push_back(y);
    NNRT_ASSIGN_OR_RETURN(uint32_t yh, b.reshape(state, f32, {1, batch, H}));
    yhs.push_back(yh);
  }
  // Time-major [seq, dirs, batch, H] and [dirs, batch, H]; layout 1 wants [batch, seq, dirs, H] and
  // [batch, dirs, H].
  auto output = [&](int i, std::vector<uint32_t> parts, Dims dims, int32_t axis,
                    std::vector<int32_t> perm) -> Result<void> {
    if (b.node()->output_size() <= i || b.node()->output(i).empty()) return {};
    dims[axis] = dirs;
    uint32_t out = parts[0];
    if (dirs > 1) {
      NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(axis));
      parts.push_back(axisOperand);
      NNRT_ASSIGN_OR_RETURN(out, apply(b, ANEURALNETWORKS_CONCATENATION, parts, f32, dims));
    }
    if (layout != 0) {
      Dims permuted;
      for (int32_t p : perm)
        permuted.push_back(dims[p]);
      NNRT_ASSIGN_OR_RETURN(uint32_t permOperand, b.constInts(perm));
      NNRT_ASSIGN_OR_RETURN(out, apply(b, ANEURALNETWORKS_TRANSPOSE, {out, permOperand}, f32, permuted));
      dims = permuted;
    }
    defineOperand(b, i, out, f32, dims);
    return {};
  };
  NNRT_RETURN_IF_ERROR(output(0, ys, {seq, 1, batch, H}, 1, {2, 0, 1, 3}));
  return output(1, yhs, {1, batch, H}, 0, {1, 0, 2});
}

}  // namespace nnrt::onnxfront
