// Devices with `isolation: process` (core/device/remote_driver.hpp) through the C API: the cpu plugin
// run in a driver host computes what is computed here by hand (sync, async, constants in a shared
// pool); a host that crashes fails its calls with UNAVAILABLE_DEVICE, is restarted, and its device
// answers again; a hung execution misses its deadline and its host is killed and restarted instead
// of the device going out of service; a plugin that aborts while loading is skipped with the
// signal named; no host process or descriptor is leaked. isolation_runtime.yaml lists the devices;
// isolation_fallback_runtime.yaml is the run where the cpu takes over from a crashing device;
// isolation_doorbell_runtime.yaml the run of the execute doorbell (synchronous executions through
// shared memory): exact many times in a row, and a host killed or hung while a caller waits on it.
#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <android/NeuralNetworks.h>

#include "core/device/device_registry.hpp"
#include "core/device/host/wire.hpp"
#include "support/capi_devices.hpp"

namespace {

using Clock = std::chrono::steady_clock;

const std::vector<float> kA = {1.0f, 2.0f, 3.0f, 4.0f};
const std::vector<float> kB = {10.0f, 20.0f, 30.0f, 40.0f};
const std::vector<float> kSum = {11.0f, 22.0f, 33.0f, 44.0f};  // a + b
const std::vector<float> kNegA = {-1.0f, 2.0f, -3.0f, 4.0f};
const std::vector<float> kNegSum = {9.0f, 22.0f, 27.0f, 44.0f};  // -a... + b, by hand

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

bool inFallbackRun() {
  return nnrt::DeviceRegistry::global().find("crashing") != nullptr;
}
bool inDoorbellRun() {
  return nnrt::DeviceRegistry::global().find("p_hang_negative") != nullptr;
}

using nnrt::test::deviceNamed;

// out = a + b over `n` floats; with `constantB`, b is a constant of the model (n = 64 puts it in a
// shared pool: Android copies values over 128 bytes by reference).
struct AddModel {
  ANeuralNetworksModel* model = nullptr;
  AddModel(uint32_t n = 4, const float* constantB = nullptr) {
    EXPECT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
    uint32_t dims[] = {n};
    ANeuralNetworksOperandType tensor{ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0.0f, 0};
    ANeuralNetworksOperandType scalar{ANEURALNETWORKS_INT32, 0, nullptr, 0.0f, 0};
    ANeuralNetworksModel_addOperand(model, &tensor);  // 0 a
    ANeuralNetworksModel_addOperand(model, &tensor);  // 1 b
    ANeuralNetworksModel_addOperand(model, &scalar);  // 2 activation
    ANeuralNetworksModel_addOperand(model, &tensor);  // 3 a + b
    const int32_t none = ANEURALNETWORKS_FUSED_NONE;
    ANeuralNetworksModel_setOperandValue(model, 2, &none, sizeof(none));
    if (constantB != nullptr) ANeuralNetworksModel_setOperandValue(model, 1, constantB, n * sizeof(float));
    uint32_t addIn[] = {0, 1, 2}, addOut[] = {3};
    ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, addIn, 1, addOut);
    uint32_t in[] = {0, 1}, out[] = {3};
    ANeuralNetworksModel_identifyInputsAndOutputs(model, constantB != nullptr ? 1 : 2, in, 1, out);
    EXPECT_EQ(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_NO_ERROR);
  }
  ~AddModel() { ANeuralNetworksModel_free(model); }
};

struct Compilation {
  ANeuralNetworksCompilation* compilation = nullptr;
  int finished = -1;
  Compilation(const AddModel& m, const std::string& device) {
    if (device.empty()) {
      EXPECT_EQ(ANeuralNetworksCompilation_create(m.model, &compilation), ANEURALNETWORKS_NO_ERROR);
    } else {
      const ANeuralNetworksDevice* d = deviceNamed(device);
      EXPECT_NE(d, nullptr) << device;
      EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(m.model, &d, 1, &compilation),
                ANEURALNETWORKS_NO_ERROR);
    }
    finished = ANeuralNetworksCompilation_finish(compilation);
  }
  ~Compilation() { ANeuralNetworksCompilation_free(compilation); }
};

