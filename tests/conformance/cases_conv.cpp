// CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED: every NNAPI input form of the convolutions
// (explicit padding; implicit SAME/VALID; with the layout operand, NHWC or NCHW; with dilation),
// strides, depth multipliers, fused activations, odd sizes, float32 and quant8. Valid variants a
// driver may leave out: TENSOR_FLOAT16 and per-channel quantized filters.
#include <algorithm>
#include <cmath>

#include "conformance/operation_case.hpp"
#include "support/reference_ops.hpp"

namespace nnrt::test::conformance {
namespace {

enum class Padding { Explicit, Same, Valid };

struct ConvSpec {
  std::string name;
  bool depthwise = false;
  OperandType type = F32;
  std::vector<uint32_t> input;  // NHWC
  uint32_t outChannels = 1;     // depthwise: input channels * multiplier
  uint32_t kh = 1, kw = 1;
  Padding padding = Padding::Explicit;
  ref::Window window;  // explicit pads (used with Padding::Explicit), strides, dilation
  bool nchw = false;
  bool giveLayout = false;    // pass the layout operand (implied by nchw and dilation)
  bool giveDilation = false;  // pass the dilation operands (implied by a dilation other than 1)
  int fuse = 0;
  uint32_t seed = 0;
  bool perChannel = false;  // quant8 with a TENSOR_QUANT8_SYMM_PER_CHANNEL filter
};

// Output parameters that spread `reals` over most of 0..255.
std::pair<float, int32_t> spreadQuant(const std::vector<double>& reals) {
  double lo = 0.0, hi = 0.0;
  for (double r : reals) {
    lo = std::min(lo, r);
    hi = std::max(hi, r);
  }
  const double scale = std::max((hi - lo) / 240.0, 1e-4);
  return {static_cast<float>(scale),
          static_cast<int32_t>(std::clamp(std::round(-lo / scale) + 8.0, 0.0, 255.0))};
}

OperationCase convCase(ConvSpec s) {
  const OperationType op = s.depthwise ? OperationType::DEPTHWISE_CONV_2D : OperationType::CONV_2D;
  CaseBuilder c(s.name, op);
  const uint32_t inC = s.input[3];
  const std::vector<uint32_t> filterDims = s.depthwise
                                               ? std::vector<uint32_t>{1, s.kh, s.kw, s.outChannels}
                                               : std::vector<uint32_t>{s.outChannels, s.kh, s.kw, inC};
  const size_t inCount = ref::count(s.input), filterCount = ref::count(filterDims);
  const bool quant = s.type == Q8;

  // Data and its real values.
  const float inScale = 0.05f, filterScale = 0.01f;
  const int32_t inZero = 120, filterZero = 128;
  std::vector<float> channelScales;
  std::vector<double> in, filter, bias, inReal, filterReal, biasReal;
  if (quant) {
    in = randomQuant(inCount, s.seed);
    filter =
        s.perChannel ? randomQuant(filterCount, s.seed + 1, -127, 127) : randomQuant(filterCount, s.seed + 1);
    bias = randomIntegers(s.outChannels, -3000, 3000, s.seed + 2);
    inReal = ref::dequantize(in, inScale, inZero);
    for (uint32_t oc = 0; oc < s.outChannels; ++oc)
      channelScales.push_back(s.perChannel ? 0.004f + 0.002f * static_cast<float>(oc % 5) : filterScale);
    for (size_t i = 0; i < filterCount; ++i) {
      const uint32_t oc = s.depthwise ? static_cast<uint32_t>(i % s.outChannels)
                                      : static_cast<uint32_t>(i / (filterCount / s.outChannels));
      filterReal.push_back(s.perChannel ? filter[i] * channelScales[oc]
                                        : ref::dequantize(filter[i], filterScale, filterZero));
    }
    for (uint32_t oc = 0; oc < s.outChannels; ++oc)
      biasReal.push_back(bias[oc] * static_cast<double>(inScale) * channelScales[oc]);
  } else {
    in = inReal = randomValues(s.type, inCount, s.seed);
    filter = filterReal = randomValues(s.type, filterCount, s.seed + 1);
    bias = biasReal = randomValues(s.type, s.outChannels, s.seed + 2);
  }

  // Reference in NHWC with explicit pads.
  ref::Window w = s.window;
  if (s.padding != Padding::Explicit) {
    w.padLeft = w.padRight = w.padTop = w.padBottom = 0;
    if (s.padding == Padding::Same) {
      std::tie(w.padLeft, w.padRight) = ref::samePadding(s.input[2], s.kw, w.strideW, w.dilationW);
      std::tie(w.padTop, w.padBottom) = ref::samePadding(s.input[1], s.kh, w.strideH, w.dilationH);
    }
  }
  const ref::Tensor inTensor{s.input, inReal}, filterTensor{filterDims, filterReal};
  ref::Tensor out = s.depthwise ? ref::depthwiseConv2d(inTensor, filterTensor, biasReal, w, s.fuse)
                                : ref::conv2d(inTensor, filterTensor, biasReal, w, s.fuse);

  // The model, in the requested layout.
  ref::Tensor inStored{s.input, in};
  if (s.nchw) {
    inStored = ref::nhwcToNchw(inStored);
    out = ref::nhwcToNchw(out);
  }
  uint32_t inOperand, filterOperand, biasOperand;
  if (quant) {
    inOperand = c.input(Q8, inStored.dims, inStored.values, inScale, inZero);
    if (s.perChannel) {
      filterOperand = c.constant(Q8C, filterDims, filter);
      c.model().setChannelQuant(filterOperand, s.depthwise ? 3 : 0, channelScales);
      biasOperand = c.constant(I32, {s.outChannels}, bias, 0.0f);
    } else {
      filterOperand = c.constant(Q8, filterDims, filter, filterScale, filterZero);
      biasOperand = c.constant(I32, {s.outChannels}, bias, inScale * filterScale);
    }
    const auto [outScale, outZero] = spreadQuant(out.values);
    c.output(Q8, out.dims, ref::quantize(out.values, outScale, outZero), outScale, outZero);
  } else {
    inOperand = c.input(s.type, inStored.dims, inStored.values);
    filterOperand = c.constant(s.type, filterDims, filter);
    biasOperand = c.constant(s.type, {s.outChannels}, bias);
    c.output(s.type, out.dims, out.values);
  }

  std::vector<uint32_t> inputs{inOperand, filterOperand, biasOperand};
  if (s.padding == Padding::Explicit) {
    for (uint32_t p : {s.window.padLeft, s.window.padRight, s.window.padTop, s.window.padBottom})
      inputs.push_back(c.int32(static_cast<int32_t>(p)));
  } else {
    inputs.push_back(c.int32(s.padding == Padding::Same ? 1 : 2));
  }
  inputs.push_back(c.int32(static_cast<int32_t>(s.window.strideW)));
  inputs.push_back(c.int32(static_cast<int32_t>(s.window.strideH)));
  if (s.depthwise) inputs.push_back(c.int32(static_cast<int32_t>(s.outChannels / inC)));
  inputs.push_back(c.int32(s.fuse));
  const bool dilation = s.giveDilation || s.window.dilationW != 1 || s.window.dilationH != 1;
  if (s.giveLayout || s.nchw || dilation) inputs.push_back(c.boolean(s.nchw));
  if (dilation) {
    inputs.push_back(c.int32(static_cast<int32_t>(s.window.dilationW)));
    inputs.push_back(c.int32(static_cast<int32_t>(s.window.dilationH)));
  }
  return c.build(inputs);
}

ref::Window pads(uint32_t left, uint32_t right, uint32_t top, uint32_t bottom, uint32_t strideW = 1,
                 uint32_t strideH = 1, uint32_t dilationW = 1, uint32_t dilationH = 1) {
  return {left, right, top, bottom, strideW, strideH, dilationW, dilationH};
}
ref::Window strides(uint32_t strideW, uint32_t strideH, uint32_t dilationW = 1, uint32_t dilationH = 1) {
  return pads(0, 0, 0, 0, strideW, strideH, dilationW, dilationH);
}

OperationCase fullyConnectedCase(const std::string& name, OperandType type,
                                 const std::vector<uint32_t>& inDims, uint32_t units, uint32_t inputSize,
                                 int fuse, uint32_t seed) {
  CaseBuilder c(name, OperationType::FULLY_CONNECTED);
  const size_t n = ref::count(inDims);
  if (type == Q8) {
    const float inScale = 0.02f, wScale = 0.01f;
    const auto in = randomQuant(n, seed), weights = randomQuant(size_t{units} * inputSize, seed + 1);
    const auto bias = randomIntegers(units, -5000, 5000, seed + 2);
    const uint32_t a = c.input(Q8, inDims, in, inScale, 128);
    const uint32_t wt = c.constant(Q8, {units, inputSize}, weights, wScale, 120);
    const uint32_t b = c.constant(I32, {units}, bias, inScale * wScale);
    const auto real = ref::fullyConnected({inDims, ref::dequantize(in, inScale, 128)},
                                          {{units, inputSize}, ref::dequantize(weights, wScale, 120)},
                                          ref::dequantize(bias, inScale * wScale, 0), fuse);
    const auto [outScale, outZero] = spreadQuant(real.values);
    c.output(Q8, real.dims, ref::quantize(real.values, outScale, outZero), outScale, outZero);
    return c.build({a, wt, b, c.int32(fuse)});
  }
  const auto in = randomValues(type, n, seed),
             weights = randomValues(type, size_t{units} * inputSize, seed + 1);
  const auto bias = randomValues(type, units, seed + 2);
  const uint32_t a = c.input(type, inDims, in);
  const uint32_t wt = c.constant(type, {units, inputSize}, weights);
  const uint32_t b = c.constant(type, {units}, bias);
  const auto out = ref::fullyConnected({inDims, in}, {{units, inputSize}, weights}, bias, fuse);
  c.output(type, out.dims, out.values);
  return c.build({a, wt, b, c.int32(fuse)});
}

}  // namespace

std::vector<OperationCase> convolutionCases() {
  using O = OperationType;
  std::vector<OperationCase> cases;
  {
    // input 3x3 = {1..9}, filter 2x2 = {1, 2; 3, 4}, bias 0.5, VALID: (0,0) 1 + 4 + 12 + 20 = 37 ...
    CaseBuilder c("conv2d_float_by_hand", O::CONV_2D);
    const uint32_t in = c.input(F32, {1, 3, 3, 1}, iota(9));
    const uint32_t f = c.constant(F32, {1, 2, 2, 1}, {1, 2, 3, 4});
    const uint32_t b = c.constant(F32, {1}, {0.5});
    c.output(F32, {1, 2, 2, 1}, {37.5, 47.5, 67.5, 77.5});
    cases.push_back(c.build({in, f, b, c.int32(2), c.int32(1), c.int32(1), c.int32(0)}));
  }
  {
    // Two channels, multiplier 2: oc 0,1 read channel 0 (pixels 1..4), oc 2,3 channel 1 (10..40).
    // oc0 taps {1,1,1,1} -> 10; oc1 {1,0,0,0} -> 1; oc2 {0,0,0,1} -> 40; oc3 {1,-1,0,0} -> -10 + 0.5
    CaseBuilder c("depthwise_conv2d_float_by_hand", O::DEPTHWISE_CONV_2D);
    const uint32_t in = c.input(F32, {1, 2, 2, 2}, {1, 10, 2, 20, 3, 30, 4, 40});
    const uint32_t f = c.constant(F32, {1, 2, 2, 4}, {1, 1, 0, 1, 1, 0, 0, -1, 1, 0, 0, 0, 1, 0, 1, 0});
    const uint32_t b = c.constant(F32, {4}, {0, 0, 0, 0.5});
    c.output(F32, {1, 1, 1, 4}, {10, 1, 40, -9.5});
    cases.push_back(c.build({in, f, b, c.int32(0), c.int32(0), c.int32(0), c.int32(0), c.int32(1), c.int32(1),
                             c.int32(2), c.int32(0)}));
  }
  // CONV_2D, float32.
  cases.push_back(convCase({.name = "conv2d_float_explicit_pad_stride_relu",
                            .type = F32,
                            .input = {1, 7, 6, 3},
                            .outChannels = 4,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Explicit,
                            .window = pads(1, 2, 0, 1, 2, 1),
                            .fuse = 1,
                            .seed = 100}));
  cases.push_back(convCase({.name = "conv2d_float_same_stride2_relu6",
                            .type = F32,
                            .input = {2, 5, 7, 2},
                            .outChannels = 3,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Same,
                            .window = strides(2, 2),
                            .fuse = 3,
                            .seed = 101}));
  cases.push_back(convCase({.name = "conv2d_float_valid_stride_h2",
                            .type = F32,
                            .input = {1, 6, 5, 3},
                            .outChannels = 2,
                            .kh = 2,
                            .kw = 3,
                            .padding = Padding::Valid,
                            .window = strides(1, 2),
                            .seed = 102}));
  cases.push_back(convCase({.name = "conv2d_float_pointwise",
                            .type = F32,
                            .input = {1, 4, 4, 8},
                            .outChannels = 16,
                            .kh = 1,
                            .kw = 1,
                            .padding = Padding::Valid,
                            .window = strides(1, 1),
                            .seed = 103}));
  cases.push_back(convCase({.name = "conv2d_float_nhwc_layout_given",
                            .type = F32,
                            .input = {1, 5, 5, 2},
                            .outChannels = 3,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Same,
                            .window = strides(1, 1),
                            .giveLayout = true,
                            .fuse = 2,
                            .seed = 104}));
  cases.push_back(convCase({.name = "conv2d_float_same_dilation2",
                            .type = F32,
                            .input = {1, 7, 7, 2},
                            .outChannels = 2,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Same,
                            .window = strides(1, 1, 2, 2),
                            .giveLayout = true,
                            .giveDilation = true,
                            .seed = 105}));
  cases.push_back(convCase({.name = "conv2d_float_explicit_dilation_w2_h3",
                            .type = F32,
                            .input = {1, 8, 7, 2},
                            .outChannels = 3,
                            .kh = 2,
                            .kw = 3,
                            .padding = Padding::Explicit,
                            .window = pads(1, 1, 2, 0, 1, 1, 2, 3),
                            .giveLayout = true,
                            .giveDilation = true,
                            .seed = 106}));
  cases.push_back(convCase({.name = "conv2d_float_nchw_explicit_relu",
                            .type = F32,
                            .input = {1, 6, 5, 3},
                            .outChannels = 4,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Explicit,
                            .window = pads(1, 1, 1, 1, 2, 2),
                            .nchw = true,
                            .giveLayout = true,
                            .fuse = 1,
                            .seed = 107}));
  cases.push_back(convCase({.name = "conv2d_float_nchw_same",
                            .type = F32,
                            .input = {2, 5, 4, 2},
                            .outChannels = 3,
                            .kh = 2,
                            .kw = 3,
                            .padding = Padding::Same,
                            .window = strides(1, 2),
                            .nchw = true,
                            .giveLayout = true,
                            .seed = 108}));
  cases.push_back(convCase({.name = "conv2d_float_nchw_dilation",
                            .type = F32,
                            .input = {1, 9, 8, 3},
                            .outChannels = 2,
                            .kh = 3,
                            .kw = 2,
                            .padding = Padding::Valid,
                            .window = strides(1, 1, 2, 2),
                            .nchw = true,
                            .giveLayout = true,
                            .giveDilation = true,
                            .seed = 109}));
  cases.push_back(convCase({.name = "conv2d_float_layer",
                            .type = F32,
                            .input = {1, 14, 14, 16},
                            .outChannels = 24,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Same,
                            .window = strides(1, 1),
                            .fuse = 1,
                            .seed = 110}));
  // CONV_2D, quant8.
  cases.push_back(convCase({.name = "conv2d_quant8_explicit_relu",
                            .type = Q8,
                            .input = {1, 5, 5, 3},
                            .outChannels = 4,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Explicit,
                            .window = pads(1, 1, 1, 1),
                            .fuse = 1,
                            .seed = 111}));
  cases.push_back(convCase({.name = "conv2d_quant8_same_stride2",
                            .type = Q8,
                            .input = {2, 6, 7, 4},
                            .outChannels = 5,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Same,
                            .window = strides(2, 2),
                            .seed = 112}));
  cases.push_back(convCase({.name = "conv2d_quant8_nchw_valid",
                            .type = Q8,
                            .input = {1, 6, 6, 2},
                            .outChannels = 3,
                            .kh = 2,
                            .kw = 2,
                            .padding = Padding::Valid,
                            .window = strides(1, 1),
                            .nchw = true,
                            .giveLayout = true,
                            .seed = 113}));
  // DEPTHWISE_CONV_2D.
  cases.push_back(convCase({.name = "depthwise_conv2d_float_multiplier2_explicit",
                            .depthwise = true,
                            .type = F32,
                            .input = {1, 5, 6, 3},
                            .outChannels = 6,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Explicit,
                            .window = pads(1, 1, 1, 1, 2, 1),
                            .fuse = 1,
                            .seed = 120}));
  cases.push_back(convCase({.name = "depthwise_conv2d_float_same_stride2",
                            .depthwise = true,
                            .type = F32,
                            .input = {2, 7, 5, 4},
                            .outChannels = 4,
                            .kh = 3,
                            .kw = 2,
                            .padding = Padding::Same,
                            .window = strides(2, 2),
                            .fuse = 3,
                            .seed = 121}));
  cases.push_back(convCase({.name = "depthwise_conv2d_float_nchw_same_dilation",
                            .depthwise = true,
                            .type = F32,
                            .input = {1, 8, 8, 2},
                            .outChannels = 4,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Same,
                            .window = strides(1, 1, 2, 2),
                            .nchw = true,
                            .giveLayout = true,
                            .giveDilation = true,
                            .seed = 122}));
  cases.push_back(convCase({.name = "depthwise_conv2d_float_explicit_dilation",
                            .depthwise = true,
                            .type = F32,
                            .input = {1, 7, 9, 3},
                            .outChannels = 3,
                            .kh = 2,
                            .kw = 2,
                            .padding = Padding::Explicit,
                            .window = pads(0, 1, 1, 0, 1, 1, 3, 2),
                            .giveLayout = true,
                            .giveDilation = true,
                            .fuse = 2,
                            .seed = 123}));
  cases.push_back(convCase({.name = "depthwise_conv2d_float_nchw_explicit",
                            .depthwise = true,
                            .type = F32,
                            .input = {1, 6, 5, 2},
                            .outChannels = 2,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Explicit,
                            .window = pads(1, 0, 0, 1, 1, 2),
                            .nchw = true,
                            .giveLayout = true,
                            .seed = 124}));
  cases.push_back(convCase({.name = "depthwise_conv2d_quant8_multiplier2",
                            .depthwise = true,
                            .type = Q8,
                            .input = {1, 5, 5, 3},
                            .outChannels = 6,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Same,
                            .window = strides(1, 1),
                            .fuse = 1,
                            .seed = 125}));
  cases.push_back(convCase({.name = "depthwise_conv2d_quant8_nchw_stride2",
                            .depthwise = true,
                            .type = Q8,
                            .input = {1, 7, 6, 4},
                            .outChannels = 4,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Explicit,
                            .window = pads(1, 1, 1, 1, 2, 2),
                            .nchw = true,
                            .giveLayout = true,
                            .seed = 126}));
  // FULLY_CONNECTED.
  {
    // rows {1, 2, 3}, {4, 5, 6}; units {1, 0, -1} + 0.5 and {0.5, 0.5, 0.5} - 1:
    // {-1.5, 2}, {-1.5, 6.5}; relu -> {0, 2}, {0, 6.5}
    CaseBuilder c("fully_connected_float_by_hand_relu", O::FULLY_CONNECTED);
    const uint32_t in = c.input(F32, {2, 3}, iota(6));
    const uint32_t wt = c.constant(F32, {2, 3}, {1, 0, -1, 0.5, 0.5, 0.5});
    const uint32_t b = c.constant(F32, {2}, {0.5, -1});
    c.output(F32, {2, 2}, {0, 2, 0, 6.5});
    cases.push_back(c.build({in, wt, b, c.int32(1)}));
  }
  cases.push_back(
      fullyConnectedCase("fully_connected_float_rank4_input_relu6", F32, {2, 2, 3, 2}, 5, 12, 3, 130));
  cases.push_back(fullyConnectedCase("fully_connected_float_odd_sizes", F32, {7, 13}, 9, 13, 0, 131));
  // 300-term sums of products in [-1, 1]: float32 accumulation error grows with the length, so this
  // case allows 1e-4 absolute.
  cases.push_back(fullyConnectedCase("fully_connected_float_long_rows", F32, {3, 300}, 20, 300, 0, 132));
  cases.back().outputs[0].absTolerance = 1e-4;
  cases.push_back(fullyConnectedCase("fully_connected_quant8_relu", Q8, {3, 10}, 4, 10, 1, 133));
  cases.push_back(fullyConnectedCase("fully_connected_quant8_rank3_input", Q8, {2, 3, 8}, 6, 24, 0, 134));

  // Valid NNAPI that a driver may leave unsupported.
  cases.push_back(convCase({.name = "conv2d_float16",
                            .type = F16,
                            .input = {1, 4, 4, 2},
                            .outChannels = 2,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Same,
                            .window = strides(1, 1),
                            .seed = 140}));
  cases.push_back(convCase({.name = "depthwise_conv2d_float16",
                            .depthwise = true,
                            .type = F16,
                            .input = {1, 4, 4, 2},
                            .outChannels = 2,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Same,
                            .window = strides(1, 1),
                            .seed = 141}));
  cases.push_back(convCase({.name = "conv2d_quant8_per_channel",
                            .type = Q8,
                            .input = {1, 5, 5, 2},
                            .outChannels = 3,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Same,
                            .window = strides(1, 1),
                            .seed = 142,
                            .perChannel = true}));
  cases.push_back(convCase({.name = "depthwise_conv2d_quant8_per_channel",
                            .depthwise = true,
                            .type = Q8,
                            .input = {1, 5, 5, 2},
                            .outChannels = 4,
                            .kh = 3,
                            .kw = 3,
                            .padding = Padding::Same,
                            .window = strides(1, 1),
                            .seed = 143,
                            .perChannel = true}));
  cases.push_back(fullyConnectedCase("fully_connected_float16", F16, {2, 8}, 3, 8, 0, 144));
  return cases;
}

}  // namespace nnrt::test::conformance
