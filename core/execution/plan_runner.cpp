#include "core/execution/plan_runner.hpp"

#include <atomic>
#include <algorithm>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "core/device/driver_buffer.hpp"
#include "core/execution/memory_desc.hpp"
#include "core/support/log.hpp"
#include "core/support/timer_service.hpp"

namespace nnrt {
namespace {

constexpr size_t kArenaAlignment = 64;

// Where one operand's bytes are during a run.
struct Buffer {
  uint8_t* data = nullptr;
  size_t length = 0;      // the operand's bytes
  size_t poolLength = 0;  // with the padding the application allowed (>= length)
  const DriverBuffer* driverBuffer = nullptr;  // a memory from a description, held by a driver
  std::vector<uint32_t> dims;
  bool omitted = false;
  bool userOutput = false;
  std::vector<uint8_t> own;  // a temporary whose size was only known at execution
};

// An nnrt_request whose every argument is its own pool (a host pool, or the driver's own buffer).
// It keeps its own copy of every argument's dimensions. Cleared and refilled, it reuses its arrays
// (a burst keeps one). Must not move once built.
class RequestBuilder {
 public:
  void add(bool input, const Buffer& b) {
    auto& list = input ? inputs_ : outputs_;
    nnrt_request_argument a{};
    a.has_no_value = b.omitted ? 1 : 0;
    if (!b.omitted) {
      a.location = {static_cast<uint32_t>(pools_.size()), 0, static_cast<uint32_t>(b.length)};
      if (b.driverBuffer != nullptr) {
        pools_.push_back({NNRT_POOL_BUFFER, b.driverBuffer->handle(), b.length});
      } else {
        pools_.push_back({NNRT_POOL_HOST, b.data, std::max(b.length, b.poolLength)});
      }
    }
    a.rank = static_cast<uint32_t>(b.dims.size());
    dimsAt_.push_back(dims_.size());  // the pointer is set in build(): dims_ may still grow
    dims_.insert(dims_.end(), b.dims.begin(), b.dims.end());
    list.push_back(a);
  }
  void clear() {
    inputs_.clear();
    outputs_.clear();
    pools_.clear();
    dims_.clear();
    dimsAt_.clear();
  }
  // Every input, then every output.
  void addBuffers(std::span<const Buffer> inputs, std::span<const Buffer> outputs) {
    for (const Buffer& b : inputs)
      add(true, b);
    for (const Buffer& b : outputs)
      add(false, b);
  }
  const nnrt_request& build() {
    size_t k = 0;
    for (auto* list : {&inputs_, &outputs_}) {
      for (nnrt_request_argument& a : *list) a.dimensions = dims_.data() + dimsAt_[k++];
    }
    request_ = {inputs_.data(),  static_cast<uint32_t>(inputs_.size()),
                outputs_.data(), static_cast<uint32_t>(outputs_.size()),
                pools_.data(),   static_cast<uint32_t>(pools_.size())};
    return request_;
  }

