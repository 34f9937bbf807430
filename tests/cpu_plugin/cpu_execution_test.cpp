// Whole-model executions on the cpu plugin: a CNN-like chain against a double-precision reference,
// deadlines, timing, the threads option, and many threads executing one prepared model at once.
#include <gtest/gtest.h>

#include <time.h>

#include <atomic>
#include <thread>

#include "cpu_plugin/cpu_plugin_fixture.hpp"

namespace nnrt::test::cpu {
namespace {

uint64_t nowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

std::vector<double> cnnInput(uint32_t seed) {
  return CnnModel::randomValues(CnnModel::kInputSize, 100 + seed);
}

TEST(CpuExecution, CnnChainMatchesTheReference) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  CnnModel cnn;
  auto prepared = prepare(*device, cnn.model);
  ASSERT_NE(prepared, nullptr);
  for (uint32_t seed = 0; seed < 3; ++seed) {
    const auto input = cnnInput(seed);
    TestRequest r = cnn.request(input);
    auto result = prepared->execute(r.view(), false, 0, 0);
    ASSERT_TRUE(result.has_value()) << result.error().message;
    EXPECT_EQ(result->status, driver::ErrorStatus::NONE);
    EXPECT_EQ(result->outputShapes[0].dimensions, (std::vector<uint32_t>{1, 10}));
    expectNear(r.output<float>(0), cnn.reference(input));
  }
}

TEST(CpuExecution, ThreadsOptionOfOneGivesTheSameResults) {
  LoadedDevice holder;
  auto device = loadCpu(holder, {{"threads", "1"}});
  ASSERT_NE(device, nullptr);
  CnnModel cnn;
  auto prepared = prepare(*device, cnn.model);
  ASSERT_NE(prepared, nullptr);
  const auto input = cnnInput(7);
  TestRequest r = cnn.request(input);
  auto result = prepared->execute(r.view(), false, 0, 0);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  expectNear(r.output<float>(0), cnn.reference(input));
}

TEST(CpuExecution, PassedDeadlineIsMissed) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  CnnModel cnn;
  auto prepared = prepare(*device, cnn.model);
  ASSERT_NE(prepared, nullptr);
  TestRequest r = cnn.request(cnnInput(0));
  auto missed = prepared->execute(r.view(), false, /*deadline=*/1, 0);  // 1 ns after boot
  ASSERT_FALSE(missed.has_value());
  EXPECT_TRUE(missed.error().code == ResultCode::MISSED_DEADLINE_TRANSIENT ||
              missed.error().code == ResultCode::MISSED_DEADLINE_PERSISTENT)
      << missed.error().message;

  auto inTime = prepared->execute(r.view(), false, nowNs() + 60'000'000'000u, 0);
  ASSERT_TRUE(inTime.has_value()) << inTime.error().message;
  EXPECT_EQ(inTime->status, driver::ErrorStatus::NONE);
}

TEST(CpuExecution, TimingIsMeasuredOnlyWhenAsked) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  CnnModel cnn;
  auto prepared = prepare(*device, cnn.model);
  ASSERT_NE(prepared, nullptr);
  TestRequest r = cnn.request(cnnInput(0));
  const uint64_t before = nowNs();
  auto measured = prepared->execute(r.view(), /*measure=*/true, 0, 0);
  const uint64_t elapsedUs = (nowNs() - before) / 1000;
  ASSERT_TRUE(measured.has_value()) << measured.error().message;
  const driver::Timing& t = measured->timing;
  ASSERT_NE(t.timeOnDevice, UINT64_MAX);
  ASSERT_NE(t.timeInDriver, UINT64_MAX);
  EXPECT_LE(t.timeOnDevice, t.timeInDriver);
  EXPECT_LE(t.timeInDriver, elapsedUs);

  auto unmeasured = prepared->execute(r.view(), /*measure=*/false, 0, 0);
  ASSERT_TRUE(unmeasured.has_value());
  EXPECT_EQ(unmeasured->timing.timeOnDevice, UINT64_MAX);
  EXPECT_EQ(unmeasured->timing.timeInDriver, UINT64_MAX);
}

// Executions share nothing mutable: 8 threads x 200 executions of one prepared model, on inputs that
// differ by thread and iteration, each giving bit for bit the result of a lone execution.
TEST(CpuExecution, ConcurrentExecutionsOfOnePreparedModelAreExact) {
  LoadedDevice holder;
  auto device = loadCpu(holder, {{"threads", "4"}});
  ASSERT_NE(device, nullptr);
  CnnModel cnn;
  auto prepared = prepare(*device, cnn.model);
  ASSERT_NE(prepared, nullptr);

  constexpr int kInputs = 5, kThreads = 8, kIterations = 200;
  std::vector<std::vector<double>> inputs;
  std::vector<std::vector<float>> expected;
  for (int i = 0; i < kInputs; ++i) {
    inputs.push_back(cnnInput(static_cast<uint32_t>(i)));
    TestRequest r = cnn.request(inputs.back());
    auto result = prepared->execute(r.view(), false, 0, 0);
    ASSERT_TRUE(result.has_value()) << result.error().message;
    expected.push_back(r.output<float>(0));
    expectNear(expected.back(), cnn.reference(inputs.back()));
  }

  std::atomic<int> failures{0}, mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<TestRequest> requests;
      for (int i = 0; i < kInputs; ++i)
        requests.push_back(cnn.request(inputs[i]));
      for (int n = 0; n < kIterations; ++n) {
        const int which = (t + n) % kInputs;
        TestRequest& r = requests[which];
        auto result = prepared->execute(r.view(), false, 0, 0);
        if (!result.has_value() || result->status != driver::ErrorStatus::NONE) {
          ++failures;
        } else if (r.output<float>(0) != expected[which]) {
          ++mismatches;
        }
      }
    });
  }
  for (auto& thread : threads)
    thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
}  // namespace nnrt::test::cpu