// Runs a + b (two inputs, or one input with b constant); returns the result code, fills `out`.
int run(const Compilation& c, const std::vector<float>& a, const std::vector<float>* b,
        std::vector<float>& out, bool async = false, uint64_t timeoutNs = 0) {
  ANeuralNetworksExecution* e = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(c.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  out.assign(a.size(), -1.0f);
  ANeuralNetworksExecution_setInput(e, 0, nullptr, a.data(), a.size() * sizeof(float));
  if (b != nullptr) ANeuralNetworksExecution_setInput(e, 1, nullptr, b->data(), b->size() * sizeof(float));
  ANeuralNetworksExecution_setOutput(e, 0, nullptr, out.data(), out.size() * sizeof(float));
  if (timeoutNs != 0) {
    EXPECT_EQ(ANeuralNetworksExecution_setTimeout(e, timeoutNs), ANEURALNETWORKS_NO_ERROR);
  }
  int result;
  if (async) {
    ANeuralNetworksEvent* event = nullptr;
    result = ANeuralNetworksExecution_startCompute(e, &event);
    if (result == ANEURALNETWORKS_NO_ERROR) result = ANeuralNetworksEvent_wait(event);
    ANeuralNetworksEvent_free(event);
  } else {
    result = ANeuralNetworksExecution_compute(e);
  }
  ANeuralNetworksExecution_free(e);
  return result;
}

// The driver host processes this process started (children named nnrt-driver-host), and how many
// of them are zombies (ended, not reaped).
struct Hosts {
  int running = 0;
  int zombies = 0;
};
Hosts hostChildren() {
  Hosts hosts;
  const std::string self = std::to_string(getpid());
  DIR* dir = opendir("/proc");
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::ifstream stat(std::string("/proc/") + e->d_name + "/stat");
    std::string line;
    std::getline(stat, line);
    // pid (comm) state ppid ...
    const size_t open = line.find('('), close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    const std::string comm = line.substr(open + 1, close - open - 1);
    char state = 0;
    std::string ppid;
    std::istringstream rest(line.substr(close + 2));
    rest >> state >> ppid;
    if (ppid != self || comm.rfind("nnrt-driver-hos", 0) != 0) continue;
    if (state == 'Z') {
      ++hosts.zombies;
    } else {
      ++hosts.running;
    }
  }
  closedir(dir);
  return hosts;
}

size_t openFdCount() {
  size_t n = 0;
  if (DIR* dir = opendir("/proc/self/fd")) {
    while (dirent* e = readdir(dir))
      n += e->d_name[0] != '.';
    closedir(dir);
  }
  return n;
}