 private:
  std::vector<nnrt_request_argument> inputs_, outputs_;
  std::vector<nnrt_memory_pool> pools_;
  std::vector<uint32_t> dims_;    // every argument's dimensions, one after the other
  std::vector<size_t> dimsAt_;    // where each argument's start, inputs then outputs
  nnrt_request request_{};
};

Buffer bufferOf(const Argument& a) {
  Buffer b;
  b.data = a.data();
  b.length = a.length;
  b.poolLength = a.padded;
  b.dims = a.dimensions;
  b.omitted = a.state == Argument::State::Omitted;
  if (a.state == Argument::State::Memory && a.memory->driverBuffer() != nullptr) {
    b.driverBuffer = a.memory->driverBuffer();
    b.length = a.memory->description()->currentSize().value_or(0);
  }
  return b;
}

std::vector<Buffer> buffersOf(std::span<const Argument> arguments) {
  std::vector<Buffer> buffers;
  for (const Argument& a : arguments)
    buffers.push_back(bufferOf(a));
  return buffers;
}

// The same bytes, not owned.
Buffer borrow(const Buffer& b) {
  Buffer view;
  view.data = b.data;
  view.length = b.length;
  view.poolLength = b.poolLength;
  view.driverBuffer = b.driverBuffer;
  view.dims = b.dims;
  view.omitted = b.omitted;
  return view;
}

// Gives a buffer its own storage for `dims` (a temporary, or a loop value whose size changed).
void allocate(Buffer& b, const Operand& operand, std::vector<uint32_t> dims) {
  b.dims = std::move(dims);
  b.own.assign(operandByteSize(operand, b.dims).value_or(0), 0);
  b.data = b.own.data();
  b.length = b.own.size();
  b.omitted = false;
}

// A constant, omitted or SUBGRAPH operand of a subgraph, as a buffer pointing into the model.
Buffer constantBuffer(const FinishedModel& model, const Operand& operand) {
  Buffer b;
  b.dims = operand.dimensions;
  if (operand.lifetime == NNRT_LIFETIME_CONSTANT_COPY) {
    b.data = const_cast<uint8_t*>(model.smallValues.data()) + operand.location.offset;  // only read
    b.length = operand.location.length;
  } else if (operand.lifetime == NNRT_LIFETIME_CONSTANT_REFERENCE) {
    b.data = static_cast<uint8_t*>(model.pools[operand.location.pool_index].host) + operand.location.offset;
    b.length = operand.location.length;
  } else {
    b.omitted = true;
  }
  return b;
}

// A driver's buffer goes only to its own driver: an execution that falls back to another device
// cannot use it (the runtime does not stage device buffers through host memory).
Result<void> checkBuffersFor(const std::string& device, std::span<const Buffer* const> buffers) {
  for (const Buffer* b : buffers) {
    if (b->driverBuffer != nullptr && !b->omitted && b->driverBuffer->device().name() != device) {
      return fail(ResultCode::OP_FAILED, "a memory allocated by device '" + b->driverBuffer->device().name() +
                                             "' cannot be used on '" + device + "'");
    }
  }
  return {};
}

Result<void> checkBuffersFor(const std::string& device, std::span<const Buffer> inputs,
                             std::span<const Buffer> outputs) {
  std::vector<const Buffer*> used;
  for (auto list : {inputs, outputs}) {
    for (const Buffer& b : list) used.push_back(&b);
  }
  return checkBuffersFor(device, used);
}

uint64_t addTime(uint64_t total, uint64_t part) {
  if (total == UINT64_MAX || part == UINT64_MAX) return UINT64_MAX;
  return total + part;
}

bool deadlinePassed(uint64_t deadlineNs) {
  return driver::deadlinePassed(deadlineNs);
}

// Failures a retry elsewhere may cure (not bad input, not a deadline).
bool retryable(const Error& e) {
  return e.code != ResultCode::MISSED_DEADLINE_TRANSIENT &&
         e.code != ResultCode::MISSED_DEADLINE_PERSISTENT && e.code != ResultCode::BAD_DATA;
}

// What a one-step run produced.
RunOutcome outcomeOf(const driver::ExecutionResult& result, std::span<const Buffer> outputs,
                     const std::string& device) {
  RunOutcome outcome;
  outcome.code = result.status == driver::ErrorStatus::OUTPUT_INSUFFICIENT_SIZE
                     ? ResultCode::OUTPUT_INSUFFICIENT_SIZE
                     : ResultCode::NO_ERROR;
  for (size_t i = 0; i < outputs.size(); ++i) {
    // An empty reported shape of a tensor tells nothing new (a rank above NNRT_MAX_RANK).
    const bool reported = i < result.outputShapes.size() &&
                          !(result.outputShapes[i].dimensions.empty() && !outputs[i].dims.empty());
    outcome.outputShapes.push_back(reported ? result.outputShapes[i].dimensions : outputs[i].dims);
    outcome.outputSufficient.push_back(reported ? result.outputShapes[i].isSufficient : true);
  }
  outcome.timeOnDeviceUs = result.timing.timeOnDevice;
  outcome.timeInDriverUs = result.timing.timeInDriver;
  outcome.devicesUsed.push_back(device);
  outcome.stepTimings.push_back(result.timing);
  return outcome;
}

// A subgraph whose plan is one device step, run on `prepared` straight from the given buffers.
Result<RunOutcome> runWhole(const PreparedModel& prepared, std::span<const Buffer> inputs,
                            std::span<const Buffer> outputs, const RunOptions& options) {
  NNRT_RETURN_IF_ERROR(checkBuffersFor(prepared.deviceName(), inputs, outputs));
  RequestBuilder builder;
  builder.addBuffers(inputs, outputs);
  NNRT_ASSIGN_OR_RETURN(
      driver::ExecutionResult result,
      prepared.execute(builder.build(), options.measure, options.deadlineNs, options.loopTimeoutNs));
  return outcomeOf(result, outputs, prepared.deviceName());
}

// A one-step plan: `attempt` runs it on the step's device; a failure there goes to the fallback
// device as the policy allows.
template <class Attempt>
Result<RunOutcome> runSingleStep(const CompiledModel& compiled, std::span<const Buffer> inputs,
                                 std::span<const Buffer> outputs, const RunOptions& options, Attempt&& attempt) {
  const CompiledStep& step = compiled.steps()[0];
  Result<RunOutcome> outcome =
      step.device->available()
          ? attempt()
          : fail(ResultCode::UNAVAILABLE_DEVICE, "device '" + step.device->name() + "' is unavailable");
  // A device that runs control flow whole has no fallback: the fallback device would have to run it.
  if (!outcome && compiled.executionFallbackAllowed() && retryable(outcome.error()) &&
      step.device != compiled.fallbackDevice() && compiled.model().referenced.empty()) {
    logWarning("execution on '" + step.device->name() + "' failed (" + outcome.error().message + "); retrying on '" +
               compiled.fallbackDevice()->name() + "'");
    NNRT_ASSIGN_OR_RETURN(auto whole, compiled.fallbackPrepared(compiled.main(), compiled.steps().size()));
    return runWhole(*whole, inputs, outputs, options);
  }
  return outcome;
}

// Runs a compiled subgraph on `inputs` into `outputs` (the subgraph's inputs and outputs in order).
// `allowFallback`: failed steps may be retried on the fallback device (when the compilation allows
// it); for the main subgraph's single step the caller decides.
Result<RunOutcome> runSubgraph(const CompiledModel& compiled, const CompiledSubgraph& sub,
                               std::span<const Buffer> inputs, std::span<const Buffer> outputs,
                               const RunOptions& options, bool allowFallback);

// How often a subgraph runs again after its temporaries were given the sizes it asked for.
constexpr int kMaxResizes = 3;

// The state of one run of a subgraph's plan that is not direct(); the flow graph calls launch() for
// each step.
class SubgraphRun : public StepLauncher {
 public:
  SubgraphRun(const CompiledModel& compiled, const CompiledSubgraph& sub, std::span<const Buffer> inputs,
              std::span<const Buffer> outputs, const RunOptions& options, bool allowFallback)
      : compiled_(compiled),
        sub_(sub),
        layout_(stepLayoutOf(compiled, sub)),
        model_(compiled.model()),
        operands_(compiled.model().operandsOf(sub.subgraph)),
        options_(options),
        allowFallback_(allowFallback && compiled.executionFallbackAllowed()),
        requests_(sub.steps.size()),
        results_(sub.steps.size()),
        devices_(sub.steps.size()) {
    arena_.resize(layout_.arenaBytes);
    for (const StepLayout::Slot& slot : layout_.slots) {
      Buffer b;
      switch (slot.kind) {
        case StepLayout::SlotKind::ModelInput:
          b = borrow(inputs[slot.argument]);
          break;
        case StepLayout::SlotKind::ModelOutput:
          b = borrow(outputs[slot.argument]);
          b.userOutput = true;
          break;
        case StepLayout::SlotKind::Temporary:
          b.dims = slot.dims;
          b.data = slot.bytes > 0 ? arena_.data() + slot.arenaOffset : nullptr;
          b.length = slot.bytes;
          break;
      }
      buffers_.push_back(std::move(b));
    }
  }

