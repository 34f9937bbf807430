#include "tools/nnrt/plan_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/capi/handles.hpp"
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

// One planned model of the file: the main one, or a referenced subgraph that interpreted control flow
// runs.
struct GraphPlan {
  const ModelFileGraph& graph;
  const std::vector<uint32_t>& originalIndex;  // plan position -> position in the file's `operations:`
  const partition::Plan& plan;
  const std::vector<partition::DeviceView>& views;  // the devices' view of this model
};

GraphPlan mainPlan(const PlanContext& c) {
  return {c.file, c.model.originalIndex, c.plan.plan, c.plan.views};
}

// A referenced subgraph an interpreted step runs: its role, the file's subgraph and its plan.
struct NestedPlan {
  const char* role;  // "then", "else", "condition", "body"
  const ModelFileSubgraph& file;
  GraphPlan plan;
};

// The subgraphs interpreted step `step` of `g` runs, in Step::subgraphs order; those the file or the
// plan does not know are left out (the file loader makes every subgraph the model refers to).
std::vector<NestedPlan> nestedPlans(const PlanContext& c, const GraphPlan& g, const partition::Step& step) {
  std::vector<NestedPlan> nested;
  if (!step.interpreted() || step.operations.empty()) return nested;
  const bool isIf = g.plan.placements[step.operations.front()].type == static_cast<int32_t>(driver::OperationType::IF);
  static const char* const kIfRoles[] = {"then", "else"};
  static const char* const kWhileRoles[] = {"condition", "body"};
  for (size_t i = 0; i < step.subgraphs.size() && i < 2; ++i) {
    const uint32_t k = step.subgraphs[i];
    if (k >= c.plan.subgraphPlans.size() || !c.plan.subgraphPlans[k] || k >= c.model.referencedModels.size())
      continue;
    const FinishedModel* source = c.model.referencedModels[k].get();
    for (const ModelFileSubgraph& sub : c.file.subgraphs) {
      if (sub.model->builder.finishedModel().get() != source) continue;
      const SubgraphPlan& planned = *c.plan.subgraphPlans[k];
      nested.push_back({isIf ? kIfRoles[i] : kWhileRoles[i], sub,
                        GraphPlan{sub, source->originalIndex, planned.plan, planned.views}});
      break;
    }
  }
  return nested;
}

// The plan numbers operations by their position in the finished (sorted) model; files number them
// in the order of `operations:`.
uint32_t fileIndex(const GraphPlan& g, uint32_t position) {
  return position < g.originalIndex.size() ? g.originalIndex[position] : position;
}

std::string operandName(const GraphPlan& g, uint32_t operand) {
  return operand < g.graph.operands.size() ? g.graph.operands[operand].name : "#" + std::to_string(operand);
}

std::string deviceName(const GraphPlan& g, size_t device) {
  if (device == partition::kInterpreter) return "runtime";
  return device < g.views.size() ? g.views[device].name : "device " + std::to_string(device);
}

std::string nameList(const GraphPlan& g, const std::vector<uint32_t>& operands) {
  std::string s;
  for (uint32_t o : operands)
    s += (s.empty() ? "" : ", ") + operandName(g, o);
  return s.empty() ? "-" : s;
}

std::string costText(double cost) {
  if (std::isinf(cost)) return "unknown (operand type not in the device's table)";
  char text[32];
  std::snprintf(text, sizeof text, "%g", cost);
  return text;
}

// For each file operation index: the step that runs it.
std::vector<size_t> stepOfOperation(const GraphPlan& g) {
  std::vector<size_t> step(g.graph.operations.size(), SIZE_MAX);
  for (size_t s = 0; s < g.plan.steps.size(); ++s) {
    for (uint32_t position : g.plan.steps[s].operations) {
      uint32_t index = fileIndex(g, position);
      if (index < step.size()) step[index] = s;
    }
  }
  return step;
}

// Placements in file order.
std::vector<const partition::Placement*> placementsInFileOrder(const GraphPlan& g) {
  std::vector<const partition::Placement*> out(g.graph.operations.size(), nullptr);
  for (const auto& p : g.plan.placements) {
    uint32_t index = fileIndex(g, p.operation);
    if (index < out.size()) out[index] = &p;
  }
  return out;
}

