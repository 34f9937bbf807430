// The cpu plugin as a driver, through the real plugin file: what it reports supported and why not,
// how preparation refuses and what it copies, and how executions bind requests (unknown dimensions,
// too-small outputs, bad requests).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <optional>
#include <random>
#include <tuple>
#include <vector>

#include "nnrt/driver/half.hpp"

#include "cpu_plugin/cpu_plugin_fixture.hpp"

namespace nnrt::test::cpu {
namespace {

using T = OperandType;
using O = OperationType;

TEST(CpuPluginSupport, ReportsEachOperationWithAReason) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  TestModel m;
  // 0: supported
  const uint32_t a = m.addInput(T::TENSOR_FLOAT32, {2, 2});
  m.addOperation(O::ADD, {a, a, m.addInt32(0)}, {m.addOutput(T::TENSOR_FLOAT32, {2, 2})});
  // 1: float16, through the float32 kernel
  const uint32_t h = m.addInput(T::TENSOR_FLOAT16, {1, 3, 3, 1});
  m.addOperation(O::CONV_2D,
                 {h, m.addConstant(T::TENSOR_FLOAT16, {1, 1, 1, 1}, std::vector<uint16_t>{floatToHalf(1.0f)}),
                  m.addConstant(T::TENSOR_FLOAT16, {1}, std::vector<uint16_t>{0}), m.addInt32(2),
                  m.addInt32(1), m.addInt32(1), m.addInt32(0)},
                 {m.addOutput(T::TENSOR_FLOAT16, {1, 3, 3, 1})});
  // 2: an operation without a kernel (a vendor's OEM operation: the cpu driver runs none)
  const uint32_t e = m.addInput(T::TENSOR_FLOAT32, {1, 3});
  m.addOperation(O::OEM_OPERATION, {e}, {m.addOutput(T::TENSOR_FLOAT32, {1, 3})});
  // 3: int32 element-wise
  const uint32_t i = m.addInput(T::TENSOR_INT32, {3});
  m.addOperation(O::MUL, {i, i, m.addInt32(0)}, {m.addOutput(T::TENSOR_INT32, {3})});
  // 4: a per-channel quantized filter
  const uint32_t q = m.addInput(T::TENSOR_QUANT8_ASYMM, {1, 2, 2, 1}, 0.5f, 10);
  const uint32_t pc =
      m.addConstant(T::TENSOR_QUANT8_SYMM_PER_CHANNEL, {2, 1, 1, 1}, std::vector<int8_t>{1, -1});
  m.setChannelQuant(pc, 0, {0.1f, 0.2f});
  m.addOperation(O::CONV_2D,
                 {q, pc, m.addConstant(T::TENSOR_INT32, {2}, std::vector<int32_t>{0, 0}), m.addInt32(2),
                  m.addInt32(1), m.addInt32(1), m.addInt32(0)},
                 {m.addOutput(T::TENSOR_QUANT8_ASYMM, {1, 2, 2, 2}, 0.5f, 10)});
  // 5: an invalid operation (operand types disagree)
  const uint32_t bad = m.addInput(T::TENSOR_QUANT8_ASYMM, {2, 2}, 1.0f, 0);
  m.addOperation(O::ADD, {a, bad, m.addInt32(0)}, {m.addOutput(T::TENSOR_FLOAT32, {2, 2})});

  auto support = device->getSupportedOperations(m.view());
  ASSERT_TRUE(support.has_value()) << support.error().message;
  EXPECT_EQ(support->supported, (std::vector<bool>{true, true, false, true, true, false}));
  EXPECT_EQ(support->reasons[0], "");
  EXPECT_EQ(support->reasons[1], "");
  EXPECT_EQ(support->reasons[2], "OEM_OPERATION is not implemented by the cpu driver");
  EXPECT_EQ(support->reasons[3], "");
  EXPECT_EQ(support->reasons[4], "");
  EXPECT_EQ(support->reasons[5],
            "invalid operation: ADD input 1 must be TENSOR_FLOAT32 like input 0, not TENSOR_QUANT8_ASYMM");

  auto prepared = device->prepareModel(m.view(), NNRT_PREFER_FAST_SINGLE_ANSWER, NNRT_PRIORITY_MEDIUM, 0, {});
  ASSERT_FALSE(prepared.has_value());
  EXPECT_EQ(prepared.error().code, ResultCode::BAD_DATA);
  EXPECT_NE(prepared.error().message.find("operation 2 (OEM_OPERATION) is not supported by the cpu driver"),
            std::string::npos)
      << prepared.error().message;
}

TEST(CpuPluginPrepare, CopiesSmallConstantsAndRefusesBrokenModels) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  TestModel m;
  const uint32_t a = m.addInput(T::TENSOR_FLOAT32, {3});
  const uint32_t b = m.addConstant(T::TENSOR_FLOAT32, {3}, std::vector<float>{1, 2, 3});
  m.addOperation(O::ADD, {a, b, m.addInt32(0)}, {m.addOutput(T::TENSOR_FLOAT32, {3})});
  // operand_values are valid only during the call: prepare from a copy, then overwrite it.
  nnrt_model view = m.view();
  std::vector<uint8_t> values(view.operand_values, view.operand_values + view.operand_values_size);
  view.operand_values = values.data();
  auto prepared = device->prepareModel(view, NNRT_PREFER_FAST_SINGLE_ANSWER, NNRT_PRIORITY_MEDIUM, 0, {});
  ASSERT_TRUE(prepared.has_value()) << prepared.error().message;
  std::fill(values.begin(), values.end(), 0xAB);
  TestRequest r(1, 1);
  r.setInput(0, std::vector<float>{10, 20, 30});
  r.setOutput(0, 3 * sizeof(float));
  auto result = (*prepared)->execute(r.view(), false, 0, 0);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(r.output<float>(0), (std::vector<float>{11, 22, 33}));

  // A temporary read before any operation writes it.
  TestModel broken;
  const uint32_t x = broken.addInput(T::TENSOR_FLOAT32, {2});
  const uint32_t never = broken.addOperand(T::TENSOR_FLOAT32, {2});
  broken.addOperation(O::ADD, {x, never, broken.addInt32(0)}, {broken.addOutput(T::TENSOR_FLOAT32, {2})});
  auto refused =
      device->prepareModel(broken.view(), NNRT_PREFER_FAST_SINGLE_ANSWER, NNRT_PRIORITY_MEDIUM, 0, {});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ResultCode::BAD_DATA);
  EXPECT_NE(refused.error().message.find("reads operand 1 before any operation writes it"), std::string::npos)
      << refused.error().message;
}

// input -> RELU -> output 0; input + input -> output 1.
TestModel twoOutputModel(std::vector<uint32_t> inDims, std::vector<uint32_t> outDims) {
  TestModel m;
  const uint32_t in = m.addInput(T::TENSOR_FLOAT32, std::move(inDims));
  const uint32_t relu = m.addOutput(T::TENSOR_FLOAT32, outDims);
  const uint32_t sum = m.addOutput(T::TENSOR_FLOAT32, outDims);
  m.addOperation(O::RELU, {in}, {relu});
  m.addOperation(O::ADD, {in, in, m.addInt32(0)}, {sum});
  return m;
}

TEST(CpuPluginExecute, OutputInsufficientSizeReportsEveryShape) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  for (bool knownOutputDims : {true, false}) {
    SCOPED_TRACE(knownOutputDims ? "declared output dims" : "unknown output dims");
    TestModel m =
        twoOutputModel({2, 3}, knownOutputDims ? std::vector<uint32_t>{2, 3} : std::vector<uint32_t>{0, 0});
    auto prepared = prepare(*device, m);
    ASSERT_NE(prepared, nullptr);
    TestRequest r(1, 2);
    r.setInput(0, std::vector<float>{-1, 2, -3, 4, -5, 6});
    r.setOutput(0, 6 * sizeof(float));
    r.setOutput(1, 2 * sizeof(float));  // too small
    auto result = prepared->execute(r.view(), false, 0, 0);
    ASSERT_TRUE(result.has_value()) << result.error().message;
    EXPECT_EQ(result->status, driver::ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
    ASSERT_EQ(result->outputShapes.size(), 2u);
    EXPECT_EQ(result->outputShapes[0].dimensions, (std::vector<uint32_t>{2, 3}));
    EXPECT_TRUE(result->outputShapes[0].isSufficient);
    EXPECT_EQ(result->outputShapes[1].dimensions, (std::vector<uint32_t>{2, 3}));
    EXPECT_FALSE(result->outputShapes[1].isSufficient);
    EXPECT_EQ(r.output<float>(0), (std::vector<float>{0, 2, 0, 4, 0, 6}));  // the output that fit is written
  }
}

TEST(CpuPluginExecute, UnknownDimensionsComeFromTheRequest) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  TestModel m;
  const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {0, 3});
  const uint32_t bias = m.addConstant(T::TENSOR_FLOAT32, {3}, std::vector<float>{1, 2, 3});
  const uint32_t sum = m.addOperand(T::TENSOR_FLOAT32, {0, 0});
  m.addOperation(O::ADD, {in, bias, m.addInt32(0)}, {sum});
  const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {});  // unknown rank
  m.addOperation(O::MUL, {sum, sum, m.addInt32(0)}, {out});
  auto prepared = prepare(*device, m);
  ASSERT_NE(prepared, nullptr);

  for (uint32_t rows : {1u, 4u}) {
    TestRequest r(1, 1);
    std::vector<float> input(rows * 3);
    std::vector<float> want(rows * 3);
    for (size_t i = 0; i < input.size(); ++i) {
      input[i] = static_cast<float>(i) * 0.5f;
      const float s = input[i] + static_cast<float>(i % 3 + 1);
      want[i] = s * s;
    }
    r.setInput(0, input, {rows, 3});
    r.setOutput(0, input.size() * sizeof(float));
    auto result = prepared->execute(r.view(), false, 0, 0);
    ASSERT_TRUE(result.has_value()) << result.error().message;
    EXPECT_EQ(result->status, driver::ErrorStatus::NONE);
    EXPECT_EQ(result->outputShapes[0].dimensions, (std::vector<uint32_t>{rows, 3}));
    EXPECT_EQ(r.output<float>(0), want);
  }

  TestRequest conflicting(1, 1);  // the model says 3 columns
  conflicting.setInput(0, std::vector<float>(8), {2, 4});
  conflicting.setOutput(0, 8 * sizeof(float));
  auto refused = prepared->execute(conflicting.view(), false, 0, 0);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ResultCode::BAD_DATA);

  TestRequest missing(1, 1);  // no dimensions given for the unknown one
  missing.setInput(0, std::vector<float>(6));
  missing.setOutput(0, 6 * sizeof(float));
  auto unknown = prepared->execute(missing.view(), false, 0, 0);
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().message.find("unknown dimensions [0, 3]"), std::string::npos)
      << unknown.error().message;

  // The execution state goes back to the model after a failed execution too, and serves the next one.
  TestRequest again(1, 1);
  again.setInput(0, std::vector<float>{1, 1, 1, 2, 2, 2}, {2, 3});
  again.setOutput(0, 6 * sizeof(float));
  auto result = prepared->execute(again.view(), false, 0, 0);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->outputShapes[0].dimensions, (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(again.output<float>(0), (std::vector<float>{4, 9, 16, 9, 16, 25}));  // (x + [1, 2, 3])^2
}

// The driver ABI carries at most NNRT_MAX_RANK (8) dimensions, and so does an execution's record of a
// tensor's shape: an operation whose output would have more fails with the reason, and the execution
// after it runs.
TEST(CpuPluginExecute, AnOutputOfMoreThanEightDimensionsFailsWithTheReason) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  TestModel m;
  const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {0, 1, 1, 1, 1, 1, 1, 2});
  const uint32_t expanded = m.addOperand(T::TENSOR_FLOAT32, {});  // unknown rank: 9 once run
  m.addOperation(O::EXPAND_DIMS, {in, m.addInt32(0)}, {expanded});
  const uint32_t shape = m.addConstant(T::TENSOR_INT32, {1}, std::vector<int32_t>{-1});
  const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {0});
  m.addOperation(O::RESHAPE, {expanded, shape}, {out});
  auto prepared = prepare(*device, m);
  ASSERT_NE(prepared, nullptr);
  for (int run = 0; run < 2; ++run) {
    TestRequest r(1, 1);
    r.setInput(0, std::vector<float>{1.5f, -2.5f}, {1, 1, 1, 1, 1, 1, 1, 2});
    r.setOutput(0, 2 * sizeof(float));
    auto result = prepared->execute(r.view(), false, 0, 0);
    ASSERT_FALSE(result.has_value());
    EXPECT_EQ(result.error().code, ResultCode::OP_FAILED);
    EXPECT_NE(result.error().message.find("operation 0 (EXPAND_DIMS): its output would have 9 dimensions"),
              std::string::npos)
        << result.error().message;
  }
}

