// The runtime against a driver built to misbehave (plugins/fault_plugin.cpp), through the C API:
// every wait ends in bounded time with Android's result code, late and repeated callbacks are
// ignored, a device whose SDK getter throws is skipped while the others stay, nonsense answers are
// refused, and the cpu keeps working. Each fault has a device of its own (fault_runtime.yaml:
// f_<fault>), since a device whose call is abandoned is out of service for good. The expected
// values are a + b (and (a + b) * c) computed here. The same cases run with every fault device in a
// driver host process (fault_process_runtime.yaml, `isolation: process`): the codes are the same,
// and an abandoned call kills and restarts the host instead, after which the device is back.
#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <android/NeuralNetworks.h>

#include "core/capi/handles.hpp"
#include "core/device/device_registry.hpp"
#include "support/capi_devices.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr uint64_t kShortNs = 200'000'000;  // 200 ms deadlines
// A bounded wait: the deadline (200 ms) plus the grace (the 100 ms health check interval), with room
// for a loaded machine. Hangs would take forever.
constexpr auto kBound = std::chrono::seconds(3);

const std::vector<float> kA = {1.0f, 2.0f, 3.0f, 4.0f};
const std::vector<float> kB = {10.0f, 20.0f, 30.0f, 40.0f};
const std::vector<float> kC = {2.0f, 2.0f, 0.5f, -1.0f};
const std::vector<float> kSum = {11.0f, 22.0f, 33.0f, 44.0f};         // a + b
const std::vector<float> kSumTimesC = {22.0f, 44.0f, 16.5f, -44.0f};  // (a + b) * c

using nnrt::test::deviceNamed;

// out = a + b, or with `withMul` out = (a + b) * c (ADD runs on a fault device, MUL on the cpu).
struct TestModel {
  ANeuralNetworksModel* model = nullptr;
  explicit TestModel(bool withMul = false) {
    EXPECT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
    uint32_t dims[] = {4};
    ANeuralNetworksOperandType tensor{ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0.0f, 0};
    ANeuralNetworksOperandType scalar{ANEURALNETWORKS_INT32, 0, nullptr, 0.0f, 0};
    for (int i = 0; i < 2; ++i)
      ANeuralNetworksModel_addOperand(model, &tensor);  // 0 a, 1 b
    ANeuralNetworksModel_addOperand(model, &scalar);    // 2 activation
    ANeuralNetworksModel_addOperand(model, &tensor);    // 3 a + b
    const int32_t none = ANEURALNETWORKS_FUSED_NONE;
    ANeuralNetworksModel_setOperandValue(model, 2, &none, sizeof(none));
    uint32_t addIn[] = {0, 1, 2}, addOut[] = {3};
    ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, addIn, 1, addOut);
    if (withMul) {
      ANeuralNetworksModel_addOperand(model, &tensor);  // 4 c
      ANeuralNetworksModel_addOperand(model, &tensor);  // 5 (a + b) * c
      uint32_t mulIn[] = {3, 4, 2}, mulOut[] = {5};
      ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_MUL, 3, mulIn, 1, mulOut);
      uint32_t in[] = {0, 1, 4}, out[] = {5};
      ANeuralNetworksModel_identifyInputsAndOutputs(model, 3, in, 1, out);
    } else {
      uint32_t in[] = {0, 1}, out[] = {3};
      ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, in, 1, out);
    }
    EXPECT_EQ(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_NO_ERROR);
  }
  ~TestModel() { ANeuralNetworksModel_free(model); }
};

// A compilation for `devices` (none: the runtime chooses), with an optional timeout.
struct TestCompilation {
  ANeuralNetworksCompilation* compilation = nullptr;
  int finished = -1;
  TestCompilation(const TestModel& m, std::vector<std::string> devices, uint64_t timeoutNs = 0) {
    if (devices.empty()) {
      EXPECT_EQ(ANeuralNetworksCompilation_create(m.model, &compilation), ANEURALNETWORKS_NO_ERROR);
    } else {
      std::vector<const ANeuralNetworksDevice*> list;
      for (const auto& name : devices) {
        list.push_back(deviceNamed(name));
        EXPECT_NE(list.back(), nullptr) << name;
      }
      EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(m.model, list.data(),
                                                            static_cast<uint32_t>(list.size()), &compilation),
                ANEURALNETWORKS_NO_ERROR);
    }
    if (timeoutNs != 0) {
      EXPECT_EQ(ANeuralNetworksCompilation_setTimeout(compilation, timeoutNs), ANEURALNETWORKS_NO_ERROR);
    }
    finished = ANeuralNetworksCompilation_finish(compilation);
  }
  ~TestCompilation() { ANeuralNetworksCompilation_free(compilation); }
};

