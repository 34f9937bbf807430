// The cpu driver on whole models and on their layers, with its fast layer (oneDNN) and with its
// reference kernels only, on 2 threads. The three models are the ones the peer harness
// (../shared/peer/) writes for ONNX Runtime, with the same shapes (weights are random here):
//   mlp        4 x FULLY_CONNECTED 16x1024x1024 + RELU
//   cnn        6 x CONV_2D 3x3, 64 -> 64 channels, 56x56, pad 1 + RELU
//   mobilenet  MobileNet v1 1.0 224 (float32, RELU6, depthwise separable blocks, average pool, FC 1000, softmax)
//   resnet     4 residual blocks of 2 CONV_2D 3x3 64 channels 56x56 and an ADD (+RELU) of the block input
//   lstm       UNIDIRECTIONAL_SEQUENCE_LSTM over 64 time steps, input 256, 512 units, batch 1 (the shape of
//              bench/peer/lstm_pair.py's model): 4 MB of recurrent weights multiplied by the state each step
//
// BM_Model/<model>/fast:<0|1>/threads:<n> runs n executions at once (each its own Execution of one
// compiled model): items_per_second is executions per second of all of them together, so 8 concurrent
// executions should show at least the throughput of 1. BM_Layer/<i> runs one layer shape as a
// one-operation model and reports its GFLOP/s and the share of the machine's float32 peak
// (NNRT_PEAK_GFLOPS, else an AVX-512 FMA loop on 2 threads measured when the first layer runs:
// machinePeakGflops; without either, no share).
//
//   build/bin/models_bench --benchmark_filter=BM_Model --benchmark_min_time=2
#include <benchmark/benchmark.h>

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "bench/bench_models.hpp"

