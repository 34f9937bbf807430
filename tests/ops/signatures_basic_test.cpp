// Signatures of the 23 operations of ops_elementwise/activation/conv/pool/shape.cpp: for every
// operation a valid form per allowed operand type with the feature level it needs, the refusals
// Android makes at addOperation, and for each check Android leaves to preparation a case that
// validateSignature accepts and validate (Check::Full) refuses.
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
constexpr OT kI32 = OT::TENSOR_INT32;

bool isQuant(OT t) {
  return t == kQ8 || t == kQ8S;
}
OpBuilder& add(OpBuilder& b, OT type, Shape dims, float scale = 0.5f, int32_t zeroPoint = 0) {
  return b.tensor(type, std::move(dims), isQuant(type) ? scale : 0.0f, isQuant(type) ? zeroPoint : 0);
}
OpBuilder& addOut(OpBuilder& b, OT type, Shape dims, float scale = 0.5f, int32_t zeroPoint = 0) {
  return b.out(type, std::move(dims), isQuant(type) ? scale : 0.0f, isQuant(type) ? zeroPoint : 0);
}

// A valid form: the signature's feature level, and Check::Full accepts it too.
int32_t levelOf(const OpBuilder& b) {
  auto full = validate(b.args());
  EXPECT_TRUE(full) << errorOf(full);
  auto r = validateSignature(b.args());
  EXPECT_TRUE(r) << errorOf(r);
  return r ? *r : -1;
}
// Refused when the model is built.
std::string refusal(const OpBuilder& b) {
  auto r = validateSignature(b.args());
  EXPECT_FALSE(r) << "validateSignature accepted";
  return errorOf(r);
}
// Accepted when the model is built, refused by Check::Full.
std::string deferred(const OpBuilder& b) {
  auto sig = validateSignature(b.args());
  EXPECT_TRUE(sig) << errorOf(sig);
  auto full = validate(b.args());
  EXPECT_FALSE(full) << "validate accepted";
  return errorOf(full);
}

// ---- ADD, SUB, MUL, DIV -------------------------------------------------------------------------

OpBuilder binary(Op op, OT type, Shape a = {2, 3}, Shape b = {2, 3}, Shape out = {2, 3}) {
  OpBuilder o(op);
  add(o, type, std::move(a));
  add(o, type, std::move(b));
  o.i32(0);
  addOut(o, type, std::move(out), 1.0f);
  return o;
}

TEST(BasicSignatures, BinaryFeatureLevelsPerType) {
  struct Row {
    Op op;
    int32_t f32, f16, q8, q8s, i32;  // 0: refused
  };
  for (const Row& r : {Row{Op::ADD, 1, 3, 1, 4, 4}, Row{Op::SUB, 2, 3, 3, 4, 4}, Row{Op::MUL, 1, 3, 1, 4, 4},
                       Row{Op::DIV, 2, 3, 0, 4, 4}}) {
    SCOPED_TRACE(static_cast<int>(r.op));
    EXPECT_EQ(levelOf(binary(r.op, kF32)), r.f32);
    EXPECT_EQ(levelOf(binary(r.op, kF16)), r.f16);
    EXPECT_EQ(levelOf(binary(r.op, kI32)), r.i32);
    if (r.op == Op::DIV) {
      EXPECT_THAT(refusal(binary(r.op, kQ8)), HasSubstr("DIV input 0 must be"));
      // Android's type check lets a signed quantized DIV through; nothing can run it.
      EXPECT_EQ(signatureLevel(binary(r.op, kQ8S)), 4);
      EXPECT_THAT(deferred(binary(r.op, kQ8S)), HasSubstr("has no DIV implementation"));
    } else {
      EXPECT_EQ(levelOf(binary(r.op, kQ8)), r.q8);
      EXPECT_EQ(levelOf(binary(r.op, kQ8S)), r.q8s);
    }
  }
}

TEST(BasicSignatures, BinaryRefusals) {
  EXPECT_THAT(refusal(binary(Op::ADD, OT::TENSOR_BOOL8)), HasSubstr("ADD input 0 must be"));
  OpBuilder scalar(Op::MUL);
  scalar.f32Scalar(1.0f).f32Scalar(1.0f).i32(0).out(OT::FLOAT32, {});
  EXPECT_THAT(refusal(scalar), HasSubstr("MUL input 0 must be"));

  OpBuilder mixed(Op::SUB);
  mixed.f32({2}).tensor(kF16, {2}).i32(0).f32Out({2});
  EXPECT_EQ(refusal(mixed), "SUB input 1 must be TENSOR_FLOAT32 like input 0, not TENSOR_FLOAT16");

  OpBuilder output(Op::ADD);
  output.f32({2}).f32({2}).i32(0).out(kF16, {2});
  EXPECT_EQ(refusal(output), "ADD output 0 must be TENSOR_FLOAT32 like input 0, not TENSOR_FLOAT16");

  OpBuilder act(Op::DIV);
  act.f32({2}).f32({2}).unknownScalar(OT::FLOAT32).f32Out({2});
  EXPECT_EQ(refusal(act), "DIV input 2 (activation) must be INT32, not FLOAT32");

  // Both ranks known: a rank above 4 is refused at once.
  EXPECT_THAT(refusal(binary(Op::ADD, kF32, {1, 1, 1, 1, 2}, {2}, {1, 1, 1, 1, 2})),
              HasSubstr("ADD input 0 must have rank 1 to 4, not rank 5"));
}

