#include "plugins/cpu/kernels/softmax.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/quantization.hpp"

namespace nnrt::cpu {
namespace {

// The tensor seen as [outer, axisSize, inner]: one softmax per (outer, inner) pair, reading elements
// inner apart.
struct Slices {
  size_t outer = 1, axisSize = 1, inner = 1;

  Slices(const Shape& shape, uint32_t axis) {
    for (uint32_t i = 0; i < shape.rank(); ++i) {
      if (i < axis) outer *= shape.dims[i];
      if (i == axis) axisSize = shape.dims[i];
      if (i > axis) inner *= shape.dims[i];
    }
  }
  size_t count() const { return outer * inner; }
  size_t start(size_t slice) const { return (slice / inner) * axisSize * inner + slice % inner; }
};

}  // namespace

void softmax(const float* in, const Shape& shape, float beta, uint32_t axis, float* out) {
  const Slices s(shape, axis);
  if (s.axisSize == 0) return;
  detail::parallelFor(s.count(), s.axisSize * 8, [&](size_t begin, size_t end) {
    for (size_t slice = begin; slice < end; ++slice) {
      const float* x = in + s.start(slice);
      float* y = out + s.start(slice);
      float maxValue = x[0];
      for (size_t i = 1; i < s.axisSize; ++i)
        maxValue = std::max(maxValue, x[i * s.inner]);
      float sum = 0.0f;
      for (size_t i = 0; i < s.axisSize; ++i) {
        const float e = std::exp((x[i * s.inner] - maxValue) * beta);
        y[i * s.inner] = e;
        sum += e;
      }
      const float scale = 1.0f / sum;
      for (size_t i = 0; i < s.axisSize; ++i)
        y[i * s.inner] *= scale;
    }
  });
}

void softmax(const uint8_t* in, const Shape& shape, Quant inQuant, float beta, uint32_t axis, uint8_t* out) {
  // exp(-d * scale * beta) for every distance d = max - q an 8-bit slice can have.
  std::array<float, 256> expOfDistance{};
  for (int d = 0; d < 256; ++d) {
    expOfDistance[d] = static_cast<float>(std::exp(-static_cast<double>(d) * inQuant.scale * beta));
  }
  const Slices s(shape, axis);
  if (s.axisSize == 0) return;
  detail::parallelFor(s.count(), s.axisSize * 4, [&](size_t begin, size_t end) {
    for (size_t slice = begin; slice < end; ++slice) {
      const uint8_t* x = in + s.start(slice);
      uint8_t* y = out + s.start(slice);
      uint8_t maxValue = x[0];
      for (size_t i = 1; i < s.axisSize; ++i)
        maxValue = std::max(maxValue, x[i * s.inner]);
      float sum = 0.0f;
      for (size_t i = 0; i < s.axisSize; ++i)
        sum += expOfDistance[maxValue - x[i * s.inner]];
      const float toOutput = 256.0f / sum;  // output scale 1/256
      for (size_t i = 0; i < s.axisSize; ++i) {
        const float q = std::round(expOfDistance[maxValue - x[i * s.inner]] * toOutput);
        y[i * s.inner] = static_cast<uint8_t>(std::min(q, 255.0f));
      }
    }
  });
}

}  // namespace nnrt::cpu
