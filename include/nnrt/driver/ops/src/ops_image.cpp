// Signatures of convolutions beyond CONV_2D, resizing, normalization and detection post-processing:
// GROUPED_CONV_2D, TRANSPOSE_CONV_2D, RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR, BATCH_MATMUL,
// L2_NORMALIZATION, LOCAL_RESPONSE_NORMALIZATION, LOG_SOFTMAX, INSTANCE_NORMALIZATION, ROI_ALIGN,
// ROI_POOLING, HEATMAP_MAX_KEYPOINT, AXIS_ALIGNED_BBOX_TRANSFORM, BOX_WITH_NMS_LIMIT,
// GENERATE_PROPOSALS, DETECTION_POSTPROCESSING, LSH_PROJECTION, RANDOM_MULTINOMIAL.
//
// Most of these operations take one fixed list of operand types per data type of their first input;
// the list is checked position by position. Ranks, parameter values and the fixed quantization of
// box coordinates are left to Check::Full, as Android leaves them to preparation (L2_NORMALIZATION
// and LOCAL_RESPONSE_NORMALIZATION are the exception: a known rank above 4 is refused at once).
#include "nnrt/driver/ops/params.hpp"
#include "ops_common.hpp"
#include "ops_families.hpp"

namespace nnrt::ops::detail {

namespace {

using OT = OperandType;
using T = OperationType;

struct Expected {
  std::string_view name;
  OT type;
};

OT typeOf(const Arg& arg) {
  return static_cast<OT>(arg.type);
}

bool isQuant8(int32_t type) {
  return isType(type, OT::TENSOR_QUANT8_ASYMM) || isType(type, OT::TENSOR_QUANT8_ASYMM_SIGNED);
}

// The scalar type that goes with a float16 tensor (FLOAT16) or any other (FLOAT32).
OT floatScalarFor(int32_t tensorType) {
  return isType(tensorType, OT::TENSOR_FLOAT16) ? OT::FLOAT16 : OT::FLOAT32;
}

// Input `index` has exactly `type`. Android checks the declared type of an omitted optional input
// too, so this does.
Result<void> expectInput(const OpArgs& op, size_t index, std::string_view name, OT type) {
  if (index >= op.inputs.size()) return inputError(op, index, name, "is missing");
  const int32_t have = op.inputs[index].type;
  if (!isType(have, type)) {
    return inputError(op, index, name,
                      "must be " + typeName(static_cast<int32_t>(type)) + ", not " + typeName(have));
  }
  return {};
}

// Inputs from `first` on have the listed types, in order.
Result<void> expectInputs(const OpArgs& op, size_t first, std::initializer_list<Expected> expected) {
  size_t i = first;
  for (const Expected& e : expected) {
    NNRT_RETURN_IF_ERROR(expectInput(op, i, e.name, e.type));
    ++i;
  }
  return {};
}

// Outputs have the listed types, in order.
Result<void> expectOutputs(const OpArgs& op, std::initializer_list<OT> expected) {
  size_t i = 0;
  for (OT type : expected) {
    const int32_t have = op.outputs[i].type;
    if (!isType(have, type)) {
      return outputError(op, i, "must be " + typeName(static_cast<int32_t>(type)) + ", not " + typeName(have));
    }
    ++i;
  }
  return {};
}

// Checks of values and ranks that Android leaves to preparation ------------------------------------

// Known rank of input `index` in [minRank, maxRank], checked only at Check::Full.
Result<void> fullRank(const OpArgs& op, size_t index, std::string_view name, uint32_t minRank,
                      uint32_t maxRank) {
  if (!op.full() || !isPresent(op, index)) return {};
  return checkRank(op, index, name, minRank, maxRank);
}

// A known INT32 parameter is >= minimum.
Result<void> checkMinimum(const OpArgs& op, size_t index, std::string_view name, int32_t minimum) {
  if (auto v = knownInt32(op.inputs[index]); v && *v < minimum) {
    return inputError(op, index, name, "must be >= " + std::to_string(minimum) + ", not " + std::to_string(*v));
  }
  return {};
}

// A known float parameter is > 0.
Result<void> checkPositive(const OpArgs& op, size_t index, std::string_view name) {
  if (auto v = knownFloat(op.inputs[index]); v && !(*v > 0)) {
    return inputError(op, index, name, "must be > 0, not " + formatFloat(*v));
  }
  return {};
}

// A known axis lies in [-rank, rank) of input 0 (when its rank is known).
Result<void> checkAxis(const OpArgs& op, size_t index) {
  const uint32_t rank = op.inputs[0].rank();
  auto axis = knownInt32(op.inputs[index]);
  if (rank == 0 || !axis || normalizeAxis(*axis, rank)) return {};
  return axisError(op, index, "axis", *axis, rank);
}

// Box coordinates of TENSOR_QUANT16_ASYMM are fixed at scale 0.125, zero point 0.
Result<void> checkBoxQuantization(const OpArgs& op, size_t index, std::string_view name) {
  const Arg& a = op.inputs[index];
  if (!isType(a.type, OT::TENSOR_QUANT16_ASYMM)) return {};
  if (a.scale != 0.125f || a.zeroPoint != 0) {
    return inputError(op, index, name,
                      "of type TENSOR_QUANT16_ASYMM must have scale 0.125 and zero point 0, not scale " +
                          formatFloat(a.scale) + ", zero point " + std::to_string(a.zeroPoint));
  }
  return {};
}

// ---- GROUPED_CONV_2D, TRANSPOSE_CONV_2D -----------------------------------------------------------

// Input, filter and bias: a float filter and bias of the input's type, or for a quantized input a
// filter of the input's type or per-channel quantized along dimension 0, with a TENSOR_INT32 bias.
Result<void> checkConvTensors(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataTypes));
  const int32_t in = op.inputs[0].type;
  if (isQuant8(in)) {
    if (isType(op.inputs[1].type, OT::TENSOR_QUANT8_SYMM_PER_CHANNEL)) {
      NNRT_RETURN_IF_ERROR(checkPerChannel(op, 1, "filter", 0));
    } else {
      NNRT_RETURN_IF_ERROR(checkSameType(op, 1, "filter", 0));
    }
    NNRT_RETURN_IF_ERROR(expectInput(op, 2, "bias", OT::TENSOR_INT32));
  } else {
    NNRT_RETURN_IF_ERROR(checkSameType(op, 1, "filter", 0));
    NNRT_RETURN_IF_ERROR(checkSameType(op, 2, "bias", 0));
  }
  op.needs(isType(in, OT::TENSOR_QUANT8_ASYMM_SIGNED) ? 4 : 3);
  NNRT_RETURN_IF_ERROR(expectOutputs(op, {typeOf(op.inputs[0])}));
  NNRT_RETURN_IF_ERROR(fullRank(op, 0, "input", 4, 4));
  NNRT_RETURN_IF_ERROR(fullRank(op, 1, "filter", 4, 4));
  NNRT_RETURN_IF_ERROR(fullRank(op, 2, "bias", 1, 1));
  if (op.full()) NNRT_RETURN_IF_ERROR(checkBias(op, 2, 0, 1));
  return {};
}

