// ONNX activations -> NNAPI: PRelu, LeakyRelu, Elu, HardSigmoid, Softsign, Softplus, Mish, Gelu, Selu,
// ThresholdedRelu, Celu and Shrink.
#include <cmath>

#include "onnx/operators_common.hpp"

namespace nnrt::onnxfront {

Result<void> mapPrelu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(refuseQuantizedArithmetic(b, *x));
  NNRT_ASSIGN_OR_RETURN(const Value* slope, b.requiredInput(1));
  // Before opset 7 a slope of C values is per channel (axis 1): then it lines up there.
  const bool perChannel = b.opset() < 7 && x->dims.size() > 2 && slope->dims.size() == 1 &&
                          slope->dims[0] == x->dims[1] && slope->dims[0] != x->dims.back();
  Dims slopeDims = slope->dims;
  if (perChannel) slopeDims.resize(x->dims.size() - 1, 1u);
  NNRT_ASSIGN_OR_RETURN(Dims dims, broadcastShape(b, x->dims, slopeDims));
  if (dims != x->dims) return b.refused("slope must broadcast to the input's shape");
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t s, b.operand(*slope));
  if (perChannel) {
    NNRT_ASSIGN_OR_RETURN(s, b.reshape(s, slope->type, slopeDims));
  }
  return b.emit(ANEURALNETWORKS_PRELU, {in, s}, x->type, x->dims);
}

Result<void> mapLeakyRelu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 0.01f));
  NNRT_ASSIGN_OR_RETURN(uint32_t s, b.constFloats({alpha}));
  if (x->nhwc) return b.emitNhwc(ANEURALNETWORKS_PRELU, {x->operand, s}, x->type, x->dims);  // element-wise
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  return b.emit(ANEURALNETWORKS_PRELU, {in, s}, x->type, x->dims);
}

Result<void> mapElu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 1.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t s, b.scalarFloat(alpha));
  if (x->nhwc) return b.emitNhwc(ANEURALNETWORKS_ELU, {x->operand, s}, x->type, x->dims);  // element-wise
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  return b.emit(ANEURALNETWORKS_ELU, {in, s}, x->type, x->dims);
}

// HardSigmoid: max(0, min(1, alpha * x + beta)).
Result<void> mapHardSigmoid(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 0.2f));
  NNRT_ASSIGN_OR_RETURN(float beta, b.attrFloat("beta", 0.5f));
  // x * HardSigmoid(x) with alpha 1/6 and beta 1/2 is hard swish, x * min(max(x + 3, 0), 6) / 6 (PyTorch
  // exports Hardswish so before opset 14): one HARD_SWISH, which a device can fuse into the
  // convolution before it, instead of five element-wise operations.
  if (std::fabs(alpha - 1.0f / 6.0f) <= 1e-7f && beta == 0.5f && b.absorbFollowingProductWithInput())
    return unary(b, ANEURALNETWORKS_HARD_SWISH);
  Chain c(b, *x, true);
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
  Chain c(b, *x, true);
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
namespace {

// current = log(exp(current) + 1), Softplus as ONNX defines it.
Result<void> softplus(Chain& c) {
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_EXP));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_ADD, 1.0f));
  return c.unary(ANEURALNETWORKS_LOG);
}

}  // namespace

// Softplus on its own as max(x, 0) + log(exp(-|x|) + 1): ONNX's value where exp(x) is finite (the same
// operations for x <= 0), and x where exp(x) overflows (above 88.7 the literal form gives +inf; PyTorch
// and ONNX Runtime give x). Mish keeps the literal form: its TANH takes +inf to 1 exactly.
Result<void> mapSoftplus(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  Chain c(b, *x, true);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_ABS));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_NEG));
  NNRT_RETURN_IF_ERROR(softplus(c));
  const uint32_t tail = c.current();
  NNRT_ASSIGN_OR_RETURN(uint32_t in, c.input(*x));
  NNRT_RETURN_IF_ERROR(c.add(ANEURALNETWORKS_RELU, {in}));
  NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_RETURN_IF_ERROR(c.add(ANEURALNETWORKS_ADD, {c.current(), tail, fuse}));
  c.finish();
  return {};
}

