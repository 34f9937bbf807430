// Signatures of the ops_recurrent.cpp family: for every operation, a valid form per allowed operand type
// (with the feature level it needs) and the invalid variants Android refuses at addOperation.
#include <string>
#include <string_view>
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

// A float operation from a layout, one letter per input: T a tensor of `type`, F a float scalar
// following `type` (FLOAT32 or FLOAT16), I an INT32 scalar, B a BOOL scalar. Every output is a
// tensor of `type`.
OpBuilder floatOp(Op op, OT type, std::string_view layout, size_t outputs) {
  OpBuilder b(op);
  for (char c : layout) {
    switch (c) {
      case 'T':
        b.tensor(type, {2, 2});
        break;
      case 'F':
        if (type == OT::TENSOR_FLOAT16) {
          b.f16Scalar(0);
        } else {
          b.f32Scalar(0.0f);
        }
        break;
      case 'I':
        b.i32(0);
        break;
      case 'B':
        b.boolean(false);
        break;
      default:
        break;
    }
  }
  for (size_t i = 0; i < outputs; ++i)
    b.out(type, {2, 2});
  return b;
}

std::string repeat(char c, size_t n) {
  return std::string(n, c);
}

// Input i becomes an omitted optional input, keeping its type.
void omit(OpBuilder& b, size_t i) {
  b.input(i).omitted = true;
  b.input(i).data = nullptr;
  b.input(i).length = 0;
}

void omitAll(OpBuilder& b, std::initializer_list<size_t> positions) {
  for (size_t i : positions)
    omit(b, i);
}

// ---- LSTM ---------------------------------------------------------------------------------------------

const std::string kLstm23 = repeat('T', 20) + "IFF";
const std::string kLstm27 = kLstm23 + "TTTT";

TEST(Lstm, FeatureLevelsByTypeAndForm) {
  EXPECT_EQ(signatureLevel(floatOp(Op::LSTM, OT::TENSOR_FLOAT32, kLstm23, 4)), 1);
  EXPECT_EQ(signatureLevel(floatOp(Op::LSTM, OT::TENSOR_FLOAT16, kLstm23, 4)), 3);
  EXPECT_EQ(signatureLevel(floatOp(Op::LSTM, OT::TENSOR_FLOAT32, kLstm27, 4)), 3);
  EXPECT_EQ(signatureLevel(floatOp(Op::LSTM, OT::TENSOR_FLOAT16, kLstm27, 4)), 3);
}

TEST(Lstm, OptionalInputsMayBeOmitted) {
  // CIFG (1, 5, 12), peephole (9..11), projection (16, 17).
  OpBuilder b = floatOp(Op::LSTM, OT::TENSOR_FLOAT32, kLstm23, 4);
  omitAll(b, {1, 5, 9, 10, 11, 12, 16, 17});
  EXPECT_EQ(signatureLevel(b), 1);

  OpBuilder norm = floatOp(Op::LSTM, OT::TENSOR_FLOAT32, kLstm27, 4);
  omitAll(norm, {23, 24, 25, 26});
  EXPECT_EQ(signatureLevel(norm), 3);
}

TEST(Lstm, RefusesWrongCounts) {
  EXPECT_EQ(signatureError(floatOp(Op::LSTM, OT::TENSOR_FLOAT32, repeat('T', 20) + "IF", 4)),
            "LSTM takes 23 or 27 inputs, not 22");
  EXPECT_EQ(signatureError(floatOp(Op::LSTM, OT::TENSOR_FLOAT32, kLstm23, 3)), "LSTM takes 4 outputs, not 3");
}

TEST(Lstm, RefusesWrongTypes) {
  EXPECT_EQ(signatureError(floatOp(Op::LSTM, OT::TENSOR_INT32, kLstm23, 4)),
            "LSTM input 0 (input) must be TENSOR_FLOAT16 or TENSOR_FLOAT32, not TENSOR_INT32");

  OpBuilder weights = floatOp(Op::LSTM, OT::TENSOR_FLOAT32, kLstm23, 4);
  weights.input(3).type = static_cast<int32_t>(OT::TENSOR_FLOAT16);
  EXPECT_EQ(signatureError(weights),
            "LSTM input 3 (input_to_cell_weights) must be TENSOR_FLOAT32 like input 0, not TENSOR_FLOAT16");

  // An omitted optional input keeps its declared type, and that type is checked.
  OpBuilder omittedWrong = floatOp(Op::LSTM, OT::TENSOR_FLOAT32, kLstm23, 4);
  omit(omittedWrong, 16);
  omittedWrong.input(16).type = static_cast<int32_t>(OT::TENSOR_INT32);
  EXPECT_EQ(signatureError(omittedWrong),
            "LSTM input 16 (projection_weights) must be TENSOR_FLOAT32 like input 0, not TENSOR_INT32");

  OpBuilder output = floatOp(Op::LSTM, OT::TENSOR_FLOAT32, kLstm23, 4);
  output.output(2).type = static_cast<int32_t>(OT::TENSOR_FLOAT16);
  EXPECT_EQ(signatureError(output), "LSTM output 2 must be TENSOR_FLOAT32 like input 0, not TENSOR_FLOAT16");
}

