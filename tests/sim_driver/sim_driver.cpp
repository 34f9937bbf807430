// A latency-simulating test driver, built as a real plugin (libnnrt_driver_sim.so). It computes
// float32 ADD, SUB, MUL, DIV, RELU, RELU1, RELU6, LOGISTIC and TANH correctly with the cpu plugin's
// kernels, then holds each execution for a configured time without using the CPU, like an
// accelerator: execute_1_3 returns at once and a timer thread calls back when the time is up.
// Options (all optional):
//   latency_ms: how long each execution takes (default 50)
//   ops: comma-separated operations it supports (default ADD,MUL)
//   exec_time: its declared cost for TENSOR_FLOAT32 (default 0.5, i.e. twice the CPU's speed)
//   trace: file to which each execution appends "<device> <start_ns> <end_ns> <loop_timeout_ns>\n"
//   status_file: getStatus reads it: "offline", "busy", "hang" (never answers), else available
//   fail: "prepare" or "execute" makes that call fail with GENERAL_FAILURE
//   honor_deadline: "false" runs past deadlines (to test the runtime's own enforcement)
//   devices: how many devices (default 1), named sim-0, sim-1, ...
//   alignment, padding: the memory preference it states (ABI 1.1; default 64 and 1)
//   pool_log: file to which each execution appends "<device> <burst|plain> <kind of each pool>\n"
// It allocates buffers in host memory (ABI 1.1 allocate) and offers bursts that run as plain
// executions, so tests can tell from pool_log which path a request took.
//   timing_us: N reports, when timing is measured, N microseconds on the device and 2N in the driver
//     (default: reports none)
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <queue>
#include <set>
#include <sstream>
#include <thread>

#include "nnrt/driver/ops/operation.hpp"
#include "nnrt/driver/ops/params.hpp"
#include "nnrt/driver/driver.hpp"
#include "plugins/cpu/kernels/activation.hpp"
#include "plugins/cpu/kernels/elementwise.hpp"

namespace sim {

using namespace nnrt::driver;
namespace ops = nnrt::ops;

uint64_t nowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// Calls functions at given times on one thread (the simulated hardware's completion interrupt).
class TimerThread {
 public:
  TimerThread() : thread_([this] { loop(); }) {}
  ~TimerThread() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  void at(uint64_t dueNs, std::function<void()> fn) {
    {
      std::lock_guard lock(mutex_);
      queue_.push({dueNs, sequence_++, std::move(fn)});
    }
    wake_.notify_all();
  }

