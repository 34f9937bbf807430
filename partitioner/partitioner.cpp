// Costing and placement: the candidates for each operation, the policy (deny, pins, disabled
// partitioning) and Android's cost and tie rules. Step formation lives in steps.cpp.
#include "partitioner/partitioner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <optional>
#include <string_view>
#include <utility>

#include "partitioner/steps.hpp"

namespace nnrt::partition {
namespace {

using driver::invalidArgument;

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr size_t kNoDevice = std::numeric_limits<size_t>::max();

std::string typeLabel(const driver::Model& model, int32_t type) {
  if (driver::isExtensionType(type)) {
    const uint16_t prefix = driver::extensionPrefix(type);
    const auto name = model.extensionName(prefix);
    return (name ? std::string(*name) : "extension prefix " + std::to_string(prefix)) + ":" +
           std::to_string(driver::typeWithinExtension(type));
  }
  if (const char* name = driver::operationTypeName(type)) return name;
  return "type " + std::to_string(type);
}

std::string operationLabel(const driver::Model& model, uint32_t index, int32_t type) {
  return "operation " + std::to_string(index) + " (" + typeLabel(model, type) + ")";
}

std::string formatCost(double cost) {
  if (std::isinf(cost)) return "inf";
  char text[32];
  std::snprintf(text, sizeof(text), "%g", cost);
  return text;
}

bool names(const DeviceView& device, const std::string& name) {
  return device.name == name || (!device.entry.empty() && device.entry == name);
}

// Android's cost of an operation on a device (ModelBuilder::getPerformance): see partitioner.hpp.
class CostModel {
 public:
  CostModel(const driver::Model& model, std::span<const DeviceView> devices, int32_t preference)
      : model_(model),
        devices_(devices),
        lowPower_(preference == NNRT_PREFER_LOW_POWER),
        relaxed_(model.relaxComputationFloat32toFloat16()),
        subgraphCost_(model.referencedCount() * devices.size(), 0),
        subgraphState_(subgraphCost_.size(), kUnknown) {}

  double operation(size_t device, const driver::Subgraph& subgraph, const nnrt_operation& operation) {
    const driver::Capabilities& caps = devices_[device].capabilities;
    if (operation.type == static_cast<int32_t>(driver::OperationType::IF) && operation.input_count >= 3) {
      return pick(caps.ifPerformance) + 0.5 * (referenced(device, subgraph, operation.inputs[1]) +
                                               referenced(device, subgraph, operation.inputs[2]));
    }
    if (operation.type == static_cast<int32_t>(driver::OperationType::WHILE) && operation.input_count >= 2) {
      return pick(caps.whilePerformance) + referenced(device, subgraph, operation.inputs[0]) +
             referenced(device, subgraph, operation.inputs[1]);
    }
    // Android assumes the first input's type dictates the cost.
    if (operation.input_count == 0 || operation.inputs[0] >= subgraph.operands().size()) return kInfinity;
    const int32_t type = subgraph.operands()[operation.inputs[0]].type;
    if (relaxed_ && type == static_cast<int32_t>(driver::OperandType::FLOAT32)) {
      return pick(caps.relaxedFloat32toFloat16PerformanceScalar);
    }
    if (relaxed_ && type == static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32)) {
      return pick(caps.relaxedFloat32toFloat16PerformanceTensor);
    }
    const auto& table = caps.operandPerformance;
    auto it = std::lower_bound(table.begin(), table.end(), type,
                               [](const nnrt_operand_performance& p, int32_t t) { return p.type < t; });
    if (it == table.end() || it->type != type) return kInfinity;
    return pick(it->info);
  }

 private:
  enum : uint8_t { kUnknown, kInProgress, kKnown };

  double pick(const nnrt_perf_info& info) const {
    const double value = lowPower_ ? info.power_usage : info.exec_time;
    return std::isnan(value) ? kInfinity : value;
  }

  // Sum of the costs of the operations of the subgraph an operand refers to; +infinity when the
  // operand is not a valid reference or the references loop.
  double referenced(size_t device, const driver::Subgraph& subgraph, uint32_t operandIndex) {
    if (operandIndex >= subgraph.operands().size()) return kInfinity;
    const nnrt_operand& operand = subgraph.operands()[operandIndex];
    const uint32_t index = operand.location.offset;
    if (operand.lifetime != NNRT_LIFETIME_SUBGRAPH || index >= model_.referencedCount()) return kInfinity;
    const size_t slot = index * devices_.size() + device;
    if (subgraphState_[slot] == kInProgress) return kInfinity;
    if (subgraphState_[slot] == kKnown) return subgraphCost_[slot];
    subgraphState_[slot] = kInProgress;
    const driver::Subgraph body = model_.referenced(index);
    double sum = 0;
    for (const nnrt_operation& op : body.operations()) {
      sum += operation(device, body, op);
    }
    subgraphCost_[slot] = sum;
    subgraphState_[slot] = kKnown;
    return sum;
  }

