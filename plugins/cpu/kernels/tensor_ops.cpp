#include "plugins/cpu/kernels/tensor_ops.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "plugins/cpu/kernels/element_copy.hpp"
#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/tensor_moves.hpp"

namespace nnrt::cpu {

using detail::copyElement;

namespace {

// The tensor seen as [outer, axis, inner] around one dimension.
struct AxisView {
  size_t outer = 1, axis = 1, inner = 1;
};
AxisView around(const Shape& shape, uint32_t axis) {
  AxisView v;
  for (size_t d = 0; d < shape.rank(); ++d) {
    if (d < axis) {
      v.outer *= shape.dims[d];
    } else if (d == axis) {
      v.axis = shape.dims[d];
    } else {
      v.inner *= shape.dims[d];
    }
  }
  return v;
}

// Per output dimension d, the input coordinate each output coordinate reads: maps[d][o]. The output's
// dimensions are the maps' sizes.
using IndexMaps = std::vector<std::vector<uint32_t>>;

// The identity maps of a shape (every dimension read in place).
IndexMaps identityMaps(const Shape& shape) {
  IndexMaps maps(shape.rank());
  for (size_t d = 0; d < shape.rank(); ++d) {
    maps[d].resize(shape.dims[d]);
    for (uint32_t i = 0; i < shape.dims[d]; ++i)
      maps[d][i] = i;
  }
  return maps;
}

// Fills the output in row-major order: output element (o[0], ..., o[r-1]) is input element
// (maps[0][o[0]], ..., maps[r-1][o[r-1]]). In parallel over output rows (all but the last dimension).
void gatherByMaps(const void* in, const Shape& inShape, const IndexMaps& maps, size_t elementSize,
                  void* out) {
  const size_t rank = inShape.rank();
  if (rank == 0) return;
  // The maps as element offsets into the input.
  std::vector<size_t> inStrides(rank, 1);
  for (size_t d = rank; d-- > 1;)
    inStrides[d - 1] = inStrides[d] * inShape.dims[d];
  std::vector<std::vector<size_t>> offsets(rank);
  size_t rows = 1;
  for (size_t d = 0; d < rank; ++d) {
    offsets[d].resize(maps[d].size());
    for (size_t o = 0; o < maps[d].size(); ++o)
      offsets[d][o] = maps[d][o] * inStrides[d];
    if (d + 1 < rank) rows *= maps[d].size();
  }
  const size_t rowLength = maps[rank - 1].size();
  if (rows == 0 || rowLength == 0) return;
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  const std::vector<size_t>& last = offsets[rank - 1];
  // The last axis's map as runs of consecutive input elements (an NHWC pad or shuffle keeps whole
  // channel rows): one memcpy per run where the runs are long, else element by element.
  struct Run {
    size_t to, from, length;
  };
  std::vector<Run> runs;
  for (size_t j = 0; j < rowLength;) {
    size_t k = j + 1;
    while (k < rowLength && last[k] == last[k - 1] + 1) ++k;
    runs.push_back({j * elementSize, last[j] * elementSize, (k - j) * elementSize});
    j = k;
  }
  const bool byRuns = runs.size() * 4 <= rowLength;
  detail::parallelFor(rows, rowLength, [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      size_t base = 0;
      size_t rest = row;
      for (size_t d = rank - 1; d-- > 0;) {
        const size_t extent = offsets[d].size();
        base += offsets[d][rest % extent];
        rest /= extent;
      }
      unsigned char* to = dst + row * rowLength * elementSize;
      const unsigned char* from = src + base * elementSize;
      if (byRuns) {
        for (const Run& r : runs) std::memcpy(to + r.to, from + r.from, r.length);
        continue;
      }
      for (size_t j = 0; j < rowLength; ++j) {
        copyElement(to + j * elementSize, from + last[j] * elementSize, elementSize);
      }
    }
  });
}

}  // namespace

void split(const void* in, const Shape& inShape, uint32_t axis, size_t elementSize,
           std::span<void* const> outputs) {
  if (outputs.empty()) return;
  const AxisView v = around(inShape, axis);
  const size_t part = v.axis / outputs.size();
  const size_t partBytes = part * v.inner * elementSize;
  const auto* src = static_cast<const unsigned char*>(in);
  for (size_t k = 0; k < outputs.size(); ++k) {
    auto* dst = static_cast<unsigned char*>(outputs[k]);
    for (size_t o = 0; o < v.outer; ++o) {
      if (partBytes == 0) break;
      std::memcpy(dst + o * partBytes, src + ((o * v.axis + k * part) * v.inner) * elementSize, partBytes);
    }
  }
}

