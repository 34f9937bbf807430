// A complete third-party driver in one file: it runs RELU on TENSOR_FLOAT32 and nothing else.
#include <algorithm>
#include <cstring>

#include "nnrt/driver/driver.hpp"

namespace {

using namespace nnrt::driver;

bool isFloatRelu(const Model& model, const nnrt_operation& op) {
  auto operands = model.main().operands();
  return op.type == static_cast<int32_t>(OperationType::RELU) && op.input_count == 1 && op.output_count == 1 &&
         operands[op.inputs[0]].type == static_cast<int32_t>(OperandType::TENSOR_FLOAT32);
}

class ReluPreparedModel : public PreparedModel {
 public:
  Result<ExecutionResult> executeSynchronously_1_3(const Request& request, const ExecuteOptions&) override {
    NNRT_ASSIGN_OR_RETURN(auto in, request.inputBytes(0));
    NNRT_ASSIGN_OR_RETURN(auto out, request.outputBytes(0));
    if (out.size() < in.size()) return invalidArgument("output buffer is smaller than the input");
    size_t n = in.size() / sizeof(float);
    for (size_t i = 0; i < n; ++i) {
      float v;
      std::memcpy(&v, in.data() + i * sizeof v, sizeof v);
      v = std::max(v, 0.0f);
      std::memcpy(out.data() + i * sizeof v, &v, sizeof v);
    }
    return ExecutionResult{};  // shapes come from the model; the runtime fills them in
  }
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
      supported.push_back(isFloatRelu(model, op));
      if (!supported.back()) explain(static_cast<uint32_t>(supported.size() - 1), "only RELU on TENSOR_FLOAT32");
    }
    return supported;
  }
  Result<std::unique_ptr<PreparedModel>> prepareModel_1_3(const Model& model, const PrepareOptions&,
                                                          const CacheFiles&) const override {
    auto ops = model.main().operations();
    if (ops.size() != 1 || !isFloatRelu(model, ops[0])) return invalidArgument("this driver runs one float RELU");
    return std::unique_ptr<PreparedModel>(new ReluPreparedModel());
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
