// The partitioner: decides which device runs each operation of a finished model and groups the
// operations into steps. A pure function of the model graph, a view of each device, the execution
// preference and the policy; it knows nothing about plugins, preparation or execution.
//
// Algorithm (Android's ExecutionPlan partitioning, nnapi.md §4, with nnrt's policy applied first):
//  1. Candidates. For each main-subgraph operation every device is a candidate unless the policy
//     denies that operation type to it (by device or entry name), it is an extension operation and
//     the device does not list that extension, or the device's driver said it cannot run it. A pin
//     (operation type -> device or entry name) restricts the choice to the pinned device(s) when one
//     of them is a candidate; when none is, the pin is not obeyed and the rule says why.
//  2. Cost. powerUsage for NNRT_PREFER_LOW_POWER, else execTime, from the device's capabilities for
//     the operand type of the operation's first input; the relaxed scalar / tensor numbers replace
//     FLOAT32 / TENSOR_FLOAT32 in relaxed models. IF costs ifPerformance plus half the cost of both
//     branches, WHILE costs whilePerformance plus condition plus body (a subgraph costs the sum of its
//     operations). A type missing from the table costs +infinity, but the device stays a candidate.
//  3. Choice. The cheapest candidate wins. Ties go to the device earlier in the tie order
//     (Policy::deviceOrder, then the order given), except that a CPU-type device wins any tie it is
//     part of (the first such in tie order when several tie). No candidate: INVALID_ARGUMENT naming
//     the operation and each device's reason. An IF or WHILE with no candidate, or whose winner is a
//     CPU-type device (Android's rule), is interpreted by the runtime instead (device kInterpreter,
//     RuleKind::Interpreted); so is one the target of Mode::Disabled or wholeModelPlan cannot run.
//  4. Steps. All operations on one device: one step holding the whole model. Otherwise operations
//     become ready in topological order (an operation is ready once every operation writing one of
//     its inputs was placed in a step) and wait in one FIFO queue per device. Repeatedly the next
//     non-empty queue is drained fully into a new step; operations that become ready on the same
//     device meanwhile join that step. The next queue is Android's choice: Android scans its device
//     list from the end, which (the CPU being last there) means "CPU first, so that it prepares
//     more of the inputs the other devices need, then the other devices from the last to the
//     first". nnrt states that intent directly: CPU-type devices first (in tie order), then the
//     others in reverse tie order. The step formation is greedy: it ignores transfer costs.
//     Interpreted control flow is looked at before every device queue, one operation per step
//     (Step::subgraphs names the subgraphs it runs; the caller plans each of them on its own).
//
// Contract: the model is finished and valid; its main-subgraph operations are in topological order
// (checked: INVALID_ARGUMENT otherwise). Each DeviceView's `supported` has one entry per operation.
// Every Placement has one Candidate per device given (Plan::candidatesOf). Thread-safe: no shared state; the
// inputs are only read during the call.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "nnrt/driver/driver.hpp"
#include "nnrt/driver/types.hpp"
#include "partitioner/plan.hpp"

namespace nnrt::partition {

// What the partitioner knows about one device, for one model.
struct DeviceView {
  std::string name;   // unique, e.g. "cpu", "opencl:0"
  std::string entry;  // the configuration entry it came from, e.g. "opencl" (pins and deny may name either)
  int32_t type = NNRT_DEVICE_TYPE_OTHER;        // NNRT_DEVICE_TYPE_*
  driver::Capabilities capabilities;            // operandPerformance sorted by type
  std::vector<bool> supported;                  // per main-subgraph operation of this model
  std::vector<std::string> unsupportedReasons;  // same size (or empty); the driver's reason where it gave one
  std::vector<std::string> extensions;          // names of the extensions it supports
};

enum class Mode {
  WithFallback,     // partition; the compilation may fall back to the whole model on the fallback device
  WithoutFallback,  // partition; no fallback (partition() itself behaves as WithFallback)
  Disabled,         // no partitioning: the whole model on the fallback device
};

struct Policy {
  int32_t preference = NNRT_PREFER_FAST_SINGLE_ANSWER;
  Mode mode = Mode::WithFallback;
  std::string fallbackDevice = "cpu";             // device or entry name; "" = none
  std::vector<std::string> deviceOrder;           // tie order (device or entry names); unlisted devices
                                                  // follow in the order given
  std::map<int32_t, std::string> pins;            // operation type -> device or entry name
  std::map<std::string, std::set<int32_t>> deny;  // device or entry name -> operation types it must not run
  // The compilation was created for these devices (createForDevices): they are the only candidates
  // and the compilation never falls back. With Mode::Disabled the whole model goes to the fallback
  // device if it is one of them, else to the first device in tie order that can run every operation.
  bool explicitDevices = false;
};

// Places every main-subgraph operation of `model` on one of `devices` and forms the steps.
// INVALID_ARGUMENT when there is no device, the model has no operation, a DeviceView does not match
// the model, the operations are not in topological order, an operation has no candidate, or (with
// Mode::Disabled) the fallback device is missing or cannot run every operation.
driver::Result<Plan> partition(const driver::Model& model, std::span<const DeviceView> devices,
                               const Policy& policy);

// A plan that runs the whole model as one step on devices[device]; every Placement's rule is
// RuleKind::Fallback, whose text is `reason` (kept once in Plan::strings), and the summary is "whole model on
// <device> (<reason>)". Candidates are costed with policy.preference and excluded as in partition() (pins are
// not consulted). Used by the compilation for fallback. INVALID_ARGUMENT when `device` is out of range or
// cannot run an operation (naming the first such operation).
driver::Result<Plan> wholeModelPlan(const driver::Model& model, std::span<const DeviceView> devices,
                                    size_t device, std::string reason, const Policy& policy = Policy{});

// The text of a placement's rule, e.g. "cheapest", "pinned by policy", "tie at cost 0.5: a CPU device
// wins ties", "pin to gpu ignored: gpu cannot run it (no kernel); only candidate" or wholeModelPlan's
// reason. `devices` is the list the plan was made from (a driver's reason quoted by an ignored pin
// comes from it).
std::string ruleText(const Plan& plan, const Placement& placement, std::span<const DeviceView> devices);

// Why a candidate is excluded, e.g. "denied by policy" or the driver's reason
// (devices[candidate.device].unsupportedReasons[placement.operation]); "" when it is not excluded.
std::string whyText(const Plan& plan, const Placement& placement, const Candidate& candidate,
                    std::span<const DeviceView> devices);

// Human-readable text for `nnrt plan`: the summary, the steps (device, operations, inputs, outputs,
// what each waits for), then per operation its device, the rule and every candidate with its cost.
// `devices` is the list the plan was made from.
std::string describePlan(const Plan& plan, std::span<const DeviceView> devices);

}  // namespace nnrt::partition