void tile(const void* in, const Shape& inShape, std::span<const uint32_t> multiples, size_t elementSize,
          void* out) {
  const size_t rank = inShape.rank();
  if (rank == 0) return;
  // Each output row is its input row (the leading coordinates modulo the input's) copied whole,
  // multiples[last] times over, the rows shared out over the threads (64x56x56 tiled 2x2, one element
  // at a time before: 444 -> 51 us). A row is filled by doubling what it holds (a scalar broadcast to
  // 112 values: 7 copies, not 112), and a row whose input row is the previous one's is that row copied
  // (ONNX's Where of a scalar, broadcast to 64x112x112 by TILE: 661 -> 54 us).
  const size_t rowBytes = size_t{inShape.dims[rank - 1]} * elementSize;
  size_t rows = 1;
  for (size_t d = 0; d + 1 < rank; ++d) rows *= size_t{inShape.dims[d]} * multiples[d];
  if (rows == 0 || rowBytes == 0 || multiples[rank - 1] == 0) return;
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  const size_t outRowBytes = rowBytes * multiples[rank - 1];
  detail::parallelFor(rows, outRowBytes / 4 + 1, [&](size_t begin, size_t end) {
    size_t previous = SIZE_MAX;
    for (size_t row = begin; row < end; ++row) {
      size_t inRow = 0, stride = 1, rest = row;
      for (size_t d = rank - 1; d-- > 0;) {
        const size_t extent = inShape.dims[d], outExtent = extent * multiples[d];
        inRow += (rest % extent) * stride;
        stride *= extent;
        rest /= outExtent;
      }
      unsigned char* to = dst + row * outRowBytes;
      if (inRow == previous) {
        std::memcpy(to, to - outRowBytes, outRowBytes);
        continue;
      }
      std::memcpy(to, src + inRow * rowBytes, rowBytes);
      for (size_t filled = rowBytes; filled < outRowBytes;) {
        const size_t n = std::min(filled, outRowBytes - filled);
        std::memcpy(to + filled, to, n);
        filled += n;
      }
      previous = inRow;
    }
  });
}

bool gather(const void* in, const Shape& inShape, uint32_t axis, const int32_t* indices, size_t indexCount,
            size_t elementSize, void* out) {
  const AxisView v = around(inShape, axis);
  for (size_t i = 0; i < indexCount; ++i) {
    if (indices[i] < 0 || static_cast<size_t>(indices[i]) >= v.axis) return false;
  }
  const size_t sliceBytes = v.inner * elementSize;
  if (sliceBytes == 0) return true;
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  for (size_t o = 0; o < v.outer; ++o) {
    for (size_t i = 0; i < indexCount; ++i) {
      std::memcpy(dst + (o * indexCount + i) * sliceBytes,
                  src + (o * v.axis + static_cast<size_t>(indices[i])) * sliceBytes, sliceBytes);
    }
  }
  return true;
}

void channelShuffle(const void* in, const Shape& shape, uint32_t axis, uint32_t groups, size_t elementSize,
                    void* out) {
  const uint32_t channels = shape.rank() > 0 ? shape.dims[axis] : 0;
  if (axis + 1 == shape.rank() && elementSize == 4 && groups > 0 && channels > 0) {
    // Along the last axis (NHWC images), pixel by pixel: output channel k * groups + g is input
    // channel g * perGroup + k.
    const size_t perGroup = channels / groups, pixels = shape.elements() / channels;
    const auto* from = static_cast<const uint32_t*>(in);
    auto* to = static_cast<uint32_t*>(out);
    detail::parallelFor(pixels, channels, [&](size_t begin, size_t end) {
      for (size_t p = begin; p < end; ++p) {
        const uint32_t* x = from + p * channels;
        uint32_t* y = to + p * channels;
        if (groups >= 2 && groups <= 4) {  // the groups interleaved (ShuffleNet: two halves)
          const uint32_t* columns[4];
          for (size_t g = 0; g < groups; ++g) columns[g] = x + g * perGroup;
          interleaveColumns(columns, groups, perGroup, y);
          continue;
        }
        for (size_t g = 0; g < groups; ++g)
          for (size_t k = 0; k < perGroup; ++k) y[k * groups + g] = x[g * perGroup + k];
      }
    });
    return;
  }
  IndexMaps maps = identityMaps(shape);
  const uint32_t perGroup = shape.dims[axis] / groups;
  for (uint32_t o = 0; o < shape.dims[axis]; ++o)
    maps[axis][o] = (o % groups) * perGroup + o / groups;
  gatherByMaps(in, shape, maps, elementSize, out);
}

void mirrorPad(const void* in, const Shape& inShape, std::span<const uint32_t> paddings, MirrorMode mode,
               size_t elementSize, void* out) {
  IndexMaps maps(inShape.rank());
  const int64_t edge = mode == MirrorMode::Reflect ? 1 : 0;  // REFLECT skips the edge element
  for (size_t d = 0; d < inShape.rank(); ++d) {
    const int64_t extent = inShape.dims[d];
    const int64_t before = paddings[2 * d];
    maps[d].resize(static_cast<size_t>(before + extent + paddings[2 * d + 1]));
    for (size_t o = 0; o < maps[d].size(); ++o) {
      int64_t p = static_cast<int64_t>(o) - before;
      if (p < 0) {
        p = -p - 1 + edge;
      } else if (p >= extent) {
        p = 2 * extent - 1 - p - edge;
      }
      maps[d][o] = static_cast<uint32_t>(p);
    }
  }
  gatherByMaps(in, inShape, maps, elementSize, out);
}

void reverse(const void* in, const Shape& shape, uint32_t axis, size_t elementSize, void* out) {
  IndexMaps maps = identityMaps(shape);
  const uint32_t extent = shape.dims[axis];
  for (uint32_t o = 0; o < extent; ++o)
    maps[axis][o] = extent - 1 - o;
  gatherByMaps(in, shape, maps, elementSize, out);
}

}  // namespace nnrt::cpu
