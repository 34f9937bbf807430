// What the fast layer's own AVX-512 kernels share (matrix_vector.hpp, swish_pass.hpp, softmax_rows.hpp,
// depthwise_int8.hpp): whether the CPU has AVX-512F (and VNNI, VBMI), and e^t for 16 float32 lanes. t = n ln2 + r with |r| <= ln2 / 2 (ln2 in
// two parts, n ln2hi exact), e^r by its Taylor polynomial of degree 7 in fused multiply-adds, times 2^n
// by vscalefps (so that the result overflows to +inf and underflows to 0 as exp does); within 2e-7 of
// the exact value relative to it (a probe against double-precision exp, docs/cpu-performance.md
// "Epilogues"). Callers clamp t to [-104, 89] first, where e^t is already +inf or 0 in float32 (so that
// n stays small), in an order that lets NaN through.
#pragma once

#include <immintrin.h>

namespace nnrt::cpu::dnnl_layer {

// Whether this CPU runs the layer's own kernels (AVX-512F); elsewhere oneDNN's primitives and the
// reference kernels serve.
inline bool avx512Supported() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") != 0;
}

// Whether it also has the 8-bit dot products and byte permutes the 8-bit depthwise kernel takes
// (AVX-512 BW, VNNI and VBMI: Ice Lake, Zen 4 and later).
inline bool avx512VnniVbmiSupported() {
  return avx512Supported() && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vnni") &&
         __builtin_cpu_supports("avx512vbmi");
}

// The masked forms with every lane set: the same instructions, without the unmasked intrinsics' undefined
// pass-through operand (which GCC 12 reports as maybe uninitialized).
constexpr __mmask16 kAllLanes = 0xFFFF;

__attribute__((target("avx512f"))) inline __m512 exp16(__m512 t) {
  const __m512 n = _mm512_maskz_roundscale_ps(kAllLanes, _mm512_mul_ps(t, _mm512_set1_ps(1.44269504088896341f)),
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
  return _mm512_maskz_scalef_ps(kAllLanes, p, n);
}

}  // namespace nnrt::cpu::dnnl_layer
