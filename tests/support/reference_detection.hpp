// Double-precision references for the detection operations (AXIS_ALIGNED_BBOX_TRANSFORM,
// BOX_WITH_NMS_LIMIT, GENERATE_PROPOSALS, DETECTION_POSTPROCESSING, ROI_ALIGN, ROI_POOLING,
// HEATMAP_MAX_KEYPOINT), written from NeuralNetworks.h and Android's reference semantics and sharing
// no code with any driver. Images are NHWC; boxes [x1, y1, x2, y2] (DETECTION_POSTPROCESSING's
// outputs [y1, x1, y2, x2]). Greedy NMS here sorts the survivors afresh every round (score
// descending, then candidate order), so equal scores go to the earlier candidate: the lower class,
// then the lower box index.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace nnrt::test::ref {

namespace detection_detail {

// Intersection over union; 0 without a union.
inline double iou(const double* a, const double* b) {
  const double ix = std::max(0.0, std::min(a[2], b[2]) - std::max(a[0], b[0]));
  const double iy = std::max(0.0, std::min(a[3], b[3]) - std::max(a[1], b[1]));
  const double inter = ix * iy;
  const double uni = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return uni > 0 ? inter / uni : 0.0;
}

// Box moved by deltas (dx, dy, dw, dh), clipped to the image.
inline void move(const double* box, const double* d, double imageH, double imageW, double* out) {
  const double w = box[2] - box[0], h = box[3] - box[1];
  const double cx = box[0] + w / 2 + d[0] * w, cy = box[1] + h / 2 + d[1] * h;
  const double nw = w * std::exp(d[2]), nh = h * std::exp(d[3]);
  const double raw[4] = {cx - nw / 2, cy - nh / 2, cx + nw / 2, cy + nh / 2};
  const double limit[4] = {imageW, imageH, imageW, imageH};
  for (int k = 0; k < 4; ++k) out[k] = std::min(std::max(raw[k], 0.0), limit[k]);
}

struct Cand {
  size_t order;  // candidate order: breaks ties
  uint32_t id;
  double score;
  std::vector<double> box;
};

// Greedy NMS. soft: scores decay by `factor(iou)` and drop below dropBelow; hard: iou >= threshold
// removes. At most maxKept (negative: all). Kept candidates in the order kept.
template <class Factor>
std::vector<Cand> greedy(std::vector<Cand> pool, bool soft, double iouThreshold, Factor factor, double dropBelow,
                         long maxKept) {
  std::vector<Cand> kept;
  while (!pool.empty() && (maxKept < 0 || static_cast<long>(kept.size()) < maxKept)) {
    std::sort(pool.begin(), pool.end(), [](const Cand& a, const Cand& b) {
      return a.score != b.score ? a.score > b.score : a.order < b.order;
    });
    kept.push_back(pool.front());
    pool.erase(pool.begin());
    std::vector<Cand> rest;
    for (Cand c : pool) {
      const double o = iou(c.box.data(), kept.back().box.data());
      if (soft) {
        c.score *= factor(o);
        if (c.score >= dropBelow) rest.push_back(c);
      } else if (o < iouThreshold) {
        rest.push_back(c);
      }
    }
    pool = rest;
  }
  return kept;
}

}  // namespace detection_detail

// AXIS_ALIGNED_BBOX_TRANSFORM: rois [R, 4], deltas [R, 4C], batch index per roi, imageInfo [B, 2].
inline std::vector<double> bboxTransform(const std::vector<double>& rois, const std::vector<double>& deltas,
                                         const std::vector<int>& batches, const std::vector<double>& imageInfo) {
  const size_t r = rois.size() / 4, c = deltas.size() / rois.size();
  std::vector<double> out(deltas.size());
  for (size_t i = 0; i < r; ++i)
    for (size_t k = 0; k < c; ++k)
      detection_detail::move(&rois[i * 4], &deltas[(i * c + k) * 4], imageInfo[batches[i] * 2],
                             imageInfo[batches[i] * 2 + 1], &out[(i * c + k) * 4]);
  return out;
}

