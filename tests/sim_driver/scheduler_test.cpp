// The scheduler with simulated accelerators: independent steps overlap, chains do not, deadlines
// stop steps that have not started, many executions share one compilation, unhealthy devices are
// avoided and executions on them fall back. Overlap is asserted from the drivers' own records of
// when each execution started and ended, not from wall-clock guesses.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/compilation/compilation.hpp"
#include "core/device/device_registry.hpp"
#include "core/device/health_monitor.hpp"
#include "core/execution/execution.hpp"
#include "core/model/model.hpp"

namespace nnrt {
namespace {

const std::filesystem::path kTestPlugins = NNRT_TEST_PLUGIN_DIR;
const std::filesystem::path kPlugins = NNRT_PLUGIN_DIR;

struct TraceRecord {
  std::string device;
  uint64_t start, end, loopTimeout;
};

class SchedulerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("nnrt_sched_" + std::to_string(::getpid()) + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    trace_ = dir_ / "trace.txt";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Two simulated accelerators: simA runs ADD, simB runs MUL, each `latency` ms; plus the cpu.
  std::unique_ptr<DeviceRegistry> registry(int latencyMs, const std::string& extraA = "", bool cpu = true) {
    std::string sim = (kTestPlugins / "libnnrt_driver_sim.so").string();
    std::ostringstream yaml;
    yaml << "devices:\n";
    if (cpu) yaml << "  - name: cpu\n    library: " << (kPlugins / "libnnrt_driver_cpu.so").string() << "\n";
    yaml << "  - name: simA\n    library: " << sim << "\n    options: {ops: ADD, latency_ms: \"" << latencyMs
         << "\", trace: " << trace_.string() << extraA << "}\n";
    yaml << "  - name: simB\n    library: " << sim << "\n    options: {ops: MUL, latency_ms: \"" << latencyMs
         << "\", trace: " << trace_.string() << "}\n";
    yaml << "policy:\n  health_check_interval_ms: 0\n";
    auto config = config::parseConfig(yaml.str(), dir_ / "runtime.yaml", kPlugins);
    EXPECT_TRUE(config.has_value()) << config.error().message;
    return DeviceRegistry::create(std::move(*config));
  }

  std::vector<TraceRecord> trace() const {
    std::vector<TraceRecord> records;
    std::ifstream in(trace_);
    TraceRecord r;
    while (in >> r.device >> r.start >> r.end >> r.loopTimeout) records.push_back(r);
    return records;
  }

  std::filesystem::path dir_, trace_;
};

const uint32_t kDims[] = {4};

// x -> ADD(x, 1) -> a and x -> MUL(x, 2) -> b (independent), or chained: ADD then MUL.
std::shared_ptr<const FinishedModel> buildModel(const DeviceRegistry& registry, bool chain) {
  ModelBuilder m(registry.extensions());
  const int32_t tensor = static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32);
  const int32_t scalar = static_cast<int32_t>(driver::OperandType::INT32);
  EXPECT_TRUE(m.addOperand(tensor, kDims, 0, 0));   // 0 x
  EXPECT_TRUE(m.addOperand(tensor, kDims, 0, 0));   // 1 one
  EXPECT_TRUE(m.addOperand(tensor, kDims, 0, 0));   // 2 two
  EXPECT_TRUE(m.addOperand(scalar, {}, 0, 0));      // 3 activation
  EXPECT_TRUE(m.addOperand(tensor, kDims, 0, 0));   // 4 a
  EXPECT_TRUE(m.addOperand(tensor, kDims, 0, 0));   // 5 b
  const float one[4] = {1, 1, 1, 1}, two[4] = {2, 2, 2, 2};
  int32_t none = 0;
  EXPECT_TRUE(m.setOperandValue(1, one, sizeof one));
  EXPECT_TRUE(m.setOperandValue(2, two, sizeof two));
  EXPECT_TRUE(m.setOperandValue(3, &none, sizeof none));
  const uint32_t add[] = {0, 1, 3}, a[] = {4};
  EXPECT_TRUE(m.addOperation(static_cast<int32_t>(driver::OperationType::ADD), add, a));
  const uint32_t mulIndependent[] = {0, 2, 3}, mulChained[] = {4, 2, 3}, b[] = {5};
  EXPECT_TRUE(m.addOperation(static_cast<int32_t>(driver::OperationType::MUL), chain ? mulChained : mulIndependent, b));
  const uint32_t in[] = {0};
  const uint32_t outIndependent[] = {4, 5}, outChained[] = {5};
  EXPECT_TRUE(m.identifyInputsAndOutputs(in, chain ? std::span<const uint32_t>(outChained)
                                                   : std::span<const uint32_t>(outIndependent)));
  auto finished = m.finish();
  EXPECT_TRUE(finished.has_value()) << (finished ? "" : finished.error().message);
  return m.finishedModel();
}

std::shared_ptr<const CompiledModel> compile(const std::shared_ptr<const FinishedModel>& model,
                                             const DeviceRegistry& registry) {
  Compilation c(model, registry, {});
  auto finished = c.finish();
  EXPECT_TRUE(finished.has_value()) << (finished ? "" : finished.error().message);
  return c.compiled();
}

// Runs one execution; returns its result with outputs in `a` (independent only) and `b`.
Result<void> run(const std::shared_ptr<const CompiledModel>& compiled, const float x[4], float a[4], float b[4],
                 uint64_t timeoutNs = 0, uint64_t loopTimeoutNs = 0) {
  Execution e(compiled);
  EXPECT_TRUE(e.setInput(0, nullptr, x, 4 * sizeof(float)));
  bool independent = compiled->model().outputs.size() == 2;
  if (independent) {
    EXPECT_TRUE(e.setOutput(0, nullptr, a, 4 * sizeof(float)));
  }
  EXPECT_TRUE(e.setOutput(independent ? 1 : 0, nullptr, b, 4 * sizeof(float)));
  if (timeoutNs) {
    EXPECT_TRUE(e.setTimeout(timeoutNs));
  }
  if (loopTimeoutNs) {
    EXPECT_TRUE(e.setLoopTimeout(loopTimeoutNs));
  }
  return e.compute();
}

TEST_F(SchedulerTest, IndependentStepsOnTwoDevicesOverlap) {
  auto reg = registry(50);
  auto compiled = compile(buildModel(*reg, /*chain=*/false), *reg);
  ASSERT_EQ(compiled->steps().size(), 2u);
  EXPECT_TRUE(compiled->steps()[0].dependsOn.empty());
  EXPECT_TRUE(compiled->steps()[1].dependsOn.empty());
  const float x[4] = {1, 2, 3, 4};
  float a[4] = {}, b[4] = {};
  ASSERT_TRUE(run(compiled, x, a, b));
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(a[i], x[i] + 1);
    EXPECT_EQ(b[i], x[i] * 2);
  }
  auto records = trace();
  ASSERT_EQ(records.size(), 2u);
  // Each started before the other ended: they ran at the same time.
  EXPECT_LT(records[0].start, records[1].end);
  EXPECT_LT(records[1].start, records[0].end);
}

