// The cpu driver's fast layer (libnnrt_cpu_dnnl.so) against its reference kernels: each case builds
// one operation with seeded random shapes (sizes that divide no vector or block width), asserts the
// fast layer takes it, runs both on the same random input and compares element by element. The
// reference kernels are the ones the conformance suite checks against hand-computed values.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "nnrt/driver/ops/operand_types.hpp"
#include "plugins/cpu/fast_path.hpp"
#include "support/tensor_data.hpp"
#include "support/test_model.hpp"

namespace nnrt::test {
namespace {

using T = OperandType;
using O = OperationType;

std::vector<float> floats(size_t n, uint32_t seed, double lo = -1.0, double hi = 1.0) {
  const auto v = randomReals(n, lo, hi, seed);
  return std::vector<float>(v.begin(), v.end());
}

size_t elements(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

class FastPathTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string why;
    layer_ = cpu::loadFastLayer(NNRT_PLUGIN_DIR, cpu::FastLayerOptions{2, true}, why).release();
    ASSERT_NE(layer_, nullptr) << why;
  }
  static void TearDownTestSuite() {
    delete layer_;
    layer_ = nullptr;
  }

  // Whether the fast layer must take an operation, must refuse it, or may do either (cases where
  // oneDNN has only its own reference implementation, which the layer leaves to the driver's).
  enum class Fast { Taken, Refused, Either };

  // Runs the single operation of `m` (input 0 is its only model input, output 0 its only output)
  // on the fast and the reference kernel and compares them. Returns whether the fast kernel ran (its
  // name in `kernelName` when given). `layer`: another fast layer than the suite's.
  bool crossCheck(TestModel& m, uint32_t seed, Fast expect = Fast::Taken, std::string* kernelName = nullptr,
                  cpu::FastLayer* layer = nullptr) {
    const driver::Model model(m.view());
    const driver::Subgraph main = model.main();
    const nnrt_operation& operation = main.operations()[0];
    std::vector<ops::Arg> inputs = ops::inputArgs(model, main, operation);
    std::vector<ops::Arg> outputs = ops::outputArgs(model, main, operation);
    const ops::OpArgs declared{operation.type, inputs, outputs, false};
    auto entry = cpu::selectKernel(declared);
    EXPECT_TRUE(entry.has_value()) << entry.error().message;
    if (!entry.has_value()) return false;
    auto params = (*entry)->decode(declared);
    EXPECT_TRUE(params.has_value()) << params.error().message;
    if (!params.has_value()) return false;
    cpu::KernelOptions options;
    options.epilogue = epilogue_;
    auto fast = (layer != nullptr ? layer : layer_)->prepare(declared, *params, options);
    if (expect == Fast::Refused) {
      EXPECT_FALSE(fast.has_value()) << "the fast layer took an operation it should refuse";
      return false;
    }
    if (expect == Fast::Either && !fast.has_value()) return false;
    EXPECT_TRUE(fast.has_value()) << fast.error().message;
    if (!fast.has_value()) return false;
    if (kernelName != nullptr) *kernelName = (*fast)->name();
    compare(m, operation, inputs, outputs, **entry, *params, **fast, seed);
    return true;
  }

  void compare(TestModel& m, const nnrt_operation& operation, std::vector<ops::Arg>& inputs,
               std::vector<ops::Arg>& outputs, const cpu::KernelEntry& entry, const cpu::OpParams& params,
               cpu::FastKernel& fast, uint32_t seed) {

    const size_t inputCount = elements(m.operandDims(m.inputs()[0]));
    const size_t outputCount = elements(m.operandDims(m.outputs()[0]));
    const bool quantized = m.operandType(m.inputs()[0]) != T::TENSOR_FLOAT32;
    // Float inputs in [-inputRange_, inputRange_]; quantized ones any byte.
    const std::vector<float> input =
        floats(quantized ? (inputCount + 3) / 4 : inputCount, seed, -inputRange_, inputRange_);
    std::vector<uint8_t> bytes(inputCount);
    for (size_t i = 0; i < inputCount; ++i) bytes[i] = static_cast<uint8_t>(std::mt19937(seed + i)() >> 7);
    // The model input may be any operand of the operation (e.g. the second operand of ADD).
    for (uint32_t k = 0; k < operation.input_count; ++k) {
      if (operation.inputs[k] != m.inputs()[0]) continue;
      inputs[k].data = quantized ? static_cast<const void*>(bytes.data()) : input.data();
      inputs[k].length = inputCount * (quantized ? 1 : sizeof(float));
    }
    const ops::OpArgs op{operation.type, inputs, outputs, false};
    const size_t outBytes = outputCount * (quantized ? 1 : sizeof(float));
    std::vector<uint8_t> reference(outBytes, 0xAB), fastOut(outBytes, 0xCD);
    cpu::ExecutionArena arena;
    void* refData[] = {reference.data()};
    void* fastData[] = {fastOut.data()};
    ASSERT_TRUE(entry.run(cpu::KernelCall{op, refData, params, arena}).has_value());
    auto ran = fast.run(cpu::KernelCall{op, fastData, params, arena});
    ASSERT_TRUE(ran.has_value()) << ran.error().message;
    if (quantized) {
      // oneDNN rounds to nearest even, the reference half away from zero: one step apart at most.
      const bool isSigned = inputs[0].type == static_cast<int32_t>(T::TENSOR_QUANT8_ASYMM_SIGNED);
      size_t exact = 0;
      for (size_t i = 0; i < outputCount; ++i) {
        const int f = isSigned ? static_cast<int8_t>(fastOut[i]) : fastOut[i];
        const int r = isSigned ? static_cast<int8_t>(reference[i]) : reference[i];
        ASSERT_LE(std::abs(f - r), 1) << "element " << i << " of " << outputCount << " (" << fast.name() << ")";
        exact += f == r;
      }
      EXPECT_GE(exact, outputCount * 9 / 10) << "most elements agree exactly";
      return;
    }
    auto* ref = reinterpret_cast<float*>(reference.data());
    const auto* got = reinterpret_cast<const float*>(fastOut.data());
    if (epilogue_.op == cpu::EpilogueOp::Swish) {  // the reference kernel's output, then x * logistic(x)
      for (size_t i = 0; i < outputCount; ++i) ref[i] = static_cast<float>(ref[i] / (1.0 + std::exp(-static_cast<double>(ref[i]))));
    } else if (!epilogue_.empty()) {  // then the element-wise operations' reference kernels
      cpu::applyEpilogue(epilogue_, ref, outputCount);
    }
    for (size_t i = 0; i < outputCount; ++i) {
      ASSERT_NEAR(got[i], ref[i], tolerance_ * (1.0 + std::fabs(ref[i])))
          << "element " << i << " of " << outputCount << " (" << fast.name() << ")";
    }
  }

  static cpu::FastLayer* layer_;
  cpu::Epilogue epilogue_;   // asked of the fast kernel (no residual: the comparison applies it to the reference)
  double tolerance_ = 1e-4;  // float32: absolute and relative
  double inputRange_ = 2.0;
};

cpu::FastLayer* FastPathTest::layer_ = nullptr;

// A CONV_2D or DEPTHWISE_CONV_2D with explicit padding and every option of the signature.
struct ConvCase {
  uint32_t batches, height, width, inChannels, multiplierOrOut, kh, kw;
  uint32_t padL, padR, padT, padB, strideW, strideH, dilW, dilH;
  int32_t activation;
  bool nchw;
};

uint32_t outSize(uint32_t in, uint32_t k, uint32_t padA, uint32_t padB, uint32_t stride, uint32_t dil) {
  return (in + padA + padB - ((k - 1) * dil + 1)) / stride + 1;
}

void addConv(TestModel& m, ConvCase c, bool depthwise, uint32_t seed) {
  // A dilated filter wider than the padded input has no output: undilate it.
  if ((c.kh - 1) * c.dilH + 1 > c.height + c.padT + c.padB) c.dilH = 1;
  if ((c.kw - 1) * c.dilW + 1 > c.width + c.padL + c.padR) c.dilW = 1;
  const uint32_t outC = depthwise ? c.inChannels * c.multiplierOrOut : c.multiplierOrOut;
  const uint32_t oh = outSize(c.height, c.kh, c.padT, c.padB, c.strideH, c.dilH);
  const uint32_t ow = outSize(c.width, c.kw, c.padL, c.padR, c.strideW, c.dilW);
  auto image = [&](uint32_t h, uint32_t w, uint32_t ch) {
    return c.nchw ? std::vector<uint32_t>{c.batches, ch, h, w} : std::vector<uint32_t>{c.batches, h, w, ch};
  };
  const uint32_t in = m.addInput(T::TENSOR_FLOAT32, image(c.height, c.width, c.inChannels));
  const std::vector<uint32_t> filterDims =
      depthwise ? std::vector<uint32_t>{1, c.kh, c.kw, outC} : std::vector<uint32_t>{outC, c.kh, c.kw, c.inChannels};
  const uint32_t filter = m.addConstant(T::TENSOR_FLOAT32, filterDims, floats(elements(filterDims), seed + 1));
  const uint32_t bias = m.addConstant(T::TENSOR_FLOAT32, {outC}, floats(outC, seed + 2));
  std::vector<uint32_t> ins{in, filter, bias, m.addInt32(c.padL), m.addInt32(c.padR), m.addInt32(c.padT),
                            m.addInt32(c.padB), m.addInt32(c.strideW), m.addInt32(c.strideH)};
  if (depthwise) ins.push_back(m.addInt32(c.multiplierOrOut));
  ins.push_back(m.addInt32(c.activation));
  ins.push_back(m.addBool(c.nchw));
  ins.push_back(m.addInt32(c.dilW));
  ins.push_back(m.addInt32(c.dilH));
  const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, image(oh, ow, outC));
  m.addOperation(depthwise ? O::DEPTHWISE_CONV_2D : O::CONV_2D, ins, {out});
  m.setInputsAndOutputs({in}, {out});
}