TEST(Lstm, RefusesWrongParameterTypes) {
  // FLOAT32 clips with FLOAT16 data: the clips follow the data type.
  OpBuilder clip = floatOp(Op::LSTM, OT::TENSOR_FLOAT16, kLstm23, 4);
  clip.input(21).type = static_cast<int32_t>(OT::FLOAT32);
  EXPECT_EQ(signatureError(clip),
            "LSTM input 21 (cell_clip) must be FLOAT16 for TENSOR_FLOAT16 input 0, not FLOAT32");

  OpBuilder activation = floatOp(Op::LSTM, OT::TENSOR_FLOAT32, kLstm23, 4);
  activation.input(20).type = static_cast<int32_t>(OT::FLOAT32);
  EXPECT_EQ(signatureError(activation), "LSTM input 20 (activation) must be INT32, not FLOAT32");
}

TEST(Lstm, RefusesOmittedRequiredInputs) {
  for (size_t i : {0, 2, 13, 18, 19, 20, 21}) {
    OpBuilder b = floatOp(Op::LSTM, OT::TENSOR_FLOAT32, kLstm23, 4);
    omit(b, i);
    EXPECT_EQ(fullError(b),
              "LSTM input " + std::to_string(i) + " is omitted, but it is not an optional input");
  }
}

// ---- UNIDIRECTIONAL_SEQUENCE_LSTM ---------------------------------------------------------------------

const std::string kUniLstm = repeat('T', 20) + "IFFBTTTT";

TEST(UnidirectionalSequenceLstm, FeatureLevels) {
  EXPECT_EQ(signatureLevel(floatOp(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kUniLstm, 1)), 3);
  EXPECT_EQ(signatureLevel(floatOp(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT16, kUniLstm, 1)), 3);
  EXPECT_EQ(signatureLevel(floatOp(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kUniLstm, 3)), 4);
  EXPECT_EQ(signatureLevel(floatOp(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT16, kUniLstm, 3)), 4);

  OpBuilder b = floatOp(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kUniLstm, 1);
  omitAll(b, {1, 5, 9, 10, 11, 12, 16, 17, 24, 25, 26, 27});
  EXPECT_EQ(signatureLevel(b), 3);
}

TEST(UnidirectionalSequenceLstm, Refusals) {
  EXPECT_EQ(signatureError(floatOp(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kLstm27, 1)),
            "UNIDIRECTIONAL_SEQUENCE_LSTM takes 28 inputs, not 27");
  EXPECT_EQ(signatureError(floatOp(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kUniLstm, 2)),
            "UNIDIRECTIONAL_SEQUENCE_LSTM takes 1 or 3 outputs, not 2");
  EXPECT_EQ(signatureError(floatOp(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_BOOL8, kUniLstm, 1)),
            "UNIDIRECTIONAL_SEQUENCE_LSTM input 0 (input) must be TENSOR_FLOAT16 or TENSOR_FLOAT32, not "
            "TENSOR_BOOL8");

  OpBuilder timeMajor = floatOp(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kUniLstm, 1);
  timeMajor.input(23).type = static_cast<int32_t>(OT::INT32);
  EXPECT_EQ(signatureError(timeMajor),
            "UNIDIRECTIONAL_SEQUENCE_LSTM input 23 (time_major) must be BOOL, not INT32");

  OpBuilder omitted = floatOp(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kUniLstm, 1);
  omit(omitted, 23);
  EXPECT_EQ(fullError(omitted),
            "UNIDIRECTIONAL_SEQUENCE_LSTM input 23 is omitted, but it is not an optional input");

  OpBuilder state = floatOp(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT16, kUniLstm, 3);
  state.output(1).type = static_cast<int32_t>(OT::TENSOR_FLOAT32);
  EXPECT_EQ(signatureError(state),
            "UNIDIRECTIONAL_SEQUENCE_LSTM output 1 must be TENSOR_FLOAT16 like input 0, not TENSOR_FLOAT32");
}

// ---- BIDIRECTIONAL_SEQUENCE_LSTM ----------------------------------------------------------------------

const std::string kBiLstm = repeat('T', 48) + "IFFBB" + repeat('T', 8);

