// The cpu driver's recurrent family: RNN, SVDF, LSTM (23 inputs, or 27 with layer normalization) and
// their sequence forms on TENSOR_FLOAT32, and on TENSOR_FLOAT16 through the float32 kernels
// (viaFloat32). Parameters are read from the call's inputs (at execution every value is known).
// ops::validate checks the operand types only, so the adapters check the sizes the kernels will read
// before calling them.
//
// LSTM's optional tensors count as absent when omitted (NO_VALUE) or when they have no elements
// (absent(), kernel_call.hpp): NNAPI models use both forms.
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "nnrt/driver/ops/operand_types.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/kernels/recurrent.hpp"
#include "plugins/cpu/kernels/tensor_shape.hpp"
#include "plugins/cpu/type_adapters.hpp"

namespace nnrt::cpu {

std::span<const KernelEntry> recurrentKernels();

namespace {

using driver::OperandType;
using driver::Result;
using ops::Arg;

// Input i, or null when it is absent.
const float* optionalInput(const KernelCall& c, size_t i) {
  if (i >= c.op.inputs.size() || absent(c.op.inputs[i])) return nullptr;
  return input<float>(c, i);
}

std::string label(const KernelCall& c, size_t i) {
  return ops::operationName(c.op.type) + " input " + std::to_string(i);
}

// Input i, a BOOL scalar with a value (`what` names it: time_major, merge_outputs).
Result<bool> boolValue(const KernelCall& c, size_t i, const char* what) {
  const Arg& a = c.op.inputs[i];
  if (!ops::isType(a.type, OperandType::BOOL) || a.data == nullptr)
    return driver::invalidArgument(label(c, i) + " (" + what + ") must be a BOOL value");
  return a.scalar<uint8_t>() != 0;
}

// Input i holds exactly `count` elements.
Result<void> expectCount(const KernelCall& c, size_t i, size_t count) {
  const Arg& a = c.op.inputs[i];
  if (a.data == nullptr || elementsOf(a) != count || a.length < count * sizeof(float)) {
    return driver::invalidArgument(label(c, i) + " must hold " + std::to_string(count) + " values, not " +
                                   std::to_string(a.data == nullptr ? 0 : elementsOf(a)));
  }
  return {};
}

// Input i is a 2-D tensor; its dimension `d`.
Result<uint32_t> dim2(const KernelCall& c, size_t i, size_t d) {
  const Arg& a = c.op.inputs[i];
  if (a.rank() != 2) return driver::invalidArgument(label(c, i) + " must be 2-D");
  return a.dims[d];
}

Result<int32_t> int32At(const KernelCall& c, size_t i) {
  const Arg& a = c.op.inputs[i];
  if (!ops::isType(a.type, OperandType::INT32) || a.data == nullptr || a.length < sizeof(int32_t))
    return driver::invalidArgument(label(c, i) + " must be an INT32 value");
  return a.scalar<int32_t>();
}

// A float scalar (FLOAT16 ones arrive widened to FLOAT32).
Result<float> floatAt(const KernelCall& c, size_t i) {
  const Arg& a = c.op.inputs[i];
  if (!ops::isType(a.type, OperandType::FLOAT32) || a.data == nullptr || a.length < sizeof(float))
    return driver::invalidArgument(label(c, i) + " must be a FLOAT32 value");
  return a.scalar<float>();
}

Result<RecurrentActivation> activationAt(const KernelCall& c, size_t i) {
  NNRT_ASSIGN_OR_RETURN(const int32_t code, int32At(c, i));
  if (!isRecurrentActivation(code))
    return driver::invalidArgument(label(c, i) + " (activation) " + std::to_string(code) +
                                   " is not supported");
  return static_cast<RecurrentActivation>(code);
}

Result<void> expectOutput(const KernelCall& c, size_t k, size_t count) {
  if (elementsOf(c.op.outputs[k]) != count) {
    return driver::generalFailure("cpu driver bug: " + ops::operationName(c.op.type) + " output " +
                                  std::to_string(k) + " has the wrong size");
  }
  return {};
}

// ---- RNN ---------------------------------------------------------------------------------------------

Result<void> rnnFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const uint32_t batch, dim2(c, 0, 0));
  NNRT_ASSIGN_OR_RETURN(const uint32_t inputSize, dim2(c, 0, 1));
  NNRT_ASSIGN_OR_RETURN(const uint32_t units, dim2(c, 1, 0));
  NNRT_RETURN_IF_ERROR(expectCount(c, 1, size_t{units} * inputSize));
  NNRT_RETURN_IF_ERROR(expectCount(c, 2, size_t{units} * units));
  NNRT_RETURN_IF_ERROR(expectCount(c, 3, units));
  NNRT_RETURN_IF_ERROR(expectCount(c, 4, size_t{batch} * units));
  NNRT_ASSIGN_OR_RETURN(const RecurrentActivation act, activationAt(c, 5));
  NNRT_RETURN_IF_ERROR(expectOutput(c, 0, size_t{batch} * units));
  NNRT_RETURN_IF_ERROR(expectOutput(c, 1, size_t{batch} * units));
  rnn(input<float>(c, 0), input<float>(c, 1), input<float>(c, 2), input<float>(c, 3), input<float>(c, 4),
      batch, inputSize, units, act, output<float>(c, 0), output<float>(c, 1));
  return {};
}

// ---- UNIDIRECTIONAL_SEQUENCE_RNN ---------------------------------------------------------------------

