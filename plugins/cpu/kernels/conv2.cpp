#include "plugins/cpu/kernels/conv2.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "plugins/cpu/kernels/conv.hpp"
#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/row_reduce.hpp"
#include "plugins/cpu/kernels/quantization.hpp"

namespace nnrt::cpu {
namespace {

// ---- GROUPED_CONV_2D: each group gathered into its own [N, H, W, Cg] input and run as a CONV_2D ----------

// runGroup(groupInput, groupInShape, g, groupOutput, groupOutShape) computes group g's output channels.
template <typename T, typename RunGroup>
void perGroup(const T* input, const Shape& inShape, uint32_t groups, const Shape& outShape, T* out,
              const RunGroup& runGroup) {
  const uint32_t n = inShape.dims[0], h = inShape.dims[1], w = inShape.dims[2], cin = inShape.dims[3];
  const uint32_t oh = outShape.dims[1], ow = outShape.dims[2], cout = outShape.dims[3];
  const uint32_t cg = cin / groups, og = cout / groups;
  const size_t pixels = size_t{n} * h * w, outPixels = size_t{n} * oh * ow;
  std::vector<T> groupIn(pixels * cg), groupOut(outPixels * og);
  const Shape groupInShape{{n, h, w, cg}}, groupOutShape{{n, oh, ow, og}};
  for (uint32_t g = 0; g < groups; ++g) {
    for (size_t p = 0; p < pixels; ++p)
      std::copy_n(input + p * cin + size_t{g} * cg, cg, groupIn.data() + p * cg);
    runGroup(groupIn.data(), groupInShape, g, groupOut.data(), groupOutShape);
    for (size_t p = 0; p < outPixels; ++p)
      std::copy_n(groupOut.data() + p * og, og, out + p * cout + size_t{g} * og);
  }
}

// The filter rows (and bias entries) of group g: rows [g * og, (g + 1) * og).
Shape groupFilterShape(const Shape& filterShape, uint32_t groups) {
  return Shape{{filterShape.dims[0] / groups, filterShape.dims[1], filterShape.dims[2], filterShape.dims[3]}};
}

}  // namespace

void groupedConv2d(const float* input, const Shape& inShape, const float* filter, const Shape& filterShape,
                   const float* bias, uint32_t groups, const Conv2DParams& params, float* out,
                   const Shape& outShape) {
  const Shape gf = groupFilterShape(filterShape, groups);
  const size_t filterSize = gf.elements(), og = gf.dims[0];
  perGroup(input, inShape, groups, outShape, out,
           [&](const float* in, const Shape& inS, uint32_t g, float* o, const Shape& outS) {
             conv2d(in, inS, filter + g * filterSize, gf, bias == nullptr ? nullptr : bias + g * og, params, o,
                    outS);
           });
}

void groupedConv2d(const uint8_t* input, const Shape& inShape, Quant inQuant, const uint8_t* filter,
                   const Shape& filterShape, Quant filterQuant, const int32_t* bias, uint32_t groups,
                   const Conv2DParams& params, uint8_t* out, const Shape& outShape, Quant outQuant) {
  const Shape gf = groupFilterShape(filterShape, groups);
  const size_t filterSize = gf.elements(), og = gf.dims[0];
  perGroup(input, inShape, groups, outShape, out,
           [&](const uint8_t* in, const Shape& inS, uint32_t g, uint8_t* o, const Shape& outS) {
             conv2d(in, inS, inQuant, filter + g * filterSize, gf, filterQuant,
                    bias == nullptr ? nullptr : bias + g * og, params, o, outS, outQuant);
           });
}

void groupedConv2dPerChannel(const uint8_t* input, const Shape& inShape, Quant inQuant, const int8_t* filter,
                             const Shape& filterShape, const float* filterScales, const int32_t* bias,
                             uint32_t groups, const Conv2DParams& params, uint8_t* out, const Shape& outShape,
                             Quant outQuant) {
  const Shape gf = groupFilterShape(filterShape, groups);
  const size_t filterSize = gf.elements(), og = gf.dims[0];
  perGroup(input, inShape, groups, outShape, out,
           [&](const uint8_t* in, const Shape& inS, uint32_t g, uint8_t* o, const Shape& outS) {
             conv2dPerChannel(in, inS, inQuant, filter + g * filterSize, gf, filterScales + g * og,
                              bias == nullptr ? nullptr : bias + g * og, params, o, outS, outQuant);
           });
}

// ---- TRANSPOSE_CONV_2D ------------------------------------------------------------------------------------

namespace {

// Scatters every input pixel through the filter into acc [N, OH, OW, Cout] (already holding the bias);
// product(inputIndex, filterIndex) is one input value times one filter value.
template <typename Acc, typename Product>
void transposeScatter(const Shape& inShape, const Shape& filterShape, const Conv2DParams& p, const Shape& outShape,
                      Acc* acc, const Product& product) {
  const uint32_t n = inShape.dims[0], h = inShape.dims[1], w = inShape.dims[2], cin = inShape.dims[3];
  const uint32_t cout = filterShape.dims[0], kh = filterShape.dims[1], kw = filterShape.dims[2];
  const int64_t oh = outShape.dims[1], ow = outShape.dims[2];
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t iy = 0; iy < h; ++iy)
      for (uint32_t ix = 0; ix < w; ++ix) {
        const size_t inBase = ((size_t{b} * h + iy) * w + ix) * cin;
        for (uint32_t ky = 0; ky < kh; ++ky) {
          const int64_t oy = int64_t{iy} * p.strideH - p.padTop + ky;
          if (oy < 0 || oy >= oh) continue;
          for (uint32_t kx = 0; kx < kw; ++kx) {
            const int64_t ox = int64_t{ix} * p.strideW - p.padLeft + kx;
            if (ox < 0 || ox >= ow) continue;
            Acc* dst = acc + ((size_t{b} * oh + oy) * ow + ox) * cout;
            for (uint32_t oc = 0; oc < cout; ++oc) {
              const size_t filterBase = ((size_t{oc} * kh + ky) * kw + kx) * cin;
              Acc sum = 0;
              for (uint32_t ic = 0; ic < cin; ++ic) sum += product(inBase + ic, filterBase + ic);
              dst[oc] += sum;
            }
          }
        }
      }
}

template <typename Filter, typename MultiplierOf>
void quantTransposeConv(const uint8_t* input, const Shape& inShape, Quant inQuant, const Filter* filter,
                        int32_t filterZero, const Shape& filterShape, const int32_t* bias, const Conv2DParams& p,
                        uint8_t* out, const Shape& outShape, Quant outQuant, const MultiplierOf& multiplierOf) {
  const uint32_t cout = outShape.dims[3];
  const size_t positions = outShape.elements() / cout;
  std::vector<int32_t> acc(outShape.elements(), 0);
  for (size_t i = 0; i < positions; ++i)
    for (uint32_t oc = 0; oc < cout; ++oc) acc[i * cout + oc] = bias != nullptr ? bias[oc] : 0;
  const int32_t inZero = inQuant.zeroPoint;
  transposeScatter(inShape, filterShape, p, outShape, acc.data(), [&](size_t i, size_t f) {
    return (int32_t{input[i]} - inZero) * (int32_t{filter[f]} - filterZero);
  });
  const auto [lo, hi] = activationRangeQuant8(p.act, outQuant);
  for (size_t i = 0; i < positions; ++i)
    for (uint32_t oc = 0; oc < cout; ++oc) {
      const size_t k = i * cout + oc;
      out[k] = clampToUint8(multiplierOf(oc).apply(acc[k]) + outQuant.zeroPoint, lo, hi);
    }
}

}  // namespace

