// The cpu driver's table for the detection and region-of-interest operations: AXIS_ALIGNED_BBOX_TRANSFORM,
// BOX_WITH_NMS_LIMIT, GENERATE_PROPOSALS, DETECTION_POSTPROCESSING, ROI_ALIGN, ROI_POOLING and
// HEATMAP_MAX_KEYPOINT, in every operand type the SDK's validation accepts for them (feature levels 3
// and 4). The kernels are float32 (kernels/detection.hpp): float16 rows widen through viaFloat32 and
// quantized rows (quant8 data, TENSOR_QUANT16_ASYMM / _SYMM boxes) dequantize through viaDequantized,
// as Android's reference computes them. Scalar parameters come from the SDK's decoders.
//
// The data the kernels index with is checked first: batch indices inside the batch, boxes with
// x1 <= x2 and y1 <= y2, ROI boxes inside the image. A violation fails the execution with a message
// naming the input and the box. BOX_WITH_NMS_LIMIT and GENERATE_PROPOSALS decide how many boxes they
// keep, so they place their outputs once they know (KernelEntry::shapesFromData); the operations that
// read boxes take zero boxes (KernelEntry::zeroSizedInputs).
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "nnrt/driver/ops/params.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/kernels/detection.hpp"
#include "plugins/cpu/kernels/tensor_shape.hpp"
#include "plugins/cpu/type_adapters.hpp"

namespace nnrt::cpu {

std::span<const KernelEntry> detectionKernels();

namespace {

using driver::Result;
using ops::Arg;

constexpr std::array<uint32_t, 4> kToNhwc{0, 2, 3, 1};

std::string inputName(const KernelCall& c, size_t index) {
  return ops::operationName(c.op.type) + " input " + std::to_string(index);
}

// Boxes [count, 4 * perRow] of input `index`: every [x1, y1, x2, y2] has x1 <= x2 and y1 <= y2.
Result<void> checkBoxOrder(const KernelCall& c, size_t index, const float* boxes, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const float* b = boxes + i * 4;
    if (!(b[0] <= b[2] && b[1] <= b[3])) {
      return driver::invalidArgument(inputName(c, index) + " box " + std::to_string(i) +
                                     " has x1 > x2 or y1 > y2 (or a NaN)");
    }
  }
  return {};
}

// Batch indices of input `index` lie in [0, batches).
Result<void> checkBatchIndices(const KernelCall& c, size_t index, uint32_t batches) {
  const Arg& arg = c.op.inputs[index];
  const auto values = arg.values<int32_t>();
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] < 0 || static_cast<uint32_t>(values[i]) >= batches) {
      return driver::invalidArgument(inputName(c, index) + " (batch split) entry " + std::to_string(i) + " is " +
                                     std::to_string(values[i]) + ", outside the " + std::to_string(batches) +
                                     " batches");
    }
  }
  return {};
}

// Input `index`, an NCHW image when `nchw`, as NHWC (through the execution's scratch memory).
const float* nhwcInput(const KernelCall& c, size_t index, bool nchw, Shape& shape) {
  const Arg& in = c.op.inputs[index];
  shape = shapeOf(in);
  if (!nchw) return input<float>(c, index);
  shape = Shape{{in.dims[0], in.dims[2], in.dims[3], in.dims[1]}};
  void* data = c.scratch.allocate(shape.elements() * sizeof(float));
  transpose(in.data, shapeOf(in), kToNhwc, sizeof(float), data);
  return static_cast<const float*>(data);
}

// ---- AXIS_ALIGNED_BBOX_TRANSFORM -------------------------------------------------------------------

// Inputs: rois 0, deltas 1, batch split 2, image info 3.
Result<void> bboxTransformFloat(const KernelCall& c) {
  const uint32_t rois = c.op.inputs[0].dims[0], classes = c.op.inputs[1].dims[1] / 4;
  NNRT_RETURN_IF_ERROR(checkBatchIndices(c, 2, c.op.inputs[3].dims[0]));
  NNRT_RETURN_IF_ERROR(checkBoxOrder(c, 0, input<float>(c, 0), rois));
  axisAlignedBboxTransform(input<float>(c, 0), rois, input<float>(c, 1), classes, input<int32_t>(c, 2),
                           input<float>(c, 3), output<float>(c));
  return {};
}

// ---- BOX_WITH_NMS_LIMIT ------------------------------------------------------------------------------

