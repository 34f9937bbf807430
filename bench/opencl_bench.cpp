// Throughput of the opencl driver through the real plugin file: FULLY_CONNECTED 16x1024x1024 and
// CONV_2D 3x3, 64 -> 64 channels, 56x56, NHWC, SAME (prepared once, executed in the loop; GFLOP/s as
// the "FLOPS" counter), the same work on the CPU kernel library for comparison, and the preparation
// time with a compile from source, with a compile that also writes the cache, and from the cache.
//
// PoCL keeps its own kernel cache (POCL_CACHE_DIR, on by default): after the first run a compile
// from source is cheaper there than on a cold machine. Set POCL_KERNEL_CACHE=0 to measure cold
// compiles.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "core/device/driver_device.hpp"
#include "core/device/driver_library.hpp"
#include "plugins/cpu/kernels/conv.hpp"
#include "plugins/cpu/kernels/fully_connected.hpp"

namespace {

using nnrt::driver::OperandType;
using nnrt::driver::OperationType;

// A model with one operation whose first input is the model input and whose other tensors are
// constants: just enough of a builder for the two benchmarked layers.
class OneOperationModel {
 public:
  uint32_t tensor(OperandType type, std::vector<uint32_t> dims, int32_t lifetime) {
    operands_.push_back({static_cast<int32_t>(type), std::move(dims), lifetime, {}});
    return static_cast<uint32_t>(operands_.size() - 1);
  }
  uint32_t constant(std::vector<uint32_t> dims, const std::vector<float>& values) {
    const uint32_t i = tensor(OperandType::TENSOR_FLOAT32, std::move(dims), NNRT_LIFETIME_CONSTANT_REFERENCE);
    operands_[i].value.resize(values.size() * sizeof(float));
    std::memcpy(operands_[i].value.data(), values.data(), operands_[i].value.size());
    return i;
  }
  uint32_t int32(int32_t v) {
    const uint32_t i = tensor(OperandType::INT32, {}, NNRT_LIFETIME_CONSTANT_COPY);
    operands_[i].value.resize(4);
    std::memcpy(operands_[i].value.data(), &v, 4);
    return i;
  }
  void operation(OperationType type, std::vector<uint32_t> inputs, uint32_t output) {
    type_ = static_cast<int32_t>(type);
    inputs_ = std::move(inputs);
    output_ = output;
  }
  const nnrt_model& view() {
    copies_.clear();
    pool_.clear();
    cOperands_.clear();
    for (const Operand& o : operands_) {
      nnrt_operand c{};
      c.type = o.type;
      c.rank = static_cast<uint32_t>(o.dims.size());
      c.dimensions = o.dims.data();
      c.lifetime = o.lifetime;
      c.number_of_consumers = o.lifetime == NNRT_LIFETIME_SUBGRAPH_OUTPUT ? 0 : 1;
      std::vector<uint8_t>& blob = o.lifetime == NNRT_LIFETIME_CONSTANT_COPY ? copies_ : pool_;
      c.location = {0, static_cast<uint32_t>(blob.size()), static_cast<uint32_t>(o.value.size())};
      blob.insert(blob.end(), o.value.begin(), o.value.end());
      cOperands_.push_back(c);
    }
    operation_ = {type_, inputs_.data(), static_cast<uint32_t>(inputs_.size()), &output_, 1};
    poolView_ = {NNRT_POOL_HOST, pool_.data(), pool_.size()};
    model_ = nnrt_model{};
    model_.main = {cOperands_.data(), static_cast<uint32_t>(cOperands_.size()),
                   &operation_,       1,
                   &inputs_[0],       1,
                   &output_,          1};
    model_.operand_values = copies_.data();
    model_.operand_values_size = copies_.size();
    model_.pools = &poolView_;
    model_.pool_count = 1;
    return model_;
  }

 private:
  struct Operand {
    int32_t type;
    std::vector<uint32_t> dims;
    int32_t lifetime;
    std::vector<uint8_t> value;
  };
  std::vector<Operand> operands_;
  int32_t type_ = 0;
  std::vector<uint32_t> inputs_;
  uint32_t output_ = 0;
  std::vector<nnrt_operand> cOperands_;
  nnrt_operation operation_{};
  std::vector<uint8_t> copies_, pool_;
  nnrt_memory_pool poolView_{};
  nnrt_model model_{};
};

std::vector<float> randomFloats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v)
    x = dist(rng);
  return v;
}

