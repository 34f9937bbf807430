#include "core/execution/execution.hpp"

#include <condition_variable>
#include <thread>

#include "core/execution/event.hpp"
#include "core/execution/plan_runner.hpp"
#include "nnrt/driver/ops/operand_types.hpp"

namespace nnrt {
namespace {

constexpr uint64_t kMaximumLoopTimeoutNs = 15'000'000'000ull;  // ANeuralNetworks_getMaximumLoopTimeout

}  // namespace

Execution::Execution(std::shared_ptr<const CompiledModel> compiled) : compiled_(std::move(compiled)) {
  inputs_.resize(compiled_->model().inputs.size());
  outputs_.resize(compiled_->model().outputs.size());
}

Execution::~Execution() {
  // ANeuralNetworksExecution_free while a computation runs waits for it to end.
  std::unique_lock lock(runMutex_);
  idle_.wait(lock, [this] { return !running_; });
}

Result<void> Execution::acquireRun() {
  std::lock_guard lock(runMutex_);
  if (running_) return fail(ResultCode::BAD_STATE, "the execution is already running");
  running_ = true;
  return {};
}

void Execution::releaseRun() {
  std::lock_guard lock(runMutex_);
  running_ = false;
  idle_.notify_all();  // under the lock: once it is released the destructor may run
}

Result<void> Execution::checkPreparation() const {
  State s = state_.load();
  if (s == State::Computing) return fail(ResultCode::BAD_STATE, "the execution is running");
  if (s == State::Completed && !reusable_) {
    return fail(ResultCode::BAD_STATE, "the execution has completed and is not reusable (setReusable)");
  }
  return {};
}

Result<Argument> Execution::makeArgument(bool input, int32_t index, const uint32_t* dims, uint32_t rank, bool hasType,
                                         size_t length, bool omittable) const {
  const FinishedModel& model = compiled_->model();
  const auto& list = input ? model.inputs : model.outputs;
  const char* what = input ? "input" : "output";
  if (index < 0 || static_cast<size_t>(index) >= list.size()) {
    return fail(ResultCode::BAD_DATA, std::string("index ") + std::to_string(index) + " is out of range (the model has " +
                                          std::to_string(list.size()) + " " + what + "s)");
  }
  const Operand& operand = model.operands[list[index]];
  Argument arg;
  arg.dimensions = operand.dimensions;
  // As Android: the arguments are set once, before the first computation.
  if (state_.load() != State::Preparation) {
    return fail(ResultCode::BAD_STATE, std::string(what) + "s cannot change once the execution has started");
  }
  if (hasType) {
    bool tensor = operand.isTensor;
    if (!tensor && rank != 0) return fail(ResultCode::BAD_DATA, std::string(what) + " " + std::to_string(index) + " is a scalar; type->dimensionCount must be 0");
    if (!operand.dimensions.empty() && rank != operand.dimensions.size()) {
      return fail(ResultCode::BAD_DATA, "type->dimensionCount " + std::to_string(rank) + " does not match " + what + " " +
                                            std::to_string(index) + "'s rank " + std::to_string(operand.dimensions.size()));
    }
    arg.dimensions.assign(dims, dims + rank);
    for (size_t d = 0; d < operand.dimensions.size(); ++d) {
      if (operand.dimensions[d] != 0 && arg.dimensions[d] != operand.dimensions[d]) {
        return fail(ResultCode::BAD_DATA, "type->dimensions[" + std::to_string(d) + "] = " + std::to_string(arg.dimensions[d]) +
                                              " contradicts the model's " + ops::shapeToString(operand.dimensions) +
                                              " (only unknown dimensions may be given)");
      }
    }
  }
  const Argument& current = input ? inputs_[index] : outputs_[index];
  if (current.state != Argument::State::Unset) {
    return fail(ResultCode::BAD_STATE, std::string(what) + " " + std::to_string(index) + " has already been set");
  }
  if (length == 0 && omittable) {
    arg.state = Argument::State::Omitted;
    return arg;
  }
  // An input's shape must be known when its value is given; an output's may stay open (the
  // driver reports it).
  if (input && operand.isTensor) {
    bool specified = !arg.dimensions.empty();
    for (uint32_t d : arg.dimensions) specified = specified && d != 0;
    if (!specified) {
      return fail(ResultCode::BAD_DATA, "input " + std::to_string(index) + " has unspecified dimensions " +
                                            ops::shapeToString(arg.dimensions) +
                                            "; give them with the type argument");
    }
  }
  if (auto expected = operandByteSize(operand, arg.dimensions); expected && *expected != length) {
    return fail(ResultCode::BAD_DATA, "length " + std::to_string(length) + " does not match " + what + " " +
                                          std::to_string(index) + " (" + ops::typeName(operand.type) + " " +
                                          ops::shapeToString(arg.dimensions) + " needs " + std::to_string(*expected) +
                                          " bytes)");
  }
  arg.length = length;
  return arg;
}

Result<void> Execution::setInput(int32_t index, const uint32_t* dims, uint32_t rank, bool hasType, const void* buffer,
                                 size_t length) {
  NNRT_RETURN_IF_ERROR(checkPreparation());
  if (buffer == nullptr && length != 0) {
    return fail(ResultCode::UNEXPECTED_NULL, "buffer is NULL but length is " + std::to_string(length) +
                                                 " (NULL with length 0 omits an optional input)");
  }
  NNRT_ASSIGN_OR_RETURN(Argument arg, makeArgument(true, index, dims, rank, hasType, length, buffer == nullptr));
  if (arg.state != Argument::State::Omitted) {
    arg.state = Argument::State::Pointer;
    arg.pointer = const_cast<void*>(buffer);  // inputs are only read
  }
  inputs_[index] = std::move(arg);
  return {};
}

Result<void> Execution::setInputFromMemory(int32_t index, const uint32_t* dims, uint32_t rank, bool hasType,
                                           std::shared_ptr<Memory> memory, size_t offset, size_t length) {
  NNRT_RETURN_IF_ERROR(checkPreparation());
  NNRT_RETURN_IF_ERROR(memory->checkRange(offset, length, "memory"));
  NNRT_ASSIGN_OR_RETURN(Argument arg, makeArgument(true, index, dims, rank, hasType, length, false));
  arg.state = Argument::State::Memory;
  arg.memory = std::move(memory);
  arg.offset = offset;
  inputs_[index] = std::move(arg);
  return {};
}

Result<void> Execution::setOutput(int32_t index, const uint32_t* dims, uint32_t rank, bool hasType, void* buffer,
                                  size_t length) {
  NNRT_RETURN_IF_ERROR(checkPreparation());
  if (buffer == nullptr && length != 0) {
    return fail(ResultCode::UNEXPECTED_NULL, "buffer is NULL but length is " + std::to_string(length));
  }
  NNRT_ASSIGN_OR_RETURN(Argument arg, makeArgument(false, index, dims, rank, hasType, length, buffer == nullptr));
  if (arg.state != Argument::State::Omitted) {
    arg.state = Argument::State::Pointer;
    arg.pointer = buffer;
  }
  outputs_[index] = std::move(arg);
  return {};
}

Result<void> Execution::setOutputFromMemory(int32_t index, const uint32_t* dims, uint32_t rank, bool hasType,
                                            std::shared_ptr<Memory> memory, size_t offset, size_t length) {
  NNRT_RETURN_IF_ERROR(checkPreparation());
  if (!memory->writable()) return fail(ResultCode::BAD_DATA, "memory is read-only (mapped without PROT_WRITE)");
  NNRT_RETURN_IF_ERROR(memory->checkRange(offset, length, "memory"));
  NNRT_ASSIGN_OR_RETURN(Argument arg, makeArgument(false, index, dims, rank, hasType, length, false));
  arg.state = Argument::State::Memory;
  arg.memory = std::move(memory);
  arg.offset = offset;
  outputs_[index] = std::move(arg);
  return {};
}

Result<void> Execution::setMeasureTiming(bool measure) {
  NNRT_RETURN_IF_ERROR(checkPreparation());
  measure_ = measure;
  return {};
}

Result<void> Execution::setTimeout(uint64_t durationNs) {
  NNRT_RETURN_IF_ERROR(checkPreparation());
  timeoutNs_ = durationNs;
  return {};
}

Result<void> Execution::setLoopTimeout(uint64_t durationNs) {
  NNRT_RETURN_IF_ERROR(checkPreparation());
  loopTimeoutNs_ = std::min(durationNs, kMaximumLoopTimeoutNs);  // Android clamps to the maximum
  return {};
}

Result<void> Execution::setReusable(bool reusable) {
  if (state_.load() != State::Preparation) {
    return fail(ResultCode::BAD_STATE, "setReusable must be called before the first computation");
  }
  reusable_ = reusable;
  return {};
}

Result<void> Execution::beginRun() {
  NNRT_RETURN_IF_ERROR(checkPreparation());
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const Argument& a = inputs_[i];
    if (a.state == Argument::State::Unset) {
      return fail(ResultCode::BAD_DATA, "input " + std::to_string(i) + " was not set (setInput or setInputFromMemory)");
    }
    const Operand& operand = compiled_->model().operands[compiled_->model().inputs[i]];
    if (a.state != Argument::State::Omitted && operand.isTensor && !operandByteSize(operand, a.dimensions)) {
      return fail(ResultCode::BAD_DATA, "input " + std::to_string(i) + " has unknown dimensions " +
                                            ops::shapeToString(a.dimensions) + "; give them in setInput's type");
    }
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    if (outputs_[i].state == Argument::State::Unset) {
      return fail(ResultCode::BAD_DATA, "output " + std::to_string(i) + " was not set (setOutput or setOutputFromMemory)");
    }
  }
  State expected = state_.load();
  if (!state_.compare_exchange_strong(expected, State::Computing)) {
    return fail(ResultCode::BAD_STATE, "the execution is already running");
  }
  return {};
}