  void expire() { expired_.store(true); }

  void launch(size_t step, std::function<void()> done) override {
    if (stop_.load()) return done();
    if (expired_.load() || deadlinePassed(options_.deadlineNs)) {
      setError(Error{ResultCode::MISSED_DEADLINE_TRANSIENT,
                     "the deadline passed before step " + std::to_string(step) + " could start"});
      return done();
    }
    const CompiledStep& s = sub_.steps[step];
    if (s.interpreted) {
      // Control flow runs here, on this oneTBB task: the subgraphs' plans wait for their own graphs.
      devices_[step] = "runtime";
      // Its time is the sum of the times of the subgraph runs it made (as for any multi-step plan).
      driver::Timing timing{0, 0};
      if (auto interpreted = interpret(step, timing); !interpreted) {
        setError(interpreted.error());
      } else {
        results_[step].emplace().timing = timing;
      }
      return done();
    }
    if (!s.device->available()) {
      finish(step, fail(ResultCode::UNAVAILABLE_DEVICE, "device '" + s.device->name() + "' is unavailable"));
      return done();
    }
    devices_[step] = s.device->name();
    if (auto checked = checkStepBuffers(step, s.device->name()); !checked) {
      setError(checked.error());
      return done();
    }
    const nnrt_request& request = buildRequest(step);
    s.prepared->executeAsync(request, options_.measure, options_.deadlineNs, options_.loopTimeoutNs,
                             [this, step, done = std::move(done)](Result<driver::ExecutionResult> result) {
                               finish(step, std::move(result));
                               done();
                             });
  }

