// Per-execution overhead of the runtime over calling a driver's prepared model directly.
//   Add4*: a one-operation model (ADD of 4 floats) on the cpu plugin; *Burst: the same computations
//   through a burst (its request view and the driver's burst kept between them).
//   Chain4*: four steps alternating between two simulated devices with no latency.
//   Throughput: executions per second on a two-branch compilation over two simulated devices
//   that each take 2 ms, with 1, 2, 4, 8 concurrent executions.
//   *Isolated: the same with the cpu plugin in a driver host process (isolation: process); the
//   isolation's cost is the difference to the variant without the suffix.
//   SocketPairRoundTrip: the floor of the socket path, measured in the same run: a 64-byte message
//   to another process and back over a Unix-domain socket pair (one sendmsg and one recvmsg each
//   way, as a driver host's execution over the socket at best; synchronous executions go through
//   the execute doorbell in shared memory instead, docs/runtime.md).
// The overhead is the difference between the *Runtime* and the *Direct* variants.
#include <android/NeuralNetworks.h>
#include <benchmark/benchmark.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench_models.hpp"
#include "core/execution/plan_runner.hpp"

namespace nnrt::bench {
namespace {

using driver::OperationType;

std::string simEntry(const char* name, const char* ops, int latencyMs) {
  return std::string("  - name: ") + name + "\n    library: " NNRT_TEST_PLUGIN_DIR "/libnnrt_driver_sim.so\n" +
         "    options: {ops: \"" + ops + "\", latency_ms: \"" + std::to_string(latencyMs) + "\"}\n";
}

struct Add4 {
  std::unique_ptr<DeviceRegistry> registry;
  std::shared_ptr<const CompiledModel> compiled;
  explicit Add4(bool isolated = false) : registry(registryFrom(cpuEntry(1, true, "", isolated))) {
    Builder b(*registry);
    uint32_t x = b.tensor({4}), y = b.tensor({4}), act = b.scalar(0), z = b.tensor({4});
    b.op(OperationType::ADD, {x, y, act}, {z});
    compiled = compile(b.finish({x, y}, {z}), *registry);
  }
};

// A request with one host pool per argument, as the runtime builds it.
struct DirectRequest {
  std::vector<nnrt_request_argument> in, out;
  std::vector<nnrt_memory_pool> pools;
  nnrt_request request{};
  DirectRequest(std::vector<std::pair<void*, size_t>> inputs, std::vector<std::pair<void*, size_t>> outputs) {
    for (auto [p, n] : inputs) {
      in.push_back({0, {static_cast<uint32_t>(pools.size()), 0, static_cast<uint32_t>(n)}, 0, nullptr});
      pools.push_back({NNRT_POOL_HOST, p, n});
    }
    for (auto [p, n] : outputs) {
      out.push_back({0, {static_cast<uint32_t>(pools.size()), 0, static_cast<uint32_t>(n)}, 0, nullptr});
      pools.push_back({NNRT_POOL_HOST, p, n});
    }
    request = {in.data(), static_cast<uint32_t>(in.size()), out.data(), static_cast<uint32_t>(out.size()),
               pools.data(), static_cast<uint32_t>(pools.size())};
  }
};

void add4Direct(benchmark::State& state, bool isolated) {
  Add4 m(isolated);
  float x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8}, z[4];
  DirectRequest r({{x, sizeof x}, {y, sizeof y}}, {{z, sizeof z}});
  const PreparedModel& prepared = *m.compiled->steps()[0].prepared;
  for (auto _ : state) {
    auto result = prepared.execute(r.request, false, 0, 0);
    benchmark::DoNotOptimize(result);
  }
  if (z[3] != 12.0f) state.SkipWithError("wrong result");
}

// Sends and receives `size` bytes in one call each, as the wire does for a small message.
bool sendAll(int socket, char* bytes, size_t size) {
  iovec io{bytes, size};
  msghdr msg{};
  msg.msg_iov = &io;
  msg.msg_iovlen = 1;
  return sendmsg(socket, &msg, MSG_NOSIGNAL) == static_cast<ssize_t>(size);
}
bool receiveAll(int socket, char* bytes, size_t size) {
  iovec io{bytes, size};
  msghdr msg{};
  msg.msg_iov = &io;
  msg.msg_iovlen = 1;
  return recvmsg(socket, &msg, MSG_WAITALL) == static_cast<ssize_t>(size);
}

void BM_SocketPairRoundTrip(benchmark::State& state) {
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return state.SkipWithError("socketpair");
  char bytes[64] = {};
  const pid_t child = fork();
  if (child == 0) {  // echoes until the socket ends
    close(pair[0]);
    while (receiveAll(pair[1], bytes, sizeof bytes) && sendAll(pair[1], bytes, sizeof bytes)) {
    }
    _exit(0);
  }
  close(pair[1]);
  bool ok = child > 0;
  for (auto _ : state) {
    ok = ok && sendAll(pair[0], bytes, sizeof bytes) && receiveAll(pair[0], bytes, sizeof bytes);
  }
  close(pair[0]);
  if (child > 0) waitpid(child, nullptr, 0);
  if (!ok) state.SkipWithError("the echoing process went away");
}

void BM_Add4RuntimeNewExecution(benchmark::State& state) {
  Add4 m;
  float x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8}, z[4];
  for (auto _ : state) {
    Execution e(m.compiled);
    (void)e.setInput(0, nullptr, x, sizeof x);
    (void)e.setInput(1, nullptr, y, sizeof y);
    (void)e.setOutput(0, nullptr, z, sizeof z);
    auto result = e.compute();
    benchmark::DoNotOptimize(result);
  }
  if (z[3] != 12.0f) state.SkipWithError("wrong result");
}

