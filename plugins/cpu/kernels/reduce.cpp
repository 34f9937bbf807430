#include "plugins/cpu/kernels/reduce.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/row_mean.hpp"

namespace nnrt::cpu {

namespace {

// combine(acc, x) of `in` over `axes`, one accumulator per output element (row-major over the kept
// dimensions), each starting at `init`; *reducedCount is the number of input elements in each.
template <typename T, typename Acc, typename Combine>
std::vector<Acc> reduceOver(const T* in, const Shape& inShape, std::span<const uint32_t> axes, Acc init,
                            const Combine& combine, size_t* reducedCount) {
  // Input as 4-D (leading 1s); a reduced dimension has output stride 0, so each input element
  // combines into the output element it belongs to.
  const size_t lead = 4 - inShape.rank();
  std::array<size_t, 4> dims{1, 1, 1, 1};
  std::array<bool, 4> reduced{false, false, false, false};
  for (size_t i = 0; i < inShape.rank(); ++i)
    dims[lead + i] = inShape.dims[i];
  for (uint32_t axis : axes)
    reduced[lead + axis] = true;

  std::array<size_t, 4> outStride{};
  size_t outCount = 1;
  *reducedCount = 1;
  for (size_t i = 4; i-- > 0;) {
    outStride[i] = reduced[i] ? 0 : outCount;
    (reduced[i] ? *reducedCount : outCount) *= dims[i];
  }
  std::vector<Acc> accs(outCount, init);
  if (outCount == 0) return accs;

  // Slices along dimension 0 write disjoint outputs unless dimension 0 is reduced.
  const size_t slices = reduced[0] ? 1 : dims[0];
  const size_t sliceSize = dims[1] * dims[2] * dims[3];
  detail::parallelFor(slices, reduced[0] ? dims[0] * sliceSize : sliceSize, [&](size_t begin, size_t end) {
    for (size_t s = begin; s < end; ++s) {
      const size_t first0 = reduced[0] ? 0 : s;
      const size_t last0 = reduced[0] ? dims[0] : s + 1;
      for (size_t i0 = first0; i0 < last0; ++i0) {
        const T* x = in + i0 * sliceSize;
        for (size_t i1 = 0; i1 < dims[1]; ++i1) {
          for (size_t i2 = 0; i2 < dims[2]; ++i2) {
            Acc* row = accs.data() + i0 * outStride[0] + i1 * outStride[1] + i2 * outStride[2];
            if (reduced[3]) {
              Acc acc = *row;
              for (size_t i3 = 0; i3 < dims[3]; ++i3)
                acc = combine(acc, x[i3]);
              *row = acc;
            } else {
              for (size_t i3 = 0; i3 < dims[3]; ++i3)
                row[i3] = combine(row[i3], x[i3]);
            }
            x += dims[3];
          }
        }
      }
    }
  });
  return accs;
}

template <typename T, typename Acc>
std::vector<Acc> sumOver(const T* in, const Shape& inShape, std::span<const uint32_t> axes, size_t* reducedCount) {
  return reduceOver<T, Acc>(in, inShape, axes, Acc{0}, [](Acc a, T x) { return a + static_cast<Acc>(x); },
                            reducedCount);
}

template <typename T, typename Acc, typename Combine>
void reduceInto(const T* in, const Shape& inShape, std::span<const uint32_t> axes, Acc init, const Combine& combine,
                T* out) {
  size_t reducedCount = 0;
  const std::vector<Acc> accs = reduceOver<T, Acc>(in, inShape, axes, init, combine, &reducedCount);
  for (size_t i = 0; i < accs.size(); ++i) out[i] = static_cast<T>(accs[i]);
}

template <typename T>
void topKRows(const T* in, size_t rows, size_t rowLength, uint32_t k, T* values, int32_t* indices) {
  detail::parallelFor(rows, rowLength * 4, [&](size_t begin, size_t end) {
    std::vector<int32_t> order(rowLength);
    for (size_t r = begin; r < end; ++r) {
      const T* row = in + r * rowLength;
      for (size_t i = 0; i < rowLength; ++i) order[i] = static_cast<int32_t>(i);
      // Stable: equal values keep the lower index first.
      std::partial_sort(order.begin(), order.begin() + k, order.end(), [row](int32_t a, int32_t b) {
        return row[a] > row[b] || (row[a] == row[b] && a < b);
      });
      for (uint32_t j = 0; j < k; ++j) {
        values[r * k + j] = row[order[j]];
        indices[r * k + j] = order[j];
      }
    }
  });
}

template <typename T>
void argExtremum(const T* in, const Shape& inShape, uint32_t axis, bool largest, int32_t* out) {
  size_t outer = 1, inner = 1;
  for (uint32_t d = 0; d < axis; ++d) outer *= inShape.dims[d];
  for (uint32_t d = axis + 1; d < inShape.rank(); ++d) inner *= inShape.dims[d];
  const size_t n = inShape.dims[axis];
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < inner; ++i) {
      const T* x = in + o * n * inner + i;
      size_t best = 0;
      for (size_t k = 1; k < n; ++k) {
        const T v = x[k * inner], b = x[best * inner];
        if (largest ? v > b : v < b) best = k;  // ties keep the first index
      }
      out[o * inner + i] = static_cast<int32_t>(best);
    }
  }
}

}  // namespace