namespace nnrt::bench {
namespace {

using driver::OperationType;
constexpr int kThreads = 2;

struct BuiltModel {
  std::unique_ptr<DeviceRegistry> registry;
  std::shared_ptr<const CompiledModel> compiled;
  size_t inputSize = 0, outputSize = 0;
  double flops = 0;
};

// Appends CONV_2D (or DEPTHWISE_CONV_2D) with explicit padding `pad` on every side; returns the output.
uint32_t conv(Builder& b, uint32_t in, std::vector<uint32_t> inDims, uint32_t outC, uint32_t k, uint32_t stride,
              bool depthwise, int32_t activation, double& flops, uint32_t seed) {
  const uint32_t inC = inDims[3], pad = k / 2;
  const uint32_t oh = (inDims[1] + 2 * pad - k) / stride + 1, ow = (inDims[2] + 2 * pad - k) / stride + 1;
  const std::vector<uint32_t> filterDims = depthwise ? std::vector<uint32_t>{1, k, k, outC}
                                                     : std::vector<uint32_t>{outC, k, k, inC};
  const uint32_t filter = b.constant(filterDims, randomValues(size_t{outC} * k * k * (depthwise ? 1 : inC), seed));
  const uint32_t bias = b.constant({outC}, randomValues(outC, seed + 1));
  const uint32_t out = b.tensor({inDims[0], oh, ow, outC});
  const uint32_t p = b.scalar(static_cast<int32_t>(pad)), s = b.scalar(static_cast<int32_t>(stride));
  std::vector<uint32_t> ins{in, filter, bias, p, p, p, p, s, s};
  if (depthwise) ins.push_back(b.scalar(1));
  ins.push_back(b.scalar(activation));
  b.op(depthwise ? OperationType::DEPTHWISE_CONV_2D : OperationType::CONV_2D, ins, {out});
  flops += 2.0 * inDims[0] * oh * ow * outC * k * k * (depthwise ? 1 : inC);
  return out;
}

uint32_t fullyConnected(Builder& b, uint32_t in, uint32_t batches, uint32_t inputs, uint32_t units,
                        int32_t activation, double& flops, uint32_t seed) {
  const uint32_t w = b.constant({units, inputs}, randomValues(size_t{units} * inputs, seed));
  const uint32_t bias = b.constant({units}, randomValues(units, seed + 1));
  const uint32_t out = b.tensor({batches, units});
  b.op(OperationType::FULLY_CONNECTED, {in, w, bias, b.scalar(activation)}, {out});
  flops += 2.0 * batches * inputs * units;
  return out;
}

// MobileNet v1's depthwise separable blocks: (depthwise stride, pointwise output channels).
constexpr std::pair<uint32_t, uint32_t> kMobileNetBlocks[] = {{1, 64},  {2, 128}, {1, 128}, {2, 256}, {1, 256},
                                                              {2, 512}, {1, 512}, {1, 512}, {1, 512}, {1, 512},
                                                              {1, 512}, {2, 1024}, {1, 1024}};

BuiltModel build(const std::string& name, bool fast) {
  BuiltModel m;
  m.registry = registryFrom(cpuEntry(kThreads, fast));
  Builder b(*m.registry);
  constexpr int32_t kRelu = 1, kRelu6 = 3;
  uint32_t x = 0, y = 0;
  if (name == "mlp") {
    x = b.tensor({16, 1024});
    y = x;
    for (uint32_t l = 0; l < 4; ++l) y = fullyConnected(b, y, 16, 1024, 1024, kRelu, m.flops, 10 * l + 1);
    m.inputSize = m.outputSize = 16 * 1024;
  } else if (name == "cnn") {
    x = b.tensor({1, 56, 56, 64});
    y = x;
    for (uint32_t l = 0; l < 6; ++l) y = conv(b, y, {1, 56, 56, 64}, 64, 3, 1, false, kRelu, m.flops, 10 * l + 1);
    m.inputSize = m.outputSize = 56 * 56 * 64;
  } else if (name == "resnet") {  // 4 residual blocks: conv3x3+RELU, conv3x3, ADD with the block input + RELU
    x = b.tensor({1, 56, 56, 64});
    y = x;
    for (uint32_t l = 0; l < 4; ++l) {
      const uint32_t c1 = conv(b, y, {1, 56, 56, 64}, 64, 3, 1, false, kRelu, m.flops, 20 * l + 1);
      const uint32_t c2 = conv(b, c1, {1, 56, 56, 64}, 64, 3, 1, false, 0, m.flops, 20 * l + 2);
      const uint32_t sum = b.tensor({1, 56, 56, 64});
      b.op(OperationType::ADD, {c2, y, b.scalar(kRelu)}, {sum});
      y = sum;
    }
    m.inputSize = m.outputSize = 56 * 56 * 64;
  } else if (name == "lstm") {
    constexpr uint32_t kSteps = 64, kInput = 256, kUnits = 512;
    x = b.tensor({kSteps, 1, kInput});
    std::vector<uint32_t> in{x};
    for (uint32_t g = 0; g < 4; ++g) in.push_back(b.constant({kUnits, kInput}, randomValues(kUnits * kInput, 100 + g)));
    for (uint32_t g = 0; g < 4; ++g)
      in.push_back(b.constant({kUnits, kUnits}, randomValues(kUnits * kUnits, 110 + g)));
    for (uint32_t g = 0; g < 3; ++g) in.push_back(b.omitted({kUnits}));  // no peepholes
    for (uint32_t g = 0; g < 4; ++g) in.push_back(b.constant({kUnits}, randomValues(kUnits, 120 + g)));
    in.push_back(b.omitted({kUnits, kUnits}));  // no projection
    in.push_back(b.omitted({kUnits}));
    in.push_back(b.constant({1, kUnits}, std::vector<float>(kUnits, 0.0f)));  // output and cell state
    in.push_back(b.constant({1, kUnits}, std::vector<float>(kUnits, 0.0f)));
    in.push_back(b.scalar(4));  // tanh
    in.push_back(b.floatScalar(0.0f));
    in.push_back(b.floatScalar(0.0f));
    in.push_back(b.boolScalar(true));  // time major
    for (uint32_t g = 0; g < 4; ++g) in.push_back(b.omitted({kUnits}));  // no layer normalization
    y = b.tensor({kSteps, 1, kUnits});
    b.op(OperationType::UNIDIRECTIONAL_SEQUENCE_LSTM, in, {y});
    m.flops = 2.0 * kSteps * 4 * kUnits * (kInput + kUnits);
    m.inputSize = kSteps * kInput;
    m.outputSize = kSteps * kUnits;
  } else {  // mobilenet
    x = b.tensor({1, 224, 224, 3});
    uint32_t size = 112, channels = 32;
    y = conv(b, x, {1, 224, 224, 3}, 32, 3, 2, false, kRelu6, m.flops, 1);
    uint32_t seed = 10;
    for (auto [stride, out] : kMobileNetBlocks) {
      y = conv(b, y, {1, size, size, channels}, channels, 3, stride, true, kRelu6, m.flops, seed++);
      size = (size + 2 - 3) / stride + 1;
      y = conv(b, y, {1, size, size, channels}, out, 1, 1, false, kRelu6, m.flops, seed++);
      channels = out;
    }
    const uint32_t pooled = b.tensor({1, 1, 1, 1024});
    const uint32_t seven = b.scalar(7), zero = b.scalar(0), one = b.scalar(1);
    b.op(OperationType::AVERAGE_POOL_2D, {y, zero, zero, zero, zero, one, one, seven, seven, zero}, {pooled});
    const uint32_t flat = b.tensor({1, 1024});
    b.op(OperationType::RESHAPE, {pooled, b.constantInt32({1, 1024})}, {flat});
    const uint32_t logits = fullyConnected(b, flat, 1, 1024, 1000, 0, m.flops, seed);
    y = b.tensor({1, 1000});
    b.op(OperationType::SOFTMAX, {logits, b.floatScalar(1.0f)}, {y});
    m.inputSize = 224 * 224 * 3;
    m.outputSize = 1000;
  }
  m.compiled = compile(b.finish({x}, {y}), *m.registry);
  return m;
}

// One compiled model per (name, fast), shared by the benchmark's threads.
const BuiltModel& model(const std::string& name, bool fast) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, bool>, BuiltModel> models;
  std::lock_guard guard(mutex);
  auto it = models.find({name, fast});
  if (it == models.end()) it = models.emplace(std::pair(name, fast), build(name, fast)).first;
  return it->second;
}

const char* const kModels[] = {"mlp", "cnn", "mobilenet", "resnet", "lstm"};

void BM_Model(benchmark::State& state) {
  const BuiltModel& m = model(kModels[state.range(0)], state.range(1) != 0);
  std::vector<float> in = randomValues(m.inputSize, 7 + state.thread_index()), out(m.outputSize);
  computeLoop(state, m.compiled, in, out);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(kModels[state.range(0)]);
  state.counters["GFLOP/s"] =
      benchmark::Counter(m.flops * static_cast<double>(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Model)
    ->ArgsProduct({{0, 1, 2, 3, 4}, {1, 0}})
    ->ArgNames({"model", "fast"})
    ->Threads(1)
    ->Threads(8)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// The distinct layer shapes of the three models, each alone.
struct LayerShape {
  const char* name;
  uint32_t size, inC, outC, k, stride;
  bool depthwise;
};
const LayerShape kLayers[] = {
    {"fc 16x1024x1024", 0, 1024, 1024, 0, 0, false},
    {"conv3x3 64->64 56x56", 56, 64, 64, 3, 1, false},
    {"conv3x3/2 3->32 224x224", 224, 3, 32, 3, 2, false},
    {"dw3x3 32 112x112", 112, 32, 32, 3, 1, true},
    {"pw 32->64 112x112", 112, 32, 64, 1, 1, false},
    {"dw3x3/2 64 112x112", 112, 64, 64, 3, 2, true},
    {"pw 64->128 56x56", 56, 64, 128, 1, 1, false},
    {"dw3x3 128 56x56", 56, 128, 128, 3, 1, true},
    {"pw 128->128 56x56", 56, 128, 128, 1, 1, false},
    {"pw 256->256 28x28", 28, 256, 256, 1, 1, false},
    {"dw3x3 512 14x14", 14, 512, 512, 3, 1, true},
    {"pw 512->512 14x14", 14, 512, 512, 1, 1, false},
    {"pw 1024->1024 7x7", 7, 1024, 1024, 1, 1, false},
};

// The float32 multiply-adds per second of kThreads threads of independent FMAs (12 chains of 16 lanes
// each, AVX-512 where the CPU has it, else 8 lanes of AVX2), in GFLOP/s: the best of 5 runs of about
// 0.1 s. The cores' clock moves with the host's state (523-573 measured on the 2-core Zen 5 of the
// notes in one session), so a layer's share of the peak is measured against this run's.
// One thread's 12 chains of `iterations` FMAs; returns a value that depends on all of them.
__attribute__((target("avx512f"))) float fmaChainsAvx512(long iterations) {
  __m512 a[12];
  const __m512 b = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-7f);
  for (int j = 0; j < 12; ++j) a[j] = _mm512_set1_ps(1.0f + static_cast<float>(j));
  for (long i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
    for (int j = 0; j < 12; ++j) a[j] = _mm512_fmadd_ps(a[j], b, c);
  }
  float sum = 0;
  for (const __m512& v : a) sum += _mm512_cvtss_f32(v);
  return sum;
}
// kThreads threads of independent AVX-512 FMAs (12 chains each) in GFLOP/s: the best of 5 runs of about
// 0.1 s. The cores' clock moves with the host's state (523-573 measured on the 2-core Zen 5 of the
// notes in one session), so a layer's share of the peak is taken against this run's.
double fmaLoopGflops() {
  constexpr long kIterations = 4'000'000;
  double best = 0;
  for (int run = 0; run < 5; ++run) {
    std::atomic<float> sink{0};
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&sink] { sink.store(fmaChainsAvx512(kIterations), std::memory_order_relaxed); });
    for (std::thread& t : threads) t.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, 2.0 * kIterations * 12 * 16 * kThreads / seconds / 1e9);
  }
  return best;
}

