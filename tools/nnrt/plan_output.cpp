#include "tools/nnrt/plan_output.hpp"

#include <cmath>
#include <cstdio>

#include "tools/nnrt/json_writer.hpp"

namespace nnrt::tools {
namespace {

const char* deviceTypeName(int32_t type) {
  switch (type) {
    case NNRT_DEVICE_TYPE_CPU:
      return "CPU";
    case NNRT_DEVICE_TYPE_GPU:
      return "GPU";
    case NNRT_DEVICE_TYPE_ACCELERATOR:
      return "ACCELERATOR";
    case NNRT_DEVICE_TYPE_OTHER:
      return "OTHER";
  }
  return "UNKNOWN";
}

const char* partitioningName(partition::Mode mode) {
  switch (mode) {
    case partition::Mode::WithFallback:
      return "with-fallback";
    case partition::Mode::WithoutFallback:
      return "without-fallback";
    case partition::Mode::Disabled:
      return "disabled";
  }
  return "unknown";
}

// The plan numbers operations by their position in the finished (sorted) model; files number them
// in the order of `operations:`.
uint32_t fileIndex(const PlanContext& c, uint32_t position) {
  return position < c.model.originalIndex.size() ? c.model.originalIndex[position] : position;
}

std::string operandName(const PlanContext& c, uint32_t operand) {
  return operand < c.file.operands.size() ? c.file.operands[operand].name : "#" + std::to_string(operand);
}

std::string deviceName(const PlanContext& c, size_t device) {
  if (device == partition::kInterpreter) return "runtime";
  return device < c.plan.views.size() ? c.plan.views[device].name : "device " + std::to_string(device);
}

std::string nameList(const PlanContext& c, const std::vector<uint32_t>& operands) {
  std::string s;
  for (uint32_t o : operands)
    s += (s.empty() ? "" : ", ") + operandName(c, o);
  return s.empty() ? "-" : s;
}

std::string costText(double cost) {
  if (std::isinf(cost)) return "unknown (operand type not in the device's table)";
  char text[32];
  std::snprintf(text, sizeof text, "%g", cost);
  return text;
}

// For each file operation index: the step that runs it.
std::vector<size_t> stepOfOperation(const PlanContext& c) {
  std::vector<size_t> step(c.file.operations.size(), SIZE_MAX);
  for (size_t s = 0; s < c.plan.plan.steps.size(); ++s) {
    for (uint32_t position : c.plan.plan.steps[s].operations) {
      uint32_t index = fileIndex(c, position);
      if (index < step.size()) step[index] = s;
    }
  }
  return step;
}

// Placements in file order.
std::vector<const partition::Placement*> placementsInFileOrder(const PlanContext& c) {
  std::vector<const partition::Placement*> out(c.file.operations.size(), nullptr);
  for (const auto& p : c.plan.plan.placements) {
    uint32_t index = fileIndex(c, p.operation);
    if (index < out.size()) out[index] = &p;
  }
  return out;
}

std::vector<std::vector<size_t>> stepPredecessors(const PlanContext& c) {
  std::vector<std::vector<size_t>> after(c.plan.plan.steps.size());
  for (const auto& [producer, consumer] : c.plan.plan.dependencies) {
    if (consumer < after.size()) after[consumer].push_back(producer);
  }
  return after;
}

std::string dotQuote(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '\n') {
      out += "\\n";  // a line break in a label
      continue;
    }
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

// Fill and border colours per device, by the device's position in the plan's device list.
constexpr const char* kFill[] = {"#aec7e8", "#ffbb78", "#98df8a", "#ff9896",
                                 "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d"};
constexpr const char* kBorder[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                   "#9467bd", "#8c564b", "#e377c2", "#bcbd22"};
constexpr size_t kColors = sizeof kFill / sizeof kFill[0];

}  // namespace

int32_t parsePreference(const std::string& name) {
  if (name == "low-power") return NNRT_PREFER_LOW_POWER;
  if (name == "fast-single-answer") return NNRT_PREFER_FAST_SINGLE_ANSWER;
  if (name == "sustained-speed") return NNRT_PREFER_SUSTAINED_SPEED;
  return -1;
}

std::string preferenceName(int32_t preference) {
  switch (preference) {
    case NNRT_PREFER_LOW_POWER:
      return "low-power";
    case NNRT_PREFER_FAST_SINGLE_ANSWER:
      return "fast-single-answer";
    case NNRT_PREFER_SUSTAINED_SPEED:
      return "sustained-speed";
  }
  return std::to_string(preference);
}

std::string planText(const PlanContext& c) {
  const auto& plan = c.plan.plan;
  const auto& policy = c.plan.policy;
  auto count = [](size_t n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  std::string text = "model: " + c.file.path.string() + " (" + count(c.file.operations.size(), "operation") +
                     ", " + count(c.file.operands.size(), "operand") + ")\n";
  text += "devices:";
  for (size_t d = 0; d < c.plan.views.size(); ++d) {
    text += (d ? ", " : " ") + c.plan.views[d].name + " (" + deviceTypeName(c.plan.views[d].type) + ")";
  }
  text += policy.explicitDevices ? " [chosen explicitly]\n" : "\n";
  text += "preference: " + preferenceName(policy.preference) +
          ", partitioning: " + partitioningName(policy.mode) + "\n";
  text += "plan: " + plan.summary + "\n";
  if (!c.fallbackNote.empty()) text += "fallback: " + c.fallbackNote + "\n";

  text += "\nsteps:\n";
  const auto after = stepPredecessors(c);
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const auto& step = plan.steps[s];
    text += "  step " + std::to_string(s) + " on " + deviceName(c, step.device);
    if (!after[s].empty()) {
      text += " (after step";
      for (size_t i = 0; i < after[s].size(); ++i)
        text += (i ? ", " : " ") + std::to_string(after[s][i]);
      text += ")";
    }
    text += ":";
    for (size_t i = 0; i < step.operations.size(); ++i) {
      uint32_t op = fileIndex(c, step.operations[i]);
      text += (i ? ", " : " ") + std::to_string(op) + " " + c.file.operationLabel(op);
    }
    text += "\n      inputs: " + nameList(c, step.inputs) + "; outputs: " + nameList(c, step.outputs) + "\n";
  }

  text += "\noperations:\n";
  size_t width = 0;
  for (const auto& v : c.plan.views)
    width = std::max(width, v.name.size());
  const auto placements = placementsInFileOrder(c);
  for (size_t i = 0; i < placements.size(); ++i) {
    const partition::Placement* p = placements[i];
    if (p == nullptr) continue;
    const auto& op = c.file.operations[i];
    text += "  " + std::to_string(i) + " " + c.file.operationLabel(static_cast<uint32_t>(i)) + " (line " +
            std::to_string(op.line) + ") -> " + deviceName(c, p->device) + ": " +
            partition::ruleText(plan, *p, c.plan.views) + "\n";
    for (const auto& candidate : plan.candidatesOf(*p)) {
      std::string name = deviceName(c, candidate.device);
      name.resize(std::max(width, name.size()), ' ');
      text += "      " + name + "  " +
              (candidate.excluded() ? "excluded: " + partition::whyText(plan, *p, candidate, c.plan.views)
                                    : "cost " + costText(candidate.cost)) +
              "\n";
    }
  }
  return text;
}

std::string planJson(const PlanContext& c) {
  const auto& plan = c.plan.plan;
  const auto& policy = c.plan.policy;
  JsonWriter j;
  j.beginObject();
  j.field("format", "nnrt-plan");
  j.field("version", 1);
  j.field("model", c.file.path.string());
  j.field("preference", preferenceName(policy.preference));
  j.field("partitioning", partitioningName(policy.mode));
  j.field("explicit_devices", policy.explicitDevices);
  j.field("summary", plan.summary);
  j.key("fallback");
  if (c.fallbackNote.empty()) {
    j.null();
  } else {
    j.value(c.fallbackNote);
  }
  j.key("devices").beginArray();
  for (const auto& v : c.plan.views)
    j.beginObject().field("name", v.name).field("type", deviceTypeName(v.type)).endObject();
  j.endArray();

  auto names = [&](const std::vector<uint32_t>& operands) {
    j.beginArray();
    for (uint32_t o : operands)
      j.value(operandName(c, o));
    j.endArray();
  };
  const auto after = stepPredecessors(c);
  j.key("steps").beginArray();
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const auto& step = plan.steps[s];
    j.beginObject();
    j.field("index", static_cast<uint64_t>(s));
    j.field("device", deviceName(c, step.device));
    j.key("operations").beginArray();
    for (uint32_t position : step.operations)
      j.value(fileIndex(c, position));
    j.endArray();
    j.key("inputs");
    names(step.inputs);
    j.key("outputs");
    names(step.outputs);
    j.key("after").beginArray();
    for (size_t p : after[s])
      j.value(static_cast<uint64_t>(p));
    j.endArray();
    j.endObject();
  }
  j.endArray();

