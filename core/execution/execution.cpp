#include "core/execution/execution.hpp"

#include <algorithm>
#include <condition_variable>
#include <thread>

#include "core/execution/event.hpp"
#include "core/execution/memory_desc.hpp"
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

Result<void> Execution::checkNotStarted(const char* what) const {
  if (state_.load() != State::Preparation) {
    return fail(ResultCode::BAD_STATE, std::string(what) + " cannot change once the execution has started");
  }
  return {};
}

namespace {

// The type argument on its own, with the rules of ANeuralNetworksModel_addOperand (an extension
// operand's type is judged by the model operand's extension).
Result<void> checkTypeArgument(const Operand& operand, const ArgumentType& type, bool allowUnspecified) {
  if ((type.dimensions == nullptr) != (type.dimensionCount == 0)) {
    return fail(ResultCode::BAD_DATA, std::string("type->dimensions is ") + (type.dimensions == nullptr ? "NULL" : "not NULL") +
                                          " but type->dimensionCount is " + std::to_string(type.dimensionCount));
  }
  bool tensor = false;
  uint64_t elementSize = 0;
  if (driver::isExtensionType(operand.type) != driver::isExtensionType(type.type)) {
    return fail(ResultCode::BAD_DATA, "type->type " + ops::typeName(type.type) + " and the model's " +
                                          ops::typeName(operand.type) + " are not both extension types or both NNAPI types");
  }
  if (driver::isExtensionType(type.type)) {
    tensor = operand.isTensor;
    elementSize = operand.elementSize;
    if (type.scale != 0.0f || type.zeroPoint != 0) {
      return fail(ResultCode::BAD_DATA, "type: an extension type must have scale 0 and zero point 0");
    }
  } else {
    if (!ops::isKnownOperandType(type.type) || type.type == static_cast<int32_t>(driver::OperandType::SUBGRAPH)) {
      return fail(ResultCode::BAD_DATA, "type->type " + std::to_string(type.type) + " is not an operand type");
    }
    tensor = ops::isTensorType(type.type);
    elementSize = ops::elementSize(type.type);
    if (std::string q = ops::checkQuantization(type.type, type.scale, type.zeroPoint);
        !q.empty() && type.type != static_cast<int32_t>(driver::OperandType::OEM)) {
      return fail(ResultCode::BAD_DATA, "type: " + q);
    }
  }
  if (!tensor) {
    if (type.dimensionCount != 0) {
      return fail(ResultCode::BAD_DATA, "type->type " + ops::typeName(type.type) + " is a scalar; type->dimensionCount must be 0");
    }
    return {};
  }
  if (!allowUnspecified && type.dimensionCount == 0) {
    return fail(ResultCode::BAD_DATA, "type->dimensionCount is 0; the input's dimensions must be given");
  }
  uint64_t bytes = std::max<uint64_t>(elementSize, 1);
  for (uint32_t d = 0; d < type.dimensionCount; ++d) {
    if (type.dimensions[d] == 0) {
      if (!allowUnspecified) {
        return fail(ResultCode::BAD_DATA, "type->dimensions[" + std::to_string(d) + "] is 0; an input's dimensions must all be known");
      }
      continue;
    }
    bytes *= type.dimensions[d];
    if (bytes > UINT32_MAX) return fail(ResultCode::BAD_DATA, "type describes more than 4 GiB");
  }
  return {};
}

}  // namespace