// input [maxTime, batch, inputSize] (time_major != 0) or [batch, maxTime, inputSize]; output likewise
// with numUnits; output 1 (feature level 4, optional) the final hidden state [batch, numUnits]. Runs
// the RNN step once per time step, time-major (batch-major operands go through the scratch).
Result<void> sequenceRnnFloat(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  if (in.rank() != 3) return driver::invalidArgument(label(c, 0) + " must be 3-D");
  NNRT_ASSIGN_OR_RETURN(const int32_t timeMajor, int32At(c, 6));
  const uint32_t maxTime = timeMajor != 0 ? in.dims[0] : in.dims[1];
  const uint32_t batch = timeMajor != 0 ? in.dims[1] : in.dims[0];
  const uint32_t inputSize = in.dims[2];
  NNRT_ASSIGN_OR_RETURN(const uint32_t units, dim2(c, 1, 0));
  NNRT_RETURN_IF_ERROR(expectCount(c, 1, size_t{units} * inputSize));
  NNRT_RETURN_IF_ERROR(expectCount(c, 2, size_t{units} * units));
  NNRT_RETURN_IF_ERROR(expectCount(c, 3, units));
  NNRT_RETURN_IF_ERROR(expectCount(c, 4, size_t{batch} * units));
  NNRT_ASSIGN_OR_RETURN(const RecurrentActivation act, activationAt(c, 5));
  NNRT_RETURN_IF_ERROR(expectOutput(c, 0, size_t{maxTime} * batch * units));
  if (c.op.outputs.size() > 1) NNRT_RETURN_IF_ERROR(expectOutput(c, 1, size_t{batch} * units));

  static constexpr std::array<uint32_t, 3> kSwapFirstTwo{1, 0, 2};
  const float* x = input<float>(c, 0);
  float* y = output<float>(c, 0);
  if (timeMajor == 0) {
    auto* timeMajorInput = static_cast<float*>(c.scratch.allocate(elementsOf(in) * sizeof(float)));
    transpose(x, shapeOf(in), kSwapFirstTwo, sizeof(float), timeMajorInput);
    x = timeMajorInput;
    y = static_cast<float*>(c.scratch.allocate(size_t{maxTime} * batch * units * sizeof(float)));
  }
  const size_t stateSize = size_t{batch} * units;
  auto* state = static_cast<float*>(c.scratch.allocate(2 * stateSize * sizeof(float)));
  const float* previous = input<float>(c, 4);
  for (uint32_t t = 0; t < maxTime; ++t) {
    float* next = state + (t % 2) * stateSize;
    rnn(x + size_t{t} * batch * inputSize, input<float>(c, 1), input<float>(c, 2), input<float>(c, 3),
        previous, batch, inputSize, units, act, next, y + size_t{t} * stateSize);
    previous = next;
  }
  if (timeMajor == 0)
    transpose(y, Shape{{maxTime, batch, units}}, kSwapFirstTwo, sizeof(float), output<float>(c, 0));
  if (c.op.outputs.size() > 1) std::copy(previous, previous + stateSize, output<float>(c, 1));
  return {};
}

// ---- BIDIRECTIONAL_SEQUENCE_RNN ----------------------------------------------------------------------

// Rows of `a` ([rows, aCols]) and `b` ([rows, bCols]) side by side: [rows, aCols + bCols].
void sideBySide(const float* a, size_t aCols, const float* b, size_t bCols, size_t rows, float* out) {
  for (size_t r = 0; r < rows; ++r) {
    std::copy(a + r * aCols, a + (r + 1) * aCols, out + r * (aCols + bCols));
    std::copy(b + r * bCols, b + (r + 1) * bCols, out + r * (aCols + bCols) + aCols);
  }
}

// A sequence operand's data ([maxTime, batch, width] or, not time-major, [batch, maxTime, width]) as a
// time-major sequence: the data itself, or a transposed copy in the call's scratch memory.
const float* timeMajorSequence(const KernelCall& c, const float* data, const Arg& arg, bool timeMajor) {
  if (timeMajor) return data;
  static constexpr std::array<uint32_t, 3> kSwapFirstTwo{1, 0, 2};
  auto* copy = static_cast<float*>(c.scratch.allocate(elementsOf(arg) * sizeof(float)));
  transpose(data, shapeOf(arg), kSwapFirstTwo, sizeof(float), copy);
  return copy;
}

// The outputs of the bidirectional operations from each direction's time-major output sequence
// (fwY [maxTime, batch, fwWidth], bwY likewise): output 0 the forward one, with the backward one after
// it on the last dimension when `merge`, else output 1; in the operands' layout.
void writeBidirectionalOutputs(const KernelCall& c, const float* fwY, size_t fwWidth, const float* bwY,
                               size_t bwWidth, uint32_t maxTime, uint32_t batch, bool timeMajor, bool merge) {
  static constexpr std::array<uint32_t, 3> kSwapFirstTwo{1, 0, 2};
  const size_t steps = size_t{maxTime} * batch;
  auto place = [&](const float* timeMajorData, size_t width, float* out) {
    if (timeMajor) {
      std::copy(timeMajorData, timeMajorData + steps * width, out);
    } else {
      transpose(timeMajorData, Shape{{maxTime, batch, static_cast<uint32_t>(width)}}, kSwapFirstTwo,
                sizeof(float), out);
    }
  };
  if (merge) {
    auto* merged = static_cast<float*>(c.scratch.allocate(steps * (fwWidth + bwWidth) * sizeof(float)));
    sideBySide(fwY, fwWidth, bwY, bwWidth, steps, merged);
    place(merged, fwWidth + bwWidth, output<float>(c, 0));
  } else {
    place(fwY, fwWidth, output<float>(c, 0));
    place(bwY, bwWidth, output<float>(c, 1));
  }
}

