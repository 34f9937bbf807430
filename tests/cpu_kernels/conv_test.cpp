// CONV_2D and DEPTHWISE_CONV_2D in float and quant8: hand-computed windows (padding, stride, dilation,
// 1x1, depth multiplier), then random layers against a direct double-precision loop.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "cpu_kernels/conv_reference.hpp"
#include "cpu_kernels/test_support.hpp"
#include "plugins/cpu/kernels/conv.hpp"

namespace nnrt::cpu::test {
namespace {

Conv2DParams params(uint32_t pad, uint32_t stride, uint32_t dilation, Activation act = Activation::None) {
  return {pad, pad, pad, pad, stride, stride, dilation, dilation, act};
}

TEST(Conv2D, FloatValidWindowByHand) {
  // input 3x3 = {1..9}, filter 2x2 = {1, 2; 3, 4}, bias 0.5, stride 1, no padding -> 2x2
  // (0,0): 1*1 + 2*2 + 4*3 + 5*4 = 37;  (0,1): 2 + 6 + 15 + 24 = 47
  // (1,0): 4 + 10 + 21 + 32 = 67;       (1,1): 5 + 12 + 24 + 36 = 77;  each + 0.5
  const std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8, 9}, filter{1, 2, 3, 4}, bias{0.5f};
  std::vector<float> out(4);
  conv2d(in.data(), {{1, 3, 3, 1}}, filter.data(), {{1, 2, 2, 1}}, bias.data(), params(0, 1, 1), out.data(),
         {{1, 2, 2, 1}});
  expectFloatsNear(out, {37.5, 47.5, 67.5, 77.5});
}

TEST(Conv2D, FloatPaddingAndStrideByHand) {
  // input 3x3 = {1..9}, 3x3 filter of ones, padding 1, stride 2 -> 2x2, windows centred on the corners:
  // (0,0): 1 + 2 + 4 + 5 = 12; (0,1): 2 + 3 + 5 + 6 = 16; (1,0): 4 + 5 + 7 + 8 = 24; (1,1): 5 + 6 + 8 + 9 =
  // 28
  const std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8, 9}, filter(9, 1.0f), bias{0};
  std::vector<float> out(4);
  conv2d(in.data(), {{1, 3, 3, 1}}, filter.data(), {{1, 3, 3, 1}}, bias.data(), params(1, 2, 1), out.data(),
         {{1, 2, 2, 1}});
  expectFloatsNear(out, {12, 16, 24, 28});
  conv2d(in.data(), {{1, 3, 3, 1}}, filter.data(), {{1, 3, 3, 1}}, bias.data(),
         params(1, 2, 1, Activation::Relu6), out.data(), {{1, 2, 2, 1}});
  expectFloatsNear(out, {6, 6, 6, 6});
}

TEST(Conv2D, FloatDilationByHand) {
  // input 4x4 = {1..16}, 2x2 filter of ones, dilation 2 (taps 2 apart) -> 2x2
  // (0,0): x00 + x02 + x20 + x22 = 1 + 3 + 9 + 11 = 24; (0,1): 2 + 4 + 10 + 12 = 28
  // (1,0): 5 + 7 + 13 + 15 = 40; (1,1): 6 + 8 + 14 + 16 = 44
  std::vector<float> in(16);
  for (int i = 0; i < 16; ++i)
    in[i] = static_cast<float>(i + 1);
  const std::vector<float> filter(4, 1.0f);
  std::vector<float> out(4);
  conv2d(in.data(), {{1, 4, 4, 1}}, filter.data(), {{1, 2, 2, 1}}, nullptr, params(0, 1, 2), out.data(),
         {{1, 2, 2, 1}});
  expectFloatsNear(out, {24, 28, 40, 44});
}

TEST(Conv2D, FloatPointwiseMixesChannelsByHand) {
  // 1x1 filter [3 out, 2 in] = {1, 1; 1, -1; 0, 2}, bias {0, 0, 1}
  // pixel (1, 2): {3, -1, 5}; pixel (3, 4): {7, -1, 9}; relu zeroes the -1s
  const std::vector<float> in{1, 2, 3, 4}, filter{1, 1, 1, -1, 0, 2}, bias{0, 0, 1};
  std::vector<float> out(6);
  conv2d(in.data(), {{1, 1, 2, 2}}, filter.data(), {{3, 1, 1, 2}}, bias.data(), params(0, 1, 1), out.data(),
         {{1, 1, 2, 3}});
  expectFloatsNear(out, {3, -1, 5, 7, -1, 9});
  conv2d(in.data(), {{1, 1, 2, 2}}, filter.data(), {{3, 1, 1, 2}}, bias.data(),
         params(0, 1, 1, Activation::Relu), out.data(), {{1, 1, 2, 3}});
  expectFloatsNear(out, {3, 0, 5, 7, 0, 9});
}

