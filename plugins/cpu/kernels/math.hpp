// Element-wise math of feature level 3: unary functions (ABS, EXP, LOG, NEG, RSQRT, SIN, SQRT),
// comparisons (EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL), MAXIMUM and MINIMUM,
// LOGICAL_AND, LOGICAL_OR, LOGICAL_NOT and SELECT.
//
// Binary operations take two operands of rank <= 4 that broadcast to outShape (NumPy rules, as in
// elementwise.hpp). Booleans (TENSOR_BOOL8) are bytes, 0 false and anything else true on input,
// 0 or 1 on output. Quantized operands are compared and selected by their real values
// ((q - zeroPoint) * scale); MAXIMUM, MINIMUM and SELECT requantize into the output's parameters
// (nearest step, halves away from zero, saturated to 0..255).
#pragma once

#include <cstddef>
#include <cstdint>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

enum class UnaryMath { Abs, Exp, Log, Neg, Rsqrt, Sin, Sqrt };
// out[i] = f(in[i]); out may alias in. LOG and SQRT of negative numbers, RSQRT of 0 follow IEEE 754.
// EXP is expFloat (exp_float.hpp: vectorized, within 2 ulp).
void unaryMath(const float* in, size_t count, UnaryMath f, float* out);
// ABS and NEG on TENSOR_INT32 (two's complement: the most negative value maps to itself).
void unaryMath(const int32_t* in, size_t count, UnaryMath f, int32_t* out);

enum class Comparison { Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual };
void compare(const float* a, const Shape& aShape, const float* b, const Shape& bShape, Comparison c, uint8_t* out,
             const Shape& outShape);
void compare(const int32_t* a, const Shape& aShape, const int32_t* b, const Shape& bShape, Comparison c,
             uint8_t* out, const Shape& outShape);
// TENSOR_BOOL8 operands: false < true.
void compareBool(const uint8_t* a, const Shape& aShape, const uint8_t* b, const Shape& bShape, Comparison c,
                 uint8_t* out, const Shape& outShape);
// TENSOR_QUANT8_ASYMM operands with their own parameters, compared by real value.
void compare(const uint8_t* a, const Shape& aShape, Quant aQuant, const uint8_t* b, const Shape& bShape,
             Quant bQuant, Comparison c, uint8_t* out, const Shape& outShape);

void maximum(const float* a, const Shape& aShape, const float* b, const Shape& bShape, float* out,
             const Shape& outShape);
void minimum(const float* a, const Shape& aShape, const float* b, const Shape& bShape, float* out,
             const Shape& outShape);
void maximum(const int32_t* a, const Shape& aShape, const int32_t* b, const Shape& bShape, int32_t* out,
             const Shape& outShape);
void minimum(const int32_t* a, const Shape& aShape, const int32_t* b, const Shape& bShape, int32_t* out,
             const Shape& outShape);
void maximum(const uint8_t* a, const Shape& aShape, Quant aQuant, const uint8_t* b, const Shape& bShape,
             Quant bQuant, uint8_t* out, const Shape& outShape, Quant outQuant);
void minimum(const uint8_t* a, const Shape& aShape, Quant aQuant, const uint8_t* b, const Shape& bShape,
             Quant bQuant, uint8_t* out, const Shape& outShape, Quant outQuant);

enum class Logical { And, Or };
void logical(const uint8_t* a, const Shape& aShape, const uint8_t* b, const Shape& bShape, Logical op, uint8_t* out,
             const Shape& outShape);
void logicalNot(const uint8_t* in, size_t count, uint8_t* out);

// SELECT: out[i] = condition[i] ? a[i] : b[i], all of `count` elements (no broadcasting), elements of
// `elementSize` bytes copied as they are.
void select(const uint8_t* condition, const void* a, const void* b, size_t count, size_t elementSize, void* out);
// SELECT on TENSOR_QUANT8_ASYMM whose operands and output differ in parameters: the chosen value
// requantized.
void select(const uint8_t* condition, const uint8_t* a, Quant aQuant, const uint8_t* b, Quant bQuant, size_t count,
            uint8_t* out, Quant outQuant);

}  // namespace nnrt::cpu
