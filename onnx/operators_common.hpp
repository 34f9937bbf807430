// Internal to the ONNX operator mappings (operators.cpp, which holds the registration table and the
// helpers every family uses, and operators_<family>.cpp): what they share. Each definition carries its
// comment.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "onnx/graph_builder.hpp"
#include "onnx/tensor_proto.hpp"

namespace nnrt::onnxfront {

using Dims = std::vector<uint32_t>;

// operators.cpp
Result<uint32_t> apply(GraphBuilder& b, int32_t op, const std::vector<uint32_t>& inputs, int32_t type,
                       const Dims& dims);
Result<uint32_t> arithmetic(GraphBuilder& b, int32_t op, uint32_t x, uint32_t y, int32_t type,
                            const Dims& dims);
void defineOperand(GraphBuilder& b, int i, uint32_t operand, int32_t type, const Dims& dims,
                   bool scalar = false);
void defineConstant(GraphBuilder& b, int i, HostTensor t);
Result<HostTensor> filledTensor(const GraphBuilder& b, int32_t type, const Dims& dims,
                                const std::vector<double>& values);
Result<uint32_t> constFilled(GraphBuilder& b, int32_t type, const Dims& dims, double value);
Result<Dims> broadcastShape(const GraphBuilder& b, const Dims& x, const Dims& y);
bool quantized(int32_t type);
Result<void> refuseQuantizedArithmetic(const GraphBuilder& b, const Value& v);
bool allKnown(const Dims& dims);
Result<void> requireFloat(const GraphBuilder& b, const Value& v);
// Refuses `attribute` on the current node when the model's opset is older than the operator version
// that defines it.
Result<void> refuseBeforeOpset(const GraphBuilder& b, const char* attribute, int64_t opset);

// The strides of `dims`' axes in row-major order (elements).
std::vector<int64_t> stridesOf(const Dims& dims);
// The elements of `operand` (of `type` and `dims`) at the flat positions `map`, shaped `outDims`: one
// GATHER from the flattened operand.
Result<uint32_t> gatherAt(GraphBuilder& b, uint32_t operand, int32_t type, const Dims& dims,
                          const std::vector<int32_t>& map, const Dims& outDims);

// Rank-5 values (Value::packed): their 4-D shape [d0 * d1, d2, d3, d4]; the 4-D operand of a rank-5
// value (packed, or a constant then added packed); output `i` of the current node as the packed
// `operand` of rank-5 `dims`.
Dims packedDims(const Dims& dims);
Result<uint32_t> packedOperand(GraphBuilder& b, const Value& v);
void definePacked(GraphBuilder& b, int i, uint32_t operand, int32_t type, const Dims& dims);

// Elementwise compositions, each in the order ONNX's definition computes it.
class Chain {
 public:
  // `keepLayout`: for chains of element-wise operations with single-value constants only, an NHWC
  // image stays NHWC (its operand, its NHWC dimensions, the result NHWC again).
  Chain(GraphBuilder& b, const Value& x, bool keepLayout = false)
      : b_(b), type_(x.type), dims_(x.dims), nhwc_(keepLayout && x.nhwc) {
    if (nhwc_) operandDims_ = {x.dims[0], x.dims[2], x.dims[3], x.dims[1]};
  }
  Result<void> start(const Value& x) {
    NNRT_ASSIGN_OR_RETURN(current_, input(x));
    return {};
  }
  // The chain's input `x` in the chain's layout.
  Result<uint32_t> input(const Value& x) { return nhwc_ ? Result<uint32_t>(x.operand) : b_.operand(x); }
  // current = op(current)
  Result<void> unary(int32_t op) { return add(op, {current_}); }
  // current = op(current, k) or op(k, current), with NNAPI's fused-activation argument for ADD/MUL/SUB/DIV
  Result<void> withConstant(int32_t op, float k, bool constantFirst = false) {
    NNRT_ASSIGN_OR_RETURN(uint32_t c, b_.constFloats({k}));
    std::vector<uint32_t> inputs =
        constantFirst ? std::vector<uint32_t>{c, current_} : std::vector<uint32_t>{current_, c};
    if (op == ANEURALNETWORKS_ADD || op == ANEURALNETWORKS_MUL || op == ANEURALNETWORKS_SUB ||
        op == ANEURALNETWORKS_DIV) {
      NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b_.scalarInt(ANEURALNETWORKS_FUSED_NONE));
      inputs.push_back(fuse);
    }
    return add(op, inputs);
  }
  Result<void> add(int32_t op, const std::vector<uint32_t>& inputs) {
    NNRT_ASSIGN_OR_RETURN(uint32_t out, b_.addTensor(type_, nhwc_ ? operandDims_ : dims_));
    NNRT_RETURN_IF_ERROR(b_.addOperation(op, inputs, {out}));
    current_ = out;
    return {};
  }
  uint32_t current() const { return current_; }
  void finish() {
    Value v;
    v.operand = current_;
    v.type = type_;
    v.dims = dims_;
    v.nhwc = nhwc_;
    b_.define(0, v);
  }

