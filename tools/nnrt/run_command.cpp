// `nnrt run MODEL`: loads a model file, compiles it (for the devices given, or letting the runtime
// partition it), runs it through the public C API, and prints every output, the timing and which
// device ran each step. Inputs come from raw little-endian files, inline values, or a documented
// deterministic default (docs/model-format.md, "Default inputs").
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/capi/handles.hpp"
#include "core/device/device_registry.hpp"
#include "nnrt/driver/ops/operand_types.hpp"
#include "tools/nnrt/commands.hpp"
#include "tools/nnrt/element_codec.hpp"
#include "tools/nnrt/model_file.hpp"
#include "tools/nnrt/npy.hpp"
#include "tools/nnrt/onnx_model_file.hpp"
#include "tools/nnrt/plan_output.hpp"

namespace nnrt::tools {
namespace {

constexpr const char* kUsage =
    "usage: nnrt run MODEL [--device NAME[,NAME...]] [--preference "
    "low-power|fast-single-answer|sustained-speed]\n"
    "                      [--input NAME=FILE|NAME=v1,v2,...]... [--output NAME=FILE]... [--repeat N] "
    "[--explain]\n"
    "MODEL is a model file (.yaml) or an ONNX model (.onnx); FILE is raw little-endian data or a .npy\n"
    "array (an output named FILE.npy is written as one).\n";
constexpr size_t kPrintedValues = 16;
constexpr size_t kUnknownOutputBytes = 1 << 16;  // first guess for an output of unknown size

int usageError(const std::string& message) {
  std::fprintf(stderr, "nnrt run: %s\n%s", message.c_str(), kUsage);
  return 2;
}

int failure(const std::string& message) {
  std::fprintf(stderr, "nnrt run: %s\n", message.c_str());
  return 1;
}

Error apiError(const char* function, int code, const std::string& context = "") {
  return Error{static_cast<ResultCode>(code),
               (context.empty() ? "" : context + ": ") + function + " returned " + resultCodeText(code)};
}

struct Arguments {
  std::string model;
  std::vector<std::string> devices;
  int32_t preference = -1;
  std::vector<std::pair<std::string, std::string>> inputs;   // name, FILE or values
  std::vector<std::pair<std::string, std::string>> outputs;  // name, FILE
  int repeat = 1;
  bool explain = false;
};

struct Compiled {
  ANeuralNetworksCompilation* compilation = nullptr;
  ~Compiled() { ANeuralNetworksCompilation_free(compilation); }
};

struct Input {
  std::vector<uint8_t> bytes;
  std::string origin;  // "given", "from FILE", or the default marker
};

struct Outcome {
  std::vector<std::vector<uint8_t>> outputs;
  std::vector<std::vector<uint32_t>> dimensions;
  std::vector<std::string> devicesUsed;
  uint64_t onHardwareNs = UINT64_MAX, inDriverNs = UINT64_MAX;
  double wallMs = 0;
};

std::string shapeText(const std::vector<uint32_t>& dims) {
  return dims.empty() ? "scalar" : ops::shapeToString(dims);
}

std::optional<size_t> elementCount(const ModelFileOperand& operand) {
  size_t count = 1;
  for (uint32_t d : operand.dimensions) {
    if (d == 0) return std::nullopt;
    count *= d;
  }
  return count;
}

// The default input: element k of model input i is 1 + (s_k >> 33) % 9 (an integer 1..9, in the
// input's element type; bool: odd -> true), where s_0 = i + 1 and s_{k+1} = s_k * 6364136223846793005
// + 1442695040888963407 (mod 2^64). Documented in docs/model-format.md.
std::vector<uint8_t> defaultInput(ElementType element, size_t inputIndex, size_t count) {
  std::vector<uint8_t> bytes;
  uint64_t s = inputIndex + 1;
  for (size_t k = 0; k < count; ++k) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t v = 1 + (s >> 33) % 9;
    if (element == ElementType::Bool8) v %= 2;
    appendElement(element, std::to_string(v), bytes);
  }
  return bytes;
}

Result<std::vector<uint8_t>> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(ResultCode::BAD_DATA, "cannot open '" + path + "': " + std::strerror(errno));
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A .npy file whose dtype is the operand's element type (int64 narrowed to an int32 operand, as the
// ONNX front end carries int64 tensors) and whose element count fits the operand's known shape.
Result<Input> inputFromNpy(const ModelFileOperand& o, const std::string& path) {
  NNRT_ASSIGN_OR_RETURN(NpyArray array, readNpy(path));
  if (!o.element) return fail(ResultCode::BAD_DATA, "'" + path + "': the input's element type is unknown");
  std::vector<uint8_t> bytes;
  if (array.dtype == npyDtype(*o.element)) {
    bytes = std::move(array.data);
  } else if (array.dtype == "<i8" && *o.element == ElementType::I32) {
    for (size_t i = 0; i < array.data.size(); i += 8) {
      int64_t v;
      std::memcpy(&v, array.data.data() + i, 8);
      if (v < INT32_MIN || v > INT32_MAX) {
        return fail(ResultCode::BAD_DATA,
                    "'" + path + "': value " + std::to_string(v) + " does not fit int32");
      }
      int32_t narrow = static_cast<int32_t>(v);
      bytes.insert(bytes.end(), reinterpret_cast<uint8_t*>(&narrow), reinterpret_cast<uint8_t*>(&narrow) + 4);
    }
  } else {
    return fail(ResultCode::BAD_DATA, "'" + path + "': dtype '" + array.dtype + "' is not the input's " +
                                          elementTypeName(*o.element));
  }
  auto count = elementCount(o);
  if (count && *count * elementBytes(*o.element) != bytes.size()) {
    return fail(ResultCode::BAD_DATA, "'" + path +
                                          "': " + std::to_string(bytes.size() / elementBytes(*o.element)) +
                                          " elements where the input has " + std::to_string(*count));
  }
  return Input{std::move(bytes), "from " + path};
}

// NAME=v1,v2,... when every item is a number of the operand's element type, else NAME=FILE.
Result<Input> inputFromArgument(const ModelFile& file, uint32_t operand, const std::string& text) {
  const ModelFileOperand& o = file.operands[operand];
  std::string problem = "its element type is unknown";
  if (o.element) {
    std::vector<uint8_t> bytes;
    problem.clear();
    for (const std::string& item : splitList(text)) {
      problem = appendElement(*o.element, item, bytes);
      if (!problem.empty()) break;
    }
    if (problem.empty()) return Input{std::move(bytes), "given"};
  }
  if (text.size() > 4 && text.ends_with(".npy")) return inputFromNpy(o, text);
  auto bytes = readFile(text);
  if (!bytes) {
    return fail(ResultCode::BAD_DATA, "'" + text + "' is neither values (" + problem + ") nor a file (" +
                                          bytes.error().message + ")");
  }
  return Input{std::move(*bytes), "from " + text};
}

Result<std::vector<Input>> prepareInputs(const ModelFile& file, const Arguments& args) {
  std::vector<Input> inputs(file.inputs.size());
  std::vector<bool> given(file.inputs.size(), false);
  for (const auto& [name, text] : args.inputs) {
    size_t position = file.inputs.size();
    for (size_t i = 0; i < file.inputs.size(); ++i) {
      if (file.operands[file.inputs[i]].name == name) position = i;
    }
    if (position == file.inputs.size()) {
      std::string list;
      for (uint32_t i : file.inputs)
        list += (list.empty() ? "" : ", ") + file.operands[i].name;
      return fail(ResultCode::BAD_DATA, "--input " + name + ": the model has no input named '" + name +
                                            "' (inputs: " + (list.empty() ? "none" : list) + ")");
    }
    auto input = inputFromArgument(file, file.inputs[position], text);
    if (!input) return fail(ResultCode::BAD_DATA, "--input " + name + ": " + input.error().message);
    inputs[position] = std::move(*input);
    given[position] = true;
  }
  for (size_t i = 0; i < file.inputs.size(); ++i) {
    if (given[i]) continue;
    const ModelFileOperand& o = file.operands[file.inputs[i]];
    auto count = elementCount(o);
    if (!o.element || !count) {
      return fail(ResultCode::BAD_DATA, "input '" + o.name + "' (" + o.typeName + " " +
                                            shapeText(o.dimensions) +
                                            ") has no default; give it with --input " + o.name + "=FILE");
    }
    inputs[i] = Input{defaultInput(*o.element, i, *count),
                      "DEFAULT (deterministic sequence, see docs/model-format.md)"};
  }
  return inputs;
}

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

Result<Outcome> runOnce(const ModelFile& file, ANeuralNetworksCompilation* compilation,
                        const std::vector<Input>& inputs, std::vector<size_t>& outputSizes) {
  for (int attempt = 0;; ++attempt) {
    ANeuralNetworksExecution* raw = nullptr;
    if (int rc = ANeuralNetworksExecution_create(compilation, &raw)) {
      return Unexpected(apiError("ANeuralNetworksExecution_create", rc));
    }
    std::unique_ptr<ANeuralNetworksExecution, void (*)(ANeuralNetworksExecution*)> execution(
        raw, ANeuralNetworksExecution_free);
    for (size_t i = 0; i < inputs.size(); ++i) {
      const auto& bytes = inputs[i].bytes;
      int rc = ANeuralNetworksExecution_setInput(raw, static_cast<int32_t>(i), nullptr,
                                                 bytes.empty() ? nullptr : bytes.data(), bytes.size());
      if (rc != ANEURALNETWORKS_NO_ERROR) {
        const ModelFileOperand& o = file.operands[file.inputs[i]];
        return Unexpected(apiError("ANeuralNetworksExecution_setInput", rc,
                                   "input '" + o.name + "' (" + std::to_string(bytes.size()) + " bytes for " +
                                       o.typeName + " " + shapeText(o.dimensions) + ")"));
      }
    }
    Outcome outcome;
    outcome.outputs.resize(outputSizes.size());
    for (size_t i = 0; i < outputSizes.size(); ++i) {
      outcome.outputs[i].resize(outputSizes[i]);
      if (int rc = ANeuralNetworksExecution_setOutput(raw, static_cast<int32_t>(i), nullptr,
                                                      outcome.outputs[i].data(), outcome.outputs[i].size())) {
        return Unexpected(apiError("ANeuralNetworksExecution_setOutput", rc,
                                   "output '" + file.operands[file.outputs[i]].name + "'"));
      }
    }
    const bool timed = ANeuralNetworksExecution_setMeasureTiming(raw, true) == ANEURALNETWORKS_NO_ERROR;
    const auto start = std::chrono::steady_clock::now();
    const int rc = ANeuralNetworksExecution_compute(raw);
    outcome.wallMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const bool insufficient = rc == ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE;
    if (rc != ANEURALNETWORKS_NO_ERROR && !insufficient) {
      return Unexpected(apiError("ANeuralNetworksExecution_compute", rc));
    }
    // Shapes the outputs got (or need).
    for (size_t i = 0; i < outputSizes.size(); ++i) {
      const auto index = static_cast<int32_t>(i);
      uint32_t rank = 0;
      std::vector<uint32_t> dims;
      if (ANeuralNetworksExecution_getOutputOperandRank(raw, index, &rank) == ANEURALNETWORKS_NO_ERROR) {
        dims.resize(rank);
        if (rank > 0 && ANeuralNetworksExecution_getOutputOperandDimensions(raw, index, dims.data()) != 0)
          dims.clear();
      } else {
        dims = file.operands[file.outputs[i]].dimensions;
      }
      auto needed = file.byteSize(file.outputs[i], dims);
      if (insufficient) outputSizes[i] = needed ? std::max(*needed, outputSizes[i]) : outputSizes[i] * 4;
      if (needed && *needed <= outcome.outputs[i].size()) outcome.outputs[i].resize(*needed);
      outcome.dimensions.push_back(std::move(dims));
    }
    if (insufficient) {
      if (attempt < 4) continue;
      return Unexpected(
          apiError("ANeuralNetworksExecution_compute", rc, "outputs still too small after 4 tries"));
    }
    if (timed) {
      ANeuralNetworksExecution_getDuration(raw, ANEURALNETWORKS_DURATION_ON_HARDWARE, &outcome.onHardwareNs);
      ANeuralNetworksExecution_getDuration(raw, ANEURALNETWORKS_DURATION_IN_DRIVER, &outcome.inDriverNs);
    }
    outcome.devicesUsed = raw->execution.devicesUsed();
    return outcome;
  }
}

// Median of the available values (milliseconds) as text in ms or, under 1 ms, in µs; "n/a" when none.
std::string medianMs(std::vector<double> values) {
  if (values.empty()) return "n/a";
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  const double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  char text[32];
  if (median < 1.0) {
    std::snprintf(text, sizeof text, "%.1f us", median * 1000);
  } else {
    std::snprintf(text, sizeof text, "%.3f ms", median);
  }
  return text;
}

Result<Arguments> parseArguments(const std::vector<std::string>& args) {
  Arguments out;
  auto bad = [](const std::string& m) { return fail(ResultCode::BAD_DATA, m); };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const std::string* value = nullptr;
    if (a == "--device" || a == "--preference" || a == "--input" || a == "--output" || a == "--repeat") {
      if (i + 1 >= args.size()) return bad(a + " needs a value");
      value = &args[++i];
    }
    auto pair = [&](const std::string& option) -> Result<std::pair<std::string, std::string>> {
      size_t eq = value->find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == value->size()) {
        return fail(ResultCode::BAD_DATA, option + " takes NAME=...");
      }
      return std::make_pair(value->substr(0, eq), value->substr(eq + 1));
    };
    if (a == "--device") {
      out.devices = splitList(*value);
    } else if (a == "--preference") {
      out.preference = parsePreference(*value);
      if (out.preference < 0)
        return bad("--preference takes low-power, fast-single-answer or sustained-speed");
    } else if (a == "--input") {
      NNRT_ASSIGN_OR_RETURN(auto p, pair("--input"));
      out.inputs.push_back(std::move(p));
    } else if (a == "--output") {
      NNRT_ASSIGN_OR_RETURN(auto p, pair("--output"));
      out.outputs.push_back(std::move(p));
    } else if (a == "--repeat") {
      char* end = nullptr;
      long n = std::strtol(value->c_str(), &end, 10);
      if (end != value->c_str() + value->size() || n < 1 || n > 1000000)
        return bad("--repeat takes a number >= 1");
      out.repeat = static_cast<int>(n);
    } else if (a == "--explain") {
      out.explain = true;
    } else if (!a.empty() && a[0] == '-') {
      return bad("unknown option '" + a + "'");
    } else if (out.model.empty()) {
      out.model = a;
    } else {
      return bad("one model file only");
    }
  }
  if (out.model.empty()) return bad("no model file");
  return out;
}