TEST(BasicSignatures, QuantizedMulOutputScaleIsCheckedWhenTheModelIsBuilt) {
  for (OT type : {kQ8, kQ8S}) {
    OpBuilder ok(Op::MUL);
    ok.tensor(type, {2}, 0.5f, 0).tensor(type, {2}, 0.25f, 0).i32(0).out(type, {2}, 0.126f, 0);
    EXPECT_EQ(levelOf(ok), type == kQ8 ? 1 : 4);
    OpBuilder equal(Op::MUL);
    equal.tensor(type, {2}, 0.5f, 0).tensor(type, {2}, 0.25f, 0).i32(0).out(type, {2}, 0.125f, 0);
    EXPECT_EQ(refusal(equal), "MUL output 0 scale 0.125 must be greater than input 0 scale * input 1 scale = 0.125");
  }
}

TEST(BasicSignatures, BinaryRankWithAnUnknownRankWaitsForPreparation) {
  // Android checks the ranks at addOperation only when both are known.
  OpBuilder op = binary(Op::ADD, kF32, {1, 1, 1, 1, 2}, {}, {});
  EXPECT_EQ(signatureLevel(op), 1);
  EXPECT_THAT(deferred(op), HasSubstr("ADD input 0 must have rank 1 to 4, not rank 5"));
}

TEST(BasicSignatures, BinaryValuesWaitForPreparation) {
  OpBuilder fuse(Op::ADD);
  fuse.f32({2}).f32({2}).i32(4).f32Out({2});
  EXPECT_THAT(deferred(fuse), HasSubstr("must be a FuseCode"));
  OpBuilder intAct(Op::MUL);
  intAct.tensor(kI32, {2}).tensor(kI32, {2}).i32(1).out(kI32, {2});
  EXPECT_THAT(deferred(intAct), HasSubstr("must be 0 (NONE) for TENSOR_INT32 tensors, not 1"));
  EXPECT_THAT(deferred(binary(Op::SUB, kF32, {2, 3}, {4, 3}, {2, 3})), HasSubstr("do not broadcast"));
}

TEST(BasicSignatures, RelaxedFloat32DoesNotRaiseTheFeatureLevel) {
  // Android leaves relaxComputationFloat32toFloat16 out of the version it computes.
  OpBuilder b = binary(Op::ADD, kF32);
  OpArgs relaxed = b.args();
  relaxed.relaxed = true;
  auto r = validateSignature(relaxed);
  ASSERT_TRUE(r) << errorOf(r);
  EXPECT_EQ(*r, 1);
  EXPECT_EQ(relaxed.featureLevel, 1);
}

// ---- FLOOR ----------------------------------------------------------------------------------------

OpBuilder unary(Op op, OT type, Shape dims = {2, 3}) {
  OpBuilder b(op);
  add(b, type, dims);
  addOut(b, type, dims);
  return b;
}

TEST(BasicSignatures, Floor) {
  EXPECT_EQ(levelOf(unary(Op::FLOOR, kF32)), 1);
  EXPECT_EQ(levelOf(unary(Op::FLOOR, kF16)), 3);
  EXPECT_THAT(refusal(unary(Op::FLOOR, kQ8)), HasSubstr("FLOOR input 0 must be TENSOR_FLOAT16 or TENSOR_FLOAT32"));
  EXPECT_THAT(refusal(unary(Op::FLOOR, kI32)), HasSubstr("FLOOR input 0 must be"));
  EXPECT_THAT(refusal(unary(Op::FLOOR, kF32, {1, 1, 1, 1, 1})), HasSubstr("not rank 5"));
  OpBuilder out(Op::FLOOR);
  out.f32({2}).out(kF16, {2});
  EXPECT_THAT(refusal(out), HasSubstr("FLOOR output 0 must be TENSOR_FLOAT32"));
}

// ---- RELU, RELU1, RELU6, LOGISTIC, TANH --------------------------------------------------------------

// The output quantization each activation produces, so that Check::Full accepts the valid forms.
OpBuilder activation(Op op, OT type, Shape dims = {2, 3}) {
  OpBuilder b(op);
  add(b, type, dims, 0.5f, 0);
  float scale = 0.5f;
  int32_t zero = 0;
  if (op == Op::LOGISTIC) {
    scale = 1.0f / 256;
    zero = type == kQ8S ? -128 : 0;
  } else if (op == Op::TANH) {
    scale = 1.0f / 128;
    zero = type == kQ8S ? 0 : 128;
  }
  addOut(b, type, dims, scale, zero);
  return b;
}

TEST(BasicSignatures, ActivationFeatureLevelsPerType) {
  for (Op op : {Op::RELU, Op::RELU1, Op::RELU6, Op::LOGISTIC, Op::TANH}) {
    SCOPED_TRACE(static_cast<int>(op));
    EXPECT_EQ(levelOf(activation(op, kF32)), 1);
    EXPECT_EQ(levelOf(activation(op, kF16)), 3);
    EXPECT_EQ(levelOf(activation(op, kQ8)), op == Op::TANH ? 3 : 1);
    EXPECT_EQ(levelOf(activation(op, kQ8S)), 4);
    EXPECT_THAT(refusal(activation(op, kI32)), HasSubstr("input 0 must be"));
    EXPECT_THAT(refusal(activation(op, kF32, {1, 2, 1, 2, 1})), HasSubstr("not rank 5"));
    // An unknown rank passes; a rank above 4 is not refused when it is not known.
    EXPECT_EQ(levelOf(activation(op, kF32, {})), 1);
    OpBuilder out(op);
    out.f32({2}).out(kF16, {2});
    EXPECT_THAT(refusal(out), HasSubstr("output 0 must be TENSOR_FLOAT32 like input 0"));
  }
}

