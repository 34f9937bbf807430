// ONNX operators -> NNAPI operations. Each mapping checks what NNAPI cannot express exactly and
// refuses it with the reason; shapes are inferred as it goes (0 = unknown dimension).
#include "onnx/operators_common.hpp"

namespace nnrt::onnxfront {

// Adds NNAPI operation `op` with one new output operand of `type` and `dims`; returns that operand.
Result<uint32_t> apply(GraphBuilder& b, int32_t op, const std::vector<uint32_t>& inputs, int32_t type,
                       const Dims& dims) {
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.addTensor(type, dims));
  NNRT_RETURN_IF_ERROR(b.addOperation(op, inputs, {out}));
  return out;
}

// ADD, SUB, MUL or DIV of two operands (NNAPI broadcasting), no fused activation.
Result<uint32_t> arithmetic(GraphBuilder& b, int32_t op, uint32_t x, uint32_t y, int32_t type,
                            const Dims& dims) {
  NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  return apply(b, op, {x, y, fuse}, type, dims);
}

// Defines output `i` of the current node as `operand`.
void defineOperand(GraphBuilder& b, int i, uint32_t operand, int32_t type, const Dims& dims, bool scalar) {
  Value v;
  v.operand = operand;
  v.type = type;
  v.dims = dims;
  v.scalar = scalar;
  b.define(i, std::move(v));
}

// Defines output `i` of the current node as a load-time constant.
void defineConstant(GraphBuilder& b, int i, HostTensor t) {
  Value v;
  v.type = t.type;
  v.dims = t.dimensions.empty() ? Dims{1} : t.dimensions;
  v.scalar = t.dimensions.empty();
  v.constant = std::move(t);
  b.define(i, std::move(v));
}

std::vector<int64_t> stridesOf(const Dims& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;)
    strides[d - 1] = strides[d] * dims[d];
  return strides;
}

Result<uint32_t> gatherAt(GraphBuilder& b, uint32_t operand, int32_t type, const Dims& dims,
                          const std::vector<int32_t>& map, const Dims& outDims) {
  const Dims count{static_cast<uint32_t>(map.size())};
  NNRT_ASSIGN_OR_RETURN(uint32_t flat, b.reshape(operand, type, {static_cast<uint32_t>(elementCount(dims))}));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, b.scalarInt(0));
  NNRT_ASSIGN_OR_RETURN(uint32_t indices, b.constInts(map, count));
  NNRT_ASSIGN_OR_RETURN(uint32_t gathered, apply(b, ANEURALNETWORKS_GATHER, {flat, axis, indices}, type, count));
  return b.reshape(gathered, type, outDims);
}

Dims packedDims(const Dims& dims) {
  return {dims[0] * dims[1], dims[2], dims[3], dims[4]};
}

Result<uint32_t> packedOperand(GraphBuilder& b, const Value& v) {
  if (v.packed) return v.operand;
  if (v.dims.size() != 5 || !v.constant.has_value() || !allKnown(v.dims))
    return b.refused("a 5-D value that is neither packed nor a constant");
  return b.addConstant(v.type, packedDims(v.dims), v.constant->bytes);
}

void definePacked(GraphBuilder& b, int i, uint32_t operand, int32_t type, const Dims& dims) {
  Value v;
  v.operand = operand;
  v.type = type;
  v.dims = dims;
  v.packed = true;
  b.define(i, std::move(v));
}

// A constant tensor of `type` (float32, int32 or bool) and `dims` holding `values` (converted).
Result<HostTensor> filledTensor(const GraphBuilder& b, int32_t type, const Dims& dims,
                                const std::vector<double>& values) {
  HostTensor t;
  t.type = type;
  t.dimensions = dims;
  t.bytes.resize(values.size() * elementSize(type));
  for (size_t i = 0; i < values.size(); ++i) {
    if (type == ANEURALNETWORKS_TENSOR_FLOAT32) {
      float v = static_cast<float>(values[i]);
      std::memcpy(t.bytes.data() + 4 * i, &v, 4);
    } else if (type == ANEURALNETWORKS_TENSOR_INT32) {
      if (values[i] < INT32_MIN || values[i] > INT32_MAX) return b.refused("a value does not fit int32");
      int32_t v = static_cast<int32_t>(values[i]);
      std::memcpy(t.bytes.data() + 4 * i, &v, 4);
    } else if (type == ANEURALNETWORKS_TENSOR_BOOL8) {
      t.bytes[i] = values[i] != 0 ? 1 : 0;
    } else {
      return b.refused("only float32, int32 and bool tensors are supported");
    }
  }
  return t;
}

