// Runs the steps of a compiled model for one execution. One step: the application's buffers go
// straight to the driver. Several steps: a oneTBB flow graph runs independent steps at once, each
// launched with the driver's execute_1_3; temporaries between steps live in one arena per
// execution, laid out at compilation (a temporary whose size is only known at execution gets its
// own buffer). Fallback rules, deadlines (a Boost.Asio timer stops steps that have not started)
// and timing hold for every plan.
//
// Control flow the runtime interprets is a step of its own: IF reads its condition and runs the
// chosen branch's compiled plan on the IF's inputs and outputs; WHILE runs the condition's plan, then
// the body's, feeding the body's outputs back as the next inputs, until the condition is false, the
// loop timeout (measured from the first condition) or the deadline passes (MISSED_DEADLINE_TRANSIENT,
// as Android). A subgraph's plan runs like the main one, on its own flow graph, from inside the step.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/compilation/compilation.hpp"
#include "core/execution/execution.hpp"
#include "core/execution/step_graph.hpp"
#include "core/support/status.hpp"

namespace nnrt {

// How a multi-step plan's operands map onto buffers, decided once per compilation.
struct StepLayout {
  enum class SlotKind { ModelInput, ModelOutput, Temporary };
  struct Slot {
    uint32_t operand = 0;
    SlotKind kind = SlotKind::Temporary;
    size_t argument = 0;     // model input/output position
    size_t arenaOffset = 0;  // temporaries of known size
    size_t bytes = 0;        // 0: size known only at execution
    std::vector<uint32_t> dims;
  };
  std::vector<Slot> slots;
  // Slot ids, in the step model's input and output order. For an interpreted step: one per input and
  // output of its operation, in the operation's order, kNoSlot for a constant, omitted or SUBGRAPH
  // operand (read from the model).
  std::vector<std::vector<size_t>> stepInputs;
  std::vector<std::vector<size_t>> stepOutputs;
  static constexpr size_t kNoSlot = SIZE_MAX;
  size_t arenaBytes = 0;
  mutable StepGraphPool graphs;

  explicit StepLayout(std::vector<std::vector<size_t>> dependsOn) : graphs(std::move(dependsOn)) {}
};

// The layout of a compiled subgraph that is not direct(): made on the first call, the same after.
// Thread-safe.
const StepLayout& stepLayoutOf(const CompiledModel& compiled, const CompiledSubgraph& sub);

struct RunOptions {
  bool measure = false;
  uint64_t deadlineNs = 0;  // absolute CLOCK_MONOTONIC, 0 = none
  uint64_t loopTimeoutNs = 0;
};

struct RunOutcome {
  ResultCode code = ResultCode::NO_ERROR;  // NO_ERROR or OUTPUT_INSUFFICIENT_SIZE
  std::vector<std::vector<uint32_t>> outputShapes;  // per model output
  std::vector<bool> outputSufficient;
  uint64_t timeOnDeviceUs = UINT64_MAX;
  uint64_t timeInDriverUs = UINT64_MAX;
  uint64_t fencedTimeOnDeviceUs = UINT64_MAX;  // fenced runs: from the wait-for fences being signalled
  uint64_t fencedTimeInDriverUs = UINT64_MAX;
  std::vector<std::string> devicesUsed;  // per step, after fallback
  std::vector<driver::Timing> stepTimings;  // per step, as devicesUsed (µs, UINT64_MAX when not measured)
};

// Whether runCompiledModelFenced can run this: one step, on a driver that offers fenced execution,
// with outputs of fully specified shapes (a fenced run reports no output shapes).
bool canRunFenced(const CompiledModel& compiled, std::span<const Argument> outputs);
// Runs the single step with the driver's execute_fenced, which waits for `waitFds` itself.
Result<RunOutcome> runCompiledModelFenced(const CompiledModel& compiled, std::span<const Argument> inputs,
                                          std::span<const Argument> outputs, const RunOptions& options,
                                          std::span<const int> waitFds, uint64_t durationNs);

// Runs every step of `compiled`. Thread-safe: any number of runs at once on one compiled model.
Result<RunOutcome> runCompiledModel(const CompiledModel& compiled, std::span<const Argument> inputs,
                                    std::span<const Argument> outputs, const RunOptions& options);

// The execution resources of one ANeuralNetworksBurst, kept from one computation to the next: for a
// one-step plan, the driver's burst (ABI 1.1; configured on first use) and the request view and its
// arrays, refilled in place. Plans of several steps run as plain computations. Not thread-safe: one
// computation at a time (the C API's burst refuses a second one).
class BurstRunner {
 public:
  explicit BurstRunner(std::shared_ptr<const CompiledModel> compiled);
  ~BurstRunner();
  const CompiledModel& compiled() const;
  Result<RunOutcome> run(std::span<const Argument> inputs, std::span<const Argument> outputs, const RunOptions& options);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace nnrt
