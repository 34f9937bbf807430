// ADD, SUB, MUL, DIV, FLOOR and the activations RELU, RELU1, RELU6, LOGISTIC, TANH, SOFTMAX.
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

Shape onlyShape(const OpBuilder& op) {
  auto shapes = inferShapes(op.args());
  EXPECT_TRUE(shapes) << errorOf(shapes);
  if (!shapes || shapes->size() != 1) return {999};
  return (*shapes)[0];
}

OpBuilder binary(Op type, OT t, Shape a, Shape b, int32_t act, Shape out, float scale = 0, int32_t zp = 0) {
  OpBuilder op(type);
  op.tensor(t, std::move(a), scale, zp)
      .tensor(t, std::move(b), scale, zp)
      .i32(act)
      .out(t, std::move(out), scale, zp);
  return op;
}

// ---- Binary operations ------------------------------------------------------------------------

TEST(Binary, AcceptsEachDocumentedType) {
  for (Op type : {Op::ADD, Op::SUB, Op::MUL}) {
    for (OT t : {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_INT32}) {
      EXPECT_TRUE(validate(binary(type, t, {2, 3}, {2, 3}, 0, {2, 3}).args())) << static_cast<int>(type);
    }
    EXPECT_TRUE(validate(binary(type, OT::TENSOR_QUANT8_ASYMM, {2}, {2}, 1, {2}, 0.5f, 128).args()));
    EXPECT_TRUE(validate(binary(type, OT::TENSOR_QUANT8_ASYMM_SIGNED, {2}, {2}, 3, {2}, 0.5f, -3).args()));
  }
  EXPECT_TRUE(validate(binary(Op::DIV, OT::TENSOR_FLOAT32, {4}, {4}, 2, {4}).args()));
  EXPECT_TRUE(validate(binary(Op::DIV, OT::TENSOR_INT32, {4}, {4}, 0, {4}).args()));
}

TEST(Binary, RefusesUndocumentedTypes) {
  EXPECT_EQ(errorOf(validate(binary(Op::DIV, OT::TENSOR_QUANT8_ASYMM, {2}, {2}, 0, {2}, 0.5f, 0).args())),
            "DIV input 0 must be TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM_SIGNED or TENSOR_INT32, "
            "not TENSOR_QUANT8_ASYMM");
  EXPECT_EQ(
      errorOf(validate(binary(Op::ADD, OT::TENSOR_BOOL8, {2}, {2}, 0, {2}).args())),
      "ADD input 0 must be TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM_SIGNED "
      "or TENSOR_INT32, not TENSOR_BOOL8");
}

TEST(Binary, InputsAndOutputShareOneType) {
  OpBuilder mixed(Op::ADD);
  mixed.f32({2}).tensor(OT::TENSOR_INT32, {2}).i32(0).f32Out({2});
  EXPECT_EQ(errorOf(validate(mixed.args())),
            "ADD input 1 must be TENSOR_FLOAT32 like input 0, not TENSOR_INT32");

  OpBuilder output(Op::MUL);
  output.f32({2}).f32({2}).i32(0).out(OT::TENSOR_FLOAT16, {2});
  EXPECT_EQ(errorOf(validate(output.args())),
            "MUL output 0 must be TENSOR_FLOAT32 like input 0, not TENSOR_FLOAT16");
}

TEST(Binary, ActivationMustBeAFuseCode) {
  EXPECT_EQ(errorOf(validate(binary(Op::ADD, OT::TENSOR_FLOAT32, {2}, {2}, 4, {2}).args())),
            "ADD input 2 (activation) must be a FuseCode: 0 (NONE), 1 (RELU), 2 (RELU1) or 3 (RELU6), not 4");
  EXPECT_EQ(errorOf(validate(binary(Op::SUB, OT::TENSOR_INT32, {2}, {2}, 1, {2}).args())),
            "SUB input 2 (activation) must be 0 (NONE) for TENSOR_INT32 tensors, not 1");

  OpBuilder floatAct(Op::ADD);
  floatAct.f32({2}).f32({2}).f32Scalar(0).f32Out({2});
  EXPECT_EQ(errorOf(validate(floatAct.args())), "ADD input 2 (activation) must be INT32, not FLOAT32");

  // An activation that is a model input is checked at execution.
  OpBuilder runtimeAct(Op::ADD);
  runtimeAct.f32({2}).f32({2}).unknownScalar(OT::INT32).f32Out({2});
  EXPECT_TRUE(validate(runtimeAct.args()));
}

