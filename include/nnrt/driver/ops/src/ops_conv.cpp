// FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D: a data input, a filter (weights), a bias and the
// parameters. The 2-D convolutions take NNAPI's implicit or explicit padding forms, an optional
// NCHW layout and optional dilation (see readWindowParams).
//
// Filters of TENSOR_QUANT8_SYMM_PER_CHANNEL are accepted with a quantized input (channel dimension 0
// for CONV_2D, 3 for DEPTHWISE_CONV_2D, bias scale 0); their scales are checked when the Arg carries
// its operand description.
#include "ops_common.hpp"
#include "ops_families.hpp"

namespace nnrt::ops::detail {

namespace {

using OT = OperandType;

uint32_t dim(std::span<const uint32_t> dims, size_t index) {
  return index < dims.size() ? dims[index] : 0;
}

// A filter of the input's type, or a per-channel quantized filter for a quantized input.
Result<void> checkFilter(const OpArgs& op, uint32_t channelDim) {
  if (isPresent(op, 1) && isQuantizedType(op.inputs[0].type) &&
      isType(op.inputs[1].type, OT::TENSOR_QUANT8_SYMM_PER_CHANNEL)) {
    op.needs(3);
    return checkPerChannel(op, 1, "filter", channelDim);
  }
  return checkSameType(op, 1, "filter", 0);
}

// Feature levels: TENSOR_FLOAT32 and TENSOR_QUANT8_ASYMM since 1, TENSOR_FLOAT16, per-channel
// filters, the layout flag and dilation since 3, TENSOR_QUANT8_ASYMM_SIGNED since 4. A
// TENSOR_QUANT8_ASYMM form needs 3 unless it meets the older "output scale > input scale * filter
// scale" rule; Android's check of that rule reads input 0's scale in place of the output's, and
// nnrt computes the same feature level.
// At model building Android checks the known ranks of CONV_2D's input and filter (4), not those of
// DEPTHWISE_CONV_2D, and no bias rank or bias quantization: those wait for Check::Full.
Result<void> validateConvolution(const OpArgs& op, WindowKind kind) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataTypes));
  const int32_t type = op.inputs[0].type;
  if (isType(type, OT::TENSOR_FLOAT16)) op.needs(3);
  if (isType(type, OT::TENSOR_QUANT8_ASYMM_SIGNED)) op.needs(4);
  if (kind == WindowKind::Conv || op.full()) {
    NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 4, 4));
    NNRT_RETURN_IF_ERROR(checkRank(op, 1, "filter", 4, 4));
  }
  NNRT_RETURN_IF_ERROR(checkFilter(op, kind == WindowKind::Conv ? 0 : 3));
  if (isType(type, OT::TENSOR_QUANT8_ASYMM)) {
    const float scale = op.inputs[0].scale;
    if (!(scale > scale * op.inputs[1].scale)) op.needs(3);
  }
  NNRT_RETURN_IF_ERROR(checkBiasType(op, 2, 0));
  NNRT_RETURN_IF_ERROR(checkRankAtFull(op, 2, "bias", 1, 1));
  if (op.full()) NNRT_RETURN_IF_ERROR(checkBias(op, 2, 0, 1));
  NNRT_ASSIGN_OR_RETURN(WindowParams w, readWindowParams(op, kind));
  // Inputs beyond the plain form are the layout flag and the dilation factors.
  const size_t plain = (kind == WindowKind::Depthwise ? 8 : 7) + (w.implicit ? 0 : 3);
  if (op.inputs.size() > plain) op.needs(3);
  return checkOutputType(op, 0);
}

// Output channels agreed by the filter's output-channel dimension and the bias (0 when unknown).
Result<uint32_t> outputChannels(const OpArgs& op, size_t filterDim, const char* filterName) {
  const uint32_t fromFilter = dim(op.inputs[1].dims, filterDim);
  const uint32_t fromBias = op.inputs[2].rank() == 1 ? op.inputs[2].dims[0] : 0;
  if (fromFilter != 0 && fromBias != 0 && fromFilter != fromBias) {
    return inputError(op, 2, "bias",
                      "has " + std::to_string(fromBias) + " elements, but the " + filterName + " " +
                          shapeToString(op.inputs[1].dims) + " has " + std::to_string(fromFilter) +
                          " output channels");
  }
  return fromFilter != 0 ? fromFilter : fromBias;
}

