// Zero-sized tensors, as NNAPI models make them at run time: BOX_WITH_NMS_LIMIT keeps no box (the one
// class's score, 0.1, is under the 0.3 threshold), ROI_ALIGN turns the zero boxes into a feature map
// of 0 batches, and the operation under test reads it. NNAPI lets these operations take such inputs
// (the ones Android's CPU path marks allowZeroSizedInput); their outputs have 0 batches too, and so no
// values. NHWC, float32 and quant8 (the other types come from the suite's forms of each case).
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>

#include "conformance/operation_case.hpp"

namespace nnrt::test::conformance {
namespace {

using O = OperationType;
constexpr auto Q16A = OperandType::TENSOR_QUANT16_ASYMM;

// A model that makes the zero-sized feature map [0, 2, 2, channels] of `type` (float32, or quant8
// with scale 0.1 and zero point 128), with the NMS's scores and classes as model outputs ([0]).
struct ZeroSized {
  OperandType type = F32;
  float scale = 0.0f;
  int32_t zero = 0;
  TestModel model;
  std::vector<TensorValues> inputs;
  std::vector<ExpectedOutput> outputs;
  uint32_t featureMap = 0;

  bool quant() const { return type == Q8; }
  // Reals as this model's data type stores them.
  std::vector<double> stored(const std::vector<double>& reals) const {
    if (!quant()) return reals;
    std::vector<double> s;
    for (double r : reals) s.push_back(std::clamp(std::round(r / scale) + zero, 0.0, 255.0));
    return s;
  }
  uint32_t constant(std::vector<uint32_t> dims, const std::vector<double>& reals) {
    return model.addConstant(type, std::move(dims), encode(type, stored(reals)), scale, zero);
  }
  // A filter of `weights` (quant8: scale 0.5, the data's zero point) and its bias, then the INT32
  // parameters and (`layout`) the NHWC flag: the inputs of a convolution or FULLY_CONNECTED after its data.
  std::vector<uint32_t> filtered(std::vector<uint32_t> filterDims, const std::vector<double>& weights,
                                 std::vector<uint32_t> biasDims, const std::vector<double>& bias,
                                 std::initializer_list<int32_t> params, bool layout) {
    const float filterScale = quant() ? 0.5f : 0.0f;
    std::vector<double> w = weights, b = bias;
    if (quant()) {
      for (double& v : w) v = v / filterScale + zero;
      for (double& v : b) v = std::round(v / (scale * filterScale));
    }
    const OperandType biasType = quant() ? I32 : F32;
    std::vector<uint32_t> args{
        model.addConstant(type, std::move(filterDims), encode(type, w), filterScale, zero),
        model.addConstant(biasType, std::move(biasDims), encode(biasType, b), quant() ? scale * filterScale : 0.0f, 0)};
    for (int32_t v : params) args.push_back(model.addInt32(v));
    if (layout) args.push_back(model.addBool(false));
    return args;
  }
};

ZeroSized zeroSized(OperandType type, uint32_t channels) {
  ZeroSized z;
  z.type = type;
  if (z.quant()) z.scale = 0.1f, z.zero = 128;
  TestModel& m = z.model;
  const OperandType boxes = z.quant() ? Q16A : F32;
  const float boxScale = z.quant() ? 0.125f : 0.0f;
  std::vector<double> box{1, 1, 10, 10, 0, 0, 10, 10};
  if (z.quant()) {
    for (double& b : box) b /= boxScale;
  }
  const uint32_t scores = z.constant({1, 2}, {0.9, 0.1});
  const uint32_t rois = m.addConstant(boxes, {1, 8}, encode(boxes, box), boxScale, 0);
  const uint32_t batches = m.addInt32Tensor({0}, {1});
  const uint32_t scoresOut = m.addOutput(type, {0}, z.scale, z.zero);
  const uint32_t roisOut = m.addOperand(boxes, {0, 4}, boxScale, 0);
  const uint32_t classesOut = m.addOutput(I32, {0});
  const uint32_t batchesOut = m.addOperand(I32, {0});
  m.addOperation(O::BOX_WITH_NMS_LIMIT,
                 {scores, rois, batches, m.addFloat32(0.3f), m.addInt32(-1), m.addInt32(0), m.addFloat32(0.4f),
                  m.addFloat32(1.0f), m.addFloat32(0.3f)},
                 {scoresOut, roisOut, classesOut, batchesOut});
  z.outputs.push_back({{type, {0}, {}}, 0.0, 0.0});
  z.outputs.push_back({{I32, {0}, {}}, 0.0, 0.0});

  std::vector<double> image;
  for (uint32_t c = 0; c < channels; ++c) image.push_back(1.0 + c);
  const uint32_t in = m.addInput(type, {1, 1, 1, channels}, z.scale, z.zero);
  z.inputs.push_back({type, {1, 1, 1, channels}, z.stored(image)});
  z.featureMap = m.addOperand(type, {0, 2, 2, channels}, z.scale, z.zero);
  m.addOperation(O::ROI_ALIGN,
                 {in, roisOut, batchesOut, m.addInt32(2), m.addInt32(2), m.addFloat32(2.0f), m.addFloat32(2.0f),
                  m.addInt32(4), m.addInt32(4), m.addBool(false)},
                 {z.featureMap});
  return z;
}

// The case: `op` reads the feature map (and `inputs` after it) into one model output of `out` type
// and shape (declared as it is), expected to hold `values` (none when zero-sized).
OperationCase finish(ZeroSized z, const std::string& name, O op, std::vector<uint32_t> inputs, OperandType out,
                     std::vector<uint32_t> dims, float scale, int32_t zero, std::vector<double> values = {}) {
  const uint32_t output = z.model.addOutput(out, dims, scale, zero);
  inputs.insert(inputs.begin(), z.featureMap);
  z.model.addOperation(op, std::move(inputs), {output});
  z.outputs.push_back({{out, std::move(dims), std::move(values)}, 0.0, 0.0});
  return OperationCase{name + (z.quant() ? "_quant8" : "_float"), "", std::move(z.model), std::move(z.inputs),
                       std::move(z.outputs)};
}

}  // namespace

std::vector<OperationCase> zeroSizedCases() {
  std::vector<OperationCase> cases;
  for (OperandType type : {F32, Q8}) {
    auto z = [&](uint32_t channels) { return zeroSized(type, channels); };
    const bool quant = type == Q8;
    const float s = quant ? 0.1f : 0.0f;
    const int32_t zp = quant ? 128 : 0;

    // Element-wise with a constant of one batch: [0, 2, 2, 2].
    for (auto [name, op] : {std::pair{"add", O::ADD}, {"sub", O::SUB}, {"mul", O::MUL}, {"div", O::DIV}}) {
      if (quant && op == O::DIV) continue;  // no quantized DIV
      ZeroSized m = z(2);
      const uint32_t other = m.constant({1, 2, 2, 1}, {1, 2, 3, 4});
      const uint32_t none = m.model.addInt32(0);
      cases.push_back(finish(std::move(m), std::string("zero_sized_") + name, op, {other, none}, type, {0, 2, 2, 2}, s, zp));
    }
    // Pools of 2x2, no padding: [0, 1, 1, 2].
    for (auto [name, op] : {std::pair{"average_pool", O::AVERAGE_POOL_2D}, {"max_pool", O::MAX_POOL_2D},
                            {"l2_pool", O::L2_POOL_2D}}) {
      if (quant && op == O::L2_POOL_2D) continue;  // float only
      ZeroSized m = z(2);
      TestModel& t = m.model;
      std::vector<uint32_t> args;
      for (int32_t v : {0, 0, 0, 0, 1, 1, 2, 2, 0}) args.push_back(t.addInt32(v));
      args.push_back(t.addBool(false));
      cases.push_back(finish(std::move(m), std::string("zero_sized_") + name, op, args, type, {0, 1, 1, 2}, s, zp));
    }
    {
      ZeroSized m = z(1);  // with itself on the channels: [0, 2, 2, 2]
      const uint32_t axis = m.model.addInt32(3);
      const uint32_t self = m.featureMap;
      cases.push_back(finish(std::move(m), "zero_sized_concatenation_channels", O::CONCATENATION, {self, axis}, type,
                             {0, 2, 2, 2}, s, zp));
    }
    {
      ZeroSized m = z(1);  // on the batches with one of one batch: that one
      const uint32_t other = m.constant({1, 2, 2, 1}, {1, 2, 3, 4});
      const uint32_t axis = m.model.addInt32(0);
      std::vector<double> values = m.stored({1, 2, 3, 4});
      cases.push_back(finish(std::move(m), "zero_sized_concatenation_batches", O::CONCATENATION, {other, axis}, type,
                             {1, 2, 2, 1}, s, zp, std::move(values)));
    }
    {
      ZeroSized m = z(1);  // two 1x1 filters: [0, 2, 2, 2]
      const auto args = m.filtered({2, 1, 1, 1}, {3, 4}, {2}, {1, 2}, {0, 0, 0, 0, 1, 1, 0}, true);
      cases.push_back(finish(std::move(m), "zero_sized_conv2d", O::CONV_2D, args, type, {0, 2, 2, 2}, s, zp));
    }
    {
      ZeroSized m = z(1);  // depth multiplier 2: [0, 2, 2, 2]
      const auto args = m.filtered({1, 1, 1, 2}, {3, 4}, {2}, {1, 2}, {0, 0, 0, 0, 1, 1, 2, 0}, true);
      cases.push_back(
          finish(std::move(m), "zero_sized_depthwise_conv2d", O::DEPTHWISE_CONV_2D, args, type, {0, 2, 2, 2}, s, zp));
    }
    {
      ZeroSized m = z(3);  // [0, 2, 2, 3] read as rows of 3: [0, 1]
      const auto args = m.filtered({1, 3}, {1, 2, 3}, {1}, {1}, {0}, false);
      cases.push_back(finish(std::move(m), "zero_sized_fully_connected", O::FULLY_CONNECTED, args, type, {0, 1}, s, zp));
    }
    {
      ZeroSized m = z(1);  // 2x2 to 5x5, stride 2, two 3x3 filters: [0, 5, 5, 2]
      const auto args = m.filtered({2, 3, 3, 1}, {1, 3, 5, 7, 9, 11, 9, 7, 5, 2, 4, 6, 8, 10, 12, 10, 8, 6}, {2},
                                   {-1.5, -2}, {0, 0, 0, 0, 2, 2, 0}, true);
      cases.push_back(
          finish(std::move(m), "zero_sized_transpose_conv2d", O::TRANSPOSE_CONV_2D, args, type, {0, 5, 5, 2}, s, zp));
    }
    // Activations: [0, 2, 2, 1], in the output quantization each requires.
    for (auto [name, op] : {std::pair{"relu", O::RELU}, {"relu1", O::RELU1}, {"relu6", O::RELU6},
                            {"logistic", O::LOGISTIC}, {"tanh", O::TANH}, {"hard_swish", O::HARD_SWISH}}) {
      float os = s;
      int32_t oz = zp;
      if (quant && op == O::LOGISTIC) os = 1.0f / 256, oz = 0;
      if (quant && op == O::TANH) os = 1.0f / 128, oz = 128;
      cases.push_back(finish(z(1), std::string("zero_sized_") + name, op, {}, type, {0, 2, 2, 1}, os, oz));
    }
    {
      ZeroSized m = z(1);
      const uint32_t beta = m.model.addFloat32(1.0f);
      cases.push_back(finish(std::move(m), "zero_sized_softmax", O::SOFTMAX, {beta}, type, {0, 2, 2, 1},
                             quant ? 1.0f / 256 : 0.0f, 0));
    }
    for (auto [name, op] : {std::pair{"resize_bilinear", O::RESIZE_BILINEAR},
                            {"resize_nearest_neighbor", O::RESIZE_NEAREST_NEIGHBOR}}) {
      ZeroSized m = z(1);  // to 3x3
      const uint32_t w = m.model.addInt32(3), h = m.model.addInt32(3), layout = m.model.addBool(false);
      cases.push_back(finish(std::move(m), std::string("zero_sized_") + name, op, {w, h, layout}, type, {0, 3, 3, 1},
                             s, zp));
    }
    {
      ZeroSized m = z(1);
      const uint32_t begin = m.model.addInt32Tensor({0, 1, 1, 0}, {4});
      const uint32_t size = m.model.addInt32Tensor({-1, 1, -1, 1}, {4});
      cases.push_back(finish(std::move(m), "zero_sized_slice", O::SLICE, {begin, size}, type, {0, 1, 1, 1}, s, zp));
    }
    {
      ZeroSized m = z(1);
      const uint32_t perm = m.model.addInt32Tensor({0, 3, 1, 2}, {4});
      cases.push_back(finish(std::move(m), "zero_sized_transpose", O::TRANSPOSE, {perm}, type, {0, 1, 2, 2}, s, zp));
    }
    if (quant) {
      cases.push_back(finish(z(1), "zero_sized_dequantize", O::DEQUANTIZE, {}, F32, {0, 2, 2, 1}, 0.0f, 0));
    } else {
      cases.push_back(finish(z(1), "zero_sized_quantize", O::QUANTIZE, {}, Q8, {0, 2, 2, 1}, 0.1f, 128));
    }
  }
  return cases;
}

}  // namespace nnrt::test::conformance