  Result<RunOutcome> outcome(std::span<const Buffer> inputs, std::span<const Buffer> outputs) {
    if (wholeModelFallback_) {
      logWarning("retrying the whole model on '" + compiled_.fallbackDevice()->name() + "'");
      NNRT_ASSIGN_OR_RETURN(auto whole, compiled_.fallbackPrepared(sub_, sub_.steps.size()));
      return runWhole(*whole, inputs, outputs, options_);
    }
    if (error_) return Unexpected(*error_);
    RunOutcome outcome;
    outcome.code = insufficient_ ? ResultCode::OUTPUT_INSUFFICIENT_SIZE : ResultCode::NO_ERROR;
    outcome.outputShapes.resize(outputs.size());
    outcome.outputSufficient.assign(outputs.size(), true);
    for (size_t i = 0; i < layout_.slots.size(); ++i) {
      const StepLayout::Slot& slot = layout_.slots[i];
      if (slot.kind != StepLayout::SlotKind::ModelOutput) continue;
      outcome.outputShapes[slot.argument] = buffers_[i].dims;
      outcome.outputSufficient[slot.argument] = !tooSmall_.contains(i);
    }
    outcome.timeOnDeviceUs = outcome.timeInDriverUs = 0;
    for (size_t s = 0; s < results_.size(); ++s) {
      const auto& timing = results_[s] ? results_[s]->timing : driver::Timing{};
      outcome.timeOnDeviceUs = addTime(outcome.timeOnDeviceUs, timing.timeOnDevice);
      outcome.timeInDriverUs = addTime(outcome.timeInDriverUs, timing.timeInDriver);
      outcome.devicesUsed.push_back(devices_[s]);
      outcome.stepTimings.push_back(timing);
    }
    return outcome;
  }

 private:
  const nnrt_request& buildRequest(size_t step) {
    RequestBuilder& builder = requests_[step];
    builder.clear();
    for (size_t slot : layout_.stepInputs[step])
      builder.add(true, buffers_[slot]);
    for (size_t slot : layout_.stepOutputs[step])
      builder.add(false, buffers_[slot]);
    return builder.build();
  }

  Result<void> checkStepBuffers(size_t step, const std::string& device) const {
    std::vector<const Buffer*> used;
    for (size_t slot : layout_.stepInputs[step]) used.push_back(&buffers_[slot]);
    for (size_t slot : layout_.stepOutputs[step]) used.push_back(&buffers_[slot]);
    return checkBuffersFor(device, used);
  }

  void setError(Error e) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = std::move(e);
    stop_.store(true);
  }

  // A model output too small for `dims`: steps that read it cannot run.
  void markTooSmall(size_t slot, std::vector<uint32_t> dims) {
    std::lock_guard lock(mutex_);
    buffers_[slot].dims = std::move(dims);
    tooSmall_.emplace(slot, true);
    insufficient_ = true;
    stop_.store(true);
  }

  // Completes a step: sizes temporaries the driver measured, retries on the fallback device as the
  // policy allows, records output shapes. Runs on whatever thread the driver called back on.
  void finish(size_t step, Result<driver::ExecutionResult> result) {
    const CompiledStep& s = sub_.steps[step];
    const auto& outputs = layout_.stepOutputs[step];
    if (result && result->status == driver::ErrorStatus::OUTPUT_INSUFFICIENT_SIZE &&
        resizeTemporaries(step, *result)) {
      result = s.prepared->execute(buildRequest(step), options_.measure, options_.deadlineNs,
                                   options_.loopTimeoutNs);
    }
    if (!result && allowFallback_ && retryable(result.error())) {
      // Android's rule: retry the step on the fallback device, then the whole model there.
      const std::string& fallback = compiled_.fallbackDevice()->name();
      logWarning("step " + std::to_string(step) + " on '" + s.device->name() + "' failed (" +
                 result.error().message + "); retrying it on '" + fallback + "'");
      auto prepared = compiled_.fallbackPrepared(sub_, step);
      if (prepared && checkStepBuffers(step, fallback)) {
        result = (*prepared)->execute(buildRequest(step), options_.measure, options_.deadlineNs,
                                      options_.loopTimeoutNs);
        devices_[step] = fallback;
      }
      if ((!prepared || !result) && !wholeModelFallbackPossible()) {
        // Control flow: the whole model cannot go to one device, and a subgraph is not the whole model.
        const Error& e = prepared ? result.error() : prepared.error();
        return setError(Error{e.code, "step " + std::to_string(step) + " failed, also on '" + fallback +
                                          "': " + e.message});
      }
      if (!prepared || !result) {
        std::lock_guard lock(mutex_);
        wholeModelFallback_ = true;
        stop_.store(true);
        return;
      }
    }
    if (!result)
      return setError(
          Error{result.error().code, "step " + std::to_string(step) + ": " + result.error().message});
    for (size_t k = 0; k < outputs.size() && k < result->outputShapes.size(); ++k) {
      Buffer& b = buffers_[outputs[k]];
      // An empty shape tells nothing new (a rank above the ABI's NNRT_MAX_RANK): keep what is known.
      if (!result->outputShapes[k].isSufficient) {
        markTooSmall(outputs[k], result->outputShapes[k].dimensions);
      } else if (!result->outputShapes[k].dimensions.empty()) {
        b.dims = result->outputShapes[k].dimensions;
      }
    }
    results_[step] = std::move(*result);
  }

  // Whether a step that failed on the fallback device too may send the whole model there: only in a
  // model without control flow (the fallback device would have to run IF or WHILE itself).
  bool wholeModelFallbackPossible() const {
    return sub_.subgraph == kMainSubgraph && compiled_.model().referenced.empty();
  }