// One direction over a time-major sequence x [maxTime, batch, width]: h = act(W x_t + R h + b), from
// the last step to the first when `reverse`; y [maxTime, batch, units]; returns the final state.
const float* rnnDirection(const KernelCall& c, const float* x, size_t width, const float* w, const float* r,
                          const float* b, const float* h0, uint32_t maxTime, uint32_t batch, uint32_t units,
                          RecurrentActivation act, bool reverse, float* y) {
  const size_t stateSize = size_t{batch} * units;
  auto* state = static_cast<float*>(c.scratch.allocate(2 * stateSize * sizeof(float)));
  const float* previous = h0;
  for (uint32_t i = 0; i < maxTime; ++i) {
    const uint32_t t = reverse ? maxTime - 1 - i : i;
    float* next = state + (i % 2) * stateSize;
    rnn(x + size_t{t} * batch * width, w, r, b, previous, batch, width, units, act, next,
        y + size_t{t} * stateSize);
    previous = next;
  }
  return previous;
}

// Inputs: 0 input, 1-4 forward weights, recurrent weights, bias, hidden state, 5-8 the backward ones,
// 9 aux input, 10-11 forward and backward aux weights, 12 activation, 13 time_major, 14 merge_outputs.
// Linking as NNAPI defines it: no aux tensors; aux input alone (it is the backward network's input);
// aux input and both aux weights (each network adds its aux weights x aux input, computed here as
// one product over the input and aux input side by side). Outputs: the forward output, with the
// backward one after it on the last dimension when merged or as output 1; then (feature level 4)
// the final forward and backward hidden states.
Result<void> bidirectionalSequenceRnnFloat(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  if (in.rank() != 3) return driver::invalidArgument(label(c, 0) + " must be 3-D");
  NNRT_ASSIGN_OR_RETURN(const bool timeMajor, boolValue(c, 13, "time_major"));
  NNRT_ASSIGN_OR_RETURN(const bool merge, boolValue(c, 14, "merge_outputs"));
  const uint32_t maxTime = timeMajor ? in.dims[0] : in.dims[1];
  const uint32_t batch = timeMajor ? in.dims[1] : in.dims[0];
  const uint32_t inputSize = in.dims[2];
  NNRT_ASSIGN_OR_RETURN(const uint32_t fwUnits, dim2(c, 1, 0));
  NNRT_ASSIGN_OR_RETURN(const uint32_t bwUnits, dim2(c, 5, 0));
  NNRT_ASSIGN_OR_RETURN(const RecurrentActivation act, activationAt(c, 12));
  const float* aux = optionalInput(c, 9);
  const float* fwAuxWeights = optionalInput(c, 10);
  const float* bwAuxWeights = optionalInput(c, 11);
  const bool cross = aux != nullptr && fwAuxWeights != nullptr && bwAuxWeights != nullptr;
  const bool parallel = aux != nullptr && fwAuxWeights == nullptr && bwAuxWeights == nullptr;
  if (!cross && !parallel && (aux != nullptr || fwAuxWeights != nullptr || bwAuxWeights != nullptr)) {
    return driver::invalidArgument(
        "BIDIRECTIONAL_SEQUENCE_RNN: give the aux input alone, or with both aux weights, or no aux tensor");
  }
  const Arg& auxArg = c.op.inputs[9];
  const uint32_t auxSize = aux != nullptr ? auxArg.dims[2] : 0;
  if (aux != nullptr && (auxArg.rank() != 3 || elementsOf(auxArg) != size_t{maxTime} * batch * auxSize))
    return driver::invalidArgument(label(c, 9) + " must be [maxTime, batch, auxSize] like the input");
  if (parallel && auxSize != inputSize)
    return driver::invalidArgument(label(c, 9) + " must have input 0's size");
  NNRT_RETURN_IF_ERROR(expectCount(c, 1, size_t{fwUnits} * inputSize));
  NNRT_RETURN_IF_ERROR(expectCount(c, 2, size_t{fwUnits} * fwUnits));
  NNRT_RETURN_IF_ERROR(expectCount(c, 3, fwUnits));
  NNRT_RETURN_IF_ERROR(expectCount(c, 4, size_t{batch} * fwUnits));
  NNRT_RETURN_IF_ERROR(expectCount(c, 5, size_t{bwUnits} * inputSize));
  NNRT_RETURN_IF_ERROR(expectCount(c, 6, size_t{bwUnits} * bwUnits));
  NNRT_RETURN_IF_ERROR(expectCount(c, 7, bwUnits));
  NNRT_RETURN_IF_ERROR(expectCount(c, 8, size_t{batch} * bwUnits));
  if (cross) {
    NNRT_RETURN_IF_ERROR(expectCount(c, 10, size_t{fwUnits} * auxSize));
    NNRT_RETURN_IF_ERROR(expectCount(c, 11, size_t{bwUnits} * auxSize));
  }
  const size_t steps = size_t{maxTime} * batch;
  const size_t mergedUnits = size_t{fwUnits} + bwUnits;
  NNRT_RETURN_IF_ERROR(expectOutput(c, 0, steps * (merge ? mergedUnits : fwUnits)));
  if (!merge) NNRT_RETURN_IF_ERROR(expectOutput(c, 1, steps * bwUnits));
  const size_t stateAt = merge ? 1 : 2;
  const bool states = c.op.outputs.size() >= stateAt + 2;
  if (states) {
    NNRT_RETURN_IF_ERROR(expectOutput(c, stateAt, size_t{batch} * fwUnits));
    NNRT_RETURN_IF_ERROR(expectOutput(c, stateAt + 1, size_t{batch} * bwUnits));
  }

  auto floats = [&](size_t n) { return static_cast<float*>(c.scratch.allocate(n * sizeof(float))); };
  const float* x = timeMajorSequence(c, input<float>(c, 0), in, timeMajor);
  if (aux != nullptr) aux = timeMajorSequence(c, aux, auxArg, timeMajor);
  // Each network's input sequence and input weights.
  const float* fwX = x;
  const float* bwX = parallel ? aux : x;
  const float* fwW = input<float>(c, 1);
  const float* bwW = input<float>(c, 5);
  size_t width = inputSize;
  if (cross) {
    width = size_t{inputSize} + auxSize;
    float* joined = floats(steps * width);
    sideBySide(x, inputSize, aux, auxSize, steps, joined);
    fwX = bwX = joined;
    float* fw = floats(fwUnits * width);
    sideBySide(fwW, inputSize, fwAuxWeights, auxSize, fwUnits, fw);
    float* bw = floats(bwUnits * width);
    sideBySide(bwW, inputSize, bwAuxWeights, auxSize, bwUnits, bw);
    fwW = fw;
    bwW = bw;
  }
  float* fwY = floats(steps * fwUnits);
  float* bwY = floats(steps * bwUnits);
  const float* fwState = rnnDirection(c, fwX, width, fwW, input<float>(c, 2), input<float>(c, 3),
                                      input<float>(c, 4), maxTime, batch, fwUnits, act, false, fwY);
  const float* bwState = rnnDirection(c, bwX, width, bwW, input<float>(c, 6), input<float>(c, 7),
                                      input<float>(c, 8), maxTime, batch, bwUnits, act, true, bwY);

  writeBidirectionalOutputs(c, fwY, fwUnits, bwY, bwUnits, maxTime, batch, timeMajor, merge);
  if (states) {
    std::copy(fwState, fwState + size_t{batch} * fwUnits, output<float>(c, stateAt));
    std::copy(bwState, bwState + size_t{batch} * bwUnits, output<float>(c, stateAt + 1));
  }
  return {};
}

