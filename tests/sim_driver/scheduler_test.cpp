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
  std::unique_ptr<DeviceRegistry> registry(int latencyMs, const std::string& extraA = "", bool cpu = true,
                                           const std::string& extraB = "") {
    std::string sim = (kTestPlugins / "libnnrt_driver_sim.so").string();
    std::ostringstream yaml;
    yaml << "devices:\n";
    if (cpu) yaml << "  - name: cpu\n    library: " << (kPlugins / "libnnrt_driver_cpu.so").string() << "\n";
    yaml << "  - name: simA\n    library: " << sim << "\n    options: {ops: ADD, latency_ms: \"" << latencyMs
         << "\", trace: " << trace_.string() << extraA << "}\n";
    yaml << "  - name: simB\n    library: " << sim << "\n    options: {ops: MUL, latency_ms: \"" << latencyMs
         << "\", trace: " << trace_.string() << extraB << "}\n";
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

// ANeuralNetworksModel_finish sorts the operations topologically, keeping the order they were added in
// where it is valid: two independent chains added one after the other stay one after the other (not
// interleaved step by step, which made the two directions of an unrolled bidirectional recurrence evict
// each other's weights from the cache), and an operation added before the one writing its input moves
// after it, no further.
TEST(ModelOrder, OperationsAddedInAValidOrderKeepIt) {
  const int32_t tensor = static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32);
  const int32_t scalar = static_cast<int32_t>(driver::OperandType::INT32);
  const int32_t add = static_cast<int32_t>(driver::OperationType::ADD);
  ModelBuilder m(std::make_shared<const ExtensionRegistry>());
  for (int i = 0; i < 9; ++i) ASSERT_TRUE(m.addOperand(tensor, kDims, 0, 0));  // 0 x, 1 one, 2..8 results
  ASSERT_TRUE(m.addOperand(scalar, {}, 0, 0));                                  // 9 activation
  const float one[4] = {1, 1, 1, 1};
  int32_t none = 0;
  ASSERT_TRUE(m.setOperandValue(1, one, sizeof one));
  ASSERT_TRUE(m.setOperandValue(9, &none, sizeof none));
  auto addOp = [&](uint32_t in, uint32_t out) {
    const uint32_t ins[] = {in, 1, 9}, outs[] = {out};
    ASSERT_TRUE(m.addOperation(add, ins, outs));
  };
  addOp(0, 2);  // chain A: x -> 2 -> 3 -> 4
  addOp(2, 3);
  addOp(3, 4);
  addOp(0, 5);  // chain B: x -> 5 -> 6
  addOp(5, 6);
  addOp(8, 7);  // reads 8, which the next operation writes
  addOp(6, 8);
  const uint32_t in[] = {0}, out[] = {4, 7};
  ASSERT_TRUE(m.identifyInputsAndOutputs(in, out));
  auto finished = m.finish();
  ASSERT_TRUE(finished.has_value()) << finished.error().message;
  EXPECT_EQ(m.finishedModel()->originalIndex, (std::vector<uint32_t>{0, 1, 2, 3, 4, 6, 5}));
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

// Each step's own durations, in devicesUsed's order: simA reports 7 us on the device and 14 us in
// the driver, simB 5 and 10; the whole run's are their sums.
TEST_F(SchedulerTest, StepDurationsArePerStepInPlanOrder) {
  auto reg = registry(1, ", timing_us: \"7\"", true, ", timing_us: \"5\"");
  auto compiled = compile(buildModel(*reg, /*chain=*/true), *reg);
  Execution e(compiled);
  const float x[4] = {1, 2, 3, 4};
  float b[4] = {};
  ASSERT_TRUE(e.setInput(0, nullptr, x, sizeof x));
  ASSERT_TRUE(e.setOutput(0, nullptr, b, sizeof b));
  ASSERT_TRUE(e.compute());
  EXPECT_TRUE(e.stepDurations().empty());  // not measured

  Execution measured(compiled);
  ASSERT_TRUE(measured.setInput(0, nullptr, x, sizeof x));
  ASSERT_TRUE(measured.setOutput(0, nullptr, b, sizeof b));
  ASSERT_TRUE(measured.setMeasureTiming(true));
  ASSERT_TRUE(measured.compute());
  EXPECT_EQ(measured.devicesUsed(), (std::vector<std::string>{"simA", "simB"}));
  const auto& steps = measured.stepDurations();
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].onHardware, 7'000u);
  EXPECT_EQ(steps[0].inDriver, 14'000u);
  EXPECT_EQ(steps[1].onHardware, 5'000u);
  EXPECT_EQ(steps[1].inDriver, 10'000u);
  EXPECT_EQ(*measured.getDuration(0), 12'000u);
  EXPECT_EQ(*measured.getDuration(1), 24'000u);
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

// ---- Control flow across devices ------------------------------------------------------------------

// A control-flow model built with ModelBuilder: every tensor TENSOR_FLOAT32 [1].
class FlowBuilder {
 public:
  explicit FlowBuilder(const DeviceRegistry& registry) : m_(registry.extensions()) {}
  uint32_t floats() { return add(driver::OperandType::TENSOR_FLOAT32, kOne); }
  uint32_t flag() { return add(driver::OperandType::TENSOR_BOOL8, kOne); }
  uint32_t constant(float value) {
    const uint32_t index = floats();
    EXPECT_TRUE(m_.setOperandValue(static_cast<int32_t>(index), &value, sizeof value));
    return index;
  }
  uint32_t subgraph(std::shared_ptr<const FinishedModel> model) {
    const uint32_t index = add(driver::OperandType::SUBGRAPH, {});
    EXPECT_TRUE(m_.setOperandValueFromModel(static_cast<int32_t>(index), std::move(model)));
    return index;
  }
  void operation(driver::OperationType type, std::vector<uint32_t> in, std::vector<uint32_t> out) {
    auto added = m_.addOperation(static_cast<int32_t>(type), in, out);
    EXPECT_TRUE(added.has_value()) << (added ? "" : added.error().message);
  }
  // a + b, a * b (fused activation NONE), a < b.
  void add(uint32_t a, uint32_t b, uint32_t out) { operation(driver::OperationType::ADD, {a, b, none()}, {out}); }
  void mul(uint32_t a, uint32_t b, uint32_t out) { operation(driver::OperationType::MUL, {a, b, none()}, {out}); }
  void less(uint32_t a, uint32_t b, uint32_t out) { operation(driver::OperationType::LESS, {a, b}, {out}); }
  std::shared_ptr<const FinishedModel> finish(std::vector<uint32_t> in, std::vector<uint32_t> out) {
    EXPECT_TRUE(m_.identifyInputsAndOutputs(in, out));
    auto finished = m_.finish();
    EXPECT_TRUE(finished.has_value()) << (finished ? "" : finished.error().message);
    return m_.finishedModel();
  }

 private:
  static constexpr uint32_t kOne[] = {1};
  uint32_t add(driver::OperandType type, std::span<const uint32_t> dims) {
    EXPECT_TRUE(m_.addOperand(static_cast<int32_t>(type), dims, 0, 0));
    return count_++;
  }
  uint32_t none() {
    if (none_ == UINT32_MAX) {
      none_ = add(driver::OperandType::INT32, {});
      const int32_t value = 0;
      EXPECT_TRUE(m_.setOperandValue(static_cast<int32_t>(none_), &value, sizeof value));
    }
    return none_;
  }
  ModelBuilder m_;
  uint32_t count_ = 0;
  uint32_t none_ = UINT32_MAX;
};

// One float in, one float out.
// The execution reads the inputs where they are, so they are iterated by reference.
Result<float> runScalar(const std::shared_ptr<const CompiledModel>& compiled, std::vector<float> inputs,
                        std::vector<uint8_t> flags = {}) {
  Execution e(compiled);
  int32_t index = 0;
  for (uint8_t& f : flags) EXPECT_TRUE(e.setInput(index++, nullptr, &f, 1));
  for (float& x : inputs) EXPECT_TRUE(e.setInput(index++, nullptr, &x, sizeof x));
  float out = -1;
  EXPECT_TRUE(e.setOutput(0, nullptr, &out, sizeof out));
  NNRT_RETURN_IF_ERROR(e.compute());
  return out;
}

// The device names of a referenced subgraph's steps, in order.
std::vector<std::string> stepDevices(const CompiledModel& compiled, uint32_t subgraph) {
  std::vector<std::string> names;
  for (const CompiledStep& step : compiled.referenced(subgraph).steps)
    names.push_back(step.interpreted ? "runtime" : step.device->name());
  return names;
}

// WHILE x < 20: x = x * 2 + 1. The body's MUL goes to simB and its ADD to simA (each half the cpu's
// cost); the condition's LESS to the cpu. From x = 1: 3, 7, 15, 31 (four iterations).
std::shared_ptr<const FinishedModel> doubleUntilModel(const DeviceRegistry& registry) {
  FlowBuilder condition(registry), body(registry), main(registry);
  {
    const uint32_t x = condition.floats(), limit = condition.floats(), go = condition.flag();
    condition.less(x, limit, go);
  }
  auto conditionModel = condition.finish({0, 1}, {2});  // x, limit -> go
  {
    const uint32_t x = body.floats(), limit = body.floats(), two = body.constant(2), one = body.constant(1);
    const uint32_t doubled = body.floats(), next = body.floats();
    body.mul(x, two, doubled);
    body.add(doubled, one, next);
    (void)limit;
  }
  auto bodyModel = body.finish({0, 1}, {5});  // x, limit -> next
  const uint32_t x = main.floats(), limit = main.floats(), out = main.floats();
  const uint32_t condRef = main.subgraph(conditionModel), bodyRef = main.subgraph(bodyModel);
  main.operation(driver::OperationType::WHILE, {condRef, bodyRef, x, limit}, {out});
  return main.finish({x, limit}, {out});
}

TEST_F(SchedulerTest, WhileBodySplitAcrossTwoDevices) {
  auto reg = registry(1);
  auto compiled = compile(doubleUntilModel(*reg), *reg);
  ASSERT_TRUE(compiled);
  ASSERT_EQ(compiled->steps().size(), 1u);
  EXPECT_TRUE(compiled->steps()[0].interpreted);
  // Referenced subgraphs in order of first reference: 0 the condition, 1 the body.
  EXPECT_EQ(stepDevices(*compiled, 0), (std::vector<std::string>{"cpu"}));
  EXPECT_EQ(stepDevices(*compiled, 1), (std::vector<std::string>{"simB", "simA"}));

  auto result = runScalar(compiled, {1.0f, 20.0f});
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(*result, 31.0f);
  // Each iteration ran the body's two steps, one on each simulated device.
  EXPECT_EQ(trace().size(), 8u);
}

// IF c: x + 1 (simA) else: x * 2 (simB).
std::shared_ptr<const FinishedModel> addOrDoubleModel(const DeviceRegistry& registry) {
  FlowBuilder then(registry), otherwise(registry), main(registry);
  {
    const uint32_t a = then.floats(), one = then.constant(1), b = then.floats();
    then.add(a, one, b);
  }
  auto thenModel = then.finish({0}, {2});  // a -> b
  {
    const uint32_t a = otherwise.floats(), two = otherwise.constant(2), b = otherwise.floats();
    otherwise.mul(a, two, b);
  }
  auto elseModel = otherwise.finish({0}, {2});  // a -> b
  const uint32_t c = main.flag(), x = main.floats(), y = main.floats();
  const uint32_t thenRef = main.subgraph(thenModel), elseRef = main.subgraph(elseModel);
  main.operation(driver::OperationType::IF, {c, thenRef, elseRef, x}, {y});
  return main.finish({c, x}, {y});
}

TEST_F(SchedulerTest, IfBranchesOnDifferentDevices) {
  auto reg = registry(1);
  auto compiled = compile(addOrDoubleModel(*reg), *reg);
  ASSERT_TRUE(compiled);
  EXPECT_EQ(stepDevices(*compiled, 0), (std::vector<std::string>{"simA"}));
  EXPECT_EQ(stepDevices(*compiled, 1), (std::vector<std::string>{"simB"}));

  auto yes = runScalar(compiled, {3.0f}, {1});
  ASSERT_TRUE(yes.has_value()) << yes.error().message;
  EXPECT_EQ(*yes, 4.0f);
  auto no = runScalar(compiled, {3.0f}, {0});
  ASSERT_TRUE(no.has_value()) << no.error().message;
  EXPECT_EQ(*no, 6.0f);
  EXPECT_EQ(trace().size(), 2u);  // one branch on a simulated device per run
}

// The execution's deadline also ends a loop: x < 1e30 never ends, the loop timeout is the maximum,
// and a 30 ms execution timeout stops it.
TEST_F(SchedulerTest, ExecutionDeadlineEndsALoop) {
  auto reg = registry(1);
  FlowBuilder condition(*reg), body(*reg), main(*reg);
  {
    const uint32_t x = condition.floats(), limit = condition.floats(), go = condition.flag();
    condition.less(x, limit, go);
  }
  auto conditionModel = condition.finish({0, 1}, {2});  // x, limit -> go
  {
    const uint32_t x = body.floats(), limit = body.floats(), one = body.constant(1), next = body.floats();
    body.add(x, one, next);
    (void)limit;
  }
  auto bodyModel = body.finish({0, 1}, {3});  // x, limit -> next
  const uint32_t x = main.floats(), limit = main.floats(), out = main.floats();
  const uint32_t condRef = main.subgraph(conditionModel), bodyRef = main.subgraph(bodyModel);
  main.operation(driver::OperationType::WHILE, {condRef, bodyRef, x, limit}, {out});
  auto compiled = compile(main.finish({x, limit}, {out}), *reg);
  ASSERT_TRUE(compiled);
  Execution e(compiled);
  float in[] = {0.0f, 1e30f}, result = 0;
  EXPECT_TRUE(e.setInput(0, nullptr, &in[0], sizeof(float)));
  EXPECT_TRUE(e.setInput(1, nullptr, &in[1], sizeof(float)));
  EXPECT_TRUE(e.setOutput(0, nullptr, &result, sizeof result));
  EXPECT_TRUE(e.setLoopTimeout(15'000'000'000ull));
  EXPECT_TRUE(e.setTimeout(30'000'000));
  const auto start = std::chrono::steady_clock::now();
  auto computed = e.compute();
  ASSERT_FALSE(computed.has_value());
  EXPECT_EQ(computed.error().code, ResultCode::MISSED_DEADLINE_TRANSIENT);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

// Durations of a run with interpreted control flow: the sum over every step that ran, the subgraphs'
// steps included, as for any multi-step plan. simA and simB report 7 us on the device and 14 us in
// the driver per execution.
Result<std::pair<uint64_t, uint64_t>> measuredRun(const std::shared_ptr<const CompiledModel>& compiled,
                                                  std::vector<float> inputs, std::vector<uint8_t> flags,
                                                  float expected) {
  Execution e(compiled);
  int32_t index = 0;
  for (uint8_t& f : flags) EXPECT_TRUE(e.setInput(index++, nullptr, &f, 1));
  for (float& x : inputs) EXPECT_TRUE(e.setInput(index++, nullptr, &x, sizeof x));
  float out = -1;
  EXPECT_TRUE(e.setOutput(0, nullptr, &out, sizeof out));
  EXPECT_TRUE(e.setMeasureTiming(true));
  NNRT_RETURN_IF_ERROR(e.compute());
  EXPECT_EQ(out, expected);
  NNRT_ASSIGN_OR_RETURN(uint64_t onHardware, e.getDuration(0));  // ON_HARDWARE
  NNRT_ASSIGN_OR_RETURN(uint64_t inDriver, e.getDuration(1));  // IN_DRIVER
  return std::make_pair(onHardware, inDriver);
}

TEST_F(SchedulerTest, DurationOfInterpretedControlFlowIsTheSumOfItsSteps) {
  auto reg = registry(1, ", timing_us: \"7\"", true, ", timing_us: \"7\"");
  // IF: the chosen branch's one step.
  auto branches = compile(addOrDoubleModel(*reg), *reg);
  ASSERT_TRUE(branches);
  for (uint8_t c : {1, 0}) {
    auto durations = measuredRun(branches, {3.0f}, {c}, c ? 4.0f : 6.0f);
    ASSERT_TRUE(durations.has_value()) << durations.error().message;
    EXPECT_EQ(durations->first, 7'000u);
    EXPECT_EQ(durations->second, 14'000u);
  }
  // WHILE from 1: four bodies of two steps (simB, simA) and five conditions on the cpu, which measures
  // its own time: at least 8 x 7 us, and far below a second.
  auto loop = compile(doubleUntilModel(*reg), *reg);
  ASSERT_TRUE(loop);
  auto durations = measuredRun(loop, {1.0f, 20.0f}, {}, 31.0f);
  ASSERT_TRUE(durations.has_value()) << durations.error().message;
  EXPECT_GE(durations->first, 56'000u);
  EXPECT_GE(durations->second, 112'000u);
  EXPECT_LT(durations->second, 1'000'000'000u);
}

// Without timing from one of the drivers, the sum is unknown.
TEST_F(SchedulerTest, DurationIsUnknownWhenAStepIsNotMeasured) {
  auto reg = registry(1, ", timing_us: \"7\"");  // simB reports nothing
  auto branches = compile(addOrDoubleModel(*reg), *reg);
  ASSERT_TRUE(branches);
  auto measured = measuredRun(branches, {3.0f}, {1}, 4.0f);  // simA
  ASSERT_TRUE(measured.has_value()) << measured.error().message;
  EXPECT_EQ(measured->first, 7'000u);
  auto unmeasured = measuredRun(branches, {3.0f}, {0}, 6.0f);  // simB
  ASSERT_TRUE(unmeasured.has_value()) << unmeasured.error().message;
  EXPECT_EQ(unmeasured->first, UINT64_MAX);
  EXPECT_EQ(unmeasured->second, UINT64_MAX);
}

// A step of a subgraph that fails to compile sends the whole model to the cpu, as without control
// flow: the WHILE stays interpreted (the cpu does not run it whole) and its condition and body go to
// the cpu whole.
TEST_F(SchedulerTest, ControlFlowCompileFailureFallsBackToTheCpu) {
  auto reg = registry(1, ", fail: prepare");  // simA, which the body's ADD goes to
  Compilation c(doubleUntilModel(*reg), *reg, {});
  auto finished = c.finish();
  ASSERT_TRUE(finished.has_value()) << finished.error().message;
  auto compiled = c.compiled();
  EXPECT_NE(compiled->fallbackNote().find("simulated preparation failure"), std::string::npos)
      << compiled->fallbackNote();
  ASSERT_EQ(compiled->steps().size(), 1u);
  EXPECT_TRUE(compiled->steps()[0].interpreted);
  EXPECT_EQ(stepDevices(*compiled, 0), (std::vector<std::string>{"cpu"}));
  EXPECT_EQ(stepDevices(*compiled, 1), (std::vector<std::string>{"cpu"}));
  const auto& planned = compiled->plan();
  EXPECT_EQ(planned.plan.placements[0].rule.kind, partition::RuleKind::Interpreted);
  ASSERT_TRUE(planned.subgraphPlans[1].has_value());
  for (const auto& placement : planned.subgraphPlans[1]->plan.placements) {
    EXPECT_EQ(placement.rule.kind, partition::RuleKind::Fallback);
  }
  auto result = runScalar(compiled, {1.0f, 20.0f});
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(*result, 31.0f);
  EXPECT_TRUE(trace().empty());  // no simulated device ran

  // Not for a compilation for explicit devices.
  Compilation explicitDevices(doubleUntilModel(*reg), *reg, {reg->find("cpu"), reg->find("simA"), reg->find("simB")});
  EXPECT_FALSE(explicitDevices.finish().has_value());
}

// A step inside a subgraph that fails at run time is retried on the cpu, as a step of the main
// subgraph is: a branch that is one step, and one step of a body of two.
TEST_F(SchedulerTest, FailingSubgraphStepIsRetriedOnTheFallbackDevice) {
  auto reg = registry(1, ", fail: execute");  // simA, which runs ADD
  auto branches = compile(addOrDoubleModel(*reg), *reg);
  ASSERT_TRUE(branches);
  ASSERT_EQ(stepDevices(*branches, 0), (std::vector<std::string>{"simA"}));
  auto yes = runScalar(branches, {3.0f}, {1});  // x + 1, on the cpu after simA failed
  ASSERT_TRUE(yes.has_value()) << yes.error().message;
  EXPECT_EQ(*yes, 4.0f);
  auto no = runScalar(branches, {3.0f}, {0});  // x * 2 on simB
  ASSERT_TRUE(no.has_value()) << no.error().message;
  EXPECT_EQ(*no, 6.0f);

  auto loop = compile(doubleUntilModel(*reg), *reg);
  ASSERT_TRUE(loop);
  ASSERT_EQ(stepDevices(*loop, 1), (std::vector<std::string>{"simB", "simA"}));
  auto result = runScalar(loop, {1.0f, 20.0f});
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(*result, 31.0f);
}

}  // namespace
}  // namespace nnrt
