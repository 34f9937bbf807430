#include "plugins/cpu/kernels/detection.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <numeric>

namespace nnrt::cpu {
namespace {

constexpr uint32_t kBox = 4;

// Intersection over union of two [x1, y1, x2, y2] (or [y1, x1, y2, x2]) boxes; 0 without a union.
float iou(const float* a, const float* b) {
  const float areaA = (a[2] - a[0]) * (a[3] - a[1]);
  const float areaB = (b[2] - b[0]) * (b[3] - b[1]);
  const float w = std::max(std::min(a[2], b[2]) - std::max(a[0], b[0]), 0.0f);
  const float h = std::max(std::min(a[3], b[3]) - std::max(a[1], b[1]), 0.0f);
  const float inter = w * h;
  const float uni = areaA + areaB - inter;
  return uni > 0.0f ? inter / uni : 0.0f;
}

// A box moved by (dx, dy, dw, dh) in centre/size form and clipped to [0, width] x [0, height].
void moveBox(const float* box, const float* delta, float height, float width, float* out) {
  const float w = box[2] - box[0], h = box[3] - box[1];
  const float cx = (box[0] + box[2]) / 2 + delta[0] * w;
  const float cy = (box[1] + box[3]) / 2 + delta[1] * h;
  const float halfW = std::exp(delta[2]) * w / 2, halfH = std::exp(delta[3]) * h / 2;
  out[0] = std::clamp(cx - halfW, 0.0f, width);
  out[1] = std::clamp(cy - halfH, 0.0f, height);
  out[2] = std::clamp(cx + halfW, 0.0f, width);
  out[3] = std::clamp(cy + halfH, 0.0f, height);
}

struct Candidate {
  uint32_t index = 0;  // what the caller numbers it by
  float score = 0.0f;
  const float* box = nullptr;
};

// How a kept box lowers the others: removal at iou >= threshold (hard NMS) or a score decay with
// removal below `dropBelow` (BOX_WITH_NMS_LIMIT's soft NMS, of which hard is one kernel).
struct Suppression {
  bool soft = false;
  NmsDecay decay = NmsDecay::Hard;
  float iouThreshold = 0.0f, sigma = 1.0f, dropBelow = 0.0f;
};

// Greedy NMS over `candidates`: the best remaining (the earliest among equals) is kept, the others
// are suppressed against it; at most maxKept (negative: all). The kept ones, in the order kept.
std::vector<Candidate> nms(std::vector<Candidate> remaining, const Suppression& s, int64_t maxKept) {
  std::vector<Candidate> kept;
  while (!remaining.empty() && (maxKept < 0 || static_cast<int64_t>(kept.size()) < maxKept)) {
    size_t best = 0;
    for (size_t i = 1; i < remaining.size(); ++i) {
      if (remaining[i].score > remaining[best].score) best = i;
    }
    const Candidate chosen = remaining[best];
    remaining.erase(remaining.begin() + static_cast<std::ptrdiff_t>(best));
    kept.push_back(chosen);
    std::vector<Candidate> next;
    next.reserve(remaining.size());
    for (Candidate c : remaining) {
      const float overlap = iou(c.box, chosen.box);
      if (!s.soft) {
        if (overlap < s.iouThreshold) next.push_back(c);
        continue;
      }
      float factor = 1.0f;
      switch (s.decay) {
        case NmsDecay::Hard: factor = overlap < s.iouThreshold ? 1.0f : 0.0f; break;
        case NmsDecay::Linear: factor = overlap < s.iouThreshold ? 1.0f : 1.0f - overlap; break;
        case NmsDecay::Gaussian: factor = std::exp(-overlap * overlap / s.sigma); break;
      }
      c.score *= factor;
      if (!(c.score < s.dropBelow)) next.push_back(c);
    }
    remaining = std::move(next);
  }
  return kept;
}

// Highest score first; equal scores keep their order.
void sortByScore(std::vector<Candidate>& v) {
  std::stable_sort(v.begin(), v.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
}

// Bilinear sample of channel-contiguous NHWC image `base` ([H, W, C]) at (y, x) >= 0 into acc[C].
void addBilinear(const float* base, uint32_t height, uint32_t width, uint32_t depth, float y, float x,
                 float* acc) {
  uint32_t x1 = static_cast<uint32_t>(std::floor(x)), y1 = static_cast<uint32_t>(std::floor(y));
  uint32_t x2 = x1 + 1, y2 = y1 + 1;
  float dx = x - static_cast<float>(x1), dy = y - static_cast<float>(y1);
  if (x1 >= width - 1) {
    x1 = x2 = width - 1;
    dx = 0.0f;
  }
  if (y1 >= height - 1) {
    y1 = y2 = height - 1;
    dy = 0.0f;
  }
  const float w11 = (1 - dx) * (1 - dy), w12 = dx * (1 - dy), w21 = (1 - dx) * dy, w22 = dx * dy;
  const float* p11 = base + (size_t{y1} * width + x1) * depth;
  const float* p12 = base + (size_t{y1} * width + x2) * depth;
  const float* p21 = base + (size_t{y2} * width + x1) * depth;
  const float* p22 = base + (size_t{y2} * width + x2) * depth;
  for (uint32_t k = 0; k < depth; ++k) acc[k] += w11 * p11[k] + w12 * p12[k] + w21 * p21[k] + w22 * p22[k];
}

}  // namespace

void axisAlignedBboxTransform(const float* rois, uint32_t numRois, const float* deltas, uint32_t numClasses,
                              const int32_t* batchIndex, const float* imageInfo, float* out) {
  for (uint32_t r = 0; r < numRois; ++r) {
    const float* info = imageInfo + size_t(batchIndex[r]) * 2;
    for (uint32_t c = 0; c < numClasses; ++c) {
      const size_t at = (size_t{r} * numClasses + c) * kBox;
      moveBox(rois + size_t{r} * kBox, deltas + at, info[0], info[1], out + at);
    }
  }
}

std::vector<Detection> boxWithNmsLimit(const float* scores, const float* boxes, const int32_t* batchIndex,
                                       uint32_t numRois, uint32_t numClasses, const NmsOptions& o) {
  const Suppression soft{true, o.decay, o.iouThreshold, o.sigma, o.nmsScoreThreshold};
  std::vector<Detection> result;
  for (uint32_t first = 0; first < numRois;) {
    uint32_t end = first + 1;
    while (end < numRois && batchIndex[end] == batchIndex[first]) ++end;
    std::vector<Candidate> batch;  // index = box * numClasses + class
    for (uint32_t c = 1; c < numClasses; ++c) {
      std::vector<Candidate> candidates;
      for (uint32_t r = first; r < end; ++r) {
        const uint32_t index = r * numClasses + c;
        if (scores[index] > o.scoreThreshold) candidates.push_back({index, scores[index], boxes + size_t{index} * kBox});
      }
      std::vector<Candidate> kept = nms(std::move(candidates), soft, o.maxDetections);
      batch.insert(batch.end(), kept.begin(), kept.end());
    }
    sortByScore(batch);
    if (o.maxDetections >= 0 && batch.size() > static_cast<size_t>(o.maxDetections)) batch.resize(o.maxDetections);
    std::stable_sort(batch.begin(), batch.end(), [numClasses](const Candidate& a, const Candidate& b) {
      return a.index % numClasses < b.index % numClasses;
    });
    for (const Candidate& k : batch) result.push_back({k.index / numClasses, k.index % numClasses, k.score, batchIndex[first]});
    first = end;
  }
  return result;
}

std::vector<Proposal> generateProposals(const float* scores, const float* deltas, const Shape& shape,
                                        const float* anchors, const float* imageInfo, const ProposalOptions& o) {
  const uint32_t batches = shape.dims[0], height = shape.dims[1], width = shape.dims[2], numAnchors = shape.dims[3];
  const size_t perBatch = size_t{height} * width * numAnchors;
  std::vector<float> moved(perBatch * kBox);
  std::vector<Proposal> result;
  for (uint32_t b = 0; b < batches; ++b) {
    const float imageHeight = imageInfo[b * 2], imageWidth = imageInfo[b * 2 + 1];
    const float* batchScores = scores + b * perBatch;
    for (uint32_t h = 0; h < height; ++h) {
      for (uint32_t w = 0; w < width; ++w) {
        const float sx = static_cast<float>(w) * o.widthStride, sy = static_cast<float>(h) * o.heightStride;
        for (uint32_t a = 0; a < numAnchors; ++a) {
          const size_t i = (size_t{h} * width + w) * numAnchors + a;
          const float* anchor = anchors + size_t{a} * kBox;
          const float shifted[4] = {anchor[0] + sx, anchor[1] + sy, anchor[2] + sx, anchor[3] + sy};
          moveBox(shifted, deltas + (b * perBatch + i) * kBox, imageHeight, imageWidth, moved.data() + i * kBox);
        }
      }
    }
    std::vector<Candidate> candidates(perBatch);
    for (size_t i = 0; i < perBatch; ++i) {
      candidates[i] = {static_cast<uint32_t>(i), batchScores[i], moved.data() + i * kBox};
    }
    if (o.preNmsMax > 0 && static_cast<size_t>(o.preNmsMax) < candidates.size()) {
      sortByScore(candidates);
      candidates.resize(o.preNmsMax);
    }
    std::erase_if(candidates, [&](const Candidate& c) {
      const float* box = c.box;
      const float w = box[2] - box[0], h = box[3] - box[1];
      return !(w > o.minSize && h > o.minSize && box[0] + w / 2 < imageWidth && box[1] + h / 2 < imageHeight);
    });
    const Suppression hard{false, NmsDecay::Hard, o.iouThreshold, 1.0f, 0.0f};
    for (const Candidate& k : nms(std::move(candidates), hard, o.postNmsMax > 0 ? o.postNmsMax : -1)) {
      Proposal p;
      p.score = k.score;
      std::copy(k.box, k.box + kBox, p.box);
      p.batch = static_cast<int32_t>(b);
      result.push_back(p);
    }
  }
  return result;
}

void detectionPostprocessing(const float* scores, const float* deltas, const Shape& shape, uint32_t boxLength,
                             const float* anchors, const DetectionOptions& o, float* outScores, float* outBoxes,
                             int32_t* outClasses, int32_t* outCount) {
  const uint32_t batches = shape.dims[0], numAnchors = shape.dims[1], numClasses = shape.dims[2];
  const uint32_t perBatch = o.regularNms ? o.maxDetections : o.maxDetections * o.maxClassesPerDetection;
  const int32_t labelShift = o.backgroundInLabel ? 0 : 1;
  const Suppression hard{false, NmsDecay::Hard, o.iouThreshold, 1.0f, 0.0f};
  std::fill(outScores, outScores + size_t{batches} * perBatch, 0.0f);
  std::fill(outBoxes, outBoxes + size_t{batches} * perBatch * kBox, 0.0f);
  std::fill(outClasses, outClasses + size_t{batches} * perBatch, 0);
  std::vector<float> boxes(size_t{numAnchors} * kBox);
  for (uint32_t b = 0; b < batches; ++b) {
    const float* s = scores + size_t{b} * numAnchors * numClasses;
    for (uint32_t a = 0; a < numAnchors; ++a) {
      const float* anchor = anchors + size_t{a} * kBox;
      const float* d = deltas + (size_t{b} * numAnchors + a) * boxLength;
      const float yc = anchor[0] + anchor[2] * d[0] / o.scaleY, xc = anchor[1] + anchor[3] * d[1] / o.scaleX;
      const float halfH = anchor[2] * std::exp(d[2] / o.scaleH) * 0.5f;
      const float halfW = anchor[3] * std::exp(d[3] / o.scaleW) * 0.5f;
      float* box = boxes.data() + size_t{a} * kBox;
      box[0] = yc - halfH;
      box[1] = xc - halfW;
      box[2] = yc + halfH;
      box[3] = xc + halfW;
    }
    float* bScores = outScores + size_t{b} * perBatch;
    float* bBoxes = outBoxes + size_t{b} * perBatch * kBox;
    int32_t* bClasses = outClasses + size_t{b} * perBatch;
    uint32_t n = 0;
    auto emit = [&](float score, uint32_t anchor, uint32_t cls) {
      bScores[n] = score;
      std::copy_n(boxes.data() + size_t{anchor} * kBox, kBox, bBoxes + size_t{n} * kBox);
      bClasses[n] = static_cast<int32_t>(cls) - labelShift;
      ++n;
    };
    if (o.regularNms) {
      std::vector<Candidate> all;  // index = anchor * numClasses + class
      for (uint32_t c = 1; c < numClasses; ++c) {
        std::vector<Candidate> candidates;
        for (uint32_t a = 0; a < numAnchors; ++a) {
          const uint32_t index = a * numClasses + c;
          if (s[index] > o.scoreThreshold) candidates.push_back({index, s[index], boxes.data() + size_t{a} * kBox});
        }
        std::vector<Candidate> kept = nms(std::move(candidates), hard, o.maxDetectionsPerClass);
        all.insert(all.end(), kept.begin(), kept.end());
      }
      sortByScore(all);
      if (all.size() > o.maxDetections) all.resize(o.maxDetections);
      for (const Candidate& k : all) emit(k.score, k.index / numClasses, k.index % numClasses);
    } else {
      const uint32_t classesOut = std::min(numClasses - 1, o.maxClassesPerDetection);
      std::vector<Candidate> candidates;
      for (uint32_t a = 0; a < numAnchors; ++a) {
        const float best = *std::max_element(s + size_t{a} * numClasses + 1, s + size_t{a + 1} * numClasses);
        if (best > o.scoreThreshold) candidates.push_back({a, best, boxes.data() + size_t{a} * kBox});
      }
      for (const Candidate& k : nms(std::move(candidates), hard, o.maxDetections)) {
        const float* row = s + size_t{k.index} * numClasses;
        std::vector<uint32_t> classes(numClasses - 1);
        std::iota(classes.begin(), classes.end(), 1u);
        std::stable_sort(classes.begin(), classes.end(), [row](uint32_t x, uint32_t y) { return row[x] > row[y]; });
        for (uint32_t c = 0; c < classesOut; ++c) emit(row[classes[c]], k.index, classes[c]);
      }
    }
    outCount[b] = static_cast<int32_t>(n);
  }
}

void roiAlign(const float* input, const Shape& inShape, const float* rois, uint32_t numRois,
              const int32_t* batchIndex, const RoiOptions& o, float* out) {
  const uint32_t height = inShape.dims[1], width = inShape.dims[2], depth = inShape.dims[3];
  const uint32_t oh = o.outputHeight, ow = o.outputWidth;
  for (uint32_t r = 0; r < numRois; ++r) {
    const float* roi = rois + size_t{r} * kBox;
    const float x0 = roi[0] / o.widthRatio, y0 = roi[1] / o.heightRatio;
    const float roiW = std::max(roi[2] / o.widthRatio - x0, 1.0f);
    const float roiH = std::max(roi[3] / o.heightRatio - y0, 1.0f);
    const float binW = roiW / static_cast<float>(ow), binH = roiH / static_cast<float>(oh);
    const uint32_t samplesX = o.widthSamplingRatio > 0 ? o.widthSamplingRatio : static_cast<uint32_t>(std::ceil(binW));
    const uint32_t samplesY = o.heightSamplingRatio > 0 ? o.heightSamplingRatio : static_cast<uint32_t>(std::ceil(binH));
    const float stepX = binW / static_cast<float>(samplesX), stepY = binH / static_cast<float>(samplesY);
    const float count = static_cast<float>(samplesX * samplesY);
    const float* image = input + size_t(batchIndex[r]) * height * width * depth;
    for (uint32_t i = 0; i < oh; ++i) {
      for (uint32_t j = 0; j < ow; ++j) {
        float* acc = out + ((size_t{r} * oh + i) * ow + j) * depth;
        std::fill(acc, acc + depth, 0.0f);
        for (uint32_t sy = 0; sy < samplesY; ++sy) {
          const float y = y0 + binH * static_cast<float>(i) + stepY / 2 + stepY * static_cast<float>(sy);
          for (uint32_t sx = 0; sx < samplesX; ++sx) {
            const float x = x0 + binW * static_cast<float>(j) + stepX / 2 + stepX * static_cast<float>(sx);
            addBilinear(image, height, width, depth, y, x, acc);
          }
        }
        for (uint32_t k = 0; k < depth; ++k) acc[k] /= count;
      }
    }
  }
}

void roiPooling(const float* input, const Shape& inShape, const float* rois, uint32_t numRois,
                const int32_t* batchIndex, const RoiOptions& o, float* out) {
  const uint32_t height = inShape.dims[1], width = inShape.dims[2], depth = inShape.dims[3];
  const uint32_t oh = o.outputHeight, ow = o.outputWidth;
  for (uint32_t r = 0; r < numRois; ++r) {
    const float* roi = rois + size_t{r} * kBox;
    const int32_t x0 = static_cast<int32_t>(std::round(roi[0] / o.widthRatio));
    const int32_t y0 = static_cast<int32_t>(std::round(roi[1] / o.heightRatio));
    const int32_t x1 = static_cast<int32_t>(std::round(roi[2] / o.widthRatio));
    const int32_t y1 = static_cast<int32_t>(std::round(roi[3] / o.heightRatio));
    const float binW = static_cast<float>(std::max(x1 - x0 + 1, 1)) / static_cast<float>(ow);
    const float binH = static_cast<float>(std::max(y1 - y0 + 1, 1)) / static_cast<float>(oh);
    const float* image = input + size_t(batchIndex[r]) * height * width * depth;
    for (uint32_t i = 0; i < oh; ++i) {
      const uint32_t hStart = std::min(static_cast<uint32_t>(std::floor(binH * i + y0)), height);
      const uint32_t hEnd = std::min(static_cast<uint32_t>(std::ceil(binH * (i + 1) + y0)), height);
      for (uint32_t j = 0; j < ow; ++j) {
        const uint32_t wStart = std::min(static_cast<uint32_t>(std::floor(binW * j + x0)), width);
        const uint32_t wEnd = std::min(static_cast<uint32_t>(std::ceil(binW * (j + 1) + x0)), width);
        float* o_ = out + ((size_t{r} * oh + i) * ow + j) * depth;
        for (uint32_t k = 0; k < depth; ++k) {
          float best = 0.0f;
          bool any = false;
          for (uint32_t y = hStart; y < hEnd; ++y) {
            for (uint32_t x = wStart; x < wEnd; ++x) {
              const float v = image[(size_t{y} * width + x) * depth + k];
              if (!any || v > best) best = v;
              any = true;
            }
          }
          o_[k] = best;
        }
      }
    }
  }
}

void heatmapMaxKeypoint(const float* heatmaps, const Shape& shape, const float* boxes, float atol, float rtol,
                        float* outScores, float* outKeypoints) {
  const uint32_t numBoxes = shape.dims[0], size = shape.dims[1], keypoints = shape.dims[3];
  for (uint32_t n = 0; n < numBoxes; ++n) {
    const float* map = heatmaps + size_t{n} * size * size * keypoints;
    const float* box = boxes + size_t{n} * kBox;
    for (uint32_t k = 0; k < keypoints; ++k) {
      uint32_t best = 0;
      float maxScore = -FLT_MAX;
      for (uint32_t i = 0; i < size * size; ++i) {
        if (map[size_t{i} * keypoints + k] > maxScore) {
          maxScore = map[size_t{i} * keypoints + k];
          best = i;
        }
      }
      const int32_t by = static_cast<int32_t>(best / size), bx = static_cast<int32_t>(best % size);
      float g[3][3];  // the 3x3 neighbourhood, mirrored at the borders
      const auto mirror = [size](int32_t v) {
        return v < 0 ? 1 : (v >= static_cast<int32_t>(size) ? static_cast<int32_t>(size) - 2 : v);
      };
      for (int32_t dy = -1; dy <= 1; ++dy)
        for (int32_t dx = -1; dx <= 1; ++dx)
          g[dy + 1][dx + 1] = map[(size_t(mirror(by + dy)) * size + size_t(mirror(bx + dx))) * keypoints + k];
      // Second-order Taylor fit at the centre: score(d) = g11 - b.d + d'Ad / 2.
      const float b0 = -(g[1][2] - g[1][0]) / 2.0f, b1 = -(g[2][1] - g[0][1]) / 2.0f;
      const float a00 = g[1][0] - 2.0f * g[1][1] + g[1][2];
      const float a01 = (g[2][2] - g[2][0] - g[0][2] + g[0][0]) / 4.0f;
      const float a11 = g[0][1] - 2.0f * g[1][1] + g[2][1];
      const float det = a00 * a11 - a01 * a01;
      float d0 = 0.0f, d1 = 0.0f, score = maxScore;
      if (!(std::fabs(det) < atol + rtol * a00 * a11)) {
        d0 = (a11 * b0 - a01 * b1) / det;
        d1 = (a00 * b1 - a01 * b0) / det;
        if (std::fabs(d0) > 1.5f || std::fabs(d1) > 1.5f) {
          const float scale = 1.5f / std::max(std::fabs(d0), std::fabs(d1));
          d0 *= scale;
          d1 *= scale;
        }
        score = g[1][1] - b0 * d0 - b1 * d1 + ((a00 * d0 + a01 * d1) * d0 + (a01 * d0 + a11 * d1) * d1) / 2.0f;
      }
      const float fx = (static_cast<float>(bx) + d0 + 0.5f) / static_cast<float>(size);
      const float fy = (static_cast<float>(by) + d1 + 0.5f) / static_cast<float>(size);
      outScores[size_t{n} * keypoints + k] = score;
      outKeypoints[(size_t{n} * keypoints + k) * 2] = fx * (box[2] - box[0]) + box[0];
      outKeypoints[(size_t{n} * keypoints + k) * 2 + 1] = fy * (box[3] - box[1]) + box[1];
    }
  }
}

}  // namespace nnrt::cpu
