#include "plugins/cpu/dnnl/swish_pass.hpp"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>

namespace nnrt::cpu::dnnl_layer {
namespace {

// The masked forms with every lane set: the same instructions, without the unmasked intrinsics' undefined
// pass-through operand (which GCC 12 reports as maybe uninitialized).
constexpr __mmask16 kAll = 0xFFFF;

__attribute__((target("avx512f"))) inline __m512 swish16(__m512 x) {
  // exp(t) for t = -x, clamped where exp is already +inf or 0 in float (so that n stays small): t = n ln2 + r,
  // |r| <= ln2 / 2 (ln2 in two parts, n ln2hi exact), e^r by its Taylor polynomial, times 2^n.
  const __m512 negated = _mm512_sub_ps(_mm512_setzero_ps(), x);
  const __m512 t = _mm512_maskz_min_ps(kAll, _mm512_maskz_max_ps(kAll, negated, _mm512_set1_ps(-104.0f)),
                                       _mm512_set1_ps(89.0f));
  const __m512 n = _mm512_maskz_roundscale_ps(kAll, _mm512_mul_ps(t, _mm512_set1_ps(1.44269504088896341f)),
                                              _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), t);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.0f / 5040.0f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 720.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  const __m512 e = _mm512_maskz_scalef_ps(kAll, p, n);
  return _mm512_div_ps(x, _mm512_add_ps(_mm512_set1_ps(1.0f), e));
}

}  // namespace

bool swishPassSupported() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") != 0;
}

__attribute__((target("avx512f"))) void swishInPlace(float* values, size_t count) {
  size_t i = 0;
  for (; i + 16 <= count; i += 16) _mm512_storeu_ps(values + i, swish16(_mm512_loadu_ps(values + i)));
  if (i < count) {
    const auto mask = static_cast<__mmask16>((1u << (count - i)) - 1);
    _mm512_mask_storeu_ps(values + i, mask, swish16(_mm512_maskz_loadu_ps(mask, values + i)));
  }
}

driver::Result<void> SwishAfter::run(const KernelCall& call) {
  NNRT_RETURN_IF_ERROR(inner_->run(call));
  auto* out = static_cast<float*>(call.outputData[0]);
  const size_t count = count_;
  // Whole vectors to each thread but the last; the same split for the same team.
#pragma omp parallel num_threads(threads_)
  {
    const auto threads = static_cast<size_t>(omp_get_num_threads()), t = static_cast<size_t>(omp_get_thread_num());
    const size_t per = (count / threads + 15) / 16 * 16;
    const size_t begin = std::min(count, t * per), end = t + 1 == threads ? count : std::min(count, begin + per);
    if (end > begin) swishInPlace(out + begin, end - begin);
  }
  return {};
}

}  // namespace nnrt::cpu::dnnl_layer