// A constant operand of `type` and `dims` with every element `value`.
Result<uint32_t> constFilled(GraphBuilder& b, int32_t type, const Dims& dims, double value) {
  NNRT_ASSIGN_OR_RETURN(HostTensor t,
                        filledTensor(b, type, dims, std::vector<double>(elementCount(dims), value)));
  return b.addConstant(type, dims, std::move(t.bytes));
}

Result<Dims> broadcastShape(const GraphBuilder& b, const Dims& x, const Dims& y) {
  Dims out(std::max(x.size(), y.size()));
  for (size_t i = 0; i < out.size(); ++i) {
    uint32_t dx = i < out.size() - x.size() ? 1 : x[i - (out.size() - x.size())];
    uint32_t dy = i < out.size() - y.size() ? 1 : y[i - (out.size() - y.size())];
    if (dx == dy || dy == 1)
      out[i] = dx;
    else if (dx == 1)
      out[i] = dy;
    else if (dx == 0 || dy == 0)
      out[i] = 0;
    else
      return b.refused("shapes do not broadcast");
  }
  return out;
}

bool quantized(int32_t type) {
  return type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM || type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
}

// 8-bit integers (scale 1, zero point 0) only where NNAPI computes on them without requantizing.
Result<void> refuseQuantizedArithmetic(const GraphBuilder& b, const Value& v) {
  if (quantized(v.type))
    return b.refused("8-bit integer arithmetic: NNAPI saturates and requantizes where ONNX wraps");
  return {};
}

bool allKnown(const Dims& dims) {
  return std::all_of(dims.begin(), dims.end(), [](uint32_t d) { return d != 0; });
}

Result<void> requireFloat(const GraphBuilder& b, const Value& v) {
  if (v.type != ANEURALNETWORKS_TENSOR_FLOAT32) return b.refused("only float32 tensors are supported");
  return {};
}

Result<void> refuseBeforeOpset(const GraphBuilder& b, const char* attribute, int64_t opset) {
  if (b.opset() < opset && b.attribute(attribute) != nullptr) {
    return b.refused("attribute '" + std::string(attribute) + "' is not defined before opset " +
                     std::to_string(opset));
  }
  return {};
}

namespace {

const std::vector<const char*> kConvAttributes{"auto_pad",     "dilations", "group",
                                               "kernel_shape", "pads",      "strides"};

}  // namespace

