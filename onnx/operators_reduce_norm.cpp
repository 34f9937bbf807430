// ONNX reductions and normalizations -> NNAPI: Softmax/LogSoftmax, BatchNormalization, the Reduce*
// family, ArgMax/ArgMin, LRN, InstanceNormalization, GroupNormalization, LayerNormalization, Hardmax,
// TopK, CumSum and MeanVarianceNormalization.
#include "onnx/operators_common.hpp"

namespace nnrt::onnxfront {

Result<void> softmaxLike(GraphBuilder& b, int32_t op) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  size_t rank = x->dims.size();
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", b.opset() < 13 ? 1 : -1));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t beta, b.scalarFloat(1.0f));
  if (b.opset() >= 13 || axis == rank - 1) {
    NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(static_cast<int32_t>(axis)));
    return b.emit(op, {in, beta, axisOperand}, x->type, x->dims);
  }
  // Before opset 13 the input is coerced to 2-D [before axis, from axis] and normalized per row.
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  uint32_t outer = 1, inner = 1;
  for (size_t i = 0; i < rank; ++i)
    (i < axis ? outer : inner) *= x->dims[i];
  NNRT_ASSIGN_OR_RETURN(uint32_t flat, b.reshape(in, x->type, {outer, inner}));
  NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(1));
  NNRT_ASSIGN_OR_RETURN(uint32_t normalized, b.addTensor(x->type, {outer, inner}));
  NNRT_RETURN_IF_ERROR(b.addOperation(op, {flat, beta, axisOperand}, {normalized}));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.reshape(normalized, x->type, x->dims));
  Value v;
  v.operand = out;
  v.type = x->type;
  v.dims = x->dims;
  b.define(0, v);
  return {};
}

