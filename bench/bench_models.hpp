// Models and registries the benchmarks share, built with the runtime's internal API.
#pragma once

#include <benchmark/benchmark.h>

#include <deque>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/compilation/compilation.hpp"
#include "core/device/device_registry.hpp"
#include "core/execution/execution.hpp"
#include "core/model/model.hpp"

namespace nnrt::bench {

constexpr int32_t kTensorFloat = static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32);
constexpr int32_t kInt32 = static_cast<int32_t>(driver::OperandType::INT32);

// A registry of the listed `devices:` YAML entries (library paths absolute).
inline std::unique_ptr<DeviceRegistry> registryFrom(const std::string& devicesYaml) {
  std::string yaml = "devices:\n" + devicesYaml + "policy:\n  health_check_interval_ms: 0\n";
  auto config = config::parseConfig(yaml, std::filesystem::path(NNRT_PLUGIN_DIR) / "bench.yaml", NNRT_PLUGIN_DIR);
  if (!config) throw std::runtime_error(config.error().message);
  return DeviceRegistry::create(std::move(*config));
}

// The cpu driver on `threads` threads; `fast` false runs its reference kernels only; `isolated`: in a
// driver host process (isolation: process). `extraOptions` (", key: value" pairs) are added to the
// device's options.
inline std::string cpuEntry(int threads, bool fast = true, const std::string& extraOptions = "", bool isolated = false) {
  // As the default configuration: the built-in cpu runs without the watchdog's thread handoff.
  return std::string("  - name: cpu\n    library: libnnrt_driver_cpu.so\n    watchdog: false\n") +
         (isolated ? "    isolation: process\n" : "") + "    options: {threads: \"" + std::to_string(threads) +
         "\", fast: " + (fast ? "on" : "off") + extraOptions + "}\n";
}

inline std::vector<float> randomValues(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

// Builds a model operand by operand; indexes are handed out in order.
class Builder {
 public:
  explicit Builder(const DeviceRegistry& registry) : m_(registry.extensions()) {}
  uint32_t tensor(std::vector<uint32_t> dims) { return add(kTensorFloat, dims); }
  // Values over 128 bytes are referenced until finish() (as NNAPI's setOperandValue does): the
  // builder keeps its own copy alive till then.
  uint32_t constant(std::vector<uint32_t> dims, std::vector<float> values) {
    uint32_t i = add(kTensorFloat, dims);
    const std::vector<float>& kept = values_.emplace_back(std::move(values));
    check(m_.setOperandValue(i, kept.data(), kept.size() * sizeof(float)));
    return i;
  }
  uint32_t scalar(int32_t value) {
    uint32_t i = add(kInt32, {});
    check(m_.setOperandValue(i, &value, sizeof value));
    return i;
  }
  uint32_t constantInt32(const std::vector<int32_t>& values) {
    uint32_t i = add(static_cast<int32_t>(driver::OperandType::TENSOR_INT32), {static_cast<uint32_t>(values.size())});
    check(m_.setOperandValue(i, values.data(), values.size() * sizeof(int32_t)));
    return i;
  }
  uint32_t boolScalar(bool value) {
    uint32_t i = add(static_cast<int32_t>(driver::OperandType::BOOL), {});
    const uint8_t byte = value ? 1 : 0;
    check(m_.setOperandValue(i, &byte, 1));
    return i;
  }
  // An optional tensor given no value (NNAPI's setOperandValue(index, nullptr, 0)).
  uint32_t omitted(std::vector<uint32_t> dims) {
    uint32_t i = add(kTensorFloat, dims);
    check(m_.setOperandValue(i, nullptr, 0));
    return i;
  }
  uint32_t floatScalar(float value) {
    uint32_t i = add(static_cast<int32_t>(driver::OperandType::FLOAT32), {});
    check(m_.setOperandValue(i, &value, sizeof value));
    return i;
  }
  void op(driver::OperationType type, std::vector<uint32_t> in, std::vector<uint32_t> out) {
    check(m_.addOperation(static_cast<int32_t>(type), in, out));
  }
  std::shared_ptr<const FinishedModel> finish(std::vector<uint32_t> in, std::vector<uint32_t> out) {
    check(m_.identifyInputsAndOutputs(in, out));
    check(m_.finish());
    return m_.finishedModel();
  }

 private:
  uint32_t add(int32_t type, const std::vector<uint32_t>& dims) {
    check(m_.addOperand(type, dims, 0.0f, 0));
    return next_++;
  }
  static void check(const Result<void>& r) {
    if (!r) throw std::runtime_error(r.error().message);
  }
  ModelBuilder m_;
  std::deque<std::vector<float>> values_;
  uint32_t next_ = 0;
};

inline std::shared_ptr<const CompiledModel> compile(std::shared_ptr<const FinishedModel> model,
                                                    const DeviceRegistry& registry) {
  Compilation c(std::move(model), registry, {});
  if (auto r = c.finish(); !r) throw std::runtime_error(r.error().message);
  return c.compiled();
}

// Computes `compiled` (one float32 input and output) once per benchmark iteration, reusing one
// execution; stops the benchmark with the error if a compute fails.
inline void computeLoop(benchmark::State& state, const std::shared_ptr<const CompiledModel>& compiled,
                        std::vector<float>& in, std::vector<float>& out) {
  Execution e(compiled);
  (void)e.setReusable(true);
  (void)e.setInput(0, nullptr, in.data(), in.size() * sizeof(float));
  (void)e.setOutput(0, nullptr, out.data(), out.size() * sizeof(float));
  for (auto _ : state) {
    if (auto r = e.compute(); !r) {
      state.SkipWithError(r.error().message.c_str());
      break;
    }
  }
}

}  // namespace nnrt::bench
