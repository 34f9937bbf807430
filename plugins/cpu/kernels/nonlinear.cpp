#include "plugins/cpu/kernels/nonlinear.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "nnrt/driver/half.hpp"
#include "nnrt/driver/types.hpp"
#include "plugins/cpu/kernels/broadcast.hpp"
#include "plugins/cpu/kernels/exp_float.hpp"
#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/quantization.hpp"
#include "plugins/cpu/kernels/row_reduce.hpp"

namespace nnrt::cpu {

using detail::broadcastBinary;

namespace {

double hardSwishOf(double x) { return x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0; }

// One stored value of `type` as a double.
double load(const void* in, int32_t type, size_t i) {
  using OT = driver::OperandType;
  switch (static_cast<OT>(type)) {
    case OT::TENSOR_FLOAT16: {
      uint16_t h;
      std::memcpy(&h, static_cast<const uint8_t*>(in) + 2 * i, 2);
      return driver::halfToFloat(h);
    }
    case OT::TENSOR_FLOAT32:
      return static_cast<const float*>(in)[i];
    case OT::TENSOR_INT32:
      return static_cast<const int32_t*>(in)[i];
    default:  // TENSOR_QUANT8_ASYMM
      return static_cast<const uint8_t*>(in)[i];
  }
}

void store(double v, void* out, int32_t type, size_t i) {
  using OT = driver::OperandType;
  switch (static_cast<OT>(type)) {
    case OT::TENSOR_FLOAT16: {
      const uint16_t h = driver::floatToHalf(static_cast<float>(v));
      std::memcpy(static_cast<uint8_t*>(out) + 2 * i, &h, 2);
      break;
    }
    case OT::TENSOR_FLOAT32:
      static_cast<float*>(out)[i] = static_cast<float>(v);
      break;
    case OT::TENSOR_INT32: {
      constexpr double lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
      static_cast<int32_t*>(out)[i] = std::isnan(v) ? 0 : static_cast<int32_t>(std::trunc(std::clamp(v, lo, hi)));
      break;
    }
    default:  // TENSOR_QUANT8_ASYMM
      static_cast<uint8_t*>(out)[i] = std::isnan(v) ? 0 : static_cast<uint8_t>(std::trunc(std::clamp(v, 0.0, 255.0)));
      break;
  }
}

}  // namespace

void prelu(const float* x, const Shape& xShape, const float* alpha, const Shape& alphaShape, float* out,
           const Shape& outShape) {
  // The product taken whatever the sign, so that the compiler may select instead of branch and
  // vectorize the loop (a branch on random signs took 2 ns per element).
  broadcastBinary(x, xShape, alpha, alphaShape, out, outShape, [](float v, float a) {
    const float scaled = a * v;
    return v < 0 ? scaled : v;
  });
}

void prelu(const uint8_t* x, const Shape& xShape, Quant xQuant, const uint8_t* alpha, const Shape& alphaShape,
           Quant alphaQuant, uint8_t* out, const Shape& outShape, Quant outQuant) {
  broadcastBinary(x, xShape, alpha, alphaShape, out, outShape, [&](uint8_t v, uint8_t a) {
    const double rv = realValue(v, xQuant);
    return quantizeReal(rv < 0 ? realValue(a, alphaQuant) * rv : rv, outQuant);
  });
}

void elu(const float* x, size_t count, float alpha, float* out) {
  detail::parallelFor(count, 8, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) out[i] = x[i] < 0 ? alpha * std::expm1(x[i]) : x[i];
  });
}

void hardSwish(const float* x, size_t count, float* out) {
  detail::parallelFor(count, 2, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) out[i] = x[i] * std::min(std::max(x[i] + 3.0f, 0.0f), 6.0f) / 6.0f;
  });
}

void hardSwish(const uint8_t* x, size_t count, Quant xQuant, uint8_t* out, Quant outQuant) {
  const auto table = unaryTable(xQuant, outQuant, hardSwishOf);
  for (size_t i = 0; i < count; ++i) out[i] = table[x[i]];
}

void pow(const float* base, const Shape& baseShape, const float* exponent, const Shape& exponentShape, float* out,
         const Shape& outShape) {
  if (exponentShape.elements() == 1 && exponent[0] == 2.0f) {
    broadcastBinary(base, baseShape, exponent, exponentShape, out, outShape, [](float b, float) { return b * b; });
    return;
  }
  broadcastBinary(base, baseShape, exponent, exponentShape, out, outShape, [](float b, float e) { return std::pow(b, e); });
}