struct NmsResult {
  std::vector<double> scores, boxes;
  std::vector<double> classes, batches;  // integers, as the case files hold values
};

// BOX_WITH_NMS_LIMIT: kernel 0 hard, 1 linear, 2 gaussian.
inline NmsResult boxWithNmsLimit(const std::vector<double>& scores, const std::vector<double>& boxes,
                                 const std::vector<int>& batches, uint32_t classes, double scoreThreshold,
                                 int maxDetections, int kernel, double iouThreshold, double sigma,
                                 double nmsScoreThreshold) {
  using detection_detail::Cand;
  const size_t rois = batches.size();
  auto factor = [&](double o) {
    if (kernel == 2) return std::exp(-o * o / sigma);
    if (o < iouThreshold) return 1.0;
    return kernel == 0 ? 0.0 : 1.0 - o;
  };
  NmsResult result;
  size_t first = 0;
  while (first < rois) {
    size_t end = first;
    while (end < rois && batches[end] == batches[first]) ++end;
    std::vector<Cand> batchKept;
    for (uint32_t c = 1; c < classes; ++c) {
      std::vector<Cand> pool;
      for (size_t i = first; i < end; ++i) {
        const double s = scores[i * classes + c];
        if (s > scoreThreshold) {
          const double* b = &boxes[(i * classes + c) * 4];
          pool.push_back({c * rois + i, static_cast<uint32_t>(i * classes + c), s, {b, b + 4}});
        }
      }
      for (Cand& k : detection_detail::greedy(pool, true, iouThreshold, factor, nmsScoreThreshold, maxDetections))
        batchKept.push_back(k);
    }
    // The best maxDetections of the batch (ties: lower class, then earlier), then by class.
    std::sort(batchKept.begin(), batchKept.end(), [](const Cand& a, const Cand& b) {
      return a.score != b.score ? a.score > b.score : a.order < b.order;
    });
    if (maxDetections >= 0 && batchKept.size() > static_cast<size_t>(maxDetections)) batchKept.resize(maxDetections);
    std::stable_sort(batchKept.begin(), batchKept.end(),
                     [&](const Cand& a, const Cand& b) { return a.id % classes < b.id % classes; });
    for (const Cand& k : batchKept) {
      result.scores.push_back(k.score);
      result.boxes.insert(result.boxes.end(), k.box.begin(), k.box.end());
      result.classes.push_back(k.id % classes);
      result.batches.push_back(batches[first]);
    }
    first = end;
  }
  return result;
}

// GENERATE_PROPOSALS on NHWC scores [N, H, W, A] and deltas [N, H, W, 4A].
inline NmsResult generateProposals(const std::vector<double>& scores, const std::vector<double>& deltas,
                                   const std::vector<uint32_t>& dims, const std::vector<double>& anchors,
                                   const std::vector<double>& imageInfo, double heightStride, double widthStride,
                                   int preNms, int postNms, double iouThreshold, double minSize) {
  using detection_detail::Cand;
  const uint32_t n = dims[0], h = dims[1], w = dims[2], a = dims[3];
  NmsResult result;
  for (uint32_t b = 0; b < n; ++b) {
    std::vector<Cand> pool;
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x)
        for (uint32_t k = 0; k < a; ++k) {
          const size_t i = ((size_t{b} * h + y) * w + x) * a + k;
          const double shifted[4] = {anchors[k * 4] + x * widthStride, anchors[k * 4 + 1] + y * heightStride,
                                     anchors[k * 4 + 2] + x * widthStride, anchors[k * 4 + 3] + y * heightStride};
          std::vector<double> box(4);
          detection_detail::move(shifted, &deltas[i * 4], imageInfo[b * 2], imageInfo[b * 2 + 1], box.data());
          pool.push_back({pool.size(), 0, scores[i], box});
        }
    if (preNms > 0 && static_cast<size_t>(preNms) < pool.size()) {
      std::stable_sort(pool.begin(), pool.end(), [](const Cand& p, const Cand& q) { return p.score > q.score; });
      pool.resize(preNms);
      for (size_t i = 0; i < pool.size(); ++i) pool[i].order = i;
    }
    std::vector<Cand> big;
    for (const Cand& c : pool) {
      const double bw = c.box[2] - c.box[0], bh = c.box[3] - c.box[1];
      if (bw > minSize && bh > minSize && c.box[0] + bw / 2 < imageInfo[b * 2 + 1] && c.box[1] + bh / 2 < imageInfo[b * 2])
        big.push_back(c);
    }
    auto none = [](double) { return 1.0; };
    for (const Cand& k : detection_detail::greedy(big, false, iouThreshold, none, 0.0, postNms > 0 ? postNms : -1)) {
      result.scores.push_back(k.score);
      result.boxes.insert(result.boxes.end(), k.box.begin(), k.box.end());
      result.batches.push_back(b);
    }
  }
  return result;
}

