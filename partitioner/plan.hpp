// The partitioner's output: which device runs each operation, the steps those placements form, and
// why each placement was made. Plain values; a Plan refers to devices by their index in the device
// list given to partition() and to operands and operations by their index in the source model's
// main subgraph.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nnrt::partition {

// One device considered for one operation.
struct Candidate {
  std::string device;     // the device's name
  double cost = 0;        // declared relative cost (CPU = 1.0, lower is better); +infinity when unknown
  bool excluded = false;  // not allowed to run the operation
  std::string why;        // why it is excluded ("denied by policy", the driver's reason, ...); "" otherwise
};

// Where one operation runs and why.
struct Placement {
  uint32_t operation = 0;             // main-subgraph operation index
  int32_t type = 0;                   // its operation type
  size_t device = 0;                  // index into the devices given
  std::vector<Candidate> candidates;  // one per device given, in the order given
  std::string rule;                   // the rule that decided, e.g. "cheapest" or "pinned by policy"
};

// Operations that run together on one device as one sub-model.
struct Step {
  size_t device = 0;                 // index into the devices given
  std::vector<uint32_t> operations;  // main-subgraph operation indexes, in execution order
  // Source-model operand indexes. A step holding the whole model lists the model's inputs and
  // outputs in the model's own order. Otherwise, as Android orders them, each group by ascending
  // operand index: inputs are [model inputs, temporaries written by other steps, model outputs
  // written by other steps]; outputs are [model outputs, temporaries that other steps read].
  // Constants, omitted operands and subgraph references are never step inputs.
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
};

struct Plan {
  std::vector<Step> steps;  // every producer step comes before its consumers
  // (producer step, consumer step) for each pair of steps where the consumer reads what the producer
  // wrote; unique, sorted.
  std::vector<std::pair<size_t, size_t>> dependencies;
  std::vector<Placement> placements;  // one per operation, in the model's operation order
  // One line, e.g. "3 steps on cpu, fibonacci" or "whole model on cpu (partitioning: disabled)".
  std::string summary;
};

}  // namespace nnrt::partition
