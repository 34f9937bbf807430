// Signatures of element-wise math, comparisons, logic, casts and quantization:
// ABS, EXP, LOG, NEG, RSQRT, SIN, SQRT, ELU, HARD_SWISH, PRELU, POW, MAXIMUM, MINIMUM, the six
// comparisons, LOGICAL_AND, LOGICAL_OR, LOGICAL_NOT, SELECT, CAST, QUANTIZE, DEQUANTIZE, FILL, RANK.
// None of them checks a rank at model building except DEQUANTIZE (up to 4); the binary ones
// broadcast, which only preparation checks (the infer functions, at Check::Full).
#include <algorithm>

#include "ops_common.hpp"
#include "ops_families.hpp"

namespace nnrt::ops::detail {

namespace {

using OT = OperandType;
using T = OperationType;

constexpr Types kFloatTypes = {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32};
constexpr Types kFloatInt32Types = {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_INT32};
// MAXIMUM, MINIMUM and SELECT's data inputs.
constexpr Types kMinMaxTypes = {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_INT32,
                                OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_QUANT8_ASYMM_SIGNED};
constexpr Types kComparedTypes = {OT::TENSOR_BOOL8,       OT::TENSOR_FLOAT16,
                                  OT::TENSOR_FLOAT32,     OT::TENSOR_INT32,
                                  OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_QUANT8_ASYMM_SIGNED};
// CAST converts freely among these (feature level 3)...
constexpr Types kCastConvertible = {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_INT32,
                                    OT::TENSOR_QUANT8_ASYMM};
// ... and casts these only to themselves (feature level 4).
constexpr Types kCastIdentityOnly = {OT::TENSOR_BOOL8, OT::TENSOR_QUANT16_ASYMM, OT::TENSOR_QUANT16_SYMM,
                                     OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_QUANT8_SYMM};
constexpr Types kRankTypes = {OT::TENSOR_FLOAT16,
                              OT::TENSOR_FLOAT32,
                              OT::TENSOR_INT32,
                              OT::TENSOR_QUANT8_ASYMM,
                              OT::TENSOR_QUANT16_SYMM,
                              OT::TENSOR_BOOL8,
                              OT::TENSOR_QUANT8_SYMM_PER_CHANNEL,
                              OT::TENSOR_QUANT16_ASYMM,
                              OT::TENSOR_QUANT8_SYMM,
                              OT::TENSOR_QUANT8_ASYMM_SIGNED};
constexpr Types kDequantizeInputs = {OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_QUANT8_ASYMM_SIGNED,
                                     OT::TENSOR_QUANT8_SYMM, OT::TENSOR_QUANT8_SYMM_PER_CHANNEL};
constexpr Types kQuantizeOutputs = {OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_QUANT8_ASYMM_SIGNED};
constexpr Types kFillOutputs = {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_INT32};

bool inputIs(const OpArgs& op, size_t index, OperandType type) {
  return isType(op.inputs[index].type, type);
}

// Output `index` is of one of `allowed`.
Result<void> checkOutputTypeIn(const OpArgs& op, size_t index, Types allowed) {
  const int32_t type = op.outputs[index].type;
  if (!typeIn(type, allowed)) {
    return outputError(op, index, "must be " + typeList(allowed) + ", not " + typeName(type));
  }
  return {};
}

// One tensor of `allowed` in, one tensor of its type out.
Result<void> checkUnary(const OpArgs& op, Types allowed) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", allowed));
  return checkOutputType(op, 0);
}

// Two tensors of one type from `allowed`, broadcast together.
Result<void> checkSameTypePair(const OpArgs& op, std::string_view name1, Types allowed) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", allowed));
  return checkSameType(op, 1, name1, 0);
}

// TENSOR_QUANT8_ASYMM_SIGNED came with feature level 4 where the rest came with 3.
void needsFor(const OpArgs& op, Types signedAt4) {
  op.needs(typeIn(op.inputs[0].type, signedAt4) ? 4 : 3);
}

// ---- Unary math ---------------------------------------------------------------------------------

// EXP, LOG, SIN, SQRT.
Result<void> validateFloatUnary(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkUnary(op, kFloatTypes));
  op.needs(3);
  return {};
}