std::vector<std::vector<size_t>> stepPredecessors(const GraphPlan& g) {
  std::vector<std::vector<size_t>> after(g.plan.steps.size());
  for (const auto& [producer, consumer] : g.plan.dependencies) {
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

namespace {

std::string subgraphHeading(const NestedPlan& n) {
  return std::string(n.role) + ": subgraph '" + n.file.name + "' (line " + std::to_string(n.file.line) +
         "), plan: " + n.plan.plan.summary;
}

// The steps of `g`, each interpreted step followed by the plans of the subgraphs it runs, nested.
void stepsText(const PlanContext& c, const GraphPlan& g, const std::string& indent, std::string& text) {
  const auto after = stepPredecessors(g);
  for (size_t s = 0; s < g.plan.steps.size(); ++s) {
    const auto& step = g.plan.steps[s];
    text += indent + "step " + std::to_string(s) + " on " + deviceName(g, step.device);
    if (!after[s].empty()) {
      text += " (after step";
      for (size_t i = 0; i < after[s].size(); ++i)
        text += (i ? ", " : " ") + std::to_string(after[s][i]);
      text += ")";
    }
    text += ":";
    for (size_t i = 0; i < step.operations.size(); ++i) {
      uint32_t op = fileIndex(g, step.operations[i]);
      text += (i ? ", " : " ") + std::to_string(op) + " " + g.graph.operationLabel(op);
    }
    text += "\n" + indent + "    inputs: " + nameList(g, step.inputs) + "; outputs: " + nameList(g, step.outputs) +
            "\n";
    for (const NestedPlan& n : nestedPlans(c, g, step)) {
      text += indent + "    " + subgraphHeading(n) + "\n";
      stepsText(c, n.plan, indent + "      ", text);
    }
  }
}

// Per operation of `g`: its device, the rule and every candidate.
void operationsText(const GraphPlan& g, std::string& text) {
  size_t width = 0;
  for (const auto& v : g.views)
    width = std::max(width, v.name.size());
  const auto placements = placementsInFileOrder(g);
  for (size_t i = 0; i < placements.size(); ++i) {
    const partition::Placement* p = placements[i];
    if (p == nullptr) continue;
    const auto& op = g.graph.operations[i];
    text += "  " + std::to_string(i) + " " + g.graph.operationLabel(static_cast<uint32_t>(i)) + " (line " +
            std::to_string(op.line) + ") -> " + deviceName(g, p->device) + ": " +
            partition::ruleText(g.plan, *p, g.views) + "\n";
    for (const auto& candidate : g.plan.candidatesOf(*p)) {
      std::string name = deviceName(g, candidate.device);
      name.resize(std::max(width, name.size()), ' ');
      text += "      " + name + "  " +
              (candidate.excluded() ? "excluded: " + partition::whyText(g.plan, *p, candidate, g.views)
                                    : "cost " + costText(candidate.cost)) +
              "\n";
    }
  }
}

// Every subgraph planned for `g`'s interpreted steps, and theirs, each once, depth first.
void collectNested(const PlanContext& c, const GraphPlan& g, std::vector<NestedPlan>& out) {
  for (const auto& step : g.plan.steps) {
    for (NestedPlan& n : nestedPlans(c, g, step)) {
      bool seen = false;
      for (const NestedPlan& o : out)
        seen = seen || &o.file == &n.file;
      if (seen) continue;
      out.push_back(n);
      const GraphPlan inner = n.plan;  // `out` grows below
      collectNested(c, inner, out);
    }
  }
}

void stepsJson(JsonWriter& j, const PlanContext& c, const GraphPlan& g);
void operationsJson(JsonWriter& j, const GraphPlan& g);

void namesJson(JsonWriter& j, const GraphPlan& g, const std::vector<uint32_t>& operands) {
  j.beginArray();
  for (uint32_t o : operands)
    j.value(operandName(g, o));
  j.endArray();
}

void stepsJson(JsonWriter& j, const PlanContext& c, const GraphPlan& g) {
  const auto after = stepPredecessors(g);
  j.beginArray();
  for (size_t s = 0; s < g.plan.steps.size(); ++s) {
    const auto& step = g.plan.steps[s];
    j.beginObject();
    j.field("index", static_cast<uint64_t>(s));
    j.field("device", deviceName(g, step.device));
    j.key("operations").beginArray();
    for (uint32_t position : step.operations)
      j.value(fileIndex(g, position));
    j.endArray();
    j.key("inputs");
    namesJson(j, g, step.inputs);
    j.key("outputs");
    namesJson(j, g, step.outputs);
    j.key("after").beginArray();
    for (size_t p : after[s])
      j.value(static_cast<uint64_t>(p));
    j.endArray();
    j.key("subgraphs").beginArray();
    for (const NestedPlan& n : nestedPlans(c, g, step)) {
      j.beginObject();
      j.field("role", n.role);
      j.field("name", n.file.name);
      j.field("line", n.file.line);
      j.field("summary", n.plan.plan.summary);
      j.key("steps");
      stepsJson(j, c, n.plan);
      j.key("operations");
      operationsJson(j, n.plan);
      j.endObject();
    }
    j.endArray();
    j.endObject();
  }
  j.endArray();
}

void operationsJson(JsonWriter& j, const GraphPlan& g) {
  const auto steps = stepOfOperation(g);
  const auto placements = placementsInFileOrder(g);
  j.beginArray();
  for (size_t i = 0; i < g.graph.operations.size(); ++i) {
    const auto& op = g.graph.operations[i];
    const partition::Placement* p = placements[i];
    j.beginObject();
    j.field("index", static_cast<uint64_t>(i));
    j.field("name", op.name);
    j.field("type", op.typeName);
    j.field("line", op.line);
    j.key("inputs");
    namesJson(j, g, op.inputs);
    j.key("outputs");
    namesJson(j, g, op.outputs);
    j.key("step");
    if (steps[i] == SIZE_MAX) {
      j.null();
    } else {
      j.value(static_cast<uint64_t>(steps[i]));
    }
    j.field("device", p ? deviceName(g, p->device) : std::string());
    j.field("rule", p ? partition::ruleText(g.plan, *p, g.views) : std::string());
    j.key("candidates").beginArray();
    if (p != nullptr) {
      for (const auto& candidate : g.plan.candidatesOf(*p)) {
        j.beginObject();
        j.field("device", deviceName(g, candidate.device));
        j.key("cost");
        if (std::isinf(candidate.cost) || std::isnan(candidate.cost)) {
          j.null();
        } else {
          j.value(candidate.cost);
        }
        j.field("excluded", candidate.excluded());
        j.field("why", partition::whyText(g.plan, *p, candidate, g.views));
        j.endObject();
      }
    }
    j.endArray();
    j.endObject();
  }
  j.endArray();
}

// The steps of `g` as clusters, its operations as boxes in them (an interpreted step holds a cluster
// per subgraph it runs, drawn the same way), its inputs and outputs as ellipses and its operands as
// edges. Every name starts with `prefix` ("" for the main model), so that a subgraph drawn twice has
// names of its own.
void graphDot(const PlanContext& c, const GraphPlan& g, const std::string& prefix, const std::string& indent,
              std::string& dot) {
  const ModelFileGraph& file = g.graph;
  for (size_t s = 0; s < g.plan.steps.size(); ++s) {
    const auto& step = g.plan.steps[s];
    // The runtime's steps (interpreted control flow) are grey; devices have a colour each.
    const char* const fill = step.interpreted() ? "#e5e5e5" : kFill[step.device % kColors];
    const char* const border = step.interpreted() ? "#7f7f7f" : kBorder[step.device % kColors];
    const std::string stepName = prefix + "step" + std::to_string(s);
    dot += indent + "subgraph cluster_" + stepName + " {\n";
    dot += indent + "  label=" + dotQuote("step " + std::to_string(s) + ": " + deviceName(g, step.device)) +
           "; style=dashed; color=" + dotQuote(border) + ";\n";
    for (uint32_t position : step.operations) {
      uint32_t op = fileIndex(g, position);
      const auto& operation = file.operations[op];
      std::string label = std::to_string(op) + ": " + operation.typeName;
      if (!operation.name.empty()) label += "\n" + operation.name;
      dot += indent + "  " + prefix + "op" + std::to_string(op) + " [label=" + dotQuote(label) +
             ", fillcolor=" + dotQuote(fill) + ", color=" + dotQuote(border) + "];\n";
    }
    for (const NestedPlan& n : nestedPlans(c, g, step)) {
      const std::string nested = stepName + "_" + n.role + "_";
      dot += indent + "  subgraph cluster_" + nested + " {\n";
      dot += indent + "    label=" + dotQuote(std::string(n.role) + ": subgraph '" + n.file.name + "'") +
             "; style=solid; color=\"#7f7f7f\";\n";
      graphDot(c, n.plan, nested, indent + "    ", dot);
      dot += indent + "  }\n";
    }
    dot += indent + "}\n";
  }
  // Producers of every operand; constants are not drawn.
  std::vector<int64_t> producer(file.operands.size(), -1);
  for (size_t i = 0; i < file.operations.size(); ++i) {
    for (uint32_t o : file.operations[i].outputs)
      producer[o] = static_cast<int64_t>(i);
  }
  for (uint32_t input : file.inputs) {
    dot += indent + prefix + "in" + std::to_string(input) +
           " [shape=ellipse, style=solid, label=" + dotQuote("input " + operandName(g, input)) + "];\n";
  }
  for (uint32_t output : file.outputs) {
    dot += indent + prefix + "out" + std::to_string(output) +
           " [shape=ellipse, style=solid, label=" + dotQuote("output " + operandName(g, output)) + "];\n";
  }
  auto isInput = [&](uint32_t o) {
    for (uint32_t i : file.inputs) {
      if (i == o) return true;
    }
    return false;
  };
  for (size_t i = 0; i < file.operations.size(); ++i) {
    for (uint32_t o : file.operations[i].inputs) {
      std::string from;
      if (producer[o] >= 0) {
        from = prefix + "op" + std::to_string(producer[o]);
      } else if (isInput(o)) {
        from = prefix + "in" + std::to_string(o);
      } else {
        continue;
      }
      dot += indent + from + " -> " + prefix + "op" + std::to_string(i) + " [label=" + dotQuote(operandName(g, o)) +
             "];\n";
    }
  }
  for (uint32_t output : file.outputs) {
    if (producer[output] < 0) continue;
    dot += indent + prefix + "op" + std::to_string(producer[output]) + " -> " + prefix + "out" +
           std::to_string(output) + " [label=" + dotQuote(operandName(g, output)) + "];\n";
  }
}

}  // namespace

std::string planText(const PlanContext& c) {
  const GraphPlan g = mainPlan(c);
  const auto& plan = c.plan.plan;
  const auto& policy = c.plan.policy;
  auto count = [](size_t n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  std::string text = "model: " + c.file.path.string() + " (" + count(c.file.operations.size(), "operation") +
                     ", " + count(c.file.operands.size(), "operand");
  if (!c.file.subgraphs.empty()) text += ", " + count(c.file.subgraphs.size(), "subgraph");
  text += ")\n";
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
  stepsText(c, g, "  ", text);
  text += "\noperations:\n";
  operationsText(g, text);
  std::vector<NestedPlan> nested;
  collectNested(c, g, nested);
  for (const NestedPlan& n : nested) {
    text += "\noperations of subgraph '" + n.file.name + "':\n";
    operationsText(n.plan, text);
  }
  return text;
}

std::string planJson(const PlanContext& c) {
  const GraphPlan g = mainPlan(c);
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
  j.key("steps");
  stepsJson(j, c, g);
  j.key("operations");
  operationsJson(j, g);
  j.endObject();
  return j.str() + "\n";
}

std::string planDot(const PlanContext& c) {
  std::string dot = "digraph plan {\n";
  dot += "  graph [rankdir=TB, fontname=\"Helvetica\", labelloc=t, label=" +
         dotQuote(c.file.path.filename().string() + ": " + c.plan.plan.summary) + "];\n";
  dot += "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n";
  dot += "  edge [fontname=\"Helvetica\", fontsize=10];\n";
  graphDot(c, mainPlan(c), "", "  ", dot);
  dot += "}\n";
  return dot;
}

}  // namespace nnrt::tools
