// ONNX quantization operators -> NNAPI: DequantizeLinear and QuantizeLinear.
#include "onnx/operators_common.hpp"

namespace nnrt::onnxfront {

// DequantizeLinear: (x - zero_point) * scale in float32, as ONNX computes it: DEQUANTIZE of the 8-bit
// integers (scale 1, zero point 0: their values exactly; CAST for int32), then SUB and MUL with the
// constant zero point and scale (per tensor, or per slice along `axis`).
Result<void> mapDequantizeLinear(GraphBuilder& b) {
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
// type of scale 1, which takes the whole values as they are.
Result<void> mapQuantizeLinear(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(std::vector<float> scale, b.constantFloats(1));
  NNRT_ASSIGN_OR_RETURN(const Value* zp, b.input(2));
  int32_t outType = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  std::vector<double> zeroPoint(scale.size(), 0.0);
  if (zp != nullptr) {
    if (!zp->constant.has_value())
      return b.refused("input 2 ('" + b.node()->input(2) + "') must be a constant");
    if (!quantized(zp->type) || elementCount(zp->dims) != scale.size())
      return b.refused("y_zero_point must be 8-bit with x_scale's size");
    outType = zp->type;
    for (size_t i = 0; i < scale.size(); ++i) {
      uint8_t byte = zp->constant->bytes[i];
      zeroPoint[i] = outType == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM ? byte : static_cast<int8_t>(byte);
    }
  }
  Dims parameterDims{1};
  if (scale.size() != 1) {
    NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", 1));
    NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, x->dims.size()));
    if (x->dims[axis] != scale.size()) return b.refused("y_scale does not match the axis");
    parameterDims.assign(x->dims.size() - axis, 1);
    parameterDims[0] = static_cast<uint32_t>(scale.size());
  }
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t scaleOperand, b.constFloats(scale, parameterDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t scaled, arithmetic(b, ANEURALNETWORKS_DIV, in, scaleOperand, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t rounded, roundHalfToEven(b, scaled, x->dims));
  NNRT_ASSIGN_OR_RETURN(HostTensor zeroTensor, filledTensor(b, f32, parameterDims, zeroPoint));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeroOperand, b.addConstant(f32, parameterDims, std::move(zeroTensor.bytes)));
  NNRT_ASSIGN_OR_RETURN(uint32_t shifted,
                        arithmetic(b, ANEURALNETWORKS_ADD, rounded, zeroOperand, f32, x->dims));
  const bool isUnsigned = outType == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  NNRT_ASSIGN_OR_RETURN(uint32_t low, b.constFloats({isUnsigned ? 0.0f : -128.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t high, b.constFloats({isUnsigned ? 255.0f : 127.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t raised, apply(b, ANEURALNETWORKS_MAXIMUM, {shifted, low}, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t saturated, apply(b, ANEURALNETWORKS_MINIMUM, {raised, high}, f32, x->dims));
  return b.emit(ANEURALNETWORKS_QUANTIZE, {saturated}, outType, x->dims);
}

}  // namespace nnrt::onnxfront