Result<void> compile(const ModelFile& file, const Arguments& args, Compiled& compiled) {
  ANeuralNetworksModel* model = file.model.get();
  if (args.devices.empty()) {
    if (int rc = ANeuralNetworksCompilation_create(model, &compiled.compilation)) {
      return Unexpected(apiError("ANeuralNetworksCompilation_create", rc));
    }
  } else {
    NNRT_ASSIGN_OR_RETURN(auto wanted, findDevices(DeviceRegistry::global(), args.devices));
    std::vector<const ANeuralNetworksDevice*> devices;
    uint32_t count = 0;
    ANeuralNetworks_getDeviceCount(&count);
    for (const auto& w : wanted) {
      for (uint32_t i = 0; i < count; ++i) {
        ANeuralNetworksDevice* device = nullptr;
        const char* name = nullptr;
        if (ANeuralNetworks_getDevice(i, &device) == 0 && ANeuralNetworksDevice_getName(device, &name) == 0 &&
            w->name() == name) {
          devices.push_back(device);
        }
      }
    }
    if (int rc = ANeuralNetworksCompilation_createForDevices(
            model, devices.data(), static_cast<uint32_t>(devices.size()), &compiled.compilation)) {
      return Unexpected(apiError("ANeuralNetworksCompilation_createForDevices", rc));
    }
  }
  if (args.preference >= 0) {
    if (int rc = ANeuralNetworksCompilation_setPreference(compiled.compilation, args.preference)) {
      return Unexpected(apiError("ANeuralNetworksCompilation_setPreference", rc));
    }
  }
  if (int rc = ANeuralNetworksCompilation_finish(compiled.compilation)) {
    return Unexpected(apiError("ANeuralNetworksCompilation_finish", rc, "compiling " + file.path.string()));
  }
  return {};
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
  DeviceRegistry& registry = DeviceRegistry::global();
  if (registry.configError()) return failure(registry.configError()->message);

  auto file = loadAnyModelFile(args->model);
  if (!file) return failure(file.error().message);
  auto inputs = prepareInputs(*file, *args);
  if (!inputs) return failure(inputs.error().message);

  Compiled compiled;
  const auto compileStart = std::chrono::steady_clock::now();
  if (auto ok = compile(*file, *args, compiled); !ok) return failure(ok.error().message);
  const double compileMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - compileStart).count();
  const auto compiledModel = compiled.compilation->compilation.compiled();
  const PlanResult& plan = compiledModel->plan();

  std::printf("model: %s\n", file->path.string().c_str());
  std::printf("compiled in %.1f ms: %s\n", compileMs, plan.plan.summary.c_str());
  if (!compiledModel->fallbackNote().empty())
    std::printf("fallback: %s\n", compiledModel->fallbackNote().c_str());
  if (args->explain) {
    PlanContext context{*file, compiledModel->model(), plan, compiledModel->fallbackNote()};
    std::printf("\n%s\n", planText(context).c_str());
  }

  std::vector<size_t> outputSizes;
  for (uint32_t o : file->outputs) {
    size_t size = file->byteSize(o, file->operands[o].dimensions).value_or(0);
    if (size == 0 && !file->operands[o].element && elementCount(file->operands[o])) {
      // An extension type the file gave no element type for: the registry knows its size.
      auto type = registry.extensions()->operandType(file->operands[o].type);
      if (type) size = type->byteSize * *elementCount(file->operands[o]);
    }
    outputSizes.push_back(size == 0 ? kUnknownOutputBytes : size);
  }
  std::vector<Outcome> runs;
  for (int r = 0; r < args->repeat; ++r) {
    auto outcome = runOnce(*file, compiled.compilation, *inputs, outputSizes);
    if (!outcome) return failure(outcome.error().message);
    runs.push_back(std::move(*outcome));
  }
  const Outcome& last = runs.back();
  std::vector<std::string> written;
  if (auto ok = writeOutputs(*file, *args, last, written); !ok) return failure(ok.error().message);

  for (size_t i = 0; i < file->inputs.size(); ++i) {
    const ModelFileOperand& o = file->operands[file->inputs[i]];
    std::printf("input  %s: %s %s, %s: %s\n", o.name.c_str(), o.typeName.c_str(),
                shapeText(o.dimensions).c_str(), (*inputs)[i].origin.c_str(),
                valuesText(o, (*inputs)[i].bytes).c_str());
  }
  for (size_t i = 0; i < file->outputs.size(); ++i) {
    const ModelFileOperand& o = file->operands[file->outputs[i]];
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
  std::printf("ran on:");
  for (size_t s = 0; s < last.devicesUsed.size(); ++s) {
    std::printf("%s step %zu on %s", s ? "," : "", s, last.devicesUsed[s].c_str());
  }
  std::printf("\n");
  std::vector<double> wall, hardware, driver;
  for (const Outcome& run : runs) {
    wall.push_back(run.wallMs);
    if (run.onHardwareNs != UINT64_MAX) hardware.push_back(static_cast<double>(run.onHardwareNs) / 1e6);
    if (run.inDriverNs != UINT64_MAX) driver.push_back(static_cast<double>(run.inDriverNs) / 1e6);
  }
  std::string label =
      runs.size() == 1 ? "timing" : "timing (median of " + std::to_string(runs.size()) + " runs)";
  std::printf("%s: wall %s, on hardware %s, in driver %s\n", label.c_str(), medianMs(wall).c_str(),
              medianMs(hardware).c_str(), medianMs(driver).c_str());
  return 0;
}

}  // namespace nnrt::tools
