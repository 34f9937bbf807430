// RELU, RELU1, RELU6, LOGISTIC, TANH and SOFTMAX: one tensor in, one tensor of the same shape out.
//
// Feature levels: TENSOR_FLOAT32 and TENSOR_QUANT8_ASYMM since 1 (a quantized TANH since 3),
// TENSOR_FLOAT16 since 3, TENSOR_QUANT8_ASYMM_SIGNED since 4. The output quantization (kept from the
// input, or fixed by the operation) is checked at preparation, so only at Check::Full.
#include "ops_common.hpp"
#include "ops_families.hpp"

namespace nnrt::ops::detail {

namespace {

using OT = OperandType;

// The types every activation takes, a known rank up to 4, and an output of the same type.
Result<void> checkActivationTensor(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "", kDataTypes));
  const int32_t type = op.inputs[0].type;
  if (isType(type, OT::TENSOR_FLOAT16)) op.needs(3);
  if (isType(type, OT::TENSOR_QUANT8_ASYMM_SIGNED)) op.needs(4);
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "", 1, kMaxRank));
  return checkOutputType(op, 0);
}

}  // namespace

Result<void> validateRelu(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkActivationTensor(op));
  return op.full() ? checkSameQuantization(op, 0, 0) : Result<void>{};
}

Result<void> validateLogistic(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkActivationTensor(op));
  return op.full() ? checkFixedOutputQuantization(op, 0, 1.0f / 256, 0, -128) : Result<void>{};
}

Result<void> validateTanh(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkActivationTensor(op));
  if (isType(op.inputs[0].type, OT::TENSOR_QUANT8_ASYMM)) op.needs(3);
  return op.full() ? checkFixedOutputQuantization(op, 0, 1.0f / 128, 128, 0) : Result<void>{};
}

// The axis input is new at feature level 3, and so is a 2-input SOFTMAX of a known rank other than
// 2 or 4.
Result<void> validateSoftmax(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkActivationTensor(op));
  const uint32_t rank = op.inputs[0].rank();
  // beta is FLOAT16 for a TENSOR_FLOAT16 input and FLOAT32 otherwise.
  const bool half = isType(op.inputs[0].type, OT::TENSOR_FLOAT16);
  NNRT_RETURN_IF_ERROR(checkScalar(op, 1, "beta", half ? OT::FLOAT16 : OT::FLOAT32));
  if (auto beta = knownFloat(op.inputs[1]); beta && !(*beta > 0)) {
    return inputError(op, 1, "beta", "must be > 0, not " + formatFloat(*beta));
  }
  if (op.inputs.size() == 3) {
    op.needs(3);
    NNRT_RETURN_IF_ERROR(checkDeclaredType(op, 2, "axis", OT::INT32));
    if (auto axis = knownInt32(op.inputs[2]); axis && rank > 0 && !normalizeAxis(*axis, rank)) {
      return axisError(op, 2, "axis", *axis, rank);
    }
  } else if (rank != 0 && rank != 2 && rank != 4) {
    op.needs(3);
  }
  return op.full() ? checkFixedOutputQuantization(op, 0, 1.0f / 256, 0, -128) : Result<void>{};
}

}  // namespace nnrt::ops::detail
