#include "plugins/cpu/kernels/pool.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/quantization.hpp"
#include "plugins/cpu/kernels/window.hpp"

namespace nnrt::cpu {
namespace {

// For every output position: acc[c] = init, then acc[c] = step(acc[c], x) over the in-bounds window,
// then out[c] = finish(acc[c], count) where count is the number of input positions covered.
template <typename T, typename Acc, typename Step, typename Finish>
void pool(const T* in, const Shape& inShape, const Pool2DParams& p, T* out, const Shape& outShape, Acc init,
          const Step& step, const Finish& finish) {
  const uint32_t batches = inShape.dims[0], inH = inShape.dims[1], inW = inShape.dims[2];
  const uint32_t channels = inShape.dims[3];
  const uint32_t outH = outShape.dims[1], outW = outShape.dims[2];
  const size_t workPerRow = size_t{outW} * channels * p.filterH * p.filterW;
  detail::parallelFor(size_t{batches} * outH, workPerRow, [&](size_t begin, size_t end) {
    std::vector<Acc> acc(channels);
    for (size_t row = begin; row < end; ++row) {
      const size_t n = row / outH;
      const auto oy = static_cast<uint32_t>(row % outH);
      const auto ys = detail::tapRange(oy, p.strideH, p.padTop, 1, p.filterH, inH);
      for (uint32_t ox = 0; ox < outW; ++ox) {
        const auto xs = detail::tapRange(ox, p.strideW, p.padLeft, 1, p.filterW, inW);
        std::fill(acc.begin(), acc.end(), init);
        for (uint32_t ky = ys.begin; ky < ys.end; ++ky) {
          const size_t iy = static_cast<size_t>(ys.inputIndex(ky, 1));
          for (uint32_t kx = xs.begin; kx < xs.end; ++kx) {
            const size_t ix = static_cast<size_t>(xs.inputIndex(kx, 1));
            const T* px = in + ((n * inH + iy) * inW + ix) * channels;
            for (uint32_t c = 0; c < channels; ++c)
              acc[c] = step(acc[c], px[c]);
          }
        }
        const uint32_t count = (ys.end - ys.begin) * (xs.end - xs.begin);
        T* dst = out + (row * outW + ox) * channels;
        for (uint32_t c = 0; c < channels; ++c)
          dst[c] = finish(acc[c], count);
      }
    }
  });
}

}  // namespace

void averagePool2d(const float* in, const Shape& inShape, const Pool2DParams& params, float* out,
                   const Shape& outShape) {
  const auto [lo, hi] = activationRange(params.act);
  pool(
      in, inShape, params, out, outShape, 0.0f, [](float acc, float x) { return acc + x; },
      [lo, hi](float acc, uint32_t count) {
        const float mean = count > 0 ? acc / static_cast<float>(count) : 0.0f;
        return std::min(std::max(mean, lo), hi);
      });
}

void maxPool2d(const float* in, const Shape& inShape, const Pool2DParams& params, float* out,
               const Shape& outShape) {
  const auto [lo, hi] = activationRange(params.act);
  pool(
      in, inShape, params, out, outShape, -std::numeric_limits<float>::infinity(),
      [](float acc, float x) { return std::max(acc, x); },
      [lo, hi](float acc, uint32_t count) { return std::min(std::max(count > 0 ? acc : 0.0f, lo), hi); });
}

void l2Pool2d(const float* in, const Shape& inShape, const Pool2DParams& params, float* out,
              const Shape& outShape) {
  const auto [lo, hi] = activationRange(params.act);
  pool(
      in, inShape, params, out, outShape, 0.0f, [](float acc, float x) { return acc + x * x; },
      [lo, hi](float acc, uint32_t count) {
        const float l2 = count > 0 ? std::sqrt(acc / static_cast<float>(count)) : 0.0f;
        return std::min(std::max(l2, lo), hi);
      });
}

void averagePool2d(const uint8_t* in, const Shape& inShape, Quant quant, const Pool2DParams& params,
                   uint8_t* out, const Shape& outShape) {
  const auto [lo, hi] = activationRangeQuant8(params.act, quant);
  const int32_t zero = quant.zeroPoint;
  pool(
      in, inShape, params, out, outShape, int32_t{0}, [](int32_t acc, uint8_t x) { return acc + x; },
      [lo, hi, zero](int32_t acc, uint32_t count) {
        const int64_t mean = count > 0 ? (int64_t{acc} + count / 2) / count : zero;
        return clampToUint8(mean, lo, hi);
      });
}

void maxPool2d(const uint8_t* in, const Shape& inShape, Quant quant, const Pool2DParams& params, uint8_t* out,
               const Shape& outShape) {
  const auto [lo, hi] = activationRangeQuant8(params.act, quant);
  const int32_t zero = quant.zeroPoint;
  pool(
      in, inShape, params, out, outShape, uint8_t{0}, [](uint8_t acc, uint8_t x) { return std::max(acc, x); },
      [lo, hi, zero](uint8_t acc, uint32_t count) { return clampToUint8(count > 0 ? acc : zero, lo, hi); });
}

}  // namespace nnrt::cpu
