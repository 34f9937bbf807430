#include "plugins/cpu/kernels/tensor_moves.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "plugins/cpu/kernels/element_copy.hpp"
#include "plugins/cpu/kernels/parallel.hpp"

namespace nnrt::cpu {

using detail::copyElement;

namespace {

std::array<size_t, 4> strides4(const Shape& s) {
  return {size_t{s.dims[1]} * s.dims[2] * s.dims[3], size_t{s.dims[2]} * s.dims[3], s.dims[3], 1};
}

// Fills a 4-D output in row-major order: element o comes from input element source(o), or is the
// bytes at padValue when source returns a negative offset. `run` (a divisor of the innermost output
// dimension) consecutive innermost elements, starting at a multiple of it, come from consecutive
// input elements: each run is one copy (NHWC images move whole pixels' channels). Output rows are
// shared out over the threads.
template <class Source>
void gather4d(const void* in, const Shape& outShape, size_t elementSize, const void* padValue, void* out,
              const Source& source, uint32_t run = 1) {
  const auto* src = static_cast<const unsigned char*>(in);
  const auto* pad = static_cast<const unsigned char*>(padValue);
  auto* dst = static_cast<unsigned char*>(out);
  const std::array<uint32_t, 4> d{outShape.dims[0], outShape.dims[1], outShape.dims[2], outShape.dims[3]};
  run = std::max<uint32_t>(run, 1);
  const size_t rowBytes = size_t{d[2]} * d[3] * elementSize, runBytes = run * elementSize;
  detail::parallelFor(size_t{d[0]} * d[1], rowBytes, [&](size_t first, size_t last) {
    std::array<uint32_t, 4> o{};
    for (size_t row = first; row < last; ++row) {
      o[0] = static_cast<uint32_t>(row / d[1]);
      o[1] = static_cast<uint32_t>(row % d[1]);
      unsigned char* to = dst + row * rowBytes;
      for (o[2] = 0; o[2] < d[2]; ++o[2]) {
        for (o[3] = 0; o[3] < d[3]; o[3] += run) {
          const int64_t from = source(o);
          if (from < 0) {
            for (uint32_t k = 0; k < run; ++k) copyElement(to + k * elementSize, pad, elementSize);
          } else if (run == 1) {
            copyElement(to, src + static_cast<size_t>(from) * elementSize, elementSize);
          } else {
            std::memcpy(to, src + static_cast<size_t>(from) * elementSize, runBytes);
          }
          to += runBytes;
        }
      }
    }
  });
}

}  // namespace

namespace {
// DEPTH_TO_SPACE (`toSpace`) or SPACE_TO_DEPTH of NCHW 4-byte values with blocks of 2 to 4, as row moves
// (element by element they took 1.2 and 0.7 ms for 800K values): row y of channel c of image n of the
// spatial tensor ([N, C, H, W]) interleaves `block` rows of the depth tensor ([N, C * block^2, H / block,
// W / block]), one per x % block: channel ((y % block) * block + j) * C + c, row y / block. The spatial
// rows are shared out over the threads.
void shuffleRowsNchw(const uint32_t* from, uint32_t* to, const Shape& spatial, uint32_t block, bool toSpace) {
  const uint32_t channels = spatial.dims[1], height = spatial.dims[2], width = spatial.dims[3];
  const size_t depthRow = width / block, depthPlane = size_t{height / block} * depthRow;
  const size_t depthImage = depthPlane * channels * block * block;
  const size_t rows = size_t{spatial.dims[0]} * channels * height;
  detail::parallelFor(rows, width, [&](size_t first, size_t last) {
    for (size_t row = first; row < last; ++row) {
      const size_t n = row / (size_t{channels} * height), c = row / height % channels;
      const auto y = static_cast<uint32_t>(row % height);
      size_t at[4];  // the depth rows' offsets
      for (uint32_t j = 0; j < block; ++j) {
        const size_t channel = (size_t{y % block} * block + j) * channels + c;
        at[j] = n * depthImage + channel * depthPlane + (y / block) * depthRow;
      }
      if (toSpace) {
        const uint32_t* depthRows[4];
        for (uint32_t j = 0; j < block; ++j) depthRows[j] = from + at[j];
        interleaveColumns(depthRows, block, depthRow, to + row * width);
      } else {
        uint32_t* depthRows[4];
        for (uint32_t j = 0; j < block; ++j) depthRows[j] = to + at[j];
        deinterleaveColumns(from + row * width, block, depthRow, depthRows);
      }
    }
  });
}
}  // namespace

void depthToSpace(const void* in, const Shape& inShape, ImageAxes axes, uint32_t block, size_t elementSize,
                  void* out) {
  Shape outShape = inShape;
  outShape.dims[axes.h] *= block;
  outShape.dims[axes.w] *= block;
  outShape.dims[axes.c] /= block * block;
  const uint32_t channels = outShape.dims[axes.c];
  const auto s = strides4(inShape);
  if (axes.c == 1 && elementSize == 4 && block >= 2 && block <= 4) {
    shuffleRowsNchw(static_cast<const uint32_t*>(in), static_cast<uint32_t*>(out), outShape, block, true);
    return;
  }
  gather4d(in, outShape, elementSize, nullptr, out, [&](const std::array<uint32_t, 4>& o) {
    const uint32_t y = o[axes.h], x = o[axes.w];
    const uint32_t c = (y % block * block + x % block) * channels + o[axes.c];
    return static_cast<int64_t>(o[0] * s[0] + (y / block) * s[axes.h] + (x / block) * s[axes.w] +
                                c * s[axes.c]);
  }, axes.c == 3 ? channels : 1);
}

void spaceToDepth(const void* in, const Shape& inShape, ImageAxes axes, uint32_t block, size_t elementSize,
                  void* out) {
  Shape outShape = inShape;
  outShape.dims[axes.h] /= block;
  outShape.dims[axes.w] /= block;
  outShape.dims[axes.c] *= block * block;
  const uint32_t channels = inShape.dims[axes.c];
  const auto s = strides4(inShape);
  if (axes.c == 1 && elementSize == 4 && block >= 2 && block <= 4) {
    shuffleRowsNchw(static_cast<const uint32_t*>(in), static_cast<uint32_t*>(out), inShape, block, false);
    return;
  }
  gather4d(in, outShape, elementSize, nullptr, out, [&](const std::array<uint32_t, 4>& o) {
    const uint32_t offset = o[axes.c] / channels, c = o[axes.c] % channels;
    const uint32_t y = o[axes.h] * block + offset / block, x = o[axes.w] * block + offset % block;
    return static_cast<int64_t>(o[0] * s[0] + y * s[axes.h] + x * s[axes.w] + c * s[axes.c]);
  }, axes.c == 3 ? channels : 1);
}

void batchToSpace(const void* in, const Shape& inShape, ImageAxes axes, uint32_t blockH, uint32_t blockW,
                  size_t elementSize, void* out, const Shape& outShape) {
  const size_t batches = outShape.dims[0];
  const auto s = strides4(inShape);
  gather4d(in, outShape, elementSize, nullptr, out, [&](const std::array<uint32_t, 4>& o) {
    const uint32_t y = o[axes.h], x = o[axes.w];
    const size_t b = (size_t{y % blockH} * blockW + x % blockW) * batches + o[0];
    return static_cast<int64_t>(b * s[0] + (y / blockH) * s[axes.h] + (x / blockW) * s[axes.w] +
                                o[axes.c] * s[axes.c]);
  }, axes.c == 3 ? outShape.dims[3] : 1);
}

void spaceToBatch(const void* in, const Shape& inShape, ImageAxes axes, uint32_t blockH, uint32_t blockW,
                  uint32_t padTop, uint32_t padLeft, const void* padValue, size_t elementSize, void* out,
                  const Shape& outShape) {
  const uint32_t batches = inShape.dims[0];
  const int64_t height = inShape.dims[axes.h], width = inShape.dims[axes.w];
  const auto s = strides4(inShape);
  gather4d(in, outShape, elementSize, padValue, out, [&](const std::array<uint32_t, 4>& o) -> int64_t {
    const uint32_t offset = o[0] / batches, n = o[0] % batches;
    const int64_t y = int64_t{o[axes.h]} * blockH + offset / blockW - padTop;
    const int64_t x = int64_t{o[axes.w]} * blockW + offset % blockW - padLeft;
    if (y < 0 || y >= height || x < 0 || x >= width) return -1;
    return static_cast<int64_t>(n * s[0] + static_cast<size_t>(y) * s[axes.h] +
                                static_cast<size_t>(x) * s[axes.w] + o[axes.c] * s[axes.c]);
  }, axes.c == 3 ? outShape.dims[3] : 1);
}

void stridedSlice(const void* in, const Shape& inShape, std::span<const SliceAxis> axes, size_t elementSize,
                  void* out) {
  const size_t rank = inShape.rank();
  size_t total = 1;
  for (const SliceAxis& a : axes)
    total *= a.count;
  if (total == 0) return;
  std::vector<size_t> inStrides(rank, 1);
  for (size_t d = rank; d-- > 1;)
    inStrides[d - 1] = inStrides[d] * inShape.dims[d];
  // Odometer over the output coordinates; `offset` follows the input element they select.
  std::vector<uint32_t> k(rank, 0);
  int64_t offset = 0;
  for (size_t d = 0; d < rank; ++d)
    offset += axes[d].begin * static_cast<int64_t>(inStrides[d]);
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  // Moves the odometer on by one over axes [0, axisCount), the last turning fastest.
  auto advance = [&](size_t axisCount) {
    for (size_t d = axisCount; d-- > 0;) {
      const int64_t step = axes[d].stride * static_cast<int64_t>(inStrides[d]);
      if (++k[d] < axes[d].count) {
        offset += step;
        return;
      }
      offset -= step * (axes[d].count - 1);
      k[d] = 0;
    }
  };
  // With a step of 1 along the last axis, each of its runs is one copy (a SLICE of an NHWC image's
  // channels copies whole pixels' worth) and the odometer turns over the other axes only.
  const size_t last = rank - 1;
  if (rank > 0 && axes[last].stride == 1 && axes[last].count > 1) {
    const size_t runBytes = axes[last].count * elementSize;
    for (size_t i = 0; i < total; i += axes[last].count) {
      std::memcpy(dst, src + static_cast<size_t>(offset) * elementSize, runBytes);
      dst += runBytes;
      advance(last);
    }
    return;
  }
  for (size_t i = 0; i < total; ++i) {
    copyElement(dst, src + static_cast<size_t>(offset) * elementSize, elementSize);
    dst += elementSize;
    advance(rank);
  }
}

bool embeddingLookup(const int32_t* lookups, size_t lookupCount, const void* values, size_t rows,
                     size_t rowBytes, void* out) {
  const auto* src = static_cast<const unsigned char*>(values);
  auto* dst = static_cast<unsigned char*>(out);
  for (size_t i = 0; i < lookupCount; ++i) {
    const int32_t row = lookups[i];
    if (row < 0 || static_cast<size_t>(row) >= rows) return false;
    std::memcpy(dst + i * rowBytes, src + static_cast<size_t>(row) * rowBytes, rowBytes);
  }
  return true;
}

void hashtableLookup(const int32_t* lookups, size_t lookupCount, const int32_t* keys, size_t keyCount,
                     const void* values, size_t rowBytes, void* out, uint8_t* hits) {
  const auto* src = static_cast<const unsigned char*>(values);
  auto* dst = static_cast<unsigned char*>(out);
  for (size_t i = 0; i < lookupCount; ++i) {
    size_t lo = 0, hi = keyCount;  // binary search in [lo, hi)
    bool found = false;
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (keys[mid] == lookups[i]) {
        lo = mid;
        found = true;
        break;
      }
      if (keys[mid] < lookups[i]) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (found) {
      std::memcpy(dst + i * rowBytes, src + lo * rowBytes, rowBytes);
    } else {
      std::memset(dst + i * rowBytes, 0, rowBytes);
    }
    hits[i] = found ? 1 : 0;
  }
}

// Compiled for AVX-512 and AVX2 too: the compiler vectorizes the interleaving with permutes, where
// strided stores stay scalar.
__attribute__((target_clones("avx512f", "avx2", "default")))
void interleaveColumns(const uint32_t* const* columns, size_t count, size_t n, uint32_t* __restrict out) {
  const uint32_t* __restrict a = columns[0];
  const uint32_t* __restrict b = columns[1];
  switch (count) {
    case 2:
      for (size_t r = 0; r < n; ++r) {
        out[2 * r] = a[r];
        out[2 * r + 1] = b[r];
      }
      return;
    case 3: {
      const uint32_t* __restrict c = columns[2];
      for (size_t r = 0; r < n; ++r) {
        out[3 * r] = a[r];
        out[3 * r + 1] = b[r];
        out[3 * r + 2] = c[r];
      }
      return;
    }
    default: {
      const uint32_t* __restrict c = columns[2];
      const uint32_t* __restrict d = columns[3];
      for (size_t r = 0; r < n; ++r) {
        out[4 * r] = a[r];
        out[4 * r + 1] = b[r];
        out[4 * r + 2] = c[r];
        out[4 * r + 3] = d[r];
      }
    }
  }
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void deinterleaveColumns(const uint32_t* __restrict in, size_t count, size_t n, uint32_t* const* columns) {
  uint32_t* __restrict a = columns[0];
  uint32_t* __restrict b = columns[1];
  switch (count) {
    case 2:
      for (size_t r = 0; r < n; ++r) {
        a[r] = in[2 * r];
        b[r] = in[2 * r + 1];
      }
      return;
    case 3: {
      uint32_t* __restrict c = columns[2];
      for (size_t r = 0; r < n; ++r) {
        a[r] = in[3 * r];
        b[r] = in[3 * r + 1];
        c[r] = in[3 * r + 2];
      }
      return;
    }
    default: {
      uint32_t* __restrict c = columns[2];
      uint32_t* __restrict d = columns[3];
      for (size_t r = 0; r < n; ++r) {
        a[r] = in[4 * r];
        b[r] = in[4 * r + 1];
        c[r] = in[4 * r + 2];
        d[r] = in[4 * r + 3];
      }
    }
  }
}


}  // namespace nnrt::cpu