Result<std::vector<Shape>> inferConvolution(const OpArgs& op, WindowKind kind) {
  NNRT_ASSIGN_OR_RETURN(WindowParams w, readWindowParams(op, kind));
  const auto in = op.inputs[0].dims;
  const auto filter = op.inputs[1].dims;
  if (in.size() != 0 && in.size() != 4) return inputError(op, 0, "input", "must have rank 4");
  if (filter.size() != 0 && filter.size() != 4) return inputError(op, 1, "filter", "must have rank 4");

  NNRT_ASSIGN_OR_RETURN(uint32_t channels, outputChannels(op, kind == WindowKind::Conv ? 0 : 3, "filter"));
  Shape out(4, 0);
  out[0] = dim(in, 0);
  if (!w.nchw) return std::vector<Shape>{out};  // the layout is not known yet
  const ImageLayout l = imageLayout(*w.nchw);
  const uint32_t inChannels = dim(in, l.c);
  if (kind == WindowKind::Conv) {
    const uint32_t filterDepth = dim(filter, 3);
    if (inChannels != 0 && filterDepth != 0 && inChannels != filterDepth) {
      return inputError(op, 1, "filter",
                        shapeToString(filter) + " has depth " + std::to_string(filterDepth) +
                            ", but the input " + shapeToString(in) + " has " + std::to_string(inChannels) +
                            " channels");
    }
  } else {
    if (dim(filter, 0) > 1) {
      return inputError(op, 1, "filter",
                        "must have shape [1, height, width, depth_out], not " + shapeToString(filter));
    }
    if (inChannels != 0 && w.depthMultiplier) {
      const uint64_t expected = static_cast<uint64_t>(inChannels) * static_cast<uint64_t>(*w.depthMultiplier);
      if (channels != 0 && channels != expected) {
        return inputError(op, 1, "filter",
                          shapeToString(filter) + " has " + std::to_string(channels) +
                              " output channels, but input channels " + std::to_string(inChannels) +
                              " * depth multiplier " + std::to_string(*w.depthMultiplier) + " = " +
                              std::to_string(expected));
      }
      if (expected > UINT32_MAX) return inputError(op, 1, "filter", "output channel count overflows");
      channels = static_cast<uint32_t>(expected);
    }
  }
  NNRT_ASSIGN_OR_RETURN(out[l.h], windowOutputSize(op, w, true, dim(in, l.h), dim(filter, 1)));
  NNRT_ASSIGN_OR_RETURN(out[l.w], windowOutputSize(op, w, false, dim(in, l.w), dim(filter, 2)));
  out[l.c] = channels;
  return std::vector<Shape>{out};
}

}  // namespace

// Feature levels: TENSOR_FLOAT32 since 1, TENSOR_FLOAT16 since 3, TENSOR_QUANT8_ASYMM since 1 when
// output scale > input scale * weights scale (since 3 otherwise), TENSOR_QUANT8_ASYMM_SIGNED since 4.
// When the ranks of input, weights and bias are all known, Android checks them and the shapes that
// follow from them (input elements a multiple of the input size, bias length = units) at model
// building; otherwise they wait for Check::Full.
Result<void> validateFullyConnected(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataTypes));
  const int32_t type = op.inputs[0].type;
  if (isType(type, OT::TENSOR_FLOAT16)) op.needs(3);
  if (isType(type, OT::TENSOR_QUANT8_ASYMM_SIGNED)) op.needs(4);
  if (isType(type, OT::TENSOR_QUANT8_ASYMM) &&
      !(op.outputs[0].scale > op.inputs[0].scale * op.inputs[1].scale)) {
    op.needs(3);
  }
  NNRT_RETURN_IF_ERROR(checkSameType(op, 1, "weights", 0));
  NNRT_RETURN_IF_ERROR(checkBiasType(op, 2, 0));
  NNRT_RETURN_IF_ERROR(checkFuseCode(op, 3));
  NNRT_RETURN_IF_ERROR(checkOutputType(op, 0));
  if (ranksKnown(op, {0, 1, 2}) || op.full()) {
    NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 2, kMaxRank));
    NNRT_RETURN_IF_ERROR(checkRank(op, 1, "weights", 2, 2));
    NNRT_RETURN_IF_ERROR(checkRank(op, 2, "bias", 1, 1));
  }
  if (ranksKnown(op, {0, 1, 2})) {
    const auto weights = op.inputs[1].dims;
    const uint32_t inputSize = weights[1];
    if (auto count = elementCount(op.inputs[0].dims); count && inputSize != 0 && *count % inputSize != 0) {
      return inputError(op, 0, "input",
                        shapeToString(op.inputs[0].dims) + " has " + std::to_string(*count) +
                            " elements, not a multiple of the weights' input size " + std::to_string(inputSize));
    }
    NNRT_RETURN_IF_ERROR(outputChannels(op, 0, "weights"));
  }
  if (op.full()) NNRT_RETURN_IF_ERROR(checkBias(op, 2, 0, 1));
  return {};
}

Result<std::vector<Shape>> inferFullyConnected(const OpArgs& op) {
  const auto in = op.inputs[0].dims;
  const auto weights = op.inputs[1].dims;
  if (weights.size() != 0 && weights.size() != 2) return inputError(op, 1, "weights", "must have rank 2");
  NNRT_ASSIGN_OR_RETURN(uint32_t units, outputChannels(op, 0, "weights"));
  const uint32_t inputSize = dim(weights, 1);
  uint32_t batch = 0;
  if (in.size() == 2 && in[1] != 0 && in[1] == inputSize) {
    batch = in[0];
  } else if (auto count = elementCount(in); count && !in.empty() && inputSize != 0) {
    if (*count % inputSize != 0) {
      return inputError(op, 0, "input",
                        shapeToString(in) + " has " + std::to_string(*count) +
                            " elements, not a multiple of the weights' input size " +
                            std::to_string(inputSize));
    }
    if (*count / inputSize > UINT32_MAX) return inputError(op, 0, "input", "batch size overflows");
    batch = static_cast<uint32_t>(*count / inputSize);
  }
  return std::vector<Shape>{Shape{batch, units}};
}

Result<void> validateConv2D(const OpArgs& op) {
  return validateConvolution(op, WindowKind::Conv);
}
Result<std::vector<Shape>> inferConv2D(const OpArgs& op) {
  return inferConvolution(op, WindowKind::Conv);
}

Result<void> validateDepthwiseConv2D(const OpArgs& op) {
  return validateConvolution(op, WindowKind::Depthwise);
}
Result<std::vector<Shape>> inferDepthwiseConv2D(const OpArgs& op) {
  return inferConvolution(op, WindowKind::Depthwise);
}

}  // namespace nnrt::ops::detail
