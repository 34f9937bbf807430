// The reference CPU device: every operation it claims has a reference kernel in kernels/ (OpenBLAS
// for GEMM-shaped work, oneTBB for parallel loops); the hot ones also run on the fast layer
// (fast_path.hpp, oneDNN) when it takes their shapes. By definition its performance is 1.0.
//
// What it claims is the table in cpu_operations.cpp; cpu_prepared_model.hpp says how models run.
// Thread-safe: every method may be called from several threads at once.
#pragma once

#include <memory>
#include <string>

#include <tbb/task_arena.h>

#include "nnrt/driver/driver.hpp"
#include "plugins/cpu/core_lease.hpp"
#include "plugins/cpu/fast_path.hpp"

namespace nnrt::cpu {

class CpuDevice : public driver::Device {
 public:
  // `threads` bounds the parallelism of every execution on this device together: reference kernels
  // run in one oneTBB task arena of that many threads, fast kernels on an OpenMP team of that many,
  // never both at once (CoreLease, one for all cpu devices of the process), all at most the
  // machine's hardware threads; OpenBLAS runs single-threaded, its products split over those pools.
  // `fast` loads the fast layer (fast_path.hpp); without it, or when it cannot load (logged), every
  // operation runs its reference kernel. Light operations with fewer
  // than `minElements` output elements stay on the reference kernels (fast_path.hpp). `fusion` runs
  // runs of float32 element-wise operations as one kernel each (CpuPreparedModel::FusedSteps). A
  // non-empty `profile` names the file each prepared model appends its operations' times to when
  // it is released (the device option `profile`).
  CpuDevice(int threads, bool fast, size_t minElements = kFastMinElements, bool winograd = true,
            bool fusion = true, std::string profile = {});

  const std::string& getName() const override { return name_; }
  const std::string& getVersionString() const override { return version_; }
  driver::DeviceType getType() const override { return driver::DeviceType::CPU; }
  const driver::Capabilities& getCapabilities_1_3() const override { return capabilities_; }
  // Every (operation, input-0 type) row of the kernel tables.
  const std::vector<nnrt_operation_support>& getOperationTable() const override { return operationTable_; }
  // Supported iff selectKernel() accepts the operation; the explanation is its reason.
  driver::Result<std::vector<bool>> getSupportedOperations_1_3(
      const driver::Model& model, const driver::Explainer& explain) const override;
  // INVALID_ARGUMENT naming the first unsupported operation; otherwise a CpuPreparedModel.
  driver::Result<std::unique_ptr<driver::PreparedModel>> prepareModel_1_3(
      const driver::Model& model, const driver::PrepareOptions& options,
      const driver::CacheFiles& cache) const override;
  // A driver::HostBuffer of the operand's size: the kernels use it as any other request pool.
  // Refused (INVALID_ARGUMENT) when a dimension is unknown.
  driver::Result<std::unique_ptr<driver::Buffer>> allocate(const driver::BufferDesc& desc,
                                                           std::span<driver::PreparedModel* const> preparedModels,
                                                           std::span<const nnrt_buffer_role> inputRoles,
                                                           std::span<const nnrt_buffer_role> outputRoles) const override;

 private:
  std::string name_ = "nnrt-reference-cpu";
  std::string version_;
  driver::Capabilities capabilities_;
  std::vector<nnrt_operation_support> operationTable_;
  std::shared_ptr<tbb::task_arena> threads_;
  std::shared_ptr<CoreLease> lease_ = CoreLease::ofProcess();  // every cpu device's cores
  std::shared_ptr<FastLayer> fast_;  // null: reference kernels only
  size_t minElements_;
  bool fusion_;
  std::string profile_;
};

}  // namespace nnrt::cpu