struct Layer {
  OneOperationModel model;
  size_t inputElements = 0, outputElements = 0;
  double flops = 0;
};

std::unique_ptr<Layer> fullyConnected() {
  auto l = std::make_unique<Layer>();
  OneOperationModel& m = l->model;
  const uint32_t in = m.tensor(OperandType::TENSOR_FLOAT32, {16, 1024}, NNRT_LIFETIME_SUBGRAPH_INPUT);
  const uint32_t w = m.constant({1024, 1024}, randomFloats(1024 * 1024, 1));
  const uint32_t b = m.constant({1024}, randomFloats(1024, 2));
  const uint32_t out = m.tensor(OperandType::TENSOR_FLOAT32, {16, 1024}, NNRT_LIFETIME_SUBGRAPH_OUTPUT);
  m.operation(OperationType::FULLY_CONNECTED, {in, w, b, m.int32(0)}, out);
  l->inputElements = l->outputElements = 16 * 1024;
  l->flops = 2.0 * 16 * 1024 * 1024;
  return l;
}

std::unique_ptr<Layer> conv3x3() {
  auto l = std::make_unique<Layer>();
  OneOperationModel& m = l->model;
  const uint32_t in = m.tensor(OperandType::TENSOR_FLOAT32, {1, 56, 56, 64}, NNRT_LIFETIME_SUBGRAPH_INPUT);
  const uint32_t f = m.constant({64, 3, 3, 64}, randomFloats(64 * 9 * 64, 3));
  const uint32_t b = m.constant({64}, randomFloats(64, 4));
  const uint32_t out = m.tensor(OperandType::TENSOR_FLOAT32, {1, 56, 56, 64}, NNRT_LIFETIME_SUBGRAPH_OUTPUT);
  m.operation(OperationType::CONV_2D, {in, f, b, m.int32(1), m.int32(1), m.int32(1), m.int32(0)}, out);
  l->inputElements = l->outputElements = 56 * 56 * 64;
  l->flops = 2.0 * 56 * 56 * 64 * 64 * 9;
  return l;
}

std::shared_ptr<nnrt::DriverDevice> openDevice(
    const std::vector<std::pair<std::string, std::string>>& options, std::string* error) {
  static std::vector<std::shared_ptr<nnrt::DriverLibrary>> keep;
  auto library =
      nnrt::DriverLibrary::load(std::string(NNRT_PLUGIN_DIR) + "/libnnrt_driver_opencl.so", options);
  if (!library) {
    *error = library.error().message;
    return nullptr;
  }
  keep.push_back(*library);
  const nnrt_driver_api& api = (*library)->api();
  auto device = nnrt::DriverDevice::create(*library, api.device_at((*library)->plugin(), 0), "opencl",
                                           nnrt::config::PerformanceOverride{});
  if (!device) {
    *error = device.error().message;
    return nullptr;
  }
  return *device;
}

const std::shared_ptr<nnrt::DriverDevice>& device(std::string* error) {
  static std::string openError;
  static const std::shared_ptr<nnrt::DriverDevice> d = openDevice({{"calibrate", "false"}}, &openError);
  *error = openError;
  return d;
}

void runLayer(benchmark::State& state, std::unique_ptr<Layer> layer) {
  std::string error;
  const auto& d = device(&error);
  if (!d) return state.SkipWithError(error.c_str());
  auto prepared =
      d->prepareModel(layer->model.view(), NNRT_PREFER_SUSTAINED_SPEED, NNRT_PRIORITY_MEDIUM, 0, {});
  if (!prepared) return state.SkipWithError(prepared.error().message.c_str());
  std::vector<float> input = randomFloats(layer->inputElements, 5), output(layer->outputElements);
  const nnrt_memory_pool pools[] = {{NNRT_POOL_HOST, input.data(), input.size() * sizeof(float)},
                                    {NNRT_POOL_HOST, output.data(), output.size() * sizeof(float)}};
  const nnrt_request_argument in{0, {0, 0, static_cast<uint32_t>(pools[0].size)}, 0, nullptr};
  const nnrt_request_argument out{0, {1, 0, static_cast<uint32_t>(pools[1].size)}, 0, nullptr};
  const nnrt_request request{&in, 1, &out, 1, pools, 2};
  // A first run outside the timing: PoCL, for one, compiles each kernel for its work-group size then.
  if (auto warm = (*prepared)->execute(request, false, 0, 0); !warm) {
    return state.SkipWithError(warm.error().message.c_str());
  }
  for (auto _ : state) {
    auto result = (*prepared)->execute(request, false, 0, 0);
    if (!result) return state.SkipWithError(result.error().message.c_str());
    benchmark::DoNotOptimize(output.data());
  }
  state.counters["FLOPS"] = benchmark::Counter(layer->flops, benchmark::Counter::kIsIterationInvariantRate,
                                               benchmark::Counter::OneK::kIs1000);
}