namespace {

// LOG_SOFTMAX of n consecutive elements, compiled for AVX-512 and AVX2 too: the largest beta * x (beta
// keeps the order of x, or reverses it when negative), the exponentials by expFloat (within 2 ulp) summed
// in double over 16 lanes, y = beta * x - (largest + log(sum)) in double.
__attribute__((target_clones("avx512f", "avx2", "default")))
void logSoftmaxRow(const float* x, size_t n, float beta, float* y) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const float largest = beta * (beta < 0.0f ? detail::rowExtremum<false>(x, n, kInf) : detail::rowExtremum<true>(x, n, -kInf));
  double sums[16] = {};
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    for (size_t k = 0; k < 16; ++k) sums[k] += static_cast<double>(expFloat(beta * x[i + k] - largest));
  }
  double sum = 0.0;
  for (double s : sums) sum += s;
  for (; i < n; ++i) sum += static_cast<double>(expFloat(beta * x[i] - largest));
  const double shift = static_cast<double>(largest) + std::log(sum);
  for (i = 0; i < n; ++i) y[i] = static_cast<float>(static_cast<double>(beta) * x[i] - shift);
}

}  // namespace

void logSoftmax(const float* x, const Shape& shape, float beta, uint32_t axis, float* out) {
  size_t outer = 1, inner = 1;
  for (uint32_t d = 0; d < axis; ++d) outer *= shape.dims[d];
  for (uint32_t d = axis + 1; d < shape.rank(); ++d) inner *= shape.dims[d];
  const size_t n = shape.dims[axis];
  if (inner == 1) {  // the usual case: each row along the last axis
    detail::parallelFor(outer, n * 4, [&](size_t begin, size_t end) {
      for (size_t row = begin; row < end; ++row) logSoftmaxRow(x + row * n, n, beta, out + row * n);
    });
    return;
  }
  detail::parallelFor(outer * inner, n * 4, [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      const size_t base = (t / inner) * n * inner + t % inner;
      double maximum = -std::numeric_limits<double>::infinity();
      for (size_t k = 0; k < n; ++k) maximum = std::max(maximum, static_cast<double>(beta) * x[base + k * inner]);
      double sum = 0;
      for (size_t k = 0; k < n; ++k) sum += std::exp(static_cast<double>(beta) * x[base + k * inner] - maximum);
      const double logSum = maximum + std::log(sum);
      for (size_t k = 0; k < n; ++k)
        out[base + k * inner] = static_cast<float>(static_cast<double>(beta) * x[base + k * inner] - logSum);
    }
  });
}

namespace {

// A float as an integer in [lo, hi]: NaN is 0, the rest truncated toward zero after clamping (what store
// does through double; every float in range truncates exactly).
template <typename To>
To truncated(float v, float lo, float hi) {
  if (std::isnan(v)) return 0;
  if (v <= lo) return std::numeric_limits<To>::min();
  if (v >= hi) return std::numeric_limits<To>::max();
  return static_cast<To>(v);
}

// out[i] = convert(in[i]) over the threads: typed loops for the casts models use (a load and store per
// element through a switch on the types took 1.3 ms for 800 000 floats).
template <typename From, typename To, typename Convert>
void castLoop(const void* in, size_t count, void* out, const Convert& convert) {
  const auto* x = static_cast<const From*>(in);
  auto* y = static_cast<To*>(out);
  detail::parallelFor(count, 2, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) y[i] = convert(x[i]);
  });
}

}  // namespace

void cast(const void* in, int32_t from, size_t count, void* out, int32_t to) {
  using OT = driver::OperandType;
  const auto f32 = static_cast<int32_t>(OT::TENSOR_FLOAT32), i32 = static_cast<int32_t>(OT::TENSOR_INT32),
             u8 = static_cast<int32_t>(OT::TENSOR_QUANT8_ASYMM);
  if (from == f32 && to == i32) {
    // -2^31 is a float; 2^31 the first float above INT32_MAX.
    return castLoop<float, int32_t>(in, count, out, [](float v) { return truncated<int32_t>(v, -2147483648.0f, 2147483648.0f); });
  }
  if (from == f32 && to == u8) return castLoop<float, uint8_t>(in, count, out, [](float v) { return truncated<uint8_t>(v, 0.0f, 255.0f); });
  if (from == i32 && to == f32) return castLoop<int32_t, float>(in, count, out, [](int32_t v) { return static_cast<float>(v); });
  if (from == u8 && to == f32) return castLoop<uint8_t, float>(in, count, out, [](uint8_t v) { return static_cast<float>(v); });
  if (from == u8 && to == i32) return castLoop<uint8_t, int32_t>(in, count, out, [](uint8_t v) { return static_cast<int32_t>(v); });
  for (size_t i = 0; i < count; ++i) store(load(in, from, i), out, to, i);
}

void quantize(const float* x, size_t count, Quant q, int32_t lo, int32_t hi, uint8_t* out) {
  for (size_t i = 0; i < count; ++i) {
    const double v = std::round(static_cast<double>(x[i]) / q.scale) + q.zeroPoint;
    const auto clamped = static_cast<int32_t>(std::fmin(hi, std::fmax(lo, v)));
    out[i] = static_cast<uint8_t>(clamped);  // int8 values as their two's complement byte
  }
}

}  // namespace nnrt::cpu
