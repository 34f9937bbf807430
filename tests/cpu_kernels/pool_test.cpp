// AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D: hand-computed windows (padding excluded from averages),
// then random layers with padding, strides and batches against a direct double loop.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "cpu_kernels/test_support.hpp"
#include "plugins/cpu/kernels/pool.hpp"

namespace nnrt::cpu::test {
namespace {

Pool2DParams poolParams(uint32_t pad, uint32_t stride, uint32_t filter, Activation act = Activation::None) {
  return {pad, pad, pad, pad, stride, stride, filter, filter, act};
}

TEST(Pool2D, AverageByHand) {
  // input 3x3 = {1..9}, 2x2 windows, stride 1: (1+2+4+5)/4 = 3, (2+3+5+6)/4 = 4, 6, 7
  const std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<float> out(4);
  averagePool2d(in.data(), {{1, 3, 3, 1}}, poolParams(0, 1, 2), out.data(), {{1, 2, 2, 1}});
  expectFloatsNear(out, {3, 4, 6, 7});
}

TEST(Pool2D, AverageExcludesPaddingByHand) {
  // 3x3 windows, padding 1, stride 2: each corner window covers 4 input elements (sums 12, 16, 24, 28),
  // so the averages are 12/4 = 3, 4, 6, 7 (counting the padding would give 12/9 = 1.33...).
  const std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<float> out(4);
  averagePool2d(in.data(), {{1, 3, 3, 1}}, poolParams(1, 2, 3), out.data(), {{1, 2, 2, 1}});
  expectFloatsNear(out, {3, 4, 6, 7});
}

TEST(Pool2D, MaxPerChannelByHand) {
  // 2x2 input, 2 channels: c0 {1, -2, 3, 0} -> 3; c1 {-5, -1, -7, -3} -> -1; relu -> {3, 0}
  const std::vector<float> in{1, -5, -2, -1, 3, -7, 0, -3};
  std::vector<float> out(2);
  maxPool2d(in.data(), {{1, 2, 2, 2}}, poolParams(0, 1, 2), out.data(), {{1, 1, 1, 2}});
  expectFloatsNear(out, {3, -1});
  maxPool2d(in.data(), {{1, 2, 2, 2}}, poolParams(0, 1, 2, Activation::Relu), out.data(), {{1, 1, 1, 2}});
  expectFloatsNear(out, {3, 0});
}

TEST(Pool2D, L2ByHand) {
  // input 1x2 {3, 4}, window 1 row x 2 columns, padding right 1, stride 1 -> 2 outputs:
  // sqrt((9 + 16) / 2) = sqrt(12.5) = 3.5355339059; second window covers only {4}: sqrt(16 / 1) = 4
  const std::vector<float> in{3, 4};
  std::vector<float> out(2);
  Pool2DParams p{0, 1, 0, 0, 1, 1, 2, 1, Activation::None};
  l2Pool2d(in.data(), {{1, 1, 2, 1}}, p, out.data(), {{1, 1, 2, 1}});
  expectFloatsNear(out, {3.5355339059, 4});
}

TEST(Pool2D, QuantAverageAndMaxByHand) {
  // scale 0.5, zp 3. {1, 2, 4, 8}: average 15/4 = 3.75 -> 4; max 8
  // {0, 0, 1, 2}: average 3/4 = 0.75 -> 1, and relu (real 0 = q 3) lifts it to 3
  const std::vector<uint8_t> a{1, 2, 4, 8}, b{0, 0, 1, 2};
  std::vector<uint8_t> out(1);
  averagePool2d(a.data(), {{1, 2, 2, 1}}, {0.5f, 3}, poolParams(0, 1, 2), out.data(), {{1, 1, 1, 1}});
  EXPECT_EQ(out[0], 4);
  averagePool2d(b.data(), {{1, 2, 2, 1}}, {0.5f, 3}, poolParams(0, 1, 2), out.data(), {{1, 1, 1, 1}});
  EXPECT_EQ(out[0], 1);
  averagePool2d(b.data(), {{1, 2, 2, 1}}, {0.5f, 3}, poolParams(0, 1, 2, Activation::Relu), out.data(),
                {{1, 1, 1, 1}});
  EXPECT_EQ(out[0], 3);
  maxPool2d(a.data(), {{1, 2, 2, 1}}, {0.5f, 3}, poolParams(0, 1, 2), out.data(), {{1, 1, 1, 1}});
  EXPECT_EQ(out[0], 8);
  // {10, 200, 30, 40}, scale 0.1 zp 100: max 200 (real 10), relu6 caps at q 100 + 60 = 160
  const std::vector<uint8_t> c{10, 200, 30, 40};
  maxPool2d(c.data(), {{1, 2, 2, 1}}, {0.1f, 100}, poolParams(0, 1, 2, Activation::Relu6), out.data(),
            {{1, 1, 1, 1}});
  EXPECT_EQ(out[0], 160);
}

// ---- random layers ----

struct Layer {
  uint32_t n, h, w, c;
  Pool2DParams p;
  uint32_t outH() const { return (h + p.padTop + p.padBottom - p.filterH) / p.strideH + 1; }
  uint32_t outW() const { return (w + p.padLeft + p.padRight - p.filterW) / p.strideW + 1; }
  Shape inShape() const { return {{n, h, w, c}}; }
  Shape outShape() const { return {{n, outH(), outW(), c}}; }
};

const Layer kLayers[] = {
    {2, 9, 11, 3, {1, 1, 1, 1, 2, 2, 3, 3, Activation::None}},
    {1, 16, 13, 5, {0, 2, 1, 0, 3, 2, 4, 2, Activation::Relu}},
    {3, 7, 7, 2, {2, 2, 2, 2, 1, 1, 5, 5, Activation::Relu6}},  // windows much wider than the input edge
    {1, 8, 8, 4, {0, 0, 0, 0, 2, 2, 2, 2, Activation::Relu1}},
    {4, 32, 30, 16, {1, 1, 1, 1, 1, 1, 3, 3, Activation::None}},  // parallel
};

enum class Kind { Average, Max, L2 };

// Direct pooling in double over the in-bounds part of every window.
template <typename T>
std::vector<double> referencePool(const Layer& l, Kind kind, const std::vector<T>& in,
                                  const std::function<double(T)>& real) {
  std::vector<double> out;
  for (uint32_t b = 0; b < l.n; ++b) {
    for (uint32_t y = 0; y < l.outH(); ++y) {
      for (uint32_t x = 0; x < l.outW(); ++x) {
        for (uint32_t ch = 0; ch < l.c; ++ch) {
          double sum = 0, squares = 0, best = -std::numeric_limits<double>::infinity();
          int count = 0;
          for (uint32_t ky = 0; ky < l.p.filterH; ++ky) {
            for (uint32_t kx = 0; kx < l.p.filterW; ++kx) {
              const long iy = long(y * l.p.strideH + ky) - long(l.p.padTop);
              const long ix = long(x * l.p.strideW + kx) - long(l.p.padLeft);
              if (iy < 0 || iy >= long(l.h) || ix < 0 || ix >= long(l.w)) continue;
              const double v = real(in[((size_t{b} * l.h + iy) * l.w + ix) * l.c + ch]);
              sum += v;
              squares += v * v;
              best = std::max(best, v);
              ++count;
            }
          }
          const double value = kind == Kind::Average ? sum / count
                               : kind == Kind::Max   ? best
                                                     : std::sqrt(squares / count);
          out.push_back(activate(value, l.p.act));
        }
      }
    }
  }
  return out;
}

TEST(Pool2D, RandomFloatMatchesReference) {
  uint32_t seed = 1;
  for (const Layer& l : kLayers) {
    SCOPED_TRACE("layer " + std::to_string(seed));
    const auto in = randomFloats(l.inShape().elements(), -3, 3, seed++);
    const auto real = [](float v) { return double{v}; };
    std::vector<float> out(l.outShape().elements());
    averagePool2d(in.data(), l.inShape(), l.p, out.data(), l.outShape());
    expectFloatsNear(out, referencePool<float>(l, Kind::Average, in, real));
    maxPool2d(in.data(), l.inShape(), l.p, out.data(), l.outShape());
    expectFloatsNear(out, referencePool<float>(l, Kind::Max, in, real));
    l2Pool2d(in.data(), l.inShape(), l.p, out.data(), l.outShape());
    expectFloatsNear(out, referencePool<float>(l, Kind::L2, in, real));
  }
}

TEST(Pool2D, RandomQuantMatchesReference) {
  uint32_t seed = 20;
  for (const Layer& l : kLayers) {
    SCOPED_TRACE("layer " + std::to_string(seed));
    const Quant q{0.05f + 0.01f * (seed % 3), static_cast<int32_t>(seed * 41 % 256)};
    const auto in = randomBytes(l.inShape().elements(), seed++);
    const std::function<double(uint8_t)> real = [q](uint8_t v) { return dequantize(v, q); };
    std::vector<uint8_t> out(l.outShape().elements());
    for (Kind kind : {Kind::Average, Kind::Max}) {
      const auto reals = referencePool<uint8_t>(l, kind, in, real);
      std::vector<int> expected(reals.size());
      for (size_t i = 0; i < reals.size(); ++i)
        expected[i] = quantize(reals[i], q);
      if (kind == Kind::Average) {
        averagePool2d(in.data(), l.inShape(), q, l.p, out.data(), l.outShape());
      } else {
        maxPool2d(in.data(), l.inShape(), q, l.p, out.data(), l.outShape());
      }
      expectQuantNear(out, expected);
    }
  }
}

}  // namespace
}  // namespace nnrt::cpu::test