TEST(BasicSignatures, ActivationOutputQuantizationWaitsForPreparation) {
  OpBuilder relu(Op::RELU);
  relu.q8({2}, 0.5f, 3).out(kQ8, {2}, 0.25f, 3);
  EXPECT_THAT(deferred(relu), HasSubstr("RELU output 0 must have the scale and zero point of input 0"));

  OpBuilder logistic(Op::LOGISTIC);
  logistic.q8({2}, 0.5f, 3).out(kQ8, {2}, 0.5f, 3);
  EXPECT_THAT(deferred(logistic), HasSubstr("LOGISTIC output 0 of type TENSOR_QUANT8_ASYMM must have (scale 0.00390625"));

  OpBuilder tanh(Op::TANH);
  tanh.tensor(kQ8S, {2}, 0.5f, 0).out(kQ8S, {2}, 1.0f / 128, 128 - 256);
  EXPECT_THAT(deferred(tanh), HasSubstr("TANH output 0 of type TENSOR_QUANT8_ASYMM_SIGNED must have (scale 0.0078125"));
}

// ---- SOFTMAX --------------------------------------------------------------------------------------

OpBuilder softmax(OT type, Shape dims = {2, 3}, bool axis = false) {
  OpBuilder b(Op::SOFTMAX);
  add(b, type, dims);
  if (type == kF16) {
    b.f16Scalar(0x3c00);
  } else {
    b.f32Scalar(1.0f);
  }
  if (axis) b.i32(-1);
  addOut(b, type, dims, 1.0f / 256, type == kQ8S ? -128 : 0);
  return b;
}

TEST(BasicSignatures, SoftmaxFeatureLevels) {
  EXPECT_EQ(levelOf(softmax(kF32)), 1);
  EXPECT_EQ(levelOf(softmax(kF32, {1, 2, 2, 3})), 1);
  EXPECT_EQ(levelOf(softmax(kF32, {})), 1);  // an unknown rank stays at 1
  EXPECT_EQ(levelOf(softmax(kF32, {6})), 3);
  EXPECT_EQ(levelOf(softmax(kF32, {2, 2, 3})), 3);
  EXPECT_EQ(levelOf(softmax(kQ8)), 1);
  EXPECT_EQ(levelOf(softmax(kF16)), 3);
  EXPECT_EQ(levelOf(softmax(kQ8S)), 4);
  EXPECT_EQ(levelOf(softmax(kF32, {2, 3}, true)), 3);

  OpBuilder omittedAxis(Op::SOFTMAX);
  omittedAxis.f32({2, 3}).f32Scalar(1.0f).omitted(OT::INT32).f32Out({2, 3});
  EXPECT_EQ(levelOf(omittedAxis), 3);
}

TEST(BasicSignatures, SoftmaxRefusals) {
  OpBuilder halfBeta(Op::SOFTMAX);
  halfBeta.tensor(kF16, {2}).f32Scalar(1.0f).out(kF16, {2});
  EXPECT_EQ(refusal(halfBeta), "SOFTMAX input 1 (beta) must be FLOAT16, not FLOAT32");
  OpBuilder floatBeta(Op::SOFTMAX);
  floatBeta.f32({2}).f16Scalar(0x3c00).f32Out({2});
  EXPECT_EQ(refusal(floatBeta), "SOFTMAX input 1 (beta) must be FLOAT32, not FLOAT16");
  OpBuilder axisType(Op::SOFTMAX);
  axisType.f32({2}).f32Scalar(1.0f).omitted(OT::FLOAT32).f32Out({2});
  EXPECT_THAT(refusal(axisType), HasSubstr("SOFTMAX input 2 (axis) is omitted but must still be declared INT32"));
  EXPECT_THAT(refusal(softmax(kI32)), HasSubstr("SOFTMAX input 0 must be"));
  EXPECT_THAT(refusal(softmax(kF32, {1, 1, 1, 1, 2})), HasSubstr("not rank 5"));
}

TEST(BasicSignatures, SoftmaxOutputQuantizationAndValuesWaitForPreparation) {
  OpBuilder quant(Op::SOFTMAX);
  quant.q8({2}, 0.5f, 0).f32Scalar(1.0f).out(kQ8, {2}, 0.5f, 0);
  EXPECT_THAT(deferred(quant), HasSubstr("SOFTMAX output 0 of type TENSOR_QUANT8_ASYMM must have"));
  OpBuilder beta(Op::SOFTMAX);
  beta.f32({2}).f32Scalar(0.0f).f32Out({2});
  EXPECT_THAT(deferred(beta), HasSubstr("(beta) must be > 0"));
  OpBuilder axis(Op::SOFTMAX);
  axis.f32({2, 3}).f32Scalar(1.0f).i32(2).f32Out({2, 3});
  EXPECT_THAT(deferred(axis), HasSubstr("(axis) must be in [-2, 2)"));
}

// ---- FULLY_CONNECTED ------------------------------------------------------------------------------

OpBuilder fullyConnected(OT type, float outScale = 1.0f, Shape in = {2, 3}, Shape weights = {4, 3},
                         Shape bias = {4}) {
  OpBuilder b(Op::FULLY_CONNECTED);
  add(b, type, std::move(in));
  add(b, type, std::move(weights));
  if (isQuant(type)) {
    b.tensor(kI32, std::move(bias), 0.25f, 0);
  } else {
    add(b, type, std::move(bias));
  }
  b.i32(0);
  addOut(b, type, {2, 4}, outScale);
  return b;
}