TEST(Conv2D, QuantByHand) {
  // input scale 0.5 zp 0: {2, 4, 6, 8} -> {1, 2, 3, 4}; filter scale 0.5 zp 128: {130, 128, 128, 126}
  // -> {1, 0, 0, -1}; bias scale 0.25: {4} -> 1.   1*1 + 4*(-1) + 1 = -2
  // output scale 0.25 zp 50: 50 - 8 = 42; relu: 50
  const std::vector<uint8_t> in{2, 4, 6, 8}, filter{130, 128, 128, 126};
  const std::vector<int32_t> bias{4};
  std::vector<uint8_t> out(1);
  conv2d(in.data(), {{1, 2, 2, 1}}, {0.5f, 0}, filter.data(), {{1, 2, 2, 1}}, {0.5f, 128}, bias.data(),
         params(0, 1, 1), out.data(), {{1, 1, 1, 1}}, {0.25f, 50});
  EXPECT_EQ(out[0], 42);
  conv2d(in.data(), {{1, 2, 2, 1}}, {0.5f, 0}, filter.data(), {{1, 2, 2, 1}}, {0.5f, 128}, bias.data(),
         params(0, 1, 1, Activation::Relu), out.data(), {{1, 1, 1, 1}}, {0.25f, 50});
  EXPECT_EQ(out[0], 50);
}

TEST(DepthwiseConv2D, FloatDepthMultiplierByHand) {
  // input 2x2, 2 channels: pixels (1, 10), (2, 20), (3, 30), (4, 40); multiplier 2 -> 4 output channels,
  // oc 0, 1 read channel 0 and oc 2, 3 read channel 1. Filter taps per oc (order (0,0), (0,1), (1,0), (1,1)):
  // oc0 {1, 1, 1, 1} -> 1 + 2 + 3 + 4 = 10;  oc1 {1, 0, 0, 0} -> 1
  // oc2 {0, 0, 0, 1} -> 40;                  oc3 {1, -1, 0, 0} -> 10 - 20 = -10, + bias 0.5 = -9.5
  const std::vector<float> in{1, 10, 2, 20, 3, 30, 4, 40};
  const std::vector<float> filter{1, 1, 0, 1,   // tap (0,0) for oc 0..3
                                  1, 0, 0, -1,  // tap (0,1)
                                  1, 0, 0, 0,   // tap (1,0)
                                  1, 0, 1, 0};  // tap (1,1)
  const std::vector<float> bias{0, 0, 0, 0.5f};
  std::vector<float> out(4);
  depthwiseConv2d(in.data(), {{1, 2, 2, 2}}, filter.data(), {{1, 2, 2, 4}}, bias.data(), params(0, 1, 1),
                  out.data(), {{1, 1, 1, 4}});
  expectFloatsNear(out, {10, 1, 40, -9.5});
}

TEST(DepthwiseConv2D, FloatPaddingAndStrideByHand) {
  // Same corner windows as the CONV_2D case, one channel: {12, 16, 24, 28}, then relu1 clamps to 1.
  const std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8, 9}, filter(9, 1.0f);
  std::vector<float> out(4);
  depthwiseConv2d(in.data(), {{1, 3, 3, 1}}, filter.data(), {{1, 3, 3, 1}}, nullptr, params(1, 2, 1),
                  out.data(), {{1, 2, 2, 1}});
  expectFloatsNear(out, {12, 16, 24, 28});
  depthwiseConv2d(in.data(), {{1, 3, 3, 1}}, filter.data(), {{1, 3, 3, 1}}, nullptr,
                  params(1, 2, 1, Activation::Relu1), out.data(), {{1, 2, 2, 1}});
  expectFloatsNear(out, {1, 1, 1, 1});
}