TEST(Binary, RankAboveFourIsRefused) {
  EXPECT_EQ(errorOf(validate(binary(Op::ADD, OT::TENSOR_FLOAT32, {1, 1, 1, 1, 2}, {2}, 0, {}).args())),
            "ADD input 0 must have rank 1 to 4, not rank 5 [1, 1, 1, 1, 2]");
}

TEST(Binary, QuantizedMulNeedsOutputScaleAboveTheProductOfInputScales) {
  OpBuilder ok(Op::MUL);
  ok.q8({2}, 0.5f, 0).q8({2}, 0.25f, 0).i32(0).out(OT::TENSOR_QUANT8_ASYMM, {2}, 0.2f, 0);
  EXPECT_TRUE(validate(ok.args()));
  OpBuilder bad(Op::MUL);
  bad.q8({2}, 0.5f, 0).q8({2}, 0.25f, 0).i32(0).out(OT::TENSOR_QUANT8_ASYMM, {2}, 0.125f, 0);
  EXPECT_EQ(errorOf(validate(bad.args())),
            "MUL output 0 scale 0.125 must be greater than input 0 scale * input 1 scale = 0.125");
  // ADD may rescale freely.
  OpBuilder add(Op::ADD);
  add.q8({2}, 0.5f, 0).q8({2}, 0.25f, 0).i32(0).out(OT::TENSOR_QUANT8_ASYMM, {2}, 0.01f, 7);
  EXPECT_TRUE(validate(add.args()));
}

TEST(Binary, BroadcastShapes) {
  EXPECT_EQ(onlyShape(binary(Op::ADD, OT::TENSOR_FLOAT32, {4, 1, 2}, {5, 4, 3, 1}, 0, {})),
            (Shape{5, 4, 3, 2}));
  EXPECT_EQ(onlyShape(binary(Op::MUL, OT::TENSOR_FLOAT32, {2, 3}, {3}, 0, {})), (Shape{2, 3}));
  EXPECT_EQ(onlyShape(binary(Op::SUB, OT::TENSOR_FLOAT32, {1}, {2, 1, 5}, 0, {})), (Shape{2, 1, 5}));
  EXPECT_EQ(onlyShape(binary(Op::DIV, OT::TENSOR_FLOAT32, {2, 1}, {1, 7}, 0, {})), (Shape{2, 7}));
}

TEST(Binary, BroadcastWithUnknownDimensions) {
  // An unknown dimension against a known size > 1 must be 1 or that size: the output has that size.
  EXPECT_EQ(onlyShape(binary(Op::ADD, OT::TENSOR_FLOAT32, {0, 3}, {2, 1}, 0, {})), (Shape{2, 3}));
  // Against 1 or another unknown dimension it stays unknown.
  EXPECT_EQ(onlyShape(binary(Op::ADD, OT::TENSOR_FLOAT32, {0, 3}, {1, 3}, 0, {})), (Shape{0, 3}));
  EXPECT_EQ(onlyShape(binary(Op::ADD, OT::TENSOR_FLOAT32, {0, 3}, {0, 3}, 0, {})), (Shape{0, 3}));
  // An unknown rank gives an unknown rank.
  EXPECT_EQ(onlyShape(binary(Op::ADD, OT::TENSOR_FLOAT32, {}, {2, 3}, 0, {})), Shape{});
}

TEST(Binary, IncompatibleShapesAreRefused) {
  auto op = binary(Op::ADD, OT::TENSOR_FLOAT32, {2, 3}, {4, 3}, 0, {});
  EXPECT_EQ(errorOf(inferShapes(op.args())), "ADD: shapes [2, 3] and [4, 3] do not broadcast: 2 vs 4");
  EXPECT_EQ(errorOf(validate(op.args())), "ADD: shapes [2, 3] and [4, 3] do not broadcast: 2 vs 4");
}