struct DetectionResult {
  std::vector<double> scores, boxes, classes, counts;
};

// DETECTION_POSTPROCESSING: scores [N, A, C], deltas [N, A, L], anchors [A, 4] (yc, xc, h, w).
inline DetectionResult detectionPostprocessing(const std::vector<double>& scores, const std::vector<double>& deltas,
                                               uint32_t n, uint32_t anchorsCount, uint32_t classes, uint32_t boxLength,
                                               const std::vector<double>& anchors, const double scale[4],
                                               bool regular, uint32_t maxDetections, uint32_t maxClassesPerDetection,
                                               uint32_t maxPerClass, double scoreThreshold, double iouThreshold,
                                               bool backgroundInLabel) {
  using detection_detail::Cand;
  const uint32_t d = regular ? maxDetections : maxDetections * maxClassesPerDetection;
  DetectionResult r{std::vector<double>(size_t{n} * d, 0.0), std::vector<double>(size_t{n} * d * 4, 0.0),
                    std::vector<double>(size_t{n} * d, 0.0), std::vector<double>(n, 0.0)};
  auto none = [](double) { return 1.0; };
  for (uint32_t b = 0; b < n; ++b) {
    std::vector<std::vector<double>> boxes(anchorsCount);
    for (uint32_t a = 0; a < anchorsCount; ++a) {
      const double* an = &anchors[a * 4];
      const double* dl = &deltas[(size_t{b} * anchorsCount + a) * boxLength];
      const double yc = an[0] + dl[0] / scale[0] * an[2], xc = an[1] + dl[1] / scale[1] * an[3];
      const double hh = an[2] * std::exp(dl[2] / scale[2]) / 2, hw = an[3] * std::exp(dl[3] / scale[3]) / 2;
      boxes[a] = {yc - hh, xc - hw, yc + hh, xc + hw};
    }
    auto s = [&](uint32_t a, uint32_t c) { return scores[(size_t{b} * anchorsCount + a) * classes + c]; };
    std::vector<std::pair<double, std::pair<uint32_t, uint32_t>>> out;  // score, (anchor, class)
    if (regular) {
      std::vector<Cand> all;
      for (uint32_t c = 1; c < classes; ++c) {
        std::vector<Cand> pool;
        for (uint32_t a = 0; a < anchorsCount; ++a)
          if (s(a, c) > scoreThreshold) pool.push_back({c * anchorsCount + a, a * classes + c, s(a, c), boxes[a]});
        for (const Cand& k : detection_detail::greedy(pool, false, iouThreshold, none, 0.0, maxPerClass)) all.push_back(k);
      }
      std::sort(all.begin(), all.end(), [](const Cand& x, const Cand& y) {
        return x.score != y.score ? x.score > y.score : x.order < y.order;
      });
      for (size_t i = 0; i < all.size() && i < maxDetections; ++i)
        out.push_back({all[i].score, {all[i].id / classes, all[i].id % classes}});
    } else {
      std::vector<Cand> pool;
      for (uint32_t a = 0; a < anchorsCount; ++a) {
        double best = s(a, 1);
        for (uint32_t c = 2; c < classes; ++c) best = std::max(best, s(a, c));
        if (best > scoreThreshold) pool.push_back({a, a, best, boxes[a]});
      }
      for (const Cand& k : detection_detail::greedy(pool, false, iouThreshold, none, 0.0, maxDetections)) {
        std::vector<uint32_t> order(classes - 1);
        std::iota(order.begin(), order.end(), 1u);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return s(k.id, x) > s(k.id, y); });
        for (uint32_t c = 0; c < std::min(classes - 1, maxClassesPerDetection); ++c)
          out.push_back({s(k.id, order[c]), {k.id, order[c]}});
      }
    }
    for (size_t i = 0; i < out.size(); ++i) {
      r.scores[b * d + i] = out[i].first;
      for (int k = 0; k < 4; ++k) r.boxes[(b * d + i) * 4 + k] = boxes[out[i].second.first][k];
      r.classes[b * d + i] = static_cast<double>(out[i].second.second) - (backgroundInLabel ? 0 : 1);
    }
    r.counts[b] = static_cast<double>(out.size());
  }
  return r;
}

