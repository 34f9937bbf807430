#include "plugins/cpu/kernels/normalization.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "plugins/cpu/kernels/parallel.hpp"

namespace nnrt::cpu {
namespace {

// The shape seen around `axis`: outer x axisSize x inner.
struct AxisView {
  size_t outer = 1, size = 1, inner = 1;
};
AxisView around(const Shape& shape, uint32_t axis) {
  AxisView v;
  for (size_t i = 0; i < shape.rank(); ++i) {
    if (i < axis) v.outer *= shape.dims[i];
    if (i == axis) v.size = shape.dims[i];
    if (i > axis) v.inner *= shape.dims[i];
  }
  return v;
}

// One source coordinate of a bilinear sample: the two neighbours and the weight of the upper one.
struct Sample {
  uint32_t lo = 0, hi = 0;
  float frac = 0.0f;
};
Sample sampleAt(uint32_t outIndex, uint32_t inSize, uint32_t outSize, bool alignCorners, bool halfPixelCenters) {
  const float scale = (alignCorners && outSize > 1) ? static_cast<float>(inSize - 1) / static_cast<float>(outSize - 1)
                                                    : static_cast<float>(inSize) / static_cast<float>(outSize);
  const float x = halfPixelCenters ? (static_cast<float>(outIndex) + 0.5f) * scale - 0.5f
                                   : static_cast<float>(outIndex) * scale;
  const float clamped = std::min(std::max(x, 0.0f), static_cast<float>(inSize - 1));
  Sample s;
  s.lo = static_cast<uint32_t>(std::floor(clamped));
  s.hi = std::min(s.lo + 1, inSize - 1);
  s.frac = clamped - static_cast<float>(s.lo);
  return s;
}

// Calls emit(outOffset, v00, v01, v10, v11 offsets, fy, fx) for every output element.
template <class Emit>
void forEachBilinear(const Shape& inShape, bool alignCorners, bool halfPixelCenters, const Shape& outShape,
                     const Emit& emit) {
  const uint32_t n = inShape.dims[0], ih = inShape.dims[1], iw = inShape.dims[2], c = inShape.dims[3];
  const uint32_t oh = outShape.dims[1], ow = outShape.dims[2];
  std::vector<Sample> columns(ow);  // the same for every row
  for (uint32_t x = 0; x < ow; ++x) columns[x] = sampleAt(x, iw, ow, alignCorners, halfPixelCenters);
  // Output rows (an image's row of pixels each) shared out over the threads.
  detail::parallelFor(size_t{n} * oh, size_t{ow} * c * 4, [&](size_t first, size_t last) {
    for (size_t row = first; row < last; ++row) {
      const size_t b = row / oh;
      const auto y = static_cast<uint32_t>(row % oh);
      const Sample sy = sampleAt(y, ih, oh, alignCorners, halfPixelCenters);
      const size_t row0 = (b * ih + sy.lo) * iw, row1 = (b * ih + sy.hi) * iw;
      for (uint32_t x = 0; x < ow; ++x) {
        const Sample& sx = columns[x];
        const size_t outBase = (row * ow + x) * c;
        for (uint32_t k = 0; k < c; ++k) {
          emit(outBase + k, (row0 + sx.lo) * c + k, (row0 + sx.hi) * c + k, (row1 + sx.lo) * c + k,
               (row1 + sx.hi) * c + k, sy.frac, sx.frac);
        }
      }
    }
  });
}

}  // namespace

void l2Normalization(const float* in, const Shape& shape, uint32_t axis, float* out) {
  const AxisView v = around(shape, axis);
  // Each vector along the axis on its own: the vectors are shared out over the threads.
  detail::parallelFor(v.outer * v.inner, 3 * v.size, [&](size_t first, size_t last) {
    for (size_t vector = first; vector < last; ++vector) {
      const size_t o = vector / v.inner, i = vector % v.inner;
      const size_t base = o * v.size * v.inner + i;
      double sum = 0.0;
      for (size_t a = 0; a < v.size; ++a) {
        const double x = in[base + a * v.inner];
        sum += x * x;
      }
      const double norm = std::max(std::sqrt(sum), 1e-6);
      for (size_t a = 0; a < v.size; ++a)
        out[base + a * v.inner] = static_cast<float>(in[base + a * v.inner] / norm);
    }
  });
}

void l2Normalization(const uint8_t* in, const Shape& shape, Quant inQuant, uint32_t axis, uint8_t* out) {
  const AxisView v = around(shape, axis);
  for (size_t o = 0; o < v.outer; ++o) {
    for (size_t i = 0; i < v.inner; ++i) {
      const size_t base = o * v.size * v.inner + i;
      int64_t sum = 0;
      for (size_t a = 0; a < v.size; ++a) {
        const int64_t x = static_cast<int64_t>(in[base + a * v.inner]) - inQuant.zeroPoint;
        sum += x * x;
      }
      const double inverse = sum == 0 ? 0.0 : 128.0 / std::sqrt(static_cast<double>(sum));
      for (size_t a = 0; a < v.size; ++a) {
        const int64_t x = static_cast<int64_t>(in[base + a * v.inner]) - inQuant.zeroPoint;
        const double q = std::round(static_cast<double>(x) * inverse) + 128.0;
        out[base + a * v.inner] = static_cast<uint8_t>(std::clamp(q, 0.0, 255.0));
      }
    }
  }
}

void localResponseNormalization(const float* in, const Shape& shape, uint32_t axis, int32_t radius, float bias,
                                float alpha, float beta, float* out) {
  const AxisView v = around(shape, axis);
  const int64_t size = static_cast<int64_t>(v.size);
  // Each vector along the axis on its own (a power per element: 13 ns per value on one thread).
  detail::parallelFor(v.outer * v.inner, 30 * v.size, [&](size_t first, size_t last) {
    for (size_t vector = first; vector < last; ++vector) {
      const size_t o = vector / v.inner, i = vector % v.inner;
      const size_t base = o * v.size * v.inner + i;
      for (int64_t a = 0; a < size; ++a) {
        const int64_t from = std::max<int64_t>(0, a - radius);
        const int64_t to = std::min<int64_t>(size - 1, a + radius);
        double sum = 0.0;
        for (int64_t j = from; j <= to; ++j) {
          const double x = in[base + static_cast<size_t>(j) * v.inner];
          sum += x * x;
        }
        const double x = in[base + static_cast<size_t>(a) * v.inner];
        out[base + static_cast<size_t>(a) * v.inner] =
            static_cast<float>(x / std::pow(static_cast<double>(bias) + static_cast<double>(alpha) * sum,
                                            static_cast<double>(beta)));
      }
    }
  });
}

void resizeBilinear(const float* in, const Shape& inShape, bool alignCorners, bool halfPixelCenters, float* out,
                    const Shape& outShape) {
  const uint32_t n = inShape.dims[0], ih = inShape.dims[1], iw = inShape.dims[2];
  const uint32_t oh = outShape.dims[1], ow = outShape.dims[2];
  if (inShape.dims[3] == 1) {
    // One channel (an NCHW tensor's planes, kernel_call.hpp's runNhwcOrPlanes): each input row an output
    // row reads is interpolated along x once (output rows share them when enlarging), then each output
    // row between two of those, a loop that vectorizes. The same arithmetic as the general case below.
    std::vector<Sample> columns(ow), rows(oh);
    for (uint32_t x = 0; x < ow; ++x) columns[x] = sampleAt(x, iw, ow, alignCorners, halfPixelCenters);
    std::vector<char> read(ih, 0);
    for (uint32_t y = 0; y < oh; ++y) {
      rows[y] = sampleAt(y, ih, oh, alignCorners, halfPixelCenters);
      read[rows[y].lo] = read[rows[y].hi] = 1;
    }
    detail::parallelFor(n, size_t{oh} * ow * 4, [&](size_t first, size_t last) {
      std::vector<float> alongX(size_t{ih} * ow);
      for (size_t b = first; b < last; ++b) {
        const float* plane = in + b * ih * iw;
        for (uint32_t r = 0; r < ih; ++r) {
          if (read[r] == 0) continue;
          const float* source = plane + size_t{r} * iw;
          float* line = alongX.data() + size_t{r} * ow;
          for (uint32_t x = 0; x < ow; ++x) {
            const Sample& sx = columns[x];
            line[x] = source[sx.lo] + (source[sx.hi] - source[sx.lo]) * sx.frac;
          }
        }
        for (uint32_t y = 0; y < oh; ++y) {
          const float* top = alongX.data() + size_t{rows[y].lo} * ow;
          const float* bottom = alongX.data() + size_t{rows[y].hi} * ow;
          const float fy = rows[y].frac;
          float* o = out + (b * oh + y) * ow;
          for (uint32_t x = 0; x < ow; ++x) o[x] = top[x] + (bottom[x] - top[x]) * fy;
        }
      }
    });
    return;
  }
  forEachBilinear(inShape, alignCorners, halfPixelCenters, outShape,
                  [&](size_t o, size_t i00, size_t i01, size_t i10, size_t i11, float fy, float fx) {
                    const float top = in[i00] + (in[i01] - in[i00]) * fx;
                    const float bottom = in[i10] + (in[i11] - in[i10]) * fx;
                    out[o] = top + (bottom - top) * fy;
                  });
}

void resizeBilinear(const uint8_t* in, const Shape& inShape, Quant inQuant, bool alignCorners,
                    bool halfPixelCenters, uint8_t* out, const Shape& outShape, Quant outQuant) {
  const double rescale = static_cast<double>(inQuant.scale) / static_cast<double>(outQuant.scale);
  forEachBilinear(inShape, alignCorners, halfPixelCenters, outShape,
                  [&](size_t o, size_t i00, size_t i01, size_t i10, size_t i11, float fy, float fx) {
                    const double top = in[i00] + (static_cast<double>(in[i01]) - in[i00]) * fx;
                    const double bottom = in[i10] + (static_cast<double>(in[i11]) - in[i10]) * fx;
                    const double value = top + (bottom - top) * fy;
                    const double q = std::round((value - inQuant.zeroPoint) * rescale) + outQuant.zeroPoint;
                    out[o] = static_cast<uint8_t>(std::clamp(q, 0.0, 255.0));
                  });
}

void dequantize(const uint8_t* in, size_t count, Quant quant, float* out) {
  for (size_t i = 0; i < count; ++i)
    out[i] = static_cast<float>(static_cast<int32_t>(in[i]) - quant.zeroPoint) * quant.scale;
}

void dequantize(const int8_t* in, size_t count, Quant quant, float* out) {
  for (size_t i = 0; i < count; ++i)
    out[i] = static_cast<float>(static_cast<int32_t>(in[i]) - quant.zeroPoint) * quant.scale;
}

void dequantizePerChannel(const int8_t* in, const Shape& shape, uint32_t channelDim, const float* scales,
                          float* out) {
  const AxisView v = around(shape, channelDim);
  for (size_t o = 0; o < v.outer; ++o) {
    for (size_t a = 0; a < v.size; ++a) {
      const size_t base = (o * v.size + a) * v.inner;
      for (size_t i = 0; i < v.inner; ++i)
        out[base + i] = static_cast<float>(in[base + i]) * scales[a];
    }
  }
}

}  // namespace nnrt::cpu