TEST(BidirectionalSequenceLstm, FeatureLevels) {
  EXPECT_EQ(signatureLevel(floatOp(Op::BIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kBiLstm, 2)), 3);
  EXPECT_EQ(signatureLevel(floatOp(Op::BIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT16, kBiLstm, 1)), 3);
  EXPECT_EQ(signatureLevel(floatOp(Op::BIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kBiLstm, 5)), 4);
  EXPECT_EQ(signatureLevel(floatOp(Op::BIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT16, kBiLstm, 6)), 4);
}

TEST(BidirectionalSequenceLstm, OptionalInputsMayBeOmitted) {
  OpBuilder b = floatOp(Op::BIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kBiLstm, 2);
  omitAll(b, {1,  5,  9,  10, 11, 12, 16, 17, 18, 22, 26, 27, 28, 29, 33, 34, 39,
              40, 41, 42, 43, 44, 45, 46, 47, 53, 54, 55, 56, 57, 58, 59, 60});
  EXPECT_EQ(signatureLevel(b), 3);
}

TEST(BidirectionalSequenceLstm, Refusals) {
  EXPECT_EQ(signatureError(floatOp(Op::BIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kBiLstm + "T", 2)),
            "BIDIRECTIONAL_SEQUENCE_LSTM takes 61 inputs, not 62");
  EXPECT_EQ(signatureError(floatOp(Op::BIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kBiLstm, 3)),
            "BIDIRECTIONAL_SEQUENCE_LSTM takes 1, 2, 5 or 6 outputs, not 3");
  EXPECT_THAT(signatureError(floatOp(Op::BIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_INT32, kBiLstm, 2)),
              HasSubstr("input 0 (input) must be TENSOR_FLOAT16 or TENSOR_FLOAT32, not TENSOR_INT32"));

  // The backward forget weights (19) and the forward activation state (35) are required.
  for (size_t i : {19, 35, 48, 51}) {
    OpBuilder b = floatOp(Op::BIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kBiLstm, 2);
    omit(b, i);
    EXPECT_EQ(fullError(b), "BIDIRECTIONAL_SEQUENCE_LSTM input " + std::to_string(i) +
                                     " is omitted, but it is not an optional input");
  }

  OpBuilder merge = floatOp(Op::BIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kBiLstm, 2);
  merge.input(51).type = static_cast<int32_t>(OT::INT32);
  EXPECT_EQ(signatureError(merge),
            "BIDIRECTIONAL_SEQUENCE_LSTM input 51 (merge_outputs) must be BOOL, not INT32");

  OpBuilder aux = floatOp(Op::BIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kBiLstm, 2);
  aux.input(44).type = static_cast<int32_t>(OT::TENSOR_FLOAT16);
  EXPECT_EQ(
      signatureError(aux),
      "BIDIRECTIONAL_SEQUENCE_LSTM input 44 (bw_aux_input_to_input_weights) must be TENSOR_FLOAT32 like "
      "input 0, not TENSOR_FLOAT16");

  OpBuilder clip = floatOp(Op::BIDIRECTIONAL_SEQUENCE_LSTM, OT::TENSOR_FLOAT32, kBiLstm, 2);
  clip.input(50).type = static_cast<int32_t>(OT::FLOAT16);
  EXPECT_EQ(
      signatureError(clip),
      "BIDIRECTIONAL_SEQUENCE_LSTM input 50 (proj_clip) must be FLOAT32 for TENSOR_FLOAT32 input 0, not "
      "FLOAT16");
}

// ---- RNN and SVDF ----------------------------------------------------------------------------------------

TEST(Rnn, FeatureLevelsAndRefusals) {
  EXPECT_EQ(signatureLevel(floatOp(Op::RNN, OT::TENSOR_FLOAT32, "TTTTTI", 2)), 1);
  EXPECT_EQ(signatureLevel(floatOp(Op::RNN, OT::TENSOR_FLOAT16, "TTTTTI", 2)), 3);

  EXPECT_EQ(signatureError(floatOp(Op::RNN, OT::TENSOR_FLOAT32, "TTTTT", 2)), "RNN takes 6 inputs, not 5");
  EXPECT_EQ(signatureError(floatOp(Op::RNN, OT::TENSOR_FLOAT32, "TTTTTI", 1)), "RNN takes 2 outputs, not 1");
  EXPECT_EQ(signatureError(floatOp(Op::RNN, OT::TENSOR_INT32, "TTTTTI", 2)),
            "RNN input 0 (input) must be TENSOR_FLOAT16 or TENSOR_FLOAT32, not TENSOR_INT32");

  OpBuilder bias = floatOp(Op::RNN, OT::TENSOR_FLOAT32, "TTTTTI", 2);
  omit(bias, 3);
  EXPECT_EQ(fullError(bias), "RNN input 3 is omitted, but it is not an optional input");

  OpBuilder activation = floatOp(Op::RNN, OT::TENSOR_FLOAT32, "TTTTTB", 2);
  EXPECT_EQ(signatureError(activation), "RNN input 5 (activation) must be INT32, not BOOL");
}

