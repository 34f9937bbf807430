// GCC 12 takes the AVX-512 conversion intrinsics' deliberately undefined first operand for an
// uninitialized read (-Wmaybe-uninitialized, reported inside avx512fintrin.h): a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "plugins/cpu/dnnl/depthwise_int8.hpp"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#define NNRT_DW8_TARGET __attribute__((target("avx512f,avx512bw,avx512vnni,avx512vbmi")))

namespace nnrt::cpu::dnnl_layer {

namespace {

constexpr size_t kLanes = 16;   // channels per block: one int32 accumulator each
constexpr size_t kQuad = 64;    // bytes of one quad entry: 4 neighbouring pixels' bytes of 16 channels

uint8_t* alignedBytes(size_t count) {
  const size_t bytes = std::max<size_t>(64, (count + 63) / 64 * 64);
  void* p = std::aligned_alloc(64, bytes);
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, 0, bytes);
  return static_cast<uint8_t*>(p);
}

// One output pixel's 16 channels (`count` of them stored): the dot products' sum plus `correction` (the
// bias less the zero point's share), times the scale plus the output zero point, clamped to the range,
// rounded to the nearest (even) step, as bytes.
NNRT_DW8_TARGET inline void store16(__m512i acc, __m512i correction, __m512 scale, __m512 zero, __m512 lo, __m512 hi,
                                    uint8_t* dst, size_t count) {
  const __m512 real = _mm512_cvtepi32_ps(_mm512_add_epi32(acc, correction));
  const __m512 y = _mm512_min_ps(_mm512_max_ps(_mm512_fmadd_ps(real, scale, zero), lo), hi);
  const __m128i bytes = _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(y));
  if (count == kLanes) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), bytes);
  } else {
    alignas(16) uint8_t tail[kLanes];
    _mm_store_si128(reinterpret_cast<__m128i*>(tail), bytes);
    std::memcpy(dst, tail, count);
  }
}

// 16 channels of one output row, stride S, window K: per window row one dot product of 4 taps
// (vpdpbusd: 4 unsigned input bytes times 4 signed weights per channel) of the quad entry at the
// window's first pixel (K = 5: and one of the entry 4 pixels on, for the fifth tap), four pixels at a
// time. `quads[ky]`: the window row ky's quad entries, of every S-th pixel only (those windows start at);
// `weights[2 ky]`, `[2 ky + 1]`: its taps 0-3 and 4.
template <int K, int S>
NNRT_DW8_TARGET void outputRow(const uint8_t* const* quads, const __m512i* weights, __m512i correction, __m512 scale,
                               __m512 zero, __m512 lo, __m512 hi, size_t width, size_t channels, size_t count,
                               uint8_t* out) {
  constexpr int kPixels = 4;
  size_t ox = 0;
  for (; ox + kPixels <= width; ox += kPixels) {
    __m512i a[kPixels];
#pragma GCC unroll 8
    for (int i = 0; i < kPixels; ++i) a[i] = _mm512_setzero_si512();
#pragma GCC unroll 8
    for (int ky = 0; ky < K; ++ky) {
      const uint8_t* q = quads[ky] + ox * kQuad;
#pragma GCC unroll 8
      for (int i = 0; i < kPixels; ++i) {
        a[i] = _mm512_dpbusd_epi32(a[i], _mm512_load_si512(q + i * kQuad), weights[2 * ky]);
        if constexpr (K == 5) a[i] = _mm512_dpbusd_epi32(a[i], _mm512_load_si512(q + (i + 4 / S) * kQuad), weights[2 * ky + 1]);
      }
    }
#pragma GCC unroll 8
    for (int i = 0; i < kPixels; ++i) store16(a[i], correction, scale, zero, lo, hi, out + (ox + i) * channels, count);
  }
  for (; ox < width; ++ox) {
    __m512i a = _mm512_setzero_si512();
#pragma GCC unroll 8
    for (int ky = 0; ky < K; ++ky) {
      const uint8_t* q = quads[ky] + ox * kQuad;
      a = _mm512_dpbusd_epi32(a, _mm512_load_si512(q), weights[2 * ky]);
      if constexpr (K == 5) a = _mm512_dpbusd_epi32(a, _mm512_load_si512(q + (4 / S) * kQuad), weights[2 * ky + 1]);
    }
    store16(a, correction, scale, zero, lo, hi, out + ox * channels, count);
  }
}

