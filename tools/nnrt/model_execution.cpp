#include "tools/nnrt/model_execution.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

#include "core/device/device_registry.hpp"
#include "nnrt/driver/ops/operand_types.hpp"
#include "tools/nnrt/commands.hpp"
#include "tools/nnrt/element_codec.hpp"
#include "tools/nnrt/npy.hpp"
#include "tools/nnrt/onnx_model_file.hpp"
#include "tools/nnrt/plan_output.hpp"

namespace nnrt::tools {
namespace {

constexpr size_t kUnknownOutputBytes = 1 << 16;  // first guess for an output of unknown size

Error apiError(const char* function, int code, const std::string& context = "") {
  return Error{static_cast<ResultCode>(code),
               (context.empty() ? "" : context + ": ") + function + " returned " + resultCodeText(code)};
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

// `bytes` of little-endian int64 values as int32 ones, each checked to fit (ONNX models carry their int64
// tensors as int32 operands); an error naming `path` otherwise.
Result<std::vector<uint8_t>> narrowInt64(const std::vector<uint8_t>& bytes, const std::string& path) {
  std::vector<uint8_t> narrowed(bytes.size() / 2);
  for (size_t i = 0; i < bytes.size() / 8; ++i) {
    int64_t v;
    std::memcpy(&v, bytes.data() + i * 8, 8);
    if (v < INT32_MIN || v > INT32_MAX)
      return fail(ResultCode::BAD_DATA, "'" + path + "': int64 value " + std::to_string(v) + " does not fit int32");
    const auto narrow = static_cast<int32_t>(v);
    std::memcpy(narrowed.data() + i * 4, &narrow, 4);
  }
  return narrowed;
}

// A .npy file whose dtype is the operand's element type (int64 narrowed to an int32 operand, as the
// ONNX front end carries int64 tensors) and whose element count fits the operand's known shape.
Result<ModelInput> inputFromNpy(const ModelFileOperand& o, const std::string& path) {
  NNRT_ASSIGN_OR_RETURN(NpyArray array, readNpy(path));
  if (!o.element) return fail(ResultCode::BAD_DATA, "'" + path + "': the input's element type is unknown");
  std::vector<uint8_t> bytes;
  if (array.dtype == npyDtype(*o.element)) {
    bytes = std::move(array.data);
  } else if (array.dtype == "<i8" && *o.element == ElementType::I32) {
    NNRT_ASSIGN_OR_RETURN(bytes, narrowInt64(array.data, path));
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
  ModelInput input{std::move(bytes), "from " + path, {}};
  if (!count) {  // the array's shape fills in the input's unknown dimensions
    for (uint64_t d : array.shape) {
      if (d == 0 || d > UINT32_MAX) return fail(ResultCode::BAD_DATA, "'" + path + "': a dimension of " + std::to_string(d));
      input.dims.push_back(static_cast<uint32_t>(d));
    }
  }
  return input;
}

// `dims` (from --shape or a .npy array) for an input declared `declared` (0: unknown): the same rank
// and the known dimensions equal, or an error naming the input.
Result<void> checkShape(const ModelFileOperand& o, const std::vector<uint32_t>& dims, const std::string& from) {
  bool fits = dims.size() == o.dimensions.size();
  for (size_t d = 0; fits && d < dims.size(); ++d) fits = dims[d] != 0 && (o.dimensions[d] == 0 || o.dimensions[d] == dims[d]);
  if (fits) return {};
  return fail(ResultCode::BAD_DATA, "input '" + o.name + "': " + from + " " + shapeText(dims) +
                                        " does not fit the model's " + shapeText(o.dimensions));
}

// The whole shape of input `o` whose data is `bytes` when one dimension is unknown: the one its size
// implies; nullopt when it implies none.
std::optional<std::vector<uint32_t>> shapeFromSize(const ModelFileOperand& o, size_t bytes) {
  if (!o.element || std::count(o.dimensions.begin(), o.dimensions.end(), 0u) != 1) return std::nullopt;
  size_t known = elementBytes(*o.element);
  for (uint32_t d : o.dimensions) known *= d == 0 ? 1 : d;
  if (known == 0 || bytes == 0 || bytes % known != 0 || bytes / known > UINT32_MAX) return std::nullopt;
  std::vector<uint32_t> dims = o.dimensions;
  *std::find(dims.begin(), dims.end(), 0u) = static_cast<uint32_t>(bytes / known);
  return dims;
}

// NAME=v1,v2,... when every item is a number of the operand's element type, else NAME=FILE.
Result<ModelInput> inputFromArgument(const ModelFile& file, uint32_t operand, const std::string& text) {
  const ModelFileOperand& o = file.operands[operand];
  std::string problem = "its element type is unknown";
  if (o.element) {
    std::vector<uint8_t> bytes;
    problem.clear();
    for (const std::string& item : splitList(text)) {
      problem = appendElement(*o.element, item, bytes);
      if (!problem.empty()) break;
    }
    if (problem.empty()) return ModelInput{std::move(bytes), "given", {}};
  }
  if (text.size() > 4 && text.ends_with(".npy")) return inputFromNpy(o, text);
  auto bytes = readFile(text);
  if (!bytes) {
    return fail(ResultCode::BAD_DATA, "'" + text + "' is neither values (" + problem + ") nor a file (" +
                                          bytes.error().message + ")");
  }
  // An ONNX int64 input's raw file as ONNX Runtime takes it, 8 bytes a value: narrowed to the int32
  // operand when every value fits (a file of 4-byte values is taken as it is).
  const auto count = elementCount(o);
  if (o.int64Source && o.element == ElementType::I32 && count && bytes->size() == *count * 8) {
    NNRT_ASSIGN_OR_RETURN(std::vector<uint8_t> narrowed, narrowInt64(*bytes, text));
    return ModelInput{std::move(narrowed), "from " + text + " (int64, narrowed)", {}};
  }
  return ModelInput{std::move(*bytes), "from " + text, {}};
}

std::optional<double> durationMs(ANeuralNetworksExecution* execution, int32_t code) {
  uint64_t ns = UINT64_MAX;
  if (ANeuralNetworksExecution_getDuration(execution, code, &ns) != ANEURALNETWORKS_NO_ERROR ||
      ns == UINT64_MAX)
    return std::nullopt;
  return static_cast<double>(ns) / 1e6;
}

std::optional<double> nsToMs(uint64_t ns) {
  if (ns == UINT64_MAX) return std::nullopt;
  return static_cast<double>(ns) / 1e6;
}

}  // namespace

Result<std::pair<std::string, std::vector<uint32_t>>> parseShapeOption(const std::string& value) {
  const size_t eq = value.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == value.size())
    return fail(ResultCode::BAD_DATA, "--shape takes NAME=d0,d1,...");
  std::vector<uint32_t> dims;
  for (const std::string& item : splitList(value.substr(eq + 1))) {
    auto d = parseCount(item, 1, UINT32_MAX);
    if (!d) return fail(ResultCode::BAD_DATA, "--shape " + value + ": '" + item + "' is not a dimension of 1 or more");
    dims.push_back(static_cast<uint32_t>(*d));
  }
  return std::make_pair(value.substr(0, eq), std::move(dims));
}

Result<bool> parseExecutionOption(const std::vector<std::string>& args, size_t& i,
                                  ExecutionOptions& options) {
  const std::string& a = args[i];
  if (a != "--device" && a != "--devices" && a != "--preference" && a != "--input" && a != "--shape")
    return false;
  if (i + 1 >= args.size()) return fail(ResultCode::BAD_DATA, a + " needs a value");
  const std::string& value = args[++i];
  if (a == "--shape") {
    NNRT_ASSIGN_OR_RETURN(auto shape, parseShapeOption(value));
    options.shapes[shape.first] = std::move(shape.second);
  } else if (a == "--device" || a == "--devices") {
    options.devices = splitList(value);
  } else if (a == "--preference") {
    options.preference = parsePreference(value);
    if (options.preference < 0)
      return fail(ResultCode::BAD_DATA,
                  "--preference takes low-power, fast-single-answer or sustained-speed");
  } else {
    size_t eq = value.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == value.size()) {
      return fail(ResultCode::BAD_DATA, "--input takes NAME=...");
    }
    options.inputs.emplace_back(value.substr(0, eq), value.substr(eq + 1));
  }
  return true;
}

std::optional<long> parseCount(const std::string& text, long min, long max) {
  char* end = nullptr;
  errno = 0;
  const long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || n < min || n > max)
    return std::nullopt;
  return n;
}

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

