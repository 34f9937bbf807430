// The com.example.fibonacci driver: one device that runs EXAMPLE_FIBONACCI and nothing else.
// It is also the skeleton vendors copy (see README.md): a Device that says what it supports and
// prepares models, a PreparedModel that runs them, and the export macro.
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "nnrt/driver/driver.hpp"
#include "nnrt_examples/fibonacci_extension.h"

namespace fibonacci {

using namespace nnrt::driver;

constexpr int32_t kTensorFloat32 = static_cast<int32_t>(OperandType::TENSOR_FLOAT32);

// One EXAMPLE_FIBONACCI operation, as checked at preparation.
struct FibonacciOp {
  uint32_t input;   // operand indexes
  uint32_t output;
  bool inputIsInt64;
  bool outputIsQuant64;
  ExampleQuant64AsymmParams quant{1.0, 0};
};

// Checks one operation against the extension's definition; returns the reason it is not runnable.
Result<FibonacciOp> checkOperation(const Model& model, const nnrt_operation& op) {
  auto isOurs = [&](int32_t type, uint16_t within) {
    auto name = model.extensionName(extensionPrefix(type));
    return name && *name == EXAMPLE_FIBONACCI_EXTENSION_NAME && typeWithinExtension(type) == within;
  };
  if (!isOurs(op.type, EXAMPLE_FIBONACCI)) return invalidArgument("not an EXAMPLE_FIBONACCI operation");
  if (op.input_count != 1 || op.output_count != 1) {
    return invalidArgument("EXAMPLE_FIBONACCI takes 1 input and 1 output, not " + std::to_string(op.input_count) +
                           " and " + std::to_string(op.output_count));
  }
  auto operands = model.main().operands();
  const nnrt_operand& in = operands[op.inputs[0]];
  const nnrt_operand& out = operands[op.outputs[0]];
  FibonacciOp f{op.inputs[0], op.outputs[0], false, false};
  if (isOurs(in.type, EXAMPLE_INT64) && in.rank == 0) {
    f.inputIsInt64 = true;
  } else if (in.type == kTensorFloat32 && in.rank == 1 && in.dimensions[0] <= 1) {
    f.inputIsInt64 = false;
  } else {
    return invalidArgument("EXAMPLE_FIBONACCI input must be an EXAMPLE_INT64 scalar or a 1-element TENSOR_FLOAT32");
  }
  if (isOurs(out.type, EXAMPLE_TENSOR_QUANT64_ASYMM) && out.rank <= 1) {
    if (out.extra_kind != NNRT_EXTRA_EXTENSION || out.extension_data_size != sizeof(ExampleQuant64AsymmParams)) {
      return invalidArgument("EXAMPLE_TENSOR_QUANT64_ASYMM output needs ExampleQuant64AsymmParams extension data");
    }
    std::memcpy(&f.quant, out.extension_data, sizeof f.quant);
    if (!(f.quant.scale > 0) || !std::isfinite(f.quant.scale)) {
      return invalidArgument("EXAMPLE_TENSOR_QUANT64_ASYMM scale must be > 0");
    }
    f.outputIsQuant64 = true;
  } else if (out.type == kTensorFloat32 && out.rank <= 1) {
    f.outputIsQuant64 = false;
  } else {
    return invalidArgument("EXAMPLE_FIBONACCI output must be a 1-D EXAMPLE_TENSOR_QUANT64_ASYMM or TENSOR_FLOAT32");
  }
  return f;
}

class FibonacciPreparedModel : public PreparedModel {
 public:
  FibonacciPreparedModel(std::vector<FibonacciOp> ops, std::map<uint32_t, std::vector<uint8_t>> constants,
                         std::vector<uint32_t> inputs, std::vector<uint32_t> outputs)
      : ops_(std::move(ops)), constants_(std::move(constants)), inputs_(std::move(inputs)), outputs_(std::move(outputs)) {}

  Result<ExecutionResult> executeSynchronously_1_3(const Request& request, const ExecuteOptions&) override {
    // Operand values of this execution: constants, then request inputs, then results.
    std::map<uint32_t, std::vector<uint8_t>> values = constants_;
    for (uint32_t i = 0; i < inputs_.size(); ++i) {
      NNRT_ASSIGN_OR_RETURN(auto bytes, request.inputBytes(i));
      values[inputs_[i]].assign(bytes.begin(), bytes.end());
    }
    for (const FibonacciOp& op : ops_) {
      const std::vector<uint8_t>& in = values[op.input];
      int64_t n = 0;
      if (op.inputIsInt64 && in.size() == sizeof(int64_t)) {
        std::memcpy(&n, in.data(), sizeof n);
      } else if (!op.inputIsInt64 && in.size() == sizeof(float)) {
        float v;
        std::memcpy(&v, in.data(), sizeof v);
        n = std::isfinite(v) ? static_cast<int64_t>(v) : 0;
      } else {
        return invalidArgument("EXAMPLE_FIBONACCI input has " + std::to_string(in.size()) + " bytes");
      }
      if (n < 1) return generalFailure("EXAMPLE_FIBONACCI needs n >= 1, got " + std::to_string(n));
      if (n > 1000000) return generalFailure("EXAMPLE_FIBONACCI n = " + std::to_string(n) + " is too large");
      values[op.output] = compute(op, n);
    }
    ExecutionResult result;
    for (uint32_t i = 0; i < outputs_.size(); ++i) {
      const std::vector<uint8_t>& value = values[outputs_[i]];
      NNRT_ASSIGN_OR_RETURN(auto buffer, request.outputBytes(i));
      uint32_t elements = static_cast<uint32_t>(value.size() / elementSize(outputs_[i]));
      bool fits = buffer.size() >= value.size();
      if (fits) std::memcpy(buffer.data(), value.data(), value.size());
      if (!fits) result.status = ErrorStatus::OUTPUT_INSUFFICIENT_SIZE;
      result.outputShapes.push_back({{elements}, fits});
    }
    return result;
  }