NmsOptions nmsOptions(const ops::BoxWithNmsLimitParams& p) {
  NmsOptions o;
  o.scoreThreshold = p.scoreThreshold;
  o.maxDetections = p.maxDetections;
  o.decay = static_cast<NmsDecay>(static_cast<int32_t>(p.kernel));
  o.iouThreshold = p.iouThreshold;
  o.sigma = p.sigma;
  o.nmsScoreThreshold = p.nmsScoreThreshold;
  return o;
}

// Inputs: scores 0 [rois, classes], boxes 1 [rois, 4 * classes], batch split 2; outputs: scores
// [kept], boxes [kept, 4], classes [kept], batch indices [kept].
Result<void> boxWithNmsLimitFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::BoxWithNmsLimitParams>(c));
  const uint32_t rois = c.op.inputs[0].dims[0], classes = c.op.inputs[0].dims[1];
  const float* boxes = input<float>(c, 1);
  NNRT_RETURN_IF_ERROR(checkBoxOrder(c, 1, boxes, size_t{rois} * classes));
  const std::vector<Detection> kept =
      boxWithNmsLimit(input<float>(c, 0), boxes, input<int32_t>(c, 2), rois, classes, nmsOptions(*p));
  const auto n = static_cast<uint32_t>(kept.size());
  NNRT_ASSIGN_OR_RETURN(void* scores, (*c.placeOutput)(0, {n}));
  NNRT_ASSIGN_OR_RETURN(void* outBoxes, (*c.placeOutput)(1, {n, 4}));
  NNRT_ASSIGN_OR_RETURN(void* outClasses, (*c.placeOutput)(2, {n}));
  NNRT_ASSIGN_OR_RETURN(void* batches, (*c.placeOutput)(3, {n}));
  for (uint32_t i = 0; i < n; ++i) {
    const Detection& d = kept[i];
    static_cast<float*>(scores)[i] = d.score;
    const float* box = boxes + (size_t{d.box} * classes + d.cls) * 4;
    std::copy(box, box + 4, static_cast<float*>(outBoxes) + size_t{i} * 4);
    static_cast<int32_t*>(outClasses)[i] = static_cast<int32_t>(d.cls);
    static_cast<int32_t*>(batches)[i] = d.batch;
  }
  return {};
}

// ---- GENERATE_PROPOSALS ------------------------------------------------------------------------------

// Inputs: scores 0, deltas 1 (NHWC [N, H, W, A] and [N, H, W, 4A], or NCHW), anchors 2 [A, 4], image
// info 3 [N, 2]; outputs: scores [kept], boxes [kept, 4], batch indices [kept].
Result<void> generateProposalsFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::GenerateProposalsParams>(c));
  Shape scoresShape, deltasShape;
  const float* scores = nhwcInput(c, 0, p->nchw, scoresShape);
  const float* deltas = nhwcInput(c, 1, p->nchw, deltasShape);
  NNRT_RETURN_IF_ERROR(checkBoxOrder(c, 2, input<float>(c, 2), c.op.inputs[2].dims[0]));
  ProposalOptions o;
  o.heightStride = p->heightStride;
  o.widthStride = p->widthStride;
  o.preNmsMax = p->preNmsMax;
  o.postNmsMax = p->postNmsMax;
  o.iouThreshold = p->iouThreshold;
  o.minSize = p->minSize;
  const std::vector<Proposal> kept = generateProposals(scores, deltas, scoresShape, input<float>(c, 2),
                                                       input<float>(c, 3), o);
  const auto n = static_cast<uint32_t>(kept.size());
  NNRT_ASSIGN_OR_RETURN(void* outScores, (*c.placeOutput)(0, {n}));
  NNRT_ASSIGN_OR_RETURN(void* outBoxes, (*c.placeOutput)(1, {n, 4}));
  NNRT_ASSIGN_OR_RETURN(void* batches, (*c.placeOutput)(2, {n}));
  for (uint32_t i = 0; i < n; ++i) {
    static_cast<float*>(outScores)[i] = kept[i].score;
    std::copy(kept[i].box, kept[i].box + 4, static_cast<float*>(outBoxes) + size_t{i} * 4);
    static_cast<int32_t*>(batches)[i] = kept[i].batch;
  }
  return {};
}

// ---- DETECTION_POSTPROCESSING --------------------------------------------------------------------------