Result<std::vector<ModelInput>> prepareInputs(const ModelFile& file, const ExecutionOptions& options) {
  std::vector<ModelInput> inputs(file.inputs.size());
  std::vector<bool> given(file.inputs.size(), false);
  for (const auto& [name, text] : options.inputs) {
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
    const ModelFileOperand& o = file.operands[file.inputs[i]];
    if (elementCount(o)) continue;  // every dimension known
    // The unknown dimensions: from --shape, else from the data given.
    std::vector<uint32_t>& dims = inputs[i].dims;
    if (auto shape = options.shapes.find(o.name); shape != options.shapes.end()) {
      NNRT_RETURN_IF_ERROR(checkShape(o, shape->second, "--shape"));
      if (!dims.empty() && dims != shape->second)
        return fail(ResultCode::BAD_DATA, "input '" + o.name + "': --shape " + shapeText(shape->second) +
                                              " but the .npy array is " + shapeText(dims));
      dims = shape->second;
    } else if (!dims.empty()) {
      NNRT_RETURN_IF_ERROR(checkShape(o, dims, "the .npy array's shape"));
    } else if (given[i]) {
      auto implied = shapeFromSize(o, inputs[i].bytes.size());
      if (!implied) {
        return fail(ResultCode::BAD_DATA, "input '" + o.name + "' (" + o.typeName + " " + shapeText(o.dimensions) +
                                              "): " + std::to_string(inputs[i].bytes.size()) +
                                              " bytes do not tell its unknown dimensions; give them with --shape " +
                                              o.name + "=d0,d1,...");
      }
      dims = *implied;
      inputs[i].origin += " (shape from its size)";
    }
  }
  for (size_t i = 0; i < file.inputs.size(); ++i) {
    if (given[i]) continue;
    const ModelFileOperand& o = file.operands[file.inputs[i]];
    ModelFileOperand shaped = o;
    if (!inputs[i].dims.empty()) shaped.dimensions = inputs[i].dims;
    auto count = elementCount(shaped);
    if (!o.element || !count) {
      return fail(ResultCode::BAD_DATA, "input '" + o.name + "' (" + o.typeName + " " +
                                            shapeText(o.dimensions) + ") has no default; give it with --input " +
                                            o.name + "=FILE" + (count ? "" : " (or its shape with --shape)"));
    }
    inputs[i].bytes = defaultInput(*o.element, i, *count);
    inputs[i].origin = "DEFAULT (deterministic sequence, see docs/model-format.md)";
  }
  return inputs;
}

