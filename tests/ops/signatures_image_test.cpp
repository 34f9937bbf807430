// Signatures of the ops_image.cpp family: for every operation, a valid form per allowed operand type
// (with the feature level it needs) and the invalid variants Android refuses at addOperation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nnrt/driver/ops/operation.hpp"
#include "tests/ops/op_builder.hpp"

namespace nnrt::ops::testing {
namespace {

using ::testing::HasSubstr;
using OT = OperandType;
using Op = OperationType;

constexpr OT kF16 = OT::TENSOR_FLOAT16;
constexpr OT kF32 = OT::TENSOR_FLOAT32;
constexpr OT kQ8 = OT::TENSOR_QUANT8_ASYMM;
constexpr OT kQ8S = OT::TENSOR_QUANT8_ASYMM_SIGNED;
constexpr OT kQ16A = OT::TENSOR_QUANT16_ASYMM;
constexpr OT kQ16S = OT::TENSOR_QUANT16_SYMM;
constexpr OT kI32 = OT::TENSOR_INT32;

// Quantization parameters that every type accepts.
float scaleFor(OT type) {
  switch (type) {
    case OT::TENSOR_QUANT8_ASYMM:
    case OT::TENSOR_QUANT8_ASYMM_SIGNED:
    case OT::TENSOR_QUANT16_SYMM:
      return 0.5f;
    case OT::TENSOR_QUANT16_ASYMM:
      return 0.125f;
    default:
      return 0.0f;
  }
}

OpBuilder& add(OpBuilder& b, OT type, Shape dims) {
  return b.tensor(type, std::move(dims), scaleFor(type), 0);
}
OpBuilder& addOut(OpBuilder& b, OT type, Shape dims) {
  return b.out(type, std::move(dims), scaleFor(type), 0);
}
// The float scalar that goes with a tensor type: FLOAT16 for TENSOR_FLOAT16, FLOAT32 otherwise.
OpBuilder& addFloat(OpBuilder& b, OT tensorType, float v) {
  if (tensorType == kF16) return b.f16Scalar(0x3c00);  // 1.0
  return b.f32Scalar(v);
}

std::string refusal(const OpBuilder& b) {
  auto r = validateSignature(b.args());
  EXPECT_FALSE(r) << "accepted";
  return errorOf(r);
}

// ---- GROUPED_CONV_2D ----------------------------------------------------------------------------

OpBuilder groupedConv(OT in, bool explicitPadding, OT filter = OT::TENSOR_FLOAT32) {
  OpBuilder b(Op::GROUPED_CONV_2D);
  const bool quant = in == kQ8 || in == kQ8S;
  add(b, in, {1, 3, 3, 4});
  if (filter == OT::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    b.perChannel({2, 1, 1, 2}, {0.5f, 0.25f}, 0);
  } else {
    add(b, quant ? in : filter == kF32 ? in : filter, {2, 1, 1, 2});
  }
  if (quant) {
    b.tensor(kI32, {2}, 0.25f, 0);
  } else {
    add(b, in, {2});
  }
  if (explicitPadding) b.i32(0).i32(0).i32(0).i32(0);
  else b.i32(1);
  b.i32(1).i32(1).i32(2).i32(0).boolean(false);
  addOut(b, in, {1, 3, 3, 2});
  return b;
}

TEST(GroupedConv2D, TypesAndLevels) {
  EXPECT_EQ(signatureLevel(groupedConv(kF32, false)), 3);
  EXPECT_EQ(signatureLevel(groupedConv(kF32, true)), 3);
  EXPECT_EQ(signatureLevel(groupedConv(kF16, false)), 3);
  EXPECT_EQ(signatureLevel(groupedConv(kQ8, true)), 3);
  EXPECT_EQ(signatureLevel(groupedConv(kQ8S, false)), 4);
  EXPECT_EQ(signatureLevel(groupedConv(kQ8, false, OT::TENSOR_QUANT8_SYMM_PER_CHANNEL)), 3);
  EXPECT_EQ(signatureLevel(groupedConv(kQ8S, true, OT::TENSOR_QUANT8_SYMM_PER_CHANNEL)), 4);
}

TEST(GroupedConv2D, Refusals) {
  auto extra = groupedConv(kF32, false);
  extra.i32(1);
  EXPECT_THAT(refusal(extra), HasSubstr("takes 9 or 12 inputs, not 10"));
  auto outputs = groupedConv(kF32, false);
  outputs.f32Out({1});
  EXPECT_THAT(refusal(outputs), HasSubstr("not 2"));
  auto ints = groupedConv(kI32, false);
  EXPECT_THAT(refusal(ints), HasSubstr("GROUPED_CONV_2D input 0 (input) must be"));
  auto filter = groupedConv(kF32, false, kF16);
  EXPECT_THAT(refusal(filter), HasSubstr("input 1 (filter) must be TENSOR_FLOAT32 like input 0"));
  auto perChannelFloat = groupedConv(kF32, false, OT::TENSOR_QUANT8_SYMM_PER_CHANNEL);
  EXPECT_THAT(refusal(perChannelFloat), HasSubstr("input 1 (filter)"));
  auto floatBias = groupedConv(kQ8, false);
  floatBias.input(2).type = static_cast<int32_t>(kF32);
  floatBias.input(2).scale = 0;
  EXPECT_THAT(refusal(floatBias), HasSubstr("input 2 (bias) must be TENSOR_INT32, not TENSOR_FLOAT32"));
  auto groups = groupedConv(kF32, false);
  groups.input(6).type = static_cast<int32_t>(OT::FLOAT32);
  EXPECT_THAT(refusal(groups), HasSubstr("input 6 (number of groups) must be INT32, not FLOAT32"));
  auto layout = groupedConv(kF32, true);
  layout.input(11).type = static_cast<int32_t>(OT::INT32);
  EXPECT_THAT(refusal(layout), HasSubstr("input 11 (layout (NCHW)) must be BOOL, not INT32"));
  auto out = groupedConv(kF32, false);
  out.output(0).type = static_cast<int32_t>(kF16);
  EXPECT_THAT(refusal(out), HasSubstr("output 0 must be TENSOR_FLOAT32"));
  OpBuilder wrongDim(Op::GROUPED_CONV_2D);
  add(wrongDim, kQ8, {1, 3, 3, 4});
  wrongDim.perChannel({2, 1, 1, 2}, {0.5f, 0.5f}, 3);
  wrongDim.tensor(kI32, {2}).i32(1).i32(1).i32(1).i32(2).i32(0).boolean(false);
  addOut(wrongDim, kQ8, {1, 3, 3, 2});
  EXPECT_THAT(refusal(wrongDim), HasSubstr("must be quantized along dimension 0"));
}

TEST(GroupedConv2D, RanksAndValuesWaitForFullCheck) {
  auto rank3 = groupedConv(kF32, false);
  rank3.input(0).dims = rank3.input(1).dims.subspan(0, 3);
  EXPECT_EQ(signatureLevel(rank3), 3);
  EXPECT_THAT(errorOf(validate(rank3.args())), HasSubstr("input 0 (input) must have rank 4"));
  auto zeroGroups = groupedConv(kF32, false);
  int32_t zero = 0;
  zeroGroups.input(6).data = &zero;
  EXPECT_EQ(signatureLevel(zeroGroups), 3);
  EXPECT_THAT(errorOf(validate(zeroGroups.args())), HasSubstr("input 6 (number of groups) must be >= 1"));
}

// ---- TRANSPOSE_CONV_2D --------------------------------------------------------------------------

OpBuilder transposeConv(OT in, bool explicitPadding, bool perChannel = false) {
  OpBuilder b(Op::TRANSPOSE_CONV_2D);
  const bool quant = in == kQ8 || in == kQ8S;
  add(b, in, {1, 3, 3, 2});
  if (perChannel) b.perChannel({4, 1, 1, 2}, {0.5f, 0.5f, 0.5f, 0.5f}, 0);
  else add(b, in, {4, 1, 1, 2});
  if (quant) b.tensor(kI32, {4}, perChannel ? 0.0f : 0.25f, 0);
  else add(b, in, {4});
  if (explicitPadding) b.i32(0).i32(0).i32(0).i32(0);
  else b.ints({1, 3, 3, 4}).i32(2);
  b.i32(1).i32(1).i32(0).boolean(false);
  addOut(b, in, {1, 3, 3, 4});
  return b;
}

TEST(TransposeConv2D, TypesAndLevels) {
  EXPECT_EQ(signatureLevel(transposeConv(kF32, false)), 3);
  EXPECT_EQ(signatureLevel(transposeConv(kF32, true)), 3);
  EXPECT_EQ(signatureLevel(transposeConv(kF16, true)), 3);
  EXPECT_EQ(signatureLevel(transposeConv(kQ8, false)), 3);
  EXPECT_EQ(signatureLevel(transposeConv(kQ8, true, true)), 3);
  EXPECT_EQ(signatureLevel(transposeConv(kQ8S, false, true)), 4);
  EXPECT_EQ(signatureLevel(transposeConv(kQ8S, true)), 4);
  auto perChannel = transposeConv(kQ8, true, true);
  EXPECT_TRUE(validate(perChannel.args())) << errorOf(validate(perChannel.args()));
}

TEST(TransposeConv2D, Refusals) {
  OpBuilder ten(Op::TRANSPOSE_CONV_2D);
  ten.f32({1, 3, 3, 2}).f32({4, 1, 1, 2}).f32({4}).i32(0).i32(0).i32(0).i32(0).i32(1).i32(1).i32(0).f32Out({});
  EXPECT_THAT(refusal(ten), HasSubstr("takes 9 or 11 inputs, not 10"));
  auto outputs = transposeConv(kF32, false);
  outputs.f32Out({});
  EXPECT_THAT(refusal(outputs), HasSubstr("takes 1 output, not 2"));
  EXPECT_THAT(refusal(transposeConv(OT::TENSOR_BOOL8, false)), HasSubstr("input 0 (input) must be"));
  auto shape = transposeConv(kF32, false);
  shape.input(3).type = static_cast<int32_t>(OT::INT32);
  shape.input(3).dims = {};
  EXPECT_THAT(refusal(shape), HasSubstr("input 3 (output shape) must be TENSOR_INT32, not INT32"));
  auto padding = transposeConv(kF32, true);
  padding.input(4).type = static_cast<int32_t>(OT::BOOL);
  EXPECT_THAT(refusal(padding), HasSubstr("input 4 (padding right) must be INT32, not BOOL"));
  auto layout = transposeConv(kF32, false);
  layout.input(8).type = static_cast<int32_t>(OT::INT32);
  EXPECT_THAT(refusal(layout), HasSubstr("input 8 (layout (NCHW)) must be BOOL"));
  auto bias = transposeConv(kF16, false);
  bias.input(2).type = static_cast<int32_t>(kF32);
  EXPECT_THAT(refusal(bias), HasSubstr("input 2 (bias) must be TENSOR_FLOAT16 like input 0"));
}

// ---- RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR -----------------------------------------------------

// flags: how many of layout, align corners, half pixel centers; scale: the float form.
OpBuilder resize(Op op, OT in, int flags, bool scale) {
  OpBuilder b(op);
  add(b, in, {1, 2, 2, 1});
  if (scale) {
    addFloat(b, in, 2.0f);
    addFloat(b, in, 2.0f);
  } else {
    b.i32(4).i32(4);
  }
  for (int i = 0; i < flags; ++i)
    b.boolean(false);
  addOut(b, in, {1, 4, 4, 1});
  return b;
}

TEST(Resize, BilinearLevels) {
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_BILINEAR, kF32, 0, false)), 1);
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_BILINEAR, kF32, 1, false)), 3);
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_BILINEAR, kF32, 0, true)), 3);
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_BILINEAR, kF32, 2, false)), 4);
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_BILINEAR, kF32, 3, true)), 4);
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_BILINEAR, kF16, 0, false)), 3);
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_BILINEAR, kF16, 1, true)), 3);
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_BILINEAR, kQ8, 0, false)), 3);
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_BILINEAR, kQ8, 1, true)), 3);
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_BILINEAR, kQ8S, 0, false)), 4);
}

