#include "plugins/opencl/opencl_device.hpp"

namespace nnrt::opencl {

OpenClDevice::OpenClDevice(ClDeviceInfo info) : info_(std::move(info)) {
  name_ = info_.name;
  // CL_DEVICE_VERSION reads "OpenCL <major.minor> <vendor text>": keep the first two words.
  std::string cl = info_.openclVersion.substr(0, info_.openclVersion.find(' ', info_.openclVersion.find(' ') + 1));
  version_ = info_.driverVersion + " (" + cl + ")";
  // No kernels yet: nothing is claimed, so the numbers only order devices for future use.
  for (auto type : {driver::OperandType::TENSOR_FLOAT32, driver::OperandType::FLOAT32, driver::OperandType::INT32}) {
    capabilities_.operandPerformance.push_back({static_cast<int32_t>(type), {1.0f, 1.0f}});
  }
}

driver::DeviceType OpenClDevice::getType() const {
  if (info_.type & CL_DEVICE_TYPE_GPU) return driver::DeviceType::GPU;
  if (info_.type & CL_DEVICE_TYPE_CPU) return driver::DeviceType::CPU;
  if (info_.type & CL_DEVICE_TYPE_ACCELERATOR) return driver::DeviceType::ACCELERATOR;
  return driver::DeviceType::OTHER;
}

driver::Result<std::vector<bool>> OpenClDevice::getSupportedOperations_1_3(const driver::Model& model,
                                                                           const driver::Explainer& explain) const {
  std::vector<bool> supported(model.main().operations().size(), false);
  for (uint32_t i = 0; i < supported.size(); ++i) explain(i, "the opencl driver has no kernels yet");
  return supported;
}

driver::Result<std::unique_ptr<driver::PreparedModel>> OpenClDevice::prepareModel_1_3(
    const driver::Model&, const driver::PrepareOptions&, const driver::CacheFiles&) const {
  return driver::invalidArgument("the opencl driver has no kernels yet");
}

}  // namespace nnrt::opencl