void BM_OpenCl_FullyConnected_16x1024x1024(benchmark::State& state) {
  runLayer(state, fullyConnected());
}
void BM_OpenCl_Conv2D_3x3_64ch_56x56(benchmark::State& state) {
  runLayer(state, conv3x3());
}

void BM_Cpu_FullyConnected_16x1024x1024(benchmark::State& state) {
  const auto x = randomFloats(16 * 1024, 1), w = randomFloats(1024 * 1024, 2), b = randomFloats(1024, 3);
  std::vector<float> out(16 * 1024);
  for (auto _ : state) {
    nnrt::cpu::fullyConnected(x.data(), w.data(), b.data(), 16, 1024, 1024, nnrt::cpu::Activation::None,
                              out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["FLOPS"] =
      benchmark::Counter(2.0 * 16 * 1024 * 1024, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::OneK::kIs1000);
}

void BM_Cpu_Conv2D_3x3_64ch_56x56(benchmark::State& state) {
  const auto x = randomFloats(56 * 56 * 64, 1), f = randomFloats(64 * 9 * 64, 2), b = randomFloats(64, 3);
  std::vector<float> out(56 * 56 * 64);
  nnrt::cpu::Conv2DParams p;
  p.padLeft = p.padRight = p.padTop = p.padBottom = 1;
  for (auto _ : state) {
    nnrt::cpu::conv2d(x.data(), nnrt::cpu::Shape{{1, 56, 56, 64}}, f.data(), nnrt::cpu::Shape{{64, 3, 3, 64}},
                      b.data(), p, out.data(), nnrt::cpu::Shape{{1, 56, 56, 64}});
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["FLOPS"] =
      benchmark::Counter(2.0 * 56 * 56 * 64 * 64 * 9, benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::OneK::kIs1000);
}

// Cache files for the preparation benchmarks, removed at exit.
struct CacheFiles {
  FILE* model = std::tmpfile();
  FILE* data = std::tmpfile();
  ~CacheFiles() {
    std::fclose(model);
    std::fclose(data);
  }
  nnrt::CacheHandles handles() const {
    return {{fileno(model)}, {fileno(data)}, std::vector<uint8_t>(NNRT_CACHE_TOKEN_SIZE, 7)};
  }
};

// arg 0: compile from source; 1: compile and write the cache; 2: prepare from the cache.
void BM_OpenCl_Prepare(benchmark::State& state) {
  std::string error;
  const auto& d = device(&error);
  if (!d) return state.SkipWithError(error.c_str());
  auto layer = fullyConnected();
  const nnrt_model& model = layer->model.view();
  CacheFiles files;
  if (state.range(0) == 2) {
    auto written =
        d->prepareModel(model, NNRT_PREFER_FAST_SINGLE_ANSWER, NNRT_PRIORITY_MEDIUM, 0, files.handles());
    if (!written) return state.SkipWithError(written.error().message.c_str());
  }
  for (auto _ : state) {
    auto prepared = state.range(0) == 2
                        ? d->prepareModelFromCache(0, files.handles())
                        : d->prepareModel(model, NNRT_PREFER_FAST_SINGLE_ANSWER, NNRT_PRIORITY_MEDIUM, 0,
                                          state.range(0) == 1 ? files.handles() : nnrt::CacheHandles{});
    if (!prepared) return state.SkipWithError(prepared.error().message.c_str());
  }
}

// Rates use wall time: the host thread mostly waits for the device.
BENCHMARK(BM_OpenCl_FullyConnected_16x1024x1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_OpenCl_Conv2D_3x3_64ch_56x56)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Cpu_FullyConnected_16x1024x1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Cpu_Conv2D_3x3_64ch_56x56)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_OpenCl_Prepare)
    ->ArgName("from_source0_write_cache1_from_cache2")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