struct TestExecution {
  ANeuralNetworksExecution* execution = nullptr;
  std::vector<float> out = std::vector<float>(4, -1.0f);
  TestExecution(const TestCompilation& c, bool withMul, uint64_t timeoutNs = 0) {
    EXPECT_EQ(ANeuralNetworksExecution_create(c.compilation, &execution), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution_setInput(execution, 0, nullptr, kA.data(), 16);
    ANeuralNetworksExecution_setInput(execution, 1, nullptr, kB.data(), 16);
    if (withMul) ANeuralNetworksExecution_setInput(execution, 2, nullptr, kC.data(), 16);
    ANeuralNetworksExecution_setOutput(execution, 0, nullptr, out.data(), 16);
    if (timeoutNs != 0) {
      EXPECT_EQ(ANeuralNetworksExecution_setTimeout(execution, timeoutNs), ANEURALNETWORKS_NO_ERROR);
    }
  }
  ~TestExecution() { ANeuralNetworksExecution_free(execution); }
};

// Compiles a + b for the cpu alone and checks its values: the cpu survived the fault.
void expectCpuStillWorks() {
  TestModel m;
  TestCompilation c(m, {"cpu"});
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  TestExecution e(c, false);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e.execution), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(e.out, kSum);
}

// stderr while `body` runs.
template <class F>
std::string logOf(F&& body) {
  testing::internal::CaptureStderr();
  body();
  return testing::internal::GetCapturedStderr();
}

std::string outOfService(const std::string& device) {
  return "device '" + device + "' (plugin 'fault') is out of service";
}

// Whether the fault devices run in driver host processes (isolation: process).
bool isolated() {
  for (const auto& d : nnrt::DeviceRegistry::global().config().devices) {
    if (d.name == "f_none" || d.name == "stuck") return d.isolation == nnrt::config::Isolation::Process;
  }
  return false;
}