  const driver::Model& model_;
  std::span<const DeviceView> devices_;
  bool lowPower_;
  bool relaxed_;
  std::vector<double> subgraphCost_;    // [referenced subgraph][device]
  std::vector<uint8_t> subgraphState_;  // same shape: kUnknown, kInProgress or kKnown
};

// The cheapest allowed candidate under the tie rules.
struct Choice {
  size_t device = kNoDevice;
  size_t considered = 0;   // allowed candidates
  size_t tied = 0;         // allowed candidates at the winning cost
  bool cpuWonTie = false;  // a CPU-type device won a tie it would otherwise have lost
  bool found() const { return device != kNoDevice; }
};

class Placer {
 public:
  Placer(const driver::Model& model, std::span<const DeviceView> devices, const Policy& policy)
      : model_(model), devices_(devices), policy_(policy), costs_(model, devices, policy.preference) {
    const size_t count = devices.size();
    isCpu_.resize(count);
    for (size_t d = 0; d < count; ++d) {
      isCpu_[d] = devices[d].type == NNRT_DEVICE_TYPE_CPU;
    }

    // Tie order: devices named in deviceOrder (by device or entry name) first, in that order; the
    // rest in the order given.
    std::vector<size_t> rank(count, policy.deviceOrder.size());
    for (size_t d = 0; d < count; ++d) {
      for (size_t r = 0; r < policy.deviceOrder.size(); ++r) {
        if (names(devices[d], policy.deviceOrder[r])) {
          rank[d] = r;
          break;
        }
      }
    }
    tieOrder_.resize(count);
    std::iota(tieOrder_.begin(), tieOrder_.end(), size_t{0});
    std::stable_sort(tieOrder_.begin(), tieOrder_.end(),
                     [&](size_t a, size_t b) { return rank[a] < rank[b]; });

    denied_.resize(count);
    for (size_t d = 0; d < count; ++d) {
      for (const auto& [name, types] : policy.deny) {
        if (names(devices[d], name) && !types.empty()) denied_[d].push_back(&types);
      }
    }
    for (const auto& [type, name] : policy.pins) {
      Pin& pin = pins_[type];
      pin.name = name;
      pin.matches.resize(count);
      for (size_t d = 0; d < count; ++d) {
        pin.matches[d] = names(devices[d], name);
      }
    }
  }

  // Android scans its device list, the CPU last, from the end: CPU first, then the others backwards.
  std::vector<size_t> queueOrder() const {
    std::vector<size_t> order;
    order.reserve(tieOrder_.size());
    for (size_t d : tieOrder_) {
      if (isCpu_[d]) order.push_back(d);
    }
    for (auto it = tieOrder_.rbegin(); it != tieOrder_.rend(); ++it) {
      if (!isCpu_[*it]) order.push_back(*it);
    }
    return order;
  }

  // Every device as a candidate for operation `index`: its cost, and whether (and why) it is
  // excluded. The placement's device is not chosen yet.
  Placement candidates(uint32_t index) {
    const driver::Subgraph main = model_.main();
    const nnrt_operation& operation = main.operations()[index];
    Placement placement;
    placement.operation = index;
    placement.type = operation.type;
    placement.candidates.resize(devices_.size());

    std::optional<std::string_view> extension;
    const bool isExtension = driver::isExtensionType(operation.type);
    if (isExtension) extension = model_.extensionName(driver::extensionPrefix(operation.type));

    for (size_t d = 0; d < devices_.size(); ++d) {
      const DeviceView& device = devices_[d];
      Candidate& candidate = placement.candidates[d];
      candidate.device = device.name;
      candidate.cost = costs_.operation(d, main, operation);
      if (isDenied(d, operation.type)) {
        exclude(candidate, "denied by policy");
      } else if (isExtension && !extension) {
        exclude(candidate, "the model names no extension for prefix " +
                               std::to_string(driver::extensionPrefix(operation.type)));
      } else if (isExtension && std::find(device.extensions.begin(), device.extensions.end(), *extension) ==
                                    device.extensions.end()) {
        exclude(candidate, "does not support extension " + std::string(*extension));
      } else if (!device.supported[index]) {
        const bool hasReason =
            index < device.unsupportedReasons.size() && !device.unsupportedReasons[index].empty();
        exclude(candidate, hasReason ? device.unsupportedReasons[index] : "not supported by the driver");
      }
    }
    return placement;
  }