// ---- SVDF --------------------------------------------------------------------------------------------

Result<void> svdfFloat(const KernelCall& c) {
  SvdfDims d;
  NNRT_ASSIGN_OR_RETURN(const uint32_t batch, dim2(c, 0, 0));
  NNRT_ASSIGN_OR_RETURN(const uint32_t inputSize, dim2(c, 0, 1));
  NNRT_ASSIGN_OR_RETURN(const uint32_t filters, dim2(c, 1, 0));
  NNRT_ASSIGN_OR_RETURN(const uint32_t memory, dim2(c, 2, 1));
  NNRT_ASSIGN_OR_RETURN(const int32_t rank, int32At(c, 5));
  if (rank <= 0 || filters % static_cast<uint32_t>(rank) != 0) {
    return driver::invalidArgument("SVDF rank " + std::to_string(rank) + " must be positive and divide " +
                                   std::to_string(filters) + " filters");
  }
  d.batch = batch;
  d.inputSize = inputSize;
  d.numFilters = filters;
  d.rank = static_cast<size_t>(rank);
  d.memorySize = memory;
  const size_t units = d.numFilters / d.rank;
  NNRT_RETURN_IF_ERROR(expectCount(c, 1, d.numFilters * inputSize));
  NNRT_RETURN_IF_ERROR(expectCount(c, 2, d.numFilters * memory));
  const float* bias = optionalInput(c, 3);
  if (bias != nullptr) NNRT_RETURN_IF_ERROR(expectCount(c, 3, units));
  NNRT_RETURN_IF_ERROR(expectCount(c, 4, d.batch * d.numFilters * memory));
  NNRT_ASSIGN_OR_RETURN(const RecurrentActivation act, activationAt(c, 6));
  NNRT_RETURN_IF_ERROR(expectOutput(c, 0, d.batch * d.numFilters * memory));
  NNRT_RETURN_IF_ERROR(expectOutput(c, 1, d.batch * units));
  svdf(input<float>(c, 0), input<float>(c, 1), input<float>(c, 2), bias, input<float>(c, 4), d, act,
       output<float>(c, 0), output<float>(c, 1));
  return {};
}

// ---- LSTM --------------------------------------------------------------------------------------------

// Where an LSTM cell's operands sit among an operation's inputs: the 17 gate tensors from `weights`
// on in LSTM's order (input_to_input_weights .. projection_bias), output_state_in and cell_state_in
// from `states`, activation, cell_clip and proj_clip from `scalars`, and the four layer
// normalization weights from `layerNorm` when the operation has that many inputs.
struct LstmLayout {
  size_t weights = 1, states = 18, scalars = 20, layerNorm = 23;
};

// The weights, sizes and scalars of an LSTM step (LSTM and the sequence LSTMs), with NNAPI's rules on
// which optional tensors come together checked.
struct LstmSetup {
  LstmWeights w;
  LstmDims d;
  bool cifg = false;
  RecurrentActivation act{};
  float cellClip = 0, projClip = 0;
};

