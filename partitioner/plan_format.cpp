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

}  // namespace

std::string describePlan(const Plan& plan, std::span<const DeviceView> devices) {
  auto deviceName = [&](size_t d) {
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
    if (!after[s].empty())
      text += "; after step" + std::string(after[s].size() > 1 ? "s " : " ") + numberList(after[s]);
    text += "\n";
  }
  for (const Placement& placement : plan.placements) {
    text += "operation " + std::to_string(placement.operation) + " (" + typeName(placement.type) + ") -> " +
            deviceName(placement.device) + ": " + placement.rule + "\n";
    for (const Candidate& candidate : placement.candidates) {
      std::string name = candidate.device;
      name.resize(std::max(width, name.size()), ' ');
      text += "    " + name + "  " +
              (candidate.excluded ? "excluded: " + candidate.why : "cost " + costText(candidate.cost)) + "\n";
    }
  }
  return text;
}

}  // namespace nnrt::partition
