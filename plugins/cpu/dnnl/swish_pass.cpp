#include "plugins/cpu/dnnl/swish_pass.hpp"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>

#include "plugins/cpu/dnnl/avx512.hpp"

namespace nnrt::cpu::dnnl_layer {
namespace {

__attribute__((target("avx512f"))) inline __m512 swish16(__m512 x) {
  // x / (1 + e^-x), e^-x clamped where it is already +inf or 0 in float.
  const __m512 negated = _mm512_sub_ps(_mm512_setzero_ps(), x);
  const __m512 t = _mm512_maskz_min_ps(kAllLanes, _mm512_maskz_max_ps(kAllLanes, negated, _mm512_set1_ps(-104.0f)),
                                       _mm512_set1_ps(89.0f));
  return _mm512_div_ps(x, _mm512_add_ps(_mm512_set1_ps(1.0f), exp16(t)));
}

}  // namespace

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
