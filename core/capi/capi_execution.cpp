// The C API of executions, events and bursts.
#include <android/NeuralNetworks.h>

#include <optional>
#include <vector>

#include "core/capi/handles.hpp"

using nnrt::Error;
using nnrt::ResultCode;
using nnrt::capi::guarded;
using nnrt::capi::notForOneDevice;
using nnrt::capi::report;
using nnrt::capi::unexpectedNull;

namespace {

// setInput/setOutput's optional type, as nnrt's execution takes it.
std::optional<nnrt::ArgumentType> argumentType(const ANeuralNetworksOperandType* type) {
  if (type == nullptr) return std::nullopt;
  return nnrt::ArgumentType{type->type, type->dimensions, type->dimensionCount, type->scale, type->zeroPoint};
}

// The pointer lives as long as `type`: within the full expression of the call it is passed to.
const nnrt::ArgumentType* orNull(const std::optional<nnrt::ArgumentType>& type) { return type ? &*type : nullptr; }

// startCompute and startComputeWithDependencies (which, unlike startCompute, needs every output's
// dimensions known).
int startCompute(const char* kFn, ANeuralNetworksExecution* execution, const ANeuralNetworksEvent* const* dependencies,
                 uint32_t num_dependencies, uint64_t duration, ANeuralNetworksEvent** event, bool withDependencies) {
  if (event == nullptr) return unexpectedNull(kFn, "event");
  *event = nullptr;
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  if (num_dependencies > 0 && dependencies == nullptr) return unexpectedNull(kFn, "dependencies");
  return guarded(kFn, [&]() -> int {
    if (duration != 0 && !execution->oneExplicitDevice) {
      if (auto ready = execution->execution.checkPreparation(); !ready) return report(kFn, ready.error());
      return report(kFn, Error{ResultCode::BAD_DATA, std::string("duration ") + std::to_string(duration) +
                                                         " needs a compilation made by "
                                                         "ANeuralNetworksCompilation_createForDevices with one device"});
    }
    std::vector<std::shared_ptr<nnrt::Event>> deps;
    for (uint32_t i = 0; i < num_dependencies; ++i) {
      if (dependencies[i] == nullptr) return unexpectedNull(kFn, ("dependencies[" + std::to_string(i) + "]").c_str());
      deps.push_back(dependencies[i]->event);
    }
    auto started = execution->execution.startCompute(std::move(deps), duration, withDependencies);
    if (!started) return report(kFn, started.error());
    *event = new ANeuralNetworksEvent{std::move(*started)};
    return ANEURALNETWORKS_NO_ERROR;
  });
}

}  // namespace

extern "C" {

int ANeuralNetworksExecution_create(ANeuralNetworksCompilation* compilation, ANeuralNetworksExecution** execution) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_create";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  *execution = nullptr;
  if (compilation == nullptr) return unexpectedNull(kFn, "compilation");
  return guarded(kFn, [&]() -> int {
    auto compiled = compilation->compilation.compiled();
    if (!compiled) return report(kFn, Error{ResultCode::BAD_STATE, "the compilation is not finished"});
    *execution = new ANeuralNetworksExecution{nnrt::Execution(std::move(compiled)),
                                              compilation->compilation.forOneExplicitDevice()};
    return ANEURALNETWORKS_NO_ERROR;
  });
}

// Waits for a running computation (the destructor does), then frees.
void ANeuralNetworksExecution_free(ANeuralNetworksExecution* execution) { delete execution; }

int ANeuralNetworksExecution_setInput(ANeuralNetworksExecution* execution, int32_t index,
                                      const ANeuralNetworksOperandType* type, const void* buffer, size_t length) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_setInput";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  if (buffer == nullptr && length != 0) return unexpectedNull(kFn, "buffer (with a non-zero length)");
  return guarded(kFn, [&]() -> int {
    return report(kFn, execution->execution.setInput(index, orNull(argumentType(type)), buffer, length));
  });
}

int ANeuralNetworksExecution_setInputFromMemory(ANeuralNetworksExecution* execution, int32_t index,
                                                const ANeuralNetworksOperandType* type,
                                                const ANeuralNetworksMemory* memory, size_t offset, size_t length) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_setInputFromMemory";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  if (memory == nullptr) return unexpectedNull(kFn, "memory");
  return guarded(kFn, [&]() -> int {
    return report(kFn, execution->execution.setInputFromMemory(index, orNull(argumentType(type)), memory->memory,
                                                               offset, length));
  });
}

