// Signatures of the recurrent operations (LSTM and RNN families, SVDF) and control flow (IF, WHILE).
//
// The recurrent operations take long fixed lists of operands: the float ones have every tensor of
// input 0's type (TENSOR_FLOAT32, or TENSOR_FLOAT16 since feature level 3) and their float scalars
// follow it (FLOAT32 or FLOAT16); the quantized ones have a fixed type per position. Each operation
// is described by a list of input slots (name and rule) checked in one pass. An omitted optional
// input (NO_VALUE) keeps its declared type, and Android checks that type like any other, so the
// slots are checked whether or not the input was omitted.
//
// Output shapes: every recurrent operation infers its own (unknown dimensions stay 0); IF and WHILE
// leave them to the declared outputs (the runtime runs their subgraphs).
#include <cmath>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "ops_common.hpp"
#include "ops_families.hpp"

namespace nnrt::ops::detail {

namespace {

using OT = OperandType;
using T = OperationType;

// ---- Slots ----------------------------------------------------------------------------------------

enum class Rule {
  Data,        // the tensor type of input 0
  DataScalar,  // FLOAT32 with TENSOR_FLOAT32 data, FLOAT16 with TENSOR_FLOAT16 data
  Fixed,       // exactly `type`
};

struct Slot {
  std::string name;
  Rule rule = Rule::Data;
  OT type = OT::FLOAT32;
};
using Slots = std::vector<Slot>;

Slot data(std::string name) {
  return {std::move(name), Rule::Data, OT::FLOAT32};
}
Slot dataScalar(std::string name) {
  return {std::move(name), Rule::DataScalar, OT::FLOAT32};
}
Slot fixed(std::string name, OT type) {
  return {std::move(name), Rule::Fixed, type};
}

int32_t expectedType(const OpArgs& op, const Slot& slot) {
  switch (slot.rule) {
    case Rule::Data:
      return op.inputs[0].type;
    case Rule::DataScalar:
      return static_cast<int32_t>(isType(op.inputs[0].type, OT::TENSOR_FLOAT16) ? OT::FLOAT16 : OT::FLOAT32);
    case Rule::Fixed:
      break;
  }
  return static_cast<int32_t>(slot.type);
}

// Every input has the type its slot asks for (omitted optional inputs included: they keep their
// declared type). Input 0 has been checked by the caller.
Result<void> checkSlots(const OpArgs& op, const Slots& slots) {
  for (size_t i = 0; i < slots.size() && i < op.inputs.size(); ++i) {
    const Slot& slot = slots[i];
    const int32_t want = expectedType(op, slot);
    const int32_t type = op.inputs[i].type;
    if (type == want) continue;
    std::string rule = "must be " + typeName(want);
    if (slot.rule == Rule::Data) rule += " like input 0";
    if (slot.rule == Rule::DataScalar) rule += " for " + typeName(op.inputs[0].type) + " input 0";
    return inputError(op, i, slot.name, rule + ", not " + typeName(type));
  }
  return {};
}

// Every output has the type of input 0.
Result<void> checkOutputsLikeInput0(const OpArgs& op) {
  for (size_t i = 0; i < op.outputs.size(); ++i)
    NNRT_RETURN_IF_ERROR(checkOutputType(op, i));
  return {};
}

// Output i has type types[i].
Result<void> checkFixedOutputs(const OpArgs& op, std::initializer_list<OT> types) {
  size_t i = 0;
  for (OT want : types) {
    if (i >= op.outputs.size()) break;
    const int32_t type = op.outputs[i].type;
    if (!isType(type, want)) {
      return outputError(op, i,
                         "must be " + typeName(static_cast<int32_t>(want)) + ", not " + typeName(type));
    }
    ++i;
  }
  return {};
}

// Input 0 of the float recurrent operations: TENSOR_FLOAT32, or TENSOR_FLOAT16 from feature level 3.
Result<void> checkFloatData(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32}));
  if (isType(op.inputs[0].type, OT::TENSOR_FLOAT16)) op.needs(3);
  return {};
}

// The float recurrent operations: input 0 float data, the slots, every output of input 0's type.
Result<void> checkFloatRecurrent(const OpArgs& op, const Slots& slots) {
  NNRT_RETURN_IF_ERROR(checkFloatData(op));
  NNRT_RETURN_IF_ERROR(checkSlots(op, slots));
  return checkOutputsLikeInput0(op);
}

