// Runs the steps of a compiled model for one execution: builds each step's request from the
// application's buffers and the execution's temporaries, calls the drivers, follows the fallback
// rules, and collects output shapes and timing.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/compilation/compilation.hpp"
#include "core/execution/execution.hpp"
#include "core/support/status.hpp"

namespace nnrt {

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
  std::vector<std::string> devicesUsed;  // per step, after fallback
};

// Runs every step of `compiled` in dependency order. Thread-safe for distinct argument sets.
Result<RunOutcome> runCompiledModel(const CompiledModel& compiled, std::span<const Argument> inputs,
                                    std::span<const Argument> outputs, const RunOptions& options);

}  // namespace nnrt