// Inputs: scores 0 [N, A, C], deltas 1 [N, A, >= 4], anchors 2 [A, 4]; outputs: scores, boxes,
// classes, detection count.
Result<void> detectionPostprocessingFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::DetectionPostprocessingParams>(c));
  DetectionOptions o;
  o.scaleY = p->scaleY;
  o.scaleX = p->scaleX;
  o.scaleH = p->scaleH;
  o.scaleW = p->scaleW;
  o.regularNms = p->regularNms;
  o.maxDetections = p->maxDetections;
  o.maxClassesPerDetection = p->maxClassesPerDetection;
  o.maxDetectionsPerClass = p->maxDetectionsPerClass;
  o.scoreThreshold = p->scoreThreshold;
  o.iouThreshold = p->iouThreshold;
  o.backgroundInLabel = p->backgroundInLabel;
  detectionPostprocessing(input<float>(c, 0), input<float>(c, 1), shapeOf(c.op.inputs[0]), c.op.inputs[1].dims[2],
                          input<float>(c, 2), o, output<float>(c, 0), output<float>(c, 1), output<int32_t>(c, 2),
                          output<int32_t>(c, 3));
  return {};
}

// ---- ROI_ALIGN, ROI_POOLING ----------------------------------------------------------------------------

using RoiFn = void (*)(const float*, const Shape&, const float*, uint32_t, const int32_t*, const RoiOptions&,
                       float*);

// Inputs: image 0, rois 1 [R, 4], batch split 2 [R]; the boxes must lie inside the image (scaled
// down by the ratios).
template <RoiFn Fn>
Result<void> roiFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::RoiParams>(c));
  const Arg& image = c.op.inputs[0];
  const uint32_t rois = c.op.inputs[1].dims[0];
  const uint32_t height = image.dims[p->nchw ? 2 : 1], width = image.dims[p->nchw ? 3 : 2];
  NNRT_RETURN_IF_ERROR(checkBatchIndices(c, 2, image.dims[0]));
  const float* boxes = input<float>(c, 1);
  NNRT_RETURN_IF_ERROR(checkBoxOrder(c, 1, boxes, rois));
  for (uint32_t r = 0; r < rois; ++r) {
    const float* b = boxes + size_t{r} * 4;
    if (b[0] < 0 || b[1] < 0 || b[2] / p->widthRatio > width || b[3] / p->heightRatio > height) {
      return driver::invalidArgument(inputName(c, 1) + " box " + std::to_string(r) + " reaches outside the " +
                                     std::to_string(height) + "x" + std::to_string(width) + " feature map");
    }
  }
  RoiOptions o;
  o.outputHeight = p->outputHeight;
  o.outputWidth = p->outputWidth;
  o.heightRatio = p->heightRatio;
  o.widthRatio = p->widthRatio;
  o.heightSamplingRatio = p->heightSamplingRatio;
  o.widthSamplingRatio = p->widthSamplingRatio;
  runNhwc(c, p->nchw, sizeof(float), [&](const void* in, const Shape& inShape, void* out, const Shape&) {
    Fn(static_cast<const float*>(in), inShape, boxes, rois, input<int32_t>(c, 2), o, static_cast<float*>(out));
  });
  return {};
}

// ---- HEATMAP_MAX_KEYPOINT ------------------------------------------------------------------------------

// Inputs: heatmaps 0 ([N, S, S, K] or NCHW), boxes 1 [N, 4], layout 2. Android skips the quadratic
// refinement of float16 heatmaps under a looser determinant tolerance (1e-3 instead of 1e-5).
template <bool Float16>
Result<void> heatmapFloat(const KernelCall& c) {
  Shape shape;
  const float* heatmaps = nhwcInput(c, 0, flagAt(c, 2), shape);
  if (shape.dims[1] != shape.dims[2] || shape.dims[1] < 2) {
    return driver::invalidArgument(inputName(c, 0) + " (heatmap) must be square and at least 2x2, not " +
                                   std::to_string(shape.dims[1]) + "x" + std::to_string(shape.dims[2]));
  }
  NNRT_RETURN_IF_ERROR(checkBoxOrder(c, 1, input<float>(c, 1), shape.dims[0]));
  const float tolerance = Float16 ? 1e-3f : 1e-5f;
  heatmapMaxKeypoint(heatmaps, shape, input<float>(c, 1), tolerance, tolerance, output<float>(c, 0),
                     output<float>(c, 1));
  return {};
}

using namespace table_names;