TEST(DepthwiseConv2D, QuantByHand) {
  // input scale 1 zp 0: {3, 5}; filter scale 0.5 zp 10: {12, 8} -> {1, -1}; bias scale 0.5: {2} -> 1
  // 3*1 + 5*(-1) + 1 = -1; output scale 0.5 zp 20: 20 - 2 = 18
  const std::vector<uint8_t> in{3, 5}, filter{12, 8};
  const std::vector<int32_t> bias{2};
  std::vector<uint8_t> out(1);
  depthwiseConv2d(in.data(), {{1, 1, 2, 1}}, {1.0f, 0}, filter.data(), {{1, 1, 2, 1}}, {0.5f, 10},
                  bias.data(), params(0, 1, 1), out.data(), {{1, 1, 1, 1}}, {0.5f, 20});
  EXPECT_EQ(out[0], 18);
}

// ---- random layers against a direct double loop (cpu_kernels/conv_reference.hpp) ----

const Layer kConvLayers[] = {
    {2, 9, 11, 3, 5, 3, 3, explicitParams(1, 1, 1, 1, 1, 1, 1, 1, Activation::None)},
    {1, 16, 13, 4, 6, 5, 3, explicitParams(2, 1, 0, 2, 3, 2, 1, 1, Activation::Relu)},
    {3, 12, 12, 2, 3, 3, 3, explicitParams(2, 2, 2, 2, 1, 1, 2, 2, Activation::Relu1)},
    {1, 10, 14, 3, 4, 3, 2, explicitParams(0, 3, 1, 0, 2, 1, 3, 2, Activation::None)},
    {2, 7, 9, 8, 5, 1, 1, explicitParams(0, 0, 0, 0, 1, 1, 1, 1, Activation::Relu6)},    // pointwise
    {1, 9, 9, 3, 4, 1, 1, explicitParams(0, 0, 0, 0, 2, 2, 1, 1, Activation::None)},     // 1x1, stride 2
    {1, 5, 5, 2, 3, 1, 1, explicitParams(1, 1, 1, 1, 1, 1, 1, 1, Activation::None)},     // 1x1, padded
    {2, 64, 64, 32, 8, 3, 3, explicitParams(1, 1, 1, 1, 1, 1, 1, 1, Activation::Relu)},  // im2col in slices
};

TEST(Conv2D, RandomFloatMatchesReference) {
  uint32_t seed = 1;
  for (const Layer& l : kConvLayers) {
    SCOPED_TRACE(l.name());
    const auto in = randomFloats(size_t{l.n} * l.h * l.w * l.inC, -1, 1, seed++);
    const auto filter = randomFloats(size_t{l.outC} * l.kh * l.kw * l.inC, -1, 1, seed++);
    const auto bias = randomFloats(l.outC, -1, 1, seed++);
    Reference ref = referenceConv(
        l, false, [&](size_t i) { return double{in[i]}; }, [&](size_t i) { return double{filter[i]}; },
        [&](size_t c) { return double{bias[c]}; });
    for (double& v : ref.value)
      v = activate(v, l.p.act);
    std::vector<float> out(ref.value.size());
    conv2d(in.data(), {{l.n, l.h, l.w, l.inC}}, filter.data(), {{l.outC, l.kh, l.kw, l.inC}}, bias.data(),
           l.p, out.data(), {{l.n, l.outH(), l.outW(), l.outC}});
    // SGEMM's float32 dot products err in proportion to the sum of |terms|, not to the (possibly
    // cancelling) result; see FullyConnected.RandomFloatMatchesReference.
    expectFloatsNear(out, ref.value, 1e-5, 1e-5, ref.magnitude, 1e-5);
  }
}

TEST(Conv2D, RandomQuantMatchesReference) {
  uint32_t seed = 40;
  for (const Layer& l : kConvLayers) {
    SCOPED_TRACE(l.name());
    const Quant qi{0.015f + 0.002f * (seed % 4), static_cast<int32_t>(seed * 31 % 256)};
    const Quant qf{0.01f + 0.003f * (seed % 3), static_cast<int32_t>(seed * 59 % 256)};
    const auto in = randomBytes(size_t{l.n} * l.h * l.w * l.inC, seed++);
    const auto filter = randomBytes(size_t{l.outC} * l.kh * l.kw * l.inC, seed++);
    const auto bias = randomInts(l.outC, -5000, 5000, seed++);
    const double biasScale = double{qi.scale} * qf.scale;
    const Reference ref = referenceConv(
        l, false, [&](size_t i) { return dequantize(in[i], qi); },
        [&](size_t i) { return dequantize(filter[i], qf); }, [&](size_t c) { return bias[c] * biasScale; });
    const Quant qo = quantFor(ref.value);
    std::vector<int> expected(ref.value.size());
    for (size_t i = 0; i < expected.size(); ++i)
      expected[i] = quantize(activate(ref.value[i], l.p.act), qo);
    std::vector<uint8_t> out(expected.size());
    conv2d(in.data(), {{l.n, l.h, l.w, l.inC}}, qi, filter.data(), {{l.outC, l.kh, l.kw, l.inC}}, qf,
           bias.data(), l.p, out.data(), {{l.n, l.outH(), l.outW(), l.outC}}, qo);
    expectQuantNear(out, expected);
  }
}

