// The opencl driver as the runtime sees it: options, calibrated capabilities, support answers with
// reasons, concurrent and asynchronous executions, dynamic shapes, too-small outputs, timing, build
// errors, and the host's float16 conversions.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "nnrt/driver/half.hpp"
#include "opencl/opencl_test_env.hpp"
#include "plugins/cpu/kernels/fully_connected.hpp"

namespace nnrt::opencl::test {
namespace {

using driver::floatToHalf;
using driver::halfToFloat;

constexpr uint32_t kUnits = 9;

// FULLY_CONNECTED of [batch, 12] (batch 0 = unknown until the request says) and a RELU.
TestModel fullyConnected(uint32_t batch) {
  TestModel m;
  const uint32_t in = m.addInput(OperandType::TENSOR_FLOAT32, {batch, 12});
  const uint32_t hidden = m.addOperand(OperandType::TENSOR_FLOAT32, {batch, kUnits});
  const uint32_t out = m.addOutput(OperandType::TENSOR_FLOAT32, {batch, kUnits});
  m.addOperation(
      OperationType::FULLY_CONNECTED,
      {in, m.addConstant(OperandType::TENSOR_FLOAT32, {kUnits, 12}, randomFloats(kUnits * 12, -1, 1, 11)),
       m.addConstant(OperandType::TENSOR_FLOAT32, {kUnits}, randomFloats(kUnits, -1, 1, 12)), m.addInt32(0)},
      {hidden});
  m.addOperation(OperationType::RELU, {hidden}, {out});
  return m;
}

std::vector<float> reference(const std::vector<float>& x, uint32_t batch) {
  std::vector<float> out(size_t{batch} * kUnits);
  const auto w = randomFloats(kUnits * 12, -1, 1, 11), b = randomFloats(kUnits, -1, 1, 12);
  cpu::fullyConnected(x.data(), w.data(), b.data(), batch, 12, kUnits, cpu::Activation::Relu, out.data());
  return out;
}

TEST(OpenClDriverTest, RefusesUnknownOptions) {
  Plugin p = loadPlugin({{"calibrate", "false"}, {"colour", "blue"}});
  ASSERT_FALSE(p.device);
  EXPECT_NE(p.error.find("unknown plugin option 'colour'"), std::string::npos) << p.error;
  p = loadPlugin({{"fp16", "sometimes"}});
  EXPECT_NE(p.error.find("fp16='sometimes'"), std::string::npos) << p.error;
}

TEST(OpenClDriverTest, CalibratedCapabilities) {
  const auto start = std::chrono::steady_clock::now();
  Plugin p = loadPlugin({{"calibration_cache", "false"}});  // measures, whatever the cache holds
  const double openMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  NNRT_REQUIRE_OPENCL(p);
  const driver::Capabilities& caps = p.device->capabilities();
  float float32 = 0;
  for (const auto& e : caps.operandPerformance) {
    EXPECT_TRUE(std::isfinite(e.info.exec_time) && e.info.exec_time > 0) << e.type;
    const float powerFactor = p.device->type() == NNRT_DEVICE_TYPE_CPU ? 1.0f : 0.5f;
    EXPECT_EQ(e.info.power_usage, e.info.exec_time * powerFactor) << e.type;
    if (e.type == static_cast<int32_t>(OperandType::TENSOR_FLOAT32)) float32 = e.info.exec_time;
  }
  EXPECT_GT(float32, 0.0f);
  std::printf(
      "[ info     ] '%s' (%s): TENSOR_FLOAT32 execTime %.3f, relaxed %.3f; open with calibration %.0f ms\n",
      p.device->driverDeviceName().c_str(), p.device->versionString().c_str(), float32,
      caps.relaxedFloat32toFloat16PerformanceTensor.exec_time, openMs);

  const Plugin& declared = plugin();
  NNRT_REQUIRE_OPENCL(declared);
  for (const auto& e : declared.device->capabilities().operandPerformance)
    EXPECT_EQ(e.info.exec_time, 1.0f);
  EXPECT_EQ(declared.device->queryStatus(), NNRT_DEVICE_STATUS_AVAILABLE);
  EXPECT_EQ(declared.device->cacheFilesNeeded().modelCache, 1u);
  EXPECT_EQ(declared.device->cacheFilesNeeded().dataCache, 1u);
}

TEST(OpenClDriverTest, ExplainsWhatItDoesNotRun) {
  const Plugin& p = plugin();
  NNRT_REQUIRE_OPENCL(p);
  TestModel m;
  const uint32_t a = m.addInput(OperandType::TENSOR_FLOAT32, {1, 4, 4, 2});
  const uint32_t q = m.addInput(OperandType::TENSOR_QUANT8_ASYMM, {4}, 0.5f, 3);
  const uint32_t stride = m.addInput(OperandType::INT32);
  // 0: supported
  m.addOperation(OperationType::ADD, {a, a, m.addInt32(0)},
                 {m.addOutput(OperandType::TENSOR_FLOAT32, {1, 4, 4, 2})});
  // 1: a quantized type
  m.addOperation(OperationType::ADD, {q, q, m.addInt32(0)},
                 {m.addOutput(OperandType::TENSOR_QUANT8_ASYMM, {4}, 1.0f, 3)});
  // 2: an operation without a kernel
  m.addOperation(OperationType::FLOOR, {a}, {m.addOutput(OperandType::TENSOR_FLOAT32, {1, 4, 4, 2})});
  // 3: NCHW layout
  const uint32_t filter = m.addConstant(OperandType::TENSOR_FLOAT32, {2, 1, 1, 4}, randomFloats(8, -1, 1, 1));
  const uint32_t bias = m.addConstant(OperandType::TENSOR_FLOAT32, {2}, std::vector<float>{0, 0});
  m.addOperation(
      OperationType::CONV_2D,
      {a, filter, bias, m.addInt32(1), m.addInt32(1), m.addInt32(1), m.addInt32(0), m.addBool(true)},
      {m.addOutput(OperandType::TENSOR_FLOAT32, {1, 2, 4, 2})});
  // 4: a parameter that is not a constant
  const uint32_t filter2 =
      m.addConstant(OperandType::TENSOR_FLOAT32, {2, 1, 1, 2}, randomFloats(4, -1, 1, 2));
  m.addOperation(OperationType::CONV_2D, {a, filter2, bias, m.addInt32(1), stride, stride, m.addInt32(0)},
                 {m.addOutput(OperandType::TENSOR_FLOAT32, {})});
  auto support = p.device->getSupportedOperations(m.view());
  ASSERT_TRUE(support.has_value()) << support.error().message;
  EXPECT_EQ(support->supported, (std::vector<bool>{true, false, false, false, false}));
  auto reason = [&](size_t i, const char* text) {
    EXPECT_NE(support->reasons[i].find(text), std::string::npos) << i << ": " << support->reasons[i];
  };
  reason(1, "ADD on TENSOR_QUANT8_ASYMM is not supported");
  reason(2, "FLOOR has no OpenCL kernel");
  reason(3, "NCHW");
  reason(4, "is not a constant");

  // A float16 operation in a model that also computes in float32.
  TestModel mixed;
  const uint32_t h = mixed.addInput(OperandType::TENSOR_FLOAT16, {3});
  const uint32_t f = mixed.addInput(OperandType::TENSOR_FLOAT32, {3});
  mixed.addOperation(OperationType::RELU, {h}, {mixed.addOutput(OperandType::TENSOR_FLOAT16, {3})});
  mixed.addOperation(OperationType::RELU, {f}, {mixed.addOutput(OperandType::TENSOR_FLOAT32, {3})});
  auto mixedSupport = p.device->getSupportedOperations(mixed.view());
  ASSERT_TRUE(mixedSupport.has_value());
  EXPECT_EQ(mixedSupport->supported, (std::vector<bool>{false, true}));
  EXPECT_NE(mixedSupport->reasons[0].find("one precision per model"), std::string::npos)
      << mixedSupport->reasons[0];

  // Preparing a model with an unsupported operation fails and names it.
  auto prepared = prepare(p, m);
  ASSERT_FALSE(prepared.has_value());
  EXPECT_NE(prepared.error().message.find("operation 1"), std::string::npos) << prepared.error().message;
}

TEST(OpenClDriverTest, ConcurrentExecutionsMatchSequentialOnes) {
  const Plugin& p = plugin();
  NNRT_REQUIRE_OPENCL(p);
  constexpr uint32_t kBatch = 5;
  TestModel m = fullyConnected(kBatch);
  auto prepared = prepare(p, m);
  ASSERT_TRUE(prepared.has_value()) << prepared.error().message;
  constexpr int kThreads = 4, kRuns = 50;
  std::vector<std::vector<float>> inputs, expected;
  for (int t = 0; t < kThreads; ++t) {
    inputs.push_back(randomFloats(kBatch * 12, -1, 1, 100 + t));
    expected.push_back(execute(**prepared, m, {inputs.back()}).at(0));
    expectClose(expected.back(), reference(inputs.back(), kBatch), kFloat32Tolerance, "sequential");
  }
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRuns; ++r) {
        TestRequest request(1, 1);
        request.setInput(0, inputs[t]);
        request.setOutput(0, expected[t].size() * sizeof(float));
        auto result = (*prepared)->execute(request.view(), false, 0, 0);
        const auto out = request.output<float>(0);
        if (!result || result->status != driver::ErrorStatus::NONE ||
            std::memcmp(out.data(), expected[t].data(), out.size() * sizeof(float)) != 0) {
          ++mismatches;
        }
      }
    });
  }
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(OpenClDriverTest, DynamicBatchAndTooSmallOutputs) {
  const Plugin& p = plugin();
  NNRT_REQUIRE_OPENCL(p);
  TestModel m = fullyConnected(0);
  auto prepared = prepare(p, m);
  ASSERT_TRUE(prepared.has_value()) << prepared.error().message;
  for (uint32_t batch : {3u, 7u, 3u}) {
    const auto x = randomFloats(batch * 12, -1, 1, batch);
    TestRequest request(1, 1);
    request.setInput(0, x, {batch, 12});
    request.setOutput(0, size_t{batch} * kUnits * sizeof(float));
    auto result = (*prepared)->execute(request.view(), false, 0, 0);
    ASSERT_TRUE(result.has_value()) << result.error().message;
    EXPECT_EQ(result->outputShapes.at(0).dimensions, (std::vector<uint32_t>{batch, kUnits}));
    expectClose(request.output<float>(0), reference(x, batch), kFloat32Tolerance,
                "batch " + std::to_string(batch));
  }
  // A buffer one float short: OUTPUT_INSUFFICIENT_SIZE with the shape it needs.
  TestRequest small(1, 1);
  small.setInput(0, randomFloats(4 * 12, -1, 1, 4), {4, 12});
  small.setOutput(0, 4 * kUnits * sizeof(float) - sizeof(float));
  auto result = (*prepared)->execute(small.view(), false, 0, 0);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->status, driver::ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
  EXPECT_FALSE(result->outputShapes.at(0).isSufficient);
  EXPECT_EQ(result->outputShapes.at(0).dimensions, (std::vector<uint32_t>{4, kUnits}));
  // No dimensions at all for an unknown batch: refused.
  TestRequest missing(1, 1);
  missing.setInput(0, randomFloats(12, -1, 1, 4));
  missing.setOutput(0, 1024);
  auto refused = (*prepared)->execute(missing.view(), false, 0, 0);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ResultCode::BAD_DATA) << refused.error().message;
}

