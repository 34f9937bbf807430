// GROUPED_CONV_2D, TRANSPOSE_CONV_2D, RESIZE_NEAREST_NEIGHBOR, INSTANCE_NORMALIZATION and BATCH_MATMUL:
// every operand type the SDK accepts for them (float32, float16, quant8 and signed quant8 with
// per-tensor and per-channel filters, int32 for BATCH_MATMUL), NHWC and NCHW, explicit and implicit
// padding, fused activations, align corners / half pixel centers, adjoints and broadcast batches.
// Expected values come from the double-precision loops of this file, written from NNAPI's definitions.
#include <algorithm>
#include <cmath>

#include "conformance/operation_case.hpp"
#include "support/reference_ops.hpp"

namespace nnrt::test::conformance {
namespace {

enum class Padding { Explicit, Same, Valid };

// Output parameters that spread `reals` over most of the stored range of `type`.
std::pair<float, int32_t> spreadQuant(const std::vector<double>& reals, OperandType type) {
  double lo = 0.0, hi = 0.0;
  for (double r : reals) {
    lo = std::min(lo, r);
    hi = std::max(hi, r);
  }
  const double scale = std::max((hi - lo) / 240.0, 1e-4);
  const int32_t zero = static_cast<int32_t>(std::clamp(std::round(-lo / scale) + 8.0, 0.0, 255.0));
  return {static_cast<float>(scale), type == Q8S ? zero - 128 : zero};
}

std::vector<double> quantizeTo(OperandType type, const std::vector<double>& reals, float scale, int32_t zero) {
  return type == Q8S ? ref::quantize(reals, scale, zero, -128, 127) : ref::quantize(reals, scale, zero);
}

// ---- GROUPED_CONV_2D and TRANSPOSE_CONV_2D ---------------------------------------------------------------

struct ConvSpec {
  std::string name;
  bool transpose = false;
  OperandType type = F32;
  std::vector<uint32_t> input;  // NHWC
  uint32_t outChannels = 1;
  uint32_t groups = 1;  // GROUPED_CONV_2D
  uint32_t kh = 1, kw = 1;
  Padding padding = Padding::Explicit;
  ref::Window window{};  // explicit pads and strides
  std::vector<uint32_t> outHW{};  // TRANSPOSE_CONV_2D: the output height and width
  bool nchw = false;
  int fuse = 0;
  uint32_t seed = 0;
  bool perChannel = false;
};

// GROUPED_CONV_2D in double: output channel oc of group g = oc / (O / groups) reads input channels
// [g * Cg, (g + 1) * Cg).
ref::Tensor groupedReference(const ref::Tensor& in, const ref::Tensor& filter, const std::vector<double>& bias,
                             const ref::Window& w, uint32_t groups, int fuse) {
  const uint32_t n = in.dims[0], h = in.dims[1], wd = in.dims[2], c = in.dims[3];
  const uint32_t o = filter.dims[0], kh = filter.dims[1], kw = filter.dims[2], cg = filter.dims[3];
  const uint32_t oh = ref::windowOutput(h, kh, w.padTop, w.padBottom, w.strideH, 1);
  const uint32_t ow = ref::windowOutput(wd, kw, w.padLeft, w.padRight, w.strideW, 1);
  const uint32_t og = o / groups;
  ref::Tensor out{{n, oh, ow, o}, std::vector<double>(size_t{n} * oh * ow * o)};
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t y = 0; y < oh; ++y)
      for (uint32_t x = 0; x < ow; ++x)
        for (uint32_t oc = 0; oc < o; ++oc) {
          const uint32_t g = oc / og;
          double sum = bias[oc];
          for (uint32_t ky = 0; ky < kh; ++ky)
            for (uint32_t kx = 0; kx < kw; ++kx) {
              const int64_t iy = int64_t{y} * w.strideH - w.padTop + ky;
              const int64_t ix = int64_t{x} * w.strideW - w.padLeft + kx;
              if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
              for (uint32_t ic = 0; ic < cg; ++ic)
                sum += in.values[((size_t{b} * h + iy) * wd + ix) * c + g * cg + ic] *
                       filter.values[((size_t{oc} * kh + ky) * kw + kx) * cg + ic];
            }
          out.values[((size_t{b} * oh + y) * ow + x) * o + oc] = ref::activate(sum, fuse);
        }
  return out;
}

// TRANSPOSE_CONV_2D in double, as a gather: output (y, x) takes input (iy, ix) through filter tap
// (ky, kx) where iy * strideH - padTop + ky == y.
ref::Tensor transposeReference(const ref::Tensor& in, const ref::Tensor& filter, const std::vector<double>& bias,
                               const ref::Window& w, uint32_t oh, uint32_t ow, int fuse) {
  const uint32_t n = in.dims[0], h = in.dims[1], wd = in.dims[2], c = in.dims[3];
  const uint32_t o = filter.dims[0], kh = filter.dims[1], kw = filter.dims[2];
  ref::Tensor out{{n, oh, ow, o}, std::vector<double>(size_t{n} * oh * ow * o)};
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t y = 0; y < oh; ++y)
      for (uint32_t x = 0; x < ow; ++x)
        for (uint32_t oc = 0; oc < o; ++oc) {
          double sum = bias[oc];
          for (uint32_t iy = 0; iy < h; ++iy)
            for (uint32_t ix = 0; ix < wd; ++ix) {
              const int64_t ky = int64_t{y} + w.padTop - int64_t{iy} * w.strideH;
              const int64_t kx = int64_t{x} + w.padLeft - int64_t{ix} * w.strideW;
              if (ky < 0 || ky >= kh || kx < 0 || kx >= kw) continue;
              for (uint32_t ic = 0; ic < c; ++ic)
                sum += in.values[((size_t{b} * h + iy) * wd + ix) * c + ic] *
                       filter.values[((size_t{oc} * kh + ky) * kw + kx) * c + ic];
            }
          out.values[((size_t{b} * oh + y) * ow + x) * o + oc] = ref::activate(sum, fuse);
        }
  return out;
}

