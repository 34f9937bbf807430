#include "core/execution/plan_runner.hpp"

#include <unordered_map>

#include "core/support/log.hpp"

namespace nnrt {
namespace {

// One tensor a step reads or writes: where its bytes are and its shape.
struct Slot {
  uint8_t* data = nullptr;
  size_t length = 0;
  std::vector<uint32_t> dims;
  bool omitted = false;
  bool userOutput = false;       // a model output: the application's buffer
  std::vector<uint8_t> storage;  // a temporary's bytes
};

// Builds an nnrt_request whose every argument is its own host pool.
class RequestBuilder {
 public:
  void add(bool input, const Slot& slot) {
    auto& list = input ? inputs_ : outputs_;
    nnrt_request_argument a{};
    a.has_no_value = slot.omitted ? 1 : 0;
    if (!slot.omitted) {
      a.location = {static_cast<uint32_t>(pools_.size()), 0, static_cast<uint32_t>(slot.length)};
      pools_.push_back({NNRT_POOL_HOST, slot.data, slot.length});
    }
    a.rank = static_cast<uint32_t>(slot.dims.size());
    a.dimensions = slot.dims.data();
    list.push_back(a);
  }
  nnrt_request build() const {
    return {inputs_.data(),  static_cast<uint32_t>(inputs_.size()), outputs_.data(),
            static_cast<uint32_t>(outputs_.size()), pools_.data(), static_cast<uint32_t>(pools_.size())};
  }