Result<Argument> Execution::describeArgument(bool input, int32_t index, const ArgumentType* type,
                                             bool allowUnspecified) const {
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
  if (type == nullptr) {
    if (!allowUnspecified && operand.isTensor && !operandByteSize(operand, operand.dimensions)) {
      return fail(ResultCode::BAD_DATA, std::string(what) + " " + std::to_string(index) + " has unspecified dimensions " +
                                            ops::shapeToString(operand.dimensions) + "; give them with the type argument");
    }
    return arg;
  }
  NNRT_RETURN_IF_ERROR(checkTypeArgument(operand, *type, allowUnspecified));
  // As Android: against a scalar or a tensor of unknown rank, any valid type is taken (a scalar
  // keeps its empty shape).
  if (!operand.isTensor) return arg;
  if (!operand.dimensions.empty() && type->dimensionCount != operand.dimensions.size()) {
    return fail(ResultCode::BAD_DATA, "type->dimensionCount " + std::to_string(type->dimensionCount) + " does not match " +
                                          what + " " + std::to_string(index) + "'s rank " +
                                          std::to_string(operand.dimensions.size()));
  }
  arg.dimensions.assign(type->dimensions, type->dimensions + type->dimensionCount);
  for (size_t d = 0; d < operand.dimensions.size(); ++d) {
    if (operand.dimensions[d] != 0 && arg.dimensions[d] != operand.dimensions[d]) {
      return fail(ResultCode::BAD_DATA, "type->dimensions[" + std::to_string(d) + "] = " + std::to_string(arg.dimensions[d]) +
                                            " contradicts the model's " + ops::shapeToString(operand.dimensions) +
                                            " (only unknown dimensions may be given)");
    }
  }
  return arg;
}

Result<void> Execution::checkUnset(bool input, int32_t index) const {
  const Argument& current = input ? inputs_[index] : outputs_[index];
  if (current.state != Argument::State::Unset) {
    return fail(ResultCode::BAD_STATE, std::string(input ? "input " : "output ") + std::to_string(index) +
                                           " has already been set");
  }
  return {};
}

Result<size_t> Execution::checkLength(bool input, int32_t index, const Argument& arg, size_t length) const {
  const FinishedModel& model = compiled_->model();
  const Operand& operand = model.operands[(input ? model.inputs : model.outputs)[index]];
  auto expected = operandByteSize(operand, arg.dimensions);
  if (expected && (padding_ ? length < *expected : length != *expected)) {
    return fail(ResultCode::BAD_DATA, "length " + std::to_string(length) + (padding_ ? " is below " : " does not match ") +
                                          (input ? "input " : "output ") + std::to_string(index) + " (" +
                                          ops::typeName(operand.type) + " " + ops::shapeToString(arg.dimensions) +
                                          " needs " + std::to_string(*expected) + " bytes" +
                                          (padding_ ? ")" : "; enableInputAndOutputPadding allows longer buffers)"));
  }
  return expected && *expected != 0 ? static_cast<size_t>(*expected) : length;
}

// The order of the checks is Android's: started, index, type, length limit, already set, then the
// buffer against the operand.
Result<void> Execution::setInput(int32_t index, const ArgumentType* type, const void* buffer, size_t length) {
  NNRT_RETURN_IF_ERROR(checkNotStarted("inputs"));
  if (buffer == nullptr && length != 0) {
    return fail(ResultCode::UNEXPECTED_NULL, "buffer is NULL but length is " + std::to_string(length) +
                                                 " (NULL with length 0 omits an optional input)");
  }
  NNRT_ASSIGN_OR_RETURN(Argument arg, describeArgument(true, index, type, buffer == nullptr));
  if (length > UINT32_MAX) return fail(ResultCode::BAD_DATA, "length " + std::to_string(length) + " exceeds 4 GiB");
  NNRT_RETURN_IF_ERROR(checkUnset(true, index));
  argumentsTouched_ = true;
  if (buffer == nullptr) {
    arg.state = Argument::State::Omitted;
  } else {
    if (length == 0) return fail(ResultCode::BAD_DATA, "buffer is not NULL but length is 0");
    NNRT_ASSIGN_OR_RETURN(arg.length, checkLength(true, index, arg, length));
    arg.state = Argument::State::Pointer;
    arg.pointer = const_cast<void*>(buffer);  // inputs are only read
    arg.padded = length;
  }
  inputs_[index] = std::move(arg);
  return {};
}

Result<void> Execution::setInputFromMemory(int32_t index, const ArgumentType* type, std::shared_ptr<Memory> memory,
                                           size_t offset, size_t length) {
  return setFromMemory(true, index, type, std::move(memory), offset, length);
}