Result<void> checkPaddingCode(const OpArgs& op, size_t index) {
  if (auto code = knownInt32(op.inputs[index]); code && *code != kPaddingSame && *code != kPaddingValid) {
    return inputError(op, index, "padding scheme",
                      "must be a PaddingCode: 1 (SAME) or 2 (VALID), not " + std::to_string(*code));
  }
  return {};
}

Result<void> checkExplicitPads(const OpArgs& op, size_t first) {
  NNRT_RETURN_IF_ERROR(expectInputs(op, first,
                                    {{"padding left", OT::INT32},
                                     {"padding right", OT::INT32},
                                     {"padding top", OT::INT32},
                                     {"padding bottom", OT::INT32}}));
  NNRT_RETURN_IF_ERROR(checkMinimum(op, first, "padding left", 0));
  NNRT_RETURN_IF_ERROR(checkMinimum(op, first + 1, "padding right", 0));
  NNRT_RETURN_IF_ERROR(checkMinimum(op, first + 2, "padding top", 0));
  return checkMinimum(op, first + 3, "padding bottom", 0);
}

Result<void> checkStrides(const OpArgs& op, size_t first) {
  NNRT_RETURN_IF_ERROR(expectInputs(op, first, {{"stride width", OT::INT32}, {"stride height", OT::INT32}}));
  NNRT_RETURN_IF_ERROR(checkMinimum(op, first, "stride width", 1));
  return checkMinimum(op, first + 1, "stride height", 1);
}

// Explicit: input, filter, bias, 4 pads, 2 strides, groups, FuseCode, layout (12 inputs).
// Implicit: input, filter, bias, padding scheme, 2 strides, groups, FuseCode, layout (9 inputs).
Result<void> validateGroupedConv2D(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkConvTensors(op));
  const bool explicitPadding = op.inputs.size() == 12;
  size_t p = 3;
  if (explicitPadding) {
    NNRT_RETURN_IF_ERROR(checkExplicitPads(op, p));
    p += 4;
  } else {
    NNRT_RETURN_IF_ERROR(expectInput(op, p, "padding scheme", OT::INT32));
    NNRT_RETURN_IF_ERROR(checkPaddingCode(op, p));
    ++p;
  }
  NNRT_RETURN_IF_ERROR(checkStrides(op, p));
  NNRT_RETURN_IF_ERROR(expectInput(op, p + 2, "number of groups", OT::INT32));
  NNRT_RETURN_IF_ERROR(checkMinimum(op, p + 2, "number of groups", 1));
  NNRT_RETURN_IF_ERROR(checkFuseCode(op, p + 3));
  return expectInput(op, p + 4, "layout (NCHW)", OT::BOOL);
}

// Explicit: input, filter, bias, 4 pads, 2 strides, FuseCode, layout (11 inputs).
// Implicit: input, filter, bias, output shape, padding scheme, 2 strides, FuseCode, layout (9 inputs).
Result<void> validateTransposeConv2D(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkConvTensors(op));
  const bool explicitPadding = op.inputs.size() == 11;
  size_t p = 3;
  if (explicitPadding) {
    NNRT_RETURN_IF_ERROR(checkExplicitPads(op, p));
    p += 4;
  } else {
    NNRT_RETURN_IF_ERROR(expectInput(op, p, "output shape", OT::TENSOR_INT32));
    NNRT_RETURN_IF_ERROR(fullRank(op, p, "output shape", 1, 1));
    NNRT_RETURN_IF_ERROR(expectInput(op, p + 1, "padding scheme", OT::INT32));
    NNRT_RETURN_IF_ERROR(checkPaddingCode(op, p + 1));
    p += 2;
  }
  NNRT_RETURN_IF_ERROR(checkStrides(op, p));
  NNRT_RETURN_IF_ERROR(checkFuseCode(op, p + 2));
  return expectInput(op, p + 3, "layout (NCHW)", OT::BOOL);
}

// ---- RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR -----------------------------------------------------