 private:
  GraphBuilder& b_;
  int32_t type_;
  Dims dims_;
  bool nhwc_;
  Dims operandDims_;  // when nhwc_: the NHWC operands' dimensions
  uint32_t current_ = kNoOperand;
};

// operators_elementwise.cpp
Result<void> binary(GraphBuilder& b, int32_t op, bool fused, int32_t outType = 0);
Result<void> unary(GraphBuilder& b, int32_t op);
Result<void> variadic(GraphBuilder& b, int32_t op, bool fused);
Result<void> mapClip(GraphBuilder& b);
Result<void> mapPow(GraphBuilder& b);
Result<void> mapDiv(GraphBuilder& b);
Result<void> mapReciprocal(GraphBuilder& b);
Result<void> mapMean(GraphBuilder& b);
Result<void> mapWhere(GraphBuilder& b);
Result<void> mapCeil(GraphBuilder& b);
Result<void> mapIsNaN(GraphBuilder& b);
Result<void> mapIsInf(GraphBuilder& b);
Result<void> mapSign(GraphBuilder& b);
// erf of float32 operand `in` of `dims` (all known), composed as mapErf describes.
Result<uint32_t> erfOf(GraphBuilder& b, uint32_t in, const Dims& dims);
Result<void> mapErf(GraphBuilder& b);
Result<void> trigonometric(GraphBuilder& b, std::string_view function);
// Asin, Acos, Atan, Asinh, Acosh or Atanh (`function`), composed.
Result<void> inverseTrigonometric(GraphBuilder& b, std::string_view function);
Result<void> mapMod(GraphBuilder& b);
Result<uint32_t> roundHalfToEven(GraphBuilder& b, uint32_t in, const Dims& dims);
Result<uint32_t> truncateTowardZero(GraphBuilder& b, uint32_t in, const Dims& dims);
Result<uint32_t> wrapInto8Bit(GraphBuilder& b, uint32_t in, const Dims& dims, int32_t type);
Result<void> mapRound(GraphBuilder& b);

// operators_activation.cpp
Result<void> mapPrelu(GraphBuilder& b);
Result<void> mapLeakyRelu(GraphBuilder& b);
Result<void> mapElu(GraphBuilder& b);
Result<void> mapHardSigmoid(GraphBuilder& b);
Result<void> mapSoftsign(GraphBuilder& b);
Result<void> mapSoftplus(GraphBuilder& b);
Result<void> mapGelu(GraphBuilder& b);
Result<void> mapMish(GraphBuilder& b);
Result<void> mapSelu(GraphBuilder& b);
Result<void> mapThresholdedRelu(GraphBuilder& b);
Result<void> mapCelu(GraphBuilder& b);
Result<void> mapShrink(GraphBuilder& b);

// operators_shape.cpp
Result<void> mapIdentity(GraphBuilder& b);
Result<void> mapReshape(GraphBuilder& b);
Result<void> mapFlatten(GraphBuilder& b);
Result<std::vector<int64_t>> axesInputOrAttribute(GraphBuilder& b, int inputIndex, int64_t sinceOpset);
Result<void> mapSqueeze(GraphBuilder& b);
Result<void> mapUnsqueeze(GraphBuilder& b);
Result<void> mapTranspose(GraphBuilder& b);
Result<void> mapConcat(GraphBuilder& b);
Result<void> mapSlice(GraphBuilder& b);
Result<void> mapSplit(GraphBuilder& b);
Result<void> mapDropout(GraphBuilder& b);
Result<void> spaceDepth(GraphBuilder& b, int32_t op);
// DEPTH_TO_SPACE of the 4-D `x` as the current node's output 0, its depth in CRD order (`crd`) or DCR.
Result<void> depthToSpace(GraphBuilder& b, const Value& x, uint32_t block, bool crd);
Result<void> mapTile(GraphBuilder& b);
Result<void> mapPad(GraphBuilder& b);
Result<void> mapExpand(GraphBuilder& b);

