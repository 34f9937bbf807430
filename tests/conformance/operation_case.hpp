// The conformance suite's test cases: each one is a model of one operation in one input form
// (padding scheme, strides, dilation, layout, broadcasting, activation, data type, odd sizes), the
// data of its inputs and the outputs it must produce. Expected outputs are computed in double by the
// references of tests/support/reference_ops.hpp (or by hand for small cases), never by a driver.
//
// The cases live in cases_*.cpp, one file per operation family; allOperationCases() lists them all,
// each also in the forms Android's conformance runs (relaxed float32, float32 as float16, quant8 as
// quant8 signed, constants fed as inputs, inputs written by an ADD first, outputs of unknown shape):
// the operation under test is the model's last.
// Some cases are valid NNAPI that not every driver implements (TENSOR_FLOAT16, TENSOR_INT32
// element-wise, per-channel quantized filters, ...): each plugin's instantiation lists the ones it
// leaves unsupported (see conformance_suite.hpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "support/tensor_data.hpp"
#include "support/test_model.hpp"

namespace nnrt::test::conformance {

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto F16 = OperandType::TENSOR_FLOAT16;
constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto Q8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr auto Q8S = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
constexpr auto Q8C = OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL;

// Values as a tensor of `type` stores them: reals for float types, the stored integers for quantized
// and integer types.
struct TensorValues {
  OperandType type = F32;
  std::vector<uint32_t> dims;
  std::vector<double> values;
};

// An output and what it must hold: |got - want| <= absTolerance + relTolerance * |want| for every
// element. Defaults by type (see CaseBuilder::output): TENSOR_FLOAT32 1e-5 + 1e-5 relative;
// TENSOR_FLOAT16 1e-2 + 1e-2 relative (11 significant bits, and a driver may compute in half);
// quantized types 1 step; TENSOR_INT32 exact.
struct ExpectedOutput {
  TensorValues expected;
  double absTolerance = 0.0;
  double relTolerance = 0.0;
};

struct OperationCase {
  std::string name;  // unique, [a-z0-9_]: the GoogleTest parameter name
  std::string family;  // the cases_<family>.cpp it comes from (set by allOperationCases)
  TestModel model;   // one operation; its inputs in model-input order
  std::vector<TensorValues> inputs;
  std::vector<ExpectedOutput> outputs;
  // For a copy of another case in another form (relaxComputationFloat32toFloat16 set with NNAPI's
  // relaxed tolerance, constants fed as inputs, outputs of unknown shape): the name of the case it
  // copies, whose expectations and support it shares. Empty otherwise.
  std::string relaxedOf{};
};

// Builds an OperationCase: declare the inputs (model inputs with data, constants, scalars) and the
// outputs with their expected values, then build() adds the operation.
class CaseBuilder {
 public:
  CaseBuilder(std::string name, OperationType operation) : name_(std::move(name)), operation_(operation) {}

  // A model input holding `values`; returns the operand index.
  uint32_t input(OperandType type, std::vector<uint32_t> dims, std::vector<double> values, float scale = 0.0f,
                 int32_t zeroPoint = 0);
  // A constant tensor holding `values` (large ones land in the model's memory pool).
  uint32_t constant(OperandType type, std::vector<uint32_t> dims, const std::vector<double>& values,
                    float scale = 0.0f, int32_t zeroPoint = 0);
  uint32_t int32(int32_t value) { return model_.addInt32(value); }
  uint32_t float32(float value) { return model_.addFloat32(value); }
  uint32_t float16(float value) { return model_.addFloat16(value); }
  uint32_t boolean(bool value) { return model_.addBool(value); }
  uint32_t int32Tensor(const std::vector<int32_t>& values, std::vector<uint32_t> dims = {}) {
    return model_.addInt32Tensor(values, std::move(dims));
  }
  uint32_t omitted(OperandType type) { return model_.addOmitted(type); }
  // The model output and the values it must hold, with the default tolerance of its type.
  uint32_t output(OperandType type, std::vector<uint32_t> dims, std::vector<double> expected,
                  float scale = 0.0f, int32_t zeroPoint = 0);
  // An output whose shape the operation's data decides (the boxes BOX_WITH_NMS_LIMIT keeps): the
  // model declares `declared` (0 where unknown), the execution must report `dims`.
  uint32_t dataShapedOutput(OperandType type, std::vector<uint32_t> declared, std::vector<uint32_t> dims,
                            std::vector<double> expected, float scale = 0.0f, int32_t zeroPoint = 0);
  // Replaces the tolerance of the last output (say why where it is used).
  CaseBuilder& tolerance(double absolute, double relative);
  TestModel& model() { return model_; }