Result<LstmSetup> lstmSetup(const KernelCall& c, uint32_t batch, uint32_t inputSize, const LstmLayout& at) {
  LstmSetup setup;
  LstmDims& d = setup.d;
  LstmWeights& w = setup.w;
  const size_t first = at.weights;  // gate tensor k (0-based, LSTM's order) is input first + k
  NNRT_ASSIGN_OR_RETURN(const uint32_t units, dim2(c, first + 3, 0));
  NNRT_ASSIGN_OR_RETURN(const uint32_t outputSize, dim2(c, first + 7, 1));
  d.batch = batch;
  d.inputSize = inputSize;
  d.numUnits = units;
  d.outputSize = outputSize;
  const size_t n = units;

  const float** weights[] = {
      &w.inputToInput,      &w.inputToForget,   &w.inputToCell,       &w.inputToOutput, &w.recurrentToInput,
      &w.recurrentToForget, &w.recurrentToCell, &w.recurrentToOutput, &w.cellToInput,   &w.cellToForget,
      &w.cellToOutput,      &w.inputGateBias,   &w.forgetGateBias,    &w.cellBias,      &w.outputGateBias,
      &w.projectionWeights, &w.projectionBias};
  for (size_t i = 0; i < 17; ++i)
    *weights[i] = optionalInput(c, first + i);
  if (c.op.inputs.size() >= at.layerNorm + 4) {
    w.inputLayerNorm = optionalInput(c, at.layerNorm);
    w.forgetLayerNorm = optionalInput(c, at.layerNorm + 1);
    w.cellLayerNorm = optionalInput(c, at.layerNorm + 2);
    w.outputLayerNorm = optionalInput(c, at.layerNorm + 3);
  }
  const bool cifg = w.inputToInput == nullptr;
  const bool peephole = w.cellToOutput != nullptr;
  const bool layerNorm = w.outputLayerNorm != nullptr;
  const bool projection = w.projectionWeights != nullptr;
  setup.cifg = cifg;

  // Which optional tensors must come together (NNAPI's rules), and their sizes.
  const std::string name = ops::operationName(c.op.type);
  auto fail = [&](const std::string& why) { return driver::invalidArgument(name + ": " + why); };
  auto in = [&](size_t k) { return std::to_string(first + k); };
  if (cifg != (w.recurrentToInput == nullptr))
    return fail("inputs " + in(0) + " and " + in(4) + " must both be given or both be absent");
  if (cifg && w.inputGateBias != nullptr)
    return fail("input " + in(11) + " must be absent with CIFG (input " + in(0) + " absent)");
  if (!cifg && w.inputGateBias == nullptr) return fail("input " + in(11) + " is needed without CIFG");
  if (peephole != (w.cellToForget != nullptr) || (!cifg && peephole != (w.cellToInput != nullptr)))
    return fail("the peephole weights (inputs " + in(8) + ".." + in(10) + ") must be given together");
  if (!projection && w.projectionBias != nullptr)
    return fail("input " + in(16) + " needs the projection weights (" + in(15) + ")");
  if (!projection && outputSize != units) return fail("without projection, output_size must equal num_units");
  if (layerNorm != (w.forgetLayerNorm != nullptr) || layerNorm != (w.cellLayerNorm != nullptr) ||
      (!cifg && layerNorm != (w.inputLayerNorm != nullptr))) {
    return fail("the layer normalization weights (inputs " + std::to_string(at.layerNorm) + ".." +
                std::to_string(at.layerNorm + 3) + ") must be given together");
  }
  for (size_t k : {1, 2, 3})
    NNRT_RETURN_IF_ERROR(expectCount(c, first + k, n * inputSize));
  for (size_t k : {5, 6, 7})
    NNRT_RETURN_IF_ERROR(expectCount(c, first + k, n * outputSize));
  for (size_t k : {12, 13, 14})
    NNRT_RETURN_IF_ERROR(expectCount(c, first + k, n));
  if (!cifg) {
    NNRT_RETURN_IF_ERROR(expectCount(c, first, n * inputSize));
    NNRT_RETURN_IF_ERROR(expectCount(c, first + 4, n * outputSize));
    NNRT_RETURN_IF_ERROR(expectCount(c, first + 11, n));
  }
  if (peephole) {
    for (size_t k : {8, 9, 10}) {
      if (k == 8 && w.cellToInput == nullptr) continue;
      NNRT_RETURN_IF_ERROR(expectCount(c, first + k, n));
    }
  }
  if (projection) {
    NNRT_RETURN_IF_ERROR(expectCount(c, first + 15, size_t{outputSize} * n));
    if (w.projectionBias != nullptr) NNRT_RETURN_IF_ERROR(expectCount(c, first + 16, outputSize));
  }
  if (layerNorm) {
    for (size_t i = at.layerNorm; i < at.layerNorm + 4; ++i) {
      if (i == at.layerNorm && w.inputLayerNorm == nullptr) continue;
      NNRT_RETURN_IF_ERROR(expectCount(c, i, n));
    }
  }
  NNRT_RETURN_IF_ERROR(expectCount(c, at.states, size_t{batch} * outputSize));
  NNRT_RETURN_IF_ERROR(expectCount(c, at.states + 1, size_t{batch} * n));
  NNRT_ASSIGN_OR_RETURN(setup.act, activationAt(c, at.scalars));
  NNRT_ASSIGN_OR_RETURN(setup.cellClip, floatAt(c, at.scalars + 1));
  NNRT_ASSIGN_OR_RETURN(setup.projClip, floatAt(c, at.scalars + 2));
  return setup;
}

// The final states of an LSTM run over a sequence (in the call's scratch memory).
struct LstmStates {
  const float* output = nullptr;
  const float* cell = nullptr;
};

// One LSTM direction over a time-major sequence x [maxTime, batch, inputSize] from the states hIn and
// cIn, from the last step to the first when `reverse`: the LSTM step once per time step, its output
// for step t at y + t * batch * outputSize.
LstmStates lstmDirection(const KernelCall& c, const LstmSetup& s, const float* x, const float* hIn,
                         const float* cIn, uint32_t maxTime, bool reverse, float* y) {
  const size_t hSize = s.d.batch * s.d.outputSize, cSize = s.d.batch * s.d.numUnits;
  const size_t gateCount = s.cifg ? 3 : 4, stepValues = cSize * gateCount;
  auto* gates = static_cast<float*>(c.scratch.allocate(stepValues * sizeof(float)));
  auto* states = static_cast<float*>(c.scratch.allocate(2 * (hSize + cSize) * sizeof(float)));
  // The input pre-activations of up to kBlock steps at a time, one matrix product per gate.
  constexpr uint32_t kBlock = 64;
  const uint32_t block = std::min(maxTime, kBlock);
  auto* preactivations = static_cast<float*>(c.scratch.allocate(size_t{block} * stepValues * sizeof(float)));
  LstmStates previous{hIn, cIn};
  for (uint32_t done = 0; done < maxTime; done += block) {
    // The next `count` steps are [first, first + count) in time, run forwards or backwards.
    const uint32_t count = std::min(block, maxTime - done);
    const uint32_t first = reverse ? maxTime - done - count : done;
    lstmInputPreactivations(x + size_t{first} * s.d.batch * s.d.inputSize, size_t{count} * s.d.batch, s.w, s.d,
                            preactivations);
    for (uint32_t k = 0; k < count; ++k) {
      const uint32_t t = reverse ? first + count - 1 - k : first + k;
      float* hNext = states + ((done + k) % 2) * (hSize + cSize);
      float* cNext = hNext + hSize;
      lstm(x + size_t{t} * s.d.batch * s.d.inputSize, s.w, s.d, previous.output, previous.cell, s.act,
           s.cellClip, s.projClip, gates, hNext, cNext, y + size_t{t} * hSize,
           preactivations + size_t{t - first} * stepValues);
      previous = {hNext, cNext};
    }
  }
  return previous;
}