TEST(BasicSignatures, FullyConnectedFeatureLevels) {
  EXPECT_EQ(levelOf(fullyConnected(kF32)), 1);
  EXPECT_EQ(levelOf(fullyConnected(kF16)), 3);
  // Before feature level 3 a quantized output needs scale > input scale * weights scale (0.25).
  EXPECT_EQ(levelOf(fullyConnected(kQ8, 0.3f)), 1);
  EXPECT_EQ(levelOf(fullyConnected(kQ8, 0.25f)), 3);
  EXPECT_EQ(levelOf(fullyConnected(kQ8, 0.1f)), 3);
  EXPECT_EQ(levelOf(fullyConnected(kQ8S, 0.1f)), 4);
}

TEST(BasicSignatures, FullyConnectedRefusals) {
  EXPECT_THAT(refusal(fullyConnected(kI32)), HasSubstr("FULLY_CONNECTED input 0 (input) must be"));
  OpBuilder weights(Op::FULLY_CONNECTED);
  weights.f32({2, 3}).tensor(kF16, {4, 3}).f32({4}).i32(0).f32Out({2, 4});
  EXPECT_EQ(refusal(weights), "FULLY_CONNECTED input 1 (weights) must be TENSOR_FLOAT32 like input 0, not TENSOR_FLOAT16");
  OpBuilder bias(Op::FULLY_CONNECTED);
  bias.q8({2, 3}, 0.5f, 0).q8({4, 3}, 0.5f, 0).q8({4}, 0.25f, 0).i32(0).out(kQ8, {2, 4}, 1.0f, 0);
  EXPECT_EQ(refusal(bias),
            "FULLY_CONNECTED input 2 (bias) must be TENSOR_INT32 for a TENSOR_QUANT8_ASYMM input, not "
            "TENSOR_QUANT8_ASYMM");
  // With all three ranks known, Android checks the ranks and the shapes at addOperation.
  EXPECT_THAT(refusal(fullyConnected(kF32, 0, {6}, {4, 3}, {4})), HasSubstr("(input) must have rank 2 to 4, not rank 1"));
  EXPECT_THAT(refusal(fullyConnected(kF32, 0, {2, 3}, {4, 3, 1}, {4})), HasSubstr("(weights) must have rank 2"));
  EXPECT_THAT(refusal(fullyConnected(kF32, 0, {2, 3}, {4, 3}, {4, 1})), HasSubstr("(bias) must have rank 1"));
  EXPECT_THAT(refusal(fullyConnected(kF32, 0, {2, 5}, {4, 3}, {4})),
              HasSubstr("has 10 elements, not a multiple of the weights' input size 3"));
  EXPECT_THAT(refusal(fullyConnected(kF32, 0, {2, 3}, {4, 3}, {5})), HasSubstr("has 5 elements"));
}

TEST(BasicSignatures, FullyConnectedChecksWaitingForPreparation) {
  // One rank unknown: Android checks no rank or shape at addOperation.
  OpBuilder rank = fullyConnected(kF32, 0, {1, 1, 1, 2, 3}, {4, 3}, {});
  EXPECT_EQ(signatureLevel(rank), 1);
  EXPECT_THAT(deferred(rank), HasSubstr("(input) must have rank 2 to 4, not rank 5"));
  EXPECT_THAT(deferred(fullyConnected(kF32, 0, {}, {4, 3, 1}, {4})), HasSubstr("(weights) must have rank 2"));
  // The bias quantization is checked at preparation.
  OpBuilder scale(Op::FULLY_CONNECTED);
  scale.q8({2, 3}, 0.5f, 0).q8({4, 3}, 0.5f, 0).tensor(kI32, {4}, 0.5f, 0).i32(0).out(kQ8, {2, 4}, 1.0f, 0);
  EXPECT_THAT(deferred(scale), HasSubstr("(bias) scale must be input scale * filter scale = 0.25, not 0.5"));
  OpBuilder zero(Op::FULLY_CONNECTED);
  zero.q8({2, 3}, 0.5f, 0).q8({4, 3}, 0.5f, 0).tensor(kI32, {4}, 0.25f, 2).i32(0).out(kQ8, {2, 4}, 1.0f, 0);
  EXPECT_THAT(deferred(zero), HasSubstr("(bias) must have zero point 0, not 2"));
}

// ---- CONV_2D, DEPTHWISE_CONV_2D ---------------------------------------------------------------------

enum class Form { Implicit, ImplicitLayout, ImplicitDilation, Explicit, ExplicitLayout, ExplicitDilation };

