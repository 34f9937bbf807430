// The signature table and the checks every signed operation shares: counts, omitted inputs, operand
// types, quantization, scalar ranks, declared output shapes; operations without a signature; and
// building Args from a driver model view.
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

OpBuilder addF32(Shape a, Shape b, Shape out) {
  OpBuilder op(Op::ADD);
  op.f32(std::move(a)).f32(std::move(b)).i32(0).f32Out(std::move(out));
  return op;
}

TEST(Signatures, KnownOperationsHaveOneAndOthersDoNot) {
  for (Op op : {Op::ADD,
                Op::SUB,
                Op::MUL,
                Op::DIV,
                Op::FLOOR,
                Op::RELU,
                Op::RELU1,
                Op::RELU6,
                Op::LOGISTIC,
                Op::TANH,
                Op::SOFTMAX,
                Op::FULLY_CONNECTED,
                Op::CONV_2D,
                Op::DEPTHWISE_CONV_2D,
                Op::AVERAGE_POOL_2D,
                Op::MAX_POOL_2D,
                Op::L2_POOL_2D,
                Op::RESHAPE,
                Op::CONCATENATION,
                Op::SQUEEZE,
                Op::TRANSPOSE,
                Op::PAD,
                Op::MEAN}) {
    EXPECT_TRUE(hasSignature(static_cast<int32_t>(op))) << operationName(static_cast<int32_t>(op));
  }
  EXPECT_FALSE(hasSignature(static_cast<int32_t>(Op::OEM_OPERATION)));
  EXPECT_FALSE(hasSignature(0x10000));  // an extension operation
  EXPECT_FALSE(hasSignature(-1));
}

TEST(Signatures, OperationWithoutSignatureIsAcceptedAndKeepsDeclaredShapes) {
  OpBuilder op(Op::OEM_OPERATION);
  op.f32({2, 3}).out(OT::TENSOR_FLOAT32, {2, 0});
  EXPECT_TRUE(validate(op.args()));
  auto shapes = inferShapes(op.args());
  ASSERT_TRUE(shapes) << errorOf(shapes);
  ASSERT_EQ(shapes->size(), 1u);
  EXPECT_EQ((*shapes)[0], (Shape{2, 0}));
}

TEST(GenericChecks, WrongInputCountNamesTheAllowedCounts) {
  OpBuilder op(Op::ADD);
  op.f32({2}).f32({2}).f32Out({2});
  EXPECT_EQ(errorOf(validate(op.args())), "ADD takes 3 inputs, not 2");
  EXPECT_EQ(errorOf(inferShapes(op.args())), "ADD takes 3 inputs, not 2");

  OpBuilder conv(Op::CONV_2D);
  conv.f32({1, 4, 4, 1}).f32({1, 1, 1, 1}).f32({1});
  for (int i = 0; i < 6; ++i)
    conv.i32(1);
  conv.f32Out({1, 4, 4, 1});  // 9 inputs: implicit form with only one dilation factor
  EXPECT_EQ(errorOf(validate(conv.args())), "CONV_2D takes 7, 8, 10, 11 or 13 inputs, not 9");
}

TEST(GenericChecks, WrongOutputCount) {
  OpBuilder op(Op::RELU);
  op.f32({2}).f32Out({2}).f32Out({2});
  EXPECT_EQ(errorOf(validate(op.args())), "RELU takes 1 output, not 2");
}

TEST(GenericChecks, ConcatenationNeedsATensorAndAnAxis) {
  OpBuilder op(Op::CONCATENATION);
  op.i32(0).f32Out({2});
  EXPECT_EQ(errorOf(validate(op.args())), "CONCATENATION takes at least 2 inputs, not 1");
}

TEST(GenericChecks, OmittedRequiredInputIsRefused) {
  OpBuilder op(Op::ADD);
  op.f32({2}).omitted(OT::TENSOR_FLOAT32, {2}).i32(0).f32Out({2});
  EXPECT_EQ(errorOf(validate(op.args())), "ADD input 1 is omitted, but it is not an optional input");
}