void transposeConv2d(const float* input, const Shape& inShape, const float* filter, const Shape& filterShape,
                     const float* bias, const Conv2DParams& params, float* out, const Shape& outShape) {
  const uint32_t cout = outShape.dims[3];
  const size_t positions = outShape.elements() / std::max<uint32_t>(cout, 1);
  for (size_t i = 0; i < positions; ++i)
    for (uint32_t oc = 0; oc < cout; ++oc) out[i * cout + oc] = bias != nullptr ? bias[oc] : 0.0f;
  transposeScatter(inShape, filterShape, params, outShape, out,
                   [&](size_t i, size_t f) { return input[i] * filter[f]; });
  const auto range = activationRange(params.act);
  for (size_t i = 0; i < outShape.elements(); ++i) out[i] = std::clamp(out[i], range.min, range.max);
}

void transposeConv2d(const uint8_t* input, const Shape& inShape, Quant inQuant, const uint8_t* filter,
                     const Shape& filterShape, Quant filterQuant, const int32_t* bias, const Conv2DParams& params,
                     uint8_t* out, const Shape& outShape, Quant outQuant) {
  const auto multiplier =
      QuantizedMultiplier::fromReal(static_cast<double>(inQuant.scale) * filterQuant.scale / outQuant.scale);
  quantTransposeConv(input, inShape, inQuant, filter, filterQuant.zeroPoint, filterShape, bias, params, out,
                     outShape, outQuant, [&](uint32_t) -> const QuantizedMultiplier& { return multiplier; });
}