// Quad entries of one padded row, of every `stride`-th pixel: `pixels` holds the row's bytes of 16
// channels per pixel (as unsigned: int8 values plus 128), (entries - 1) stride + 4 pixels of them; entry
// e's byte 4 j + t is pixel e stride + t's channel j.
NNRT_DW8_TARGET void quadEntries(const uint8_t* pixels, size_t entries, size_t stride, uint8_t* quads) {
  alignas(64) uint8_t order[64];
  for (int j = 0; j < 16; ++j)
    for (int t = 0; t < 4; ++t) order[4 * j + t] = static_cast<uint8_t>(16 * t + j);
  const __m512i index = _mm512_load_si512(order);
  for (size_t e = 0; e < entries; ++e)
    _mm512_store_si512(quads + e * kQuad,
                       _mm512_permutexvar_epi8(index, _mm512_loadu_si512(pixels + e * stride * kLanes)));
}

}  // namespace

void DepthwiseInt8Kernel::Free::operator()(uint8_t* p) const { std::free(p); }

DepthwiseInt8Kernel::DepthwiseInt8Kernel(const ops::Conv2DParams& p, bool isSigned, const int8_t* filter,
                                         const int32_t* bias, const std::vector<float>& scales, int32_t inputZero,
                                         int32_t outputZero, int32_t low, int32_t high, int threads)
    : p_(p),
      isSigned_(isSigned),
      blocks_((p.inputChannels + kLanes - 1) / kLanes),
      entries_(size_t{p.outputWidth} + (p.filterWidth == 5 ? 4 / p.strideW : 0)),
      pixelCount_(std::max((entries_ - 1) * p.strideW + 4, size_t{p.padLeft} + p.inputWidth)),
      rowBytes_(entries_ * kQuad),
      weights_(alignedBytes(blocks_ * 2 * p.filterHeight * kQuad)),
      padQuads_(alignedBytes(rowBytes_)),
      correction_(blocks_ * kLanes, 0),
      scales_(blocks_ * kLanes, 0.0f),
      inputZero_(inputZero + (isSigned ? 128 : 0)),
      outputZero_(static_cast<float>(outputZero)),
      low_(static_cast<float>(low)),
      high_(static_cast<float>(high)),
      threads_(std::max(threads, 1)) {
  std::memset(padQuads_.get(), inputZero_, rowBytes_);
  const size_t k = p.filterHeight, channels = p.inputChannels;
  for (size_t c = 0; c < channels; ++c) {
    const size_t b = c / kLanes, j = c % kLanes;
    int32_t sum = 0;
    for (size_t ky = 0; ky < k; ++ky)
      for (size_t kx = 0; kx < k; ++kx) {
        const int8_t w = filter[(ky * k + kx) * channels + c];
        sum += w;
        const size_t part = kx < 4 ? 0 : 1, t = kx % 4;
        weights_[((b * k + ky) * 2 + part) * kQuad + 4 * j + t] = static_cast<uint8_t>(w);
      }
    // sum (x - zero) w = sum x w - zero sum w: the input is taken as it is (padding holds the zero point).
    correction_[c] = bias[c] - inputZero_ * sum;
    scales_[c] = scales.size() == 1 ? scales[0] : scales[c];
  }
}

