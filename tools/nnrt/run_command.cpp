// `nnrt run MODEL`: loads a model file, compiles it (for the devices given, or letting the runtime
// partition it), runs it through the public C API, and prints every output, the timing and which
// device ran each step. Inputs come from raw little-endian files, inline values, or a documented
// deterministic default (docs/model-format.md, "Default inputs").
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "tools/nnrt/commands.hpp"
#include "tools/nnrt/element_codec.hpp"
#include "tools/nnrt/model_execution.hpp"
#include "tools/nnrt/model_file.hpp"
#include "tools/nnrt/npy.hpp"
#include "tools/nnrt/onnx_model_file.hpp"
#include "tools/nnrt/plan_output.hpp"
#include "tools/nnrt/statistics.hpp"

namespace nnrt::tools {
namespace {

constexpr const char* kUsage =
    "usage: nnrt run MODEL [--device(s) NAME[,NAME...]] [--preference "
    "low-power|fast-single-answer|sustained-speed]\n"
    "                      [--input NAME=FILE|NAME=v1,v2,...]... [--shape NAME=d0,d1,...]... [--output NAME=FILE]...\n"
    "                      [--repeat N] [--explain]\n"
    "MODEL is a model file (.yaml) or an ONNX model (.onnx); FILE is raw little-endian data or a .npy\n"
    "array (an output named FILE.npy is written as one). An input of unknown dimensions takes them from\n"
    "--shape, a .npy array's shape, or (one unknown dimension) a raw file's size.\n";
constexpr size_t kPrintedValues = 16;

int usageError(const std::string& message) {
  std::fprintf(stderr, "nnrt run: %s\n%s", message.c_str(), kUsage);
  return 2;
}

int failure(const std::string& message) {
  std::fprintf(stderr, "nnrt run: %s\n", message.c_str());
  return 1;
}

struct Arguments {
  ExecutionOptions execution;
  std::vector<std::pair<std::string, std::string>> outputs;  // name, FILE
  int repeat = 1;
  bool explain = false;
};

std::string valuesText(const ModelFileOperand& operand, const std::vector<uint8_t>& bytes) {
  std::string text;
  if (!operand.element) {
    char hex[4];
    for (size_t i = 0; i < bytes.size() && i < 4 * kPrintedValues; ++i) {
      std::snprintf(hex, sizeof hex, "%02x", bytes[i]);
      text += hex;
    }
    return text + " (" + std::to_string(bytes.size()) + " bytes, hex)";
  }
  const size_t size = elementBytes(*operand.element);
  const size_t count = bytes.size() / size;
  for (size_t i = 0; i < count && i < kPrintedValues; ++i) {
    text += (i ? " " : "") + formatElement(*operand.element, bytes.data() + i * size);
  }
  if (count > kPrintedValues) text += " ... (" + std::to_string(count) + " values)";
  return text;
}

// Median of the available values (milliseconds) as text; "n/a" when none.
std::string medianText(const std::vector<double>& values) {
  auto summary = summarize(values);
  return summary ? durationText(summary->median) : "n/a";
}

Result<Arguments> parseArguments(const std::vector<std::string>& args) {
  Arguments out;
  auto bad = [](const std::string& m) { return fail(ResultCode::BAD_DATA, m); };
  for (size_t i = 0; i < args.size(); ++i) {
    NNRT_ASSIGN_OR_RETURN(bool shared, parseExecutionOption(args, i, out.execution));
    if (shared) continue;
    const std::string& a = args[i];
    const std::string* value = nullptr;
    if (a == "--output" || a == "--repeat") {
      if (i + 1 >= args.size()) return bad(a + " needs a value");
      value = &args[++i];
    }
    if (a == "--output") {
      size_t eq = value->find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == value->size())
        return bad("--output takes NAME=...");
      out.outputs.emplace_back(value->substr(0, eq), value->substr(eq + 1));
    } else if (a == "--repeat") {
      auto n = parseCount(*value, 1, 1000000);
      if (!n) return bad("--repeat takes a number from 1 to 1000000");
      out.repeat = static_cast<int>(*n);
    } else if (a == "--explain") {
      out.explain = true;
    } else if (!a.empty() && a[0] == '-') {
      return bad("unknown option '" + a + "'");
    } else if (out.execution.model.empty()) {
      out.execution.model = a;
    } else {
      return bad("one model file only");
    }
  }
  if (out.execution.model.empty()) return bad("no model file");
  return out;
}

Result<void> writeOutputs(const ModelFile& file, const Arguments& args, const Outcome& outcome,
                          std::vector<std::string>& written) {
  written.assign(file.outputs.size(), "");
  for (const auto& [name, path] : args.outputs) {
    size_t position = file.outputs.size();
    for (size_t i = 0; i < file.outputs.size(); ++i) {
      if (file.operands[file.outputs[i]].name == name) position = i;
    }
    if (position == file.outputs.size()) {
      return fail(ResultCode::BAD_DATA,
                  "--output " + name + ": the model has no output named '" + name + "'");
    }
    std::ofstream out(path, std::ios::binary);
    std::vector<uint8_t> bytes = outcome.outputs[position];
    const ModelFileOperand& operand = file.operands[file.outputs[position]];
    if (path.size() > 4 && path.ends_with(".npy")) {
      if (!operand.element) {
        return fail(ResultCode::BAD_DATA,
                    "--output " + name + ": its element type is unknown, no .npy dtype");
      }
      NNRT_ASSIGN_OR_RETURN(bytes, encodeNpy(*operand.element, outcome.dimensions[position], bytes));
    }
    if (!out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()))) {
      return fail(ResultCode::BAD_DATA, "--output " + name + ": cannot write '" + path + "'");
    }
    written[position] = path;
  }
  return {};
}

}  // namespace