// Three 3x3 CONV_2Ds in a row with 64 channels run as Winograd convolutions whose intermediate
// tensors stay in oneDNN's blocked layout (FastLayer::chain); the second one's output is also read by
// an ADD, so it is converted back. Checked against the reference kernels (option fast off).
TEST(CpuPluginExecute, ChainedWinogradConvolutionsMatchTheReferenceKernels) {
  TestModel m;
  const std::vector<uint32_t> image{1, 40, 36, 64};
  const uint32_t in = m.addInput(T::TENSOR_FLOAT32, image);
  uint32_t x = in;
  std::vector<uint32_t> layers;
  for (uint32_t l = 0; l < 3; ++l) {
    const uint32_t filter =
        m.addConstant(T::TENSOR_FLOAT32, {64, 3, 3, 64}, toFloats(randomReals(64 * 9 * 64, -0.1, 0.1, 40 + l)));
    const uint32_t bias = m.addConstant(T::TENSOR_FLOAT32, {64}, toFloats(randomReals(64, -1.0, 1.0, 50 + l)));
    const uint32_t y = m.addOperand(T::TENSOR_FLOAT32, image);
    const uint32_t one = m.addInt32(1);
    m.addOperation(O::CONV_2D, {x, filter, bias, one, one, one, one, one, one, m.addInt32(l == 1 ? 0 : 1)}, {y});
    layers.push_back(y);
    x = y;
  }
  const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, image);
  m.addOperation(O::ADD, {layers[2], layers[1], m.addInt32(0)}, {out});
  m.setInputsAndOutputs({in}, {out});

  const std::vector<float> input = toFloats(randomReals(40 * 36 * 64, -1.0, 1.0, 7));
  auto run = [&](const char* fast) {
    LoadedDevice holder;
    auto device = loadCpu(holder, {{"fast", fast}});
    EXPECT_NE(device, nullptr);
    if (device == nullptr) return std::vector<float>{};
    auto prepared = prepare(*device, m);
    if (prepared == nullptr) return std::vector<float>{};
    std::vector<float> last;
    for (int repeat = 0; repeat < 2; ++repeat) {  // the second run reuses the prepared kernels
      TestRequest r(1, 1);
      r.setInput(0, input);
      r.setOutput(0, input.size() * sizeof(float));
      auto result = prepared->execute(r.view(), false, 0, 0);
      EXPECT_TRUE(result.has_value()) << result.error().message;
      last = r.output<float>(0);
    }
    return last;
  };
  const std::vector<float> fast = run("on"), reference = run("off");
  ASSERT_EQ(fast.size(), input.size());
  ASSERT_EQ(reference.size(), input.size());
  for (size_t i = 0; i < fast.size(); ++i)
    ASSERT_NEAR(fast[i], reference[i], 1e-4 * (1.0 + std::fabs(reference[i]))) << "element " << i;
}

// GELU through erf's composition as the ONNX front end writes it (a run of element-wise operations
// with broadcast and scalar constants, a LESS and a SELECT), then layer normalization's arithmetic
// with its MEANs: the cpu driver fuses the run into one kernel (option fusion). The fused results
// equal the operations' own kernels bit for bit, with the fast layer on or off; values in the middle
// of the run that are model outputs (one of them per row) are written out. A request that omits
// an (unused) input makes the fused steps run one by one: the same results again.
TEST(CpuPluginExecute, FusedElementwiseRunsMatchTheOperationsOneByOne) {
  TestModel m;
  const std::vector<uint32_t> shape{4, 70, 128};  // 35840 elements: on the fast layer unfused
  const size_t n = 4 * 70 * 128;
  const uint32_t x = m.addInput(T::TENSOR_FLOAT32, shape);
  const uint32_t unused = m.addInput(T::TENSOR_FLOAT32, {2});
  auto scalar = [&](float v) { return m.addConstant(T::TENSOR_FLOAT32, {1}, std::vector<float>{v}); };
  auto temp = [&](T type = T::TENSOR_FLOAT32) { return m.addOperand(type, shape); };
  auto binary = [&](O op, uint32_t a, uint32_t b, int32_t act = 0) {
    const uint32_t out = temp();
    m.addOperation(op, {a, b, m.addInt32(act)}, {out});
    return out;
  };
  auto unary = [&](O op, uint32_t a) {
    const uint32_t out = temp();
    m.addOperation(op, {a}, {out});
    return out;
  };
  const uint32_t bias = m.addConstant(T::TENSOR_FLOAT32, {128}, toFloats(randomReals(128, -1.0, 1.0, 3)));
  const uint32_t a = binary(O::ADD, x, bias);
  const uint32_t halfX = m.addOutput(T::TENSOR_FLOAT32, shape);  // a model output inside the run
  m.addOperation(O::MUL, {a, scalar(0.5f), m.addInt32(0)}, {halfX});
  const uint32_t c = binary(O::DIV, a, scalar(1.41421356f));
  const uint32_t t = binary(O::DIV, scalar(1.0f), binary(O::ADD, binary(O::MUL, unary(O::ABS, c), scalar(0.3275911f)), scalar(1.0f)));
  const uint32_t poly = binary(O::MUL, binary(O::ADD, binary(O::MUL, t, scalar(1.061405429f)), scalar(-1.453152027f)), t);
  const uint32_t tail = binary(O::MUL, poly, unary(O::EXP, unary(O::NEG, binary(O::MUL, c, c))));
  const uint32_t erfAbs = binary(O::SUB, scalar(1.0f), tail);
  const uint32_t negative = temp(T::TENSOR_BOOL8);
  m.addOperation(O::LESS, {c, scalar(0.0f)}, {negative});
  const uint32_t erf = temp();
  m.addOperation(O::SELECT, {negative, unary(O::NEG, erfAbs), erfAbs}, {erf});
  const uint32_t gelu = binary(O::MUL, halfX, binary(O::ADD, erf, scalar(1.0f)));
  // Layer normalization over the last axis, as the ONNX front end writes it: the MEANs join the run
  // (row means), the variance plus epsilon and its square root are computed per row (that sum is also
  // a model output, written one value per row); times gamma with RELU6.
  auto rowMean = [&](uint32_t of) {
    const uint32_t result = m.addOperand(T::TENSOR_FLOAT32, {4, 70, 1});
    m.addOperation(O::MEAN, {of, m.addConstant(T::TENSOR_INT32, {1}, std::vector<int32_t>{2}), m.addInt32(1)}, {result});
    return result;
  };
  const uint32_t centered = binary(O::SUB, gelu, rowMean(gelu));
  const uint32_t squared = temp();
  m.addOperation(O::POW, {centered, scalar(2.0f)}, {squared});
  const uint32_t variance = m.addOutput(T::TENSOR_FLOAT32, {4, 70, 1});
  m.addOperation(O::ADD, {rowMean(squared), scalar(1e-3f), m.addInt32(0)}, {variance});
  const uint32_t deviation = m.addOperand(T::TENSOR_FLOAT32, {4, 70, 1});
  m.addOperation(O::SQRT, {variance}, {deviation});
  const uint32_t gamma = m.addConstant(T::TENSOR_FLOAT32, {128}, toFloats(randomReals(128, 0.5, 2.0, 4)));
  const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, shape);
  m.addOperation(O::MUL, {binary(O::DIV, centered, deviation), gamma, m.addInt32(3)}, {out});
  m.setInputsAndOutputs({x, unused}, {halfX, out, variance});

  const std::vector<float> input = toFloats(randomReals(n, -4.0, 4.0, 7));
  auto run = [&](const char* fusion, const char* fast, bool omit) {
    LoadedDevice holder;
    auto device = loadCpu(holder, {{"fusion", fusion}, {"fast", fast}});
    EXPECT_NE(device, nullptr);
    if (device == nullptr) return std::vector<float>{};
    auto prepared = prepare(*device, m);
    if (prepared == nullptr) return std::vector<float>{};
    TestRequest r(2, 3);
    r.setInput(0, input);
    if (omit) {
      r.omitInput(1);
    } else {
      r.setInput(1, std::vector<float>{0, 0});
    }
    r.setOutput(0, n * sizeof(float));
    r.setOutput(1, n * sizeof(float));
    r.setOutput(2, 4 * 70 * sizeof(float));
    auto result = prepared->execute(r.view(), false, 0, 0);
    EXPECT_TRUE(result.has_value()) << result.error().message;
    std::vector<float> all = r.output<float>(0);
    for (uint32_t k : {1u, 2u}) {
      const std::vector<float> more = r.output<float>(k);
      all.insert(all.end(), more.begin(), more.end());
    }
    return all;
  };
  const std::vector<float> reference = run("off", "off", false);
  ASSERT_EQ(reference.size(), 2 * n + 4 * 70);
  for (const auto& [fusion, fast, omit] : {std::tuple{"on", "on", false}, std::tuple{"on", "off", false},
                                           std::tuple{"on", "on", true}}) {
    const std::vector<float> fused = run(fusion, fast, omit);
    ASSERT_EQ(fused.size(), reference.size());
    EXPECT_EQ(std::memcmp(fused.data(), reference.data(), fused.size() * sizeof(float)), 0)
        << "fusion " << fusion << ", fast " << fast << (omit ? ", an input omitted" : "");
  }
  // The values against the same formulas in double precision.
  const std::vector<double> biasValues = randomReals(128, -1.0, 1.0, 3), gammaValues = randomReals(128, 0.5, 2.0, 4);
  for (size_t row = 0; row < n / 128; row += 7) {
    std::vector<double> g(128);
    for (size_t k = 0; k < 128; ++k) {
      const double av = static_cast<double>(input[row * 128 + k]) + static_cast<double>(static_cast<float>(biasValues[k]));
      const double cv = av / 1.41421356, tv = 1.0 / (1.0 + 0.3275911 * std::fabs(cv));
      const double erfAbsV = 1.0 - (1.061405429 * tv - 1.453152027) * tv * std::exp(-cv * cv);
      g[k] = 0.5 * av * (1.0 + (cv < 0 ? -erfAbsV : erfAbsV));
      EXPECT_NEAR(reference[row * 128 + k], 0.5 * av, 1e-6 * (1.0 + std::fabs(av)));
    }
    double meanV = 0, varianceV = 0;
    for (double v : g) meanV += v / 128;
    for (double v : g) varianceV += (v - meanV) * (v - meanV) / 128;
    EXPECT_NEAR(reference[2 * n + row], varianceV + 1e-3, 1e-5 * (1.0 + varianceV)) << row;
    for (size_t k = 0; k < 128; ++k) {
      const double expected =
          std::clamp((g[k] - meanV) / std::sqrt(varianceV + 1e-3) * static_cast<float>(gammaValues[k]), 0.0, 6.0);
      EXPECT_NEAR(reference[n + row * 128 + k], expected, 1e-4 * (1.0 + expected)) << row << ", " << k;
    }
  }
}

