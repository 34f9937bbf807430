// Parameter decoders for drivers: each turns an operation's Args, at execution (every shape and
// value known), into plain numbers with NNAPI's implicit forms resolved — explicit pads instead of
// PaddingCode, defaults for omitted optional inputs, negative axes made non-negative, the geometry
// read through the layout — so that no driver re-derives NNAPI's parameter rules.
//
// A decoder checks only what it needs to produce its numbers (values present and in range, shapes
// known); it assumes validate() accepted the operation. It fails with INVALID_ARGUMENT, naming the
// operation and the missing or bad value. Pure functions; safe to call from any thread.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "nnrt/driver/activation.hpp"
#include "nnrt/driver/ops/operation.hpp"

namespace nnrt::ops {

// NNAPI FuseCode and its bounds (nnrt/driver/activation.hpp).
using driver::Activation;
using driver::activationRange;
using driver::FloatRange;
using driver::QuantizedRange;

// The bounds of `activation` in the quantized domain of an output of `outputType`
// (TENSOR_QUANT8_ASYMM or _SIGNED; other types are not limited) with this scale and zero point.
QuantizedRange activationRange(Activation activation, int32_t outputType, float scale, int32_t zeroPoint);

// ADD, SUB, MUL, DIV.
struct BinaryParams {
  Activation activation = Activation::None;
};
driver::Result<BinaryParams> decodeBinary(const OpArgs& op);

// FULLY_CONNECTED: input flattened to [batchSize, inputSize], weights [numUnits, inputSize].
struct FullyConnectedParams {
  uint32_t batchSize = 0, inputSize = 0, numUnits = 0;
  Activation activation = Activation::None;
};
driver::Result<FullyConnectedParams> decodeFullyConnected(const OpArgs& op);

// CONV_2D (filter [outputChannels, filterHeight, filterWidth, inputChannels]). The geometry is
// named in NHWC terms whatever the layout; `nchw` says how input 0 and output 0 are stored.
// Output position (y, x) reads input rows y * strideH - padTop + ky * dilationH and columns
// x * strideW - padLeft + kx * dilationW.
struct Conv2DParams {
  uint32_t batches = 0, inputHeight = 0, inputWidth = 0, inputChannels = 0;
  uint32_t filterHeight = 0, filterWidth = 0;
  uint32_t outputHeight = 0, outputWidth = 0, outputChannels = 0;
  uint32_t padLeft = 0, padRight = 0, padTop = 0, padBottom = 0;
  uint32_t strideW = 1, strideH = 1;
  uint32_t dilationW = 1, dilationH = 1;
  Activation activation = Activation::None;
  bool nchw = false;
};
driver::Result<Conv2DParams> decodeConv2D(const OpArgs& op);

// NNAPI's implicit padding for one spatial dimension: {before, after} for `in` positions read by a
// `filter` window (dilated by `dilation`) every `stride`. PADDING_SAME (1) centres the window, the
// odd pad going after; PADDING_VALID (2) pads nothing. Every windowed operation resolves its implicit
// form with it (CONV_2D, GROUPED_CONV_2D, TRANSPOSE_CONV_2D and the pools here).
std::pair<uint32_t, uint32_t> implicitPadding(int32_t code, uint32_t in, uint32_t filter, uint32_t stride,
                                              uint32_t dilation = 1);

// DEPTHWISE_CONV_2D (filter [1, filterHeight, filterWidth, outputChannels]); output channel c reads
// input channel c / depthMultiplier.
struct DepthwiseConv2DParams : Conv2DParams {
  uint32_t depthMultiplier = 1;
};
driver::Result<DepthwiseConv2DParams> decodeDepthwiseConv2D(const OpArgs& op);

// GROUPED_CONV_2D (filter [outputChannels, filterHeight, filterWidth, inputChannels / groups]):
// output channels [g * outputChannels / groups, (g + 1) * outputChannels / groups) read input
// channels [g * inputChannels / groups, ...). No dilation. Implicit padding as CONV_2D's.
struct GroupedConv2DParams : Conv2DParams {
  uint32_t groups = 1;
};
driver::Result<GroupedConv2DParams> decodeGroupedConv2D(const OpArgs& op);

// TRANSPOSE_CONV_2D (filter [outputChannels, filterHeight, filterWidth, inputChannels]): input
// position (y, x) adds its products to output rows y * strideH - padTop + ky and columns
// x * strideW - padLeft + kx that exist. The output size is the given output shape (implicit form)
// or (input - 1) * stride + filter - padLeading - padTrailing (explicit form); implicit pads are
// implicitPadding() on the output size, and only the leading ones matter.
struct TransposeConv2DParams : Conv2DParams {};
driver::Result<TransposeConv2DParams> decodeTransposeConv2D(const OpArgs& op);

// BATCH_MATMUL: whether each operand is transposed (its last two dimensions swapped).
struct BatchMatmulParams {
  bool adjointLhs = false, adjointRhs = false;
};
driver::Result<BatchMatmulParams> decodeBatchMatmul(const OpArgs& op);

// AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D; geometry in NHWC terms as for Conv2DParams.
struct Pool2DParams {
  uint32_t batches = 0, inputHeight = 0, inputWidth = 0, channels = 0;
  uint32_t outputHeight = 0, outputWidth = 0;
  uint32_t padLeft = 0, padRight = 0, padTop = 0, padBottom = 0;
  uint32_t strideW = 1, strideH = 1;
  uint32_t filterW = 1, filterH = 1;
  Activation activation = Activation::None;
  bool nchw = false;
};
driver::Result<Pool2DParams> decodePool2D(const OpArgs& op);

// SOFTMAX: beta (FLOAT16 read as float) and the axis, default the last, in [0, rank).
struct SoftmaxParams {
  float beta = 1.0f;
  uint32_t axis = 0;
};
driver::Result<SoftmaxParams> decodeSoftmax(const OpArgs& op);

// RESHAPE: the output shape with its -1 entry resolved.
struct ReshapeParams {
  Shape shape;
};
driver::Result<ReshapeParams> decodeReshape(const OpArgs& op);

// CONCATENATION: the axis in [0, rank).
struct ConcatenationParams {
  uint32_t axis = 0;
};
driver::Result<ConcatenationParams> decodeConcatenation(const OpArgs& op);

// SQUEEZE: the input dimensions removed, ascending (all dimensions of size 1 when no axes are given).
struct SqueezeParams {
  std::vector<uint32_t> axes;
};
driver::Result<SqueezeParams> decodeSqueeze(const OpArgs& op);

// TRANSPOSE: output dimension i is input dimension perm[i] (reversed order when perm is omitted).
struct TransposeParams {
  std::vector<uint32_t> perm;
};
driver::Result<TransposeParams> decodeTranspose(const OpArgs& op);

// PAD: elements added before and after each input dimension (one entry per dimension).
struct PadParams {
  std::vector<uint32_t> before, after;
};
driver::Result<PadParams> decodePad(const OpArgs& op);

// MEAN: the reduced dimensions, ascending and unique, and whether they stay as size 1.
struct MeanParams {
  std::vector<uint32_t> axes;
  bool keepDims = false;
};
driver::Result<MeanParams> decodeMean(const OpArgs& op);

// ROI_ALIGN and ROI_POOLING: the output's height and width, the ratios of the image to the feature
// map (a box coordinate divided by its ratio is a feature-map coordinate), ROI_ALIGN's sampling
// points per output bin in each direction (0: ceil of the bin size; ROI_POOLING has none), and
// whether input 0 and output 0 are NCHW.
struct RoiParams {
  uint32_t outputHeight = 1, outputWidth = 1;
  float heightRatio = 1.0f, widthRatio = 1.0f;
  uint32_t heightSamplingRatio = 0, widthSamplingRatio = 0;
  bool nchw = false;
};
driver::Result<RoiParams> decodeRoi(const OpArgs& op);

// BOX_WITH_NMS_LIMIT: boxes scoring above `scoreThreshold` go through NMS per class with `kernel`
// (hard, linear or gaussian score decay); at most `maxDetections` per class and per batch (negative:
// no limit); scores that decay below `nmsScoreThreshold` drop out.
enum class NmsKernel : int32_t { Hard = 0, Linear = 1, Gaussian = 2 };
struct BoxWithNmsLimitParams {
  float scoreThreshold = 0.0f;
  int32_t maxDetections = -1;
  NmsKernel kernel = NmsKernel::Hard;
  float iouThreshold = 0.0f, sigma = 1.0f, nmsScoreThreshold = 0.0f;
};
driver::Result<BoxWithNmsLimitParams> decodeBoxWithNmsLimit(const OpArgs& op);

// GENERATE_PROPOSALS: the image pixels per feature-map step, the boxes kept before NMS (by score)
// and after it (non-positive: all), the hard NMS IoU threshold, the smallest box side kept, and
// whether scores and deltas are NCHW.
struct GenerateProposalsParams {
  float heightStride = 1.0f, widthStride = 1.0f;
  int32_t preNmsMax = 0, postNmsMax = 0;
  float iouThreshold = 0.0f, minSize = 0.0f;
  bool nchw = false;
};
driver::Result<GenerateProposalsParams> decodeGenerateProposals(const OpArgs& op);

// DETECTION_POSTPROCESSING: the box decoding scales (y, x, height, width), the NMS form (regular:
// per class; fast: once over each anchor's best class), the detection limits, the thresholds and
// whether class 0 (the background) counts in the output labels. Every limit is at least 1.
struct DetectionPostprocessingParams {
  float scaleY = 1.0f, scaleX = 1.0f, scaleH = 1.0f, scaleW = 1.0f;
  bool regularNms = false;
  uint32_t maxDetections = 1, maxClassesPerDetection = 1, maxDetectionsPerClass = 1;
  float scoreThreshold = 0.0f, iouThreshold = 0.0f;
  bool backgroundInLabel = false;
};
driver::Result<DetectionPostprocessingParams> decodeDetectionPostprocessing(const OpArgs& op);

// One dimension of STRIDED_SLICE resolved as Android does: a masked begin or end takes the whole
// extent in the stride's direction; otherwise a negative index counts from the end and the index is
// clamped into the dimension. `count` = ceil((end - begin) / stride), at least 0. `dim` > 0, `stride`
// != 0. Shape inference and drivers share it, so the two cannot disagree.
struct StridedSliceAxis {
  int64_t first = 0;   // the index of the first element taken
  int64_t stride = 1;
  int64_t count = 0;   // elements taken
};
StridedSliceAxis resolveStridedSliceAxis(int64_t dim, int32_t begin, int32_t end, int32_t stride, bool beginMasked,
                                         bool endMasked);

}  // namespace nnrt::ops