// NNRT_PEAK_GFLOPS, or the FMA loop above, measured once; 0 (unknown) without either AVX-512 or the variable.
double machinePeakGflops() {
  static const double peak = [] {
    if (const char* given = std::getenv("NNRT_PEAK_GFLOPS")) return std::atof(given);
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") != 0 ? fmaLoopGflops() : 0.0;
  }();
  return peak;
}

// A layer's GFLOP/s and its share of the machine's float32 peak (machinePeakGflops), when known.
void countFlops(benchmark::State& state, double flops) {
  const double peak = machinePeakGflops();
  const double gflops = flops * static_cast<double>(state.iterations()) / 1e9;
  state.counters["GFLOP/s"] = benchmark::Counter(gflops, benchmark::Counter::kIsRate);
  if (peak > 0) state.counters["peak%"] = benchmark::Counter(100.0 * gflops / peak, benchmark::Counter::kIsRate);
}

void BM_Layer(benchmark::State& state) {
  const LayerShape& l = kLayers[state.range(0)];
  auto registry = registryFrom(cpuEntry(kThreads, state.range(1) != 0));
  Builder b(*registry);
  double flops = 0;
  uint32_t x = 0, y = 0;
  size_t inSize = 0, outSize = 0;
  if (l.size == 0) {
    x = b.tensor({16, l.inC});
    y = fullyConnected(b, x, 16, l.inC, l.outC, 1, flops, 1);
    inSize = 16 * l.inC;
    outSize = 16 * l.outC;
  } else {
    x = b.tensor({1, l.size, l.size, l.inC});
    y = conv(b, x, {1, l.size, l.size, l.inC}, l.outC, l.k, l.stride, l.depthwise, 3, flops, 1);
    const uint32_t o = (l.size + 2 * (l.k / 2) - l.k) / l.stride + 1;
    inSize = size_t{l.size} * l.size * l.inC;
    outSize = size_t{o} * o * l.outC;
  }
  auto compiled = compile(b.finish({x}, {y}), *registry);
  std::vector<float> in = randomValues(inSize, 3), out(outSize);
  computeLoop(state, compiled, in, out);
  state.SetLabel(l.name);
  countFlops(state, flops);
}
BENCHMARK(BM_Layer)
    ->ArgsProduct({benchmark::CreateDenseRange(0, std::size(kLayers) - 1, 1), {1, 0}})
    ->ArgNames({"layer", "fast"})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// 3x3 stride-1 convolutions (ResNet/VGG-like, pad 1, RELU), each alone, with the cpu device's option