namespace {

// BatchNormalization in training mode (opset 14 on), ONNX's formulas in its order: the batch's mean m and
// (population) variance v over every axis but 1 (MEAN, SUB, MUL, MEAN), y = (x - m) / SQRT(v + eps) *
// scale + B, and the running statistics input_mean * momentum + m * (1 - momentum) (the same for var).
Result<void> batchNormTraining(GraphBuilder& b, const Value& x, float eps, const std::vector<float>& scale,
                               const std::vector<float>& bias, const std::vector<float>& mean,
                               const std::vector<float>& var) {
  if (b.opset() < 14) return b.refused("training-mode outputs before opset 14 are not supported");
  if (!allKnown(x.dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(float momentum, b.attrFloat("momentum", 0.9f));
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  const uint32_t C = x.dims[1];
  Dims paramDims(x.dims.size(), 1);
  paramDims[1] = C;
  std::vector<int32_t> axes;
  for (int32_t a = 0; a < static_cast<int32_t>(x.dims.size()); ++a)
    if (a != 1) axes.push_back(a);
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(x));
  NNRT_ASSIGN_OR_RETURN(uint32_t axesOperand, b.constInts(axes));
  NNRT_ASSIGN_OR_RETURN(uint32_t keep, b.scalarInt(1));
  NNRT_ASSIGN_OR_RETURN(uint32_t m, apply(b, ANEURALNETWORKS_MEAN, {in, axesOperand, keep}, f32, paramDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t d, arithmetic(b, ANEURALNETWORKS_SUB, in, m, f32, x.dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t squares, arithmetic(b, ANEURALNETWORKS_MUL, d, d, f32, x.dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t v,
                        apply(b, ANEURALNETWORKS_MEAN, {squares, axesOperand, keep}, f32, paramDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t epsOperand, b.constFloats({eps}));
  NNRT_ASSIGN_OR_RETURN(uint32_t shifted, arithmetic(b, ANEURALNETWORKS_ADD, v, epsOperand, f32, paramDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t deviation, apply(b, ANEURALNETWORKS_SQRT, {shifted}, f32, paramDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t normalized, arithmetic(b, ANEURALNETWORKS_DIV, d, deviation, f32, x.dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t scaleOperand, b.constFloats(scale, paramDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t scaled,
                        arithmetic(b, ANEURALNETWORKS_MUL, normalized, scaleOperand, f32, x.dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t biasOperand, b.constFloats(bias, paramDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t y, arithmetic(b, ANEURALNETWORKS_ADD, scaled, biasOperand, f32, x.dims));
  defineOperand(b, 0, y, f32, x.dims);
  const std::pair<uint32_t, const std::vector<float>*> statistics[2] = {{m, &mean}, {v, &var}};
  for (int i = 0; i < 2; ++i) {
    if (b.node()->output_size() <= i + 1 || b.node()->output(i + 1).empty()) continue;
    NNRT_ASSIGN_OR_RETURN(uint32_t current, b.reshape(statistics[i].first, f32, {C}));
    NNRT_ASSIGN_OR_RETURN(uint32_t running, b.constFloats(*statistics[i].second));
    NNRT_ASSIGN_OR_RETURN(uint32_t kept, b.constFloats({momentum}));
    NNRT_ASSIGN_OR_RETURN(uint32_t taken, b.constFloats({1.0f - momentum}));
    NNRT_ASSIGN_OR_RETURN(uint32_t old, arithmetic(b, ANEURALNETWORKS_MUL, running, kept, f32, {C}));
    NNRT_ASSIGN_OR_RETURN(uint32_t fresh, arithmetic(b, ANEURALNETWORKS_MUL, current, taken, f32, {C}));
    NNRT_ASSIGN_OR_RETURN(uint32_t sum, arithmetic(b, ANEURALNETWORKS_ADD, old, fresh, f32, {C}));
    defineOperand(b, i + 1, sum, f32, {C});
  }
  return {};
}

}  // namespace

// BatchNormalization (inference): y = x * a + c with a = scale / sqrt(var + eps), c = B - mean * a
// per channel (axis 1), from constant parameters; training mode: batchNormTraining.
Result<void> mapBatchNorm(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(int64_t training, b.attrInt("training_mode", 0));
  if (b.node()->output_size() > 1 && training == 0)
    return b.refused("training-mode outputs are not supported");
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float eps, b.attrFloat("epsilon", 1e-5f));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> scale, b.constantFloats(1));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> bias, b.constantFloats(2));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> mean, b.constantFloats(3));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> var, b.constantFloats(4));
  if (x->dims.size() < 2) return b.refused("input must have a channel axis");
  uint32_t C = x->dims[1];
  if (scale.size() != C || bias.size() != C || mean.size() != C || var.size() != C)
    return b.refused("parameters must have C values");
  if (training != 0) return batchNormTraining(b, *x, eps, scale, bias, mean, var);
  std::vector<float> mul(C), add(C);
  for (uint32_t c = 0; c < C; ++c) {
    mul[c] = scale[c] / std::sqrt(var[c] + eps);
    add[c] = bias[c] - mean[c] * mul[c];
  }
  if (x->nhwc) {
    // An NHWC image (a pre-activation network's BatchNormalization + Relu before its Conv) stays NHWC:
    // the parameters broadcast along its last axis, and a following Relu or Clip is the ADD's activation.
    const Dims& d = x->dims;
    NNRT_ASSIGN_OR_RETURN(uint32_t mulOperand, b.constFloats(mul, {C}));
    NNRT_ASSIGN_OR_RETURN(uint32_t addOperand, b.constFloats(add, {C}));
    NNRT_ASSIGN_OR_RETURN(uint32_t none, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
    NNRT_ASSIGN_OR_RETURN(uint32_t scaled, b.addTensor(x->type, channelsLastDims(d)));
    NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_MUL, {x->operand, mulOperand, none}, {scaled}));
    NNRT_ASSIGN_OR_RETURN(uint32_t activation, b.scalarInt(b.fuseFollowingActivation()));
    return b.emitNhwc(ANEURALNETWORKS_ADD, {scaled, addOperand, activation}, x->type, d);
  }
  Dims paramDims(x->dims.size() - 1, 1);
  paramDims[0] = C;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t mulOperand, b.constFloats(mul, paramDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t addOperand, b.constFloats(add, paramDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t f1, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_ASSIGN_OR_RETURN(uint32_t f2, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_ASSIGN_OR_RETURN(uint32_t scaled, b.addTensor(x->type, x->dims));
  NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_MUL, {in, mulOperand, f1}, {scaled}));
  return b.emit(ANEURALNETWORKS_ADD, {scaled, addOperand, f2}, x->type, x->dims);
}

// ReduceX: NNAPI REDUCE_* / MEAN over the given axes (all when none); keepdims as ONNX. The axes are an
// attribute up to opset 12 for ReduceSum and 17 for the others, then a constant input; empty axes with
// noop_with_empty_axes reduce nothing, leaving the steps around the reduction (ReduceSumSquare squares).
// ReduceMax and ReduceMin of booleans (opset 20) are REDUCE_ANY and REDUCE_ALL.
Result<void> reduce(GraphBuilder& b, int32_t op, int32_t pre, int32_t post) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (x->type == ANEURALNETWORKS_TENSOR_BOOL8) {
    if (b.opset() < 20 || (op != ANEURALNETWORKS_REDUCE_MAX && op != ANEURALNETWORKS_REDUCE_MIN))
      return b.refused("bool inputs are not supported");
    op = op == ANEURALNETWORKS_REDUCE_MAX ? ANEURALNETWORKS_REDUCE_ANY : ANEURALNETWORKS_REDUCE_ALL;
  }
  if (pre != 0 || post != 0 || (op != ANEURALNETWORKS_REDUCE_MAX && op != ANEURALNETWORKS_REDUCE_MIN))
    NNRT_RETURN_IF_ERROR(refuseQuantizedArithmetic(b, *x));
  NNRT_ASSIGN_OR_RETURN(int64_t keep, b.attrInt("keepdims", 1));
  const int64_t axesInputSince = std::string(b.node()->op_type()) == "ReduceSum" ? 13 : 18;
  NNRT_RETURN_IF_ERROR(refuseBeforeOpset(b, "noop_with_empty_axes", axesInputSince));
  NNRT_ASSIGN_OR_RETURN(int64_t noop, b.attrInt("noop_with_empty_axes", 0));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> axes, axesInputOrAttribute(b, 1, axesInputSince));
  const bool none = axes.empty() && noop != 0;
  if (none && pre == 0 && post == 0) return mapIdentity(b);
  size_t rank = x->dims.size();
  std::vector<bool> reduced(rank, axes.empty() && !none);
  for (int64_t a : axes) {
    NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
    reduced[axis] = true;
  }
  std::vector<int32_t> list;
  Dims out;
  for (size_t i = 0; i < rank; ++i) {
    if (reduced[i]) list.push_back(static_cast<int32_t>(i));
    if (!reduced[i])
      out.push_back(x->dims[i]);
    else if (keep != 0)
      out.push_back(1);
  }
  bool scalar = none ? x->scalar : out.empty();
  if (out.empty()) out = {1};
  // A channels-last image (Value::nhwc) is reduced so, over the same axes there (a global average of a
  // convolution's output, say), but where the result's axes would come out in another order than a
  // channels-last one (without keepdims, the batch axis gone and the channels kept). The result is
  // channels last when it keeps its rank, or keeps the channels at rank 3; otherwise ([N, C], or the
  // channels gone) its axes are in the same order either way.
  const bool channelsLast = x->nhwc && !none && (keep != 0 || reduced[1] || !reduced[0]);
  const bool resultChannelsLast = channelsLast && (keep != 0 || (!reduced[1] && out.size() == 3));
  const Dims inDims = channelsLast ? channelsLastDims(x->dims) : x->dims;
  const Dims outDims = resultChannelsLast ? channelsLastDims(out) : out;
  if (channelsLast) {
    for (int32_t& a : list) a = channelsLastAxis(a, rank);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t current, channelsLast ? b.nhwcOperand(*x) : b.operand(*x));
  if (pre != 0) {
    NNRT_ASSIGN_OR_RETURN(uint32_t t, b.addTensor(x->type, inDims));
    if (pre == ANEURALNETWORKS_MUL) {
      NNRT_ASSIGN_OR_RETURN(uint32_t f, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
      NNRT_RETURN_IF_ERROR(b.addOperation(pre, {current, current, f}, {t}));
    } else {
      NNRT_RETURN_IF_ERROR(b.addOperation(pre, {current}, {t}));
    }
    current = t;
  }
  if (!none) {
    NNRT_ASSIGN_OR_RETURN(uint32_t axesOperand, b.constInts(list));
    uint32_t keepOperand;
    if (op == ANEURALNETWORKS_MEAN) {
      NNRT_ASSIGN_OR_RETURN(keepOperand, b.scalarInt(keep != 0 ? 1 : 0));
    } else {
      NNRT_ASSIGN_OR_RETURN(keepOperand, b.scalarBool(keep != 0));
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t reducedOperand, b.addTensor(x->type, outDims));
    NNRT_RETURN_IF_ERROR(b.addOperation(op, {current, axesOperand, keepOperand}, {reducedOperand}));
    current = reducedOperand;
  }
  if (post != 0) {
    NNRT_ASSIGN_OR_RETURN(uint32_t t, b.addTensor(x->type, outDims));
    NNRT_RETURN_IF_ERROR(b.addOperation(post, {current}, {t}));
    current = t;
  }
  Value v;
  v.operand = current;
  v.type = x->type;
  v.dims = out;
  v.scalar = scalar;
  v.nhwc = resultChannelsLast;
  b.define(0, v);
  return {};
}

// ArgMax/ArgMin -> ARGMAX/ARGMIN (int32 indices, NNAPI's stand-in for ONNX's int64), keepdims by RESHAPE;
// select_last_index: size - 1 - the first extreme index along the REVERSEd axis.
Result<void> argMinMax(GraphBuilder& b, int32_t op) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", 0));
  NNRT_ASSIGN_OR_RETURN(int64_t keep, b.attrInt("keepdims", 1));
  NNRT_ASSIGN_OR_RETURN(int64_t last, b.attrInt("select_last_index", 0));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, x->dims.size()));
  Dims reduced;
  for (size_t i = 0; i < x->dims.size(); ++i) {
    if (i != axis) reduced.push_back(x->dims[i]);
  }
  if (reduced.empty()) return b.refused("a 1-D input has no NNAPI output shape");
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(static_cast<int32_t>(axis)));
  const int32_t i32 = ANEURALNETWORKS_TENSOR_INT32;
  uint32_t indices;
  if (last == 0) {
    NNRT_ASSIGN_OR_RETURN(indices, apply(b, op, {in, axisOperand}, i32, reduced));
  } else {
    if (x->dims[axis] == 0) return b.refused("input shape unknown");
    NNRT_ASSIGN_OR_RETURN(uint32_t reverseAxis, b.constInts({static_cast<int32_t>(axis)}));
    NNRT_ASSIGN_OR_RETURN(uint32_t reversed,
                          apply(b, ANEURALNETWORKS_REVERSE, {in, reverseAxis}, x->type, x->dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t first, apply(b, op, {reversed, axisOperand}, i32, reduced));
    NNRT_ASSIGN_OR_RETURN(uint32_t lastIndex, b.constInts({static_cast<int32_t>(x->dims[axis]) - 1}));
    NNRT_ASSIGN_OR_RETURN(indices, arithmetic(b, ANEURALNETWORKS_SUB, lastIndex, first, i32, reduced));
  }
  if (keep == 0) {
    defineOperand(b, 0, indices, i32, reduced);
    return {};
  }
  Dims kept = x->dims;
  kept[axis] = 1;
  if (!allKnown(kept)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.reshape(indices, i32, kept));
  defineOperand(b, 0, out, i32, kept);
  return {};
}

// LRN across channels (axis 1): NNAPI sums over [c - radius, c + radius] and does not divide alpha by
// the size, so an odd size maps exactly with radius (size - 1) / 2 and alpha / size.
Result<void> mapLrn(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(int64_t size, b.attrInt("size", 0));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 1e-4f));
  NNRT_ASSIGN_OR_RETURN(float beta, b.attrFloat("beta", 0.75f));
  NNRT_ASSIGN_OR_RETURN(float bias, b.attrFloat("bias", 1.0f));
  if (size < 1 || size % 2 == 0)
    return b.refused("an even size sums an asymmetric window, which NNAPI does not");
  if (x->dims.size() != 4) return b.refused("input must be 4-D");
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t radius, b.scalarInt(static_cast<int32_t>((size - 1) / 2)));
  NNRT_ASSIGN_OR_RETURN(uint32_t biasOperand, b.scalarFloat(bias));
  NNRT_ASSIGN_OR_RETURN(uint32_t alphaOperand, b.scalarFloat(alpha / static_cast<float>(size)));
  NNRT_ASSIGN_OR_RETURN(uint32_t betaOperand, b.scalarFloat(beta));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, b.scalarInt(1));
  return b.emit(ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION,
                {in, radius, biasOperand, alphaOperand, betaOperand, axis}, x->type, x->dims);
}

