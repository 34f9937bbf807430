// L2_NORMALIZATION, LOCAL_RESPONSE_NORMALIZATION, RESIZE_BILINEAR and DEQUANTIZE in every operand type
// NNAPI lists for them through feature level 4: the default and explicit (negative) axis, ranks other
// than 4, NHWC with the layout flag omitted or false and NCHW, sizes and scales, align corners, half
// pixel centers, up- and down-sampling, the fixed output quantization of L2_NORMALIZATION, and every
// quantized input DEQUANTIZE takes into float32 and float16. Expected values come from the double
// references of support/reference_image.hpp; quantized cases dequantize their inputs and quantize the
// exact result.
#include <string>

#include "conformance/operation_case.hpp"
#include "support/reference_image.hpp"

namespace nnrt::test::conformance {

std::vector<OperationCase> imageCases();

namespace {

using O = OperationType;
constexpr auto Q8Symm = OperandType::TENSOR_QUANT8_SYMM;

struct Q {
  float scale = 0.0f;
  int32_t zeroPoint = 0;
};
bool quantized(OperandType type) {
  return type == Q8 || type == Q8S || type == Q8Symm;
}
double lowest(OperandType type) {
  return type == Q8 ? 0 : -128;
}
double highest(OperandType type) {
  return type == Q8 ? 255 : 127;
}
const char* suffix(OperandType type) {
  if (type == F16) return "float16";
  if (type == Q8) return "quant8";
  if (type == Q8S) return "quant8_signed";
  return "float";
}

// Random data as `type` stores it and its real values.
struct Data {
  std::vector<double> stored, real;
};
Data randomData(OperandType type, size_t n, uint32_t seed, Q q, double lo, double hi) {
  if (!quantized(type)) {
    auto v = randomValues(type, n, seed, lo, hi);
    return {v, v};
  }
  auto stored = randomQuant(n, seed, static_cast<int>(lowest(type)), static_cast<int>(highest(type)));
  return {stored, ref::dequantize(stored, q.scale, q.zeroPoint)};
}

// ---- L2_NORMALIZATION --------------------------------------------------------------------------------

OperationCase l2Case(const std::string& name, OperandType type, std::vector<uint32_t> dims, std::optional<int32_t> axis,
                     uint32_t seed) {
  CaseBuilder c(name, O::L2_NORMALIZATION);
  const Q inQ = type == Q8 ? Q{0.05f, 120} : type == Q8S ? Q{0.04f, -3} : Q{};
  const Data in = randomData(type, ref::count(dims), seed, inQ, -3.0, 3.0);
  std::vector<uint32_t> inputs{c.input(type, dims, in.stored, inQ.scale, inQ.zeroPoint)};
  const int32_t rank = static_cast<int32_t>(dims.size());
  int32_t a = -1;
  if (axis) {
    inputs.push_back(c.int32(*axis));
    a = *axis;
  }
  const auto real = ref::l2Normalization({dims, in.real}, static_cast<uint32_t>(a < 0 ? a + rank : a)).values;
  if (quantized(type)) {
    // NNAPI fixes the output quantization: scale 1/128, zero point 128 (0 when signed).
    const Q outQ{1.0f / 128, type == Q8 ? 128 : 0};
    c.output(type, dims, ref::quantize(real, outQ.scale, outQ.zeroPoint, lowest(type), highest(type)), outQ.scale,
             outQ.zeroPoint);
  } else {
    c.output(type, dims, real);
  }
  return c.build(inputs);
}

// ---- LOCAL_RESPONSE_NORMALIZATION ---------------------------------------------------------------------

OperationCase lrnCase(const std::string& name, OperandType type, std::vector<uint32_t> dims, int32_t radius,
                      double bias, double alpha, double beta, std::optional<int32_t> axis, uint32_t seed) {
  CaseBuilder c(name, O::LOCAL_RESPONSE_NORMALIZATION);
  const auto in = randomValues(type, ref::count(dims), seed, -2.0, 2.0);
  auto scalar = [&](double v) {
    return type == F16 ? c.float16(static_cast<float>(v)) : c.float32(static_cast<float>(v));
  };
  std::vector<uint32_t> inputs{c.input(type, dims, in), c.int32(radius), scalar(bias), scalar(alpha), scalar(beta)};
  const int32_t rank = static_cast<int32_t>(dims.size());
  int32_t a = -1;
  if (axis) {
    inputs.push_back(c.int32(*axis));
    a = *axis;
  }
  c.output(type, dims,
           ref::localResponseNormalization({dims, in}, static_cast<uint32_t>(a < 0 ? a + rank : a), radius, bias,
                                           alpha, beta)
               .values);
  return c.build(inputs);
}

// ---- RESIZE_BILINEAR ------------------------------------------------------------------------------------

enum class Layout { Omitted, Nhwc, Nchw };

struct ResizeSpec {
  OperandType type = F32;
  std::vector<uint32_t> nhwc;  // input dims, NHWC
  uint32_t outH = 0, outW = 0;
  bool byScale = false;  // inputs 1 and 2 as scales (outW / inW, outH / inH) instead of sizes
  Layout layout = Layout::Omitted;
  bool alignCorners = false, halfPixelCenters = false;
  uint32_t seed = 0;
};

OperationCase resizeCase(const std::string& name, const ResizeSpec& s) {
  CaseBuilder c(name, O::RESIZE_BILINEAR);
  const Q q = s.type == Q8 ? Q{0.1f, 128} : s.type == Q8S ? Q{0.1f, -5} : Q{};
  const Data in = randomData(s.type, ref::count(s.nhwc), s.seed, q, -5.0, 5.0);
  ref::Tensor stored{s.nhwc, in.stored};
  ref::Tensor out =
      ref::resizeBilinear({s.nhwc, in.real}, s.outH, s.outW, s.alignCorners, s.halfPixelCenters);
  if (quantized(s.type)) out.values = ref::quantize(out.values, q.scale, q.zeroPoint, lowest(s.type), highest(s.type));
  if (s.layout == Layout::Nchw) {
    stored = ref::nhwcToNchw(stored);
    out = ref::nhwcToNchw(out);
  }
  std::vector<uint32_t> inputs{c.input(s.type, stored.dims, stored.values, q.scale, q.zeroPoint)};
  if (s.byScale) {
    const float sw = static_cast<float>(s.outW) / static_cast<float>(s.nhwc[2]);
    const float sh = static_cast<float>(s.outH) / static_cast<float>(s.nhwc[1]);
    inputs.push_back(s.type == F16 ? c.float16(sw) : c.float32(sw));
    inputs.push_back(s.type == F16 ? c.float16(sh) : c.float32(sh));
  } else {
    inputs.push_back(c.int32(static_cast<int32_t>(s.outW)));
    inputs.push_back(c.int32(static_cast<int32_t>(s.outH)));
  }
  const bool flags = s.alignCorners || s.halfPixelCenters;
  if (s.layout != Layout::Omitted || flags) inputs.push_back(c.boolean(s.layout == Layout::Nchw));
  if (flags) {
    inputs.push_back(c.boolean(s.alignCorners));
    inputs.push_back(c.boolean(s.halfPixelCenters));
  }
  c.output(s.type, out.dims, out.values, q.scale, q.zeroPoint);
  return c.build(inputs);
}

// ---- DEQUANTIZE -----------------------------------------------------------------------------------------

OperationCase dequantizeCase(const std::string& name, OperandType inType, OperandType outType, Q q, uint32_t seed) {
  CaseBuilder c(name, O::DEQUANTIZE);
  const std::vector<uint32_t> dims{2, 3, 5};
  const Data in = randomData(inType, ref::count(dims), seed, q, 0, 0);
  const uint32_t a = c.input(inType, dims, in.stored, q.scale, q.zeroPoint);
  c.output(outType, dims, in.real);
  return c.build({a});
}

OperationCase dequantizePerChannelCase(const std::string& name, OperandType outType, uint32_t channelDim,
                                       uint32_t seed) {
  CaseBuilder c(name, O::DEQUANTIZE);
  const std::vector<uint32_t> dims{3, 4, 2};
  std::vector<float> scales;
  for (uint32_t k = 0; k < dims[channelDim]; ++k)
    scales.push_back(0.01f + 0.03f * static_cast<float>(k));
  const auto stored = randomQuant(ref::count(dims), seed, -127, 127);
  const uint32_t a = c.input(Q8C, dims, stored);
  c.model().setChannelQuant(a, channelDim, scales);
  c.output(outType, dims, ref::dequantizePerChannel({dims, stored}, channelDim, scales));
  return c.build({a});
}

// ---- LSH_PROJECTION ---------------------------------------------------------------------------------------

struct LshSpec {
  std::string name;
  OperandType hashType = F32;  // seeds and weights
  OperandType inputType = F32;
  std::vector<uint32_t> inputDims;
  size_t numHash = 3, numBits = 2;
  int type = 3;           // 1 SPARSE_DEPRECATED, 2 DENSE, 3 SPARSE
  bool weighted = false;  // DENSE only
  bool negateWeights = false;
  uint32_t seed = 0;
};

OperationCase lshCase(const LshSpec& s) {
  CaseBuilder c(s.name, O::LSH_PROJECTION);
  const auto seeds = randomValues(s.hashType, s.numHash * s.numBits, s.seed, -100.0, 100.0);
  const Q q = s.inputType == Q8 ? Q{0.5f, 10} : Q{};
  const size_t count = ref::count(s.inputDims);
  std::vector<double> data = s.inputType == Q8    ? randomQuant(count, s.seed + 1)
                             : s.inputType == I32 ? std::vector<double>(randomQuant(count, s.seed + 1, -1000, 1000))
                                                  : randomValues(s.inputType, count, s.seed + 1, -5.0, 5.0);
  std::vector<double> weights;
  if (s.weighted) {
    weights = randomValues(s.hashType, s.inputDims[0], s.seed + 2, 0.1, 2.0);
    if (s.negateWeights)
      for (double& w : weights) w = -w;
  }
  const uint32_t hash = c.constant(s.hashType, {static_cast<uint32_t>(s.numHash), static_cast<uint32_t>(s.numBits)},
                                   seeds);
  const uint32_t in = c.input(s.inputType, s.inputDims, data, q.scale, q.zeroPoint);
  const uint32_t weight = s.weighted ? c.constant(s.hashType, {s.inputDims[0]}, weights) : c.omitted(s.hashType);
  const auto want =
      ref::lshProjection(seeds, s.numHash, s.numBits, encode(s.inputType, data), s.inputDims[0], weights, s.type);
  c.output(I32, {static_cast<uint32_t>(want.size())}, want);
  return c.build({hash, in, weight, c.int32(s.type)});
}

}  // namespace

std::vector<OperationCase> imageCases() {
  std::vector<OperationCase> cases;

  // L2_NORMALIZATION: by hand first. {3, 4} has norm 5: {0.6, 0.8}; a zero vector stays zero.
  {
    CaseBuilder c("l2_normalization_float_hand", O::L2_NORMALIZATION);
    const uint32_t a = c.input(F32, {2, 2}, {3, 4, 0, 0});
    c.output(F32, {2, 2}, {0.6, 0.8, 0, 0});
    cases.push_back(c.build({a}));
  }
  for (OperandType type : {F32, F16, Q8, Q8S}) {
    const std::string s = suffix(type);
    cases.push_back(l2Case("l2_normalization_" + s + "_rank4", type, {2, 3, 2, 5}, std::nullopt, 600));
    cases.push_back(l2Case("l2_normalization_" + s + "_axis1", type, {2, 4, 3}, 1, 601));
    cases.push_back(l2Case("l2_normalization_" + s + "_axis_negative", type, {3, 4, 2}, -3, 602));
  }
  cases.push_back(l2Case("l2_normalization_float_rank1", F32, {7}, std::nullopt, 603));

  // LOCAL_RESPONSE_NORMALIZATION: by hand, radius 1 over {1, 2, 2}: sums {5, 9, 8}; bias 1, alpha 1,
  // beta 0.5 divides by {sqrt 6, sqrt 10, 3}.
  {
    CaseBuilder c("local_response_normalization_float_hand", O::LOCAL_RESPONSE_NORMALIZATION);
    const uint32_t a = c.input(F32, {1, 1, 1, 3}, {1, 2, 2});
    const std::vector<uint32_t> in{a, c.int32(1), c.float32(1), c.float32(1), c.float32(0.5f)};
    c.output(F32, {1, 1, 1, 3}, {1 / std::sqrt(6.0), 2 / std::sqrt(10.0), 2.0 / 3.0});
    cases.push_back(c.build(in));
  }
  for (OperandType type : {F32, F16}) {
    const std::string s = suffix(type);
    cases.push_back(lrnCase("local_response_normalization_" + s + "_rank4", type, {1, 2, 3, 6}, 2, 1.0, 0.5, 0.75,
                            std::nullopt, 610));
    cases.push_back(lrnCase("local_response_normalization_" + s + "_axis1", type, {2, 5, 3}, 1, 2.0, 0.25, 0.5, 1,
                            611));
    cases.push_back(lrnCase("local_response_normalization_" + s + "_axis_negative", type, {3, 4, 2, 2}, 3, 0.5,
                            0.125, 1.0, -3, 612));
  }
  cases.push_back(lrnCase("local_response_normalization_float_radius0", F32, {2, 7}, 0, 1.0, 1.0, 1.0, 1, 613));

  // RESIZE_BILINEAR: by hand, 1x2 -> 1x4 {0, 4}: sources 0, 0.5, 1, 1.5 (clamped to 1) give {0, 2, 4, 4}.
  {
    CaseBuilder c("resize_bilinear_float_hand", O::RESIZE_BILINEAR);
    const uint32_t a = c.input(F32, {1, 1, 2, 1}, {0, 4});
    const std::vector<uint32_t> in{a, c.int32(4), c.int32(1)};
    c.output(F32, {1, 1, 4, 1}, {0, 2, 4, 4});
    cases.push_back(c.build(in));
  }
  for (OperandType type : {F32, F16, Q8, Q8S}) {
    const std::string s = "resize_bilinear_" + std::string(suffix(type));
    const std::vector<uint32_t> dims{2, 3, 4, 3};
    uint32_t seed = 620 + static_cast<uint32_t>(static_cast<int32_t>(type)) * 10;
    cases.push_back(resizeCase(s + "_up", {.type = type, .nhwc = dims, .outH = 5, .outW = 7, .seed = seed++}));
    cases.push_back(resizeCase(s + "_down", {.type = type, .nhwc = {1, 6, 5, 2}, .outH = 4, .outW = 2, .seed = seed++}));
    cases.push_back(resizeCase(
        s + "_nhwc", {.type = type, .nhwc = dims, .outH = 6, .outW = 8, .layout = Layout::Nhwc, .seed = seed++}));
    cases.push_back(resizeCase(
        s + "_nchw", {.type = type, .nhwc = dims, .outH = 6, .outW = 5, .layout = Layout::Nchw, .seed = seed++}));
    cases.push_back(resizeCase(s + "_scale",
                               {.type = type, .nhwc = {1, 2, 4, 2}, .outH = 4, .outW = 6, .byScale = true, .seed = seed++}));
    cases.push_back(resizeCase(
        s + "_align_corners", {.type = type, .nhwc = dims, .outH = 5, .outW = 6, .alignCorners = true, .seed = seed++}));
    cases.push_back(resizeCase(s + "_half_pixel_nchw", {.type = type,
                                                        .nhwc = dims,
                                                        .outH = 7,
                                                        .outW = 3,
                                                        .layout = Layout::Nchw,
                                                        .halfPixelCenters = true,
                                                        .seed = seed++}));
  }

  // DEQUANTIZE: by hand, quant8 {0, 128, 255} with scale 0.5 and zero point 128: {-64, 0, 63.5}.
  {
    CaseBuilder c("dequantize_quant8_hand", O::DEQUANTIZE);
    const uint32_t a = c.input(Q8, {3}, {0, 128, 255}, 0.5f, 128);
    c.output(F32, {3}, {-64, 0, 63.5});
    cases.push_back(c.build({a}));
  }
  cases.push_back(dequantizeCase("dequantize_quant8_float", Q8, F32, {0.07f, 100}, 640));
  cases.push_back(dequantizeCase("dequantize_quant8_float16", Q8, F16, {0.07f, 100}, 641));
  cases.push_back(dequantizeCase("dequantize_quant8_signed_float", Q8S, F32, {0.03f, -20}, 642));
  cases.push_back(dequantizeCase("dequantize_quant8_signed_float16", Q8S, F16, {0.03f, -20}, 643));
  cases.push_back(dequantizeCase("dequantize_quant8_symm_float", Q8Symm, F32, {0.125f, 0}, 644));
  cases.push_back(dequantizeCase("dequantize_quant8_symm_float16", Q8Symm, F16, {0.125f, 0}, 645));
  cases.push_back(dequantizePerChannelCase("dequantize_per_channel_dim0_float", F32, 0, 646));
  cases.push_back(dequantizePerChannelCase("dequantize_per_channel_dim1_float", F32, 1, 647));
  cases.push_back(dequantizePerChannelCase("dequantize_per_channel_dim2_float16", F16, 2, 648));

  // LSH_PROJECTION: every projection type, float32 and float16 seeds, inputs of each type it takes.
  // Negated weights flip every DENSE bit, so the pair also checks the sign rule without the hash.
  cases.push_back(lshCase({.name = "lsh_projection_sparse_int32", .inputType = I32, .inputDims = {3, 2}, .seed = 660}));
  cases.push_back(lshCase({.name = "lsh_projection_sparse_deprecated_float",
                           .inputDims = {4, 3},
                           .numHash = 4,
                           .numBits = 3,
                           .type = 1,
                           .seed = 661}));
  cases.push_back(lshCase({.name = "lsh_projection_sparse_quant8_rank3", .inputType = Q8, .inputDims = {2, 3, 2},
                           .numHash = 2, .numBits = 8, .seed = 662}));
  cases.push_back(lshCase({.name = "lsh_projection_dense_float", .inputDims = {5, 2}, .numHash = 3, .numBits = 4,
                           .type = 2, .weighted = true, .seed = 663}));
  cases.push_back(lshCase({.name = "lsh_projection_dense_float_negated", .inputDims = {5, 2}, .numHash = 3,
                           .numBits = 4, .type = 2, .weighted = true, .negateWeights = true, .seed = 663}));
  cases.push_back(lshCase({.name = "lsh_projection_dense_float16", .hashType = F16, .inputType = F16,
                           .inputDims = {4}, .numHash = 2, .numBits = 5, .type = 2, .weighted = true, .seed = 664}));
  cases.push_back(lshCase({.name = "lsh_projection_sparse_float16_int32", .hashType = F16, .inputType = I32,
                           .inputDims = {6, 1}, .numHash = 5, .numBits = 3, .seed = 665}));
  return cases;
}

}  // namespace nnrt::test::conformance
