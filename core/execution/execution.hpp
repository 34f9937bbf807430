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
#include "core/memory/memory.hpp"
#include "core/support/status.hpp"

namespace nnrt {

class BurstRunner;
class Event;
struct RunOutcome;

// Where one input or output of an execution lives.
struct Argument {
  enum class State { Unset, Pointer, Memory, Omitted };
  State state = State::Unset;
  void* pointer = nullptr;         // Pointer
  std::shared_ptr<Memory> memory;  // Memory
  size_t offset = 0;
  size_t length = 0;  // the operand's bytes (0 for a driver's buffer: its description tells)
  size_t padded = 0;  // the length the application gave: length plus padding
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

// The optional ANeuralNetworksOperandType of setInput/setOutput: it may fill in the dimensions the
// model left unknown; the runtime keeps using the model operand's type and quantization.
struct ArgumentType {
  int32_t type = 0;
  const uint32_t* dimensions = nullptr;
  uint32_t dimensionCount = 0;
  float scale = 0.0f;
  int32_t zeroPoint = 0;
};

struct OutputShapeInfo {
  std::vector<uint32_t> dimensions;
  bool sufficient = true;
};

class Execution {
 public:
  explicit Execution(std::shared_ptr<const CompiledModel> compiled);
  ~Execution();

  // `type` may be null (the model's type). The checks, their order and their codes are Android's.
  Result<void> setInput(int32_t index, const ArgumentType* type, const void* buffer, size_t length);
  Result<void> setInputFromMemory(int32_t index, const ArgumentType* type, std::shared_ptr<Memory> memory,
                                  size_t offset, size_t length);
  Result<void> setOutput(int32_t index, const ArgumentType* type, void* buffer, size_t length);
  Result<void> setOutputFromMemory(int32_t index, const ArgumentType* type, std::shared_ptr<Memory> memory,
                                   size_t offset, size_t length);
  Result<void> setMeasureTiming(bool measure);
  Result<void> setTimeout(uint64_t durationNs);
  Result<void> setLoopTimeout(uint64_t durationNs);
  Result<void> setReusable(bool reusable);
  // Lets buffers and memory regions be longer than their operand (Android's rule: any length at
  // least the operand's; the driver sees the operand's length, and the padding inside the pool).
  Result<void> enableInputAndOutputPadding(bool enable);

  // Runs to completion on the calling thread; through `burst`'s resources when given (the burst
  // must come from the same compilation).
  Result<void> compute(BurstRunner* burst = nullptr);
  // Runs in the background; the event signals completion. `dependencies` must signal first.
  // `withDependencies`: called as ANeuralNetworksExecution_startComputeWithDependencies, which (as
  // in Android) needs every output's dimensions known unless the plan has temporaries of unknown shape.
  Result<std::shared_ptr<Event>> startCompute(std::vector<std::shared_ptr<Event>> dependencies, uint64_t durationNs,
                                              bool withDependencies = false);

  // The shape an output got (or needs, when its buffer was too small) in the last run.
  Result<OutputShapeInfo> getOutputShape(int32_t index) const;
  Result<uint64_t> getDuration(int32_t durationCode) const;

  const CompiledModel& compiled() const { return *compiled_; }
  // BAD_STATE unless a computation may start now (not running; completed only when reusable).
  Result<void> checkPreparation() const;
  // Which device ran each step of the last run (after fallback).
  const std::vector<std::string>& devicesUsed() const { return devicesUsed_; }
  // What each step of the last run took (onHardware and inDriver; in devicesUsed's order), when
  // timing was measured; empty otherwise. An interpreted step's is the sum of its subgraphs' runs.
  const std::vector<Durations>& stepDurations() const { return stepDurations_; }

 private:
  enum class State { Preparation, Computing, Completed };
  // BAD_STATE once a computation has started (even a completed, reusable one).
  Result<void> checkNotStarted(const char* what) const;
  // The index and the optional type, as far as they can be checked without the buffer.
  Result<Argument> describeArgument(bool input, int32_t index, const ArgumentType* type, bool allowUnspecified) const;
  Result<void> checkUnset(bool input, int32_t index) const;
  // The operand's bytes for a buffer of `length` (which the padding rule allows, or BAD_DATA).
  Result<size_t> checkLength(bool input, int32_t index, const Argument& arg, size_t length) const;
  // setInputFromMemory / setOutputFromMemory.
  Result<void> setFromMemory(bool input, int32_t index, const ArgumentType* type, std::shared_ptr<Memory> memory,
                             size_t offset, size_t length);
  // Described memories the run wrote: their new dimensions, and initialized or not (Android's rule).
  Result<void> finishOutputMemories(bool success);
  Result<void> beginRun(bool withDependencies = false);
  // Android ends a computation that fails its request checks: the execution is then completed.
  Result<void> completeWith(Error error);
  Result<void> run(uint64_t deadlineNs, BurstRunner* burst = nullptr);
  // Keeps the outcome of a finished run for the getters.
  Result<void> record(Result<RunOutcome> outcome);
  void endRun();

  std::shared_ptr<const CompiledModel> compiled_;
  std::vector<Argument> inputs_, outputs_;
  bool measure_ = false;
  uint64_t timeoutNs_ = 0;
  uint64_t loopTimeoutNs_ = 2'000'000'000ull;  // ANeuralNetworks_getDefaultLoopTimeout
  bool reusable_ = false;
  bool padding_ = false;
  bool argumentsTouched_ = false;  // a setInput*/setOutput* call went past its state and type checks
  std::atomic<State> state_{State::Preparation};
  // Results of the last run.
  std::optional<ResultCode> lastResult_;
  std::vector<std::vector<uint32_t>> outputShapes_;
  std::vector<bool> outputSufficient_;
  Durations durations_;
  std::vector<std::string> devicesUsed_;
  std::vector<Durations> stepDurations_;
  // A run in progress (compute, or the thread of startCompute); the destructor waits for it to end.
  std::mutex runMutex_;
  std::condition_variable idle_;
  bool running_ = false;
  Result<void> acquireRun();
  void releaseRun();
};

}  // namespace nnrt
