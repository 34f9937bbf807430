// RESHAPE, CONCATENATION, SQUEEZE, TRANSPOSE, PAD and MEAN: parameters known and not yet known.
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

// ---- RESHAPE ----------------------------------------------------------------------------------

OpBuilder reshape(Shape in, std::vector<int32_t> shape) {
  OpBuilder op(Op::RESHAPE);
  op.f32(std::move(in)).ints(std::move(shape)).f32Out({});
  return op;
}

TEST(Reshape, ConstantShapeWithOneWildcard) {
  EXPECT_EQ(onlyShape(reshape({2, 3, 4}, {-1, 4})), (Shape{6, 4}));
  EXPECT_EQ(onlyShape(reshape({2, 3, 4}, {4, 3, 2})), (Shape{4, 3, 2}));
  EXPECT_EQ(onlyShape(reshape({2, 3, 4}, {-1})), (Shape{24}));
  EXPECT_TRUE(validate(reshape({2, 3, 4}, {-1, 4}).args()));
  // An unknown input dimension leaves the wildcard unknown.
  EXPECT_EQ(onlyShape(reshape({0, 3, 4}, {-1, 12})), (Shape{0, 12}));
}

TEST(Reshape, RuntimeShapeGivesRankOnly) {
  OpBuilder op(Op::RESHAPE);
  op.f32({2, 3, 4}).tensor(OT::TENSOR_INT32, {3}).f32Out({});
  EXPECT_TRUE(validate(op.args()));
  EXPECT_EQ(onlyShape(op), (Shape{0, 0, 0}));
  OpBuilder unknownLength(Op::RESHAPE);
  unknownLength.f32({2, 3, 4}).tensor(OT::TENSOR_INT32, {0}).f32Out({});
  EXPECT_EQ(onlyShape(unknownLength), Shape{});
}

TEST(Reshape, RefusesBadShapes) {
  EXPECT_EQ(errorOf(validate(reshape({2, 3, 4}, {5, -1}).args())),
            "RESHAPE input 1 (shape) cannot reshape [2, 3, 4] (24 elements) with -1 into a multiple of 5");
  EXPECT_EQ(errorOf(validate(reshape({2, 3, 4}, {5, 5}).args())),
            "RESHAPE input 1 (shape) [5, 5] has 25 elements, but the input [2, 3, 4] has 24");
  EXPECT_EQ(errorOf(validate(reshape({2, 3, 4}, {-1, -1}).args())),
            "RESHAPE input 1 (shape) may contain -1 only once, not in 0 and 1");
  EXPECT_EQ(errorOf(validate(reshape({2, 3, 4}, {0, 24}).args())),
            "RESHAPE input 1 (shape) entries must be > 0 or -1, not 0 at 0");
  OpBuilder type(Op::RESHAPE);
  type.f32({4}).tensor(OT::TENSOR_FLOAT32, {1}).f32Out({4});
  EXPECT_EQ(errorOf(validate(type.args())),
            "RESHAPE input 1 (shape) must be TENSOR_INT32, not TENSOR_FLOAT32");
  OpBuilder quant(Op::RESHAPE);
  quant.q8({4}, 0.5f, 3).ints({2, 2}).out(OT::TENSOR_QUANT8_ASYMM, {2, 2}, 0.5f, 4);
  EXPECT_THAT(errorOf(validate(quant.args())),
              HasSubstr("RESHAPE output 0 must have the scale and zero point of input 0"));
}

// ---- CONCATENATION ----------------------------------------------------------------------------

TEST(Concatenation, SumsTheAxis) {
  OpBuilder op(Op::CONCATENATION);
  op.f32({2, 3}).f32({2, 5}).f32({2, 1}).i32(1).f32Out({2, 9});
  EXPECT_TRUE(validate(op.args()));
  EXPECT_EQ(onlyShape(op), (Shape{2, 9}));

  OpBuilder negative(Op::CONCATENATION);
  negative.f32({4, 3}).f32({1, 3}).i32(-2).f32Out({});
  EXPECT_EQ(onlyShape(negative), (Shape{5, 3}));

  OpBuilder single(Op::CONCATENATION);
  single.f32({4, 3}).i32(0).f32Out({4, 3});
  EXPECT_TRUE(validate(single.args()));
}

TEST(Concatenation, UnknownDimensionsAndAxis) {
  OpBuilder op(Op::CONCATENATION);
  op.f32({0, 3}).f32({2, 0}).i32(1).f32Out({});
  EXPECT_EQ(onlyShape(op), (Shape{2, 0}));
  OpBuilder axis(Op::CONCATENATION);
  axis.f32({2, 3}).f32({2, 3}).unknownScalar(OT::INT32).f32Out({});
  EXPECT_EQ(onlyShape(axis), (Shape{0, 0}));
}