// winograd on and off: where Winograd F(2x2, 3x3) pays (docs/cpu-performance.md). Alone, each pays for
// its two layout copies; between two Winograd convolutions they are skipped (FastLayer::chain).
const uint32_t kWinogradShapes[][2] = {{56, 64}, {28, 128}, {14, 256}, {7, 512}, {112, 32}, {28, 16}, {56, 16}, {56, 32}, {14, 64}, {28, 32}, {14, 512}, {7, 256}};

void BM_Conv3x3Winograd(benchmark::State& state) {
  const uint32_t size = kWinogradShapes[state.range(0)][0], channels = kWinogradShapes[state.range(0)][1];
  auto registry = registryFrom(cpuEntry(kThreads, true, state.range(1) != 0 ? "" : ", winograd: \"off\""));
  Builder b(*registry);
  double flops = 0;
  const uint32_t x = b.tensor({1, size, size, channels});
  const uint32_t y = conv(b, x, {1, size, size, channels}, channels, 3, 1, false, 1, flops, 1);
  auto compiled = compile(b.finish({x}, {y}), *registry);
  std::vector<float> in = randomValues(size_t{size} * size * channels, 3), out(size_t{size} * size * channels);
  computeLoop(state, compiled, in, out);
  state.SetLabel(std::to_string(channels) + "->" + std::to_string(channels) + " " + std::to_string(size) + "x" +
                 std::to_string(size));
  countFlops(state, flops);  // the direct method's operations, so the two compare
}
BENCHMARK(BM_Conv3x3Winograd)
    ->ArgsProduct({benchmark::CreateDenseRange(0, std::size(kWinogradShapes) - 1, 1), {1, 0}})
    ->ArgNames({"shape", "winograd"})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// The other hot layer kinds a model may use, each alone: GROUPED_CONV_2D (ResNeXt's 3x3, 32 groups),
