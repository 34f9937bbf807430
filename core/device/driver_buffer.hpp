// The ABI 1.1 objects a driver may offer besides executions: buffers it manages (memory domains,
// ANeuralNetworksMemory_createFromDesc), its preferred memory alignment and padding, and per-burst
// state. Each entry is optional; these wrappers say when a plugin does not offer it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/device/driver_device.hpp"
#include "core/support/status.hpp"

namespace nnrt {

// One use of a buffer: input or output `ioIndex` of `prepared`.
struct BufferRole {
  std::shared_ptr<PreparedModel> prepared;
  bool input = true;
  uint32_t ioIndex = 0;
  float frequency = 1.0f;
};

// A buffer a driver manages. Releases it when the last reference goes; keeps the device (and its
// plugin) and the prepared models of its roles alive. Copies are not synchronized with each other
// or with executions: the caller runs one at a time on a buffer.
class DriverBuffer {
 public:
  // Whether the device's plugin offers allocate.
  static bool offered(const DriverDevice& device);
  // Asks `device` for a buffer of `operand`'s type and quantization with `dimensions` for `roles`
  // (every prepared model from this device).
  static Result<std::shared_ptr<DriverBuffer>> allocate(std::shared_ptr<DriverDevice> device, int32_t type,
                                                        float scale, int32_t zeroPoint,
                                                        std::span<const uint32_t> dimensions,
                                                        const std::vector<BufferRole>& roles);
  ~DriverBuffer();
  DriverBuffer(const DriverBuffer&) = delete;
  DriverBuffer& operator=(const DriverBuffer&) = delete;

  nnrt_buffer* handle() const { return buffer_; }
  const DriverDevice& device() const { return *device_; }
  // Copies the contents out to `dst` (the buffer's size for its current dimensions).
  Result<void> copyTo(std::span<uint8_t> dst) const;
  // Fills the buffer from `src`; `dimensions` (all known) become its dimensions.
  Result<void> copyFrom(std::span<const uint8_t> src, std::span<const uint32_t> dimensions) const;

 private:
  DriverBuffer() = default;
  std::shared_ptr<DriverDevice> device_;
  std::vector<std::shared_ptr<PreparedModel>> prepared_;
  nnrt_buffer* buffer_ = nullptr;
};

// The device's preferred alignment and padding for the application's buffers: what its plugin
// states (ABI 1.1), or 64 and 1. Values that are not powers of two up to 4096 are replaced by these.
nnrt_memory_preference memoryPreference(const DriverDevice& device);

// A driver's state for the executions of one burst on one prepared model. Not thread-safe: one
// execution at a time.
class DriverBurst {
 public:
  // The driver's burst for `prepared`; null when its plugin does not offer bursts.
  static Result<std::unique_ptr<DriverBurst>> configure(std::shared_ptr<PreparedModel> prepared);
  ~DriverBurst();
  DriverBurst(const DriverBurst&) = delete;
  DriverBurst& operator=(const DriverBurst&) = delete;

  // As PreparedModel::execute (bounded the same way), through the burst.
  Result<driver::ExecutionResult> execute(const nnrt_request& request, bool measure, uint64_t deadlineNs,
                                          uint64_t loopTimeoutNs);

 private:
  DriverBurst() = default;
  std::shared_ptr<PreparedModel> prepared_;
  nnrt_burst* burst_ = nullptr;
};

}  // namespace nnrt