const KernelEntry kDetectionKernels[] = {
    {T::AXIS_ALIGNED_BBOX_TRANSFORM, F32, noParams, bboxTransformFloat, nullptr, false, true},
    {T::AXIS_ALIGNED_BBOX_TRANSFORM, F16, noParams, viaFloat32<bboxTransformFloat>, nullptr, false, true},
    {T::AXIS_ALIGNED_BBOX_TRANSFORM, Q16A, noParams, viaDequantized<bboxTransformFloat>, nullptr, false, true},
    {T::BOX_WITH_NMS_LIMIT, F32, decodeWith<ops::decodeBoxWithNmsLimit>, boxWithNmsLimitFloat, nullptr, false, true,
     true},
    {T::BOX_WITH_NMS_LIMIT, F16, decodeWith<ops::decodeBoxWithNmsLimit>, viaFloat32<boxWithNmsLimitFloat>, nullptr,
     false, true, true},
    {T::BOX_WITH_NMS_LIMIT, Q8, decodeWith<ops::decodeBoxWithNmsLimit>, viaDequantized<boxWithNmsLimitFloat>,
     nullptr, false, true, true},
    {T::BOX_WITH_NMS_LIMIT, Q8S, decodeWith<ops::decodeBoxWithNmsLimit>, viaDequantized<boxWithNmsLimitFloat>,
     nullptr, false, true, true},
    {T::GENERATE_PROPOSALS, F32, decodeWith<ops::decodeGenerateProposals>, generateProposalsFloat, nullptr, false,
     false, true},
    {T::GENERATE_PROPOSALS, F16, decodeWith<ops::decodeGenerateProposals>, viaFloat32<generateProposalsFloat>,
     nullptr, false, false, true},
    {T::GENERATE_PROPOSALS, Q8, decodeWith<ops::decodeGenerateProposals>, viaDequantized<generateProposalsFloat>,
     nullptr, false, false, true},
    {T::GENERATE_PROPOSALS, Q8S, decodeWith<ops::decodeGenerateProposals>, viaDequantized<generateProposalsFloat>,
     nullptr, false, false, true},
    {T::DETECTION_POSTPROCESSING, F32, decodeWith<ops::decodeDetectionPostprocessing>, detectionPostprocessingFloat},
    {T::DETECTION_POSTPROCESSING, F16, decodeWith<ops::decodeDetectionPostprocessing>,
     viaFloat32<detectionPostprocessingFloat>},
    {T::ROI_ALIGN, F32, decodeWith<ops::decodeRoi>, roiFloat<roiAlign>, nullptr, false, true},
    {T::ROI_ALIGN, F16, decodeWith<ops::decodeRoi>, viaFloat32<roiFloat<roiAlign>>, nullptr, false, true},
    {T::ROI_ALIGN, Q8, decodeWith<ops::decodeRoi>, viaDequantized<roiFloat<roiAlign>>, nullptr, false, true},
    {T::ROI_ALIGN, Q8S, decodeWith<ops::decodeRoi>, viaDequantized<roiFloat<roiAlign>>, nullptr, false, true},
    {T::ROI_POOLING, F32, decodeWith<ops::decodeRoi>, roiFloat<roiPooling>, nullptr, false, true},
    {T::ROI_POOLING, F16, decodeWith<ops::decodeRoi>, viaFloat32<roiFloat<roiPooling>>, nullptr, false, true},
    {T::ROI_POOLING, Q8, decodeWith<ops::decodeRoi>, viaDequantized<roiFloat<roiPooling>>, nullptr, false, true},
    {T::ROI_POOLING, Q8S, decodeWith<ops::decodeRoi>, viaDequantized<roiFloat<roiPooling>>, nullptr, false, true},
    {T::HEATMAP_MAX_KEYPOINT, F32, noParams, heatmapFloat<false>, nullptr, false, true},
    {T::HEATMAP_MAX_KEYPOINT, F16, noParams, viaFloat32<heatmapFloat<true>>, nullptr, false, true},
    {T::HEATMAP_MAX_KEYPOINT, Q8, noParams, viaDequantized<heatmapFloat<false>>, nullptr, false, true},
    {T::HEATMAP_MAX_KEYPOINT, Q8S, noParams, viaDequantized<heatmapFloat<false>>, nullptr, false, true},
};

}  // namespace

std::span<const KernelEntry> detectionKernels() {
  return kDetectionKernels;
}

}  // namespace nnrt::cpu