int runCommand(const std::vector<std::string>& argv) {
  if (std::find(argv.begin(), argv.end(), "--help") != argv.end() ||
      std::find(argv.begin(), argv.end(), "-h") != argv.end()) {
    std::printf("%s", kUsage);
    return 0;
  }
  auto args = parseArguments(argv);
  if (!args) return usageError(args.error().message);
  ModelSession session;
  if (auto opened = openSession(args->execution, session); !opened) return failure(opened.error().message);
  const ModelFile& file = *session.file;
  const std::vector<ModelInput>& inputs = session.inputs;
  const Compiled& compiled = session.compiled;
  const auto compiledModel = compiled.compilation->compilation.compiled();
  const PlanResult& plan = compiledModel->plan();

  std::printf("model: %s\n", file.path.string().c_str());
  std::printf("compiled in %.1f ms: %s\n", compiled.compileMs, plan.plan.summary.c_str());
  if (!compiledModel->fallbackNote().empty())
    std::printf("fallback: %s\n", compiledModel->fallbackNote().c_str());
  if (args->explain) {
    PlanContext context{file, compiledModel->model(), plan, compiledModel->fallbackNote()};
    std::printf("\n%s\n", planText(context).c_str());
  }

  std::vector<size_t> outputSizes = initialOutputSizes(file);
  std::vector<Outcome> runs;
  for (int r = 0; r < args->repeat; ++r) {
    auto outcome = runOnce(file, compiled.compilation, inputs, outputSizes);
    if (!outcome) return failure(outcome.error().message);
    runs.push_back(std::move(*outcome));
    // Only the last run's outputs are printed: the others' memory goes back now, so a long --repeat
    // neither grows without bound nor runs each execution on freshly faulted pages.
    if (r + 1 < args->repeat) runs.back().outputs = {};
  }
  const Outcome& last = runs.back();
  std::vector<std::string> written;
  if (auto ok = writeOutputs(file, *args, last, written); !ok) return failure(ok.error().message);

  for (size_t i = 0; i < file.inputs.size(); ++i) {
    const ModelFileOperand& o = file.operands[file.inputs[i]];
    std::printf("input  %s: %s %s, %s: %s\n", o.name.c_str(), o.typeName.c_str(),
                shapeText(inputs[i].dims.empty() ? o.dimensions : inputs[i].dims).c_str(), inputs[i].origin.c_str(),
                valuesText(o, inputs[i].bytes).c_str());
  }
  for (size_t i = 0; i < file.outputs.size(); ++i) {
    const ModelFileOperand& o = file.operands[file.outputs[i]];
    std::string quant;
    if (o.scale > 0)
      quant = " (quantized: scale " + std::to_string(o.scale) + ", zero point " +
              std::to_string(o.zeroPoint) + ")";
    if (!written[i].empty()) {
      std::printf("output %s: %s %s%s written to %s (%zu bytes)\n", o.name.c_str(), o.typeName.c_str(),
                  shapeText(last.dimensions[i]).c_str(), quant.c_str(), written[i].c_str(),
                  last.outputs[i].size());
    } else {
      std::printf("output %s: %s %s%s: %s\n", o.name.c_str(), o.typeName.c_str(),
                  shapeText(last.dimensions[i]).c_str(), quant.c_str(),
                  valuesText(o, last.outputs[i]).c_str());
    }
  }
  std::printf("ran on: %s\n", stepsText(last.steps).c_str());
  std::vector<double> wall, hardware, driver;
  for (const Outcome& run : runs) {
    wall.push_back(run.wallMs);
    if (run.onHardwareMs) hardware.push_back(*run.onHardwareMs);
    if (run.inDriverMs) driver.push_back(*run.inDriverMs);
  }
  std::string label =
      runs.size() == 1 ? "timing" : "timing (median of " + std::to_string(runs.size()) + " runs)";
  std::printf("%s: wall %s, on hardware %s, in driver %s\n", label.c_str(), medianText(wall).c_str(),
              medianText(hardware).c_str(), medianText(driver).c_str());
  return 0;
}

}  // namespace nnrt::tools
