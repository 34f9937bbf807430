// Activations and conversions of feature levels 3 and 4: PRELU, ELU, HARD_SWISH, POW, LOG_SOFTMAX,
// CAST, QUANTIZE.
//
// Quantized forms compute the real result of each element and requantize it into the output's
// parameters: nearest step, halves away from zero, saturated to 0..255.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

// PRELU: out = x < 0 ? alpha * x : x, alpha broadcast against x (NumPy rules, rank <= 4).
void prelu(const float* x, const Shape& xShape, const float* alpha, const Shape& alphaShape, float* out,
           const Shape& outShape);
void prelu(const uint8_t* x, const Shape& xShape, Quant xQuant, const uint8_t* alpha, const Shape& alphaShape,
           Quant alphaQuant, uint8_t* out, const Shape& outShape, Quant outQuant);

// ELU: out = x < 0 ? alpha * (exp(x) - 1) : x.
void elu(const float* x, size_t count, float alpha, float* out);

// HARD_SWISH: out = x * min(max(x + 3, 0), 6) / 6.
void hardSwish(const float* x, size_t count, float* out);
void hardSwish(const uint8_t* x, size_t count, Quant xQuant, uint8_t* out, Quant outQuant);

// POW: out = pow(base, exponent), broadcast (IEEE 754 for negative bases with fractional exponents).
// An exponent that is the single value 2 squares: base * base, correctly rounded, and fast.
void pow(const float* base, const Shape& baseShape, const float* exponent, const Shape& exponentShape, float* out,
         const Shape& outShape);

// LOG_SOFTMAX along `axis`: out = beta * x - log(sum over the axis of exp(beta * x)), computed with
// the axis maximum subtracted first.
void logSoftmax(const float* x, const Shape& shape, float beta, uint32_t axis, float* out);

// CAST of stored values, as NNAPI defines it: float to integer truncates toward zero, anything to
// TENSOR_QUANT8_ASYMM (its stored byte, not its real value) saturates to 0..255, out-of-range values
// to TENSOR_INT32 saturate (NNAPI leaves them undefined). `from` and `to` are TENSOR_FLOAT16,
// TENSOR_FLOAT32, TENSOR_INT32 or TENSOR_QUANT8_ASYMM (driver::OperandType codes).
void cast(const void* in, int32_t from, size_t count, void* out, int32_t to);

// QUANTIZE: q = round(x / scale) + zeroPoint saturated to [lo, hi] (0..255 for QUANT8_ASYMM,
// -128..127 for QUANT8_ASYMM_SIGNED), written as one byte each.
void quantize(const float* x, size_t count, Quant q, int32_t lo, int32_t hi, uint8_t* out);

}  // namespace nnrt::cpu