TEST(Resize, NearestNeighborLevels) {
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_NEAREST_NEIGHBOR, kF32, 1, false)), 3);
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_NEAREST_NEIGHBOR, kF16, 1, true)), 3);
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_NEAREST_NEIGHBOR, kQ8, 1, true)), 3);
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_NEAREST_NEIGHBOR, kQ8S, 1, false)), 4);
  EXPECT_EQ(signatureLevel(resize(Op::RESIZE_NEAREST_NEIGHBOR, kF32, 3, false)), 4);
  EXPECT_THAT(refusal(resize(Op::RESIZE_NEAREST_NEIGHBOR, kF32, 0, false)),
              HasSubstr("takes 4, 5 or 6 inputs, not 3"));
}

TEST(Resize, Refusals) {
  auto many = resize(Op::RESIZE_BILINEAR, kF32, 3, false);
  many.boolean(false);
  EXPECT_THAT(refusal(many), HasSubstr("takes 3, 4, 5 or 6 inputs, not 7"));
  auto outputs = resize(Op::RESIZE_BILINEAR, kF32, 1, false);
  outputs.f32Out({});
  EXPECT_THAT(refusal(outputs), HasSubstr("not 2"));
  EXPECT_THAT(refusal(resize(Op::RESIZE_BILINEAR, kI32, 0, false)), HasSubstr("input 0 (input) must be"));
  // A float16 tensor takes FLOAT16 scales, not FLOAT32.
  OpBuilder f16(Op::RESIZE_BILINEAR);
  f16.tensor(kF16, {1, 2, 2, 1}).f32Scalar(2).f32Scalar(2).out(kF16, {});
  EXPECT_THAT(refusal(f16), HasSubstr("input 2 (output height) must be INT32 (a size) or FLOAT16"));
  // A quantized tensor takes FLOAT32 scales.
  OpBuilder q8(Op::RESIZE_BILINEAR);
  q8.q8({1, 2, 2, 1}, 0.5f, 0).f16Scalar(0x4000).f16Scalar(0x4000).out(kQ8, {}, 0.5f, 0);
  EXPECT_THAT(refusal(q8), HasSubstr("input 2 (output height)"));
  // Width and height of different kinds.
  OpBuilder mixed(Op::RESIZE_BILINEAR);
  mixed.f32({1, 2, 2, 1}).f32Scalar(2).i32(4).f32Out({});
  EXPECT_THAT(refusal(mixed), HasSubstr("input 1 (output width) must be INT32 like input 2"));
  auto flag = resize(Op::RESIZE_BILINEAR, kF32, 2, false);
  flag.input(4).type = static_cast<int32_t>(OT::INT32);
  EXPECT_THAT(refusal(flag), HasSubstr("input 4 (align corners) must be BOOL, not INT32"));
  auto out = resize(Op::RESIZE_BILINEAR, kF32, 0, false);
  out.output(0).type = static_cast<int32_t>(kF16);
  EXPECT_THAT(refusal(out), HasSubstr("output 0 must be TENSOR_FLOAT32, not TENSOR_FLOAT16"));
}

