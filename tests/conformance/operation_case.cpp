#include "conformance/operation_case.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

namespace nnrt::test::conformance {
namespace {

bool isTensor(OperandType type) {
  switch (type) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_FLOAT16:
    case OperandType::TENSOR_INT32:
    case OperandType::TENSOR_BOOL8:
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
      return true;
    default:
      return false;
  }
}

}  // namespace

uint32_t CaseBuilder::input(OperandType type, std::vector<uint32_t> dims, std::vector<double> values,
                            float scale, int32_t zeroPoint) {
  const uint32_t index = model_.addInput(type, dims, scale, zeroPoint);
  inputs_.push_back({type, std::move(dims), std::move(values)});
  return index;
}

uint32_t CaseBuilder::constant(OperandType type, std::vector<uint32_t> dims,
                               const std::vector<double>& values, float scale, int32_t zeroPoint) {
  return model_.addConstant(type, std::move(dims), encode(type, values), scale, zeroPoint);
}

uint32_t CaseBuilder::output(OperandType type, std::vector<uint32_t> dims, std::vector<double> expected,
                             float scale, int32_t zeroPoint) {
  std::vector<uint32_t> declared = dims;  // not in the call: argument order is unspecified
  return dataShapedOutput(type, std::move(declared), std::move(dims), std::move(expected), scale, zeroPoint);
}

uint32_t CaseBuilder::dataShapedOutput(OperandType type, std::vector<uint32_t> declared, std::vector<uint32_t> dims,
                                       std::vector<double> expected, float scale, int32_t zeroPoint) {
  const uint32_t index = model_.addOutput(type, std::move(declared), scale, zeroPoint);
  ExpectedOutput out{{type, std::move(dims), std::move(expected)}};
  switch (type) {
    case F32:
      out.absTolerance = out.relTolerance = 1e-5;
      break;
    case F16:
      out.absTolerance = out.relTolerance = 1e-2;
      break;
    case I32:
    case OperandType::TENSOR_BOOL8:  // exact: 0 or 1
      break;
    default:  // quantized: one step
      out.absTolerance = 1.0;
      break;
  }
  outputs_.push_back(std::move(out));
  outputOperands_.push_back(index);
  return index;
}

CaseBuilder& CaseBuilder::tolerance(double absolute, double relative) {
  outputs_.back().absTolerance = absolute;
  outputs_.back().relTolerance = relative;
  return *this;
}

OperationCase CaseBuilder::build(std::vector<uint32_t> operationInputs) {
  model_.addOperation(operation_, std::move(operationInputs), outputOperands_);
  return OperationCase{name_, {}, model_, inputs_, outputs_};
}

std::vector<double> randomValues(OperandType type, size_t n, uint32_t seed, double lo, double hi) {
  return roundTrip(type, randomReals(n, lo, hi, seed));
}

std::vector<double> randomQuant(size_t n, uint32_t seed, int lo, int hi) {
  return randomIntegers(n, lo, hi, seed);
}

std::string typeSuffix(OperandType type) {
  if (type == F16) return "float16";
  if (type == I32) return "int32";
  if (type == Q8) return "quant8";
  if (type == Q8S) return "quant8_signed";
  if (type == OperandType::TENSOR_BOOL8) return "bool8";
  return "float";
}

bool isQuant8(OperandType type) {
  return type == Q8 || type == Q8S;
}
double quant8Lowest(OperandType type) {
  return type == Q8 ? 0 : -128;
}
double quant8Highest(OperandType type) {
  return type == Q8 ? 255 : 127;
}

MoveQuant moveQuantFor(OperandType type) {
  if (type == Q8) return {0.25f, 100};
  if (type == Q8S) return {0.5f, -7};
  return {};
}

std::vector<double> randomMoveData(OperandType type, size_t n, uint32_t seed) {
  if (type == Q8) return randomQuant(n, seed, 0, 255);
  if (type == Q8S) return randomQuant(n, seed, -128, 127);
  if (type == I32) return randomIntegers(n, -100000, 100000, seed);
  return randomValues(type, n, seed, -10.0, 10.0);
}

std::vector<double> iota(size_t n, double start, double step) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = start + step * static_cast<double>(i);
  return v;
}