// Random models of element-wise operations (arithmetic with random activations, MAXIMUM/MINIMUM, the
// unary math, POW by 2 and by 0.5, LESS and SELECT, row MEANs and the arithmetic on their rows, with
// full-shape, per-row, per-column and single-value operands; polynomials by Horner's rule;
// CONCATENATIONs over the last axis, some of another), broken here and there by a RESHAPE and
// with random intermediate values as model outputs, on shapes whose rows are 1 to 1500 long: every
// output equals the unfused operations' bit for bit (NaNs, which division by zero and the logarithm
// of negatives make, only as NaNs).
TEST(CpuPluginExecute, RandomElementwiseRunsFuseBitForBit) {
  std::mt19937 rng(2026);
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  for (int trial = 0; trial < 40; ++trial) {
    const uint32_t a = 1 + static_cast<uint32_t>(pick(3)), b = 1 + static_cast<uint32_t>(pick(40));
    const uint32_t c = trial == 0 ? 1500 : 1 + static_cast<uint32_t>(pick(300));
    const std::vector<uint32_t> full{a, b, c}, row{a, b, 1};
    TestModel m;
    const uint32_t x = m.addInput(T::TENSOR_FLOAT32, full);
    std::vector<uint32_t> fulls{x}, rows, outputs;
    std::vector<size_t> outputSizes;
    auto result = [&](const std::vector<uint32_t>& dims) {
      if (pick(8) != 0) return m.addOperand(T::TENSOR_FLOAT32, dims);
      outputSizes.push_back(dims[0] * dims[1] * dims[2]);
      outputs.push_back(m.addOutput(T::TENSOR_FLOAT32, dims));
      return outputs.back();
    };
    auto scalar = [&](float v) { return m.addConstant(T::TENSOR_FLOAT32, {1}, std::vector<float>{v}); };
    auto anyFull = [&] { return fulls[fulls.size() - 1 - pick(std::min<size_t>(fulls.size(), 4))]; };
    auto operand = [&]() -> uint32_t {  // the second operand of a binary operation on a full tensor
      switch (pick(4)) {
        case 0: return scalar(static_cast<float>(pick(7)) - 3.0f);
        case 1: return m.addConstant(T::TENSOR_FLOAT32, {c}, toFloats(randomReals(c, -2.0, 2.0, static_cast<uint32_t>(rng()))));
        case 2: if (!rows.empty()) return rows[pick(rows.size())]; [[fallthrough]];
        default: return anyFull();
      }
    };
    const int steps = 10 + static_cast<int>(pick(30));
    for (int k = 0; k < steps; ++k) {
      const size_t kind = pick(13);
      if (kind <= 2) {
        const O op[] = {O::ADD, O::SUB, O::MUL, O::DIV, O::MAXIMUM, O::MINIMUM};
        const O chosen = op[pick(6)];
        const uint32_t lhs = anyFull(), rhs = operand(), out = result(full);
        if (chosen == O::MAXIMUM || chosen == O::MINIMUM) {
          m.addOperation(chosen, {lhs, rhs}, {out});
        } else {
          m.addOperation(chosen, {lhs, rhs, m.addInt32(static_cast<int32_t>(pick(4)))}, {out});
        }
        fulls.push_back(out);
      } else if (kind <= 4) {
        const O op[] = {O::ABS, O::NEG, O::EXP, O::LOGISTIC, O::TANH, O::FLOOR, O::SQRT, O::RELU, O::RELU1,
                        O::RELU6, O::RSQRT, O::LOG, O::SIN};
        const uint32_t out = result(full);
        m.addOperation(op[pick(13)], {anyFull()}, {out});
        fulls.push_back(out);
      } else if (kind == 5) {
        const uint32_t out = result(full);
        m.addOperation(O::POW, {anyFull(), scalar(pick(2) == 0 ? 2.0f : 0.5f)}, {out});
        fulls.push_back(out);
      } else if (kind == 6) {
        const uint32_t out = result(row);
        m.addOperation(O::MEAN, {anyFull(), m.addConstant(T::TENSOR_INT32, {1}, std::vector<int32_t>{2}), m.addInt32(1)}, {out});
        rows.push_back(out);
      } else if (kind == 7 && !rows.empty()) {
        const uint32_t out = result(row);
        if (pick(2) == 0) {
          m.addOperation(O::ADD, {rows[pick(rows.size())], scalar(1e-3f), m.addInt32(0)}, {out});
        } else {
          m.addOperation(O::SQRT, {rows[pick(rows.size())]}, {out});
        }
        rows.push_back(out);
      } else if (kind == 8) {
        const uint32_t less = m.addOperand(T::TENSOR_BOOL8, full), out = result(full);
        m.addOperation(O::LESS, {anyFull(), operand()}, {less});
        m.addOperation(O::SELECT, {less, anyFull(), anyFull()}, {out});
        fulls.push_back(out);
      } else if (kind == 10) {  // a polynomial by Horner's rule in a full value (one Horner instruction)
        const uint32_t t = anyFull();
        uint32_t p = result(full);
        m.addOperation(O::MUL, {t, scalar(static_cast<float>(pick(5)) * 0.25f - 0.5f), m.addInt32(0)}, {p});
        for (size_t degree = 1 + pick(6); degree > 0; --degree) {
          const uint32_t sum = result(full), coefficient = operand();
          const bool first = pick(2) == 0;
          m.addOperation(O::ADD, {first ? p : coefficient, first ? coefficient : p,
                                  m.addInt32(degree == 1 ? static_cast<int32_t>(pick(4)) : 0)}, {sum});
          p = sum;
          if (degree > 1) {
            const uint32_t product = result(full);
            m.addOperation(O::MUL, {p, t, m.addInt32(0)}, {product});
            p = product;
          }
        }
        fulls.push_back(p);
      } else if (kind == 11) {  // a CONCATENATION of constant pieces over the last axis, perhaps of another
        auto pieces = [&](uint32_t width) {
          std::vector<uint32_t> ins;
          for (uint32_t done = 0; done < width;) {
            const uint32_t w = std::min<uint32_t>(width - done, 1 + static_cast<uint32_t>(pick(std::max<uint32_t>(width / 2, 1))));
            ins.push_back(m.addConstant(T::TENSOR_FLOAT32, {a, b, w}, toFloats(randomReals(a * b * w, -2.0, 2.0, static_cast<uint32_t>(rng())))));
            done += w;
          }
          return ins;
        };
        const uint32_t split = c > 1 ? 1 + static_cast<uint32_t>(pick(c - 1)) : 0;
        std::vector<uint32_t> ins = pieces(split == 0 ? c : split);
        if (split != 0) {
          if (pick(2) == 0) {  // the first part is itself a CONCATENATION
            const uint32_t inner = m.addOperand(T::TENSOR_FLOAT32, {a, b, split});
            ins.push_back(m.addInt32(2));
            m.addOperation(O::CONCATENATION, ins, {inner});
            ins = {inner};
          }
          const std::vector<uint32_t> rest = pieces(c - split);
          ins.insert(ins.end(), rest.begin(), rest.end());
        }
        ins.push_back(m.addInt32(pick(2) == 0 ? 2 : -1));
        const uint32_t out = result(full);
        m.addOperation(O::CONCATENATION, ins, {out});
        fulls.push_back(out);
      } else {
        const uint32_t out = m.addOperand(T::TENSOR_FLOAT32, full);  // breaks a run
        m.addOperation(O::RESHAPE, {anyFull(), m.addConstant(T::TENSOR_INT32, {3}, std::vector<int32_t>{
                                                   static_cast<int32_t>(a), static_cast<int32_t>(b), static_cast<int32_t>(c)})},
                       {out});
        fulls.push_back(out);
      }
    }
    const uint32_t last = m.addOutput(T::TENSOR_FLOAT32, full);
    m.addOperation(O::ADD, {fulls.back(), x, m.addInt32(0)}, {last});
    outputs.push_back(last);
    outputSizes.push_back(a * b * c);
    m.setInputsAndOutputs({x}, outputs);

    const std::vector<float> input = toFloats(randomReals(a * b * c, -3.0, 3.0, static_cast<uint32_t>(trial)));
    auto run = [&](const char* fusion) {
      LoadedDevice holder;
      auto device = loadCpu(holder, {{"fusion", fusion}, {"fast", "off"}});
      std::vector<std::vector<float>> values;
      if (device == nullptr) return values;
      auto prepared = prepare(*device, m);
      if (prepared == nullptr) return values;
      TestRequest r(1, outputs.size());
      r.setInput(0, input);
      for (size_t k = 0; k < outputs.size(); ++k) r.setOutput(static_cast<uint32_t>(k), outputSizes[k] * sizeof(float));
      auto executed = prepared->execute(r.view(), false, 0, 0);
      EXPECT_TRUE(executed.has_value()) << executed.error().message;
      for (size_t k = 0; k < outputs.size(); ++k) values.push_back(r.output<float>(static_cast<uint32_t>(k)));
      return values;
    };
    const auto fused = run("on"), unfused = run("off");
    ASSERT_EQ(fused.size(), outputs.size()) << "trial " << trial;
    ASSERT_EQ(unfused.size(), outputs.size()) << "trial " << trial;
    for (size_t k = 0; k < outputs.size(); ++k) {
      ASSERT_EQ(fused[k].size(), unfused[k].size());
      for (size_t i = 0; i < fused[k].size(); ++i) {
        const bool same = std::memcmp(&fused[k][i], &unfused[k][i], sizeof(float)) == 0 ||
                          (std::isnan(fused[k][i]) && std::isnan(unfused[k][i]));
        ASSERT_TRUE(same) << "trial " << trial << " (" << a << "x" << b << "x" << c << "), output " << k
                          << ", element " << i << ": " << fused[k][i] << " vs " << unfused[k][i];
      }
    }
  }
}

// Temporaries share memory only when their lifetimes do not overlap (CpuPreparedModel::planTemporaries):
// t1 = x + x is relabelled by a RESHAPE (t2 points at t1's bytes) and read again by the last ADD, so t1
// lives to the end and t3 = t2 * t2 must not take its place. By hand, x = 0..63: out = 4x² + 2x.
// Prepares `m` with element-wise fusion off and then on, and calls check(prepared, fusion) twice on
// each (the second execution reuses the first one's memory).
template <class Check>
void twiceWithFusionOffAndOn(TestModel& m, const Check& check) {
  for (const char* fusion : {"off", "on"}) {
    LoadedDevice holder;
    auto device = loadCpu(holder, {{"fusion", fusion}});
    ASSERT_NE(device, nullptr);
    auto prepared = prepare(*device, m);
    ASSERT_NE(prepared, nullptr);
    for (int repeat = 0; repeat < 2; ++repeat) check(*prepared, fusion);
  }
}

TEST(CpuPluginExecute, PlannedTemporariesDoNotOverwriteLiveOnes) {
  TestModel m;
  const uint32_t x = m.addInput(T::TENSOR_FLOAT32, {64});
  const uint32_t t1 = m.addOperand(T::TENSOR_FLOAT32, {64});
  m.addOperation(O::ADD, {x, x, m.addInt32(0)}, {t1});
  const uint32_t t2 = m.addOperand(T::TENSOR_FLOAT32, {8, 8});
  m.addOperation(O::RESHAPE, {t1, m.addConstant(T::TENSOR_INT32, {2}, std::vector<int32_t>{8, 8})}, {t2});
  const uint32_t t3 = m.addOperand(T::TENSOR_FLOAT32, {8, 8});
  m.addOperation(O::MUL, {t2, t2, m.addInt32(0)}, {t3});
  const uint32_t t4 = m.addOperand(T::TENSOR_FLOAT32, {8, 8});
  m.addOperation(O::RELU, {t3}, {t4});
  const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {8, 8});
  m.addOperation(O::ADD, {t4, t2, m.addInt32(0)}, {out});
  m.setInputsAndOutputs({x}, {out});
  std::vector<float> input(64), expected(64);
  for (int i = 0; i < 64; ++i) {
    input[i] = static_cast<float>(i);
    expected[i] = static_cast<float>(4 * i * i + 2 * i);
  }
  twiceWithFusionOffAndOn(m, [&](auto& prepared, const char* fusion) {
    TestRequest r(1, 1);
    r.setInput(0, input);
    r.setOutput(0, 64 * sizeof(float));
    auto result = prepared.execute(r.view(), false, 0, 0);
    ASSERT_TRUE(result.has_value()) << result.error().message;
    EXPECT_EQ(r.output<float>(0), expected) << "fusion " << fusion;
  });
}