TEST(Resize, FullChecksAndShapes) {
  auto rank3 = resize(Op::RESIZE_BILINEAR, kF32, 0, false);
  rank3.input(0).dims = rank3.input(0).dims.subspan(0, 3);
  EXPECT_EQ(signatureLevel(rank3), 1);  // Android checks the rank at preparation
  EXPECT_THAT(errorOf(validate(rank3.args())), HasSubstr("must have rank 4"));

  OpBuilder both(Op::RESIZE_BILINEAR);
  both.f32({1, 2, 2, 1}).i32(4).i32(4).boolean(false).boolean(true).boolean(true).f32Out({1, 4, 4, 1});
  EXPECT_EQ(signatureLevel(both), 4);
  EXPECT_THAT(errorOf(validate(both.args())), HasSubstr("input 5 (half pixel centers) cannot be true"));

  OpBuilder nchw(Op::RESIZE_BILINEAR);
  nchw.f32({1, 3, 2, 5}).i32(7).i32(4).boolean(true).f32Out({});
  auto shapes = inferShapes(nchw.args());
  ASSERT_TRUE(shapes) << errorOf(shapes);
  EXPECT_EQ((*shapes)[0], (Shape{1, 3, 4, 7}));

  OpBuilder scaled(Op::RESIZE_NEAREST_NEIGHBOR);
  scaled.f32({2, 3, 5, 1}).f32Scalar(1.5f).f32Scalar(2.0f).boolean(false).f32Out({2, 6, 7, 1});
  EXPECT_TRUE(validate(scaled.args())) << errorOf(validate(scaled.args()));
  scaled.output(0).dims = scaled.input(0).dims;  // [2, 3, 5, 1] is not [2, 6, 7, 1]
  EXPECT_FALSE(validate(scaled.args()));
}

// ---- BATCH_MATMUL --------------------------------------------------------------------------------

OpBuilder batchMatmul(OT type) {
  OpBuilder b(Op::BATCH_MATMUL);
  add(b, type, {2, 3, 4});
  add(b, type, {2, 4, 5});
  b.boolean(false).boolean(false);
  addOut(b, type, {2, 3, 5});
  return b;
}