TEST(Svdf, FeatureLevelsAndRefusals) {
  EXPECT_EQ(signatureLevel(floatOp(Op::SVDF, OT::TENSOR_FLOAT32, "TTTTTII", 2)), 1);
  EXPECT_EQ(signatureLevel(floatOp(Op::SVDF, OT::TENSOR_FLOAT16, "TTTTTII", 2)), 3);

  OpBuilder noBias = floatOp(Op::SVDF, OT::TENSOR_FLOAT32, "TTTTTII", 2);
  omit(noBias, 3);
  EXPECT_EQ(signatureLevel(noBias), 1);

  EXPECT_EQ(signatureError(floatOp(Op::SVDF, OT::TENSOR_FLOAT32, "TTTTTI", 2)), "SVDF takes 7 inputs, not 6");
  EXPECT_EQ(signatureError(floatOp(Op::SVDF, OT::TENSOR_FLOAT32, "TTTTTII", 3)),
            "SVDF takes 2 outputs, not 3");
  EXPECT_EQ(signatureError(floatOp(Op::SVDF, OT::TENSOR_INT32, "TTTTTII", 2)),
            "SVDF input 0 (input) must be TENSOR_FLOAT16 or TENSOR_FLOAT32, not TENSOR_INT32");
  EXPECT_EQ(signatureError(floatOp(Op::SVDF, OT::TENSOR_FLOAT32, "TTTTTFI", 2)),
            "SVDF input 5 (rank) must be INT32, not FLOAT32");

  OpBuilder state = floatOp(Op::SVDF, OT::TENSOR_FLOAT32, "TTTTTII", 2);
  omit(state, 4);
  EXPECT_EQ(fullError(state), "SVDF input 4 is omitted, but it is not an optional input");

  OpBuilder mixed = floatOp(Op::SVDF, OT::TENSOR_FLOAT16, "TTTTTII", 2);
  mixed.input(2).type = static_cast<int32_t>(OT::TENSOR_FLOAT32);
  EXPECT_EQ(signatureError(mixed),
            "SVDF input 2 (weights_time) must be TENSOR_FLOAT16 like input 0, not TENSOR_FLOAT32");
}

// ---- UNIDIRECTIONAL_SEQUENCE_RNN and BIDIRECTIONAL_SEQUENCE_RNN ----------------------------------------

TEST(UnidirectionalSequenceRnn, FeatureLevelsAndRefusals) {
  EXPECT_EQ(signatureLevel(floatOp(Op::UNIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, "TTTTTII", 1)), 3);
  EXPECT_EQ(signatureLevel(floatOp(Op::UNIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT16, "TTTTTII", 1)), 3);
  EXPECT_EQ(signatureLevel(floatOp(Op::UNIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, "TTTTTII", 2)), 4);

  EXPECT_EQ(signatureError(floatOp(Op::UNIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, "TTTTTIII", 1)),
            "UNIDIRECTIONAL_SEQUENCE_RNN takes 7 inputs, not 8");
  EXPECT_EQ(signatureError(floatOp(Op::UNIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, "TTTTTII", 3)),
            "UNIDIRECTIONAL_SEQUENCE_RNN takes 1 or 2 outputs, not 3");
  EXPECT_EQ(signatureError(floatOp(Op::UNIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_BOOL8, "TTTTTII", 1)),
            "UNIDIRECTIONAL_SEQUENCE_RNN input 0 (input) must be TENSOR_FLOAT16 or TENSOR_FLOAT32, not "
            "TENSOR_BOOL8");
  // time_major is an INT32 for this operation, unlike the LSTM ones.
  EXPECT_EQ(signatureError(floatOp(Op::UNIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, "TTTTTIB", 1)),
            "UNIDIRECTIONAL_SEQUENCE_RNN input 6 (time_major) must be INT32, not BOOL");

  OpBuilder omitted = floatOp(Op::UNIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, "TTTTTII", 1);
  omit(omitted, 3);
  EXPECT_EQ(fullError(omitted),
            "UNIDIRECTIONAL_SEQUENCE_RNN input 3 is omitted, but it is not an optional input");
}

const std::string kBiRnn = repeat('T', 12) + "IBB";