TEST(Concatenation, RefusesMismatches) {
  OpBuilder dims(Op::CONCATENATION);
  dims.f32({2, 3}).f32({3, 5}).i32(1).f32Out({});
  EXPECT_EQ(
      errorOf(validate(dims.args())),
      "CONCATENATION input 1 [3, 5] differs from the other inputs in dimension 0 (3 vs 2); only the axis "
      "dimension 1 may differ");
  OpBuilder rank(Op::CONCATENATION);
  rank.f32({2, 3}).f32({2, 3, 1}).i32(1).f32Out({});
  EXPECT_EQ(errorOf(validate(rank.args())), "CONCATENATION input 1 has rank 3, but input 0 has rank 2");
  OpBuilder type(Op::CONCATENATION);
  type.f32({2, 3}).tensor(OT::TENSOR_FLOAT16, {2, 3}).i32(1).f32Out({});
  EXPECT_EQ(errorOf(validate(type.args())),
            "CONCATENATION input 1 must be TENSOR_FLOAT32 like input 0, not TENSOR_FLOAT16");
  OpBuilder axis(Op::CONCATENATION);
  axis.f32({2, 3}).f32({2, 3}).i32(2).f32Out({});
  EXPECT_EQ(errorOf(validate(axis.args())),
            "CONCATENATION input 2 (axis) must be in [-2, 2) for input 0 of rank 2, not 2");
}

TEST(Concatenation, QuantizedInputsMayDifferInScale) {
  OpBuilder op(Op::CONCATENATION);
  op.q8({1, 2}, 0.5f, 10).q8({1, 2}, 0.25f, 0).i32(0).out(OT::TENSOR_QUANT8_ASYMM, {2, 2}, 1.0f, 3);
  EXPECT_TRUE(validate(op.args()));
}

// ---- SQUEEZE ----------------------------------------------------------------------------------

TEST(Squeeze, AllOnesOrTheGivenAxes) {
  OpBuilder all(Op::SQUEEZE);
  all.f32({1, 3, 1, 2}).omitted(OT::TENSOR_INT32).f32Out({3, 2});
  EXPECT_TRUE(validate(all.args()));
  EXPECT_EQ(onlyShape(all), (Shape{3, 2}));

  // Android takes exactly two inputs: the axes are omitted, not left out.
  OpBuilder oneInput(Op::SQUEEZE);
  oneInput.f32({1, 3, 1, 2}).f32Out({3, 2});
  EXPECT_EQ(errorOf(validate(oneInput.args())), "SQUEEZE takes 2 inputs, not 1");

  OpBuilder axes(Op::SQUEEZE);
  axes.f32({1, 3, 1, 2}).ints({2}).f32Out({});
  EXPECT_EQ(onlyShape(axes), (Shape{1, 3, 2}));

  OpBuilder negative(Op::SQUEEZE);
  negative.f32({1, 3, 1, 2}).ints({-4, -2}).f32Out({});
  EXPECT_EQ(onlyShape(negative), (Shape{3, 2}));

  OpBuilder ones(Op::SQUEEZE);
  ones.f32({1, 1}).omitted(OT::TENSOR_INT32).f32Out({});
  EXPECT_EQ(onlyShape(ones), (Shape{1}));
}

TEST(Squeeze, UnknownDimensionsWithoutAxesGiveUnknownRank) {
  OpBuilder op(Op::SQUEEZE);
  op.f32({1, 0, 2}).omitted(OT::TENSOR_INT32).f32Out({});
  EXPECT_EQ(onlyShape(op), Shape{});
  OpBuilder axes(Op::SQUEEZE);
  axes.f32({1, 0, 2}).ints({0}).f32Out({});
  EXPECT_EQ(onlyShape(axes), (Shape{0, 2}));
}

TEST(Squeeze, RefusesSqueezingASizeOtherThanOne) {
  OpBuilder op(Op::SQUEEZE);
  op.f32({1, 3, 1, 2}).ints({1}).f32Out({});
  EXPECT_EQ(errorOf(validate(op.args())),
            "SQUEEZE input 1 (axes) names dimension 1 of [1, 3, 1, 2], which is 3, not 1");
  OpBuilder range(Op::SQUEEZE);
  range.f32({1, 3}).ints({2}).f32Out({});
  EXPECT_EQ(errorOf(validate(range.args())),
            "SQUEEZE input 1 (axes) must be in [-2, 2) for input 0 of rank 2, not 2");
}

// ---- TRANSPOSE --------------------------------------------------------------------------------

TEST(Transpose, PermutationOrReversal) {
  OpBuilder op(Op::TRANSPOSE);
  op.f32({2, 3, 4}).ints({2, 0, 1}).f32Out({4, 2, 3});
  EXPECT_TRUE(validate(op.args()));
  EXPECT_EQ(onlyShape(op), (Shape{4, 2, 3}));

  OpBuilder reversed(Op::TRANSPOSE);
  reversed.f32({2, 3, 4}).omitted(OT::TENSOR_INT32).f32Out({});
  EXPECT_EQ(onlyShape(reversed), (Shape{4, 3, 2}));

  OpBuilder unknown(Op::TRANSPOSE);
  unknown.f32({2, 0}).omitted(OT::TENSOR_INT32).f32Out({});
  EXPECT_EQ(onlyShape(unknown), (Shape{0, 2}));

  OpBuilder oneInput(Op::TRANSPOSE);
  oneInput.f32({2, 0}).f32Out({});
  EXPECT_EQ(errorOf(validate(oneInput.args())), "TRANSPOSE takes 2 inputs, not 1");

  OpBuilder runtime(Op::TRANSPOSE);
  runtime.f32({2, 3, 4}).tensor(OT::TENSOR_INT32, {3}).f32Out({});
  EXPECT_EQ(onlyShape(runtime), (Shape{0, 0, 0}));
}

