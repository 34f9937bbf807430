// Double-precision references for the rearranging, slicing and lookup operations: DEPTH_TO_SPACE,
// SPACE_TO_DEPTH, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, STRIDED_SLICE, EMBEDDING_LOOKUP and
// HASHTABLE_LOOKUP, written from the NNAPI definitions and sharing no code with any driver. Image
// tensors are NHWC (NCHW cases convert with nchwToNhwc / nhwcToNchw around these). Values are whatever
// the tensor stores (reals or stored integers): these operations only move them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "support/reference_ops.hpp"

namespace nnrt::test::ref {

namespace detail {
// Element (n, y, x, c) of an NHWC tensor.
inline double& at4(Tensor& t, size_t n, size_t y, size_t x, size_t c) {
  return t.values[((n * t.dims[1] + y) * t.dims[2] + x) * t.dims[3] + c];
}
inline double at4(const Tensor& t, size_t n, size_t y, size_t x, size_t c) {
  return t.values[((n * t.dims[1] + y) * t.dims[2] + x) * t.dims[3] + c];
}
}  // namespace detail

// DEPTH_TO_SPACE: [N, H, W, C * b * b] -> [N, H * b, W * b, C]; the block of b x b output pixels at
// (y, x) takes its values from input pixel (y, x), channel group (row in the block) * b + column.
inline Tensor depthToSpace(const Tensor& in, uint32_t b) {
  const uint32_t n = in.dims[0], h = in.dims[1], w = in.dims[2], c = in.dims[3] / (b * b);
  Tensor out{{n, h * b, w * b, c}, std::vector<double>(in.values.size())};
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x)
        for (uint32_t by = 0; by < b; ++by)
          for (uint32_t bx = 0; bx < b; ++bx)
            for (uint32_t k = 0; k < c; ++k)
              detail::at4(out, i, y * b + by, x * b + bx, k) =
                  detail::at4(in, i, y, x, (by * b + bx) * c + k);
  return out;
}

// SPACE_TO_DEPTH: [N, H * b, W * b, C] -> [N, H, W, C * b * b], the inverse of depthToSpace.
inline Tensor spaceToDepth(const Tensor& in, uint32_t b) {
  const uint32_t n = in.dims[0], h = in.dims[1] / b, w = in.dims[2] / b, c = in.dims[3];
  Tensor out{{n, h, w, c * b * b}, std::vector<double>(in.values.size())};
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x)
        for (uint32_t by = 0; by < b; ++by)
          for (uint32_t bx = 0; bx < b; ++bx)
            for (uint32_t k = 0; k < c; ++k)
              detail::at4(out, i, y, x, (by * b + bx) * c + k) =
                  detail::at4(in, i, y * b + by, x * b + bx, k);
  return out;
}

// SPACE_TO_BATCH_ND: the input padded by pads = {top, bottom, left, right} with padValue, then
// [N, H', W', C] -> [N * bh * bw, H' / bh, W' / bw, C]; output batch (oy * bw + ox) * N + n holds the
// padded pixels whose position within their block is (oy, ox).
inline Tensor spaceToBatch(const Tensor& in, uint32_t bh, uint32_t bw, const std::vector<uint32_t>& pads,
                           double padValue) {
  const uint32_t n = in.dims[0], c = in.dims[3];
  const uint32_t ph = in.dims[1] + pads[0] + pads[1], pw = in.dims[2] + pads[2] + pads[3];
  if (ph % bh != 0 || pw % bw != 0)
    throw std::invalid_argument("spaceToBatch: padded size not a block multiple");
  Tensor padded{{n, ph, pw, c}, std::vector<double>(size_t{n} * ph * pw * c, padValue)};
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t y = 0; y < in.dims[1]; ++y)
      for (uint32_t x = 0; x < in.dims[2]; ++x)
        for (uint32_t k = 0; k < c; ++k)
          detail::at4(padded, i, y + pads[0], x + pads[2], k) = detail::at4(in, i, y, x, k);
  Tensor out{{n * bh * bw, ph / bh, pw / bw, c}, std::vector<double>(padded.values.size())};
  for (uint32_t oy = 0; oy < bh; ++oy)
    for (uint32_t ox = 0; ox < bw; ++ox)
      for (uint32_t i = 0; i < n; ++i)
        for (uint32_t y = 0; y < ph / bh; ++y)
          for (uint32_t x = 0; x < pw / bw; ++x)
            for (uint32_t k = 0; k < c; ++k)
              detail::at4(out, (oy * bw + ox) * n + i, y, x, k) =
                  detail::at4(padded, i, y * bh + oy, x * bw + ox, k);
  return out;
}

// BATCH_TO_SPACE_ND: [N * bh * bw, H, W, C] -> [N, H * bh, W * bw, C], the inverse of spaceToBatch
// without padding.
inline Tensor batchToSpace(const Tensor& in, uint32_t bh, uint32_t bw) {
  const uint32_t n = in.dims[0] / (bh * bw), h = in.dims[1], w = in.dims[2], c = in.dims[3];
  Tensor out{{n, h * bh, w * bw, c}, std::vector<double>(in.values.size())};
  for (uint32_t oy = 0; oy < bh; ++oy)
    for (uint32_t ox = 0; ox < bw; ++ox)
      for (uint32_t i = 0; i < n; ++i)
        for (uint32_t y = 0; y < h; ++y)
          for (uint32_t x = 0; x < w; ++x)
            for (uint32_t k = 0; k < c; ++k)
              detail::at4(out, i, y * bh + oy, x * bw + ox, k) =
                  detail::at4(in, (oy * bw + ox) * n + i, y, x, k);
  return out;
}