TEST(BidirectionalSequenceRnn, FeatureLevels) {
  EXPECT_EQ(signatureLevel(floatOp(Op::BIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, kBiRnn, 2)), 3);
  EXPECT_EQ(signatureLevel(floatOp(Op::BIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT16, kBiRnn, 1)), 3);
  EXPECT_EQ(signatureLevel(floatOp(Op::BIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, kBiRnn, 3)), 4);
  EXPECT_EQ(signatureLevel(floatOp(Op::BIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT16, kBiRnn, 4)), 4);

  OpBuilder noAux = floatOp(Op::BIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, kBiRnn, 2);
  omitAll(noAux, {9, 10, 11});
  EXPECT_EQ(signatureLevel(noAux), 3);
}

TEST(BidirectionalSequenceRnn, Refusals) {
  EXPECT_EQ(
      signatureError(floatOp(Op::BIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, repeat('T', 12) + "IB", 2)),
      "BIDIRECTIONAL_SEQUENCE_RNN takes 15 inputs, not 14");
  EXPECT_EQ(signatureError(floatOp(Op::BIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, kBiRnn, 5)),
            "BIDIRECTIONAL_SEQUENCE_RNN takes 1, 2, 3 or 4 outputs, not 5");
  EXPECT_EQ(signatureError(floatOp(Op::BIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_INT32, kBiRnn, 2)),
            "BIDIRECTIONAL_SEQUENCE_RNN input 0 (input) must be TENSOR_FLOAT16 or TENSOR_FLOAT32, not "
            "TENSOR_INT32");
  EXPECT_EQ(
      signatureError(floatOp(Op::BIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, repeat('T', 12) + "IIB", 2)),
      "BIDIRECTIONAL_SEQUENCE_RNN input 13 (time_major) must be BOOL, not INT32");

  OpBuilder omitted = floatOp(Op::BIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, kBiRnn, 2);
  omit(omitted, 8);
  EXPECT_EQ(fullError(omitted),
            "BIDIRECTIONAL_SEQUENCE_RNN input 8 is omitted, but it is not an optional input");
}

TEST(BidirectionalSequenceRnn, OutputCountFollowsMergeOutputsWhenKnown) {
  // merge_outputs true takes 1 or 3 outputs: known only from the value, so only the full check refuses.
  OpBuilder merged = floatOp(Op::BIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, repeat('T', 12) + "IB", 2);
  merged.boolean(true);
  EXPECT_EQ(signatureLevel(merged), 3);
  EXPECT_EQ(errorOf(validate(merged.args())),
            "BIDIRECTIONAL_SEQUENCE_RNN input 14 (merge_outputs) is true: the operation takes 1 or 3 "
            "outputs, not 2");

  OpBuilder separate = floatOp(Op::BIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, kBiRnn, 3);
  EXPECT_EQ(errorOf(validate(separate.args())),
            "BIDIRECTIONAL_SEQUENCE_RNN input 14 (merge_outputs) is false: the operation takes 2 or 4 "
            "outputs, not 3");

  OpBuilder mergedState =
      floatOp(Op::BIDIRECTIONAL_SEQUENCE_RNN, OT::TENSOR_FLOAT32, repeat('T', 12) + "IB", 3);
  mergedState.boolean(true);
  EXPECT_TRUE(validate(mergedState.args()));
  EXPECT_EQ(signatureLevel(mergedState), 4);
}

// ---- QUANTIZED_16BIT_LSTM ------------------------------------------------------------------------------

constexpr float kWeightScale = 0.5f;

// A QUANTIZED_16BIT_LSTM with the quantization its kernel requires.
OpBuilder quantized16BitLstm() {
  OpBuilder b(Op::QUANTIZED_16BIT_LSTM);
  b.q8({2, 3}, 1.0f / 128, 128);
  for (int i = 0; i < 8; ++i)
    b.q8({4, 4}, kWeightScale, 100);
  for (int i = 0; i < 4; ++i)
    b.tensor(OT::TENSOR_INT32, {4}, kWeightScale / 128, 0);
  b.tensor(OT::TENSOR_QUANT16_SYMM, {2, 4}, 1.0f / 2048, 0);
  b.q8({2, 4}, 1.0f / 128, 128);
  b.out(OT::TENSOR_QUANT16_SYMM, {2, 4}, 1.0f / 2048, 0)
      .out(OT::TENSOR_QUANT8_ASYMM, {2, 4}, 1.0f / 128, 128);
  return b;
}

TEST(Quantized16BitLstm, FeatureLevel) {
  OpBuilder b = quantized16BitLstm();
  EXPECT_EQ(signatureLevel(b), 3);
  EXPECT_TRUE(validate(b.args())) << errorOf(validate(b.args()));
}

