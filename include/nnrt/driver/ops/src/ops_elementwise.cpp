// ADD, SUB, MUL, DIV: two tensors of one type with NumPy-style broadcasting and a FuseCode; FLOOR.
#include "ops_common.hpp"
#include "ops_families.hpp"

namespace nnrt::ops::detail {

using OT = OperandType;

namespace {

bool isOp(const OpArgs& op, OperationType type) {
  return op.type == static_cast<int32_t>(type);
}

}  // namespace

// Feature levels: ADD and MUL since 1, SUB and DIV since 2; TENSOR_FLOAT16 at 3; quantized SUB at 3;
// TENSOR_QUANT8_ASYMM_SIGNED and TENSOR_INT32 at 4. DIV has no TENSOR_QUANT8_ASYMM form. Android
// builds a DIV of TENSOR_QUANT8_ASYMM_SIGNED (its type check lets it through) but no implementation
// runs one, so Check::Full refuses it.
Result<void> validateBinary(const OpArgs& op) {
  const bool div = isOp(op, OperationType::DIV);
  const bool sub = isOp(op, OperationType::SUB);
  const bool mul = isOp(op, OperationType::MUL);
  if (div || sub) op.needs(2);
  if (div) {
    NNRT_RETURN_IF_ERROR(checkInputType(
        op, 0, "", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_INT32}));
  } else {
    NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "",
                                        {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_QUANT8_ASYMM,
                                         OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_INT32}));
  }
  const int32_t type = op.inputs[0].type;
  if (isType(type, OT::TENSOR_FLOAT16)) {
    op.needs(3);
  } else if (isType(type, OT::TENSOR_QUANT8_ASYMM)) {
    if (sub) op.needs(3);
  } else if (isType(type, OT::TENSOR_QUANT8_ASYMM_SIGNED) || isType(type, OT::TENSOR_INT32)) {
    op.needs(4);
  }
  NNRT_RETURN_IF_ERROR(checkSameType(op, 1, "", 0));
  // Android checks the ranks when the model is built only if both are known; otherwise at preparation.
  if (ranksKnown(op, {0, 1}) || op.full()) {
    NNRT_RETURN_IF_ERROR(checkRank(op, 0, "", 1, kMaxRank));
    NNRT_RETURN_IF_ERROR(checkRank(op, 1, "", 1, kMaxRank));
  }
  NNRT_RETURN_IF_ERROR(checkFuseCode(op, 2));
  if (isType(type, OT::TENSOR_INT32)) {
    if (auto act = knownInt32(op.inputs[2]); act && *act != 0) {
      return inputError(op, 2, "activation",
                        "must be 0 (NONE) for TENSOR_INT32 tensors, not " + std::to_string(*act));
    }
  }
  NNRT_RETURN_IF_ERROR(checkOutputType(op, 0));
  // Quantized ADD and SUB may rescale freely; MUL needs output_scale > input1_scale * input2_scale,
  // which Android checks when the model is built (in float arithmetic, as here).
  if (mul && isQuantizedType(type)) {
    const float product = op.inputs[0].scale * op.inputs[1].scale;
    if (!(op.outputs[0].scale > product)) {
      return outputError(op, 0,
                         "scale " + formatFloat(op.outputs[0].scale) +
                             " must be greater than input 0 scale * input 1 scale = " + formatFloat(product));
    }
  }
  if (op.full() && div && isType(type, OT::TENSOR_QUANT8_ASYMM_SIGNED)) {
    return inputError(op, 0, "", "of type TENSOR_QUANT8_ASYMM_SIGNED has no DIV implementation");
  }
  return {};
}

Result<std::vector<Shape>> inferBinary(const OpArgs& op) {
  auto shape = broadcastShapes(op.inputs[0].dims, op.inputs[1].dims);
  if (!shape) return driver::invalidArgument(operationName(op.type) + ": " + shape.error().message);
  return std::vector<Shape>{std::move(*shape)};
}

// TENSOR_FLOAT32 since feature level 1, TENSOR_FLOAT16 since 3.
Result<void> validateFloor(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32}));
  if (isType(op.inputs[0].type, OT::TENSOR_FLOAT16)) op.needs(3);
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "", 1, kMaxRank));
  return checkOutputType(op, 0);
}

}  // namespace nnrt::ops::detail