TEST(BatchMatmul, TypesAndRefusals) {
  for (OT t : {kF16, kF32, kQ8S, kI32})
    EXPECT_EQ(signatureLevel(batchMatmul(t)), 6) << static_cast<int>(t);
  EXPECT_THAT(refusal(batchMatmul(kQ8)), HasSubstr("input 0 (lhs) must be"));
  OpBuilder three(Op::BATCH_MATMUL);
  three.f32({2, 3}).f32({3, 2}).boolean(false).f32Out({});
  EXPECT_THAT(refusal(three), HasSubstr("takes 4 inputs, not 3"));
  auto outputs = batchMatmul(kF32);
  outputs.f32Out({});
  EXPECT_THAT(refusal(outputs), HasSubstr("not 2"));
  auto rhs = batchMatmul(kF32);
  rhs.input(1).type = static_cast<int32_t>(kF16);
  EXPECT_THAT(refusal(rhs), HasSubstr("input 1 (rhs) must be TENSOR_FLOAT32 like input 0"));
  auto adj = batchMatmul(kF32);
  adj.input(3).type = static_cast<int32_t>(OT::INT32);
  EXPECT_THAT(refusal(adj), HasSubstr("input 3 (adjoint rhs) must be BOOL, not INT32"));
  auto out = batchMatmul(kF32);
  out.output(0).type = static_cast<int32_t>(kI32);
  EXPECT_THAT(refusal(out), HasSubstr("output 0 must be TENSOR_FLOAT32"));
  auto rank1 = batchMatmul(kF32);
  rank1.input(0).dims = rank1.input(0).dims.subspan(0, 1);
  EXPECT_EQ(signatureLevel(rank1), 6);
  EXPECT_THAT(errorOf(validate(rank1.args())), HasSubstr("input 0 (lhs) must have rank 2 to 4"));
}

// ---- L2_NORMALIZATION, LOCAL_RESPONSE_NORMALIZATION ------------------------------------------------

OpBuilder l2(OT type, Shape dims, bool axis) {
  OpBuilder b(Op::L2_NORMALIZATION);
  add(b, type, dims);
  if (axis) b.i32(-1);
  const bool quant = type == kQ8 || type == kQ8S;
  b.out(type, dims, quant ? 1.0f / 128 : 0.0f, type == kQ8 ? 128 : 0);
  return b;
}

TEST(L2Normalization, Levels) {
  EXPECT_EQ(signatureLevel(l2(kF32, {1, 2, 2, 3}, false)), 1);
  EXPECT_EQ(signatureLevel(l2(kF32, {2, 3}, false)), 3);  // a rank other than 4
  EXPECT_EQ(signatureLevel(l2(kF32, {}, false)), 3);      // an unknown rank
  EXPECT_EQ(signatureLevel(l2(kF32, {1, 2, 2, 3}, true)), 3);
  EXPECT_EQ(signatureLevel(l2(kF16, {1, 2, 2, 3}, false)), 3);
  EXPECT_EQ(signatureLevel(l2(kQ8, {1, 2, 2, 3}, false)), 3);
  EXPECT_EQ(signatureLevel(l2(kQ8S, {1, 2, 2, 3}, false)), 4);
  // Android assigns level 3 for an axis or another rank, even over the signed type's level 4.
  EXPECT_EQ(signatureLevel(l2(kQ8S, {1, 2, 2, 3}, true)), 3);
  EXPECT_TRUE(validate(l2(kQ8, {2, 3}, true).args()));
}

TEST(L2Normalization, Refusals) {
  auto three = l2(kF32, {2, 3}, true);
  three.i32(0);
  EXPECT_THAT(refusal(three), HasSubstr("takes 1 or 2 inputs, not 3"));
  auto outputs = l2(kF32, {2, 3}, true);
  outputs.f32Out({});
  EXPECT_THAT(refusal(outputs), HasSubstr("not 2"));
  EXPECT_THAT(refusal(l2(kI32, {2, 3}, false)), HasSubstr("input 0 (input) must be"));
  auto axis = l2(kF32, {2, 3}, false);
  axis.f32Scalar(1);
  EXPECT_THAT(refusal(axis), HasSubstr("input 1 (axis) must be INT32, not FLOAT32"));
  EXPECT_THAT(refusal(l2(kF32, {1, 1, 1, 1, 2}, false)), HasSubstr("must have rank 1 to 4, not rank 5"));
  auto scale = l2(kQ8, {2, 3}, false);
  scale.output(0).scale = 0.5f;
  EXPECT_EQ(signatureLevel(scale), 3);  // the fixed output scale is checked at preparation
  EXPECT_THAT(errorOf(validate(scale.args())), HasSubstr("output 0 of type TENSOR_QUANT8_ASYMM must have"));
}

OpBuilder lrn(OT type, Shape dims, bool axis) {
  OpBuilder b(Op::LOCAL_RESPONSE_NORMALIZATION);
  add(b, type, dims);
  b.i32(1);
  addFloat(b, type, 1.0f);
  addFloat(b, type, 1.0f);
  addFloat(b, type, 0.5f);
  if (axis) b.i32(-1);
  addOut(b, type, dims);
  return b;
}

TEST(LocalResponseNormalization, LevelsAndRefusals) {
  EXPECT_EQ(signatureLevel(lrn(kF32, {1, 2, 2, 3}, false)), 1);
  EXPECT_EQ(signatureLevel(lrn(kF32, {1, 2, 2, 3}, true)), 3);
  EXPECT_EQ(signatureLevel(lrn(kF32, {2, 3}, false)), 3);
  EXPECT_EQ(signatureLevel(lrn(kF16, {1, 2, 2, 3}, false)), 3);
  EXPECT_THAT(refusal(lrn(kQ8, {1, 2, 2, 3}, false)), HasSubstr("input 0 (input) must be TENSOR_FLOAT16 or"));
  auto seven = lrn(kF32, {1, 2, 2, 3}, true);
  seven.i32(0);
  EXPECT_THAT(refusal(seven), HasSubstr("takes 5 or 6 inputs, not 7"));
  auto outputs = lrn(kF32, {1, 2, 2, 3}, true);
  outputs.f32Out({});
  EXPECT_THAT(refusal(outputs), HasSubstr("not 2"));
  OpBuilder f16Params(Op::LOCAL_RESPONSE_NORMALIZATION);
  f16Params.tensor(kF16, {1, 2, 2, 3}).i32(1).f32Scalar(1).f32Scalar(1).f32Scalar(1).out(kF16, {});
  EXPECT_THAT(refusal(f16Params), HasSubstr("input 2 (bias) must be FLOAT16, not FLOAT32"));
  auto radius = lrn(kF32, {1, 2, 2, 3}, false);
  radius.input(1).type = static_cast<int32_t>(OT::FLOAT32);
  EXPECT_THAT(refusal(radius), HasSubstr("input 1 (radius) must be INT32"));
  EXPECT_THAT(refusal(lrn(kF32, {1, 1, 2, 2, 3}, false)), HasSubstr("must have rank 1 to 4"));
  auto axis = lrn(kF32, {1, 2, 2, 3}, true);
  int32_t four = 4;
  axis.input(5).data = &four;
  EXPECT_TRUE(validateSignature(axis.args()));
  EXPECT_THAT(errorOf(validate(axis.args())), HasSubstr("input 5 (axis) must be in [-4, 4)"));
}