Result<void> Execution::setOutput(int32_t index, const ArgumentType* type, void* buffer, size_t length) {
  NNRT_RETURN_IF_ERROR(checkNotStarted("outputs"));
  if (buffer == nullptr && length != 0) {
    return fail(ResultCode::UNEXPECTED_NULL, "buffer is NULL but length is " + std::to_string(length));
  }
  NNRT_ASSIGN_OR_RETURN(Argument arg, describeArgument(false, index, type, true));
  if (length > UINT32_MAX) return fail(ResultCode::BAD_DATA, "length " + std::to_string(length) + " exceeds 4 GiB");
  NNRT_RETURN_IF_ERROR(checkUnset(false, index));
  argumentsTouched_ = true;
  if (buffer == nullptr) {
    arg.state = Argument::State::Omitted;
  } else {
    if (length == 0) return fail(ResultCode::BAD_DATA, "buffer is not NULL but length is 0");
    NNRT_ASSIGN_OR_RETURN(arg.length, checkLength(false, index, arg, length));
    arg.state = Argument::State::Pointer;
    arg.pointer = buffer;
    arg.padded = length;
  }
  outputs_[index] = std::move(arg);
  return {};
}

Result<void> Execution::setOutputFromMemory(int32_t index, const ArgumentType* type, std::shared_ptr<Memory> memory,
                                            size_t offset, size_t length) {
  return setFromMemory(false, index, type, std::move(memory), offset, length);
}

// As Android: the memory's own rules (a described memory: its role, whole; any other: the range),
// then the argument already set, then the length against the operand.
Result<void> Execution::setFromMemory(bool input, int32_t index, const ArgumentType* type,
                                      std::shared_ptr<Memory> memory, size_t offset, size_t length) {
  NNRT_RETURN_IF_ERROR(checkNotStarted(input ? "inputs" : "outputs"));
  NNRT_ASSIGN_OR_RETURN(Argument arg, describeArgument(input, index, type, !input));
  if (MemoryDescription* description = memory->description()) {
    std::optional<std::vector<uint32_t>> typeDimensions;
    if (type != nullptr) typeDimensions.emplace(type->dimensions, type->dimensions + type->dimensionCount);
    NNRT_RETURN_IF_ERROR(description->checkArgument(*compiled_, input, static_cast<uint32_t>(index),
                                                    typeDimensions ? &*typeDimensions : nullptr, offset, length));
    length = memory->size();  // the whole memory (0 for a driver's buffer: its description tells)
  } else {
    NNRT_RETURN_IF_ERROR(memory->checkRange(offset, length, "memory"));
    if (offset == 0 && length == 0) return fail(ResultCode::BAD_DATA, "offset and length are both 0");
  }
  NNRT_RETURN_IF_ERROR(checkUnset(input, index));
  argumentsTouched_ = true;
  if (!input && !memory->writable()) return fail(ResultCode::BAD_DATA, "memory is read-only (mapped without PROT_WRITE)");
  arg.padded = length;
  if (memory->driverBuffer() == nullptr) {
    NNRT_ASSIGN_OR_RETURN(arg.length, checkLength(input, index, arg, length));
  }
  arg.state = Argument::State::Memory;
  arg.memory = std::move(memory);
  arg.offset = offset;
  (input ? inputs_ : outputs_)[index] = std::move(arg);
  return {};
}

Result<void> Execution::setMeasureTiming(bool measure) {
  NNRT_RETURN_IF_ERROR(checkNotStarted("setMeasureTiming"));
  measure_ = measure;
  return {};
}

Result<void> Execution::setTimeout(uint64_t durationNs) {
  NNRT_RETURN_IF_ERROR(checkNotStarted("setTimeout"));
  timeoutNs_ = durationNs;
  return {};
}

Result<void> Execution::setLoopTimeout(uint64_t durationNs) {
  NNRT_RETURN_IF_ERROR(checkNotStarted("setLoopTimeout"));
  loopTimeoutNs_ = std::min(durationNs, kMaximumLoopTimeoutNs);  // Android clamps to the maximum
  return {};
}

Result<void> Execution::setReusable(bool reusable) {
  NNRT_RETURN_IF_ERROR(checkNotStarted("setReusable"));
  reusable_ = reusable;
  return {};
}