// ROI_ALIGN on NHWC input [N, H, W, C]: output [R, oh, ow, C].
inline std::vector<double> roiAlign(const std::vector<double>& in, const std::vector<uint32_t>& dims,
                                    const std::vector<double>& rois, const std::vector<int>& batches, uint32_t oh,
                                    uint32_t ow, double hRatio, double wRatio, uint32_t hSampling, uint32_t wSampling) {
  const uint32_t H = dims[1], W = dims[2], C = dims[3];
  std::vector<double> out;
  auto at = [&](int b, uint32_t y, uint32_t x, uint32_t c) { return in[((size_t(b) * H + y) * W + x) * C + c]; };
  for (size_t r = 0; r < batches.size(); ++r) {
    const double x0 = rois[r * 4] / wRatio, y0 = rois[r * 4 + 1] / hRatio;
    const double rw = std::max(rois[r * 4 + 2] / wRatio - x0, 1.0), rh = std::max(rois[r * 4 + 3] / hRatio - y0, 1.0);
    const double bw = rw / ow, bh = rh / oh;
    const uint32_t sx = wSampling ? wSampling : static_cast<uint32_t>(std::ceil(bw));
    const uint32_t sy = hSampling ? hSampling : static_cast<uint32_t>(std::ceil(bh));
    for (uint32_t i = 0; i < oh; ++i)
      for (uint32_t j = 0; j < ow; ++j)
        for (uint32_t c = 0; c < C; ++c) {
          double sum = 0;
          for (uint32_t p = 0; p < sy; ++p)
            for (uint32_t q = 0; q < sx; ++q) {
              const double y = y0 + i * bh + (p + 0.5) * bh / sy, x = x0 + j * bw + (q + 0.5) * bw / sx;
              // Bilinear, the last row and column repeating past the edge.
              const double fy = std::floor(y), fx = std::floor(x);
              const uint32_t ya = std::min(static_cast<uint32_t>(fy), H - 1), yb = std::min(ya + 1, H - 1);
              const uint32_t xa = std::min(static_cast<uint32_t>(fx), W - 1), xb = std::min(xa + 1, W - 1);
              const double ly = ya == H - 1 ? 0.0 : y - fy, lx = xa == W - 1 ? 0.0 : x - fx;
              sum += (1 - ly) * ((1 - lx) * at(batches[r], ya, xa, c) + lx * at(batches[r], ya, xb, c)) +
                     ly * ((1 - lx) * at(batches[r], yb, xa, c) + lx * at(batches[r], yb, xb, c));
            }
          out.push_back(sum / (sx * sy));
        }
  }
  return out;
}

