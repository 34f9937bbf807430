// What `nnrt run` and `nnrt bench` share: the options that choose devices, preference and inputs,
// the inputs (given or the documented default), the compilation, and one timed execution through
// the public C API with the device and the durations of each step.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/capi/handles.hpp"
#include "core/support/status.hpp"
#include "tools/nnrt/model_file.hpp"

namespace nnrt::tools {

// The options of a model's execution that both commands take.
struct ExecutionOptions {
  std::string model;
  std::vector<std::string> devices;  // --device / --devices; empty: the runtime partitions
  int32_t preference = -1;           // -1: the runtime's default
  std::vector<std::pair<std::string, std::string>> inputs;  // --input NAME=FILE|values
  InputShapes shapes;                                       // --shape NAME=d0,d1,...
};

// "--shape NAME=d0,d1,...": each dimension a whole number of at least 1 (BAD_DATA otherwise).
Result<std::pair<std::string, std::vector<uint32_t>>> parseShapeOption(const std::string& value);

// Reads the option at args[i] when it is one of ExecutionOptions' (then i moves past its value) and
// returns true; false for any other argument. BAD_DATA, naming the option, for a missing or bad value.
Result<bool> parseExecutionOption(const std::vector<std::string>& args, size_t& i, ExecutionOptions& options);

// A whole decimal number in [min, max]; nullopt for anything else.
std::optional<long> parseCount(const std::string& text, long min, long max);

// "scalar" or "[d0, d1, ...]".
std::string shapeText(const std::vector<uint32_t>& dims);
// The operand's element count; nullopt when a dimension is unknown.
std::optional<size_t> elementCount(const ModelFileOperand& operand);

struct ModelInput {
  std::vector<uint8_t> bytes;
  std::string origin;  // "given", "from FILE", or the default marker
  // The input's whole shape when the model leaves some of it unknown (--shape, a .npy file's shape, or
  // the one unknown dimension a raw file's size implies): given to ANeuralNetworksExecution_setInput.
  // Empty: the model's own.
  std::vector<uint32_t> dims;
};

// Every model input in order: from --input, else the default of docs/model-format.md. An input of
// unknown dimensions takes them from --shape, or from the data given (a .npy array's shape; a raw
// file's size when one dimension is unknown); without either it has no default.
Result<std::vector<ModelInput>> prepareInputs(const ModelFile& file, const ExecutionOptions& options);

// A finished compilation; frees it.
struct Compiled {
  ANeuralNetworksCompilation* compilation = nullptr;
  double compileMs = 0;  // wall time of create, setPreference and finish
  Compiled() = default;
  Compiled(const Compiled&) = delete;
  Compiled& operator=(const Compiled&) = delete;
  ~Compiled() { ANeuralNetworksCompilation_free(compilation); }
};

// Compiles the model for the options' devices (or lets the runtime partition it) and preference.
Result<void> compile(const ModelFile& file, const ExecutionOptions& options, Compiled& compiled);

// What run and bench start from: the runtime's configuration checked, the model file (YAML or ONNX)
// loaded, its inputs read (or defaulted) and the model compiled. An ONNX model whose inputs' unknown
// dimensions the data gave is loaded again with those shapes (then every shape in it is known: the
// loader keeps images NHWC only when it knows their shapes).
struct ModelSession {
  std::optional<ModelFile> file;
  std::vector<ModelInput> inputs;
  Compiled compiled;
};
Result<void> openSession(const ExecutionOptions& options, ModelSession& session);

// The first guess of each output's buffer size (runOnce grows them when the runtime asks for more).
std::vector<size_t> initialOutputSizes(const ModelFile& file);

// One step of one execution: the device that ran it (after fallback) and its measured durations
// (ms; nullopt when the driver did not measure them).
struct StepTime {
  std::string device;
  std::optional<double> onHardwareMs, inDriverMs;
};

struct Outcome {
  std::vector<std::vector<uint8_t>> outputs;
  std::vector<std::vector<uint32_t>> dimensions;
  std::vector<StepTime> steps;                     // in plan order
  std::optional<double> onHardwareMs, inDriverMs;  // ANeuralNetworksExecution_getDuration
  double wallMs = 0;                               // around ANeuralNetworksExecution_compute
};

// Runs the compiled model once on `inputs` with timing measured. Grows `outputSizes` and runs again
// when an output is too small (up to 4 times).
Result<Outcome> runOnce(const ModelFile& file, ANeuralNetworksCompilation* compilation,
                        const std::vector<ModelInput>& inputs, std::vector<size_t>& outputSizes);

// "step 0 on cpu, step 1 on fibonacci".
std::string stepsText(const std::vector<StepTime>& steps);
// A duration in ms as text: "12.345 ms", or "12.3 us" under 1 ms.
std::string durationText(double ms);

}  // namespace nnrt::tools