// Input, output width, output height (both INT32 sizes, or both float scales), then up to three BOOL
// flags: layout, align corners, half pixel centers.
Result<void> validateResize(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataTypes));
  const int32_t in = op.inputs[0].type;
  if (isType(in, OT::TENSOR_FLOAT16) || isType(in, OT::TENSOR_QUANT8_ASYMM)) op.needs(3);
  if (isType(in, OT::TENSOR_QUANT8_ASYMM_SIGNED)) op.needs(4);

  // Input 2 decides between sizes and scales; input 1 must agree with it.
  const int32_t scalar = op.inputs[2].type;
  if (!isType(scalar, OT::INT32)) {
    op.needs(3);
    const OT scale = floatScalarFor(in);
    if (!isType(scalar, scale)) {
      return inputError(op, 2, "output height",
                        "must be INT32 (a size) or " + typeName(static_cast<int32_t>(scale)) +
                            " (a scale) for a " + typeName(in) + " input, not " + typeName(scalar));
    }
  }
  if (op.inputs[1].type != scalar) {
    return inputError(op, 1, "output width",
                      "must be " + typeName(scalar) + " like input 2 (output height), not " +
                          typeName(op.inputs[1].type));
  }
  const size_t n = op.inputs.size();
  if (n == 4) op.needs(3);
  if (n > 4) op.needs(4);
  static constexpr std::string_view kFlags[] = {"layout (NCHW)", "align corners", "half pixel centers"};
  for (size_t i = 3; i < n; ++i)
    NNRT_RETURN_IF_ERROR(expectInput(op, i, kFlags[i - 3], OT::BOOL));
  NNRT_RETURN_IF_ERROR(expectOutputs(op, {typeOf(op.inputs[0])}));

  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 4, 4));
  if (isType(scalar, OT::INT32)) {
    NNRT_RETURN_IF_ERROR(checkMinimum(op, 1, "output width", 1));
    NNRT_RETURN_IF_ERROR(checkMinimum(op, 2, "output height", 1));
  } else {
    NNRT_RETURN_IF_ERROR(checkPositive(op, 1, "width scale"));
    NNRT_RETURN_IF_ERROR(checkPositive(op, 2, "height scale"));
  }
  if (n == 6 && knownBool(op.inputs[4]) == true && knownBool(op.inputs[5]) == true) {
    return inputError(op, 5, "half pixel centers", "cannot be true when input 4 (align corners) is true");
  }
  return {};
}

// Output: the input's batches and channels, the requested (or scaled) height and width.
Result<std::vector<Shape>> inferResize(const OpArgs& op) {
  const auto in = op.inputs[0].dims;
  if (in.size() != 4) return std::vector<Shape>{Shape{}};
  const auto nchw = op.inputs.size() > 3 ? knownBool(op.inputs[3]) : std::optional<bool>(false);
  if (!nchw) return std::vector<Shape>{Shape(4, 0)};
  const ImageLayout l = imageLayout(*nchw);
  Shape out(4, 0);
  out[0] = in[0];
  out[l.c] = in[l.c];
  auto size = [&](size_t index, uint32_t inSize) -> uint32_t {
    if (auto v = knownInt32(op.inputs[index])) return *v > 0 ? static_cast<uint32_t>(*v) : 0;
    auto scale = knownFloat(op.inputs[index]);
    if (!scale || inSize == 0) return 0;
    const float s = static_cast<float>(inSize) * *scale;
    return s >= 1 && s < 4294967296.0f ? static_cast<uint32_t>(s) : 0;
  };
  out[l.w] = size(1, in[l.w]);
  out[l.h] = size(2, in[l.h]);
  return std::vector<Shape>{out};
}

// ---- BATCH_MATMUL --------------------------------------------------------------------------------

Result<void> validateBatchMatmul(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(
      op, 0, "lhs",
      {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_INT32}));
  NNRT_RETURN_IF_ERROR(checkSameType(op, 1, "rhs", 0));
  NNRT_RETURN_IF_ERROR(expectInputs(op, 2, {{"adjoint lhs", OT::BOOL}, {"adjoint rhs", OT::BOOL}}));
  NNRT_RETURN_IF_ERROR(expectOutputs(op, {typeOf(op.inputs[0])}));
  op.needs(6);
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "lhs", 2, 4));
  NNRT_RETURN_IF_ERROR(checkRank(op, 1, "rhs", 2, 4));
  const uint32_t a = op.inputs[0].rank();
  const uint32_t b = op.inputs[1].rank();
  if (a != 0 && b != 0 && a != b) {
    return inputError(op, 1, "rhs",
                      "must have the rank of input 0 (lhs), " + std::to_string(a) + ", not " + std::to_string(b));
  }
  return {};
}

// ---- Normalizations ------------------------------------------------------------------------------

// Input and an optional axis. Android computes its minimum version by assignment, so an axis (or a
// rank other than 4) gives feature level 3 even for TENSOR_QUANT8_ASYMM_SIGNED; nnrt reports the same.
Result<void> validateL2Normalization(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataTypes));
  const int32_t in = op.inputs[0].type;
  int32_t level = 1;
  if (isType(in, OT::TENSOR_FLOAT16) || isType(in, OT::TENSOR_QUANT8_ASYMM)) level = 3;
  if (isType(in, OT::TENSOR_QUANT8_ASYMM_SIGNED)) level = 4;
  if (op.inputs.size() == 2) {
    NNRT_RETURN_IF_ERROR(expectInput(op, 1, "axis", OT::INT32));
    level = 3;
  } else if (op.inputs[0].rank() != 4) {
    level = 3;
  }
  op.needs(level);
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 1, kMaxRank));
  NNRT_RETURN_IF_ERROR(expectOutputs(op, {typeOf(op.inputs[0])}));
  if (!op.full()) return {};
  if (op.inputs.size() == 2) NNRT_RETURN_IF_ERROR(checkAxis(op, 1));
  return checkFixedOutputQuantization(op, 0, 1.0f / 128, 128, 0);
}

