// ADD, SUB, MUL, DIV: two tensors of one type with NumPy-style broadcasting and a FuseCode; FLOOR.
#include "ops_common.hpp"
#include "ops_families.hpp"

namespace nnrt::ops::detail {

using OT = OperandType;

Result<void> validateBinary(const OpArgs& op) {
  // DIV has no quantized form.
  if (op.type == static_cast<int32_t>(OperationType::DIV)) {
    NNRT_RETURN_IF_ERROR(
        checkInputType(op, 0, "", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_INT32}));
  } else {
    NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "",
                                        {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_QUANT8_ASYMM,
                                         OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_INT32}));
  }
  NNRT_RETURN_IF_ERROR(checkSameType(op, 1, "", 0));
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "", 1, kMaxRank));
  NNRT_RETURN_IF_ERROR(checkRank(op, 1, "", 1, kMaxRank));
  NNRT_RETURN_IF_ERROR(checkFuseCode(op, 2));
  const int32_t type = op.inputs[0].type;
  if (isType(type, OT::TENSOR_INT32)) {
    if (auto act = knownInt32(op.inputs[2]); act && *act != 0) {
      return inputError(op, 2, "activation",
                        "must be 0 (NONE) for TENSOR_INT32 tensors, not " + std::to_string(*act));
    }
  }
  NNRT_RETURN_IF_ERROR(checkOutputType(op, 0));
  // Quantized ADD and SUB may rescale freely; MUL needs output_scale > input1_scale * input2_scale.
  if (op.type == static_cast<int32_t>(OperationType::MUL) && isQuantizedType(type)) {
    const double product = static_cast<double>(op.inputs[0].scale) * static_cast<double>(op.inputs[1].scale);
    if (!(static_cast<double>(op.outputs[0].scale) > product)) {
      return outputError(op, 0,
                         "scale " + formatFloat(op.outputs[0].scale) +
                             " must be greater than input 0 scale * input 1 scale = " +
                             formatFloat(static_cast<float>(product)));
    }
  }
  return {};
}

Result<std::vector<Shape>> inferBinary(const OpArgs& op) {
  auto shape = broadcastShapes(op.inputs[0].dims, op.inputs[1].dims);
  if (!shape) return driver::invalidArgument(operationName(op.type) + ": " + shape.error().message);
  return std::vector<Shape>{std::move(*shape)};
}

Result<void> validateFloor(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32}));
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "", 1, kMaxRank));
  return checkOutputType(op, 0);
}

}  // namespace nnrt::ops::detail