// STRIDED_SLICE as NNAPI (after TensorFlow) defines it. Per dimension d of size D and stride s:
//  - begin: with bit d of beginMask, 0 (s > 0) or D - 1 (s < 0); otherwise begin[d], a negative value
//    counting from the end, then clamped into [0, D - 1] (s > 0 also allows D: an empty range);
//  - end: with bit d of endMask, D (s > 0) or "before 0" (s < 0); otherwise end[d] resolved the same
//    way (an end below -D with s < 0 also means "before 0");
//  - the indices begin, begin + s, ... strictly before end (in the stride's direction);
//  - with bit d of shrinkMask the dimension (which must select exactly one index, s > 0) is dropped.
// Dropping every dimension gives shape [1].
inline Tensor stridedSlice(const Tensor& in, const std::vector<int32_t>& begin,
                           const std::vector<int32_t>& end, const std::vector<int32_t>& strides,
                           int32_t beginMask, int32_t endMask, int32_t shrinkMask) {
  const size_t rank = in.dims.size();
  std::vector<std::vector<size_t>> picks(rank);
  Tensor out;
  for (size_t d = 0; d < rank; ++d) {
    const long long size = in.dims[d];
    const long long s = strides[d];
    if (s == 0) throw std::invalid_argument("stridedSlice: zero stride");
    auto resolve = [&](long long index) {
      if (s > 0) {
        if (index < 0) index += size;
        return std::clamp(index, 0LL, size);
      }
      if (index < -size) return -1LL;
      if (index < 0) index += size;
      return std::clamp(index, 0LL, size - 1);
    };
    const long long first = (beginMask >> d & 1) ? (s > 0 ? 0 : size - 1) : resolve(begin[d]);
    const long long last = (endMask >> d & 1) ? (s > 0 ? size : -1) : resolve(end[d]);
    for (long long i = first; s > 0 ? i < last : i > last; i += s)
      picks[d].push_back(static_cast<size_t>(i));
    if (shrinkMask >> d & 1) {
      if (s < 0 || picks[d].size() != 1) throw std::invalid_argument("stridedSlice: bad shrink");
    } else {
      out.dims.push_back(static_cast<uint32_t>(picks[d].size()));
    }
  }
  if (out.dims.empty()) out.dims.push_back(1);
  const auto st = ref::strides(in.dims);
  std::vector<size_t> k(rank, 0);
  size_t total = 1;
  for (const auto& p : picks)
    total *= p.size();
  for (size_t i = 0; i < total; ++i) {
    size_t offset = 0;
    for (size_t d = 0; d < rank; ++d)
      offset += picks[d][k[d]] * st[d];
    out.values.push_back(in.values[offset]);
    for (size_t d = rank; d-- > 0;) {
      if (++k[d] < picks[d].size()) break;
      k[d] = 0;
    }
  }
  return out;
}

// Row r of a tensor: its elements with first index r.
inline std::vector<double> row(const Tensor& t, size_t r) {
  const size_t n = t.values.size() / t.dims[0];
  return {t.values.begin() + static_cast<std::ptrdiff_t>(r * n),
          t.values.begin() + static_cast<std::ptrdiff_t>((r + 1) * n)};
}

// EMBEDDING_LOOKUP: output row i is values' row lookups[i] (each in [0, rows)).
inline Tensor embeddingLookup(const std::vector<int32_t>& lookups, const Tensor& values) {
  Tensor out{values.dims, {}};
  out.dims[0] = static_cast<uint32_t>(lookups.size());
  for (int32_t l : lookups) {
    if (l < 0 || static_cast<uint32_t>(l) >= values.dims[0])
      throw std::invalid_argument("embeddingLookup: range");
    const auto r = row(values, static_cast<size_t>(l));
    out.values.insert(out.values.end(), r.begin(), r.end());
  }
  return out;
}

// HASHTABLE_LOOKUP: output row i is the values' row of the key equal to lookups[i] and hit 1, or a row of
// stored zeros and hit 0 when no key equals it. Returns {output, hits}.
inline std::pair<Tensor, std::vector<double>> hashtableLookup(const std::vector<int32_t>& lookups,
                                                              const std::vector<int32_t>& keys,
                                                              const Tensor& values) {
  Tensor out{values.dims, {}};
  out.dims[0] = static_cast<uint32_t>(lookups.size());
  std::vector<double> hits;
  const size_t rowSize = values.values.size() / values.dims[0];
  for (int32_t l : lookups) {
    auto it = std::find(keys.begin(), keys.end(), l);
    if (it == keys.end()) {
      out.values.insert(out.values.end(), rowSize, 0.0);
      hits.push_back(0);
    } else {
      const auto r = row(values, static_cast<size_t>(it - keys.begin()));
      out.values.insert(out.values.end(), r.begin(), r.end());
      hits.push_back(1);
    }
  }
  return {out, hits};
}

}  // namespace nnrt::test::ref