// 24 seeded random convolutions (CONV_2D: up to 45 output channels; DEPTHWISE_CONV_2D: multiplier up
// to 3, larger images), a third of them NCHW.
std::vector<ConvCase> randomConvCases(bool depthwise) {
  std::mt19937 rng(depthwise ? 11 : 7);
  auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  const uint32_t maxSize = depthwise ? 29 : 23, maxOut = depthwise ? 3 : 45;
  std::vector<ConvCase> cases;
  for (uint32_t seed = 0; seed < 24; ++seed) {
    cases.push_back({pick(1, 2), pick(5, maxSize), pick(5, maxSize), pick(1, 37), pick(1, maxOut), pick(1, 5),
                     pick(1, 5), pick(0, 2), pick(0, 2), pick(0, 2), pick(0, 2), pick(1, 3), pick(1, 3), pick(1, 2),
                     pick(1, 2), static_cast<int32_t>(pick(0, 3)), seed % 3 == (depthwise ? 1u : 0u)});
  }
  return cases;
}

TEST_F(FastPathTest, Conv2DOnRandomShapes) {
  const auto cases = randomConvCases(false);
  for (uint32_t seed = 0; seed < cases.size(); ++seed) {
    SCOPED_TRACE("case " + std::to_string(seed));
    TestModel m;
    addConv(m, cases[seed], false, seed * 10);
    crossCheck(m, seed);
  }
}

// A 1x1 CONV_2D with strides and no padding runs on a dense copy of the pixels it reads: images whose
// sizes the strides do not divide, unequal strides, both layouts, two batches, every activation, and a
// Swish epilogue after it (the pass). Padded or unit-stride ones read their input in place.
TEST_F(FastPathTest, StridedPointwiseConv2DReadsGatheredPixels) {
  struct Case {
    ConvCase conv;
    bool gathered;
  };
  const std::vector<Case> cases{
      {{1, 28, 28, 64, 48, 1, 1, 0, 0, 0, 0, 2, 2, 1, 1, 1, false}, true},    // a residual network's shortcut
      {{2, 15, 23, 37, 29, 1, 1, 0, 0, 0, 0, 3, 2, 1, 1, 3, false}, true},    // strideW 3, strideH 2
      {{1, 17, 9, 24, 40, 1, 1, 0, 0, 0, 0, 2, 3, 1, 1, 2, true}, true},      // NCHW
      {{2, 7, 7, 96, 130, 1, 1, 0, 0, 0, 0, 2, 2, 2, 2, 0, true}, true},      // dilation is moot for 1x1
      {{1, 9, 11, 20, 33, 1, 1, 0, 0, 0, 0, 1, 4, 1, 1, 0, false}, true},     // strided across only
      {{1, 12, 12, 16, 16, 1, 1, 1, 0, 1, 0, 2, 2, 1, 1, 1, false}, false},   // padded: in place
      {{1, 12, 12, 16, 16, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, false}, false}};  // unit strides
  for (uint32_t seed = 0; seed < cases.size(); ++seed) {
    SCOPED_TRACE("case " + std::to_string(seed));
    TestModel m;
    addConv(m, cases[seed].conv, false, seed * 10 + 700);
    std::string name;
    ASSERT_TRUE(crossCheck(m, seed, Fast::Taken, &name));
    EXPECT_EQ(name.find("gathered") != std::string::npos, cases[seed].gathered) << name;
  }
  epilogue_.op = cpu::EpilogueOp::Swish;
  TestModel m;
  addConv(m, {1, 40, 40, 16, 48, 1, 1, 0, 0, 0, 0, 2, 2, 1, 1, 0, false}, false, 777);  // 19200 values
  std::string name;
  ASSERT_TRUE(crossCheck(m, 7, Fast::Taken, &name));
  EXPECT_NE(name.find("gathered"), std::string::npos) << name;
  epilogue_ = {};
}

// 3x3 stride-1 CONV_2D with enough channels, pixels and work runs as Winograd F(2x2, 3x3) on CPUs where
// oneDNN has it (AVX-512, channel counts that are multiples of 16; the others stay direct): odd image
// sizes, every padding, activation and both layouts; with the option off it stays direct.
TEST_F(FastPathTest, WinogradConv2DMatchesTheReference) {
  const std::vector<ConvCase> cases = {
      {1, 40, 36, 64, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, false},
      {2, 15, 23, 37, 29, 3, 3, 0, 2, 1, 0, 1, 1, 1, 1, 3, false},
      {1, 28, 28, 96, 80, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0, true},
      {1, 28, 28, 64, 17, 3, 3, 2, 0, 0, 2, 1, 1, 1, 1, 2, false},
      {2, 21, 15, 48, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 2, false},
      {1, 28, 28, 128, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, false},  // a DenseNet layer: 32 outputs, 5.8e7 operations
  };
  const bool avx512 = __builtin_cpu_supports("avx512f");
  std::string why;
  std::unique_ptr<cpu::FastLayer> direct = cpu::loadFastLayer(NNRT_PLUGIN_DIR, cpu::FastLayerOptions{2, false}, why);
  ASSERT_NE(direct, nullptr) << why;
  for (uint32_t seed = 0; seed < cases.size(); ++seed) {
    SCOPED_TRACE("case " + std::to_string(seed));
    TestModel m;
    addConv(m, cases[seed], false, 500 + seed);
    std::string name, directName;
    ASSERT_TRUE(crossCheck(m, seed, Fast::Taken, &name));
    // oneDNN 2.6 has it for channel counts that are multiples of 16 (and decides by its own
    // blocking heuristics beyond that: case 4 stays direct); the others stay direct.
    const bool blocked = cases[seed].inChannels % 16 == 0 && cases[seed].multiplierOrOut % 16 == 0;
    const bool winograd = name.find("wino") != std::string::npos;
    if (!blocked) {
      EXPECT_FALSE(winograd) << name;
    }
    if (avx512 && (seed == 0 || seed == 2 || seed == 5)) {
      EXPECT_TRUE(winograd) << name;
    }
    ASSERT_TRUE(crossCheck(m, seed, Fast::Taken, &directName, direct.get()));
    EXPECT_EQ(directName.find("wino"), std::string::npos) << directName;
  }
}

TEST_F(FastPathTest, DepthwiseConv2DOnRandomShapes) {
  const auto cases = randomConvCases(true);
  for (uint32_t seed = 0; seed < cases.size(); ++seed) {
    SCOPED_TRACE("case " + std::to_string(seed));
    TestModel m;
    addConv(m, cases[seed], true, seed * 10);
    crossCheck(m, seed);
  }
}

// GROUPED_CONV_2D: groups of up to 7 input and output channels each, explicit padding, a third NCHW.
TEST_F(FastPathTest, GroupedConv2DOnRandomShapes) {
  std::mt19937 rng(23);
  auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  for (uint32_t seed = 0; seed < 24; ++seed) {
    const uint32_t n = pick(1, 2), h = pick(5, 23), w = pick(5, 23), groups = pick(1, 6);
    const uint32_t inC = groups * pick(1, 7), outC = groups * pick(1, 7), kh = pick(1, 4), kw = pick(1, 4);
    const uint32_t pl = pick(0, 2), pr = pick(0, 2), pt = pick(0, 2), pb = pick(0, 2), sw = pick(1, 3),
                   sh = pick(1, 3);
    const int32_t activation = static_cast<int32_t>(pick(0, 3));
    const bool nchw = seed % 3 == 2;
    const uint32_t oh = outSize(h, kh, pt, pb, sh, 1), ow = outSize(w, kw, pl, pr, sw, 1);
    SCOPED_TRACE("case " + std::to_string(seed) + ": " + std::to_string(groups) + " groups " +
                 std::to_string(inC) + " -> " + std::to_string(outC) + (nchw ? " NCHW" : " NHWC"));
    auto image = [&](uint32_t hh, uint32_t ww, uint32_t c) {
      return nchw ? std::vector<uint32_t>{n, c, hh, ww} : std::vector<uint32_t>{n, hh, ww, c};
    };
    TestModel m;
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, image(h, w, inC));
    const std::vector<uint32_t> filterDims{outC, kh, kw, inC / groups};
    const uint32_t f = m.addConstant(T::TENSOR_FLOAT32, filterDims, floats(elements(filterDims), seed + 1));
    const uint32_t b = m.addConstant(T::TENSOR_FLOAT32, {outC}, floats(outC, seed + 2));
    const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, image(oh, ow, outC));
    m.addOperation(O::GROUPED_CONV_2D,
                   {in, f, b, m.addInt32(pl), m.addInt32(pr), m.addInt32(pt), m.addInt32(pb), m.addInt32(sw),
                    m.addInt32(sh), m.addInt32(groups), m.addInt32(activation), m.addBool(nchw)},
                   {out});
    m.setInputsAndOutputs({in}, {out});
    crossCheck(m, seed);
  }
}

