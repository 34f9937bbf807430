// ANeuralNetworksExecution: the arguments of one run of a compiled model, the run itself (one
// step: straight to the driver; several steps: through the step runner), and its results.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "core/compilation/compilation.hpp"
#include "core/execution/memory.hpp"
#include "core/support/status.hpp"

namespace nnrt {

class Event;
struct RunOutcome;

// Where one input or output of an execution lives.
struct Argument {
  enum class State { Unset, Pointer, Memory, Omitted };
  State state = State::Unset;
  void* pointer = nullptr;         // Pointer
  std::shared_ptr<Memory> memory;  // Memory
  size_t offset = 0;
  size_t length = 0;
  std::vector<uint32_t> dimensions;  // the operand's, with unknown ones filled by setInput/setOutput's type

  uint8_t* data() const { return state == State::Memory ? memory->data() + offset : static_cast<uint8_t*>(pointer); }
};

// Durations of a finished execution in nanoseconds, UINT64_MAX when not available.
struct Durations {
  uint64_t onHardware = UINT64_MAX;
  uint64_t inDriver = UINT64_MAX;
  uint64_t fencedOnHardware = UINT64_MAX;
  uint64_t fencedInDriver = UINT64_MAX;
};

struct OutputShapeInfo {
  std::vector<uint32_t> dimensions;
  bool sufficient = true;
};

class Execution {
 public:
  explicit Execution(std::shared_ptr<const CompiledModel> compiled);
  ~Execution();

  Result<void> setInput(int32_t index, const uint32_t* dims, uint32_t rank, bool hasType, const void* buffer,
                        size_t length);
  Result<void> setInputFromMemory(int32_t index, const uint32_t* dims, uint32_t rank, bool hasType,
                                  std::shared_ptr<Memory> memory, size_t offset, size_t length);
  Result<void> setOutput(int32_t index, const uint32_t* dims, uint32_t rank, bool hasType, void* buffer,
                         size_t length);
  Result<void> setOutputFromMemory(int32_t index, const uint32_t* dims, uint32_t rank, bool hasType,
                                   std::shared_ptr<Memory> memory, size_t offset, size_t length);
  Result<void> setMeasureTiming(bool measure);
  Result<void> setTimeout(uint64_t durationNs);
  Result<void> setLoopTimeout(uint64_t durationNs);
  Result<void> setReusable(bool reusable);

  // Runs to completion on the calling thread.
  Result<void> compute();
  // Runs in the background; the event signals completion. `dependencies` must signal first.
  Result<std::shared_ptr<Event>> startCompute(std::vector<std::shared_ptr<Event>> dependencies, uint64_t durationNs);

  // The shape an output got (or needs, when its buffer was too small) in the last run.
  Result<OutputShapeInfo> getOutputShape(int32_t index) const;
  Result<uint64_t> getDuration(int32_t durationCode) const;

  const CompiledModel& compiled() const { return *compiled_; }
  // Which device ran each step of the last run (after fallback).
  const std::vector<std::string>& devicesUsed() const { return devicesUsed_; }

 private:
  enum class State { Preparation, Computing, Completed };
  Result<void> checkPreparation() const;
  Result<Argument> makeArgument(bool input, int32_t index, const uint32_t* dims, uint32_t rank, bool hasType,
                                size_t length, bool omittable) const;
  Result<void> beginRun();
  Result<void> run(uint64_t deadlineNs);
  // Keeps the outcome of a finished run for the getters.
  Result<void> record(Result<RunOutcome> outcome);
  void endRun();

  std::shared_ptr<const CompiledModel> compiled_;
  std::vector<Argument> inputs_, outputs_;
  bool measure_ = false;
  uint64_t timeoutNs_ = 0;
  uint64_t loopTimeoutNs_ = 0;
  bool reusable_ = false;
  std::atomic<State> state_{State::Preparation};
  // Results of the last run.
  std::optional<ResultCode> lastResult_;
  std::vector<std::vector<uint32_t>> outputShapes_;
  std::vector<bool> outputSufficient_;
  Durations durations_;
  std::vector<std::string> devicesUsed_;
  // A run in progress (compute, or the thread of startCompute); the destructor waits for it to end.
  std::mutex runMutex_;
  std::condition_variable idle_;
  bool running_ = false;
  Result<void> acquireRun();
  void releaseRun();
};

}  // namespace nnrt