// ---- The LSTM operand lists ------------------------------------------------------------------------

// Inputs 1..17 of the LSTM cells: weights, peephole weights, gate biases, projection.
constexpr const char* kGateNames[] = {
    "input_to_input_weights",
    "input_to_forget_weights",
    "input_to_cell_weights",
    "input_to_output_weights",
    "recurrent_to_input_weights",
    "recurrent_to_forget_weights",
    "recurrent_to_cell_weights",
    "recurrent_to_output_weights",
    "cell_to_input_weights",
    "cell_to_forget_weights",
    "cell_to_output_weights",
    "input_gate_bias",
    "forget_gate_bias",
    "cell_bias",
    "output_gate_bias",
    "projection_weights",
    "projection_bias",
};
constexpr const char* kLayerNormNames[] = {"input_layer_norm_weights", "forget_layer_norm_weights",
                                           "cell_layer_norm_weights", "output_layer_norm_weights"};

void addGates(Slots& slots, const std::string& prefix) {
  for (const char* name : kGateNames)
    slots.push_back(data(prefix + name));
}
void addLayerNorms(Slots& slots, const std::string& prefix) {
  for (const char* name : kLayerNormNames)
    slots.push_back(data(prefix + name));
}

// LSTM (23 inputs, 27 with layer normalization) and UNIDIRECTIONAL_SEQUENCE_LSTM (28: a time_major
// flag before the layer normalization weights) share inputs 0..22.
Slots lstmSlots(bool sequence) {
  Slots s{data("input")};
  addGates(s, "");
  s.push_back(data("output_state_in"));
  s.push_back(data("cell_state_in"));
  s.push_back(fixed("activation", OT::INT32));
  s.push_back(dataScalar("cell_clip"));
  s.push_back(dataScalar("proj_clip"));
  if (sequence) s.push_back(fixed("time_major", OT::BOOL));
  addLayerNorms(s, "");
  return s;
}

// Optional in every LSTM cell: CIFG (1, 5), peephole (9..11), input gate bias (12), projection (16, 17).
constexpr uint64_t kGateOptional = bits({1, 5, 9, 10, 11, 12, 16, 17});
constexpr uint64_t kLstmOmittable = kGateOptional | bits({23, 24, 25, 26});
constexpr uint64_t kUnidirectionalLstmOmittable = kGateOptional | bits({24, 25, 26, 27});
// The backward cell's gates are the forward ones shifted by 17; the auxiliary input and weights
// (39..47) and the layer normalization weights (53..60) are optional.
constexpr uint64_t kBidirectionalLstmOmittable = kGateOptional | (kGateOptional << 17) |
                                                 bits({39, 40, 41, 42, 43, 44, 45, 46, 47}) |
                                                 bits({53, 54, 55, 56, 57, 58, 59, 60});

Slots bidirectionalLstmSlots() {
  Slots s{data("input")};
  addGates(s, "fw_");
  addGates(s, "bw_");
  for (const char* name :
       {"fw_activation_state", "fw_cell_state", "bw_activation_state", "bw_cell_state", "aux_input"}) {
    s.push_back(data(name));
  }
  for (const char* dir : {"fw_", "bw_"}) {
    for (const char* gate : {"input", "forget", "cell", "output"})
      s.push_back(data(std::string(dir) + "aux_input_to_" + gate + "_weights"));
  }
  s.push_back(fixed("activation", OT::INT32));
  s.push_back(dataScalar("cell_clip"));
  s.push_back(dataScalar("proj_clip"));
  s.push_back(fixed("merge_outputs", OT::BOOL));
  s.push_back(fixed("time_major", OT::BOOL));
  addLayerNorms(s, "fw_");
  addLayerNorms(s, "bw_");
  return s;
}

