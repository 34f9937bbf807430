// The parameter decoders drivers call at execution: implicit padding resolved to explicit pads
// (computed here by hand), defaults for omitted inputs, normalized axes.
#include <gtest/gtest.h>

#include <limits>

#include "nnrt/driver/ops/params.hpp"
#include "tests/ops/op_builder.hpp"

namespace nnrt::ops {
namespace {

using testing::errorOf;
using testing::OpBuilder;
using OT = OperandType;
using Op = OperationType;

constexpr int32_t kSame = 1;
constexpr int32_t kValid = 2;

OpBuilder convImplicit(Shape in, Shape filter, int32_t padding, int32_t strideW, int32_t strideH,
                       int32_t act = 0) {
  OpBuilder op(Op::CONV_2D);
  op.f32(std::move(in))
      .f32(filter)
      .f32({filter[0]})
      .i32(padding)
      .i32(strideW)
      .i32(strideH)
      .i32(act)
      .f32Out({});
  return op;
}

TEST(DecodeConv2D, SamePaddingSplitsTheTotalWithTheExtraAfter) {
  // in 10, filter 4, stride 3: out = ceil(10 / 3) = 4, needed = 3 * 3 + 4 = 13, total 3 -> 1 before, 2 after.
  auto p = decodeConv2D(convImplicit({1, 10, 10, 3}, {8, 4, 4, 3}, kSame, 3, 3, 3).args());
  ASSERT_TRUE(p) << errorOf(p);
  EXPECT_EQ(p->padLeft, 1u);
  EXPECT_EQ(p->padRight, 2u);
  EXPECT_EQ(p->padTop, 1u);
  EXPECT_EQ(p->padBottom, 2u);
  EXPECT_EQ(p->outputHeight, 4u);
  EXPECT_EQ(p->outputWidth, 4u);
  EXPECT_EQ(p->outputChannels, 8u);
  EXPECT_EQ(p->inputChannels, 3u);
  EXPECT_EQ(p->filterHeight, 4u);
  EXPECT_EQ(p->strideW, 3u);
  EXPECT_EQ(p->dilationW, 1u);
  EXPECT_EQ(p->activation, Activation::Relu6);
  EXPECT_FALSE(p->nchw);
}

TEST(DecodeConv2D, SamePaddingPerDimension) {
  // Width 6, filter 3, stride 2: out 3, needed 2 * 2 + 3 = 7, total 1 -> 0 / 1.
  // Height 5, filter 3, stride 2: out 3, needed 7, total 2 -> 1 / 1.
  auto p = decodeConv2D(convImplicit({1, 5, 6, 2}, {4, 3, 3, 2}, kSame, 2, 2).args());
  ASSERT_TRUE(p) << errorOf(p);
  EXPECT_EQ(p->padLeft, 0u);
  EXPECT_EQ(p->padRight, 1u);
  EXPECT_EQ(p->padTop, 1u);
  EXPECT_EQ(p->padBottom, 1u);
  EXPECT_EQ(p->outputHeight, 3u);
  EXPECT_EQ(p->outputWidth, 3u);

  // A 1x1 filter with stride 2 over 6 needs (3 - 1) * 2 + 1 = 5 <= 6: no padding.
  auto none = decodeConv2D(convImplicit({1, 6, 6, 2}, {4, 1, 1, 2}, kSame, 2, 2).args());
  ASSERT_TRUE(none) << errorOf(none);
  EXPECT_EQ(none->padLeft + none->padRight + none->padTop + none->padBottom, 0u);
  EXPECT_EQ(none->outputWidth, 3u);
}

TEST(DecodeConv2D, SamePaddingWithDilation) {
  // in 7, filter 3, dilation 2 (effective 5), stride 1: out 7, needed 6 + 5 = 11, total 4 -> 2 / 2.
  auto op = convImplicit({1, 7, 7, 1}, {1, 3, 3, 1}, kSame, 1, 1);
  op.boolean(false).i32(2).i32(1);
  auto p = decodeConv2D(op.args());
  ASSERT_TRUE(p) << errorOf(p);
  EXPECT_EQ(p->dilationW, 2u);
  EXPECT_EQ(p->dilationH, 1u);
  EXPECT_EQ(p->padLeft, 2u);
  EXPECT_EQ(p->padRight, 2u);
  EXPECT_EQ(p->padTop, 1u);  // height: filter 3, dilation 1: total 2 -> 1 / 1
  EXPECT_EQ(p->padBottom, 1u);
  EXPECT_EQ(p->outputWidth, 7u);
}

TEST(DecodeConv2D, ValidPaddingIsZero) {
  // (9 - 3) / 2 + 1 = 4.
  auto p = decodeConv2D(convImplicit({1, 9, 9, 1}, {1, 3, 3, 1}, kValid, 2, 2).args());
  ASSERT_TRUE(p) << errorOf(p);
  EXPECT_EQ(p->padLeft + p->padRight + p->padTop + p->padBottom, 0u);
  EXPECT_EQ(p->outputHeight, 4u);
  EXPECT_EQ(p->outputWidth, 4u);
}

TEST(DecodeConv2D, ExplicitPaddingAndNchwGeometry) {
  OpBuilder op(Op::CONV_2D);
  op.f32({2, 3, 8, 6}).f32({5, 3, 3, 3}).f32({5});
  for (int32_t v : {1, 2, 3, 4, 1, 2, 1})
    op.i32(v);  // left right top bottom, stride w h, activation
  op.boolean(true).f32Out({});
  auto p = decodeConv2D(op.args());
  ASSERT_TRUE(p) << errorOf(p);
  EXPECT_TRUE(p->nchw);
  EXPECT_EQ(p->batches, 2u);
  EXPECT_EQ(p->inputChannels, 3u);
  EXPECT_EQ(p->inputHeight, 8u);
  EXPECT_EQ(p->inputWidth, 6u);
  EXPECT_EQ(p->padLeft, 1u);
  EXPECT_EQ(p->padRight, 2u);
  EXPECT_EQ(p->padTop, 3u);
  EXPECT_EQ(p->padBottom, 4u);
  EXPECT_EQ(p->strideW, 1u);
  EXPECT_EQ(p->strideH, 2u);
  EXPECT_EQ(p->activation, Activation::Relu);
  // Height: (8 + 7 - 3) / 2 + 1 = 7; width: (6 + 3 - 3) / 1 + 1 = 7.
  EXPECT_EQ(p->outputHeight, 7u);
  EXPECT_EQ(p->outputWidth, 7u);
}

TEST(DecodeConv2D, NamesAValueThatIsNotKnown) {
  OpBuilder op(Op::CONV_2D);
  op.f32({1, 5, 5, 3})
      .f32({8, 3, 3, 3})
      .f32({8})
      .i32(kSame)
      .unknownScalar(OT::INT32)
      .i32(1)
      .i32(0)
      .f32Out({});
  EXPECT_EQ(errorOf(decodeConv2D(op.args())), "CONV_2D: the stride width is not known");
  EXPECT_EQ(errorOf(decodeConv2D(convImplicit({1, 0, 5, 3}, {8, 3, 3, 3}, kSame, 1, 1).args())),
            "CONV_2D input 0 (input) needs known dimensions, not [1, 0, 5, 3]");
}

TEST(DecodeDepthwiseConv2D, MultiplierAndPadding) {
  OpBuilder op(Op::DEPTHWISE_CONV_2D);
  op.f32({1, 5, 5, 2}).f32({1, 2, 2, 6}).f32({6}).i32(kSame).i32(2).i32(2).i32(3).i32(2).f32Out({});
  auto p = decodeDepthwiseConv2D(op.args());
  ASSERT_TRUE(p) << errorOf(p);
  EXPECT_EQ(p->depthMultiplier, 3u);
  EXPECT_EQ(p->outputChannels, 6u);
  EXPECT_EQ(p->activation, Activation::Relu1);
  // in 5, filter 2, stride 2: out 3, needed 2 * 2 + 2 = 6, total 1 -> 0 / 1.
  EXPECT_EQ(p->padLeft, 0u);
  EXPECT_EQ(p->padRight, 1u);
  EXPECT_EQ(p->outputHeight, 3u);
}

TEST(DecodeGroupedConv2D, ImplicitAndExplicit) {
  {
    // Implicit SAME, NHWC [1, 7, 9, 6], filter [4, 3, 3, 2] (3 groups), strides 2 / 3:
    // width 9, stride 2: out 5, needed 4 * 2 + 3 = 11, total 2 -> 1 / 1;
    // height 7, stride 3: out 3, needed 2 * 3 + 3 = 9, total 2 -> 1 / 1.
    OpBuilder op(Op::GROUPED_CONV_2D);
    op.f32({1, 7, 9, 6})
        .f32({4, 3, 3, 2})
        .f32({4})
        .i32(kSame)
        .i32(2)
        .i32(3)
        .i32(3)
        .i32(1)
        .boolean(false)
        .f32Out({});
    auto p = decodeGroupedConv2D(op.args());
    ASSERT_TRUE(p) << errorOf(p);
    EXPECT_EQ(p->groups, 3u);
    EXPECT_EQ(p->inputChannels, 6u);
    EXPECT_EQ(p->outputChannels, 4u);
    EXPECT_EQ(p->padLeft, 1u);
    EXPECT_EQ(p->padRight, 1u);
    EXPECT_EQ(p->padTop, 1u);
    EXPECT_EQ(p->padBottom, 1u);
    EXPECT_EQ(p->outputWidth, 5u);
    EXPECT_EQ(p->outputHeight, 3u);
    EXPECT_EQ(p->activation, Activation::Relu);
    EXPECT_FALSE(p->nchw);
  }
  {
    // Explicit, NCHW [2, 4, 5, 8], filter [6, 2, 3, 2] (2 groups), pads l 1 r 0 t 2 b 1, strides 1 / 2:
    // width (8 + 1 - 3) / 1 + 1 = 7; height (5 + 3 - 2) / 2 + 1 = 4.
    OpBuilder op(Op::GROUPED_CONV_2D);
    op.f32({2, 4, 5, 8}).f32({6, 2, 3, 2}).f32({6});
    for (int32_t v : {1, 0, 2, 1, 1, 2, 2, 0})
      op.i32(v);  // left right top bottom, stride w h, groups, activation
    op.boolean(true).f32Out({});
    auto p = decodeGroupedConv2D(op.args());
    ASSERT_TRUE(p) << errorOf(p);
    EXPECT_TRUE(p->nchw);
    EXPECT_EQ(p->batches, 2u);
    EXPECT_EQ(p->inputChannels, 4u);
    EXPECT_EQ(p->groups, 2u);
    EXPECT_EQ(p->outputWidth, 7u);
    EXPECT_EQ(p->outputHeight, 4u);
    EXPECT_EQ(p->padTop, 2u);
    EXPECT_EQ(p->padBottom, 1u);
  }
}

TEST(DecodeTransposeConv2D, ImplicitAndExplicit) {
  {
    // Explicit, NHWC [1, 4, 5, 3], filter [2, 3, 4, 3], pads l 1 r 2 t 0 b 1, strides 2 / 3:
    // width (5 - 1) * 2 + 4 - 3 = 9; height (4 - 1) * 3 + 3 - 1 = 11.
    OpBuilder op(Op::TRANSPOSE_CONV_2D);
    op.f32({1, 4, 5, 3}).f32({2, 3, 4, 3}).f32({2});
    for (int32_t v : {1, 2, 0, 1, 2, 3, 3})
      op.i32(v);  // left right top bottom, stride w h, activation
    op.boolean(false).f32Out({});
    auto p = decodeTransposeConv2D(op.args());
    ASSERT_TRUE(p) << errorOf(p);
    EXPECT_EQ(p->outputChannels, 2u);
    EXPECT_EQ(p->inputChannels, 3u);
    EXPECT_EQ(p->outputWidth, 9u);
    EXPECT_EQ(p->outputHeight, 11u);
    EXPECT_EQ(p->padLeft, 1u);
    EXPECT_EQ(p->padRight, 2u);
    EXPECT_EQ(p->activation, Activation::Relu6);
  }
  {
    // Implicit SAME with output shape NCHW [1, 2, 8, 10], filter [2, 3, 3, 5], strides 2 / 2: the pads
    // are SAME's on the output size: width 10: out 5, needed 4 * 2 + 3 = 11, total 1 -> 0 / 1;
    // height 8: out 4, needed 3 * 2 + 3 = 9, total 1 -> 0 / 1.
    OpBuilder op(Op::TRANSPOSE_CONV_2D);
    op.f32({1, 5, 4, 5}).f32({2, 3, 3, 5}).f32({2}).ints({1, 2, 8, 10}, {4});
    op.i32(kSame).i32(2).i32(2).i32(0).boolean(true).f32Out({});
    auto p = decodeTransposeConv2D(op.args());
    ASSERT_TRUE(p) << errorOf(p);
    EXPECT_TRUE(p->nchw);
    EXPECT_EQ(p->inputChannels, 5u);
    EXPECT_EQ(p->inputHeight, 4u);
    EXPECT_EQ(p->inputWidth, 5u);
    EXPECT_EQ(p->outputHeight, 8u);
    EXPECT_EQ(p->outputWidth, 10u);
    EXPECT_EQ(p->padLeft, 0u);
    EXPECT_EQ(p->padRight, 1u);
    EXPECT_EQ(p->padTop, 0u);
    EXPECT_EQ(p->padBottom, 1u);
  }
}

TEST(DecodeBatchMatmul, ReadsTheAdjointFlags) {
  OpBuilder op(Op::BATCH_MATMUL);
  op.f32({2, 3, 4}).f32({2, 5, 4}).boolean(false).boolean(true).f32Out({});
  auto p = decodeBatchMatmul(op.args());
  ASSERT_TRUE(p) << errorOf(p);
  EXPECT_FALSE(p->adjointLhs);
  EXPECT_TRUE(p->adjointRhs);
  OpBuilder unknown(Op::BATCH_MATMUL);
  unknown.f32({3, 4}).f32({4, 5}).unknownScalar(OT::BOOL).boolean(false).f32Out({});
  EXPECT_EQ(errorOf(decodeBatchMatmul(unknown.args())), "BATCH_MATMUL: adjoint lhs is not known");
}

TEST(DecodePool2D, ImplicitAndExplicit) {
  OpBuilder same(Op::AVERAGE_POOL_2D);
  same.f32({1, 5, 4, 7}).i32(kSame).i32(2).i32(2).i32(2).i32(3).i32(1).f32Out({});
  auto p = decodePool2D(same.args());
  ASSERT_TRUE(p) << errorOf(p);
  // Width 4, filter 2, stride 2: out 2, needed 4, no padding. Height 5, filter 3, stride 2: out 3,
  // needed 2 * 2 + 3 = 7, total 2 -> 1 / 1.
  EXPECT_EQ(p->padLeft, 0u);
  EXPECT_EQ(p->padRight, 0u);
  EXPECT_EQ(p->padTop, 1u);
  EXPECT_EQ(p->padBottom, 1u);
  EXPECT_EQ(p->filterW, 2u);
  EXPECT_EQ(p->filterH, 3u);
  EXPECT_EQ(p->outputHeight, 3u);
  EXPECT_EQ(p->outputWidth, 2u);
  EXPECT_EQ(p->channels, 7u);
  EXPECT_EQ(p->activation, Activation::Relu);

  OpBuilder explicitPads(Op::MAX_POOL_2D);
  explicitPads.f32({1, 7, 1, 4});
  for (int32_t v : {0, 1, 2, 3, 1, 1, 2, 2, 0})
    explicitPads.i32(v);
  explicitPads.boolean(true).f32Out({});  // NCHW: channels 7, height 1, width 4
  auto e = decodePool2D(explicitPads.args());
  ASSERT_TRUE(e) << errorOf(e);
  EXPECT_TRUE(e->nchw);
  EXPECT_EQ(e->channels, 7u);
  EXPECT_EQ(e->padRight, 1u);
  EXPECT_EQ(e->padBottom, 3u);
  // Height: (1 + 5 - 2) / 1 + 1 = 5; width: (4 + 1 - 2) / 1 + 1 = 4.
  EXPECT_EQ(e->outputHeight, 5u);
  EXPECT_EQ(e->outputWidth, 4u);
}

TEST(DecodeSoftmax, DefaultAndNegativeAxis) {
  OpBuilder plain(Op::SOFTMAX);
  plain.f32({2, 3, 4}).f32Scalar(0.5f).f32Out({});
  auto p = decodeSoftmax(plain.args());
  ASSERT_TRUE(p) << errorOf(p);
  EXPECT_EQ(p->beta, 0.5f);
  EXPECT_EQ(p->axis, 2u);

  OpBuilder axis(Op::SOFTMAX);
  axis.tensor(OT::TENSOR_FLOAT16, {2, 3, 4}).f16Scalar(0x3C00).i32(-3).out(OT::TENSOR_FLOAT16, {});
  auto a = decodeSoftmax(axis.args());
  ASSERT_TRUE(a) << errorOf(a);
  EXPECT_EQ(a->beta, 1.0f);
  EXPECT_EQ(a->axis, 0u);
}

TEST(DecodeShapeOps, AxesAreNormalized) {
  OpBuilder concat(Op::CONCATENATION);
  concat.f32({2, 3}).f32({2, 4}).i32(-1).f32Out({});
  auto c = decodeConcatenation(concat.args());
  ASSERT_TRUE(c) << errorOf(c);
  EXPECT_EQ(c->axis, 1u);

  OpBuilder squeezeAll(Op::SQUEEZE);
  squeezeAll.f32({1, 3, 1, 1}).f32Out({});
  auto s = decodeSqueeze(squeezeAll.args());
  ASSERT_TRUE(s) << errorOf(s);
  EXPECT_EQ(s->axes, (std::vector<uint32_t>{0, 2, 3}));

  OpBuilder squeezeAxes(Op::SQUEEZE);
  squeezeAxes.f32({1, 3, 1, 1}).ints({-1, 0}).f32Out({});
  auto sa = decodeSqueeze(squeezeAxes.args());
  ASSERT_TRUE(sa) << errorOf(sa);
  EXPECT_EQ(sa->axes, (std::vector<uint32_t>{0, 3}));

  OpBuilder transpose(Op::TRANSPOSE);
  transpose.f32({2, 3, 4}).omitted(OT::TENSOR_INT32).f32Out({});
  auto t = decodeTranspose(transpose.args());
  ASSERT_TRUE(t) << errorOf(t);
  EXPECT_EQ(t->perm, (std::vector<uint32_t>{2, 1, 0}));

  OpBuilder pad(Op::PAD);
  pad.f32({2, 3}).ints({1, 2, 0, 3}, {2, 2}).f32Out({});
  auto pd = decodePad(pad.args());
  ASSERT_TRUE(pd) << errorOf(pd);
  EXPECT_EQ(pd->before, (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(pd->after, (std::vector<uint32_t>{2, 3}));

  OpBuilder mean(Op::MEAN);
  mean.f32({2, 3, 4}).ints({2, 0, -1}).i32(1).f32Out({});
  auto m = decodeMean(mean.args());
  ASSERT_TRUE(m) << errorOf(m);
  EXPECT_EQ(m->axes, (std::vector<uint32_t>{0, 2}));
  EXPECT_TRUE(m->keepDims);

  OpBuilder reshape(Op::RESHAPE);
  reshape.f32({2, 3, 4}).ints({-1, 4}).f32Out({});
  auto r = decodeReshape(reshape.args());
  ASSERT_TRUE(r) << errorOf(r);
  EXPECT_EQ(r->shape, (Shape{6, 4}));
}

TEST(DecodeFullyConnectedAndBinary, ReadTheirNumbers) {
  OpBuilder fc(Op::FULLY_CONNECTED);
  fc.f32({2, 3, 4}).f32({5, 12}).f32({5}).i32(3).f32Out({});
  auto f = decodeFullyConnected(fc.args());
  ASSERT_TRUE(f) << errorOf(f);
  EXPECT_EQ(f->batchSize, 2u);
  EXPECT_EQ(f->inputSize, 12u);
  EXPECT_EQ(f->numUnits, 5u);
  EXPECT_EQ(f->activation, Activation::Relu6);

  OpBuilder add(Op::ADD);
  add.f32({2}).f32({2}).i32(2).f32Out({2});
  auto b = decodeBinary(add.args());
  ASSERT_TRUE(b) << errorOf(b);
  EXPECT_EQ(b->activation, Activation::Relu1);
}

TEST(ActivationRange, FloatAndQuantizedBounds) {
  EXPECT_EQ(activationRange(Activation::Relu1).min, -1.0f);
  EXPECT_EQ(activationRange(Activation::Relu6).max, 6.0f);
  EXPECT_EQ(activationRange(Activation::Relu).max, std::numeric_limits<float>::infinity());

  const int32_t q8 = static_cast<int32_t>(OT::TENSOR_QUANT8_ASYMM);
  const int32_t s8 = static_cast<int32_t>(OT::TENSOR_QUANT8_ASYMM_SIGNED);
  // scale 0.5, zero point 10: 0 -> 10, 6 -> 22, -1 -> 8, 1 -> 12.
  auto relu6 = activationRange(Activation::Relu6, q8, 0.5f, 10);
  EXPECT_EQ(relu6.min, 10);
  EXPECT_EQ(relu6.max, 22);
  auto relu1 = activationRange(Activation::Relu1, q8, 0.5f, 10);
  EXPECT_EQ(relu1.min, 8);
  EXPECT_EQ(relu1.max, 12);
  auto none = activationRange(Activation::None, q8, 0.5f, 10);
  EXPECT_EQ(none.min, 0);
  EXPECT_EQ(none.max, 255);
  // Bounds beyond the type's range are clamped: 6 / 0.01 = 600 steps.
  auto clamped = activationRange(Activation::Relu6, s8, 0.01f, -128);
  EXPECT_EQ(clamped.min, -128);
  EXPECT_EQ(clamped.max, 127);
}

}  // namespace
}  // namespace nnrt::ops