// ---- LOG_SOFTMAX, INSTANCE_NORMALIZATION ---------------------------------------------------------

OpBuilder logSoftmax(OT type) {
  OpBuilder b(Op::LOG_SOFTMAX);
  add(b, type, {2, 3});
  addFloat(b, type, 1.0f);
  b.i32(-1);
  addOut(b, type, {2, 3});
  return b;
}

TEST(LogSoftmax, LevelsAndRefusals) {
  EXPECT_EQ(signatureLevel(logSoftmax(kF32)), 3);
  EXPECT_EQ(signatureLevel(logSoftmax(kF16)), 3);
  EXPECT_THAT(refusal(logSoftmax(kQ8)), HasSubstr("input 0 (input) must be"));
  auto four = logSoftmax(kF32);
  four.i32(0);
  EXPECT_THAT(refusal(four), HasSubstr("takes 3 inputs, not 4"));
  auto outputs = logSoftmax(kF32);
  outputs.f32Out({});
  EXPECT_THAT(refusal(outputs), HasSubstr("not 2"));
  OpBuilder beta(Op::LOG_SOFTMAX);
  beta.tensor(kF16, {2, 3}).f32Scalar(1).i32(-1).out(kF16, {});
  EXPECT_THAT(refusal(beta), HasSubstr("input 1 (beta) must be FLOAT16, not FLOAT32"));
  auto axis = logSoftmax(kF32);
  int32_t two = 2;
  axis.input(2).data = &two;
  EXPECT_THAT(errorOf(validate(axis.args())), HasSubstr("input 2 (axis) must be in [-2, 2)"));
}

OpBuilder instanceNorm(OT type) {
  OpBuilder b(Op::INSTANCE_NORMALIZATION);
  add(b, type, {1, 2, 2, 3});
  addFloat(b, type, 1.0f);
  addFloat(b, type, 0.0f);
  addFloat(b, type, 0.001f);
  b.boolean(false);
  addOut(b, type, {1, 2, 2, 3});
  return b;
}

TEST(InstanceNormalization, LevelsAndRefusals) {
  EXPECT_EQ(signatureLevel(instanceNorm(kF32)), 3);
  EXPECT_EQ(signatureLevel(instanceNorm(kF16)), 3);
  EXPECT_THAT(refusal(instanceNorm(kQ8)), HasSubstr("input 0 (input) must be"));
  auto six = instanceNorm(kF32);
  six.i32(0);
  EXPECT_THAT(refusal(six), HasSubstr("takes 5 inputs, not 6"));
  auto outputs = instanceNorm(kF32);
  outputs.f32Out({});
  EXPECT_THAT(refusal(outputs), HasSubstr("not 2"));
  auto layout = instanceNorm(kF32);
  layout.input(4).type = static_cast<int32_t>(OT::INT32);
  EXPECT_THAT(refusal(layout), HasSubstr("input 4 (layout (NCHW)) must be BOOL"));
  auto rank2 = instanceNorm(kF32);
  rank2.input(0).dims = rank2.input(0).dims.subspan(0, 2);
  EXPECT_EQ(signatureLevel(rank2), 3);
  EXPECT_THAT(errorOf(validate(rank2.args())), HasSubstr("must have rank 4"));
}

// ---- ROI_ALIGN, ROI_POOLING, HEATMAP_MAX_KEYPOINT --------------------------------------------------

OT boxType(OT data) {
  return data == kQ8 || data == kQ8S ? kQ16A : data;
}

OpBuilder roi(Op op, OT type) {
  OpBuilder b(op);
  add(b, type, {1, 4, 4, 1});
  add(b, boxType(type), {2, 4});
  b.ints({0, 0}).i32(2).i32(2);
  addFloat(b, type, 1.0f);
  addFloat(b, type, 1.0f);
  if (op == Op::ROI_ALIGN) b.i32(0).i32(0);
  b.boolean(false);
  addOut(b, type, {2, 2, 2, 1});
  return b;
}

TEST(RoiOps, Levels) {
  for (Op op : {Op::ROI_ALIGN, Op::ROI_POOLING}) {
    EXPECT_EQ(signatureLevel(roi(op, kF32)), 3);
    EXPECT_EQ(signatureLevel(roi(op, kF16)), 3);
    EXPECT_EQ(signatureLevel(roi(op, kQ8)), 3);
    EXPECT_EQ(signatureLevel(roi(op, kQ8S)), 4);
    EXPECT_TRUE(validate(roi(op, kQ8).args()));
  }
}