// LpNormalization: x divided by its p-norm along `axis`. p = 2: L2_NORMALIZATION (up to 4-D; a vector of
// zeros gives zeros, where ONNX's reference divides by 0); p = 1: x / REDUCE_SUM(ABS(x)) along the axis.
Result<void> mapLpNorm(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(int64_t axisValue, b.attrInt("axis", -1));
  NNRT_ASSIGN_OR_RETURN(int64_t p, b.attrInt("p", 2));
  if (p != 1 && p != 2) return b.refused("p must be 1 or 2");
  const size_t rank = x->dims.size();
  if (rank == 0) return b.refused("a scalar has no axis");
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, axisValue, rank));
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  if (p == 2) {
    if (rank > 4) return b.refused("p = 2 over more than 4 dimensions (NNAPI L2_NORMALIZATION)");
    NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(static_cast<int32_t>(axis)));
    return b.emit(ANEURALNETWORKS_L2_NORMALIZATION, {in, axisOperand}, x->type, x->dims);
  }
  Dims reduced = x->dims;
  reduced[axis] = 1;
  NNRT_ASSIGN_OR_RETURN(uint32_t magnitude, apply(b, ANEURALNETWORKS_ABS, {in}, x->type, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t axes, b.constInts({static_cast<int32_t>(axis)}));
  NNRT_ASSIGN_OR_RETURN(uint32_t keep, b.scalarBool(true));
  NNRT_ASSIGN_OR_RETURN(uint32_t norm, apply(b, ANEURALNETWORKS_REDUCE_SUM, {magnitude, axes, keep}, x->type, reduced));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, arithmetic(b, ANEURALNETWORKS_DIV, in, norm, x->type, x->dims));
  defineOperand(b, 0, out, x->type, x->dims);
  return {};
}