// QUANTIZED_LSTM: signed 8-bit data and state, 8-bit symmetric weights, 16-bit peephole, layer
// normalization and cell state, 32-bit biases, float scalars.
Slots quantizedLstmSlots() {
  Slots s{fixed("input", OT::TENSOR_QUANT8_ASYMM_SIGNED)};
  for (size_t i = 0; i < 17; ++i) {
    OT type = OT::TENSOR_QUANT8_SYMM;                      // the eight weights (1..8) and projection (16)
    if (i >= 8 && i < 11) type = OT::TENSOR_QUANT16_SYMM;  // peephole (9..11)
    if ((i >= 11 && i < 15) || i == 16) type = OT::TENSOR_INT32;  // biases (12..15, 17)
    s.push_back(fixed(kGateNames[i], type));
  }
  s.push_back(fixed("output_state_in", OT::TENSOR_QUANT8_ASYMM_SIGNED));
  s.push_back(fixed("cell_state_in", OT::TENSOR_QUANT16_SYMM));
  for (const char* name : kLayerNormNames)
    s.push_back(fixed(name, OT::TENSOR_QUANT16_SYMM));
  for (const char* name :
       {"cell_clip", "projection_clip", "input_intermediate_scale", "forget_intermediate_scale",
        "cell_intermediate_scale", "output_intermediate_scale"}) {
    s.push_back(fixed(name, OT::FLOAT32));
  }
  s.push_back(fixed("hidden_state_zero_point", OT::INT32));
  s.push_back(fixed("hidden_state_scale", OT::FLOAT32));
  return s;
}
// Optional: CIFG, peephole, input gate bias, projection (as the float cells) and layer normalization
// (20..23). The clips (24, 25) are "optional" in the sense that 0 disables them: they need a value.
constexpr uint64_t kQuantizedLstmOmittable = kGateOptional | bits({20, 21, 22, 23});

// QUANTIZED_16BIT_LSTM: 8-bit asymmetric data, weights and output; 32-bit biases; 16-bit cell state.
Slots quantized16BitLstmSlots() {
  Slots s{fixed("input", OT::TENSOR_QUANT8_ASYMM)};
  for (size_t i = 0; i < 8; ++i)
    s.push_back(fixed(kGateNames[i], OT::TENSOR_QUANT8_ASYMM));
  for (const char* name : {"input_gate_bias", "forget_gate_bias", "cell_gate_bias", "output_gate_bias"})
    s.push_back(fixed(name, OT::TENSOR_INT32));
  s.push_back(fixed("prev_cell_state", OT::TENSOR_QUANT16_SYMM));
  s.push_back(fixed("prev_output", OT::TENSOR_QUANT8_ASYMM));
  return s;
}

// ---- LSTM family ---------------------------------------------------------------------------------------

Result<void> validateLstm(const OpArgs& op) {
  static const Slots slots = lstmSlots(false);
  NNRT_RETURN_IF_ERROR(checkFloatRecurrent(op, slots));
  if (op.inputs.size() == 27) op.needs(3);  // the layer normalization form
  return {};
}

Result<void> validateUnidirectionalSequenceLstm(const OpArgs& op) {
  static const Slots slots = lstmSlots(true);
  NNRT_RETURN_IF_ERROR(checkFloatRecurrent(op, slots));
  op.needs(op.outputs.size() == 3 ? 4 : 3);  // the state outputs came with feature level 4
  return {};
}

Result<void> validateBidirectionalSequenceLstm(const OpArgs& op) {
  static const Slots slots = bidirectionalLstmSlots();
  NNRT_RETURN_IF_ERROR(checkFloatRecurrent(op, slots));
  // 1 (merged) or 2 outputs; 5 or 6 with the four state outputs, from feature level 4. Android does
  // not tie the count to merge_outputs for this operation.
  op.needs(op.outputs.size() >= 5 ? 4 : 3);
  return {};
}

// Whether `scale` is a power of two 2^exponent, as the quantized kernels read it (log2 within 1e-3
// of an integer).
bool isPowerOfTwo(float scale, int exponent) {
  if (!(scale > 0)) return false;
  const double log2 = std::log2(static_cast<double>(scale));
  const double rounded = std::round(log2);
  return std::fabs(log2 - rounded) < 1e-3 && static_cast<int>(rounded) == exponent;
}

std::string quantization(const Arg& a) {
  return "scale " + formatFloat(a.scale) + ", zero point " + std::to_string(a.zeroPoint);
}