TEST(Quantized16BitLstm, Refusals) {
  OpBuilder tooFew(Op::QUANTIZED_16BIT_LSTM);
  tooFew.q8({2, 3}, 1.0f / 128, 128).out(OT::TENSOR_QUANT16_SYMM, {2, 4}, 1.0f / 2048, 0);
  EXPECT_EQ(signatureError(tooFew), "QUANTIZED_16BIT_LSTM takes 15 inputs, not 1");

  OpBuilder outputs = quantized16BitLstm();
  outputs.out(OT::TENSOR_QUANT8_ASYMM, {2, 4}, 1.0f / 128, 128);
  EXPECT_EQ(signatureError(outputs), "QUANTIZED_16BIT_LSTM takes 2 outputs, not 3");

  OpBuilder input = quantized16BitLstm();
  input.input(0).type = static_cast<int32_t>(OT::TENSOR_QUANT8_ASYMM_SIGNED);
  input.input(0).zeroPoint = 0;
  EXPECT_EQ(
      signatureError(input),
      "QUANTIZED_16BIT_LSTM input 0 (input) must be TENSOR_QUANT8_ASYMM, not TENSOR_QUANT8_ASYMM_SIGNED");

  OpBuilder bias = quantized16BitLstm();
  bias.input(10).type = static_cast<int32_t>(OT::TENSOR_FLOAT32);
  bias.input(10).scale = 0;
  EXPECT_EQ(signatureError(bias),
            "QUANTIZED_16BIT_LSTM input 10 (forget_gate_bias) must be TENSOR_INT32, not TENSOR_FLOAT32");

  OpBuilder omitted = quantized16BitLstm();
  omit(omitted, 1);
  EXPECT_EQ(fullError(omitted),
            "QUANTIZED_16BIT_LSTM input 1 is omitted, but it is not an optional input");

  OpBuilder output = quantized16BitLstm();
  output.output(0).type = static_cast<int32_t>(OT::TENSOR_QUANT8_ASYMM);
  output.output(0).zeroPoint = 128;
  EXPECT_EQ(signatureError(output),
            "QUANTIZED_16BIT_LSTM output 0 must be TENSOR_QUANT16_SYMM, not TENSOR_QUANT8_ASYMM");
}

TEST(Quantized16BitLstm, QuantizationIsCheckedOnlyAtFullDepth) {
  OpBuilder input = quantized16BitLstm();
  input.input(0).scale = 0.5f;
  EXPECT_EQ(signatureLevel(input), 3);
  EXPECT_EQ(errorOf(validate(input.args())),
            "QUANTIZED_16BIT_LSTM input 0 (input) must have scale 0.0078125 (1/128) and zero point 128, not "
            "scale 0.5, zero point 128");

  OpBuilder weights = quantized16BitLstm();
  weights.input(6).zeroPoint = 99;
  EXPECT_EQ(signatureLevel(weights), 3);
  EXPECT_EQ(
      errorOf(validate(weights.args())),
      "QUANTIZED_16BIT_LSTM input 6 (recurrent_to_forget_weights) must have the quantization of input 1 "
      "(scale 0.5, zero point 100), not scale 0.5, zero point 99");

  OpBuilder bias = quantized16BitLstm();
  bias.input(12).scale = kWeightScale;
  EXPECT_THAT(errorOf(validate(bias.args())),
              HasSubstr("input 12 (output_gate_bias) must have scale 0.00390625 (the weights' scale / 128)"));

  OpBuilder cell = quantized16BitLstm();
  cell.input(13).scale = 1.0f / 1024;
  EXPECT_THAT(errorOf(validate(cell.args())),
              HasSubstr("input 13 (prev_cell_state) must have scale 0.00048828125 (2^-11) and zero point 0"));
}

// ---- QUANTIZED_LSTM --------------------------------------------------------------------------------------

// A QUANTIZED_LSTM with every optional input present.
OpBuilder quantizedLstm() {
  OpBuilder b(Op::QUANTIZED_LSTM);
  b.tensor(OT::TENSOR_QUANT8_ASYMM_SIGNED, {2, 5}, 0.0078125f, 0);
  for (int i = 0; i < 8; ++i)
    b.tensor(OT::TENSOR_QUANT8_SYMM, {4, 5}, 0.01f, 0);
  for (int i = 0; i < 3; ++i)
    b.tensor(OT::TENSOR_QUANT16_SYMM, {4}, 1.0f, 0);
  for (int i = 0; i < 4; ++i)
    b.tensor(OT::TENSOR_INT32, {4});
  b.tensor(OT::TENSOR_QUANT8_SYMM, {4, 4}, 0.004f, 0).tensor(OT::TENSOR_INT32, {4});
  b.tensor(OT::TENSOR_QUANT8_ASYMM_SIGNED, {2, 4}, 0.00003f, 0)
      .tensor(OT::TENSOR_QUANT16_SYMM, {2, 4}, 0.00003f, 0);
  for (int i = 0; i < 4; ++i)
    b.tensor(OT::TENSOR_QUANT16_SYMM, {4}, 0.00003f, 0);
  for (int i = 0; i < 6; ++i)
    b.f32Scalar(0.007f);
  b.i32(0).f32Scalar(0.007f);
  b.out(OT::TENSOR_QUANT8_ASYMM_SIGNED, {2, 4}, 0.00003f, 0)
      .out(OT::TENSOR_QUANT16_SYMM, {2, 4}, 0.00003f, 0)
      .out(OT::TENSOR_QUANT8_ASYMM_SIGNED, {2, 4}, 0.00003f, 0);
  return b;
}