Result<void> Execution::run(uint64_t deadlineNs) {
  RunOptions options{measure_, deadlineNs, loopTimeoutNs_};
  return record(runCompiledModel(*compiled_, inputs_, outputs_, options));
}

Result<void> Execution::record(Result<RunOutcome> outcome) {
  if (!outcome) {
    lastResult_ = outcome.error().code;
    return Unexpected(outcome.error());
  }
  lastResult_ = outcome->code;
  outputShapes_ = std::move(outcome->outputShapes);
  outputSufficient_ = std::move(outcome->outputSufficient);
  devicesUsed_ = std::move(outcome->devicesUsed);
  durations_ = {};
  if (measure_) {
    auto ns = [](uint64_t us) { return us == UINT64_MAX ? UINT64_MAX : us * 1000; };
    durations_.onHardware = ns(outcome->timeOnDeviceUs);
    durations_.inDriver = ns(outcome->timeInDriverUs);
    durations_.fencedOnHardware = ns(outcome->fencedTimeOnDeviceUs);
    durations_.fencedInDriver = ns(outcome->fencedTimeInDriverUs);
  }
  if (outcome->code == ResultCode::OUTPUT_INSUFFICIENT_SIZE) {
    return fail(ResultCode::OUTPUT_INSUFFICIENT_SIZE, "an output buffer is too small; getOutputOperandDimensions tells the size needed");
  }
  return {};
}