// SLICE and SPLIT outputs that are runs of their input's bytes point into it (Step::viewOffsets): the
// input then lives as long as they do, so t3 = x * x must not take t1's place while the row s0 and the
// SPLIT's rows are still to be read. A column slice (not one run) and a slice the request receives are
// copied. By hand, x[i][j] = 8i + j, t1 = 2x: out0 = t1[1] + x², out1 = t1's rows reversed, out2 =
// columns 2..4 of t1, out3 = rows 2..3 of t1.
TEST(CpuPluginExecute, SlicesThatAreRunsOfTheirInputPointIntoIt) {
  TestModel m;
  const uint32_t x = m.addInput(T::TENSOR_FLOAT32, {4, 8});
  const uint32_t t1 = m.addOperand(T::TENSOR_FLOAT32, {4, 8});
  m.addOperation(O::ADD, {x, x, m.addInt32(0)}, {t1});
  const uint32_t out2 = m.addOutput(T::TENSOR_FLOAT32, {4, 3});
  m.addOperation(O::SLICE, {t1, m.addInt32Tensor({0, 2}), m.addInt32Tensor({4, 3})}, {out2});
  const uint32_t out3 = m.addOutput(T::TENSOR_FLOAT32, {2, 8});
  m.addOperation(O::SLICE, {t1, m.addInt32Tensor({2, 0}), m.addInt32Tensor({2, 8})}, {out3});
  const uint32_t s0 = m.addOperand(T::TENSOR_FLOAT32, {1, 8});
  m.addOperation(O::SLICE, {t1, m.addInt32Tensor({1, 0}), m.addInt32Tensor({1, -1})}, {s0});
  std::vector<uint32_t> rows;
  for (int r = 0; r < 4; ++r) rows.push_back(m.addOperand(T::TENSOR_FLOAT32, {1, 8}));
  m.addOperation(O::SPLIT, {t1, m.addInt32(0), m.addInt32(4)}, rows);
  const uint32_t t3 = m.addOperand(T::TENSOR_FLOAT32, {4, 8});
  m.addOperation(O::MUL, {x, x, m.addInt32(0)}, {t3});
  const uint32_t t4 = m.addOperand(T::TENSOR_FLOAT32, {4, 8});
  m.addOperation(O::RELU, {t3}, {t4});
  const uint32_t out0 = m.addOutput(T::TENSOR_FLOAT32, {4, 8});
  m.addOperation(O::ADD, {s0, t4, m.addInt32(0)}, {out0});
  const uint32_t out1 = m.addOutput(T::TENSOR_FLOAT32, {4, 8});
  m.addOperation(O::CONCATENATION, {rows[3], rows[2], rows[1], rows[0], m.addInt32(0)}, {out1});
  m.setInputsAndOutputs({x}, {out0, out1, out2, out3});
  std::vector<float> input(32), expected0(32), expected1(32), expected2, expected3;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 8; ++j) {
      const int v = 8 * i + j;
      input[v] = static_cast<float>(v);
      expected0[v] = static_cast<float>(2 * (8 + j) + v * v);
      expected1[v] = static_cast<float>(2 * (8 * (3 - i) + j));
      if (j >= 2 && j < 5) expected2.push_back(static_cast<float>(2 * v));
      if (i >= 2) expected3.push_back(static_cast<float>(2 * v));
    }
  }
  twiceWithFusionOffAndOn(m, [&](auto& prepared, const char* fusion) {
    TestRequest r(1, 4);
    r.setInput(0, input);
    r.setOutput(0, 32 * sizeof(float));
    r.setOutput(1, 32 * sizeof(float));
    r.setOutput(2, 12 * sizeof(float));
    r.setOutput(3, 16 * sizeof(float));
    auto result = prepared.execute(r.view(), false, 0, 0);
    ASSERT_TRUE(result.has_value()) << result.error().message;
    EXPECT_EQ(r.output<float>(0), expected0) << "fusion " << fusion;
    EXPECT_EQ(r.output<float>(1), expected1) << "fusion " << fusion;
    EXPECT_EQ(r.output<float>(2), expected2) << "fusion " << fusion;
    EXPECT_EQ(r.output<float>(3), expected3) << "fusion " << fusion;
  });
}

TEST(CpuPluginExecute, RefusesRequestsThatDoNotFitTheModel) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  TestModel m = twoOutputModel({2, 3}, {2, 3});
  auto prepared = prepare(*device, m);
  ASSERT_NE(prepared, nullptr);

  TestRequest wrongCount(1, 1);
  wrongCount.setInput(0, std::vector<float>(6));
  wrongCount.setOutput(0, 24);
  auto a = prepared->execute(wrongCount.view(), false, 0, 0);
  ASSERT_FALSE(a.has_value());
  EXPECT_EQ(a.error().code, ResultCode::BAD_DATA);

  TestRequest shortInput(1, 2);
  shortInput.setInput(0, std::vector<float>(5));
  shortInput.setOutput(0, 24);
  shortInput.setOutput(1, 24);
  auto b = prepared->execute(shortInput.view(), false, 0, 0);
  ASSERT_FALSE(b.has_value());
  EXPECT_NE(b.error().message.find("holds 20 bytes"), std::string::npos) << b.error().message;
}

// RANDOM_MULTINOMIAL through the plugin (its statistics are tested on the kernel, cpu_kernels_test):
// valid class indices only (class 1's logit is -inf: never drawn), the same seeds the same samples,
// float16 logits alike; a row without a finite logit is refused at execution.
TEST(CpuPluginExecute, RandomMultinomialIsReproducibleAndRefusesRowsWithoutFiniteLogits) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  auto run = [&](T type, const std::vector<float>& logits, int32_t seed) -> std::optional<std::vector<int32_t>> {
    TestModel m;
    const uint32_t in = m.addInput(type, {2, 3});
    m.addOperation(O::RANDOM_MULTINOMIAL,
                   {in, m.addInt32(50), m.addConstant(T::TENSOR_INT32, {2}, std::vector<int32_t>{seed, 3})},
                   {m.addOutput(T::TENSOR_INT32, {2, 50})});
    auto prepared = device->prepareModel(m.view(), NNRT_PREFER_FAST_SINGLE_ANSWER, NNRT_PRIORITY_MEDIUM, 0, {});
    EXPECT_TRUE(prepared.has_value()) << prepared.error().message;
    if (!prepared.has_value()) return std::nullopt;
    TestRequest r(1, 1);
    if (type == T::TENSOR_FLOAT16) {
      std::vector<uint16_t> halves(logits.size());
      driver::floatsToHalves(logits.data(), logits.size(), halves.data());
      r.setInput(0, halves);
    } else {
      r.setInput(0, logits);
    }
    r.setOutput(0, 100 * sizeof(int32_t));
    auto result = (*prepared)->execute(r.view(), false, 0, 0);
    if (!result.has_value()) return std::nullopt;
    return r.output<int32_t>(0);
  };
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> logits{0.0f, -inf, 0.5f, 2.0f, 1.0f, -1.0f};
  const auto first = run(T::TENSOR_FLOAT32, logits, 42);
  ASSERT_TRUE(first.has_value());
  for (int32_t k : *first) {
    EXPECT_GE(k, 0);
    EXPECT_LT(k, 3);
  }
  for (size_t s = 0; s < 50; ++s)
    EXPECT_NE((*first)[s], 1) << "class 1 of row 0 has probability 0";
  EXPECT_EQ(run(T::TENSOR_FLOAT32, logits, 42), first);
  EXPECT_NE(run(T::TENSOR_FLOAT32, logits, 43), first);
  // The float16 logits are these exactly (all representable), so the samples are the same.
  EXPECT_EQ(run(T::TENSOR_FLOAT16, logits, 42), first);
  EXPECT_EQ(run(T::TENSOR_FLOAT32, {0.0f, 1.0f, 2.0f, -inf, -inf, -inf}, 42), std::nullopt);
}

TEST(CpuPluginOpen, ThreadsOptionIsChecked) {
  auto loaded = loadPluginDevice(NNRT_PLUGIN_DIR, "cpu", "libnnrt_driver_cpu.so", {{"threads", "many"}});
  EXPECT_EQ(loaded.device, nullptr);
  EXPECT_NE(loaded.error.find("threads='many'"), std::string::npos) << loaded.error;
}

TEST(CpuPluginOpen, WinogradOptionIsChecked) {
  auto loaded = loadPluginDevice(NNRT_PLUGIN_DIR, "cpu", "libnnrt_driver_cpu.so", {{"winograd", "maybe"}});
  EXPECT_EQ(loaded.device, nullptr);
  EXPECT_NE(loaded.error.find("winograd='maybe'"), std::string::npos) << loaded.error;
  EXPECT_NE(loadPluginDevice(NNRT_PLUGIN_DIR, "cpu", "libnnrt_driver_cpu.so", {{"winograd", "off"}}).device, nullptr);
}

TEST(CpuPluginOpen, FusionOptionIsChecked) {
  auto loaded = loadPluginDevice(NNRT_PLUGIN_DIR, "cpu", "libnnrt_driver_cpu.so", {{"fusion", "yes"}});
  EXPECT_EQ(loaded.device, nullptr);
  EXPECT_NE(loaded.error.find("fusion='yes'"), std::string::npos) << loaded.error;
  EXPECT_NE(loadPluginDevice(NNRT_PLUGIN_DIR, "cpu", "libnnrt_driver_cpu.so", {{"fusion", "off"}}).device, nullptr);
}

TEST(CpuPluginOpen, ProfileOptionIsChecked) {
  for (const char* bad : {"", "/nonexistent-folder/profile.tsv"}) {
    auto loaded = loadPluginDevice(NNRT_PLUGIN_DIR, "cpu", "libnnrt_driver_cpu.so", {{"profile", bad}});
    EXPECT_EQ(loaded.device, nullptr) << bad;
    EXPECT_NE(loaded.error.find(std::string("profile='") + bad + "' is not a file that can be written"),
              std::string::npos)
        << loaded.error;
  }
}

// The file the option `profile` writes: its header lines (starting with '#') and its step lines
// split at the tabs.
struct ProfileFile {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};
ProfileFile readProfile(const std::string& path) {
  ProfileFile file;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] == '#') {
      file.header.push_back(line);
      continue;
    }
    std::vector<std::string> fields;
    std::istringstream split(line);
    for (std::string field; std::getline(split, field, '\t');) fields.push_back(field);
    file.rows.push_back(fields);
  }
  return file;
}

// The profile's steps as "operations | kernel" lines (the file is removed), whether one ran on oneDNN,
// and that each of `expected` begins one of them.
std::vector<std::string> profiledSteps(const std::string& path) {
  std::vector<std::string> steps;
  for (const std::vector<std::string>& row : readProfile(path).rows)
    steps.push_back(row.size() > 2 ? row[1] + " | " + row[2] : "");
  std::filesystem::remove(path);
  return steps;
}
bool anyOnOneDnn(const std::vector<std::string>& steps) {
  return std::any_of(steps.begin(), steps.end(), [](const std::string& s) { return s.find("oneDNN") != std::string::npos; });
}
void expectStepsBeginning(const std::vector<std::string>& steps, std::initializer_list<const char*> expected) {
  for (const char* step : expected) {
    EXPECT_TRUE(std::any_of(steps.begin(), steps.end(), [&](const std::string& s) { return s.rfind(step, 0) == 0; }))
        << step << " in:\n" << ::testing::PrintToString(steps);
  }
}

// One execution of `m` on a cpu device opened with `options` and the option `profile` (a temporary
// file named after `name`): every output's float32 values one after another (empty when anything
// failed, which the test is told), and the profile's steps (profiledSteps).
struct ProfiledRun {
  std::vector<float> values;
  std::vector<std::string> steps;
};
ProfiledRun runProfiled(TestModel& m, std::vector<std::pair<std::string, std::string>> options,
                        const std::vector<std::vector<float>>& inputs, const std::vector<size_t>& outputElements,
                        const std::string& name) {
  const std::string path = ::testing::TempDir() + "/nnrt_cpu_" + name + "_profile.tsv";
  std::filesystem::remove(path);
  options.emplace_back("profile", path);
  ProfiledRun run;
  {
    LoadedDevice holder;
    auto device = loadCpu(holder, options);
    if (device == nullptr) return run;
    auto prepared = prepare(*device, m);
    if (prepared == nullptr) return run;
    TestRequest r(inputs.size(), outputElements.size());
    for (size_t k = 0; k < inputs.size(); ++k) r.setInput(static_cast<uint32_t>(k), inputs[k]);
    for (size_t k = 0; k < outputElements.size(); ++k) r.setOutput(static_cast<uint32_t>(k), outputElements[k] * sizeof(float));
    auto result = prepared->execute(r.view(), false, 0, 0);
    EXPECT_TRUE(result.has_value()) << result.error().message;
    if (!result.has_value()) return run;
    for (size_t k = 0; k < outputElements.size(); ++k) {
      const std::vector<float> values = r.output<float>(static_cast<uint32_t>(k));
      run.values.insert(run.values.end(), values.begin(), values.end());
    }
  }
  run.steps = profiledSteps(path);
  return run;
}