TEST(QuantizedLstm, FeatureLevel) {
  EXPECT_EQ(signatureLevel(quantizedLstm()), 4);

  OpBuilder minimal = quantizedLstm();
  omitAll(minimal, {1, 5, 9, 10, 11, 12, 16, 17, 20, 21, 22, 23});
  EXPECT_EQ(signatureLevel(minimal), 4);
}

TEST(QuantizedLstm, Refusals) {
  OpBuilder tooMany = quantizedLstm();
  tooMany.i32(0);
  EXPECT_EQ(signatureError(tooMany), "QUANTIZED_LSTM takes 32 inputs, not 33");

  OpBuilder outputs(Op::QUANTIZED_LSTM);
  outputs.tensor(OT::TENSOR_QUANT8_ASYMM_SIGNED, {2, 5}, 0.0078125f, 0)
      .out(OT::TENSOR_QUANT8_ASYMM_SIGNED, {2, 4}, 0.00003f, 0);
  EXPECT_THAT(signatureError(outputs), HasSubstr("QUANTIZED_LSTM takes 32 inputs"));

  OpBuilder twoOutputs = quantizedLstm();
  twoOutputs.out(OT::TENSOR_QUANT8_ASYMM_SIGNED, {2, 4}, 0.00003f, 0);
  EXPECT_EQ(signatureError(twoOutputs), "QUANTIZED_LSTM takes 3 outputs, not 4");

  OpBuilder input = quantizedLstm();
  input.input(0).type = static_cast<int32_t>(OT::TENSOR_QUANT8_ASYMM);
  input.input(0).zeroPoint = 128;
  EXPECT_EQ(signatureError(input),
            "QUANTIZED_LSTM input 0 (input) must be TENSOR_QUANT8_ASYMM_SIGNED, not TENSOR_QUANT8_ASYMM");

  OpBuilder peephole = quantizedLstm();
  peephole.input(10).type = static_cast<int32_t>(OT::TENSOR_QUANT8_SYMM);
  EXPECT_EQ(
      signatureError(peephole),
      "QUANTIZED_LSTM input 10 (cell_to_forget_weights) must be TENSOR_QUANT16_SYMM, not TENSOR_QUANT8_SYMM");

  OpBuilder zeroPoint = quantizedLstm();
  zeroPoint.input(30).type = static_cast<int32_t>(OT::FLOAT32);
  EXPECT_EQ(signatureError(zeroPoint),
            "QUANTIZED_LSTM input 30 (hidden_state_zero_point) must be INT32, not FLOAT32");

  // The clips need a value (0 disables them); the forget weights are required.
  for (size_t i : {2, 13, 18, 24, 31}) {
    OpBuilder b = quantizedLstm();
    omit(b, i);
    EXPECT_EQ(fullError(b),
              "QUANTIZED_LSTM input " + std::to_string(i) + " is omitted, but it is not an optional input");
  }

  OpBuilder output = quantizedLstm();
  output.output(1).type = static_cast<int32_t>(OT::TENSOR_QUANT8_ASYMM_SIGNED);
  EXPECT_EQ(signatureError(output),
            "QUANTIZED_LSTM output 1 must be TENSOR_QUANT16_SYMM, not TENSOR_QUANT8_ASYMM_SIGNED");
}

// ---- IF and WHILE
// ------------------------------------------------------------------------------------------

OpBuilder ifOp() {
  OpBuilder b(Op::IF);
  b.tensor(OT::TENSOR_BOOL8, {1}).unknownScalar(OT::SUBGRAPH).unknownScalar(OT::SUBGRAPH);
  b.f32({2, 2}).i32(3).f32Out({2, 2});
  return b;
}

OpBuilder whileOp() {
  OpBuilder b(Op::WHILE);
  b.unknownScalar(OT::SUBGRAPH).unknownScalar(OT::SUBGRAPH).f32({2}).i32(5);
  b.f32Out({2});
  return b;
}

TEST(If, FeatureLevel) {
  EXPECT_EQ(signatureLevel(ifOp()), 4);

  OpBuilder noData(Op::IF);  // branches without inputs
  noData.tensor(OT::TENSOR_BOOL8, {1}).unknownScalar(OT::SUBGRAPH).unknownScalar(OT::SUBGRAPH);
  noData.out(OT::TENSOR_INT32, {3});
  EXPECT_EQ(signatureLevel(noData), 4);
}