TEST(GenericChecks, ScalarWithDimensionsIsRefused) {
  OpBuilder op = addF32({2}, {2}, {2});
  Shape dims{1};
  op.input(2).dims = dims;
  EXPECT_EQ(errorOf(validate(op.args())), "ADD input 2 is a INT32 scalar but has dimensions [1]");
}

TEST(GenericChecks, BadQuantizationParametersAreRefused) {
  OpBuilder op(Op::ADD);
  op.q8({2}, 0.5f, 300).q8({2}, 0.5f, 0).i32(0).out(OT::TENSOR_QUANT8_ASYMM, {2}, 1.0f, 0);
  EXPECT_EQ(errorOf(validate(op.args())),
            "ADD input 0: TENSOR_QUANT8_ASYMM zero point 300 is outside 0..255");

  OpBuilder noScale(Op::ADD);
  noScale.q8({2}, 0.5f, 0).q8({2}, 0.5f, 0).i32(0).out(OT::TENSOR_QUANT8_ASYMM, {2}, 0.0f, 0);
  EXPECT_EQ(errorOf(validate(noScale.args())), "ADD output 0: TENSOR_QUANT8_ASYMM needs a scale > 0");

  OpBuilder floatScale = addF32({2}, {2}, {2});
  floatScale.input(1).scale = 0.5f;
  EXPECT_THAT(errorOf(validate(floatScale.args())),
              HasSubstr("ADD input 1: TENSOR_FLOAT32 must have scale 0"));
}

TEST(GenericChecks, ExtensionAndOemTypesAreRefused) {
  OpBuilder op = addF32({2}, {2}, {2});
  op.input(1).type = 0x10001;
  EXPECT_EQ(errorOf(validate(op.args())),
            "ADD input 1 has type extension type 0x00010001, which this operation does not take");
  op.input(1).type = static_cast<int32_t>(OT::TENSOR_OEM_BYTE);
  EXPECT_THAT(errorOf(validate(op.args())), HasSubstr("ADD input 1 has type TENSOR_OEM_BYTE"));
}

TEST(GenericChecks, ConstantOfTheWrongSizeIsRefused) {
  OpBuilder op(Op::RESHAPE);
  op.f32({2, 3}).ints({3, 2}, {3}).f32Out({3, 2});  // declared [3] but holds 2 values
  EXPECT_EQ(errorOf(validate(op.args())), "RESHAPE input 1 holds 8 bytes, but TENSOR_INT32 [3] needs 12");
}

TEST(GenericChecks, OutputMustNotBeOmitted) {
  OpBuilder op = addF32({2}, {2}, {2});
  op.output(0).omitted = true;
  EXPECT_EQ(errorOf(validate(op.args())), "ADD output 0 must not be omitted");
}

TEST(GenericChecks, DeclaredOutputShapeMustAgreeWithTheInputs) {
  EXPECT_EQ(errorOf(validate(addF32({2, 3}, {3}, {2, 4}).args())),
            "ADD output 0 is declared [2, 4], but its inputs give [2, 3]");
  EXPECT_EQ(errorOf(validate(addF32({2, 3}, {3}, {3}).args())),
            "ADD output 0 is declared [3], but its inputs give [2, 3]");
  // Unknown dimensions and an unknown rank on either side are compatible.
  EXPECT_TRUE(validate(addF32({2, 3}, {3}, {0, 3}).args()));
  EXPECT_TRUE(validate(addF32({2, 3}, {3}, {}).args()));
  EXPECT_TRUE(validate(addF32({0, 3}, {3}, {5, 3}).args()));
}