// QUANTIZED_16BIT_LSTM's quantization, checked when the operation is prepared: data and output state
// at scale 1/128 and zero point 128, the weights sharing one quantization, the biases at the weights'
// scale / 128 with zero point 0, the cell state at scale 2^-11 (4 integer bits) and zero point 0.
Result<void> checkQuantized16BitLstmQuantization(const OpArgs& op) {
  for (size_t i : {size_t{0}, size_t{14}}) {
    const Arg& a = op.inputs[i];
    if (a.scale != 1.0f / 128.0f || a.zeroPoint != 128) {
      return inputError(op, i, i == 0 ? "input" : "prev_output",
                        "must have scale 0.0078125 (1/128) and zero point 128, not " + quantization(a));
    }
  }
  const Arg& weights = op.inputs[1];
  for (size_t i = 2; i <= 8; ++i) {
    const Arg& a = op.inputs[i];
    if (a.scale != weights.scale || a.zeroPoint != weights.zeroPoint) {
      return inputError(
          op, i, kGateNames[i - 1],
          "must have the quantization of input 1 (" + quantization(weights) + "), not " + quantization(a));
    }
  }
  const float biasScale = weights.scale / 128.0f;
  static constexpr const char* kBiasNames[] = {"input_gate_bias", "forget_gate_bias", "cell_gate_bias",
                                               "output_gate_bias"};
  for (size_t i = 9; i <= 12; ++i) {
    const Arg& a = op.inputs[i];
    if (a.scale != biasScale || a.zeroPoint != 0) {
      return inputError(op, i, kBiasNames[i - 9],
                        "must have scale " + formatFloat(biasScale) +
                            " (the weights' scale / 128) and zero point 0, not " + quantization(a));
    }
  }
  const Arg& cell = op.inputs[13];
  if (cell.zeroPoint != 0 || !isPowerOfTwo(cell.scale, -11)) {
    return inputError(op, 13, "prev_cell_state",
                      "must have scale 0.00048828125 (2^-11) and zero point 0, not " + quantization(cell));
  }
  return {};
}

Result<void> validateQuantized16BitLstm(const OpArgs& op) {
  static const Slots slots = quantized16BitLstmSlots();
  NNRT_RETURN_IF_ERROR(checkSlots(op, slots));
  NNRT_RETURN_IF_ERROR(checkFixedOutputs(op, {OT::TENSOR_QUANT16_SYMM, OT::TENSOR_QUANT8_ASYMM}));
  op.needs(3);
  if (op.full()) NNRT_RETURN_IF_ERROR(checkQuantized16BitLstmQuantization(op));
  return {};
}

Result<void> validateQuantizedLstm(const OpArgs& op) {
  static const Slots slots = quantizedLstmSlots();
  NNRT_RETURN_IF_ERROR(checkSlots(op, slots));
  NNRT_RETURN_IF_ERROR(checkFixedOutputs(
      op, {OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_QUANT16_SYMM, OT::TENSOR_QUANT8_ASYMM_SIGNED}));
  op.needs(4);
  return {};
}

// ---- RNN family and SVDF -------------------------------------------------------------------------------

Result<void> validateRnn(const OpArgs& op) {
  static const Slots slots{data("input"), data("weights"),         data("recurrent_weights"),
                           data("bias"),  data("hidden_state_in"), fixed("activation", OT::INT32)};
  return checkFloatRecurrent(op, slots);
}

Result<void> validateSvdf(const OpArgs& op) {
  static const Slots slots{
      data("input"),    data("weights_feature"),  data("weights_time"),          data("bias"),
      data("state_in"), fixed("rank", OT::INT32), fixed("activation", OT::INT32)};
  return checkFloatRecurrent(op, slots);
}

Result<void> validateUnidirectionalSequenceRnn(const OpArgs& op) {
  // time_major is an INT32 here (a BOOL in the LSTM and bidirectional operations).
  static const Slots slots{data("input"),
                           data("weights"),
                           data("recurrent_weights"),
                           data("bias"),
                           data("hidden_state"),
                           fixed("activation", OT::INT32),
                           fixed("time_major", OT::INT32)};
  NNRT_RETURN_IF_ERROR(checkFloatRecurrent(op, slots));
  op.needs(op.outputs.size() == 2 ? 4 : 3);
  return {};
}