// TRANSPOSE_CONV_2D: explicit padding (pads below the filter size), and the implicit form with an
// output shape; a third NCHW. Implicit SAME padding may ask for more output than the transposed
// window covers, which oneDNN cannot express: those may stay on the reference kernel.
TEST_F(FastPathTest, TransposeConv2DOnRandomShapes) {
  std::mt19937 rng(29);
  auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  int taken = 0;
  for (uint32_t seed = 0; seed < 24; ++seed) {
    const uint32_t n = pick(1, 2), h = pick(2, 13), w = pick(2, 13), inC = pick(1, 29), outC = pick(1, 23);
    const uint32_t kh = pick(1, 5), kw = pick(1, 5), sw = pick(1, 3), sh = pick(1, 3);
    const int32_t activation = static_cast<int32_t>(pick(0, 3));
    const bool nchw = seed % 3 == 1, implicitForm = seed % 4 == 3;
    auto image = [&](uint32_t hh, uint32_t ww, uint32_t c) {
      return nchw ? std::vector<uint32_t>{n, c, hh, ww} : std::vector<uint32_t>{n, hh, ww, c};
    };
    TestModel m;
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, image(h, w, inC));
    const std::vector<uint32_t> filterDims{outC, kh, kw, inC};
    const uint32_t f = m.addConstant(T::TENSOR_FLOAT32, filterDims, floats(elements(filterDims), seed + 1));
    const uint32_t b = m.addConstant(T::TENSOR_FLOAT32, {outC}, floats(outC, seed + 2));
    uint32_t oh = 0, ow = 0;
    std::vector<uint32_t> ins{in, f, b};
    if (implicitForm) {
      const bool same = seed % 8 == 3;  // SAME: output = input x stride; VALID: (input - 1) x stride + filter
      oh = same ? h * sh : (h - 1) * sh + kh;
      ow = same ? w * sw : (w - 1) * sw + kw;
      const std::vector<uint32_t> shape = image(oh, ow, outC);
      ins.push_back(
          m.addConstant(T::TENSOR_INT32, {4}, std::vector<int32_t>(shape.begin(), shape.end()), 0.0f, 0));
      ins.push_back(m.addInt32(same ? 1 : 2));
    } else {
      const uint32_t pl = pick(0, kw - 1), pr = pick(0, kw - 1), pt = pick(0, kh - 1), pb = pick(0, kh - 1);
      oh = (h - 1) * sh + kh - pt - pb;
      ow = (w - 1) * sw + kw - pl - pr;
      if (oh < 1 || ow < 1) continue;
      for (uint32_t pad : {pl, pr, pt, pb})
        ins.push_back(m.addInt32(pad));
    }
    SCOPED_TRACE("case " + std::to_string(seed) + (implicitForm ? " implicit" : " explicit") +
                 (nchw ? " NCHW" : " NHWC"));
    for (uint32_t v : {sw, sh})
      ins.push_back(m.addInt32(v));
    ins.push_back(m.addInt32(activation));
    ins.push_back(m.addBool(nchw));
    const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, image(oh, ow, outC));
    m.addOperation(O::TRANSPOSE_CONV_2D, ins, {out});
    m.setInputsAndOutputs({in}, {out});
    taken += crossCheck(m, seed, implicitForm ? Fast::Either : Fast::Taken);
  }
  EXPECT_GE(taken, 18) << "every explicit case and most implicit ones take the oneDNN path";
}

// TRANSPOSE_CONV_2D whose windows do not overlap (stride = filter size, no padding, NHWC) runs as one
// inner product and block copies (PatchDeconvolution): random sizes, square and oblong filters, every
// activation, batches of 1 to 3.
TEST_F(FastPathTest, NonOverlappingTransposeConv2DRunsAsBlocks) {
  std::mt19937 rng(37);
  auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  for (uint32_t seed = 0; seed < 12; ++seed) {
    const uint32_t n = pick(1, 3), h = pick(1, 11), w = pick(1, 11), inC = pick(1, 37), outC = pick(1, 21);
    const uint32_t kh = seed < 6 ? 2 : pick(1, 4), kw = seed < 6 ? 2 : pick(1, 4);
    TestModel m;
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {n, h, w, inC});
    const std::vector<uint32_t> filterDims{outC, kh, kw, inC};
    std::vector<uint32_t> ins{in, m.addConstant(T::TENSOR_FLOAT32, filterDims, floats(elements(filterDims), seed + 1)),
                              m.addConstant(T::TENSOR_FLOAT32, {outC}, floats(outC, seed + 2))};
    for (uint32_t v : {0u, 0u, 0u, 0u, kw, kh}) ins.push_back(m.addInt32(static_cast<int32_t>(v)));
    ins.push_back(m.addInt32(static_cast<int32_t>(seed % 4)));
    ins.push_back(m.addBool(false));
    const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {n, h * kh, w * kw, outC});
    m.addOperation(O::TRANSPOSE_CONV_2D, ins, {out});
    m.setInputsAndOutputs({in}, {out});
    SCOPED_TRACE("case " + std::to_string(seed));
    std::string kernel;
    crossCheck(m, seed, Fast::Taken, &kernel);
    EXPECT_NE(kernel.find("block copies"), std::string::npos) << kernel;
  }
}

// BATCH_MATMUL of rank 2 to 4, either operand adjoint; the rhs a constant.
TEST_F(FastPathTest, BatchMatmulOnRandomShapes) {
  std::mt19937 rng(31);
  auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  for (uint32_t seed = 0; seed < 24; ++seed) {
    const uint32_t rank = pick(2, 4), m = pick(1, 37), k = pick(1, 67), nn = pick(1, 41);
    const bool adjLhs = seed % 4 >= 2, adjRhs = seed % 2 == 1;
    std::vector<uint32_t> batch;
    for (uint32_t d = 2; d < rank; ++d)
      batch.push_back(pick(1, 4));
    auto with = [&](uint32_t a, uint32_t b) {
      std::vector<uint32_t> d = batch;
      d.push_back(a);
      d.push_back(b);
      return d;
    };
    const auto lhsDims = adjLhs ? with(k, m) : with(m, k);
    const auto rhsDims = adjRhs ? with(nn, k) : with(k, nn);
    SCOPED_TRACE("case " + std::to_string(seed) + ": rank " + std::to_string(rank) + " " + std::to_string(m) +
                 "x" + std::to_string(k) + "x" + std::to_string(nn) + (adjLhs ? " adj lhs" : "") +
                 (adjRhs ? " adj rhs" : ""));
    TestModel model;
    const uint32_t lhs = model.addInput(T::TENSOR_FLOAT32, lhsDims);
    const uint32_t rhs = model.addConstant(T::TENSOR_FLOAT32, rhsDims, floats(elements(rhsDims), seed + 1));
    const uint32_t out = model.addOutput(T::TENSOR_FLOAT32, with(m, nn));
    model.addOperation(O::BATCH_MATMUL, {lhs, rhs, model.addBool(adjLhs), model.addBool(adjRhs)}, {out});
    model.setInputsAndOutputs({lhs}, {out});
    crossCheck(model, seed);
  }
}

TEST_F(FastPathTest, FullyConnectedOnRandomShapes) {
  std::mt19937 rng(13);
  auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  for (uint32_t seed = 0; seed < 24; ++seed) {
    const uint32_t batches = pick(1, 19), inputSize = pick(1, 300), units = pick(1, 77);
    SCOPED_TRACE("case " + std::to_string(seed) + ": " + std::to_string(batches) + "x" + std::to_string(inputSize) +
                 " -> " + std::to_string(units));
    TestModel m;
    // Rank 3 input for every third case: FULLY_CONNECTED flattens it to [batches, inputSize].
    const std::vector<uint32_t> inDims =
        seed % 3 == 0 ? std::vector<uint32_t>{batches, 1, inputSize} : std::vector<uint32_t>{batches, inputSize};
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, inDims);
    const uint32_t w = m.addConstant(T::TENSOR_FLOAT32, {units, inputSize}, floats(units * inputSize, seed + 1));
    const uint32_t b = m.addConstant(T::TENSOR_FLOAT32, {units}, floats(units, seed + 2));
    const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {batches, units});
    m.addOperation(O::FULLY_CONNECTED, {in, w, b, m.addInt32(static_cast<int32_t>(seed % 4))}, {out});
    m.setInputsAndOutputs({in}, {out});
    crossCheck(m, seed);
  }
}

// The swish epilogue (LOGISTIC then MUL) of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED: on AVX-512
// machines the layer's own pass after the primitive where the output has 16384 values or more (a count
// that is no multiple of 16 among them: the pass's masked tail), oneDNN's post-op below; against the
// reference kernel followed by x / (1 + exp(-x)) in double, inputs up to +-6 (outputs far into both tails).
TEST_F(FastPathTest, SwishEpilogueAsAPassOrAPostOp) {
  epilogue_.op = cpu::EpilogueOp::Swish;
  inputRange_ = 6.0;
  struct Case {
    ConvCase conv;
    bool depthwise, pass;
  };
  const std::vector<Case> cases{
      {{1, 40, 40, 16, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0, false}, false, true},   // 38400 values
      {{1, 10, 10, 8, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, false}, false, false},    // 800: the post-op
      {{1, 33, 35, 21, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0, false}, true, true},     // 24255 values
      {{1, 31, 29, 20, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0, true}, true, true}};     // NCHW, 17980
  for (uint32_t seed = 0; seed < cases.size(); ++seed) {
    SCOPED_TRACE("case " + std::to_string(seed));
    TestModel m;
    addConv(m, cases[seed].conv, cases[seed].depthwise, seed * 10 + 3);
    std::string name;
    crossCheck(m, seed, Fast::Taken, &name);
    const bool avx512 = __builtin_cpu_supports("avx512f") != 0;
    EXPECT_EQ(name.find("swish pass") != std::string::npos, cases[seed].pass && avx512) << name;
  }
  TestModel m;
  const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {300, 50});
  const uint32_t w = m.addConstant(T::TENSOR_FLOAT32, {70, 50}, floats(70 * 50, 5));
  const uint32_t b = m.addConstant(T::TENSOR_FLOAT32, {70}, floats(70, 6));
  const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {300, 70});  // 21000 values
  m.addOperation(O::FULLY_CONNECTED, {in, w, b, m.addInt32(0)}, {out});
  m.setInputsAndOutputs({in}, {out});
  std::string name;
  crossCheck(m, 9, Fast::Taken, &name);
  EXPECT_EQ(name.find("swish pass") != std::string::npos, __builtin_cpu_supports("avx512f") != 0) << name;
}

