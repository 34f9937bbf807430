// Costing and placement: the candidates for each operation, the policy (deny, pins, disabled
// partitioning) and Android's cost and tie rules. Step formation lives in steps.cpp.
#include "partitioner/partitioner.hpp"

#include <algorithm>
#include <cmath>
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

bool isControlFlow(int32_t type) {
  return type == static_cast<int32_t>(driver::OperationType::IF) ||
         type == static_cast<int32_t>(driver::OperationType::WHILE);
}

void interpret(Placement& placement) {
  placement.device = kInterpreter;
  placement.rule = Rule{};
  placement.rule.kind = RuleKind::Interpreted;
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

// The index of `text` in `strings`, added if missing. The table stays small (extension names, pin
// names, one reason), so a linear search is enough.
uint32_t intern(std::vector<std::string>& strings, std::string_view text) {
  for (size_t i = 0; i < strings.size(); ++i) {
    if (strings[i] == text) return static_cast<uint32_t>(i);
  }
  strings.emplace_back(text);
  return static_cast<uint32_t>(strings.size() - 1);
}

// Fills a plan's placements and candidates. The plan must outlive the Placer.
class Placer {
 public:
  Placer(const driver::Model& model, std::span<const DeviceView> devices, const Policy& policy, Plan& plan)
      : model_(model),
        main_(model.main()),
        devices_(devices),
        policy_(policy),
        plan_(plan),
        costs_(model, devices, policy.preference) {
    const size_t count = devices.size();
    const size_t operationCount = main_.operations().size();
    plan.deviceCount = count;
    plan.placements.resize(operationCount);
    plan.candidates.resize(operationCount * count);

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

  // Every device as a candidate for every operation: its cost, and whether (and why) it is excluded.
  // No device is chosen yet.
  void candidates() {
    const auto operationCount = static_cast<uint32_t>(plan_.placements.size());
    for (uint32_t j = 0; j < operationCount; ++j) {
      candidates(j);
    }
  }

  // Chooses the device for operation `index` from its candidates (pins, cost, ties) and says why.
  // An IF or WHILE that no device runs whole, or that a CPU-type device would run, is interpreted
  // (Android's rule: the referenced subgraphs may then go to other devices).
  driver::Result<void> decide(uint32_t index) {
    Placement& placement = plan_.placements[index];
    const std::span<const Candidate> candidates = plan_.candidatesOf(placement);
    Rule& rule = placement.rule;
    if (isControlFlow(placement.type)) {
      const Choice whole = choose(candidates, nullptr);
      if (!whole.found() || isCpu_[whole.device]) {
        interpret(placement);
        return {};
      }
    }

    if (auto pin = pins_.find(placement.type); pin != pins_.end()) {
      const Choice pinned = choose(candidates, &pin->second.matches);
      if (pinned.found()) {
        placement.device = static_cast<uint32_t>(pinned.device);
        rule.kind = RuleKind::Pinned;
        return {};
      }
      if (pin->second.string == kNoString) pin->second.string = intern(plan_.strings, pin->second.name);
      rule.text = pin->second.string;
      auto named =
          std::find_if(tieOrder_.begin(), tieOrder_.end(), [&](size_t d) { return pin->second.matches[d]; });
      if (named == tieOrder_.end()) {
        rule.pinIgnored = PinIgnored::NoDeviceNamed;
      } else {
        rule.pinIgnored = PinIgnored::CannotRun;
        rule.pinDevice = static_cast<uint32_t>(*named);
      }
    }

    const Choice choice = choose(candidates, nullptr);
    if (!choice.found()) {
      std::string message =
          "no device can run " + operationLabel(model_, placement.operation, placement.type) + ":";
      for (const Candidate& candidate : candidates) {
        message += " " + devices_[candidate.device].name + ": " +
                   whyText(plan_, placement, candidate, devices_) + ";";
      }
      message.pop_back();
      return invalidArgument(std::move(message));
    }
    placement.device = static_cast<uint32_t>(choice.device);
    if (choice.considered == 1) {
      rule.kind = RuleKind::OnlyCandidate;
    } else if (choice.tied == 1) {
      rule.kind = RuleKind::Cheapest;
    } else {
      rule.kind = choice.cpuWonTie ? RuleKind::TieCpuWins : RuleKind::TieDeviceOrder;
    }
    return {};
  }

  // The device that Mode::Disabled puts the whole model on.
  driver::Result<size_t> disabledTarget() const {
    if (!policy_.fallbackDevice.empty()) {
      for (size_t d : tieOrder_) {
        if (names(devices_[d], policy_.fallbackDevice)) return d;
      }
    }
    if (policy_.explicitDevices) {
      for (size_t d : tieOrder_) {
        if (std::none_of(plan_.placements.begin(), plan_.placements.end(),
                         [&](const Placement& p) { return plan_.candidatesOf(p)[d].excluded(); })) {
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
    std::vector<bool> matches;    // per device
    uint32_t string = kNoString;  // the name's index in Plan::strings once a rule refers to it
  };

  void candidates(uint32_t index) {
    const nnrt_operation& operation = main_.operations()[index];
    Placement& placement = plan_.placements[index];
    placement.operation = index;
    placement.type = operation.type;
    Candidate* candidates = plan_.candidates.data() + size_t{index} * devices_.size();

    std::optional<std::string_view> extension;
    const bool isExtension = driver::isExtensionType(operation.type);
    if (isExtension) {
      const uint16_t prefix = driver::extensionPrefix(operation.type);
      extension = model_.extensionName(prefix);
      if (extension) {
        auto [known, added] = extensions_.try_emplace(prefix, kNoString);
        if (added) known->second = intern(plan_.strings, *extension);
        placement.extension = known->second;
      }
    }

    for (size_t d = 0; d < devices_.size(); ++d) {
      const DeviceView& device = devices_[d];
      Candidate& candidate = candidates[d];
      candidate.device = static_cast<uint32_t>(d);
      candidate.cost = costs_.operation(d, main_, operation);
      if (isDenied(d, operation.type)) {
        candidate.exclusion = Exclusion::DeniedByPolicy;
      } else if (isExtension && !extension) {
        candidate.exclusion = Exclusion::UnnamedExtension;
      } else if (isExtension && std::find(device.extensions.begin(), device.extensions.end(), *extension) ==
                                    device.extensions.end()) {
        candidate.exclusion = Exclusion::ExtensionNotSupported;
      } else if (!device.supported[index]) {
        candidate.exclusion = Exclusion::Driver;
      }
    }
  }

  bool isDenied(size_t device, int32_t type) const {
    for (const std::set<int32_t>* types : denied_[device]) {
      if (types->contains(type)) return true;
    }
    return false;
  }

  // Android's rule: the cheapest wins; on a tie the earlier device (here: in tie order), except that
  // a CPU device wins any tie it is part of. `allowed` (per device) narrows the candidates.
  Choice choose(std::span<const Candidate> candidates, const std::vector<bool>* allowed) const {
    Choice choice;
    auto eligible = [&](size_t d) {
      return !candidates[d].excluded() && (allowed == nullptr || (*allowed)[d]);
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
  const driver::Subgraph main_;
  std::span<const DeviceView> devices_;
  const Policy& policy_;
  Plan& plan_;
  CostModel costs_;
  std::vector<bool> isCpu_;
  std::vector<size_t> tieOrder_;
  std::vector<std::vector<const std::set<int32_t>*>> denied_;  // per device: the deny lists naming it
  std::map<int32_t, Pin> pins_;
  std::map<uint16_t, uint32_t> extensions_;  // extension prefix -> its name's index in Plan::strings
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

// Places every operation of a costed plan on devices[device] (one step, the whole model), but for
// control flow that the device cannot run whole: the runtime interprets it (its subgraphs are planned
// with the same policy, so they go to the same device).
driver::Result<void> wholeModel(const driver::Model& model, std::span<const DeviceView> devices, Plan& plan,
                                size_t device, RuleKind kind, const std::string& reason,
                                std::span<const size_t> queueOrder) {
  Rule rule;
  rule.kind = kind;
  if (kind == RuleKind::Fallback) rule.text = intern(plan.strings, reason);
  bool anyInterpreted = false;
  for (Placement& placement : plan.placements) {
    const Candidate& candidate = plan.candidatesOf(placement)[device];
    if (candidate.excluded() && isControlFlow(placement.type)) {
      interpret(placement);
      anyInterpreted = true;
      continue;
    }
    if (candidate.excluded()) {
      return invalidArgument(devices[device].name + " cannot run " +
                             operationLabel(model, placement.operation, placement.type) + ": " +
                             whyText(plan, placement, candidate, devices) + " (" + reason + ")");
    }
    placement.device = static_cast<uint32_t>(device);
    placement.rule = rule;
  }
  plan.summary = "whole model on " + devices[device].name + " (" + reason + ")";
  if (!anyInterpreted) {
    plan.steps.push_back(detail::wholeModelStep(model.main(), device));
    return {};
  }
  NNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> producer, detail::checkOperations(model.main()));
  const detail::OperationGraph graph = detail::buildOperationGraph(model.main(), std::move(producer));
  detail::formSteps(model.main(), graph, queueOrder, plan);
  plan.summary += ", control flow interpreted";
  return {};
}

std::string multiStepSummary(const Plan& plan, std::span<const DeviceView> devices) {
  std::vector<bool> seen(devices.size(), false);
  std::string list;
  size_t interpreted = 0;
  for (const Step& step : plan.steps) {
    if (step.interpreted()) {
      ++interpreted;
      continue;
    }
    if (seen[step.device]) continue;
    seen[step.device] = true;
    list += (list.empty() ? "" : ", ") + devices[step.device].name;
  }
  std::string summary = std::to_string(plan.steps.size()) + " steps";
  if (!list.empty()) summary += " on " + list;
  if (interpreted > 0) summary += (list.empty() ? ", " : "; ") + std::to_string(interpreted) + " interpreted by the runtime";
  return summary;
}

}  // namespace

driver::Result<Plan> partition(const driver::Model& model, std::span<const DeviceView> devices,
                               const Policy& policy) {
  NNRT_RETURN_IF_ERROR(checkInputs(model, devices));
  const driver::Subgraph main = model.main();
  NNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> producer, detail::checkOperations(main));
  const auto operationCount = static_cast<uint32_t>(main.operations().size());

  Plan plan;
  Placer placer(model, devices, policy, plan);
  placer.candidates();
  if (policy.mode == Mode::Disabled) {
    NNRT_ASSIGN_OR_RETURN(size_t target, placer.disabledTarget());
    NNRT_RETURN_IF_ERROR(wholeModel(model, devices, plan, target, RuleKind::PartitioningDisabled,
                                    "partitioning: disabled", placer.queueOrder()));
    return plan;
  }

  bool oneDevice = true;
  for (uint32_t j = 0; j < operationCount; ++j) {
    NNRT_RETURN_IF_ERROR(placer.decide(j));
    oneDevice = oneDevice && plan.placements[j].device == plan.placements.front().device &&
                plan.placements[j].device != kInterpreter;
  }
  if (oneDevice) {
    const size_t device = plan.placements.front().device;
    plan.steps.push_back(detail::wholeModelStep(main, device));
    plan.summary = "whole model on " + devices[device].name;
    return plan;
  }
  const detail::OperationGraph graph = detail::buildOperationGraph(main, std::move(producer));
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
  NNRT_RETURN_IF_ERROR(detail::checkOperations(model.main()));
  Plan plan;
  Placer placer(model, devices, policy, plan);
  placer.candidates();
  NNRT_RETURN_IF_ERROR(wholeModel(model, devices, plan, device, RuleKind::Fallback, reason, placer.queueOrder()));
  return plan;
}

}  // namespace nnrt::partition