Result<void> validateBidirectionalSequenceRnn(const OpArgs& op) {
  static const Slots slots{data("input"),
                           data("fw_weights"),
                           data("fw_recurrent_weights"),
                           data("fw_bias"),
                           data("fw_hidden_state"),
                           data("bw_weights"),
                           data("bw_recurrent_weights"),
                           data("bw_bias"),
                           data("bw_hidden_state"),
                           data("aux_input"),
                           data("fw_aux_weights"),
                           data("bw_aux_weights"),
                           fixed("activation", OT::INT32),
                           fixed("time_major", OT::BOOL),
                           fixed("merge_outputs", OT::BOOL)};
  NNRT_RETURN_IF_ERROR(checkFloatRecurrent(op, slots));
  // 2 outputs, 1 when merged; 4 and 3 with the hidden state outputs of feature level 4.
  const size_t outputs = op.outputs.size();
  op.needs(outputs >= 3 ? 4 : 3);
  if (auto merge = knownBool(op.inputs[14])) {
    const bool fits = *merge ? (outputs == 1 || outputs == 3) : (outputs == 2 || outputs == 4);
    if (!fits) {
      return inputError(op, 14, "merge_outputs",
                        std::string(*merge ? "is true: the operation takes 1 or 3 outputs"
                                           : "is false: the operation takes 2 or 4 outputs") +
                            ", not " + std::to_string(outputs));
    }
  }
  return {};
}

// ---- Shape inference (LSTM, RNN, SVDF) ------------------------------------------------------------------

// Dimension d of input i, 0 when unknown.
uint32_t dimOf(const OpArgs& op, size_t i, size_t d) {
  if (i >= op.inputs.size()) return 0;
  const Arg& a = op.inputs[i];
  if (a.omitted || a.rank() <= d) return 0;
  return a.dims[d];
}

// The first known (non-zero) value.
uint32_t firstKnown(std::initializer_list<uint32_t> values) {
  for (uint32_t v : values) {
    if (v != 0) return v;
  }
  return 0;
}

// RNN: hidden state (out) and output, both [batch_size, num_units].
Result<std::vector<Shape>> inferRnn(const OpArgs& op) {
  const uint32_t batch = firstKnown({dimOf(op, 0, 0), dimOf(op, 4, 0)});
  const uint32_t units = firstKnown({dimOf(op, 1, 0), dimOf(op, 2, 0), dimOf(op, 3, 0), dimOf(op, 4, 1)});
  return std::vector<Shape>(op.outputs.size(), Shape{batch, units});
}

// SVDF: state (out) [batch_size, memory_size * num_filters] (the layout Android's implementation
// keeps: memory_size entries per filter) and output [batch_size, num_filters / rank].
Result<std::vector<Shape>> inferSvdf(const OpArgs& op) {
  const uint32_t batch = firstKnown({dimOf(op, 0, 0), dimOf(op, 4, 0)});
  const uint32_t filters = firstKnown({dimOf(op, 1, 0), dimOf(op, 2, 0)});
  const uint32_t memory = dimOf(op, 2, 1);
  uint32_t units = 0;
  if (const auto rank = op.inputs.size() > 5 ? knownInt32(op.inputs[5]) : std::nullopt;
      rank && *rank > 0 && filters % static_cast<uint32_t>(*rank) == 0) {
    units = filters / static_cast<uint32_t>(*rank);
  }
  if (units == 0) units = dimOf(op, 3, 0);
  std::vector<Shape> shapes{Shape{batch, memory * filters}, Shape{batch, units}};
  shapes.resize(op.outputs.size());
  return shapes;
}

// Whether an optional LSTM tensor is absent (omitted, or without elements); nullopt when its shape is
// not known yet.
std::optional<bool> lstmInputAbsent(const OpArgs& op, size_t i) {
  if (i >= op.inputs.size()) return true;
  const Arg& a = op.inputs[i];
  if (a.omitted) return true;
  if (a.rank() == 0) return std::nullopt;
  for (uint32_t d : a.dims) {
    if (d == 0) return true;
  }
  return false;
}