Result<void> lstmFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const uint32_t batch, dim2(c, 0, 0));
  NNRT_ASSIGN_OR_RETURN(const uint32_t inputSize, dim2(c, 0, 1));
  NNRT_ASSIGN_OR_RETURN(const LstmSetup s, lstmSetup(c, batch, inputSize, LstmLayout{}));
  const size_t n = s.d.numUnits, outputSize = s.d.outputSize;
  NNRT_RETURN_IF_ERROR(expectOutput(c, 0, size_t{batch} * n * (s.cifg ? 3 : 4)));
  NNRT_RETURN_IF_ERROR(expectOutput(c, 1, size_t{batch} * outputSize));
  NNRT_RETURN_IF_ERROR(expectOutput(c, 2, size_t{batch} * n));
  NNRT_RETURN_IF_ERROR(expectOutput(c, 3, size_t{batch} * outputSize));
  lstm(input<float>(c, 0), s.w, s.d, input<float>(c, 18), input<float>(c, 19), s.act, s.cellClip, s.projClip,
       output<float>(c, 0), output<float>(c, 1), output<float>(c, 2), output<float>(c, 3));
  return {};
}

// UNIDIRECTIONAL_SEQUENCE_LSTM: input [maxTime, batch, inputSize] (time_major, input 23) or
// [batch, maxTime, inputSize]; output 0 likewise with outputSize; outputs 1 and 2 (feature level 4,
// optional) the final output and cell states. The LSTM step once per time step, time-major.
Result<void> sequenceLstmFloat(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  if (in.rank() != 3) return driver::invalidArgument(label(c, 0) + " must be 3-D");
  NNRT_ASSIGN_OR_RETURN(const bool timeMajor, boolValue(c, 23, "time_major"));
  const uint32_t maxTime = timeMajor ? in.dims[0] : in.dims[1];
  const uint32_t batch = timeMajor ? in.dims[1] : in.dims[0];
  const uint32_t inputSize = in.dims[2];
  NNRT_ASSIGN_OR_RETURN(const LstmSetup s, lstmSetup(c, batch, inputSize, LstmLayout{.layerNorm = 24}));
  const size_t n = s.d.numUnits, outputSize = s.d.outputSize;
  NNRT_RETURN_IF_ERROR(expectOutput(c, 0, size_t{maxTime} * batch * outputSize));
  if (c.op.outputs.size() >= 3) {
    NNRT_RETURN_IF_ERROR(expectOutput(c, 1, size_t{batch} * outputSize));
    NNRT_RETURN_IF_ERROR(expectOutput(c, 2, size_t{batch} * n));
  }

  static constexpr std::array<uint32_t, 3> kSwapFirstTwo{1, 0, 2};
  const float* x = input<float>(c, 0);
  float* y = output<float>(c, 0);
  if (!timeMajor) {
    auto* timeMajorInput = static_cast<float*>(c.scratch.allocate(elementsOf(in) * sizeof(float)));
    transpose(x, shapeOf(in), kSwapFirstTwo, sizeof(float), timeMajorInput);
    x = timeMajorInput;
    y = static_cast<float*>(c.scratch.allocate(size_t{maxTime} * batch * outputSize * sizeof(float)));
  }
  const LstmStates last = lstmDirection(c, s, x, input<float>(c, 18), input<float>(c, 19), maxTime, false, y);
  if (!timeMajor)
    transpose(y, Shape{{maxTime, batch, static_cast<uint32_t>(outputSize)}}, kSwapFirstTwo, sizeof(float),
              output<float>(c, 0));
  if (c.op.outputs.size() >= 3) {
    std::copy(last.output, last.output + size_t{batch} * outputSize, output<float>(c, 1));
    std::copy(last.cell, last.cell + size_t{batch} * n, output<float>(c, 2));
  }
  return {};
}

// ---- BIDIRECTIONAL_SEQUENCE_LSTM ---------------------------------------------------------------------

// The gate tensors of the two cells: the forward ones from input 1, the backward ones from input 18;
// their states, aux weights and layer normalization weights where NNAPI puts them.
constexpr LstmLayout kForwardLstm{.weights = 1, .states = 35, .scalars = 48, .layerNorm = 53};
constexpr LstmLayout kBackwardLstm{.weights = 18, .states = 37, .scalars = 48, .layerNorm = 57};
constexpr size_t kAuxInput = 39, kForwardAuxWeights = 40, kBackwardAuxWeights = 44;

