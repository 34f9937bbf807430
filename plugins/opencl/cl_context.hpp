// The OpenCL objects every model on one device shares: the device, its context, and the calls that
// make programs, queues and buffers, each turning an OpenCL failure into a driver error that names the
// call and the error. Thread-safe: OpenCL contexts, programs and buffers may be used from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nnrt/driver/types.hpp"
#include "plugins/opencl/cl_handles.hpp"

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
  uint64_t maxAllocation = 0;  // CL_DEVICE_MAX_MEM_ALLOC_SIZE
  size_t maxWorkGroupSize = 0;
  uint32_t computeUnits = 0;
};

class DeviceContext {
 public:
  static driver::Result<std::shared_ptr<DeviceContext>> create(ClDeviceInfo info);

  const ClDeviceInfo& info() const { return info_; }
  cl_context context() const { return context_.get(); }
  cl_device_id device() const { return info_.device; }

  // Compiles OpenCL C. A failed build names the error and quotes the build log's first errors.
  driver::Result<ClProgram> buildFromSource(const std::string& source, const std::string& options) const;
  // Loads a binary that programBinary() returned on this device; never compiles OpenCL C.
  driver::Result<ClProgram> buildFromBinary(std::span<const uint8_t> binary,
                                            const std::string& options) const;
  // The device binary of a built program (CL_PROGRAM_BINARIES).
  driver::Result<std::vector<uint8_t>> programBinary(cl_program program) const;

  driver::Result<ClKernel> createKernel(cl_program program, const std::string& name) const;
  // An in-order queue; with profiling when `profiling` is set.
  driver::Result<ClQueue> createQueue(bool profiling) const;
  // A device buffer of at least one byte, filled from `initial` when given (CL_MEM_COPY_HOST_PTR). A
  // size above CL_DEVICE_MAX_MEM_ALLOC_SIZE is refused with RESOURCE_EXHAUSTED_PERSISTENT before
  // OpenCL is asked.
  driver::Result<ClMem> createBuffer(size_t bytes, cl_mem_flags flags, const void* initial = nullptr) const;

  // Set when a call reported the device unavailable; getStatus() then answers OFFLINE.
  void noteError(const driver::Error& error) const;
  bool lost() const { return lost_.load(std::memory_order_relaxed); }

 private:
  explicit DeviceContext(ClDeviceInfo info) : info_(std::move(info)) {}
  driver::Result<ClProgram> finishBuild(ClProgram program, const std::string& options,
                                        const char* what) const;

  ClDeviceInfo info_;
  ClContext context_;
  mutable std::atomic<bool> lost_{false};
};

}  // namespace nnrt::opencl