TEST(Transpose, RefusesBadPermutations) {
  OpBuilder repeat(Op::TRANSPOSE);
  repeat.f32({2, 3, 4}).ints({0, 0, 1}).f32Out({});
  EXPECT_EQ(errorOf(validate(repeat.args())),
            "TRANSPOSE input 1 (perm) must be a permutation of 0..2, entry 1 is 0");
  OpBuilder length(Op::TRANSPOSE);
  length.f32({2, 3, 4}).ints({1, 0}).f32Out({});
  EXPECT_EQ(errorOf(validate(length.args())),
            "TRANSPOSE input 1 (perm) has 2 entries, but input 0 [2, 3, 4] has rank 3");
}

// ---- PAD --------------------------------------------------------------------------------------

TEST(Pad, AddsBeforeAndAfter) {
  OpBuilder op(Op::PAD);
  op.f32({2, 3}).ints({1, 2, 0, 3}, {2, 2}).f32Out({3, 6});
  EXPECT_EQ(errorOf(validate(op.args())), "PAD output 0 is declared [3, 6], but its inputs give [5, 6]");
  EXPECT_EQ(onlyShape(op), (Shape{5, 6}));

  OpBuilder unknown(Op::PAD);
  unknown.f32({0, 3}).ints({1, 1, 2, 2}, {2, 2}).f32Out({});
  EXPECT_EQ(onlyShape(unknown), (Shape{0, 7}));

  OpBuilder runtime(Op::PAD);
  runtime.f32({2, 3}).tensor(OT::TENSOR_INT32, {2, 2}).f32Out({});
  EXPECT_TRUE(validate(runtime.args()));
  EXPECT_EQ(onlyShape(runtime), (Shape{0, 0}));
}

TEST(Pad, RefusesBadPaddings) {
  OpBuilder negative(Op::PAD);
  negative.f32({2, 3}).ints({1, 2, -1, 0}, {2, 2}).f32Out({});
  EXPECT_EQ(errorOf(validate(negative.args())),
            "PAD input 1 (paddings) must not be negative, found -1 for dimension 1");
  OpBuilder shape(Op::PAD);
  shape.f32({2, 3}).ints({1, 2, 3}, {3, 1}).f32Out({});
  EXPECT_EQ(errorOf(validate(shape.args())),
            "PAD input 1 (paddings) must have shape [2, 2] for input 0 [2, 3], not [3, 1]");
}

// ---- MEAN -------------------------------------------------------------------------------------

OpBuilder mean(Shape in, std::vector<int32_t> axes, int32_t keep) {
  OpBuilder op(Op::MEAN);
  op.f32(std::move(in)).ints(std::move(axes)).i32(keep).f32Out({});
  return op;
}

TEST(Mean, KeepDimsOrDrop) {
  EXPECT_EQ(onlyShape(mean({2, 3, 4}, {1}, 1)), (Shape{2, 1, 4}));
  EXPECT_EQ(onlyShape(mean({2, 3, 4}, {1}, 0)), (Shape{2, 4}));
  EXPECT_EQ(onlyShape(mean({2, 3, 4}, {-1, 0}, 0)), (Shape{3}));
  EXPECT_EQ(onlyShape(mean({2, 3, 4}, {0, 1, 2}, 0)), (Shape{1}));
  EXPECT_EQ(onlyShape(mean({2, 3, 4}, {0, 1, 2}, 5)), (Shape{1, 1, 1}));
  EXPECT_TRUE(validate(mean({2, 3, 4}, {1}, 1).args()));
}

TEST(Mean, UnknownParameters) {
  OpBuilder keep(Op::MEAN);
  keep.f32({2, 3, 4}).ints({1}).unknownScalar(OT::INT32).f32Out({});
  EXPECT_EQ(onlyShape(keep), Shape{});
  OpBuilder axes(Op::MEAN);
  axes.f32({2, 3, 4}).tensor(OT::TENSOR_INT32, {1}).i32(1).f32Out({});
  EXPECT_EQ(onlyShape(axes), (Shape{0, 0, 0}));
}

TEST(Mean, RefusesBadAxesAndTypes) {
  EXPECT_EQ(errorOf(validate(mean({2, 3, 4}, {3}, 0).args())),
            "MEAN input 1 (axes) must be in [-3, 3) for input 0 of rank 3, not 3");
  OpBuilder keep(Op::MEAN);
  keep.f32({2, 3}).ints({1}).boolean(true).f32Out({});
  EXPECT_EQ(errorOf(validate(keep.args())), "MEAN input 2 (keep_dims) must be INT32, not BOOL");
}

}  // namespace
}  // namespace nnrt::ops
