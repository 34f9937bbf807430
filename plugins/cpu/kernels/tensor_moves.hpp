// Rearrangements, slices and lookups that move elements without computing on them: DEPTH_TO_SPACE,
// SPACE_TO_DEPTH, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, STRIDED_SLICE, EMBEDDING_LOOKUP and
// HASHTABLE_LOOKUP. Every kernel is byte-generic: elements of `elementSize` bytes (1, 2 or 4), so one
// kernel serves float32, float16, quant8 (signed or not) and int32 alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

// Where height, width and channels lie in a 4-D image tensor (batches are always dimension 0):
// {1, 2, 3} for NHWC, {2, 3, 1} for NCHW.
struct ImageAxes {
  uint32_t h = 1, w = 2, c = 3;
};
inline ImageAxes imageAxes(bool nchw) {
  return nchw ? ImageAxes{2, 3, 1} : ImageAxes{1, 2, 3};
}

// DEPTH_TO_SPACE: input channel (by * block + bx) * C + c of pixel (y, x) goes to channel c of pixel
// (y * block + by, x * block + bx); output has C = input channels / block^2 channels.
void depthToSpace(const void* in, const Shape& inShape, ImageAxes axes, uint32_t block, size_t elementSize,
                  void* out);

// SPACE_TO_DEPTH, the inverse: channel c of pixel (y * block + by, x * block + bx) goes to channel
// (by * block + bx) * C + c of output pixel (y, x).
void spaceToDepth(const void* in, const Shape& inShape, ImageAxes axes, uint32_t block, size_t elementSize,
                  void* out);

// BATCH_TO_SPACE_ND: input batch (by * blockW + bx) * N + n, pixel (y, x) goes to output batch n, pixel
// (y * blockH + by, x * blockW + bx). outShape is [N, H * blockH, W * blockW, C] in `axes`' layout.
void batchToSpace(const void* in, const Shape& inShape, ImageAxes axes, uint32_t blockH, uint32_t blockW,
                  size_t elementSize, void* out, const Shape& outShape);

// SPACE_TO_BATCH_ND: the input padded with padTop/padLeft before (and whatever outShape leaves after)
// each spatial dimension; padded pixel (y * blockH + by, x * blockW + bx) of batch n goes to output
// batch (by * blockW + bx) * N + n, pixel (y, x). Padding elements are the elementSize bytes at padValue.
void spaceToBatch(const void* in, const Shape& inShape, ImageAxes axes, uint32_t blockH, uint32_t blockW,
                  uint32_t padTop, uint32_t padLeft, const void* padValue, size_t elementSize, void* out,
                  const Shape& outShape);

// `count` (2 to 4) columns of n four-byte elements side by side: out[r * count + k] = columns[k][r]
// (an image's planes interleaved into pixels, the groups of a channel shuffle). Vectorized for AVX-512
// and AVX2 too. out must not overlap the columns.
void interleaveColumns(const uint32_t* const* columns, size_t count, size_t n, uint32_t* out);
// The inverse: n pixels of `count` (2 to 4) four-byte elements split into columns: columns[k][r] =
// in[r * count + k]. The columns must not overlap in.
void deinterleaveColumns(const uint32_t* in, size_t count, size_t n, uint32_t* const* columns);

// One dimension of a strided slice, resolved: `count` elements from index `begin` in steps of `stride`
// (negative strides walk backwards). Every index begin + k * stride (k < count) lies in the dimension.
struct SliceAxis {
  int64_t begin = 0;
  int64_t stride = 1;
  uint32_t count = 0;
};

// STRIDED_SLICE with resolved axes (one per input dimension; shrunk axes have count 1): the output is
// the selected elements in row-major order, product(count) of them.
void stridedSlice(const void* in, const Shape& inShape, std::span<const SliceAxis> axes, size_t elementSize,
                  void* out);

// EMBEDDING_LOOKUP: output row i is values' row lookups[i]; a row is rowBytes bytes. Returns false
// (output unspecified) when a lookup lies outside [0, rows).
bool embeddingLookup(const int32_t* lookups, size_t lookupCount, const void* values, size_t rows,
                     size_t rowBytes, void* out);

// HASHTABLE_LOOKUP: keys are sorted ascending; row i of the output is the values' row of the key equal
// to lookups[i] (hits[i] = 1), or rowBytes zero bytes when no key is (hits[i] = 0).
void hashtableLookup(const int32_t* lookups, size_t lookupCount, const int32_t* keys, size_t keyCount,
                     const void* values, size_t rowBytes, void* out, uint8_t* hits);

}  // namespace nnrt::cpu
