// ONNX quantization operators -> NNAPI: DequantizeLinear, QuantizeLinear, DynamicQuantizeLinear,
// ConvInteger, MatMulInteger, QLinearConv and QLinearMatMul. Integer sums are computed in float32 where
// that is exact (requireExactIntegerSums), and results are rounded as ONNX rounds them (roundHalfToEven).
#include "onnx/operators_common.hpp"

namespace nnrt::onnxfront {

namespace {

// Input `i` of 8-bit integers minus its zero point (input `zeroIndex`, one value, or none), as float32
// (DEQUANTIZE at scale 1 gives the integers themselves, the difference is exact).
Result<Value> integersAsFloat(GraphBuilder& b, int i, int zeroIndex) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(i));
  if (!quantized(x->type)) return b.refused("input " + std::to_string(i) + " must be 8-bit integers");
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  Value value;
  value.type = f32;
  value.dims = x->dims;
  NNRT_ASSIGN_OR_RETURN(value.operand, apply(b, ANEURALNETWORKS_DEQUANTIZE, {in}, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(const Value* zero, b.input(zeroIndex));
  if (zero != nullptr) {
    if (zero->type != x->type || elementCount(zero->dims) != 1)
      return b.refused("zero points other than one value of the operand's type are not supported");
    NNRT_ASSIGN_OR_RETURN(uint32_t z, b.operand(*zero));
    NNRT_ASSIGN_OR_RETURN(uint32_t zf, apply(b, ANEURALNETWORKS_DEQUANTIZE, {z}, f32, zero->dims));
    NNRT_ASSIGN_OR_RETURN(value.operand, arithmetic(b, ANEURALNETWORKS_SUB, value.operand, zf, f32, x->dims));
  }
  return value;
}

// Whether float32 sums of `k` products of differences of 8-bit integers (each at most 255 * 255 in
// magnitude), and a bias of at most `bias`, are exact in any order: every partial sum an integer no
// larger than 2^24.
Result<void> requireExactIntegerSums(GraphBuilder& b, uint64_t k, uint64_t bias = 0) {
  if (k * 255 * 255 + bias > (uint64_t{1} << 24))
    return b.refused("a sum of " + std::to_string(k) + " products of 8-bit integers" +
                     (bias != 0 ? " and a bias up to " + std::to_string(bias) : std::string()) +
                     " may round in float32");
  return {};
}

// The 8-bit type and values of the constant zero point input `i` (one per scale, `count`), or uint8
// zeros when it is absent.
Result<void> outputZeroPoint(GraphBuilder& b, int i, size_t count, int32_t* type,
                             std::vector<double>* values) {
  *type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  values->assign(count, 0.0);
  NNRT_ASSIGN_OR_RETURN(const Value* zp, b.input(i));
  if (zp == nullptr) return {};
  if (!zp->constant.has_value())
    return b.refused("input " + std::to_string(i) + " ('" + b.node()->input(i) + "') must be a constant");
  if (!quantized(zp->type) || elementCount(zp->dims) != count)
    return b.refused("the output zero point must be 8-bit with its scale's size");
  *type = zp->type;
  for (size_t k = 0; k < count; ++k) {
    uint8_t byte = zp->constant->bytes[k];
    (*values)[k] = *type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM ? byte : static_cast<int8_t>(byte);
  }
  return {};
}

// Output `i` of the current node: saturate(round_half_even(scaled) + zero_point) in float32 (the
// rounding, ADD, MAXIMUM, MINIMUM), then QUANTIZE to the loader's 8-bit `outType` of scale 1, which
// takes the whole values as they are. `zeroOperand` is float32 (broadcast against `dims`).
Result<void> quantizeRounded(GraphBuilder& b, uint32_t scaled, const Dims& dims, uint32_t zeroOperand,
                             int32_t outType, bool scalar = false, int i = 0) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t rounded, roundHalfToEven(b, scaled, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t shifted,
                        arithmetic(b, ANEURALNETWORKS_ADD, rounded, zeroOperand, f32, dims));
  const bool isUnsigned = outType == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  NNRT_ASSIGN_OR_RETURN(uint32_t low, b.constFloats({isUnsigned ? 0.0f : -128.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t high, b.constFloats({isUnsigned ? 255.0f : 127.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t raised, apply(b, ANEURALNETWORKS_MAXIMUM, {shifted, low}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t saturated, apply(b, ANEURALNETWORKS_MINIMUM, {raised, high}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, apply(b, ANEURALNETWORKS_QUANTIZE, {saturated}, outType, dims));
  defineOperand(b, i, out, outType, dims, scalar);
  return {};
}

// A float32 constant of the zero points `values` with `dims`.
Result<uint32_t> zeroPointOperand(GraphBuilder& b, const std::vector<double>& values, const Dims& dims) {
  NNRT_ASSIGN_OR_RETURN(HostTensor t, filledTensor(b, ANEURALNETWORKS_TENSOR_FLOAT32, dims, values));
  return b.addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, dims, std::move(t.bytes));
}

// The one value of the constant float32 scale input `i`.
Result<float> oneScale(GraphBuilder& b, int i) {
  NNRT_ASSIGN_OR_RETURN(std::vector<float> scale, b.constantFloats(i));
  if (scale.size() != 1)
    return b.refused("input " + std::to_string(i) + ": scales other than one per tensor are not supported");
  return scale[0];
}

}  // namespace

namespace {

// Blocked quantization (opset 21's block_size: a scale per block of an axis) is not mapped.
Result<void> refuseBlocked(const GraphBuilder& b) {
  NNRT_RETURN_IF_ERROR(refuseBeforeOpset(b, "block_size", 21));
  NNRT_ASSIGN_OR_RETURN(int64_t blockSize, b.attrInt("block_size", 0));
  if (blockSize != 0) return b.refused("attribute 'block_size' (blocked quantization) is not supported");
  return {};
}

}  // namespace

// DequantizeLinear: (x - zero_point) * scale in float32, as ONNX computes it: DEQUANTIZE of the 8-bit
// integers (scale 1, zero point 0: their values exactly; CAST for int32), then SUB and MUL with the
// constant zero point and scale (per tensor, or per slice along `axis`).
Result<void> mapDequantizeLinear(GraphBuilder& b) {
  NNRT_RETURN_IF_ERROR(refuseBlocked(b));
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!quantized(x->type) && x->type != ANEURALNETWORKS_TENSOR_INT32)
    return b.refused("only 8-bit and 32-bit integer inputs are supported");
  NNRT_ASSIGN_OR_RETURN(std::vector<float> scale, b.constantFloats(1));
  std::vector<double> zeroPoint(scale.size(), 0.0);
  NNRT_ASSIGN_OR_RETURN(const Value* zp, b.input(2));
  if (zp != nullptr) {
    if (!zp->constant.has_value())
      return b.refused("input 2 ('" + b.node()->input(2) + "') must be a constant");
    if (zp->type != x->type || elementCount(zp->dims) != scale.size())
      return b.refused("x_zero_point must match x's type and x_scale's size");
    for (size_t i = 0; i < scale.size(); ++i) {
      const uint8_t* p = zp->constant->bytes.data() + i * elementSize(zp->type);
      int32_t v;
      if (zp->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM)
        v = *p;
      else if (zp->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED)
        v = static_cast<int8_t>(*p);
      else
        std::memcpy(&v, p, 4);
      zeroPoint[i] = v;
    }
  }
  Dims parameterDims{1};
  if (scale.size() != 1) {
    NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", 1));
    NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, x->dims.size()));
    if (x->dims[axis] != scale.size()) return b.refused("x_scale does not match the axis");
    parameterDims.assign(x->dims.size() - axis, 1);
    parameterDims[0] = static_cast<uint32_t>(scale.size());
  }
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(
      uint32_t values,
      apply(b, quantized(x->type) ? ANEURALNETWORKS_DEQUANTIZE : ANEURALNETWORKS_CAST, {in}, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(HostTensor zeroTensor, filledTensor(b, f32, parameterDims, zeroPoint));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeroOperand, b.addConstant(f32, parameterDims, std::move(zeroTensor.bytes)));
  NNRT_ASSIGN_OR_RETURN(uint32_t centered,
                        arithmetic(b, ANEURALNETWORKS_SUB, values, zeroOperand, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t scaleOperand, b.constFloats(scale, parameterDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t out,
                        arithmetic(b, ANEURALNETWORKS_MUL, centered, scaleOperand, f32, x->dims));
  defineOperand(b, 0, out, f32, x->dims, x->scalar);
  return {};
}

// QuantizeLinear to uint8 or int8, as ONNX computes it: saturate(round_half_even(x / scale) + zero_point)
// in float32 (DIV, the rounding above, ADD, MAXIMUM, MINIMUM), then QUANTIZE to the loader's 8-bit
// type of scale 1, which takes the whole values as they are. The output type is the zero point's, else
// output_dtype's (opset 21), else uint8; saturate (opset 19) only concerns float8 outputs, which are
// refused by type.
Result<void> mapQuantizeLinear(GraphBuilder& b) {
  NNRT_RETURN_IF_ERROR(refuseBlocked(b));
  NNRT_RETURN_IF_ERROR(refuseBeforeOpset(b, "saturate", 19));
  NNRT_RETURN_IF_ERROR(refuseBeforeOpset(b, "output_dtype", 21));
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(const Value* zp, b.input(2));
  NNRT_ASSIGN_OR_RETURN(int64_t outputDtype, b.attrInt("output_dtype", 0));
  int32_t unnamedType = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;  // without a zero point
  if (outputDtype != 0) {
    auto type = nnapiTensorType(static_cast<int32_t>(outputDtype));
    if (!type.has_value() || !quantized(*type)) {
      return b.refused("attribute 'output_dtype' " + onnxTypeName(static_cast<int32_t>(outputDtype)) +
                       ": only uint8 and int8 outputs are supported");
    }
    if (zp != nullptr && zp->type != *type)
      return b.refused("attribute 'output_dtype' differs from the zero point's type");
    unnamedType = *type;
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(const Value* scaleValue, b.requiredInput(1));
  const bool perTensor = scaleValue->type == f32 && elementCount(scaleValue->dims) == 1 &&
                         (zp == nullptr || (quantized(zp->type) && elementCount(zp->dims) == 1));
  if (perTensor && (!scaleValue->constant.has_value() || (zp != nullptr && !zp->constant.has_value()))) {
    // Given at run time (the expanded DynamicQuantizeLinear computes them); per axis they must be constants.
    NNRT_ASSIGN_OR_RETURN(uint32_t scaleOperand, b.operand(*scaleValue));
    uint32_t zeroOperand;
    if (zp != nullptr) {
      NNRT_ASSIGN_OR_RETURN(uint32_t z, b.operand(*zp));
      NNRT_ASSIGN_OR_RETURN(zeroOperand, apply(b, ANEURALNETWORKS_DEQUANTIZE, {z}, f32, zp->dims));
    } else {
      NNRT_ASSIGN_OR_RETURN(zeroOperand, b.constFloats({0.0f}));
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t scaled,
                          arithmetic(b, ANEURALNETWORKS_DIV, in, scaleOperand, f32, x->dims));
    return quantizeRounded(b, scaled, x->dims, zeroOperand, zp != nullptr ? zp->type : unnamedType,
                           x->scalar);
  }
  NNRT_ASSIGN_OR_RETURN(std::vector<float> scale, b.constantFloats(1));
  int32_t outType;
  std::vector<double> zeroPoint;
  NNRT_RETURN_IF_ERROR(outputZeroPoint(b, 2, scale.size(), &outType, &zeroPoint));
  if (zp == nullptr) outType = unnamedType;
  Dims parameterDims{1};
  if (scale.size() != 1) {
    NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", 1));
    NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, x->dims.size()));
    if (x->dims[axis] != scale.size()) return b.refused("y_scale does not match the axis");
    parameterDims.assign(x->dims.size() - axis, 1);
    parameterDims[0] = static_cast<uint32_t>(scale.size());
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t scaleOperand, b.constFloats(scale, parameterDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t scaled, arithmetic(b, ANEURALNETWORKS_DIV, in, scaleOperand, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeroOperand, zeroPointOperand(b, zeroPoint, parameterDims));
  return quantizeRounded(b, scaled, x->dims, zeroOperand, outType, x->scalar);
}

// DynamicQuantizeLinear, ONNX's formulas in float32: y_scale = (max(0, max(x)) - min(0, min(x))) / 255
// (REDUCE_MAX, REDUCE_MIN, MAXIMUM, MINIMUM, SUB, DIV), y_zero_point = saturate(round(0 - min / y_scale))
// and y = saturate(round(x / y_scale) + y_zero_point), rounding halves to even, as QuantizeLinear.
Result<void> mapDynamicQuantizeLinear(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32, u8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  const Dims one{1};
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  std::vector<int32_t> axes(x->dims.size());
  std::iota(axes.begin(), axes.end(), 0);
  NNRT_ASSIGN_OR_RETURN(uint32_t axesOperand, b.constInts(axes));
  NNRT_ASSIGN_OR_RETURN(uint32_t keep, b.scalarBool(false));
  NNRT_ASSIGN_OR_RETURN(uint32_t zero, b.constFloats({0.0f}));
  uint32_t bounds[2];
  for (int k = 0; k < 2; ++k) {
    NNRT_ASSIGN_OR_RETURN(uint32_t extreme,
                          apply(b, k == 0 ? ANEURALNETWORKS_REDUCE_MIN : ANEURALNETWORKS_REDUCE_MAX,
                                {in, axesOperand, keep}, f32, one));
    NNRT_ASSIGN_OR_RETURN(bounds[k], apply(b, k == 0 ? ANEURALNETWORKS_MINIMUM : ANEURALNETWORKS_MAXIMUM,
                                           {extreme, zero}, f32, one));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t range, arithmetic(b, ANEURALNETWORKS_SUB, bounds[1], bounds[0], f32, one));
  NNRT_ASSIGN_OR_RETURN(uint32_t levels, b.constFloats({255.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t scale, arithmetic(b, ANEURALNETWORKS_DIV, range, levels, f32, one));
  defineOperand(b, 1, scale, f32, one, true);
  NNRT_ASSIGN_OR_RETURN(uint32_t minOverScale,
                        arithmetic(b, ANEURALNETWORKS_DIV, bounds[0], scale, f32, one));
  NNRT_ASSIGN_OR_RETURN(uint32_t intermediate,
                        arithmetic(b, ANEURALNETWORKS_SUB, zero, minOverScale, f32, one));
  // saturate, then round (ONNX's order; the same as rounding first for a bound that is whole).
  NNRT_ASSIGN_OR_RETURN(uint32_t high, b.constFloats({255.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t raised, apply(b, ANEURALNETWORKS_MAXIMUM, {intermediate, zero}, f32, one));
  NNRT_ASSIGN_OR_RETURN(uint32_t saturated, apply(b, ANEURALNETWORKS_MINIMUM, {raised, high}, f32, one));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeroPoint, roundHalfToEven(b, saturated, one));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeroPoint8, apply(b, ANEURALNETWORKS_QUANTIZE, {zeroPoint}, u8, one));
  defineOperand(b, 2, zeroPoint8, u8, one, true);
  NNRT_ASSIGN_OR_RETURN(uint32_t scaled, arithmetic(b, ANEURALNETWORKS_DIV, in, scale, f32, x->dims));
  return quantizeRounded(b, scaled, x->dims, zeroPoint, u8);
}

Result<void> mapConvInteger(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* w, b.requiredInput(1));
  if (w->dims.size() != 4 || !allKnown(w->dims)) return b.refused("weights must be 4-D with a known shape");
  NNRT_RETURN_IF_ERROR(requireExactIntegerSums(b, uint64_t{w->dims[1]} * w->dims[2] * w->dims[3]));
  NNRT_ASSIGN_OR_RETURN(Value xf, integersAsFloat(b, 0, 2));
  NNRT_ASSIGN_OR_RETURN(Value wf, integersAsFloat(b, 1, 3));
  uint32_t sums = kNoOperand;
  NNRT_RETURN_IF_ERROR(convolve(b, &xf, &wf, nullptr, &sums));
  const Dims out = b.operandRecords()[sums].dimensions;
  return b.emit(ANEURALNETWORKS_CAST, {sums}, ANEURALNETWORKS_TENSOR_INT32, out);
}

// MatMulInteger: (A - a_zero_point) (B - b_zero_point) in int32, computed exactly in float32 (see
// integersAsFloat, requireExactIntegerSums): BATCH_MATMUL, CAST to int32.
Result<void> mapMatMulInteger(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* a, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* w, b.requiredInput(1));
  if (a->scalar || w->scalar || a->dims.size() != 2 || w->dims.size() != 2 || !allKnown(a->dims) ||
      !allKnown(w->dims))
    return b.refused("only 2-D operands of known shapes are supported");
  if (a->dims[1] != w->dims[0]) return b.refused("operands do not multiply");
  NNRT_RETURN_IF_ERROR(requireExactIntegerSums(b, a->dims[1]));
  NNRT_ASSIGN_OR_RETURN(Value af, integersAsFloat(b, 0, 2));
  NNRT_ASSIGN_OR_RETURN(Value wf, integersAsFloat(b, 1, 3));
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  const Dims out{a->dims[0], w->dims[1]};
  NNRT_ASSIGN_OR_RETURN(uint32_t adjX, b.scalarBool(false));
  NNRT_ASSIGN_OR_RETURN(uint32_t adjY, b.scalarBool(false));
  NNRT_ASSIGN_OR_RETURN(uint32_t product, apply(b, ANEURALNETWORKS_BATCH_MATMUL,
                                                {af.operand, wf.operand, adjX, adjY}, f32, out));
  return b.emit(ANEURALNETWORKS_CAST, {product}, ANEURALNETWORKS_TENSOR_INT32, out);
}

// QLinearConv and QLinearMatMul: the int32 sum of products of (x - x_zero_point) and (w - w_zero_point)
// (computed exactly in float32, as ConvInteger's and MatMulInteger's; QLinearConv's int32 bias added to
// it exactly), times x_scale * w_scale / y_scale (computed at load time in float32, as ONNX Runtime
// requantizes), then rounded and saturated as QuantizeLinear: saturate(round_half_even(sum * multiplier) +
// y_zero_point). `multipliers` has one value, or one per output channel (QLinearConv's per-channel w_scale).
Result<void> requantizeSums(GraphBuilder& b, uint32_t sums, const Dims& dims,
                            const std::vector<float>& multipliers, int zeroPointInput) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  Dims parameterDims{1};
  if (multipliers.size() > 1) parameterDims = {static_cast<uint32_t>(multipliers.size()), 1, 1};
  NNRT_ASSIGN_OR_RETURN(uint32_t multiplier, b.constFloats(multipliers, parameterDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t scaled, arithmetic(b, ANEURALNETWORKS_MUL, sums, multiplier, f32, dims));
  int32_t outType;
  std::vector<double> zeroPoint;
  NNRT_RETURN_IF_ERROR(outputZeroPoint(b, zeroPointInput, 1, &outType, &zeroPoint));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeroOperand, zeroPointOperand(b, zeroPoint, {1}));
  return quantizeRounded(b, scaled, dims, zeroOperand, outType);
}

// QLinearConv (2-D, as Conv): see requantizeSums; the bias, when given, must be constant so that the
// bound on the sums (requireExactIntegerSums with its largest magnitude) is known at load time.
Result<void> mapQLinearConv(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* w, b.requiredInput(3));
  if (w->dims.size() != 4 || !allKnown(w->dims)) return b.refused("weights must be 4-D with a known shape");
  const uint32_t M = w->dims[0];
  NNRT_ASSIGN_OR_RETURN(float xScale, oneScale(b, 1));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> wScale, b.constantFloats(4));
  NNRT_ASSIGN_OR_RETURN(float yScale, oneScale(b, 6));
  if (wScale.size() != 1 && wScale.size() != M)
    return b.refused("w_scale must have one value or one per output channel");
  std::optional<Value> bias;
  uint64_t biasBound = 0;
  NNRT_ASSIGN_OR_RETURN(const Value* biasInput, b.input(8));
  if (biasInput != nullptr) {
    if (!biasInput->constant.has_value() || biasInput->type != ANEURALNETWORKS_TENSOR_INT32 ||
        elementCount(biasInput->dims) != M)
      return b.refused("the bias must be a constant of M int32 values");
    std::vector<int32_t> values(M);
    std::memcpy(values.data(), biasInput->constant->bytes.data(), M * 4);
    std::vector<double> asDouble(values.begin(), values.end());
    for (int32_t v : values)
      biasBound = std::max<uint64_t>(biasBound, static_cast<uint64_t>(std::abs(int64_t{v})));
    NNRT_ASSIGN_OR_RETURN(HostTensor t, filledTensor(b, ANEURALNETWORKS_TENSOR_FLOAT32, {M}, asDouble));
    bias.emplace();
    bias->type = ANEURALNETWORKS_TENSOR_FLOAT32;
    bias->dims = {M};
    NNRT_ASSIGN_OR_RETURN(bias->operand, b.addConstant(bias->type, bias->dims, std::move(t.bytes)));
  }
  NNRT_RETURN_IF_ERROR(requireExactIntegerSums(b, uint64_t{w->dims[1]} * w->dims[2] * w->dims[3], biasBound));
  NNRT_ASSIGN_OR_RETURN(Value xf, integersAsFloat(b, 0, 2));
  NNRT_ASSIGN_OR_RETURN(Value wf, integersAsFloat(b, 3, 5));
  uint32_t sums = kNoOperand;
  NNRT_RETURN_IF_ERROR(convolve(b, &xf, &wf, bias ? &*bias : nullptr, &sums));
  const Dims out = b.operandRecords()[sums].dimensions;
  std::vector<float> multipliers;
  for (float s : wScale)
    multipliers.push_back(xScale * s / yScale);
  return requantizeSums(b, sums, out, multipliers, 7);
}

// QLinearMatMul of 2-D to 4-D operands with equal batch dimensions (BATCH_MATMUL), per-tensor scales and
// zero points: see requantizeSums.
Result<void> mapQLinearMatMul(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* a, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* w, b.requiredInput(3));
  const size_t r = a->dims.size();
  if (a->scalar || w->scalar || r < 2 || r > 4 || w->dims.size() != r || !allKnown(a->dims) ||
      !allKnown(w->dims))
    return b.refused("only operands of one rank, 2 to 4, and known shapes are supported");
  for (size_t i = 0; i + 2 < r; ++i) {
    if (a->dims[i] != w->dims[i]) return b.refused("broadcast batch dimensions are not supported");
  }
  if (a->dims[r - 1] != w->dims[r - 2]) return b.refused("operands do not multiply");
  NNRT_ASSIGN_OR_RETURN(float aScale, oneScale(b, 1));
  NNRT_ASSIGN_OR_RETURN(float bScale, oneScale(b, 4));
  NNRT_ASSIGN_OR_RETURN(float yScale, oneScale(b, 6));
  NNRT_RETURN_IF_ERROR(requireExactIntegerSums(b, a->dims[r - 1]));
  NNRT_ASSIGN_OR_RETURN(Value af, integersAsFloat(b, 0, 2));
  NNRT_ASSIGN_OR_RETURN(Value wf, integersAsFloat(b, 3, 5));
  Dims out = a->dims;
  out[r - 1] = w->dims[r - 1];
  NNRT_ASSIGN_OR_RETURN(uint32_t adjX, b.scalarBool(false));
  NNRT_ASSIGN_OR_RETURN(uint32_t adjY, b.scalarBool(false));
  NNRT_ASSIGN_OR_RETURN(uint32_t sums,
                        apply(b, ANEURALNETWORKS_BATCH_MATMUL, {af.operand, wf.operand, adjX, adjY},
                              ANEURALNETWORKS_TENSOR_FLOAT32, out));
  return requantizeSums(b, sums, out, {aScale * bScale / yScale}, 7);
}

}  // namespace nnrt::onnxfront