// FULLY_CONNECTED of one row, inputSize -> units, with fused `activation`: random weights and bias drawn
// from `seed` and seed + 1.
TestModel oneRowFullyConnected(uint32_t inputSize, uint32_t units, int32_t activation, uint32_t seed) {
  TestModel m;
  const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {1, inputSize});
  const uint32_t w = m.addConstant(T::TENSOR_FLOAT32, {units, inputSize}, floats(units * inputSize, seed));
  const uint32_t b = m.addConstant(T::TENSOR_FLOAT32, {units}, floats(units, seed + 1));
  const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {1, units});
  m.addOperation(O::FULLY_CONNECTED, {in, w, b, m.addInt32(activation)}, {out});
  m.setInputsAndOutputs({in}, {out});
  return m;
}

// One row (batch 1): the layer's own matrix-vector product on packed weights, on AVX-512 machines.
// Output counts around the 64-row panels and odd input sizes (the columns are taken in pairs).
TEST_F(FastPathTest, OneRowFullyConnectedOnPackedWeights) {
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") != 0;
  std::mt19937 rng(17);
  auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  const uint32_t fixedUnits[] = {1, 15, 16, 63, 64, 65, 129};
  for (uint32_t seed = 0; seed < 20; ++seed) {
    const uint32_t units = seed < 7 ? fixedUnits[seed] : pick(1, 300), inputSize = seed < 7 ? 2 * seed + 1 : pick(1, 700);
    SCOPED_TRACE("case " + std::to_string(seed) + ": " + std::to_string(inputSize) + " -> " + std::to_string(units));
    TestModel m = oneRowFullyConnected(inputSize, units, static_cast<int32_t>(seed % 4), seed + 1);
    std::string name;
    crossCheck(m, seed, Fast::Taken, &name);
    if (avx512) {
      EXPECT_NE(name.find("packed weights"), std::string::npos) << name;
    }
  }
}

// A one-row FULLY_CONNECTED followed by an element-wise operation the driver folds into it (a classifier
// head's hard swish, say): the packed product applies it after the product, every kind of epilogue
// without a residual, after each fused activation, against the reference kernels of the two operations.
TEST_F(FastPathTest, OneRowFullyConnectedWithAnEpilogue) {
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") != 0;
  inputRange_ = 3.0;
  using E = cpu::EpilogueOp;
  const std::pair<E, float> epilogues[] = {{E::Swish, 0.0f},     {E::HardSwish, 0.0f},  {E::Logistic, 0.0f},
                                           {E::Tanh, 0.0f},      {E::LeakyRelu, 0.1f},  {E::Multiply, 0.7f},
                                           {E::Divide, 3.0f}};
  uint32_t seed = 0;
  for (const auto& [op, alpha] : epilogues) {
    epilogue_.op = op;
    epilogue_.alpha = alpha;
    const uint32_t units = 57 + 13 * seed, inputSize = 90 + 7 * seed;
    SCOPED_TRACE(std::string(cpu::epilogueName(epilogue_)) + ", case " + std::to_string(seed));
    TestModel m = oneRowFullyConnected(inputSize, units, static_cast<int32_t>(seed % 4), seed + 80);
    std::string name;
    crossCheck(m, seed, Fast::Taken, &name);
    if (avx512) {
      EXPECT_NE(name.find("packed weights"), std::string::npos) << name;
    }
    ++seed;
  }
}

// A one-row FULLY_CONNECTED whose bias is not a constant (an unrolled GRU's per-step input projection)
// reads the bias the execution gives at each run (here the model input, random); with more rows oneDNN's
// inner product, which takes constant biases only, leaves it to the reference kernel.
TEST_F(FastPathTest, OneRowFullyConnectedWithABiasGivenAtRun) {
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") != 0;
  const uint32_t units[] = {1, 17, 64, 65, 300, 40};
  const uint32_t inputSizes[] = {3, 33, 64, 129, 257, 20};
  for (uint32_t seed = 0; seed < 6; ++seed) {
    const uint32_t rows = seed == 5 ? 2 : 1;
    SCOPED_TRACE("case " + std::to_string(seed) + ": " + std::to_string(rows) + " rows");
    TestModel m;
    const uint32_t bias = m.addInput(T::TENSOR_FLOAT32, {units[seed]});
    const uint32_t in = m.addConstant(T::TENSOR_FLOAT32, {rows, inputSizes[seed]}, floats(rows * inputSizes[seed], seed + 60));
    const uint32_t w = m.addConstant(T::TENSOR_FLOAT32, {units[seed], inputSizes[seed]},
                                     floats(units[seed] * inputSizes[seed], seed + 61));
    const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {rows, units[seed]});
    m.addOperation(O::FULLY_CONNECTED, {in, w, bias, m.addInt32(static_cast<int32_t>(seed % 4))}, {out});
    m.setInputsAndOutputs({bias}, {out});
    std::string name;
    crossCheck(m, seed, avx512 && rows == 1 ? Fast::Taken : Fast::Refused, &name);
  }
}

// The operations of one model that read the same weights (an unrolled recurrence) share one packed
// copy (SharedForms), and the product gives the same bits whichever direction a run reads the
// panels in and whichever of the kernels runs it.
TEST_F(FastPathTest, OneRowProductsShareTheirPackedWeights) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") == 0) GTEST_SKIP() << "the packed product needs AVX-512";
  const uint32_t units = 300, inputSize = 257;  // parallel: more than 2^15 weights
  TestModel m;
  const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {1, inputSize});
  const uint32_t w = m.addConstant(T::TENSOR_FLOAT32, {units, inputSize}, floats(units * inputSize, 5));
  const uint32_t b = m.addConstant(T::TENSOR_FLOAT32, {units}, floats(units, 6));
  const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {1, units});
  m.addOperation(O::FULLY_CONNECTED, {in, w, b, m.addInt32(0)}, {out});
  m.setInputsAndOutputs({in}, {out});
  const driver::Model model(m.view());
  const nnrt_operation& operation = model.main().operations()[0];
  std::vector<ops::Arg> inputs = ops::inputArgs(model, model.main(), operation);
  std::vector<ops::Arg> outputs = ops::outputArgs(model, model.main(), operation);
  const ops::OpArgs declared{operation.type, inputs, outputs, false};
  auto entry = cpu::selectKernel(declared);
  ASSERT_TRUE(entry.has_value()) << entry.error().message;
  auto params = (*entry)->decode(declared);
  ASSERT_TRUE(params.has_value()) << params.error().message;
  const std::vector<float> x = floats(inputSize, 7);
  inputs[0].data = x.data();
  inputs[0].length = x.size() * sizeof(float);
  const ops::OpArgs op{operation.type, inputs, outputs, false};
  cpu::SharedForms shared;
  cpu::KernelOptions options;
  options.shared = &shared;
  auto first = layer_->prepare(op, *params, options);
  auto second = layer_->prepare(op, *params, options);
  ASSERT_TRUE(first.has_value() && second.has_value());
  EXPECT_EQ(shared.size(), 1u) << "one packed copy for both";

  std::vector<float> reference(units);
  cpu::ExecutionArena arena;
  void* refData[] = {reference.data()};
  ASSERT_TRUE((*entry)->run(cpu::KernelCall{op, refData, *params, arena}).has_value());
  std::vector<std::vector<float>> runs;
  for (int r = 0; r < 4; ++r) {  // first, second, first, second: both directions on each kernel
    std::vector<float> got(units, -1.0f);
    void* data[] = {got.data()};
    ASSERT_TRUE(((r % 2 == 0) ? **first : **second).run(cpu::KernelCall{op, data, *params, arena}).has_value());
    for (uint32_t i = 0; i < units; ++i)
      ASSERT_NEAR(got[i], reference[i], 1e-4 * (1.0 + std::fabs(reference[i]))) << "run " << r << ", element " << i;
    runs.push_back(std::move(got));
  }
  for (int r = 1; r < 4; ++r) EXPECT_EQ(runs[r], runs[0]) << "run " << r << " differs from run 0 in some bits";
}