  // Adds the operation (reading `operationInputs`, writing every output) and returns the case.
  OperationCase build(std::vector<uint32_t> operationInputs);

 private:
  std::string name_;
  OperationType operation_;
  TestModel model_;
  std::vector<TensorValues> inputs_;
  std::vector<ExpectedOutput> outputs_;
  std::vector<uint32_t> outputOperands_;
};

// Fails the running test (naming the first five elements) where `got`, the values output `output` holds,
// are further from `want` than its tolerance.
void expectValues(const std::vector<double>& got, const ExpectedOutput& want, size_t output);

// ---- Data helpers for the case files ----

// n seeded uniform values in [lo, hi] as `type` stores them (rounded to float32 or half).
std::vector<double> randomValues(OperandType type, size_t n, uint32_t seed, double lo = -1.0,
                                 double hi = 1.0);
// n seeded stored integers of a quantized type, uniform over [lo, hi].
std::vector<double> randomQuant(size_t n, uint32_t seed, int lo = 0, int hi = 255);
// The type as case names spell it: float, float16, int32, quant8, quant8_signed, bool8.
std::string typeSuffix(OperandType type);
// TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED, and their stored range (0..255, -128..127).
bool isQuant8(OperandType type);
double quant8Lowest(OperandType type);
double quant8Highest(OperandType type);
// The data-movement families (tensor, tensor2): one quantization per type (none for float and int32
// types), which their outputs share, and random data as each type stores it (reals for float types,
// stored integers otherwise).
struct MoveQuant {
  float scale = 0.0f;
  int32_t zeroPoint = 0;
};
MoveQuant moveQuantFor(OperandType type);
std::vector<double> randomMoveData(OperandType type, size_t n, uint32_t seed);
// 0, 1, ..., n-1 scaled: hand-checkable data.
std::vector<double> iota(size_t n, double start = 1.0, double step = 1.0);

// ---- The cases, by family ----
std::vector<OperationCase> elementwiseCases();
std::vector<OperationCase> activationCases();
std::vector<OperationCase> convolutionCases();
std::vector<OperationCase> poolCases();
std::vector<OperationCase> shapeCases();
std::vector<OperationCase> tensorCases();     // space/depth/batch moves, slices, lookups
std::vector<OperationCase> imageCases();      // normalization, resizing, dequantization
std::vector<OperationCase> recurrentCases();  // RNN, SVDF, LSTM
std::vector<OperationCase> quantizedLstmCases();  // QUANTIZED_16BIT_LSTM, QUANTIZED_LSTM: cases_quantized_lstm.cpp, in recurrentCases
// QUANTIZED_LSTM models the cpu driver must refuse when executed, each with a text its error names
// (cases_quantized_lstm.cpp; run by cpu_quantized_lstm_test.cpp).
std::vector<std::pair<OperationCase, std::string>> quantizedLstmRefusedCases();
std::vector<OperationCase> mathCases();       // feature level 3 element-wise math, comparisons, logic, SELECT
std::vector<OperationCase> reduceCases();     // REDUCE_*, ARGMAX, ARGMIN
std::vector<OperationCase> nonlinearCases();  // PRELU, ELU, HARD_SWISH, POW, LOG_SOFTMAX, CAST, QUANTIZE, FILL
std::vector<OperationCase> tensor2Cases();    // slice, split, tile, gather, expand, pads, reverse, pack, shuffle
std::vector<OperationCase> conv2Cases();      // grouped/transpose conv, nearest resize, instance norm, batch matmul
std::vector<OperationCase> detectionCases();  // box transforms, NMS, proposals, ROI align/pooling, heatmap keypoints
std::vector<OperationCase> quantCases();      // per-channel filters, signed quant8 and int32 forms
std::vector<OperationCase> float16Cases();    // TENSOR_FLOAT16 forms of the wave-1 operations
std::vector<OperationCase> zeroSizedCases();  // operations reading a zero-sized tensor BOX_WITH_NMS_LIMIT and ROI_ALIGN made
// Every case, built once; names are unique.
const std::vector<OperationCase>& allOperationCases();

}  // namespace nnrt::test::conformance
