// MEAN, REDUCE_SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN, REDUCE_ALL, REDUCE_ANY over a set of axes, and
// ARGMAX, ARGMIN along one.
#pragma once

#include <cstdint>
#include <span>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

// out = mean of `in` over `axes` (non-negative, < rank, repeats allowed). keep_dims only changes the
// output's shape, not its element order, so the kernel does not need it: `out` holds one value per
// combination of the kept dimensions, in row-major order. Sums are accumulated in double.
void mean(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out);

// TENSOR_QUANT8_ASYMM: the real mean of the dequantized inputs (sums exact in int64), requantized to
// outQuant with round to nearest, halves away from zero, saturated to 0..255. outQuant may differ from
// inQuant.
void mean(const uint8_t* in, const Shape& inShape, Quant inQuant, std::span<const uint32_t> axes, uint8_t* out,
          Quant outQuant);

// REDUCE_* over `axes` (as for mean: non-negative, repeats allowed, keep_dims left to the shape).
// Float sums and products accumulate in double; an empty reduction gives 0 (sum), 1 (product),
// -inf (max) or +inf (min).
void reduceSum(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out);
void reduceProd(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out);
void reduceMax(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out);
void reduceMin(const float* in, const Shape& inShape, std::span<const uint32_t> axes, float* out);
// TENSOR_QUANT8_ASYMM with the output quantized like the input (NNAPI requires it): stored values.
void reduceMax(const uint8_t* in, const Shape& inShape, std::span<const uint32_t> axes, uint8_t* out);
void reduceMin(const uint8_t* in, const Shape& inShape, std::span<const uint32_t> axes, uint8_t* out);
// TENSOR_BOOL8: 0 false, anything else true; outputs 0 or 1.
void reduceAll(const uint8_t* in, const Shape& inShape, std::span<const uint32_t> axes, uint8_t* out);
void reduceAny(const uint8_t* in, const Shape& inShape, std::span<const uint32_t> axes, uint8_t* out);

// ARGMAX, ARGMIN: the index along `axis` of the largest (smallest) value; ties give the first index.
// `out` holds one index per position of the other dimensions, row-major.
void argMax(const float* in, const Shape& inShape, uint32_t axis, int32_t* out);
void argMin(const float* in, const Shape& inShape, uint32_t axis, int32_t* out);
void argMax(const int32_t* in, const Shape& inShape, uint32_t axis, int32_t* out);
void argMin(const int32_t* in, const Shape& inShape, uint32_t axis, int32_t* out);
void argMax(const uint8_t* in, const Shape& inShape, uint32_t axis, int32_t* out);  // TENSOR_QUANT8_ASYMM
void argMin(const uint8_t* in, const Shape& inShape, uint32_t axis, int32_t* out);

// TOPK_V2: the k largest values of every row (the last dimension, `rowLength` elements) in
// descending order, with their indices; equal values keep their order (the lower index first).
// For TENSOR_QUANT8_ASYMM the stored values are compared (the output is quantized like the input).
void topK(const float* in, size_t rows, size_t rowLength, uint32_t k, float* values, int32_t* indices);
void topK(const int32_t* in, size_t rows, size_t rowLength, uint32_t k, int32_t* values, int32_t* indices);
void topK(const uint8_t* in, size_t rows, size_t rowLength, uint32_t k, uint8_t* values, int32_t* indices);

}  // namespace nnrt::cpu
