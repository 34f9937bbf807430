// The reference CPU device: every operation it claims runs on the kernels in kernels/ (OpenBLAS
// for GEMM-shaped work, oneTBB for parallel loops). By definition its performance is 1.0.
#pragma once

#include <memory>
#include <string>

#include "nnrt/driver/driver.hpp"

namespace nnrt::cpu {

class CpuDevice : public driver::Device {
 public:
  explicit CpuDevice(int threads);

  const std::string& getName() const override { return name_; }
  const std::string& getVersionString() const override { return version_; }
  driver::DeviceType getType() const override { return driver::DeviceType::CPU; }
  const driver::Capabilities& getCapabilities_1_3() const override { return capabilities_; }
  driver::Result<std::vector<bool>> getSupportedOperations_1_3(const driver::Model& model,
                                                               const driver::Explainer& explain) const override;
  driver::Result<std::unique_ptr<driver::PreparedModel>> prepareModel_1_3(const driver::Model& model,
                                                                          const driver::PrepareOptions& options,
                                                                          const driver::CacheFiles& cache) const override;

 private:
  std::string name_ = "nnrt-reference-cpu";
  std::string version_;
  driver::Capabilities capabilities_;
  int threads_;
};

}  // namespace nnrt::cpu