// A [1, 4, 4, 2] input and a 2x2 filter with 2 output channels, VALID or zero padding, stride 1.
OpBuilder conv(Op op, OT type, Form form = Form::Implicit, float filterScale = 0.5f,
               OT filterType = OT::TENSOR_FLOAT32, uint32_t channelDim = 0) {
  const bool depthwise = op == Op::DEPTHWISE_CONV_2D;
  const Shape filter = depthwise ? Shape{1, 2, 2, 2} : Shape{2, 2, 2, 2};
  OpBuilder b(op);
  add(b, type, {1, 4, 4, 2});
  if (filterType == OT::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    b.perChannel(filter, {0.5f, 0.25f}, channelDim);
    b.tensor(kI32, {2}, 0.0f, 0);
  } else {
    add(b, type, filter, filterScale);
    if (isQuant(type)) {
      b.tensor(kI32, {2}, 0.5f * filterScale, 0);
    } else {
      add(b, type, {2});
    }
  }
  const bool explicitPadding = form == Form::Explicit || form == Form::ExplicitLayout || form == Form::ExplicitDilation;
  if (explicitPadding) {
    b.i32(0).i32(0).i32(0).i32(0);
  } else {
    b.i32(2);
  }
  b.i32(1).i32(1);
  if (depthwise) b.i32(1);
  b.i32(0);
  if (form != Form::Implicit && form != Form::Explicit) b.boolean(false);
  if (form == Form::ImplicitDilation || form == Form::ExplicitDilation) b.i32(1).i32(1);
  addOut(b, type, {1, 3, 3, 2}, 1.0f);
  return b;
}

TEST(BasicSignatures, ConvolutionFeatureLevels) {
  for (Op op : {Op::CONV_2D, Op::DEPTHWISE_CONV_2D}) {
    SCOPED_TRACE(static_cast<int>(op));
    EXPECT_EQ(levelOf(conv(op, kF32, Form::Implicit)), 1);
    EXPECT_EQ(levelOf(conv(op, kF32, Form::Explicit)), 1);
    EXPECT_EQ(levelOf(conv(op, kF32, Form::ImplicitLayout)), 3);
    EXPECT_EQ(levelOf(conv(op, kF32, Form::ImplicitDilation)), 3);
    EXPECT_EQ(levelOf(conv(op, kF32, Form::ExplicitLayout)), 3);
    EXPECT_EQ(levelOf(conv(op, kF32, Form::ExplicitDilation)), 3);
    EXPECT_EQ(levelOf(conv(op, kF16)), 3);
    EXPECT_EQ(levelOf(conv(op, kQ8)), 1);
    EXPECT_EQ(levelOf(conv(op, kQ8S)), 4);
    EXPECT_EQ(levelOf(conv(op, kQ8S, Form::ExplicitDilation)), 4);
    // Android's older scale rule compares input 0's scale with input scale * filter scale: a
    // filter scale of 1 or more needs feature level 3, whatever the output scale.
    EXPECT_EQ(levelOf(conv(op, kQ8, Form::Implicit, 1.0f)), 3);
    const uint32_t channelDim = op == Op::CONV_2D ? 0 : 3;
    EXPECT_EQ(levelOf(conv(op, kQ8, Form::Implicit, 0, OT::TENSOR_QUANT8_SYMM_PER_CHANNEL, channelDim)), 3);
    EXPECT_EQ(levelOf(conv(op, kQ8S, Form::Implicit, 0, OT::TENSOR_QUANT8_SYMM_PER_CHANNEL, channelDim)), 4);
  }
}

TEST(BasicSignatures, ConvolutionRefusals) {
  for (Op op : {Op::CONV_2D, Op::DEPTHWISE_CONV_2D}) {
    SCOPED_TRACE(static_cast<int>(op));
    EXPECT_THAT(refusal(conv(op, kI32)), HasSubstr("input 0 (input) must be"));
    const uint32_t wrongDim = op == Op::CONV_2D ? 3 : 0;
    EXPECT_THAT(refusal(conv(op, kQ8, Form::Implicit, 0, OT::TENSOR_QUANT8_SYMM_PER_CHANNEL, wrongDim)),
                HasSubstr("input 1 (filter) must be quantized along dimension"));
    // A per-channel filter goes with a quantized input only.
    OpBuilder floatPerChannel(op);
    floatPerChannel.f32({1, 4, 4, 2}).perChannel({2, 2, 2, 2}, {0.5f, 0.25f}, op == Op::CONV_2D ? 0 : 3).f32({2});
    floatPerChannel.i32(2).i32(1).i32(1);
    if (op == Op::DEPTHWISE_CONV_2D) floatPerChannel.i32(1);
    floatPerChannel.i32(0).f32Out({1, 3, 3, 2});
    EXPECT_THAT(refusal(floatPerChannel), HasSubstr("input 1 (filter) must be TENSOR_FLOAT32 like input 0"));
    // The bias of a quantized input is TENSOR_INT32.
    OpBuilder bias = conv(op, kQ8);
    bias.input(2).type = static_cast<int32_t>(kQ8);
    EXPECT_THAT(refusal(bias), HasSubstr("(bias) must be TENSOR_INT32 for a TENSOR_QUANT8_ASYMM input"));
    // Omitted optional inputs keep their declared types.
    OpBuilder layout = conv(op, kF32, Form::ImplicitLayout);
    layout.input(layout.args().inputs.size() - 1).type = static_cast<int32_t>(OT::INT32);
    layout.input(layout.args().inputs.size() - 1).omitted = true;
    EXPECT_THAT(refusal(layout), HasSubstr("(layout (NCHW)) is omitted but must still be declared BOOL, not INT32"));
    OpBuilder dilation = conv(op, kF32, Form::ExplicitDilation);
    const size_t last = dilation.args().inputs.size() - 1;
    dilation.input(last - 1).type = static_cast<int32_t>(OT::BOOL);
    dilation.input(last - 1).omitted = true;
    dilation.input(last).omitted = true;
    EXPECT_THAT(refusal(dilation), HasSubstr("(dilation width) is omitted but must still be declared INT32"));
  }
  // CONV_2D checks known ranks of input and filter at addOperation.
  OpBuilder rank(Op::CONV_2D);
  rank.f32({4, 4, 2}).f32({2, 2, 2, 2}).f32({2}).i32(2).i32(1).i32(1).i32(0).f32Out({});
  EXPECT_THAT(refusal(rank), HasSubstr("CONV_2D input 0 (input) must have rank 4, not rank 3"));
  OpBuilder filterRank(Op::CONV_2D);
  filterRank.f32({1, 4, 4, 2}).f32({2, 2, 2, 2, 1}).f32({2}).i32(2).i32(1).i32(1).i32(0).f32Out({});
  EXPECT_THAT(refusal(filterRank), HasSubstr("CONV_2D input 1 (filter) must have rank 4, not rank 5"));
}

