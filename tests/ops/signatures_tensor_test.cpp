// Signatures of the ops_tensor.cpp family: for every operation, a valid form per allowed operand type
// (with the feature level it needs) and the invalid variants Android refuses at addOperation.
#include <initializer_list>
#include <string>
#include <utility>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nnrt/driver/ops/operation.hpp"
#include "tests/ops/op_builder.hpp"

namespace nnrt::ops::testing {
namespace {

using ::testing::HasSubstr;
using OT = OperandType;
using Op = OperationType;

constexpr OT F16 = OT::TENSOR_FLOAT16;
constexpr OT F32 = OT::TENSOR_FLOAT32;
constexpr OT I32 = OT::TENSOR_INT32;
constexpr OT Q8 = OT::TENSOR_QUANT8_ASYMM;
constexpr OT Q8S = OT::TENSOR_QUANT8_ASYMM_SIGNED;
constexpr OT BOOL8 = OT::TENSOR_BOOL8;

float scaleOf(OT type) {
  return type == Q8 || type == Q8S ? 0.5f : 0.0f;
}

// A data tensor input / output of `type` (quantized types with scale 0.5 and zero point 0).
OpBuilder& data(OpBuilder& b, OT type, Shape dims) {
  return b.tensor(type, std::move(dims), scaleOf(type), 0);
}
OpBuilder& dataOut(OpBuilder& b, OT type, Shape dims) {
  return b.out(type, std::move(dims), scaleOf(type), 0);
}

using Make = OpBuilder (*)(OT type);

// Each type's form of the operation is accepted at the given feature level.
void expectLevels(Make make, std::initializer_list<std::pair<OT, int32_t>> levels) {
  for (const auto& [type, level] : levels) {
    SCOPED_TRACE(typeName(static_cast<int32_t>(type)));
    EXPECT_EQ(signatureLevel(make(type)), level);
  }
}

// Output i gets another type.
void setOutputType(OpBuilder& b, size_t i, OT type) {
  b.output(i).type = static_cast<int32_t>(type);
  b.output(i).scale = scaleOf(type);
}

// ---- BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND --------------------------------------------------------------

OpBuilder batchToSpace(OT type) {
  OpBuilder b(Op::BATCH_TO_SPACE_ND);
  data(b, type, {4, 2, 2, 1}).ints({2, 2});
  dataOut(b, type, {1, 4, 4, 1});
  return b;
}

OpBuilder batchToSpaceNchw(OT type) {
  OpBuilder b(Op::BATCH_TO_SPACE_ND);
  data(b, type, {4, 1, 2, 2}).ints({2, 2}).boolean(true);
  dataOut(b, type, {1, 1, 4, 4});
  return b;
}

TEST(TensorSignatures, BatchToSpaceLevels) {
  expectLevels(batchToSpace, {{F32, 2}, {Q8, 2}, {F16, 3}, {Q8S, 4}});
  expectLevels(batchToSpaceNchw, {{F32, 3}, {Q8, 3}, {F16, 3}, {Q8S, 4}});
}

TEST(TensorSignatures, BatchToSpaceRefusals) {
  OpBuilder oneInput(Op::BATCH_TO_SPACE_ND);
  oneInput.f32({4, 2, 2, 1}).f32Out({1, 4, 4, 1});
  EXPECT_THAT(signatureError(oneInput), HasSubstr("BATCH_TO_SPACE_ND takes 2 or 3 inputs, not 1"));

  OpBuilder twoOutputs = batchToSpace(F32);
  twoOutputs.f32Out({1, 4, 4, 1});
  EXPECT_THAT(signatureError(twoOutputs), HasSubstr("takes 1 output, not 2"));

  EXPECT_THAT(signatureError(batchToSpace(I32)), HasSubstr("BATCH_TO_SPACE_ND input 0 (input) must be"));

  OpBuilder floatBlock(Op::BATCH_TO_SPACE_ND);
  floatBlock.f32({4, 2, 2, 1}).f32({2}).f32Out({1, 4, 4, 1});
  EXPECT_THAT(signatureError(floatBlock),
              HasSubstr("input 1 (block sizes) must be TENSOR_INT32, not TENSOR_FLOAT32"));

  OpBuilder intLayout(Op::BATCH_TO_SPACE_ND);
  intLayout.f32({4, 2, 2, 1}).ints({2, 2}).i32(1).f32Out({1, 4, 4, 1});
  EXPECT_THAT(signatureError(intLayout), HasSubstr("input 2 (layout (NCHW)) must be BOOL, not INT32"));

  OpBuilder wrongOutput = batchToSpace(F32);
  setOutputType(wrongOutput, 0, F16);
  EXPECT_THAT(signatureError(wrongOutput), HasSubstr("output 0 must be TENSOR_FLOAT32 like input 0"));
}

TEST(TensorSignatures, BatchToSpaceRankIsCheckedWhenPrepared) {
  // Android's addOperation takes any rank; the rank-4 rule holds from preparation on.
  OpBuilder rank3(Op::BATCH_TO_SPACE_ND);
  rank3.f32({4, 2, 2}).ints({2, 2}).f32Out({1, 4, 4});
  EXPECT_EQ(signatureLevel(rank3), 2);
  EXPECT_THAT(fullError(rank3), HasSubstr("input 0 (input) must have rank 4, not rank 3"));

  EXPECT_EQ(fullError(batchToSpace(F32)), "");
  EXPECT_EQ(fullError(batchToSpaceNchw(F32)), "");

  OpBuilder wrongShape(Op::BATCH_TO_SPACE_ND);
  wrongShape.f32({4, 2, 2, 1}).ints({2, 2}).f32Out({1, 4, 2, 1});
  EXPECT_THAT(fullError(wrongShape), HasSubstr("output 0 is declared [1, 4, 2, 1]"));

  OpBuilder zeroBlock(Op::BATCH_TO_SPACE_ND);
  zeroBlock.f32({4, 2, 2, 1}).ints({0, 2}).f32Out({1, 4, 4, 1});
  EXPECT_EQ(signatureLevel(zeroBlock), 2);
  EXPECT_THAT(fullError(zeroBlock), HasSubstr("(block sizes) entries must be >= 1, not 0"));
}

OpBuilder spaceToBatch(OT type) {
  OpBuilder b(Op::SPACE_TO_BATCH_ND);
  data(b, type, {1, 4, 4, 1}).ints({2, 2}).ints({0, 0, 0, 0}, {2, 2});
  dataOut(b, type, {4, 2, 2, 1});
  return b;
}

OpBuilder spaceToBatchNchw(OT type) {
  OpBuilder b(Op::SPACE_TO_BATCH_ND);
  data(b, type, {1, 1, 4, 4}).ints({2, 2}).ints({0, 0, 0, 0}, {2, 2}).boolean(true);
  dataOut(b, type, {4, 1, 2, 2});
  return b;
}

TEST(TensorSignatures, SpaceToBatchLevels) {
  expectLevels(spaceToBatch, {{F32, 2}, {Q8, 2}, {F16, 3}, {Q8S, 4}});
  expectLevels(spaceToBatchNchw, {{F32, 3}, {Q8, 3}, {Q8S, 4}});
  // A quantized input whose zero point is not 0 pads with its logical zero since feature level 3.
  OpBuilder zeroPoint(Op::SPACE_TO_BATCH_ND);
  zeroPoint.q8({1, 4, 4, 1}, 0.5f, 128).ints({2, 2}).ints({0, 0, 0, 0}, {2, 2}).out(Q8, {4, 2, 2, 1}, 0.5f, 128);
  EXPECT_EQ(signatureLevel(zeroPoint), 3);
}

TEST(TensorSignatures, SpaceToBatchRefusals) {
  OpBuilder twoInputs(Op::SPACE_TO_BATCH_ND);
  twoInputs.f32({1, 4, 4, 1}).ints({2, 2}).f32Out({4, 2, 2, 1});
  EXPECT_THAT(signatureError(twoInputs), HasSubstr("SPACE_TO_BATCH_ND takes 3 or 4 inputs, not 2"));

  OpBuilder noOutput(Op::SPACE_TO_BATCH_ND);
  noOutput.f32({1, 4, 4, 1}).ints({2, 2}).ints({0, 0, 0, 0}, {2, 2});
  EXPECT_THAT(signatureError(noOutput), HasSubstr("takes 1 output, not 0"));

  EXPECT_THAT(signatureError(spaceToBatch(BOOL8)), HasSubstr("input 0 (input) must be"));

  OpBuilder floatPaddings(Op::SPACE_TO_BATCH_ND);
  floatPaddings.f32({1, 4, 4, 1}).ints({2, 2}).f32({2, 2}).f32Out({4, 2, 2, 1});
  EXPECT_THAT(signatureError(floatPaddings),
              HasSubstr("input 2 (paddings) must be TENSOR_INT32, not TENSOR_FLOAT32"));

  EXPECT_EQ(fullError(spaceToBatch(F32)), "");
  EXPECT_EQ(fullError(spaceToBatchNchw(Q8)), "");
  OpBuilder badPadding(Op::SPACE_TO_BATCH_ND);
  badPadding.f32({1, 4, 4, 1}).ints({2, 2}).ints({1, 0, 0, 0}, {2, 2}).f32Out({4, 2, 2, 1});
  EXPECT_THAT(fullError(badPadding), HasSubstr("not a multiple of its block size 2"));
}

// ---- DEPTH_TO_SPACE, SPACE_TO_DEPTH ----------------------------------------------------------------

OpBuilder depthToSpace(OT type) {
  OpBuilder b(Op::DEPTH_TO_SPACE);
  data(b, type, {1, 1, 1, 4}).i32(2);
  dataOut(b, type, {1, 2, 2, 1});
  return b;
}

OpBuilder spaceToDepth(OT type) {
  OpBuilder b(Op::SPACE_TO_DEPTH);
  data(b, type, {1, 2, 2, 1}).i32(2);
  dataOut(b, type, {1, 1, 1, 4});
  return b;
}

OpBuilder spaceToDepthNchw(OT type) {
  OpBuilder b(Op::SPACE_TO_DEPTH);
  data(b, type, {1, 1, 2, 2}).i32(2).boolean(true);
  dataOut(b, type, {1, 4, 1, 1});
  return b;
}

TEST(TensorSignatures, DepthSpaceLevels) {
  expectLevels(depthToSpace, {{F32, 1}, {Q8, 1}, {F16, 3}, {Q8S, 4}});
  expectLevels(spaceToDepth, {{F32, 1}, {Q8, 1}, {F16, 3}, {Q8S, 4}});
  expectLevels(spaceToDepthNchw, {{F32, 3}, {Q8, 3}, {Q8S, 4}});
}

TEST(TensorSignatures, DepthSpaceRefusals) {
  OpBuilder fourInputs = depthToSpace(F32);
  fourInputs.boolean(false).boolean(false);
  EXPECT_THAT(signatureError(fourInputs), HasSubstr("DEPTH_TO_SPACE takes 2 or 3 inputs, not 4"));

  OpBuilder twoOutputs = spaceToDepth(F32);
  twoOutputs.f32Out({1, 1, 1, 4});
  EXPECT_THAT(signatureError(twoOutputs), HasSubstr("SPACE_TO_DEPTH takes 1 output, not 2"));

  EXPECT_THAT(signatureError(depthToSpace(I32)), HasSubstr("DEPTH_TO_SPACE input 0 (input) must be"));

  OpBuilder floatBlock(Op::DEPTH_TO_SPACE);
  floatBlock.f32({1, 1, 1, 4}).f32Scalar(2.0f).f32Out({1, 2, 2, 1});
  EXPECT_THAT(signatureError(floatBlock), HasSubstr("input 1 (block size) must be INT32, not FLOAT32"));

  OpBuilder rank2(Op::SPACE_TO_DEPTH);
  rank2.f32({2, 2}).i32(2).f32Out({1, 4});
  EXPECT_EQ(signatureLevel(rank2), 1);
  EXPECT_THAT(fullError(rank2), HasSubstr("must have rank 4, not rank 2"));

  EXPECT_EQ(fullError(depthToSpace(Q8)), "");
  EXPECT_EQ(fullError(spaceToDepthNchw(F32)), "");
  OpBuilder zeroBlock(Op::DEPTH_TO_SPACE);
  zeroBlock.f32({1, 1, 1, 4}).i32(0).f32Out({1, 2, 2, 1});
  EXPECT_THAT(fullError(zeroBlock), HasSubstr("(block size) must be >= 1, not 0"));
  OpBuilder indivisible(Op::DEPTH_TO_SPACE);
  indivisible.f32({1, 1, 1, 6}).i32(2).f32Out({1, 2, 2, 1});
  EXPECT_THAT(fullError(indivisible), HasSubstr("must be a multiple of 4"));
  OpBuilder otherQuant = depthToSpace(Q8);
  otherQuant.output(0).scale = 0.25f;
  EXPECT_EQ(signatureLevel(otherQuant), 1);
  EXPECT_THAT(fullError(otherQuant), HasSubstr("must have the scale and zero point of input 0"));
}

TEST(TensorSignatures, OmittedLayoutFlag) {
  // An omitted layout flag still counts as the feature level 3 form and keeps its declared type.
  OpBuilder omitted(Op::DEPTH_TO_SPACE);
  omitted.f32({1, 1, 1, 4}).i32(2).omitted(OT::BOOL).f32Out({1, 2, 2, 1});
  EXPECT_EQ(signatureLevel(omitted), 3);
  EXPECT_EQ(fullError(omitted), "");  // NHWC by default

  OpBuilder omittedInt(Op::SPACE_TO_BATCH_ND);
  omittedInt.f32({1, 4, 4, 1}).ints({2, 2}).ints({0, 0, 0, 0}, {2, 2}).omitted(OT::INT32).f32Out({4, 2, 2, 1});
  EXPECT_THAT(signatureError(omittedInt), HasSubstr("input 3 (layout (NCHW)) must be BOOL, not INT32"));

  OpBuilder omittedBlock(Op::DEPTH_TO_SPACE);
  omittedBlock.f32({1, 1, 1, 4}).omitted(OT::INT32).f32Out({1, 2, 2, 1});
  EXPECT_EQ(signatureError(omittedBlock), "");  // as Android: the model is built, the device refuses
  EXPECT_THAT(fullError(omittedBlock), HasSubstr("input 1 is omitted, but it is not an optional input"));
}

// ---- STRIDED_SLICE, SLICE ------------------------------------------------------------------------------

OpBuilder stridedSlice(OT type) {
  OpBuilder b(Op::STRIDED_SLICE);
  data(b, type, {2, 3}).ints({0, 0}).ints({2, 3}).ints({1, 2}).i32(0).i32(0).i32(0);
  dataOut(b, type, {2, 2});
  return b;
}

TEST(TensorSignatures, StridedSlice) {
  expectLevels(stridedSlice, {{F32, 2}, {Q8, 2}, {F16, 3}, {Q8S, 4}});
  EXPECT_EQ(fullError(stridedSlice(F32)), "");

  OpBuilder sixInputs(Op::STRIDED_SLICE);
  sixInputs.f32({2, 3}).ints({0, 0}).ints({2, 3}).ints({1, 2}).i32(0).i32(0).f32Out({2, 2});
  EXPECT_THAT(signatureError(sixInputs), HasSubstr("STRIDED_SLICE takes 7 inputs, not 6"));

  EXPECT_THAT(signatureError(stridedSlice(I32)), HasSubstr("STRIDED_SLICE input 0 (input) must be"));

  OpBuilder floatMask(Op::STRIDED_SLICE);
  floatMask.f32({2, 3}).ints({0, 0}).ints({2, 3}).ints({1, 2}).i32(0).f32Scalar(0).i32(0).f32Out({2, 2});
  EXPECT_THAT(signatureError(floatMask), HasSubstr("input 5 (end_mask) must be INT32, not FLOAT32"));

  OpBuilder rank5(Op::STRIDED_SLICE);
  rank5.f32({1, 1, 1, 2, 3}).ints({0, 0, 0, 0, 0}).ints({1, 1, 1, 2, 3}).ints({1, 1, 1, 1, 1});
  rank5.i32(0).i32(0).i32(0).f32Out({1, 1, 1, 2, 3});
  EXPECT_THAT(signatureError(rank5), HasSubstr("input 0 (input) must have rank 1 to 4, not rank 5"));

  OpBuilder zeroStride(Op::STRIDED_SLICE);
  zeroStride.f32({2, 3}).ints({0, 0}).ints({2, 3}).ints({1, 0}).i32(0).i32(0).i32(0).f32Out({2, 2});
  EXPECT_EQ(signatureLevel(zeroStride), 2);
  EXPECT_THAT(fullError(zeroStride), HasSubstr("(strides) must not be 0"));
}

OpBuilder slice(OT type) {
  OpBuilder b(Op::SLICE);
  data(b, type, {2, 3}).ints({0, 1}).ints({1, -1});
  dataOut(b, type, {1, 2});
  return b;
}

TEST(TensorSignatures, Slice) {
  expectLevels(slice, {{F32, 3}, {F16, 3}, {I32, 3}, {Q8, 3}, {Q8S, 4}});
  EXPECT_EQ(fullError(slice(Q8S)), "");

  OpBuilder twoInputs(Op::SLICE);
  twoInputs.f32({2, 3}).ints({0, 1}).f32Out({1, 2});
  EXPECT_THAT(signatureError(twoInputs), HasSubstr("SLICE takes 3 inputs, not 2"));
  EXPECT_THAT(signatureError(slice(BOOL8)), HasSubstr("SLICE input 0 (input) must be"));

  OpBuilder scalarSize(Op::SLICE);
  scalarSize.f32({2, 3}).ints({0, 1}).i32(1).f32Out({1, 2});
  EXPECT_THAT(signatureError(scalarSize), HasSubstr("input 2 (size) must be TENSOR_INT32, not INT32"));

  OpBuilder tooLong(Op::SLICE);
  tooLong.f32({2, 3}).ints({0, 2}).ints({1, 2}).f32Out({1, 2});
  EXPECT_EQ(signatureLevel(tooLong), 3);
  EXPECT_THAT(fullError(tooLong), HasSubstr("does not fit in dimension 1"));
}

// ---- SPLIT, TILE -------------------------------------------------------------------------------------

OpBuilder split(OT type) {
  OpBuilder b(Op::SPLIT);
  data(b, type, {2, 4}).i32(1).i32(2);
  dataOut(b, type, {2, 2});
  dataOut(b, type, {2, 2});
  return b;
}

TEST(TensorSignatures, Split) {
  expectLevels(split, {{F32, 3}, {F16, 3}, {I32, 3}, {Q8, 3}, {Q8S, 4}});
  EXPECT_EQ(fullError(split(F32)), "");

  OpBuilder noOutputs(Op::SPLIT);
  noOutputs.f32({2, 4}).i32(1).i32(2);
  EXPECT_THAT(signatureError(noOutputs), HasSubstr("SPLIT takes at least 1 outputs, not 0"));

  OpBuilder twoInputs(Op::SPLIT);
  twoInputs.f32({2, 4}).i32(1).f32Out({2, 4});
  EXPECT_THAT(signatureError(twoInputs), HasSubstr("SPLIT takes 3 inputs, not 2"));

  OpBuilder mixedOutputs = split(F32);
  setOutputType(mixedOutputs, 1, I32);
  EXPECT_THAT(signatureError(mixedOutputs), HasSubstr("SPLIT output 1 must be TENSOR_FLOAT32 like input 0"));

  OpBuilder floatAxis(Op::SPLIT);
  floatAxis.f32({2, 4}).f32Scalar(1).i32(2).f32Out({2, 2}).f32Out({2, 2});
  EXPECT_THAT(signatureError(floatAxis), HasSubstr("input 1 (axis) must be INT32, not FLOAT32"));

  OpBuilder threeSplits(Op::SPLIT);
  threeSplits.f32({2, 6}).i32(1).i32(3).f32Out({2, 2}).f32Out({2, 2});
  EXPECT_EQ(signatureLevel(threeSplits), 3);
  EXPECT_THAT(fullError(threeSplits), HasSubstr("(num_splits) must equal the number of outputs, 2, not 3"));
}

OpBuilder tile(OT type) {
  OpBuilder b(Op::TILE);
  data(b, type, {2, 3}).ints({2, 1});
  dataOut(b, type, {4, 3});
  return b;
}

TEST(TensorSignatures, Tile) {
  expectLevels(tile, {{F32, 3}, {F16, 3}, {I32, 3}, {Q8, 3}, {Q8S, 4}});
  EXPECT_EQ(fullError(tile(I32)), "");

  OpBuilder oneInput(Op::TILE);
  oneInput.f32({2, 3}).f32Out({4, 3});
  EXPECT_THAT(signatureError(oneInput), HasSubstr("TILE takes 2 inputs, not 1"));
  EXPECT_THAT(signatureError(tile(BOOL8)), HasSubstr("TILE input 0 (input) must be"));

  OpBuilder scalarMultiples(Op::TILE);
  scalarMultiples.f32({2, 3}).i32(2).f32Out({4, 3});
  EXPECT_THAT(signatureError(scalarMultiples), HasSubstr("input 1 (multiples) must be TENSOR_INT32, not INT32"));

  OpBuilder wrongShape(Op::TILE);
  wrongShape.f32({2, 3}).ints({2, 2}).f32Out({4, 3});
  EXPECT_THAT(fullError(wrongShape), HasSubstr("output 0 is declared [4, 3], but its inputs give [4, 6]"));
}

// ---- GATHER, EXPAND_DIMS -------------------------------------------------------------------------------

OpBuilder gather(OT type) {
  OpBuilder b(Op::GATHER);
  data(b, type, {3, 2}).i32(0).ints({0, 2});
  dataOut(b, type, {2, 2});
  return b;
}

TEST(TensorSignatures, Gather) {
  expectLevels(gather, {{F32, 3}, {F16, 3}, {I32, 3}, {Q8, 3}, {Q8S, 4}});
  EXPECT_EQ(fullError(gather(F16)), "");

  OpBuilder twoInputs(Op::GATHER);
  twoInputs.f32({3, 2}).i32(0).f32Out({2, 2});
  EXPECT_THAT(signatureError(twoInputs), HasSubstr("GATHER takes 3 inputs, not 2"));
  EXPECT_THAT(signatureError(gather(BOOL8)), HasSubstr("GATHER input 0 (input) must be"));

  OpBuilder floatIndices(Op::GATHER);
  floatIndices.f32({3, 2}).i32(0).f32({2}).f32Out({2, 2});
  EXPECT_THAT(signatureError(floatIndices), HasSubstr("GATHER input 2 (indices) must be TENSOR_INT32, not TENSOR_FLOAT32"));

  OpBuilder floatAxis(Op::GATHER);
  floatAxis.f32({3, 2}).f32Scalar(0).ints({0, 2}).f32Out({2, 2});
  EXPECT_THAT(signatureError(floatAxis), HasSubstr("GATHER input 1 (axis) must be INT32, not FLOAT32"));

  OpBuilder badAxis(Op::GATHER);
  badAxis.f32({3, 2}).i32(2).ints({0, 2}).f32Out({2, 2});
  EXPECT_EQ(signatureLevel(badAxis), 3);
  EXPECT_THAT(fullError(badAxis), HasSubstr("(axis) must be in [-2, 2) for input 0 of rank 2, not 2"));
}

OpBuilder expandDims(OT type) {
  OpBuilder b(Op::EXPAND_DIMS);
  data(b, type, {2, 3}).i32(-1);
  dataOut(b, type, {2, 3, 1});
  return b;
}

TEST(TensorSignatures, ExpandDims) {
  expectLevels(expandDims, {{F32, 3}, {F16, 3}, {I32, 3}, {Q8, 3}, {Q8S, 4}});
  EXPECT_EQ(fullError(expandDims(F32)), "");

  OpBuilder threeInputs = expandDims(F32);
  threeInputs.i32(0);
  EXPECT_THAT(signatureError(threeInputs), HasSubstr("EXPAND_DIMS takes 2 inputs, not 3"));
  EXPECT_THAT(signatureError(expandDims(BOOL8)), HasSubstr("EXPAND_DIMS input 0 (input) must be"));

  OpBuilder tensorAxis(Op::EXPAND_DIMS);
  tensorAxis.f32({2, 3}).ints({0}).f32Out({1, 2, 3});
  EXPECT_THAT(signatureError(tensorAxis), HasSubstr("input 1 (axis) must be INT32, not TENSOR_INT32"));

  OpBuilder badAxis(Op::EXPAND_DIMS);
  badAxis.f32({2, 3}).i32(3).f32Out({2, 3, 1});
  EXPECT_THAT(fullError(badAxis), HasSubstr("(axis) must be in [-3, 3) for input 0 of rank 2, not 3"));
}

// ---- PAD_V2, MIRROR_PAD --------------------------------------------------------------------------------

OpBuilder padV2(OT type) {
  OpBuilder b(Op::PAD_V2);
  data(b, type, {2, 3}).ints({1, 1, 0, 0}, {2, 2});
  if (type == F16) {
    b.f16Scalar(0);
  } else if (type == F32) {
    b.f32Scalar(0.0f);
  } else {
    b.i32(0);
  }
  dataOut(b, type, {4, 3});
  return b;
}

TEST(TensorSignatures, PadV2) {
  expectLevels(padV2, {{F32, 3}, {F16, 3}, {Q8, 3}, {Q8S, 4}});
  EXPECT_EQ(fullError(padV2(Q8)), "");

  OpBuilder twoInputs(Op::PAD_V2);
  twoInputs.f32({2, 3}).ints({1, 1, 0, 0}, {2, 2}).f32Out({4, 3});
  EXPECT_THAT(signatureError(twoInputs), HasSubstr("PAD_V2 takes 3 inputs, not 2"));
  EXPECT_THAT(signatureError(padV2(I32)), HasSubstr("PAD_V2 input 0 (input) must be"));

  OpBuilder intValue(Op::PAD_V2);
  intValue.f32({2, 3}).ints({1, 1, 0, 0}, {2, 2}).i32(0).f32Out({4, 3});
  EXPECT_THAT(signatureError(intValue), HasSubstr("PAD_V2 input 2 (pad value) must be FLOAT32, not INT32"));

  OpBuilder floatValue(Op::PAD_V2);
  floatValue.q8({2, 3}, 0.5f, 0).ints({1, 1, 0, 0}, {2, 2}).f32Scalar(0).out(Q8, {4, 3}, 0.5f, 0);
  EXPECT_THAT(signatureError(floatValue), HasSubstr("input 2 (pad value) must be INT32, not FLOAT32"));

  OpBuilder rank5(Op::PAD_V2);
  rank5.f32({1, 1, 1, 2, 3}).ints({0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {5, 2}).f32Scalar(0).f32Out({1, 1, 1, 2, 3});
  EXPECT_THAT(signatureError(rank5), HasSubstr("must have rank 1 to 4, not rank 5"));

  OpBuilder wrongShape(Op::PAD_V2);
  wrongShape.f32({2, 3}).ints({1, 1, 0, 0}, {2, 2}).f32Scalar(0).f32Out({2, 3});
  EXPECT_THAT(fullError(wrongShape), HasSubstr("output 0 is declared [2, 3], but its inputs give [4, 3]"));
}

OpBuilder mirrorPad(OT type) {
  OpBuilder b(Op::MIRROR_PAD);
  data(b, type, {2, 3}).ints({1, 1, 2, 2}, {2, 2}).i32(0);
  dataOut(b, type, {4, 7});
  return b;
}

TEST(TensorSignatures, MirrorPad) {
  expectLevels(mirrorPad, {{F32, 7}, {F16, 7}, {I32, 7}, {Q8, 7}, {Q8S, 7}});
  EXPECT_EQ(fullError(mirrorPad(F32)), "");

  OpBuilder twoOutputs = mirrorPad(F32);
  twoOutputs.f32Out({4, 7});
  EXPECT_THAT(signatureError(twoOutputs), HasSubstr("MIRROR_PAD takes 1 output, not 2"));
  EXPECT_THAT(signatureError(mirrorPad(BOOL8)), HasSubstr("MIRROR_PAD input 0 (input) must be"));

  OpBuilder floatMode(Op::MIRROR_PAD);
  floatMode.f32({2, 3}).ints({1, 1, 2, 2}, {2, 2}).f32Scalar(0).f32Out({4, 7});
  EXPECT_THAT(signatureError(floatMode), HasSubstr("input 2 (mode) must be INT32, not FLOAT32"));

  // Android checks the padding tensor's shape, the ranks and the output quantization when the
  // model is built.
  OpBuilder flatPaddings(Op::MIRROR_PAD);
  flatPaddings.f32({2, 3}).ints({1, 1, 2, 2}).i32(0).f32Out({4, 7});
  EXPECT_THAT(signatureError(flatPaddings), HasSubstr("input 1 (paddings) must have rank 2, not rank 1"));

  OpBuilder threeRows(Op::MIRROR_PAD);
  threeRows.f32({2, 3}).ints({1, 1, 2, 2, 0, 0}, {3, 2}).i32(0).f32Out({4, 7});
  EXPECT_THAT(signatureError(threeRows), HasSubstr("must have one row per dimension of input 0 [2, 3]"));

  OpBuilder otherRank(Op::MIRROR_PAD);
  otherRank.f32({2, 3}).ints({1, 1, 2, 2}, {2, 2}).i32(0).f32Out({4, 7, 1});
  EXPECT_THAT(signatureError(otherRank), HasSubstr("output 0 must have the rank of input 0"));

  OpBuilder otherQuant = mirrorPad(Q8);
  otherQuant.output(0).zeroPoint = 3;
  EXPECT_THAT(signatureError(otherQuant), HasSubstr("output 0 must have the scale and zero point of input 0"));

  OpBuilder tooWide(Op::MIRROR_PAD);
  tooWide.f32({2, 3}).ints({2, 0, 0, 0}, {2, 2}).i32(0).f32Out({4, 3});
  EXPECT_EQ(signatureLevel(tooWide), 7);
  EXPECT_THAT(fullError(tooWide), HasSubstr("must be < 2 in REFLECT mode"));
  OpBuilder symmetric(Op::MIRROR_PAD);
  symmetric.f32({2, 3}).ints({2, 0, 0, 0}, {2, 2}).i32(1).f32Out({4, 3});
  EXPECT_EQ(fullError(symmetric), "");
}

// ---- REVERSE, PACK, CHANNEL_SHUFFLE ----------------------------------------------------------------

OpBuilder reverse(OT type) {
  OpBuilder b(Op::REVERSE);
  data(b, type, {2, 3}).ints({1});
  dataOut(b, type, {2, 3});
  return b;
}

TEST(TensorSignatures, Reverse) {
  expectLevels(reverse, {{F32, 7}, {F16, 7}, {I32, 7}, {Q8, 7}, {Q8S, 7}});
  EXPECT_EQ(fullError(reverse(Q8)), "");

  OpBuilder oneInput(Op::REVERSE);
  oneInput.f32({2, 3}).f32Out({2, 3});
  EXPECT_THAT(signatureError(oneInput), HasSubstr("REVERSE takes 2 inputs, not 1"));
  EXPECT_THAT(signatureError(reverse(BOOL8)), HasSubstr("REVERSE input 0 (input) must be"));

  OpBuilder scalarAxis(Op::REVERSE);
  scalarAxis.f32({2, 3}).i32(1).f32Out({2, 3});
  EXPECT_THAT(signatureError(scalarAxis), HasSubstr("input 1 (axis) must be TENSOR_INT32, not INT32"));

  OpBuilder twoAxes(Op::REVERSE);
  twoAxes.f32({2, 3}).ints({0, 1}).f32Out({2, 3});
  EXPECT_THAT(signatureError(twoAxes), HasSubstr("input 1 (axis) must have shape [1], not [2]"));

  OpBuilder otherRank(Op::REVERSE);
  otherRank.f32({2, 3}).ints({1}).f32Out({6});
  EXPECT_THAT(signatureError(otherRank), HasSubstr("output 0 must have the rank of input 0"));

  OpBuilder otherQuant = reverse(Q8S);
  otherQuant.output(0).scale = 1.0f;
  EXPECT_THAT(signatureError(otherQuant), HasSubstr("output 0 must have the scale and zero point of input 0"));

  OpBuilder badAxis(Op::REVERSE);
  badAxis.f32({2, 3}).ints({2}).f32Out({2, 3});
  EXPECT_EQ(signatureLevel(badAxis), 7);
  EXPECT_THAT(fullError(badAxis), HasSubstr("(axis) must be in [0, 2) for input 0 of rank 2, not 2"));
}

OpBuilder pack(OT type) {
  OpBuilder b(Op::PACK);
  b.i32(1);
  data(b, type, {2, 3});
  data(b, type, {2, 3});
  dataOut(b, type, {2, 2, 3});
  return b;
}

TEST(TensorSignatures, Pack) {
  expectLevels(pack, {{F32, 6}, {F16, 6}, {I32, 6}, {Q8, 6}, {Q8S, 6}});
  EXPECT_EQ(fullError(pack(F32)), "");

  OpBuilder axisOnly(Op::PACK);
  axisOnly.i32(0).f32Out({1});
  EXPECT_THAT(signatureError(axisOnly), HasSubstr("PACK takes at least 2 inputs, not 1"));

  OpBuilder noOutput(Op::PACK);
  noOutput.i32(0).f32({2, 3});
  EXPECT_THAT(signatureError(noOutput), HasSubstr("PACK takes 1 output, not 0"));

  OpBuilder floatAxis(Op::PACK);
  floatAxis.f32Scalar(0).f32({2, 3}).f32Out({1, 2, 3});
  EXPECT_THAT(signatureError(floatAxis), HasSubstr("PACK input 0 (axis) must be INT32, not FLOAT32"));

  OpBuilder boolOutput(Op::PACK);
  boolOutput.i32(0).tensor(BOOL8, {2}).out(BOOL8, {1, 2});
  EXPECT_THAT(signatureError(boolOutput), HasSubstr("PACK output 0 must be"));

  OpBuilder mixed(Op::PACK);
  mixed.i32(0).f32({2, 3}).tensor(F16, {2, 3}).f32Out({2, 2, 3});
  EXPECT_THAT(signatureError(mixed), HasSubstr("PACK input 2 must be TENSOR_FLOAT32 like output 0"));

  OpBuilder otherRank(Op::PACK);
  otherRank.i32(0).f32({2, 3}).f32({6}).f32Out({2, 2, 3});
  EXPECT_THAT(signatureError(otherRank), HasSubstr("PACK input 2 has rank 1"));

  OpBuilder otherQuant = pack(Q8);
  otherQuant.input(2).zeroPoint = 1;
  EXPECT_THAT(signatureError(otherQuant), HasSubstr("PACK input 2 must have the scale and zero point of output 0"));

  OpBuilder badAxis(Op::PACK);
  badAxis.i32(3).f32({2, 3}).f32({2, 3}).f32Out({2, 3, 2});
  EXPECT_EQ(signatureLevel(badAxis), 6);
  EXPECT_THAT(fullError(badAxis), HasSubstr("(axis) must be in [0, 3) for inputs of rank 2, not 3"));
}

OpBuilder channelShuffle(OT type) {
  OpBuilder b(Op::CHANNEL_SHUFFLE);
  data(b, type, {1, 2, 2, 4}).i32(2).i32(-1);
  dataOut(b, type, {1, 2, 2, 4});
  return b;
}

TEST(TensorSignatures, ChannelShuffle) {
  expectLevels(channelShuffle, {{F32, 3}, {F16, 3}, {Q8, 3}, {Q8S, 4}});
  EXPECT_EQ(fullError(channelShuffle(Q8)), "");

  OpBuilder twoInputs(Op::CHANNEL_SHUFFLE);
  twoInputs.f32({1, 2, 2, 4}).i32(2).f32Out({1, 2, 2, 4});
  EXPECT_THAT(signatureError(twoInputs), HasSubstr("CHANNEL_SHUFFLE takes 3 inputs, not 2"));
  EXPECT_THAT(signatureError(channelShuffle(I32)), HasSubstr("CHANNEL_SHUFFLE input 0 (input) must be"));

  OpBuilder floatAxis(Op::CHANNEL_SHUFFLE);
  floatAxis.f32({1, 2, 2, 4}).i32(2).f32Scalar(3).f32Out({1, 2, 2, 4});
  EXPECT_THAT(signatureError(floatAxis), HasSubstr("input 2 (axis) must be INT32, not FLOAT32"));

  OpBuilder rank5(Op::CHANNEL_SHUFFLE);
  rank5.f32({1, 1, 2, 2, 4}).i32(2).i32(-1).f32Out({1, 1, 2, 2, 4});
  EXPECT_THAT(signatureError(rank5), HasSubstr("must have rank 1 to 4, not rank 5"));

  OpBuilder threeGroups(Op::CHANNEL_SHUFFLE);
  threeGroups.f32({1, 2, 2, 4}).i32(3).i32(-1).f32Out({1, 2, 2, 4});
  EXPECT_EQ(signatureLevel(threeGroups), 3);
  EXPECT_THAT(fullError(threeGroups), HasSubstr("(num_groups) 3 must divide dimension 3"));
}

// ---- ARGMAX, ARGMIN, REDUCE_* -------------------------------------------------------------------------

OpBuilder argMax(OT type) {
  OpBuilder b(Op::ARGMAX);
  data(b, type, {2, 3}).i32(1).out(I32, {2});
  return b;
}

OpBuilder argMin(OT type) {
  OpBuilder b(Op::ARGMIN);
  data(b, type, {2, 3}).i32(0).out(I32, {3});
  return b;
}

TEST(TensorSignatures, ArgMinMax) {
  // Android gives every input type the operation's level, TENSOR_QUANT8_ASYMM_SIGNED included.
  expectLevels(argMax, {{F32, 3}, {F16, 3}, {I32, 3}, {Q8, 3}, {Q8S, 3}});
  expectLevels(argMin, {{F32, 3}, {F16, 3}, {I32, 3}, {Q8, 3}, {Q8S, 3}});
  EXPECT_EQ(fullError(argMax(Q8)), "");
  EXPECT_EQ(fullError(argMin(F32)), "");

  OpBuilder oneInput(Op::ARGMAX);
  oneInput.f32({2, 3}).out(I32, {2});
  EXPECT_THAT(signatureError(oneInput), HasSubstr("ARGMAX takes 2 inputs, not 1"));
  EXPECT_THAT(signatureError(argMin(BOOL8)), HasSubstr("ARGMIN input 0 (input) must be"));

  OpBuilder floatOutput(Op::ARGMAX);
  floatOutput.f32({2, 3}).i32(1).f32Out({2});
  EXPECT_THAT(signatureError(floatOutput), HasSubstr("ARGMAX output 0 must be TENSOR_INT32, not TENSOR_FLOAT32"));

  OpBuilder floatAxis(Op::ARGMIN);
  floatAxis.f32({2, 3}).f32Scalar(1).out(I32, {2});
  EXPECT_THAT(signatureError(floatAxis), HasSubstr("ARGMIN input 1 (axis) must be INT32, not FLOAT32"));

  OpBuilder wrongShape(Op::ARGMAX);
  wrongShape.f32({2, 3}).i32(1).out(I32, {3});
  EXPECT_THAT(fullError(wrongShape), HasSubstr("declared [3], but its inputs give [2]"));
}

OpBuilder reduce(Op op, OT type) {
  OpBuilder b(op);
  data(b, type, {2, 3}).ints({1}).boolean(false);
  dataOut(b, type, {2});
  return b;
}

TEST(TensorSignatures, ReduceLevels) {
  for (Op op : {Op::REDUCE_ALL, Op::REDUCE_ANY}) {
    EXPECT_EQ(signatureLevel(reduce(op, BOOL8)), 3);
    EXPECT_THAT(signatureError(reduce(op, F32)), HasSubstr("input 0 (input) must be TENSOR_BOOL8, not TENSOR_FLOAT32"));
  }
  for (Op op : {Op::REDUCE_MAX, Op::REDUCE_MIN}) {
    EXPECT_EQ(signatureLevel(reduce(op, F32)), 3);
    EXPECT_EQ(signatureLevel(reduce(op, F16)), 3);
    EXPECT_EQ(signatureLevel(reduce(op, Q8)), 3);
    EXPECT_EQ(signatureLevel(reduce(op, Q8S)), 4);
    EXPECT_THAT(signatureError(reduce(op, I32)), HasSubstr("input 0 (input) must be"));
  }
  for (Op op : {Op::REDUCE_PROD, Op::REDUCE_SUM}) {
    EXPECT_EQ(signatureLevel(reduce(op, F32)), 3);
    EXPECT_EQ(signatureLevel(reduce(op, F16)), 3);
    EXPECT_THAT(signatureError(reduce(op, Q8)),
                HasSubstr("input 0 (input) must be TENSOR_FLOAT16 or TENSOR_FLOAT32, not TENSOR_QUANT8_ASYMM"));
  }
}

TEST(TensorSignatures, ReduceRefusals) {
  OpBuilder twoInputs(Op::REDUCE_SUM);
  twoInputs.f32({2, 3}).ints({1}).f32Out({2});
  EXPECT_THAT(signatureError(twoInputs), HasSubstr("REDUCE_SUM takes 3 inputs, not 2"));

  OpBuilder intKeep(Op::REDUCE_MAX);
  intKeep.f32({2, 3}).ints({1}).i32(0).f32Out({2});
  EXPECT_THAT(signatureError(intKeep), HasSubstr("REDUCE_MAX input 2 (keep_dims) must be BOOL, not INT32"));

  OpBuilder scalarAxes(Op::REDUCE_MIN);
  scalarAxes.f32({2, 3}).i32(1).boolean(false).f32Out({2});
  EXPECT_THAT(signatureError(scalarAxes), HasSubstr("input 1 (axes) must be TENSOR_INT32, not INT32"));

  OpBuilder rank5(Op::REDUCE_ANY);
  rank5.tensor(BOOL8, {1, 1, 1, 2, 3}).ints({1}).boolean(false).out(BOOL8, {1, 1, 2, 3});
  EXPECT_THAT(signatureError(rank5), HasSubstr("must have rank 1 to 4, not rank 5"));

  EXPECT_EQ(fullError(reduce(Op::REDUCE_PROD, F32)), "");
  OpBuilder keep(Op::REDUCE_SUM);
  keep.f32({2, 3}).ints({-1}).boolean(true).f32Out({2, 1});
  EXPECT_EQ(fullError(keep), "");
  OpBuilder badAxis(Op::REDUCE_SUM);
  badAxis.f32({2, 3}).ints({2}).boolean(false).f32Out({2});
  EXPECT_THAT(fullError(badAxis), HasSubstr("(axes) must be in [-2, 2) for input 0 of rank 2, not 2"));
  OpBuilder otherQuant = reduce(Op::REDUCE_MAX, Q8);
  otherQuant.output(0).scale = 1.0f;
  EXPECT_EQ(signatureLevel(otherQuant), 3);
  EXPECT_THAT(fullError(otherQuant), HasSubstr("must have the scale and zero point of input 0"));
}

// ---- TOPK_V2 ----------------------------------------------------------------------------------------

OpBuilder topK(OT type) {
  OpBuilder b(Op::TOPK_V2);
  data(b, type, {2, 5}).i32(2);
  dataOut(b, type, {2, 2});
  b.out(I32, {2, 2});
  return b;
}

TEST(TensorSignatures, TopK) {
  expectLevels(topK, {{F32, 3}, {F16, 3}, {I32, 3}, {Q8, 3}, {Q8S, 4}});
  EXPECT_EQ(fullError(topK(Q8S)), "");

  OpBuilder oneOutput(Op::TOPK_V2);
  oneOutput.f32({2, 5}).i32(2).f32Out({2, 2});
  EXPECT_THAT(signatureError(oneOutput), HasSubstr("TOPK_V2 takes 2 outputs, not 1"));

  OpBuilder oneInput(Op::TOPK_V2);
  oneInput.f32({2, 5}).f32Out({2, 2}).out(I32, {2, 2});
  EXPECT_THAT(signatureError(oneInput), HasSubstr("TOPK_V2 takes 2 inputs, not 1"));
  EXPECT_THAT(signatureError(topK(BOOL8)), HasSubstr("TOPK_V2 input 0 (input) must be"));

  OpBuilder floatIndices = topK(F32);
  setOutputType(floatIndices, 1, F32);
  EXPECT_THAT(signatureError(floatIndices), HasSubstr("TOPK_V2 output 1 must be TENSOR_INT32, not TENSOR_FLOAT32"));

  OpBuilder floatK(Op::TOPK_V2);
  floatK.f32({2, 5}).f32Scalar(2).f32Out({2, 2}).out(I32, {2, 2});
  EXPECT_THAT(signatureError(floatK), HasSubstr("input 1 (k) must be INT32, not FLOAT32"));

  OpBuilder tooMany(Op::TOPK_V2);
  tooMany.f32({2, 5}).i32(6).f32Out({2, 6}).out(I32, {2, 6});
  EXPECT_EQ(signatureLevel(tooMany), 3);
  EXPECT_THAT(fullError(tooMany), HasSubstr("(k) 6 must not exceed the last dimension"));
}

// ---- EMBEDDING_LOOKUP, HASHTABLE_LOOKUP -------------------------------------------------------------

OpBuilder embeddingLookup(OT type) {
  OpBuilder b(Op::EMBEDDING_LOOKUP);
  b.ints({0, 4, 1});
  data(b, type, {5, 2});
  dataOut(b, type, {3, 2});
  return b;
}

TEST(TensorSignatures, EmbeddingLookup) {
  expectLevels(embeddingLookup, {{F32, 1}, {I32, 3}, {Q8, 3}, {F16, 4}, {Q8S, 4}});
  EXPECT_EQ(fullError(embeddingLookup(Q8)), "");

  OpBuilder oneInput(Op::EMBEDDING_LOOKUP);
  oneInput.ints({0}).f32Out({1, 2});
  EXPECT_THAT(signatureError(oneInput), HasSubstr("EMBEDDING_LOOKUP takes 2 inputs, not 1"));
  EXPECT_THAT(signatureError(embeddingLookup(BOOL8)), HasSubstr("EMBEDDING_LOOKUP input 1 (values) must be"));

  OpBuilder floatLookups(Op::EMBEDDING_LOOKUP);
  floatLookups.f32({3}).f32({5, 2}).f32Out({3, 2});
  EXPECT_THAT(signatureError(floatLookups),
              HasSubstr("EMBEDDING_LOOKUP input 0 (lookups) must be TENSOR_INT32, not TENSOR_FLOAT32"));

  OpBuilder otherOutput = embeddingLookup(F32);
  setOutputType(otherOutput, 0, I32);
  EXPECT_THAT(signatureError(otherOutput), HasSubstr("output 0 must be TENSOR_FLOAT32 like input 1"));

  OpBuilder flatValues(Op::EMBEDDING_LOOKUP);
  flatValues.ints({0, 1}).f32({5}).f32Out({2});
  EXPECT_EQ(signatureLevel(flatValues), 1);
  EXPECT_THAT(fullError(flatValues), HasSubstr("input 1 (values) must have rank 2 to"));
}

OpBuilder hashtableLookup(OT type) {
  OpBuilder b(Op::HASHTABLE_LOOKUP);
  b.ints({7, 3, 9}).ints({1, 3, 5, 7, 9});
  data(b, type, {5, 2});
  dataOut(b, type, {3, 2});
  b.out(Q8, {3}, 1.0f, 0);
  return b;
}

TEST(TensorSignatures, HashtableLookup) {
  expectLevels(hashtableLookup, {{F32, 1}, {I32, 1}, {Q8, 1}});
  EXPECT_EQ(fullError(hashtableLookup(F32)), "");

  OpBuilder oneOutput(Op::HASHTABLE_LOOKUP);
  oneOutput.ints({7}).ints({7}).f32({1, 2}).f32Out({1, 2});
  EXPECT_THAT(signatureError(oneOutput), HasSubstr("HASHTABLE_LOOKUP takes 2 outputs, not 1"));

  OpBuilder twoInputs(Op::HASHTABLE_LOOKUP);
  twoInputs.ints({7}).f32({1, 2}).f32Out({1, 2}).out(Q8, {1}, 1.0f, 0);
  EXPECT_THAT(signatureError(twoInputs), HasSubstr("HASHTABLE_LOOKUP takes 3 inputs, not 2"));

  EXPECT_THAT(signatureError(hashtableLookup(F16)),
              HasSubstr("input 2 (values) must be TENSOR_FLOAT32, TENSOR_INT32 or TENSOR_QUANT8_ASYMM, not TENSOR_FLOAT16"));
  EXPECT_THAT(signatureError(hashtableLookup(Q8S)), HasSubstr("input 2 (values) must be"));

  OpBuilder floatKeys(Op::HASHTABLE_LOOKUP);
  floatKeys.ints({7}).f32({1}).f32({1, 2}).f32Out({1, 2}).out(Q8, {1}, 1.0f, 0);
  EXPECT_THAT(signatureError(floatKeys), HasSubstr("input 1 (keys) must be TENSOR_INT32, not TENSOR_FLOAT32"));

  OpBuilder floatHits = hashtableLookup(F32);
  setOutputType(floatHits, 1, F32);
  EXPECT_THAT(signatureError(floatHits), HasSubstr("HASHTABLE_LOOKUP output 1 must be TENSOR_QUANT8_ASYMM, not TENSOR_FLOAT32"));

  // The hits' fixed quantization (scale 1, zero point 0) is checked when the model is prepared.
  OpBuilder hitsScale = hashtableLookup(F32);
  hitsScale.output(1).scale = 0.5f;
  EXPECT_EQ(signatureLevel(hitsScale), 1);
  EXPECT_THAT(fullError(hitsScale), HasSubstr("output 1 of type TENSOR_QUANT8_ASYMM must have (scale 1, zero point 0)"));

  OpBuilder wrongShape = hashtableLookup(F32);
  wrongShape.output(0).dims = wrongShape.output(1).dims;  // [3] for [3, 2]
  EXPECT_THAT(fullError(wrongShape), HasSubstr("output 0 is declared [3], but its inputs give [3, 2]"));
}

TEST(TensorSignatures, EveryOperationHasASignature) {
  for (Op op : {Op::BATCH_TO_SPACE_ND, Op::SPACE_TO_BATCH_ND, Op::DEPTH_TO_SPACE, Op::SPACE_TO_DEPTH,
                Op::STRIDED_SLICE, Op::SLICE, Op::SPLIT, Op::TILE, Op::GATHER, Op::EXPAND_DIMS, Op::PAD_V2,
                Op::MIRROR_PAD, Op::REVERSE, Op::PACK, Op::CHANNEL_SHUFFLE, Op::ARGMAX, Op::ARGMIN, Op::REDUCE_ALL,
                Op::REDUCE_ANY, Op::REDUCE_MAX, Op::REDUCE_MIN, Op::REDUCE_PROD, Op::REDUCE_SUM, Op::TOPK_V2,
                Op::EMBEDDING_LOOKUP, Op::HASHTABLE_LOOKUP}) {
    EXPECT_TRUE(hasSignature(static_cast<int32_t>(op))) << operationName(static_cast<int32_t>(op));
  }
}

}  // namespace
}  // namespace nnrt::ops::testing