// LSTM: scratch buffer [batch_size, num_units * 3] with CIFG (input 1 absent) or * 4 without,
// output state (out) [batch_size, output_size], cell state (out) [batch_size, num_units], output
// [batch_size, output_size].
Result<std::vector<Shape>> inferLstm(const OpArgs& op) {
  const uint32_t batch = firstKnown({dimOf(op, 0, 0), dimOf(op, 18, 0), dimOf(op, 19, 0)});
  const uint32_t units = firstKnown({dimOf(op, 4, 0), dimOf(op, 2, 0), dimOf(op, 3, 0), dimOf(op, 8, 0),
                                     dimOf(op, 13, 0), dimOf(op, 14, 0), dimOf(op, 15, 0), dimOf(op, 19, 1)});
  const uint32_t outputSize =
      firstKnown({dimOf(op, 8, 1), dimOf(op, 6, 1), dimOf(op, 7, 1), dimOf(op, 18, 1)});
  uint32_t scratch = 0;
  if (const auto cifg = lstmInputAbsent(op, 1)) scratch = units * (*cifg ? 3 : 4);
  std::vector<Shape> shapes{Shape{batch, scratch}, Shape{batch, outputSize}, Shape{batch, units},
                            Shape{batch, outputSize}};
  shapes.resize(op.outputs.size());
  return shapes;
}

// The two leading dimensions of a sequence's outputs are its input's ([maxTime, batch] time-major,
// [batch, maxTime] otherwise); `timeMajor` says which of them is the batch (nullopt: not known yet).
struct SequenceDims {
  uint32_t first = 0, second = 0, batch = 0;
  bool rank3 = false;  // the input is a sequence (of rank 3); else the outputs' rank is left unknown

  // A sequence output of `width` values per step and batch entry.
  Shape output(uint32_t width) const { return rank3 ? Shape{first, second, width} : Shape{}; }
};
SequenceDims sequenceDims(const OpArgs& op, std::optional<bool> timeMajor) {
  SequenceDims s{dimOf(op, 0, 0), dimOf(op, 0, 1), 0, op.inputs[0].rank() == 3};
  if (timeMajor && s.rank3) s.batch = *timeMajor ? s.second : s.first;
  return s;
}

// UNIDIRECTIONAL_SEQUENCE_RNN: output [maxTime, batch, num_units] in the input's layout (time_major is
// input 6, an INT32), then (feature level 4) the hidden state [batch, num_units].
Result<std::vector<Shape>> inferUnidirectionalSequenceRnn(const OpArgs& op) {
  const auto major = knownInt32(op.inputs[6]);
  const SequenceDims s = sequenceDims(op, major ? std::optional<bool>(*major != 0) : std::nullopt);
  const uint32_t batch = firstKnown({s.batch, dimOf(op, 4, 0)});
  const uint32_t units = firstKnown({dimOf(op, 1, 0), dimOf(op, 2, 0), dimOf(op, 3, 0), dimOf(op, 4, 1)});
  std::vector<Shape> shapes{s.output(units), Shape{batch, units}};
  shapes.resize(op.outputs.size());
  return shapes;
}

// The outputs of a bidirectional sequence: the forward sequence of `fw` values per step (with the
// backward one's `bw` after them when `merge`), the backward one unless merged, then the final states
// (feature level 4); `count` of them.
std::vector<Shape> bidirectionalOutputs(const SequenceDims& s, bool merge, uint32_t fw, uint32_t bw,
                                        std::initializer_list<Shape> states, size_t count) {
  std::vector<Shape> shapes{s.output(merge ? (fw == 0 || bw == 0 ? 0 : fw + bw) : fw)};
  if (!merge) shapes.push_back(s.output(bw));
  shapes.insert(shapes.end(), states.begin(), states.end());
  shapes.resize(count);
  return shapes;
}

// BIDIRECTIONAL_SEQUENCE_RNN: the forward output [maxTime, batch, fw_units] (with the backward
// units after them when merge_outputs), the backward one unless merged, then (feature level 4) the
// forward and backward hidden states.
Result<std::vector<Shape>> inferBidirectionalSequenceRnn(const OpArgs& op) {
  const SequenceDims s = sequenceDims(op, knownBool(op.inputs[13]));
  const uint32_t batch = firstKnown({s.batch, dimOf(op, 4, 0), dimOf(op, 8, 0)});
  const uint32_t fw = firstKnown({dimOf(op, 1, 0), dimOf(op, 2, 0), dimOf(op, 3, 0), dimOf(op, 4, 1)});
  const uint32_t bw = firstKnown({dimOf(op, 5, 0), dimOf(op, 6, 0), dimOf(op, 7, 0), dimOf(op, 8, 1)});
  std::optional<bool> merge = knownBool(op.inputs[14]);
  if (!merge) merge = op.outputs.size() == 1 || op.outputs.size() == 3;
  return bidirectionalOutputs(s, *merge, fw, bw, {Shape{batch, fw}, Shape{batch, bw}}, op.outputs.size());
}