// Android's SAME padding of TRANSPOSE_CONV_2D: CONV_2D's rule applied to the output size.
uint32_t transposeSameHead(uint32_t outSize, uint32_t filter, uint32_t stride) {
  const int64_t n = (int64_t{outSize} + stride - 1) / stride;
  const int64_t needed = (n - 1) * stride + filter - outSize;
  return needed > 0 ? static_cast<uint32_t>(needed / 2) : 0;
}

OperationCase convCase(ConvSpec s) {
  CaseBuilder c(s.name, s.transpose ? OperationType::TRANSPOSE_CONV_2D : OperationType::GROUPED_CONV_2D);
  const uint32_t inC = s.input[3];
  const uint32_t filterC = s.transpose ? inC : inC / s.groups;
  const std::vector<uint32_t> filterDims{s.outChannels, s.kh, s.kw, filterC};
  const size_t inCount = ref::count(s.input), filterCount = ref::count(filterDims);
  const bool quant = s.type == Q8 || s.type == Q8S;
  const bool isSigned = s.type == Q8S;

  const float inScale = 0.05f, filterScale = 0.01f;
  const int32_t inZero = isSigned ? -8 : 120, filterZero = isSigned ? 3 : 128;
  std::vector<float> channelScales;
  std::vector<double> in, filter, bias, inReal, filterReal, biasReal;
  if (quant) {
    in = isSigned ? randomQuant(inCount, s.seed, -128, 127) : randomQuant(inCount, s.seed);
    filter = s.perChannel ? randomQuant(filterCount, s.seed + 1, -127, 127)
                          : (isSigned ? randomQuant(filterCount, s.seed + 1, -128, 127)
                                      : randomQuant(filterCount, s.seed + 1));
    bias = randomIntegers(s.outChannels, -3000, 3000, s.seed + 2);
    inReal = ref::dequantize(in, inScale, inZero);
    for (uint32_t oc = 0; oc < s.outChannels; ++oc)
      channelScales.push_back(s.perChannel ? 0.004f + 0.002f * static_cast<float>(oc % 5) : filterScale);
    for (size_t i = 0; i < filterCount; ++i) {
      const uint32_t oc = static_cast<uint32_t>(i / (filterCount / s.outChannels));
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

  ref::Window w = s.window;
  const ref::Tensor inTensor{s.input, inReal}, filterTensor{filterDims, filterReal};
  ref::Tensor out;
  if (s.transpose) {
    if (s.padding != Padding::Explicit) {
      w.padLeft = w.padTop = 0;
      if (s.padding == Padding::Same) {
        w.padLeft = transposeSameHead(s.outHW[1], s.kw, w.strideW);
        w.padTop = transposeSameHead(s.outHW[0], s.kh, w.strideH);
      }
    }
    out = transposeReference(inTensor, filterTensor, biasReal, w, s.outHW[0], s.outHW[1], s.fuse);
  } else {
    if (s.padding != Padding::Explicit) {
      w.padLeft = w.padRight = w.padTop = w.padBottom = 0;
      if (s.padding == Padding::Same) {
        std::tie(w.padLeft, w.padRight) = ref::samePadding(s.input[2], s.kw, w.strideW);
        std::tie(w.padTop, w.padBottom) = ref::samePadding(s.input[1], s.kh, w.strideH);
      }
    }
    out = groupedReference(inTensor, filterTensor, biasReal, w, s.groups, s.fuse);
  }

  ref::Tensor inStored{s.input, in};
  if (s.nchw) {
    inStored = ref::nhwcToNchw(inStored);
    out = ref::nhwcToNchw(out);
  }
  uint32_t inOperand, filterOperand, biasOperand;
  if (quant) {
    inOperand = c.input(s.type, inStored.dims, inStored.values, inScale, inZero);
    if (s.perChannel) {
      filterOperand = c.constant(Q8C, filterDims, filter);
      c.model().setChannelQuant(filterOperand, 0, channelScales);
      biasOperand = c.constant(I32, {s.outChannels}, bias, 0.0f);
    } else {
      filterOperand = c.constant(s.type, filterDims, filter, filterScale, filterZero);
      biasOperand = c.constant(I32, {s.outChannels}, bias, inScale * filterScale);
    }
    const auto [outScale, outZero] = spreadQuant(out.values, s.type);
    c.output(s.type, out.dims, quantizeTo(s.type, out.values, outScale, outZero), outScale, outZero);
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
    if (s.transpose) {
      const std::vector<uint32_t>& d = out.dims;  // in the model's layout
      inputs.push_back(c.int32Tensor({static_cast<int32_t>(d[0]), static_cast<int32_t>(d[1]),
                                      static_cast<int32_t>(d[2]), static_cast<int32_t>(d[3])},
                                     {4}));
    }
    inputs.push_back(c.int32(s.padding == Padding::Same ? 1 : 2));
  }
  inputs.push_back(c.int32(static_cast<int32_t>(s.window.strideW)));
  inputs.push_back(c.int32(static_cast<int32_t>(s.window.strideH)));
  if (!s.transpose) inputs.push_back(c.int32(static_cast<int32_t>(s.groups)));
  inputs.push_back(c.int32(s.fuse));
  inputs.push_back(c.boolean(s.nchw));
  return c.build(inputs);
}

ref::Window pads(uint32_t l, uint32_t r, uint32_t t, uint32_t b, uint32_t sw = 1, uint32_t sh = 1) {
  ref::Window w;
  w.padLeft = l;
  w.padRight = r;
  w.padTop = t;
  w.padBottom = b;
  w.strideW = sw;
  w.strideH = sh;
  return w;
}

void addConvCases(std::vector<OperationCase>& cases) {
  // GROUPED_CONV_2D
  cases.push_back(convCase({.name = "grouped_conv_f32_explicit_nhwc", .input = {1, 5, 4, 4}, .outChannels = 6,
                            .groups = 2, .kh = 3, .kw = 2, .window = pads(1, 0, 1, 1), .seed = 11}));
  cases.push_back(convCase({.name = "grouped_conv_f32_same_stride2_nchw_relu", .input = {2, 5, 6, 6},
                            .outChannels = 3, .groups = 3, .kh = 3, .kw = 3, .padding = Padding::Same,
                            .window = pads(0, 0, 0, 0, 2, 2), .nchw = true, .fuse = 1, .seed = 12}));
  cases.push_back(convCase({.name = "grouped_conv_f16_valid", .type = F16, .input = {1, 4, 5, 4}, .outChannels = 4,
                            .groups = 4, .kh = 2, .kw = 3, .padding = Padding::Valid, .window = pads(0, 0, 0, 0, 1, 2),
                            .seed = 13}));
  cases.push_back(convCase({.name = "grouped_conv_q8_explicit_relu6", .type = Q8, .input = {1, 4, 4, 6},
                            .outChannels = 4, .groups = 2, .kh = 2, .kw = 2, .window = pads(0, 1, 1, 0, 2, 1),
                            .fuse = 3, .seed = 14}));
  cases.push_back(convCase({.name = "grouped_conv_q8_per_channel_same_nchw", .type = Q8, .input = {1, 5, 5, 4},
                            .outChannels = 6, .groups = 2, .kh = 3, .kw = 3, .padding = Padding::Same,
                            .nchw = true, .seed = 15, .perChannel = true}));
  cases.push_back(convCase({.name = "grouped_conv_q8s_explicit", .type = Q8S, .input = {2, 4, 3, 4},
                            .outChannels = 4, .groups = 2, .kh = 2, .kw = 2, .window = pads(1, 1, 0, 0),
                            .seed = 16}));
  cases.push_back(convCase({.name = "grouped_conv_q8s_per_channel_valid_relu1", .type = Q8S, .input = {1, 5, 4, 6},
                            .outChannels = 6, .groups = 3, .kh = 3, .kw = 2, .padding = Padding::Valid,
                            .fuse = 2, .seed = 17, .perChannel = true}));
  // TRANSPOSE_CONV_2D
  cases.push_back(convCase({.name = "transpose_conv_f32_explicit_stride2", .transpose = true, .input = {1, 3, 2, 3},
                            .outChannels = 2, .kh = 3, .kw = 3, .window = pads(1, 0, 0, 1, 2, 2),
                            .outHW = {6, 4}, .seed = 21}));
  cases.push_back(convCase({.name = "transpose_conv_f32_same_nchw_relu", .transpose = true, .input = {2, 3, 3, 2},
                            .outChannels = 3, .kh = 3, .kw = 2, .padding = Padding::Same,
                            .window = pads(0, 0, 0, 0, 2, 1), .outHW = {6, 3}, .nchw = true, .fuse = 1,
                            .seed = 22}));
  cases.push_back(convCase({.name = "transpose_conv_f16_valid", .transpose = true, .type = F16, .input = {1, 2, 3, 2},
                            .outChannels = 2, .kh = 2, .kw = 3, .padding = Padding::Valid,
                            .window = pads(0, 0, 0, 0, 1, 2), .outHW = {3, 7}, .seed = 23}));
  cases.push_back(convCase({.name = "transpose_conv_q8_explicit_relu6", .transpose = true, .type = Q8,
                            .input = {1, 3, 3, 3}, .outChannels = 2, .kh = 3, .kw = 3,
                            .window = pads(1, 1, 1, 1, 2, 2), .outHW = {5, 5}, .fuse = 3, .seed = 24}));
  cases.push_back(convCase({.name = "transpose_conv_q8_per_channel_same_nchw", .transpose = true, .type = Q8,
                            .input = {1, 2, 3, 3}, .outChannels = 4, .kh = 2, .kw = 2, .padding = Padding::Same,
                            .window = pads(0, 0, 0, 0, 2, 2), .outHW = {4, 6}, .nchw = true, .seed = 25,
                            .perChannel = true}));
  cases.push_back(convCase({.name = "transpose_conv_q8s_explicit", .transpose = true, .type = Q8S,
                            .input = {2, 2, 2, 3}, .outChannels = 3, .kh = 2, .kw = 3,
                            .window = pads(0, 1, 0, 0, 1, 1), .outHW = {3, 3}, .seed = 26}));
  cases.push_back(convCase({.name = "transpose_conv_q8s_per_channel_valid", .transpose = true, .type = Q8S,
                            .input = {1, 3, 2, 2}, .outChannels = 3, .kh = 3, .kw = 3, .padding = Padding::Valid,
                            .window = pads(0, 0, 0, 0, 2, 2), .outHW = {7, 5}, .seed = 27, .perChannel = true}));
}

// ---- RESIZE_NEAREST_NEIGHBOR -----------------------------------------------------------------------------

// NNAPI's source index of output index `o`: coordinate o * scale (or (o + 0.5) * scale with half pixel
// centers), rounded when aligning corners and floored otherwise, kept inside the input.
uint32_t nearestSource(uint32_t o, uint32_t inSize, uint32_t outSize, bool align, bool halfPixel) {
  const float scale = (align && outSize > 1) ? static_cast<float>(inSize - 1) / static_cast<float>(outSize - 1)
                                             : static_cast<float>(inSize) / static_cast<float>(outSize);
  const float x = halfPixel ? (static_cast<float>(o) + 0.5f) * scale : static_cast<float>(o) * scale;
  double i = align ? std::round(static_cast<double>(x)) : std::floor(static_cast<double>(x));
  i = std::clamp(i, 0.0, static_cast<double>(inSize - 1));
  return static_cast<uint32_t>(i);
}

struct ResizeSpec {
  std::string name;
  OperandType type = F32;
  std::vector<uint32_t> input;  // NHWC
  uint32_t outH = 1, outW = 1;
  bool byScale = false;         // give float scales instead of sizes
  int flags = 0;                // how many of layout, align corners, half pixel centers to give (0..3)
  bool nchw = false, align = false, halfPixel = false;
  float outScale = 0.0f;        // quant8: output parameters other than the input's (0: the same)
  int32_t outZero = 0;
  uint32_t seed = 0;
};

OperationCase resizeCase(ResizeSpec s) {
  CaseBuilder c(s.name, OperationType::RESIZE_NEAREST_NEIGHBOR);
  const bool quant = s.type == Q8 || s.type == Q8S;
  const float inScale = 0.1f;
  const int32_t inZero = s.type == Q8S ? -5 : 100;
  const size_t count = ref::count(s.input);
  std::vector<double> in = quant ? (s.type == Q8S ? randomQuant(count, s.seed, -128, 127) : randomQuant(count, s.seed))
                                 : randomValues(s.type, count, s.seed, -4.0, 4.0);
  const uint32_t n = s.input[0], h = s.input[1], w = s.input[2], ch = s.input[3];
  ref::Tensor out{{n, s.outH, s.outW, ch}, {}};
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t y = 0; y < s.outH; ++y)
      for (uint32_t x = 0; x < s.outW; ++x)
        for (uint32_t k = 0; k < ch; ++k) {
          const uint32_t iy = nearestSource(y, h, s.outH, s.align, s.halfPixel);
          const uint32_t ix = nearestSource(x, w, s.outW, s.align, s.halfPixel);
          out.values.push_back(in[((size_t{b} * h + iy) * w + ix) * ch + k]);
        }
  ref::Tensor inStored{s.input, in};
  if (s.nchw) {
    inStored = ref::nhwcToNchw(inStored);
    out = ref::nhwcToNchw(out);
  }
  const uint32_t input = c.input(s.type, inStored.dims, inStored.values, quant ? inScale : 0.0f, quant ? inZero : 0);
  if (quant && s.outScale != 0.0f) {
    const auto real = ref::dequantize(out.values, inScale, inZero);
    c.output(s.type, out.dims, quantizeTo(s.type, real, s.outScale, s.outZero), s.outScale, s.outZero);
  } else {
    c.output(s.type, out.dims, out.values, quant ? inScale : 0.0f, quant ? inZero : 0);
  }
  std::vector<uint32_t> inputs{input};
  if (s.byScale) {
    const float sw = static_cast<float>(s.outW) / static_cast<float>(w);
    const float sh = static_cast<float>(s.outH) / static_cast<float>(h);
    inputs.push_back(s.type == F16 ? c.float16(sw) : c.float32(sw));
    inputs.push_back(s.type == F16 ? c.float16(sh) : c.float32(sh));
  } else {
    inputs.push_back(c.int32(static_cast<int32_t>(s.outW)));
    inputs.push_back(c.int32(static_cast<int32_t>(s.outH)));
  }
  const bool flags[] = {s.nchw, s.align, s.halfPixel};
  for (int i = 0; i < s.flags; ++i) inputs.push_back(c.boolean(flags[i]));
  return c.build(inputs);
}

void addResizeCases(std::vector<OperationCase>& cases) {
  cases.push_back(resizeCase({.name = "resize_nearest_f32_up_nhwc", .input = {1, 3, 4, 2}, .outH = 7, .outW = 5,
                              .flags = 1, .seed = 31}));
  cases.push_back(resizeCase({.name = "resize_nearest_f32_scale_nchw_align", .input = {2, 4, 3, 3}, .outH = 8,
                              .outW = 6, .byScale = true, .flags = 2, .nchw = true, .align = true, .seed = 32}));
  cases.push_back(resizeCase({.name = "resize_nearest_f32_half_pixel_down", .input = {1, 7, 6, 2}, .outH = 3,
                              .outW = 4, .flags = 3, .halfPixel = true, .seed = 33}));
  cases.push_back(resizeCase({.name = "resize_nearest_f16_half_pixel_nchw", .type = F16, .input = {1, 3, 5, 2},
                              .outH = 5, .outW = 3, .flags = 3, .nchw = true, .halfPixel = true, .seed = 34}));
  cases.push_back(resizeCase({.name = "resize_nearest_f16_scale", .type = F16, .input = {1, 2, 2, 3}, .outH = 4,
                              .outW = 6, .byScale = true, .flags = 1, .seed = 35}));
  cases.push_back(resizeCase({.name = "resize_nearest_q8_down_align", .type = Q8, .input = {1, 6, 5, 3}, .outH = 4,
                              .outW = 3, .flags = 3, .align = true, .seed = 36}));
  cases.push_back(resizeCase({.name = "resize_nearest_q8_requantized", .type = Q8, .input = {2, 3, 3, 2},
                              .outH = 5, .outW = 4, .flags = 1, .outScale = 0.15f, .outZero = 90, .seed = 37}));
  cases.push_back(resizeCase({.name = "resize_nearest_q8s_nchw", .type = Q8S, .input = {1, 4, 4, 2}, .outH = 6,
                              .outW = 7, .flags = 1, .nchw = true, .seed = 38}));
  cases.push_back(resizeCase({.name = "resize_nearest_q8s_requantized_half_pixel", .type = Q8S,
                              .input = {1, 3, 4, 3}, .outH = 5, .outW = 2, .flags = 3, .halfPixel = true,
                              .outScale = 0.07f, .outZero = 10, .seed = 39}));
}

// ---- INSTANCE_NORMALIZATION ------------------------------------------------------------------------------

OperationCase instanceNormCase(std::string name, OperandType type, std::vector<uint32_t> dims, bool nchw,
                               float gamma, float beta, float epsilon, uint32_t seed) {
  CaseBuilder c(std::move(name), OperationType::INSTANCE_NORMALIZATION);
  const auto in = randomValues(type, ref::count(dims), seed, -3.0, 5.0);
  const uint32_t n = dims[0], h = dims[1], w = dims[2], ch = dims[3];
  ref::Tensor out{dims, std::vector<double>(in.size())};
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t k = 0; k < ch; ++k) {
      double sum = 0.0, squares = 0.0;
      for (uint32_t p = 0; p < h * w; ++p) sum += in[(size_t{b} * h * w + p) * ch + k];
      const double mean = sum / (h * w);
      for (uint32_t p = 0; p < h * w; ++p) {
        const double d = in[(size_t{b} * h * w + p) * ch + k] - mean;
        squares += d * d;
      }
      const double sd = std::sqrt(squares / (h * w) + epsilon);
      for (uint32_t p = 0; p < h * w; ++p) {
        const size_t i = (size_t{b} * h * w + p) * ch + k;
        out.values[i] = (in[i] - mean) * gamma / sd + beta;
      }
    }
  ref::Tensor inStored{dims, in};
  if (nchw) {
    inStored = ref::nhwcToNchw(inStored);
    out = ref::nhwcToNchw(out);
  }
  const uint32_t input = c.input(type, inStored.dims, inStored.values);
  c.output(type, out.dims, out.values);
  auto scalar = [&](float v) { return type == F16 ? c.float16(v) : c.float32(v); };
  return c.build({input, scalar(gamma), scalar(beta), scalar(epsilon), c.boolean(nchw)});
}