// The products the layer prepares for a recurrent operation's reference kernel (FastLayer::
// prepareProducts): out += rows of a prepared matrix times a vector, for any run of rows within one
// (a gate of stacked gates, rows that start or end inside a 64-row panel), against a double loop;
// nothing done for a matrix it does not hold or a different row length.
TEST_F(FastPathTest, PreparedProductsTakeRowsWithinTheirMatrices) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") == 0) GTEST_SKIP() << "the packed products need AVX-512";
  const size_t rows = 300, cols = 129, otherRows = 7, otherCols = 40;
  const std::vector<float> stacked = floats(rows * cols, 21), other = floats(otherRows * otherCols, 22);
  const cpu::ConstantMatrix matrices[] = {{stacked.data(), rows, cols}, {other.data(), otherRows, otherCols}};
  cpu::SharedForms shared;
  auto products = layer_->prepareProducts(matrices, &shared);
  ASSERT_NE(products, nullptr);
  const std::vector<float> vec = floats(cols, 23), start = floats(rows, 24);
  struct Run {
    size_t first, count;
  };
  for (Run run : {Run{0, rows}, Run{64, 128}, Run{37, 10}, Run{10, 290}, Run{299, 1}, Run{0, 1}}) {
    SCOPED_TRACE("rows " + std::to_string(run.first) + " + " + std::to_string(run.count));
    std::vector<float> out(start.begin(), start.begin() + run.count), guard(out.size() + 32, 7.0f);
    std::copy(out.begin(), out.end(), guard.begin() + 16);  // 16 guard values each side
    ASSERT_TRUE(products->accumulate(stacked.data() + run.first * cols, run.count, cols, vec.data(), guard.data() + 16));
    for (size_t i = 0; i < 16; ++i) {
      ASSERT_EQ(guard[i], 7.0f) << "wrote before the rows";
      ASSERT_EQ(guard[16 + run.count + i], 7.0f) << "wrote after the rows";
    }
    for (size_t r = 0; r < run.count; ++r) {
      double want = start[r];
      for (size_t c = 0; c < cols; ++c) want += double{stacked[(run.first + r) * cols + c]} * vec[c];
      ASSERT_NEAR(guard[16 + r], want, 1e-4 * (1.0 + std::fabs(want))) << "row " << r;
    }
  }
  std::vector<float> out(otherRows, 0.5f);
  const std::vector<float> otherVec = floats(otherCols, 25);
  ASSERT_TRUE(products->accumulate(other.data(), otherRows, otherCols, otherVec.data(), out.data()));
  for (size_t r = 0; r < otherRows; ++r) {
    double want = 0.5;
    for (size_t c = 0; c < otherCols; ++c) want += double{other[r * otherCols + c]} * otherVec[c];
    EXPECT_NEAR(out[r], want, 1e-4 * (1.0 + std::fabs(want))) << "row " << r;
  }
  std::vector<float> untouched(rows, 1.0f);
  EXPECT_FALSE(products->accumulate(stacked.data(), rows, cols - 1, vec.data(), untouched.data())) << "other row length";
  EXPECT_FALSE(products->accumulate(stacked.data() + 1, 2, cols, vec.data(), untouched.data())) << "not a row start";
  EXPECT_FALSE(products->accumulate(stacked.data() + 290 * cols, 11, cols, vec.data(), untouched.data()))
      << "past the matrix";
  EXPECT_FALSE(products->accumulate(vec.data(), 1, cols, vec.data(), untouched.data())) << "another matrix";
  EXPECT_EQ(untouched, std::vector<float>(rows, 1.0f));
}

TEST_F(FastPathTest, PoolsOnRandomShapes) {
  std::mt19937 rng(17);
  auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  for (uint32_t seed = 0; seed < 32; ++seed) {
    const bool average = seed % 2 == 0;
    const bool nchw = seed % 4 < 2;
    const uint32_t n = pick(1, 2), h = pick(4, 21), w = pick(4, 21), ch = pick(1, 33);
    const uint32_t fh = pick(1, 4), fw = pick(1, 4), sh = pick(1, 3), sw = pick(1, 3);
    const uint32_t pl = pick(0, fw - 1), pr = pick(0, fw - 1), pt = pick(0, fh - 1), pb = pick(0, fh - 1);
    const uint32_t oh = outSize(h, fh, pt, pb, sh, 1), ow = outSize(w, fw, pl, pr, sw, 1);
    SCOPED_TRACE("case " + std::to_string(seed));
    TestModel m;
    auto image = [&](uint32_t hh, uint32_t ww) {
      return nchw ? std::vector<uint32_t>{n, ch, hh, ww} : std::vector<uint32_t>{n, hh, ww, ch};
    };
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, image(h, w));
    const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, image(oh, ow));
    m.addOperation(average ? O::AVERAGE_POOL_2D : O::MAX_POOL_2D,
                   {in, m.addInt32(pl), m.addInt32(pr), m.addInt32(pt), m.addInt32(pb), m.addInt32(sw), m.addInt32(sh),
                    m.addInt32(fw), m.addInt32(fh), m.addInt32(static_cast<int32_t>(seed % 4)), m.addBool(nchw)},
                   {out});
    m.setInputsAndOutputs({in}, {out});
    crossCheck(m, seed);
  }
}

TEST_F(FastPathTest, SoftmaxOnEveryAxis) {
  const std::vector<uint32_t> dims{3, 5, 7, 9};
  for (int32_t axis = -4; axis < 4; ++axis) {
    SCOPED_TRACE("axis " + std::to_string(axis));
    TestModel m;
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, dims);
    const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, dims);
    m.addOperation(O::SOFTMAX, {in, m.addFloat32(1.0f), m.addInt32(axis)}, {out});
    m.setInputsAndOutputs({in}, {out});
    crossCheck(m, static_cast<uint32_t>(axis + 10), axis == 3 || axis == -1 ? Fast::Taken : Fast::Either);
  }
}

// SOFTMAX along the last axis runs as the layer's own rows on AVX-512 machines: row lengths around the
// 16-lane vectors (1, 15, 16, 17, 197, 1000), beta other than 1, wide inputs (large exponents), and
// rows holding -inf (an attention mask), within 2e-6 of the reference kernel.
TEST_F(FastPathTest, SoftmaxRowsOfTheLayersOwn) {
  const bool avx512 = __builtin_cpu_supports("avx512f") != 0;
  tolerance_ = 2e-6;
  struct Case {
    std::vector<uint32_t> dims;
    float beta;
    double range;
  };
  const std::vector<Case> cases{{{7, 1}, 1.0f, 2.0},         {{3, 5, 15}, 1.0f, 2.0},   {{2, 16}, 0.5f, 8.0},
                                {{1, 3, 6, 17}, 1.0f, 40.0}, {{1, 3, 9, 197}, 1.0f, 6.0}, {{4, 1000}, 2.5f, 4.0}};
  for (uint32_t seed = 0; seed < cases.size(); ++seed) {
    SCOPED_TRACE("case " + std::to_string(seed));
    inputRange_ = cases[seed].range;
    TestModel m;
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, cases[seed].dims);
    const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, cases[seed].dims);
    m.addOperation(O::SOFTMAX, {in, m.addFloat32(cases[seed].beta), m.addInt32(-1)}, {out});
    m.setInputsAndOutputs({in}, {out});
    std::string name;
    crossCheck(m, seed + 40, avx512 || cases[seed].beta == 1.0f ? Fast::Taken : Fast::Either, &name);
    EXPECT_EQ(name.find("softmax rows") != std::string::npos, avx512) << name;
  }
  if (!avx512) return;
  // Masked scores: a row's -inf entries give 0, the others share the row's sum.
  std::vector<float> scores(2 * 37);
  for (size_t i = 0; i < scores.size(); ++i) scores[i] = i % 3 == 0 ? -INFINITY : static_cast<float>(i % 7) - 3.0f;
  const std::vector<uint32_t> dims{2, 37};
  TestModel m;
  const uint32_t in = m.addInput(T::TENSOR_FLOAT32, dims);
  const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, dims);
  m.addOperation(O::SOFTMAX, {in, m.addFloat32(1.0f), m.addInt32(1)}, {out});
  m.setInputsAndOutputs({in}, {out});
  const driver::Model model(m.view());
  const nnrt_operation& operation = model.main().operations()[0];
  std::vector<ops::Arg> inputs = ops::inputArgs(model, model.main(), operation);
  std::vector<ops::Arg> outputs = ops::outputArgs(model, model.main(), operation);
  inputs[0].data = scores.data();
  inputs[0].length = scores.size() * sizeof(float);
  const ops::OpArgs op{operation.type, inputs, outputs, false};
  auto entry = cpu::selectKernel(op);
  ASSERT_TRUE(entry.has_value());
  auto params = (*entry)->decode(op);
  ASSERT_TRUE(params.has_value());
  auto fast = layer_->prepare(op, *params, cpu::KernelOptions{});
  ASSERT_TRUE(fast.has_value()) << fast.error().message;
  std::vector<float> y(scores.size(), -1.0f);
  void* data[] = {y.data()};
  cpu::ExecutionArena arena;
  ASSERT_TRUE((*fast)->run(cpu::KernelCall{op, data, *params, arena}).has_value());
  for (size_t r = 0; r < 2; ++r) {
    double sum = 0.0, expected = 0.0;
    for (size_t i = r * 37; i < (r + 1) * 37; ++i) {
      if (i % 3 == 0) {
        EXPECT_EQ(y[i], 0.0f) << i;
      } else {
        expected += std::exp(static_cast<double>(scores[i]) - 3.0);
      }
      sum += y[i];
    }
    EXPECT_NEAR(sum, 1.0, 1e-6);
    for (size_t i = r * 37; i < (r + 1) * 37; ++i) {
      if (i % 3 != 0) {
        EXPECT_NEAR(y[i], std::exp(static_cast<double>(scores[i]) - 3.0) / expected, 1e-7) << i;
      }
    }
  }
}