TEST(RoiOps, Refusals) {
  auto extra = roi(Op::ROI_ALIGN, kF32);
  extra.i32(0);
  EXPECT_THAT(refusal(extra), HasSubstr("takes 10 inputs, not 11"));
  auto outputs = roi(Op::ROI_POOLING, kF32);
  outputs.f32Out({});
  EXPECT_THAT(refusal(outputs), HasSubstr("not 2"));
  EXPECT_THAT(refusal(roi(Op::ROI_ALIGN, kI32)), HasSubstr("input 0 (input) must be"));
  auto rois = roi(Op::ROI_ALIGN, kQ8);
  rois.input(1).type = static_cast<int32_t>(kQ8);
  EXPECT_THAT(refusal(rois), HasSubstr("input 1 (rois) must be TENSOR_QUANT16_ASYMM, not TENSOR_QUANT8_ASYMM"));
  OpBuilder ratio(Op::ROI_POOLING);
  ratio.q8({1, 4, 4, 1}, 0.5f, 0).tensor(kQ16A, {2, 4}, 0.125f, 0).ints({0, 0}).i32(2).i32(2);
  ratio.f16Scalar(0x3c00).f16Scalar(0x3c00).boolean(false).out(kQ8, {}, 0.5f, 0);
  EXPECT_THAT(refusal(ratio), HasSubstr("input 5 (height ratio) must be FLOAT32, not FLOAT16"));
  auto sampling = roi(Op::ROI_ALIGN, kF32);
  sampling.input(8).type = static_cast<int32_t>(OT::FLOAT32);
  EXPECT_THAT(refusal(sampling), HasSubstr("input 8 (width sampling ratio) must be INT32"));
  auto layout = roi(Op::ROI_POOLING, kF32);
  layout.input(7).type = static_cast<int32_t>(OT::INT32);
  EXPECT_THAT(refusal(layout), HasSubstr("input 7 (layout (NCHW)) must be BOOL"));
  auto roiScale = roi(Op::ROI_ALIGN, kQ8);
  roiScale.input(1).scale = 0.25f;
  EXPECT_EQ(signatureLevel(roiScale), 3);
  EXPECT_THAT(errorOf(validate(roiScale.args())), HasSubstr("must have scale 0.125 and zero point 0"));
  auto rank = roi(Op::ROI_ALIGN, kF32);
  rank.input(1).dims = rank.input(1).dims.subspan(0, 1);
  EXPECT_EQ(signatureLevel(rank), 3);
  EXPECT_THAT(errorOf(validate(rank.args())), HasSubstr("input 1 (rois) must have rank 2"));
}

OpBuilder heatmap(OT type) {
  OpBuilder b(Op::HEATMAP_MAX_KEYPOINT);
  add(b, type, {2, 4, 4, 3});
  add(b, boxType(type), {2, 4});
  b.boolean(false);
  addOut(b, type, {2, 3});
  addOut(b, boxType(type), {2, 3, 2});
  return b;
}

TEST(HeatmapMaxKeypoint, LevelsAndRefusals) {
  EXPECT_EQ(signatureLevel(heatmap(kF32)), 3);
  EXPECT_EQ(signatureLevel(heatmap(kF16)), 3);
  EXPECT_EQ(signatureLevel(heatmap(kQ8)), 3);
  EXPECT_EQ(signatureLevel(heatmap(kQ8S)), 4);
  EXPECT_THAT(refusal(heatmap(kI32)), HasSubstr("input 0 (heatmap) must be"));
  auto four = heatmap(kF32);
  four.boolean(false);
  EXPECT_THAT(refusal(four), HasSubstr("takes 3 inputs, not 4"));
  OpBuilder oneOut(Op::HEATMAP_MAX_KEYPOINT);
  oneOut.f32({2, 4, 4, 3}).f32({2, 4}).boolean(false).f32Out({});
  EXPECT_THAT(refusal(oneOut), HasSubstr("takes 2 outputs, not 1"));
  auto keypoints = heatmap(kQ8);
  keypoints.output(1).type = static_cast<int32_t>(kQ8);
  keypoints.output(1).scale = 0.5f;
  EXPECT_THAT(refusal(keypoints), HasSubstr("output 1 must be TENSOR_QUANT16_ASYMM, not TENSOR_QUANT8_ASYMM"));
  auto layout = heatmap(kF32);
  layout.input(2).type = static_cast<int32_t>(OT::INT32);
  EXPECT_THAT(refusal(layout), HasSubstr("input 2 (layout (NCHW)) must be BOOL"));
}

// ---- AXIS_ALIGNED_BBOX_TRANSFORM, BOX_WITH_NMS_LIMIT, GENERATE_PROPOSALS, DETECTION_POSTPROCESSING ---

OpBuilder bboxTransform(OT rois, OT deltas) {
  OpBuilder b(Op::AXIS_ALIGNED_BBOX_TRANSFORM);
  add(b, rois, {2, 4});
  add(b, deltas, {2, 8});
  b.ints({0, 0});
  add(b, rois, {1, 2});
  addOut(b, rois, {2, 8});
  return b;
}

TEST(AxisAlignedBboxTransform, LevelsAndRefusals) {
  EXPECT_EQ(signatureLevel(bboxTransform(kF32, kF32)), 3);
  EXPECT_EQ(signatureLevel(bboxTransform(kF16, kF16)), 3);
  EXPECT_EQ(signatureLevel(bboxTransform(kQ16A, kQ8)), 3);
  EXPECT_EQ(signatureLevel(bboxTransform(kQ16A, kQ8S)), 3);  // Android gives level 3 to the signed deltas too
  EXPECT_THAT(refusal(bboxTransform(kQ8, kQ8)), HasSubstr("input 0 (rois) must be"));
  EXPECT_THAT(refusal(bboxTransform(kQ16A, kQ16A)),
              HasSubstr("input 1 (deltas) must be TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED"));
  EXPECT_THAT(refusal(bboxTransform(kF32, kF16)), HasSubstr("input 1 (deltas) must be TENSOR_FLOAT32 like"));
  auto five = bboxTransform(kF32, kF32);
  five.i32(0);
  EXPECT_THAT(refusal(five), HasSubstr("takes 4 inputs, not 5"));
  auto outputs = bboxTransform(kF32, kF32);
  outputs.f32Out({});
  EXPECT_THAT(refusal(outputs), HasSubstr("not 2"));
  auto batches = bboxTransform(kF32, kF32);
  batches.input(2).type = static_cast<int32_t>(kF32);
  EXPECT_THAT(refusal(batches), HasSubstr("input 2 (batch split) must be TENSOR_INT32"));
  auto rank = bboxTransform(kF32, kF32);
  rank.input(0).dims = rank.input(2).dims;
  EXPECT_EQ(signatureLevel(rank), 3);
  EXPECT_THAT(errorOf(validate(rank.args())), HasSubstr("input 0 (rois) must have rank 2"));
}