// Input, radius, bias, alpha, beta and an optional axis.
Result<void> validateLocalResponseNormalization(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32}));
  const int32_t in = op.inputs[0].type;
  const OT f = floatScalarFor(in);
  NNRT_RETURN_IF_ERROR(
      expectInputs(op, 1, {{"radius", OT::INT32}, {"bias", f}, {"alpha", f}, {"beta", f}}));
  if (isType(in, OT::TENSOR_FLOAT16)) op.needs(3);
  if (op.inputs.size() == 6) {
    NNRT_RETURN_IF_ERROR(expectInput(op, 5, "axis", OT::INT32));
    op.needs(3);
  } else if (op.inputs[0].rank() != 4) {
    op.needs(3);
  }
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 1, kMaxRank));
  NNRT_RETURN_IF_ERROR(expectOutputs(op, {typeOf(op.inputs[0])}));
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkMinimum(op, 1, "radius", 0));
  if (op.inputs.size() == 6) NNRT_RETURN_IF_ERROR(checkAxis(op, 5));
  return {};
}

// Input, beta, axis.
Result<void> validateLogSoftmax(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32}));
  NNRT_RETURN_IF_ERROR(
      expectInputs(op, 1, {{"beta", floatScalarFor(op.inputs[0].type)}, {"axis", OT::INT32}}));
  NNRT_RETURN_IF_ERROR(expectOutputs(op, {typeOf(op.inputs[0])}));
  op.needs(3);
  if (!op.full()) return {};
  return checkAxis(op, 2);
}

// Input, gamma, beta, epsilon, layout.
Result<void> validateInstanceNormalization(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32}));
  const OT f = floatScalarFor(op.inputs[0].type);
  NNRT_RETURN_IF_ERROR(
      expectInputs(op, 1, {{"gamma", f}, {"beta", f}, {"epsilon", f}, {"layout (NCHW)", OT::BOOL}}));
  NNRT_RETURN_IF_ERROR(expectOutputs(op, {typeOf(op.inputs[0])}));
  op.needs(3);
  return fullRank(op, 0, "input", 4, 4);
}

// Dimension `axis` of input `index` is `expected` where both are known (0 is unknown).
Result<void> checkDim(const OpArgs& op, size_t index, std::string_view name, uint32_t axis, uint32_t expected) {
  const auto dims = op.inputs[index].dims;
  if (axis >= dims.size() || dims[axis] == 0 || expected == 0 || dims[axis] == expected) return {};
  return inputError(op, index, name,
                    "must have " + std::to_string(expected) + " in dimension " + std::to_string(axis) + ", not " +
                        shapeToString(dims));
}

// Dimension `axis` of `arg` when its rank is known, else 0 (unknown).
uint32_t dimOf(const Arg& arg, uint32_t axis) {
  return axis < arg.rank() ? arg.dims[axis] : 0;
}

// ---- ROI_ALIGN, ROI_POOLING, HEATMAP_MAX_KEYPOINT --------------------------------------------------

// The type of box coordinates that goes with a data type: the data type itself for floats,
// TENSOR_QUANT16_ASYMM for quantized data.
OT boxTypeFor(int32_t dataType) {
  return isQuant8(dataType) ? OT::TENSOR_QUANT16_ASYMM : static_cast<OT>(dataType);
}

// ROI_ALIGN (10 inputs): input, rois, batch split, output height, output width, height ratio,
// width ratio, height and width sampling ratios, layout. ROI_POOLING (8 inputs) has no sampling ratios.
Result<void> validateRoiOp(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataTypes));
  const int32_t in = op.inputs[0].type;
  const OT f = floatScalarFor(in);
  NNRT_RETURN_IF_ERROR(expectInputs(op, 1,
                                    {{"rois", boxTypeFor(in)},
                                     {"batch split", OT::TENSOR_INT32},
                                     {"output height", OT::INT32},
                                     {"output width", OT::INT32},
                                     {"height ratio", f},
                                     {"width ratio", f}}));
  const bool align = op.inputs.size() == 10;
  if (align) {
    NNRT_RETURN_IF_ERROR(expectInputs(
        op, 7, {{"height sampling ratio", OT::INT32}, {"width sampling ratio", OT::INT32}}));
  }
  const size_t layout = align ? 9 : 7;
  NNRT_RETURN_IF_ERROR(expectInput(op, layout, "layout (NCHW)", OT::BOOL));
  NNRT_RETURN_IF_ERROR(expectOutputs(op, {typeOf(op.inputs[0])}));
  op.needs(isType(in, OT::TENSOR_QUANT8_ASYMM_SIGNED) ? 4 : 3);

  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 4, 4));
  NNRT_RETURN_IF_ERROR(checkRank(op, 1, "rois", 2, 2));
  NNRT_RETURN_IF_ERROR(checkRank(op, 2, "batch split", 1, 1));
  NNRT_RETURN_IF_ERROR(checkBoxQuantization(op, 1, "rois"));
  NNRT_RETURN_IF_ERROR(checkMinimum(op, 3, "output height", 1));
  NNRT_RETURN_IF_ERROR(checkMinimum(op, 4, "output width", 1));
  NNRT_RETURN_IF_ERROR(checkPositive(op, 5, "height ratio"));
  NNRT_RETURN_IF_ERROR(checkPositive(op, 6, "width ratio"));
  if (align) {
    NNRT_RETURN_IF_ERROR(checkMinimum(op, 7, "height sampling ratio", 0));
    NNRT_RETURN_IF_ERROR(checkMinimum(op, 8, "width sampling ratio", 0));
  }
  NNRT_RETURN_IF_ERROR(checkDim(op, 1, "rois", 1, 4));
  return checkDim(op, 2, "batch split", 0, dimOf(op.inputs[1], 0));
}

// [rois, output height, output width, depth] (NHWC) or [rois, depth, output height, output width].
Result<std::vector<Shape>> inferRoiOp(const OpArgs& op) {
  if (op.inputs.size() < 8) return std::vector<Shape>{Shape{}};
  const bool align = op.inputs.size() == 10;
  const auto nchw = knownBool(op.inputs[align ? 9 : 7]);
  const auto h = knownInt32(op.inputs[3]), w = knownInt32(op.inputs[4]);
  const uint32_t rois = dimOf(op.inputs[1], 0);
  const uint32_t oh = h && *h > 0 ? static_cast<uint32_t>(*h) : 0, ow = w && *w > 0 ? static_cast<uint32_t>(*w) : 0;
  if (!nchw) return std::vector<Shape>{Shape{rois, 0, 0, 0}};
  const uint32_t depth = dimOf(op.inputs[0], *nchw ? 1 : 3);
  return std::vector<Shape>{*nchw ? Shape{rois, depth, oh, ow} : Shape{rois, oh, ow, depth}};
}