const std::vector<OperationCase>& allOperationCases() {
  static const std::vector<OperationCase> cases = [] {
    std::vector<OperationCase> all;
    using Family = std::pair<const char*, std::vector<OperationCase> (*)()>;
    for (auto [family, casesOf] : {Family{"elementwise", elementwiseCases}, Family{"activation", activationCases},
                                   Family{"conv", convolutionCases}, Family{"pool", poolCases},
                                   Family{"shape", shapeCases}, Family{"tensor", tensorCases},
                                   Family{"quant", quantCases}, Family{"image", imageCases},
                                   Family{"recurrent", recurrentCases}, Family{"math", mathCases},
                                   Family{"reduce", reduceCases}, Family{"nonlinear", nonlinearCases},
                                   Family{"tensor2", tensor2Cases},
                                   Family{"conv2", conv2Cases}, Family{"detection", detectionCases},
                                   Family{"float16", float16Cases}, Family{"zero_sized", zeroSizedCases}}) {
      for (OperationCase& c : casesOf()) {
        c.family = family;
        all.push_back(std::move(c));
      }
    }
    // Every all-float32 case again with relaxComputationFloat32toFloat16: a driver may then compute
    // in float16 range and precision, so the tolerance widens to NNAPI's relaxed one (5 half-precision
    // ulps at 1.0: 5 * 2^-10, absolute and relative).
    const size_t base = all.size();
    for (size_t i = 0; i < base; ++i) {
      const OperationCase& c = all[i];
      auto float32 = [](const TensorValues& t) { return t.type == F32; };
      bool allFloat32 = std::all_of(c.inputs.begin(), c.inputs.end(), float32);
      for (const ExpectedOutput& o : c.outputs) allFloat32 = allFloat32 && float32(o.expected);
      if (!allFloat32 || c.outputs.empty()) continue;
      OperationCase relaxed = c;
      relaxed.name = c.name + "_relaxed";
      relaxed.relaxedOf = c.name;
      relaxed.model.setRelaxed(true);
      constexpr double kRelaxed = 5.0 / 1024.0;
      for (ExpectedOutput& o : relaxed.outputs) {
        if (o.absTolerance >= 1e300) continue;  // an output whose contents are undefined
        o.absTolerance = std::max(o.absTolerance, kRelaxed);
        o.relTolerance = std::max(o.relTolerance, kRelaxed);
      }
      all.push_back(std::move(relaxed));
    }
    // Three more forms of every case, as NNAPI allows any model and as Android's conformance runs
    // them: every constant tensor fed as a model input instead (weights, biases, shapes, paddings,
    // axes: the driver sees their values only when it runs), every input written by an operation
    // first, and every output declared with unknown dimensions (0, of the same rank), which the
    // driver must report.
    const size_t withRelaxed = all.size();
    all.reserve(4 * withRelaxed);  // `c` below stays valid while its copies are appended
    for (size_t i = 0; i < withRelaxed; ++i) {
      const OperationCase& c = all[i];
      if (!c.relaxedOf.empty() || c.outputs.empty()) continue;
      OperationCase asInputs = c;
      asInputs.name = c.name + "_all_inputs";
      asInputs.relaxedOf = c.name;
      for (uint32_t operand = 0; operand < c.model.operandCount(); ++operand) {
        const OperandType type = c.model.operandType(operand);
        if (!c.model.isConstant(operand) || !isTensor(type)) continue;
        const std::vector<uint8_t> bytes = asInputs.model.constantToInput(operand);
        asInputs.inputs.push_back({type, c.model.operandDims(operand), decode(type, bytes)});
      }
      if (asInputs.inputs.size() > c.inputs.size()) all.push_back(std::move(asInputs));

      // Every input ADDs a zero on its way in (Android's "all inputs as internal"): the operation then
      // reads temporaries another operation wrote.
      OperationCase internal = c;
      internal.name = c.name + "_internal";
      internal.relaxedOf = c.name;
      bool fed = false;
      for (uint32_t input : c.model.inputs()) {
        const OperandType type = c.model.operandType(input);
        const std::vector<uint32_t>& dims = c.model.operandDims(input);
        const bool addable = type == F32 || type == F16 || type == I32 || type == Q8 || type == Q8S;
        if (!addable || dims.empty() || dims.size() > 4 || std::count(dims.begin(), dims.end(), 0u) != 0) continue;
        internal.model.feedThroughAdd(input);
        fed = true;
      }
      if (fed) all.push_back(std::move(internal));

      OperationCase dynamic = c;
      dynamic.name = c.name + "_dynamic_output_shape";
      dynamic.relaxedOf = c.name;
      bool unknown = false;
      for (uint32_t output : c.model.outputs()) {
        const std::vector<uint32_t>& dims = c.model.operandDims(output);
        if (dims.empty() || std::count(dims.begin(), dims.end(), 0u) == static_cast<long>(dims.size())) continue;
        dynamic.model.setOperandDims(output, std::vector<uint32_t>(dims.size(), 0));
        unknown = true;
      }
      if (unknown) all.push_back(std::move(dynamic));
    }
    // Every case whose float tensors are all float32 again in float16: NNAPI has a float16 form of
    // every float32 one. The expected values are the float32 case's, at the float16 tolerance (1e-2
    // absolute and relative): inputs rounded to half precision move the results by about that. Not
    // for HASHTABLE_LOOKUP (no float16 values in NNAPI), nor where rounding the inputs moves a result
    // by a step (FLOOR near whole numbers, LSH_PROJECTION's signs).
    const std::set<int32_t> noFloat16Form{static_cast<int32_t>(OperationType::HASHTABLE_LOOKUP),
                                          static_cast<int32_t>(OperationType::FLOOR),
                                          static_cast<int32_t>(OperationType::LSH_PROJECTION)};
    std::set<std::string> existing;
    for (const OperationCase& c : all) existing.insert(c.name);
    const size_t withForms = all.size();
    for (size_t i = 0; i < withForms; ++i) {
      const OperationCase& c = all[i];
      if (!c.relaxedOf.empty() || c.outputs.empty() || c.model.relaxed() ||
          noFloat16Form.count(c.model.operationType(c.model.operationCount() - 1)) != 0)
        continue;
      bool float32 = false, float16 = false, float32Scalar = false, quantized = false;
      for (uint32_t operand = 0; operand < c.model.operandCount(); ++operand) {
        const OperandType type = c.model.operandType(operand);
        float32 = float32 || type == F32;
        float16 = float16 || type == F16 || type == OperandType::FLOAT16;
        float32Scalar = float32Scalar || type == OperandType::FLOAT32;
        quantized = quantized || isQuant8(type) || type == OperandType::TENSOR_QUANT16_ASYMM;
      }
      // (FLOAT32 scalars of an operation on quantized data stay FLOAT32: not this form.)
      if (!float32 || float16 || (float32Scalar && quantized)) continue;
      OperationCase half = c;
      half.name = c.name + "_as_float16";
      if (existing.count(half.name) != 0) continue;
      half.relaxedOf = c.name;
      half.model.convertFloat32ToFloat16();
      for (TensorValues& t : half.inputs)
        if (t.type == F32) t.type = F16;
      for (ExpectedOutput& o : half.outputs) {
        if (o.expected.type != F32) continue;
        o.expected.type = F16;
        if (o.absTolerance >= 1e300) continue;  // an output whose contents are undefined
        o.absTolerance = std::max(o.absTolerance, 1e-2);
        o.relTolerance = std::max(o.relTolerance, 1e-2);
      }
      all.push_back(std::move(half));
    }
    // Every case with TENSOR_QUANT8_ASYMM operands and no signed ones again with them all
    // TENSOR_QUANT8_ASYMM_SIGNED, the same real values 128 steps lower (Android's quantization
    // coupling): the results must be the same, 128 lower. Not for the operations NNAPI gives no signed
    // form (HASHTABLE_LOOKUP's values, LSH_PROJECTION's hashes, QUANTIZED_16BIT_LSTM, CAST but to its
    // own type), nor PAD_V2, whose pad value is a stored value in an INT32 scalar.
    const std::set<int32_t> noSignedForm{static_cast<int32_t>(OperationType::HASHTABLE_LOOKUP),
                                         static_cast<int32_t>(OperationType::LSH_PROJECTION),
                                         static_cast<int32_t>(OperationType::QUANTIZED_16BIT_LSTM),
                                         static_cast<int32_t>(OperationType::CAST),
                                         static_cast<int32_t>(OperationType::PAD_V2)};
    const size_t withFloat16 = all.size();
    for (size_t i = 0; i < withFloat16; ++i) {
      const OperationCase& c = all[i];
      if (!c.relaxedOf.empty() || c.outputs.empty() ||
          noSignedForm.count(c.model.operationType(c.model.operationCount() - 1)) != 0)
        continue;
      bool unsignedQuant = false, signedQuant = false;
      for (uint32_t operand = 0; operand < c.model.operandCount(); ++operand) {
        unsignedQuant = unsignedQuant || c.model.operandType(operand) == Q8;
        signedQuant = signedQuant || c.model.operandType(operand) == Q8S;
      }
      if (!unsignedQuant || signedQuant) continue;
      OperationCase coupled = c;
      coupled.name = c.name + "_as_signed";
      if (existing.count(coupled.name) != 0) continue;
      coupled.relaxedOf = c.name;
      coupled.model.convertQuant8ToSigned();
      auto shift = [](TensorValues& t) {
        if (t.type != Q8) return;
        t.type = Q8S;
        for (double& v : t.values) v -= 128;
      };
      for (TensorValues& t : coupled.inputs) shift(t);
      for (ExpectedOutput& o : coupled.outputs) shift(o.expected);
      all.push_back(std::move(coupled));
    }
    std::set<std::string> names;
    for (const OperationCase& c : all) {
      if (!names.insert(c.name).second) throw std::logic_error("two conformance cases are named " + c.name);
    }
    return all;
  }();
  return cases;
}

void expectValues(const std::vector<double>& got, const ExpectedOutput& want, size_t output) {
  const std::vector<double>& expected = want.expected.values;
  ASSERT_EQ(got.size(), expected.size()) << "output " << output << " element count";
  size_t failures = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double tolerance = want.absTolerance + want.relTolerance * std::fabs(expected[i]);
    if (std::fabs(got[i] - expected[i]) <= tolerance) continue;  // false for NaN
    if (failures++ < 5) {
      ADD_FAILURE() << "output " << output << " element " << i << ": got " << got[i] << ", want "
                    << expected[i] << " (tolerance " << tolerance << ")";
    }
  }
  EXPECT_EQ(failures, 0u) << "mismatches in output " << output << " of " << got.size() << " elements";
}

}  // namespace nnrt::test::conformance
