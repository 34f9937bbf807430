#include <algorithm>
#include <vector>

#include "plugins/cpu/kernels/conv.hpp"
#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/quantization.hpp"
#include "plugins/cpu/kernels/window.hpp"

namespace nnrt::cpu {
namespace {

// Calls body(row, acc) for each output row (batch, oy) and each output position in it, after adding
// every in-bounds tap of that position into acc (Cout accumulators, pre-set by `reset`):
// acc[c] += input[.., c / multiplier] * filter[0, ky, kx, c]. Shared by the float and quantized paths
// (Filter is In, or int8_t for per-channel quantized filters).
template <typename In, typename Filter, typename Acc, typename Reset, typename Finish>
void depthwiseRows(const In* input, const Filter* filter, const detail::ConvGeometry& g, const Conv2DParams& p,
                   Acc inZero, Acc filterZero, const Reset& reset, const Finish& finish) {
  const uint32_t multiplier = g.outC / g.inC;
  const size_t workPerRow = size_t{g.outW} * g.outC * g.kernelH * g.kernelW;
  detail::parallelFor(size_t{g.batches} * g.outH, workPerRow, [&](size_t begin, size_t end) {
    std::vector<Acc> acc(g.outC);
    for (size_t row = begin; row < end; ++row) {
      const size_t n = row / g.outH;
      const auto oy = static_cast<uint32_t>(row % g.outH);
      const auto ys = detail::tapRange(oy, p.strideH, p.padTop, p.dilationH, g.kernelH, g.inH);
      for (uint32_t ox = 0; ox < g.outW; ++ox) {
        const auto xs = detail::tapRange(ox, p.strideW, p.padLeft, p.dilationW, g.kernelW, g.inW);
        reset(acc.data());
        for (uint32_t ky = ys.begin; ky < ys.end; ++ky) {
          const size_t iy = static_cast<size_t>(ys.inputIndex(ky, p.dilationH));
          for (uint32_t kx = xs.begin; kx < xs.end; ++kx) {
            const size_t ix = static_cast<size_t>(xs.inputIndex(kx, p.dilationW));
            const In* px = input + ((n * g.inH + iy) * g.inW + ix) * g.inC;
            const Filter* pf = filter + (size_t{ky} * g.kernelW + kx) * g.outC;
            if (multiplier == 1) {
              for (uint32_t c = 0; c < g.outC; ++c)
                acc[c] += (Acc(px[c]) - inZero) * (Acc(pf[c]) - filterZero);
            } else {
              for (uint32_t c = 0; c < g.outC; ++c) {
                acc[c] += (Acc(px[c / multiplier]) - inZero) * (Acc(pf[c]) - filterZero);
              }
            }
          }
        }
        finish((row * g.outW + ox) * g.outC, acc.data());
      }
    }
  });
}

}  // namespace

void depthwiseConv2d(const float* input, const Shape& inShape, const float* filter, const Shape& filterShape,
                     const float* bias, const Conv2DParams& params, float* out, const Shape& outShape) {
  const detail::ConvGeometry g(inShape, filterShape, outShape);
  const auto [lo, hi] = activationRange(params.act);
  const auto reset = [&](float* acc) {
    if (bias != nullptr) {
      std::copy(bias, bias + g.outC, acc);
    } else {
      std::fill(acc, acc + g.outC, 0.0f);
    }
  };
  const auto finish = [&](size_t offset, const float* acc) {
    for (uint32_t c = 0; c < g.outC; ++c)
      out[offset + c] = std::min(std::max(acc[c], lo), hi);
  };
  depthwiseRows<float, float, float>(input, filter, g, params, 0.0f, 0.0f, reset, finish);
}

namespace {

// The quantized depthwise convolution with the requantization multiplier of output channel c given
// by multiplierOf(c): per tensor (uint8 filter with a zero point) or per channel (int8, symmetric).
template <class FilterT, class MultiplierOf>
void depthwiseQuant(const uint8_t* input, Quant inQuant, const FilterT* filter, int32_t filterZeroPoint,
                    const int32_t* bias, const detail::ConvGeometry& g, const Conv2DParams& params,
                    const MultiplierOf& multiplierOf, uint8_t* out, Quant outQuant) {
  const auto [lo, hi] = activationRangeQuant8(params.act, outQuant);
  const auto reset = [&](int32_t* acc) {
    if (bias != nullptr) {
      std::copy(bias, bias + g.outC, acc);
    } else {
      std::fill(acc, acc + g.outC, 0);
    }
  };
  const auto finish = [&](size_t offset, const int32_t* acc) {
    for (uint32_t c = 0; c < g.outC; ++c) {
      out[offset + c] = clampToUint8(multiplierOf(c).apply(acc[c]) + outQuant.zeroPoint, lo, hi);
    }
  };
  depthwiseRows<uint8_t, FilterT, int32_t>(input, filter, g, params, inQuant.zeroPoint, filterZeroPoint, reset,
                                           finish);
}

}  // namespace

void depthwiseConv2d(const uint8_t* input, const Shape& inShape, Quant inQuant, const uint8_t* filter,
                     const Shape& filterShape, Quant filterQuant, const int32_t* bias,
                     const Conv2DParams& params, uint8_t* out, const Shape& outShape, Quant outQuant) {
  const detail::ConvGeometry g(inShape, filterShape, outShape);
  const auto multiplier =
      QuantizedMultiplier::fromReal(static_cast<double>(inQuant.scale) * filterQuant.scale / outQuant.scale);
  depthwiseQuant(input, inQuant, filter, filterQuant.zeroPoint, bias, g, params,
                 [&](uint32_t) -> const QuantizedMultiplier& { return multiplier; }, out, outQuant);
}

void depthwiseConv2dPerChannel(const uint8_t* input, const Shape& inShape, Quant inQuant, const int8_t* filter,
                               const Shape& filterShape, const float* filterScales, const int32_t* bias,
                               const Conv2DParams& params, uint8_t* out, const Shape& outShape,
                               Quant outQuant) {
  const detail::ConvGeometry g(inShape, filterShape, outShape);
  std::vector<QuantizedMultiplier> multipliers(g.outC);
  for (uint32_t c = 0; c < g.outC; ++c) {
    multipliers[c] = QuantizedMultiplier::fromReal(static_cast<double>(inQuant.scale) * filterScales[c] /
                                                   outQuant.scale);
  }
  depthwiseQuant(input, inQuant, filter, 0, bias, g, params,
                 [&](uint32_t c) -> const QuantizedMultiplier& { return multipliers[c]; }, out, outQuant);
}

}  // namespace nnrt::cpu
