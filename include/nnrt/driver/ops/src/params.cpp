#include "nnrt/driver/ops/params.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "ops_common.hpp"
#include "ops_families.hpp"

namespace nnrt::ops {

namespace {

using namespace detail;

Unexpected<driver::Error> unknown(const OpArgs& op, const std::string& what) {
  return driver::invalidArgument(operationName(op.type) + ": " + what + " is not known");
}

driver::Result<uint32_t> need(const OpArgs& op, const std::optional<int32_t>& value, const char* what) {
  if (!value) return unknown(op, what);
  if (*value < 0)
    return driver::invalidArgument(operationName(op.type) + ": " + what + " must not be negative");
  return static_cast<uint32_t>(*value);
}

driver::Result<Activation> readActivation(const OpArgs& op, size_t index) {
  if (index >= op.inputs.size()) return unknown(op, "the activation");
  auto code = knownInt32(op.inputs[index]);
  if (!code) return unknown(op, "the activation");
  if (*code < 0 || *code > 3)
    return inputError(op, index, "activation", "must be 0..3, not " + std::to_string(*code));
  return static_cast<Activation>(*code);
}

// Input `index` has a known rank and every dimension known.
driver::Result<std::span<const uint32_t>> knownDims(const OpArgs& op, size_t index, std::string_view name) {
  if (index >= op.inputs.size()) return unknown(op, "input " + std::to_string(index));
  const auto dims = op.inputs[index].dims;
  if (dims.empty() || std::find(dims.begin(), dims.end(), 0u) != dims.end()) {
    return inputError(op, index, name, "needs known dimensions, not " + shapeToString(dims));
  }
  return dims;
}

// Sorted, duplicates removed.
std::vector<uint32_t> sortedUnique(std::vector<uint32_t> axes) {
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

driver::Result<std::vector<uint32_t>> normalizedAxes(const OpArgs& op, size_t index, std::string_view name,
                                                     uint32_t rank) {
  auto values = knownInt32Tensor(op.inputs[index]);
  if (!values) return unknown(op, "input " + std::to_string(index) + " (" + std::string(name) + ")");
  std::vector<uint32_t> axes;
  for (int32_t v : *values) {
    auto axis = normalizeAxis(v, rank);
    if (!axis) return axisError(op, index, name, v, rank);
    axes.push_back(*axis);
  }
  return sortedUnique(std::move(axes));
}

// Scalar input `index` with its value, or "not known".
driver::Result<float> floatAt(const OpArgs& op, size_t index, const char* what) {
  auto value = index < op.inputs.size() ? knownFloat(op.inputs[index]) : std::nullopt;
  if (!value) return unknown(op, what);
  return *value;
}
driver::Result<int32_t> int32At(const OpArgs& op, size_t index, const char* what) {
  auto value = index < op.inputs.size() ? knownInt32(op.inputs[index]) : std::nullopt;
  if (!value) return unknown(op, what);
  return *value;
}
driver::Result<bool> boolAt(const OpArgs& op, size_t index, const char* what) {
  auto value = index < op.inputs.size() ? knownBool(op.inputs[index]) : std::nullopt;
  if (!value) return unknown(op, what);
  return *value;
}
// A float scalar that must be > 0 (or >= 0 when `zeroAllowed`).
driver::Result<float> positiveAt(const OpArgs& op, size_t index, const char* what, bool zeroAllowed = false) {
  NNRT_ASSIGN_OR_RETURN(float value, floatAt(op, index, what));
  if (!(value > 0.0f || (zeroAllowed && value == 0.0f))) {
    return inputError(op, index, what,
                      std::string(zeroAllowed ? "must not be negative" : "must be positive") + ", not " +
                          formatFloat(value));
  }
  return value;
}
// An INT32 scalar that must be at least `minimum`.
driver::Result<uint32_t> atLeastAt(const OpArgs& op, size_t index, const char* what, int32_t minimum) {
  NNRT_ASSIGN_OR_RETURN(int32_t value, int32At(op, index, what));
  if (value < minimum) {
    return inputError(op, index, what,
                      "must be at least " + std::to_string(minimum) + ", not " + std::to_string(value));
  }
  return static_cast<uint32_t>(value);
}

// The geometry and window of CONV_2D / DEPTHWISE_CONV_2D.
driver::Result<DepthwiseConv2DParams> decodeConvolution(const OpArgs& op, WindowKind kind) {
  NNRT_ASSIGN_OR_RETURN(WindowParams w, readWindowParams(op, kind));
  NNRT_ASSIGN_OR_RETURN(auto in, knownDims(op, 0, "input"));
  NNRT_ASSIGN_OR_RETURN(auto filter, knownDims(op, 1, "filter"));
  if (in.size() != 4) return inputError(op, 0, "input", "must have rank 4");
  if (filter.size() != 4) return inputError(op, 1, "filter", "must have rank 4");
  if (!w.nchw) return unknown(op, "the layout");
  DepthwiseConv2DParams p;
  p.nchw = *w.nchw;
  const ImageLayout l = imageLayout(p.nchw);
  p.batches = in[0];
  p.inputHeight = in[l.h];
  p.inputWidth = in[l.w];
  p.inputChannels = in[l.c];
  p.filterHeight = filter[1];
  p.filterWidth = filter[2];
  if (kind == WindowKind::Conv) {
    p.outputChannels = filter[0];
  } else {
    NNRT_ASSIGN_OR_RETURN(p.depthMultiplier, need(op, w.depthMultiplier, "the depth multiplier"));
    p.outputChannels = filter[3];
  }
  NNRT_ASSIGN_OR_RETURN(p.strideW, need(op, w.strideW, "the stride width"));
  NNRT_ASSIGN_OR_RETURN(p.strideH, need(op, w.strideH, "the stride height"));
  NNRT_ASSIGN_OR_RETURN(p.dilationW, need(op, w.dilationW, "the dilation width"));
  NNRT_ASSIGN_OR_RETURN(p.dilationH, need(op, w.dilationH, "the dilation height"));
  NNRT_ASSIGN_OR_RETURN(p.activation, readActivation(op, w.activationIndex));
  if (w.implicit) {
    if (!w.paddingCode) return unknown(op, "the padding scheme");
    std::tie(p.padLeft, p.padRight) =
        implicitPadding(*w.paddingCode, p.inputWidth, p.filterWidth, p.strideW, p.dilationW);
    std::tie(p.padTop, p.padBottom) =
        implicitPadding(*w.paddingCode, p.inputHeight, p.filterHeight, p.strideH, p.dilationH);
  } else {
    NNRT_ASSIGN_OR_RETURN(p.padLeft, need(op, w.padLeft, "the left padding"));
    NNRT_ASSIGN_OR_RETURN(p.padRight, need(op, w.padRight, "the right padding"));
    NNRT_ASSIGN_OR_RETURN(p.padTop, need(op, w.padTop, "the top padding"));
    NNRT_ASSIGN_OR_RETURN(p.padBottom, need(op, w.padBottom, "the bottom padding"));
  }
  NNRT_ASSIGN_OR_RETURN(p.outputHeight, windowOutputSize(op, w, true, p.inputHeight, p.filterHeight));
  NNRT_ASSIGN_OR_RETURN(p.outputWidth, windowOutputSize(op, w, false, p.inputWidth, p.filterWidth));
  return p;
}

}  // namespace

std::pair<uint32_t, uint32_t> implicitPadding(int32_t code, uint32_t in, uint32_t filter, uint32_t stride,
                                              uint32_t dilation) {
  if (code != kPaddingSame || stride == 0) return {0, 0};
  const int64_t out = (static_cast<int64_t>(in) + stride - 1) / stride;
  const int64_t effective = (static_cast<int64_t>(filter) - 1) * dilation + 1;
  const int64_t total = std::max<int64_t>((out - 1) * stride + effective - in, 0);
  return {static_cast<uint32_t>(total / 2), static_cast<uint32_t>(total - total / 2)};
}

QuantizedRange activationRange(Activation activation, int32_t outputType, float scale, int32_t zeroPoint) {
  int32_t lo = std::numeric_limits<int32_t>::min();
  int32_t hi = std::numeric_limits<int32_t>::max();
  if (isType(outputType, OperandType::TENSOR_QUANT8_ASYMM)) {
    lo = 0;
    hi = 255;
  } else if (isType(outputType, OperandType::TENSOR_QUANT8_ASYMM_SIGNED)) {
    lo = -128;
    hi = 127;
  }
  return driver::activationRange(activation, scale, zeroPoint, lo, hi);
}

driver::Result<BinaryParams> decodeBinary(const OpArgs& op) {
  NNRT_ASSIGN_OR_RETURN(Activation activation, readActivation(op, 2));
  return BinaryParams{activation};
}

driver::Result<FullyConnectedParams> decodeFullyConnected(const OpArgs& op) {
  if (op.inputs.size() < 4) return unknown(op, "the activation");
  NNRT_ASSIGN_OR_RETURN(auto weights, knownDims(op, 1, "weights"));
  if (weights.size() != 2) return inputError(op, 1, "weights", "must have rank 2");
  NNRT_ASSIGN_OR_RETURN(auto in, knownDims(op, 0, "input"));
  FullyConnectedParams p;
  p.numUnits = weights[0];
  p.inputSize = weights[1];
  const uint64_t count = *elementCount(in);
  if (count % p.inputSize != 0) {
    return inputError(
        op, 0, "input",
        shapeToString(in) + " does not flatten to rows of input size " + std::to_string(p.inputSize));
  }
  p.batchSize = static_cast<uint32_t>(count / p.inputSize);
  NNRT_ASSIGN_OR_RETURN(p.activation, readActivation(op, 3));
  return p;
}

driver::Result<Conv2DParams> decodeConv2D(const OpArgs& op) {
  NNRT_ASSIGN_OR_RETURN(DepthwiseConv2DParams p, decodeConvolution(op, WindowKind::Conv));
  return static_cast<Conv2DParams>(p);
}

driver::Result<DepthwiseConv2DParams> decodeDepthwiseConv2D(const OpArgs& op) {
  return decodeConvolution(op, WindowKind::Depthwise);
}

driver::Result<Pool2DParams> decodePool2D(const OpArgs& op) {
  NNRT_ASSIGN_OR_RETURN(WindowParams w, readWindowParams(op, WindowKind::Pool));
  NNRT_ASSIGN_OR_RETURN(auto in, knownDims(op, 0, "input"));
  if (in.size() != 4) return inputError(op, 0, "input", "must have rank 4");
  if (!w.nchw) return unknown(op, "the layout");
  Pool2DParams p;
  p.nchw = *w.nchw;
  const ImageLayout l = imageLayout(p.nchw);
  p.batches = in[0];
  p.inputHeight = in[l.h];
  p.inputWidth = in[l.w];
  p.channels = in[l.c];
  NNRT_ASSIGN_OR_RETURN(p.strideW, need(op, w.strideW, "the stride width"));
  NNRT_ASSIGN_OR_RETURN(p.strideH, need(op, w.strideH, "the stride height"));
  NNRT_ASSIGN_OR_RETURN(p.filterW, need(op, w.filterW, "the filter width"));
  NNRT_ASSIGN_OR_RETURN(p.filterH, need(op, w.filterH, "the filter height"));
  NNRT_ASSIGN_OR_RETURN(p.activation, readActivation(op, w.activationIndex));
  if (w.implicit) {
    if (!w.paddingCode) return unknown(op, "the padding scheme");
    std::tie(p.padLeft, p.padRight) = implicitPadding(*w.paddingCode, p.inputWidth, p.filterW, p.strideW, 1);
    std::tie(p.padTop, p.padBottom) = implicitPadding(*w.paddingCode, p.inputHeight, p.filterH, p.strideH, 1);
  } else {
    NNRT_ASSIGN_OR_RETURN(p.padLeft, need(op, w.padLeft, "the left padding"));
    NNRT_ASSIGN_OR_RETURN(p.padRight, need(op, w.padRight, "the right padding"));
    NNRT_ASSIGN_OR_RETURN(p.padTop, need(op, w.padTop, "the top padding"));
    NNRT_ASSIGN_OR_RETURN(p.padBottom, need(op, w.padBottom, "the bottom padding"));
  }
  NNRT_ASSIGN_OR_RETURN(p.outputHeight, windowOutputSize(op, w, true, p.inputHeight, p.filterH));
  NNRT_ASSIGN_OR_RETURN(p.outputWidth, windowOutputSize(op, w, false, p.inputWidth, p.filterW));
  return p;
}

driver::Result<SoftmaxParams> decodeSoftmax(const OpArgs& op) {
  if (op.inputs.size() < 2) return unknown(op, "beta");
  auto beta = knownFloat(op.inputs[1]);
  if (!beta) return unknown(op, "beta");
  const uint32_t rank = op.inputs[0].rank();
  if (rank == 0) return unknown(op, "the rank of input 0");
  int32_t axis = -1;
  if (isPresent(op, 2)) {
    auto value = knownInt32(op.inputs[2]);
    if (!value) return unknown(op, "the axis");
    axis = *value;
  }
  auto normalized = normalizeAxis(axis, rank);
  if (!normalized) return axisError(op, 2, "axis", axis, rank);
  return SoftmaxParams{*beta, *normalized};
}

driver::Result<ReshapeParams> decodeReshape(const OpArgs& op) {
  if (op.inputs.size() < 2) return unknown(op, "the shape");
  NNRT_ASSIGN_OR_RETURN(std::vector<Shape> shapes, inferReshape(op));
  Shape& shape = shapes[0];
  if (shape.empty() || std::find(shape.begin(), shape.end(), 0u) != shape.end()) {
    return unknown(op, "the output shape " + shapeToString(shape));
  }
  return ReshapeParams{std::move(shape)};
}

namespace {

// The image and filter geometry GROUPED_CONV_2D and TRANSPOSE_CONV_2D share with CONV_2D: batches,
// input size and channels, filter size, output channels (filter dimension 0), layout at `layout`.
driver::Result<void> readConvGeometry(const OpArgs& op, size_t layout, Conv2DParams& p) {
  NNRT_ASSIGN_OR_RETURN(auto in, knownDims(op, 0, "input"));
  NNRT_ASSIGN_OR_RETURN(auto filter, knownDims(op, 1, "filter"));
  if (in.size() != 4) return inputError(op, 0, "input", "must have rank 4");
  if (filter.size() != 4) return inputError(op, 1, "filter", "must have rank 4");
  NNRT_ASSIGN_OR_RETURN(p.nchw, boolAt(op, layout, "the layout"));
  const ImageLayout l = imageLayout(p.nchw);
  p.batches = in[0];
  p.inputHeight = in[l.h];
  p.inputWidth = in[l.w];
  p.inputChannels = in[l.c];
  p.outputChannels = filter[0];
  p.filterHeight = filter[1];
  p.filterWidth = filter[2];
  return {};
}

// Explicit pads at inputs first..first+3 (left, right, top, bottom).
driver::Result<void> readExplicitPads(const OpArgs& op, size_t first, Conv2DParams& p) {
  NNRT_ASSIGN_OR_RETURN(p.padLeft, atLeastAt(op, first, "the left padding", 0));
  NNRT_ASSIGN_OR_RETURN(p.padRight, atLeastAt(op, first + 1, "the right padding", 0));
  NNRT_ASSIGN_OR_RETURN(p.padTop, atLeastAt(op, first + 2, "the top padding", 0));
  NNRT_ASSIGN_OR_RETURN(p.padBottom, atLeastAt(op, first + 3, "the bottom padding", 0));
  return {};
}

}  // namespace

// Explicit (12 inputs): pads 3..6, strides 7, 8, groups 9, FuseCode 10, layout 11.
// Implicit (9 inputs): padding scheme 3, strides 4, 5, groups 6, FuseCode 7, layout 8.
driver::Result<GroupedConv2DParams> decodeGroupedConv2D(const OpArgs& op) {
  const bool explicitForm = op.inputs.size() == 12;
  const size_t s = explicitForm ? 7 : 4;  // stride width
  GroupedConv2DParams p;
  NNRT_RETURN_IF_ERROR(readConvGeometry(op, s + 4, p));
  NNRT_ASSIGN_OR_RETURN(p.strideW, atLeastAt(op, s, "the stride width", 1));
  NNRT_ASSIGN_OR_RETURN(p.strideH, atLeastAt(op, s + 1, "the stride height", 1));
  NNRT_ASSIGN_OR_RETURN(p.groups, atLeastAt(op, s + 2, "the number of groups", 1));
  NNRT_ASSIGN_OR_RETURN(p.activation, readActivation(op, s + 3));
  if (explicitForm) {
    NNRT_RETURN_IF_ERROR(readExplicitPads(op, 3, p));
  } else {
    NNRT_ASSIGN_OR_RETURN(int32_t code, int32At(op, 3, "the padding scheme"));
    std::tie(p.padLeft, p.padRight) = implicitPadding(code, p.inputWidth, p.filterWidth, p.strideW);
    std::tie(p.padTop, p.padBottom) = implicitPadding(code, p.inputHeight, p.filterHeight, p.strideH);
  }
  const uint64_t h = uint64_t{p.inputHeight} + p.padTop + p.padBottom,
                 w = uint64_t{p.inputWidth} + p.padLeft + p.padRight;
  if (h < p.filterHeight || w < p.filterWidth) return unknown(op, "a window inside the padded input");
  p.outputHeight = static_cast<uint32_t>((h - p.filterHeight) / p.strideH + 1);
  p.outputWidth = static_cast<uint32_t>((w - p.filterWidth) / p.strideW + 1);
  return p;
}

// Explicit (11 inputs): pads 3..6, strides 7, 8, FuseCode 9, layout 10.
// Implicit (9 inputs): output shape 3, padding scheme 4, strides 5, 6, FuseCode 7, layout 8.
driver::Result<TransposeConv2DParams> decodeTransposeConv2D(const OpArgs& op) {
  const bool explicitForm = op.inputs.size() == 11;
  const size_t s = explicitForm ? 7 : 5;
  TransposeConv2DParams p;
  NNRT_RETURN_IF_ERROR(readConvGeometry(op, s + 3, p));
  NNRT_ASSIGN_OR_RETURN(p.strideW, atLeastAt(op, s, "the stride width", 1));
  NNRT_ASSIGN_OR_RETURN(p.strideH, atLeastAt(op, s + 1, "the stride height", 1));
  NNRT_ASSIGN_OR_RETURN(p.activation, readActivation(op, s + 2));
  if (explicitForm) {
    NNRT_RETURN_IF_ERROR(readExplicitPads(op, 3, p));
    const int64_t h = (int64_t{p.inputHeight} - 1) * p.strideH + p.filterHeight - p.padTop - p.padBottom;
    const int64_t w = (int64_t{p.inputWidth} - 1) * p.strideW + p.filterWidth - p.padLeft - p.padRight;
    if (h < 1 || w < 1) return unknown(op, "a positive output size");
    p.outputHeight = static_cast<uint32_t>(h);
    p.outputWidth = static_cast<uint32_t>(w);
  } else {
    auto shape = knownInt32Tensor(op.inputs[3]);
    if (!shape || shape->size() != 4) return unknown(op, "the output shape");
    const ImageLayout l = imageLayout(p.nchw);
    if ((*shape)[l.h] < 1 || (*shape)[l.w] < 1) return unknown(op, "a positive output size");
    p.outputHeight = static_cast<uint32_t>((*shape)[l.h]);
    p.outputWidth = static_cast<uint32_t>((*shape)[l.w]);
    NNRT_ASSIGN_OR_RETURN(int32_t code, int32At(op, 4, "the padding scheme"));
    std::tie(p.padLeft, p.padRight) = implicitPadding(code, p.outputWidth, p.filterWidth, p.strideW);
    std::tie(p.padTop, p.padBottom) = implicitPadding(code, p.outputHeight, p.filterHeight, p.strideH);
  }
  return p;
}

driver::Result<BatchMatmulParams> decodeBatchMatmul(const OpArgs& op) {
  BatchMatmulParams p;
  NNRT_ASSIGN_OR_RETURN(p.adjointLhs, boolAt(op, 2, "adjoint lhs"));
  NNRT_ASSIGN_OR_RETURN(p.adjointRhs, boolAt(op, 3, "adjoint rhs"));
  return p;
}

driver::Result<ConcatenationParams> decodeConcatenation(const OpArgs& op) {
  if (op.inputs.size() < 2) return unknown(op, "the axis");
  const size_t index = op.inputs.size() - 1;
  auto axis = knownInt32(op.inputs[index]);
  if (!axis) return unknown(op, "the axis");
  const uint32_t rank = op.inputs[0].rank();
  if (rank == 0) return unknown(op, "the rank of input 0");
  auto normalized = normalizeAxis(*axis, rank);
  if (!normalized) return axisError(op, index, "axis", *axis, rank);
  return ConcatenationParams{*normalized};
}

driver::Result<SqueezeParams> decodeSqueeze(const OpArgs& op) {
  NNRT_ASSIGN_OR_RETURN(auto in, knownDims(op, 0, "input"));
  const uint32_t rank = static_cast<uint32_t>(in.size());
  SqueezeParams p;
  if (!isPresent(op, 1)) {
    for (uint32_t d = 0; d < rank; ++d) {
      if (in[d] == 1) p.axes.push_back(d);
    }
    return p;
  }
  NNRT_ASSIGN_OR_RETURN(p.axes, normalizedAxes(op, 1, "axes", rank));
  for (uint32_t axis : p.axes) {
    if (in[axis] != 1) {
      return inputError(
          op, 1, "axes",
          "names dimension " + std::to_string(axis) + " of " + shapeToString(in) + ", which is not 1");
    }
  }
  return p;
}

driver::Result<TransposeParams> decodeTranspose(const OpArgs& op) {
  if (op.inputs.empty()) return unknown(op, "input 0");
  const uint32_t rank = op.inputs[0].rank();
  if (rank == 0) return unknown(op, "the rank of input 0");
  TransposeParams p;
  if (!isPresent(op, 1)) {
    for (uint32_t d = rank; d > 0; --d)
      p.perm.push_back(d - 1);
    return p;
  }
  auto perm = knownInt32Tensor(op.inputs[1]);
  if (!perm) return unknown(op, "the permutation");
  std::vector<bool> seen(rank, false);
  if (perm->size() != rank) return inputError(op, 1, "perm", "must have one entry per dimension of input 0");
  for (int32_t v : *perm) {
    if (v < 0 || static_cast<uint32_t>(v) >= rank || seen[v]) {
      return inputError(op, 1, "perm", "must be a permutation of 0.." + std::to_string(rank - 1));
    }
    seen[v] = true;
    p.perm.push_back(static_cast<uint32_t>(v));
  }
  return p;
}

driver::Result<PadParams> decodePad(const OpArgs& op) {
  if (op.inputs.size() < 2) return unknown(op, "the paddings");
  const uint32_t rank = op.inputs[0].rank();
  if (rank == 0) return unknown(op, "the rank of input 0");
  auto values = knownInt32Tensor(op.inputs[1]);
  if (!values) return unknown(op, "the paddings");
  if (values->size() != size_t{rank} * 2) {
    return inputError(op, 1, "paddings", "must hold 2 values per dimension of input 0");
  }
  PadParams p;
  for (uint32_t d = 0; d < rank; ++d) {
    const int32_t before = (*values)[2 * d];
    const int32_t after = (*values)[2 * d + 1];
    if (before < 0 || after < 0) return inputError(op, 1, "paddings", "must not be negative");
    p.before.push_back(static_cast<uint32_t>(before));
    p.after.push_back(static_cast<uint32_t>(after));
  }
  return p;
}

driver::Result<MeanParams> decodeMean(const OpArgs& op) {
  if (op.inputs.size() < 3) return unknown(op, "keep_dims");
  const uint32_t rank = op.inputs[0].rank();
  if (rank == 0) return unknown(op, "the rank of input 0");
  MeanParams p;
  NNRT_ASSIGN_OR_RETURN(p.axes, normalizedAxes(op, 1, "axes", rank));
  auto keep = knownInt32(op.inputs[2]);
  if (!keep) return unknown(op, "keep_dims");
  p.keepDims = *keep > 0;
  return p;
}

driver::Result<RoiParams> decodeRoi(const OpArgs& op) {
  RoiParams p;
  const bool align = op.inputs.size() == 10;
  NNRT_ASSIGN_OR_RETURN(p.outputHeight, atLeastAt(op, 3, "output height", 1));
  NNRT_ASSIGN_OR_RETURN(p.outputWidth, atLeastAt(op, 4, "output width", 1));
  NNRT_ASSIGN_OR_RETURN(p.heightRatio, positiveAt(op, 5, "height ratio"));
  NNRT_ASSIGN_OR_RETURN(p.widthRatio, positiveAt(op, 6, "width ratio"));
  if (align) {
    NNRT_ASSIGN_OR_RETURN(p.heightSamplingRatio, atLeastAt(op, 7, "height sampling ratio", 0));
    NNRT_ASSIGN_OR_RETURN(p.widthSamplingRatio, atLeastAt(op, 8, "width sampling ratio", 0));
  }
  NNRT_ASSIGN_OR_RETURN(p.nchw, boolAt(op, align ? 9 : 7, "the layout"));
  return p;
}

driver::Result<BoxWithNmsLimitParams> decodeBoxWithNmsLimit(const OpArgs& op) {
  BoxWithNmsLimitParams p;
  NNRT_ASSIGN_OR_RETURN(p.scoreThreshold, floatAt(op, 3, "the score threshold"));
  NNRT_ASSIGN_OR_RETURN(p.maxDetections, int32At(op, 4, "the maximum number of detections"));
  NNRT_ASSIGN_OR_RETURN(int32_t kernel, int32At(op, 5, "the NMS kernel"));
  if (kernel < 0 || kernel > 2) {
    return inputError(op, 5, "NMS kernel",
                      "must be 0 (hard), 1 (linear) or 2 (gaussian), not " + std::to_string(kernel));
  }
  p.kernel = static_cast<NmsKernel>(kernel);
  NNRT_ASSIGN_OR_RETURN(p.iouThreshold, floatAt(op, 6, "the IoU threshold"));
  NNRT_ASSIGN_OR_RETURN(p.sigma, floatAt(op, 7, "sigma"));
  if (p.kernel == NmsKernel::Gaussian && !(p.sigma > 0.0f)) {
    return inputError(op, 7, "sigma", "must be positive for the gaussian kernel, not " + formatFloat(p.sigma));
  }
  NNRT_ASSIGN_OR_RETURN(p.nmsScoreThreshold, floatAt(op, 8, "the NMS score threshold"));
  return p;
}

driver::Result<GenerateProposalsParams> decodeGenerateProposals(const OpArgs& op) {
  GenerateProposalsParams p;
  NNRT_ASSIGN_OR_RETURN(p.heightStride, positiveAt(op, 4, "height stride"));
  NNRT_ASSIGN_OR_RETURN(p.widthStride, positiveAt(op, 5, "width stride"));
  NNRT_ASSIGN_OR_RETURN(p.preNmsMax, int32At(op, 6, "the pre-NMS maximum"));
  NNRT_ASSIGN_OR_RETURN(p.postNmsMax, int32At(op, 7, "the post-NMS maximum"));
  NNRT_ASSIGN_OR_RETURN(p.iouThreshold, positiveAt(op, 8, "IoU threshold"));
  NNRT_ASSIGN_OR_RETURN(p.minSize, positiveAt(op, 9, "min size", true));
  NNRT_ASSIGN_OR_RETURN(p.nchw, boolAt(op, 10, "the layout"));
  return p;
}

driver::Result<DetectionPostprocessingParams> decodeDetectionPostprocessing(const OpArgs& op) {
  DetectionPostprocessingParams p;
  NNRT_ASSIGN_OR_RETURN(p.scaleY, positiveAt(op, 3, "y scale"));
  NNRT_ASSIGN_OR_RETURN(p.scaleX, positiveAt(op, 4, "x scale"));
  NNRT_ASSIGN_OR_RETURN(p.scaleH, positiveAt(op, 5, "height scale"));
  NNRT_ASSIGN_OR_RETURN(p.scaleW, positiveAt(op, 6, "width scale"));
  NNRT_ASSIGN_OR_RETURN(p.regularNms, boolAt(op, 7, "use regular NMS"));
  NNRT_ASSIGN_OR_RETURN(p.maxDetections, atLeastAt(op, 8, "max detections", 1));
  NNRT_ASSIGN_OR_RETURN(p.maxClassesPerDetection, atLeastAt(op, 9, "max classes per detection", 1));
  NNRT_ASSIGN_OR_RETURN(p.maxDetectionsPerClass, atLeastAt(op, 10, "max detections per class", 1));
  NNRT_ASSIGN_OR_RETURN(p.scoreThreshold, positiveAt(op, 11, "score threshold", true));
  NNRT_ASSIGN_OR_RETURN(p.iouThreshold, positiveAt(op, 12, "IoU threshold", true));
  NNRT_ASSIGN_OR_RETURN(p.backgroundInLabel, boolAt(op, 13, "background in label"));
  return p;
}

StridedSliceAxis resolveStridedSliceAxis(int64_t dim, int32_t begin, int32_t end, int32_t stride, bool beginMasked,
                                         bool endMasked) {
  const bool forward = stride > 0;
  auto clamped = [&](int64_t index) -> int64_t {
    if (forward) {
      if (index >= dim) return dim;
      index = std::clamp(index, -dim, dim);
    } else {
      if (index < -dim) return -1;
      index = std::clamp(index, -dim, dim - 1);
    }
    return ((index % dim) + dim) % dim;
  };
  const int64_t first = beginMasked ? (forward ? 0 : dim - 1) : clamped(begin);
  const int64_t last = endMasked ? (forward ? dim : -1) : clamped(end);
  const int64_t span = last - first, step = stride;  // int64: -INT32_MIN is not an int32
  const int64_t count = forward ? (span > 0 ? (span + step - 1) / step : 0)
                                : (span < 0 ? (-span - step - 1) / -step : 0);
  return {first, stride, count};
}

}  // namespace nnrt::ops