TEST_F(FastPathTest, BinaryOperationsWithBroadcasting) {
  std::mt19937 rng(19);
  auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  const O kinds[] = {O::ADD, O::MUL, O::SUB, O::DIV};
  int taken = 0;
  for (uint32_t seed = 0; seed < 32; ++seed) {
    const O kind = kinds[seed % 4];
    // The output shape; the second operand drops leading dimensions and sets others to 1.
    std::vector<uint32_t> out;
    for (uint32_t d = 0, rank = pick(1, 4); d < rank; ++d) out.push_back(pick(1, 13));
    std::vector<uint32_t> other(out.begin() + pick(0, static_cast<uint32_t>(out.size()) - 1), out.end());
    for (uint32_t& d : other) if (pick(0, 2) == 0) d = 1;
    // ADD and MUL also take the broadcast operand first (the layer swaps them).
    const bool otherFirst = (kind == O::ADD || kind == O::MUL) && seed % 8 < 4;
    SCOPED_TRACE("case " + std::to_string(seed));
    TestModel m;
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, out);
    // DIV: divisors away from zero.
    const uint32_t b = m.addConstant(T::TENSOR_FLOAT32, other,
                                     kind == O::DIV ? floats(elements(other), seed, 0.5, 2.0) : floats(elements(other), seed));
    const uint32_t y = m.addOutput(T::TENSOR_FLOAT32, out);
    m.addOperation(kind, {otherFirst ? b : in, otherFirst ? in : b, m.addInt32(static_cast<int32_t>(seed % 4))}, {y});
    m.setInputsAndOutputs({in}, {y});
    // SUB and DIV with the broadcast operand first are refused; an exotic broadcast may be left too.
    taken += crossCheck(m, seed, Fast::Either);
  }
  EXPECT_GE(taken, 20) << "most broadcasts take the oneDNN path";
  for (O kind : {O::MAXIMUM, O::MINIMUM}) {
    for (bool otherFirst : {false, true}) {
      SCOPED_TRACE(std::string(kind == O::MAXIMUM ? "MAXIMUM" : "MINIMUM") + " [3, 5, 7, 9] and [9]" +
                   (otherFirst ? ", broadcast operand first" : ""));
      TestModel m;
      const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {3, 5, 7, 9});
      const uint32_t b = m.addConstant(T::TENSOR_FLOAT32, {9}, floats(9, 11));
      const uint32_t y = m.addOutput(T::TENSOR_FLOAT32, {3, 5, 7, 9});
      m.addOperation(kind, {otherFirst ? b : in, otherFirst ? in : b}, {y});
      m.setInputsAndOutputs({in}, {y});
      crossCheck(m, 12);
    }
  }
  {
    SCOPED_TRACE("per-channel ADD [2, 5, 7, 16] + [16]: taken");
    TestModel m;
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {2, 5, 7, 16});
    const uint32_t b = m.addConstant(T::TENSOR_FLOAT32, {16}, floats(16, 3));
    const uint32_t y = m.addOutput(T::TENSOR_FLOAT32, {2, 5, 7, 16});
    m.addOperation(O::ADD, {in, b, m.addInt32(1)}, {y});
    m.setInputsAndOutputs({in}, {y});
    crossCheck(m, 5);
  }
}

TEST_F(FastPathTest, ActivationsAndConcatenation) {
  // Within the conformance suite's float32 tolerance (1e-5 absolute + 1e-5 relative), on inputs
  // from -12 to 12 (LOGISTIC and TANH saturate; oneDNN's approximations differ in the last bits).
  tolerance_ = 1e-5;
  inputRange_ = 12.0;
  const O kinds[] = {O::RELU, O::RELU1, O::RELU6, O::LOGISTIC, O::TANH, O::HARD_SWISH, O::ELU};
  for (O kind : kinds) {
    SCOPED_TRACE("activation " + std::to_string(static_cast<int>(kind)));
    TestModel m;
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {3, 7, 11, 5});
    const uint32_t y = m.addOutput(T::TENSOR_FLOAT32, {3, 7, 11, 5});
    if (kind == O::ELU) {
      m.addOperation(kind, {in, m.addFloat32(0.7f)}, {y});
    } else {
      m.addOperation(kind, {in}, {y});
    }
    m.setInputsAndOutputs({in}, {y});
    crossCheck(m, static_cast<uint32_t>(kind));
  }
  for (const std::vector<uint32_t>& alpha : {std::vector<uint32_t>{5}, {11, 1}, {1, 1, 5}, {3, 7, 11, 5}}) {
    SCOPED_TRACE("PRELU with alpha of rank " + std::to_string(alpha.size()));
    TestModel m;
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {3, 7, 11, 5});
    const uint32_t a = m.addConstant(T::TENSOR_FLOAT32, alpha, floats(elements(alpha), 31));
    const uint32_t y = m.addOutput(T::TENSOR_FLOAT32, {3, 7, 11, 5});
    m.addOperation(O::PRELU, {in, a}, {y});
    m.setInputsAndOutputs({in}, {y});
    // Per channel (the last dimension) and full alphas take oneDNN's jit path; others may not.
    crossCheck(m, 32, alpha.size() == 2 ? Fast::Either : Fast::Taken);
  }
  tolerance_ = 1e-4;
  inputRange_ = 2.0;
  for (int32_t axis : {0, 1, 2, 3, -1}) {
    SCOPED_TRACE("CONCATENATION axis " + std::to_string(axis));
    const uint32_t a = axis < 0 ? 3 : static_cast<uint32_t>(axis);
    std::vector<uint32_t> d0{2, 3, 5, 7}, d1 = d0, d2 = d0, out = d0;
    d1[a] = 4;
    d2[a] = 1;
    out[a] = d0[a] + d1[a] + d2[a];
    TestModel m;
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, d0);
    const uint32_t c1 = m.addConstant(T::TENSOR_FLOAT32, d1, floats(elements(d1), 7));
    const uint32_t c2 = m.addConstant(T::TENSOR_FLOAT32, d2, floats(elements(d2), 8));
    const uint32_t y = m.addOutput(T::TENSOR_FLOAT32, out);
    m.addOperation(O::CONCATENATION, {in, c1, c2, m.addInt32(axis)}, {y});
    m.setInputsAndOutputs({in}, {y});
    // Never on oneDNN: the reference kernel's copies are faster (fast_path.hpp).
    crossCheck(m, static_cast<uint32_t>(axis + 20), Fast::Refused);
  }
}

// TRANSPOSE of rank 1 to 4 with random permutations, float32 and 8-bit (values copied as stored).
TEST_F(FastPathTest, TransposeOnRandomPermutations) {
  std::mt19937 rng(37);
  auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  int taken = 0, refused = 0;
  for (uint32_t seed = 0; seed < 24; ++seed) {
    const uint32_t rank = pick(1, 4);
    std::vector<uint32_t> dims, out;
    std::vector<int32_t> perm(rank);
    for (uint32_t d = 0; d < rank; ++d) {
      dims.push_back(pick(1, 9));
      perm[d] = static_cast<int32_t>(d);
    }
    std::shuffle(perm.begin(), perm.end(), rng);
    for (int32_t d : perm)
      out.push_back(dims[static_cast<size_t>(d)]);
    const T type = seed % 3 == 2 ? T::TENSOR_QUANT8_ASYMM_SIGNED : T::TENSOR_FLOAT32;
    SCOPED_TRACE("case " + std::to_string(seed) + ": rank " + std::to_string(rank) +
                 (type == T::TENSOR_FLOAT32 ? " float32" : " int8"));
    TestModel m;
    const uint32_t in =
        m.addInput(type, dims, type == T::TENSOR_FLOAT32 ? 0.0f : 0.5f, type == T::TENSOR_FLOAT32 ? 0 : 3);
    const uint32_t p = m.addConstant(T::TENSOR_INT32, {rank}, perm, 0.0f, 0);
    const uint32_t y =
        m.addOutput(type, out, type == T::TENSOR_FLOAT32 ? 0.0f : 0.5f, type == T::TENSOR_FLOAT32 ? 0 : 3);
    m.addOperation(O::TRANSPOSE, {in, p}, {y});
    m.setInputsAndOutputs({in}, {y});
    // The last axis staying last (rows moved whole) stays on the reference kernel, which is faster.
    const bool rowsMoved = rank >= 2 && perm.back() == static_cast<int32_t>(rank - 1);
    refused += rowsMoved;
    taken += crossCheck(m, seed, rowsMoved ? Fast::Refused : Fast::Either);
  }
  EXPECT_GE(refused, 4) << "the permutations cover rows moved whole";
  EXPECT_GE(taken, 24 - refused - 4) << "most other permutations take oneDNN's reorder";
}

// Quantized CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED: `dataType` for input and output, filters
// per-channel symmetric (perChannel) or signed per-tensor with zero point 0; int32 bias at NNAPI's
// scale (input scale x filter scale).
struct QuantCase {
  T dataType;
  bool perChannel;
  float inScale, outScale;
  int32_t inZero, outZero;
};

std::vector<uint8_t> randomBytes(size_t n, uint32_t seed, int lo, int hi) {
  const auto v = randomIntegers(n, lo, hi, seed);
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(static_cast<int>(v[i]));
  return bytes;
}