 private:
  struct Item {
    uint64_t due;
    uint64_t sequence;
    std::function<void()> fn;
    bool operator>(const Item& o) const { return due != o.due ? due > o.due : sequence > o.sequence; }
  };
  void loop() {
    std::unique_lock lock(mutex_);
    while (true) {
      if (queue_.empty()) {
        if (stopping_) return;
        wake_.wait(lock);
        continue;
      }
      uint64_t now = nowNs();
      if (queue_.top().due > now) {
        wake_.wait_for(lock, std::chrono::nanoseconds(queue_.top().due - now));
        continue;
      }
      auto fn = std::move(const_cast<Item&>(queue_.top()).fn);
      queue_.pop();
      lock.unlock();
      fn();
      lock.lock();
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue_;
  uint64_t sequence_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

struct Config {
  uint64_t latencyNs = 50'000'000;
  std::set<int32_t> ops{static_cast<int32_t>(OperationType::ADD), static_cast<int32_t>(OperationType::MUL)};
  float execTime = 0.5f;
  std::string trace;
  std::string statusFile;
  std::string fail;
  bool honorDeadline = true;
  nnrt_memory_preference memory{64, 1};
  std::string poolLog;
  uint64_t timingUs = 0;  // 0: no timing reported
};

void appendTrace(const std::string& file, const std::string& line) {
  if (file.empty()) return;
  int fd = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  (void)!::write(fd, line.data(), line.size());  // one write per record: appends never interleave
  ::close(fd);
}

// One operation of the prepared model, with what the kernels need.
struct Op {
  int32_t type;
  std::vector<uint32_t> inputs, outputs;
};

class SimPreparedModel : public PreparedModel {
 public:
  SimPreparedModel(std::string device, const Config& config, TimerThread& timer, const Model& model)
      : device_(std::move(device)), config_(config), timer_(timer) {
    Subgraph main = model.main();
    auto operands = main.operands();
    for (uint32_t i = 0; i < operands.size(); ++i) {
      const nnrt_operand& o = operands[i];
      shapes_.emplace_back(o.dimensions, o.dimensions + o.rank);
      auto bytes = model.constantBytes(o);
      if (!bytes.empty()) constants_[i].assign(bytes.begin(), bytes.end());
    }
    for (const nnrt_operation& op : main.operations()) {
      ops_.push_back({op.type, {op.inputs, op.inputs + op.input_count}, {op.outputs, op.outputs + op.output_count}});
    }
    inputs_.assign(main.inputIndexes().begin(), main.inputIndexes().end());
    outputs_.assign(main.outputIndexes().begin(), main.outputIndexes().end());
  }

  Result<ExecutionResult> executeSynchronously_1_3(const Request& request, const ExecuteOptions& options) override {
    return run(request, options, false);
  }

  Result<std::unique_ptr<Burst>> configureBurst() override;

  Result<ExecutionResult> run(const Request& request, const ExecuteOptions& options, bool burst) {
    logPools(request, burst);
    uint64_t start = nowNs();
    NNRT_ASSIGN_OR_RETURN(ExecutionResult result, compute(request));
    report(result, options);
    uint64_t end = start + config_.latencyNs;
    if (config_.honorDeadline && options.deadlineNs != 0 && end > options.deadlineNs) {
      return fail(ErrorStatus::MISSED_DEADLINE_TRANSIENT, "the simulated device would finish after the deadline");
    }
    if (end > nowNs()) std::this_thread::sleep_for(std::chrono::nanoseconds(end - nowNs()));
    record(start, options);
    return result;
  }

  void execute_1_3(const Request& request, const ExecuteOptions& options,
                   std::function<void(Result<ExecutionResult>)> done) override {
    logPools(request, false);
    uint64_t start = nowNs();
    Result<ExecutionResult> result = compute(request);
    if (!result) return done(std::move(result));
    report(*result, options);
    uint64_t end = start + config_.latencyNs;
    if (config_.latencyNs == 0) {  // nothing to wait for: complete in the caller's thread
      record(start, options);
      return done(std::move(result));
    }
    if (config_.honorDeadline && options.deadlineNs != 0 && end > options.deadlineNs) {
      return done(fail(ErrorStatus::MISSED_DEADLINE_TRANSIENT, "the simulated device would finish after the deadline"));
    }
    timer_.at(end, [this, start, options, result = std::move(result), done = std::move(done)]() mutable {
      record(start, options);
      done(std::move(result));
    });
  }

 private:
  void logPools(const Request& request, bool burst) {
    if (config_.poolLog.empty()) return;
    std::string line = device_ + (burst ? " burst" : " plain");
    for (uint32_t i = 0; i < request.raw().pool_count; ++i) line += " " + std::to_string(request.raw().pools[i].kind);
    appendTrace(config_.poolLog, line + "\n");
  }

  void report(ExecutionResult& result, const ExecuteOptions& options) const {
    if (options.measureTiming && config_.timingUs != 0) result.timing = {config_.timingUs, 2 * config_.timingUs};
  }

  void record(uint64_t start, const ExecuteOptions& options) {
    appendTrace(config_.trace, device_ + " " + std::to_string(start) + " " + std::to_string(nowNs()) + " " +
                                   std::to_string(options.loopTimeoutNs) + "\n");
  }

  Result<ExecutionResult> compute(const Request& request) {
    if (config_.fail == "execute") return generalFailure("simulated execution failure");
    std::map<uint32_t, std::vector<uint8_t>> values = constants_;
    std::map<uint32_t, std::vector<uint32_t>> shapes;
    for (uint32_t i = 0; i < inputs_.size(); ++i) {
      NNRT_ASSIGN_OR_RETURN(auto bytes, request.inputBytes(i));
      values[inputs_[i]].assign(bytes.begin(), bytes.end());
      const auto& arg = request.inputs()[i];
      shapes[inputs_[i]] = arg.rank > 0 ? std::vector<uint32_t>(arg.dimensions, arg.dimensions + arg.rank) : shapes_[inputs_[i]];
    }
    auto shapeOf = [&](uint32_t operand) -> const std::vector<uint32_t>& {
      auto it = shapes.find(operand);
      return it != shapes.end() ? it->second : shapes_[operand];
    };
    for (const Op& op : ops_) {
      std::vector<ops::Arg> in(op.inputs.size()), out(op.outputs.size());
      for (size_t k = 0; k < op.inputs.size(); ++k) {
        in[k].type = k < 2 ? static_cast<int32_t>(OperandType::TENSOR_FLOAT32) : static_cast<int32_t>(OperandType::INT32);
        in[k].dims = shapeOf(op.inputs[k]);
        auto& v = values[op.inputs[k]];
        in[k].data = v.data();
        in[k].length = v.size();
      }
      out[0].type = static_cast<int32_t>(OperandType::TENSOR_FLOAT32);
      NNRT_ASSIGN_OR_RETURN(auto outShapes, ops::inferShapes({op.type, in, out, false}));
      shapes[op.outputs[0]] = outShapes[0];
      nnrt::cpu::Shape outShape{outShapes[0]};
      std::vector<uint8_t>& result = values[op.outputs[0]];
      result.resize(outShape.elements() * sizeof(float));
      auto* o = reinterpret_cast<float*>(result.data());
      const auto* a = reinterpret_cast<const float*>(in[0].data);
      switch (static_cast<OperationType>(op.type)) {
        case OperationType::ADD:
        case OperationType::SUB:
        case OperationType::MUL:
        case OperationType::DIV: {
          NNRT_ASSIGN_OR_RETURN(auto params, ops::decodeBinary({op.type, in, out, false}));
          auto act = static_cast<nnrt::cpu::Activation>(params.activation);
          const auto* b = reinterpret_cast<const float*>(in[1].data);
          nnrt::cpu::Shape as{std::vector<uint32_t>(in[0].dims.begin(), in[0].dims.end())};
          nnrt::cpu::Shape bs{std::vector<uint32_t>(in[1].dims.begin(), in[1].dims.end())};
          if (op.type == static_cast<int32_t>(OperationType::ADD)) nnrt::cpu::add(a, as, b, bs, act, o, outShape);
          if (op.type == static_cast<int32_t>(OperationType::SUB)) nnrt::cpu::sub(a, as, b, bs, act, o, outShape);
          if (op.type == static_cast<int32_t>(OperationType::MUL)) nnrt::cpu::mul(a, as, b, bs, act, o, outShape);
          if (op.type == static_cast<int32_t>(OperationType::DIV)) nnrt::cpu::div(a, as, b, bs, act, o, outShape);
          break;
        }
        case OperationType::RELU: nnrt::cpu::relu(a, outShape.elements(), o); break;
        case OperationType::RELU1: nnrt::cpu::relu1(a, outShape.elements(), o); break;
        case OperationType::RELU6: nnrt::cpu::relu6(a, outShape.elements(), o); break;
        case OperationType::LOGISTIC: nnrt::cpu::logistic(a, outShape.elements(), o); break;
        case OperationType::TANH: nnrt::cpu::tanh(a, outShape.elements(), o); break;
        default: return generalFailure("operation not prepared");
      }
    }
    ExecutionResult result;
    for (uint32_t i = 0; i < outputs_.size(); ++i) {
      const auto& value = values[outputs_[i]];
      NNRT_ASSIGN_OR_RETURN(auto buffer, request.outputBytes(i));
      bool fits = buffer.size() >= value.size();
      if (fits) std::memcpy(buffer.data(), value.data(), value.size());
      if (!fits) result.status = ErrorStatus::OUTPUT_INSUFFICIENT_SIZE;
      result.outputShapes.push_back({shapeOf(outputs_[i]), fits});
    }
    return result;
  }

  std::string device_;
  const Config& config_;
  TimerThread& timer_;
  std::vector<std::vector<uint32_t>> shapes_;
  std::map<uint32_t, std::vector<uint8_t>> constants_;
  std::vector<Op> ops_;
  std::vector<uint32_t> inputs_, outputs_;
};

// A burst that runs as a plain execution, marked "burst" in pool_log.
class SimBurst : public Burst {
 public:
  explicit SimBurst(SimPreparedModel& prepared) : prepared_(prepared) {}
  Result<ExecutionResult> execute(const Request& request, const ExecuteOptions& options) override {
    return prepared_.run(request, options, true);
  }

 private:
  SimPreparedModel& prepared_;
};

Result<std::unique_ptr<Burst>> SimPreparedModel::configureBurst() { return std::unique_ptr<Burst>(new SimBurst(*this)); }

class SimDevice : public Device {
 public:
  SimDevice(std::string name, Config config) : name_(std::move(name)), config_(std::move(config)) {
    capabilities_.operandPerformance = {{static_cast<int32_t>(OperandType::TENSOR_FLOAT32), {config_.execTime, config_.execTime}}};
  }
  const std::string& getName() const override { return name_; }
  const std::string& getVersionString() const override { return version_; }
  DeviceType getType() const override { return DeviceType::ACCELERATOR; }
  const Capabilities& getCapabilities_1_3() const override { return capabilities_; }
  DeviceStatus getStatus() const override {
    if (config_.statusFile.empty()) return DeviceStatus::AVAILABLE;
    std::ifstream in(config_.statusFile);
    std::string word;
    in >> word;
    if (word == "offline") return DeviceStatus::OFFLINE;
    if (word == "busy") return DeviceStatus::BUSY;
    if (word == "hang") std::this_thread::sleep_for(std::chrono::seconds(3));
    return DeviceStatus::AVAILABLE;
  }

  Result<std::vector<bool>> getSupportedOperations_1_3(const Model& model, const Explainer& explain) const override {
    Subgraph main = model.main();
    std::vector<bool> supported;
    for (const nnrt_operation& op : main.operations()) {
      bool ok = config_.ops.contains(op.type) &&
                main.operands()[op.inputs[0]].type == static_cast<int32_t>(OperandType::TENSOR_FLOAT32);
      if (ok) ok = ops::validate({op.type, ops::inputArgs(model, main, op), ops::outputArgs(model, main, op), false}).has_value();
      if (!ok) explain(static_cast<uint32_t>(supported.size()), "the simulated device does not run it");
      supported.push_back(ok);
    }
    return supported;
  }

  Result<std::unique_ptr<PreparedModel>> prepareModel_1_3(const Model& model, const PrepareOptions&,
                                                          const CacheFiles&) const override {
    if (config_.fail == "prepare") return generalFailure("simulated preparation failure");
    NNRT_ASSIGN_OR_RETURN(auto supported, getSupportedOperations_1_3(model, [](uint32_t, const std::string&) {}));
    for (bool s : supported) {
      if (!s) return invalidArgument("the model has an operation the simulated device does not run");
    }
    return std::unique_ptr<PreparedModel>(new SimPreparedModel(name_, config_, timer_, model));
  }

  Result<std::unique_ptr<Buffer>> allocate(const BufferDesc& desc, std::span<PreparedModel* const>,
                                           std::span<const nnrt_buffer_role>,
                                           std::span<const nnrt_buffer_role>) const override {
    auto bytes = ops::byteSize(desc.type, desc.dimensions);
    if (!bytes || *bytes == 0) return invalidArgument("the simulated device allocates buffers of known size only");
    return std::unique_ptr<Buffer>(new HostBuffer(static_cast<size_t>(*bytes)));
  }
  nnrt_memory_preference getMemoryPreference() const override { return config_.memory; }

 private:
  std::string name_;
  std::string version_ = "sim 1.0";
  Config config_;
  Capabilities capabilities_;
  mutable TimerThread timer_;
};

Result<DeviceList> open(const Options& options) {
  Config config;
  config.latencyNs = static_cast<uint64_t>(std::stod(options.get("latency_ms", "50")) * 1e6);
  if (auto list = options.get("ops")) {
    config.ops.clear();
    std::stringstream in(*list);
    std::string name;
    while (std::getline(in, name, ',')) {
      bool found = false;
      for (int32_t t = 0; t <= 105 && !found; ++t) {
        const char* n = operationTypeName(t);
        if (n != nullptr && name == n) {
          config.ops.insert(t);
          found = true;
        }
      }
      if (!found) return invalidArgument("ops: unknown operation '" + name + "'");
    }
  }
  config.execTime = std::stof(options.get("exec_time", "0.5"));
  config.trace = options.get("trace", "");
  config.statusFile = options.get("status_file", "");
  config.fail = options.get("fail", "");
  config.honorDeadline = options.get("honor_deadline", "true") != "false";
  config.memory.alignment = static_cast<uint32_t>(std::stoul(options.get("alignment", "64")));
  config.memory.padding = static_cast<uint32_t>(std::stoul(options.get("padding", "1")));
  config.poolLog = options.get("pool_log", "");
  config.timingUs = std::stoull(options.get("timing_us", "0"));
  int count = std::stoi(options.get("devices", "1"));
  NNRT_RETURN_IF_ERROR(options.checkAllUsed());
  DeviceList devices;
  for (int i = 0; i < count; ++i) devices.push_back(std::make_unique<SimDevice>("sim-" + std::to_string(i), config));
  return devices;
}

}  // namespace sim

#ifndef SIM_DRIVER_OWN_EXPORT  // sim_driver_abi10.cpp exports the same driver with an ABI 1.0 table
NNRT_DRIVER_EXPORT("sim", "1.0.0", sim::open)
#endif
