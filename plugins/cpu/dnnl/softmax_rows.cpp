#include "plugins/cpu/dnnl/softmax_rows.hpp"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <limits>

#include "plugins/cpu/dnnl/avx512.hpp"

namespace nnrt::cpu::dnnl_layer {

namespace {

// e^(beta (x - max)): at most 1; below -104 it is 0 in float32. max(low, t) keeps a NaN t.
__attribute__((target("avx512f"))) inline __m512 shiftedExp(__m512 x, __m512 max, __m512 beta) {
  return exp16(_mm512_maskz_max_ps(kAllLanes, _mm512_set1_ps(-104.0f), _mm512_mul_ps(_mm512_sub_ps(x, max), beta)));
}

// The largest of the 16 lanes, or their sum (GCC 12's _mm512_reduce_* read an undefined operand).
__attribute__((target("avx512f"))) inline float lanes(__m512 v, bool largest) {
  alignas(64) float values[16];
  _mm512_store_ps(values, v);
  float result = values[0];
  for (int i = 1; i < 16; ++i) result = largest ? std::max(result, values[i]) : result + values[i];
  return result;
}

}  // namespace

__attribute__((target("avx512f"))) void softmaxRow(const float* in, float* out, size_t length, float beta) {
  const size_t whole = length / 16 * 16;
  const auto tail = static_cast<__mmask16>((1u << (length - whole)) - 1);
  __m512 high = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
  for (size_t i = 0; i < whole; i += 16) high = _mm512_maskz_max_ps(kAllLanes, high, _mm512_loadu_ps(in + i));
  if (tail != 0) high = _mm512_mask_max_ps(high, tail, high, _mm512_maskz_loadu_ps(tail, in + whole));
  const __m512 max = _mm512_set1_ps(lanes(high, true));
  const __m512 scale = _mm512_set1_ps(beta);
  __m512 sum = _mm512_setzero_ps();
  for (size_t i = 0; i < whole; i += 16) {
    const __m512 e = shiftedExp(_mm512_loadu_ps(in + i), max, scale);
    _mm512_storeu_ps(out + i, e);
    sum = _mm512_add_ps(sum, e);
  }
  if (tail != 0) {
    const __m512 e = shiftedExp(_mm512_maskz_loadu_ps(tail, in + whole), max, scale);
    _mm512_mask_storeu_ps(out + whole, tail, e);
    sum = _mm512_mask_add_ps(sum, tail, sum, e);
  }
  const __m512 reciprocal = _mm512_set1_ps(1.0f / lanes(sum, false));
  for (size_t i = 0; i < whole; i += 16) _mm512_storeu_ps(out + i, _mm512_mul_ps(_mm512_loadu_ps(out + i), reciprocal));
  if (tail != 0)
    _mm512_mask_storeu_ps(out + whole, tail, _mm512_mul_ps(_mm512_maskz_loadu_ps(tail, out + whole), reciprocal));
}

driver::Result<void> SoftmaxRows::run(const KernelCall& call) {
  const auto* in = static_cast<const float*>(call.op.inputs[0].data);
  auto* out = static_cast<float*>(call.outputData[0]);
  const auto rows = static_cast<std::ptrdiff_t>(rows_);
  const size_t length = length_;
  const float beta = beta_;
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (std::ptrdiff_t r = 0; r < rows; ++r)
    softmaxRow(in + static_cast<size_t>(r) * length, out + static_cast<size_t>(r) * length, length, beta);
  return {};
}

}  // namespace nnrt::cpu::dnnl_layer
