// Throughput of the cpu plugin's GEMM-shaped operations on 2 threads, through the plugin's
// prepared model, with OpenBLAS sgemm on the same shapes as the ceiling.
//   FULLY_CONNECTED 16x1024x1024: out[16,1024] = in[16,1024] x W[1024,1024]^T + b
//   CONV_2D 3x3, 64 -> 64 channels, 56x56, SAME: 2*56*56*64*64*9 flops; the ceiling is the GEMM it
//   reduces to (M = 56*56, N = 64, K = 576), without the im2col copy.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include "bench/bench_models.hpp"
#include "plugins/cpu/kernels/fused_elementwise.hpp"

namespace nnrt::bench {
namespace {

using driver::OperationType;
constexpr int kThreads = 2;

void report(benchmark::State& state, double flops) {
  state.counters["GFLOP/s"] = benchmark::Counter(flops * static_cast<double>(state.iterations()) / 1e9,
                                                 benchmark::Counter::kIsRate);
}

void runModel(benchmark::State& state, const std::shared_ptr<const FinishedModel>& model, const DeviceRegistry& registry,
              std::vector<float>& in, std::vector<float>& out, double flops) {
  computeLoop(state, compile(model, registry), in, out);
  report(state, flops);
}

void BM_FullyConnectedPlugin(benchmark::State& state) {
  auto registry = registryFrom(cpuEntry(kThreads));
  Builder b(*registry);
  uint32_t x = b.tensor({16, 1024});
  uint32_t w = b.constant({1024, 1024}, randomValues(1024 * 1024, 1));
  uint32_t bias = b.constant({1024}, randomValues(1024, 2));
  uint32_t act = b.scalar(0), y = b.tensor({16, 1024});
  b.op(OperationType::FULLY_CONNECTED, {x, w, bias, act}, {y});
  auto in = randomValues(16 * 1024, 3);
  std::vector<float> out(16 * 1024);
  runModel(state, b.finish({x}, {y}), *registry, in, out, 2.0 * 16 * 1024 * 1024);
}

void BM_FullyConnectedSgemm(benchmark::State& state) {
  openblas_set_num_threads(kThreads);
  auto a = randomValues(16 * 1024, 3), w = randomValues(1024 * 1024, 1);
  std::vector<float> c(16 * 1024);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, 16, 1024, 1024, 1.0f, a.data(), 1024, w.data(), 1024, 0.0f,
                c.data(), 1024);
    benchmark::DoNotOptimize(c.data());
  }
  report(state, 2.0 * 16 * 1024 * 1024);
}

void BM_Conv3x3Plugin(benchmark::State& state) {
  auto registry = registryFrom(cpuEntry(kThreads));
  Builder b(*registry);
  uint32_t x = b.tensor({1, 56, 56, 64});
  uint32_t f = b.constant({64, 3, 3, 64}, randomValues(64 * 9 * 64, 4));
  uint32_t bias = b.constant({64}, randomValues(64, 5));
  uint32_t pad = b.scalar(1 /* SAME */), stride = b.scalar(1), act = b.scalar(0);
  uint32_t y = b.tensor({1, 56, 56, 64});
  b.op(OperationType::CONV_2D, {x, f, bias, pad, stride, stride, act}, {y});
  auto in = randomValues(56 * 56 * 64, 6);
  std::vector<float> out(56 * 56 * 64);
  runModel(state, b.finish({x}, {y}), *registry, in, out, 2.0 * 56 * 56 * 64 * 64 * 9);
}

void BM_Conv3x3Sgemm(benchmark::State& state) {
  openblas_set_num_threads(kThreads);
  auto a = randomValues(56 * 56 * 576, 6), w = randomValues(64 * 576, 4);
  std::vector<float> c(56 * 56 * 64);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, 56 * 56, 64, 576, 1.0f, a.data(), 576, w.data(), 576, 0.0f,
                c.data(), 64);
    benchmark::DoNotOptimize(c.data());
  }
  report(state, 2.0 * 56 * 56 * 64 * 64 * 9);
}

// The fused element-wise kernel on a GELU-sized run: [128, 1024], 48 instructions shaped like the ONNX
// front end's Erf (ABS, MUL and ADD by constants, DIV, NEG, EXP, LESS, SELECT), in oneTBB's threads.
// Reports element-operations per nanosecond.
void BM_FusedElementwise(benchmark::State& state) {
  using cpu::FusedOp;
  cpu::FusedProgram p;
  p.shape = {{1, 128, 1024}};
  p.inputs = {{p.shape, false}, {{{1}}, false}, {{{1}}, false}};  // x, 0.5, 1.0
  auto add = [&](FusedOp op, uint32_t a, uint32_t b = 0, uint32_t c = 0) {
    cpu::FusedProgram::Instruction in;
    in.op = op;
    in.a = a;
    in.b = b;
    in.c = c;
    p.code.push_back(in);
    return static_cast<uint32_t>(p.inputs.size() + p.code.size() - 1);
  };
  const uint32_t abs = add(FusedOp::Abs, 0);
  const uint32_t t = add(FusedOp::Div, 2, add(FusedOp::Add, add(FusedOp::Mul, abs, 1), 2));
  uint32_t poly = add(FusedOp::Mul, t, 1);
  for (int k = 0; k < 18; ++k) poly = add(FusedOp::Mul, add(FusedOp::Add, poly, 1), t);
  const uint32_t e = add(FusedOp::Exp, add(FusedOp::Neg, add(FusedOp::Mul, abs, abs)));
  const uint32_t erfAbs = add(FusedOp::Sub, 2, add(FusedOp::Mul, poly, e));
  const uint32_t negative = add(FusedOp::Less, 0, 1);
  const uint32_t erf = add(FusedOp::Select, negative, add(FusedOp::Neg, erfAbs), erfAbs);
  p.outputs = {add(FusedOp::Mul, add(FusedOp::Add, erf, 2), 0)};
  std::string why;
  auto kernel = cpu::FusedElementwise::plan(p, why);
  if (!kernel) {
    state.SkipWithError(why.c_str());
    return;
  }
  const size_t n = p.shape.elements();
  std::vector<float> x(n), out(n);
  for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000) / 250.0f - 2.0f;
  const float half = 0.5f, one = 1.0f;
  const void* inputs[] = {x.data(), &half, &one};
  void* outputs[] = {out.data()};
  for (auto _ : state) {
    kernel->run(inputs, outputs);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["elem-ops/ns"] = benchmark::Counter(static_cast<double>(n * p.code.size()) * state.iterations() / 1e9,
                                                      benchmark::Counter::kIsRate);
}

BENCHMARK(BM_FullyConnectedPlugin)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FullyConnectedSgemm)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Conv3x3Plugin)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Conv3x3Sgemm)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FusedElementwise)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace nnrt::bench

BENCHMARK_MAIN();
