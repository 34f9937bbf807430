// Signatures of the ops_math.cpp family: for every operation, a valid form per allowed operand type
// (with the feature level it needs) and the invalid variants Android refuses at addOperation.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nnrt/driver/ops/operation.hpp"
#include "tests/ops/op_builder.hpp"

namespace nnrt::ops::testing {
namespace {

using ::testing::HasSubstr;
using OT = OperandType;
using Op = OperationType;

std::string name(Op op) {
  return operationName(static_cast<int32_t>(op));
}

// Valid quantization parameters for each quantized type (none for the others).
struct Quant {
  float scale;
  int32_t zeroPoint;
};

Quant quantOf(OT type) {
  switch (type) {
    case OT::TENSOR_QUANT8_ASYMM:
      return {0.5f, 128};
    case OT::TENSOR_QUANT8_ASYMM_SIGNED:
      return {0.5f, -1};
    case OT::TENSOR_QUANT8_SYMM:
    case OT::TENSOR_QUANT16_SYMM:
      return {0.5f, 0};
    case OT::TENSOR_QUANT16_ASYMM:
      return {0.5f, 1000};
    default:
      return {0.0f, 0};
  }
}

// An input tensor of `type` with valid quantization parameters.
OpBuilder& in(OpBuilder& b, OT type, Shape dims = {2, 3}) {
  if (type == OT::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    return b.perChannel(dims, std::vector<float>(dims.empty() ? 1 : dims[0], 0.5f), 0);
  }
  const Quant q = quantOf(type);
  return b.tensor(type, std::move(dims), q.scale, q.zeroPoint);
}

OpBuilder& out(OpBuilder& b, OT type, Shape dims = {2, 3}) {
  const Quant q = quantOf(type);
  return b.out(type, std::move(dims), q.scale, q.zeroPoint);
}

OpBuilder unary(Op op, OT input, OT output, Shape dims = {2, 3}) {
  OpBuilder b(op);
  in(b, input, dims);
  out(b, output, dims);
  return b;
}

OpBuilder binary(Op op, OT a, OT b2, OT output, Shape da = {2, 3}, Shape db = {2, 3}, Shape dout = {2, 3}) {
  OpBuilder b(op);
  in(b, a, std::move(da));
  in(b, b2, std::move(db));
  out(b, output, std::move(dout));
  return b;
}

// ---- One tensor in, one out ---------------------------------------------------------------------

const Op kFloatUnary[] = {Op::EXP, Op::LOG, Op::SIN, Op::SQRT};

TEST(MathSignatures, FloatUnaryTakeFloatTensorsAtLevel3) {
  for (Op op : kFloatUnary) {
    SCOPED_TRACE(name(op));
    EXPECT_EQ(signatureLevel(unary(op, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32)), 3);
    EXPECT_EQ(signatureLevel(unary(op, OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT16)), 3);
    EXPECT_THAT(signatureError(unary(op, OT::TENSOR_INT32, OT::TENSOR_INT32)),
                HasSubstr(name(op) + " input 0 (input) must be TENSOR_FLOAT16 or TENSOR_FLOAT32, not TENSOR_INT32"));
    EXPECT_THAT(signatureError(unary(op, OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_QUANT8_ASYMM)),
                HasSubstr("not TENSOR_QUANT8_ASYMM"));
    EXPECT_THAT(signatureError(unary(op, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT16)),
                HasSubstr(name(op) + " output 0 must be TENSOR_FLOAT32 like input 0, not TENSOR_FLOAT16"));
    // Android checks no rank for these.
    EXPECT_EQ(signatureLevel(unary(op, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, {1, 2, 3, 4, 5})), 3);
  }
}

TEST(MathSignatures, UnaryCounts) {
  for (Op op : {Op::EXP, Op::ABS, Op::NEG, Op::RSQRT, Op::HARD_SWISH, Op::LOGICAL_NOT, Op::CAST, Op::QUANTIZE,
                Op::DEQUANTIZE, Op::RANK}) {
    SCOPED_TRACE(name(op));
    OpBuilder two(op);
    in(two, OT::TENSOR_FLOAT32);
    in(two, OT::TENSOR_FLOAT32);
    out(two, OT::TENSOR_FLOAT32);
    EXPECT_EQ(signatureError(two), name(op) + " takes 1 input, not 2");
    OpBuilder none(op);
    out(none, OT::TENSOR_FLOAT32);
    EXPECT_EQ(signatureError(none), name(op) + " takes 1 input, not 0");
    OpBuilder twoOut(op);
    in(twoOut, OT::TENSOR_FLOAT32);
    out(twoOut, OT::TENSOR_FLOAT32);
    out(twoOut, OT::TENSOR_FLOAT32);
    EXPECT_EQ(signatureError(twoOut), name(op) + " takes 1 output, not 2");
  }
}

TEST(MathSignatures, AbsTakesInt32FromLevel4) {
  EXPECT_EQ(signatureLevel(unary(Op::ABS, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32)), 3);
  EXPECT_EQ(signatureLevel(unary(Op::ABS, OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT16)), 3);
  EXPECT_EQ(signatureLevel(unary(Op::ABS, OT::TENSOR_INT32, OT::TENSOR_INT32)), 4);
  EXPECT_THAT(signatureError(unary(Op::ABS, OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_QUANT8_ASYMM)),
              HasSubstr("ABS input 0 (input) must be TENSOR_FLOAT16, TENSOR_FLOAT32 or TENSOR_INT32"));
  EXPECT_THAT(signatureError(unary(Op::ABS, OT::TENSOR_INT32, OT::TENSOR_FLOAT32)),
              HasSubstr("ABS output 0 must be TENSOR_INT32 like input 0"));
}

TEST(MathSignatures, NegTakesFloatAndInt32AtLevel3) {
  EXPECT_EQ(signatureLevel(unary(Op::NEG, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32)), 3);
  EXPECT_EQ(signatureLevel(unary(Op::NEG, OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT16)), 3);
  EXPECT_EQ(signatureLevel(unary(Op::NEG, OT::TENSOR_INT32, OT::TENSOR_INT32)), 3);
  EXPECT_THAT(signatureError(unary(Op::NEG, OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_QUANT8_ASYMM_SIGNED)),
              HasSubstr("NEG input 0 (input) must be"));
  EXPECT_THAT(signatureError(unary(Op::NEG, OT::TENSOR_FLOAT32, OT::TENSOR_INT32)),
              HasSubstr("NEG output 0 must be TENSOR_FLOAT32 like input 0"));
}

TEST(MathSignatures, RsqrtTakesQuantizedFromLevel7) {
  EXPECT_EQ(signatureLevel(unary(Op::RSQRT, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32)), 3);
  EXPECT_EQ(signatureLevel(unary(Op::RSQRT, OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT16)), 3);
  EXPECT_EQ(signatureLevel(unary(Op::RSQRT, OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_QUANT8_ASYMM)), 7);
  EXPECT_EQ(signatureLevel(unary(Op::RSQRT, OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_QUANT8_ASYMM_SIGNED)), 7);
  EXPECT_THAT(signatureError(unary(Op::RSQRT, OT::TENSOR_INT32, OT::TENSOR_INT32)),
              HasSubstr("RSQRT input 0 (input) must be"));
  EXPECT_THAT(signatureError(unary(Op::RSQRT, OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_QUANT8_ASYMM_SIGNED)),
              HasSubstr("RSQRT output 0 must be TENSOR_QUANT8_ASYMM like input 0"));
}

OpBuilder elu(OT tensor, OT alpha) {
  OpBuilder b(Op::ELU);
  in(b, tensor);
  b.unknownScalar(alpha);
  out(b, tensor);
  return b;
}

TEST(MathSignatures, EluTakesAFloatAlphaOfTheTensorsPrecisionAtLevel4) {
  EXPECT_EQ(signatureLevel(elu(OT::TENSOR_FLOAT32, OT::FLOAT32)), 4);
  EXPECT_EQ(signatureLevel(elu(OT::TENSOR_FLOAT16, OT::FLOAT16)), 4);
  EXPECT_EQ(signatureError(elu(OT::TENSOR_FLOAT16, OT::FLOAT32)),
            "ELU input 1 (alpha) must be FLOAT16, not FLOAT32");
  EXPECT_EQ(signatureError(elu(OT::TENSOR_FLOAT32, OT::INT32)), "ELU input 1 (alpha) must be FLOAT32, not INT32");
  EXPECT_THAT(signatureError(elu(OT::TENSOR_QUANT8_ASYMM, OT::FLOAT32)),
              HasSubstr("ELU input 0 (input) must be TENSOR_FLOAT16 or TENSOR_FLOAT32"));
  OpBuilder oneInput(Op::ELU);
  in(oneInput, OT::TENSOR_FLOAT32);
  out(oneInput, OT::TENSOR_FLOAT32);
  EXPECT_EQ(signatureError(oneInput), "ELU takes 2 inputs, not 1");
  OpBuilder wrongOut = elu(OT::TENSOR_FLOAT32, OT::FLOAT32);
  wrongOut.output(0).type = static_cast<int32_t>(OT::TENSOR_FLOAT16);
  EXPECT_THAT(signatureError(wrongOut), HasSubstr("ELU output 0 must be TENSOR_FLOAT32 like input 0"));
}

TEST(MathSignatures, HardSwishTakesTheDataTypesAtLevel4WithAnyOutputQuantization) {
  for (OT type : {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_QUANT8_ASYMM_SIGNED}) {
    SCOPED_TRACE(typeName(static_cast<int32_t>(type)));
    EXPECT_EQ(signatureLevel(unary(Op::HARD_SWISH, type, type)), 4);
  }
  OpBuilder rescaled(Op::HARD_SWISH);
  rescaled.tensor(OT::TENSOR_QUANT8_ASYMM, {2, 3}, 0.5f, 128).out(OT::TENSOR_QUANT8_ASYMM, {2, 3}, 0.25f, 3);
  EXPECT_TRUE(validate(rescaled.args())) << fullError(rescaled);
  // No rank limit for HARD_SWISH.
  EXPECT_EQ(signatureLevel(unary(Op::HARD_SWISH, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, {1, 1, 1, 1, 2})), 4);
  EXPECT_THAT(signatureError(unary(Op::HARD_SWISH, OT::TENSOR_INT32, OT::TENSOR_INT32)),
              HasSubstr("HARD_SWISH input 0 (input) must be"));
  EXPECT_THAT(signatureError(unary(Op::HARD_SWISH, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT16)),
              HasSubstr("HARD_SWISH output 0 must be TENSOR_FLOAT32 like input 0"));
}

TEST(MathSignatures, UnaryShapesFollowInput0) {
  OpBuilder b = unary(Op::SQRT, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, {2, 3});
  auto shapes = inferShapes(b.args());
  ASSERT_TRUE(shapes) << errorOf(shapes);
  EXPECT_EQ(*shapes, (std::vector<Shape>{{2, 3}}));
  OpBuilder wrong(Op::SQRT);
  wrong.f32({2, 3}).f32Out({3, 2});
  EXPECT_TRUE(validateSignature(wrong.args()));
  EXPECT_THAT(fullError(wrong), HasSubstr("SQRT output 0 is declared [3, 2]"));
}

// ---- Two tensors, broadcast ---------------------------------------------------------------------

TEST(MathSignatures, PreluTakesTheDataTypesWithSignedAtLevel4) {
  EXPECT_EQ(signatureLevel(binary(Op::PRELU, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32)), 3);
  EXPECT_EQ(signatureLevel(binary(Op::PRELU, OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT16)), 3);
  EXPECT_EQ(signatureLevel(binary(Op::PRELU, OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_QUANT8_ASYMM)), 3);
  EXPECT_EQ(signatureLevel(binary(Op::PRELU, OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_QUANT8_ASYMM_SIGNED,
                           OT::TENSOR_QUANT8_ASYMM_SIGNED)),
            4);
  EXPECT_EQ(signatureError(binary(Op::PRELU, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32)),
            "PRELU input 1 (alpha) must be TENSOR_FLOAT32 like input 0, not TENSOR_FLOAT16");
  EXPECT_THAT(signatureError(binary(Op::PRELU, OT::TENSOR_INT32, OT::TENSOR_INT32, OT::TENSOR_INT32)),
              HasSubstr("PRELU input 0 (input) must be"));
  EXPECT_THAT(signatureError(binary(Op::PRELU, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT16)),
              HasSubstr("PRELU output 0 must be TENSOR_FLOAT32 like input 0"));
  // The alpha broadcasts against the input.
  OpBuilder broadcast(Op::PRELU);
  broadcast.f32({4, 1, 2}).f32({5, 4, 3, 1}).f32Out({5, 4, 3, 2});
  auto shapes = inferShapes(broadcast.args());
  ASSERT_TRUE(shapes) << errorOf(shapes);
  EXPECT_EQ(*shapes, (std::vector<Shape>{{5, 4, 3, 2}}));
  EXPECT_TRUE(validate(broadcast.args())) << fullError(broadcast);
}

TEST(MathSignatures, PowTakesFloatTensorsAtLevel3) {
  EXPECT_EQ(signatureLevel(binary(Op::POW, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32)), 3);
  EXPECT_EQ(signatureLevel(binary(Op::POW, OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT16)), 3);
  EXPECT_THAT(signatureError(binary(Op::POW, OT::TENSOR_INT32, OT::TENSOR_INT32, OT::TENSOR_INT32)),
              HasSubstr("POW input 0 (base) must be TENSOR_FLOAT16 or TENSOR_FLOAT32, not TENSOR_INT32"));
  EXPECT_THAT(signatureError(binary(Op::POW, OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_QUANT8_ASYMM_SIGNED,
                                    OT::TENSOR_QUANT8_ASYMM_SIGNED)),
              HasSubstr("POW input 0 (base) must be"));
  EXPECT_EQ(signatureError(binary(Op::POW, OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT16)),
            "POW input 1 (exponent) must be TENSOR_FLOAT16 like input 0, not TENSOR_FLOAT32");
}

TEST(MathSignatures, MaximumMinimumTakeFiveTypesWithSignedAtLevel4) {
  for (Op op : {Op::MAXIMUM, Op::MINIMUM}) {
    SCOPED_TRACE(name(op));
    for (OT type : {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_INT32, OT::TENSOR_QUANT8_ASYMM}) {
      EXPECT_EQ(signatureLevel(binary(op, type, type, type)), 3);
    }
    EXPECT_EQ(signatureLevel(binary(op, OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_QUANT8_ASYMM_SIGNED,
                             OT::TENSOR_QUANT8_ASYMM_SIGNED)),
              4);
    EXPECT_THAT(signatureError(binary(op, OT::TENSOR_BOOL8, OT::TENSOR_BOOL8, OT::TENSOR_BOOL8)),
                HasSubstr(name(op) + " input 0 (input) must be"));
    EXPECT_EQ(signatureError(binary(op, OT::TENSOR_INT32, OT::TENSOR_FLOAT32, OT::TENSOR_INT32)),
              name(op) + " input 1 (input) must be TENSOR_INT32 like input 0, not TENSOR_FLOAT32");
    EXPECT_THAT(signatureError(binary(op, OT::TENSOR_INT32, OT::TENSOR_INT32, OT::TENSOR_FLOAT32)),
                HasSubstr(name(op) + " output 0 must be TENSOR_INT32 like input 0"));
    // Quantized inputs and output may each have their own scale.
    OpBuilder rescaled(op);
    rescaled.q8({2}, 0.5f, 1).q8({2}, 0.25f, 2).out(OT::TENSOR_QUANT8_ASYMM, {2}, 1.0f, 3);
    EXPECT_TRUE(validate(rescaled.args())) << fullError(rescaled);
  }
}

const Op kComparisons[] = {Op::EQUAL, Op::GREATER, Op::GREATER_EQUAL, Op::LESS, Op::LESS_EQUAL, Op::NOT_EQUAL};

TEST(MathSignatures, ComparisonsGiveBool8WithSignedAtLevel4) {
  for (Op op : kComparisons) {
    SCOPED_TRACE(name(op));
    for (OT type : {OT::TENSOR_BOOL8, OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_INT32,
                    OT::TENSOR_QUANT8_ASYMM}) {
      EXPECT_EQ(signatureLevel(binary(op, type, type, OT::TENSOR_BOOL8)), 3);
    }
    EXPECT_EQ(signatureLevel(binary(op, OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_BOOL8)),
              4);
    EXPECT_EQ(signatureError(binary(op, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32)),
              name(op) + " output 0 must be TENSOR_BOOL8, not TENSOR_FLOAT32");
    EXPECT_EQ(signatureError(binary(op, OT::TENSOR_FLOAT32, OT::TENSOR_INT32, OT::TENSOR_BOOL8)),
              name(op) + " input 1 (input) must be TENSOR_FLOAT32 like input 0, not TENSOR_INT32");
    EXPECT_THAT(signatureError(binary(op, OT::TENSOR_QUANT16_ASYMM, OT::TENSOR_QUANT16_ASYMM, OT::TENSOR_BOOL8)),
                HasSubstr(name(op) + " input 0 (input) must be"));
    OpBuilder three = binary(op, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, OT::TENSOR_BOOL8);
    in(three, OT::TENSOR_FLOAT32);
    EXPECT_EQ(signatureError(three), name(op) + " takes 2 inputs, not 3");
    OpBuilder twoOut = binary(op, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, OT::TENSOR_BOOL8);
    out(twoOut, OT::TENSOR_BOOL8);
    EXPECT_EQ(signatureError(twoOut), name(op) + " takes 1 output, not 2");
  }
}

TEST(MathSignatures, BinaryShapesBroadcastWhenPrepared) {
  OpBuilder ok = binary(Op::LESS, OT::TENSOR_INT32, OT::TENSOR_INT32, OT::TENSOR_BOOL8, {2, 1, 3}, {4, 1}, {2, 4, 3});
  auto shapes = inferShapes(ok.args());
  ASSERT_TRUE(shapes) << errorOf(shapes);
  EXPECT_EQ(*shapes, (std::vector<Shape>{{2, 4, 3}}));
  EXPECT_TRUE(validate(ok.args())) << fullError(ok);
  // Android leaves the shapes to preparation: addOperation accepts them.
  OpBuilder bad = binary(Op::MAXIMUM, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, {2, 3}, {4, 3});
  EXPECT_EQ(signatureLevel(bad), 3);
  EXPECT_THAT(fullError(bad), HasSubstr("MAXIMUM: shapes [2, 3] and [4, 3] do not broadcast"));
}

TEST(MathSignatures, LogicalAndOrTakeBool8AtLevel3) {
  for (Op op : {Op::LOGICAL_AND, Op::LOGICAL_OR}) {
    SCOPED_TRACE(name(op));
    EXPECT_EQ(signatureLevel(binary(op, OT::TENSOR_BOOL8, OT::TENSOR_BOOL8, OT::TENSOR_BOOL8)), 3);
    EXPECT_EQ(signatureError(binary(op, OT::TENSOR_INT32, OT::TENSOR_INT32, OT::TENSOR_INT32)),
              name(op) + " input 0 (input) must be TENSOR_BOOL8, not TENSOR_INT32");
    EXPECT_EQ(signatureError(binary(op, OT::TENSOR_BOOL8, OT::TENSOR_INT32, OT::TENSOR_BOOL8)),
              name(op) + " input 1 (input) must be TENSOR_BOOL8 like input 0, not TENSOR_INT32");
    EXPECT_THAT(signatureError(binary(op, OT::TENSOR_BOOL8, OT::TENSOR_BOOL8, OT::TENSOR_INT32)),
                HasSubstr(name(op) + " output 0 must be TENSOR_BOOL8 like input 0"));
    OpBuilder one(op);
    in(one, OT::TENSOR_BOOL8);
    out(one, OT::TENSOR_BOOL8);
    EXPECT_EQ(signatureError(one), name(op) + " takes 2 inputs, not 1");
  }
}

TEST(MathSignatures, LogicalNotTakesBool8AtLevel3) {
  EXPECT_EQ(signatureLevel(unary(Op::LOGICAL_NOT, OT::TENSOR_BOOL8, OT::TENSOR_BOOL8)), 3);
  EXPECT_EQ(signatureError(unary(Op::LOGICAL_NOT, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32)),
            "LOGICAL_NOT input 0 (input) must be TENSOR_BOOL8, not TENSOR_FLOAT32");
  EXPECT_THAT(signatureError(unary(Op::LOGICAL_NOT, OT::TENSOR_BOOL8, OT::TENSOR_INT32)),
              HasSubstr("LOGICAL_NOT output 0 must be TENSOR_BOOL8 like input 0"));
}

// ---- SELECT -------------------------------------------------------------------------------------

OpBuilder select(OT condition, OT a, OT b2, OT output, Shape dc = {2, 3}, Shape da = {2, 3}, Shape db = {2, 3}) {
  OpBuilder b(Op::SELECT);
  in(b, condition, std::move(dc));
  in(b, a, std::move(da));
  in(b, b2, std::move(db));
  out(b, output);
  return b;
}

TEST(MathSignatures, SelectTakesABool8ConditionAndTwoTensorsOfOneTypeAtLevel3) {
  // Android's SELECT gives feature level 3 for every data type, the signed one included.
  for (OT type : {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_INT32, OT::TENSOR_QUANT8_ASYMM,
                  OT::TENSOR_QUANT8_ASYMM_SIGNED}) {
    SCOPED_TRACE(typeName(static_cast<int32_t>(type)));
    EXPECT_EQ(signatureLevel(select(OT::TENSOR_BOOL8, type, type, type)), 3);
  }
  EXPECT_EQ(signatureError(select(OT::TENSOR_INT32, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32)),
            "SELECT input 0 (condition) must be TENSOR_BOOL8, not TENSOR_INT32");
  EXPECT_THAT(signatureError(select(OT::TENSOR_BOOL8, OT::TENSOR_BOOL8, OT::TENSOR_BOOL8, OT::TENSOR_BOOL8)),
              HasSubstr("SELECT input 1 (input1) must be"));
  EXPECT_EQ(signatureError(select(OT::TENSOR_BOOL8, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32)),
            "SELECT input 2 (input2) must be TENSOR_FLOAT32 like input 1, not TENSOR_FLOAT16");
  EXPECT_EQ(signatureError(select(OT::TENSOR_BOOL8, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, OT::TENSOR_BOOL8)),
            "SELECT output 0 must be TENSOR_FLOAT32 like input 1, not TENSOR_BOOL8");
  OpBuilder two(Op::SELECT);
  in(two, OT::TENSOR_BOOL8);
  in(two, OT::TENSOR_FLOAT32);
  out(two, OT::TENSOR_FLOAT32);
  EXPECT_EQ(signatureError(two), "SELECT takes 3 inputs, not 2");
}

TEST(MathSignatures, SelectShapesMustBeEqualWhenPrepared) {
  OpBuilder ok = select(OT::TENSOR_BOOL8, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, {2, 0},
                        {0, 3}, {2, 3});
  auto shapes = inferShapes(ok.args());
  ASSERT_TRUE(shapes) << errorOf(shapes);
  EXPECT_EQ(*shapes, (std::vector<Shape>{{2, 3}}));
  // No broadcasting: a [1, 3] condition is refused at preparation, not at addOperation.
  OpBuilder bad = select(OT::TENSOR_BOOL8, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32, {1, 3});
  EXPECT_EQ(signatureLevel(bad), 3);
  EXPECT_THAT(fullError(bad), HasSubstr("SELECT input 1 has shape [2, 3], but input 0 has [1, 3]"));
}

// ---- CAST ---------------------------------------------------------------------------------------

TEST(MathSignatures, CastConvertsAmongFourTypesAtLevel3) {
  const OT convertible[] = {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_INT32, OT::TENSOR_QUANT8_ASYMM};
  for (OT from : convertible) {
    for (OT to : convertible) {
      SCOPED_TRACE(typeName(static_cast<int32_t>(from)) + " to " + typeName(static_cast<int32_t>(to)));
      EXPECT_EQ(signatureLevel(unary(Op::CAST, from, to)), 3);
    }
  }
  EXPECT_EQ(signatureError(unary(Op::CAST, OT::TENSOR_FLOAT32, OT::TENSOR_BOOL8)),
            "CAST output 0 must be TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32 or TENSOR_QUANT8_ASYMM, not "
            "TENSOR_BOOL8");
}

TEST(MathSignatures, CastCastsOtherTypesOnlyToThemselvesAtLevel4) {
  for (OT type : {OT::TENSOR_BOOL8, OT::TENSOR_QUANT16_ASYMM, OT::TENSOR_QUANT16_SYMM,
                  OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_QUANT8_SYMM}) {
    SCOPED_TRACE(typeName(static_cast<int32_t>(type)));
    EXPECT_EQ(signatureLevel(unary(Op::CAST, type, type)), 4);
    EXPECT_THAT(signatureError(unary(Op::CAST, type, OT::TENSOR_FLOAT32)),
                HasSubstr("CAST output 0 must be " + typeName(static_cast<int32_t>(type)) + " like input 0"));
  }
  EXPECT_THAT(signatureError(unary(Op::CAST, OT::TENSOR_QUANT8_SYMM_PER_CHANNEL, OT::TENSOR_QUANT8_SYMM_PER_CHANNEL)),
              HasSubstr("CAST input 0 (input) must be"));
}

TEST(MathSignatures, CastRefusesADeclaredOutputShapeOtherThanTheInputs) {
  OpBuilder swapped(Op::CAST);
  swapped.f32({2, 3}).out(OT::TENSOR_INT32, {3, 2});
  EXPECT_EQ(signatureError(swapped), "CAST output 0 is declared [3, 2], but input 0 is [2, 3]; CAST keeps the shape");
  // An output with an unknown dimension, or an input of unknown rank, is not compared.
  OpBuilder partial(Op::CAST);
  partial.f32({2, 3}).out(OT::TENSOR_INT32, {0, 2});
  EXPECT_EQ(signatureLevel(partial), 3);
  OpBuilder unknownRank(Op::CAST);
  unknownRank.f32({}).out(OT::TENSOR_INT32, {3, 2});
  EXPECT_EQ(signatureLevel(unknownRank), 3);
  // A fully specified output must match an input with unknown dimensions exactly, as in Android.
  OpBuilder unknownDim(Op::CAST);
  unknownDim.f32({0, 3}).out(OT::TENSOR_INT32, {2, 3});
  EXPECT_THAT(signatureError(unknownDim), HasSubstr("CAST output 0 is declared [2, 3]"));
}

// ---- QUANTIZE, DEQUANTIZE -----------------------------------------------------------------------

TEST(MathSignatures, QuantizeGivesQuant8WithSignedAtLevel4) {
  EXPECT_EQ(signatureLevel(unary(Op::QUANTIZE, OT::TENSOR_FLOAT32, OT::TENSOR_QUANT8_ASYMM)), 3);
  EXPECT_EQ(signatureLevel(unary(Op::QUANTIZE, OT::TENSOR_FLOAT16, OT::TENSOR_QUANT8_ASYMM)), 3);
  EXPECT_EQ(signatureLevel(unary(Op::QUANTIZE, OT::TENSOR_FLOAT32, OT::TENSOR_QUANT8_ASYMM_SIGNED)), 4);
  EXPECT_EQ(signatureLevel(unary(Op::QUANTIZE, OT::TENSOR_FLOAT16, OT::TENSOR_QUANT8_ASYMM_SIGNED)), 4);
  EXPECT_EQ(signatureError(unary(Op::QUANTIZE, OT::TENSOR_INT32, OT::TENSOR_QUANT8_ASYMM)),
            "QUANTIZE input 0 (input) must be TENSOR_FLOAT16 or TENSOR_FLOAT32, not TENSOR_INT32");
  EXPECT_EQ(signatureError(unary(Op::QUANTIZE, OT::TENSOR_FLOAT32, OT::TENSOR_QUANT8_SYMM)),
            "QUANTIZE output 0 must be TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED, not TENSOR_QUANT8_SYMM");
}

TEST(MathSignatures, DequantizeQuant8ToFloat32IsLevel1AndTheRestLevel3) {
  EXPECT_EQ(signatureLevel(unary(Op::DEQUANTIZE, OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_FLOAT32)), 1);
  EXPECT_EQ(signatureLevel(unary(Op::DEQUANTIZE, OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_FLOAT16)), 3);
  for (OT type : {OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_QUANT8_SYMM, OT::TENSOR_QUANT8_SYMM_PER_CHANNEL}) {
    SCOPED_TRACE(typeName(static_cast<int32_t>(type)));
    EXPECT_EQ(signatureLevel(unary(Op::DEQUANTIZE, type, OT::TENSOR_FLOAT32)), 3);
    EXPECT_EQ(signatureLevel(unary(Op::DEQUANTIZE, type, OT::TENSOR_FLOAT16)), 3);
  }
  EXPECT_THAT(signatureError(unary(Op::DEQUANTIZE, OT::TENSOR_FLOAT32, OT::TENSOR_FLOAT32)),
              HasSubstr("DEQUANTIZE input 0 (input) must be"));
  EXPECT_THAT(signatureError(unary(Op::DEQUANTIZE, OT::TENSOR_QUANT16_ASYMM, OT::TENSOR_FLOAT32)),
              HasSubstr("not TENSOR_QUANT16_ASYMM"));
  EXPECT_EQ(signatureError(unary(Op::DEQUANTIZE, OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_INT32)),
            "DEQUANTIZE output 0 must be TENSOR_FLOAT16 or TENSOR_FLOAT32, not TENSOR_INT32");
  EXPECT_EQ(signatureError(unary(Op::DEQUANTIZE, OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_FLOAT32, {1, 2, 3, 4, 5})),
            "DEQUANTIZE input 0 (input) must have rank 1 to 4, not rank 5 [1, 2, 3, 4, 5]");
  EXPECT_EQ(signatureLevel(unary(Op::DEQUANTIZE, OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_FLOAT32, {1, 2, 3, 4})), 1);
}

// ---- FILL, RANK ---------------------------------------------------------------------------------

OpBuilder fill(OT value, OT output, Shape dims = {2}) {
  OpBuilder b(Op::FILL);
  b.tensor(OT::TENSOR_INT32, std::move(dims));
  b.unknownScalar(value);
  out(b, output, {});
  return b;
}

TEST(MathSignatures, FillTakesTheValueTypeOfItsOutputAtLevel4) {
  EXPECT_EQ(signatureLevel(fill(OT::FLOAT16, OT::TENSOR_FLOAT16)), 4);
  EXPECT_EQ(signatureLevel(fill(OT::FLOAT32, OT::TENSOR_FLOAT32)), 4);
  EXPECT_EQ(signatureLevel(fill(OT::INT32, OT::TENSOR_INT32)), 4);
  EXPECT_EQ(signatureError(fill(OT::FLOAT32, OT::TENSOR_FLOAT16)), "FILL input 1 (value) must be FLOAT16, not FLOAT32");
  EXPECT_EQ(signatureError(fill(OT::FLOAT32, OT::TENSOR_INT32)), "FILL input 1 (value) must be INT32, not FLOAT32");
  EXPECT_EQ(signatureError(fill(OT::INT32, OT::TENSOR_QUANT8_ASYMM)),
            "FILL output 0 must be TENSOR_FLOAT16, TENSOR_FLOAT32 or TENSOR_INT32, not TENSOR_QUANT8_ASYMM");
  OpBuilder floatDims(Op::FILL);
  floatDims.f32({2}).f32Scalar(1.0f).f32Out({});
  EXPECT_EQ(signatureError(floatDims), "FILL input 0 (dims) must be TENSOR_INT32, not TENSOR_FLOAT32");
  OpBuilder one(Op::FILL);
  one.ints({2, 3}).f32Out({});
  EXPECT_EQ(signatureError(one), "FILL takes 2 inputs, not 1");
  // The rank of dims is checked when the operation is prepared.
  EXPECT_EQ(signatureLevel(fill(OT::FLOAT32, OT::TENSOR_FLOAT32, {2, 2})), 4);
  EXPECT_EQ(fullError(fill(OT::FLOAT32, OT::TENSOR_FLOAT32, {2, 2})),
            "FILL input 0 (dims) must have rank 1, not rank 2 [2, 2]");
}

TEST(MathSignatures, FillShapeComesFromDims) {
  OpBuilder known(Op::FILL);
  known.ints({2, 3}).f32Scalar(1.0f).f32Out({2, 3});
  auto shapes = inferShapes(known.args());
  ASSERT_TRUE(shapes) << errorOf(shapes);
  EXPECT_EQ(*shapes, (std::vector<Shape>{{2, 3}}));
  EXPECT_TRUE(validate(known.args())) << fullError(known);
  OpBuilder unknown = fill(OT::FLOAT32, OT::TENSOR_FLOAT32, {3});
  shapes = inferShapes(unknown.args());
  ASSERT_TRUE(shapes) << errorOf(shapes);
  EXPECT_EQ(*shapes, (std::vector<Shape>{{0, 0, 0}}));
  OpBuilder mismatch(Op::FILL);
  mismatch.ints({2, 3}).f32Scalar(1.0f).f32Out({3, 2});
  EXPECT_THAT(fullError(mismatch), HasSubstr("FILL output 0 is declared [3, 2]"));
  OpBuilder negative(Op::FILL);
  negative.ints({2, -1}).f32Scalar(1.0f).f32Out({});
  EXPECT_EQ(fullError(negative), "FILL input 0 (dims) must hold sizes >= 0, but element 1 is -1");
}

TEST(MathSignatures, RankTakesAnyTensorTypeAndGivesAnInt32ScalarAtLevel4) {
  for (OT type : {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_INT32, OT::TENSOR_QUANT8_ASYMM,
                  OT::TENSOR_QUANT16_SYMM, OT::TENSOR_BOOL8, OT::TENSOR_QUANT8_SYMM_PER_CHANNEL,
                  OT::TENSOR_QUANT16_ASYMM, OT::TENSOR_QUANT8_SYMM, OT::TENSOR_QUANT8_ASYMM_SIGNED}) {
    SCOPED_TRACE(typeName(static_cast<int32_t>(type)));
    OpBuilder b(Op::RANK);
    in(b, type);
    b.out(OT::INT32, {});
    EXPECT_EQ(signatureLevel(b), 4);
  }
  OpBuilder tensorOut(Op::RANK);
  tensorOut.f32({2, 3}).out(OT::TENSOR_INT32, {1});
  EXPECT_EQ(signatureError(tensorOut), "RANK output 0 must be INT32, not TENSOR_INT32");
  OpBuilder scalarIn(Op::RANK);
  scalarIn.i32(3).out(OT::INT32, {});
  EXPECT_THAT(signatureError(scalarIn), HasSubstr("RANK input 0 (input) must be"));
}

}  // namespace
}  // namespace nnrt::ops::testing