Result<void> validateAbs(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkUnary(op, kFloatInt32Types));
  op.needs(inputIs(op, 0, OT::TENSOR_INT32) ? 4 : 3);
  return {};
}

Result<void> validateNeg(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkUnary(op, kFloatInt32Types));
  op.needs(3);
  return {};
}

Result<void> validateRsqrt(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkUnary(op, kDataTypes));
  op.needs(isQuantizedType(op.inputs[0].type) ? 7 : 3);
  return {};
}

Result<void> validateElu(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kFloatTypes));
  const bool half = inputIs(op, 0, OT::TENSOR_FLOAT16);
  NNRT_RETURN_IF_ERROR(checkScalar(op, 1, "alpha", half ? OT::FLOAT16 : OT::FLOAT32));
  NNRT_RETURN_IF_ERROR(checkOutputType(op, 0));
  op.needs(4);
  return {};
}

// The output scale and zero point may differ from the input's.
Result<void> validateHardSwish(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkUnary(op, kDataTypes));
  op.needs(4);
  return {};
}

// ---- Binary math (broadcasting) -----------------------------------------------------------------

Result<void> validatePrelu(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkSameTypePair(op, "alpha", kDataTypes));
  NNRT_RETURN_IF_ERROR(checkOutputType(op, 0));
  needsFor(op, {OT::TENSOR_QUANT8_ASYMM_SIGNED});
  return {};
}

Result<void> validatePow(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "base", kFloatTypes));
  NNRT_RETURN_IF_ERROR(checkSameType(op, 1, "exponent", 0));
  NNRT_RETURN_IF_ERROR(checkOutputType(op, 0));
  op.needs(3);
  return {};
}

// MAXIMUM, MINIMUM.
Result<void> validateMinMax(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkSameTypePair(op, "input", kMinMaxTypes));
  NNRT_RETURN_IF_ERROR(checkOutputType(op, 0));
  needsFor(op, {OT::TENSOR_QUANT8_ASYMM_SIGNED});
  return {};
}

// EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL, NOT_EQUAL.
Result<void> validateComparison(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkSameTypePair(op, "input", kComparedTypes));
  NNRT_RETURN_IF_ERROR(checkOutputTypeIn(op, 0, {OT::TENSOR_BOOL8}));
  needsFor(op, {OT::TENSOR_QUANT8_ASYMM_SIGNED});
  return {};
}

// LOGICAL_AND, LOGICAL_OR.
Result<void> validateLogicalBinary(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkSameTypePair(op, "input", {OT::TENSOR_BOOL8}));
  NNRT_RETURN_IF_ERROR(checkOutputType(op, 0));
  op.needs(3);
  return {};
}

Result<void> validateLogicalNot(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkUnary(op, {OT::TENSOR_BOOL8}));
  op.needs(3);
  return {};
}

Result<std::vector<Shape>> inferBroadcast(const OpArgs& op) {
  auto shape = broadcastShapes(op.inputs[0].dims, op.inputs[1].dims);
  if (!shape) return driver::invalidArgument(operationName(op.type) + ": " + shape.error().message);
  return std::vector<Shape>{std::move(*shape)};
}

// ---- SELECT -------------------------------------------------------------------------------------

// Every data type came with feature level 3 (TENSOR_QUANT8_ASYMM_SIGNED included: the operand
// type itself is what needs feature level 4).
Result<void> validateSelect(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "condition", {OT::TENSOR_BOOL8}));
  NNRT_RETURN_IF_ERROR(checkInputType(op, 1, "input1", kMinMaxTypes));
  NNRT_RETURN_IF_ERROR(checkSameType(op, 2, "input2", 1));
  const int32_t want = op.inputs[1].type;
  if (op.outputs[0].type != want) {
    return outputError(op, 0, "must be " + typeName(want) + " like input 1, not " + typeName(op.outputs[0].type));
  }
  op.needs(3);
  return {};
}

