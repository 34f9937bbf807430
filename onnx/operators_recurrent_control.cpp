// ONNX recurrent and control-flow operators -> NNAPI: RNN, LSTM, GRU, If and Loop.
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
  NNRT_ASSIGN_OR_RETURN(const Value* lengths, b.input(4));
  if (lengths != nullptr) {
    NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(4));
    for (int32_t v : values)
      if (v != static_cast<int32_t>(seq)) return b.refused("sequence_lens shorter than the sequence");
  }
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

// LSTM (one layer, default activations) -> UNIDIRECTIONAL_SEQUENCE_LSTM per direction: ONNX's gate blocks
// (i, o, f, c in W [dirs, 4H, I], R [dirs, 4H, H], B [dirs, 8H] as Wb then Rb, P [dirs, 3H] as i, o, f)
// are split into NNAPI's per-gate weights at load time, the biases summed; initial_h and initial_c (zeros
// when absent) are the states in. As RNN's: the reverse direction runs on X REVERSEd along time, its Y
// REVERSEd back, and Y, Y_h and Y_c are the directions' outputs with the direction axis inserted.
Result<void> mapLstm(GraphBuilder& b) {
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
    bool defaults = a->strings_size() == 3 * static_cast<int>(dirs);
    for (int i = 0; defaults && i < a->strings_size(); ++i)
      defaults = a->strings(i) == (i % 3 == 0 ? "Sigmoid" : "Tanh");
    if (!defaults) return b.refused("activations other than Sigmoid, Tanh, Tanh are not supported");
  }
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
  NNRT_ASSIGN_OR_RETURN(const Value* lengths, b.input(4));
  if (lengths != nullptr) {
    NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(4));
    for (int32_t v : values)
      if (v != static_cast<int32_t>(seq)) return b.refused("sequence_lens shorter than the sequence");
  }
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
    const bool reverse = direction == "reverse" || d == 1;
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
// are three FULLY_CONNECTED over the whole (time-major) sequence, biased by Wb + Rb (the candidate h
// with linear_before_reset: Wb only), SLICEd per step; per step, with H the state:
//   z = LOGISTIC(xz + FC(H, Rz)), r = LOGISTIC(xr + FC(H, Rr)),
//   h = TANH(xh + FC(r * H, Rh)) (linear_before_reset 0) or TANH(xh + r * FC(H, Rh, Rbh)) (1),
//   H = (1 - z) * h + z * H.
// The reverse direction takes the steps from the last; Y holds each step's H in time order; layout 1
// runs on X TRANSPOSEd to time-major and TRANSPOSEs Y and Y_h back.
Result<void> mapGru(GraphBuilder& b) {
  constexpr uint32_t kMaxSteps = 256;  // per direction: each step is about 15 operations
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
    bool defaults = a->strings_size() == 2 * static_cast<int>(dirs);
    for (int i = 0; defaults && i < a->strings_size(); ++i)
      defaults = a->strings(i) == (i % 2 == 0 ? "Sigmoid" : "Tanh");
    if (!defaults) return b.refused("activations other than Sigmoid, Tanh are not supported");
  }
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
  NNRT_ASSIGN_OR_RETURN(const Value* lengths, b.input(4));
  if (lengths != nullptr) {
    NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(4));
    for (int32_t v : values)
      if (v != static_cast<int32_t>(seq)) return b.refused("sequence_lens shorter than the sequence");
  }
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
    const bool reverse = direction == "reverse" || d == 1;
    const size_t wBase = size_t{d} * 3 * H * inputSize, rBase = size_t{d} * 3 * H * H,
                 bBase = size_t{d} * 6 * H;
    uint32_t projected[3], recurrent[3];
    for (uint32_t g = 0; g < 3; ++g) {  // z, r, h
      std::vector<float> bias = values(biases, bBase + g * H, H);
      if (g < 2 || linearBeforeReset == 0) {
        for (uint32_t i = 0; i < H; ++i)
          bias[i] += biases[bBase + (3 + g) * H + i];
      }
      NNRT_ASSIGN_OR_RETURN(
          uint32_t weights,
          b.constFloats(values(w, wBase + g * H * inputSize, size_t{H} * inputSize), {H, inputSize}));
      NNRT_ASSIGN_OR_RETURN(uint32_t biasOperand, b.constFloats(bias));
      NNRT_ASSIGN_OR_RETURN(projected[g], fullyConnected(rows, weights, biasOperand, seq * batch));
      NNRT_ASSIGN_OR_RETURN(recurrent[g], b.constFloats(values(r, rBase + g * H * H, size_t{H} * H), {H, H}));
    }
    uint32_t recurrentBias = zeroBias;
    if (linearBeforeReset != 0) {
      NNRT_ASSIGN_OR_RETURN(recurrentBias, b.constFloats(values(biases, bBase + 5 * H, H)));
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t state, directionState(b, initialOperand, d, layout, batch, H));
    std::vector<uint32_t> steps(seq);
    for (uint32_t s = 0; s < seq; ++s) {
      const uint32_t t = reverse ? seq - 1 - s : s;
      NNRT_ASSIGN_OR_RETURN(uint32_t begin, b.constInts({static_cast<int32_t>(t * batch), 0}));
      NNRT_ASSIGN_OR_RETURN(uint32_t size, b.constInts({static_cast<int32_t>(batch), -1}));
      uint32_t xt[3];
      for (int g = 0; g < 3; ++g) {
        NNRT_ASSIGN_OR_RETURN(xt[g],
                              apply(b, ANEURALNETWORKS_SLICE, {projected[g], begin, size}, f32, stepDims));
      }
      uint32_t gates[2];
      for (int g = 0; g < 2; ++g) {
        NNRT_ASSIGN_OR_RETURN(uint32_t fromState, fullyConnected(state, recurrent[g], zeroBias, batch));
        NNRT_ASSIGN_OR_RETURN(uint32_t sum,
                              arithmetic(b, ANEURALNETWORKS_ADD, xt[g], fromState, f32, stepDims));
        NNRT_ASSIGN_OR_RETURN(gates[g], apply(b, ANEURALNETWORKS_LOGISTIC, {sum}, f32, stepDims));
      }
      uint32_t candidateIn;
      if (linearBeforeReset == 0) {
        NNRT_ASSIGN_OR_RETURN(uint32_t reset,
                              arithmetic(b, ANEURALNETWORKS_MUL, gates[1], state, f32, stepDims));
        NNRT_ASSIGN_OR_RETURN(candidateIn, fullyConnected(reset, recurrent[2], zeroBias, batch));
      } else {
        NNRT_ASSIGN_OR_RETURN(uint32_t fromState, fullyConnected(state, recurrent[2], recurrentBias, batch));
        NNRT_ASSIGN_OR_RETURN(candidateIn,
                              arithmetic(b, ANEURALNETWORKS_MUL, gates[1], fromState, f32, stepDims));
      }
      NNRT_ASSIGN_OR_RETURN(uint32_t sum,
                            arithmetic(b, ANEURALNETWORKS_ADD, xt[2], candidateIn, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t candidate, apply(b, ANEURALNETWORKS_TANH, {sum}, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t keep, arithmetic(b, ANEURALNETWORKS_SUB, one, gates[0], f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t fresh,
                            arithmetic(b, ANEURALNETWORKS_MUL, keep, candidate, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(uint32_t kept,
                            arithmetic(b, ANEURALNETWORKS_MUL, gates[0], state, f32, stepDims));
      NNRT_ASSIGN_OR_RETURN(state, arithmetic(b, ANEURALNETWORKS_ADD, fresh, kept, f32, stepDims));
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

// If: NNAPI IF with then_branch and else_branch built as referenced models. NNAPI passes the IF's inputs
// to both branches, so each takes every value of the enclosing graph either branch reads (constants are
// copied into the branches instead); both branches must give outputs of the same types and shapes.
Result<void> mapIf(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* cond, b.requiredInput(0));
  if (cond->type != ANEURALNETWORKS_TENSOR_BOOL8 || elementCount(cond->dims) != 1)
    return b.refused("cond must be one bool");
  const onnx::AttributeProto* thenBranch = b.attribute("then_branch");
  const onnx::AttributeProto* elseBranch = b.attribute("else_branch");
  if (thenBranch == nullptr || !thenBranch->has_g() || elseBranch == nullptr || !elseBranch->has_g())
    return b.refused("then_branch and else_branch must be graphs");
  std::vector<std::string> captured;
  outerNames(thenBranch->g(), captured);
  outerNames(elseBranch->g(), captured);
  NNRT_ASSIGN_OR_RETURN(Subgraph thenModel, buildSubgraph(b, thenBranch->g(), {}, captured));
  NNRT_ASSIGN_OR_RETURN(Subgraph elseModel, buildSubgraph(b, elseBranch->g(), {}, captured));
  const size_t n = thenModel.outputs.size();
  if (elseModel.outputs.size() != n || static_cast<int>(n) != b.node()->output_size())
    return b.refused("the branches and the node have different numbers of outputs");
  for (size_t i = 0; i < n; ++i) {
    const Value& t = thenModel.outputs[i];
    const Value& e = elseModel.outputs[i];
    if (t.type != e.type || t.dims != e.dims || t.scalar != e.scalar)
      return b.refused("output " + std::to_string(i) + " differs in type or shape between the branches");
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t condOperand, b.operand(*cond));
  NNRT_ASSIGN_OR_RETURN(uint32_t thenOperand, b.addModelOperand(thenModel.model.get()));
  NNRT_ASSIGN_OR_RETURN(uint32_t elseOperand, b.addModelOperand(elseModel.model.get()));
  std::vector<uint32_t> inputs{condOperand, thenOperand, elseOperand};
  for (const auto& name : captured) {
    const Value* value = b.find(name);
    if (value != nullptr && !value->constant.has_value()) {
      NNRT_ASSIGN_OR_RETURN(uint32_t operand, b.operand(*value));
      inputs.push_back(operand);
    }
  }
  std::vector<uint32_t> outputs;
  for (const Value& t : thenModel.outputs) {
    NNRT_ASSIGN_OR_RETURN(uint32_t out, b.addTensor(t.type, t.dims));
    outputs.push_back(out);
  }
  NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_IF, inputs, outputs));
  for (size_t i = 0; i < n; ++i)
    defineOperand(b, static_cast<int>(i), outputs[i], thenModel.outputs[i].type, thenModel.outputs[i].dims,
                  thenModel.outputs[i].scalar);
  return {};
}

// Loop whose iterations are known at load time (a constant trip count M, a constant cond, and a body whose
// cond_out folds to a constant in each iteration) is unrolled: the body's nodes are mapped once per
// iteration, with iter_num and cond_in constants, the loop-carried values of the iteration before, and
// the body's own names given a per-iteration prefix. This is exact (the same operations, in order) and
// also covers what NNAPI's WHILE cannot: scan outputs, which grow by one slice per iteration (here the
// slices stacked by CONCATENATION, or at load time when constant), and bodies that use iter_num where
// NNAPI needs a constant (a Slice's bounds). A condition known only at run time is refused.
Result<void> mapLoop(GraphBuilder& b) {
  constexpr int64_t kMaxIterations = 256;
  const onnx::NodeProto* node = b.node();
  const onnx::AttributeProto* bodyAttribute = b.attribute("body");
  if (bodyAttribute == nullptr || !bodyAttribute->has_g()) return b.refused("body must be a graph");
  const onnx::GraphProto& body = bodyAttribute->g();
  const int carried = node->input_size() - 2;
  if (carried < 0 || body.input_size() != carried + 2 || body.output_size() < carried + 1)
    return b.refused("the body's inputs and outputs do not match the node's");
  const int scans = body.output_size() - 1 - carried;
  if (node->output_size() > carried + scans) return b.refused("more outputs than the body gives");
  for (const auto& inner : body.node()) {
    for (const auto& attribute : inner.attribute()) {
      if (attribute.has_g() || attribute.graphs_size() > 0)
        return b.refused("a body holding subgraphs is not supported");
    }
  }
  int64_t trips = kMaxIterations + 1;  // no trip count: until cond_out is false
  NNRT_ASSIGN_OR_RETURN(const Value* tripInput, b.input(0));
  if (tripInput != nullptr) {
    NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(0));
    if (values.size() != 1) return b.refused("M must be one value");
    trips = values[0];
  }
  bool condition = true;
  NNRT_ASSIGN_OR_RETURN(const Value* condInput, b.input(1));
  auto constantBool = [&](const Value& v, const std::string& name, bool& out) -> Result<void> {
    if (v.type != ANEURALNETWORKS_TENSOR_BOOL8 || elementCount(v.dims) != 1)
      return b.refused(name + " must be one bool");
    if (!v.constant.has_value()) return b.refused(name + " must be a constant");
    out = v.constant->bytes[0] != 0;
    return {};
  };
  if (condInput != nullptr)
    NNRT_RETURN_IF_ERROR(constantBool(*condInput, "input 1 ('" + node->input(1) + "')", condition));
  std::vector<Value> state;
  for (int k = 0; k < carried; ++k) {
    NNRT_ASSIGN_OR_RETURN(const Value* v, b.requiredInput(2 + k));
    state.push_back(*v);
  }
  // The names the body defines (they get the per-iteration prefix; others are the enclosing graph's).
  std::set<std::string> own;
  for (const auto& info : body.input())
    own.insert(info.name());
  for (const auto& tensor : body.initializer())
    own.insert(tensor.name());
  for (const auto& inner : body.node())
    own.insert(inner.output().begin(), inner.output().end());
  // The body's names in iteration i: "<the Loop's first output or name>/iteration<i>/<name>".
  std::string loopName = node->name().empty() ? "Loop" : node->name();
  for (const auto& output : node->output()) {
    if (!output.empty()) {
      loopName = output;
      break;
    }
  }
  std::vector<std::vector<Value>> scanned(scans);
  int64_t iteration = 0;
  for (; iteration < trips && condition; ++iteration) {
    if (iteration == kMaxIterations)
      return b.refused("more than " + std::to_string(kMaxIterations) + " iterations are not unrolled");
    const std::string prefix = loopName + "/iteration" + std::to_string(iteration) + "/";
    auto renamed = [&](const std::string& name) { return own.count(name) != 0 ? prefix + name : name; };
    onnx::GraphProto copy;
    *copy.mutable_node() = body.node();
    for (auto& inner : *copy.mutable_node()) {
      for (auto& name : *inner.mutable_input())
        if (!name.empty()) name = renamed(name);
      for (auto& name : *inner.mutable_output())
        if (!name.empty()) name = renamed(name);
    }
    NNRT_ASSIGN_OR_RETURN(HostTensor count,
                          filledTensor(b, ANEURALNETWORKS_TENSOR_INT32, {}, {double(iteration)}));
    Value counter;
    counter.type = ANEURALNETWORKS_TENSOR_INT32;
    counter.dims = {1};
    counter.scalar = true;
    counter.constant = std::move(count);
    b.defineName(renamed(body.input(0).name()), counter);
    NNRT_ASSIGN_OR_RETURN(HostTensor flag,
                          filledTensor(b, ANEURALNETWORKS_TENSOR_BOOL8, {}, {condition ? 1.0 : 0.0}));
    Value condValue;
    condValue.type = ANEURALNETWORKS_TENSOR_BOOL8;
    condValue.dims = {1};
    condValue.scalar = true;
    condValue.constant = std::move(flag);
    b.defineName(renamed(body.input(1).name()), condValue);
    for (int k = 0; k < carried; ++k)
      b.defineName(renamed(body.input(2 + k).name()), state[k]);
    for (const auto& tensor : body.initializer()) {
      NNRT_ASSIGN_OR_RETURN(HostTensor t, decodeTensor(tensor, b.folder()));
      Value v;
      v.type = t.type;
      v.scalar = t.dimensions.empty();
      v.dims = v.scalar ? Dims{1} : t.dimensions;
      v.constant = std::move(t);
      b.defineName(renamed(tensor.name()), std::move(v));
    }
    NNRT_RETURN_IF_ERROR(mapNodes(b, copy.node()));
    b.setNode(node);
    auto result = [&](int i) -> Result<Value> {
      const Value* v = b.find(renamed(body.output(i).name()));
      if (v == nullptr) return b.refused("body output '" + body.output(i).name() + "' is not computed");
      return *v;
    };
    if (condInput != nullptr) {  // without one, ONNX ignores cond_out (a for loop over M)
      NNRT_ASSIGN_OR_RETURN(Value condOut, result(0));
      if (!condOut.constant.has_value())
        return b.refused(
            "the body's condition is computed at run time: only loops whose iterations are known at "
            "load time are mapped (unrolled)");
      NNRT_RETURN_IF_ERROR(constantBool(condOut, "cond_out", condition));
    }
    for (int k = 0; k < carried; ++k) {
      NNRT_ASSIGN_OR_RETURN(state[k], result(1 + k));
    }
    for (int k = 0; k < scans; ++k) {
      NNRT_ASSIGN_OR_RETURN(Value v, result(1 + carried + k));
      scanned[k].push_back(std::move(v));
    }
  }
  for (int k = 0; k < carried; ++k)
    b.define(k, state[k]);
  for (int k = 0; k < scans; ++k) {
    if (carried + k >= node->output_size() || node->output(carried + k).empty()) continue;
    if (iteration == 0) return b.refused("no iterations: the scan outputs would be empty");
    const Value& first = scanned[k][0];
    Dims dims{static_cast<uint32_t>(iteration)};
    if (!first.scalar) dims.insert(dims.end(), first.dims.begin(), first.dims.end());
    bool constant = true;
    for (const Value& v : scanned[k]) {
      if (v.type != first.type || v.dims != first.dims || !allKnown(v.dims))
        return b.refused("scan output " + std::to_string(k) + " changes type or shape between iterations");
      constant = constant && v.constant.has_value();
    }
    if (constant) {  // stacked at load time
      HostTensor t;
      t.type = first.type;
      t.dimensions = dims;
      for (const Value& v : scanned[k])
        t.bytes.insert(t.bytes.end(), v.constant->bytes.begin(), v.constant->bytes.end());
      defineConstant(b, carried + k, std::move(t));
      continue;
    }
    Dims slice = dims;
    slice[0] = 1;
    std::vector<uint32_t> parts;
    for (const Value& v : scanned[k]) {
      NNRT_ASSIGN_OR_RETURN(uint32_t operand, b.operand(v));
      NNRT_ASSIGN_OR_RETURN(uint32_t reshaped, b.reshape(operand, v.type, slice));
      parts.push_back(reshaped);
    }
    uint32_t out = parts[0];
    if (parts.size() > 1) {
      NNRT_ASSIGN_OR_RETURN(uint32_t axis, b.scalarInt(0));
      parts.push_back(axis);
      NNRT_ASSIGN_OR_RETURN(out, apply(b, ANEURALNETWORKS_CONCATENATION, parts, first.type, dims));
    }
    defineOperand(b, carried + k, out, first.type, dims);
  }
  return {};
}

}  // namespace nnrt::onnxfront