// InstanceNormalization: INSTANCE_NORMALIZATION (gamma 1, beta 0; NNAPI's are scalars) then the
// per-channel scale and bias; inputs of rank 3 or 5 as 4-D images.
Result<void> mapInstanceNorm(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* scale, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* bias, b.requiredInput(2));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float eps, b.attrFloat("epsilon", 1e-5f));
  if (x->dims.size() < 3) return b.refused("input of rank below 3 (no spatial axis)");
  uint32_t C = x->dims[1];
  if (scale->dims != Dims{C} || bias->dims != Dims{C}) return b.refused("scale and B must have shape [C]");
  if (x->dims.size() != 4 && !allKnown(x->dims)) return b.refused("input shape unknown");
  // INSTANCE_NORMALIZATION's scalars (gamma 1, beta 0, epsilon, NCHW), and the per-channel scale and bias.
  NNRT_ASSIGN_OR_RETURN(uint32_t gamma, b.scalarFloat(1.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t beta, b.scalarFloat(0.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t epsilon, b.scalarFloat(eps));
  NNRT_ASSIGN_OR_RETURN(uint32_t nchw, b.scalarBool(true));
  NNRT_ASSIGN_OR_RETURN(uint32_t s, b.operand(*scale));
  NNRT_ASSIGN_OR_RETURN(uint32_t perChannelScale, b.reshape(s, scale->type, {C, 1, 1}));
  NNRT_ASSIGN_OR_RETURN(uint32_t o, b.operand(*bias));
  NNRT_ASSIGN_OR_RETURN(uint32_t perChannelBias, b.reshape(o, bias->type, {C, 1, 1}));
  if (x->dims.size() != 4) {
    // [N, C, L] (PyTorch's GroupNorm exported before opset 18: x reshaped to [N, groups, -1]) or
    // [N, C, D, H, W]: as the NCHW image [N, C, L, 1], normalized, scaled and shifted, reshaped back.
    uint32_t rest = 1;
    for (size_t d = 2; d < x->dims.size(); ++d) rest *= x->dims[d];
    const Dims image{x->dims[0], C, rest, 1};
    NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
    NNRT_ASSIGN_OR_RETURN(uint32_t current, b.reshape(in, x->type, image));
    NNRT_ASSIGN_OR_RETURN(current, apply(b, ANEURALNETWORKS_INSTANCE_NORMALIZATION,
                                         {current, gamma, beta, epsilon, nchw}, x->type, image));
    NNRT_ASSIGN_OR_RETURN(current, arithmetic(b, ANEURALNETWORKS_MUL, current, perChannelScale, x->type, image));
    NNRT_ASSIGN_OR_RETURN(current, arithmetic(b, ANEURALNETWORKS_ADD, current, perChannelBias, x->type, image));
    NNRT_ASSIGN_OR_RETURN(current, b.reshape(current, x->type, x->dims));
    defineOperand(b, 0, current, x->type, x->dims);
    return {};
  }
  Chain c(b, *x);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  NNRT_RETURN_IF_ERROR(
      c.add(ANEURALNETWORKS_INSTANCE_NORMALIZATION, {c.current(), gamma, beta, epsilon, nchw}));
  NNRT_ASSIGN_OR_RETURN(uint32_t f1, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_RETURN_IF_ERROR(c.add(ANEURALNETWORKS_MUL, {c.current(), perChannelScale, f1}));
  NNRT_ASSIGN_OR_RETURN(uint32_t f2, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_RETURN_IF_ERROR(c.add(ANEURALNETWORKS_ADD, {c.current(), perChannelBias, f2}));
  c.finish();
  return {};
}

// GroupNormalization (opset 18), ONNX's function body in its order: x as [N, G, rest], per group
// mean = MEAN(x), var = MEAN(x * x) - mean * mean, (x - mean) / SQRT(var + epsilon), then MUL by the scale and
// ADD the bias, one per group before opset 21 and one per channel from it (the normalized values as
// [N, C, rest]). stash_type (opset 21) must be float32, as the input.
Result<void> mapGroupNorm(GraphBuilder& b) {
  if (b.opset() < 18) return b.refused("GroupNormalization is not defined before opset 18");
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* scale, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* bias, b.requiredInput(2));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_RETURN_IF_ERROR(refuseBeforeOpset(b, "stash_type", 21));
  NNRT_ASSIGN_OR_RETURN(int64_t stash, b.attrInt("stash_type", onnx::TensorProto::FLOAT));
  if (stash != onnx::TensorProto::FLOAT) return b.refused("attribute 'stash_type' other than float is not supported");
  NNRT_ASSIGN_OR_RETURN(float eps, b.attrFloat("epsilon", 1e-5f));
  if (b.attribute("num_groups") == nullptr) return b.refused("attribute 'num_groups' missing");
  NNRT_ASSIGN_OR_RETURN(int64_t groups, b.attrInt("num_groups", 0));
  if (x->dims.size() < 2 || !allKnown(x->dims)) return b.refused("input shape unknown or without channels");
  const uint32_t N = x->dims[0], C = x->dims[1];
  if (groups < 1 || C % groups != 0) return b.refused("attribute 'num_groups' does not divide the channels");
  const uint32_t G = static_cast<uint32_t>(groups);
  const uint32_t perParameter = b.opset() < 21 ? G : C;
  if (scale->dims != Dims{perParameter} || bias->dims != Dims{perParameter}) {
    return b.refused(std::string("scale and bias must have one value per ") +
                     (b.opset() < 21 ? "group before opset 21" : "channel"));
  }
  const int32_t f32 = x->type;
  const uint32_t S = static_cast<uint32_t>(elementCount(x->dims) / (N * G));
  const Dims grouped{N, G, S}, statistics{N, G, 1};
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t x3, b.reshape(in, f32, grouped));
  NNRT_ASSIGN_OR_RETURN(uint32_t axes, b.constInts({2}));
  NNRT_ASSIGN_OR_RETURN(uint32_t keep, b.scalarInt(1));
  NNRT_ASSIGN_OR_RETURN(uint32_t mean, apply(b, ANEURALNETWORKS_MEAN, {x3, axes, keep}, f32, statistics));
  NNRT_ASSIGN_OR_RETURN(uint32_t square, arithmetic(b, ANEURALNETWORKS_MUL, x3, x3, f32, grouped));
  NNRT_ASSIGN_OR_RETURN(uint32_t meanOfSquare,
                        apply(b, ANEURALNETWORKS_MEAN, {square, axes, keep}, f32, statistics));
  NNRT_ASSIGN_OR_RETURN(uint32_t squareOfMean, arithmetic(b, ANEURALNETWORKS_MUL, mean, mean, f32, statistics));
  NNRT_ASSIGN_OR_RETURN(uint32_t var,
                        arithmetic(b, ANEURALNETWORKS_SUB, meanOfSquare, squareOfMean, f32, statistics));
  NNRT_ASSIGN_OR_RETURN(uint32_t epsOperand, b.constFloats({eps}));
  NNRT_ASSIGN_OR_RETURN(uint32_t shifted, arithmetic(b, ANEURALNETWORKS_ADD, var, epsOperand, f32, statistics));
  NNRT_ASSIGN_OR_RETURN(uint32_t deviation, apply(b, ANEURALNETWORKS_SQRT, {shifted}, f32, statistics));
  NNRT_ASSIGN_OR_RETURN(uint32_t centered, arithmetic(b, ANEURALNETWORKS_SUB, x3, mean, f32, grouped));
  NNRT_ASSIGN_OR_RETURN(uint32_t normalized,
                        arithmetic(b, ANEURALNETWORKS_DIV, centered, deviation, f32, grouped));
  Dims shape = grouped;
  if (perParameter == C) {
    shape = {N, C, S * G / C};
    NNRT_ASSIGN_OR_RETURN(normalized, b.reshape(normalized, f32, shape));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t s, b.operand(*scale));
  NNRT_ASSIGN_OR_RETURN(uint32_t scaleOperand, b.reshape(s, f32, {1, perParameter, 1}));
  NNRT_ASSIGN_OR_RETURN(uint32_t o, b.operand(*bias));
  NNRT_ASSIGN_OR_RETURN(uint32_t biasOperand, b.reshape(o, f32, {1, perParameter, 1}));
  NNRT_ASSIGN_OR_RETURN(uint32_t scaled, arithmetic(b, ANEURALNETWORKS_MUL, scaleOperand, normalized, f32, shape));
  NNRT_ASSIGN_OR_RETURN(uint32_t biased, arithmetic(b, ANEURALNETWORKS_ADD, scaled, biasOperand, f32, shape));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.reshape(biased, f32, x->dims));
  defineOperand(b, 0, out, f32, x->dims);
  return {};
}