  // Gives temporaries the size the driver asked for; false when a model output is too small.
  bool resizeTemporaries(size_t step, const driver::ExecutionResult& result) {
    const auto& outputs = layout_.stepOutputs[step];
    for (size_t k = 0; k < outputs.size() && k < result.outputShapes.size(); ++k) {
      if (!result.outputShapes[k].isSufficient && buffers_[outputs[k]].userOutput) return false;
    }
    for (size_t k = 0; k < outputs.size() && k < result.outputShapes.size(); ++k) {
      if (result.outputShapes[k].isSufficient) continue;
      allocate(buffers_[outputs[k]], operands_[layout_.slots[outputs[k]].operand],
               result.outputShapes[k].dimensions);
    }
    return true;
  }

  // ---- Interpreted control flow -------------------------------------------------------------------

  static void addTiming(driver::Timing& timing, const RunOutcome& outcome) {
    timing.timeOnDevice = addTime(timing.timeOnDevice, outcome.timeOnDeviceUs);
    timing.timeInDriver = addTime(timing.timeInDriver, outcome.timeInDriverUs);
  }

  // Runs interpreted step `step`, adding the time of every subgraph run to `timing`.
  Result<void> interpret(size_t step, driver::Timing& timing) {
    const CompiledStep& s = sub_.steps[step];
    const Operation& operation = model_.operationsOf(sub_.subgraph)[s.operation];
    std::vector<Buffer> inputs;
    for (size_t i = 0; i < operation.inputs.size(); ++i) {
      const size_t slot = layout_.stepInputs[step][i];
      inputs.push_back(slot == StepLayout::kNoSlot ? constantBuffer(model_, operands_[operation.inputs[i]])
                                                   : borrow(buffers_[slot]));
    }
    if (operation.type == static_cast<int32_t>(driver::OperationType::IF)) {
      const bool condition = inputs[0].data != nullptr && inputs[0].data[0] != 0;
      const CompiledSubgraph& branch = compiled_.referenced(s.subgraphs[condition ? 0 : 1]);
      return runInto(branch, std::span<const Buffer>(inputs).subspan(3), layout_.stepOutputs[step], timing);
    }
    return runWhile(step, s, std::span<const Buffer>(inputs).subspan(2), timing);
  }

  // Runs `target` on `inputs` into the slots `outputSlots`. A temporary too small gets the size asked
  // for and the subgraph runs again; a model output too small ends this run (OUTPUT_INSUFFICIENT_SIZE).
  Result<void> runInto(const CompiledSubgraph& target, std::span<const Buffer> inputs,
                       std::span<const size_t> outputSlots, driver::Timing& timing) {
    for (int attempt = 0;; ++attempt) {
      std::vector<Buffer> outputs;
      for (size_t slot : outputSlots)
        outputs.push_back(borrow(buffers_[slot]));
      NNRT_ASSIGN_OR_RETURN(RunOutcome outcome, runSubgraph(compiled_, target, inputs, outputs, options_, true));
      addTiming(timing, outcome);
      bool resized = false;
      for (size_t k = 0; k < outputSlots.size(); ++k) {
        Buffer& b = buffers_[outputSlots[k]];
        if (outcome.outputSufficient[k]) {
          b.dims = outcome.outputShapes[k];
        } else if (b.userOutput) {
          markTooSmall(outputSlots[k], outcome.outputShapes[k]);
        } else {
          allocate(b, operands_[layout_.slots[outputSlots[k]].operand], outcome.outputShapes[k]);
          resized = true;
        }
      }
      if (insufficient_ || !resized) return {};
      if (attempt == kMaxResizes) {
        return fail(ResultCode::OP_FAILED, "a subgraph's outputs stayed too small after " +
                                               std::to_string(kMaxResizes) + " resizes");
      }
    }
  }

  // Runs `target` on `inputs` into `outputs`, whose storage it owns and resizes as the subgraph asks.
  Result<void> runOwned(const CompiledSubgraph& target, std::span<const Buffer> inputs, std::vector<Buffer>& outputs,
                        driver::Timing& timing) {
    const std::vector<Operand>& operands = model_.operandsOf(target.subgraph);
    const std::vector<uint32_t>& outputOperands = model_.outputsOf(target.subgraph);
    for (int attempt = 0;; ++attempt) {
      std::vector<Buffer> views;
      for (const Buffer& b : outputs)
        views.push_back(borrow(b));
      NNRT_ASSIGN_OR_RETURN(RunOutcome outcome, runSubgraph(compiled_, target, inputs, views, options_, true));
      addTiming(timing, outcome);
      bool resized = false;
      for (size_t k = 0; k < outputs.size(); ++k) {
        if (outcome.outputSufficient[k]) {
          outputs[k].dims = outcome.outputShapes[k];
        } else {
          allocate(outputs[k], operands[outputOperands[k]], outcome.outputShapes[k]);
          resized = true;
        }
      }
      if (!resized) return {};
      if (attempt == kMaxResizes) {
        return fail(ResultCode::OP_FAILED, "a subgraph's outputs stayed too small after " +
                                               std::to_string(kMaxResizes) + " resizes");
      }
    }
  }

