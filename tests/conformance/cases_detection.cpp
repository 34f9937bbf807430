// AXIS_ALIGNED_BBOX_TRANSFORM, BOX_WITH_NMS_LIMIT, GENERATE_PROPOSALS, DETECTION_POSTPROCESSING,
// ROI_ALIGN, ROI_POOLING and HEATMAP_MAX_KEYPOINT: every operand type the SDK accepts for them
// (float32, float16, quant8 and signed quant8 data with TENSOR_QUANT16 boxes), NHWC and NCHW, odd
// sizes, boxes partly outside the image, equal scores, all three NMS kernels and no box kept.
// Expected values come from the double-precision references of support/reference_detection.hpp;
// quantized cases dequantize their stored inputs, compute in double and quantize the result.
#include <cmath>

#include "conformance/operation_case.hpp"
#include "support/reference_detection.hpp"
#include "support/reference_ops.hpp"

namespace nnrt::test::conformance {
namespace {

constexpr auto Q16A = OperandType::TENSOR_QUANT16_ASYMM;
constexpr auto Q16S = OperandType::TENSOR_QUANT16_SYMM;

// An operand type with its quantization (none for float types).
struct Data {
  OperandType type = F32;
  float scale = 0.0f;
  int32_t zero = 0;
};

bool quantized(OperandType t) {
  return isQuant8(t) || t == Q16A || t == Q16S;
}

// Reals as `d` stores them: rounded to the float type, or quantized and saturated.
std::vector<double> store(const Data& d, const std::vector<double>& reals) {
  if (!quantized(d.type)) return roundTrip(d.type, reals);
  double lo = quant8Lowest(d.type), hi = quant8Highest(d.type);
  if (d.type == Q16A) lo = 0, hi = 65535;
  if (d.type == Q16S) lo = -32768, hi = 32767;
  return ref::quantize(reals, d.scale, d.zero, lo, hi);
}

// The reals that stored values of `d` stand for.
std::vector<double> realsOf(const Data& d, const std::vector<double>& stored) {
  return quantized(d.type) ? ref::dequantize(stored, d.scale, d.zero) : stored;
}

// The box type that goes with a data type, and the one quantization NNAPI allows it.
Data boxesFor(OperandType data) {
  return isQuant8(data) ? Data{Q16A, 0.125f, 0} : Data{data};
}

// A model input of `d` holding `reals` (as stored); returns the reals the operation sees.
std::vector<double> addInput(CaseBuilder& c, const Data& d, std::vector<uint32_t> dims,
                             const std::vector<double>& reals, uint32_t& operand) {
  const std::vector<double> stored = store(d, reals);
  operand = c.input(d.type, std::move(dims), stored, d.scale, d.zero);
  return realsOf(d, stored);
}

// A float scalar of the type that goes with `data` (FLOAT16 for float16 data).
uint32_t floatScalar(CaseBuilder& c, OperandType data, float value) {
  return data == F16 ? c.float16(value) : c.float32(value);
}

// Quantized data: 8-bit data spread over [-2, 2] (unsigned) or [-1.6, 2.4] (signed).
Data dataFor(OperandType t) {
  if (t == Q8) return {Q8, 1.0f / 64, 128};
  if (t == Q8S) return {Q8S, 1.0f / 64, -26};
  return {t};
}

std::vector<int> asInts(const std::vector<double>& v) {
  return std::vector<int>(v.begin(), v.end());
}

// ---- AXIS_ALIGNED_BBOX_TRANSFORM ---------------------------------------------------------------------

OperationCase bboxTransformCase(const std::string& name, OperandType type, OperandType deltaType) {
  CaseBuilder c(name, OperationType::AXIS_ALIGNED_BBOX_TRANSFORM);
  const Data boxes = type == Q16A ? Data{Q16A, 0.125f, 0} : Data{type};
  const Data deltas = type == Q16A ? Data{deltaType, 1.0f / 100, deltaType == Q8 ? 128 : 0} : Data{type};
  // Three boxes of two batches, two classes; the large deltas push boxes across the image borders.
  const std::vector<double> roisIn{100, 150, 400, 430, 120, 60, 122.5, 61, 10, 20, 40, 60};
  const std::vector<double> deltaIn{0.2, 0.2, 0.1, 0.1, -1.2, 0.3, 1.0, -0.5, 0.5, 0.5, 0.9, 0.2,
                                    0.0, -0.3, -1.0, 1.1, -0.6, -0.9, 0.8, 0.7, 1.2, 1.25, 0.3, -0.1};
  const std::vector<double> imageInfo{512, 480, 128, 256};
  uint32_t r, d, b, info;
  const auto rois = addInput(c, boxes, {3, 4}, roisIn, r);
  const auto delta = addInput(c, deltas, {3, 8}, deltaIn, d);
  const std::vector<double> batches{0, 1, 1};
  b = c.input(I32, {3}, batches);
  const auto infoReal = addInput(c, boxes, {2, 2}, imageInfo, info);
  const auto out = ref::bboxTransform(rois, delta, asInts(batches), infoReal);
  c.output(boxes.type, {3, 8}, store(boxes, out), boxes.scale, boxes.zero);
  if (type == F16) c.tolerance(0.5, 1e-2);  // coordinates up to 512 in half precision
  return c.build({r, d, b, info});
}

// ---- BOX_WITH_NMS_LIMIT --------------------------------------------------------------------------------

struct NmsSpec {
  std::string name;
  OperandType type = F32;
  float scoreThreshold = 0.3f;
  int32_t maxDetections = -1;
  int32_t kernel = 0;
  float iouThreshold = 0.4f, sigma = 0.5f, nmsScoreThreshold = 0.1f;
  std::vector<double> batches{0, 0, 0, 0, 0, 0};
  std::vector<double> scores{};  // empty: a seeded random set
  uint32_t seed = 1;
};

// Six boxes per class (three classes): pairs that overlap a lot (IoU 2/3), a little (1/3) or not at
// all, nudged per class; scores in [0, 1).
OperationCase nmsCase(const NmsSpec& s) {
  CaseBuilder c(s.name, OperationType::BOX_WITH_NMS_LIMIT);
  constexpr uint32_t kRois = 6, kClasses = 3;
  const double x[kRois] = {0, 2, 5, 20, 21.5, 40};
  std::vector<double> boxesIn;
  for (uint32_t i = 0; i < kRois; ++i)
    for (uint32_t k = 0; k < kClasses; ++k) {
      const double y = 4.0 * k + (i == 5 ? 30 : 0);
      boxesIn.insert(boxesIn.end(), {x[i], y, x[i] + 10, y + 10});
    }
  std::vector<double> scoresIn = s.scores.empty() ? randomReals(kRois * kClasses, 0.0, 1.0, s.seed) : s.scores;
  const Data data = s.type == Q8 ? Data{Q8, 1.0f / 256, 0} : s.type == Q8S ? Data{Q8S, 1.0f / 256, -128} : Data{s.type};
  const Data boxes = boxesFor(s.type);
  uint32_t sc, bx;
  const auto scores = addInput(c, data, {kRois, kClasses}, scoresIn, sc);
  const auto boxReal = addInput(c, boxes, {kRois, kClasses * 4}, boxesIn, bx);
  const uint32_t batch = c.input(I32, {kRois}, s.batches);
  const uint32_t threshold = floatScalar(c, s.type, s.scoreThreshold);
  const uint32_t most = c.int32(s.maxDetections), kernel = c.int32(s.kernel);
  const uint32_t iou = floatScalar(c, s.type, s.iouThreshold), sigma = floatScalar(c, s.type, s.sigma);
  const uint32_t nmsThreshold = floatScalar(c, s.type, s.nmsScoreThreshold);
  const auto f = [&](float v) { return s.type == F16 ? roundTrip(F16, {v})[0] : static_cast<double>(static_cast<float>(v)); };
  const ref::NmsResult r = ref::boxWithNmsLimit(scores, boxReal, asInts(s.batches), kClasses, f(s.scoreThreshold),
                                                s.maxDetections, s.kernel, f(s.iouThreshold), f(s.sigma),
                                                f(s.nmsScoreThreshold));
  const auto kept = static_cast<uint32_t>(r.batches.size());
  c.dataShapedOutput(data.type, {0}, {kept}, store(data, r.scores), data.scale, data.zero);
  c.dataShapedOutput(boxes.type, {0, 4}, {kept, 4}, store(boxes, r.boxes), boxes.scale, boxes.zero);
  c.dataShapedOutput(I32, {0}, {kept}, r.classes);
  c.dataShapedOutput(I32, {0}, {kept}, r.batches);
  return c.build({sc, bx, batch, threshold, most, kernel, iou, sigma, nmsThreshold});
}

// ---- GENERATE_PROPOSALS --------------------------------------------------------------------------------

OperationCase proposalsCase(const std::string& name, OperandType type, bool nchw) {
  CaseBuilder c(name, OperationType::GENERATE_PROPOSALS);
  const std::vector<uint32_t> nhwc{2, 2, 3, 2};  // batches, height, width, anchors
  const uint32_t n = nhwc[0], h = nhwc[1], w = nhwc[2], a = nhwc[3];
  const Data scoreData = type == Q8 ? Data{Q8, 1.0f / 256, 0} : type == Q8S ? Data{Q8S, 1.0f / 256, -128} : Data{type};
  const Data deltaData = dataFor(type);
  const Data anchorData = isQuant8(type) ? Data{Q16S, 0.125f, 0} : Data{type};
  const Data boxes = boxesFor(type);
  const auto scoreReal = realsOf(scoreData, store(scoreData, randomReals(ref::count(nhwc), 0.0, 1.0, 11)));
  const std::vector<uint32_t> deltaDims{n, h, w, a * 4};
  const auto deltaReal = realsOf(deltaData, store(deltaData, randomReals(ref::count(deltaDims), -0.5, 0.5, 12)));
  const ref::Tensor scoreT{nhwc, scoreReal}, deltaT{deltaDims, deltaReal};
  const ref::Tensor scoreIn = nchw ? ref::nhwcToNchw(scoreT) : scoreT, deltaIn = nchw ? ref::nhwcToNchw(deltaT) : deltaT;
  const uint32_t sc = c.input(scoreData.type, scoreIn.dims, store(scoreData, scoreIn.values), scoreData.scale, scoreData.zero);
  const uint32_t dl = c.input(deltaData.type, deltaIn.dims, store(deltaData, deltaIn.values), deltaData.scale, deltaData.zero);
  uint32_t an, info;
  const auto anchors = addInput(c, anchorData, {a, 4}, {0, 0, 10, 10, 2, 1, 7.5, 9}, an);
  const auto imageInfo = addInput(c, boxes, {n, 2}, {16, 20, 11, 13.5}, info);
  const uint32_t strideH = floatScalar(c, type, 4.0f), strideW = floatScalar(c, type, 5.0f);
  const uint32_t pre = c.int32(8), post = c.int32(5);
  const uint32_t iou = floatScalar(c, type, 0.5f), minSize = floatScalar(c, type, 1.0f);
  const uint32_t layout = c.boolean(nchw);
  const ref::NmsResult r =
      ref::generateProposals(scoreReal, deltaReal, nhwc, anchors, imageInfo, 4.0, 5.0, 8, 5, 0.5, 1.0);
  const auto kept = static_cast<uint32_t>(r.batches.size());
  c.dataShapedOutput(scoreData.type, {0}, {kept}, store(scoreData, r.scores), scoreData.scale, scoreData.zero);
  c.dataShapedOutput(boxes.type, {0, 4}, {kept, 4}, store(boxes, r.boxes), boxes.scale, boxes.zero);
  if (type == F16) c.tolerance(0.1, 1e-2);
  c.dataShapedOutput(I32, {0}, {kept}, r.batches);
  return c.build({sc, dl, an, info, strideH, strideW, pre, post, iou, minSize, layout});
}

// ---- DETECTION_POSTPROCESSING --------------------------------------------------------------------------

OperationCase detectionCase(const std::string& name, OperandType type, bool regular, bool background) {
  CaseBuilder c(name, OperationType::DETECTION_POSTPROCESSING);
  constexpr uint32_t kBatches = 2, kAnchors = 6, kClasses = 3, kLength = 5;
  const uint32_t maxDetections = 3, maxClasses = 2, maxPerClass = 2;
  // Anchors (y centre, x centre, height, width): pairs overlapping a lot, a little, not at all.
  const std::vector<double> anchorsIn{5, 5, 10, 10, 5, 6.5, 10, 10, 5, 25, 10, 10,
                                      25, 5, 10, 10, 26, 5, 8, 12, 40, 40, 6, 6};
  uint32_t sc, dl, an;
  const auto scores = addInput(c, {type}, {kBatches, kAnchors, kClasses},
                               randomReals(kBatches * kAnchors * kClasses, 0.0, 1.0, 21), sc);
  const auto deltas = addInput(c, {type}, {kBatches, kAnchors, kLength},
                               randomReals(kBatches * kAnchors * kLength, -0.5, 0.5, 22), dl);
  const auto anchors = addInput(c, {type}, {kAnchors, 4}, anchorsIn, an);
  const double scale[4] = {10, 10, 5, 5};
  std::vector<uint32_t> operands{sc, dl, an};
  for (double v : scale) operands.push_back(floatScalar(c, type, static_cast<float>(v)));
  operands.push_back(c.boolean(regular));
  operands.push_back(c.int32(maxDetections));
  operands.push_back(c.int32(maxClasses));
  operands.push_back(c.int32(maxPerClass));
  operands.push_back(floatScalar(c, type, 0.25f));
  operands.push_back(floatScalar(c, type, 0.5f));
  operands.push_back(c.boolean(background));
  const ref::DetectionResult r =
      ref::detectionPostprocessing(scores, deltas, kBatches, kAnchors, kClasses, kLength, anchors, scale, regular,
                                   maxDetections, maxClasses, maxPerClass, 0.25, 0.5, background);
  const uint32_t d = regular ? maxDetections : maxDetections * maxClasses;
  c.output(type, {kBatches, d}, roundTrip(type, r.scores));
  c.output(type, {kBatches, d, 4}, roundTrip(type, r.boxes));
  if (type == F16) c.tolerance(0.05, 1e-2);
  c.output(I32, {kBatches, d}, r.classes);
  c.output(I32, {kBatches}, r.counts);
  return c.build(operands);
}

// ---- ROI_ALIGN, ROI_POOLING ------------------------------------------------------------------------------

struct RoiSpec {
  std::string name;
  bool align = true;
  OperandType type = F32;
  bool nchw = false;
  uint32_t samplingH = 2, samplingW = 2;
  float ratioH = 2.0f, ratioW = 2.0f;
};

// Input [2, 5, 6, 3]; four boxes of both batches: the whole image, an inner box, a box under one
// feature-map pixel and one on the bottom-right corner. Output 2x3.
OperationCase roiCase(const RoiSpec& s) {
  CaseBuilder c(s.name, s.align ? OperationType::ROI_ALIGN : OperationType::ROI_POOLING);
  const std::vector<uint32_t> nhwc{2, 5, 6, 3};
  const uint32_t oh = 2, ow = 3;
  const Data data = dataFor(s.type);
  const Data boxes = boxesFor(s.type);
  const auto inReal = realsOf(data, store(data, randomReals(ref::count(nhwc), -2.0, 2.0, 31)));
  const ref::Tensor inT{nhwc, inReal};
  const ref::Tensor in = s.nchw ? ref::nhwcToNchw(inT) : inT;
  const uint32_t input = c.input(data.type, in.dims, store(data, in.values), data.scale, data.zero);
  const double W = nhwc[2] * s.ratioW, H = nhwc[1] * s.ratioH;
  const std::vector<double> roisIn{0, 0, W, H, 1, 2, 7, 7, 3.5, 1, 4.125, 1.5, W - 1, H - 1, W, H};
  uint32_t r;
  const auto rois = addInput(c, boxes, {4, 4}, roisIn, r);
  const std::vector<double> batches{0, 1, 1, 0};
  const uint32_t b = c.input(I32, {4}, batches);
  std::vector<uint32_t> operands{input, r, b, c.int32(oh), c.int32(ow), floatScalar(c, s.type, s.ratioH),
                                 floatScalar(c, s.type, s.ratioW)};
  if (s.align) {
    operands.push_back(c.int32(static_cast<int32_t>(s.samplingH)));
    operands.push_back(c.int32(static_cast<int32_t>(s.samplingW)));
  }
  operands.push_back(c.boolean(s.nchw));
  const std::vector<double> out =
      s.align ? ref::roiAlign(inReal, nhwc, rois, asInts(batches), oh, ow, s.ratioH, s.ratioW, s.samplingH, s.samplingW)
              : ref::roiPooling(inReal, nhwc, rois, asInts(batches), oh, ow, s.ratioH, s.ratioW);
  const ref::Tensor outT{{4, oh, ow, nhwc[3]}, out};
  const ref::Tensor o = s.nchw ? ref::nhwcToNchw(outT) : outT;
  c.output(data.type, o.dims, store(data, o.values), data.scale, data.zero);
  return c.build(operands);
}

// ---- HEATMAP_MAX_KEYPOINT --------------------------------------------------------------------------------

// Heatmaps [3, 4, 4, 3] (box 2's maxima pushed to the corners, where the neighbourhood mirrors) and
// their boxes.
OperationCase heatmapCase(const std::string& name, OperandType type, bool nchw) {
  CaseBuilder c(name, OperationType::HEATMAP_MAX_KEYPOINT);
  const std::vector<uint32_t> nhwc{3, 4, 4, 3};
  const Data data = dataFor(type);
  const Data boxes = boxesFor(type);
  std::vector<double> maps = randomReals(ref::count(nhwc), -1.0, 1.0, 41);
  for (uint32_t k = 0; k < 3; ++k) maps[((2 * 4 + (k == 1 ? 3 : 0)) * 4 + (k == 2 ? 3 : 0)) * 3 + k] = 1.9;
  const auto mapReal = realsOf(data, store(data, maps));
  const ref::Tensor mapT{nhwc, mapReal};
  const ref::Tensor in = nchw ? ref::nhwcToNchw(mapT) : mapT;
  const uint32_t heatmap = c.input(data.type, in.dims, store(data, in.values), data.scale, data.zero);
  uint32_t bx;
  const auto boxReal = addInput(c, boxes, {3, 4}, {5, 10, 45, 50, 0, 0, 16.5, 8, 100, 60, 180, 99}, bx);
  std::vector<double> scores, keypoints;
  ref::heatmapMaxKeypoint(mapReal, nhwc, boxReal, type == F16 ? 1e-3 : 1e-5, scores, keypoints);
  c.output(data.type, {3, 3}, store(data, scores), data.scale, data.zero);
  c.output(boxes.type, {3, 3, 2}, store(boxes, keypoints), boxes.scale, boxes.zero);
  if (type == F16) c.tolerance(0.5, 1e-2);
  return c.build({heatmap, bx, c.boolean(nchw)});
}

}  // namespace

std::vector<OperationCase> detectionCases() {
  std::vector<OperationCase> cases;
  cases.push_back(bboxTransformCase("axis_aligned_bbox_transform_float", F32, F32));
  cases.push_back(bboxTransformCase("axis_aligned_bbox_transform_float16", F16, F16));
  cases.push_back(bboxTransformCase("axis_aligned_bbox_transform_quant8", Q16A, Q8));
  cases.push_back(bboxTransformCase("axis_aligned_bbox_transform_quant8_signed", Q16A, Q8S));

  for (OperandType t : {F32, F16, Q8, Q8S}) {
    const std::string suffix = typeSuffix(t);
    cases.push_back(nmsCase({.name = "box_with_nms_limit_hard_" + suffix, .type = t}));
    cases.push_back(nmsCase({.name = "box_with_nms_limit_linear_" + suffix, .type = t, .kernel = 1, .seed = 2}));
    cases.push_back(nmsCase({.name = "box_with_nms_limit_gaussian_" + suffix, .type = t, .kernel = 2, .seed = 3}));
  }
  // Two batches, at most three boxes each; a hard kernel that keeps what it suppresses at score 0.
  cases.push_back(nmsCase({.name = "box_with_nms_limit_float_batches_max3",
                           .maxDetections = 3,
                           .nmsScoreThreshold = 0.0f,
                           .batches = {0, 0, 0, 1, 1, 1},
                           .seed = 4}));
  // Equal scores: box 0 and its heavy overlap box 1 tie in class 1 (box 0 wins), boxes 3 and 4 tie
  // across classes 1 and 2.
  cases.push_back(nmsCase({.name = "box_with_nms_limit_float_ties",
                           .scores = {0.1, 0.75, 0.2, 0.2, 0.75, 0.5, 0.5, 0.4, 0.35, 0.1, 0.6, 0.6,
                                      0.9, 0.6, 0.6, 0.0, 0.5, 0.31}}));
  cases.push_back(nmsCase({.name = "box_with_nms_limit_float_none_kept", .scoreThreshold = 1.0f, .seed = 5}));
  cases.push_back(nmsCase({.name = "box_with_nms_limit_quant8_none_kept", .type = Q8, .scoreThreshold = 0.999f}));

  for (OperandType t : {F32, F16, Q8, Q8S}) {
    cases.push_back(proposalsCase("generate_proposals_" + typeSuffix(t), t, false));
    cases.push_back(proposalsCase("generate_proposals_" + typeSuffix(t) + "_nchw", t, true));
  }

  cases.push_back(detectionCase("detection_postprocessing_float_regular", F32, true, false));
  cases.push_back(detectionCase("detection_postprocessing_float_fast", F32, false, false));
  cases.push_back(detectionCase("detection_postprocessing_float_fast_background", F32, false, true));
  cases.push_back(detectionCase("detection_postprocessing_float16_regular", F16, true, true));
  cases.push_back(detectionCase("detection_postprocessing_float16_fast", F16, false, false));

  for (bool align : {true, false}) {
    const std::string op = align ? "roi_align_" : "roi_pooling_";
    for (OperandType t : {F32, F16, Q8, Q8S}) {
      cases.push_back(roiCase({.name = op + typeSuffix(t), .align = align, .type = t}));
      cases.push_back(roiCase({.name = op + typeSuffix(t) + "_nchw", .align = align, .type = t, .nchw = true}));
    }
    cases.push_back(roiCase({.name = op + "float_ratios", .align = align, .ratioH = 1.5f, .ratioW = 2.5f}));
  }
  cases.push_back(roiCase({.name = "roi_align_float_adaptive_sampling", .samplingH = 0, .samplingW = 0}));
  cases.push_back(roiCase({.name = "roi_align_float_nchw_sampling_1x3", .nchw = true, .samplingH = 1, .samplingW = 3}));

  for (OperandType t : {F32, F16, Q8, Q8S}) {
    cases.push_back(heatmapCase("heatmap_max_keypoint_" + typeSuffix(t), t, false));
    cases.push_back(heatmapCase("heatmap_max_keypoint_" + typeSuffix(t) + "_nchw", t, true));
  }
  return cases;
}

}  // namespace nnrt::test::conformance