// Heatmap, boxes, layout; outputs: scores and keypoints.
Result<void> validateHeatmapMaxKeypoint(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "heatmap", kDataTypes));
  const int32_t in = op.inputs[0].type;
  NNRT_RETURN_IF_ERROR(
      expectInputs(op, 1, {{"boxes", boxTypeFor(in)}, {"layout (NCHW)", OT::BOOL}}));
  NNRT_RETURN_IF_ERROR(expectOutputs(op, {typeOf(op.inputs[0]), boxTypeFor(in)}));
  op.needs(isType(in, OT::TENSOR_QUANT8_ASYMM_SIGNED) ? 4 : 3);
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "heatmap", 4, 4));
  NNRT_RETURN_IF_ERROR(checkRank(op, 1, "boxes", 2, 2));
  NNRT_RETURN_IF_ERROR(checkDim(op, 1, "boxes", 0, dimOf(op.inputs[0], 0)));
  NNRT_RETURN_IF_ERROR(checkDim(op, 1, "boxes", 1, 4));
  return checkBoxQuantization(op, 1, "boxes");
}

// Scores [boxes, keypoints] and keypoints [boxes, keypoints, 2].
Result<std::vector<Shape>> inferHeatmapMaxKeypoint(const OpArgs& op) {
  if (op.inputs.size() < 3) return std::vector<Shape>{Shape{}, Shape{}};
  const auto nchw = knownBool(op.inputs[2]);
  const uint32_t boxes = dimOf(op.inputs[0], 0);
  const uint32_t keypoints = nchw ? dimOf(op.inputs[0], *nchw ? 1 : 3) : 0;
  return std::vector<Shape>{Shape{boxes, keypoints}, Shape{boxes, keypoints, 2}};
}

// ---- Box post-processing -----------------------------------------------------------------------

// Rois, deltas, batch split, image info.
Result<void> validateAxisAlignedBboxTransform(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(
      checkInputType(op, 0, "rois", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_QUANT16_ASYMM}));
  const int32_t rois = op.inputs[0].type;
  if (isType(rois, OT::TENSOR_QUANT16_ASYMM)) {
    NNRT_RETURN_IF_ERROR(
        checkInputType(op, 1, "deltas", {OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_QUANT8_ASYMM_SIGNED}));
  } else {
    NNRT_RETURN_IF_ERROR(checkSameType(op, 1, "deltas", 0));
  }
  NNRT_RETURN_IF_ERROR(expectInput(op, 2, "batch split", OT::TENSOR_INT32));
  NNRT_RETURN_IF_ERROR(checkSameType(op, 3, "image info", 0));
  NNRT_RETURN_IF_ERROR(expectOutputs(op, {typeOf(op.inputs[0])}));
  op.needs(3);
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "rois", 2, 2));
  NNRT_RETURN_IF_ERROR(checkRank(op, 1, "deltas", 2, 2));
  NNRT_RETURN_IF_ERROR(checkRank(op, 2, "batch split", 1, 1));
  NNRT_RETURN_IF_ERROR(checkRank(op, 3, "image info", 2, 2));
  NNRT_RETURN_IF_ERROR(checkBoxQuantization(op, 0, "rois"));
  NNRT_RETURN_IF_ERROR(checkDim(op, 0, "rois", 1, 4));
  NNRT_RETURN_IF_ERROR(checkDim(op, 1, "deltas", 0, dimOf(op.inputs[0], 0)));
  NNRT_RETURN_IF_ERROR(checkDim(op, 2, "batch split", 0, dimOf(op.inputs[0], 0)));
  NNRT_RETURN_IF_ERROR(checkDim(op, 3, "image info", 1, 2));
  if (const uint32_t d = dimOf(op.inputs[1], 1); d % 4 != 0) {
    return inputError(op, 1, "deltas", "must hold 4 values per class, not " + std::to_string(d));
  }
  return checkBoxQuantization(op, 3, "image info");
}

// [rois, 4 * classes], like the deltas.
Result<std::vector<Shape>> inferAxisAlignedBboxTransform(const OpArgs& op) {
  if (op.inputs.size() < 2) return std::vector<Shape>{Shape{}};
  return std::vector<Shape>{Shape{dimOf(op.inputs[0], 0), dimOf(op.inputs[1], 1)}};
}

// Scores, rois, batch split, score threshold, max detections, NMS kernel, IoU threshold, sigma,
// NMS score threshold; outputs: scores, rois, classes, batch split.
Result<void> validateBoxWithNmsLimit(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "scores", kDataTypes));
  const int32_t in = op.inputs[0].type;
  const OT f = floatScalarFor(in);
  NNRT_RETURN_IF_ERROR(expectInputs(op, 1,
                                    {{"rois", boxTypeFor(in)},
                                     {"batch split", OT::TENSOR_INT32},
                                     {"score threshold", f},
                                     {"max detections", OT::INT32},
                                     {"NMS kernel", OT::INT32},
                                     {"IoU threshold", f},
                                     {"sigma", f},
                                     {"NMS score threshold", f}}));
  NNRT_RETURN_IF_ERROR(
      expectOutputs(op, {typeOf(op.inputs[0]), boxTypeFor(in), OT::TENSOR_INT32, OT::TENSOR_INT32}));
  op.needs(isType(in, OT::TENSOR_QUANT8_ASYMM_SIGNED) ? 4 : 3);
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "scores", 2, 2));
  NNRT_RETURN_IF_ERROR(checkRank(op, 1, "rois", 2, 2));
  NNRT_RETURN_IF_ERROR(checkRank(op, 2, "batch split", 1, 1));
  const uint32_t rois = dimOf(op.inputs[0], 0), classes = dimOf(op.inputs[0], 1);
  NNRT_RETURN_IF_ERROR(checkDim(op, 1, "rois", 0, rois));
  NNRT_RETURN_IF_ERROR(checkDim(op, 1, "rois", 1, classes * 4));
  NNRT_RETURN_IF_ERROR(checkDim(op, 2, "batch split", 0, rois));
  if (classes == 1) return inputError(op, 0, "scores", "needs a class besides the background (class 0)");
  if (const auto kernel = knownInt32(op.inputs[5]); kernel && (*kernel < 0 || *kernel > 2)) {
    return inputError(op, 5, "NMS kernel", "must be 0 (hard), 1 (linear) or 2 (gaussian), not " + std::to_string(*kernel));
  }
  return checkBoxQuantization(op, 1, "rois");
}