Result<void> Execution::enableInputAndOutputPadding(bool enable) {
  NNRT_RETURN_IF_ERROR(checkNotStarted("padding"));
  if (argumentsTouched_) {
    return fail(ResultCode::BAD_STATE, "padding must be chosen before any input or output is set");
  }
  padding_ = enable;
  return {};
}

Result<void> Execution::completeWith(Error error) {
  lastResult_ = error.code;
  outputShapes_.clear();
  outputSufficient_.clear();
  durations_ = {};
  state_.store(State::Completed);
  return Unexpected(std::move(error));
}

namespace {

// Whether a multi-step plan passes a temporary whose shape only the run tells.
bool hasDynamicTemporaries(const CompiledModel& compiled) {
  if (compiled.main().direct()) return false;
  const FinishedModel& model = compiled.model();
  for (const CompiledStep& step : compiled.steps()) {
    for (uint32_t operand : step.outputs) {
      if (model.operands[operand].lifetime != NNRT_LIFETIME_TEMPORARY_VARIABLE) continue;
      const auto& shape = compiled.staticShapes()[operand];
      if (model.operands[operand].isTensor && !operandByteSize(model.operands[operand], shape)) return true;
    }
  }
  return false;
}

}  // namespace

Result<void> Execution::beginRun(bool withDependencies) {
  NNRT_RETURN_IF_ERROR(checkPreparation());
  // From here on, as in Android, a refused request completes the computation with its error.
  State expected = state_.load();
  if (!state_.compare_exchange_strong(expected, State::Computing)) {
    return fail(ResultCode::BAD_STATE, "the execution is already running");
  }
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const Argument& a = inputs_[i];
    if (a.state == Argument::State::Unset) {
      return completeWith({ResultCode::BAD_DATA, "input " + std::to_string(i) + " was not set (setInput or setInputFromMemory)"});
    }
    const Operand& operand = compiled_->model().operands[compiled_->model().inputs[i]];
    if (a.state != Argument::State::Omitted && operand.isTensor && !operandByteSize(operand, a.dimensions)) {
      return completeWith({ResultCode::BAD_DATA, "input " + std::to_string(i) + " has unknown dimensions " +
                                                     ops::shapeToString(a.dimensions) + "; give them in setInput's type"});
    }
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    if (outputs_[i].state == Argument::State::Unset) {
      return completeWith({ResultCode::BAD_DATA, "output " + std::to_string(i) + " was not set (setOutput or setOutputFromMemory)"});
    }
  }
  // Described memories are checked at every computation: their contents may change between them.
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const Argument& a = inputs_[i];
    if (a.state != Argument::State::Memory || a.memory->description() == nullptr) continue;
    if (auto checked = a.memory->description()->checkInputDimensions(a.dimensions); !checked) {
      (void)finishOutputMemories(false);
      return completeWith({checked.error().code, "input " + std::to_string(i) + ": " + checked.error().message});
    }
  }
  if (withDependencies && !hasDynamicTemporaries(*compiled_)) {
    for (size_t i = 0; i < outputs_.size(); ++i) {
      const Argument& a = outputs_[i];
      const Operand& operand = compiled_->model().operands[compiled_->model().outputs[i]];
      if (a.state != Argument::State::Omitted && operand.isTensor && !operandByteSize(operand, a.dimensions)) {
        return completeWith({ResultCode::BAD_DATA, "output " + std::to_string(i) + " has unknown dimensions " +
                                                       ops::shapeToString(a.dimensions) +
                                                       "; startComputeWithDependencies needs them all known"});
      }
    }
  }
  return {};
}

Result<void> Execution::run(uint64_t deadlineNs, BurstRunner* burst) {
  RunOptions options{measure_, deadlineNs, loopTimeoutNs_};
  return record(burst != nullptr ? burst->run(inputs_, outputs_, options)
                                 : runCompiledModel(*compiled_, inputs_, outputs_, options));
}

