// The numbers `nnrt bench` measured, shared by its text, JSON (docs/bench-format.md) and SVG outputs.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "tools/nnrt/model_execution.hpp"
#include "tools/nnrt/statistics.hpp"

namespace nnrt::tools {

// A step of the plan as the runs placed it: its index and the device that ran it (a step that fell
// back to another device in some runs appears once per device).
struct StepSummary {
  size_t index = 0;
  std::string device;
  size_t runs = 0;                                  // runs in which this step ran on this device
  std::optional<Summary> onHardwareMs, inDriverMs;  // over the runs where the driver measured it
};

// A device's share of a run: the sum of its steps' times, over the runs where all were measured.
struct DeviceSummary {
  std::string device;
  size_t steps = 0;  // in the timeline's run
  std::optional<Summary> onHardwareMs, inDriverMs;
};

struct BenchReport {
  std::string model;
  std::string plan;      // the plan's summary
  std::string fallback;  // the compilation's fallback note, empty when none
  double compileMs = 0;
  size_t warmup = 0;
  double totalS = 0;                // wall time of the measured runs' loop
  std::vector<double> latenciesMs;  // wall time of each measured run, in run order
  Summary latencyMs;
  std::optional<Summary> onHardwareMs, inDriverMs;  // ANeuralNetworksExecution_getDuration
  std::vector<StepSummary> steps;
  std::vector<DeviceSummary> devices;
  size_t timelineRun = 0;          // the run drawn as the timeline: the one of median latency
  std::vector<StepTime> timeline;  // its steps, in plan order

  double throughput() const { return totalS > 0 ? static_cast<double>(latenciesMs.size()) / totalS : 0; }
};

// A self-contained SVG image (no scripts, no external references): the latency histogram and the
// timeline run's steps as bars, one lane per device.
std::string benchSvg(const BenchReport& report);

}  // namespace nnrt::tools