// The condition and both inputs have one shape (no broadcasting).
Result<std::vector<Shape>> inferSelect(const OpArgs& op) {
  Shape shape;
  size_t from = 0;
  for (size_t i = 0; i < 3; ++i) {
    const auto dims = op.inputs[i].dims;
    if (dims.empty()) continue;  // unknown rank
    if (shape.empty()) {
      shape = toShape(dims);
      from = i;
      continue;
    }
    bool same = dims.size() == shape.size();
    for (size_t d = 0; same && d < dims.size(); ++d) {
      if (shape[d] == 0) {
        shape[d] = dims[d];
      } else {
        same = dims[d] == 0 || dims[d] == shape[d];
      }
    }
    if (!same) {
      return inputError(op, i, "", "has shape " + shapeToString(dims) + ", but input " + std::to_string(from) +
                                       " has " + shapeToString(op.inputs[from].dims) +
                                       "; SELECT takes three tensors of one shape");
    }
  }
  return std::vector<Shape>{std::move(shape)};
}

// ---- CAST, QUANTIZE, DEQUANTIZE -----------------------------------------------------------------

Result<void> validateCast(const OpArgs& op) {
  const int32_t in = op.inputs[0].type;
  const int32_t out = op.outputs[0].type;
  if (typeIn(in, kCastConvertible)) {
    NNRT_RETURN_IF_ERROR(checkOutputTypeIn(op, 0, kCastConvertible));
    op.needs(3);
  } else if (typeIn(in, kCastIdentityOnly)) {
    if (out != in) {
      return outputError(op, 0,
                         "must be " + typeName(in) + " like input 0 (a " + typeName(in) +
                             " tensor casts only to its own type), not " + typeName(out));
    }
    op.needs(4);
  } else {
    return inputError(op, 0, "input",
                      "must be " + typeList(kCastConvertible) + ", or " + typeList(kCastIdentityOnly) +
                          " cast to itself, not " + typeName(in));
  }
  // Android compares the declared shapes when building the model: a fully specified output must
  // have exactly the input's dimensions (when the input's rank is known).
  const auto inDims = op.inputs[0].dims;
  const auto outDims = op.outputs[0].dims;
  if (!inDims.empty() && elementCount(outDims).value_or(0) != 0 &&
      !std::equal(inDims.begin(), inDims.end(), outDims.begin(), outDims.end())) {
    return outputError(op, 0,
                       "is declared " + shapeToString(outDims) + ", but input 0 is " + shapeToString(inDims) +
                           "; CAST keeps the shape");
  }
  return {};
}

Result<void> validateQuantize(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kFloatTypes));
  NNRT_RETURN_IF_ERROR(checkOutputTypeIn(op, 0, kQuantizeOutputs));
  op.needs(isType(op.outputs[0].type, OT::TENSOR_QUANT8_ASYMM_SIGNED) ? 4 : 3);
  return {};
}

// TENSOR_QUANT8_ASYMM to TENSOR_FLOAT32 is feature level 1; every other pair came with level 3.
Result<void> validateDequantize(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 1, kMaxRank));
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDequantizeInputs));
  NNRT_RETURN_IF_ERROR(checkOutputTypeIn(op, 0, kFloatTypes));
  const bool original = inputIs(op, 0, OT::TENSOR_QUANT8_ASYMM) && isType(op.outputs[0].type, OT::TENSOR_FLOAT32);
  op.needs(original ? 1 : 3);
  return {};
}

// ---- FILL, RANK ---------------------------------------------------------------------------------

// The output type decides the type of the value.
OperandType fillValueType(int32_t outputType) {
  if (isType(outputType, OT::TENSOR_FLOAT16)) return OT::FLOAT16;
  if (isType(outputType, OT::TENSOR_FLOAT32)) return OT::FLOAT32;
  return OT::INT32;
}

Result<void> validateFill(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkOutputTypeIn(op, 0, kFillOutputs));
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "dims", {OT::TENSOR_INT32}));
  NNRT_RETURN_IF_ERROR(checkScalar(op, 1, "value", fillValueType(op.outputs[0].type)));
  if (op.full()) {
    NNRT_RETURN_IF_ERROR(checkRank(op, 0, "dims", 1, 1));
    if (auto dims = knownInt32Tensor(op.inputs[0])) {
      for (size_t i = 0; i < dims->size(); ++i) {
        if ((*dims)[i] < 0) {
          return inputError(op, 0, "dims",
                            "must hold sizes >= 0, but element " + std::to_string(i) + " is " +
                                std::to_string((*dims)[i]));
        }
      }
    }
  }
  op.needs(4);
  return {};
}