// The number of boxes kept depends on the data: [kept], [kept, 4], [kept], [kept] with kept unknown
// (0) until the operation has run.
Result<std::vector<Shape>> inferBoxWithNmsLimit(const OpArgs&) {
  return std::vector<Shape>{Shape{0}, Shape{0, 4}, Shape{0}, Shape{0}};
}

// Scores, deltas, anchors, image info, height stride, width stride, pre-NMS max, post-NMS max,
// IoU threshold, min size, layout; outputs: scores, rois, batch split.
Result<void> validateGenerateProposals(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "scores", kDataTypes));
  const int32_t in = op.inputs[0].type;
  const bool quant = isQuant8(in);
  const OT f = floatScalarFor(in);
  NNRT_RETURN_IF_ERROR(checkSameType(op, 1, "deltas", 0));
  NNRT_RETURN_IF_ERROR(expectInputs(op, 2,
                                    {{"anchors", quant ? OT::TENSOR_QUANT16_SYMM : typeOf(op.inputs[0])},
                                     {"image info", boxTypeFor(in)},
                                     {"height stride", f},
                                     {"width stride", f},
                                     {"pre-NMS max", OT::INT32},
                                     {"post-NMS max", OT::INT32},
                                     {"IoU threshold", f},
                                     {"min size", f},
                                     {"layout (NCHW)", OT::BOOL}}));
  NNRT_RETURN_IF_ERROR(expectOutputs(op, {typeOf(op.inputs[0]), boxTypeFor(in), OT::TENSOR_INT32}));
  op.needs(isType(in, OT::TENSOR_QUANT8_ASYMM_SIGNED) ? 4 : 3);
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "scores", 4, 4));
  NNRT_RETURN_IF_ERROR(checkRank(op, 1, "deltas", 4, 4));
  NNRT_RETURN_IF_ERROR(checkRank(op, 2, "anchors", 2, 2));
  NNRT_RETURN_IF_ERROR(checkRank(op, 3, "image info", 2, 2));
  const auto nchw = knownBool(op.inputs[10]);
  if (nchw) {
    const ImageLayout l = imageLayout(*nchw);
    const Arg& scores = op.inputs[0];
    const uint32_t anchors = dimOf(scores, l.c);
    NNRT_RETURN_IF_ERROR(checkDim(op, 1, "deltas", 0, dimOf(scores, 0)));
    NNRT_RETURN_IF_ERROR(checkDim(op, 1, "deltas", l.h, dimOf(scores, l.h)));
    NNRT_RETURN_IF_ERROR(checkDim(op, 1, "deltas", l.w, dimOf(scores, l.w)));
    NNRT_RETURN_IF_ERROR(checkDim(op, 1, "deltas", l.c, anchors * 4));
    NNRT_RETURN_IF_ERROR(checkDim(op, 2, "anchors", 0, anchors));
  }
  NNRT_RETURN_IF_ERROR(checkDim(op, 2, "anchors", 1, 4));
  NNRT_RETURN_IF_ERROR(checkDim(op, 3, "image info", 0, dimOf(op.inputs[0], 0)));
  NNRT_RETURN_IF_ERROR(checkDim(op, 3, "image info", 1, 2));
  return checkBoxQuantization(op, 3, "image info");
}

// Like BOX_WITH_NMS_LIMIT, the number of proposals kept is known only once the operation has run.
Result<std::vector<Shape>> inferGenerateProposals(const OpArgs&) {
  return std::vector<Shape>{Shape{0}, Shape{0, 4}, Shape{0}};
}