// LayerNormalization (opset 17), as ONNX's reference computes it over the axes from `axis` on:
// mean = MEAN(x), d = x - mean, inv = 1 / sqrt(MEAN(d * d) + epsilon), y = d * inv * Scale + B;
// the optional Mean and InvStdDev outputs keep the reduced axes as 1.
Result<void> mapLayerNorm(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* scale, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* bias, b.input(2));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", -1));
  NNRT_ASSIGN_OR_RETURN(float eps, b.attrFloat("epsilon", 1e-5f));
  NNRT_ASSIGN_OR_RETURN(int64_t stash, b.attrInt("stash_type", 1));
  if (stash != onnx::TensorProto::FLOAT) return b.refused("stash_type other than float is not supported");
  if (x->scalar) return b.refused("a scalar input has no axis to normalize");
  const size_t rank = x->dims.size();
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
  std::vector<int32_t> axes;
  Dims reducedDims = x->dims;
  for (size_t i = axis; i < rank; ++i) {
    axes.push_back(static_cast<int32_t>(i));
    reducedDims[i] = 1;
  }
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  auto mean = [&](uint32_t operand) -> Result<uint32_t> {
    NNRT_ASSIGN_OR_RETURN(uint32_t axesOperand, b.constInts(axes));
    NNRT_ASSIGN_OR_RETURN(uint32_t keep, b.scalarInt(1));
    return apply(b, ANEURALNETWORKS_MEAN, {operand, axesOperand, keep}, f32, reducedDims);
  };
  NNRT_ASSIGN_OR_RETURN(uint32_t average, mean(in));
  NNRT_ASSIGN_OR_RETURN(uint32_t diff, arithmetic(b, ANEURALNETWORKS_SUB, in, average, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t squared, arithmetic(b, ANEURALNETWORKS_MUL, diff, diff, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t variance, mean(squared));
  NNRT_ASSIGN_OR_RETURN(uint32_t epsOperand, b.constFloats({eps}));
  NNRT_ASSIGN_OR_RETURN(uint32_t shifted,
                        arithmetic(b, ANEURALNETWORKS_ADD, variance, epsOperand, f32, reducedDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t stdDev, apply(b, ANEURALNETWORKS_SQRT, {shifted}, f32, reducedDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t one, b.constFloats({1.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t inverse, arithmetic(b, ANEURALNETWORKS_DIV, one, stdDev, f32, reducedDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t normalized, arithmetic(b, ANEURALNETWORKS_MUL, diff, inverse, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(Dims scaledDims, broadcastShape(b, x->dims, scale->dims));
  if (scaledDims != x->dims) return b.refused("Scale does not broadcast to the input's shape");
  NNRT_ASSIGN_OR_RETURN(uint32_t s, b.operand(*scale));
  NNRT_ASSIGN_OR_RETURN(uint32_t y, arithmetic(b, ANEURALNETWORKS_MUL, normalized, s, f32, x->dims));
  if (bias != nullptr) {
    NNRT_ASSIGN_OR_RETURN(Dims biasedDims, broadcastShape(b, x->dims, bias->dims));
    if (biasedDims != x->dims) return b.refused("B does not broadcast to the input's shape");
    NNRT_ASSIGN_OR_RETURN(uint32_t o, b.operand(*bias));
    NNRT_ASSIGN_OR_RETURN(y, arithmetic(b, ANEURALNETWORKS_ADD, y, o, f32, x->dims));
  }
  defineOperand(b, 0, y, f32, x->dims);
  defineOperand(b, 1, average, f32, reducedDims);
  defineOperand(b, 2, inverse, f32, reducedDims);
  return {};
}

// Hardmax: over [outer, n, inner] (before opset 13: [outer, n * inner] rows), 1 where the index equals the
// ARGMAX (the first maximum, as ONNX), else 0.
Result<void> mapHardmax(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  const size_t rank = x->scalar ? 0 : x->dims.size();
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", b.opset() < 13 ? 1 : -1));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
  uint32_t outer = 1, n = 1, inner = 1;
  for (size_t i = 0; i < rank; ++i) {
    if (i < axis)
      outer *= x->dims[i];
    else if (i == axis || b.opset() < 13)
      n *= x->dims[i];
    else
      inner *= x->dims[i];
  }
  const Dims cube{outer, n, inner};
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t reshaped, b.reshape(in, x->type, cube));
  NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(1));
  NNRT_ASSIGN_OR_RETURN(uint32_t index, apply(b, ANEURALNETWORKS_ARGMAX, {reshaped, axisOperand},
                                              ANEURALNETWORKS_TENSOR_INT32, {outer, inner}));
  NNRT_ASSIGN_OR_RETURN(uint32_t kept, b.reshape(index, ANEURALNETWORKS_TENSOR_INT32, {outer, 1, inner}));
  std::vector<int32_t> iota(n);
  std::iota(iota.begin(), iota.end(), 0);
  NNRT_ASSIGN_OR_RETURN(uint32_t iotaOperand, b.constInts(iota, {1, n, 1}));
  NNRT_ASSIGN_OR_RETURN(
      uint32_t hit, apply(b, ANEURALNETWORKS_EQUAL, {kept, iotaOperand}, ANEURALNETWORKS_TENSOR_BOOL8, cube));
  NNRT_ASSIGN_OR_RETURN(uint32_t ones, constFilled(b, x->type, cube, 1.0));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeros, constFilled(b, x->type, cube, 0.0));
  NNRT_ASSIGN_OR_RETURN(uint32_t selected,
                        apply(b, ANEURALNETWORKS_SELECT, {hit, ones, zeros}, x->type, cube));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.reshape(selected, x->type, x->dims));
  defineOperand(b, 0, out, x->type, x->dims, x->scalar);
  return {};
}

// TopK -> TOPK_V2 along the last axis (a TRANSPOSE around it for another); the smallest k are the
// largest of -x. Indices are int32.
Result<void> mapTopK(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (x->type != ANEURALNETWORKS_TENSOR_FLOAT32 && x->type != ANEURALNETWORKS_TENSOR_INT32)
    return b.refused("only float32 and integer tensors are supported");
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> kValues, b.constantInts(1));
  if (kValues.size() != 1) return b.refused("K must be one value");
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", -1));
  NNRT_ASSIGN_OR_RETURN(int64_t largest, b.attrInt("largest", 1));
  NNRT_ASSIGN_OR_RETURN(int64_t sorted, b.attrInt("sorted", 1));
  if (sorted == 0) return b.refused("sorted 0 (an unspecified order) is not supported");
  const size_t rank = x->dims.size();
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
  const int32_t k = kValues[0];
  if (k < 1 || static_cast<uint32_t>(k) > x->dims[axis]) return b.refused("K must be in [1, the axis' size]");
  if (largest == 0 && x->type != ANEURALNETWORKS_TENSOR_FLOAT32)
    return b.refused("largest 0 on integers is not supported (negation may overflow)");
  std::vector<int32_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[axis], perm[rank - 1]);
  Dims moved = x->dims;
  std::swap(moved[axis], moved[rank - 1]);
  NNRT_ASSIGN_OR_RETURN(uint32_t current, b.operand(*x));
  if (axis != rank - 1) {
    NNRT_ASSIGN_OR_RETURN(uint32_t permOperand, b.constInts(perm));
    NNRT_ASSIGN_OR_RETURN(current,
                          apply(b, ANEURALNETWORKS_TRANSPOSE, {current, permOperand}, x->type, moved));
  }
  if (largest == 0) {
    NNRT_ASSIGN_OR_RETURN(current, apply(b, ANEURALNETWORKS_NEG, {current}, x->type, moved));
  }
  Dims out = moved;
  out.back() = static_cast<uint32_t>(k);
  NNRT_ASSIGN_OR_RETURN(uint32_t kOperand, b.scalarInt(k));
  NNRT_ASSIGN_OR_RETURN(uint32_t values, b.addTensor(x->type, out));
  NNRT_ASSIGN_OR_RETURN(uint32_t indices, b.addTensor(ANEURALNETWORKS_TENSOR_INT32, out));
  NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_TOPK_V2, {current, kOperand}, {values, indices}));
  if (largest == 0) {
    NNRT_ASSIGN_OR_RETURN(values, apply(b, ANEURALNETWORKS_NEG, {values}, x->type, out));
  }
  Dims final = out;
  std::swap(final[axis], final[rank - 1]);
  if (axis != rank - 1) {
    NNRT_ASSIGN_OR_RETURN(uint32_t p1, b.constInts(perm));
    NNRT_ASSIGN_OR_RETURN(values, apply(b, ANEURALNETWORKS_TRANSPOSE, {values, p1}, x->type, final));
    NNRT_ASSIGN_OR_RETURN(uint32_t p2, b.constInts(perm));
    NNRT_ASSIGN_OR_RETURN(
        indices, apply(b, ANEURALNETWORKS_TRANSPOSE, {indices, p2}, ANEURALNETWORKS_TENSOR_INT32, final));
  }
  defineOperand(b, 0, values, x->type, final);
  defineOperand(b, 1, indices, ANEURALNETWORKS_TENSOR_INT32, final);
  return {};
}

