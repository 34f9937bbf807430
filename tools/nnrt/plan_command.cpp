// `nnrt plan MODEL`: how a model file would be partitioned — steps, and per operation every
// candidate device with its cost or why it was excluded, and the deciding rule. Plans only
// (planModel): nothing is prepared on any device.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/capi/handles.hpp"
#include "core/compilation/compilation.hpp"
#include "core/device/device_registry.hpp"
#include "tools/nnrt/commands.hpp"
#include "tools/nnrt/model_file.hpp"
#include "tools/nnrt/model_execution.hpp"
#include "tools/nnrt/onnx_model_file.hpp"
#include "tools/nnrt/plan_output.hpp"

namespace nnrt::tools {
namespace {

constexpr const char* kUsage =
    "usage: nnrt plan MODEL [--preference low-power|fast-single-answer|sustained-speed] [--devices a,b]\n"
    "                       [--shape NAME=d0,d1,...]... [--json] [--dot FILE]\n"
    "--shape gives an ONNX model's input the whole shape its file leaves unknown.\n";

int usageError(const std::string& message) {
  std::fprintf(stderr, "nnrt plan: %s\n%s", message.c_str(), kUsage);
  return 2;
}

}  // namespace

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

Result<std::vector<std::shared_ptr<DriverDevice>>> findDevices(const DeviceRegistry& registry,
                                                               const std::vector<std::string>& names) {
  std::vector<std::shared_ptr<DriverDevice>> found;
  for (const std::string& name : names) {
    bool any = false;
    for (const auto& d : registry.devices()) {
      const std::string& n = d->name();
      if (n == name || n.substr(0, n.find(':')) == name) {
        any = true;
        bool seen = false;
        for (const auto& f : found)
          seen = seen || f == d;
        if (!seen) found.push_back(d);
      }
    }
    if (!any) {
      std::string list;
      for (const auto& d : registry.devices())
        list += (list.empty() ? "" : ", ") + d->name();
      return fail(ResultCode::BAD_DATA,
                  "no device named '" + name + "' (devices: " + (list.empty() ? "none" : list) + ")");
    }
  }
  return found;
}

int planCommand(const std::vector<std::string>& args) {
  std::string modelPath, dotPath;
  std::vector<std::string> deviceNames;
  InputShapes shapes;
  int32_t preference = -1;
  bool json = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&]() -> const std::string* { return i + 1 < args.size() ? &args[++i] : nullptr; };
    if (a == "--json") {
      json = true;
    } else if (a == "--preference") {
      const std::string* v = next();
      if (v == nullptr || (preference = parsePreference(*v)) < 0) {
        return usageError("--preference takes low-power, fast-single-answer or sustained-speed");
      }
    } else if (a == "--devices") {
      const std::string* v = next();
      if (v == nullptr || v->empty())
        return usageError("--devices takes a comma-separated list of device names");
      deviceNames = splitList(*v);
    } else if (a == "--shape") {
      const std::string* v = next();
      if (v == nullptr) return usageError("--shape takes NAME=d0,d1,...");
      auto shape = parseShapeOption(*v);
      if (!shape) return usageError(shape.error().message);
      shapes[shape->first] = std::move(shape->second);
    } else if (a == "--dot") {
      const std::string* v = next();
      if (v == nullptr) return usageError("--dot takes a file name");
      dotPath = *v;
    } else if (a == "-h" || a == "--help") {
      std::printf("%s", kUsage);
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      return usageError("unknown option '" + a + "'");
    } else if (modelPath.empty()) {
      modelPath = a;
    } else {
      return usageError("one model file only");
    }
  }
  if (modelPath.empty()) return usageError("no model file");

  DeviceRegistry& registry = DeviceRegistry::global();
  if (registry.configError()) {
    std::fprintf(stderr, "nnrt: %s\n", registry.configError()->message.c_str());
    return 1;
  }
  auto file = loadAnyModelFile(modelPath, shapes);
  if (!file) {
    std::fprintf(stderr, "nnrt plan: %s\n", file.error().message.c_str());
    return 1;
  }
  std::vector<std::shared_ptr<DriverDevice>> devices;
  if (!deviceNames.empty()) {
    auto found = findDevices(registry, deviceNames);
    if (!found) {
      std::fprintf(stderr, "nnrt plan: --devices: %s\n", found.error().message.c_str());
      return 1;
    }
    devices = std::move(*found);
  }
  CompileOptions options;
  if (preference >= 0) options.preference = preference;
  const auto finished = file->model->builder.finishedModel();
  auto planned = planModel(*finished, registry, devices, options);
  if (!planned) {
    std::fprintf(stderr, "nnrt plan: %s: %s\n", modelPath.c_str(), planned.error().message.c_str());
    return 1;
  }
  PlanContext context{*file, *finished, *planned, ""};
  std::printf("%s", json ? planJson(context).c_str() : planText(context).c_str());
  if (!dotPath.empty()) {
    std::ofstream dot(dotPath);
    if (!(dot << planDot(context))) {
      std::fprintf(stderr, "nnrt plan: cannot write '%s'\n", dotPath.c_str());
      return 1;
    }
    if (!json)
      std::printf("\ngraph written to %s (render: dot -Tsvg %s -o plan.svg)\n", dotPath.c_str(),
                  dotPath.c_str());
  }
  return 0;
}

}  // namespace nnrt::tools