void transposeConv2dPerChannel(const uint8_t* input, const Shape& inShape, Quant inQuant, const int8_t* filter,
                               const Shape& filterShape, const float* filterScales, const int32_t* bias,
                               const Conv2DParams& params, uint8_t* out, const Shape& outShape,
                               Quant outQuant) {
  std::vector<QuantizedMultiplier> multipliers(filterShape.dims[0]);
  for (size_t oc = 0; oc < multipliers.size(); ++oc) {
    multipliers[oc] =
        QuantizedMultiplier::fromReal(static_cast<double>(inQuant.scale) * filterScales[oc] / outQuant.scale);
  }
  quantTransposeConv(input, inShape, inQuant, filter, 0, filterShape, bias, params, out, outShape, outQuant,
                     [&](uint32_t oc) -> const QuantizedMultiplier& { return multipliers[oc]; });
}

// ---- RESIZE_NEAREST_NEIGHBOR ------------------------------------------------------------------------------

namespace {

uint32_t nearestIndex(uint32_t outIndex, uint32_t inSize, uint32_t outSize, bool alignCorners,
                      bool halfPixelCenters) {
  const float scale = (alignCorners && outSize > 1) ? static_cast<float>(inSize - 1) / static_cast<float>(outSize - 1)
                                                    : static_cast<float>(inSize) / static_cast<float>(outSize);
  const float x = halfPixelCenters ? (static_cast<float>(outIndex) + 0.5f) * scale
                                   : static_cast<float>(outIndex) * scale;
  int64_t i = alignCorners ? static_cast<int64_t>(std::round(x)) : static_cast<int64_t>(std::floor(x));
  i = std::min<int64_t>(i, int64_t{inSize} - 1);
  return static_cast<uint32_t>(std::max<int64_t>(i, 0));
}

}  // namespace

void resizeNearest(const void* input, const Shape& inShape, size_t elementSize, bool alignCorners,
                   bool halfPixelCenters, void* out, const Shape& outShape) {
  const uint32_t n = inShape.dims[0], h = inShape.dims[1], w = inShape.dims[2], c = inShape.dims[3];
  const uint32_t oh = outShape.dims[1], ow = outShape.dims[2];
  const auto* in = static_cast<const uint8_t*>(input);
  const size_t pixelBytes = size_t{c} * elementSize;
  std::vector<uint32_t> columns(ow);  // the same for every row
  for (uint32_t x = 0; x < ow; ++x) columns[x] = nearestIndex(x, w, ow, alignCorners, halfPixelCenters);
  // Output rows (an image's row of pixels each) shared out over the threads. (Without the fixed-size
  // moves below, 256 planes of 40x40 to 80x80 took 1.50-1.54 ms instead of 0.48.)
  detail::parallelFor(size_t{n} * oh, size_t{ow} * c, [&](size_t first, size_t last) {
    for (size_t row = first; row < last; ++row) {
      const size_t b = row / oh;
      const uint32_t iy = nearestIndex(static_cast<uint32_t>(row % oh), h, oh, alignCorners, halfPixelCenters);
      const uint8_t* source = in + (b * h + iy) * w * pixelBytes;
      uint8_t* dst = static_cast<uint8_t*>(out) + row * ow * pixelBytes;
      if (pixelBytes == 4) {  // one 4-byte channel (an NCHW plane's row): fixed-size moves, not a memcpy call each
        for (uint32_t x = 0; x < ow; ++x) std::memcpy(dst + 4 * size_t{x}, source + 4 * size_t{columns[x]}, 4);
      } else {
        for (uint32_t x = 0; x < ow; ++x, dst += pixelBytes)
          std::memcpy(dst, source + columns[x] * pixelBytes, pixelBytes);
      }
    }
  });
}