// CumSum along a constant axis: BATCH_MATMUL with a constant 0/1 triangular matrix (exclusive: the
// diagonal left out; reverse: the other triangle), the axis moved last by TRANSPOSE when it is not.
Result<void> mapCumSum(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> axisValue, b.constantInts(1));
  if (axisValue.size() != 1) return b.refused("axis must be one value");
  NNRT_ASSIGN_OR_RETURN(int64_t exclusive, b.attrInt("exclusive", 0));
  NNRT_ASSIGN_OR_RETURN(int64_t reverse, b.attrInt("reverse", 0));
  const size_t rank = x->scalar ? 0 : x->dims.size();
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, axisValue[0], rank));
  const uint32_t n = x->dims[axis];
  uint32_t rows = 1;
  for (size_t i = 0; i < rank; ++i)
    rows *= i == axis ? 1 : x->dims[i];
  // Up to kBlock elements: one product by an n x n triangle of ones. Longer axes go in blocks of kBlock
  // (the axis padded with zeros to whole blocks): each block's sums by a kBlock x kBlock triangle, the
  // blocks' totals (REDUCE_SUM) summed over the blocks before each (after each, reverse) by a K x K
  // one, and those added to every element of the block; rows * n * (kBlock + 1) + rows * K * K
  // multiply-adds where one triangle took rows * n * n (64 x 4096: 7.8 -> 0.13 ms).
  constexpr uint32_t kBlock = 64, kMaxBlocks = 4096;
  const uint32_t blocks = n <= 2 * kBlock ? 1 : (n + kBlock - 1) / kBlock;
  if (blocks > kMaxBlocks) return b.refused("an axis longer than " + std::to_string(kBlock * kMaxBlocks));
  const uint32_t width = blocks == 1 ? n : kBlock, padded = blocks * width;
  // m[i, j] = 1 where element i of a run of `size` enters sum j (`strict`: never itself).
  auto triangle = [&](uint32_t size, bool strict) {
    std::vector<float> m(static_cast<size_t>(size) * size, 0.0f);
    for (uint32_t i = 0; i < size; ++i)
      for (uint32_t j = 0; j < size; ++j)
        m[static_cast<size_t>(i) * size + j] = (reverse != 0 ? i >= j : i <= j) && !(strict && i == j) ? 1.0f : 0.0f;
    return b.constFloats(m, {size, size});
  };
  std::vector<int32_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[axis], perm[rank - 1]);
  Dims moved = x->dims;
  std::swap(moved[axis], moved[rank - 1]);
  NNRT_ASSIGN_OR_RETURN(uint32_t current, b.operand(*x));
  if (axis != rank - 1) {
    NNRT_ASSIGN_OR_RETURN(uint32_t permOperand, b.constInts(perm));
    NNRT_ASSIGN_OR_RETURN(current,
                          apply(b, ANEURALNETWORKS_TRANSPOSE, {current, permOperand}, x->type, moved));
  }
  NNRT_ASSIGN_OR_RETURN(current, b.reshape(current, x->type, {rows, n}));
  if (padded != n) {
    NNRT_ASSIGN_OR_RETURN(uint32_t pads, b.constInts({0, 0, 0, static_cast<int32_t>(padded - n)}, {2, 2}));
    NNRT_ASSIGN_OR_RETURN(current, apply(b, ANEURALNETWORKS_PAD, {current, pads}, x->type, {rows, padded}));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t adjX, b.scalarBool(false));
  NNRT_ASSIGN_OR_RETURN(uint32_t adjY, b.scalarBool(false));
  NNRT_ASSIGN_OR_RETURN(uint32_t blockIn, b.reshape(current, x->type, {rows * blocks, width}));
  NNRT_ASSIGN_OR_RETURN(uint32_t inBlock, triangle(width, exclusive != 0));
  NNRT_ASSIGN_OR_RETURN(uint32_t sums, apply(b, ANEURALNETWORKS_BATCH_MATMUL, {blockIn, inBlock, adjX, adjY},
                                             x->type, {rows * blocks, width}));
  if (blocks > 1) {
    NNRT_ASSIGN_OR_RETURN(uint32_t lastAxis, b.constInts({1}));
    NNRT_ASSIGN_OR_RETURN(uint32_t keep, b.scalarBool(false));
    NNRT_ASSIGN_OR_RETURN(uint32_t totals, apply(b, ANEURALNETWORKS_REDUCE_SUM, {blockIn, lastAxis, keep}, x->type,
                                                 {rows * blocks}));
    NNRT_ASSIGN_OR_RETURN(totals, b.reshape(totals, x->type, {rows, blocks}));
    NNRT_ASSIGN_OR_RETURN(uint32_t overBlocks, triangle(blocks, true));
    NNRT_ASSIGN_OR_RETURN(uint32_t offsets, apply(b, ANEURALNETWORKS_BATCH_MATMUL, {totals, overBlocks, adjX, adjY},
                                                  x->type, {rows, blocks}));
    NNRT_ASSIGN_OR_RETURN(offsets, b.reshape(offsets, x->type, {rows, blocks, 1}));
    NNRT_ASSIGN_OR_RETURN(sums, b.reshape(sums, x->type, {rows, blocks, width}));
    NNRT_ASSIGN_OR_RETURN(sums, arithmetic(b, ANEURALNETWORKS_ADD, sums, offsets, x->type, {rows, blocks, width}));
  }
  NNRT_ASSIGN_OR_RETURN(current, b.reshape(sums, x->type, {rows, padded}));
  if (padded != n) {
    NNRT_ASSIGN_OR_RETURN(uint32_t begin, b.constInts({0, 0}));
    NNRT_ASSIGN_OR_RETURN(uint32_t size, b.constInts({static_cast<int32_t>(rows), static_cast<int32_t>(n)}));
    NNRT_ASSIGN_OR_RETURN(current, apply(b, ANEURALNETWORKS_SLICE, {current, begin, size}, x->type, {rows, n}));
  }
  NNRT_ASSIGN_OR_RETURN(current, b.reshape(current, x->type, moved));
  if (axis != rank - 1) {
    NNRT_ASSIGN_OR_RETURN(uint32_t permOperand, b.constInts(perm));
    NNRT_ASSIGN_OR_RETURN(current,
                          apply(b, ANEURALNETWORKS_TRANSPOSE, {current, permOperand}, x->type, x->dims));
  }
  defineOperand(b, 0, current, x->type, x->dims, x->scalar);
  return {};
}