  const auto steps = stepOfOperation(c);
  const auto placements = placementsInFileOrder(c);
  j.key("operations").beginArray();
  for (size_t i = 0; i < c.file.operations.size(); ++i) {
    const auto& op = c.file.operations[i];
    const partition::Placement* p = placements[i];
    j.beginObject();
    j.field("index", static_cast<uint64_t>(i));
    j.field("name", op.name);
    j.field("type", op.typeName);
    j.field("line", op.line);
    j.key("inputs");
    names(op.inputs);
    j.key("outputs");
    names(op.outputs);
    j.key("step");
    if (steps[i] == SIZE_MAX) {
      j.null();
    } else {
      j.value(static_cast<uint64_t>(steps[i]));
    }
    j.field("device", p ? deviceName(c, p->device) : std::string());
    j.field("rule", p ? partition::ruleText(plan, *p, c.plan.views) : std::string());
    j.key("candidates").beginArray();
    if (p != nullptr) {
      for (const auto& candidate : plan.candidatesOf(*p)) {
        j.beginObject();
        j.field("device", deviceName(c, candidate.device));
        j.key("cost");
        if (std::isinf(candidate.cost) || std::isnan(candidate.cost)) {
          j.null();
        } else {
          j.value(candidate.cost);
        }
        j.field("excluded", candidate.excluded());
        j.field("why", partition::whyText(plan, *p, candidate, c.plan.views));
        j.endObject();
      }
    }
    j.endArray();
    j.endObject();
  }
  j.endArray();
  j.endObject();
  return j.str() + "\n";
}