// `executions` executions of `m` on a cpu device opened with `options` (and the option `profile`
// when `profilePath` is given), `inputs` for every model input but the last, which the model does not
// read: given two zeros, or left out (`omitLast`: the device then validates every operation again and
// runs the reference kernels, each followed by the epilogue its fast kernel would have applied). The
// last execution's outputs one after another, `outputElements` each (empty when the device or the
// preparation failed, which the test is told).
std::vector<float> runWithUnusedInput(TestModel& m, std::vector<std::pair<std::string, std::string>> options,
                                      const std::string& profilePath, const std::vector<std::vector<float>>& inputs,
                                      bool omitLast, const std::vector<size_t>& outputElements, int executions = 2) {
  if (!profilePath.empty()) options.emplace_back("profile", profilePath);
  LoadedDevice holder;
  auto device = loadCpu(holder, options);
  EXPECT_NE(device, nullptr);
  if (device == nullptr) return {};
  auto prepared = prepare(*device, m);
  if (prepared == nullptr) return {};
  std::vector<float> all;
  for (int repeat = 0; repeat < executions; ++repeat) {  // a later execution finds the planned block as the last left it
    const auto unused = static_cast<uint32_t>(inputs.size());
    TestRequest r(unused + 1, outputElements.size());
    for (uint32_t k = 0; k < unused; ++k) r.setInput(k, inputs[k]);
    if (omitLast) {
      r.omitInput(unused);
    } else {
      r.setInput(unused, std::vector<float>{0, 0});
    }
    for (size_t k = 0; k < outputElements.size(); ++k) r.setOutput(static_cast<uint32_t>(k), outputElements[k] * sizeof(float));
    auto result = prepared->execute(r.view(), false, 0, 0);
    EXPECT_TRUE(result.has_value()) << result.error().message;
    all.clear();
    for (size_t k = 0; k < outputElements.size(); ++k) {
      const std::vector<float> values = r.output<float>(static_cast<uint32_t>(k));
      all.insert(all.end(), values.begin(), values.end());
    }
  }
  return all;
}

// The option `profile`: a prepared model, when released, appends one line per step (its operations,
// the kernel that ran them, the median and mean time) to the file, under a header that counts the
// executions, also past those it keeps times of; executions that failed are not counted, and a model
// never executed writes nothing.
TEST(CpuPluginExecute, ProfileListsEveryOperationWithItsKernel) {
  const std::string path = ::testing::TempDir() + "/nnrt_cpu_profile_test.tsv";
  std::filesystem::remove(path);
  LoadedDevice holder;
  auto device = loadCpu(holder, {{"profile", path}});
  ASSERT_NE(device, nullptr);
  CnnModel cnn;
  auto prepared = prepare(*device, cnn.model);
  ASSERT_NE(prepared, nullptr);
  const std::vector<float> input = toFloats(randomReals(CnnModel::kInputSize, -1.0, 1.0, 9));
  for (int k = 0; k < 4100; ++k) {  // more than the 4096 whose times the profile keeps for the medians
    TestRequest r(1, 1);
    r.setInput(0, input);
    r.setOutput(0, CnnModel::kOutputSize * sizeof(float));
    auto result = prepared->execute(r.view(), false, 0, 0);
    ASSERT_TRUE(result.has_value()) << result.error().message;
  }
  TestRequest tooSmall(1, 1);  // fails: not counted
  tooSmall.setInput(0, std::vector<float>(3));
  tooSmall.setOutput(0, CnnModel::kOutputSize * sizeof(float));
  EXPECT_FALSE(prepared->execute(tooSmall.view(), false, 0, 0).has_value());
  EXPECT_EQ(std::filesystem::file_size(path), 0u);  // created when the plugin opened, written at release
  prepared.reset();
  auto unused = prepare(*device, cnn.model);  // released without an execution: no lines
  unused.reset();

  const ProfileFile profile = readProfile(path);
  ASSERT_EQ(profile.header.size(), 2u);
  EXPECT_EQ(profile.header[0].rfind("# nnrt cpu profile: 4100 executions of ", 0), 0u) << profile.header[0];
  EXPECT_EQ(profile.header[1], "# step\toperations\tkernel\tmedian_us\tmean_us");
  ASSERT_GE(profile.rows.size(), 1u);
  std::string operations;
  for (size_t i = 0; i < profile.rows.size(); ++i) {
    const std::vector<std::string>& row = profile.rows[i];
    ASSERT_EQ(row.size(), 5u) << i;
    EXPECT_EQ(row[0], std::to_string(i));
    EXPECT_FALSE(row[2].empty()) << row[1];
    EXPECT_GT(std::stod(row[3]), 0.0) << row[1];
    EXPECT_GE(std::stod(row[4]), 0.0) << row[1];
    operations += row[1] + ";";
  }
  // Every operation of the model once, in order (RESHAPE and SOFTMAX on their reference kernels).
  EXPECT_NE(operations.find("CONV_2D"), std::string::npos) << operations;
  for (const char* op : {"RELU", "MAX_POOL_2D", "RESHAPE", "FULLY_CONNECTED", "SOFTMAX"})
    EXPECT_NE(operations.find(op), std::string::npos) << op << " in " << operations;
  EXPECT_LT(operations.find("CONV_2D"), operations.find("SOFTMAX")) << operations;
  EXPECT_NE(operations.find("3 RESHAPE"), std::string::npos) << operations;
  std::filesystem::remove(path);
}

// Element-wise operations after a convolution or FULLY_CONNECTED that its fast kernel applies to its
// output (Step::epilogue): SiLU as LOGISTIC and MUL (both operand orders), HARD_SWISH after a
// DEPTHWISE_CONV_2D, LOGISTIC into a model output, TANH after a FULLY_CONNECTED, PRELU by one slope
// (ONNX's LeakyRelu); a convolution whose output two other operations read keeps them separate, and so
// does a PRELU with a slope per channel. Against the reference kernels running every
// operation (fast off); a request that omits an unused input runs the reference kernels followed by
// the epilogue (their products on oneDNN's sgemm, hence not bit for bit). Which steps took which
// operations is read from the profile.
TEST(CpuPluginExecute, ConvolutionEpiloguesMatchTheSeparateOperations) {
  TestModel m;
  const uint32_t x = m.addInput(T::TENSOR_FLOAT32, {1, 20, 18, 24});
  const uint32_t v = m.addInput(T::TENSOR_FLOAT32, {4, 40});
  const uint32_t unused = m.addInput(T::TENSOR_FLOAT32, {2});
  uint32_t seed = 60;
  auto constant = [&](std::vector<uint32_t> dims, double scale) {
    size_t n = 1;
    for (uint32_t d : dims) n *= d;
    return m.addConstant(T::TENSOR_FLOAT32, dims, toFloats(randomReals(n, -scale, scale, seed++)));
  };
  auto image = [&](uint32_t channels) { return m.addOperand(T::TENSOR_FLOAT32, {1, 20, 18, channels}); };
  auto conv = [&](uint32_t in, uint32_t cin, uint32_t cout, uint32_t k, bool depthwise = false) {
    const uint32_t out = image(cout);
    const uint32_t pad = m.addInt32(static_cast<int32_t>(k / 2)), one = m.addInt32(1);
    std::vector<uint32_t> ins{in, constant(depthwise ? std::vector<uint32_t>{1, k, k, cout}
                                                     : std::vector<uint32_t>{cout, k, k, cin}, 0.3),
                              constant({cout}, 0.5), pad, pad, pad, pad, one, one};
    if (depthwise) ins.push_back(one);
    ins.push_back(m.addInt32(0));
    m.addOperation(depthwise ? O::DEPTHWISE_CONV_2D : O::CONV_2D, ins, {out});
    return out;
  };
  auto unary = [&](O op, uint32_t in, uint32_t out) {
    m.addOperation(op, {in}, {out});
    return out;
  };
  auto swish = [&](uint32_t y, uint32_t channels, bool sigmoidFirst) {
    const uint32_t s = unary(O::LOGISTIC, y, image(channels)), out = image(channels);
    m.addOperation(O::MUL, {sigmoidFirst ? s : y, sigmoidFirst ? y : s, m.addInt32(0)}, {out});
    return out;
  };
  const uint32_t m1 = swish(conv(x, 24, 32, 3), 32, false);                    // operations 0-2
  const uint32_t h = unary(O::HARD_SWISH, conv(m1, 32, 32, 3, true), image(32));  // 3-4
  const uint32_t m2 = swish(conv(h, 32, 16, 1), 16, true);                     // 5-7
  const uint32_t out1 = m.addOutput(T::TENSOR_FLOAT32, {1, 20, 18, 16});
  unary(O::LOGISTIC, conv(m2, 16, 16, 1), out1);  // 8-9
  const uint32_t c4 = conv(m2, 16, 16, 1);        // 10, read twice: 11-12 stay
  const uint32_t out2 = m.addOutput(T::TENSOR_FLOAT32, {1, 20, 18, 16});
  m.addOperation(O::ADD, {unary(O::TANH, c4, image(16)), c4, m.addInt32(0)}, {out2});
  const uint32_t fc = m.addOperand(T::TENSOR_FLOAT32, {4, 24});
  m.addOperation(O::FULLY_CONNECTED, {v, constant({24, 40}, 0.3), constant({24}, 0.5), m.addInt32(0)}, {fc});  // 13
  const uint32_t out3 = m.addOutput(T::TENSOR_FLOAT32, {4, 24});
  unary(O::TANH, fc, out3);  // 14
  const uint32_t out4 = m.addOutput(T::TENSOR_FLOAT32, {1, 20, 18, 16}), out5 = m.addOutput(T::TENSOR_FLOAT32, {1, 20, 18, 16});
  m.addOperation(O::PRELU, {conv(m2, 16, 16, 1), m.addConstant(T::TENSOR_FLOAT32, {1}, std::vector<float>{0.2f})}, {out4});  // 15-16
  m.addOperation(O::PRELU, {conv(m2, 16, 16, 1), constant({16}, 0.5)}, {out5});  // 17-18: a slope per channel stays
  m.setInputsAndOutputs({x, v, unused}, {out1, out2, out3, out4, out5});

  const size_t imageSize = 20 * 18 * 16;
  const std::vector<float> xs = toFloats(randomReals(20 * 18 * 24, -2.0, 2.0, 1)), vs = toFloats(randomReals(160, -2.0, 2.0, 2));
  const std::string path = ::testing::TempDir() + "/nnrt_cpu_epilogue_test.tsv";
  std::filesystem::remove(path);
  auto run = [&](const char* fast, bool omit, bool profile) {
    return runWithUnusedInput(m, {{"fast", fast}}, profile ? path : "", {xs, vs}, omit,
                              {imageSize, imageSize, 96, imageSize, imageSize});
  };
  const std::vector<float> reference = run("off", false, false);
  ASSERT_EQ(reference.size(), 4 * imageSize + 96);
  const std::vector<float> fast = run("on", false, true), omitted = run("on", true, false);
  ASSERT_EQ(fast.size(), reference.size());
  for (size_t i = 0; i < fast.size(); ++i)
    ASSERT_NEAR(fast[i], reference[i], 1e-4 * (1.0 + std::fabs(reference[i]))) << "element " << i;
  ASSERT_EQ(omitted.size(), reference.size());
  for (size_t i = 0; i < omitted.size(); ++i)
    ASSERT_NEAR(omitted[i], reference[i], 1e-5 * (1.0 + std::fabs(reference[i]))) << "element " << i;

  const std::vector<std::string> steps = profiledSteps(path);
  if (!anyOnOneDnn(steps)) GTEST_SKIP() << "no fast layer in this build";
  expectStepsBeginning(steps, {"0 CONV_2D 1 LOGISTIC 2 MUL | oneDNN", "3 DEPTHWISE_CONV_2D 4 HARD_SWISH | oneDNN",
                               "5 CONV_2D 6 LOGISTIC 7 MUL | oneDNN", "8 CONV_2D 9 LOGISTIC | oneDNN",
                               "10 CONV_2D | oneDNN", "13 FULLY_CONNECTED 14 TANH | oneDNN",
                               "15 CONV_2D 16 PRELU | oneDNN", "17 CONV_2D | oneDNN", "18 PRELU | "});
  EXPECT_EQ(steps.size(), 10u) << ::testing::PrintToString(steps);  // the TANH and the ADD after step 10 fused
}

