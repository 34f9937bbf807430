// The three renderings of a partition plan for `nnrt plan` and `nnrt run --explain`: text, JSON and
// Graphviz (docs/plan-format.md). Operations are numbered, and operands named, as in the model file.
#pragma once

#include <string>

#include "core/compilation/compilation.hpp"
#include "core/model/model.hpp"
#include "tools/nnrt/model_file.hpp"

namespace nnrt::tools {

struct PlanContext {
  const ModelFile& file;
  const FinishedModel& model;  // the finished model of `file` (maps plan positions to file order)
  const PlanResult& plan;
  std::string fallbackNote;  // a compiled plan's fallback note ("" for `nnrt plan`)
};

std::string planText(const PlanContext& context);
std::string planJson(const PlanContext& context);
std::string planDot(const PlanContext& context);

// "low-power", "fast-single-answer", "sustained-speed" <-> NNRT_PREFER_*; -1 when unknown.
int32_t parsePreference(const std::string& name);
std::string preferenceName(int32_t preference);

}  // namespace nnrt::tools
