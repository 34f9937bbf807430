// Partitioning time against graph size: random layered DAGs of ADD / MUL / CONV_2D operations, each
// reading one or two outputs of the previous layer, over three fake devices (cpu, gpu, npu).
//   mixed=1: each device supports a random subset (cpu 95%, gpu 70%, npu 40%; the cpu takes any
//            operation no one supports), so placements alternate and the plan has many steps;
//   mixed=0: every device supports everything; the npu is cheapest and takes the whole model.
//   graphs=N: the iterations cycle through N different random graphs of that size (and their device
//            views). With N=1 every iteration plans the same graph, and at small sizes the CPU's branch
//            predictors learn that one input's whole branch sequence: 1k operations then plan about 1.7x
//            faster per operation than on a graph the CPU has not seen (measured on an AMD EPYC; 8
//            identical copies of one graph stay fast, 8 different ones do not), which makes the time per
//            operation look as if it grew with size. graphs=8 measures unseen graphs at every size.
// Counters: ns_per_op (time in partition() per operation, the plan's destruction excluded), steps,
// heap_peak_MiB (most heap partition() held at once above what was held before it, the plan it
// returns included; counted by the replaced global operator new / delete below), plan_MiB (heap the
// returned plan holds) and peak_rss_MiB (the process's VmHWM, reset before each benchmark run; it
// includes the random models and device views, and the benchmark library's own memory). With
// graphs > 1, steps is the mean over the iterations.
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <new>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "partitioner/partitioner.hpp"

namespace {

std::atomic<int64_t> gHeapNow{0};
std::atomic<int64_t> gHeapPeak{0};

void countAllocation(void* p) {
  const int64_t now =
      gHeapNow.fetch_add(static_cast<int64_t>(malloc_usable_size(p)), std::memory_order_relaxed) +
      static_cast<int64_t>(malloc_usable_size(p));
  int64_t peak = gHeapPeak.load(std::memory_order_relaxed);
  while (now > peak && !gHeapPeak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

}  // namespace

// Heap accounting for heap_peak_MiB / plan_MiB. new[] and delete[] forward to these by default.
void* operator new(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  countAllocation(p);
  return p;
}
// GCC flags free() in a replacement operator delete although operator new above used malloc().
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  gHeapNow.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
  std::free(p);
}
#pragma GCC diagnostic pop
void operator delete(void* p, std::size_t) noexcept {
  operator delete(p);
}

namespace {

using nnrt::partition::DeviceView;

constexpr int32_t kTensorFloat32 = static_cast<int32_t>(nnrt::driver::OperandType::TENSOR_FLOAT32);
constexpr int32_t kInt32 = static_cast<int32_t>(nnrt::driver::OperandType::INT32);

// A random layered DAG and the nnrt_model view over it.
class RandomModel {
 public:
  RandomModel(size_t operationCount, std::mt19937& rng) {
    constexpr size_t kLayerWidth = 32;
    constexpr int32_t kTypes[] = {static_cast<int32_t>(nnrt::driver::OperationType::ADD),
                                  static_cast<int32_t>(nnrt::driver::OperationType::MUL),
                                  static_cast<int32_t>(nnrt::driver::OperationType::CONV_2D)};
    const uint32_t act = addOperand(kInt32, NNRT_LIFETIME_CONSTANT_COPY);
    std::vector<uint32_t> previous;
    for (size_t i = 0; i < 4; ++i) {
      previous.push_back(addOperand(kTensorFloat32, NNRT_LIFETIME_SUBGRAPH_INPUT));
      inputs_.push_back(previous.back());
    }
    std::vector<uint32_t> current;
    std::vector<uint32_t> consumers;
    std::vector<size_t> inputBegin, outputBegin;
    for (size_t j = 0; j < operationCount; ++j) {
      if (j % kLayerWidth == 0 && j > 0) {
        previous.swap(current);
        current.clear();
      }
      const int32_t type = kTypes[rng() % 3];
      inputBegin.push_back(indexes_.size());
      const size_t reads = 1 + rng() % 2;
      for (size_t r = 0; r < reads; ++r) {
        indexes_.push_back(previous[rng() % previous.size()]);
      }
      indexes_.push_back(act);
      outputBegin.push_back(indexes_.size());
      const uint32_t out = addOperand(kTensorFloat32, NNRT_LIFETIME_TEMPORARY_VARIABLE);
      indexes_.push_back(out);
      current.push_back(out);
      operations_.push_back({type, nullptr, static_cast<uint32_t>(reads + 1), nullptr, 1});
    }
    // Outputs nobody reads become model outputs.
    consumers.assign(operands_.size(), 0);
    for (size_t j = 0; j < operations_.size(); ++j) {
      for (size_t k = inputBegin[j]; k < outputBegin[j]; ++k) {
        ++consumers[indexes_[k]];
      }
    }
    for (size_t j = 0; j < operations_.size(); ++j) {
      const uint32_t out = indexes_[outputBegin[j]];
      if (consumers[out] == 0) {
        operands_[out].lifetime = NNRT_LIFETIME_SUBGRAPH_OUTPUT;
        outputs_.push_back(out);
      }
      operations_[j].inputs = indexes_.data() + inputBegin[j];
      operations_[j].outputs = indexes_.data() + outputBegin[j];
    }
    model_.main = {operands_.data(),   static_cast<uint32_t>(operands_.size()),
                   operations_.data(), static_cast<uint32_t>(operations_.size()),
                   inputs_.data(),     static_cast<uint32_t>(inputs_.size()),
                   outputs_.data(),    static_cast<uint32_t>(outputs_.size())};
  }
  nnrt::driver::Model view() const { return nnrt::driver::Model(model_); }

