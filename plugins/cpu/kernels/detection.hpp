// Detection and region-of-interest kernels: AXIS_ALIGNED_BBOX_TRANSFORM, BOX_WITH_NMS_LIMIT,
// GENERATE_PROPOSALS, DETECTION_POSTPROCESSING, ROI_ALIGN, ROI_POOLING and HEATMAP_MAX_KEYPOINT in
// float32 over NHWC tensors (the driver transposes NCHW operands, widens float16 and dequantizes
// quantized data, as Android's reference does for these operations).
//
// Boxes are [x1, y1, x2, y2] in image coordinates unless said otherwise (DETECTION_POSTPROCESSING
// works in [y1, x1, y2, x2]). The intersection over union of two boxes is 0 when their union has no
// area. Wherever boxes are chosen by score, equal scores keep their input order: the lower class,
// then the lower box (or anchor) index, comes first. The driver checks the data the kernels index
// with (batch indices, box corners) before calling them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

// AXIS_ALIGNED_BBOX_TRANSFORM: box r of batch batchIndex[r] moved by deltas[r, 4c .. 4c+3] = (dx, dy,
// dw, dh) for each class c: centre + (dx, dy) * size, size * exp(dw, dh), clipped to
// [0, width] x [0, height] of imageInfo[batch] = (height, width). out [numRois, 4 * numClasses].
void axisAlignedBboxTransform(const float* rois, uint32_t numRois, const float* deltas, uint32_t numClasses,
                              const int32_t* batchIndex, const float* imageInfo, float* out);

// BOX_WITH_NMS_LIMIT's score decay of a box overlapping a kept one by `iou`: hard (0 when iou >= the
// threshold), linear (1 - iou when iou >= the threshold) or gaussian (exp(-iou^2 / sigma)).
enum class NmsDecay { Hard, Linear, Gaussian };
struct NmsOptions {
  float scoreThreshold = 0.0f;  // boxes scoring above it take part
  int32_t maxDetections = -1;   // per class and per batch; negative: no limit
  NmsDecay decay = NmsDecay::Hard;
  float iouThreshold = 0.0f, sigma = 1.0f;
  float nmsScoreThreshold = 0.0f;  // decayed scores below it drop out
};
struct Detection {
  uint32_t box = 0;   // the input box (row of scores)
  uint32_t cls = 0;   // its class (>= 1; class 0 is the background)
  float score = 0.0f;  // after decay
  int32_t batch = 0;
};
// BOX_WITH_NMS_LIMIT: scores [numRois, numClasses], boxes [numRois, 4 * numClasses] (a box per
// class), batchIndex [numRois] with the boxes of a batch next to each other. Per batch, per class
// >= 1, greedy soft NMS keeps at most maxDetections boxes; then the batch keeps its maxDetections
// best, ordered by class, then by score (highest first).
std::vector<Detection> boxWithNmsLimit(const float* scores, const float* boxes, const int32_t* batchIndex,
                                       uint32_t numRois, uint32_t numClasses, const NmsOptions& options);

struct ProposalOptions {
  float heightStride = 1.0f, widthStride = 1.0f;
  int32_t preNmsMax = 0, postNmsMax = 0;  // non-positive: no limit
  float iouThreshold = 0.0f, minSize = 0.0f;
};
struct Proposal {
  float score = 0.0f;
  float box[4] = {};
  int32_t batch = 0;
};
// GENERATE_PROPOSALS on NHWC scores [N, H, W, A] and deltas [N, H, W, 4A], anchors [A, 4],
// imageInfo [N, 2] = (height, width): anchor a shifted to (w * widthStride, h * heightStride), moved
// by its deltas as AXIS_ALIGNED_BBOX_TRANSFORM does; the preNmsMax best, then those wider and taller
// than minSize with their centre inside the image, then hard NMS keeping at most postNmsMax. Batch
// by batch, each in the order NMS kept them.
std::vector<Proposal> generateProposals(const float* scores, const float* deltas, const Shape& scoresShape,
                                        const float* anchors, const float* imageInfo,
                                        const ProposalOptions& options);

struct DetectionOptions {
  float scaleY = 1.0f, scaleX = 1.0f, scaleH = 1.0f, scaleW = 1.0f;
  bool regularNms = false;
  uint32_t maxDetections = 1, maxClassesPerDetection = 1, maxDetectionsPerClass = 1;
  float scoreThreshold = 0.0f, iouThreshold = 0.0f;
  bool backgroundInLabel = false;
};
// DETECTION_POSTPROCESSING: scores [N, A, C], deltas [N, A, boxLength >= 4] = (dy, dx, dh, dw, ...),
// anchors [A, 4] = (y centre, x centre, height, width). Outputs, zero beyond the detections made:
// scores [N, D], boxes [N, D, 4] as [y1, x1, y2, x2], classes [N, D] (class - 1 unless the background
// is in the labels), count [N]; D = maxDetections (regular NMS) or maxDetections *
// maxClassesPerDetection.
void detectionPostprocessing(const float* scores, const float* deltas, const Shape& scoresShape, uint32_t boxLength,
                             const float* anchors, const DetectionOptions& options, float* outScores,
                             float* outBoxes, int32_t* outClasses, int32_t* outCount);

struct RoiOptions {
  uint32_t outputHeight = 1, outputWidth = 1;
  float heightRatio = 1.0f, widthRatio = 1.0f;           // image pixels per feature-map pixel
  uint32_t heightSamplingRatio = 0, widthSamplingRatio = 0;  // ROI_ALIGN; 0: ceil(bin size)
};
// ROI_ALIGN: input [N, H, W, C], rois [numRois, 4] inside the image, out [numRois, OH, OW, C]: each
// bin the average of its sampling points, bilinearly interpolated (clamped at the last row/column).
void roiAlign(const float* input, const Shape& inShape, const float* rois, uint32_t numRois,
              const int32_t* batchIndex, const RoiOptions& options, float* out);
// ROI_POOLING: like ROI_ALIGN, each bin the maximum of the input pixels it covers (0 for none), on
// box corners rounded to feature-map pixels.
void roiPooling(const float* input, const Shape& inShape, const float* rois, uint32_t numRois,
                const int32_t* batchIndex, const RoiOptions& options, float* out);

// HEATMAP_MAX_KEYPOINT: heatmaps [numBoxes, S, S, K], boxes [numBoxes, 4]; per box and keypoint the
// maximum, refined by a quadratic fit over its 3x3 neighbourhood (mirrored at the borders; skipped when
// the fit's determinant is within atol + rtol * its diagonal product of 0), placed inside the box.
// outScores [numBoxes, K], outKeypoints [numBoxes, K, 2] = (x, y).
void heatmapMaxKeypoint(const float* heatmaps, const Shape& shape, const float* boxes, float atol, float rtol,
                        float* outScores, float* outKeypoints);

}  // namespace nnrt::cpu