  // WHILE: `operands` are the loop's data inputs: m loop-carried, k state-only, n input-only.
  Result<void> runWhile(size_t step, const CompiledStep& s, std::span<const Buffer> operands,
                        driver::Timing& timing) {
    const CompiledSubgraph& condition = compiled_.referenced(s.subgraphs[0]);
    const CompiledSubgraph& body = compiled_.referenced(s.subgraphs[1]);
    const ReferencedSubgraph& bodyModel = model_.referenced[s.subgraphs[1]];
    const size_t fedBack = bodyModel.outputs.size();  // m + k
    std::vector<Buffer> values;                       // the current inputs of condition and body
    for (const Buffer& b : operands)
      values.push_back(borrow(b));
    std::vector<Buffer> flag(1);
    allocate(flag[0], model_.operandsOf(s.subgraphs[0])[model_.outputsOf(s.subgraphs[0])[0]], {1});
    const uint64_t start = driver::monotonicNs();
    const std::string what = "WHILE (operation " + std::to_string(s.operation) + ")";
    for (uint64_t iteration = 0;; ++iteration) {
      NNRT_RETURN_IF_ERROR(runOwned(condition, values, flag, timing));
      // As Android: the loop timeout counts from the first condition, checked before each body.
      const uint64_t elapsed = driver::monotonicNs() - start;
      if (elapsed > options_.loopTimeoutNs) {
        return fail(ResultCode::MISSED_DEADLINE_TRANSIENT,
                    what + " timed out after " + std::to_string(elapsed / 1'000'000) + " ms and " +
                        std::to_string(iteration) + " iterations (loop timeout " +
                        std::to_string(options_.loopTimeoutNs / 1'000'000) + " ms)");
      }
      if (expired_.load() || deadlinePassed(options_.deadlineNs)) {
        return fail(ResultCode::MISSED_DEADLINE_TRANSIENT, "the deadline passed during " + what);
      }
      if (flag[0].data[0] == 0) break;
      std::vector<Buffer> next(fedBack);
      for (size_t i = 0; i < fedBack; ++i) {
        // Room for the declared shape when it is complete, else for the value it replaces (resized when
        // the body asks for more); the request gives the declared shape, unknown dimensions included.
        const uint32_t operand = bodyModel.outputs[i];
        const ops::Shape& declared = body.staticShapes[operand];
        const bool known = operandByteSize(bodyModel.operands[operand], declared).has_value();
        allocate(next[i], bodyModel.operands[operand], known ? declared : values[i].dims);
        next[i].dims = declared;
      }
      NNRT_RETURN_IF_ERROR(runOwned(body, values, next, timing));
      for (size_t i = 0; i < fedBack; ++i)
        values[i] = std::move(next[i]);  // the storage moves with it: data stays valid
    }
    // The outputs are the final loop-carried values.
    const auto& outputSlots = layout_.stepOutputs[step];
    for (size_t i = 0; i < outputSlots.size(); ++i) {
      Buffer& out = buffers_[outputSlots[i]];
      const Buffer& value = values[i];
      if (out.userOutput && out.length < value.length) {
        markTooSmall(outputSlots[i], value.dims);
        continue;
      }
      if (!out.userOutput && out.length != value.length) {
        allocate(out, operands_[layout_.slots[outputSlots[i]].operand], value.dims);
      }
      out.dims = value.dims;
      if (value.length > 0) std::memcpy(out.data, value.data, value.length);
    }
    return {};
  }