// Depthwise layers: outC = inC * multiplier.
const Layer kDepthwiseLayers[] = {
    {2, 9, 11, 3, 3, 3, 3, explicitParams(1, 1, 1, 1, 1, 1, 1, 1, Activation::None)},
    {1, 16, 13, 4, 8, 5, 3, explicitParams(2, 1, 0, 2, 3, 2, 1, 1, Activation::Relu)},
    {3, 12, 12, 2, 6, 3, 3, explicitParams(2, 2, 2, 2, 1, 1, 2, 2, Activation::Relu6)},
    {1, 10, 14, 5, 5, 2, 3, explicitParams(0, 3, 1, 0, 2, 1, 3, 2, Activation::Relu1)},
    {2, 48, 40, 17, 17, 3, 3, explicitParams(1, 1, 1, 1, 1, 1, 1, 1, Activation::None)},  // parallel
};

TEST(DepthwiseConv2D, RandomFloatMatchesReference) {
  uint32_t seed = 70;
  for (const Layer& l : kDepthwiseLayers) {
    SCOPED_TRACE(l.name());
    const auto in = randomFloats(size_t{l.n} * l.h * l.w * l.inC, -1, 1, seed++);
    const auto filter = randomFloats(size_t{l.kh} * l.kw * l.outC, -1, 1, seed++);
    const auto bias = randomFloats(l.outC, -1, 1, seed++);
    Reference ref = referenceConv(
        l, true, [&](size_t i) { return double{in[i]}; }, [&](size_t i) { return double{filter[i]}; },
        [&](size_t c) { return double{bias[c]}; });
    for (double& v : ref.value)
      v = activate(v, l.p.act);
    std::vector<float> out(ref.value.size());
    depthwiseConv2d(in.data(), {{l.n, l.h, l.w, l.inC}}, filter.data(), {{1, l.kh, l.kw, l.outC}},
                    bias.data(), l.p, out.data(), {{l.n, l.outH(), l.outW(), l.outC}});
    expectFloatsNear(out, ref.value, 1e-5, 1e-5, ref.magnitude, 1e-5);
  }
}

TEST(DepthwiseConv2D, RandomQuantMatchesReference) {
  uint32_t seed = 90;
  for (const Layer& l : kDepthwiseLayers) {
    SCOPED_TRACE(l.name());
    const Quant qi{0.02f + 0.002f * (seed % 4), static_cast<int32_t>(seed * 31 % 256)};
    const Quant qf{0.01f + 0.003f * (seed % 3), static_cast<int32_t>(seed * 59 % 256)};
    const auto in = randomBytes(size_t{l.n} * l.h * l.w * l.inC, seed++);
    const auto filter = randomBytes(size_t{l.kh} * l.kw * l.outC, seed++);
    const auto bias = randomInts(l.outC, -3000, 3000, seed++);
    const double biasScale = double{qi.scale} * qf.scale;
    const Reference ref = referenceConv(
        l, true, [&](size_t i) { return dequantize(in[i], qi); },
        [&](size_t i) { return dequantize(filter[i], qf); }, [&](size_t c) { return bias[c] * biasScale; });
    const Quant qo = quantFor(ref.value);
    std::vector<int> expected(ref.value.size());
    for (size_t i = 0; i < expected.size(); ++i)
      expected[i] = quantize(activate(ref.value[i], l.p.act), qo);
    std::vector<uint8_t> out(expected.size());
    depthwiseConv2d(in.data(), {{l.n, l.h, l.w, l.inC}}, qi, filter.data(), {{1, l.kh, l.kw, l.outC}}, qf,
                    bias.data(), l.p, out.data(), {{l.n, l.outH(), l.outW(), l.outC}}, qo);
    expectQuantNear(out, expected);
  }
}

}  // namespace
}  // namespace nnrt::cpu::test