void BM_Add4Direct(benchmark::State& state) {
  add4Direct(state, false);
}
void BM_Add4DirectIsolated(benchmark::State& state) {
  add4Direct(state, true);
}

void add4RuntimeReusedExecution(benchmark::State& state, bool isolated) {
  Add4 m(isolated);
  float x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8}, z[4];
  Execution e(m.compiled);
  (void)e.setReusable(true);
  (void)e.setInput(0, nullptr, x, sizeof x);
  (void)e.setInput(1, nullptr, y, sizeof y);
  (void)e.setOutput(0, nullptr, z, sizeof z);
  for (auto _ : state) {
    auto result = e.compute();
    benchmark::DoNotOptimize(result);
  }
  if (z[3] != 12.0f) state.SkipWithError("wrong result");
}

void BM_Add4RuntimeReusedExecution(benchmark::State& state) {
  add4RuntimeReusedExecution(state, false);
}
void BM_Add4RuntimeReusedExecutionIsolated(benchmark::State& state) {
  add4RuntimeReusedExecution(state, true);
}

void BM_Add4RuntimeReusedExecutionBurst(benchmark::State& state) {
  Add4 m;
  float x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8}, z[4];
  BurstRunner burst(m.compiled);
  Execution e(m.compiled);
  (void)e.setReusable(true);
  (void)e.setInput(0, nullptr, x, sizeof x);
  (void)e.setInput(1, nullptr, y, sizeof y);
  (void)e.setOutput(0, nullptr, z, sizeof z);
  for (auto _ : state) {
    auto result = e.compute(&burst);
    benchmark::DoNotOptimize(result);
  }
  if (z[3] != 12.0f) state.SkipWithError("wrong result");
}

// The Add4 model through the public C API (the global registry from the default configuration),
// compiled for its first device (the cpu).
struct Add4CApi {
  ANeuralNetworksModel* model = nullptr;
  ANeuralNetworksCompilation* compilation = nullptr;
  Add4CApi();
  ~Add4CApi() {
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(model);
  }
};

Add4CApi::Add4CApi() {
  ANeuralNetworksModel_create(&model);
  uint32_t dims[] = {4};
  ANeuralNetworksOperandType t{ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0};
  ANeuralNetworksOperandType s{ANEURALNETWORKS_INT32, 0, nullptr, 0, 0};
  ANeuralNetworksModel_addOperand(model, &t);
  ANeuralNetworksModel_addOperand(model, &t);
  ANeuralNetworksModel_addOperand(model, &s);
  ANeuralNetworksModel_addOperand(model, &t);
  int32_t none = 0;
  ANeuralNetworksModel_setOperandValue(model, 2, &none, sizeof none);
  uint32_t in[] = {0, 1, 2}, out[] = {3};
  ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, in, 1, out);
  ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, in, 1, out);
  ANeuralNetworksModel_finish(model);
  ANeuralNetworksDevice* cpu = nullptr;
  ANeuralNetworks_getDevice(0, &cpu);
  ANeuralNetworksCompilation_createForDevices(model, &cpu, 1, &compilation);
  if (ANeuralNetworksCompilation_finish(compilation) != ANEURALNETWORKS_NO_ERROR) {
    ANeuralNetworksCompilation_free(compilation);
    compilation = nullptr;
  }
}

// A fresh execution per computation, run with compute or (burst given) burstCompute.
void add4CApi(benchmark::State& state, bool withBurst) {
  Add4CApi m;
  if (m.compilation == nullptr) return state.SkipWithError("compilation failed");
  ANeuralNetworksBurst* burst = nullptr;
  if (withBurst) ANeuralNetworksBurst_create(m.compilation, &burst);
  float x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8}, z[4];
  for (auto _ : state) {
    ANeuralNetworksExecution* e = nullptr;
    ANeuralNetworksExecution_create(m.compilation, &e);
    ANeuralNetworksExecution_setInput(e, 0, nullptr, x, sizeof x);
    ANeuralNetworksExecution_setInput(e, 1, nullptr, y, sizeof y);
    ANeuralNetworksExecution_setOutput(e, 0, nullptr, z, sizeof z);
    benchmark::DoNotOptimize(withBurst ? ANeuralNetworksExecution_burstCompute(e, burst)
                                       : ANeuralNetworksExecution_compute(e));
    ANeuralNetworksExecution_free(e);
  }
  if (z[3] != 12.0f) state.SkipWithError("wrong result");
  ANeuralNetworksBurst_free(burst);
}