TEST(Floor, FloatOnly) {
  OpBuilder ok(Op::FLOOR);
  ok.tensor(OT::TENSOR_FLOAT16, {3, 2}).out(OT::TENSOR_FLOAT16, {3, 2});
  EXPECT_TRUE(validate(ok.args()));
  EXPECT_EQ(onlyShape(ok), (Shape{3, 2}));
  OpBuilder bad(Op::FLOOR);
  bad.q8({3}, 1.0f, 0).out(OT::TENSOR_QUANT8_ASYMM, {3}, 1.0f, 0);
  EXPECT_EQ(errorOf(validate(bad.args())),
            "FLOOR input 0 must be TENSOR_FLOAT16 or TENSOR_FLOAT32, not TENSOR_QUANT8_ASYMM");
}

// ---- Activations ------------------------------------------------------------------------------

OpBuilder unary(Op type, OT t, Shape dims, float inScale, int32_t inZero, float outScale, int32_t outZero) {
  OpBuilder op(type);
  op.tensor(t, dims, inScale, inZero).out(t, dims, outScale, outZero);
  return op;
}

TEST(Relu, QuantizedOutputKeepsTheInputQuantization) {
  for (Op type : {Op::RELU, Op::RELU1, Op::RELU6}) {
    EXPECT_TRUE(validate(unary(type, OT::TENSOR_FLOAT32, {2, 2}, 0, 0, 0, 0).args()));
    EXPECT_TRUE(validate(unary(type, OT::TENSOR_QUANT8_ASYMM, {4}, 0.5f, 10, 0.5f, 10).args()));
    EXPECT_TRUE(validate(unary(type, OT::TENSOR_QUANT8_ASYMM_SIGNED, {4}, 0.5f, -10, 0.5f, -10).args()));
  }
  EXPECT_EQ(errorOf(validate(unary(Op::RELU6, OT::TENSOR_QUANT8_ASYMM, {4}, 0.5f, 10, 0.25f, 10).args())),
            "RELU6 output 0 must have the scale and zero point of input 0 (scale 0.5, zero point 10), not "
            "(scale 0.25, zero point 10)");
  EXPECT_EQ(errorOf(validate(unary(Op::RELU, OT::TENSOR_INT32, {4}, 0, 0, 0, 0).args())),
            "RELU input 0 must be TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_QUANT8_ASYMM or "
            "TENSOR_QUANT8_ASYMM_SIGNED, not TENSOR_INT32");
  EXPECT_EQ(onlyShape(unary(Op::RELU1, OT::TENSOR_FLOAT32, {2, 0, 4}, 0, 0, 0, 0)), (Shape{2, 0, 4}));
}

TEST(Logistic, QuantizedOutputIsFixed) {
  EXPECT_TRUE(validate(unary(Op::LOGISTIC, OT::TENSOR_QUANT8_ASYMM, {4}, 0.1f, 3, 1.0f / 256, 0).args()));
  EXPECT_TRUE(
      validate(unary(Op::LOGISTIC, OT::TENSOR_QUANT8_ASYMM_SIGNED, {4}, 0.1f, 3, 1.0f / 256, -128).args()));
  EXPECT_EQ(
      errorOf(validate(unary(Op::LOGISTIC, OT::TENSOR_QUANT8_ASYMM, {4}, 0.1f, 3, 1.0f / 128, 0).args())),
      "LOGISTIC output 0 of type TENSOR_QUANT8_ASYMM must have (scale 0.00390625, zero point 0), not "
      "(scale 0.0078125, zero point 0)");
  EXPECT_EQ(errorOf(validate(
                unary(Op::LOGISTIC, OT::TENSOR_QUANT8_ASYMM_SIGNED, {4}, 0.1f, 3, 1.0f / 256, 0).args())),
            "LOGISTIC output 0 of type TENSOR_QUANT8_ASYMM_SIGNED must have (scale 0.00390625, zero point "
            "-128), not "
            "(scale 0.00390625, zero point 0)");
}