// ---- INSTANCE_NORMALIZATION -------------------------------------------------------------------------------

namespace {

// One plane of INSTANCE_NORMALIZATION, compiled for AVX-512 and AVX2 too (detail::rowSum's vectors).
__attribute__((target_clones("avx512f", "avx2", "default")))
void normalizePlane(const float* in, size_t plane, float gamma, float beta, float epsilon, float* o) {
  const double mean = detail::rowSum(in, plane) / static_cast<double>(plane);
  const double squares = detail::rowSum(in, plane, [mean](float v) {
    const double d = v - mean;
    return d * d;
  });
  const double factor =
      static_cast<double>(gamma) / std::sqrt(squares / static_cast<double>(plane) + static_cast<double>(epsilon));
  for (size_t i = 0; i < plane; ++i) o[i] = static_cast<float>((in[i] - mean) * factor + static_cast<double>(beta));
}

}  // namespace

void instanceNormalization(const float* input, const Shape& shape, float gamma, float beta, float epsilon,
                           float* out) {
  const uint32_t n = shape.dims[0], c = shape.dims[3];
  const size_t plane = size_t{shape.dims[1]} * shape.dims[2];
  if (c == 1 && plane > 0) {
    // Images of one channel (an NCHW tensor's planes, kernel_call.hpp's runNhwcOrPlanes), shared out over
    // the threads: each plane's sum and squares by partial sums in double (detail::rowSum), loops that
    // vectorize where one running sum would wait on each addition.
    detail::parallelFor(n, 6 * plane, [&](size_t first, size_t last) {
      for (size_t b = first; b < last; ++b) normalizePlane(input + b * plane, plane, gamma, beta, epsilon, out + b * plane);
    });
    return;
  }
  // Blocks of up to 16 channels of one image, shared out over the threads: each walks the image's
  // pixels in order, its channels side by side (the sums of each channel in pixel order, as one
  // channel at a time would add them).
  constexpr size_t kBlock = 16;
  const size_t blocks = (c + kBlock - 1) / kBlock;
  detail::parallelFor(size_t{n} * blocks, 6 * plane * kBlock, [&](size_t first, size_t last) {
    for (size_t index = first; index < last; ++index) {
      const size_t b = index / blocks, c0 = index % blocks * kBlock, width = std::min(kBlock, c - c0);
      const float* in = input + b * plane * c + c0;
      float* o = out + b * plane * c + c0;
      double sum[kBlock] = {}, squares[kBlock] = {}, mean[kBlock], factor[kBlock];
      for (size_t i = 0; i < plane; ++i)
        for (size_t k = 0; k < width; ++k) sum[k] += in[i * c + k];
      for (size_t k = 0; k < width; ++k) mean[k] = plane == 0 ? 0.0 : sum[k] / static_cast<double>(plane);
      for (size_t i = 0; i < plane; ++i)
        for (size_t k = 0; k < width; ++k) squares[k] += (in[i * c + k] - mean[k]) * (in[i * c + k] - mean[k]);
      for (size_t k = 0; k < width; ++k) {
        const double variance = plane == 0 ? 0.0 : squares[k] / static_cast<double>(plane);
        factor[k] = static_cast<double>(gamma) / std::sqrt(variance + static_cast<double>(epsilon));
      }
      for (size_t i = 0; i < plane; ++i)
        for (size_t k = 0; k < width; ++k)
          o[i * c + k] = static_cast<float>((in[i * c + k] - mean[k]) * factor[k] + static_cast<double>(beta));
    }
  });
}

// ---- BATCH_MATMUL -----------------------------------------------------------------------------------------