Result<void> compile(const ModelFile& file, const ExecutionOptions& options, Compiled& compiled) {
  const auto start = std::chrono::steady_clock::now();
  ANeuralNetworksModel* model = file.model.get();
  if (options.devices.empty()) {
    if (int rc = ANeuralNetworksCompilation_create(model, &compiled.compilation)) {
      return Unexpected(apiError("ANeuralNetworksCompilation_create", rc));
    }
  } else {
    NNRT_ASSIGN_OR_RETURN(auto wanted, findDevices(DeviceRegistry::global(), options.devices));
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
  if (options.preference >= 0) {
    if (int rc = ANeuralNetworksCompilation_setPreference(compiled.compilation, options.preference)) {
      return Unexpected(apiError("ANeuralNetworksCompilation_setPreference", rc));
    }
  }
  if (int rc = ANeuralNetworksCompilation_finish(compiled.compilation)) {
    return Unexpected(apiError("ANeuralNetworksCompilation_finish", rc, "compiling " + file.path.string()));
  }
  compiled.compileMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return {};
}

Result<void> openSession(const ExecutionOptions& options, ModelSession& session) {
  DeviceRegistry& registry = DeviceRegistry::global();
  if (registry.configError()) return Unexpected(*registry.configError());
  NNRT_ASSIGN_OR_RETURN(session.file, loadAnyModelFile(options.model, options.shapes));
  NNRT_ASSIGN_OR_RETURN(session.inputs, prepareInputs(*session.file, options));
  if (std::filesystem::path(options.model).extension() == ".onnx") {
    // Shapes the data gave: load the model again knowing them.
    InputShapes shapes = options.shapes;
    for (size_t i = 0; i < session.inputs.size(); ++i) {
      if (!session.inputs[i].dims.empty())
        shapes[session.file->operands[session.file->inputs[i]].name] = session.inputs[i].dims;
    }
    if (shapes.size() != options.shapes.size()) {
      std::vector<std::string> origins;
      for (const ModelInput& input : session.inputs) origins.push_back(input.origin);
      NNRT_ASSIGN_OR_RETURN(session.file, loadAnyModelFile(options.model, shapes));
      NNRT_ASSIGN_OR_RETURN(session.inputs, prepareInputs(*session.file, options));
      for (size_t i = 0; i < session.inputs.size(); ++i) session.inputs[i].origin = origins[i];
    }
  }
  return compile(*session.file, options, session.compiled);
}

std::vector<size_t> initialOutputSizes(const ModelFile& file) {
  std::vector<size_t> sizes;
  for (uint32_t o : file.outputs) {
    size_t size = file.byteSize(o, file.operands[o].dimensions).value_or(0);
    if (size == 0 && !file.operands[o].element && elementCount(file.operands[o])) {
      // An extension type the file gave no element type for: the registry knows its size.
      auto type = DeviceRegistry::global().extensions()->operandType(file.operands[o].type);
      if (type) size = type->byteSize * *elementCount(file.operands[o]);
    }
    sizes.push_back(size == 0 ? kUnknownOutputBytes : size);
  }
  return sizes;
}

Result<Outcome> runOnce(const ModelFile& file, ANeuralNetworksCompilation* compilation,
                        const std::vector<ModelInput>& inputs, std::vector<size_t>& outputSizes) {
  for (int attempt = 0;; ++attempt) {
    ANeuralNetworksExecution* raw = nullptr;
    if (int rc = ANeuralNetworksExecution_create(compilation, &raw)) {
      return Unexpected(apiError("ANeuralNetworksExecution_create", rc));
    }
    std::unique_ptr<ANeuralNetworksExecution, void (*)(ANeuralNetworksExecution*)> execution(
        raw, ANeuralNetworksExecution_free);
    for (size_t i = 0; i < inputs.size(); ++i) {
      const auto& bytes = inputs[i].bytes;
      const ModelFileOperand& o = file.operands[file.inputs[i]];
      const std::vector<uint32_t>& dims = inputs[i].dims.empty() ? o.dimensions : inputs[i].dims;
      ANeuralNetworksOperandType shaped{o.type, static_cast<uint32_t>(dims.size()), dims.data(), o.scale, o.zeroPoint};
      int rc = ANeuralNetworksExecution_setInput(raw, static_cast<int32_t>(i), inputs[i].dims.empty() ? nullptr : &shaped,
                                                 bytes.empty() ? nullptr : bytes.data(), bytes.size());
      if (rc != ANEURALNETWORKS_NO_ERROR) {
        return Unexpected(apiError("ANeuralNetworksExecution_setInput", rc,
                                   "input '" + o.name + "' (" + std::to_string(bytes.size()) + " bytes for " +
                                       o.typeName + " " + shapeText(dims) + ")"));
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
    // nnrt's own Execution: the C API measures only single-device compilations (NNAPI's rule).
    const bool timed = raw->execution.setMeasureTiming(true).has_value();
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
      outcome.onHardwareMs = durationMs(raw, ANEURALNETWORKS_DURATION_ON_HARDWARE);
      outcome.inDriverMs = durationMs(raw, ANEURALNETWORKS_DURATION_IN_DRIVER);
    }
    const auto& devices = raw->execution.devicesUsed();
    const auto& durations = raw->execution.stepDurations();
    for (size_t s = 0; s < devices.size(); ++s) {
      StepTime step{devices[s], std::nullopt, std::nullopt};
      if (s < durations.size()) {
        step.onHardwareMs = nsToMs(durations[s].onHardware);
        step.inDriverMs = nsToMs(durations[s].inDriver);
      }
      outcome.steps.push_back(std::move(step));
    }
    return outcome;
  }
}

std::string stepsText(const std::vector<StepTime>& steps) {
  std::string text;
  for (size_t s = 0; s < steps.size(); ++s) {
    text += (s ? ", step " : "step ") + std::to_string(s) + " on " + steps[s].device;
  }
  return text;
}

std::string durationText(double ms) {
  char text[32];
  if (ms < 1.0) {
    std::snprintf(text, sizeof text, "%.1f us", ms * 1000);
  } else {
    std::snprintf(text, sizeof text, "%.3f ms", ms);
  }
  return text;
}

}  // namespace nnrt::tools