 private:
  uint32_t addOperand(int32_t type, int32_t lifetime) {
    nnrt_operand operand{};
    operand.type = type;
    operand.lifetime = lifetime;
    operands_.push_back(operand);
    return static_cast<uint32_t>(operands_.size() - 1);
  }
  std::vector<nnrt_operand> operands_;
  std::vector<nnrt_operation> operations_;
  std::vector<uint32_t> indexes_;
  std::vector<uint32_t> inputs_, outputs_;
  nnrt_model model_{};
};

DeviceView fakeDevice(std::string name, int32_t type, float cost, size_t operationCount) {
  DeviceView device;
  device.name = std::move(name);
  device.entry = device.name;
  device.type = type;
  device.capabilities.operandPerformance = {{kTensorFloat32, {cost, cost}}};
  device.supported.assign(operationCount, true);
  device.unsupportedReasons.assign(operationCount, "");
  return device;
}

std::vector<DeviceView> makeDevices(size_t operationCount, bool mixed, std::mt19937& rng) {
  std::vector<DeviceView> devices = {fakeDevice("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f, operationCount),
                                     fakeDevice("gpu", NNRT_DEVICE_TYPE_GPU, 0.5f, operationCount),
                                     fakeDevice("npu", NNRT_DEVICE_TYPE_ACCELERATOR, 0.25f, operationCount)};
  if (!mixed) return devices;
  const double share[] = {0.95, 0.70, 0.40};
  std::uniform_real_distribution<double> coin(0, 1);
  for (size_t j = 0; j < operationCount; ++j) {
    bool any = false;
    for (size_t d = 0; d < devices.size(); ++d) {
      const bool yes = coin(rng) < share[d];
      devices[d].supported[j] = yes;
      if (!yes) devices[d].unsupportedReasons[j] = "not in this device's random subset";
      any = any || yes;
    }
    if (!any) {
      devices[0].supported[j] = true;
      devices[0].unsupportedReasons[j].clear();
    }
  }
  return devices;
}

// A field of /proc/self/status in KiB, or -1.
double statusKiB(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stod(line.substr(field.size() + 1));
  }
  return -1;
}

void resetPeakRss() {
  malloc_trim(0);  // give freed heap back first, so that the earlier runs' plans do not count
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";  // resets VmHWM to the current RSS (Linux >= 4.0); harmless where refused
}

void BM_Partition(benchmark::State& state) {
  const auto operationCount = static_cast<size_t>(state.range(0));
  const bool mixed = state.range(1) != 0;
  const auto graphCount = static_cast<size_t>(state.range(2));
  std::mt19937 rng(42);
  std::vector<std::unique_ptr<const RandomModel>> models;  // RandomModel points into itself: never moved
  std::vector<std::vector<DeviceView>> deviceLists;
  for (size_t i = 0; i < graphCount; ++i) {
    models.push_back(std::make_unique<const RandomModel>(operationCount, rng));
    deviceLists.push_back(makeDevices(operationCount, mixed, rng));
  }
  const nnrt::partition::Policy policy;

  resetPeakRss();
  double partitionNs = 0;
  double steps = 0;
  size_t next = 0;
  int64_t heapPeak = 0, planBytes = 0;
  for (auto _ : state) {
    const RandomModel& model = *models[next];
    const std::vector<DeviceView>& devices = deviceLists[next];
    next = (next + 1) % graphCount;
    const int64_t before = gHeapNow.load(std::memory_order_relaxed);
    gHeapPeak.store(before, std::memory_order_relaxed);
    const auto start = std::chrono::steady_clock::now();
    auto plan = nnrt::partition::partition(model.view(), devices, policy);
    partitionNs += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    heapPeak = std::max(heapPeak, gHeapPeak.load(std::memory_order_relaxed) - before);
    planBytes = gHeapNow.load(std::memory_order_relaxed) - before;
    if (!plan.has_value()) {
      state.SkipWithError(plan.error().message.c_str());
      return;
    }
    steps += static_cast<double>(plan->steps.size());
    benchmark::DoNotOptimize(plan);
  }
  constexpr double kMiB = 1024.0 * 1024.0;
  state.counters["ns_per_op"] = partitionNs / (static_cast<double>(state.iterations()) * operationCount);
  state.counters["steps"] = steps / static_cast<double>(state.iterations());
  state.counters["heap_peak_MiB"] = static_cast<double>(heapPeak) / kMiB;
  state.counters["plan_MiB"] = static_cast<double>(planBytes) / kMiB;
  state.counters["peak_rss_MiB"] = statusKiB("VmHWM") / 1024;
}

BENCHMARK(BM_Partition)
    ->ArgNames({"ops", "mixed", "graphs"})
    ->ArgsProduct({{1000, 10000, 100000}, {1, 0}, {1, 8}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