OpBuilder boxNms(OT type) {
  OpBuilder b(Op::BOX_WITH_NMS_LIMIT);
  add(b, type, {3, 2});
  add(b, boxType(type), {3, 8});
  b.ints({0, 0, 0});
  addFloat(b, type, 0.1f);
  b.i32(-1).i32(0);
  addFloat(b, type, 0.5f);
  addFloat(b, type, 1.0f);
  addFloat(b, type, 0.1f);
  addOut(b, type, {});
  addOut(b, boxType(type), {});
  b.out(kI32, {}).out(kI32, {});
  return b;
}

TEST(BoxWithNmsLimit, LevelsAndRefusals) {
  EXPECT_EQ(signatureLevel(boxNms(kF32)), 3);
  EXPECT_EQ(signatureLevel(boxNms(kF16)), 3);
  EXPECT_EQ(signatureLevel(boxNms(kQ8)), 3);
  EXPECT_EQ(signatureLevel(boxNms(kQ8S)), 4);
  EXPECT_THAT(refusal(boxNms(kI32)), HasSubstr("input 0 (scores) must be"));
  auto ten = boxNms(kF32);
  ten.i32(0);
  EXPECT_THAT(refusal(ten), HasSubstr("takes 9 inputs, not 10"));
  auto five = boxNms(kF32);
  five.out(kI32, {});
  EXPECT_THAT(refusal(five), HasSubstr("takes 4 outputs, not 5"));
  auto kernel = boxNms(kF32);
  kernel.input(5).type = static_cast<int32_t>(OT::FLOAT32);
  EXPECT_THAT(refusal(kernel), HasSubstr("input 5 (NMS kernel) must be INT32, not FLOAT32"));
  auto classes = boxNms(kF32);
  classes.output(2).type = static_cast<int32_t>(kF32);
  EXPECT_THAT(refusal(classes), HasSubstr("output 2 must be TENSOR_INT32, not TENSOR_FLOAT32"));
}

OpBuilder proposals(OT type) {
  const bool quant = type == kQ8 || type == kQ8S;
  OpBuilder b(Op::GENERATE_PROPOSALS);
  add(b, type, {1, 2, 2, 2});
  add(b, type, {1, 2, 2, 8});
  add(b, quant ? kQ16S : type, {2, 4});
  add(b, boxType(type), {1, 2});
  addFloat(b, type, 4.0f);
  addFloat(b, type, 4.0f);
  b.i32(-1).i32(-1);
  addFloat(b, type, 0.5f);
  addFloat(b, type, 1.0f);
  b.boolean(false);
  addOut(b, type, {});
  addOut(b, boxType(type), {});
  b.out(kI32, {});
  return b;
}

TEST(GenerateProposals, LevelsAndRefusals) {
  EXPECT_EQ(signatureLevel(proposals(kF32)), 3);
  EXPECT_EQ(signatureLevel(proposals(kF16)), 3);
  EXPECT_EQ(signatureLevel(proposals(kQ8)), 3);
  EXPECT_EQ(signatureLevel(proposals(kQ8S)), 4);
  EXPECT_THAT(refusal(proposals(kI32)), HasSubstr("input 0 (scores) must be"));
  auto twelve = proposals(kF32);
  twelve.boolean(false);
  EXPECT_THAT(refusal(twelve), HasSubstr("takes 11 inputs, not 12"));
  auto four = proposals(kF32);
  four.out(kI32, {});
  EXPECT_THAT(refusal(four), HasSubstr("takes 3 outputs, not 4"));
  auto anchors = proposals(kQ8);
  anchors.input(2).type = static_cast<int32_t>(kQ16A);
  anchors.input(2).scale = 0.125f;
  EXPECT_THAT(refusal(anchors), HasSubstr("input 2 (anchors) must be TENSOR_QUANT16_SYMM, not TENSOR_QUANT16_ASYMM"));
  auto layout = proposals(kF32);
  layout.input(10).type = static_cast<int32_t>(OT::INT32);
  EXPECT_THAT(refusal(layout), HasSubstr("input 10 (layout (NCHW)) must be BOOL"));
  auto rank = proposals(kF32);
  rank.input(0).dims = rank.input(2).dims;
  EXPECT_EQ(signatureLevel(rank), 3);
  EXPECT_THAT(errorOf(validate(rank.args())), HasSubstr("input 0 (scores) must have rank 4"));
}

OpBuilder detection(OT type) {
  OpBuilder b(Op::DETECTION_POSTPROCESSING);
  add(b, type, {1, 3, 2});
  add(b, type, {1, 3, 4});
  add(b, type, {3, 4});
  for (int i = 0; i < 4; ++i)
    addFloat(b, type, 10.0f);
  b.boolean(false).i32(3).i32(1).i32(1);
  addFloat(b, type, 0.0f);
  addFloat(b, type, 0.5f);
  b.boolean(false);
  addOut(b, type, {});
  addOut(b, type, {});
  b.out(kI32, {}).out(kI32, {});
  return b;
}

TEST(DetectionPostprocessing, LevelsAndRefusals) {
  EXPECT_EQ(signatureLevel(detection(kF32)), 3);
  EXPECT_EQ(signatureLevel(detection(kF16)), 3);
  EXPECT_THAT(refusal(detection(kQ8)), HasSubstr("input 0 (scores) must be TENSOR_FLOAT16 or TENSOR_FLOAT32"));
  auto fifteen = detection(kF32);
  fifteen.boolean(false);
  EXPECT_THAT(refusal(fifteen), HasSubstr("takes 14 inputs, not 15"));
  auto five = detection(kF32);
  five.out(kI32, {});
  EXPECT_THAT(refusal(five), HasSubstr("takes 4 outputs, not 5"));
  auto regular = detection(kF32);
  regular.input(7).type = static_cast<int32_t>(OT::INT32);
  EXPECT_THAT(refusal(regular), HasSubstr("input 7 (use regular NMS) must be BOOL, not INT32"));
  auto boxes = detection(kF32);
  boxes.output(1).type = static_cast<int32_t>(kF16);
  EXPECT_THAT(refusal(boxes), HasSubstr("output 1 must be TENSOR_FLOAT32, not TENSOR_FLOAT16"));
}

