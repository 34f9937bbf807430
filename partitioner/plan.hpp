// The partitioner's output: which device runs each operation, the steps those placements form, and
// why each placement was made. Plain values; a Plan refers to devices by their index in the device
// list given to partition() and to operands and operations by their index in the source model's
// main subgraph.
//
// Compact by design (about 100 bytes per operation with three devices, steps included): a placement
// and its candidates hold no string and own no heap memory. Rules and exclusion reasons are enums plus
// indexes; their text (what `nnrt plan` prints) is rendered on demand by ruleText() and whyText()
// (partitioner.hpp) from the plan, the placement and the device list the plan was made from. Text that
// neither the plan nor the devices hold otherwise (extension names, pin names, wholeModelPlan's reason) is
// kept once in Plan::strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace nnrt::partition {

// No index into Plan::strings.
inline constexpr uint32_t kNoString = std::numeric_limits<uint32_t>::max();

// The device of an IF or WHILE that the runtime interprets (Placement::device, Step::device): no
// device runs it whole, or (Android's rule) a CPU-type device would, so the runtime evaluates the
// condition itself and runs the subgraphs' own plans.
inline constexpr uint32_t kInterpreter = std::numeric_limits<uint32_t>::max();

// Why a device may not run an operation; whyText() renders it.
enum class Exclusion : uint8_t {
  None,                   // not excluded: the device is a candidate
  DeniedByPolicy,         // "denied by policy"
  UnnamedExtension,       // "the model names no extension for prefix <prefix of the operation type>"
  ExtensionNotSupported,  // "does not support extension <the placement's extension>"
  Driver,  // the driver's reason, DeviceView::unsupportedReasons[operation] of the candidate's device, or
           // "not supported by the driver" where it gave none
};

// One device considered for one operation.
struct Candidate {
  double cost = 0;      // declared relative cost (CPU = 1.0, lower is better); +infinity when unknown
  uint32_t device = 0;  // index into the devices given
  Exclusion exclusion = Exclusion::None;
  bool excluded() const { return exclusion != Exclusion::None; }  // not allowed to run the operation
};

// The rule that decided a placement; ruleText() renders it.
enum class RuleKind : uint8_t {
  OnlyCandidate,         // "only candidate"
  Cheapest,              // "cheapest"
  TieDeviceOrder,        // "tie at cost <cost>: first in device order" (cost: the chosen candidate's)
  TieCpuWins,            // "tie at cost <cost>: a CPU device wins ties"
  Pinned,                // "pinned by policy"
  PartitioningDisabled,  // "partitioning: disabled" (the whole model on one device)
  Fallback,              // wholeModelPlan(): its reason, Plan::strings[Rule::text] (the compilation's
                         // "fallback: <why>")
  Interpreted,           // "control flow: interpreted by the runtime" (Placement::device is kInterpreter)
};

// A pin for the operation's type that could not be obeyed; its text comes before the rule's.
enum class PinIgnored : uint8_t {
  No,
  NoDeviceNamed,  // "pin to <pin> ignored: no device is named <pin>; "
  CannotRun,      // "pin to <pin> ignored: <pin> cannot run it (<why of candidate Rule::pinDevice>); "
};

struct Rule {
  RuleKind kind = RuleKind::Cheapest;
  PinIgnored pinIgnored = PinIgnored::No;
  uint32_t pinDevice = 0;     // PinIgnored::CannotRun: the first device in tie order that the pin names
  uint32_t text = kNoString;  // Plan::strings index: the pin's name when a pin was ignored; the reason for
                              // RuleKind::Fallback
};

// Where one operation runs and why. For an extension operation every rule but PartitioningDisabled and
// Fallback is preceded by "extension <name or (unnamed)>: only devices that support it are candidates; ".
struct Placement {
  uint32_t operation = 0;          // main-subgraph operation index
  int32_t type = 0;                // its operation type
  uint32_t device = 0;             // index into the devices given
  uint32_t extension = kNoString;  // extension operation: Plan::strings index of the extension's name;
                                   // kNoString when the model names no extension for its prefix
  Rule rule;                       // the rule that decided
};

// Operations that run together on one device as one sub-model.
struct Step {
  size_t device = 0;                 // index into the devices given, or kInterpreter
  std::vector<uint32_t> operations;  // main-subgraph operation indexes, in execution order
  // Source-model operand indexes. A step holding the whole model lists the model's inputs and
  // outputs in the model's own order. Otherwise, as Android orders them, each group by ascending
  // operand index: inputs are [model inputs, temporaries written by other steps, model outputs
  // written by other steps]; outputs are [model outputs, temporaries that other steps read].
  // Constants, omitted operands and subgraph references are never step inputs.
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
  // An interpreted step (device kInterpreter) holds one IF or WHILE; these are the referenced
  // subgraphs it runs (nnrt_model.referenced indexes): IF: then, else; WHILE: condition, body. The
  // compilation plans each of them like a model of its own.
  std::vector<uint32_t> subgraphs;
  bool interpreted() const { return device == kInterpreter; }
};

struct Plan {
  std::vector<Step> steps;  // every producer step comes before its consumers
  // (producer step, consumer step) for each pair of steps where the consumer reads what the producer
  // wrote; unique, sorted.
  std::vector<std::pair<size_t, size_t>> dependencies;
  // One per operation, in the model's operation order (placements[j].operation == j).
  std::vector<Placement> placements;
  // The candidates of every placement, one per device given in the order given: operation j's are
  // [j * deviceCount, (j + 1) * deviceCount). Read them with candidatesOf().
  std::vector<Candidate> candidates;
  size_t deviceCount = 0;
  // Text the placements refer to by index (extension names, pin names, wholeModelPlan's reason), each
  // once.
  std::vector<std::string> strings;
  // One line, e.g. "3 steps on cpu, fibonacci" or "whole model on cpu (partitioning: disabled)".
  std::string summary;

  // Placement's candidates; empty when the plan holds none for it.
  std::span<const Candidate> candidatesOf(const Placement& placement) const {
    const size_t first = size_t{placement.operation} * deviceCount;
    if (first + deviceCount > candidates.size()) return {};
    return std::span<const Candidate>(candidates).subspan(first, deviceCount);
  }
};

}  // namespace nnrt::partition