// operators_generate.cpp
Result<void> mapConstant(GraphBuilder& b);
Result<void> mapCast(GraphBuilder& b);
Result<void> mapShape(GraphBuilder& b);
Result<void> mapSize(GraphBuilder& b);
Result<void> mapConstantOfShape(GraphBuilder& b);
Result<void> mapCastLike(GraphBuilder& b);
Result<void> mapTrilu(GraphBuilder& b);
Result<void> mapEyeLike(GraphBuilder& b);
Result<void> mapRange(GraphBuilder& b);
// "Hann", "Hamming" or "Blackman".
Result<void> windowFunction(GraphBuilder& b, std::string_view function);
Result<void> mapMelWeightMatrix(GraphBuilder& b);

// operators_gather_resize.cpp
Result<void> mapGather(GraphBuilder& b);
Result<void> mapGatherElements(GraphBuilder& b);
Result<void> mapOneHot(GraphBuilder& b);
Result<void> mapResize(GraphBuilder& b);
Result<void> mapUpsample(GraphBuilder& b);
Result<void> mapGatherND(GraphBuilder& b);
Result<void> mapScatterElements(GraphBuilder& b);
Result<void> mapScatterND(GraphBuilder& b);
Result<void> mapCompress(GraphBuilder& b);
Result<void> mapReverseSequence(GraphBuilder& b);
Result<void> mapGridSample(GraphBuilder& b);

// operators_conv_pool.cpp
Result<void> mapConv(GraphBuilder& b);
// Conv of float32 `x` and `w` (and `bias`, or none). `sums`, when given, receives the result instead of
// the node's output 0: ConvInteger's and QLinearConv's, whose operands hold whole values (NCHW, no fused
// activation).
Result<void> convolve(GraphBuilder& b, const Value* x, const Value* w, const Value* bias, uint32_t* sums);
Result<void> pool(GraphBuilder& b, int32_t op, bool global);
Result<void> mapGemm(GraphBuilder& b);
Result<void> mapMatMul(GraphBuilder& b);
Result<void> mapConvTranspose(GraphBuilder& b);

// operators_reduce_norm.cpp
Result<void> softmaxLike(GraphBuilder& b, int32_t op);
Result<void> mapBatchNorm(GraphBuilder& b);
Result<void> reduce(GraphBuilder& b, int32_t op, int32_t pre = 0, int32_t post = 0);
Result<void> argMinMax(GraphBuilder& b, int32_t op);
Result<void> mapLrn(GraphBuilder& b);
Result<void> mapLpNorm(GraphBuilder& b);
Result<void> mapInstanceNorm(GraphBuilder& b);
Result<void> mapGroupNorm(GraphBuilder& b);
Result<void> mapLayerNorm(GraphBuilder& b);
Result<void> mapHardmax(GraphBuilder& b);
Result<void> mapTopK(GraphBuilder& b);
Result<void> mapCumSum(GraphBuilder& b);
Result<void> mapMeanVarianceNorm(GraphBuilder& b);

// operators_einsum.cpp
Result<void> mapEinsum(GraphBuilder& b);

// operators_recurrent.cpp
Result<void> mapRnn(GraphBuilder& b);
Result<void> mapLstm(GraphBuilder& b);
Result<void> mapGru(GraphBuilder& b);

// operators_control.cpp
Result<void> mapIf(GraphBuilder& b);
Result<void> mapLoop(GraphBuilder& b);

// operators_quant.cpp
Result<void> mapDequantizeLinear(GraphBuilder& b);
Result<void> mapQuantizeLinear(GraphBuilder& b);
Result<void> mapDynamicQuantizeLinear(GraphBuilder& b);
Result<void> mapConvInteger(GraphBuilder& b);
Result<void> mapMatMulInteger(GraphBuilder& b);
Result<void> mapQLinearConv(GraphBuilder& b);
Result<void> mapQLinearMatMul(GraphBuilder& b);

}  // namespace nnrt::onnxfront