  // Chooses the device for a placement from its candidates (pins, cost, ties) and says why.
  driver::Result<void> decide(Placement& placement) const {
    std::string rule;
    if (driver::isExtensionType(placement.type)) {
      const auto extension = model_.extensionName(driver::extensionPrefix(placement.type));
      rule = "extension " + (extension ? std::string(*extension) : std::string("(unnamed)")) +
             ": only devices that support it are candidates; ";
    }

    if (auto pin = pins_.find(placement.type); pin != pins_.end()) {
      const Choice pinned = choose(placement.candidates, &pin->second.matches);
      if (pinned.found()) {
        placement.device = pinned.device;
        placement.rule = rule + "pinned by policy";
        return {};
      }
      rule += "pin to " + pin->second.name + " ignored: ";
      auto named =
          std::find_if(tieOrder_.begin(), tieOrder_.end(), [&](size_t d) { return pin->second.matches[d]; });
      if (named == tieOrder_.end()) {
        rule += "no device is named " + pin->second.name + "; ";
      } else {
        rule += pin->second.name + " cannot run it (" + placement.candidates[*named].why + "); ";
      }
    }

    const Choice choice = choose(placement.candidates, nullptr);
    if (!choice.found()) {
      std::string message =
          "no device can run " + operationLabel(model_, placement.operation, placement.type) + ":";
      for (const Candidate& candidate : placement.candidates) {
        message += " " + candidate.device + ": " + candidate.why + ";";
      }
      message.pop_back();
      return invalidArgument(std::move(message));
    }
    placement.device = choice.device;
    if (choice.considered == 1) {
      rule += "only candidate";
    } else if (choice.tied == 1) {
      rule += "cheapest";
    } else {
      rule += "tie at cost " + formatCost(placement.candidates[choice.device].cost) +
              (choice.cpuWonTie ? ": a CPU device wins ties" : ": first in device order");
    }
    placement.rule = std::move(rule);
    return {};
  }

  // The device that Mode::Disabled puts the whole model on.
  driver::Result<size_t> disabledTarget(const std::vector<Placement>& placements) const {
    if (!policy_.fallbackDevice.empty()) {
      for (size_t d : tieOrder_) {
        if (names(devices_[d], policy_.fallbackDevice)) return d;
      }
    }
    if (policy_.explicitDevices) {
      for (size_t d : tieOrder_) {
        if (std::none_of(placements.begin(), placements.end(),
                         [d](const Placement& p) { return p.candidates[d].excluded; })) {
          return d;
        }
      }
      return invalidArgument("partitioning is disabled and no device given can run every operation");
    }
    if (policy_.fallbackDevice.empty()) {
      return invalidArgument("partitioning is disabled and no fallback device is set");
    }
    std::string known;
    for (const DeviceView& device : devices_) {
      known += (known.empty() ? "" : ", ") + device.name;
    }
    return invalidArgument("partitioning is disabled and the fallback device '" + policy_.fallbackDevice +
                           "' is not among the devices (" + known + ")");
  }

 private:
  struct Pin {
    std::string name;
    std::vector<bool> matches;  // per device
  };

  static void exclude(Candidate& candidate, std::string why) {
    candidate.excluded = true;
    candidate.why = std::move(why);
  }

  bool isDenied(size_t device, int32_t type) const {
    for (const std::set<int32_t>* types : denied_[device]) {
      if (types->contains(type)) return true;
    }
    return false;
  }

  // Android's rule: the cheapest wins; on a tie the earlier device (here: in tie order), except that
  // a CPU device wins any tie it is part of. `allowed` (per device) narrows the candidates.
  Choice choose(const std::vector<Candidate>& candidates, const std::vector<bool>* allowed) const {
    Choice choice;
    auto eligible = [&](size_t d) {
      return !candidates[d].excluded && (allowed == nullptr || (*allowed)[d]);
    };
    for (size_t d : tieOrder_) {
      if (!eligible(d)) continue;
      ++choice.considered;
      if (!choice.found()) {
        choice.device = d;
        continue;
      }
      const double cost = candidates[d].cost;
      const double best = candidates[choice.device].cost;
      if (cost < best || (cost == best && isCpu_[d] && !isCpu_[choice.device])) choice.device = d;
    }
    if (!choice.found()) return choice;
    const double best = candidates[choice.device].cost;
    size_t firstTied = kNoDevice;
    for (size_t d : tieOrder_) {
      if (!eligible(d) || candidates[d].cost != best) continue;
      if (firstTied == kNoDevice) firstTied = d;
      ++choice.tied;
    }
    choice.cpuWonTie = choice.tied > 1 && firstTied != choice.device;
    return choice;
  }