// The output's rank is the length of `dims`; its sizes are the values of `dims` when known.
Result<std::vector<Shape>> inferFill(const OpArgs& op) {
  const Arg& dims = op.inputs[0];
  if (dims.rank() != 1) return std::vector<Shape>{Shape{}};
  if (auto values = knownInt32Tensor(dims)) {
    Shape shape;
    for (int32_t v : *values)
      shape.push_back(v > 0 ? static_cast<uint32_t>(v) : 0);
    return std::vector<Shape>{std::move(shape)};
  }
  return std::vector<Shape>{Shape(dims.dims[0], 0)};
}

Result<void> validateRank(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kRankTypes));
  NNRT_RETURN_IF_ERROR(checkOutputTypeIn(op, 0, {OT::INT32}));
  op.needs(4);
  return {};
}

const Signature kSignatures[] = {
    {T::ABS, bits({1}), 0, bits({1}), 0, 0, validateAbs, inferLikeInput0},
    {T::EXP, bits({1}), 0, bits({1}), 0, 0, validateFloatUnary, inferLikeInput0},
    {T::LOG, bits({1}), 0, bits({1}), 0, 0, validateFloatUnary, inferLikeInput0},
    {T::NEG, bits({1}), 0, bits({1}), 0, 0, validateNeg, inferLikeInput0},
    {T::RSQRT, bits({1}), 0, bits({1}), 0, 0, validateRsqrt, inferLikeInput0},
    {T::SIN, bits({1}), 0, bits({1}), 0, 0, validateFloatUnary, inferLikeInput0},
    {T::SQRT, bits({1}), 0, bits({1}), 0, 0, validateFloatUnary, inferLikeInput0},
    {T::ELU, bits({2}), 0, bits({1}), 0, 0, validateElu, inferLikeInput0},
    {T::HARD_SWISH, bits({1}), 0, bits({1}), 0, 0, validateHardSwish, inferLikeInput0},
    {T::PRELU, bits({2}), 0, bits({1}), 0, 0, validatePrelu, inferBroadcast},
    {T::POW, bits({2}), 0, bits({1}), 0, 0, validatePow, inferBroadcast},
    {T::MAXIMUM, bits({2}), 0, bits({1}), 0, 0, validateMinMax, inferBroadcast},
    {T::MINIMUM, bits({2}), 0, bits({1}), 0, 0, validateMinMax, inferBroadcast},
    {T::EQUAL, bits({2}), 0, bits({1}), 0, 0, validateComparison, inferBroadcast},
    {T::GREATER, bits({2}), 0, bits({1}), 0, 0, validateComparison, inferBroadcast},
    {T::GREATER_EQUAL, bits({2}), 0, bits({1}), 0, 0, validateComparison, inferBroadcast},
    {T::LESS, bits({2}), 0, bits({1}), 0, 0, validateComparison, inferBroadcast},
    {T::LESS_EQUAL, bits({2}), 0, bits({1}), 0, 0, validateComparison, inferBroadcast},
    {T::NOT_EQUAL, bits({2}), 0, bits({1}), 0, 0, validateComparison, inferBroadcast},
    {T::LOGICAL_AND, bits({2}), 0, bits({1}), 0, 0, validateLogicalBinary, inferBroadcast},
    {T::LOGICAL_OR, bits({2}), 0, bits({1}), 0, 0, validateLogicalBinary, inferBroadcast},
    {T::LOGICAL_NOT, bits({1}), 0, bits({1}), 0, 0, validateLogicalNot, inferLikeInput0},
    {T::SELECT, bits({3}), 0, bits({1}), 0, 0, validateSelect, inferSelect},
    {T::CAST, bits({1}), 0, bits({1}), 0, 0, validateCast, inferLikeInput0},
    {T::QUANTIZE, bits({1}), 0, bits({1}), 0, 0, validateQuantize, inferLikeInput0},
    {T::DEQUANTIZE, bits({1}), 0, bits({1}), 0, 0, validateDequantize, inferLikeInput0},
    {T::FILL, bits({2}), 0, bits({1}), 0, 0, validateFill, inferFill},
    {T::RANK, bits({1}), 0, bits({1}), 0, 0, validateRank, nullptr},
};

}  // namespace

std::span<const Signature> mathSignatures() {
  return kSignatures;
}

}  // namespace nnrt::ops::detail
