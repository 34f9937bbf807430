#include "plugins/cpu/kernels/softmax.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "plugins/cpu/kernels/exp_float.hpp"
#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/row_reduce.hpp"
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

// One softmax over n consecutive elements: the row's maximum (detail::rowExtremum), 16 running sums that
// the loop keeps in vector lanes, and the vectorizable exponential of the element-wise kernels (exp_float.hpp). Compiled for
// AVX-512 and AVX2 as well as the baseline (the kernels keep IEEE order: -ffp-contract=off).
__attribute__((target_clones("avx512f", "avx2", "default")))
void softmaxRow(const float* x, size_t n, float beta, float* y) {
  constexpr size_t kLanes = 16;
  const float maxValue = detail::rowExtremum<true>(x, n, x[0]);
  float sums[kLanes] = {};
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) {
      const float e = expFloat((x[i + j] - maxValue) * beta);
      y[i + j] = e;
      sums[j] += e;
    }
  }
  float sum = 0.0f;
  for (size_t j = 0; j < kLanes; ++j)
    sum += sums[j];
  for (; i < n; ++i) {
    y[i] = expFloat((x[i] - maxValue) * beta);
    sum += y[i];
  }
  const float scale = 1.0f / sum;
  for (i = 0; i < n; ++i)
    y[i] *= scale;
}

}  // namespace

void softmax(const float* in, const Shape& shape, float beta, uint32_t axis, float* out) {
  const Slices s(shape, axis);
  if (s.axisSize == 0) return;
  if (s.inner == 1) {  // the usual case: each softmax over consecutive elements
    detail::parallelFor(s.count(), s.axisSize * 8, [&](size_t begin, size_t end) {
      for (size_t slice = begin; slice < end; ++slice)
        softmaxRow(in + slice * s.axisSize, s.axisSize, beta, out + slice * s.axisSize);
    });
    return;
  }
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
