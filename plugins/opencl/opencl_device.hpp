// One nnrt device per selected OpenCL device: support queries with reasons, preparation (one program
// per model, built from the embedded kernel source with the model's precision options), and the
// compilation cache (cache_file.hpp).
#pragma once

#include <memory>
#include <string>

#include "nnrt/driver/driver.hpp"
#include "plugins/opencl/calibration.hpp"
#include "plugins/opencl/cl_context.hpp"
#include "plugins/opencl/model_copy.hpp"
#include "plugins/opencl/op_support.hpp"

namespace nnrt::opencl {

inline constexpr const char* kOpenClPluginVersion = "0.2.0";

// Plugin options that shape every device (opencl_plugin.cpp documents the keys).
struct DeviceOptions {
  bool calibrate = true;
  bool calibrationCache = true;  // keep the calibration in the user's cache folder (calibration.hpp)
  Fp16Mode fp16 = Fp16Mode::Auto;
  std::string buildOptions;     // appended to every model program's build options
  bool buildFromSource = true;  // false: only programs from the cache load
};

class OpenClDevice : public driver::Device {
 public:
  // Creates the device's context and calibrates it.
  static driver::Result<std::unique_ptr<OpenClDevice>> create(ClDeviceInfo info,
                                                              const DeviceOptions& options);

  const std::string& getName() const override { return context_->info().name; }
  const std::string& getVersionString() const override { return version_; }
  driver::DeviceType getType() const override;
  driver::DeviceStatus getStatus() const override;
  const driver::Capabilities& getCapabilities_1_3() const override { return calibration_.capabilities; }
  driver::Result<std::vector<bool>> getSupportedOperations_1_3(
      const driver::Model& model, const driver::Explainer& explain) const override;
  driver::CacheFileCounts getNumberOfCacheFilesNeeded() const override { return {1, 1}; }
  driver::Result<std::unique_ptr<driver::PreparedModel>> prepareModel_1_3(
      const driver::Model& model, const driver::PrepareOptions& options,
      const driver::CacheFiles& cache) const override;
  driver::Result<std::unique_ptr<driver::PreparedModel>> prepareModelFromCache_1_3(
      const driver::PrepareOptions& options, const driver::CacheFiles& cache) const override;

  const Calibration& calibration() const { return calibration_; }

 private:
  OpenClDevice(std::shared_ptr<DeviceContext> context, DeviceOptions options);
  Precision precisionFor(const ModelCopy& model) const;
  std::string programOptions(Precision precision) const;
  driver::Result<void> writeCache(const driver::CacheFiles& cache, const ModelCopy& model, cl_program program,
                                  const std::string& options) const;

  std::shared_ptr<DeviceContext> context_;
  DeviceOptions options_;
  std::string version_;   // what getVersionString says
  std::string cacheKey_;  // the driver version written into cache headers
  Calibration calibration_;
};

}  // namespace nnrt::opencl