  const CompiledModel& compiled_;
  const CompiledSubgraph& sub_;
  const StepLayout& layout_;
  const FinishedModel& model_;
  const std::vector<Operand>& operands_;  // the subgraph's
  RunOptions options_;
  bool allowFallback_;
  std::vector<uint8_t> arena_;
  std::vector<Buffer> buffers_;                                  // per slot
  std::vector<RequestBuilder> requests_;                         // per step; must outlive the driver's call
  std::vector<std::optional<driver::ExecutionResult>> results_;  // per step
  std::vector<std::string> devices_;                             // per step
  std::atomic<bool> stop_{false};
  std::atomic<bool> expired_{false};
  std::mutex mutex_;
  std::optional<Error> error_;
  bool wholeModelFallback_ = false;
  bool insufficient_ = false;
  std::unordered_map<size_t, bool> tooSmall_;  // slot ids of model outputs that were too small
};

Result<RunOutcome> runSubgraph(const CompiledModel& compiled, const CompiledSubgraph& sub,
                               std::span<const Buffer> inputs, std::span<const Buffer> outputs,
                               const RunOptions& options, bool allowFallback) {
  if (sub.direct()) {
    const CompiledStep& step = sub.steps[0];
    Result<RunOutcome> outcome =
        step.device->available()
            ? runWhole(*step.prepared, inputs, outputs, options)
            : fail(ResultCode::UNAVAILABLE_DEVICE, "device '" + step.device->name() + "' is unavailable");
    // A referenced subgraph's single step is retried on the fallback device like any other step.
    if (!outcome && allowFallback && sub.subgraph != kMainSubgraph && compiled.executionFallbackAllowed() &&
        retryable(outcome.error()) && step.device != compiled.fallbackDevice()) {
      logWarning("subgraph " + std::to_string(sub.subgraph) + " on '" + step.device->name() + "' failed (" +
                 outcome.error().message + "); retrying it on '" + compiled.fallbackDevice()->name() + "'");
      NNRT_ASSIGN_OR_RETURN(auto prepared, compiled.fallbackPrepared(sub, 0));
      return runWhole(*prepared, inputs, outputs, options);
    }
    return outcome;
  }
  const StepLayout& layout = stepLayoutOf(compiled, sub);
  SubgraphRun run(compiled, sub, inputs, outputs, options, allowFallback);
  {
    // Steps that have not started when the deadline passes are not started.
    std::unique_ptr<TimerHandle> timer;
    if (options.deadlineNs != 0)
      timer = TimerService::instance().at(options.deadlineNs, [&run] { run.expire(); });
    std::unique_ptr<StepGraph> graph = layout.graphs.acquire();
    graph->run(run);
    layout.graphs.release(std::move(graph));
  }
  return run.outcome(inputs, outputs);
}

// Lays out the slots and arena of a compiled subgraph that is not direct().
std::shared_ptr<const StepLayout> makeStepLayout(const CompiledModel& compiled, const CompiledSubgraph& sub) {
  const auto& steps = sub.steps;
  std::vector<std::vector<size_t>> dependsOn;
  for (const CompiledStep& s : steps)
    dependsOn.push_back(s.dependsOn);
  auto layout = std::make_shared<StepLayout>(std::move(dependsOn));
  const FinishedModel& model = compiled.model();
  const std::vector<Operand>& operands = model.operandsOf(sub.subgraph);
  const std::vector<uint32_t>& inputs = model.inputsOf(sub.subgraph);
  const std::vector<uint32_t>& outputs = model.outputsOf(sub.subgraph);
  std::unordered_map<uint32_t, size_t> slotOf;
  auto slotFor = [&](uint32_t operand) {
    auto [it, inserted] = slotOf.emplace(operand, layout->slots.size());
    if (inserted) {
      StepLayout::Slot slot;
      slot.operand = operand;
      slot.dims = sub.staticShapes[operand];
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i] == operand) slot = {operand, StepLayout::SlotKind::ModelInput, i, 0, 0, {}};
      }
      for (size_t i = 0; i < outputs.size(); ++i) {
        if (outputs[i] == operand) slot = {operand, StepLayout::SlotKind::ModelOutput, i, 0, 0, {}};
      }
      if (slot.kind == StepLayout::SlotKind::Temporary) {
        slot.bytes = operandByteSize(operands[operand], slot.dims).value_or(0);
        if (slot.bytes > 0) {
          slot.arenaOffset = layout->arenaBytes;
          layout->arenaBytes += (slot.bytes + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment;
        }
      }
      layout->slots.push_back(std::move(slot));
    }
    return it->second;
  };
  for (const CompiledStep& s : steps) {
    std::vector<size_t> in, out;
    if (s.interpreted) {
      // Every operand of the operation, in its order; values fixed in the model have no slot.
      const Operation& operation = model.operationsOf(sub.subgraph)[s.operation];
      for (uint32_t operand : operation.inputs) {
        const int32_t lifetime = operands[operand].lifetime;
        const bool inModel = lifetime == NNRT_LIFETIME_CONSTANT_COPY || lifetime == NNRT_LIFETIME_CONSTANT_REFERENCE ||
                             lifetime == NNRT_LIFETIME_NO_VALUE || lifetime == NNRT_LIFETIME_SUBGRAPH;
        in.push_back(inModel ? StepLayout::kNoSlot : slotFor(operand));
      }
      for (uint32_t operand : operation.outputs)
        out.push_back(slotFor(operand));
    } else {
      for (uint32_t operand : s.inputs)
        in.push_back(slotFor(operand));
      for (uint32_t operand : s.outputs)
        out.push_back(slotFor(operand));
    }
    layout->stepInputs.push_back(std::move(in));
    layout->stepOutputs.push_back(std::move(out));
  }
  return layout;
}

}  // namespace

const StepLayout& stepLayoutOf(const CompiledModel& compiled, const CompiledSubgraph& sub) {
  CompiledSubgraph::LazyLayout& lazy = *sub.layout;
  std::call_once(lazy.once, [&] { lazy.layout = makeStepLayout(compiled, sub); });
  return *lazy.layout;
}