// MeanVarianceNormalization, ONNX's function body: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9).
Result<void> mapMeanVarianceNorm(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> axes, b.attrInts("axes"));
  if (b.attribute("axes") == nullptr) axes = {0, 2, 3};
  const size_t rank = x->dims.size();
  Dims reducedDims = x->dims;
  std::vector<int32_t> list;
  for (int64_t a : axes) {
    NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
    list.push_back(static_cast<int32_t>(axis));
    reducedDims[axis] = 1;
  }
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  auto mean = [&](uint32_t operand) -> Result<uint32_t> {
    NNRT_ASSIGN_OR_RETURN(uint32_t axesOperand, b.constInts(list));
    NNRT_ASSIGN_OR_RETURN(uint32_t keep, b.scalarInt(1));
    return apply(b, ANEURALNETWORKS_MEAN, {operand, axesOperand, keep}, f32, reducedDims);
  };
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t average, mean(in));
  NNRT_ASSIGN_OR_RETURN(uint32_t averageSquared,
                        arithmetic(b, ANEURALNETWORKS_MUL, average, average, f32, reducedDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t squared, arithmetic(b, ANEURALNETWORKS_MUL, in, in, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t averageOfSquares, mean(squared));
  NNRT_ASSIGN_OR_RETURN(uint32_t variance, arithmetic(b, ANEURALNETWORKS_SUB, averageOfSquares,
                                                      averageSquared, f32, reducedDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t stdDev, apply(b, ANEURALNETWORKS_SQRT, {variance}, f32, reducedDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t epsilon, b.constFloats({1e-9f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t shifted,
                        arithmetic(b, ANEURALNETWORKS_ADD, stdDev, epsilon, f32, reducedDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t centered, arithmetic(b, ANEURALNETWORKS_SUB, in, average, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, arithmetic(b, ANEURALNETWORKS_DIV, centered, shifted, f32, x->dims));
  defineOperand(b, 0, out, f32, x->dims);
  return {};
}

}  // namespace nnrt::onnxfront
