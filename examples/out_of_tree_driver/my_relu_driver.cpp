// A complete third-party driver in one file: it runs RELU on TENSOR_FLOAT32 and nothing else. It
// checks operations with the driver SDK's operation library (nnrt/driver/ops), the same code the
// runtime and the built-in plugins use, and reports each output's shape as a driver must.
#include <algorithm>
#include <cstring>

#include "nnrt/driver/driver.hpp"
#include "nnrt/driver/ops/operation.hpp"

namespace {

using namespace nnrt::driver;

// Why this driver cannot run the operation, or "" when it can.
std::string whyNot(const Model& model, const nnrt_operation& op) {
  if (op.type != static_cast<int32_t>(OperationType::RELU)) return "only RELU";
  auto inputs = nnrt::ops::inputArgs(model, model.main(), op);
  auto outputs = nnrt::ops::outputArgs(model, model.main(), op);
  if (auto valid = nnrt::ops::validate({op.type, inputs, outputs}); !valid) return valid.error().message;
  if (inputs[0].type != static_cast<int32_t>(OperandType::TENSOR_FLOAT32)) return "only TENSOR_FLOAT32";
  return "";
}

class ReluPreparedModel : public PreparedModel {
 public:
  explicit ReluPreparedModel(std::vector<uint32_t> modelDims) : modelDims_(std::move(modelDims)) {}

  Result<ExecutionResult> executeSynchronously_1_3(const Request& request, const ExecuteOptions&) override {
    // The output has the input's shape: the model's, with unknown dimensions filled in by the request.
    const nnrt_request_argument& input = request.inputs()[0];
    std::vector<uint32_t> dims = input.rank > 0 ? std::vector<uint32_t>(input.dimensions, input.dimensions + input.rank)
                                                : modelDims_;
    NNRT_ASSIGN_OR_RETURN(auto in, request.inputBytes(0));
    NNRT_ASSIGN_OR_RETURN(auto out, request.outputBytes(0));
    ExecutionResult result;
    result.outputShapes.push_back({dims, out.size() >= in.size()});
    if (out.size() < in.size()) {
      result.status = ErrorStatus::OUTPUT_INSUFFICIENT_SIZE;
      return result;
    }
    size_t n = in.size() / sizeof(float);
    for (size_t i = 0; i < n; ++i) {
      float v;
      std::memcpy(&v, in.data() + i * sizeof v, sizeof v);
      v = std::max(v, 0.0f);
      std::memcpy(out.data() + i * sizeof v, &v, sizeof v);
    }
    return result;
  }

 private:
  std::vector<uint32_t> modelDims_;
};

class ReluDevice : public Device {
 public:
  const std::string& getName() const override { return name_; }
  const std::string& getVersionString() const override { return version_; }
  DeviceType getType() const override { return DeviceType::ACCELERATOR; }
  const Capabilities& getCapabilities_1_3() const override { return capabilities_; }
  Result<std::vector<bool>> getSupportedOperations_1_3(const Model& model, const Explainer& explain) const override {
    std::vector<bool> supported;
    for (const auto& op : model.main().operations()) {
      std::string why = whyNot(model, op);
      supported.push_back(why.empty());
      if (!why.empty()) explain(static_cast<uint32_t>(supported.size() - 1), why);
    }
    return supported;
  }
  Result<std::unique_ptr<PreparedModel>> prepareModel_1_3(const Model& model, const PrepareOptions&,
                                                          const CacheFiles&) const override {
    auto ops = model.main().operations();
    if (ops.size() != 1) return invalidArgument("this driver runs one RELU per model");
    if (std::string why = whyNot(model, ops[0]); !why.empty()) return invalidArgument(why);
    auto inputs = nnrt::ops::inputArgs(model, model.main(), ops[0]);
    return std::unique_ptr<PreparedModel>(
        new ReluPreparedModel(std::vector<uint32_t>(inputs[0].dims.begin(), inputs[0].dims.end())));
  }

 private:
  std::string name_ = "my-relu-accelerator";
  std::string version_ = "0.0.1";
  Capabilities capabilities_;
};

Result<DeviceList> openMyDriver(const Options& options) {
  NNRT_RETURN_IF_ERROR(options.checkAllUsed());
  DeviceList devices;
  devices.push_back(std::make_unique<ReluDevice>());
  return devices;
}

}  // namespace

NNRT_DRIVER_EXPORT("my_relu", "0.0.1", openMyDriver)