void Execution::endRun() { state_.store(State::Completed); }

Result<void> Execution::compute() {
  NNRT_RETURN_IF_ERROR(acquireRun());
  if (auto begun = beginRun(); !begun) {
    releaseRun();
    return begun;
  }
  uint64_t deadline = timeoutNs_ == 0 ? 0 : driver::deadlineAfter(timeoutNs_);
  Result<void> result = run(deadline);
  endRun();
  releaseRun();
  return result;
}

Result<std::shared_ptr<Event>> Execution::startCompute(std::vector<std::shared_ptr<Event>> dependencies,
                                                       uint64_t durationNs) {
  NNRT_RETURN_IF_ERROR(acquireRun());
  if (auto begun = beginRun(); !begun) {
    releaseRun();
    return Unexpected(begun.error());
  }
  auto created = Event::create();
  if (!created) {
    endRun();
    releaseRun();
    return Unexpected(created.error());
  }
  std::shared_ptr<Event> event = std::move(*created);
  uint64_t timeout = timeoutNs_;
  // The run holds the execution (running_) until it ends, so the destructor waits for it.
  std::thread([this, event, dependencies = std::move(dependencies), durationNs, timeout]() mutable {
    // Events the runtime signals carry a status and are waited for here; descriptors the
    // application handed in go to a driver that waits for fences itself, when it can.
    const bool fenced = !dependencies.empty() && canRunFenced(*compiled_, outputs_);
    std::vector<int> waitFds;
    Result<void> result;
    for (const auto& d : dependencies) {
      if (fenced && d->external()) {
        waitFds.push_back(d->fd());
        continue;
      }
      if (auto r = d->wait(); !r) {
        result = fail(ResultCode::OP_FAILED, "a dependency failed: " + r.error().message);
        break;
      }
    }
    if (result) {
      const uint64_t now = driver::monotonicNs();
      uint64_t deadline = timeout == 0 ? 0 : driver::saturatingAdd(now, timeout);
      if (fenced) {
        result = record(runCompiledModelFenced(*compiled_, inputs_, outputs_, {measure_, deadline, loopTimeoutNs_},
                                               waitFds, durationNs));
      } else {
        if (durationNs != 0) {
          const uint64_t fenceDeadline = driver::saturatingAdd(now, durationNs);
          if (deadline == 0 || fenceDeadline < deadline) deadline = fenceDeadline;
        }
        result = run(deadline);
      }
    } else {
      lastResult_ = result.error().code;
    }
    endRun();
    releaseRun();  // from here on `this` may be destroyed
    event->signal(std::move(result));
  }).detach();
  return event;
}