// UNIDIRECTIONAL_SEQUENCE_LSTM: output [maxTime, batch, output_size] in the input's layout (time_major,
// input 23), then (feature level 4) the output state [batch, output_size] and cell state [batch,
// num_units].
Result<std::vector<Shape>> inferUnidirectionalSequenceLstm(const OpArgs& op) {
  const SequenceDims s = sequenceDims(op, knownBool(op.inputs[23]));
  const uint32_t batch = firstKnown({s.batch, dimOf(op, 18, 0), dimOf(op, 19, 0)});
  const uint32_t units = firstKnown({dimOf(op, 4, 0), dimOf(op, 2, 0), dimOf(op, 3, 0), dimOf(op, 19, 1)});
  const uint32_t outputSize = firstKnown({dimOf(op, 8, 1), dimOf(op, 16, 0), dimOf(op, 18, 1)});
  std::vector<Shape> shapes{s.output(outputSize), Shape{batch, outputSize}, Shape{batch, units}};
  shapes.resize(op.outputs.size());
  return shapes;
}

// BIDIRECTIONAL_SEQUENCE_LSTM: the forward output [maxTime, batch, fw_output_size] (with the backward
// size added when merge_outputs, input 51), the backward one unless merged, then (feature level 4)
// the forward output and cell states and the backward ones. The backward cell's inputs are the
// forward ones' 17 later; the states are inputs 35..38; time_major is input 52.
Result<std::vector<Shape>> inferBidirectionalSequenceLstm(const OpArgs& op) {
  const SequenceDims s = sequenceDims(op, knownBool(op.inputs[52]));
  const uint32_t batch = firstKnown({s.batch, dimOf(op, 35, 0), dimOf(op, 36, 0), dimOf(op, 37, 0), dimOf(op, 38, 0)});
  const uint32_t fwUnits = firstKnown({dimOf(op, 4, 0), dimOf(op, 2, 0), dimOf(op, 36, 1)});
  const uint32_t bwUnits = firstKnown({dimOf(op, 21, 0), dimOf(op, 19, 0), dimOf(op, 38, 1)});
  const uint32_t fwOut = firstKnown({dimOf(op, 8, 1), dimOf(op, 16, 0), dimOf(op, 35, 1)});
  const uint32_t bwOut = firstKnown({dimOf(op, 25, 1), dimOf(op, 33, 0), dimOf(op, 37, 1)});
  std::optional<bool> merge = knownBool(op.inputs[51]);
  if (!merge) merge = op.outputs.size() == 1 || op.outputs.size() == 5;
  return bidirectionalOutputs(s, *merge, fwOut, bwOut,
                              {Shape{batch, fwOut}, Shape{batch, fwUnits}, Shape{batch, bwOut}, Shape{batch, bwUnits}},
                              op.outputs.size());
}

// QUANTIZED_16BIT_LSTM: cell state and output, both [num_batches, output_size].
Result<std::vector<Shape>> inferQuantized16BitLstm(const OpArgs& op) {
  const uint32_t batch = firstKnown({dimOf(op, 0, 0), dimOf(op, 13, 0), dimOf(op, 14, 0)});
  const uint32_t size = firstKnown({dimOf(op, 1, 0), dimOf(op, 5, 0), dimOf(op, 9, 0), dimOf(op, 13, 1), dimOf(op, 14, 1)});
  std::vector<Shape> shapes(op.outputs.size(), Shape{batch, size});
  return shapes;
}

// QUANTIZED_LSTM: output state [batch, output_size], cell state [batch, num_units], output [batch,
// output_size].
Result<std::vector<Shape>> inferQuantizedLstm(const OpArgs& op) {
  const uint32_t batch = firstKnown({dimOf(op, 0, 0), dimOf(op, 18, 0), dimOf(op, 19, 0)});
  const uint32_t units = firstKnown({dimOf(op, 4, 0), dimOf(op, 2, 0), dimOf(op, 3, 0), dimOf(op, 19, 1)});
  const uint32_t outputSize = firstKnown({dimOf(op, 8, 1), dimOf(op, 16, 0), dimOf(op, 18, 1)});
  std::vector<Shape> shapes{Shape{batch, outputSize}, Shape{batch, units}, Shape{batch, outputSize}};
  shapes.resize(op.outputs.size());
  return shapes;
}

