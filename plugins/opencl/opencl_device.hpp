// One nnrt device per selected OpenCL device.
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <memory>
#include <string>

#include "nnrt/driver/driver.hpp"

namespace nnrt::opencl {

// What the plugin learned about an OpenCL device at start-up.
struct ClDeviceInfo {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string platformName;
  std::string name;
  std::string vendor;
  std::string driverVersion;
  std::string openclVersion;
  cl_device_type type = 0;
  bool fp16 = false;
  uint64_t globalMemory = 0;
  uint64_t localMemory = 0;
  uint32_t computeUnits = 0;
};

class OpenClDevice : public driver::Device {
 public:
  explicit OpenClDevice(ClDeviceInfo info);

  const std::string& getName() const override { return name_; }
  const std::string& getVersionString() const override { return version_; }
  driver::DeviceType getType() const override;
  const driver::Capabilities& getCapabilities_1_3() const override { return capabilities_; }
  driver::Result<std::vector<bool>> getSupportedOperations_1_3(const driver::Model& model,
                                                               const driver::Explainer& explain) const override;
  driver::Result<std::unique_ptr<driver::PreparedModel>> prepareModel_1_3(const driver::Model& model,
                                                                          const driver::PrepareOptions& options,
                                                                          const driver::CacheFiles& cache) const override;

 private:
  ClDeviceInfo info_;
  std::string name_;
  std::string version_;
  driver::Capabilities capabilities_;
};

}  // namespace nnrt::opencl
