// RELU, RELU1, RELU6, LOGISTIC, TANH and SOFTMAX: one tensor in, one tensor of the same shape out.
#include "ops_common.hpp"
#include "ops_families.hpp"

namespace nnrt::ops::detail {

namespace {

using OT = OperandType;

// The types every activation takes, the tensor up to rank 4, and an output of the same type.
Result<void> checkActivationTensor(const OpArgs& op, uint32_t minRank) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "", kDataTypes));
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "", minRank, kMaxRank));
  return checkOutputType(op, 0);
}

}  // namespace

Result<void> validateRelu(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkActivationTensor(op, 1));
  return checkSameQuantization(op, 0, 0);
}

Result<void> validateLogistic(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkActivationTensor(op, 1));
  return checkFixedOutputQuantization(op, 0, 1.0f / 256, 0, -128);
}

Result<void> validateTanh(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkActivationTensor(op, 1));
  return checkFixedOutputQuantization(op, 0, 1.0f / 128, 128, 0);
}

Result<void> validateSoftmax(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkActivationTensor(op, 1));
  // beta is FLOAT16 for a TENSOR_FLOAT16 input and FLOAT32 otherwise.
  const bool half = isType(op.inputs[0].type, OT::TENSOR_FLOAT16);
  NNRT_RETURN_IF_ERROR(checkScalar(op, 1, "beta", half ? OT::FLOAT16 : OT::FLOAT32));
  if (auto beta = knownFloat(op.inputs[1]); beta && !(*beta > 0)) {
    return inputError(op, 1, "beta", "must be > 0, not " + formatFloat(*beta));
  }
  NNRT_RETURN_IF_ERROR(checkOptionalScalar(op, 2, "axis", OT::INT32));
  if (isPresent(op, 2)) {
    const uint32_t rank = op.inputs[0].rank();
    if (auto axis = knownInt32(op.inputs[2]); axis && rank > 0 && !normalizeAxis(*axis, rank)) {
      return axisError(op, 2, "axis", *axis, rank);
    }
  }
  return checkFixedOutputQuantization(op, 0, 1.0f / 256, 0, -128);
}

}  // namespace nnrt::ops::detail