// An ADD of a CONV_2D's output and a tensor of its shape (a residual network's shortcut) runs in the
// convolution's fast kernel, which adds what its output buffer holds: the residual, on whose bytes
// the output is planned when nothing reads the residual later (a chain of two such blocks), or copied
// there (the residual read again later; a model input; the convolution's own input). Not taken: a
// residual written after the convolution (then the other convolution, which comes later, takes the
// ADD). Against every operation on the reference kernels (fast off), with the same values a
// request that omits an unused input gets from the reference kernels followed by the ADD (the output
// holding the residual: the convolution's values computed elsewhere first); the steps from the profile.
TEST(CpuPluginExecute, ResidualAddsRunInTheirConvolutions) {
  TestModel m;
  const std::vector<uint32_t> dims{1, 12, 10, 16};
  const uint32_t x = m.addInput(T::TENSOR_FLOAT32, dims), x2 = m.addInput(T::TENSOR_FLOAT32, dims);
  const uint32_t unused = m.addInput(T::TENSOR_FLOAT32, {2});
  uint32_t seed = 80;
  auto constant = [&](std::vector<uint32_t> shape, double scale) {
    size_t n = 1;
    for (uint32_t d : shape) n *= d;
    return m.addConstant(T::TENSOR_FLOAT32, shape, toFloats(randomReals(n, -scale, scale, seed++)));
  };
  auto image = [&] { return m.addOperand(T::TENSOR_FLOAT32, dims); };
  auto conv = [&](uint32_t in, uint32_t k) {
    const uint32_t out = image();
    const uint32_t pad = m.addInt32(static_cast<int32_t>(k / 2)), one = m.addInt32(1);
    m.addOperation(O::CONV_2D, {in, constant({16, k, k, 16}, 0.25), constant({16}, 0.5), pad, pad, pad, pad, one, one, m.addInt32(0)},
                   {out});
    return out;
  };
  auto add = [&](uint32_t a, uint32_t b, int32_t activation, uint32_t out) {
    m.addOperation(O::ADD, {a, b, m.addInt32(activation)}, {out});
    return out;
  };
  const uint32_t a = conv(x, 1);                                 // 0
  const uint32_t d = add(conv(conv(a, 3), 1), a, 1, image());    // 1, 2-3: a dies here (its bytes)
  const uint32_t g = add(d, conv(conv(d, 1), 3), 0, image());    // 4, 5-6: d dies here (the same bytes)
  const uint32_t k = add(conv(conv(g, 1), 3), g, 3, image());    // 7, 8-9: g is read again (copied)
  const uint32_t out1 = m.addOutput(T::TENSOR_FLOAT32, dims);
  m.addOperation(O::MUL, {g, constant({1}, 2.0), m.addInt32(0)}, {out1});  // 10
  const uint32_t p = conv(k, 1), q = conv(k, 3);                 // 11, 12 (q written after 11)
  const uint32_t sum = add(p, q, 0, image());                    // 13: taken by 12
  const uint32_t u = add(conv(sum, 1), x2, 2, image());          // 14-15: a model input (copied)
  const uint32_t out2 = m.addOutput(T::TENSOR_FLOAT32, dims);
  add(conv(u, 3), u, 0, out2);                                   // 16-17: the convolution reads u (copied)
  m.setInputsAndOutputs({x, x2, unused}, {out1, out2});

  const size_t count = 12 * 10 * 16;
  const std::vector<float> xs = toFloats(randomReals(count, -1.0, 1.0, 3)), x2s = toFloats(randomReals(count, -1.0, 1.0, 4));
  const std::string path = ::testing::TempDir() + "/nnrt_cpu_residual_test.tsv";
  std::filesystem::remove(path);
  auto run = [&](const char* fast, bool omit, bool profile) {
    return runWithUnusedInput(m, {{"fast", fast}}, profile ? path : "", {xs, x2s}, omit, {count, count});
  };
  const std::vector<float> reference = run("off", false, false);
  ASSERT_EQ(reference.size(), 2 * count);
  const std::vector<float> fast = run("on", false, true), omitted = run("on", true, false);
  for (const std::vector<float>* got : {&fast, &omitted}) {
    ASSERT_EQ(got->size(), reference.size());
    for (size_t i = 0; i < got->size(); ++i)
      ASSERT_NEAR((*got)[i], reference[i], 1e-4 * (1.0 + std::fabs(reference[i]))) << "element " << i;
  }

  const std::vector<std::string> steps = profiledSteps(path);
  if (!anyOnOneDnn(steps)) GTEST_SKIP() << "no fast layer in this build";
  expectStepsBeginning(steps, {"2 CONV_2D 3 ADD | oneDNN", "5 CONV_2D 6 ADD | oneDNN", "8 CONV_2D 9 ADD | oneDNN",
                               "11 CONV_2D | oneDNN", "12 CONV_2D 13 ADD | oneDNN", "14 CONV_2D 15 ADD | oneDNN",
                               "16 CONV_2D 17 ADD | oneDNN"});
  EXPECT_EQ(steps.size(), 12u) << ::testing::PrintToString(steps);
}

// SiLU and then a residual ADD after a CONV_2D (YOLOv5's bottlenecks) run in its fast kernel; where
// Winograd serves the convolution (3x3, 64 channels, 28x28, no SiLU: oneDNN's Winograd takes none),
// the layer refuses the ADD and the convolution keeps Winograd. Against the reference kernels (fast
// off); the steps from the profile.
TEST(CpuPluginExecute, SiluThenAResidualAddRunInTheConvolution) {
  TestModel m;
  const std::vector<uint32_t> dims{1, 28, 28, 64};
  const uint32_t x = m.addInput(T::TENSOR_FLOAT32, dims);
  uint32_t seed = 90;
  auto image = [&] { return m.addOperand(T::TENSOR_FLOAT32, dims); };
  auto conv = [&](uint32_t in, uint32_t k) {
    const uint32_t out = image();
    const uint32_t pad = m.addInt32(static_cast<int32_t>(k / 2)), one = m.addInt32(1);
    const uint32_t filter = m.addConstant(T::TENSOR_FLOAT32, {64, k, k, 64}, toFloats(randomReals(64 * k * k * 64, -0.1, 0.1, seed++)));
    const uint32_t bias = m.addConstant(T::TENSOR_FLOAT32, {64}, toFloats(randomReals(64, -0.5, 0.5, seed++)));
    m.addOperation(O::CONV_2D, {in, filter, bias, pad, pad, pad, pad, one, one, m.addInt32(0)}, {out});
    return out;
  };
  auto silu = [&](uint32_t y, bool sigmoidFirst) {
    const uint32_t sig = image(), out = image();
    m.addOperation(O::LOGISTIC, {y}, {sig});
    m.addOperation(O::MUL, {sigmoidFirst ? sig : y, sigmoidFirst ? y : sig, m.addInt32(0)}, {out});
    return out;
  };
  const uint32_t a = conv(x, 1);                                                  // 0
  const uint32_t z = image();
  m.addOperation(O::ADD, {silu(conv(conv(a, 1), 3), false), a, m.addInt32(0)}, {z});  // 1, 2-5
  const uint32_t zs = image();
  m.addOperation(O::ADD, {z, silu(conv(z, 3), true), m.addInt32(1)}, {zs});          // 6-9: reads its residual
  const uint32_t w = image(), out = m.addOutput(T::TENSOR_FLOAT32, dims);
  const uint32_t pad = m.addInt32(1), one = m.addInt32(1);
  m.addOperation(O::CONV_2D, {zs, m.addConstant(T::TENSOR_FLOAT32, {64, 3, 3, 64}, toFloats(randomReals(64 * 9 * 64, -0.1, 0.1, seed++))),
                              m.addConstant(T::TENSOR_FLOAT32, {64}, toFloats(randomReals(64, -0.5, 0.5, seed++))),
                              pad, pad, pad, pad, one, one, m.addInt32(0)}, {w});   // 10: Winograd
  m.addOperation(O::ADD, {w, zs, m.addInt32(3)}, {out});                             // 11
  m.setInputsAndOutputs({x}, {out});

  const size_t count = 28 * 28 * 64;
  const std::vector<float> xs = toFloats(randomReals(count, -1.0, 1.0, 5));
  const ProfiledRun reference = runProfiled(m, {{"fast", "off"}}, {xs}, {count}, "silu_residual_reference");
  const ProfiledRun fast = runProfiled(m, {{"fast", "on"}}, {xs}, {count}, "silu_residual");
  ASSERT_EQ(reference.values.size(), count);
  ASSERT_EQ(fast.values.size(), count);
  for (size_t i = 0; i < count; ++i)
    ASSERT_NEAR(fast.values[i], reference.values[i], 1e-4 * (1.0 + std::fabs(reference.values[i]))) << "element " << i;
  if (!anyOnOneDnn(fast.steps)) GTEST_SKIP() << "no fast layer in this build";
  expectStepsBeginning(fast.steps, {"0 CONV_2D | oneDNN", "1 CONV_2D | oneDNN", "2 CONV_2D 3 LOGISTIC 4 MUL 5 ADD | oneDNN",
                                    "6 CONV_2D 7 LOGISTIC 8 MUL 9 ADD | oneDNN", "10 CONV_2D | oneDNN jit_fp32_wino",
                                    "11 ADD | "});
  EXPECT_EQ(fast.steps.size(), 6u) << ::testing::PrintToString(fast.steps);
}

// A BATCH_MATMUL followed by a DIV or MUL by one constant (attention's scale) or a FULLY_CONNECTED
// followed by a MUL takes it as its fast kernel's epilogue; a DIV of the constant by the product does
// not. Against the operations on the reference kernels (fast off), with and without an omitted
// input; which steps took which operations is read from the profile.
TEST(CpuPluginExecute, ProductsTakeAScaleByOneConstantAsTheirEpilogue) {
  TestModel m;
  const uint32_t a = m.addInput(T::TENSOR_FLOAT32, {2, 3, 5, 8});
  const uint32_t b = m.addInput(T::TENSOR_FLOAT32, {2, 3, 6, 8});
  const uint32_t unused = m.addInput(T::TENSOR_FLOAT32, {2});
  auto scalar = [&](float v) { return m.addConstant(T::TENSOR_FLOAT32, {1}, std::vector<float>{v}); };
  auto product = [&]() {
    const uint32_t p = m.addOperand(T::TENSOR_FLOAT32, {2, 3, 5, 6});
    m.addOperation(O::BATCH_MATMUL, {a, b, m.addBool(false), m.addBool(true)}, {p});
    return p;
  };
  const uint32_t out0 = m.addOutput(T::TENSOR_FLOAT32, {2, 3, 5, 6}), out1 = m.addOutput(T::TENSOR_FLOAT32, {2, 3, 5, 6}),
                 out2 = m.addOutput(T::TENSOR_FLOAT32, {2, 3, 5, 6}), out3 = m.addOutput(T::TENSOR_FLOAT32, {30, 5});
  m.addOperation(O::DIV, {product(), scalar(2.8284271f), m.addInt32(0)}, {out0});  // 0-1
  m.addOperation(O::MUL, {scalar(0.125f), product(), m.addInt32(0)}, {out1});      // 2-3
  m.addOperation(O::DIV, {scalar(3.0f), product(), m.addInt32(0)}, {out2});        // 4-5: stays
  const uint32_t rows = m.addOperand(T::TENSOR_FLOAT32, {30, 8}), fc = m.addOperand(T::TENSOR_FLOAT32, {30, 5});
  m.addOperation(O::RESHAPE, {a, m.addConstant(T::TENSOR_INT32, {2}, std::vector<int32_t>{30, 8})}, {rows});  // 6
  m.addOperation(O::FULLY_CONNECTED, {rows, m.addConstant(T::TENSOR_FLOAT32, {5, 8}, toFloats(randomReals(40, -1.0, 1.0, 5))),
                                      m.addConstant(T::TENSOR_FLOAT32, {5}, toFloats(randomReals(5, -1.0, 1.0, 6))),
                                      m.addInt32(0)},
                 {fc});  // 7
  m.addOperation(O::MUL, {fc, scalar(-1.5f), m.addInt32(0)}, {out3});  // 8
  m.setInputsAndOutputs({a, b, unused}, {out0, out1, out2, out3});

  // Positive: the products stay away from 0, which the DIV of a constant by them would magnify.
  const std::vector<float> as = toFloats(randomReals(240, 0.5, 2.0, 1)), bs = toFloats(randomReals(288, 0.5, 2.0, 2));
  const std::string path = ::testing::TempDir() + "/nnrt_cpu_scale_epilogue_test.tsv";
  std::filesystem::remove(path);
  auto run = [&](const char* fast, bool omit, bool profile) {
    return runWithUnusedInput(m, {{"fast", fast}, {"fast_min_elements", "0"}}, profile ? path : "", {as, bs}, omit,
                              {180, 180, 180, 150}, 1);
  };
  const std::vector<float> reference = run("off", false, false);
  ASSERT_EQ(reference.size(), 3 * 180 + 150u);
  for (bool omit : {false, true}) {
    const std::vector<float> fast = run("on", omit, !omit);
    ASSERT_EQ(fast.size(), reference.size());
    for (size_t i = 0; i < fast.size(); ++i)
      ASSERT_NEAR(fast[i], reference[i], 1e-5 * (1.0 + std::fabs(reference[i]))) << "element " << i << (omit ? " omitted" : "");
  }
  const std::vector<std::string> steps = profiledSteps(path);
  if (!anyOnOneDnn(steps)) GTEST_SKIP() << "no fast layer in this build";
  expectStepsBeginning(steps, {"0 BATCH_MATMUL 1 DIV | oneDNN", "2 BATCH_MATMUL 3 MUL | oneDNN",
                               "4 BATCH_MATMUL | oneDNN", "5 DIV | ", "7 FULLY_CONNECTED 8 MUL | oneDNN"});
}

