#include "plugins/cpu/kernels/tensor_shape.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "plugins/cpu/kernels/element_copy.hpp"
#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/quantization.hpp"
#include "plugins/cpu/kernels/tensor_moves.hpp"

namespace nnrt::cpu {
namespace {

// dims of `shape` as 4-D, padded with leading 1s.
std::array<size_t, 4> dims4(const Shape& shape) {
  std::array<size_t, 4> dims{1, 1, 1, 1};
  std::copy(shape.dims.begin(), shape.dims.end(), dims.begin() + (4 - shape.rank()));
  return dims;
}

// The concatenation seen as [outer, piece of input 0, piece of input 1, ...]: calls
// copy(input, dst, src, elements) for every (outer, input) piece, in parallel over `outer`.
template <typename Copy>
void concatPieces(std::span<const Shape> inShapes, uint32_t axis, const Copy& copy) {
  size_t outer = 1;
  for (uint32_t i = 0; i < axis; ++i)
    outer *= inShapes[0].dims[i];
  std::vector<size_t> pieces(inShapes.size());  // elements of input i per outer index
  size_t outPiece = 0;
  for (size_t k = 0; k < inShapes.size(); ++k) {
    pieces[k] = 1;
    for (size_t i = axis; i < inShapes[k].rank(); ++i)
      pieces[k] *= inShapes[k].dims[i];
    outPiece += pieces[k];
  }
  detail::parallelFor(outer, outPiece, [&](size_t begin, size_t end) {
    for (size_t o = begin; o < end; ++o) {
      size_t dst = o * outPiece;
      for (size_t k = 0; k < pieces.size(); ++k) {
        copy(k, dst, o * pieces[k], pieces[k]);
        dst += pieces[k];
      }
    }
  });
}

template <typename T>
void transposeTyped(const T* in, const Shape& inShape, std::span<const uint32_t> perm, T* out) {
  const size_t lead = 4 - inShape.rank();
  const std::array<size_t, 4> inDims = dims4(inShape);
  std::array<size_t, 4> inStrides{};
  size_t stride = 1;
  for (size_t i = 4; i-- > 0;) {
    inStrides[i] = stride;
    stride *= inDims[i];
  }
  // For each output dimension: its size and the input stride it walks. Dimensions of size 1 are
  // dropped and neighbours the input also stores nested are merged (NCHW to NHWC is then a 2-D
  // transpose of [C, H·W]; moving only dimensions of size 1 is a copy), padded back to 4 at the front.
  std::array<size_t, 4> sizes{}, strides{};
  size_t kept = 0;
  for (size_t i = 0; i < 4; ++i) {
    const size_t source = i < lead ? i : lead + perm[i - lead];
    if (inDims[source] == 1) continue;
    if (kept > 0 && strides[kept - 1] == inStrides[source] * inDims[source]) {
      sizes[kept - 1] *= inDims[source];
      strides[kept - 1] = inStrides[source];
      continue;
    }
    sizes[kept] = inDims[source];
    strides[kept] = inStrides[source];
    ++kept;
  }
  std::array<size_t, 4> outDims{1, 1, 1, 1}, walk{0, 0, 0, 1};
  for (size_t k = 0; k < kept; ++k) {
    outDims[4 - kept + k] = sizes[k];
    walk[4 - kept + k] = strides[k];
  }
  if (kept <= 1) {  // the elements keep their order
    detail::parallelFor(outDims[3], 1, [&](size_t begin, size_t end) { std::copy(in + begin, in + end, out + begin); });
    return;
  }
  // Output rows (one index of the first three output dimensions each) that share i0 and i1 are a run
  // whose input rows lie walk[2] apart. A short row that the input stores transposed (NCHW to NHWC
  // with 3 channels: rows of 3 elements, each a whole plane apart) is copied column by column over
  // the run, so that the input is read in order and the run's output stays in the cache meanwhile.
  const size_t rows = outDims[0] * outDims[1] * outDims[2];
  const bool columnwise = outDims[3] < 16 && walk[3] != 1 && walk[2] == 1;
  detail::parallelFor(rows, outDims[3], [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end;) {
      const size_t i2 = row % outDims[2];
      const size_t i1 = (row / outDims[2]) % outDims[1];
      const size_t i0 = row / (outDims[2] * outDims[1]);
      // A column-by-column run stays short enough for its output to stay in L1 meanwhile.
      const size_t run = std::min({end - row, outDims[2] - i2, columnwise ? size_t{256} : outDims[2]});
      const T* src = in + i0 * walk[0] + i1 * walk[1] + i2 * walk[2];
      T* dst = out + row * outDims[3];
      if (columnwise && sizeof(T) == 4 && outDims[3] >= 2 && outDims[3] <= 4) {
        const uint32_t* columns[4];
        for (size_t i3 = 0; i3 < outDims[3]; ++i3) columns[i3] = reinterpret_cast<const uint32_t*>(src + i3 * walk[3]);
        interleaveColumns(columns, outDims[3], run, reinterpret_cast<uint32_t*>(dst));
      } else if (columnwise) {
        for (size_t i3 = 0; i3 < outDims[3]; ++i3) {
          const T* column = src + i3 * walk[3];
          for (size_t r = 0; r < run; ++r)
            dst[r * outDims[3] + i3] = column[r];
        }
      } else {
        for (size_t r = 0; r < run; ++r) {
          const T* from = src + r * walk[2];
          T* to = dst + r * outDims[3];
          for (size_t i3 = 0; i3 < outDims[3]; ++i3)
            to[i3] = from[i3 * walk[3]];
        }
      }
      row += run;
    }
  });
}

}  // namespace