TEST_F(SchedulerTest, ChainedStepsRunOneAfterTheOther) {
  auto reg = registry(50);
  auto compiled = compile(buildModel(*reg, /*chain=*/true), *reg);
  ASSERT_EQ(compiled->steps().size(), 2u);
  ASSERT_EQ(compiled->steps()[1].dependsOn, std::vector<size_t>{0});
  const float x[4] = {1, 2, 3, 4};
  float b[4] = {};
  ASSERT_TRUE(run(compiled, x, nullptr, b));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b[i], (x[i] + 1) * 2);
  auto records = trace();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].device, "sim-0");
  EXPECT_GE(records[1].start, records[0].end);
  EXPECT_GE(records[1].end - records[0].start, 100'000'000u);
}

TEST_F(SchedulerTest, DeadlineStopsStepsThatHaveNotStarted) {
  auto reg = registry(50, ", honor_deadline: \"false\"");
  auto compiled = compile(buildModel(*reg, /*chain=*/true), *reg);
  const float x[4] = {1, 2, 3, 4};
  float b[4] = {};
  auto result = run(compiled, x, nullptr, b, /*timeoutNs=*/20'000'000);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ResultCode::MISSED_DEADLINE_TRANSIENT);
  auto records = trace();
  ASSERT_EQ(records.size(), 1u) << "the second step must not start after the deadline";
  EXPECT_EQ(records[0].device, "sim-0");
  EXPECT_EQ(b[0], 0.0f);
}