// A model view with one operation ADD(a, b, act) -> out where b is a constant, act is a constant
// in a memory pool and a second operation has an omitted optional input.
TEST(ModelArgs, BuiltFromTheModelView) {
  const uint32_t dimsA[] = {2, 3};
  const uint32_t dimsB[] = {3};
  const float bValues[] = {1.0f, 2.0f, 3.0f};
  const int32_t act = 1;
  uint8_t values[sizeof bValues];
  std::memcpy(values, bValues, sizeof bValues);
  uint8_t poolBytes[8] = {};
  std::memcpy(poolBytes + 4, &act, sizeof act);

  nnrt_operand operands[5] = {};
  operands[0].type = static_cast<int32_t>(OT::TENSOR_FLOAT32);
  operands[0].rank = 2;
  operands[0].dimensions = dimsA;
  operands[0].lifetime = NNRT_LIFETIME_SUBGRAPH_INPUT;
  operands[1].type = static_cast<int32_t>(OT::TENSOR_FLOAT32);
  operands[1].rank = 1;
  operands[1].dimensions = dimsB;
  operands[1].lifetime = NNRT_LIFETIME_CONSTANT_COPY;
  operands[1].location = {0, 0, sizeof bValues};
  operands[2].type = static_cast<int32_t>(OT::INT32);
  operands[2].lifetime = NNRT_LIFETIME_CONSTANT_REFERENCE;
  operands[2].location = {0, 4, 4};
  operands[3].type = static_cast<int32_t>(OT::TENSOR_FLOAT32);
  operands[3].rank = 2;
  operands[3].dimensions = dimsA;
  operands[3].scale = 0;
  operands[3].lifetime = NNRT_LIFETIME_SUBGRAPH_OUTPUT;
  operands[4].type = static_cast<int32_t>(OT::TENSOR_INT32);
  operands[4].lifetime = NNRT_LIFETIME_NO_VALUE;

  const uint32_t addInputs[] = {0, 1, 2};
  const uint32_t addOutputs[] = {3};
  nnrt_operation operations[1] = {};
  operations[0].type = static_cast<int32_t>(Op::ADD);
  operations[0].inputs = addInputs;
  operations[0].input_count = 3;
  operations[0].outputs = addOutputs;
  operations[0].output_count = 1;

  nnrt_memory_pool pool{NNRT_POOL_HOST, poolBytes, sizeof poolBytes};
  nnrt_model raw{};
  raw.main.operands = operands;
  raw.main.operand_count = 5;
  raw.main.operations = operations;
  raw.main.operation_count = 1;
  raw.operand_values = values;
  raw.operand_values_size = sizeof values;
  raw.pools = &pool;
  raw.pool_count = 1;
  driver::Model model(raw);

  std::vector<Arg> ins = inputArgs(model, model.main(), operations[0]);
  std::vector<Arg> outs = outputArgs(model, model.main(), operations[0]);
  ASSERT_EQ(ins.size(), 3u);
  ASSERT_EQ(outs.size(), 1u);
  EXPECT_FALSE(ins[0].hasValue());
  EXPECT_EQ(Shape(ins[0].dims.begin(), ins[0].dims.end()), (Shape{2, 3}));
  ASSERT_TRUE(ins[1].hasValue());
  EXPECT_EQ(ins[1].length, sizeof bValues);
  EXPECT_EQ(ins[1].values<float>()[2], 3.0f);
  ASSERT_TRUE(ins[2].hasValue());
  EXPECT_EQ(ins[2].scalar<int32_t>(), 1);
  EXPECT_EQ(ins[2].operand, &operands[2]);
  EXPECT_FALSE(outs[0].hasValue());
  EXPECT_EQ(outs[0].rank(), 2u);

  OpArgs args{operations[0].type, ins, outs, model.relaxComputationFloat32toFloat16()};
  EXPECT_TRUE(validate(args));
  auto shapes = inferShapes(args);
  ASSERT_TRUE(shapes);
  EXPECT_EQ((*shapes)[0], (Shape{2, 3}));

  // NO_VALUE operands come back omitted; indexes outside the subgraph come back with type -1.
  const uint32_t squeezeInputs[] = {0, 4};
  const uint32_t badOutputs[] = {99};
  nnrt_operation squeeze{static_cast<int32_t>(Op::SQUEEZE), squeezeInputs, 2, badOutputs, 1};
  std::vector<Arg> squeezeIns = inputArgs(model, model.main(), squeeze);
  EXPECT_FALSE(squeezeIns[0].omitted);
  EXPECT_TRUE(squeezeIns[1].omitted);
  EXPECT_EQ(outputArgs(model, model.main(), squeeze)[0].type, -1);
}

}  // namespace
}  // namespace nnrt::ops