// ---- Control flow ----------------------------------------------------------------------------------------

// The data operands of IF and WHILE (from `first` on) may be of any type but SUBGRAPH: a subgraph's
// inputs and outputs cannot be subgraph references, so such an operand never matches.
//
// Not checked here: that the referenced subgraphs exist and that their inputs and outputs match these
// operands (type, dimensions, quantization), nor, for WHILE, that the condition subgraph yields one
// TENSOR_BOOL8 [1]. Those need the model's subgraphs, which an operation's Args do not reach.
Result<void> checkDataOperands(const OpArgs& op, size_t first) {
  for (size_t i = first; i < op.inputs.size(); ++i) {
    if (isType(op.inputs[i].type, OT::SUBGRAPH)) {
      return inputError(op, i, "", "is a data operand and must not be a SUBGRAPH reference");
    }
  }
  return {};
}

Result<void> validateIf(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "condition", {OT::TENSOR_BOOL8}));
  const Arg& condition = op.inputs[0];
  if (condition.rank() != 1 || condition.dims[0] != 1) {
    return inputError(op, 0, "condition",
                      "must have shape [1], not " + (condition.rank() == 0 ? std::string("an unknown shape")
                                                                           : shapeToString(condition.dims)));
  }
  NNRT_RETURN_IF_ERROR(checkInputType(op, 1, "then_branch", {OT::SUBGRAPH}));
  NNRT_RETURN_IF_ERROR(checkInputType(op, 2, "else_branch", {OT::SUBGRAPH}));
  NNRT_RETURN_IF_ERROR(checkDataOperands(op, 3));
  op.needs(4);
  return {};
}

Result<void> validateWhile(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "condition_model", {OT::SUBGRAPH}));
  NNRT_RETURN_IF_ERROR(checkInputType(op, 1, "body_model", {OT::SUBGRAPH}));
  NNRT_RETURN_IF_ERROR(checkDataOperands(op, 2));
  op.needs(4);
  return {};
}

const Signature kSignatures[] = {
    {T::LSTM, bits({23, 27}), 0, bits({4}), 0, kLstmOmittable, validateLstm, inferLstm},
    {T::RNN, bits({6}), 0, bits({2}), 0, 0, validateRnn, inferRnn},
    {T::SVDF, bits({7}), 0, bits({2}), 0, bits({3}), validateSvdf, inferSvdf},
    {T::BIDIRECTIONAL_SEQUENCE_LSTM, bits({61}), 0, bits({1, 2, 5, 6}), 0, kBidirectionalLstmOmittable,
     validateBidirectionalSequenceLstm, inferBidirectionalSequenceLstm},
    {T::BIDIRECTIONAL_SEQUENCE_RNN, bits({15}), 0, bits({1, 2, 3, 4}), 0, bits({9, 10, 11}),
     validateBidirectionalSequenceRnn, inferBidirectionalSequenceRnn},
    {T::UNIDIRECTIONAL_SEQUENCE_LSTM, bits({28}), 0, bits({1, 3}), 0, kUnidirectionalLstmOmittable,
     validateUnidirectionalSequenceLstm, inferUnidirectionalSequenceLstm},
    {T::UNIDIRECTIONAL_SEQUENCE_RNN, bits({7}), 0, bits({1, 2}), 0, 0, validateUnidirectionalSequenceRnn,
     inferUnidirectionalSequenceRnn},
    {T::QUANTIZED_16BIT_LSTM, bits({15}), 0, bits({2}), 0, 0, validateQuantized16BitLstm, inferQuantized16BitLstm},
    {T::QUANTIZED_LSTM, bits({32}), 0, bits({3}), 0, kQuantizedLstmOmittable, validateQuantizedLstm,
     inferQuantizedLstm},
    // IF: condition, then and else subgraphs, then the inputs of the branches.
    {T::IF, 0, 3, 0, 1, 0, validateIf, nullptr},
    // WHILE: condition and body subgraphs, then at least one loop operand.
    {T::WHILE, 0, 3, 0, 1, 0, validateWhile, nullptr},
};

}  // namespace

std::span<const Signature> recurrentSignatures() {
  return kSignatures;
}

}  // namespace nnrt::ops::detail