 private:
  std::vector<nnrt_request_argument> inputs_, outputs_;
  std::vector<nnrt_memory_pool> pools_;
};

Slot slotOf(const Argument& a) {
  Slot s;
  s.data = a.data();
  s.length = a.length;
  s.dims = a.dimensions;
  s.omitted = a.state == Argument::State::Omitted;
  return s;
}

uint64_t addTime(uint64_t total, uint64_t part) {
  if (total == UINT64_MAX || part == UINT64_MAX) return UINT64_MAX;
  return total + part;
}

bool deadlinePassed(uint64_t deadlineNs) { return deadlineNs != 0 && monotonicNowNs() >= deadlineNs; }

Result<driver::ExecutionResult> executeStep(const PreparedModel& prepared, const std::vector<const Slot*>& in,
                                            const std::vector<const Slot*>& out, const RunOptions& options) {
  RequestBuilder builder;
  for (const Slot* s : in) builder.add(true, *s);
  for (const Slot* s : out) builder.add(false, *s);
  nnrt_request request = builder.build();
  return prepared.execute(request, options.measure, options.deadlineNs, options.loopTimeoutNs);
}

// Runs the whole model as one step: on `prepared`, straight from the application's buffers.
Result<RunOutcome> runWhole(const PreparedModel& prepared, std::span<const Argument> inputs,
                            std::span<const Argument> outputs, const RunOptions& options) {
  std::vector<Slot> in, out;
  for (const Argument& a : inputs) in.push_back(slotOf(a));
  for (const Argument& a : outputs) out.push_back(slotOf(a));
  std::vector<const Slot*> inPtr, outPtr;
  for (const Slot& s : in) inPtr.push_back(&s);
  for (const Slot& s : out) outPtr.push_back(&s);
  NNRT_ASSIGN_OR_RETURN(driver::ExecutionResult result, executeStep(prepared, inPtr, outPtr, options));
  RunOutcome outcome;
  outcome.code = result.status == driver::ErrorStatus::OUTPUT_INSUFFICIENT_SIZE ? ResultCode::OUTPUT_INSUFFICIENT_SIZE
                                                                                 : ResultCode::NO_ERROR;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (i < result.outputShapes.size()) {
      outcome.outputShapes.push_back(result.outputShapes[i].dimensions);
      outcome.outputSufficient.push_back(result.outputShapes[i].isSufficient);
    } else {
      outcome.outputShapes.push_back(outputs[i].dimensions);
      outcome.outputSufficient.push_back(true);
    }
  }
  outcome.timeOnDeviceUs = result.timing.timeOnDevice;
  outcome.timeInDriverUs = result.timing.timeInDriver;
  outcome.devicesUsed.push_back(prepared.deviceName());
  return outcome;
}

bool retryable(const Error& e) {
  return e.code != ResultCode::MISSED_DEADLINE_TRANSIENT && e.code != ResultCode::MISSED_DEADLINE_PERSISTENT &&
         e.code != ResultCode::BAD_DATA;
}

Result<RunOutcome> runSteps(const CompiledModel& compiled, std::span<const Argument> inputs,
                            std::span<const Argument> outputs, const RunOptions& options) {
  const FinishedModel& model = compiled.model();
  std::unordered_map<uint32_t, Slot> slots;
  for (size_t i = 0; i < model.inputs.size(); ++i) slots.emplace(model.inputs[i], slotOf(inputs[i]));
  std::unordered_map<uint32_t, size_t> outputIndex;
  for (size_t i = 0; i < model.outputs.size(); ++i) {
    Slot s = slotOf(outputs[i]);
    s.userOutput = true;
    slots.emplace(model.outputs[i], std::move(s));
    outputIndex.emplace(model.outputs[i], i);
  }
  RunOutcome outcome;
  outcome.timeOnDeviceUs = outcome.timeInDriverUs = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    outcome.outputShapes.push_back(outputs[i].dimensions);
    outcome.outputSufficient.push_back(true);
  }
  const auto& steps = compiled.steps();
  for (size_t index = 0; index < steps.size(); ++index) {
    const CompiledStep& step = steps[index];
    if (deadlinePassed(options.deadlineNs)) {
      return fail(ResultCode::MISSED_DEADLINE_TRANSIENT,
                  "the deadline passed before step " + std::to_string(index) + " could start");
    }
    std::vector<const Slot*> in, out;
    for (uint32_t operand : step.inputs) in.push_back(&slots.at(operand));
    for (uint32_t operand : step.outputs) {
      auto [it, inserted] = slots.try_emplace(operand);
      Slot& s = it->second;
      if (inserted) {  // a temporary: sized from its static shape when known
        s.dims = compiled.staticShapes()[operand];
        auto bytes = operandByteSize(model.operands[operand], s.dims);
        s.storage.resize(bytes.value_or(0));
        s.data = s.storage.data();
        s.length = s.storage.size();
      }
      out.push_back(&s);
    }
    std::string device = step.device->name();
    auto result = executeStep(*step.prepared, in, out, options);
    // A temporary of unknown size: the driver said how big it must be; size it and run again.
    if (result && result->status == driver::ErrorStatus::OUTPUT_INSUFFICIENT_SIZE) {
      bool onlyTemporaries = true;
      for (size_t k = 0; k < step.outputs.size(); ++k) {
        Slot& s = slots.at(step.outputs[k]);
        const auto& shape = result->outputShapes[k];
        if (shape.isSufficient) continue;
        if (s.userOutput) {
          onlyTemporaries = false;
          continue;
        }
        s.dims = shape.dimensions;
        s.storage.resize(operandByteSize(model.operands[step.outputs[k]], s.dims).value_or(0));
        s.data = s.storage.data();
        s.length = s.storage.size();
      }
      if (onlyTemporaries) result = executeStep(*step.prepared, in, out, options);
    }
    if (!result && compiled.executionFallbackAllowed() && retryable(result.error())) {
      // Android's rule: retry the step on the fallback device, then the whole model there.
      logWarning("step " + std::to_string(index) + " on '" + device + "' failed (" + result.error().message +
                 "); retrying it on '" + compiled.fallbackDevice()->name() + "'");
      auto fallback = compiled.fallbackPrepared(index);
      if (fallback) {
        result = executeStep(**fallback, in, out, options);
        device = compiled.fallbackDevice()->name();
      }
      if (!result || !fallback) {
        logWarning("retrying the whole model on '" + compiled.fallbackDevice()->name() + "'");
        NNRT_ASSIGN_OR_RETURN(auto whole, compiled.fallbackPrepared(steps.size()));
        return runWhole(*whole, inputs, outputs, options);
      }
    }
    if (!result) {
      return fail(result.error().code, "step " + std::to_string(index) + ": " + result.error().message);
    }
    outcome.devicesUsed.push_back(device);
    outcome.timeOnDeviceUs = addTime(outcome.timeOnDeviceUs, result->timing.timeOnDevice);
    outcome.timeInDriverUs = addTime(outcome.timeInDriverUs, result->timing.timeInDriver);
    bool insufficient = false;
    for (size_t k = 0; k < step.outputs.size() && k < result->outputShapes.size(); ++k) {
      Slot& s = slots.at(step.outputs[k]);
      s.dims = result->outputShapes[k].dimensions;
      if (auto it = outputIndex.find(step.outputs[k]); it != outputIndex.end()) {
        outcome.outputShapes[it->second] = s.dims;
        outcome.outputSufficient[it->second] = result->outputShapes[k].isSufficient;
        insufficient = insufficient || !result->outputShapes[k].isSufficient;
      }
    }
    if (insufficient) {
      // A model output is too small; later steps may read it, so stop here.
      outcome.code = ResultCode::OUTPUT_INSUFFICIENT_SIZE;
      return outcome;
    }
  }
  if (!options.measure) outcome.timeOnDeviceUs = outcome.timeInDriverUs = UINT64_MAX;
  return outcome;
}

}  // namespace

Result<RunOutcome> runCompiledModel(const CompiledModel& compiled, std::span<const Argument> inputs,
                                    std::span<const Argument> outputs, const RunOptions& options) {
  const auto& steps = compiled.steps();
  if (steps.size() != 1) return runSteps(compiled, inputs, outputs, options);
  if (deadlinePassed(options.deadlineNs)) {
    return fail(ResultCode::MISSED_DEADLINE_TRANSIENT, "the deadline passed before the execution could start");
  }
  auto outcome = runWhole(*steps[0].prepared, inputs, outputs, options);
  if (!outcome && compiled.executionFallbackAllowed() && retryable(outcome.error()) &&
      steps[0].device != compiled.fallbackDevice()) {
    logWarning("execution on '" + steps[0].device->name() + "' failed (" + outcome.error().message +
               "); retrying on '" + compiled.fallbackDevice()->name() + "'");
    NNRT_ASSIGN_OR_RETURN(auto whole, compiled.fallbackPrepared(steps.size()));
    return runWhole(*whole, inputs, outputs, options);
  }
  return outcome;
}

}  // namespace nnrt