// TRANSPOSE_CONV_2D (a decoder's 4x4 stride 2 upsampling) and BATCH_MATMUL (attention's 12 heads).
const char* const kMoreLayers[] = {"grouped3x3 128->128 32 groups 28x28",
                                   "transpose4x4/2 64->32 28x28->56x56", "batch_matmul 12x128x64x128"};

void BM_LayerMore(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  auto registry = registryFrom(cpuEntry(kThreads, state.range(1) != 0));
  Builder b(*registry);
  double flops = 0;
  uint32_t x = 0, y = 0;
  size_t inSize = 0, outSize = 0;
  const uint32_t none = b.scalar(0), nhwc = b.boolScalar(false);
  if (which == 0) {
    x = b.tensor({1, 28, 28, 128});
    const uint32_t f = b.constant({128, 3, 3, 4}, randomValues(128 * 9 * 4, 1));
    y = b.tensor({1, 28, 28, 128});
    b.op(OperationType::GROUPED_CONV_2D,
         {x, f, b.constant({128}, randomValues(128, 2)), b.scalar(1), b.scalar(1), b.scalar(1), b.scalar(32),
          none, nhwc},
         {y});
    flops = 2.0 * 28 * 28 * 128 * 9 * 4;
    inSize = outSize = 28 * 28 * 128;
  } else if (which == 1) {
    x = b.tensor({1, 28, 28, 64});
    const uint32_t f = b.constant({32, 4, 4, 64}, randomValues(32 * 16 * 64, 1));
    y = b.tensor({1, 56, 56, 32});
    const uint32_t one = b.scalar(1), two = b.scalar(2);
    b.op(OperationType::TRANSPOSE_CONV_2D,
         {x, f, b.constant({32}, randomValues(32, 2)), one, one, one, one, two, two, none, nhwc}, {y});
    flops = 2.0 * 28 * 28 * 64 * 32 * 16;
    inSize = 28 * 28 * 64;
    outSize = 56 * 56 * 32;
  } else {
    x = b.tensor({12, 128, 64});
    const uint32_t rhs = b.constant({12, 64, 128}, randomValues(12 * 64 * 128, 1));
    y = b.tensor({12, 128, 128});
    b.op(OperationType::BATCH_MATMUL, {x, rhs, nhwc, nhwc}, {y});
    flops = 2.0 * 12 * 128 * 64 * 128;
    inSize = 12 * 128 * 64;
    outSize = 12 * 128 * 128;
  }
  auto compiled = compile(b.finish({x}, {y}), *registry);
  std::vector<float> in = randomValues(inSize, 3), out(outSize);
  computeLoop(state, compiled, in, out);
  state.SetLabel(kMoreLayers[which]);
  countFlops(state, flops);
}
BENCHMARK(BM_LayerMore)
    ->ArgsProduct({{0, 1, 2}, {1, 0}})
    ->ArgNames({"layer", "fast"})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// A light operation (ADD of a constant + RELU, RELU6, SOFTMAX, CONCATENATION with itself, LOGISTIC, TRANSPOSE