namespace {

// out[batch, i, j] = dot(lhs offset of (i, 0), lhs stride along K, rhs offset of (0, j), rhs stride along
// K, K) for every output element, the batch dimensions of size 1 broadcast.
template <typename T, typename Dot>
void forEachProduct(const Shape& lhsShape, const Shape& rhsShape, bool adjLhs, bool adjRhs, T* out,
                    const Shape& outShape, const Dot& dot) {
  const size_t rank = outShape.rank();
  const uint32_t lr0 = lhsShape.dims[rank - 2], lr1 = lhsShape.dims[rank - 1];
  const uint32_t rr0 = rhsShape.dims[rank - 2], rr1 = rhsShape.dims[rank - 1];
  const uint32_t m = adjLhs ? lr1 : lr0, k = adjLhs ? lr0 : lr1, ncol = adjRhs ? rr0 : rr1;
  // Strides of the matrices: lhs element (i, kk), rhs element (kk, j).
  const size_t lhsI = adjLhs ? 1 : lr1, lhsK = adjLhs ? lr1 : 1;
  const size_t rhsK = adjRhs ? 1 : rr1, rhsJ = adjRhs ? rr1 : 1;
  size_t batches = 1;
  for (size_t d = 0; d + 2 < rank; ++d) batches *= outShape.dims[d];
  for (size_t bi = 0; bi < batches; ++bi) {
    // The batch index of lhs and rhs: out's index with broadcast dimensions held at 0.
    size_t rest = bi, lhsBatch = 0, rhsBatch = 0, lhsStride = 1, rhsStride = 1;
    for (size_t d = rank - 2; d-- > 0;) {
      const size_t idx = rest % outShape.dims[d];
      rest /= outShape.dims[d];
      lhsBatch += (lhsShape.dims[d] == 1 ? 0 : idx) * lhsStride;
      rhsBatch += (rhsShape.dims[d] == 1 ? 0 : idx) * rhsStride;
      lhsStride *= lhsShape.dims[d];
      rhsStride *= rhsShape.dims[d];
    }
    const size_t lhsBase = lhsBatch * lr0 * lr1, rhsBase = rhsBatch * rr0 * rr1;
    T* o = out + bi * m * ncol;
    for (uint32_t i = 0; i < m; ++i)
      for (uint32_t j = 0; j < ncol; ++j)
        o[size_t{i} * ncol + j] = dot(lhsBase + i * lhsI, lhsK, rhsBase + j * rhsJ, rhsK, k);
  }
}

}  // namespace

void batchMatmul(const float* lhs, const Shape& lhsShape, const float* rhs, const Shape& rhsShape, bool adjLhs,
                 bool adjRhs, float* out, const Shape& outShape) {
  forEachProduct(lhsShape, rhsShape, adjLhs, adjRhs, out, outShape,
                 [&](size_t l, size_t lk, size_t r, size_t rk, uint32_t k) {
                   float sum = 0.0f;
                   for (uint32_t kk = 0; kk < k; ++kk) sum += lhs[l + kk * lk] * rhs[r + kk * rk];
                   return sum;
                 });
}

void batchMatmul(const int32_t* lhs, const Shape& lhsShape, const int32_t* rhs, const Shape& rhsShape,
                 bool adjLhs, bool adjRhs, int32_t* out, const Shape& outShape) {
  forEachProduct(lhsShape, rhsShape, adjLhs, adjRhs, out, outShape,
                 [&](size_t l, size_t lk, size_t r, size_t rk, uint32_t k) {
                   uint32_t sum = 0;  // unsigned: wraps instead of overflowing
                   for (uint32_t kk = 0; kk < k; ++kk)
                     sum += static_cast<uint32_t>(lhs[l + kk * lk]) * static_cast<uint32_t>(rhs[r + kk * rk]);
                   return static_cast<int32_t>(sum);
                 });
}

void batchMatmul(const uint8_t* lhs, const Shape& lhsShape, Quant lhsQuant, const uint8_t* rhs,
                 const Shape& rhsShape, Quant rhsQuant, bool adjLhs, bool adjRhs, uint8_t* out,
                 const Shape& outShape, Quant outQuant) {
  const auto multiplier =
      QuantizedMultiplier::fromReal(static_cast<double>(lhsQuant.scale) * rhsQuant.scale / outQuant.scale);
  forEachProduct(lhsShape, rhsShape, adjLhs, adjRhs, out, outShape,
                 [&](size_t l, size_t lk, size_t r, size_t rk, uint32_t k) {
                   int64_t sum = 0;
                   for (uint32_t kk = 0; kk < k; ++kk) {
                     sum += (int32_t{lhs[l + kk * lk]} - lhsQuant.zeroPoint) *
                            (int32_t{rhs[r + kk * rk]} - rhsQuant.zeroPoint);
                   }
                   return clampToUint8(multiplier.apply(sum) + outQuant.zeroPoint, 0, 255);
                 });
}

}  // namespace nnrt::cpu