TEST(BasicSignatures, ConvolutionChecksWaitingForPreparation) {
  // DEPTHWISE_CONV_2D's ranks are checked at preparation only.
  OpBuilder rank(Op::DEPTHWISE_CONV_2D);
  rank.f32({4, 4, 2}).f32({1, 2, 2, 2}).f32({2}).i32(2).i32(1).i32(1).i32(1).i32(0).f32Out({});
  EXPECT_EQ(signatureLevel(rank), 1);
  EXPECT_THAT(deferred(rank), HasSubstr("DEPTHWISE_CONV_2D input 0 (input) must have rank 4, not rank 3"));
  OpBuilder filterRank(Op::DEPTHWISE_CONV_2D);
  filterRank.f32({1, 4, 4, 2}).f32({2, 2, 2}).f32({2}).i32(2).i32(1).i32(1).i32(1).i32(0).f32Out({});
  EXPECT_THAT(deferred(filterRank), HasSubstr("(filter) must have rank 4, not rank 3"));
  for (Op op : {Op::CONV_2D, Op::DEPTHWISE_CONV_2D}) {
    SCOPED_TRACE(static_cast<int>(op));
    OpBuilder biasRank = conv(op, kF32);
    biasRank.input(2).dims = biasRank.output(0).dims.subspan(2, 2);  // [3, 2]
    EXPECT_THAT(deferred(biasRank), HasSubstr("(bias) must have rank 1, not rank 2"));
    OpBuilder biasScale = conv(op, kQ8);
    biasScale.input(2).scale = 0.5f;
    EXPECT_THAT(deferred(biasScale), HasSubstr("(bias) scale must be input scale * filter scale = 0.25, not 0.5"));
    OpBuilder biasZero = conv(op, kQ8S);
    biasZero.input(2).zeroPoint = 1;
    EXPECT_THAT(deferred(biasZero), HasSubstr("(bias) must have zero point 0, not 1"));
  }
}

// ---- AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D ----------------------------------------------------------

OpBuilder pool(Op op, OT type, Form form = Form::Implicit, Shape in = {1, 4, 4, 2}) {
  OpBuilder b(op);
  add(b, type, std::move(in));
  if (form == Form::Explicit || form == Form::ExplicitLayout) {
    b.i32(0).i32(0).i32(0).i32(0);
  } else {
    b.i32(2);
  }
  b.i32(1).i32(1).i32(2).i32(2).i32(0);
  if (form == Form::ImplicitLayout || form == Form::ExplicitLayout) b.boolean(false);
  addOut(b, type, {1, 3, 3, 2});
  return b;
}

TEST(BasicSignatures, PoolFeatureLevels) {
  for (Op op : {Op::AVERAGE_POOL_2D, Op::MAX_POOL_2D, Op::L2_POOL_2D}) {
    SCOPED_TRACE(static_cast<int>(op));
    EXPECT_EQ(levelOf(pool(op, kF32, Form::Implicit)), 1);
    EXPECT_EQ(levelOf(pool(op, kF32, Form::Explicit)), 1);
    EXPECT_EQ(levelOf(pool(op, kF32, Form::ImplicitLayout)), 3);
    EXPECT_EQ(levelOf(pool(op, kF32, Form::ExplicitLayout)), 3);
    EXPECT_EQ(levelOf(pool(op, kF16)), 3);
    if (op == Op::L2_POOL_2D) {
      EXPECT_THAT(refusal(pool(op, kQ8)), HasSubstr("L2_POOL_2D input 0 (input) must be TENSOR_FLOAT16 or TENSOR_FLOAT32"));
      EXPECT_THAT(refusal(pool(op, kQ8S)), HasSubstr("must be TENSOR_FLOAT16 or TENSOR_FLOAT32"));
    } else {
      EXPECT_EQ(levelOf(pool(op, kQ8)), 1);
      EXPECT_EQ(levelOf(pool(op, kQ8S)), 4);
      EXPECT_EQ(levelOf(pool(op, kQ8S, Form::ExplicitLayout)), 4);
    }
    EXPECT_THAT(refusal(pool(op, kI32)), HasSubstr("input 0 (input) must be"));
    OpBuilder layout = pool(op, kF32, Form::ImplicitLayout);
    layout.input(7).type = static_cast<int32_t>(OT::INT32);
    layout.input(7).omitted = true;
    EXPECT_THAT(refusal(layout), HasSubstr("input 7 (layout (NCHW)) is omitted but must still be declared BOOL"));
  }
}