std::string planDot(const PlanContext& c) {
  const auto& plan = c.plan.plan;
  std::string dot = "digraph plan {\n";
  dot += "  graph [rankdir=TB, fontname=\"Helvetica\", labelloc=t, label=" +
         dotQuote(c.file.path.filename().string() + ": " + plan.summary) + "];\n";
  dot += "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n";
  dot += "  edge [fontname=\"Helvetica\", fontsize=10];\n";
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const auto& step = plan.steps[s];
    const size_t color = step.device % kColors;
    dot += "  subgraph cluster_step" + std::to_string(s) + " {\n";
    dot += "    label=" + dotQuote("step " + std::to_string(s) + ": " + deviceName(c, step.device)) +
           "; style=dashed; color=" + dotQuote(kBorder[color]) + ";\n";
    for (uint32_t position : step.operations) {
      uint32_t op = fileIndex(c, position);
      const auto& operation = c.file.operations[op];
      std::string label = std::to_string(op) + ": " + operation.typeName;
      if (!operation.name.empty()) label += "\n" + operation.name;
      dot += "    op" + std::to_string(op) + " [label=" + dotQuote(label) +
             ", fillcolor=" + dotQuote(kFill[color]) + ", color=" + dotQuote(kBorder[color]) + "];\n";
    }
    dot += "  }\n";
  }
  // Producers of every operand; constants are not drawn.
  std::vector<int64_t> producer(c.file.operands.size(), -1);
  for (size_t i = 0; i < c.file.operations.size(); ++i) {
    for (uint32_t o : c.file.operations[i].outputs)
      producer[o] = static_cast<int64_t>(i);
  }
  for (uint32_t input : c.file.inputs) {
    dot += "  in" + std::to_string(input) +
           " [shape=ellipse, style=solid, label=" + dotQuote("input " + operandName(c, input)) + "];\n";
  }
  for (uint32_t output : c.file.outputs) {
    dot += "  out" + std::to_string(output) +
           " [shape=ellipse, style=solid, label=" + dotQuote("output " + operandName(c, output)) + "];\n";
  }
  auto isInput = [&](uint32_t o) {
    for (uint32_t i : c.file.inputs) {
      if (i == o) return true;
    }
    return false;
  };
  for (size_t i = 0; i < c.file.operations.size(); ++i) {
    for (uint32_t o : c.file.operations[i].inputs) {
      std::string from;
      if (producer[o] >= 0) {
        from = "op" + std::to_string(producer[o]);
      } else if (isInput(o)) {
        from = "in" + std::to_string(o);
      } else {
        continue;
      }
      dot += "  " + from + " -> op" + std::to_string(i) + " [label=" + dotQuote(operandName(c, o)) + "];\n";
    }
  }
  for (uint32_t output : c.file.outputs) {
    if (producer[output] < 0) continue;
    dot += "  op" + std::to_string(producer[output]) + " -> out" + std::to_string(output) +
           " [label=" + dotQuote(operandName(c, output)) + "];\n";
  }
  dot += "}\n";
  return dot;
}

}  // namespace nnrt::tools