// ---- BATCH_MATMUL ----------------------------------------------------------------------------------------

OperationCase batchMatmulCase(std::string name, OperandType type, std::vector<uint32_t> lhsDims,
                              std::vector<uint32_t> rhsDims, bool adjLhs, bool adjRhs, uint32_t seed) {
  CaseBuilder c(std::move(name), OperationType::BATCH_MATMUL);
  const size_t rank = lhsDims.size();
  const size_t lc = ref::count(lhsDims), rc = ref::count(rhsDims);
  struct QuantParams {
    float scale;
    int32_t zeroPoint;
  };
  const QuantParams lq{0.05f, -3}, rq{0.02f, 7};
  std::vector<double> lhs, rhs;
  if (type == Q8S) {
    lhs = randomQuant(lc, seed, -128, 127);
    rhs = randomQuant(rc, seed + 1, -128, 127);
  } else if (type == I32) {
    lhs = randomIntegers(lc, -50, 50, seed);
    rhs = randomIntegers(rc, -50, 50, seed + 1);
  } else {
    lhs = randomValues(type, lc, seed);
    rhs = randomValues(type, rc, seed + 1);
  }
  const auto lreal = type == Q8S ? ref::dequantize(lhs, lq.scale, lq.zeroPoint) : lhs;
  const auto rreal = type == Q8S ? ref::dequantize(rhs, rq.scale, rq.zeroPoint) : rhs;
  const uint32_t m = adjLhs ? lhsDims[rank - 1] : lhsDims[rank - 2];
  const uint32_t k = adjLhs ? lhsDims[rank - 2] : lhsDims[rank - 1];
  const uint32_t ncol = adjRhs ? rhsDims[rank - 2] : rhsDims[rank - 1];
  std::vector<uint32_t> outDims;
  for (size_t d = 0; d + 2 < rank; ++d) outDims.push_back(std::max(lhsDims[d], rhsDims[d]));
  outDims.push_back(m);
  outDims.push_back(ncol);
  const auto lStrides = ref::strides(lhsDims), rStrides = ref::strides(rhsDims), oStrides = ref::strides(outDims);
  std::vector<double> out(ref::count(outDims));
  for (size_t o = 0; o < out.size(); ++o) {
    size_t lBase = 0, rBase = 0;
    for (size_t d = 0; d + 2 < rank; ++d) {
      const size_t idx = (o / oStrides[d]) % outDims[d];
      if (lhsDims[d] != 1) lBase += idx * lStrides[d];
      if (rhsDims[d] != 1) rBase += idx * rStrides[d];
    }
    const size_t i = (o / oStrides[rank - 2]) % m, j = o % ncol;
    double sum = 0.0;
    for (uint32_t kk = 0; kk < k; ++kk) {
      const size_t li = lBase + (adjLhs ? kk * lStrides[rank - 2] + i : i * lStrides[rank - 2] + kk);
      const size_t ri = rBase + (adjRhs ? j * rStrides[rank - 2] + kk : kk * rStrides[rank - 2] + j);
      sum += lreal[li] * rreal[ri];
    }
    out[o] = sum;
  }
  uint32_t a, b;
  if (type == Q8S) {
    a = c.input(Q8S, lhsDims, lhs, lq.scale, lq.zeroPoint);
    b = c.input(Q8S, rhsDims, rhs, rq.scale, rq.zeroPoint);
    const auto [outScale, outZero] = spreadQuant(out, Q8S);
    c.output(Q8S, outDims, quantizeTo(Q8S, out, outScale, outZero), outScale, outZero);
  } else {
    a = c.input(type, lhsDims, lhs);
    b = c.input(type, rhsDims, rhs);
    c.output(type, outDims, out);
  }
  return c.build({a, b, c.boolean(adjLhs), c.boolean(adjRhs)});
}

}  // namespace

