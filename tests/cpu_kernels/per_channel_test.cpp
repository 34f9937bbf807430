// Per-channel quantized CONV_2D and DEPTHWISE_CONV_2D (int8 TENSOR_QUANT8_SYMM_PER_CHANNEL filters on
// uint8 input/output) and quant8 MEAN: hand-computed cases, then random layers against direct
// double-precision loops, then the table adapters of plugins/cpu/conv_per_channel.hpp (NHWC and NCHW).
#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <type_traits>
#include <vector>

#include "cpu_kernels/conv_reference.hpp"
#include "cpu_kernels/test_support.hpp"
#include "plugins/cpu/conv_per_channel.hpp"
#include "plugins/cpu/kernels/conv.hpp"
#include "plugins/cpu/kernels/reduce.hpp"

namespace nnrt::cpu::test {
namespace {

static_assert(std::is_same_v<decltype(&convQuantPerChannel), RunFn>);
static_assert(std::is_same_v<decltype(&depthwiseQuantPerChannel), RunFn>);
static_assert(std::is_same_v<decltype(&meanQuant), RunFn>);

Conv2DParams params(uint32_t pad, uint32_t stride, uint32_t dilation, Activation act = Activation::None) {
  return {pad, pad, pad, pad, stride, stride, dilation, dilation, act};
}

TEST(Conv2DPerChannel, ByHand) {
  // input [1, 1, 1, 2], scale 0.5 zp 10: {12, 6} -> {1, -2}
  // filter [2, 1, 1, 2] int8: oc0 {2, 1} * 0.5 -> {1, 0.5}; oc1 {-3, 4} * 0.25 -> {-0.75, 1}
  // bias: oc0 scale 0.5 * 0.5 = 0.25: 4 -> 1;  oc1 scale 0.5 * 0.25 = 0.125: -8 -> -1
  // oc0: 1 * 1 + (-2) * 0.5 + 1 = 1;  oc1: 1 * (-0.75) + (-2) * 1 - 1 = -3.75
  // output scale 0.25 zp 100: oc0 100 + 4 = 104, oc1 100 - 15 = 85; relu: oc1 -> 100
  const std::vector<uint8_t> in{12, 6};
  const std::vector<int8_t> filter{2, 1, -3, 4};
  const std::vector<float> scales{0.5f, 0.25f};
  const std::vector<int32_t> bias{4, -8};
  std::vector<uint8_t> out(2);
  conv2dPerChannel(in.data(), {{1, 1, 1, 2}}, {0.5f, 10}, filter.data(), {{2, 1, 1, 2}}, scales.data(),
                   bias.data(), params(0, 1, 1), out.data(), {{1, 1, 1, 2}}, {0.25f, 100});
  EXPECT_EQ(out, (std::vector<uint8_t>{104, 85}));
  conv2dPerChannel(in.data(), {{1, 1, 1, 2}}, {0.5f, 10}, filter.data(), {{2, 1, 1, 2}}, scales.data(),
                   bias.data(), params(0, 1, 1, Activation::Relu), out.data(), {{1, 1, 1, 2}}, {0.25f, 100});
  EXPECT_EQ(out, (std::vector<uint8_t>{104, 100}));
}

TEST(DepthwiseConv2DPerChannel, ByHand) {
  // input [1, 1, 2, 1], scale 1 zp 0: {3, 5}; depth multiplier 2 -> filter [1, 1, 2, 2]
  // oc0 taps {2, 4} * 0.5 -> {1, 2}: 3 + 10 = 13, bias 2 * 0.5 = 1 -> 14
  // oc1 taps {-1, 3} * 0.25 -> {-0.25, 0.75}: -0.75 + 3.75 = 3, bias -4 * 0.25 = -1 -> 2
  // output scale 0.5 zp 20: oc0 20 + 28 = 48, oc1 20 + 4 = 24
  const std::vector<uint8_t> in{3, 5};
  const std::vector<int8_t> filter{2, -1,  // tap (0, 0) for oc 0, 1
                                   4, 3};  // tap (0, 1)
  const std::vector<float> scales{0.5f, 0.25f};
  const std::vector<int32_t> bias{2, -4};
  std::vector<uint8_t> out(2);
  depthwiseConv2dPerChannel(in.data(), {{1, 1, 2, 1}}, {1.0f, 0}, filter.data(), {{1, 1, 2, 2}}, scales.data(),
                            bias.data(), params(0, 1, 1), out.data(), {{1, 1, 1, 2}}, {0.5f, 20});
  EXPECT_EQ(out, (std::vector<uint8_t>{48, 24}));
}

TEST(MeanQuant, ByHand) {
  // [2, 3] over axis 1, input scale 0.5 zp 10: {10, 11, 13} -> {0, 0.5, 1.5}, mean 2/3;
  // {200, 0, 255} -> {95, -5, 122.5}, mean 70.83. Output scale 0.25 zp 3: 2.67 -> 3 -> 6;
  // 283.3 -> 286, saturated to 255.
  const std::vector<uint8_t> in{10, 11, 13, 200, 0, 255};
  const std::vector<uint32_t> axes{1};
  std::vector<uint8_t> out(2);
  mean(in.data(), {{2, 3}}, {0.5f, 10}, axes, out.data(), {0.25f, 3});
  EXPECT_EQ(out, (std::vector<uint8_t>{6, 255}));

  // Halves round away from zero: scale 1 zp 5, {4, 5} -> {-1, 0}, mean -0.5 -> -1 -> 4;
  // {6, 7} -> {1, 2}, mean 1.5 -> 2 -> 7.
  const std::vector<uint8_t> ties{4, 5, 6, 7};
  mean(ties.data(), {{2, 2}}, {1.0f, 5}, axes, out.data(), {1.0f, 5});
  EXPECT_EQ(out, (std::vector<uint8_t>{4, 7}));

  // Repeated axes, every axis: the mean of all four, (-1 + 0 + 1 + 2) / 4 = 0.5 -> 1 -> 6.
  const std::vector<uint32_t> all{0, 1, 0};
  std::vector<uint8_t> one(1);
  mean(ties.data(), {{2, 2}}, {1.0f, 5}, all, one.data(), {1.0f, 5});
  EXPECT_EQ(one[0], 6);
}

// ---- random layers against a direct double loop ----

struct QuantLayerData {
  Quant in;
  std::vector<uint8_t> input;
  std::vector<int8_t> filter;
  std::vector<float> scales;
  std::vector<int32_t> bias;
};

QuantLayerData randomData(const Layer& l, bool depthwise, uint32_t seed) {
  QuantLayerData d;
  d.in = {0.01f + 0.003f * (seed % 5), static_cast<int32_t>(seed * 37 % 256)};
  d.input = randomBytes(size_t{l.n} * l.h * l.w * l.inC, seed);
  const size_t filterCount = depthwise ? size_t{l.kh} * l.kw * l.outC : size_t{l.outC} * l.kh * l.kw * l.inC;
  const std::vector<int32_t> f = randomInts(filterCount, -127, 127, seed + 1);
  d.filter.assign(f.begin(), f.end());
  // Scales spread over a factor of ~50 between channels, so that one shared scale would be wrong.
  const std::vector<float> s = randomFloats(l.outC, 0.0f, 1.0f, seed + 2);
  for (float x : s)
    d.scales.push_back(0.001f * std::pow(50.0f, x));
  d.bias = randomInts(l.outC, -3000, 3000, seed + 3);
  return d;
}

// Real (pre-activation) results of the layer, computed from the dequantized values.
std::vector<double> referenceReal(const Layer& l, bool depthwise, const QuantLayerData& d) {
  // The output channel of filter element i: [outC, kh, kw, inC] or, depthwise, [1, kh, kw, outC].
  auto channelOf = [&](size_t i) { return depthwise ? i % l.outC : i / (size_t{l.kh} * l.kw * l.inC); };
  return referenceConv(
             l, depthwise, [&](size_t i) { return dequantize(d.input[i], d.in); },
             [&](size_t i) { return d.filter[i] * static_cast<double>(d.scales[channelOf(i)]); },
             [&](size_t oc) { return d.bias[oc] * (static_cast<double>(d.in.scale) * d.scales[oc]); })
      .value;
}

std::vector<int> expectedQuant(const std::vector<double>& real, Activation act, Quant out) {
  std::vector<int> e(real.size());
  for (size_t i = 0; i < real.size(); ++i)
    e[i] = quantize(activate(real[i], act), out);
  return e;
}

// Sizes not multiples of 4 or 8, strides 2 and 3, dilation, asymmetric padding, 1x1, several batches.
const Layer kConvLayers[] = {
    {2, 9, 11, 3, 5, 3, 3, explicitParams(1, 1, 1, 1, 1, 1, 1, 1, Activation::None)},
    {1, 13, 10, 7, 9, 3, 3, explicitParams(1, 1, 1, 1, 2, 2, 1, 1, Activation::Relu)},
    {3, 12, 11, 5, 3, 3, 3, explicitParams(2, 2, 2, 2, 1, 1, 2, 2, Activation::Relu1)},
    {1, 10, 14, 3, 13, 3, 2, explicitParams(0, 3, 1, 0, 2, 1, 3, 2, Activation::None)},
    {2, 7, 9, 11, 6, 1, 1, explicitParams(0, 0, 0, 0, 1, 1, 1, 1, Activation::Relu6)},
    {1, 9, 9, 3, 4, 1, 1, explicitParams(0, 0, 0, 0, 2, 2, 1, 1, Activation::None)},
    {1, 17, 15, 9, 17, 5, 3, explicitParams(2, 1, 0, 2, 3, 2, 1, 1, Activation::Relu)},
};

// Depthwise: outC = inC * multiplier (multipliers 1, 2, 3).
const Layer kDepthwiseLayers[] = {
    {2, 9, 11, 3, 3, 3, 3, explicitParams(1, 1, 1, 1, 1, 1, 1, 1, Activation::None)},
    {1, 13, 10, 5, 10, 3, 3, explicitParams(1, 1, 1, 1, 2, 2, 1, 1, Activation::Relu)},  // multiplier 2
    {3, 12, 11, 7, 14, 3, 3, explicitParams(2, 2, 2, 2, 1, 1, 2, 2, Activation::Relu6)},  // dilation 2
    {1, 10, 14, 3, 9, 3, 2, explicitParams(0, 3, 1, 0, 2, 1, 3, 2, Activation::None)},    // multiplier 3
    {1, 8, 8, 9, 9, 5, 5, explicitParams(2, 2, 2, 2, 2, 2, 1, 1, Activation::Relu1)},
    {2, 6, 7, 13, 26, 1, 1, explicitParams(0, 0, 0, 0, 1, 1, 1, 1, Activation::None)},
};

TEST(Conv2DPerChannel, RandomMatchesReference) {
  uint32_t seed = 100;
  for (const Layer& l : kConvLayers) {
    SCOPED_TRACE("conv layer seed " + std::to_string(seed));
    const QuantLayerData d = randomData(l, false, seed);
    const std::vector<double> real = referenceReal(l, false, d);
    const Quant qo = quantFor(real);
    const Shape outShape{{l.n, l.outH(), l.outW(), l.outC}};
    std::vector<uint8_t> out(outShape.elements());
    conv2dPerChannel(d.input.data(), {{l.n, l.h, l.w, l.inC}}, d.in, d.filter.data(), {{l.outC, l.kh, l.kw, l.inC}},
                     d.scales.data(), d.bias.data(), l.p, out.data(), outShape, qo);
    expectQuantNear(out, expectedQuant(real, l.p.act, qo));
    seed += 10;
  }
}

TEST(DepthwiseConv2DPerChannel, RandomMatchesReference) {
  uint32_t seed = 200;
  for (const Layer& l : kDepthwiseLayers) {
    SCOPED_TRACE("depthwise layer seed " + std::to_string(seed));
    const QuantLayerData d = randomData(l, true, seed);
    const std::vector<double> real = referenceReal(l, true, d);
    const Quant qo = quantFor(real);
    const Shape outShape{{l.n, l.outH(), l.outW(), l.outC}};
    std::vector<uint8_t> out(outShape.elements());
    depthwiseConv2dPerChannel(d.input.data(), {{l.n, l.h, l.w, l.inC}}, d.in, d.filter.data(),
                              {{1, l.kh, l.kw, l.outC}}, d.scales.data(), d.bias.data(), l.p, out.data(), outShape,
                              qo);
    expectQuantNear(out, expectedQuant(real, l.p.act, qo));
    seed += 10;
  }
}

// With one scale for every channel, the per-channel kernels equal the per-tensor ones on the same filter
// shifted by 128 (zero point 128), bit for bit.
TEST(PerChannel, EqualScalesMatchPerTensorKernels) {
  for (bool depthwise : {false, true}) {
    const Layer& l = depthwise ? kDepthwiseLayers[2] : kConvLayers[1];
    QuantLayerData d = randomData(l, depthwise, 7);
    d.scales.assign(l.outC, 0.02f);
    std::vector<uint8_t> shifted(d.filter.size());
    for (size_t i = 0; i < d.filter.size(); ++i)
      shifted[i] = static_cast<uint8_t>(d.filter[i] + 128);
    const Quant qo = quantFor(referenceReal(l, depthwise, d));
    const Shape inShape{{l.n, l.h, l.w, l.inC}};
    const Shape filterShape = depthwise ? Shape{{1, l.kh, l.kw, l.outC}} : Shape{{l.outC, l.kh, l.kw, l.inC}};
    const Shape outShape{{l.n, l.outH(), l.outW(), l.outC}};
    std::vector<uint8_t> perChannel(outShape.elements()), perTensor(outShape.elements());
    if (depthwise) {
      depthwiseConv2dPerChannel(d.input.data(), inShape, d.in, d.filter.data(), filterShape, d.scales.data(),
                                d.bias.data(), l.p, perChannel.data(), outShape, qo);
      depthwiseConv2d(d.input.data(), inShape, d.in, shifted.data(), filterShape, {0.02f, 128}, d.bias.data(), l.p,
                      perTensor.data(), outShape, qo);
    } else {
      conv2dPerChannel(d.input.data(), inShape, d.in, d.filter.data(), filterShape, d.scales.data(),
                       d.bias.data(), l.p, perChannel.data(), outShape, qo);
      conv2d(d.input.data(), inShape, d.in, shifted.data(), filterShape, {0.02f, 128}, d.bias.data(), l.p,
             perTensor.data(), outShape, qo);
    }
    EXPECT_EQ(perChannel, perTensor) << (depthwise ? "depthwise" : "conv");
  }
}

struct MeanCase {
  std::vector<uint32_t> dims;
  std::vector<uint32_t> axes;
};

TEST(MeanQuant, RandomMatchesReference) {
  const MeanCase cases[] = {
      {{7}, {0}},
      {{5, 9}, {1}},
      {{5, 9}, {0}},
      {{3, 5, 7}, {0, 2}},
      {{2, 9, 11, 5}, {1, 2}},
      {{3, 4, 5, 6}, {3}},
      {{3, 4, 5, 6}, {0}},
      {{3, 4, 5, 6}, {0, 1, 2, 3}},
      {{2, 3, 13, 7}, {1, 3, 1}},
  };
  uint32_t seed = 300;
  for (const MeanCase& mc : cases) {
    SCOPED_TRACE("mean seed " + std::to_string(seed));
    const Shape shape{mc.dims};
    const std::vector<uint8_t> in = randomBytes(shape.elements(), seed);
    const Quant qi{0.02f + 0.01f * (seed % 3), static_cast<int32_t>(seed * 53 % 256)};
    // Reference: walk every input element, find its output element among the kept dimensions.
    std::vector<bool> reduced(mc.dims.size(), false);
    for (uint32_t a : mc.axes)
      reduced[a] = true;
    size_t outCount = 1, reducedCount = 1;
    for (size_t i = 0; i < mc.dims.size(); ++i)
      (reduced[i] ? reducedCount : outCount) *= mc.dims[i];
    std::vector<double> sums(outCount, 0.0);
    for (size_t e = 0; e < in.size(); ++e) {
      size_t rest = e, outIndex = 0, stride = 1;
      for (size_t k = mc.dims.size(); k-- > 0;) {
        const size_t coordinate = rest % mc.dims[k];
        rest /= mc.dims[k];
        if (!reduced[k]) {
          outIndex += coordinate * stride;
          stride *= mc.dims[k];
        }
      }
      sums[outIndex] += dequantize(in[e], qi);
    }
    std::vector<double> means(outCount);
    for (size_t i = 0; i < outCount; ++i)
      means[i] = sums[i] / static_cast<double>(reducedCount);
    for (const Quant qo : {quantFor(means), qi, Quant{qi.scale * 0.37f, 200}}) {
      std::vector<uint8_t> out(outCount);
      mean(in.data(), shape, qi, mc.axes, out.data(), qo);
      std::vector<int> expected(outCount);
      for (size_t i = 0; i < outCount; ++i)
        expected[i] = quantize(means[i], qo);
      expectQuantNear(out, expected);
    }
    seed += 10;
  }
}

// ---- the table adapters ----

TEST(PerChannelAdapters, ConvAndDepthwiseNhwcAndNchw) {
  for (bool depthwise : {false, true}) {
    const Layer& l = depthwise ? kDepthwiseLayers[1] : kConvLayers[2];
    const QuantLayerData d = randomData(l, depthwise, 11);
    const std::vector<double> real = referenceReal(l, depthwise, d);
    const Quant qo = quantFor(real);
    const std::vector<int> expected = expectedQuant(real, l.p.act, qo);
    const uint32_t oh = l.outH(), ow = l.outW();
    const std::vector<uint32_t> filterDims =
        depthwise ? std::vector<uint32_t>{1, l.kh, l.kw, l.outC} : std::vector<uint32_t>{l.outC, l.kh, l.kw, l.inC};

    for (bool nchw : {false, true}) {
      SCOPED_TRACE(std::string(depthwise ? "depthwise" : "conv") + (nchw ? " NCHW" : " NHWC"));
      std::vector<uint32_t> inDims{l.n, l.h, l.w, l.inC}, outDims{l.n, oh, ow, l.outC};
      std::vector<uint8_t> input = d.input;
      if (nchw) {  // the same values, stored NCHW
        inDims = {l.n, l.inC, l.h, l.w};
        outDims = {l.n, l.outC, oh, ow};
        for (uint32_t b = 0; b < l.n; ++b)
          for (uint32_t y = 0; y < l.h; ++y)
            for (uint32_t x = 0; x < l.w; ++x)
              for (uint32_t c = 0; c < l.inC; ++c)
                input[((size_t{b} * l.inC + c) * l.h + y) * l.w + x] =
                    d.input[((size_t{b} * l.h + y) * l.w + x) * l.inC + c];
      }
      const std::vector<uint32_t> biasDims{l.outC};
      nnrt_operand filterOperand{};
      filterOperand.channel_scales = d.scales.data();
      filterOperand.channel_scale_count = l.outC;
      filterOperand.channel_dim = depthwise ? 3 : 0;

      std::vector<ops::Arg> inputs(3);
      inputs[0].dims = inDims;
      inputs[0].scale = d.in.scale;
      inputs[0].zeroPoint = d.in.zeroPoint;
      inputs[0].data = input.data();
      inputs[0].length = input.size();
      inputs[1].dims = filterDims;
      inputs[1].data = d.filter.data();
      inputs[1].length = d.filter.size();
      inputs[1].operand = &filterOperand;
      inputs[2].dims = biasDims;
      inputs[2].data = d.bias.data();
      inputs[2].length = d.bias.size() * sizeof(int32_t);
      std::vector<ops::Arg> outputs(1);
      outputs[0].dims = outDims;
      outputs[0].scale = qo.scale;
      outputs[0].zeroPoint = qo.zeroPoint;
      std::vector<uint8_t> out(size_t{l.n} * oh * ow * l.outC);
      void* outData[] = {out.data()};

      ops::OpArgs op;
      op.inputs = inputs;
      op.outputs = outputs;
      ops::Conv2DParams p;
      p.padLeft = l.p.padLeft;
      p.padRight = l.p.padRight;
      p.padTop = l.p.padTop;
      p.padBottom = l.p.padBottom;
      p.strideW = l.p.strideW;
      p.strideH = l.p.strideH;
      p.dilationW = l.p.dilationW;
      p.dilationH = l.p.dilationH;
      p.activation = l.p.act;
      p.nchw = nchw;
      ops::DepthwiseConv2DParams dp;
      static_cast<ops::Conv2DParams&>(dp) = p;
      dp.depthMultiplier = l.outC / l.inC;
      const OpParams params = depthwise ? OpParams(dp) : OpParams(p);
      ExecutionArena arena;
      const KernelCall call{op, outData, params, arena};
      const auto result = depthwise ? depthwiseQuantPerChannel(call) : convQuantPerChannel(call);
      ASSERT_TRUE(result.has_value());

      std::vector<uint8_t> nhwc = out;
      if (nchw) {
        for (uint32_t b = 0; b < l.n; ++b)
          for (uint32_t y = 0; y < oh; ++y)
            for (uint32_t x = 0; x < ow; ++x)
              for (uint32_t c = 0; c < l.outC; ++c)
                nhwc[((size_t{b} * oh + y) * ow + x) * l.outC + c] = out[((size_t{b} * l.outC + c) * oh + y) * ow + x];
      }
      expectQuantNear(nhwc, expected);

      // Scales along the wrong dimension are refused, not misread.
      filterOperand.channel_dim = depthwise ? 0 : 3;
      const auto refused = depthwise ? depthwiseQuantPerChannel(call) : convQuantPerChannel(call);
      EXPECT_FALSE(refused.has_value());
    }
  }
}

TEST(PerChannelAdapters, MeanQuant) {
  // [2, 2] over axis 1 with scale 1 zp 5: {4, 5} -> mean -0.5 -> 4 (as MeanQuant.ByHand); {6, 7} -> 7.
  const std::vector<uint8_t> in{4, 5, 6, 7};
  const std::vector<uint32_t> inDims{2, 2}, outDims{2};
  std::vector<ops::Arg> inputs(1), outputs(1);
  inputs[0].dims = inDims;
  inputs[0].scale = 1.0f;
  inputs[0].zeroPoint = 5;
  inputs[0].data = in.data();
  inputs[0].length = in.size();
  outputs[0].dims = outDims;
  outputs[0].scale = 0.5f;
  outputs[0].zeroPoint = 100;
  std::vector<uint8_t> out(2);
  void* outData[] = {out.data()};
  ops::OpArgs op;
  op.inputs = inputs;
  op.outputs = outputs;
  ops::MeanParams p;
  p.axes = {1};
  const OpParams params(p);
  ExecutionArena arena;
  ASSERT_TRUE(meanQuant(KernelCall{op, outData, params, arena}).has_value());
  // -0.5 / 0.5 = -1 -> 99; 1.5 / 0.5 = 3 -> 103
  EXPECT_EQ(out, (std::vector<uint8_t>{99, 103}));
}

}  // namespace
}  // namespace nnrt::cpu::test