Result<void> Execution::finishOutputMemories(bool success) {
  Result<void> result;
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const Argument& a = outputs_[i];
    MemoryDescription* description = a.state == Argument::State::Memory ? a.memory->description() : nullptr;
    if (description == nullptr) continue;
    if (success && i < outputShapes_.size() && !description->updateMetadata({0, outputShapes_[i], nullptr})) {
      result = fail(ResultCode::OP_FAILED, "output " + std::to_string(i) + "'s shape " +
                                               ops::shapeToString(outputShapes_[i]) + " does not fit its memory");
    }
  }
  for (const Argument& a : outputs_) {
    if (a.state == Argument::State::Memory && a.memory->description() != nullptr)
      a.memory->description()->setInitialized(success && result.has_value());
  }
  return result;
}

Result<void> Execution::record(Result<RunOutcome> outcome) {
  if (!outcome) {
    lastResult_ = outcome.error().code;
    (void)finishOutputMemories(false);
    return Unexpected(outcome.error());
  }
  lastResult_ = outcome->code;
  outputShapes_ = std::move(outcome->outputShapes);
  outputSufficient_ = std::move(outcome->outputSufficient);
  devicesUsed_ = std::move(outcome->devicesUsed);
  durations_ = {};
  stepDurations_.clear();
  if (measure_) {
    auto ns = [](uint64_t us) { return us == UINT64_MAX ? UINT64_MAX : us * 1000; };
    durations_.onHardware = ns(outcome->timeOnDeviceUs);
    durations_.inDriver = ns(outcome->timeInDriverUs);
    durations_.fencedOnHardware = ns(outcome->fencedTimeOnDeviceUs);
    durations_.fencedInDriver = ns(outcome->fencedTimeInDriverUs);
    for (const driver::Timing& step : outcome->stepTimings) {
      stepDurations_.push_back(
          Durations{.onHardware = ns(step.timeOnDevice), .inDriver = ns(step.timeInDriver)});
    }
  }
  if (auto finished = finishOutputMemories(outcome->code == ResultCode::NO_ERROR); !finished) {
    lastResult_ = finished.error().code;
    return finished;
  }
  if (outcome->code == ResultCode::OUTPUT_INSUFFICIENT_SIZE) {
    return fail(ResultCode::OUTPUT_INSUFFICIENT_SIZE, "an output buffer is too small; getOutputOperandDimensions tells the size needed");
  }
  return {};
}

void Execution::endRun() { state_.store(State::Completed); }

Result<void> Execution::compute(BurstRunner* burst) {
  NNRT_RETURN_IF_ERROR(acquireRun());
  if (auto begun = beginRun(); !begun) {
    releaseRun();
    return begun;
  }
  uint64_t deadline = timeoutNs_ == 0 ? 0 : driver::deadlineAfter(timeoutNs_);
  Result<void> result = run(deadline, burst);
  endRun();
  releaseRun();
  return result;
}

Result<std::shared_ptr<Event>> Execution::startCompute(std::vector<std::shared_ptr<Event>> dependencies,
                                                       uint64_t durationNs, bool withDependencies) {
  NNRT_RETURN_IF_ERROR(acquireRun());
  if (auto begun = beginRun(withDependencies); !begun) {
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
      (void)finishOutputMemories(false);
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
  if (durationCode < 0 || durationCode > 3) {
    return fail(ResultCode::BAD_DATA, "durationCode " + std::to_string(durationCode) +
                                          " is not ON_HARDWARE (0), IN_DRIVER (1), FENCED_ON_HARDWARE (2) or "
                                          "FENCED_IN_DRIVER (3)");
  }
  if (state_.load() != State::Completed || !lastResult_) {
    return fail(ResultCode::BAD_STATE, "the execution has not completed");
  }
  if (*lastResult_ != ResultCode::NO_ERROR) {
    return fail(ResultCode::BAD_STATE, "the execution did not succeed; it has no durations");
  }
  if (!measure_) return fail(ResultCode::BAD_STATE, "timing was not measured (setMeasureTiming)");
  const uint64_t values[] = {durations_.onHardware, durations_.inDriver, durations_.fencedOnHardware,
                             durations_.fencedInDriver};
  return values[durationCode];
}

}  // namespace nnrt