TEST(Tanh, QuantizedOutputIsFixed) {
  EXPECT_TRUE(validate(unary(Op::TANH, OT::TENSOR_QUANT8_ASYMM, {4}, 0.1f, 3, 1.0f / 128, 128).args()));
  EXPECT_TRUE(validate(unary(Op::TANH, OT::TENSOR_QUANT8_ASYMM_SIGNED, {4}, 0.1f, 3, 1.0f / 128, 0).args()));
  EXPECT_THAT(errorOf(validate(unary(Op::TANH, OT::TENSOR_QUANT8_ASYMM, {4}, 0.1f, 3, 1.0f / 128, 0).args())),
              HasSubstr("must have (scale 0.0078125, zero point 128)"));
  EXPECT_TRUE(validate(unary(Op::TANH, OT::TENSOR_FLOAT16, {4}, 0, 0, 0, 0).args()));
}

OpBuilder softmax(OT t, Shape dims, float beta, float outScale = 0, int32_t outZero = 0) {
  OpBuilder op(Op::SOFTMAX);
  op.tensor(t, dims, t == OT::TENSOR_QUANT8_ASYMM ? 0.1f : 0.0f, 0)
      .f32Scalar(beta)
      .out(t, dims, outScale, outZero);
  return op;
}

TEST(Softmax, AcceptsBetaAndOptionalAxis) {
  EXPECT_TRUE(validate(softmax(OT::TENSOR_FLOAT32, {2, 5}, 1.0f).args()));
  EXPECT_TRUE(validate(softmax(OT::TENSOR_QUANT8_ASYMM, {2, 5}, 0.5f, 1.0f / 256, 0).args()));

  OpBuilder withAxis = softmax(OT::TENSOR_FLOAT32, {2, 3, 4}, 1.0f);
  withAxis.i32(-3);
  EXPECT_TRUE(validate(withAxis.args()));
  EXPECT_EQ(onlyShape(withAxis), (Shape{2, 3, 4}));

  OpBuilder omittedAxis = softmax(OT::TENSOR_FLOAT32, {2, 3, 4}, 1.0f);
  omittedAxis.omitted(OT::INT32);
  EXPECT_TRUE(validate(omittedAxis.args()));

  OpBuilder half(Op::SOFTMAX);
  half.tensor(OT::TENSOR_FLOAT16, {2, 5}).f16Scalar(0x3C00).out(OT::TENSOR_FLOAT16, {2, 5});
  EXPECT_TRUE(validate(half.args()));
}

TEST(Softmax, RefusesBadBetaAxisAndOutputQuantization) {
  EXPECT_EQ(errorOf(validate(softmax(OT::TENSOR_FLOAT32, {2, 5}, 0.0f).args())),
            "SOFTMAX input 1 (beta) must be > 0, not 0");

  OpBuilder halfBeta(Op::SOFTMAX);
  halfBeta.tensor(OT::TENSOR_FLOAT16, {2, 5}).f32Scalar(1.0f).out(OT::TENSOR_FLOAT16, {2, 5});
  EXPECT_EQ(errorOf(validate(halfBeta.args())), "SOFTMAX input 1 (beta) must be FLOAT16, not FLOAT32");

  OpBuilder negativeHalf(Op::SOFTMAX);
  negativeHalf.tensor(OT::TENSOR_FLOAT16, {2, 5}).f16Scalar(0xB800).out(OT::TENSOR_FLOAT16, {2, 5});  // -0.5
  EXPECT_EQ(errorOf(validate(negativeHalf.args())), "SOFTMAX input 1 (beta) must be > 0, not -0.5");

  OpBuilder badAxis = softmax(OT::TENSOR_FLOAT32, {2, 3, 4}, 1.0f);
  badAxis.i32(3);
  EXPECT_EQ(errorOf(validate(badAxis.args())),
            "SOFTMAX input 2 (axis) must be in [-3, 3) for input 0 of rank 3, not 3");

  EXPECT_THAT(
      errorOf(validate(softmax(OT::TENSOR_QUANT8_ASYMM, {2, 5}, 1.0f, 1.0f / 128, 0).args())),
      HasSubstr("SOFTMAX output 0 of type TENSOR_QUANT8_ASYMM must have (scale 0.00390625, zero point 0)"));
}

}  // namespace
}  // namespace nnrt::ops