// Scores, deltas, anchors, 4 scales (y, x, h, w), use regular NMS, max detections, max classes per
// detection, max detections per class, score threshold, IoU threshold, background in label;
// outputs: scores, boxes, classes, detection count.
Result<void> validateDetectionPostprocessing(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "scores", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32}));
  const OT in = typeOf(op.inputs[0]);
  const OT f = floatScalarFor(op.inputs[0].type);
  NNRT_RETURN_IF_ERROR(expectInputs(op, 1,
                                    {{"deltas", in},
                                     {"anchors", in},
                                     {"y scale", f},
                                     {"x scale", f},
                                     {"height scale", f},
                                     {"width scale", f},
                                     {"use regular NMS", OT::BOOL},
                                     {"max detections", OT::INT32},
                                     {"max classes per detection", OT::INT32},
                                     {"max detections per class", OT::INT32},
                                     {"score threshold", f},
                                     {"IoU threshold", f},
                                     {"background in label", OT::BOOL}}));
  NNRT_RETURN_IF_ERROR(expectOutputs(op, {in, in, OT::TENSOR_INT32, OT::TENSOR_INT32}));
  op.needs(3);
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "scores", 3, 3));
  NNRT_RETURN_IF_ERROR(checkRank(op, 1, "deltas", 3, 3));
  NNRT_RETURN_IF_ERROR(checkRank(op, 2, "anchors", 2, 2));
  const Arg& scores = op.inputs[0];
  if (dimOf(scores, 2) == 1) return inputError(op, 0, "scores", "needs a class besides the background (class 0)");
  NNRT_RETURN_IF_ERROR(checkDim(op, 1, "deltas", 0, dimOf(scores, 0)));
  NNRT_RETURN_IF_ERROR(checkDim(op, 1, "deltas", 1, dimOf(scores, 1)));
  if (const uint32_t d = dimOf(op.inputs[1], 2); d != 0 && d < 4) {
    return inputError(op, 1, "deltas", "needs at least 4 values per anchor, not " + std::to_string(d));
  }
  NNRT_RETURN_IF_ERROR(checkDim(op, 2, "anchors", 0, dimOf(scores, 1)));
  NNRT_RETURN_IF_ERROR(checkDim(op, 2, "anchors", 1, 4));
  NNRT_RETURN_IF_ERROR(checkMinimum(op, 8, "max detections", 1));
  if (knownBool(op.inputs[7]) == false) NNRT_RETURN_IF_ERROR(checkMinimum(op, 9, "max classes per detection", 1));
  if (knownBool(op.inputs[7]) == true) NNRT_RETURN_IF_ERROR(checkMinimum(op, 10, "max detections per class", 1));
  return {};
}

// [batches, detections], [batches, detections, 4], [batches, detections], [batches]: detections is
// max detections, times max classes per detection without regular NMS.
Result<std::vector<Shape>> inferDetectionPostprocessing(const OpArgs& op) {
  if (op.inputs.size() < 14) return std::vector<Shape>{Shape{}, Shape{}, Shape{}, Shape{}};
  const uint32_t batches = dimOf(op.inputs[0], 0);
  const auto regular = knownBool(op.inputs[7]);
  const auto most = knownInt32(op.inputs[8]), classes = knownInt32(op.inputs[9]);
  uint32_t detections = 0;
  if (regular && most && *most > 0) {
    if (*regular) {
      detections = static_cast<uint32_t>(*most);
    } else if (classes && *classes > 0) {
      detections = static_cast<uint32_t>(*most) * static_cast<uint32_t>(*classes);
    }
  }
  return std::vector<Shape>{Shape{batches, detections}, Shape{batches, detections, 4}, Shape{batches, detections},
                            Shape{batches}};
}

// ---- LSH_PROJECTION, RANDOM_MULTINOMIAL --------------------------------------------------------

// Hash, input, weight (optional), projection type. The feature level follows the hash type only.
Result<void> validateLshProjection(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(
      op, 1, "input", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_INT32, OT::TENSOR_QUANT8_ASYMM}));
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "hash", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32}));
  // An omitted weight still declares its type, and Android checks it.
  NNRT_RETURN_IF_ERROR(expectInput(op, 2, "weight", typeOf(op.inputs[0])));
  NNRT_RETURN_IF_ERROR(expectInput(op, 3, "type", OT::INT32));
  NNRT_RETURN_IF_ERROR(expectOutputs(op, {OT::TENSOR_INT32}));
  if (isType(op.inputs[0].type, OT::TENSOR_FLOAT16)) op.needs(3);
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "hash", 2, 2));
  if (op.inputs[0].rank() == 2 && op.inputs[0].dims[1] > 32) {
    return inputError(op, 0, "hash",
                      "can have at most 32 hash functions per projection, not " +
                          std::to_string(op.inputs[0].dims[1]));
  }
  NNRT_RETURN_IF_ERROR(checkRank(op, 1, "input", 1, UINT32_MAX));
  const auto type = knownInt32(op.inputs[3]);
  if (type && (*type < 1 || *type > 3)) {
    return inputError(op, 3, "type",
                      "must be 1 (SPARSE_DEPRECATED), 2 (DENSE) or 3 (SPARSE), not " + std::to_string(*type));
  }
  const bool weighted = isPresent(op, 2);
  if (type == 2 && !weighted) return inputError(op, 2, "weight", "is required by a DENSE projection");
  if (type && *type != 2 && weighted) {
    return inputError(op, 2, "weight", "must be omitted for a SPARSE projection");
  }
  if (weighted) {
    NNRT_RETURN_IF_ERROR(checkRank(op, 2, "weight", 1, 1));
    const auto& weight = op.inputs[2].dims;
    const auto& input = op.inputs[1].dims;
    if (weight.size() == 1 && !input.empty() && weight[0] != 0 && input[0] != 0 && weight[0] != input[0]) {
      return inputError(op, 2, "weight",
                        "must hold one value per row of input 1 (" + std::to_string(input[0]) + "), not " +
                            std::to_string(weight[0]));
    }
  }
  return {};
}

// Output: [num_hash] signatures (SPARSE) or [num_hash * num_bits] bits (DENSE).
Result<std::vector<Shape>> inferLshProjection(const OpArgs& op) {
  const auto hash = op.inputs[0].dims;
  const auto type = knownInt32(op.inputs[3]);
  if (hash.size() != 2 || !type) return std::vector<Shape>{Shape(1, 0)};
  return std::vector<Shape>{Shape(1, *type == 2 ? hash[0] * hash[1] : hash[0])};
}

// Logits, sample count, seeds.
Result<void> validateRandomMultinomial(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32}));
  NNRT_RETURN_IF_ERROR(
      expectInputs(op, 1, {{"sample count", OT::INT32}, {"seeds", OT::TENSOR_INT32}}));
  NNRT_RETURN_IF_ERROR(expectOutputs(op, {OT::TENSOR_INT32}));
  op.needs(3);
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 2, 2));
  NNRT_RETURN_IF_ERROR(checkRank(op, 2, "seeds", 1, 1));
  return checkMinimum(op, 1, "sample count", 1);
}