TEST(BasicSignatures, PoolChecksWaitingForPreparation) {
  // Android checks no pool rank at addOperation.
  OpBuilder rank = pool(Op::MAX_POOL_2D, kF32, Form::Implicit, {4, 4, 2});
  EXPECT_EQ(signatureLevel(rank), 1);
  EXPECT_THAT(deferred(rank), HasSubstr("MAX_POOL_2D input 0 (input) must have rank 4, not rank 3"));
  OpBuilder quant(Op::AVERAGE_POOL_2D);
  quant.q8({1, 4, 4, 2}, 0.5f, 0).i32(2).i32(1).i32(1).i32(2).i32(2).i32(0).out(kQ8, {1, 3, 3, 2}, 0.25f, 0);
  EXPECT_THAT(deferred(quant), HasSubstr("AVERAGE_POOL_2D output 0 must have the scale and zero point of input 0"));
}

// ---- RESHAPE --------------------------------------------------------------------------------------

OpBuilder reshape(OT type, Shape in = {2, 3}, Shape shape = {1}, Shape out = {6}) {
  OpBuilder b(Op::RESHAPE);
  add(b, type, std::move(in));
  b.tensor(kI32, std::move(shape));
  addOut(b, type, std::move(out));
  return b;
}

TEST(BasicSignatures, Reshape) {
  EXPECT_EQ(levelOf(reshape(kF32)), 1);
  EXPECT_EQ(levelOf(reshape(kQ8)), 1);
  EXPECT_EQ(levelOf(reshape(kF16)), 3);
  EXPECT_EQ(levelOf(reshape(kQ8S)), 4);
  EXPECT_EQ(levelOf(reshape(kI32)), 6);
  EXPECT_THAT(refusal(reshape(OT::TENSOR_BOOL8)), HasSubstr("RESHAPE input 0 (input) must be"));
  EXPECT_THAT(refusal(reshape(kF32, {1, 1, 1, 2, 3})), HasSubstr("not rank 5"));
  OpBuilder shapeType(Op::RESHAPE);
  shapeType.f32({2, 3}).f32({1}).f32Out({6});
  EXPECT_EQ(refusal(shapeType), "RESHAPE input 1 (shape) must be TENSOR_INT32, not TENSOR_FLOAT32");
  // The rank of the shape tensor and the output quantization wait for preparation.
  EXPECT_THAT(deferred(reshape(kF32, {2, 3}, {1, 1}, {6})), HasSubstr("(shape) must have rank 1, not rank 2"));
  OpBuilder quant(Op::RESHAPE);
  quant.q8({2, 3}, 0.5f, 0).tensor(kI32, {1}).out(kQ8, {6}, 0.5f, 1);
  EXPECT_THAT(deferred(quant), HasSubstr("RESHAPE output 0 must have the scale and zero point of input 0"));
}

// ---- CONCATENATION --------------------------------------------------------------------------------

OpBuilder concat(OT type, Shape a = {1, 2}, Shape b = {1, 2}, float outScale = 0.5f) {
  OpBuilder o(Op::CONCATENATION);
  add(o, type, std::move(a));
  add(o, type, std::move(b));
  o.i32(0);
  addOut(o, type, {2, 2}, outScale);
  return o;
}

TEST(BasicSignatures, Concatenation) {
  EXPECT_EQ(levelOf(concat(kF32)), 1);
  EXPECT_EQ(levelOf(concat(kQ8)), 1);
  EXPECT_EQ(levelOf(concat(kQ8, {1, 2}, {1, 2}, 0.25f)), 3);  // the output requantizes
  EXPECT_EQ(levelOf(concat(kF16)), 3);
  EXPECT_EQ(levelOf(concat(kQ8S, {1, 2}, {1, 2}, 0.25f)), 4);
  EXPECT_THAT(refusal(concat(kI32)), HasSubstr("CONCATENATION input 0 must be"));
  OpBuilder mixed(Op::CONCATENATION);
  mixed.f32({1, 2}).tensor(kF16, {1, 2}).i32(0).f32Out({2, 2});
  EXPECT_EQ(refusal(mixed), "CONCATENATION input 1 must be TENSOR_FLOAT32 like input 0, not TENSOR_FLOAT16");
  EXPECT_THAT(refusal(concat(kF32, {1, 2}, {1, 1, 1, 1, 2})), HasSubstr("CONCATENATION input 1 must have rank 1 to 4"));
  OpBuilder axis(Op::CONCATENATION);
  axis.f32({1, 2}).f32({1, 2}).unknownScalar(OT::FLOAT32).f32Out({2, 2});
  EXPECT_EQ(refusal(axis), "CONCATENATION input 2 (axis) must be INT32, not FLOAT32");
  // That the ranks agree is checked at preparation.
  EXPECT_THAT(deferred(concat(kF32, {1, 2}, {1, 1, 2})), HasSubstr("has rank 3, but input 0 has rank 2"));
}

// ---- SQUEEZE, TRANSPOSE ---------------------------------------------------------------------------

OpBuilder squeezeOrTranspose(Op op, OT type, bool omitParam = false, Shape param = {2}) {
  OpBuilder b(op);
  add(b, type, {1, 2});
  if (omitParam) {
    b.omitted(kI32);
  } else {
    b.tensor(kI32, std::move(param));
  }
  addOut(b, type, {});
  return b;
}