// Cross linking: a cell's four aux weights (aux input to input, forget, cell, output gate, from
// input `first`; the input gate's absent with CIFG) are joined to its input weights, so that the
// cell's step over the input and aux input side by side adds aux weights x aux input to each gate.
Result<void> joinAuxWeights(const KernelCall& c, size_t first, uint32_t auxSize, LstmSetup& s) {
  const size_t n = s.d.numUnits, inputSize = s.d.inputSize, width = inputSize + auxSize;
  const float** gates[] = {&s.w.inputToInput, &s.w.inputToForget, &s.w.inputToCell, &s.w.inputToOutput};
  for (size_t k = 0; k < 4; ++k) {
    const float* aux = optionalInput(c, first + k);
    if ((aux == nullptr) != (k == 0 && s.cifg)) {
      return driver::invalidArgument(label(c, first + k) + (k == 0 && s.cifg
                                                                ? " must be absent with CIFG"
                                                                : " is needed with the aux input "
                                                                  "and the other aux weights"));
    }
    if (aux == nullptr) continue;
    NNRT_RETURN_IF_ERROR(expectCount(c, first + k, n * auxSize));
    auto* joined = static_cast<float*>(c.scratch.allocate(n * width * sizeof(float)));
    sideBySide(*gates[k], inputSize, aux, auxSize, n, joined);
    *gates[k] = joined;
  }
  s.d.inputSize = width;
  return {};
}

// Inputs: 0 input; 1..17 and 18..34 the forward and backward cells' gate tensors (as LSTM's 1..17);
// 35..38 the forward output and cell states, then the backward ones; 39 aux input; 40..43 and 44..47
// the forward and backward aux weights; 48..50 activation, cell_clip, proj_clip; 51 merge_outputs;
// 52 time_major; 53..56 and 57..60 the layer normalization weights. Linking as NNAPI defines it: no
// aux tensors; the aux input alone (the backward cell's input); the aux input and aux weights (each
// cell adds its aux weights x aux input). Outputs: the forward output, with the backward one after it
// on the last dimension when merged or as output 1; then (feature level 4) the final forward output
// and cell states and the backward ones.
Result<void> bidirectionalSequenceLstmFloat(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  if (in.rank() != 3) return driver::invalidArgument(label(c, 0) + " must be 3-D");
  NNRT_ASSIGN_OR_RETURN(const bool merge, boolValue(c, 51, "merge_outputs"));
  NNRT_ASSIGN_OR_RETURN(const bool timeMajor, boolValue(c, 52, "time_major"));
  const size_t outputs = c.op.outputs.size();
  if (merge ? (outputs != 1 && outputs != 5) : (outputs != 2 && outputs != 6)) {
    return driver::invalidArgument(
        label(c, 51) + " (merge_outputs) is " +
        (merge ? "true: the operation takes 1 or 5 outputs" : "false: the operation takes 2 or 6 outputs") +
        ", not " + std::to_string(outputs));
  }
  const uint32_t maxTime = timeMajor ? in.dims[0] : in.dims[1];
  const uint32_t batch = timeMajor ? in.dims[1] : in.dims[0];
  const uint32_t inputSize = in.dims[2];
  const size_t steps = size_t{maxTime} * batch;

  const float* aux = optionalInput(c, kAuxInput);
  const Arg& auxArg = c.op.inputs[kAuxInput];
  bool auxWeights = false;
  for (size_t i = kForwardAuxWeights; i < kBackwardAuxWeights + 4; ++i)
    auxWeights = auxWeights || optionalInput(c, i) != nullptr;
  if (auxWeights && aux == nullptr)
    return driver::invalidArgument(label(c, kAuxInput) +
                                   " (aux_input) is needed with the aux weights (40..47)");
  const bool parallel = aux != nullptr && !auxWeights;
  const uint32_t auxSize = aux != nullptr && auxArg.rank() == 3 ? auxArg.dims[2] : 0;
  if (aux != nullptr && (auxArg.rank() != 3 || auxArg.dims[0] != in.dims[0] || auxArg.dims[1] != in.dims[1]))
    return driver::invalidArgument(label(c, kAuxInput) + " must have input 0's first two dimensions");

  NNRT_ASSIGN_OR_RETURN(LstmSetup fw, lstmSetup(c, batch, inputSize, kForwardLstm));
  NNRT_ASSIGN_OR_RETURN(LstmSetup bw, lstmSetup(c, batch, parallel ? auxSize : inputSize, kBackwardLstm));
  const size_t fwOut = fw.d.outputSize, bwOut = bw.d.outputSize;
  NNRT_RETURN_IF_ERROR(expectOutput(c, 0, steps * (merge ? fwOut + bwOut : fwOut)));
  if (!merge) NNRT_RETURN_IF_ERROR(expectOutput(c, 1, steps * bwOut));
  const size_t stateAt = merge ? 1 : 2;
  const bool states = outputs >= 5;
  if (states) {
    NNRT_RETURN_IF_ERROR(expectOutput(c, stateAt, size_t{batch} * fwOut));
    NNRT_RETURN_IF_ERROR(expectOutput(c, stateAt + 1, size_t{batch} * fw.d.numUnits));
    NNRT_RETURN_IF_ERROR(expectOutput(c, stateAt + 2, size_t{batch} * bwOut));
    NNRT_RETURN_IF_ERROR(expectOutput(c, stateAt + 3, size_t{batch} * bw.d.numUnits));
  }

  // Each cell's input sequence, time-major.
  const float* x = timeMajorSequence(c, input<float>(c, 0), in, timeMajor);
  if (aux != nullptr) aux = timeMajorSequence(c, aux, auxArg, timeMajor);
  const float* fwX = x;
  const float* bwX = parallel ? aux : x;
  if (aux != nullptr && !parallel) {
    NNRT_RETURN_IF_ERROR(joinAuxWeights(c, kForwardAuxWeights, auxSize, fw));
    NNRT_RETURN_IF_ERROR(joinAuxWeights(c, kBackwardAuxWeights, auxSize, bw));
    auto* joined = static_cast<float*>(c.scratch.allocate(steps * (inputSize + auxSize) * sizeof(float)));
    sideBySide(x, inputSize, aux, auxSize, steps, joined);
    fwX = bwX = joined;
  }
  auto* fwY = static_cast<float*>(c.scratch.allocate(steps * fwOut * sizeof(float)));
  auto* bwY = static_cast<float*>(c.scratch.allocate(steps * bwOut * sizeof(float)));
  const LstmStates fwLast =
      lstmDirection(c, fw, fwX, input<float>(c, 35), input<float>(c, 36), maxTime, false, fwY);
  const LstmStates bwLast =
      lstmDirection(c, bw, bwX, input<float>(c, 37), input<float>(c, 38), maxTime, true, bwY);
  writeBidirectionalOutputs(c, fwY, fwOut, bwY, bwOut, maxTime, batch, timeMajor, merge);
  if (states) {
    std::copy(fwLast.output, fwLast.output + size_t{batch} * fwOut, output<float>(c, stateAt));
    std::copy(fwLast.cell, fwLast.cell + size_t{batch} * fw.d.numUnits, output<float>(c, stateAt + 1));
    std::copy(bwLast.output, bwLast.output + size_t{batch} * bwOut, output<float>(c, stateAt + 2));
    std::copy(bwLast.cell, bwLast.cell + size_t{batch} * bw.d.numUnits, output<float>(c, stateAt + 3));
  }
  return {};
}