TEST(OpenClDriverTest, MeasuresTiming) {
  const Plugin& p = plugin();
  NNRT_REQUIRE_OPENCL(p);
  TestModel m = fullyConnected(2);
  auto prepared = prepare(p, m);
  ASSERT_TRUE(prepared.has_value()) << prepared.error().message;
  TestRequest request(1, 1);
  request.setInput(0, randomFloats(24, -1, 1, 1));
  request.setOutput(0, 2 * kUnits * sizeof(float));
  auto timed = (*prepared)->execute(request.view(), true, 0, 0);
  ASSERT_TRUE(timed.has_value()) << timed.error().message;
  EXPECT_NE(timed->timing.timeOnDevice, UINT64_MAX);
  EXPECT_NE(timed->timing.timeInDriver, UINT64_MAX);
  EXPECT_LE(timed->timing.timeOnDevice, timed->timing.timeInDriver);
  auto untimed = (*prepared)->execute(request.view(), false, 0, 0);
  ASSERT_TRUE(untimed.has_value());
  EXPECT_EQ(untimed->timing.timeOnDevice, UINT64_MAX);
}

// execute_1_3 through the C table: the callback fires exactly once per launch, on the completion
// thread, with the same results as the synchronous call.
TEST(OpenClDriverTest, AsynchronousExecutionCallsBackOnce) {
  const Plugin& p = plugin();
  NNRT_REQUIRE_OPENCL(p);
  const nnrt_driver_api& api = p.library->api();
  TestModel m = fullyConnected(3);
  struct Prepared {
    nnrt_status status = -1;
    nnrt_prepared_model* model = nullptr;
  } prepared;
  nnrt_reason reason{};
  api.prepare_model_1_3(
      p.raw, &m.view(), NNRT_PREFER_FAST_SINGLE_ANSWER, NNRT_PRIORITY_MEDIUM, 0, nullptr, 0, nullptr, 0,
      nullptr,
      [](void* context, nnrt_status status, nnrt_prepared_model* model, const char*) {
        *static_cast<Prepared*>(context) = {status, model};
      },
      &prepared, &reason);
  ASSERT_EQ(prepared.status, NNRT_STATUS_NONE) << reason.message;

  struct Waiter {
    std::mutex mutex;
    std::condition_variable done;
    int calls = 0;
    nnrt_status status = -1;
  };
  constexpr int kLaunches = 8;
  std::vector<std::unique_ptr<TestRequest>> requests;
  std::vector<Waiter> waiters(kLaunches);
  std::vector<std::vector<float>> inputs;
  for (int i = 0; i < kLaunches; ++i) {
    inputs.push_back(randomFloats(36, -1, 1, 50 + i));
    requests.push_back(std::make_unique<TestRequest>(1, 1));
    requests.back()->setInput(0, inputs.back());
    requests.back()->setOutput(0, 3 * kUnits * sizeof(float));
    const nnrt_status launched = api.execute_1_3(
        prepared.model, &requests.back()->view(), 0, 0, 0,
        [](void* context, nnrt_status status, const nnrt_output_shape*, uint32_t, nnrt_timing, const char*) {
          auto* w = static_cast<Waiter*>(context);
          std::lock_guard lock(w->mutex);
          ++w->calls;
          w->status = status;
          w->done.notify_all();
        },
        &waiters[i], &reason);
    EXPECT_EQ(launched, NNRT_STATUS_NONE) << reason.message;
  }
  for (int i = 0; i < kLaunches; ++i) {
    std::unique_lock lock(waiters[i].mutex);
    ASSERT_TRUE(
        waiters[i].done.wait_for(lock, std::chrono::seconds(30), [&] { return waiters[i].calls > 0; }));
    EXPECT_EQ(waiters[i].status, NNRT_STATUS_NONE);
    expectClose(requests[i]->output<float>(0), reference(inputs[i], 3), kFloat32Tolerance, "async");
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  for (Waiter& w : waiters)
    EXPECT_EQ(w.calls, 1);
  api.release_prepared_model(prepared.model);
}

TEST(OpenClDriverTest, BuildErrorsCarryTheLog) {
  // The option's macro breaks the kernel source, so the OpenCL C compiler reports errors.
  const Plugin& p = plugin({{"calibrate", "false"}, {"build_options", "-Dstorage_t=42"}});
  NNRT_REQUIRE_OPENCL(p);
  TestModel m = fullyConnected(2);
  auto prepared = prepare(p, m);
  ASSERT_FALSE(prepared.has_value());
  EXPECT_EQ(prepared.error().code, ResultCode::OP_FAILED);
  EXPECT_NE(prepared.error().message.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos)
      << prepared.error().message;
  EXPECT_NE(prepared.error().message.find("build log"), std::string::npos) << prepared.error().message;
  std::printf("[ info     ] %s\n", prepared.error().message.c_str());
}

// Run by the opencl_no_platform_test entry of ctest, with an empty ICD vendor directory.
TEST(OpenClNoPlatformTest, OpenFailsWithDeviceUnavailable) {
  if (std::getenv("NNRT_OPENCL_TEST_NO_PLATFORM") == nullptr)
    GTEST_SKIP() << "runs as opencl_no_platform_test";
  auto library = DriverLibrary::load(std::filesystem::path(NNRT_PLUGIN_DIR) / "libnnrt_driver_opencl.so", {});
  ASSERT_FALSE(library.has_value());
  EXPECT_NE(library.error().message.find("DEVICE_UNAVAILABLE (no OpenCL platform is installed"),
            std::string::npos)
      << library.error().message;
}

TEST(OpenClHalfTest, ConvertsLikeIeee754) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(1e6f), 0x7c00);                // overflow: infinity
  EXPECT_EQ(floatToHalf(5.960464477539063e-8f), 1);    // the smallest subnormal
  EXPECT_EQ(floatToHalf(1.0f + 1.0f / 2048), 0x3c00);  // a tie rounds to even
  EXPECT_EQ(floatToHalf(1.0f + 3.0f / 2048), 0x3c02);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(NAN))));
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0) continue;  // NaNs
    ASSERT_EQ(floatToHalf(halfToFloat(static_cast<uint16_t>(h))), h) << h;
  }
}

}  // namespace
}  // namespace nnrt::opencl::test