NNRT_DW8_TARGET void DepthwiseInt8Kernel::runRows(const void* in, void* out, size_t first, size_t last,
                                                  uint8_t* scratch) const {
  const ops::Conv2DParams& s = p_;
  const size_t k = s.filterHeight, channels = s.inputChannels;
  const auto* input = static_cast<const uint8_t*>(in);
  auto* output = static_cast<uint8_t*>(out);
  // Scratch: k slots of quad entries, then one row of pixels, its padding the zero point (written once:
  // each input row fills the same pixels between).
  uint8_t* pixels = scratch + k * rowBytes_;
  std::memset(pixels, inputZero_, pixelCount_ * kLanes);
  const uint8_t flip = isSigned_ ? 0x80 : 0x00;
  using Row = void (*)(const uint8_t* const*, const __m512i*, __m512i, __m512, __m512, __m512, __m512, size_t, size_t,
                       size_t, uint8_t*);
  const Row outputRowOf = k == 3 ? (s.strideW == 1 ? &outputRow<3, 1> : &outputRow<3, 2>)
                                 : (s.strideW == 1 ? &outputRow<5, 1> : &outputRow<5, 2>);
  const __m512 zero = _mm512_set1_ps(outputZero_), lo = _mm512_set1_ps(low_), hi = _mm512_set1_ps(high_);
  // Channel block by channel block, so that the k rows of quad entries stay in L1.
  for (size_t b = 0; b < blocks_; ++b) {
    const size_t c = b * kLanes, count = std::min(kLanes, channels - c);
    __m512i weights[10];
    for (size_t t = 0; t < 2 * k; ++t) weights[t] = _mm512_load_si512(weights_.get() + (b * k * 2 + t) * kQuad);
    const __m512i correction = _mm512_loadu_si512(correction_.data() + c);
    const __m512 scale = _mm512_loadu_ps(scales_.data() + c);
    int64_t held[5] = {-1, -1, -1, -1, -1};  // the input row (batch x height + row) in each slot
    const uint8_t* rowOf[5];
    for (size_t r = first; r < last; ++r) {
      const size_t n = r / s.outputHeight, oy = r % s.outputHeight;
      for (size_t ky = 0; ky < k; ++ky) {
        const int64_t iy = static_cast<int64_t>(oy * s.strideH + ky) - s.padTop;
        if (iy < 0 || iy >= static_cast<int64_t>(s.inputHeight)) {
          rowOf[ky] = padQuads_.get();
          continue;
        }
        const size_t slot = static_cast<size_t>(iy) % k;
        uint8_t* quads = scratch + slot * rowBytes_;
        const int64_t key = static_cast<int64_t>(n * s.inputHeight) + iy;
        if (held[slot] != key) {  // the input row's 16 channels, padded with the zero point, as quad entries
          const uint8_t* src = input + static_cast<size_t>(key) * s.inputWidth * channels + c;
          uint8_t* dst = pixels + size_t{s.padLeft} * kLanes;
          if (count == kLanes) {
            const __m128i flips = _mm_set1_epi8(static_cast<char>(flip));
            for (size_t ix = 0; ix < s.inputWidth; ++ix)
              _mm_store_si128(reinterpret_cast<__m128i*>(dst + ix * kLanes),
                              _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + ix * channels)), flips));
          } else {
            for (size_t ix = 0; ix < s.inputWidth; ++ix)
              for (size_t j = 0; j < count; ++j) dst[ix * kLanes + j] = static_cast<uint8_t>(src[ix * channels + j] ^ flip);
          }
          quadEntries(pixels, entries_, s.strideW, quads);
          held[slot] = key;
        }
        rowOf[ky] = quads;
      }
      outputRowOf(rowOf, weights, correction, scale, zero, lo, hi, s.outputWidth, channels, count,
                  output + r * s.outputWidth * channels + c);
    }
  }
}

driver::Result<void> DepthwiseInt8Kernel::run(const KernelCall& call) {
  const void* in = call.op.inputs[0].data;
  void* out = call.outputData[0];
  const size_t rows = size_t{p_.batches} * p_.outputHeight;
  const int team = static_cast<int>(std::min<size_t>(static_cast<size_t>(threads_), rows));
  // Each thread's rows of entries in the execution's scratch memory (64-byte aligned, kept from run to run).
  auto* scratch = static_cast<uint8_t*>(call.scratch.allocate(static_cast<size_t>(team) * scratchBytes()));
  if (team <= 1 || omp_in_parallel()) {
    runRows(in, out, 0, rows, scratch);
    return {};
  }
#pragma omp parallel num_threads(team)
  {
    const auto t = static_cast<size_t>(omp_get_thread_num()), n = static_cast<size_t>(omp_get_num_threads());
    runRows(in, out, rows * t / n, rows * (t + 1) / n, scratch + t * scratchBytes());
  }
  return {};
}

}  // namespace nnrt::cpu::dnnl_layer