// ---- Output shapes of the convolutions and BATCH_MATMUL --------------------------------------------

// The output of a convolution whose parameters decoded: [batches, height, width, channels] in its
// layout. Before they can (a dimension or a value not known yet), the batches alone.
template <class Params>
std::vector<Shape> convolutionOutput(const OpArgs& op, const Result<Params>& p) {
  if (!p) {
    Shape out(4, 0);
    if (op.inputs[0].rank() == 4) out[0] = op.inputs[0].dims[0];
    return {out};
  }
  const ImageLayout l = imageLayout(p->nchw);
  Shape out(4, 0);
  out[0] = p->batches;
  out[l.h] = p->outputHeight;
  out[l.w] = p->outputWidth;
  out[l.c] = p->outputChannels;
  return {out};
}

Result<std::vector<Shape>> inferGroupedConv2D(const OpArgs& op) {
  return convolutionOutput(op, decodeGroupedConv2D(op));
}

Result<std::vector<Shape>> inferTransposeConv2D(const OpArgs& op) {
  return convolutionOutput(op, decodeTransposeConv2D(op));
}

// BATCH_MATMUL: lhs [..., m, k] (adjoint: [..., k, m]) times rhs [..., k, n] (adjoint: [..., n, k]) is
// [..., m, n], a batch dimension of 1 in one operand taking the other's.
Result<std::vector<Shape>> inferBatchMatmul(const OpArgs& op) {
  const auto lhs = op.inputs[0].dims, rhs = op.inputs[1].dims;
  const size_t rank = std::max(lhs.size(), rhs.size());
  if (rank < 2) return std::vector<Shape>{Shape{}};
  const auto adjLhs = knownBool(op.inputs[2]), adjRhs = knownBool(op.inputs[3]);
  Shape out(rank, 0);
  for (size_t d = 0; d + 2 < rank; ++d) {
    const uint32_t l = d < lhs.size() ? lhs[d] : 0, r = d < rhs.size() ? rhs[d] : 0;
    out[d] = l == 0 || r == 0 ? 0 : (l == 1 ? r : l);
  }
  if (lhs.size() == rank && adjLhs) out[rank - 2] = lhs[rank - (*adjLhs ? 1 : 2)];
  if (rhs.size() == rank && adjRhs) out[rank - 1] = rhs[rank - (*adjRhs ? 2 : 1)];
  return std::vector<Shape>{out};
}

// RANDOM_MULTINOMIAL: [batches, sample count].
Result<std::vector<Shape>> inferRandomMultinomial(const OpArgs& op) {
  const auto samples = knownInt32(op.inputs[1]);
  const uint32_t batches = op.inputs[0].rank() == 2 ? op.inputs[0].dims[0] : 0;
  return std::vector<Shape>{Shape{batches, samples && *samples > 0 ? static_cast<uint32_t>(*samples) : 0}};
}

const Signature kSignatures[] = {
    {T::GROUPED_CONV_2D, bits({9, 12}), 0, bits({1}), 0, 0, validateGroupedConv2D, inferGroupedConv2D},
    {T::TRANSPOSE_CONV_2D, bits({9, 11}), 0, bits({1}), 0, 0, validateTransposeConv2D, inferTransposeConv2D},
    {T::RESIZE_BILINEAR, bits({3, 4, 5, 6}), 0, bits({1}), 0, 0, validateResize, inferResize},
    {T::RESIZE_NEAREST_NEIGHBOR, bits({4, 5, 6}), 0, bits({1}), 0, 0, validateResize, inferResize},
    {T::BATCH_MATMUL, bits({4}), 0, bits({1}), 0, 0, validateBatchMatmul, inferBatchMatmul},
    {T::L2_NORMALIZATION, bits({1, 2}), 0, bits({1}), 0, 0, validateL2Normalization, inferLikeInput0},
    {T::LOCAL_RESPONSE_NORMALIZATION, bits({5, 6}), 0, bits({1}), 0, 0, validateLocalResponseNormalization,
     inferLikeInput0},
    {T::LOG_SOFTMAX, bits({3}), 0, bits({1}), 0, 0, validateLogSoftmax, inferLikeInput0},
    {T::INSTANCE_NORMALIZATION, bits({5}), 0, bits({1}), 0, 0, validateInstanceNormalization, inferLikeInput0},
    {T::ROI_ALIGN, bits({10}), 0, bits({1}), 0, 0, validateRoiOp, inferRoiOp},
    {T::ROI_POOLING, bits({8}), 0, bits({1}), 0, 0, validateRoiOp, inferRoiOp},
    {T::HEATMAP_MAX_KEYPOINT, bits({3}), 0, bits({2}), 0, 0, validateHeatmapMaxKeypoint, inferHeatmapMaxKeypoint},
    {T::AXIS_ALIGNED_BBOX_TRANSFORM, bits({4}), 0, bits({1}), 0, 0, validateAxisAlignedBboxTransform,
     inferAxisAlignedBboxTransform},
    {T::BOX_WITH_NMS_LIMIT, bits({9}), 0, bits({4}), 0, 0, validateBoxWithNmsLimit, inferBoxWithNmsLimit},
    {T::GENERATE_PROPOSALS, bits({11}), 0, bits({3}), 0, 0, validateGenerateProposals, inferGenerateProposals},
    {T::DETECTION_POSTPROCESSING, bits({14}), 0, bits({4}), 0, 0, validateDetectionPostprocessing,
     inferDetectionPostprocessing},
    {T::LSH_PROJECTION, bits({4}), 0, bits({1}), 0, bits({2}), validateLshProjection, inferLshProjection},
    {T::RANDOM_MULTINOMIAL, bits({3}), 0, bits({1}), 0, 0, validateRandomMultinomial, inferRandomMultinomial},
};

}  // namespace

std::span<const Signature> imageSignatures() {
  return kSignatures;
}

}  // namespace nnrt::ops::detail