int ANeuralNetworksExecution_setOutput(ANeuralNetworksExecution* execution, int32_t index,
                                       const ANeuralNetworksOperandType* type, void* buffer, size_t length) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_setOutput";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  if (buffer == nullptr && length != 0) return unexpectedNull(kFn, "buffer (with a non-zero length)");
  return guarded(kFn, [&]() -> int {
    return report(kFn, execution->execution.setOutput(index, orNull(argumentType(type)), buffer, length));
  });
}

int ANeuralNetworksExecution_setOutputFromMemory(ANeuralNetworksExecution* execution, int32_t index,
                                                 const ANeuralNetworksOperandType* type,
                                                 const ANeuralNetworksMemory* memory, size_t offset, size_t length) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_setOutputFromMemory";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  if (memory == nullptr) return unexpectedNull(kFn, "memory");
  return guarded(kFn, [&]() -> int {
    return report(kFn, execution->execution.setOutputFromMemory(index, orNull(argumentType(type)), memory->memory,
                                                                offset, length));
  });
}

int ANeuralNetworksExecution_compute(ANeuralNetworksExecution* execution) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_compute";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  return guarded(kFn, [&]() -> int { return report(kFn, execution->execution.compute()); });
}

int ANeuralNetworksExecution_startCompute(ANeuralNetworksExecution* execution, ANeuralNetworksEvent** event) {
  return startCompute("ANeuralNetworksExecution_startCompute", execution, nullptr, 0, 0, event, false);
}

int ANeuralNetworksExecution_startComputeWithDependencies(ANeuralNetworksExecution* execution,
                                                          const ANeuralNetworksEvent* const* dependencies,
                                                          uint32_t num_dependencies, uint64_t duration,
                                                          ANeuralNetworksEvent** event) {
  return startCompute("ANeuralNetworksExecution_startComputeWithDependencies", execution, dependencies,
                      num_dependencies, duration, event, true);
}