void copyBytes(const void* in, size_t bytes, void* out) {
  if (in != out && bytes > 0) std::memcpy(out, in, bytes);
}

void concatenation(std::span<const void* const> inputs, std::span<const Shape> inShapes, uint32_t axis,
                   size_t elementSize, void* out) {
  auto* outBytes = static_cast<uint8_t*>(out);
  concatPieces(inShapes, axis, [&](size_t k, size_t dst, size_t src, size_t count) {
    detail::copyRun(outBytes + dst * elementSize, static_cast<const uint8_t*>(inputs[k]) + src * elementSize,
                    count * elementSize);
  });
}

void concatenation(std::span<const uint8_t* const> inputs, std::span<const Shape> inShapes,
                   std::span<const Quant> inQuants, uint32_t axis, uint8_t* out, Quant outQuant) {
  // One table per input that needs requantizing; empty for inputs already in the output's encoding.
  std::vector<std::vector<uint8_t>> tables(inputs.size());
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inQuants[k].scale != outQuant.scale || inQuants[k].zeroPoint != outQuant.zeroPoint) {
      const auto table = requantizeTable(inQuants[k], outQuant);
      tables[k].assign(table.begin(), table.end());
    }
  }
  concatPieces(inShapes, axis, [&](size_t k, size_t dst, size_t src, size_t count) {
    const uint8_t* from = inputs[k] + src;
    if (tables[k].empty()) {
      detail::copyRun(out + dst, from, count);
    } else {
      const uint8_t* table = tables[k].data();
      for (size_t i = 0; i < count; ++i)
        out[dst + i] = table[from[i]];
    }
  });
}

void transpose(const void* in, const Shape& inShape, std::span<const uint32_t> perm, size_t elementSize,
               void* out) {
  switch (elementSize) {
    case 1:
      return transposeTyped(static_cast<const uint8_t*>(in), inShape, perm, static_cast<uint8_t*>(out));
    case 2:
      return transposeTyped(static_cast<const uint16_t*>(in), inShape, perm, static_cast<uint16_t*>(out));
    case 4:
      return transposeTyped(static_cast<const uint32_t*>(in), inShape, perm, static_cast<uint32_t*>(out));
    case 8:
      return transposeTyped(static_cast<const uint64_t*>(in), inShape, perm, static_cast<uint64_t*>(out));
    default:
      break;  // no NNAPI tensor type has another element size
  }
}

template <typename T>
void pad(const T* in, const Shape& inShape, std::span<const uint32_t> paddings, T padValue, T* out) {
  const size_t lead = 4 - inShape.rank();
  const std::array<size_t, 4> inDims = dims4(inShape);
  std::array<size_t, 4> before{}, outDims = inDims;
  for (size_t i = 0; i < inShape.rank(); ++i) {
    before[lead + i] = paddings[2 * i];
    outDims[lead + i] += paddings[2 * i] + paddings[2 * i + 1];
  }
  const size_t outCount = outDims[0] * outDims[1] * outDims[2] * outDims[3];
  detail::parallelFor(outCount, 1,
                      [&](size_t begin, size_t end) { std::fill(out + begin, out + end, padValue); });
  // Then every input row (innermost dimension) lands in place.
  const size_t rows = inDims[0] * inDims[1] * inDims[2];
  detail::parallelFor(rows, inDims[3], [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      const size_t i2 = row % inDims[2];
      const size_t i1 = (row / inDims[2]) % inDims[1];
      const size_t i0 = row / (inDims[2] * inDims[1]);
      const size_t outRow =
          ((i0 + before[0]) * outDims[1] + (i1 + before[1])) * outDims[2] + (i2 + before[2]);
      std::copy(in + row * inDims[3], in + (row + 1) * inDims[3], out + outRow * outDims[3] + before[3]);
    }
  });
}

template void pad<float>(const float*, const Shape&, std::span<const uint32_t>, float, float*);
template void pad<uint8_t>(const uint8_t*, const Shape&, std::span<const uint32_t>, uint8_t, uint8_t*);
template void pad<int32_t>(const int32_t*, const Shape&, std::span<const uint32_t>, int32_t, int32_t*);
template void pad<uint16_t>(const uint16_t*, const Shape&, std::span<const uint32_t>, uint16_t, uint16_t*);

}  // namespace nnrt::cpu
