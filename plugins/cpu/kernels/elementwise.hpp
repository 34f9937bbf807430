// ADD, SUB, MUL, DIV (two operands with NumPy-style broadcasting and a fused activation) and FLOOR.
//
// Binary operations: a and b have rank <= 4 and broadcast to outShape (dims aligned from the trailing
// end, each pair equal or 1); outShape is the broadcast shape, computed by the driver. The output may
// alias an input of the same shape as the output.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

void add(const float* a, const Shape& aShape, const float* b, const Shape& bShape, Activation act, float* out,
         const Shape& outShape);
void sub(const float* a, const Shape& aShape, const float* b, const Shape& bShape, Activation act, float* out,
         const Shape& outShape);
void mul(const float* a, const Shape& aShape, const float* b, const Shape& bShape, Activation act, float* out,
         const Shape& outShape);
// Division by zero follows IEEE 754 (inf or NaN), as NNAPI leaves it undefined.
void div(const float* a, const Shape& aShape, const float* b, const Shape& bShape, Activation act, float* out,
         const Shape& outShape);

// TENSOR_QUANT8_ASYMM: each operand and the output have their own parameters. The exact real result is
// rounded to the nearest output step (halves away from zero, within 2^-20 of a step), clamped to
// 0..255 and to the activation range.
void add(const uint8_t* a, const Shape& aShape, Quant aQuant, const uint8_t* b, const Shape& bShape,
         Quant bQuant, Activation act, uint8_t* out, const Shape& outShape, Quant outQuant);
void sub(const uint8_t* a, const Shape& aShape, Quant aQuant, const uint8_t* b, const Shape& bShape,
         Quant bQuant, Activation act, uint8_t* out, const Shape& outShape, Quant outQuant);
void mul(const uint8_t* a, const Shape& aShape, Quant aQuant, const uint8_t* b, const Shape& bShape,
         Quant bQuant, Activation act, uint8_t* out, const Shape& outShape, Quant outQuant);

// TENSOR_INT32 (NNAPI takes no fused activation with it): ADD, SUB and MUL wrap around on overflow
// (two's complement), DIV is floor division ("//" in Python) and gives 0 for a zero divisor, which
// NNAPI leaves undefined.
void add(const int32_t* a, const Shape& aShape, const int32_t* b, const Shape& bShape, int32_t* out,
         const Shape& outShape);
void sub(const int32_t* a, const Shape& aShape, const int32_t* b, const Shape& bShape, int32_t* out,
         const Shape& outShape);
void mul(const int32_t* a, const Shape& aShape, const int32_t* b, const Shape& bShape, int32_t* out,
         const Shape& outShape);
void div(const int32_t* a, const Shape& aShape, const int32_t* b, const Shape& bShape, int32_t* out,
         const Shape& outShape);

// out[i] = floor(in[i]) for count elements; out may alias in.
void floor(const float* in, size_t count, float* out);

}  // namespace nnrt::cpu