TEST(BasicSignatures, SqueezeAndTranspose) {
  for (Op op : {Op::SQUEEZE, Op::TRANSPOSE}) {
    SCOPED_TRACE(static_cast<int>(op));
    EXPECT_EQ(levelOf(squeezeOrTranspose(op, kF32)), 2);
    EXPECT_EQ(levelOf(squeezeOrTranspose(op, kF32, true)), 2);
    EXPECT_EQ(levelOf(squeezeOrTranspose(op, kQ8)), 2);
    EXPECT_EQ(levelOf(squeezeOrTranspose(op, kF16)), 3);
    EXPECT_EQ(levelOf(squeezeOrTranspose(op, kQ8S)), 4);
    EXPECT_THAT(refusal(squeezeOrTranspose(op, kI32)), HasSubstr("input 0 (input) must be"));
    // Android takes exactly two inputs.
    OpBuilder one(op);
    one.f32({1, 2}).f32Out({});
    EXPECT_THAT(refusal(one), HasSubstr("takes 2 inputs, not 1"));
    // An omitted parameter keeps its declared type.
    OpBuilder scalar(op);
    scalar.f32({1, 2}).omitted(OT::INT32).f32Out({});
    EXPECT_THAT(refusal(scalar), HasSubstr("input 1 (" + std::string(op == Op::SQUEEZE ? "axes" : "perm") +
                                           ") is omitted but must still be declared TENSOR_INT32, not INT32"));
    OpBuilder rank(op);
    rank.f32({1, 1, 1, 1, 2}).omitted(kI32).f32Out({});
    EXPECT_THAT(refusal(rank), HasSubstr("not rank 5"));
    // The parameter's rank and the output quantization wait for preparation.
    EXPECT_THAT(deferred(squeezeOrTranspose(op, kF32, false, {2, 1})), HasSubstr("must have rank 1, not rank 2"));
    OpBuilder quant(op);
    quant.q8({1, 2}, 0.5f, 0).omitted(kI32).out(kQ8, {}, 0.5f, 9);
    EXPECT_THAT(deferred(quant), HasSubstr("output 0 must have the scale and zero point of input 0"));
  }
}

// ---- PAD ------------------------------------------------------------------------------------------

OpBuilder pad(OT type, int32_t zeroPoint = 0, Shape paddings = {2, 2}) {
  OpBuilder b(Op::PAD);
  add(b, type, {1, 2}, 0.5f, zeroPoint);
  b.tensor(kI32, std::move(paddings));
  addOut(b, type, {}, 0.5f, zeroPoint);
  return b;
}

TEST(BasicSignatures, Pad) {
  EXPECT_EQ(levelOf(pad(kF32)), 2);
  EXPECT_EQ(levelOf(pad(kQ8)), 2);
  EXPECT_EQ(levelOf(pad(kQ8, 3)), 3);  // a non-zero zero point needs feature level 3
  EXPECT_EQ(levelOf(pad(kF16)), 3);
  EXPECT_EQ(levelOf(pad(kQ8S, -3)), 4);
  EXPECT_THAT(refusal(pad(kI32)), HasSubstr("PAD input 0 (input) must be"));
  OpBuilder rank(Op::PAD);
  rank.f32({1, 1, 1, 1, 2}).tensor(kI32, {5, 2}).f32Out({});
  EXPECT_THAT(refusal(rank), HasSubstr("PAD input 0 (input) must have rank 1 to 4, not rank 5"));
  OpBuilder paddings(Op::PAD);
  paddings.f32({1, 2}).tensor(OT::TENSOR_FLOAT32, {2, 2}).f32Out({});
  EXPECT_EQ(refusal(paddings), "PAD input 1 (paddings) must be TENSOR_INT32, not TENSOR_FLOAT32");
  EXPECT_THAT(deferred(pad(kF32, 0, {4})), HasSubstr("(paddings) must have rank 2, not rank 1"));
  OpBuilder quant(Op::PAD);
  quant.q8({1, 2}, 0.5f, 0).tensor(kI32, {2, 2}).out(kQ8, {}, 0.25f, 0);
  EXPECT_THAT(deferred(quant), HasSubstr("PAD output 0 must have the scale and zero point of input 0"));
}

// ---- MEAN -----------------------------------------------------------------------------------------

OpBuilder mean(OT type, Shape axes = {1}) {
  OpBuilder b(Op::MEAN);
  add(b, type, {2, 3});
  b.tensor(kI32, std::move(axes)).i32(1);
  addOut(b, type, {});
  return b;
}

TEST(BasicSignatures, Mean) {
  EXPECT_EQ(levelOf(mean(kF32)), 2);
  EXPECT_EQ(levelOf(mean(kQ8)), 2);
  EXPECT_EQ(levelOf(mean(kF16)), 3);
  EXPECT_EQ(levelOf(mean(kQ8S)), 4);
  EXPECT_THAT(refusal(mean(kI32)), HasSubstr("MEAN input 0 (input) must be"));
  OpBuilder keep(Op::MEAN);
  keep.f32({2, 3}).tensor(kI32, {1}).unknownScalar(OT::BOOL).f32Out({});
  EXPECT_EQ(refusal(keep), "MEAN input 2 (keep_dims) must be INT32, not BOOL");
  OpBuilder rank(Op::MEAN);
  rank.f32({1, 1, 1, 1, 2}).tensor(kI32, {1}).i32(0).f32Out({});
  EXPECT_THAT(refusal(rank), HasSubstr("not rank 5"));
  EXPECT_THAT(deferred(mean(kF32, {1, 1})), HasSubstr("(axes) must have rank 1, not rank 2"));
  OpBuilder quant(Op::MEAN);
  quant.q8({2, 3}, 0.5f, 0).tensor(kI32, {1}).i32(0).out(kQ8, {}, 0.5f, 4);
  EXPECT_THAT(deferred(quant), HasSubstr("MEAN output 0 must have the scale and zero point of input 0"));
}

}  // namespace
}  // namespace nnrt::ops::testing