// Mish (opset 18): x * tanh(softplus(x)), ONNX's function body in its order.
Result<void> mapMish(GraphBuilder& b) {
  if (b.opset() < 18) return b.refused("Mish is not defined before opset 18");
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  Chain c(b, *x, true);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  NNRT_RETURN_IF_ERROR(softplus(c));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_TANH));
  NNRT_ASSIGN_OR_RETURN(uint32_t in, c.input(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_RETURN_IF_ERROR(c.add(ANEURALNETWORKS_MUL, {in, c.current(), fuse}));
  c.finish();
  return {};
}

// Gelu (opset 20), ONNX's function bodies in their order: approximate "none" is (x / 2) * (1 + erf(x /
// sqrt 2)) with the loader's erf (mapErf), "tanh" is (x / 2) * (1 + tanh(sqrt(2 / pi) * (x + 0.044715
// x^3))) with TANH.
Result<void> mapGelu(GraphBuilder& b) {
  if (b.opset() < 20) return b.refused("Gelu is not defined before opset 20");
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(const std::string approximate, b.attrString("approximate", "none"));
  const bool estimate = approximate == "tanh";
  if (!estimate && approximate != "none")
    return b.refused("attribute 'approximate' '" + approximate + "' is neither \"none\" nor \"tanh\"");
  const int32_t f32 = x->type;
  const Dims& dims = x->dims;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  uint32_t phi;  // 2 * Phi(x), Phi the normal distribution's CDF (or its tanh estimate)
  if (!estimate) {
    NNRT_ASSIGN_OR_RETURN(uint32_t sqrtTwo, b.constFloats({std::sqrt(2.0f)}));
    NNRT_ASSIGN_OR_RETURN(uint32_t scaled, arithmetic(b, ANEURALNETWORKS_DIV, in, sqrtTwo, f32, dims));
    NNRT_ASSIGN_OR_RETURN(phi, erfOf(b, scaled, dims));
  } else {
    NNRT_ASSIGN_OR_RETURN(uint32_t square, arithmetic(b, ANEURALNETWORKS_MUL, in, in, f32, dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t cube, arithmetic(b, ANEURALNETWORKS_MUL, square, in, f32, dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t c0, b.constFloats({0.044715f}));
    NNRT_ASSIGN_OR_RETURN(uint32_t term, arithmetic(b, ANEURALNETWORKS_MUL, c0, cube, f32, dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t sum, arithmetic(b, ANEURALNETWORKS_ADD, in, term, f32, dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t alpha, b.constFloats({std::sqrt(0.63661977236f)}));
    NNRT_ASSIGN_OR_RETURN(uint32_t argument, arithmetic(b, ANEURALNETWORKS_MUL, alpha, sum, f32, dims));
    NNRT_ASSIGN_OR_RETURN(phi, apply(b, ANEURALNETWORKS_TANH, {argument}, f32, dims));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t one, b.constFloats({1.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t shifted, arithmetic(b, ANEURALNETWORKS_ADD, one, phi, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t half, b.constFloats({0.5f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t halfX, arithmetic(b, ANEURALNETWORKS_MUL, half, in, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, arithmetic(b, ANEURALNETWORKS_MUL, halfX, shifted, f32, dims));
  defineOperand(b, 0, out, f32, dims, x->scalar);
  return {};
}

// Selu: gamma * (x > 0 ? x : alpha * (exp(x) - 1)) = gamma * ELU(x, alpha).
Result<void> mapSelu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 1.67326319217681884765625f));
  NNRT_ASSIGN_OR_RETURN(float gamma, b.attrFloat("gamma", 1.05070102214813232421875f));
  Chain c(b, *x, true);
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