TEST_F(SchedulerTest, DeadlineAlreadyPassed) {
  auto reg = registry(1);
  auto compiled = compile(buildModel(*reg, /*chain=*/true), *reg);
  const float x[4] = {1, 2, 3, 4};
  float b[4] = {};
  auto result = run(compiled, x, nullptr, b, /*timeoutNs=*/1);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ResultCode::MISSED_DEADLINE_TRANSIENT);
  EXPECT_TRUE(trace().empty());
}

TEST_F(SchedulerTest, LoopTimeoutReachesEveryStepClampedToTheMaximum) {
  auto reg = registry(1);
  auto compiled = compile(buildModel(*reg, /*chain=*/true), *reg);
  const float x[4] = {1, 2, 3, 4};
  float b[4] = {};
  ASSERT_TRUE(run(compiled, x, nullptr, b, 0, /*loopTimeoutNs=*/5'000'000'000ull));
  ASSERT_TRUE(run(compiled, x, nullptr, b, 0, /*loopTimeoutNs=*/60'000'000'000ull));
  auto records = trace();
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[0].loopTimeout, 5'000'000'000ull);
  EXPECT_EQ(records[1].loopTimeout, 5'000'000'000ull);
  EXPECT_EQ(records[2].loopTimeout, 15'000'000'000ull);
  EXPECT_EQ(records[3].loopTimeout, 15'000'000'000ull);
}

TEST_F(SchedulerTest, ManyExecutionsOnOneCompoundCompilation) {
  auto reg = registry(0);
  auto compiled = compile(buildModel(*reg, /*chain=*/false), *reg);
  ASSERT_EQ(compiled->steps().size(), 2u);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        const float x[4] = {float(t), float(i), float(t - i), 0.5f};
        float a[4] = {}, b[4] = {};
        if (!run(compiled, x, a, b)) {
          ++wrong;
          continue;
        }
        for (int k = 0; k < 4; ++k) {
          if (a[k] != x[k] + 1 || b[k] != x[k] * 2) ++wrong;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST_F(SchedulerTest, TimingIsMeasuredForCompoundPlans) {
  auto reg = registry(5);
  auto compiled = compile(buildModel(*reg, /*chain=*/true), *reg);
  Execution e(compiled);
  const float x[4] = {1, 2, 3, 4};
  float b[4] = {};
  ASSERT_TRUE(e.setInput(0, nullptr, x, sizeof x));
  ASSERT_TRUE(e.setOutput(0, nullptr, b, sizeof b));
  ASSERT_TRUE(e.setMeasureTiming(true));
  ASSERT_TRUE(e.compute());
  // The simulated driver does not measure: the runtime reports "not available" rather than invent.
  EXPECT_EQ(*e.getDuration(0), UINT64_MAX);
  EXPECT_EQ(e.devicesUsed(), (std::vector<std::string>{"simA", "simB"}));
}

// Waits up to two seconds for `condition`.
template <class F>
bool eventually(F condition) {
  for (int i = 0; i < 200; ++i) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return condition();
}

TEST_F(SchedulerTest, UnhealthyDeviceIsAvoidedAndExecutionsFallBack) {
  std::filesystem::path status = dir_ / "status";
  std::ofstream(status) << "available";
  auto reg = registry(1, ", status_file: " + status.string());
  auto model = buildModel(*reg, /*chain=*/true);
  auto before = compile(model, *reg);
  ASSERT_EQ(before->steps()[0].device->name(), "simA");
  HealthMonitor monitor(reg->devices(), std::chrono::milliseconds(10));
  std::ofstream(status) << "offline";
  ASSERT_TRUE(eventually([&] { return !reg->find("simA")->available(); }));
  // A new compilation routes around the unavailable device.
  auto after = compile(model, *reg);
  for (const auto& step : after->steps()) EXPECT_NE(step.device->name(), "simA");
  // An execution of the earlier compilation falls back to the cpu for the step on simA.
  const float x[4] = {1, 2, 3, 4};
  float b[4] = {};
  Execution e(before);
  ASSERT_TRUE(e.setInput(0, nullptr, x, sizeof x));
  ASSERT_TRUE(e.setOutput(0, nullptr, b, sizeof b));
  ASSERT_TRUE(e.compute());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b[i], (x[i] + 1) * 2);
  EXPECT_EQ(e.devicesUsed(), (std::vector<std::string>{"cpu", "simB"}));
  // Recovery.
  std::ofstream(status) << "available";
  EXPECT_TRUE(eventually([&] { return reg->find("simA")->available(); }));
}

TEST_F(SchedulerTest, DeviceThatStopsAnsweringIsMarkedUnavailable) {
  std::filesystem::path status = dir_ / "status";
  std::ofstream(status) << "hang";
  auto reg = registry(1, ", status_file: " + status.string());
  HealthMonitor monitor(reg->devices(), std::chrono::milliseconds(20));
  EXPECT_TRUE(eventually([&] { return !reg->find("simA")->available(); }));
  EXPECT_TRUE(reg->find("simB")->available());
  std::ofstream(status) << "available";
}

TEST_F(SchedulerTest, FailingStepIsRetriedOnTheFallbackDevice) {
  auto reg = registry(1, ", fail: execute");
  auto compiled = compile(buildModel(*reg, /*chain=*/true), *reg);
  ASSERT_EQ(compiled->steps()[0].device->name(), "simA");
  const float x[4] = {1, 2, 3, 4};
  float b[4] = {};
  Execution e(compiled);
  ASSERT_TRUE(e.setInput(0, nullptr, x, sizeof x));
  ASSERT_TRUE(e.setOutput(0, nullptr, b, sizeof b));
  ASSERT_TRUE(e.compute());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b[i], (x[i] + 1) * 2);
  EXPECT_EQ(e.devicesUsed(), (std::vector<std::string>{"cpu", "simB"}));
}

TEST_F(SchedulerTest, CompileFailureFallsBackToTheWholeModelOnTheCpu) {
  auto reg = registry(1, ", fail: prepare");
  Compilation c(buildModel(*reg, /*chain=*/true), *reg, {});
  ASSERT_TRUE(c.finish());
  auto compiled = c.compiled();
  ASSERT_EQ(compiled->steps().size(), 1u);
  EXPECT_EQ(compiled->steps()[0].device->name(), "cpu");
  EXPECT_NE(compiled->fallbackNote().find("simulated preparation failure"), std::string::npos)
      << compiled->fallbackNote();
  const auto& planned = compiled->plan();
  EXPECT_EQ(planned.plan.placements[0].rule.kind, partition::RuleKind::Fallback);
  EXPECT_EQ(partition::ruleText(planned.plan, planned.plan.placements[0], planned.views).substr(0, 9),
            "fallback:");
}

TEST_F(SchedulerTest, ExplicitDevicesNeverFallBack) {
  auto reg = registry(1, ", fail: prepare");
  Compilation c(buildModel(*reg, /*chain=*/true), *reg, {reg->find("simA"), reg->find("simB")});
  auto finished = c.finish();
  ASSERT_FALSE(finished.has_value());
  EXPECT_EQ(finished.error().code, ResultCode::OP_FAILED);
}

}  // namespace
}  // namespace nnrt