// NHWC to NCHW) on
// `elements` elements, alone (modes 0: reference kernels, 1: fast layer) and between two pointwise
// convolutions that run on the fast layer (modes 2: the light operation on the fast layer too, 3:
// on the reference kernels). Where the fast layer starts to win sets kFastMinElements
// (fast_path.hpp). The fast layer no longer takes CONCATENATION (its reference copies won in every
// mode), so its modes 1 and 2 run the reference kernel too.
const char* const kLightOps[] = {"ADD", "RELU6", "SOFTMAX", "CONCATENATION", "LOGISTIC", "TRANSPOSE"};

void BM_Light(benchmark::State& state) {
  const int kind = static_cast<int>(state.range(0));
  const uint32_t elements = static_cast<uint32_t>(state.range(1));
  const int mode = static_cast<int>(state.range(2));
  const bool inModel = mode >= 2;
  const bool lightFast = mode == 1 || mode == 2;
  auto registry = registryFrom(cpuEntry(
      kThreads, mode != 0, std::string(", fast_min_elements: ") + (lightFast ? "0" : "1099511627776")));
  Builder b(*registry);
  const uint32_t channels = std::min(elements, 16u);
  const std::vector<uint32_t> dims{1, elements / channels, 1, channels};
  double flops = 0;
  const uint32_t x = b.tensor(dims);
  uint32_t y = inModel ? conv(b, x, dims, channels, 1, 1, false, 0, flops, 1) : x;
  std::vector<uint32_t> outDims = dims;
  if (kind == 3) outDims[3] *= 2;
  if (kind == 5) outDims = {dims[0], dims[3], dims[1], dims[2]};
  const uint32_t z = b.tensor(outDims);
  switch (kind) {
    case 0:
      b.op(OperationType::ADD, {y, b.constant(dims, randomValues(elements, 2)), b.scalar(1)}, {z});
      break;
    case 1:
      b.op(OperationType::RELU6, {y}, {z});
      break;
    case 2:
      b.op(OperationType::SOFTMAX, {y, b.floatScalar(1.0f)}, {z});
      break;
    case 4:
      b.op(OperationType::LOGISTIC, {y}, {z});
      break;
    case 5:
      b.op(OperationType::TRANSPOSE, {y, b.constantInt32({0, 3, 1, 2})}, {z});
      break;
    default:
      b.op(OperationType::CONCATENATION, {y, y, b.scalar(3)}, {z});
      break;
  }
  uint32_t out = z;
  if (inModel) out = conv(b, z, outDims, kind == 5 ? outDims[3] : channels, 1, 1, false, 0, flops, 3);
  auto compiled = compile(b.finish({x}, {out}), *registry);
  std::vector<float> in = randomValues(elements, 3), result(elements * (kind == 3 && !inModel ? 2 : 1));
  computeLoop(state, compiled, in, result);
  state.SetLabel(std::string(kLightOps[kind]) + (inModel ? " between fast convolutions" : " alone") +
                 (mode == 0   ? ", reference"
                  : lightFast ? ", fast"
                              : ", reference (convolutions fast)"));
}
BENCHMARK(BM_Light)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5}, {4, 4096, 16384, 32768, 65536, 262144, 1048576}, {0, 1, 2, 3}})
    ->ArgNames({"op", "elements", "mode"})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace nnrt::bench

BENCHMARK_MAIN();
