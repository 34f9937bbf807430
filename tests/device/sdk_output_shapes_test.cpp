// The SDK reports the output shapes a driver leaves out: a driver whose execution returns no
// ExecutionResult::outputShapes gets the shapes known before the run (the request's dimensions,
// else the model's), and a clear failure when one of them is not fully known. Drives the SDK's C
// table directly, as the runtime would.
#include <gtest/gtest.h>

#include <cstring>

#include "nnrt/driver/driver.hpp"

namespace {

using namespace nnrt::driver;

// Doubles its float input into its output and reports no shapes.
class Doubler : public PreparedModel {
 public:
  Result<ExecutionResult> executeSynchronously_1_3(const Request& request, const ExecuteOptions&) override {
    NNRT_ASSIGN_OR_RETURN(auto in, request.inputBytes(0));
    NNRT_ASSIGN_OR_RETURN(auto out, request.outputBytes(0));
    for (size_t i = 0; i + sizeof(float) <= in.size() && i + sizeof(float) <= out.size(); i += sizeof(float)) {
      float v;
      std::memcpy(&v, in.data() + i, sizeof v);
      v *= 2;
      std::memcpy(out.data() + i, &v, sizeof v);
    }
    return ExecutionResult{};
  }
};

class DoublerDevice : public Device {
 public:
  const std::string& getName() const override { return name_; }
  const std::string& getVersionString() const override { return name_; }
  DeviceType getType() const override { return DeviceType::OTHER; }
  const Capabilities& getCapabilities_1_3() const override { return capabilities_; }
  Result<std::vector<bool>> getSupportedOperations_1_3(const Model& model, const Explainer&) const override {
    return std::vector<bool>(model.main().operations().size(), true);
  }
  Result<std::unique_ptr<PreparedModel>> prepareModel_1_3(const Model&, const PrepareOptions&,
                                                          const CacheFiles&) const override {
    return std::unique_ptr<PreparedModel>(new Doubler());
  }

 private:
  std::string name_ = "doubler";
  Capabilities capabilities_;
};

Result<DeviceList> openDoubler(const Options&) {
  DeviceList devices;
  devices.push_back(std::make_unique<DoublerDevice>());
  return devices;
}

}  // namespace

NNRT_DRIVER_EXPORT("doubler", "1", openDoubler)

namespace {

// One operation (RELU, standing for anything) from a float tensor of `inDims` to one of `outDims`.
class OneOperationModel {
 public:
  OneOperationModel(std::vector<uint32_t> inDims, std::vector<uint32_t> outDims)
      : inDims_(std::move(inDims)), outDims_(std::move(outDims)) {
    auto tensor = [](const std::vector<uint32_t>& dims, int32_t lifetime) {
      nnrt_operand o{};
      o.type = static_cast<int32_t>(OperandType::TENSOR_FLOAT32);
      o.rank = static_cast<uint32_t>(dims.size());
      o.dimensions = dims.data();
      o.lifetime = lifetime;
      return o;
    };
    operands_ = {tensor(inDims_, NNRT_LIFETIME_SUBGRAPH_INPUT), tensor(outDims_, NNRT_LIFETIME_SUBGRAPH_OUTPUT)};
    operands_[0].number_of_consumers = 1;
    operation_ = {static_cast<int32_t>(OperationType::RELU), &in_, 1, &out_, 1};
    model_.main = {operands_.data(), 2, &operation_, 1, &in_, 1, &out_, 1};
  }
  const nnrt_model& view() const { return model_; }

 private:
  std::vector<uint32_t> inDims_, outDims_;
  std::vector<nnrt_operand> operands_;
  uint32_t in_ = 0, out_ = 1;
  nnrt_operation operation_{};
  nnrt_model model_{};
};

struct RunResult {
  nnrt_status status;
  nnrt_output_shape shape;
  std::string reason;
  std::vector<float> output;
};

// Prepares `model` on the doubler and runs it on four floats, the request giving `requestDims` for
// the output (none when empty).
RunResult prepareAndRun(const OneOperationModel& model, std::vector<uint32_t> requestDims) {
  const nnrt_driver_api* api = nnrt_driver_get_api(NNRT_DRIVER_ABI_MAJOR);
  nnrt_plugin* plugin = nullptr;
  EXPECT_EQ(api->open(nullptr, 0, &plugin, nullptr), NNRT_STATUS_NONE);
  nnrt_device* device = api->device_at(plugin, 0);
  nnrt_prepared_model* prepared = nullptr;
  auto callback = [](void* context, nnrt_status, nnrt_prepared_model* p, const char*) {
    *static_cast<nnrt_prepared_model**>(context) = p;
  };
  EXPECT_EQ(api->prepare_model_1_3(device, &model.view(), 0, 0, 0, nullptr, 0, nullptr, 0, nullptr, callback,
                                   &prepared, nullptr),
            NNRT_STATUS_NONE);
  RunResult run{};
  if (prepared == nullptr) return run;
  std::vector<float> input = {1.0f, -2.0f, 3.5f, 0.25f};
  run.output.assign(4, 0.0f);
  nnrt_memory_pool pools[2] = {{NNRT_POOL_HOST, input.data(), 16}, {NNRT_POOL_HOST, run.output.data(), 16}};
  nnrt_request_argument in{0, {0, 0, 16}, 0, nullptr};
  nnrt_request_argument out{0, {1, 0, 16}, static_cast<uint32_t>(requestDims.size()), requestDims.data()};
  nnrt_request request{&in, 1, &out, 1, pools, 2};
  nnrt_reason reason{};
  run.status = api->execute_synchronously_1_3(prepared, &request, 0, 0, 0, &run.shape, 1, nullptr, &reason);
  run.reason = reason.message;
  api->release_prepared_model(prepared);
  api->close(plugin);
  return run;
}

TEST(SdkOutputShapesTest, TheModelsDeclaredShapeIsReportedForADriverThatGivesNone) {
  RunResult run = prepareAndRun(OneOperationModel({2, 2}, {2, 2}), {});
  ASSERT_EQ(run.status, NNRT_STATUS_NONE) << run.reason;
  EXPECT_EQ(run.shape.rank, 2u);
  EXPECT_EQ(run.shape.dimensions[0], 2u);
  EXPECT_EQ(run.shape.dimensions[1], 2u);
  EXPECT_EQ(run.shape.is_sufficient, 1);
  EXPECT_EQ(run.output, (std::vector<float>{2.0f, -4.0f, 7.0f, 0.5f}));
}

TEST(SdkOutputShapesTest, TheRequestsDimensionsFillInTheModelsUnknownOnes) {
  RunResult run = prepareAndRun(OneOperationModel({0, 2}, {0, 2}), {2, 2});
  ASSERT_EQ(run.status, NNRT_STATUS_NONE) << run.reason;
  EXPECT_EQ(run.shape.rank, 2u);
  EXPECT_EQ(run.shape.dimensions[0], 2u);
  EXPECT_EQ(run.shape.dimensions[1], 2u);
}

TEST(SdkOutputShapesTest, AnUnknownShapeThatTheDriverDoesNotReportIsAFailureThatSaysWhy) {
  RunResult run = prepareAndRun(OneOperationModel({0, 2}, {0, 2}), {});
  EXPECT_EQ(run.status, NNRT_STATUS_GENERAL_FAILURE);
  EXPECT_EQ(run.reason,
            "the driver reported no output shapes, and output 0's shape is not fully known before execution: a "
            "driver must set ExecutionResult::outputShapes for outputs of unknown shape");
}

}  // namespace