// Attention as exporters write it: the heads split by TRANSPOSEs, the keys' last two axes swapped by
// another, the scores scaled by a DIV, the heads merged by a TRANSPOSE after the second BATCH_MATMUL.
// The cpu driver folds every TRANSPOSE into the BATCH_MATMULs' strides (Step::folded) and the DIV into
// the first one's epilogue; a TRANSPOSE whose result is also a model output stays. Against the
// operations on the reference kernels (fast off), and with an input left out (the reference kernels
// with the transposes made by the driver); which steps took which operations is read from the profile.
TEST(CpuPluginExecute, TransposesAroundBatchMatmulsAreFoldedIntoThem) {
  TestModel m;
  const std::vector<uint32_t> tokens{1, 5, 2, 4}, heads{1, 2, 5, 4};  // 5 tokens, 2 heads of 4
  const uint32_t q = m.addInput(T::TENSOR_FLOAT32, tokens), k = m.addInput(T::TENSOR_FLOAT32, tokens),
                 v = m.addInput(T::TENSOR_FLOAT32, tokens), unused = m.addInput(T::TENSOR_FLOAT32, {2});
  auto transpose = [&](uint32_t x, std::vector<int32_t> perm, std::vector<uint32_t> dims, bool output = false) {
    const uint32_t y = output ? m.addOutput(T::TENSOR_FLOAT32, dims) : m.addOperand(T::TENSOR_FLOAT32, dims);
    m.addOperation(O::TRANSPOSE, {x, m.addConstant(T::TENSOR_INT32, {4}, perm)}, {y});
    return y;
  };
  const uint32_t qh = transpose(q, {0, 2, 1, 3}, heads);                   // 0
  const uint32_t kh = transpose(k, {0, 2, 1, 3}, heads);                   // 1
  const uint32_t kt = transpose(kh, {0, 1, 3, 2}, {1, 2, 4, 5});           // 2
  const uint32_t scores = m.addOperand(T::TENSOR_FLOAT32, {1, 2, 5, 5}), scaled = m.addOperand(T::TENSOR_FLOAT32, {1, 2, 5, 5});
  m.addOperation(O::BATCH_MATMUL, {qh, kt, m.addBool(false), m.addBool(false)}, {scores});  // 3
  m.addOperation(O::DIV, {scores, m.addConstant(T::TENSOR_FLOAT32, {1}, std::vector<float>{2.0f}), m.addInt32(0)}, {scaled});  // 4
  const uint32_t weights = m.addOperand(T::TENSOR_FLOAT32, {1, 2, 5, 5});
  m.addOperation(O::SOFTMAX, {scaled, m.addFloat32(1.0f)}, {weights});  // 5
  const uint32_t vh = transpose(v, {0, 2, 1, 3}, heads, true);  // 6: also a model output, stays
  const uint32_t context = m.addOperand(T::TENSOR_FLOAT32, heads);
  m.addOperation(O::BATCH_MATMUL, {weights, vh, m.addBool(false), m.addBool(false)}, {context});  // 7
  const uint32_t merged = transpose(context, {0, 2, 1, 3}, tokens, true);  // 8
  m.setInputsAndOutputs({q, k, v, unused}, {vh, merged});

  const std::vector<float> qs = toFloats(randomReals(40, -1.0, 1.0, 1)), ks = toFloats(randomReals(40, -1.0, 1.0, 2)),
                           vs = toFloats(randomReals(40, -1.0, 1.0, 3));
  const std::string path = ::testing::TempDir() + "/nnrt_cpu_folded_transpose_test.tsv";
  std::filesystem::remove(path);
  auto run = [&](const char* fast, bool omit, bool profile) {
    return runWithUnusedInput(m, {{"fast", fast}}, profile ? path : "", {qs, ks, vs}, omit, {40, 40});
  };
  const std::vector<float> reference = run("off", false, false);
  ASSERT_EQ(reference.size(), 80u);
  // By hand for one value: token 0, head 1, feature 2 of the merged context is the softmax over the 5
  // keys of head 1 (scores q.k / 2) weighting their values.
  {
    double w[5], sum = 0, expected = 0;
    for (int j = 0; j < 5; ++j) {
      double dot = 0;
      for (int f = 0; f < 4; ++f) dot += qs[0 * 8 + 1 * 4 + f] * ks[j * 8 + 1 * 4 + f];
      w[j] = std::exp(dot / 2.0);
      sum += w[j];
    }
    for (int j = 0; j < 5; ++j) expected += w[j] / sum * vs[j * 8 + 1 * 4 + 2];
    EXPECT_NEAR(reference[40 + 0 * 8 + 1 * 4 + 2], expected, 1e-5);
  }
  for (bool omit : {false, true}) {
    const std::vector<float> fast = run("on", omit, !omit);
    ASSERT_EQ(fast.size(), reference.size());
    for (size_t i = 0; i < fast.size(); ++i)
      ASSERT_NEAR(fast[i], reference[i], 1e-5 * (1.0 + std::fabs(reference[i]))) << "element " << i << (omit ? " omitted" : "");
  }
  const std::vector<std::string> steps = profiledSteps(path);
  if (!anyOnOneDnn(steps)) GTEST_SKIP() << "no fast layer in this build";
  expectStepsBeginning(steps, {"3 BATCH_MATMUL 0 TRANSPOSE 2 TRANSPOSE 1 TRANSPOSE 4 DIV | oneDNN", "5 SOFTMAX",
                               "6 TRANSPOSE", "7 BATCH_MATMUL 8 TRANSPOSE | oneDNN"});
  EXPECT_EQ(steps.size(), 4u) << ::testing::PrintToString(steps);
}

// A FULLY_CONNECTED of one row whose weights another operation reads too (an unrolled recurrence)
// runs the fast layer's matrix-vector product on packed weights (on AVX-512 machines; oneDNN's inner
// product elsewhere), also when a TANH after it could have been its epilogue (which would put it on
// oneDNN); so does one whose weights are read once. Which kernel ran is read from the profile.
TEST(CpuPluginExecute, OneRowProductsOfSharedWeightsTakeNoEpilogue) {
  const std::string path = ::testing::TempDir() + "/nnrt_cpu_shared_weights_test.tsv";
  std::filesystem::remove(path);
  LoadedDevice holder;
  auto device = loadCpu(holder, {{"profile", path}});
  ASSERT_NE(device, nullptr);
  const std::vector<double> w = randomReals(64 * 64, -0.2, 0.2, 11), b = randomReals(64, -0.5, 0.5, 12),
                            v = randomReals(32 * 64, -0.2, 0.2, 13), c = randomReals(32, -0.5, 0.5, 14),
                            x = randomReals(64, -1.0, 1.0, 15);
  TestModel m;
  const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {1, 64});
  const uint32_t weights = m.addConstant(T::TENSOR_FLOAT32, {64, 64}, toFloats(w));
  const uint32_t bias = m.addConstant(T::TENSOR_FLOAT32, {64}, toFloats(b));
  const uint32_t h1 = m.addOperand(T::TENSOR_FLOAT32, {1, 64}), p2 = m.addOperand(T::TENSOR_FLOAT32, {1, 64}),
                 h2 = m.addOperand(T::TENSOR_FLOAT32, {1, 64});
  m.addOperation(O::FULLY_CONNECTED, {in, weights, bias, m.addInt32(0)}, {h1});
  m.addOperation(O::FULLY_CONNECTED, {h1, weights, bias, m.addInt32(0)}, {p2});
  m.addOperation(O::TANH, {p2}, {h2});  // not taken as an epilogue: that would put the product on oneDNN
  const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {1, 32});
  m.addOperation(O::FULLY_CONNECTED, {h2, m.addConstant(T::TENSOR_FLOAT32, {32, 64}, toFloats(v)),
                                      m.addConstant(T::TENSOR_FLOAT32, {32}, toFloats(c)), m.addInt32(0)},
                 {out});
  m.setInputsAndOutputs({in}, {out});
  auto prepared = prepare(*device, m);
  ASSERT_NE(prepared, nullptr);
  TestRequest r(1, 1);
  r.setInput(0, toFloats(x));
  r.setOutput(0, 32 * sizeof(float));
  auto result = prepared->execute(r.view(), false, 0, 0);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  // The values against the same products in double precision.
  auto layer = [](const std::vector<double>& weightsOf, const std::vector<double>& biasOf, const std::vector<double>& at,
                  size_t units, bool tanh) {
    std::vector<double> y(units);
    for (size_t u = 0; u < units; ++u) {
      double sum = biasOf[u];
      for (size_t k = 0; k < at.size(); ++k) sum += weightsOf[u * at.size() + k] * at[k];
      y[u] = tanh ? std::tanh(sum) : sum;
    }
    return y;
  };
  const std::vector<double> want = layer(v, c, layer(w, b, layer(w, b, x, 64, false), 64, true), 32, false);
  const std::vector<float> got = r.output<float>(0);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << i;
  prepared.reset();

  std::vector<std::string> kernels;
  for (const std::vector<std::string>& row : readProfile(path).rows) kernels.push_back(row.size() > 2 ? row[2] : "");
  ASSERT_EQ(kernels.size(), 4u);  // the TANH a step of its own
  std::filesystem::remove(path);
  if (kernels[3] == "reference") GTEST_SKIP() << "no fast layer in this build";
  EXPECT_EQ(kernels[2], "reference");  // TANH: too few elements for the fast layer
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") != 0;
  for (size_t k : {0u, 1u, 3u}) {
    if (avx512) {
      EXPECT_EQ(kernels[k], "matrix-vector product on packed weights (avx512)") << k;
    } else {
      EXPECT_EQ(kernels[k].rfind("oneDNN", 0), 0u) << k << ": " << kernels[k];
    }
  }
}