std::vector<OperationCase> conv2Cases() {
  std::vector<OperationCase> cases;
  addConvCases(cases);
  addResizeCases(cases);
  cases.push_back(instanceNormCase("instance_norm_f32_nhwc", F32, {2, 3, 4, 3}, false, 1.5f, -0.5f, 1e-4f, 41));
  cases.push_back(instanceNormCase("instance_norm_f32_nchw", F32, {1, 5, 2, 4}, true, 0.7f, 2.0f, 0.1f, 42));
  // 37 channels: the kernel works on blocks of 16, the last one partial.
  cases.push_back(instanceNormCase("instance_norm_f32_nhwc_37_channels", F32, {2, 5, 3, 37}, false, 1.2f, 0.3f, 1e-3f, 45));
  cases.push_back(instanceNormCase("instance_norm_f16_nhwc", F16, {1, 3, 3, 2}, false, 2.0f, 0.25f, 1e-3f, 43));
  cases.push_back(instanceNormCase("instance_norm_f16_nchw", F16, {2, 2, 3, 3}, true, 1.0f, 0.0f, 0.01f, 44));
  cases.push_back(batchMatmulCase("batch_matmul_f32_rank2", F32, {3, 4}, {4, 5}, false, false, 51));
  cases.push_back(batchMatmulCase("batch_matmul_f32_rank3_adj_lhs", F32, {2, 4, 3}, {2, 4, 2}, true, false, 52));
  cases.push_back(
      batchMatmulCase("batch_matmul_f32_rank4_broadcast_adj_rhs", F32, {2, 1, 3, 4}, {1, 3, 5, 4}, false, true, 53));
  cases.push_back(batchMatmulCase("batch_matmul_f16_adj_both", F16, {2, 3, 2}, {2, 4, 3}, true, true, 54));
  cases.push_back(batchMatmulCase("batch_matmul_i32_broadcast", I32, {3, 2, 4}, {1, 4, 3}, false, false, 55));
  cases.push_back(batchMatmulCase("batch_matmul_q8s_rank3", Q8S, {2, 3, 6}, {2, 6, 4}, false, false, 56));
  cases.push_back(batchMatmulCase("batch_matmul_q8s_adj_rhs", Q8S, {4, 5}, {3, 5}, false, true, 57));
  return cases;
}

}  // namespace nnrt::test::conformance