// Waits (at most 10 s) until the runtime sees `device` available again.
bool waitUntilAvailable(const std::string& device) {
  auto d = nnrt::DeviceRegistry::global().find(device);
  const auto until = Clock::now() + std::chrono::seconds(10);
  while (d && Clock::now() < until) {
    if (d->available() && d->queryStatus() == NNRT_DEVICE_STATUS_AVAILABLE) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// What `log` says of a device whose call the runtime abandoned: in process, the device is out of
// service for good; in a driver host process, the host is killed and restarted and the device
// comes back.
void expectAbandoned(const std::string& log, const std::string& device) {
  if (!isolated()) {
    EXPECT_NE(log.find(outOfService(device)), std::string::npos) << log;
    return;
  }
  EXPECT_NE(log.find("device '" + device + "' (plugin 'fault'): "), std::string::npos) << log;
  EXPECT_NE(log.find("its driver host process is killed and restarted"), std::string::npos) << log;
  EXPECT_TRUE(waitUntilAvailable(device)) << device;
  EXPECT_TRUE(nnrt::DeviceRegistry::global().find(device)->inService());
}

// The process's threads, by name (what a failure prints).
std::vector<std::string> threadNames() {
  std::vector<std::string> names;
  if (DIR* dir = opendir("/proc/self/task")) {
    while (dirent* e = readdir(dir)) {
      if (e->d_name[0] == '.')
        continue;
      std::string name;
      if (FILE* f = fopen(("/proc/self/task/" + std::string(e->d_name) + "/comm").c_str(), "r")) {
        char buf[64] = {};
        if (fgets(buf, sizeof(buf), f))
          name = buf;
        fclose(f);
      }
      if (!name.empty() && name.back() == '\n')
        name.pop_back();
      names.push_back(name);
    }
    closedir(dir);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names)
    s += n + " ";
  return s;
}

TEST(FaultTest, AWellBehavedFaultDeviceRunsAndKeepsItsThreadsFew) {
  TestModel m;
  TestCompilation c(m, {"f_none"});
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  // A few executions first: the device's worker threads start with its first calls.
  for (int i = 0; i < 5; ++i) {
    TestExecution e(c, false);
    ASSERT_EQ(ANeuralNetworksExecution_compute(e.execution), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(e.out, kSum);
  }
  const std::vector<std::string> before = threadNames();
  for (int i = 0; i < 20; ++i) {
    TestExecution e(c, false);
    ASSERT_EQ(ANeuralNetworksExecution_compute(e.execution), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(e.out, kSum);
  }
  // Calls run on the device's reused worker threads, not on a thread each.
  const std::vector<std::string> after = threadNames();
  EXPECT_LE(after.size(), before.size() + 2) << "before: " << joined(before) << "\nafter: " << joined(after);
}

TEST(FaultTest, PrepareThatNeverCallsBackMissesTheCompilationDeadline) {
  TestModel m;
  std::string log = logOf([&] {
    auto start = Clock::now();
    TestCompilation c(m, {"f_prepare_never_calls_back"}, kShortNs);
    EXPECT_EQ(c.finished, ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT);
    EXPECT_LT(Clock::now() - start, kBound);
  });
  expectAbandoned(log, "f_prepare_never_calls_back");
  expectCpuStillWorks();
}

TEST(FaultTest, PrepareThatHangsMissesTheCompilationDeadline) {
  TestModel m;
  std::string log = logOf([&] {
    auto start = Clock::now();
    TestCompilation c(m, {"f_prepare_hangs"}, kShortNs);
    EXPECT_EQ(c.finished, ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT);
    EXPECT_LT(Clock::now() - start, kBound);
  });
  expectAbandoned(log, "f_prepare_hangs");
  expectCpuStillWorks();
}

TEST(FaultTest, ASecondPrepareCallbackIsIgnored) {
  TestModel m;
  std::string log = logOf([&] {
    TestCompilation c(m, {"f_prepare_calls_back_twice"});
    ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
    TestExecution e(c, false);
    ASSERT_EQ(ANeuralNetworksExecution_compute(e.execution), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(e.out, kSum);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the second callback comes at 300 ms
  });
  // Isolated, the driver host ignores the second callback (and logs it on its own stderr).
  if (!isolated()) {
    EXPECT_NE(
        log.find(
            "device 'f_prepare_calls_back_twice' (plugin 'fault'): called back twice for one preparation"),
        std::string::npos)
        << log;
  }
  EXPECT_TRUE(deviceNamed("f_prepare_calls_back_twice") != nullptr);
}

TEST(FaultTest, AModelDeliveredAfterTheDeadlineIsReleased) {
  TestModel m;
  std::string log = logOf([&] {
    {
      TestCompilation c(m, {"f_prepare_calls_back_late"}, kShortNs);
      EXPECT_EQ(c.finished, ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(700));  // the model comes at 600 ms
  });
  EXPECT_NE(
      log.find("device 'f_prepare_calls_back_late' (plugin 'fault'): a preparation ended after the runtime "
               "stopped waiting for it (its model is released)"),
      std::string::npos)
      << log;
  expectCpuStillWorks();
}

TEST(FaultTest, ExecutionThatHangsMissesItsDeadline) {
  TestModel m;
  TestCompilation c(m, {"f_execute_hangs"});
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  std::string log = logOf([&] {
    TestExecution e(c, false, kShortNs);
    auto start = Clock::now();
    EXPECT_EQ(ANeuralNetworksExecution_compute(e.execution), ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT);
    EXPECT_LT(Clock::now() - start, kBound);
  });
  // Out of service: the device is refused from now on, at once. Isolated: the model died with its
  // host, and the device is back.
  TestExecution again(c, false);
  EXPECT_EQ(ANeuralNetworksExecution_compute(again.execution), ANEURALNETWORKS_UNAVAILABLE_DEVICE);
  expectAbandoned(log, "f_execute_hangs");
  EXPECT_EQ(ANeuralNetworksDevice_wait(deviceNamed("f_execute_hangs")),
            isolated() ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_UNAVAILABLE_DEVICE);
  expectCpuStillWorks();
}

TEST(FaultTest, FencedExecutionThatHangsMissesItsDeadline) {
  TestModel m;
  TestCompilation c(m, {"f_execute_hangs_fenced"});
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  int fd = eventfd(1, EFD_CLOEXEC);  // already signalled
  ASSERT_GE(fd, 0);
  ANeuralNetworksEvent* dependency = nullptr;
  ASSERT_EQ(ANeuralNetworksEvent_createFromSyncFenceFd(fd, &dependency), ANEURALNETWORKS_NO_ERROR);
  close(fd);
  std::string log = logOf([&] {
    TestExecution e(c, false, kShortNs);
    auto start = Clock::now();
    ANeuralNetworksEvent* done = nullptr;
    const ANeuralNetworksEvent* deps[] = {dependency};
    ASSERT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(e.execution, deps, 1, 0, &done),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksEvent_wait(done), ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT);
    EXPECT_LT(Clock::now() - start, kBound);
    ANeuralNetworksEvent_free(done);
  });
  ANeuralNetworksEvent_free(dependency);
  expectAbandoned(log, "f_execute_hangs_fenced");
  expectCpuStillWorks();
}

TEST(FaultTest, MultiStepExecutionWhoseCallbackNeverComesMissesItsDeadline) {
  TestModel m(true);
  TestCompilation c(m, {"f_execute_never_calls_back", "cpu"});
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  std::string log = logOf([&] {
    TestExecution e(c, true);
    auto start = Clock::now();
    // The duration bounds the run as a deadline does. The C API takes durations only for single-device
    // compilations (NNAPI's rule); nnrt's own Execution takes them for multi-step plans too.
    auto started = e.execution->execution.startCompute({}, kShortNs, true);
    ASSERT_TRUE(started) << started.error().message;
    auto* done = new ANeuralNetworksEvent{std::move(*started)};
    EXPECT_EQ(ANeuralNetworksEvent_wait(done), ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT);
    EXPECT_LT(Clock::now() - start, kBound);
    ANeuralNetworksEvent_free(done);
  });
  expectAbandoned(log, "f_execute_never_calls_back");
  expectCpuStillWorks();
}

TEST(FaultTest, SingleStepExecutionWhoseAsyncCallbackNeverComesIsBounded) {
  // A single step runs with execute_synchronously_1_3, which this device answers; its async entry
  // point is only reached by multi-step plans, so here it behaves.
  TestModel m;
  TestCompilation c(m, {"f_execute_never_calls_back_alone"});
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  TestExecution e(c, false, kShortNs);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e.execution), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(e.out, kSum);
}

TEST(FaultTest, ASecondExecuteCallbackIsIgnored) {
  TestModel m(true);
  TestCompilation c(m, {"f_execute_calls_back_twice", "cpu"});
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  std::string log = logOf([&] {
    TestExecution e(c, true);
    ASSERT_EQ(ANeuralNetworksExecution_compute(e.execution), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(e.out, kSumTimesC);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the second callback comes at 100 ms
  });
  // Isolated, the driver host ignores the second callback (and logs it on its own stderr).
  if (!isolated()) {
    EXPECT_NE(
        log.find("device 'f_execute_calls_back_twice' (plugin 'fault'): called back twice for one execution"),
        std::string::npos)
        << log;
  }
}

TEST(FaultTest, StatusThatHangsIsNoAnswer) {
  const auto start = Clock::now();
  EXPECT_EQ(ANeuralNetworksDevice_wait(deviceNamed("f_status_hangs")), ANEURALNETWORKS_UNAVAILABLE_DEVICE);
  EXPECT_LT(Clock::now() - start, kBound);
  auto device = nnrt::DeviceRegistry::global().find("f_status_hangs");
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->queryStatus(std::chrono::milliseconds(50)), std::nullopt);
  expectCpuStillWorks();
}

TEST(FaultTest, ThrowingGettersSkipTheirDeviceOnly) {
  const nnrt::DeviceRegistry& registry = nnrt::DeviceRegistry::global();
  auto skippedFor = [&](const std::string& name) -> std::string {
    for (const auto& s : registry.skipped()) {
      if (s.name == name) return s.reason;
    }
    return "(not skipped)";
  };
  const std::string file = std::string(getenv("NNRT_PLUGIN_DIR")) + "/test_plugins/libnnrt_driver_fault.so";
  EXPECT_EQ(skippedFor("f_throw_get_name"),
            file + ": device 'f_throw_get_name': driver gave no name (NULL, empty or over 1024 bytes)");
  EXPECT_EQ(
      skippedFor("f_throw_get_version_string"),
      file +
          ": device 'f_throw_get_version_string': driver gave no version string (NULL or over 1024 bytes)");
  EXPECT_EQ(skippedFor("f_throw_get_type"), file + ": device 'f_throw_get_type': unknown device type 0");
  EXPECT_EQ(skippedFor("f_throw_get_feature_level"),
            file + ": device 'f_throw_get_feature_level': unknown feature level 0");
  EXPECT_EQ(skippedFor("f_throw_get_capabilities"),
            file +
                ": device 'f_throw_get_capabilities': getCapabilities_1_3: GENERAL_FAILURE (driver threw: no "
                "capabilities today)");
  for (const char* name : {"f_throw_get_name", "f_throw_get_version_string", "f_throw_get_type",
                           "f_throw_get_feature_level", "f_throw_get_capabilities"}) {
    EXPECT_EQ(deviceNamed(name), nullptr) << name;
  }
  // A throwing getStatus reads UNKNOWN: the device stays, unavailable.
  const ANeuralNetworksDevice* throwingStatus = deviceNamed("f_throw_get_status");
  ASSERT_NE(throwingStatus, nullptr);
  EXPECT_EQ(ANeuralNetworksDevice_wait(throwingStatus), ANEURALNETWORKS_UNAVAILABLE_DEVICE);
  expectCpuStillWorks();
}

// The operations the runtime takes a device to support, through the C API.
std::vector<bool> supportedBy(const std::string& device) {
  TestModel m;
  const ANeuralNetworksDevice* list[] = {deviceNamed(device)};
  bool supported[1] = {true};
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(m.model, list, 1, supported),
            ANEURALNETWORKS_NO_ERROR);
  return {supported[0]};
}

TEST(FaultTest, SupportBytesOtherThanZeroOrOneAreRefused) {
  EXPECT_EQ(supportedBy("f_none"), std::vector<bool>{true});
  std::string log = logOf([&] { EXPECT_EQ(supportedBy("f_supported_garbage"), std::vector<bool>{false}); });
  EXPECT_NE(
      log.find("getSupportedOperations_1_3 on 'f_supported_garbage': the driver answered 171 (not 0 or 1) "
               "for operation 0; its answer is refused"),
      std::string::npos)
      << log;
  // The model then runs on the cpu.
  TestModel m;
  TestCompilation c(m, {"f_supported_garbage", "cpu"});
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  TestExecution e(c, false);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e.execution), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(e.out, kSum);
}

TEST(FaultTest, ThrowingSupportQueryMeansNothingSupported) {
  EXPECT_EQ(supportedBy("f_throw_get_supported_operations"), std::vector<bool>{false});
}

TEST(FaultTest, NonsenseOutputShapesFailTheExecution) {
  TestModel m;
  TestCompilation c(m, {"f_shapes_garbage"});
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  std::string log = logOf([&] {
    TestExecution e(c, false);
    EXPECT_EQ(ANeuralNetworksExecution_compute(e.execution), ANEURALNETWORKS_OP_FAILED);
  });
  EXPECT_NE(
      log.find("execution on device 'f_shapes_garbage': the driver reported is_sufficient 171 for output 0"),
      std::string::npos)
      << log;
}

TEST(FaultTest, ThrowingPrepareAndExecuteAreFailures) {
  TestModel m;
  TestCompilation prepareThrows(m, {"f_throw_prepare"});
  EXPECT_EQ(prepareThrows.finished, ANEURALNETWORKS_OP_FAILED);
  TestCompilation c(m, {"f_throw_execute"});
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  TestExecution e(c, false);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e.execution), ANEURALNETWORKS_OP_FAILED);
  // Failures with an answer leave the device in service.
  EXPECT_TRUE(nnrt::DeviceRegistry::global().find("f_throw_execute")->inService());
}

// fault_fallback_runtime.yaml: without a deadline, a hung execution ends when the health check
// finds the device unavailable, and the model runs on the cpu instead.
TEST(FaultFallback, HungExecutionEndsWithTheHealthCheckAndFallsBackToTheCpu) {
  if (deviceNamed("stuck") == nullptr) GTEST_SKIP() << "runs in fault_fallback_test";
  TestModel m;
  TestCompilation c(m, {});
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  std::string log = logOf([&] {
    TestExecution e(c, false);
    auto start = Clock::now();
    EXPECT_EQ(ANeuralNetworksExecution_compute(e.execution), ANEURALNETWORKS_NO_ERROR);
    EXPECT_LT(Clock::now() - start, kBound);
    EXPECT_EQ(e.out, kSum);
  });
  EXPECT_NE(log.find("execution on device 'stuck' did not end 100 ms after the device became unavailable"),
            std::string::npos)
      << log;
  expectAbandoned(log, "stuck");
  EXPECT_NE(log.find("retrying on 'cpu'"), std::string::npos) << log;
}

}  // namespace