// ---- LSH_PROJECTION, RANDOM_MULTINOMIAL ----------------------------------------------------------

OpBuilder lsh(OT hash, OT input, int32_t type = 2) {
  OpBuilder b(Op::LSH_PROJECTION);
  add(b, hash, {4, 2});
  add(b, input, {3, 2});
  if (type == 2) add(b, hash, {3});
  else b.omitted(hash, {3});
  b.i32(type).out(kI32, {});
  return b;
}

TEST(LshProjection, LevelsAndRefusals) {
  for (OT input : {kF16, kF32, kI32, kQ8}) {
    EXPECT_EQ(signatureLevel(lsh(kF32, input)), 1);
    EXPECT_EQ(signatureLevel(lsh(kF16, input)), 3);
  }
  EXPECT_EQ(signatureLevel(lsh(kF32, kI32, 3)), 1);
  EXPECT_TRUE(validate(lsh(kF32, kI32, 1).args()));
  EXPECT_THAT(refusal(lsh(kF32, kQ8S)), HasSubstr("input 1 (input) must be"));
  EXPECT_THAT(refusal(lsh(kI32, kF32)), HasSubstr("input 0 (hash) must be TENSOR_FLOAT16 or TENSOR_FLOAT32"));
  // The weight has the hash's type, even when omitted.
  OpBuilder weight(Op::LSH_PROJECTION);
  weight.f32({4, 2}).f32({3, 2}).omitted(kF16, {3}).i32(1).out(kI32, {});
  EXPECT_THAT(refusal(weight), HasSubstr("input 2 (weight) must be TENSOR_FLOAT32, not TENSOR_FLOAT16"));
  auto five = lsh(kF32, kF32);
  five.i32(0);
  EXPECT_THAT(refusal(five), HasSubstr("takes 4 inputs, not 5"));
  auto outputs = lsh(kF32, kF32);
  outputs.out(kI32, {});
  EXPECT_THAT(refusal(outputs), HasSubstr("not 2"));
  auto type = lsh(kF32, kF32);
  type.input(3).type = static_cast<int32_t>(OT::FLOAT32);
  EXPECT_THAT(refusal(type), HasSubstr("input 3 (type) must be INT32, not FLOAT32"));
  auto out = lsh(kF32, kF32);
  out.output(0).type = static_cast<int32_t>(kF32);
  EXPECT_THAT(refusal(out), HasSubstr("output 0 must be TENSOR_INT32, not TENSOR_FLOAT32"));
  EXPECT_THAT(errorOf(validate(lsh(kF32, kF32, 4).args())), HasSubstr("input 3 (type) must be 1"));
  EXPECT_THAT(errorOf(validate(lsh(kF32, kF32, 0).args())), HasSubstr("input 3 (type)"));
  // A DENSE weight holds one value per input row (3 here), checked with the full validation.
  OpBuilder rows(Op::LSH_PROJECTION);
  rows.f32({4, 2}).f32({3, 2}).f32({4}).i32(2).out(kI32, {});
  EXPECT_EQ(signatureLevel(rows), 1);
  EXPECT_THAT(errorOf(validate(rows.args())),
              HasSubstr("input 2 (weight) must hold one value per row of input 1 (3), not 4"));
}

// Output: 4 hash functions of 2 bits each give 8 bits (DENSE) or 4 signatures (SPARSE).
TEST(LshProjection, OutputShape) {
  auto dense = inferShapes(lsh(kF32, kF32, 2).args());
  ASSERT_TRUE(dense.has_value());
  EXPECT_EQ((*dense)[0], (Shape{8}));
  auto sparse = inferShapes(lsh(kF32, kI32, 3).args());
  ASSERT_TRUE(sparse.has_value());
  EXPECT_EQ((*sparse)[0], (Shape{4}));
}

OpBuilder multinomial(OT type) {
  OpBuilder b(Op::RANDOM_MULTINOMIAL);
  add(b, type, {2, 5});
  b.i32(3).ints({1, 2}).out(kI32, {2, 3});
  return b;
}

TEST(RandomMultinomial, LevelsAndRefusals) {
  EXPECT_EQ(signatureLevel(multinomial(kF32)), 3);
  EXPECT_EQ(signatureLevel(multinomial(kF16)), 3);
  EXPECT_THAT(refusal(multinomial(kQ8)), HasSubstr("input 0 (input) must be TENSOR_FLOAT16 or TENSOR_FLOAT32"));
  auto four = multinomial(kF32);
  four.i32(0);
  EXPECT_THAT(refusal(four), HasSubstr("takes 3 inputs, not 4"));
  auto outputs = multinomial(kF32);
  outputs.out(kI32, {});
  EXPECT_THAT(refusal(outputs), HasSubstr("not 2"));
  auto seeds = multinomial(kF32);
  seeds.input(2).type = static_cast<int32_t>(OT::INT32);
  seeds.input(2).dims = {};
  seeds.input(2).data = nullptr;
  seeds.input(2).length = 0;
  EXPECT_THAT(refusal(seeds), HasSubstr("input 2 (seeds) must be TENSOR_INT32, not INT32"));
  auto out = multinomial(kF32);
  out.output(0).type = static_cast<int32_t>(kF32);
  EXPECT_THAT(refusal(out), HasSubstr("output 0 must be TENSOR_INT32"));
  auto rank = multinomial(kF32);
  rank.input(0).dims = rank.input(0).dims.subspan(0, 1);
  EXPECT_EQ(signatureLevel(rank), 3);
  EXPECT_THAT(errorOf(validate(rank.args())), HasSubstr("input 0 (input) must have rank 2"));
}

}  // namespace
}  // namespace nnrt::ops::testing