Result<OutputShapeInfo> Execution::getOutputShape(int32_t index) const {
  if (state_.load() != State::Completed || !lastResult_) {
    return fail(ResultCode::BAD_STATE, "the execution has not completed");
  }
  if (*lastResult_ != ResultCode::NO_ERROR && *lastResult_ != ResultCode::OUTPUT_INSUFFICIENT_SIZE) {
    return fail(ResultCode::BAD_STATE, "the execution failed; no output shape is available");
  }
  if (index < 0 || static_cast<size_t>(index) >= outputShapes_.size()) {
    return fail(ResultCode::BAD_DATA, "index " + std::to_string(index) + " is out of range (the model has " +
                                          std::to_string(outputShapes_.size()) + " outputs)");
  }
  return OutputShapeInfo{outputShapes_[index], outputSufficient_[index]};
}

Result<uint64_t> Execution::getDuration(int32_t durationCode) const {
  if (state_.load() != State::Completed || !lastResult_) {
    return fail(ResultCode::BAD_STATE, "the execution has not completed");
  }
  if (durationCode < 0 || durationCode > 3) {
    return fail(ResultCode::BAD_DATA, "durationCode " + std::to_string(durationCode) +
                                          " is not ON_HARDWARE (0), IN_DRIVER (1), FENCED_ON_HARDWARE (2) or "
                                          "FENCED_IN_DRIVER (3)");
  }
  if (!measure_) return UINT64_MAX;
  const uint64_t values[] = {durations_.onHardware, durations_.inDriver, durations_.fencedOnHardware,
                             durations_.fencedInDriver};
  return values[durationCode];
}

}  // namespace nnrt