std::vector<int32_t> randomBias(size_t n, uint32_t seed) {
  const auto v = randomIntegers(n, -3000, 3000, seed);
  return std::vector<int32_t>(v.begin(), v.end());
}

// A filter operand of `dims` whose output channels lie along `channelDim`; returns its scales.
uint32_t addQuantFilter(TestModel& m, const QuantCase& q, std::vector<uint32_t> dims, uint32_t channelDim,
                        uint32_t seed, std::vector<float>& scales) {
  const size_t channels = dims[channelDim];
  const std::vector<uint8_t> values = randomBytes(elements(dims), seed, -127, 127);
  if (!q.perChannel) {
    scales.assign(channels, 0.011f);
    return m.addConstant(T::TENSOR_QUANT8_ASYMM_SIGNED, dims, values, 0.011f, 0);
  }
  const auto s = randomReals(channels, 0.004, 0.02, seed + 1);
  scales.assign(s.begin(), s.end());
  const uint32_t f = m.addConstant(T::TENSOR_QUANT8_SYMM_PER_CHANNEL, dims, values);
  m.setChannelQuant(f, channelDim, scales);
  return f;
}

TEST_F(FastPathTest, QuantizedConvolutionsAndFullyConnected) {
  const QuantCase cases[] = {
      {T::TENSOR_QUANT8_ASYMM_SIGNED, true, 0.05f, 0.2f, -3, 5},
      {T::TENSOR_QUANT8_ASYMM_SIGNED, false, 0.04f, 0.15f, 7, -9},
      {T::TENSOR_QUANT8_ASYMM, true, 0.03f, 0.1f, 128, 120},
  };
  uint32_t seed = 100;
  for (const QuantCase& q : cases) {
    for (int32_t activation : {0, 1, 3}) {
      for (bool nchw : {false, true}) {
        SCOPED_TRACE("type " + std::to_string(static_cast<int>(q.dataType)) + (q.perChannel ? " per-channel" : "") +
                     " activation " + std::to_string(activation) + (nchw ? " NCHW" : " NHWC"));
        const uint32_t h = 13, w = 11, inC = 19, outC = 21;
        auto image = [&](uint32_t hh, uint32_t ww, uint32_t c) {
          return nchw ? std::vector<uint32_t>{1, c, hh, ww} : std::vector<uint32_t>{1, hh, ww, c};
        };
        {
          SCOPED_TRACE("CONV_2D 3x3 stride 2, explicit padding");
          TestModel m;
          std::vector<float> scales;
          const uint32_t in = m.addInput(q.dataType, image(h, w, inC), q.inScale, q.inZero);
          const uint32_t f = addQuantFilter(m, q, {outC, 3, 3, inC}, 0, ++seed, scales);
          const uint32_t b = m.addConstant(T::TENSOR_INT32, {outC}, randomBias(outC, ++seed),
                                           q.perChannel ? 0.0f : q.inScale * scales[0], 0);
          const uint32_t out = m.addOutput(q.dataType, image(7, 6, outC), q.outScale, q.outZero);
          m.addOperation(O::CONV_2D,
                         {in, f, b, m.addInt32(1), m.addInt32(1), m.addInt32(1), m.addInt32(1), m.addInt32(2),
                          m.addInt32(2), m.addInt32(activation), m.addBool(nchw)},
                         {out});
          m.setInputsAndOutputs({in}, {out});
          crossCheck(m, ++seed, nchw ? Fast::Either : Fast::Taken);
        }
        {
          SCOPED_TRACE("DEPTHWISE_CONV_2D 3x3, multiplier 2");
          TestModel m;
          std::vector<float> scales;
          const uint32_t in = m.addInput(q.dataType, image(h, w, inC), q.inScale, q.inZero);
          const uint32_t f = addQuantFilter(m, q, {1, 3, 3, inC * 2}, 3, ++seed, scales);
          const uint32_t b = m.addConstant(T::TENSOR_INT32, {inC * 2}, randomBias(inC * 2, ++seed),
                                           q.perChannel ? 0.0f : q.inScale * scales[0], 0);
          const uint32_t out = m.addOutput(q.dataType, image(h, w, inC * 2), q.outScale, q.outZero);
          m.addOperation(O::DEPTHWISE_CONV_2D,
                         {in, f, b, m.addInt32(1), m.addInt32(1), m.addInt32(1), m.addInt32(1), m.addInt32(1),
                          m.addInt32(1), m.addInt32(2), m.addInt32(activation), m.addBool(nchw)},
                         {out});
          m.setInputsAndOutputs({in}, {out});
          crossCheck(m, ++seed, nchw ? Fast::Either : Fast::Taken);
        }
      }
      if (q.perChannel) continue;  // NNAPI's FULLY_CONNECTED has no per-channel weights
      SCOPED_TRACE("FULLY_CONNECTED 5x77 -> 23");
      TestModel m;
      std::vector<float> scales;
      const uint32_t in = m.addInput(q.dataType, {5, 77}, q.inScale, q.inZero);
      const uint32_t wgt = addQuantFilter(m, q, {23, 77}, 0, ++seed, scales);
      const uint32_t b = m.addConstant(T::TENSOR_INT32, {23}, randomBias(23, ++seed), q.inScale * scales[0], 0);
      const uint32_t out = m.addOutput(q.dataType, {5, 23}, q.outScale, q.outZero);
      m.addOperation(O::FULLY_CONNECTED, {in, wgt, b, m.addInt32(activation)}, {out});
      m.setInputsAndOutputs({in}, {out});
      crossCheck(m, ++seed);
    }
  }
}

// 8-bit DEPTHWISE_CONV_2D of NHWC images with a 3x3 or 5x5 window and multiplier 1: the layer's own
// kernel on CPUs with AVX-512 VNNI and VBMI (dot products of four taps; depthwise_int8.hpp). Seeded random
// shapes: strides 1 and 2 in either direction, asymmetric padding up to the window less one (the padding
// holds the input zero point), widths (14 output columns or more: narrower images stay on oneDNN) that
// fill no block of four pixels, channel counts around the
// 16-channel blocks, two batches, every fused activation, signed and unsigned activations with zero
// points, per-tensor and per-channel filters. Within one step of the reference kernel, most exact.
TEST_F(FastPathTest, QuantizedDepthwiseOfTheLayersOwn) {
  __builtin_cpu_init();
  const bool quads = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                     __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512vbmi");
  const QuantCase cases[] = {
      {T::TENSOR_QUANT8_ASYMM_SIGNED, true, 0.05f, 0.2f, -3, 5},
      {T::TENSOR_QUANT8_ASYMM_SIGNED, false, 0.04f, 0.15f, 7, -9},
      {T::TENSOR_QUANT8_ASYMM, true, 0.03f, 0.1f, 128, 120},
      {T::TENSOR_QUANT8_ASYMM, true, 0.02f, 0.05f, 3, 250},
  };
  std::mt19937 rng(23);
  auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  const uint32_t channelChoices[] = {1, 7, 16, 17, 33, 64};
  uint32_t seed = 500;
  for (const QuantCase& q : cases) {
    for (int trial = 0; trial < 8; ++trial) {
      const uint32_t k = trial % 2 == 0 ? 3 : 5, strideW = pick(1, 2), strideH = pick(1, 2);
      const uint32_t padL = pick(0, k - 1), padR = pick(0, k - 1), padT = pick(0, k - 1), padB = pick(0, k - 1);
      const uint32_t h = pick(k, 23), w = pick(2 * 14 + k, 45), c = channelChoices[pick(0, 5)], batches = pick(1, 2);
      const int32_t activation = static_cast<int32_t>(pick(0, 3));
      const uint32_t oh = (h + padT + padB - k) / strideH + 1, ow = (w + padL + padR - k) / strideW + 1;
      SCOPED_TRACE("type " + std::to_string(static_cast<int>(q.dataType)) + (q.perChannel ? " per-channel" : "") +
                   ": " + std::to_string(batches) + "x" + std::to_string(h) + "x" + std::to_string(w) + "x" +
                   std::to_string(c) + " window " + std::to_string(k) + " strides " + std::to_string(strideH) + "," +
                   std::to_string(strideW) + " pads " + std::to_string(padL) + std::to_string(padR) +
                   std::to_string(padT) + std::to_string(padB) + " activation " + std::to_string(activation));
      TestModel m;
      std::vector<float> scales;
      const uint32_t in = m.addInput(q.dataType, {batches, h, w, c}, q.inScale, q.inZero);
      const uint32_t f = addQuantFilter(m, q, {1, k, k, c}, 3, ++seed, scales);
      const uint32_t b = m.addConstant(T::TENSOR_INT32, {c}, randomBias(c, ++seed),
                                       q.perChannel ? 0.0f : q.inScale * scales[0], 0);
      const uint32_t out = m.addOutput(q.dataType, {batches, oh, ow, c}, q.outScale, q.outZero);
      m.addOperation(O::DEPTHWISE_CONV_2D,
                     {in, f, b, m.addInt32(static_cast<int32_t>(padL)), m.addInt32(static_cast<int32_t>(padR)),
                      m.addInt32(static_cast<int32_t>(padT)), m.addInt32(static_cast<int32_t>(padB)),
                      m.addInt32(static_cast<int32_t>(strideW)), m.addInt32(static_cast<int32_t>(strideH)),
                      m.addInt32(1), m.addInt32(activation), m.addBool(false)},
                     {out});
      m.setInputsAndOutputs({in}, {out});
      std::string name;
      crossCheck(m, ++seed, Fast::Taken, &name);
      EXPECT_EQ(name.find("quads") != std::string::npos, quads) << name;  // 14 output columns or more
    }
  }
}

