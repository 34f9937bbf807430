// describePlan: the text `nnrt plan` prints.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "partitioner/partitioner.hpp"

namespace nnrt::partition {
namespace {

// "0-3, 7, 9-10": runs of consecutive ascending numbers collapsed.
template <class T>
std::string numberList(const std::vector<T>& values) {
  if (values.empty()) return "none";
  std::string text;
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[j] + 1) {
      ++j;
    }
    if (!text.empty()) text += ", ";
    text += std::to_string(values[i]);
    if (j > i) text += (j == i + 1 ? ", " : "-") + std::to_string(values[j]);
    i = j + 1;
  }
  return text;
}

std::string typeName(int32_t type) {
  if (driver::isExtensionType(type)) {
    return "extension " + std::to_string(driver::extensionPrefix(type)) + ":" +
           std::to_string(driver::typeWithinExtension(type));
  }
  if (const char* name = driver::operationTypeName(type)) return name;
  return "type " + std::to_string(type);
}

std::string costText(double cost) {
  if (std::isinf(cost)) return "inf (operand type not in its table)";
  char text[32];
  std::snprintf(text, sizeof(text), "%g", cost);
  return text;
}

// A tie's cost in a rule: "inf" or %g.
std::string tieCost(double cost) {
  if (std::isinf(cost)) return "inf";
  char text[32];
  std::snprintf(text, sizeof(text), "%g", cost);
  return text;
}

}  // namespace

std::string ruleText(const Plan& plan, const Placement& placement, std::span<const DeviceView> devices) {
  const Rule& rule = placement.rule;
  auto string = [&](uint32_t index) {
    return index < plan.strings.size() ? plan.strings[index] : std::string();
  };
  if (rule.kind == RuleKind::PartitioningDisabled) return "partitioning: disabled";
  if (rule.kind == RuleKind::Fallback) return string(rule.text);
  if (rule.kind == RuleKind::Interpreted) return "control flow: interpreted by the runtime";

  std::string text;
  if (driver::isExtensionType(placement.type)) {
    text = "extension " +
           (placement.extension == kNoString ? std::string("(unnamed)") : string(placement.extension)) +
           ": only devices that support it are candidates; ";
  }
  const std::span<const Candidate> candidates = plan.candidatesOf(placement);
  if (rule.pinIgnored != PinIgnored::No) {
    const std::string pin = string(rule.text);
    text += "pin to " + pin + " ignored: ";
    if (rule.pinIgnored == PinIgnored::NoDeviceNamed || rule.pinDevice >= candidates.size()) {
      text += "no device is named " + pin + "; ";
    } else {
      text +=
          pin + " cannot run it (" + whyText(plan, placement, candidates[rule.pinDevice], devices) + "); ";
    }
  }
  const double cost = placement.device < candidates.size() ? candidates[placement.device].cost : 0;
  switch (rule.kind) {
    case RuleKind::OnlyCandidate:
      return text + "only candidate";
    case RuleKind::Cheapest:
      return text + "cheapest";
    case RuleKind::TieDeviceOrder:
      return text + "tie at cost " + tieCost(cost) + ": first in device order";
    case RuleKind::TieCpuWins:
      return text + "tie at cost " + tieCost(cost) + ": a CPU device wins ties";
    case RuleKind::Pinned:
      return text + "pinned by policy";
    case RuleKind::PartitioningDisabled:
    case RuleKind::Fallback:
    case RuleKind::Interpreted:
      break;  // handled above
  }
  return text;
}

std::string whyText(const Plan& plan, const Placement& placement, const Candidate& candidate,
                    std::span<const DeviceView> devices) {
  switch (candidate.exclusion) {
    case Exclusion::None:
      return "";
    case Exclusion::DeniedByPolicy:
      return "denied by policy";
    case Exclusion::UnnamedExtension:
      return "the model names no extension for prefix " +
             std::to_string(driver::extensionPrefix(placement.type));
    case Exclusion::ExtensionNotSupported:
      return "does not support extension " +
             (placement.extension < plan.strings.size() ? plan.strings[placement.extension] : std::string());
    case Exclusion::Driver:
      if (candidate.device < devices.size()) {
        const std::vector<std::string>& reasons = devices[candidate.device].unsupportedReasons;
        if (placement.operation < reasons.size() && !reasons[placement.operation].empty()) {
          return reasons[placement.operation];
        }
      }
      return "not supported by the driver";
  }
  return "";
}

std::string describePlan(const Plan& plan, std::span<const DeviceView> devices) {
  auto deviceName = [&](size_t d) {
    if (d == kInterpreter) return std::string("runtime");
    return d < devices.size() ? devices[d].name : "device " + std::to_string(d);
  };
  size_t width = 0;
  for (const DeviceView& device : devices) {
    width = std::max(width, device.name.size());
  }

  std::string text = "plan: " + plan.summary + "\n";
  std::vector<std::vector<size_t>> after(plan.steps.size());
  for (const auto& [producer, consumer] : plan.dependencies) {
    if (consumer < after.size()) after[consumer].push_back(producer);
  }
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const Step& step = plan.steps[s];
    text += "step " + std::to_string(s) + " on " + deviceName(step.device) + ": operations " +
            numberList(step.operations) + "; inputs " + numberList(step.inputs) + "; outputs " +
            numberList(step.outputs);
    if (!step.subgraphs.empty()) text += "; subgraphs " + numberList(step.subgraphs);
    if (!after[s].empty())
      text += "; after step" + std::string(after[s].size() > 1 ? "s " : " ") + numberList(after[s]);
    text += "\n";
  }
  for (const Placement& placement : plan.placements) {
    text += "operation " + std::to_string(placement.operation) + " (" + typeName(placement.type) + ") -> " +
            deviceName(placement.device) + ": " + ruleText(plan, placement, devices) + "\n";
    for (const Candidate& candidate : plan.candidatesOf(placement)) {
      std::string name = deviceName(candidate.device);
      name.resize(std::max(width, name.size()), ' ');
      text += "    " + name + "  " +
              (candidate.excluded() ? "excluded: " + whyText(plan, placement, candidate, devices)
                                    : "cost " + costText(candidate.cost)) +
              "\n";
    }
  }
  return text;
}

}  // namespace nnrt::partition