  const driver::Model& model_;
  std::span<const DeviceView> devices_;
  const Policy& policy_;
  CostModel costs_;
  std::vector<bool> isCpu_;
  std::vector<size_t> tieOrder_;
  std::vector<std::vector<const std::set<int32_t>*>> denied_;  // per device: the deny lists naming it
  std::map<int32_t, Pin> pins_;
};

driver::Result<void> checkInputs(const driver::Model& model, std::span<const DeviceView> devices) {
  const size_t operationCount = model.main().operations().size();
  if (devices.empty()) return invalidArgument("no device to partition the model over");
  if (operationCount == 0) return invalidArgument("the model has no operation");
  for (const DeviceView& device : devices) {
    if (device.supported.size() != operationCount) {
      return invalidArgument("device " + device.name + " reports support for " +
                             std::to_string(device.supported.size()) + " operations but the model has " +
                             std::to_string(operationCount));
    }
  }
  return {};
}

// Candidates for every operation, in the model's order.
std::vector<Placement> allCandidates(Placer& placer, uint32_t operationCount) {
  std::vector<Placement> placements;
  placements.reserve(operationCount);
  for (uint32_t j = 0; j < operationCount; ++j) {
    placements.push_back(placer.candidates(j));
  }
  return placements;
}

driver::Result<Plan> wholeModel(const driver::Model& model, std::span<const DeviceView> devices,
                                std::vector<Placement> placements, size_t device, const std::string& reason) {
  for (Placement& placement : placements) {
    const Candidate& candidate = placement.candidates[device];
    if (candidate.excluded) {
      return invalidArgument(devices[device].name + " cannot run " +
                             operationLabel(model, placement.operation, placement.type) + ": " +
                             candidate.why + " (" + reason + ")");
    }
    placement.device = device;
    placement.rule = reason;
  }
  Plan plan;
  plan.placements = std::move(placements);
  plan.steps.push_back(detail::wholeModelStep(model.main(), device));
  plan.summary = "whole model on " + devices[device].name + " (" + reason + ")";
  return plan;
}

std::string multiStepSummary(const Plan& plan, std::span<const DeviceView> devices) {
  std::vector<bool> seen(devices.size(), false);
  std::string list;
  for (const Step& step : plan.steps) {
    if (seen[step.device]) continue;
    seen[step.device] = true;
    list += (list.empty() ? "" : ", ") + devices[step.device].name;
  }
  return std::to_string(plan.steps.size()) + " steps on " + list;
}

}  // namespace

driver::Result<Plan> partition(const driver::Model& model, std::span<const DeviceView> devices,
                               const Policy& policy) {
  NNRT_RETURN_IF_ERROR(checkInputs(model, devices));
  const driver::Subgraph main = model.main();
  NNRT_ASSIGN_OR_RETURN(detail::OperationGraph graph, detail::buildOperationGraph(main));
  const auto operationCount = static_cast<uint32_t>(main.operations().size());

  Placer placer(model, devices, policy);
  std::vector<Placement> placements = allCandidates(placer, operationCount);
  if (policy.mode == Mode::Disabled) {
    NNRT_ASSIGN_OR_RETURN(size_t target, placer.disabledTarget(placements));
    return wholeModel(model, devices, std::move(placements), target, "partitioning: disabled");
  }

  Plan plan;
  bool oneDevice = true;
  for (Placement& placement : placements) {
    NNRT_RETURN_IF_ERROR(placer.decide(placement));
    oneDevice = oneDevice && placement.device == placements.front().device;
  }
  plan.placements = std::move(placements);
  if (oneDevice) {
    const size_t device = plan.placements.front().device;
    plan.steps.push_back(detail::wholeModelStep(main, device));
    plan.summary = "whole model on " + devices[device].name;
    return plan;
  }
  const std::vector<size_t> queueOrder = placer.queueOrder();
  detail::formSteps(main, graph, queueOrder, plan);
  plan.summary = multiStepSummary(plan, devices);
  return plan;
}

driver::Result<Plan> wholeModelPlan(const driver::Model& model, std::span<const DeviceView> devices,
                                    size_t device, std::string reason, const Policy& policy) {
  NNRT_RETURN_IF_ERROR(checkInputs(model, devices));
  if (device >= devices.size()) {
    return invalidArgument("device index " + std::to_string(device) + " is out of range (" +
                           std::to_string(devices.size()) + " devices)");
  }
  NNRT_RETURN_IF_ERROR(detail::buildOperationGraph(model.main()));
  Placer placer(model, devices, policy);
  return wholeModel(model, devices,
                    allCandidates(placer, static_cast<uint32_t>(model.main().operations().size())), device,
                    reason);
}

}  // namespace nnrt::partition