void BM_Add4CApi(benchmark::State& state) { add4CApi(state, false); }
void BM_Add4CApiBurst(benchmark::State& state) { add4CApi(state, true); }

struct Chain4 {
  std::unique_ptr<DeviceRegistry> registry =
      registryFrom(cpuEntry(1) + simEntry("simA", "ADD", 0) + simEntry("simB", "MUL", 0));
  std::shared_ptr<const CompiledModel> compiled;
  Chain4() {
    Builder b(*registry);
    uint32_t x = b.tensor({4}), one = b.constant({4}, {1, 1, 1, 1}), two = b.constant({4}, {2, 2, 2, 2});
    uint32_t act = b.scalar(0);
    uint32_t t1 = b.tensor({4}), t2 = b.tensor({4}), t3 = b.tensor({4}), y = b.tensor({4});
    b.op(OperationType::ADD, {x, one, act}, {t1});
    b.op(OperationType::MUL, {t1, two, act}, {t2});
    b.op(OperationType::ADD, {t2, one, act}, {t3});
    b.op(OperationType::MUL, {t3, two, act}, {y});
    compiled = compile(b.finish({x}, {y}), *registry);
  }
};

void BM_Chain4Direct(benchmark::State& state) {
  Chain4 m;
  if (m.compiled->steps().size() != 4) return state.SkipWithError("expected 4 steps");
  float x[4] = {1, 2, 3, 4}, t1[4], t2[4], t3[4], y[4];
  float* buffers[] = {x, t1, t2, t3, y};
  std::vector<std::unique_ptr<DirectRequest>> requests;
  for (int s = 0; s < 4; ++s) {
    requests.push_back(std::make_unique<DirectRequest>(std::vector<std::pair<void*, size_t>>{{buffers[s], 16}},
                                                       std::vector<std::pair<void*, size_t>>{{buffers[s + 1], 16}}));
  }
  for (auto _ : state) {
    for (int s = 0; s < 4; ++s) {
      auto result = m.compiled->steps()[s].prepared->execute(requests[s]->request, false, 0, 0);
      benchmark::DoNotOptimize(result);
    }
  }
  if (y[0] != 10.0f) state.SkipWithError("wrong result");  // ((1+1)*2+1)*2
}

void BM_Chain4Runtime(benchmark::State& state) {
  Chain4 m;
  if (m.compiled->steps().size() != 4) return state.SkipWithError("expected 4 steps");
  float x[4] = {1, 2, 3, 4}, y[4];
  Execution e(m.compiled);
  (void)e.setReusable(true);
  (void)e.setInput(0, nullptr, x, sizeof x);
  (void)e.setOutput(0, nullptr, y, sizeof y);
  for (auto _ : state) {
    auto result = e.compute();
    benchmark::DoNotOptimize(result);
  }
  if (y[0] != 10.0f) state.SkipWithError("wrong result");
}

// Shared by the threads of one Throughput run.
struct TwoBranches {
  std::unique_ptr<DeviceRegistry> registry =
      registryFrom(cpuEntry(1) + simEntry("simA", "ADD", 2) + simEntry("simB", "MUL", 2));
  std::shared_ptr<const CompiledModel> compiled;
  TwoBranches() {
    Builder b(*registry);
    uint32_t x = b.tensor({4}), one = b.constant({4}, {1, 1, 1, 1}), two = b.constant({4}, {2, 2, 2, 2});
    uint32_t act = b.scalar(0), a = b.tensor({4}), c = b.tensor({4});
    b.op(OperationType::ADD, {x, one, act}, {a});
    b.op(OperationType::MUL, {x, two, act}, {c});
    compiled = compile(b.finish({x}, {a, c}), *registry);
  }
};

void BM_Throughput(benchmark::State& state) {
  static TwoBranches shared;  // one compilation for every thread of every run
  float x[4] = {1, 2, 3, 4}, a[4], c[4];
  for (auto _ : state) {
    Execution e(shared.compiled);
    (void)e.setInput(0, nullptr, x, sizeof x);
    (void)e.setOutput(0, nullptr, a, sizeof a);
    (void)e.setOutput(1, nullptr, c, sizeof c);
    if (!e.compute()) state.SkipWithError("execution failed");
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(BM_SocketPairRoundTrip);
BENCHMARK(BM_Add4Direct);
BENCHMARK(BM_Add4DirectIsolated);
BENCHMARK(BM_Add4RuntimeReusedExecution);
BENCHMARK(BM_Add4RuntimeReusedExecutionIsolated);
BENCHMARK(BM_Add4RuntimeNewExecution);
BENCHMARK(BM_Add4RuntimeReusedExecutionBurst);
BENCHMARK(BM_Add4CApi);
BENCHMARK(BM_Add4CApiBurst);
BENCHMARK(BM_Chain4Direct);
BENCHMARK(BM_Chain4Runtime);
BENCHMARK(BM_Throughput)->Threads(1)->Threads(2)->Threads(4)->Threads(8)->UseRealTime()->MinTime(1.0);

}  // namespace
}  // namespace nnrt::bench

BENCHMARK_MAIN();