// ROI_POOLING on NHWC input: each bin the maximum over its pixels (0 for none).
inline std::vector<double> roiPooling(const std::vector<double>& in, const std::vector<uint32_t>& dims,
                                      const std::vector<double>& rois, const std::vector<int>& batches, uint32_t oh,
                                      uint32_t ow, double hRatio, double wRatio) {
  const uint32_t H = dims[1], W = dims[2], C = dims[3];
  auto roundAway = [](double v) { return static_cast<long>(std::round(v)); };
  std::vector<double> out;
  for (size_t r = 0; r < batches.size(); ++r) {
    const long x0 = roundAway(rois[r * 4] / wRatio), y0 = roundAway(rois[r * 4 + 1] / hRatio);
    const long x1 = roundAway(rois[r * 4 + 2] / wRatio), y1 = roundAway(rois[r * 4 + 3] / hRatio);
    const double bw = std::max(x1 - x0 + 1, 1L) / double(ow), bh = std::max(y1 - y0 + 1, 1L) / double(oh);
    for (uint32_t i = 0; i < oh; ++i)
      for (uint32_t j = 0; j < ow; ++j)
        for (uint32_t c = 0; c < C; ++c) {
          const long ys = std::min<long>(std::floor(i * bh + y0), H), ye = std::min<long>(std::ceil((i + 1) * bh + y0), H);
          const long xs = std::min<long>(std::floor(j * bw + x0), W), xe = std::min<long>(std::ceil((j + 1) * bw + x0), W);
          bool any = false;
          double best = 0;
          for (long y = ys; y < ye; ++y)
            for (long x = xs; x < xe; ++x) {
              const double v = in[((size_t(batches[r]) * H + y) * W + x) * C + c];
              best = any ? std::max(best, v) : v;
              any = true;
            }
          out.push_back(best);
        }
  }
  return out;
}

// HEATMAP_MAX_KEYPOINT on NHWC heatmaps [N, S, S, K]: scores [N, K] and keypoints [N, K, 2].
inline void heatmapMaxKeypoint(const std::vector<double>& maps, const std::vector<uint32_t>& dims,
                               const std::vector<double>& boxes, double tolerance, std::vector<double>& scores,
                               std::vector<double>& keypoints) {
  const uint32_t n = dims[0], S = dims[1], K = dims[3];
  scores.clear();
  keypoints.clear();
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t k = 0; k < K; ++k) {
      auto v = [&](long y, long x) {
        y = y < 0 ? 1 : (y >= long(S) ? S - 2 : y);
        x = x < 0 ? 1 : (x >= long(S) ? S - 2 : x);
        return maps[((size_t{b} * S + y) * S + x) * K + k];
      };
      long by = 0, bx = 0;
      for (long y = 0; y < long(S); ++y)
        for (long x = 0; x < long(S); ++x)
          if (v(y, x) > v(by, bx)) by = y, bx = x;
      // Newton step of the quadratic through the 3x3 neighbourhood: A d = b.
      const double g0 = (v(by, bx + 1) - v(by, bx - 1)) / 2, g1 = (v(by + 1, bx) - v(by - 1, bx)) / 2;
      const double hxx = v(by, bx - 1) - 2 * v(by, bx) + v(by, bx + 1);
      const double hyy = v(by - 1, bx) - 2 * v(by, bx) + v(by + 1, bx);
      const double hxy = (v(by + 1, bx + 1) - v(by + 1, bx - 1) - v(by - 1, bx + 1) + v(by - 1, bx - 1)) / 4;
      const double det = hxx * hyy - hxy * hxy;
      double dx = 0, dy = 0, score = v(by, bx);
      if (std::fabs(det) >= tolerance + tolerance * hxx * hyy) {
        dx = -(hyy * g0 - hxy * g1) / det;
        dy = -(hxx * g1 - hxy * g0) / det;
        const double m = std::max(std::fabs(dx), std::fabs(dy));
        if (m > 1.5) dx *= 1.5 / m, dy *= 1.5 / m;
        score += g0 * dx + g1 * dy + (hxx * dx * dx + 2 * hxy * dx * dy + hyy * dy * dy) / 2;
      }
      const double* box = &boxes[b * 4];
      scores.push_back(score);
      keypoints.push_back((bx + dx + 0.5) / S * (box[2] - box[0]) + box[0]);
      keypoints.push_back((by + dy + 0.5) / S * (box[3] - box[1]) + box[1]);
    }
}

}  // namespace nnrt::test::ref