// DenseNet's dense block: each layer's batch normalization (MUL and ADD by per-channel constants, RELU)
// reads the growing x = CONCATENATION(x, y), and a 1x1 CONV_2D makes the next y. The driver runs each
// CONCATENATION inside the element-wise run after it, and each reads the earlier layers' outputs
// where they were written instead of the previous x: no x is written but the one the model returns.
// Results bit for bit those of the operations one by one (fusion off), with the fast layer on and off.
TEST(CpuPluginExecute, ConcatenationsJoinTheElementwiseRunsThatReadThem) {
  TestModel m;
  const uint32_t growth = 8;
  auto image = [&](uint32_t channels) { return std::vector<uint32_t>{1, 9, 11, channels}; };
  const uint32_t in = m.addInput(T::TENSOR_FLOAT32, image(24));
  uint32_t seed = 80;
  auto constant = [&](std::vector<uint32_t> dims, double low, double high) {
    size_t n = 1;
    for (uint32_t d : dims) n *= d;
    return m.addConstant(T::TENSOR_FLOAT32, dims, toFloats(randomReals(n, low, high, seed++)));
  };
  auto normalized = [&](uint32_t x, uint32_t channels, uint32_t into) {  // RELU(x * scale + shift)
    const uint32_t scaled = m.addOperand(T::TENSOR_FLOAT32, image(channels));
    m.addOperation(O::MUL, {x, constant({channels}, 0.5, 1.5), m.addInt32(0)}, {scaled});
    m.addOperation(O::ADD, {scaled, constant({channels}, -0.5, 0.5), m.addInt32(1)}, {into});
    return into;
  };
  uint32_t x = in, channels = 24, middle = 0;
  for (uint32_t layer = 0; layer < 4; ++layer) {
    const uint32_t z = normalized(x, channels, m.addOperand(T::TENSOR_FLOAT32, image(channels)));
    const uint32_t y = m.addOperand(T::TENSOR_FLOAT32, image(growth));
    const uint32_t zero = m.addInt32(0), one = m.addInt32(1);
    m.addOperation(O::CONV_2D, {z, constant({growth, 1, 1, channels}, -0.3, 0.3), constant({growth}, -0.5, 0.5), zero,
                                zero, zero, zero, one, one, zero}, {y});
    channels += growth;
    // The second layer's x is also a model output: its CONCATENATION is written out.
    const uint32_t next = layer == 1 ? m.addOutput(T::TENSOR_FLOAT32, image(channels))
                                     : m.addOperand(T::TENSOR_FLOAT32, image(channels));
    m.addOperation(O::CONCATENATION, {x, y, m.addInt32(3)}, {next});
    if (layer == 1) middle = next;
    x = next;
  }
  const uint32_t out = normalized(x, channels, m.addOutput(T::TENSOR_FLOAT32, image(channels)));
  m.setInputsAndOutputs({in}, {middle, out});

  const std::vector<float> input = toFloats(randomReals(9 * 11 * 24, -2.0, 2.0, 79));
  auto run = [&](const char* fusion, const char* fast) {
    return runProfiled(m, {{"fusion", fusion}, {"fast", fast}}, {input}, {9 * 11 * 40, 9 * 11 * 56}, "concatenation");
  };
  for (const char* fast : {"on", "off"}) {  // oneDNN's convolutions and the reference ones differ in rounding
    const std::vector<float> reference = run("off", fast).values;
    ASSERT_EQ(reference.size(), 9u * 11 * (40 + 56));
    // By hand: the middle x's first pixel holds the input's first 24 values, then the first layer's y.
    for (size_t k = 0; k < 24; ++k) EXPECT_EQ(reference[k], input[k]);
    const ProfiledRun on = run("on", fast);
    const std::vector<float>& fused = on.values;
    const std::vector<std::string>& steps = on.steps;
    ASSERT_EQ(fused.size(), reference.size());
    EXPECT_EQ(std::memcmp(fused.data(), reference.data(), fused.size() * sizeof(float)), 0) << "fast " << fast;
    // Every CONCATENATION runs in a fused step with the normalization after it.
    const auto count = [&](const char* text) {
      return std::count_if(steps.begin(), steps.end(), [&](const std::string& s) { return s.find(text) != std::string::npos; });
    };
    EXPECT_EQ(count("CONCATENATION"), 4) << ::testing::PrintToString(steps);
    EXPECT_EQ(count("CONCATENATION MUL ADD | fused element-wise"), 4) << ::testing::PrintToString(steps);
  }
}

// A CONCATENATION of a CONCATENATION that nothing else reads, then a RELU: the outer one reads the
// three pieces itself, runs inside the RELU's fused step, and the inner one is dropped (the profile
// lists one CONCATENATION). The result is the pieces side by side, negative values zeroed.
TEST(CpuPluginExecute, ConcatenationOfAnUnreadConcatenationReadsItsPieces) {
  TestModel m;
  const uint32_t a = m.addInput(T::TENSOR_FLOAT32, {2, 3, 5}), b = m.addInput(T::TENSOR_FLOAT32, {2, 3, 2}),
                 c = m.addInput(T::TENSOR_FLOAT32, {2, 3, 4});
  const uint32_t inner = m.addOperand(T::TENSOR_FLOAT32, {2, 3, 7}), outer = m.addOperand(T::TENSOR_FLOAT32, {2, 3, 11});
  m.addOperation(O::CONCATENATION, {a, b, m.addInt32(2)}, {inner});
  m.addOperation(O::CONCATENATION, {inner, c, m.addInt32(-1)}, {outer});
  const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {2, 3, 11});
  m.addOperation(O::RELU, {outer}, {out});
  m.setInputsAndOutputs({a, b, c}, {out});
  const std::vector<float> va = toFloats(randomReals(30, -1.0, 1.0, 90)), vb = toFloats(randomReals(12, -1.0, 1.0, 91)),
                           vc = toFloats(randomReals(24, -1.0, 1.0, 92));
  const ProfiledRun run = runProfiled(m, {}, {va, vb, vc}, {66}, "nested_concatenation");
  const std::vector<float>& result = run.values;
  ASSERT_EQ(result.size(), 66u);
  for (size_t row = 0; row < 6; ++row) {
    for (size_t k = 0; k < 11; ++k) {
      const float piece = k < 5 ? va[row * 5 + k] : k < 7 ? vb[row * 2 + k - 5] : vc[row * 4 + k - 7];
      EXPECT_EQ(result[row * 11 + k], std::max(piece, 0.0f)) << row << ", " << k;
    }
  }
  ASSERT_EQ(run.steps.size(), 1u) << ::testing::PrintToString(run.steps);
  EXPECT_EQ(run.steps[0], "1-2 CONCATENATION RELU | fused element-wise");
}

// ShuffleNet v2's unit ends in CONCATENATION, CHANNEL_SHUFFLE and a SLICE of each half; the driver
// runs the three as one step that writes the halves from the pieces. Here two such units: the first
// in 2 groups (one half a model output), the second in 4 groups with the shuffled tensor also read
// whole (by a RELU and a TANH, themselves fused); a third whose CONCATENATION is also read by a fused
// run (so the shuffle runs with its SLICEs only). The results are those of the operations one by one
// (fusion off) bit for bit, and by hand the first half interleaves the first unit's pieces.
TEST(CpuPluginExecute, ChannelShufflesOfConcatenationsWriteTheirSlicesFromThePieces) {
  TestModel m;
  const std::vector<uint32_t> half{1, 5, 7, 8}, full{1, 5, 7, 16};
  const uint32_t in1 = m.addInput(T::TENSOR_FLOAT32, half), in2 = m.addInput(T::TENSOR_FLOAT32, half);
  auto unary = [&](O op, uint32_t x, uint32_t out) {
    m.addOperation(op, {x}, {out});
    return out;
  };
  auto slice = [&](uint32_t x, int32_t begin, uint32_t out) {
    m.addOperation(O::SLICE, {x, m.addConstant(T::TENSOR_INT32, {4}, std::vector<int32_t>{0, 0, 0, begin}),
                              m.addConstant(T::TENSOR_INT32, {4}, std::vector<int32_t>{1, 5, 7, 8})},
                   {out});
    return out;
  };
  auto unit = [&](uint32_t a, uint32_t b, int32_t groups) {
    const uint32_t joined = m.addOperand(T::TENSOR_FLOAT32, full), shuffled = m.addOperand(T::TENSOR_FLOAT32, full);
    m.addOperation(O::CONCATENATION, {a, b, m.addInt32(3)}, {joined});
    m.addOperation(O::CHANNEL_SHUFFLE, {joined, m.addInt32(groups), m.addInt32(-1)}, {shuffled});
    return shuffled;
  };
  const uint32_t s1 = unit(in1, unary(O::RELU, in2, m.addOperand(T::TENSOR_FLOAT32, half)), 2);
  const uint32_t out1 = slice(s1, 0, m.addOutput(T::TENSOR_FLOAT32, half));
  const uint32_t t = unary(O::TANH, slice(s1, 8, m.addOperand(T::TENSOR_FLOAT32, half)), m.addOperand(T::TENSOR_FLOAT32, half));
  const uint32_t s2 = unit(out1, t, 4);
  const uint32_t out2 = slice(s2, 8, m.addOutput(T::TENSOR_FLOAT32, half));
  const uint32_t out3 =
      unary(O::TANH, unary(O::RELU, s2, m.addOperand(T::TENSOR_FLOAT32, full)), m.addOutput(T::TENSOR_FLOAT32, full));
  // The third unit: its CONCATENATION is read by an EXP and a NEG too.
  const uint32_t joined3 = m.addOperand(T::TENSOR_FLOAT32, full), shuffled3 = m.addOperand(T::TENSOR_FLOAT32, full);
  m.addOperation(O::CONCATENATION, {out2, in2, m.addInt32(3)}, {joined3});
  const uint32_t out4 =
      unary(O::NEG, unary(O::EXP, joined3, m.addOperand(T::TENSOR_FLOAT32, full)), m.addOutput(T::TENSOR_FLOAT32, full));
  m.addOperation(O::CHANNEL_SHUFFLE, {joined3, m.addInt32(2), m.addInt32(3)}, {shuffled3});
  const uint32_t out5 = slice(shuffled3, 0, m.addOutput(T::TENSOR_FLOAT32, half));
  m.setInputsAndOutputs({in1, in2}, {out1, out2, out3, out4, out5});

  const std::vector<float> a = toFloats(randomReals(280, -1.0, 1.0, 95)), b = toFloats(randomReals(280, -1.0, 1.0, 96));
  auto run = [&](const char* fusion) {
    return runProfiled(m, {{"fusion", fusion}}, {a, b}, {280, 280, 560, 560, 280}, "shuffle");
  };
  const ProfiledRun on = run("on");
  const std::vector<float>& fused = on.values;
  const std::vector<std::string>& steps = on.steps;
  const std::vector<float> reference = run("off").values;
  ASSERT_EQ(reference.size(), 280u * 3 + 560 * 2);
  ASSERT_EQ(fused.size(), reference.size());
  for (size_t i = 0; i < fused.size(); ++i)
    ASSERT_EQ(std::memcmp(&fused[i], &reference[i], sizeof(float)), 0) << "element " << i;
  // The units' steps: the first with both SLICEs, the second with its one, the third without its
  // CONCATENATION (which joined the EXP and NEG's run instead).
  const auto has = [&](const char* step) { return std::find(steps.begin(), steps.end(), step) != steps.end(); };
  EXPECT_TRUE(has("1-4 CONCATENATION CHANNEL_SHUFFLE SLICE SLICE | fused channel shuffle")) << ::testing::PrintToString(steps);
  EXPECT_TRUE(has("6-8 CONCATENATION CHANNEL_SHUFFLE SLICE | fused channel shuffle")) << ::testing::PrintToString(steps);
  EXPECT_TRUE(has("14-15 CHANNEL_SHUFFLE SLICE | fused channel shuffle")) << ::testing::PrintToString(steps);
  // out1, pixel by pixel: a0 relu(b0) a1 relu(b1) a2 relu(b2) a3 relu(b3).
  for (size_t pixel = 0; pixel < 35; ++pixel) {
    for (size_t k = 0; k < 4; ++k) {
      EXPECT_EQ(reference[pixel * 8 + 2 * k], a[pixel * 8 + k]);
      EXPECT_EQ(reference[pixel * 8 + 2 * k + 1], std::max(b[pixel * 8 + k], 0.0f));
    }
  }
}

TEST(CpuPluginOpen, FastMinElementsOptionIsChecked) {
  for (const char* bad : {"-1", "lots", "", "2000000000000"}) {
    auto loaded =
        loadPluginDevice(NNRT_PLUGIN_DIR, "cpu", "libnnrt_driver_cpu.so", {{"fast_min_elements", bad}});
    EXPECT_EQ(loaded.device, nullptr) << bad;
    EXPECT_NE(loaded.error.find(std::string("fast_min_elements='") + bad + "'"), std::string::npos)
        << loaded.error;
  }
  auto loaded =
      loadPluginDevice(NNRT_PLUGIN_DIR, "cpu", "libnnrt_driver_cpu.so", {{"fast_min_elements", "0"}});
  EXPECT_NE(loaded.device, nullptr) << loaded.error;
}

}  // namespace
}  // namespace nnrt::test::cpu