int ANeuralNetworksExecution_getOutputOperandRank(ANeuralNetworksExecution* execution, int32_t index,
                                                  uint32_t* rank) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_getOutputOperandRank";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  if (rank == nullptr) return unexpectedNull(kFn, "rank");
  return guarded(kFn, [&]() -> int {
    auto shape = execution->execution.getOutputShape(index);
    if (!shape) return report(kFn, shape.error());
    *rank = static_cast<uint32_t>(shape->dimensions.size());
    if (!shape->sufficient) {
      return report(kFn, Error{ResultCode::OUTPUT_INSUFFICIENT_SIZE, "output " + std::to_string(index) + " was too small"});
    }
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksExecution_getOutputOperandDimensions(ANeuralNetworksExecution* execution, int32_t index,
                                                        uint32_t* dimensions) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_getOutputOperandDimensions";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  if (dimensions == nullptr) return unexpectedNull(kFn, "dimensions");
  return guarded(kFn, [&]() -> int {
    auto shape = execution->execution.getOutputShape(index);
    if (!shape) return report(kFn, shape.error());
    if (shape->dimensions.empty()) {
      return report(kFn, Error{ResultCode::BAD_DATA, "output " + std::to_string(index) + " is a scalar (rank 0)"});
    }
    std::copy(shape->dimensions.begin(), shape->dimensions.end(), dimensions);
    if (!shape->sufficient) {
      return report(kFn, Error{ResultCode::OUTPUT_INSUFFICIENT_SIZE, "output " + std::to_string(index) + " was too small"});
    }
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksExecution_setMeasureTiming(ANeuralNetworksExecution* execution, bool measure) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_setMeasureTiming";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  if (!execution->oneExplicitDevice) return notForOneDevice(kFn, "an execution");
  return guarded(kFn, [&]() -> int { return report(kFn, execution->execution.setMeasureTiming(measure)); });
}

int ANeuralNetworksExecution_getDuration(const ANeuralNetworksExecution* execution, int32_t durationCode,
                                         uint64_t* duration) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_getDuration";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  if (duration == nullptr) return unexpectedNull(kFn, "duration");
  return guarded(kFn, [&]() -> int {
    auto d = execution->execution.getDuration(durationCode);
    if (!d) {
      if (d.error().code == ResultCode::BAD_STATE) *duration = UINT64_MAX;  // as Android
      return report(kFn, d.error());
    }
    *duration = *d;
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksExecution_setTimeout(ANeuralNetworksExecution* execution, uint64_t duration) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_setTimeout";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  if (!execution->oneExplicitDevice) return notForOneDevice(kFn, "an execution");
  return guarded(kFn, [&]() -> int { return report(kFn, execution->execution.setTimeout(duration)); });
}

int ANeuralNetworksExecution_setLoopTimeout(ANeuralNetworksExecution* execution, uint64_t duration) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_setLoopTimeout";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  return guarded(kFn, [&]() -> int { return report(kFn, execution->execution.setLoopTimeout(duration)); });
}

int ANeuralNetworksExecution_setReusable(ANeuralNetworksExecution* execution, bool reusable) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_setReusable";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  return guarded(kFn, [&]() -> int { return report(kFn, execution->execution.setReusable(reusable)); });
}

int ANeuralNetworksExecution_enableInputAndOutputPadding(ANeuralNetworksExecution* execution, bool enable) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_enableInputAndOutputPadding";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  return guarded(kFn, [&]() -> int { return report(kFn, execution->execution.enableInputAndOutputPadding(enable)); });
}

int ANeuralNetworksBurst_create(ANeuralNetworksCompilation* compilation, ANeuralNetworksBurst** burst) {
  static constexpr const char* kFn = "ANeuralNetworksBurst_create";
  if (burst == nullptr) return unexpectedNull(kFn, "burst");
  *burst = nullptr;
  if (compilation == nullptr) return unexpectedNull(kFn, "compilation");
  return guarded(kFn, [&]() -> int {
    auto compiled = compilation->compilation.compiled();
    if (!compiled) return report(kFn, Error{ResultCode::BAD_STATE, "the compilation is not finished"});
    *burst = new ANeuralNetworksBurst(std::move(compiled));
    return ANEURALNETWORKS_NO_ERROR;
  });
}

void ANeuralNetworksBurst_free(ANeuralNetworksBurst* burst) { delete burst; }

// A synchronous computation through the burst's resources (its request view and the driver's burst).
int ANeuralNetworksExecution_burstCompute(ANeuralNetworksExecution* execution, ANeuralNetworksBurst* burst) {
  static constexpr const char* kFn = "ANeuralNetworksExecution_burstCompute";
  if (execution == nullptr) return unexpectedNull(kFn, "execution");
  if (burst == nullptr) return unexpectedNull(kFn, "burst");
  return guarded(kFn, [&]() -> int {
    if (&execution->execution.compiled() != &burst->runner.compiled()) {
      return report(kFn, Error{ResultCode::BAD_DATA, "the burst and the execution come from different compilations"});
    }
    // As Android: a burst serves one computation at a time.
    if (burst->busy.exchange(true)) {
      return report(kFn, Error{ResultCode::BAD_STATE, "the burst is in use by another burstCompute"});
    }
    struct Release {
      std::atomic<bool>& busy;
      ~Release() { busy.store(false); }
    } release{burst->busy};
    return report(kFn, execution->execution.compute(&burst->runner));
  });
}

int ANeuralNetworksEvent_wait(ANeuralNetworksEvent* event) {
  static constexpr const char* kFn = "ANeuralNetworksEvent_wait";
  if (event == nullptr) return unexpectedNull(kFn, "event");
  return guarded(kFn, [&]() -> int { return report(kFn, event->event->wait()); });
}

void ANeuralNetworksEvent_free(ANeuralNetworksEvent* event) { delete event; }

int ANeuralNetworksEvent_createFromSyncFenceFd(int sync_fence_fd, ANeuralNetworksEvent** event) {
  static constexpr const char* kFn = "ANeuralNetworksEvent_createFromSyncFenceFd";
  if (event == nullptr) return unexpectedNull(kFn, "event");
  *event = nullptr;
  if (sync_fence_fd <= 0) {
    return report(kFn, Error{ResultCode::BAD_DATA, "sync_fence_fd " + std::to_string(sync_fence_fd) +
                                                       " is not a valid descriptor (must be > 0)"});
  }
  return guarded(kFn, [&]() -> int {
    auto created = nnrt::Event::fromFd(sync_fence_fd);
    if (!created) return report(kFn, created.error());
    *event = new ANeuralNetworksEvent{std::move(*created)};
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksEvent_getSyncFenceFd(const ANeuralNetworksEvent* event, int* sync_fence_fd) {
  static constexpr const char* kFn = "ANeuralNetworksEvent_getSyncFenceFd";
  if (sync_fence_fd == nullptr) return unexpectedNull(kFn, "sync_fence_fd");
  *sync_fence_fd = -1;
  if (event == nullptr) return unexpectedNull(kFn, "event");
  return guarded(kFn, [&]() -> int {
    auto fd = event->event->syncFenceFd();
    if (!fd) return report(kFn, fd.error());
    *sync_fence_fd = *fd;
    return ANEURALNETWORKS_NO_ERROR;
  });
}

}  // extern "C"