namespace {

// MEAN over the last axis alone, as a layer normalization's: rows in parallel, each by
// detail::rowMean. False when the axes are any others.
bool lastAxisMean(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out) {
  if (inShape.rank() == 0 || axes.empty() ||
      std::any_of(axes.begin(), axes.end(), [&](uint32_t a) { return a != inShape.rank() - 1; }))
    return false;
  const size_t length = inShape.dims.back();
  const size_t rows = length == 0 ? 0 : inShape.elements() / length;
  detail::parallelFor(rows, length, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) out[r] = detail::rowMean(in + r * length, length);
  });
  return true;
}

}  // namespace

void mean(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out) {
  if (lastAxisMean(in, inShape, axes, out)) return;
  size_t reducedCount = 0;
  const std::vector<double> sums = sumOver<float, double>(in, inShape, axes, &reducedCount);
  const double divisor = static_cast<double>(reducedCount);
  for (size_t i = 0; i < sums.size(); ++i)
    out[i] = static_cast<float>(sums[i] / divisor);
}

void mean(const uint8_t* in, const Shape& inShape, Quant inQuant, std::span<const uint32_t> axes, uint8_t* out,
          Quant outQuant) {
  size_t reducedCount = 0;
  const std::vector<int64_t> sums = sumOver<uint8_t, int64_t>(in, inShape, axes, &reducedCount);
  if (sums.empty()) return;
  // mean_real = (sum - count * inZero) * inScale / count; q = round(mean_real / outScale) + outZero. The
  // centred sum is an exact integer; the one rounding before std::round is that of the double ratio.
  const auto count = static_cast<int64_t>(reducedCount);
  const double ratio =
      static_cast<double>(inQuant.scale) / (static_cast<double>(outQuant.scale) * static_cast<double>(count));
  for (size_t i = 0; i < sums.size(); ++i) {
    const int64_t centred = sums[i] - count * inQuant.zeroPoint;
    const double q = std::round(static_cast<double>(centred) * ratio) + outQuant.zeroPoint;
    out[i] = static_cast<uint8_t>(std::fmin(255.0, std::fmax(0.0, q)));
  }
}

void reduceSum(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out) {
  reduceInto<float, double>(in, inShape, axes, 0.0, [](double a, float x) { return a + x; }, out);
}
void reduceProd(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out) {
  reduceInto<float, double>(in, inShape, axes, 1.0, [](double a, float x) { return a * x; }, out);
}
void reduceMax(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out) {
  reduceInto<float, float>(in, inShape, axes, -std::numeric_limits<float>::infinity(),
                           [](float a, float x) { return std::max(a, x); }, out);
}
void reduceMin(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out) {
  reduceInto<float, float>(in, inShape, axes, std::numeric_limits<float>::infinity(),
                           [](float a, float x) { return std::min(a, x); }, out);
}
void reduceMax(const uint8_t* in, const Shape& inShape, std::span<const uint32_t> axes, uint8_t* out) {
  reduceInto<uint8_t, uint8_t>(in, inShape, axes, 0, [](uint8_t a, uint8_t x) { return std::max(a, x); }, out);
}
void reduceMin(const uint8_t* in, const Shape& inShape, std::span<const uint32_t> axes, uint8_t* out) {
  reduceInto<uint8_t, uint8_t>(in, inShape, axes, 255, [](uint8_t a, uint8_t x) { return std::min(a, x); }, out);
}
void reduceAll(const uint8_t* in, const Shape& inShape, std::span<const uint32_t> axes, uint8_t* out) {
  reduceInto<uint8_t, uint8_t>(in, inShape, axes, 1, [](uint8_t a, uint8_t x) -> uint8_t { return a != 0 && x != 0; },
                               out);
}
void reduceAny(const uint8_t* in, const Shape& inShape, std::span<const uint32_t> axes, uint8_t* out) {
  reduceInto<uint8_t, uint8_t>(in, inShape, axes, 0, [](uint8_t a, uint8_t x) -> uint8_t { return a != 0 || x != 0; },
                               out);
}

void argMax(const float* in, const Shape& inShape, uint32_t axis, int32_t* out) { argExtremum(in, inShape, axis, true, out); }
void argMin(const float* in, const Shape& inShape, uint32_t axis, int32_t* out) { argExtremum(in, inShape, axis, false, out); }
void argMax(const int32_t* in, const Shape& inShape, uint32_t axis, int32_t* out) { argExtremum(in, inShape, axis, true, out); }
void argMin(const int32_t* in, const Shape& inShape, uint32_t axis, int32_t* out) { argExtremum(in, inShape, axis, false, out); }
void argMax(const uint8_t* in, const Shape& inShape, uint32_t axis, int32_t* out) { argExtremum(in, inShape, axis, true, out); }
void argMin(const uint8_t* in, const Shape& inShape, uint32_t axis, int32_t* out) { argExtremum(in, inShape, axis, false, out); }

void topK(const float* in, size_t rows, size_t rowLength, uint32_t k, float* values, int32_t* indices) {
  topKRows(in, rows, rowLength, k, values, indices);
}
void topK(const int32_t* in, size_t rows, size_t rowLength, uint32_t k, int32_t* values, int32_t* indices) {
  topKRows(in, rows, rowLength, k, values, indices);
}
void topK(const uint8_t* in, size_t rows, size_t rowLength, uint32_t k, uint8_t* values, int32_t* indices) {
  topKRows(in, rows, rowLength, k, values, indices);
}

}  // namespace nnrt::cpu