const std::vector<OperatorMapping>& operatorMappings() {
  static const std::vector<OperatorMapping> mappings = {
      {"Abs", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_ABS); }},
      {"Acos", {}, [](GraphBuilder& b) { return inverseTrigonometric(b, "Acos"); }},
      {"Acosh", {}, [](GraphBuilder& b) { return inverseTrigonometric(b, "Acosh"); }},
      {"Add", {}, [](GraphBuilder& b) { return binary(b, ANEURALNETWORKS_ADD, true); }},
      {"And", {}, [](GraphBuilder& b) { return binary(b, ANEURALNETWORKS_LOGICAL_AND, false); }},
      {"ArgMax",
       {"axis", "keepdims", "select_last_index"},
       [](GraphBuilder& b) { return argMinMax(b, ANEURALNETWORKS_ARGMAX); }},
      {"ArgMin",
       {"axis", "keepdims", "select_last_index"},
       [](GraphBuilder& b) { return argMinMax(b, ANEURALNETWORKS_ARGMIN); }},
      {"Asin", {}, [](GraphBuilder& b) { return inverseTrigonometric(b, "Asin"); }},
      {"Asinh", {}, [](GraphBuilder& b) { return inverseTrigonometric(b, "Asinh"); }},
      {"Atan", {}, [](GraphBuilder& b) { return inverseTrigonometric(b, "Atan"); }},
      {"Atanh", {}, [](GraphBuilder& b) { return inverseTrigonometric(b, "Atanh"); }},
      {"AveragePool",
       {"auto_pad", "ceil_mode", "count_include_pad", "dilations", "kernel_shape", "pads", "strides"},
       [](GraphBuilder& b) { return pool(b, ANEURALNETWORKS_AVERAGE_POOL_2D, false); }},
      {"BatchNormalization", {"epsilon", "momentum", "training_mode"}, mapBatchNorm},
      {"BlackmanWindow",
       {"output_datatype", "periodic"},
       [](GraphBuilder& b) { return windowFunction(b, "Blackman"); }},
      {"Cast", {"saturate", "to"}, mapCast},
      {"CastLike", {"saturate"}, mapCastLike},
      {"Ceil", {}, mapCeil},
      {"Celu", {"alpha"}, mapCelu},
      {"Clip", {"min", "max"}, mapClip},
      {"Compress", {"axis"}, mapCompress},
      {"Concat", {"axis"}, mapConcat},
      {"Constant", {"value", "value_float", "value_floats", "value_int", "value_ints"}, mapConstant},
      {"ConstantOfShape", {"value"}, mapConstantOfShape},
      {"Conv", kConvAttributes, mapConv},
      {"ConvInteger", kConvAttributes, mapConvInteger},
      {"ConvTranspose",
       {"auto_pad", "dilations", "group", "kernel_shape", "output_padding", "output_shape", "pads",
        "strides"},
       mapConvTranspose},
      {"Cos", {}, [](GraphBuilder& b) { return trigonometric(b, "Cos"); }},
      {"Cosh", {}, [](GraphBuilder& b) { return trigonometric(b, "Cosh"); }},
      {"CumSum", {"exclusive", "reverse"}, mapCumSum},
      {"DepthToSpace",
       {"blocksize", "mode"},
       [](GraphBuilder& b) { return spaceDepth(b, ANEURALNETWORKS_DEPTH_TO_SPACE); }},
      {"DequantizeLinear", {"axis", "block_size"}, mapDequantizeLinear},
      {"Div", {}, mapDiv},
      {"DynamicQuantizeLinear", {}, mapDynamicQuantizeLinear},
      {"Dropout", {"is_test", "ratio", "seed"}, mapDropout},
      {"Einsum", {"equation"}, mapEinsum},
      {"Elu", {"alpha"}, mapElu},
      {"Equal",
       {},
       [](GraphBuilder& b) { return binary(b, ANEURALNETWORKS_EQUAL, false, ANEURALNETWORKS_TENSOR_BOOL8); }},
      {"Erf", {}, mapErf},
      {"Exp", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_EXP); }},
      {"Expand", {}, mapExpand},
      {"EyeLike", {"dtype", "k"}, mapEyeLike},
      {"Flatten", {"axis"}, mapFlatten},
      {"Floor", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_FLOOR); }},
      {"Gather", {"axis"}, mapGather},
      {"GatherElements", {"axis"}, mapGatherElements},
      {"GatherND", {"batch_dims"}, mapGatherND},
      {"Gelu", {"approximate"}, mapGelu},
      {"Gemm", {"alpha", "beta", "transA", "transB"}, mapGemm},
      {"GlobalAveragePool",
       {},
       [](GraphBuilder& b) { return pool(b, ANEURALNETWORKS_AVERAGE_POOL_2D, true); }},
      {"GlobalMaxPool", {}, [](GraphBuilder& b) { return pool(b, ANEURALNETWORKS_MAX_POOL_2D, true); }},
      {"Greater",
       {},
       [](GraphBuilder& b) {
         return binary(b, ANEURALNETWORKS_GREATER, false, ANEURALNETWORKS_TENSOR_BOOL8);
       }},
      {"GreaterOrEqual",
       {},
       [](GraphBuilder& b) {
         return binary(b, ANEURALNETWORKS_GREATER_EQUAL, false, ANEURALNETWORKS_TENSOR_BOOL8);
       }},
      {"GridSample", {"align_corners", "mode", "padding_mode"}, mapGridSample},
      {"GroupNormalization", {"epsilon", "num_groups", "stash_type"}, mapGroupNorm},
      {"GRU",
       {"activation_alpha", "activation_beta", "activations", "clip", "direction", "hidden_size", "layout",
        "linear_before_reset"},
       mapGru},
      {"HammingWindow",
       {"output_datatype", "periodic"},
       [](GraphBuilder& b) { return windowFunction(b, "Hamming"); }},
      {"HannWindow", {"output_datatype", "periodic"}, [](GraphBuilder& b) { return windowFunction(b, "Hann"); }},
      {"Hardmax", {"axis"}, mapHardmax},
      {"HardSigmoid", {"alpha", "beta"}, mapHardSigmoid},
      {"HardSwish", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_HARD_SWISH); }},
      {"Identity", {}, mapIdentity},
      {"If", {"else_branch", "then_branch"}, mapIf},
      {"InstanceNormalization", {"epsilon"}, mapInstanceNorm},
      {"IsInf", {"detect_negative", "detect_positive"}, mapIsInf},
      {"IsNaN", {}, mapIsNaN},
      {"LayerNormalization", {"axis", "epsilon", "stash_type"}, mapLayerNorm},
      {"LeakyRelu", {"alpha"}, mapLeakyRelu},
      {"Less",
       {},
       [](GraphBuilder& b) { return binary(b, ANEURALNETWORKS_LESS, false, ANEURALNETWORKS_TENSOR_BOOL8); }},
      {"LessOrEqual",
       {},
       [](GraphBuilder& b) {
         return binary(b, ANEURALNETWORKS_LESS_EQUAL, false, ANEURALNETWORKS_TENSOR_BOOL8);
       }},
      {"Log", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_LOG); }},
      {"LogSoftmax", {"axis"}, [](GraphBuilder& b) { return softmaxLike(b, ANEURALNETWORKS_LOG_SOFTMAX); }},
      {"Loop", {"body"}, mapLoop},
      {"LpNormalization", {"axis", "p"}, mapLpNorm},
      {"LRN", {"alpha", "beta", "bias", "size"}, mapLrn},
      {"LSTM",
       {"activation_alpha", "activation_beta", "activations", "clip", "direction", "hidden_size",
        "input_forget", "layout"},
       mapLstm},
      {"MatMul", {}, mapMatMul},
      {"MatMulInteger", {}, mapMatMulInteger},
      {"Max", {}, [](GraphBuilder& b) { return variadic(b, ANEURALNETWORKS_MAXIMUM, false); }},
      {"MaxPool",
       {"auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads", "storage_order", "strides"},
       [](GraphBuilder& b) { return pool(b, ANEURALNETWORKS_MAX_POOL_2D, false); }},
      {"Mean", {}, mapMean},
      {"MelWeightMatrix", {"output_datatype"}, mapMelWeightMatrix},
      {"MeanVarianceNormalization", {"axes"}, mapMeanVarianceNorm},
      {"Min", {}, [](GraphBuilder& b) { return variadic(b, ANEURALNETWORKS_MINIMUM, false); }},
      {"Mish", {}, mapMish},
      {"Mod", {"fmod"}, mapMod},
      {"Mul", {}, [](GraphBuilder& b) { return binary(b, ANEURALNETWORKS_MUL, true); }},
      {"Neg", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_NEG); }},
      {"Not", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_LOGICAL_NOT); }},
      {"OneHot", {"axis"}, mapOneHot},
      {"Or", {}, [](GraphBuilder& b) { return binary(b, ANEURALNETWORKS_LOGICAL_OR, false); }},
      {"Pad", {"mode", "pads", "value"}, mapPad},
      {"Pow", {}, mapPow},
      {"PRelu", {}, mapPrelu},
      {"QLinearConv", kConvAttributes, mapQLinearConv},
      {"QLinearMatMul", {}, mapQLinearMatMul},
      {"QuantizeLinear", {"axis", "block_size", "output_dtype", "saturate"}, mapQuantizeLinear},
      {"Range", {}, mapRange},
      {"Reciprocal", {}, mapReciprocal},
      {"ReduceL1",
       {"axes", "keepdims", "noop_with_empty_axes"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_REDUCE_SUM, ANEURALNETWORKS_ABS); }},
      {"ReduceL2",
       {"axes", "keepdims", "noop_with_empty_axes"},
       [](GraphBuilder& b) {
         return reduce(b, ANEURALNETWORKS_REDUCE_SUM, ANEURALNETWORKS_MUL, ANEURALNETWORKS_SQRT);
       }},
      {"ReduceLogSum",
       {"axes", "keepdims", "noop_with_empty_axes"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_REDUCE_SUM, 0, ANEURALNETWORKS_LOG); }},
      {"ReduceLogSumExp",
       {"axes", "keepdims", "noop_with_empty_axes"},
       [](GraphBuilder& b) {
         return reduce(b, ANEURALNETWORKS_REDUCE_SUM, ANEURALNETWORKS_EXP, ANEURALNETWORKS_LOG);
       }},
      {"ReduceMax",
       {"axes", "keepdims", "noop_with_empty_axes"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_REDUCE_MAX); }},
      {"ReduceMean",
       {"axes", "keepdims", "noop_with_empty_axes"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_MEAN); }},
      {"ReduceMin",
       {"axes", "keepdims", "noop_with_empty_axes"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_REDUCE_MIN); }},
      {"ReduceProd",
       {"axes", "keepdims", "noop_with_empty_axes"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_REDUCE_PROD); }},
      {"ReduceSum",
       {"axes", "keepdims", "noop_with_empty_axes"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_REDUCE_SUM); }},
      {"ReduceSumSquare",
       {"axes", "keepdims", "noop_with_empty_axes"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_REDUCE_SUM, ANEURALNETWORKS_MUL); }},
      {"Relu", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_RELU); }},
      {"Reshape", {"allowzero"}, mapReshape},
      {"Resize",
       {"antialias", "axes", "coordinate_transformation_mode", "cubic_coeff_a", "exclude_outside",
        "extrapolation_value", "keep_aspect_ratio_policy", "mode", "nearest_mode"},
       mapResize},
      {"ReverseSequence", {"batch_axis", "time_axis"}, mapReverseSequence},
      {"RNN",
       {"activation_alpha", "activation_beta", "activations", "clip", "direction", "hidden_size", "layout"},
       mapRnn},
      {"Round", {}, mapRound},
      {"Scatter", {"axis"}, mapScatterElements},
      {"ScatterElements", {"axis", "reduction"}, mapScatterElements},
      {"ScatterND", {"reduction"}, mapScatterND},
      {"Selu", {"alpha", "gamma"}, mapSelu},
      {"Shape", {"start", "end"}, mapShape},
      {"Shrink", {"bias", "lambd"}, mapShrink},
      {"Sigmoid", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_LOGISTIC); }},
      {"Sign", {}, mapSign},
      {"Sin", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_SIN); }},
      {"Sinh", {}, [](GraphBuilder& b) { return trigonometric(b, "Sinh"); }},
      {"Size", {}, mapSize},
      {"Slice", {"starts", "ends", "axes"}, mapSlice},
      {"Softmax", {"axis"}, [](GraphBuilder& b) { return softmaxLike(b, ANEURALNETWORKS_SOFTMAX); }},
      {"Softplus", {}, mapSoftplus},
      {"Softsign", {}, mapSoftsign},
      {"SpaceToDepth",
       {"blocksize"},
       [](GraphBuilder& b) { return spaceDepth(b, ANEURALNETWORKS_SPACE_TO_DEPTH); }},
      {"Split", {"axis", "num_outputs", "split"}, mapSplit},
      {"Sqrt", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_SQRT); }},
      {"Squeeze", {"axes"}, mapSqueeze},
      {"Sub", {}, [](GraphBuilder& b) { return binary(b, ANEURALNETWORKS_SUB, true); }},
      {"Sum", {}, [](GraphBuilder& b) { return variadic(b, ANEURALNETWORKS_ADD, true); }},
      {"Tan", {}, [](GraphBuilder& b) { return trigonometric(b, "Tan"); }},
      {"Tanh", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_TANH); }},
      {"ThresholdedRelu", {"alpha"}, mapThresholdedRelu},
      {"Tile", {}, mapTile},
      {"TopK", {"axis", "largest", "sorted"}, mapTopK},
      {"Transpose", {"perm"}, mapTranspose},
      {"Trilu", {"upper"}, mapTrilu},
      {"Unsqueeze", {"axes"}, mapUnsqueeze},
      {"Upsample", {"mode", "scales"}, mapUpsample},
      {"Where", {}, mapWhere},
      {"Xor",
       {},
       [](GraphBuilder& b) {
         return binary(b, ANEURALNETWORKS_NOT_EQUAL, false, ANEURALNETWORKS_TENSOR_BOOL8);
       }},
  };
  return mappings;
}

}  // namespace nnrt::onnxfront