TEST(If, Refusals) {
  OpBuilder tooFew(Op::IF);
  tooFew.tensor(OT::TENSOR_BOOL8, {1}).unknownScalar(OT::SUBGRAPH).f32Out({2});
  EXPECT_EQ(signatureError(tooFew), "IF takes at least 3 inputs, not 2");

  OpBuilder noOutput(Op::IF);
  noOutput.tensor(OT::TENSOR_BOOL8, {1}).unknownScalar(OT::SUBGRAPH).unknownScalar(OT::SUBGRAPH);
  EXPECT_EQ(signatureError(noOutput), "IF takes at least 1 outputs, not 0");

  OpBuilder condition = ifOp();
  condition.input(0).type = static_cast<int32_t>(OT::TENSOR_INT32);
  EXPECT_EQ(signatureError(condition), "IF input 0 (condition) must be TENSOR_BOOL8, not TENSOR_INT32");

  OpBuilder scalarCondition = ifOp();
  scalarCondition.input(0).type = static_cast<int32_t>(OT::BOOL);
  scalarCondition.input(0).dims = {};
  EXPECT_EQ(signatureError(scalarCondition), "IF input 0 (condition) must be TENSOR_BOOL8, not BOOL");

  OpBuilder shape(Op::IF);
  shape.tensor(OT::TENSOR_BOOL8, {2}).unknownScalar(OT::SUBGRAPH).unknownScalar(OT::SUBGRAPH).f32Out({2});
  EXPECT_EQ(signatureError(shape), "IF input 0 (condition) must have shape [1], not [2]");

  OpBuilder unknown(Op::IF);
  unknown.tensor(OT::TENSOR_BOOL8, {}).unknownScalar(OT::SUBGRAPH).unknownScalar(OT::SUBGRAPH).f32Out({2});
  EXPECT_EQ(signatureError(unknown), "IF input 0 (condition) must have shape [1], not an unknown shape");

  OpBuilder branch = ifOp();
  branch.input(2).type = static_cast<int32_t>(OT::INT32);
  EXPECT_EQ(signatureError(branch), "IF input 2 (else_branch) must be SUBGRAPH, not INT32");

  OpBuilder data = ifOp();
  data.input(3).type = static_cast<int32_t>(OT::SUBGRAPH);
  data.input(3).dims = {};
  EXPECT_EQ(signatureError(data), "IF input 3 is a data operand and must not be a SUBGRAPH reference");

  OpBuilder omitted = ifOp();
  omit(omitted, 4);
  EXPECT_EQ(fullError(omitted), "IF input 4 is omitted, but it is not an optional input");

  OpBuilder output = ifOp();
  output.out(OT::SUBGRAPH, {});
  EXPECT_THAT(signatureError(output), HasSubstr("IF output 1 has type SUBGRAPH"));
}

TEST(While, FeatureLevelAndRefusals) {
  EXPECT_EQ(signatureLevel(whileOp()), 4);

  OpBuilder tooFew(Op::WHILE);
  tooFew.unknownScalar(OT::SUBGRAPH).unknownScalar(OT::SUBGRAPH).f32Out({2});
  EXPECT_EQ(signatureError(tooFew), "WHILE takes at least 3 inputs, not 2");

  OpBuilder noOutput(Op::WHILE);
  noOutput.unknownScalar(OT::SUBGRAPH).unknownScalar(OT::SUBGRAPH).f32({2});
  EXPECT_EQ(signatureError(noOutput), "WHILE takes at least 1 outputs, not 0");

  OpBuilder condition = whileOp();
  condition.input(0).type = static_cast<int32_t>(OT::TENSOR_BOOL8);
  condition.input(0).dims = {};
  EXPECT_EQ(signatureError(condition), "WHILE input 0 (condition_model) must be SUBGRAPH, not TENSOR_BOOL8");

  OpBuilder body = whileOp();
  body.input(1).type = static_cast<int32_t>(OT::INT32);
  EXPECT_EQ(signatureError(body), "WHILE input 1 (body_model) must be SUBGRAPH, not INT32");

  OpBuilder data = whileOp();
  data.input(3).type = static_cast<int32_t>(OT::SUBGRAPH);
  EXPECT_EQ(signatureError(data), "WHILE input 3 is a data operand and must not be a SUBGRAPH reference");

  OpBuilder omitted = whileOp();
  omit(omitted, 2);
  EXPECT_EQ(fullError(omitted), "WHILE input 2 is omitted, but it is not an optional input");
}

}  // namespace
}  // namespace nnrt::ops::testing
