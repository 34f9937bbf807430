// ONNX activations -> NNAPI: PRelu, LeakyRelu, Elu, HardSigmoid, Softsign, Softplus, Selu,
// ThresholdedRelu, Celu and Shrink.
#include "onnx/operators_common.hpp"

namespace nnrt::onnxfront {

Result<void> mapPrelu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(refuseQuantizedArithmetic(b, *x));
  NNRT_ASSIGN_OR_RETURN(const Value* slope, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(Dims dims, broadcastShape(b, x->dims, slope->dims));
  if (dims != x->dims) return b.refused("slope must broadcast to the input's shape");
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t s, b.operand(*slope));
  return b.emit(ANEURALNETWORKS_PRELU, {in, s}, x->type, x->dims);
}

Result<void> mapLeakyRelu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 0.01f));
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t s, b.constFloats({alpha}));
  return b.emit(ANEURALNETWORKS_PRELU, {in, s}, x->type, x->dims);
}

Result<void> mapElu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 1.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t s, b.scalarFloat(alpha));
  return b.emit(ANEURALNETWORKS_ELU, {in, s}, x->type, x->dims);
}

// HardSigmoid: max(0, min(1, alpha * x + beta)).
Result<void> mapHardSigmoid(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 0.2f));
  NNRT_ASSIGN_OR_RETURN(float beta, b.attrFloat("beta", 0.5f));
  Chain c(b, *x);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_MUL, alpha));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_ADD, beta));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_MINIMUM, 1.0f));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_MAXIMUM, 0.0f));
  c.finish();
  return {};
}

// Softsign: x / (1 + |x|).
Result<void> mapSoftsign(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  Chain c(b, *x);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  uint32_t in = c.current();
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_ABS));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_ADD, 1.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_RETURN_IF_ERROR(c.add(ANEURALNETWORKS_DIV, {in, c.current(), fuse}));
  c.finish();
  return {};
}

// Softplus: log(exp(x) + 1).
Result<void> mapSoftplus(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  Chain c(b, *x);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_EXP));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_ADD, 1.0f));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_LOG));
  c.finish();
  return {};
}

// Selu: gamma * (x > 0 ? x : alpha * (exp(x) - 1)) = gamma * ELU(x, alpha).
Result<void> mapSelu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 1.67326319217681884765625f));
  NNRT_ASSIGN_OR_RETURN(float gamma, b.attrFloat("gamma", 1.05070102214813232421875f));
  Chain c(b, *x);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t alphaOperand, b.scalarFloat(alpha));
  NNRT_RETURN_IF_ERROR(c.add(ANEURALNETWORKS_ELU, {c.current(), alphaOperand}));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_MUL, gamma));
  c.finish();
  return {};
}

// ThresholdedRelu: x > alpha ? x : 0.
Result<void> mapThresholdedRelu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 1.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t threshold, b.constFloats({alpha}));
  NNRT_ASSIGN_OR_RETURN(uint32_t above, apply(b, ANEURALNETWORKS_GREATER, {in, threshold},
                                              ANEURALNETWORKS_TENSOR_BOOL8, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeros, constFilled(b, x->type, x->dims, 0.0));
  return b.emit(ANEURALNETWORKS_SELECT, {above, in, zeros}, x->type, x->dims);
}

// Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
Result<void> mapCelu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 1.0f));
  Chain c(b, *x);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  uint32_t in = c.current();
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_DIV, alpha));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_EXP));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_SUB, 1.0f));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_MUL, alpha));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_MINIMUM, 0.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t positive, apply(b, ANEURALNETWORKS_RELU, {in}, x->type, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_RETURN_IF_ERROR(c.add(ANEURALNETWORKS_ADD, {positive, c.current(), fuse}));
  c.finish();
  return {};
}

// Shrink: x < -lambd ? x + bias : (x > lambd ? x - bias : 0).
Result<void> mapShrink(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(float lambd, b.attrFloat("lambd", 0.5f));
  NNRT_ASSIGN_OR_RETURN(float bias, b.attrFloat("bias", 0.0f));
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32, b8 = ANEURALNETWORKS_TENSOR_BOOL8;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t upper, b.constFloats({lambd}));
  NNRT_ASSIGN_OR_RETURN(uint32_t lower, b.constFloats({-lambd}));
  NNRT_ASSIGN_OR_RETURN(uint32_t biasOperand, b.constFloats({bias}));
  NNRT_ASSIGN_OR_RETURN(uint32_t above, apply(b, ANEURALNETWORKS_GREATER, {in, upper}, b8, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t below, apply(b, ANEURALNETWORKS_LESS, {in, lower}, b8, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t lowered, arithmetic(b, ANEURALNETWORKS_SUB, in, biasOperand, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t raised, arithmetic(b, ANEURALNETWORKS_ADD, in, biasOperand, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeros, constFilled(b, f32, x->dims, 0.0));
  NNRT_ASSIGN_OR_RETURN(uint32_t inner,
                        apply(b, ANEURALNETWORKS_SELECT, {above, lowered, zeros}, f32, x->dims));
  return b.emit(ANEURALNETWORKS_SELECT, {below, raised, inner}, f32, x->dims);
}

}  // namespace nnrt::onnxfront