 private:
  static std::vector<uint8_t> compute(const FibonacciOp& op, int64_t n) {
    std::vector<uint8_t> bytes(n * (op.outputIsQuant64 ? sizeof(uint64_t) : sizeof(float)));
    double a = 1, b = 1;
    for (int64_t i = 0; i < n; ++i) {
      double fib = i < 2 ? 1 : a + b;
      if (i >= 2) {
        a = b;
        b = fib;
      }
      if (op.outputIsQuant64) {
        auto q = static_cast<uint64_t>(std::llround(fib / op.quant.scale + static_cast<double>(op.quant.zeroPoint)));
        std::memcpy(bytes.data() + i * sizeof q, &q, sizeof q);
      } else {
        auto f = static_cast<float>(fib);
        std::memcpy(bytes.data() + i * sizeof f, &f, sizeof f);
      }
    }
    return bytes;
  }
  size_t elementSize(uint32_t operand) const {
    for (const auto& op : ops_) {
      if (op.output == operand) return op.outputIsQuant64 ? sizeof(uint64_t) : sizeof(float);
    }
    return 1;
  }

  std::vector<FibonacciOp> ops_;  // in execution order
  std::map<uint32_t, std::vector<uint8_t>> constants_;
  std::vector<uint32_t> inputs_, outputs_;
};

class FibonacciDevice : public Device {
 public:
  FibonacciDevice() {
    // An accelerator that beats the CPU on the operand types its operation uses.
    capabilities_.operandPerformance = {{kTensorFloat32, {0.8f, 0.8f}}};
    extensions_ = {{EXAMPLE_FIBONACCI_EXTENSION_NAME,
                    {{EXAMPLE_INT64, false, 8}, {EXAMPLE_TENSOR_QUANT64_ASYMM, true, 8}}}};
  }
  const std::string& getName() const override { return name_; }
  const std::string& getVersionString() const override { return version_; }
  DeviceType getType() const override { return DeviceType::ACCELERATOR; }
  const Capabilities& getCapabilities_1_3() const override { return capabilities_; }
  const std::vector<Extension>& getSupportedExtensions() const override { return extensions_; }

  Result<std::vector<bool>> getSupportedOperations_1_3(const Model& model, const Explainer& explain) const override {
    auto operations = model.main().operations();
    std::vector<bool> supported(operations.size());
    for (uint32_t i = 0; i < operations.size(); ++i) {
      auto checked = checkOperation(model, operations[i]);
      supported[i] = checked.has_value();
      if (!checked) explain(i, checked.error().message);
    }
    return supported;
  }

  Result<std::unique_ptr<PreparedModel>> prepareModel_1_3(const Model& model, const PrepareOptions&,
                                                          const CacheFiles&) const override {
    std::vector<FibonacciOp> ops;
    std::map<uint32_t, std::vector<uint8_t>> constants;
    for (const nnrt_operation& operation : model.main().operations()) {
      NNRT_ASSIGN_OR_RETURN(FibonacciOp op, checkOperation(model, operation));
      auto bytes = model.constantBytes(model.main().operands()[op.input]);
      if (!bytes.empty()) constants[op.input].assign(bytes.begin(), bytes.end());
      ops.push_back(op);
    }
    auto in = model.main().inputIndexes();
    auto out = model.main().outputIndexes();
    return std::unique_ptr<PreparedModel>(new FibonacciPreparedModel(
        std::move(ops), std::move(constants), {in.begin(), in.end()}, {out.begin(), out.end()}));
  }

 private:
  std::string name_ = "example-fibonacci";
  std::string version_ = "1.0.0";
  Capabilities capabilities_;
  std::vector<Extension> extensions_;
};

Result<DeviceList> open(const Options& options) {
  NNRT_RETURN_IF_ERROR(options.checkAllUsed());  // this driver takes no options
  DeviceList devices;
  devices.push_back(std::make_unique<FibonacciDevice>());
  return devices;
}

}  // namespace fibonacci

NNRT_DRIVER_EXPORT("sample_ext", "1.0.0", fibonacci::open)
