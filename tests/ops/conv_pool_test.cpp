// FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D and the pools: input forms, types, bias rules, and
// output shapes computed by hand.
#include <array>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nnrt/driver/ops/operation.hpp"
#include "tests/ops/op_builder.hpp"

namespace nnrt::ops {
namespace {

using testing::errorOf;
using ::testing::HasSubstr;
using testing::OpBuilder;
using OT = OperandType;
using Op = OperationType;

constexpr int32_t kSame = 1;
constexpr int32_t kValid = 2;

Shape onlyShape(const OpBuilder& op) {
  auto shapes = inferShapes(op.args());
  EXPECT_TRUE(shapes) << errorOf(shapes);
  if (!shapes || shapes->size() != 1) return {999};
  return (*shapes)[0];
}

// CONV_2D, implicit padding, float; optional inputs are appended by the caller.
OpBuilder convImplicit(Shape in, Shape filter, int32_t padding, int32_t strideW, int32_t strideH) {
  OpBuilder op(Op::CONV_2D);
  op.f32(std::move(in)).f32(filter).f32({filter[0]}).i32(padding).i32(strideW).i32(strideH).i32(0).f32Out({});
  return op;
}

OpBuilder convExplicit(Shape in, Shape filter, std::array<int32_t, 4> pads, int32_t strideW,
                       int32_t strideH) {
  OpBuilder op(Op::CONV_2D);
  op.f32(std::move(in)).f32(filter).f32({filter[0]});
  for (int32_t p : pads)
    op.i32(p);
  op.i32(strideW).i32(strideH).i32(0).f32Out({});
  return op;
}

// ---- FULLY_CONNECTED --------------------------------------------------------------------------

TEST(FullyConnected, FlattensTheInput) {
  OpBuilder op(Op::FULLY_CONNECTED);
  op.f32({2, 3, 4}).f32({5, 12}).f32({5}).i32(1).f32Out({2, 5});
  EXPECT_TRUE(validate(op.args()));
  EXPECT_EQ(onlyShape(op), (Shape{2, 5}));

  OpBuilder unknownBatch(Op::FULLY_CONNECTED);
  unknownBatch.f32({0, 12}).f32({5, 12}).f32({5}).i32(0).f32Out({});
  EXPECT_EQ(onlyShape(unknownBatch), (Shape{0, 5}));
}

TEST(FullyConnected, RefusesShapesThatDoNotFit) {
  OpBuilder op(Op::FULLY_CONNECTED);
  op.f32({2, 5}).f32({3, 4}).f32({3}).i32(0).f32Out({});
  EXPECT_EQ(
      errorOf(validate(op.args())),
      "FULLY_CONNECTED input 0 (input) [2, 5] has 10 elements, not a multiple of the weights' input size 4");

  OpBuilder bias(Op::FULLY_CONNECTED);
  bias.f32({2, 4}).f32({3, 4}).f32({2}).i32(0).f32Out({});
  EXPECT_EQ(errorOf(validate(bias.args())),
            "FULLY_CONNECTED input 2 (bias) has 2 elements, but the weights [3, 4] has 3 output channels");

  OpBuilder rank1(Op::FULLY_CONNECTED);
  rank1.f32({8}).f32({2, 4}).f32({2}).i32(0).f32Out({});
  EXPECT_EQ(errorOf(validate(rank1.args())),
            "FULLY_CONNECTED input 0 (input) must have rank 2 to 4, not rank 1 [8]");
}

OpBuilder quantizedFullyConnected() {
  OpBuilder op(Op::FULLY_CONNECTED);
  op.q8({1, 4}, 0.5f, 128).q8({2, 4}, 0.25f, 120).tensor(OT::TENSOR_INT32, {2}, 0.125f, 0).i32(0);
  op.out(OT::TENSOR_QUANT8_ASYMM, {1, 2}, 1.0f, 0);
  return op;
}

TEST(FullyConnected, QuantizedBiasIsInt32WithTheProductScale) {
  EXPECT_TRUE(validate(quantizedFullyConnected().args()));

  OpBuilder scale = quantizedFullyConnected();
  scale.input(2).scale = 0.5f;
  EXPECT_EQ(errorOf(validate(scale.args())),
            "FULLY_CONNECTED input 2 (bias) scale must be input scale * filter scale = 0.125, not 0.5");

  OpBuilder zero = quantizedFullyConnected();
  zero.input(2).zeroPoint = 3;
  EXPECT_EQ(errorOf(validate(zero.args())), "FULLY_CONNECTED input 2 (bias) must have zero point 0, not 3");

  OpBuilder type(Op::FULLY_CONNECTED);
  type.q8({1, 4}, 0.5f, 128).q8({2, 4}, 0.25f, 120).q8({2}, 0.125f, 0).i32(0);
  type.out(OT::TENSOR_QUANT8_ASYMM, {1, 2}, 1.0f, 0);
  EXPECT_EQ(errorOf(validate(type.args())),
            "FULLY_CONNECTED input 2 (bias) must be TENSOR_INT32 for a TENSOR_QUANT8_ASYMM input, not "
            "TENSOR_QUANT8_ASYMM");

  OpBuilder floatBias(Op::FULLY_CONNECTED);
  floatBias.f32({1, 4}).f32({2, 4}).tensor(OT::TENSOR_FLOAT16, {2}).i32(0).f32Out({1, 2});
  EXPECT_EQ(errorOf(validate(floatBias.args())),
            "FULLY_CONNECTED input 2 (bias) must be TENSOR_FLOAT32 like input 0, not TENSOR_FLOAT16");
}

// ---- CONV_2D ----------------------------------------------------------------------------------

TEST(Conv2D, ImplicitSameAndValidPadding) {
  // SAME: out = ceil(in / stride) = ceil(5 / 2) = 3.
  EXPECT_EQ(onlyShape(convImplicit({1, 5, 5, 3}, {8, 3, 3, 3}, kSame, 2, 2)), (Shape{1, 3, 3, 8}));
  // VALID: out = (in - filter) / stride + 1 = (5 - 3) / 2 + 1 = 2; height stride 1: 5 - 3 + 1 = 3.
  EXPECT_EQ(onlyShape(convImplicit({1, 5, 5, 3}, {8, 3, 3, 3}, kValid, 2, 1)), (Shape{1, 3, 2, 8}));
  EXPECT_TRUE(validate(convImplicit({1, 5, 5, 3}, {8, 3, 3, 3}, kSame, 2, 2).args()));
}

TEST(Conv2D, ExplicitPadding) {
  // Height: (6 + 0 + 1 - 3) / 1 + 1 = 5; width: (8 + 1 + 2 - 3) / 2 + 1 = 5.
  auto op = convExplicit({2, 6, 8, 2}, {4, 3, 3, 2}, {1, 2, 0, 1}, 2, 1);
  EXPECT_TRUE(validate(op.args())) << errorOf(validate(op.args()));
  EXPECT_EQ(onlyShape(op), (Shape{2, 5, 5, 4}));
}

TEST(Conv2D, NchwLayout) {
  auto op = convImplicit({1, 3, 5, 5}, {8, 3, 3, 3}, kSame, 2, 2);
  op.boolean(true);
  EXPECT_TRUE(validate(op.args()));
  EXPECT_EQ(onlyShape(op), (Shape{1, 8, 3, 3}));

  auto nhwc = convExplicit({1, 6, 8, 3}, {4, 3, 3, 3}, {0, 0, 0, 0}, 1, 1);
  nhwc.boolean(false);
  EXPECT_EQ(onlyShape(nhwc), (Shape{1, 4, 6, 4}));
}

TEST(Conv2D, Dilation) {
  // VALID with dilation 2: effective filter (3 - 1) * 2 + 1 = 5, out = 7 - 5 + 1 = 3; width dilation 1: 5.
  auto valid = convImplicit({1, 7, 7, 1}, {1, 3, 3, 1}, kValid, 1, 1);
  valid.boolean(false).i32(1).i32(2);
  EXPECT_TRUE(validate(valid.args()));
  EXPECT_EQ(onlyShape(valid), (Shape{1, 3, 5, 1}));

  // Explicit form with layout and dilation (13 inputs): (9 + 1 + 1 - 5) / 2 + 1 = 4.
  auto explicitForm = convExplicit({1, 9, 9, 1}, {1, 3, 3, 1}, {1, 1, 1, 1}, 2, 2);
  explicitForm.boolean(false).i32(2).i32(2);
  EXPECT_TRUE(validate(explicitForm.args()));
  EXPECT_EQ(onlyShape(explicitForm), (Shape{1, 4, 4, 1}));
}

TEST(Conv2D, OmittedOptionalInputsTakeDefaults) {
  auto op = convImplicit({1, 5, 5, 3}, {8, 3, 3, 3}, kValid, 1, 1);
  op.omitted(OT::BOOL).omitted(OT::INT32).omitted(OT::INT32);
  EXPECT_TRUE(validate(op.args()));
  EXPECT_EQ(onlyShape(op), (Shape{1, 3, 3, 8}));

  auto half = convImplicit({1, 5, 5, 3}, {8, 3, 3, 3}, kValid, 1, 1);
  half.boolean(false).i32(2).omitted(OT::INT32);
  EXPECT_EQ(errorOf(validate(half.args())),
            "CONV_2D input 8 (dilation width) is given but input 9 (dilation height) is omitted");
}

TEST(Conv2D, UnknownDimensionsAndParametersStayUnknown) {
  // Unknown height: its output is unknown; the width still follows.
  EXPECT_EQ(onlyShape(convImplicit({1, 0, 5, 3}, {8, 3, 3, 3}, kValid, 1, 1)), (Shape{1, 0, 3, 8}));
  // Unknown rank: only the output channels are known.
  EXPECT_EQ(onlyShape(convImplicit({}, {8, 3, 3, 3}, kSame, 1, 1)), (Shape{0, 0, 0, 8}));
  // A stride that is a model input.
  OpBuilder op(Op::CONV_2D);
  op.f32({1, 5, 5, 3})
      .f32({8, 3, 3, 3})
      .f32({8})
      .i32(kSame)
      .unknownScalar(OT::INT32)
      .i32(1)
      .i32(0)
      .f32Out({});
  EXPECT_TRUE(validate(op.args()));
  EXPECT_EQ(onlyShape(op), (Shape{1, 5, 0, 8}));
  // A layout that is a model input: only the batch is known.
  auto layout = convImplicit({2, 5, 5, 3}, {8, 3, 3, 3}, kSame, 1, 1);
  layout.unknownScalar(OT::BOOL);
  EXPECT_EQ(onlyShape(layout), (Shape{2, 0, 0, 0}));
}

TEST(Conv2D, RefusesBadParameters) {
  EXPECT_EQ(errorOf(validate(convImplicit({1, 5, 5, 3}, {8, 3, 3, 3}, 3, 1, 1).args())),
            "CONV_2D input 3 (padding scheme) must be a PaddingCode: 1 (SAME) or 2 (VALID), not 3");
  EXPECT_EQ(errorOf(validate(convImplicit({1, 5, 5, 3}, {8, 3, 3, 3}, kSame, 0, 1).args())),
            "CONV_2D input 4 (stride width) must be >= 1, not 0");
  EXPECT_EQ(errorOf(validate(convExplicit({1, 5, 5, 3}, {8, 3, 3, 3}, {0, -1, 0, 0}, 1, 1).args())),
            "CONV_2D input 4 (padding right) must be >= 0, not -1");
  EXPECT_EQ(errorOf(validate(convImplicit({1, 2, 5, 3}, {8, 3, 3, 3}, kValid, 1, 1).args())),
            "CONV_2D: the filter height 3 (dilation 1) does not fit in the input height 2 with padding 0");
  auto layout = convImplicit({1, 5, 5, 3}, {8, 3, 3, 3}, kSame, 1, 1);
  layout.i32(1);
  EXPECT_EQ(errorOf(validate(layout.args())), "CONV_2D input 7 (layout (NCHW)) must be BOOL, not INT32");
}

TEST(Conv2D, RefusesMismatchedShapesAndTypes) {
  EXPECT_EQ(errorOf(validate(convImplicit({1, 5, 5, 4}, {8, 3, 3, 3}, kSame, 1, 1).args())),
            "CONV_2D input 1 (filter) [8, 3, 3, 3] has depth 3, but the input [1, 5, 5, 4] has 4 channels");
  EXPECT_EQ(errorOf(validate(convImplicit({5, 5, 3}, {8, 3, 3, 3}, kSame, 1, 1).args())),
            "CONV_2D input 0 (input) must have rank 4, not rank 3 [5, 5, 3]");
  OpBuilder op(Op::CONV_2D);
  op.f32({1, 5, 5, 3})
      .tensor(OT::TENSOR_FLOAT16, {8, 3, 3, 3})
      .f32({8})
      .i32(kSame)
      .i32(1)
      .i32(1)
      .i32(0)
      .f32Out({});
  EXPECT_EQ(errorOf(validate(op.args())),
            "CONV_2D input 1 (filter) must be TENSOR_FLOAT32 like input 0, not TENSOR_FLOAT16");
}

TEST(Conv2D, QuantizedWithPerTensorAndPerChannelFilters) {
  OpBuilder perTensor(Op::CONV_2D);
  perTensor.q8({1, 4, 4, 2}, 0.5f, 100).q8({3, 1, 1, 2}, 0.25f, 128).tensor(OT::TENSOR_INT32, {3}, 0.125f, 0);
  perTensor.i32(kValid).i32(1).i32(1).i32(1).out(OT::TENSOR_QUANT8_ASYMM, {1, 4, 4, 3}, 1.0f, 0);
  EXPECT_TRUE(validate(perTensor.args()));

  OpBuilder perChannel(Op::CONV_2D);
  perChannel.tensor(OT::TENSOR_QUANT8_ASYMM_SIGNED, {1, 4, 4, 2}, 0.5f, -1)
      .perChannel({3, 1, 1, 2}, {0.1f, 0.2f, 0.3f}, 0);
  perChannel.tensor(OT::TENSOR_INT32, {3}).i32(kValid).i32(1).i32(1).i32(0);
  perChannel.out(OT::TENSOR_QUANT8_ASYMM_SIGNED, {1, 4, 4, 3}, 1.0f, 0);
  EXPECT_TRUE(validate(perChannel.args())) << errorOf(validate(perChannel.args()));

  OpBuilder wrongDim(Op::CONV_2D);
  wrongDim.q8({1, 4, 4, 2}, 0.5f, 100).perChannel({3, 1, 1, 2}, {0.1f, 0.2f}, 3);
  wrongDim.tensor(OT::TENSOR_INT32, {3})
      .i32(kValid)
      .i32(1)
      .i32(1)
      .i32(0)
      .out(OT::TENSOR_QUANT8_ASYMM, {}, 1.0f, 0);
  EXPECT_EQ(errorOf(validate(wrongDim.args())),
            "CONV_2D input 1 (filter) must be quantized along dimension 0, not 3");

  OpBuilder wrongCount(Op::CONV_2D);
  wrongCount.q8({1, 4, 4, 2}, 0.5f, 100).perChannel({3, 1, 1, 2}, {0.1f, 0.2f}, 0);
  wrongCount.tensor(OT::TENSOR_INT32, {3})
      .i32(kValid)
      .i32(1)
      .i32(1)
      .i32(0)
      .out(OT::TENSOR_QUANT8_ASYMM, {}, 1.0f, 0);
  EXPECT_EQ(errorOf(validate(wrongCount.args())),
            "CONV_2D input 1 (filter) has 2 channel scales for 3 channels");

  OpBuilder biasScale(Op::CONV_2D);
  biasScale.q8({1, 4, 4, 2}, 0.5f, 100).perChannel({3, 1, 1, 2}, {0.1f, 0.2f, 0.3f}, 0);
  biasScale.tensor(OT::TENSOR_INT32, {3}, 0.05f, 0).i32(kValid).i32(1).i32(1).i32(0);
  biasScale.out(OT::TENSOR_QUANT8_ASYMM, {}, 1.0f, 0);
  EXPECT_THAT(errorOf(validate(biasScale.args())),
              HasSubstr("CONV_2D input 2 (bias) must have scale 0 with a per-channel filter"));

  // A per-channel filter needs a quantized input.
  OpBuilder floatInput(Op::CONV_2D);
  floatInput.f32({1, 4, 4, 2}).perChannel({3, 1, 1, 2}, {0.1f, 0.2f, 0.3f}, 0).f32({3});
  floatInput.i32(kValid).i32(1).i32(1).i32(0).f32Out({});
  EXPECT_EQ(
      errorOf(validate(floatInput.args())),
      "CONV_2D input 1 (filter) must be TENSOR_FLOAT32 like input 0, not TENSOR_QUANT8_SYMM_PER_CHANNEL");
}

// ---- DEPTHWISE_CONV_2D ------------------------------------------------------------------------

OpBuilder depthwise(Shape in, Shape filter, int32_t padding, int32_t stride, int32_t multiplier) {
  OpBuilder op(Op::DEPTHWISE_CONV_2D);
  op.f32(std::move(in))
      .f32(filter)
      .f32({filter[3]})
      .i32(padding)
      .i32(stride)
      .i32(stride)
      .i32(multiplier)
      .i32(0);
  op.f32Out({});
  return op;
}

TEST(DepthwiseConv2D, OutputChannelsAreInputChannelsTimesMultiplier) {
  auto op = depthwise({1, 8, 8, 4}, {1, 3, 3, 8}, kValid, 1, 2);
  EXPECT_TRUE(validate(op.args()));
  EXPECT_EQ(onlyShape(op), (Shape{1, 6, 6, 8}));

  auto same = depthwise({1, 10, 10, 2}, {1, 4, 4, 2}, kSame, 3, 1);
  EXPECT_EQ(onlyShape(same), (Shape{1, 4, 4, 2}));

  EXPECT_EQ(
      errorOf(validate(depthwise({1, 8, 8, 4}, {1, 3, 3, 8}, kValid, 1, 3).args())),
      "DEPTHWISE_CONV_2D input 1 (filter) [1, 3, 3, 8] has 8 output channels, but input channels 4 * depth "
      "multiplier 3 = 12");
  EXPECT_EQ(
      errorOf(validate(depthwise({1, 8, 8, 4}, {2, 3, 3, 8}, kValid, 1, 2).args())),
      "DEPTHWISE_CONV_2D input 1 (filter) must have shape [1, height, width, depth_out], not [2, 3, 3, 8]");
  EXPECT_EQ(errorOf(validate(depthwise({1, 8, 8, 4}, {1, 3, 3, 8}, kValid, 1, 0).args())),
            "DEPTHWISE_CONV_2D input 6 (depth multiplier) must be >= 1, not 0");
}

TEST(DepthwiseConv2D, ExplicitFormWithLayoutAndDilation) {
  OpBuilder op(Op::DEPTHWISE_CONV_2D);
  op.f32({1, 2, 9, 9}).f32({1, 3, 3, 2}).f32({2});
  for (int32_t v : {0, 0, 0, 0, 1, 1, 1, 0})
    op.i32(v);  // pads, strides, multiplier, activation
  op.boolean(true).i32(2).i32(3).f32Out({});
  EXPECT_TRUE(validate(op.args())) << errorOf(validate(op.args()));
  // NCHW; width: 9 - ((3 - 1) * 2 + 1) + 1 = 5; height: 9 - ((3 - 1) * 3 + 1) + 1 = 3.
  EXPECT_EQ(onlyShape(op), (Shape{1, 2, 3, 5}));
}

TEST(DepthwiseConv2D, PerChannelFilterIsQuantizedAlongDimension3) {
  OpBuilder op(Op::DEPTHWISE_CONV_2D);
  op.q8({1, 4, 4, 2}, 0.5f, 100).perChannel({1, 3, 3, 2}, {0.5f, 0.25f}, 3).tensor(OT::TENSOR_INT32, {2});
  op.i32(kSame).i32(1).i32(1).i32(1).i32(0).out(OT::TENSOR_QUANT8_ASYMM, {1, 4, 4, 2}, 1.0f, 0);
  EXPECT_TRUE(validate(op.args())) << errorOf(validate(op.args()));
}

// ---- Pools ------------------------------------------------------------------------------------

OpBuilder poolImplicit(Op type, Shape in, int32_t padding, int32_t stride, int32_t filter) {
  OpBuilder op(type);
  op.f32(std::move(in)).i32(padding).i32(stride).i32(stride).i32(filter).i32(filter).i32(0).f32Out({});
  return op;
}

TEST(Pool, ImplicitAndExplicitForms) {
  for (Op type : {Op::AVERAGE_POOL_2D, Op::MAX_POOL_2D, Op::L2_POOL_2D}) {
    auto valid = poolImplicit(type, {1, 4, 4, 2}, kValid, 2, 2);
    EXPECT_TRUE(validate(valid.args()));
    EXPECT_EQ(onlyShape(valid), (Shape{1, 2, 2, 2}));
    // SAME: ceil(5 / 2) = 3.
    EXPECT_EQ(onlyShape(poolImplicit(type, {1, 5, 5, 2}, kSame, 2, 2)), (Shape{1, 3, 3, 2}));
  }
  OpBuilder op(Op::MAX_POOL_2D);
  op.f32({1, 4, 6, 3});
  for (int32_t v : {1, 1, 1, 1, 1, 2, 3, 3, 0})
    op.i32(v);  // pads l r t b, stride w h, filter w h, act
  op.f32Out({});
  EXPECT_TRUE(validate(op.args()));
  // Height: (4 + 2 - 3) / 2 + 1 = 2; width: (6 + 2 - 3) / 1 + 1 = 6.
  EXPECT_EQ(onlyShape(op), (Shape{1, 2, 6, 3}));

  op.boolean(true);  // NCHW [1, 4, 6, 3]: channels 4, height 6, width 3.
  EXPECT_EQ(onlyShape(op), (Shape{1, 4, 3, 3}));
}

TEST(Pool, RefusesBadTypesAndParameters) {
  OpBuilder l2(Op::L2_POOL_2D);
  l2.q8({1, 4, 4, 1}, 0.5f, 0)
      .i32(kValid)
      .i32(1)
      .i32(1)
      .i32(2)
      .i32(2)
      .i32(0)
      .out(OT::TENSOR_QUANT8_ASYMM, {}, 0.5f, 0);
  EXPECT_EQ(errorOf(validate(l2.args())),
            "L2_POOL_2D input 0 (input) must be TENSOR_FLOAT16 or TENSOR_FLOAT32, not TENSOR_QUANT8_ASYMM");

  OpBuilder avg(Op::AVERAGE_POOL_2D);
  avg.q8({1, 4, 4, 1}, 0.5f, 0)
      .i32(kValid)
      .i32(1)
      .i32(1)
      .i32(2)
      .i32(2)
      .i32(0)
      .out(OT::TENSOR_QUANT8_ASYMM, {}, 0.25f, 0);
  EXPECT_THAT(errorOf(validate(avg.args())),
              HasSubstr("AVERAGE_POOL_2D output 0 must have the scale and zero point of input 0"));

  EXPECT_EQ(errorOf(validate(poolImplicit(Op::MAX_POOL_2D, {1, 4, 4, 1}, kValid, 1, 0).args())),
            "MAX_POOL_2D input 4 (filter width) must be >= 1, not 0");
  EXPECT_EQ(
      errorOf(validate(poolImplicit(Op::MAX_POOL_2D, {1, 4, 4, 1}, kValid, 1, 5).args())),
      "MAX_POOL_2D: the filter height 5 (dilation 1) does not fit in the input height 4 with padding 0");

  OpBuilder nine(Op::MAX_POOL_2D);
  nine.f32({1, 4, 4, 1});
  for (int i = 0; i < 8; ++i)
    nine.i32(1);
  nine.f32Out({});
  EXPECT_EQ(errorOf(validate(nine.args())), "MAX_POOL_2D takes 7, 8, 10 or 11 inputs, not 9");
}

}  // namespace
}  // namespace nnrt::ops