// Quantized GROUPED_CONV_2D and TRANSPOSE_CONV_2D (signed per-tensor and per-channel filters).
// oneDNN 2.6 may serve an 8-bit case only with its reference implementation, which the layer
// leaves to the driver's: either way the result must agree.
TEST_F(FastPathTest, QuantizedGroupedAndTransposedConvolutions) {
  const QuantCase cases[] = {
      {T::TENSOR_QUANT8_ASYMM_SIGNED, true, 0.05f, 0.2f, -3, 5},
      {T::TENSOR_QUANT8_ASYMM_SIGNED, false, 0.04f, 0.15f, 7, -9},
      {T::TENSOR_QUANT8_ASYMM, true, 0.03f, 0.1f, 128, 120},
  };
  uint32_t seed = 300;
  int taken = 0;
  for (const QuantCase& q : cases) {
    for (int32_t activation : {0, 3}) {
      for (bool nchw : {false, true}) {
        SCOPED_TRACE("type " + std::to_string(static_cast<int>(q.dataType)) +
                     (q.perChannel ? " per-channel" : "") + " activation " + std::to_string(activation) +
                     (nchw ? " NCHW" : " NHWC"));
        auto image = [&](uint32_t hh, uint32_t ww, uint32_t c) {
          return nchw ? std::vector<uint32_t>{1, c, hh, ww} : std::vector<uint32_t>{1, hh, ww, c};
        };
        {
          SCOPED_TRACE("GROUPED_CONV_2D 3 groups 12 -> 15, 3x3 stride 2, explicit padding");
          TestModel m;
          std::vector<float> scales;
          const uint32_t in = m.addInput(q.dataType, image(13, 11, 12), q.inScale, q.inZero);
          const uint32_t f = addQuantFilter(m, q, {15, 3, 3, 4}, 0, ++seed, scales);
          const uint32_t b = m.addConstant(T::TENSOR_INT32, {15}, randomBias(15, ++seed),
                                           q.perChannel ? 0.0f : q.inScale * scales[0], 0);
          const uint32_t out = m.addOutput(q.dataType, image(7, 6, 15), q.outScale, q.outZero);
          m.addOperation(O::GROUPED_CONV_2D,
                         {in, f, b, m.addInt32(1), m.addInt32(1), m.addInt32(1), m.addInt32(1), m.addInt32(2),
                          m.addInt32(2), m.addInt32(3), m.addInt32(activation), m.addBool(nchw)},
                         {out});
          m.setInputsAndOutputs({in}, {out});
          taken += crossCheck(m, ++seed, Fast::Either);
        }
        {
          SCOPED_TRACE("TRANSPOSE_CONV_2D 9 -> 10, 3x3 stride 2, pads 1");
          TestModel m;
          std::vector<float> scales;
          const uint32_t in = m.addInput(q.dataType, image(6, 5, 9), q.inScale, q.inZero);
          const uint32_t f = addQuantFilter(m, q, {10, 3, 3, 9}, 0, ++seed, scales);
          const uint32_t b = m.addConstant(T::TENSOR_INT32, {10}, randomBias(10, ++seed),
                                           q.perChannel ? 0.0f : q.inScale * scales[0], 0);
          const uint32_t out = m.addOutput(q.dataType, image(11, 9, 10), q.outScale, q.outZero);
          m.addOperation(O::TRANSPOSE_CONV_2D,
                         {in, f, b, m.addInt32(1), m.addInt32(1), m.addInt32(1), m.addInt32(1), m.addInt32(2),
                          m.addInt32(2), m.addInt32(activation), m.addBool(nchw)},
                         {out});
          m.setInputsAndOutputs({in}, {out});
          taken += crossCheck(m, ++seed, Fast::Either);
        }
      }
    }
  }
  EXPECT_GE(taken, 6) << "the NHWC cases at least take the oneDNN path";
}

// What the fast layer must leave to the reference kernels.
// The layer's single-threaded sgemm, as the reference kernels' products use it (kernels/gemm.cpp splits
// them by rows or columns): on the calling thread, on a oneTBB arena and on the layer's OpenMP team
// (nested: oneDNN runs on each team thread alone), against a double-precision loop.
TEST_F(FastPathTest, SgemmForTheReferenceKernelsMatchesADoubleLoop) {
  const cpu::detail::SgemmFn sgemm = layer_->sgemm();
  ASSERT_NE(sgemm, nullptr);
  // By hand: c[2x2] (rows 3 apart) += a[2x2] * b[2x2]^T; a = {1, 2; 3, 4}, b = {1, 0; 1, -1}.
  const std::vector<float> a{1, 2, 3, 4}, b{1, 0, 1, -1};
  std::vector<float> c{10, 20, 99, 30, 40, 99};
  ASSERT_TRUE(sgemm(2, 2, 2, a.data(), 2, b.data(), 2, c.data(), 3));
  EXPECT_EQ(c, (std::vector<float>{11, 19, 99, 33, 39, 99}));
  struct Product {
    size_t m, n, k;
  };
  const Product products[] = {{64, 512, 256}, {300, 70, 19}, {70, 300, 19}, {5, 777, 3}, {129, 129, 65}, {2, 3, 1}};
  auto check = [&](const char* where) {
    uint32_t seed = 11;
    for (const Product& p : products) {
      SCOPED_TRACE(std::string(where) + ": " + std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k));
      const size_t ldc = p.n + 5;
      const auto lhs = floats(p.m * p.k, seed++), rhs = floats(p.n * p.k, seed++), start = floats(p.m * ldc, seed++);
      std::vector<float> out = start;
      {
        cpu::detail::ScopedSgemm fast(sgemm);
        cpu::detail::gemmAccumulate(lhs.data(), p.k, rhs.data(), p.k, p.m, p.n, p.k, out.data(), ldc);
      }
      for (size_t i = 0; i < p.m; ++i) {
        for (size_t j = 0; j < ldc; ++j) {
          double expected = start[i * ldc + j];
          if (j < p.n) {
            for (size_t q = 0; q < p.k; ++q) expected += double(lhs[i * p.k + q]) * rhs[j * p.k + q];
          }
          ASSERT_NEAR(out[i * ldc + j], expected, 1e-4) << "at " << i << ", " << j;
        }
      }
    }
  };
  check("calling thread");
  tbb::task_arena arena(2);
  arena.execute([&] { check("oneTBB arena of 2"); });
  cpu::detail::ScopedExecutor onTeam(layer_->executor());
  check("the layer's OpenMP team");
}

TEST_F(FastPathTest, RefusesWhatItCannotServe) {
  {
    SCOPED_TRACE("SOFTMAX with beta 0.5 across rows: oneDNN has no beta (the layer's own rows take the last axis)");
    TestModel m;
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {2, 9});
    const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {2, 9});
    m.addOperation(O::SOFTMAX, {in, m.addFloat32(0.5f), m.addInt32(0)}, {out});
    m.setInputsAndOutputs({in}, {out});
    crossCheck(m, 1, Fast::Refused);
  }
  {
    SCOPED_TRACE("FULLY_CONNECTED whose weights are a model input");
    TestModel m;
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {2, 3});
    const uint32_t w = m.addInput(T::TENSOR_FLOAT32, {4, 3});
    const uint32_t b = m.addConstant(T::TENSOR_FLOAT32, {4}, floats(4, 3));
    const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {2, 4});
    m.addOperation(O::FULLY_CONNECTED, {in, w, b, m.addInt32(0)}, {out});
    m.setInputsAndOutputs({in, w}, {out});
    crossCheck(m, 2, Fast::Refused);
  }
  {
    SCOPED_TRACE("QUANT8_ASYMM CONV_2D with an unsigned filter (zero point 128): oneDNN takes signed filters only");
    TestModel m;
    const uint32_t in = m.addInput(T::TENSOR_QUANT8_ASYMM, {1, 5, 5, 3}, 0.05f, 128);
    const uint32_t f = m.addConstant(T::TENSOR_QUANT8_ASYMM, {4, 3, 3, 3}, randomBytes(108, 5, 0, 255), 0.01f, 128);
    const uint32_t b = m.addConstant(T::TENSOR_INT32, {4}, randomBias(4, 6), 0.0005f, 0);
    const uint32_t out = m.addOutput(T::TENSOR_QUANT8_ASYMM, {1, 3, 3, 4}, 0.1f, 128);
    m.addOperation(O::CONV_2D,
                   {in, f, b, m.addInt32(0), m.addInt32(0), m.addInt32(0), m.addInt32(0), m.addInt32(1), m.addInt32(1),
                    m.addInt32(0)},
                   {out});
    m.setInputsAndOutputs({in}, {out});
    crossCheck(m, 4, Fast::Refused);
  }
  {
    SCOPED_TRACE("float16 ADD: oneDNN has no float16 on CPUs");
    TestModel m;
    const uint32_t a = m.addInput(T::TENSOR_FLOAT16, {2, 3});
    const uint32_t b = m.addInput(T::TENSOR_FLOAT16, {2, 3});
    const uint32_t out = m.addOutput(T::TENSOR_FLOAT16, {2, 3});
    m.addOperation(O::ADD, {a, b, m.addInt32(0)}, {out});
    m.setInputsAndOutputs({a, b}, {out});
    crossCheck(m, 3, Fast::Refused);
  }
}

}  // namespace
}  // namespace nnrt::test
