// A configurable test driver built on the SDK. Options:
//   devices: how many devices to offer (default 1)
//   fail_open: make open() fail with this reason
//   throw_open: make open() throw with this message
//   status: offline | busy (what get_status reports)
//   operation_table: sorted | unsorted (the ABI 1.1 listing: ADD and RELU in float32, in order or not)
#include <stdexcept>

#include "nnrt/driver/driver.hpp"

namespace {

using namespace nnrt::driver;

class TestDevice : public Device {
 public:
  TestDevice(int index, DeviceStatus status, const std::string& table)
      : name_("test-device-" + std::to_string(index)), status_(status) {
    constexpr int32_t kFloat32 = static_cast<int32_t>(OperandType::TENSOR_FLOAT32);
    const nnrt_operation_support add{static_cast<int32_t>(OperationType::ADD), kFloat32};
    const nnrt_operation_support relu{static_cast<int32_t>(OperationType::RELU), kFloat32};
    if (table == "sorted") table_ = {add, relu};
    if (table == "unsorted") table_ = {relu, add};
    capabilities_.operandPerformance = {{static_cast<int32_t>(OperandType::TENSOR_FLOAT32), {0.5f, 2.0f}}};
    extensions_ = {{"com.example.test", {{0, false, 8}}}};
  }
  const std::string& getName() const override { return name_; }
  const std::string& getVersionString() const override { return version_; }
  DeviceType getType() const override { return DeviceType::ACCELERATOR; }
  DeviceStatus getStatus() const override { return status_; }
  const Capabilities& getCapabilities_1_3() const override { return capabilities_; }
  const std::vector<Extension>& getSupportedExtensions() const override { return extensions_; }
  const std::vector<nnrt_operation_support>& getOperationTable() const override { return table_; }
  Result<std::vector<bool>> getSupportedOperations_1_3(const Model& model, const Explainer& explain) const override {
    std::vector<bool> supported(model.main().operations().size(), false);
    for (uint32_t i = 0; i < supported.size(); ++i) explain(i, "test device runs nothing");
    return supported;
  }
  Result<std::unique_ptr<PreparedModel>> prepareModel_1_3(const Model&, const PrepareOptions&,
                                                          const CacheFiles&) const override {
    throw std::runtime_error("prepare is not implemented by the test device");
  }

 private:
  std::string name_;
  std::string version_ = "test 1.2.3";
  DeviceStatus status_;
  Capabilities capabilities_;
  std::vector<Extension> extensions_;
  std::vector<nnrt_operation_support> table_;
};

Result<DeviceList> openTest(const Options& options) {
  if (auto reason = options.get("fail_open")) return fail(ErrorStatus::DEVICE_UNAVAILABLE, *reason);
  if (auto message = options.get("throw_open")) throw std::runtime_error(*message);
  int count = std::stoi(options.get("devices", "1"));
  std::string status = options.get("status", "available");
  std::string table = options.get("operation_table", "");
  NNRT_RETURN_IF_ERROR(options.checkAllUsed());
  DeviceStatus s = status == "offline" ? DeviceStatus::OFFLINE
                   : status == "busy"  ? DeviceStatus::BUSY
                                       : DeviceStatus::AVAILABLE;
  DeviceList devices;
  for (int i = 0; i < count; ++i) devices.push_back(std::make_unique<TestDevice>(i, s, table));
  return devices;
}

}  // namespace

NNRT_DRIVER_EXPORT("test", "9.9.9", openTest)