// Waits (at most 10 s) until the runtime sees `device` available again (health check: AVAILABLE).
bool waitUntilAvailable(const std::string& device) {
  auto d = nnrt::DeviceRegistry::global().find(device);
  if (!d) return false;
  const auto until = Clock::now() + std::chrono::seconds(10);
  while (Clock::now() < until) {
    if (d->available() && d->queryStatus() == NNRT_DEVICE_STATUS_AVAILABLE) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

template <class F>
std::string logOf(F&& body) {
  testing::internal::CaptureStderr();
  body();
  return testing::internal::GetCapturedStderr();
}

class IsolationTest : public testing::Test {
 protected:
  void SetUp() override {
    if (inFallbackRun() || inDoorbellRun()) GTEST_SKIP() << "runs in isolation_test";
  }
};

TEST_F(IsolationTest, EachProcessDeviceHasOneHostAndAnAbortingPluginIsSkippedWithItsSignal) {
  // rcpu, p_none, p_crash, p_hang (p_abort's host died while loading, and was reaped).
  Hosts hosts = hostChildren();
  EXPECT_EQ(hosts.running, 4);
  EXPECT_EQ(hosts.zombies, 0);
  bool found = false;
  for (const auto& skipped : nnrt::DeviceRegistry::global().skipped()) {
    if (skipped.name != "p_abort") continue;
    found = true;
    EXPECT_NE(skipped.reason.find("libnnrt_test_abort.so"), std::string::npos) << skipped.reason;
    EXPECT_NE(skipped.reason.find("signal 6 (SIGABRT)"), std::string::npos) << skipped.reason;
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(deviceNamed("p_abort"), nullptr);
}

TEST_F(IsolationTest, TheCpuInAHostProcessAddsLikeTheCpuInProcess) {
  const ANeuralNetworksDevice* d = deviceNamed("rcpu");
  ASSERT_NE(d, nullptr);
  int32_t type = 0;
  EXPECT_EQ(ANeuralNetworksDevice_getType(d, &type), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(type, ANEURALNETWORKS_DEVICE_CPU);
  AddModel m;
  for (const char* device : {"cpu", "rcpu"}) {
    SCOPED_TRACE(device);
    Compilation c(m, device);
    ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
    std::vector<float> out;
    for (int i = 0; i < 3; ++i) {  // the arena is reused
      ASSERT_EQ(run(c, kA, &kB, out), ANEURALNETWORKS_NO_ERROR);
      EXPECT_EQ(out, kSum);
    }
    ASSERT_EQ(run(c, kA, &kB, out, /*async*/ true), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(out, kSum);
    ASSERT_EQ(run(c, kNegA, &kB, out), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(out, kNegSum);
  }
}

TEST_F(IsolationTest, ConstantsInASharedPoolReachTheHost) {
  constexpr uint32_t n = 64;
  std::vector<float> a(n), b(n), expected(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i) - 3.0f;
    expected[i] = 1.5f * static_cast<float>(i) - 3.0f;  // exact in float for these values
  }
  AddModel m(n, b.data());
  Compilation c(m, "rcpu");
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  std::vector<float> out;
  ASSERT_EQ(run(c, a, nullptr, out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out, expected);
}

TEST_F(IsolationTest, ACrashedHostFailsItsExecutionAndComesBack) {
  AddModel m;
  Compilation c(m, "p_crash");
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  std::vector<float> out;
  ASSERT_EQ(run(c, kA, &kB, out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out, kSum);
  const size_t fdsBefore = openFdCount();
  auto crashed = Clock::now();
  std::string log = logOf([&] {
    EXPECT_EQ(run(c, kNegA, &kB, out), ANEURALNETWORKS_UNAVAILABLE_DEVICE);
    crashed = Clock::now();
    ASSERT_TRUE(waitUntilAvailable("p_crash"));
  });
  // Backoff (100 ms, doubled for a host younger than 5 s, as this one is) plus the new host's start.
  std::printf("crash to available: %lld ms\n",
              static_cast<long long>(
                  std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - crashed).count()));
  EXPECT_NE(log.find("the driver host of plugin 'fault'"), std::string::npos) << log;
  // A sanitizer in the host catches the signal itself and exits with its own status (or is killed
  // while it writes its report) instead.
  EXPECT_NE(
      log.find(kSanitized ? "the driver host of plugin 'fault' (" : "was killed by signal 11 (SIGSEGV)"),
      std::string::npos)
      << log;
  EXPECT_NE(log.find("is running again"), std::string::npos) << log;
  // The model prepared by the dead host is gone; a new compilation runs on the new host.
  EXPECT_EQ(run(c, kA, &kB, out), ANEURALNETWORKS_UNAVAILABLE_DEVICE);
  {
    Compilation again(m, "p_crash");
    ASSERT_EQ(again.finished, ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(run(again, kA, &kB, out), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(out, kSum);
  }
  Hosts hosts = hostChildren();
  EXPECT_EQ(hosts.running, 4);
  EXPECT_EQ(hosts.zombies, 0);
  EXPECT_EQ(openFdCount(), fdsBefore);
  EXPECT_TRUE(nnrt::DeviceRegistry::global().find("p_crash")->inService());
}

TEST_F(IsolationTest, AHungExecutionMissesItsDeadlineAndItsHostIsRestarted) {
  AddModel m;
  Compilation c(m, "p_hang");
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  std::vector<float> out;
  std::string log = logOf([&] {
    const auto start = Clock::now();
    EXPECT_EQ(run(c, kA, &kB, out, false, 200'000'000), ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT);
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
    ASSERT_TRUE(waitUntilAvailable("p_hang"));
  });
  EXPECT_NE(log.find("its driver host process is killed and restarted"), std::string::npos) << log;
  EXPECT_NE(log.find("killed by the runtime"), std::string::npos) << log;
  // In process the device would be out of service for good; here it is back.
  auto device = nnrt::DeviceRegistry::global().find("p_hang");
  EXPECT_TRUE(device->inService());
  Hosts hosts = hostChildren();
  EXPECT_EQ(hosts.running, 4);
  EXPECT_EQ(hosts.zombies, 0);
}

// The pid of the driver host that loaded `library` (a file name in its memory map).
pid_t hostOf(const std::string& library) {
  const std::string self = std::to_string(getpid());
  pid_t found = -1;
  DIR* dir = opendir("/proc");
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::ifstream stat(std::string("/proc/") + e->d_name + "/stat");
    std::string line;
    std::getline(stat, line);
    const size_t close = line.rfind(')');
    if (close == std::string::npos || line.find("(nnrt-driver-hos") == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state = 0;
    std::string ppid;
    rest >> state >> ppid;
    if (ppid != self || state == 'Z') continue;
    std::ifstream maps(std::string("/proc/") + e->d_name + "/maps");
    std::string mapping;
    while (std::getline(maps, mapping)) {
      if (mapping.find(library) != std::string::npos) found = std::stoi(e->d_name);
    }
  }
  closedir(dir);
  return found;
}

// Executions on the cpu in a host process while the host is killed at random points (bounded:
// about 5 s): every execution either computes a + b exactly or fails with UNAVAILABLE_DEVICE, every
// compilation succeeds or fails cleanly, and the device ends available with no process leaked.
TEST_F(IsolationTest, ExecutionsWhileTheHostIsKilledAtRandomAreRightOrFailCleanly) {
  AddModel m;
  std::atomic<bool> stop{false};
  std::atomic<int> right{0}, unavailable{0}, wrong{0}, refusedCompilations{0};
  auto worker = [&](uint32_t seed) {
    std::vector<float> a(4), b(4), out;
    while (!stop) {
      Compilation c(m, "rcpu");
      if (c.finished != ANEURALNETWORKS_NO_ERROR) {
        // The host is gone (UNAVAILABLE_DEVICE), or the health check already marked the device
        // unavailable and no device is left for the model (BAD_DATA, as the runtime answers then).
        EXPECT_TRUE(c.finished == ANEURALNETWORKS_UNAVAILABLE_DEVICE ||
                    c.finished == ANEURALNETWORKS_BAD_DATA)
            << c.finished;
        ++refusedCompilations;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      for (int i = 0; i < 200 && !stop; ++i) {
        for (int k = 0; k < 4; ++k) {
          seed = seed * 1664525u + 1013904223u;
          a[k] = static_cast<float>(seed >> 20);
          b[k] = static_cast<float>(k) - 1.5f;
        }
        const int result = run(c, a, &b, out, /*async*/ (seed & 1) != 0);
        if (result == ANEURALNETWORKS_UNAVAILABLE_DEVICE) {
          ++unavailable;
          break;  // its host is gone: compile again
        }
        EXPECT_EQ(result, ANEURALNETWORKS_NO_ERROR);
        bool exact = true;
        for (int k = 0; k < 4; ++k)
          exact = exact && out[k] == a[k] + b[k];  // small integers and halves: exact
        ++(exact ? right : wrong);
      }
    }
  };
  testing::internal::CaptureStderr();  // each kill logs a few lines
  std::thread t1(worker, 1u), t2(worker, 2u);
  uint32_t seed = 7;
  int kills = 0;
  const auto until = Clock::now() + std::chrono::seconds(4);
  while (Clock::now() < until) {
    seed = seed * 1664525u + 1013904223u;
    std::this_thread::sleep_for(std::chrono::milliseconds(50 + (seed >> 24)));
    const pid_t host = hostOf("libnnrt_driver_cpu.so");
    if (host > 0 && kill(host, SIGKILL) == 0) ++kills;
  }
  stop = true;
  t1.join();
  t2.join();
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(right, 0);
  EXPECT_GT(kills, 3);
  EXPECT_TRUE(waitUntilAvailable("rcpu"));
  std::vector<float> out;
  Compilation after(m, "rcpu");
  ASSERT_EQ(after.finished, ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(run(after, kA, &kB, out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out, kSum);
  Hosts hosts = hostChildren();
  EXPECT_EQ(hosts.running, 4);
  EXPECT_EQ(hosts.zombies, 0);
  std::printf("%d kills: %d right, %d unavailable, %d compilations refused\n", kills, right.load(),
              unavailable.load(), refusedCompilations.load());
}

// isolation_fallback_runtime.yaml: the crashing device is the partitioner's choice; its crash
// makes the execution fall back to the cpu, with the right values.
TEST(IsolationFallback, ACrashDuringExecutionFallsBackToTheCpu) {
  if (!inFallbackRun()) GTEST_SKIP() << "runs in isolation_fallback_test";
  AddModel m;
  Compilation c(m, "");
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  std::vector<float> out;
  std::string log = logOf([&] {
    ASSERT_EQ(run(c, kNegA, &kB, out), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(out, kNegSum);
  });
  // Under a sanitizer the host writes a report before it dies, or is killed while it does.
  if (!kSanitized) {
    EXPECT_NE(log.find("SIGSEGV"), std::string::npos) << log;
  }
  EXPECT_NE(log.find("retrying on 'cpu'"), std::string::npos) << log;
  EXPECT_TRUE(waitUntilAvailable("crashing"));
}

// ---- The execute doorbell (isolation_doorbell_runtime.yaml) --------------------------------------

class IsolationDoorbell : public testing::Test {
 protected:
  void SetUp() override {
    if (!inDoorbellRun()) GTEST_SKIP() << "runs in isolation_doorbell_test";
  }
};

// The execute doorbells this process has mapped (one per driver host that has one), as the
// runtime's side sees them.
std::vector<nnrt::wire::DoorbellBlock*> doorbells() {
  std::vector<nnrt::wire::DoorbellBlock*> found;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.find("memfd:nnrt-execute-doorbell") == std::string::npos) continue;
    found.push_back(reinterpret_cast<nnrt::wire::DoorbellBlock*>(std::stoull(line, nullptr, 16)));
  }
  return found;
}

// How many requests all doorbells have answered.
uint64_t doorbellReplies() {
  uint64_t total = 0;
  for (nnrt::wire::DoorbellBlock* d : doorbells())
    total += d->reply.value.load();
  return total;
}

// Whether a thread of this process sleeps in the kernel on a doorbell's reply word (FUTEX_WAIT, as
// /proc/self/task/<tid>/syscall shows: the call's number, then its arguments in hexadecimal).
bool aThreadSleepsOnADoorbell() {
  const std::vector<nnrt::wire::DoorbellBlock*> blocks = doorbells();
  DIR* dir = opendir("/proc/self/task");
  bool found = false;
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    std::ifstream file(std::string("/proc/self/task/") + e->d_name + "/syscall");
    long number = -1;
    std::string address;
    file >> number >> address;
    if (number != SYS_futex || address.empty()) continue;
    const uintptr_t word = std::stoull(address, nullptr, 16);
    for (nnrt::wire::DoorbellBlock* d : blocks)
      found = found || word == reinterpret_cast<uintptr_t>(&d->reply.value);
  }
  closedir(dir);
  return found;
}

// 2000 executions in a row on the cpu in a driver host, each with other inputs, each exact; with
// the doorbell every one after the first (which sends the arena's memfd over the socket) is
// answered through it, and without it (isolation_spin_us: 0) none is.
TEST_F(IsolationDoorbell, ManyExecutionsInARowAreExactThroughTheDoorbellAndWithoutIt) {
  constexpr int kRuns = 2000;
  EXPECT_EQ(doorbells().size(), 2u);  // rcpu and p_hang_negative; not rcpu_socket
  AddModel m;
  for (const char* device : {"rcpu", "rcpu_socket"}) {
    SCOPED_TRACE(device);
    Compilation c(m, device);
    ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
    const uint64_t before = doorbellReplies();
    std::vector<float> a(4), b(4), out;
    uint32_t seed = 11;
    int exact = 0;
    for (int i = 0; i < kRuns; ++i) {
      for (int k = 0; k < 4; ++k) {
        seed = seed * 1664525u + 1013904223u;
        a[k] = static_cast<float>(seed >> 16) - 32768.0f;  // integers below 2^16 and halves: sums exact
        b[k] = static_cast<float>(i) + 0.5f * static_cast<float>(k);
      }
      ASSERT_EQ(run(c, a, &b, out), ANEURALNETWORKS_NO_ERROR) << "execution " << i;
      bool same = true;
      for (int k = 0; k < 4; ++k)
        same = same && out[k] == a[k] + b[k];
      exact += same;
    }
    EXPECT_EQ(exact, kRuns);
    EXPECT_EQ(doorbellReplies() - before, std::string(device) == "rcpu" ? kRuns - 1 : 0);
  }
}

// A host killed while a caller sleeps on its doorbell (its driver hangs): the caller gets
// UNAVAILABLE_DEVICE within a second, the host comes back, and nothing is leaked.
TEST_F(IsolationDoorbell, KillingTheHostWhileACallerWaitsOnTheDoorbellFailsTheCallPromptly) {
  AddModel m;
  Compilation c(m, "p_hang_negative");
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  std::vector<float> out;
  ASSERT_EQ(run(c, kA, &kB, out), ANEURALNETWORKS_NO_ERROR);  // sends the arena
  EXPECT_EQ(out, kSum);
  const size_t fdsBefore = openFdCount();
  std::string log = logOf([&] {
    std::atomic<int> result{-1};
    Clock::time_point returned;
    std::thread caller([&] {
      std::vector<float> hung;
      result = run(c, kNegA, &kB, hung);
      returned = Clock::now();
    });
    bool sleeping = false;
    for (auto until = Clock::now() + std::chrono::seconds(5); !sleeping && Clock::now() < until;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      sleeping = aThreadSleepsOnADoorbell();
    }
    const pid_t host = hostOf("libnnrt_driver_fault.so");
    const auto killed = Clock::now();
    EXPECT_GT(host, 0);
    if (host > 0) kill(host, SIGKILL);
    caller.join();
    EXPECT_TRUE(sleeping);
    EXPECT_EQ(result, ANEURALNETWORKS_UNAVAILABLE_DEVICE);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(returned - killed).count();
    EXPECT_LT(ms, 1000);
    std::printf("kill to the caller's UNAVAILABLE_DEVICE: %lld ms\n", static_cast<long long>(ms));
    ASSERT_TRUE(waitUntilAvailable("p_hang_negative"));
  });
  EXPECT_NE(log.find("was killed by signal 9 (SIGKILL)"), std::string::npos) << log;
  Compilation again(m, "p_hang_negative");
  ASSERT_EQ(again.finished, ANEURALNETWORKS_NO_ERROR);
  for (int i = 0; i < 3; ++i) {  // the socket, then the new host's doorbell
    ASSERT_EQ(run(again, kA, &kB, out), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(out, kSum);
  }
  EXPECT_EQ(doorbells().size(), 2u);  // the dead host's is unmapped
  EXPECT_EQ(openFdCount(), fdsBefore);
  Hosts hosts = hostChildren();
  EXPECT_EQ(hosts.running, 3);
  EXPECT_EQ(hosts.zombies, 0);
}

// A driver that hangs in a call that came through the doorbell: the execution misses its deadline,
// the host is killed and restarted, and the device answers again.
TEST_F(IsolationDoorbell, AHangThroughTheDoorbellMissesItsDeadlineAndTheHostIsRestarted) {
  AddModel m;
  Compilation c(m, "p_hang_negative");
  ASSERT_EQ(c.finished, ANEURALNETWORKS_NO_ERROR);
  std::vector<float> out;
  ASSERT_EQ(run(c, kA, &kB, out), ANEURALNETWORKS_NO_ERROR);
  std::string log = logOf([&] {
    const auto start = Clock::now();
    EXPECT_EQ(run(c, kNegA, &kB, out, false, 200'000'000), ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT);
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
    ASSERT_TRUE(waitUntilAvailable("p_hang_negative"));
  });
  EXPECT_NE(log.find("its driver host process is killed and restarted"), std::string::npos) << log;
  Compilation again(m, "p_hang_negative");
  ASSERT_EQ(again.finished, ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(run(again, kA, &kB, out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out, kSum);
  Hosts hosts = hostChildren();
  EXPECT_EQ(hosts.running, 3);
  EXPECT_EQ(hosts.zombies, 0);
}

}  // namespace