bool canRunFenced(const CompiledModel& compiled, std::span<const Argument> outputs) {
  if (!compiled.main().direct()) return false;
  const CompiledStep& step = compiled.steps()[0];
  if (!step.prepared->offersFencedExecution() || !step.device->available()) return false;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!operandByteSize(compiled.model().operands[compiled.model().outputs[i]], outputs[i].dimensions))
      return false;
  }
  return true;
}

Result<RunOutcome> runCompiledModelFenced(const CompiledModel& compiled, std::span<const Argument> inputs,
                                          std::span<const Argument> outputs, const RunOptions& options,
                                          std::span<const int> waitFds, uint64_t durationNs) {
  const PreparedModel& prepared = *compiled.steps()[0].prepared;
  const std::vector<Buffer> in = buffersOf(inputs);
  const std::vector<Buffer> out = buffersOf(outputs);
  NNRT_RETURN_IF_ERROR(checkBuffersFor(prepared.deviceName(), in, out));
  RequestBuilder builder;
  builder.addBuffers(in, out);
  NNRT_ASSIGN_OR_RETURN(auto fenced,
                        prepared.executeFenced(builder.build(), waitFds, options.measure, options.deadlineNs,
                                               options.loopTimeoutNs, durationNs));
  RunOutcome outcome;
  for (const Argument& a : outputs) {
    outcome.outputShapes.push_back(a.dimensions);
    outcome.outputSufficient.push_back(true);
  }
  outcome.timeOnDeviceUs = fenced.launched.timeOnDevice;
  outcome.timeInDriverUs = fenced.launched.timeInDriver;
  outcome.fencedTimeOnDeviceUs = fenced.fenced.timeOnDevice;
  outcome.fencedTimeInDriverUs = fenced.fenced.timeInDriver;
  outcome.devicesUsed.push_back(prepared.deviceName());
  outcome.stepTimings.push_back(fenced.launched);
  return outcome;
}

Result<RunOutcome> runCompiledModel(const CompiledModel& compiled, std::span<const Argument> inputs,
                                    std::span<const Argument> outputs, const RunOptions& options) {
  if (deadlinePassed(options.deadlineNs)) {
    return fail(ResultCode::MISSED_DEADLINE_TRANSIENT,
                "the deadline passed before the execution could start");
  }
  const std::vector<Buffer> in = buffersOf(inputs);
  const std::vector<Buffer> out = buffersOf(outputs);
  if (compiled.main().direct()) {
    // One step: no graph, no copies.
    return runSingleStep(compiled, in, out, options,
                         [&] { return runSubgraph(compiled, compiled.main(), in, out, options, false); });
  }
  return runSubgraph(compiled, compiled.main(), in, out, options, true);
}

struct BurstRunner::State {
  std::shared_ptr<const CompiledModel> compiled;
  bool configured = false;
  std::unique_ptr<DriverBurst> driverBurst;  // null: the driver offers none, or it failed
  RequestBuilder request;                    // reused: its arrays keep their capacity
};

BurstRunner::BurstRunner(std::shared_ptr<const CompiledModel> compiled) : state_(std::make_unique<State>()) {
  state_->compiled = std::move(compiled);
}

BurstRunner::~BurstRunner() = default;

const CompiledModel& BurstRunner::compiled() const { return *state_->compiled; }

Result<RunOutcome> BurstRunner::run(std::span<const Argument> inputs, std::span<const Argument> outputs,
                                    const RunOptions& options) {
  const CompiledModel& compiled = *state_->compiled;
  if (!compiled.main().direct() || deadlinePassed(options.deadlineNs)) {
    return runCompiledModel(compiled, inputs, outputs, options);
  }
  const CompiledStep& step = compiled.steps()[0];
  const std::vector<Buffer> in = buffersOf(inputs);
  const std::vector<Buffer> out = buffersOf(outputs);
  return runSingleStep(compiled, in, out, options, [&]() -> Result<RunOutcome> {
    NNRT_RETURN_IF_ERROR(checkBuffersFor(step.prepared->deviceName(), in, out));
    if (!state_->configured) {
      state_->configured = true;
      auto configured = DriverBurst::configure(step.prepared);
      if (configured) {
        state_->driverBurst = std::move(*configured);
      } else {
        logWarning("burst: " + configured.error().message + "; its computations run as plain ones");
      }
    }
    state_->request.clear();
    state_->request.addBuffers(in, out);
    const nnrt_request& request = state_->request.build();
    NNRT_ASSIGN_OR_RETURN(driver::ExecutionResult result,
                          state_->driverBurst
                              ? state_->driverBurst->execute(request, options.measure, options.deadlineNs,
                                                             options.loopTimeoutNs)
                              : step.prepared->execute(request, options.measure, options.deadlineNs,
                                                       options.loopTimeoutNs));
    return outcomeOf(result, out, step.prepared->deviceName());
  });
}

}  // namespace nnrt
