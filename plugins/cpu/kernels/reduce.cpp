#include "plugins/cpu/kernels/reduce.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/row_reduce.hpp"

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
  if (k == 0) return;
  constexpr uint32_t kFew = 16;
  if (k <= kFew) {
    // Few: one pass over the row keeping the k largest in order, an element that does not beat the k-th
    // passed over after one comparison (512 rows of 1000, k = 5: 290 -> 180 us). Equal values keep the
    // lower index first, as below: a later equal value goes after them, or is not taken.
    detail::parallelFor(rows, rowLength, [&](size_t begin, size_t end) {
      T best[kFew];
      int32_t at[kFew];
      for (size_t r = begin; r < end; ++r) {
        const T* row = in + r * rowLength;
        size_t count = 0;
        for (size_t i = 0; i < rowLength; ++i) {
          const T v = row[i];
          if (count == k) {
            if (!(v > best[k - 1])) continue;
            count = k - 1;  // the k-th drops out
          }
          size_t j = count;
          for (; j > 0 && v > best[j - 1]; --j) {
            best[j] = best[j - 1];
            at[j] = at[j - 1];
          }
          best[j] = v;
          at[j] = static_cast<int32_t>(i);
          ++count;
        }
        std::copy(best, best + k, values + r * k);
        std::copy(at, at + k, indices + r * k);
      }
    });
    return;
  }
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

// One row's largest (smallest) value from `init` (detail::rowExtremum), compiled for AVX-512 and AVX2 too.
__attribute__((target_clones("avx512f", "avx2", "default")))
float rowExtremum(const float* x, size_t n, bool larger, float init) {
  return larger ? detail::rowExtremum<true>(x, n, init) : detail::rowExtremum<false>(x, n, init);
}

// One row's sum in double (detail::rowSum), compiled for AVX-512 and AVX2 too.
__attribute__((target_clones("avx512f", "avx2", "default")))
double rowSum(const float* x, size_t n) {
  return detail::rowSum(x, n);
}

template <typename T>
void argExtremum(const T* in, const Shape& inShape, uint32_t axis, bool largest, int32_t* out) {
  size_t outer = 1, inner = 1;
  for (uint32_t d = 0; d < axis; ++d) outer *= inShape.dims[d];
  for (uint32_t d = axis + 1; d < inShape.rank(); ++d) inner *= inShape.dims[d];
  const size_t n = inShape.dims[axis];
  if (n == 0) return;  // nothing to index (the model's validation refuses an empty axis)
  // Each line along the axis on its own, the lines shared out over the threads.
  detail::parallelFor(outer * inner, n, [&](size_t begin, size_t end) {
    for (size_t line = begin; line < end; ++line) {
      const size_t o = line / inner, i = line % inner;
      const T* x = in + o * n * inner + i;
      if constexpr (std::is_same_v<T, float>) {
        // A float row: its extremum by the vectorized loop, then the first index holding it. A NaN first
        // value keeps index 0, as the comparisons below would; later NaNs are passed over by both.
        if (inner == 1 && !std::isnan(x[0])) {
          const float init = largest ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
          const float extremum = rowExtremum(x, n, largest, init);
          out[line] = static_cast<int32_t>(std::find(x, x + n, extremum) - x);
          continue;
        }
      }
      size_t best = 0;
      T bestValue = x[0];
      for (size_t k = 1; k < n; ++k) {
        const T v = x[k * inner];
        if (largest ? v > bestValue : v < bestValue) {  // ties keep the first index
          best = k;
          bestValue = v;
        }
      }
      out[line] = static_cast<int32_t>(best);
    }
  });
}

}  // namespace

