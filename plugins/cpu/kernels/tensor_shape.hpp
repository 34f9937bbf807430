// Operations that move elements without computing on them: RESHAPE / SQUEEZE (copyBytes),
// CONCATENATION, TRANSPOSE and PAD. All ranks are <= 4.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

// RESHAPE and SQUEEZE: the output holds the input's bytes unchanged. out may equal in (then nothing is
// copied); other overlaps are not allowed.
void copyBytes(const void* in, size_t bytes, void* out);

// CONCATENATION along `axis` (non-negative) of inputs that share the output's element encoding: any
// element type of elementSize bytes (float32, int32, or quant8 whose parameters equal the output's).
// inShapes[i] is the shape of inputs[i]; all agree except along axis.
void concatenation(std::span<const void* const> inputs, std::span<const Shape> inShapes, uint32_t axis,
                   size_t elementSize, void* out);

// Quant8 CONCATENATION: an input whose parameters differ from outQuant is requantized (round to nearest,
// clamped to 0..255); the others are copied.
void concatenation(std::span<const uint8_t* const> inputs, std::span<const Shape> inShapes,
                   std::span<const Quant> inQuants, uint32_t axis, uint8_t* out, Quant outQuant);

// TRANSPOSE: output dimension i is input dimension perm[i] (perm is a permutation of 0..rank-1).
// Any element type of 1, 2, 4 or 8 bytes.
void transpose(const void* in, const Shape& inShape, std::span<const uint32_t> perm, size_t elementSize,
               void* out);

// PAD: paddings holds rank pairs {before, after} (NNAPI's [rank, 2] tensor, row-major, non-negative);
// output dimension i is paddings[2i] + inShape.dims[i] + paddings[2i + 1], and every padded element is
// padValue (0.0f for float, the zero point for quant8). Instantiated for float, uint8_t, int32_t and
// uint16_t (float16 as its bits).
template <typename T>
void pad(const T* in, const Shape& inShape, std::span<const uint32_t> paddings, T padValue, T* out);

extern template void pad<float>(const float*, const Shape&, std::span<const uint32_t>, float, float*);
extern template void pad<uint8_t>(const uint8_t*, const Shape&, std::span<const uint32_t>, uint8_t, uint8_t*);
extern template void pad<int32_t>(const int32_t*, const Shape&, std::span<const uint32_t>, int32_t, int32_t*);
extern template void pad<uint16_t>(const uint16_t*, const Shape&, std::span<const uint32_t>, uint16_t, uint16_t*);

}  // namespace nnrt::cpu