// ---- Limits ------------------------------------------------------------------------------------------

// The activation code at `index`, when known, is one the kernels have.
std::string activationLimit(const ops::OpArgs& op, size_t index) {
  if (index >= op.inputs.size()) return "";
  const Arg& a = op.inputs[index];
  if (!ops::isType(a.type, OperandType::INT32) || a.data == nullptr || a.length < sizeof(int32_t)) return "";
  const int32_t code = a.scalar<int32_t>();
  if (isRecurrentActivation(code)) return "";
  return "activation " + std::to_string(code) + " is not one of 0 (none), 1 (relu), 2 (relu1), 3 (relu6), " +
         "4 (tanh) or 6 (sigmoid)";
}

std::string rnnLimit(const ops::OpArgs& op) {
  return activationLimit(op, 5);
}
std::string bidirectionalRnnLimit(const ops::OpArgs& op) {
  return activationLimit(op, 12);
}
std::string svdfLimit(const ops::OpArgs& op) {
  return activationLimit(op, 6);
}
std::string lstmLimit(const ops::OpArgs& op) {
  return activationLimit(op, 20);  // LSTM and UNIDIRECTIONAL_SEQUENCE_LSTM alike
}
std::string bidirectionalLstmLimit(const ops::OpArgs& op) {
  return activationLimit(op, 48);
}

using namespace table_names;

// KernelEntry::stepMatrices: RNN's input and recurrent weights (a sequence's steps multiply both);
// an LSTM's recurrent weights and projection, and the single-step LSTM's input weights (the sequences
// multiply the input by its weights for many steps at once, a matrix product); both directions'.
constexpr uint32_t kRnnMatrices[] = {1, 2};
constexpr uint32_t kBidirectionalRnnMatrices[] = {1, 2, 5, 6};
constexpr uint32_t kLstmMatrices[] = {1, 2, 3, 4, 5, 6, 7, 8, 16};
constexpr uint32_t kSequenceLstmMatrices[] = {5, 6, 7, 8, 16};
constexpr uint32_t kBidirectionalLstmMatrices[] = {5, 6, 7, 8, 16, 22, 23, 24, 25, 33};

const KernelEntry kRecurrentKernels[] = {
    {T::RNN, F32, noParams, rnnFloat, rnnLimit, false, false, false, kRnnMatrices},
    {T::RNN, F16, noParams, viaFloat32<rnnFloat>, rnnLimit},
    {T::UNIDIRECTIONAL_SEQUENCE_RNN, F32, noParams, sequenceRnnFloat, rnnLimit, false, false, false, kRnnMatrices},
    {T::UNIDIRECTIONAL_SEQUENCE_RNN, F16, noParams, viaFloat32<sequenceRnnFloat>, rnnLimit},
    {T::BIDIRECTIONAL_SEQUENCE_RNN, F32, noParams, bidirectionalSequenceRnnFloat, bidirectionalRnnLimit, false, false,
     false, kBidirectionalRnnMatrices},
    {T::BIDIRECTIONAL_SEQUENCE_RNN, F16, noParams, viaFloat32<bidirectionalSequenceRnnFloat>,
     bidirectionalRnnLimit},
    {T::SVDF, F32, noParams, svdfFloat, svdfLimit},
    {T::SVDF, F16, noParams, viaFloat32<svdfFloat>, svdfLimit},
    {T::LSTM, F32, noParams, lstmFloat, lstmLimit, false, false, false, kLstmMatrices},
    {T::LSTM, F16, noParams, viaFloat32<lstmFloat>, lstmLimit},
    {T::UNIDIRECTIONAL_SEQUENCE_LSTM, F32, noParams, sequenceLstmFloat, lstmLimit, false, false, false,
     kSequenceLstmMatrices},
    {T::UNIDIRECTIONAL_SEQUENCE_LSTM, F16, noParams, viaFloat32<sequenceLstmFloat>, lstmLimit},
    {T::BIDIRECTIONAL_SEQUENCE_LSTM, F32, noParams, bidirectionalSequenceLstmFloat, bidirectionalLstmLimit, false,
     false, false, kBidirectionalLstmMatrices},
    {T::BIDIRECTIONAL_SEQUENCE_LSTM, F16, noParams, viaFloat32<bidirectionalSequenceLstmFloat>,
     bidirectionalLstmLimit},
};

}  // namespace

std::span<const KernelEntry> recurrentKernels() {
  return kRecurrentKernels;
}

}  // namespace nnrt::cpu