namespace {

// The reduction as outer x reduced x inner, when `axes` are one run of consecutive dimensions, axes of
// one aside (what the models reduce: the last axes, an image's spatial ones, one axis) and something is
// reduced; false otherwise (the general loop of reduceOver then runs).
struct Block {
  size_t outer = 1, reduced = 1, inner = 1;
};
bool blockOf(const Shape& shape, std::span<const uint32_t> axes, Block& b) {
  if (axes.empty()) return false;
  std::vector<bool> marked(shape.rank(), false);
  for (uint32_t a : axes) {
    if (a >= shape.rank()) return false;
    marked[a] = true;
  }
  // Axes of one count as either (reducing one changes nothing: N of an NCHW image's axes 0, 2, 3).
  size_t first = shape.rank(), last = 0;
  for (size_t d = 0; d < shape.rank(); ++d) {
    if (marked[d] && shape.dims[d] != 1) {
      first = std::min(first, d);
      last = d;
    }
  }
  if (first == shape.rank()) return false;  // only axes of one: the general loop copies
  for (size_t d = first; d <= last; ++d)
    if (!marked[d] && shape.dims[d] != 1) return false;
  b = Block{};
  for (size_t d = 0; d < shape.rank(); ++d) (d < first ? b.outer : d <= last ? b.reduced : b.inner) *= shape.dims[d];
  return b.reduced > 0;
}

// Columns: acc[i] (+)= x[r * stride + i] for r < reduced, i < width; the loop over i vectorizes.
// Compiled for AVX-512 and AVX2 as well as the baseline (the same bits on each).
__attribute__((target_clones("avx512f", "avx2", "default")))
void columnSums(const float* x, size_t reduced, size_t stride, size_t width, double* acc) {
  for (size_t r = 0; r < reduced; ++r, x += stride)
    for (size_t i = 0; i < width; ++i) acc[i] += static_cast<double>(x[i]);
}
__attribute__((target_clones("avx512f", "avx2", "default")))
void columnExtrema(const float* x, size_t reduced, size_t stride, size_t width, bool larger, float* acc) {
  for (size_t r = 0; r < reduced; ++r, x += stride) {
    if (larger) {
      for (size_t i = 0; i < width; ++i) acc[i] = std::max(acc[i], x[i]);
    } else {
      for (size_t i = 0; i < width; ++i) acc[i] = std::min(acc[i], x[i]);
    }
  }
}
// Over a Block, in parallel: rows (inner 1) by `row(x, reduced) -> Acc`, others by columns of up to 64
// kept elements at a time, `columns(x, reduced, stride, width, acc)` from `init`; out[o * inner + i] =
// finish(acc). With fewer than 8 such column blocks (a spatial mean of a narrow NHWC tensor) the reduced
// rows are cut into up to 8 segments as well, each from `init`, then joined in order by `combine`: how
// many depends on the shape alone, so the result does not depend on the number of threads.
template <typename Acc, typename Row, typename Columns, typename Combine, typename Finish>
void reduceBlock(const float* in, const Block& b, Acc init, const Row& row, const Columns& columns,
                 const Combine& combine, const Finish& finish, float* out) {
  if (b.inner == 1) {
    detail::parallelFor(b.outer, b.reduced, [&](size_t begin, size_t end) {
      for (size_t o = begin; o < end; ++o) out[o] = finish(row(in + o * b.reduced, b.reduced));
    });
    return;
  }
  constexpr size_t kWidth = 64, kSegments = 8, kSegmentRows = 256;
  const size_t chunks = (b.inner + kWidth - 1) / kWidth, tasks = b.outer * chunks;
  const size_t segments = tasks >= kSegments ? 1 : std::min(kSegments, b.reduced / kSegmentRows);
  if (segments > 1) {
    const size_t per = (b.reduced + segments - 1) / segments;
    std::array<Acc, kSegments * kSegments * kWidth> partial;  // tasks * segments * kWidth at most
    detail::parallelFor(tasks * segments, per * kWidth, [&](size_t begin, size_t end) {
      for (size_t t = begin; t < end; ++t) {
        const size_t task = t / segments, r0 = t % segments * per, r1 = std::min(b.reduced, r0 + per);
        const size_t o = task / chunks, i0 = task % chunks * kWidth, width = std::min(kWidth, b.inner - i0);
        Acc* acc = partial.data() + t * kWidth;
        std::fill(acc, acc + width, init);
        if (r1 > r0) columns(in + (o * b.reduced + r0) * b.inner + i0, r1 - r0, b.inner, width, acc);
      }
    });
    for (size_t task = 0; task < tasks; ++task) {
      const size_t o = task / chunks, i0 = task % chunks * kWidth, width = std::min(kWidth, b.inner - i0);
      const Acc* first = partial.data() + task * segments * kWidth;
      for (size_t i = 0; i < width; ++i) {
        Acc acc = first[i];
        for (size_t k = 1; k < segments; ++k) acc = combine(acc, first[k * kWidth + i]);
        out[o * b.inner + i0 + i] = finish(acc);
      }
    }
    return;
  }
  detail::parallelFor(tasks, b.reduced * kWidth, [&](size_t begin, size_t end) {
    Acc acc[kWidth];
    for (size_t task = begin; task < end; ++task) {
      const size_t o = task / chunks, i0 = task % chunks * kWidth, width = std::min(kWidth, b.inner - i0);
      std::fill(acc, acc + width, init);
      columns(in + o * b.reduced * b.inner + i0, b.reduced, b.inner, width, acc);
      for (size_t i = 0; i < width; ++i) out[o * b.inner + i0 + i] = finish(acc[i]);
    }
  });
}

// Float sums over a Block in double (rows: rowSum, 32 partial sums), each output finish(sum).
template <typename Finish>
void sumBlock(const float* in, const Block& b, const Finish& finish, float* out) {
  reduceBlock<double>(
      in, b, 0.0, [](const float* x, size_t n) { return rowSum(x, n); },
      [](const float* x, size_t reduced, size_t stride, size_t width, double* acc) {
        columnSums(x, reduced, stride, width, acc);
      },
      [](double a, double b) { return a + b; }, finish, out);
}

void extremumBlock(const float* in, const Block& b, bool larger, float* out) {
  const float init = larger ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
  reduceBlock<float>(
      in, b, init, [&](const float* x, size_t n) { return rowExtremum(x, n, larger, init); },
      [&](const float* x, size_t reduced, size_t stride, size_t width, float* acc) {
        columnExtrema(x, reduced, stride, width, larger, acc);
      },
      [larger](float a, float b) { return larger ? std::max(a, b) : std::min(a, b); }, [](float v) { return v; }, out);
}

}  // namespace

void mean(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out) {
  if (Block b; blockOf(inShape, axes, b)) {
    const auto count = static_cast<double>(b.reduced);
    sumBlock(in, b, [count](double sum) { return static_cast<float>(sum / count); }, out);
    return;
  }
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
  if (Block b; blockOf(inShape, axes, b)) return sumBlock(in, b, [](double sum) { return static_cast<float>(sum); }, out);
  reduceInto<float, double>(in, inShape, axes, 0.0, [](double a, float x) { return a + x; }, out);
}
void reduceProd(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out) {
  reduceInto<float, double>(in, inShape, axes, 1.0, [](double a, float x) { return a * x; }, out);
}
void reduceMax(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out) {
  if (Block b; blockOf(inShape, axes, b)) return extremumBlock(in, b, true, out);
  reduceInto<float, float>(in, inShape, axes, -std::numeric_limits<float>::infinity(),
                           [](float a, float x) { return std::max(a, x); }, out);
}
void reduceMin(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out) {
  if (Block b; blockOf(inShape, axes, b)) return extremumBlock(in, b, false, out);
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
