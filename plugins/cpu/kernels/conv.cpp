#include "plugins/cpu/kernels/conv.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "plugins/cpu/kernels/gemm.hpp"
#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/quantization.hpp"
#include "plugins/cpu/kernels/window.hpp"

namespace nnrt::cpu {
namespace {

// The im2col matrix is built a slice of output positions at a time, so that its memory stays bounded.
constexpr size_t kIm2colBytes = size_t{8} << 20;

// Row r of `columns` = the receptive field of output position first + r, laid out [ky][kx][ci] like a
// filter row, zeros where the window hangs over the padding.
void im2col(const float* input, const detail::ConvGeometry& g, const Conv2DParams& p, size_t first,
            size_t rows, float* columns) {
  const size_t rowLength = size_t{g.kernelH} * g.kernelW * g.inC;
  detail::parallelFor(rows, rowLength, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      const size_t position = first + r;
      const size_t ox = position % g.outW;
      const size_t oy = (position / g.outW) % g.outH;
      const size_t n = position / (size_t{g.outW} * g.outH);
      float* dst = columns + r * rowLength;
      for (uint32_t ky = 0; ky < g.kernelH; ++ky) {
        const int64_t iy = int64_t(oy) * p.strideH - p.padTop + int64_t{ky} * p.dilationH;
        for (uint32_t kx = 0; kx < g.kernelW; ++kx, dst += g.inC) {
          const int64_t ix = int64_t(ox) * p.strideW - p.padLeft + int64_t{kx} * p.dilationW;
          if (iy < 0 || iy >= g.inH || ix < 0 || ix >= g.inW) {
            std::fill(dst, dst + g.inC, 0.0f);
          } else {
            std::memcpy(dst, input + ((n * g.inH + iy) * g.inW + ix) * g.inC, g.inC * sizeof(float));
          }
        }
      }
    }
  });
}

}  // namespace

void conv2d(const float* input, const Shape& inShape, const float* filter, const Shape& filterShape,
            const float* bias, const Conv2DParams& params, float* out, const Shape& outShape) {
  const detail::ConvGeometry g(inShape, filterShape, outShape);
  const size_t positions = size_t{g.batches} * g.outH * g.outW;
  if (positions == 0 || g.outC == 0) return;

  const bool pointwise = g.kernelH == 1 && g.kernelW == 1 && params.strideH == 1 && params.strideW == 1 &&
                         params.padLeft == 0 && params.padRight == 0 && params.padTop == 0 &&
                         params.padBottom == 0;
  if (pointwise) {  // the input already is the [positions, Cin] matrix
    detail::gemmBiasActivation(input, filter, bias, positions, g.outC, g.inC, params.act, out);
    return;
  }

  const size_t rowLength = size_t{g.kernelH} * g.kernelW * g.inC;
  const size_t rowsPerSlice =
      std::clamp<size_t>(kIm2colBytes / (std::max<size_t>(rowLength, 1) * sizeof(float)), 1, positions);
  std::vector<float> columns(rowsPerSlice * rowLength);
  for (size_t first = 0; first < positions; first += rowsPerSlice) {
    const size_t rows = std::min(rowsPerSlice, positions - first);
    im2col(input, g, params, first, rows, columns.data());
    detail::gemmBiasActivation(columns.data(), filter, bias, rows, g.outC, rowLength, params.act,
                               out + first * g.outC);
  }
}

namespace {

// The quantized convolution loop shared by the per-tensor and per-channel kernels: Filter is uint8_t
// (with filterZero) or int8_t (zero point 0); multiplierOf(oc) is output channel oc's rescaling.
template <typename Filter, typename MultiplierOf>
void quantConv(const uint8_t* input, const detail::ConvGeometry& g, Quant inQuant, const Filter* filter,
               int32_t filterZero, const int32_t* bias, const Conv2DParams& params, uint8_t* out,
               Quant outQuant, const MultiplierOf& multiplierOf) {
  const auto [lo, hi] = activationRangeQuant8(params.act, outQuant);
  const int32_t inZero = inQuant.zeroPoint;
  const size_t workPerRow = size_t{g.outW} * g.outC * g.kernelH * g.kernelW * g.inC;

  // One item per output row (batch, oy); padding taps are skipped since they hold a real zero.
  detail::parallelFor(size_t{g.batches} * g.outH, workPerRow, [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      const size_t n = row / g.outH;
      const auto oy = static_cast<uint32_t>(row % g.outH);
      const auto ys = detail::tapRange(oy, params.strideH, params.padTop, params.dilationH, g.kernelH, g.inH);
      uint8_t* dst = out + row * g.outW * g.outC;
      for (uint32_t ox = 0; ox < g.outW; ++ox) {
        const auto xs =
            detail::tapRange(ox, params.strideW, params.padLeft, params.dilationW, g.kernelW, g.inW);
        for (uint32_t oc = 0; oc < g.outC; ++oc, ++dst) {
          int32_t acc = bias != nullptr ? bias[oc] : 0;
          for (uint32_t ky = ys.begin; ky < ys.end; ++ky) {
            const size_t iy = static_cast<size_t>(ys.inputIndex(ky, params.dilationH));
            for (uint32_t kx = xs.begin; kx < xs.end; ++kx) {
              const size_t ix = static_cast<size_t>(xs.inputIndex(kx, params.dilationW));
              const uint8_t* px = input + ((n * g.inH + iy) * g.inW + ix) * g.inC;
              const Filter* pf = filter + ((size_t{oc} * g.kernelH + ky) * g.kernelW + kx) * g.inC;
              for (uint32_t ci = 0; ci < g.inC; ++ci) {
                acc += (int32_t{px[ci]} - inZero) * (int32_t{pf[ci]} - filterZero);
              }
            }
          }
          *dst = clampToUint8(multiplierOf(oc).apply(acc) + outQuant.zeroPoint, lo, hi);
        }
      }
    }
  });
}

}  // namespace

void conv2d(const uint8_t* input, const Shape& inShape, Quant inQuant, const uint8_t* filter,
            const Shape& filterShape, Quant filterQuant, const int32_t* bias, const Conv2DParams& params,
            uint8_t* out, const Shape& outShape, Quant outQuant) {
  const detail::ConvGeometry g(inShape, filterShape, outShape);
  const auto multiplier =
      QuantizedMultiplier::fromReal(static_cast<double>(inQuant.scale) * filterQuant.scale / outQuant.scale);
  quantConv(input, g, inQuant, filter, filterQuant.zeroPoint, bias, params, out, outQuant,
            [&](uint32_t) -> const QuantizedMultiplier& { return multiplier; });
}

void conv2dPerChannel(const uint8_t* input, const Shape& inShape, Quant inQuant, const int8_t* filter,
                      const Shape& filterShape, const float* filterScales, const int32_t* bias,
                      const Conv2DParams& params, uint8_t* out, const Shape& outShape, Quant outQuant) {
  const detail::ConvGeometry g(inShape, filterShape, outShape);
  std::vector<QuantizedMultiplier> multipliers(g.outC);
  for (uint32_t oc = 0; oc < g.outC; ++oc) {
    multipliers[oc] = QuantizedMultiplier::fromReal(static_cast<double>(inQuant.scale) * filterScales[oc] /
                                                    outQuant.scale);
  }
  quantConv(input, g, inQuant, filter, 0, bias, params, out, outQuant,
            [&](uint32_t oc) -> const QuantizedMultiplier& { return multipliers[oc]; });
}

}  // namespace nnrt::cpu
