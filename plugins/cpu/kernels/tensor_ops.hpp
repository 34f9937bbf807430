// Rearrangements of feature level 3 and Android 13 that move elements without computing on them:
// SPLIT, TILE, GATHER, CHANNEL_SHUFFLE, MIRROR_PAD and REVERSE. Every kernel is byte-generic (elements
// of `elementSize` bytes), so one kernel serves float32, float16, int32 and quant8 (signed or not)
// alike, and takes tensors of any rank. SLICE, PAD_V2, EXPAND_DIMS and PACK need none of their own:
// they run on stridedSlice (tensor_moves.hpp), pad, copyBytes and concatenation (tensor_shape.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

// SPLIT along `axis` (non-negative, < rank) into outputs.size() equal parts: output k holds the
// indices [k * part, (k + 1) * part) of that dimension, part = inShape.dims[axis] / outputs.size().
void split(const void* in, const Shape& inShape, uint32_t axis, size_t elementSize,
           std::span<void* const> outputs);

// TILE: output dimension d is inShape.dims[d] * multiples[d] (multiples >= 1, one per dimension);
// output element o is input element (o[0] % in[0], ..., o[r-1] % in[r-1]).
void tile(const void* in, const Shape& inShape, std::span<const uint32_t> multiples, size_t elementSize,
          void* out);

// GATHER along `axis`: the output is [in[0..axis), indices' shape, in(axis..rank)], and output element
// (..., i, ...) is input element (..., indices[i], ...). Returns false (output unspecified) when an
// index lies outside [0, inShape.dims[axis]).
bool gather(const void* in, const Shape& inShape, uint32_t axis, const int32_t* indices, size_t indexCount,
            size_t elementSize, void* out);

// CHANNEL_SHUFFLE along `axis`: the dimension (C = groups * K entries) is seen as [groups, K],
// transposed to [K, groups] and flattened again, so output index k * groups + g holds input index
// g * K + k. groups divides C.
void channelShuffle(const void* in, const Shape& shape, uint32_t axis, uint32_t groups, size_t elementSize,
                    void* out);

// MIRROR_PAD: paddings holds rank pairs {before, after} (NNAPI's [rank, 2] tensor, non-negative);
// padded elements mirror the input across its edges. REFLECT leaves the edge element out of the
// mirror (paddings < the dimension), SYMMETRIC repeats it (paddings <= the dimension).
enum class MirrorMode { Reflect, Symmetric };
void mirrorPad(const void* in, const Shape& inShape, std::span<const uint32_t> paddings, MirrorMode mode,
               size_t elementSize, void* out);

// REVERSE along `axis` (non-negative, < rank): output index i of that dimension holds input index
// dims[axis] - 1 - i.
void reverse(const void* in, const Shape& shape, uint32_t axis, size_t elementSize, void* out);

}  // namespace nnrt::cpu
