// ANeuralNetworksMemory: a region of a file descriptor mapped into the process, or (made by
// ANeuralNetworksMemory_createFromDesc) a buffer a driver manages or host memory the runtime
// allocated, with the description of what it may be used for. Shared by the models and executions
// that use it (they hold a reference, so freeing the handle early is safe).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/support/status.hpp"

namespace nnrt {

class DriverBuffer;
class MemoryDescription;

class Memory {
 public:
  // Maps `size` bytes of `fd` from `offset` with `protect` (PROT_READ and/or PROT_WRITE; other bits
  // are ignored). The descriptor is duplicated; the caller may close its own. A size of 0 maps
  // nothing: no range fits in that memory.
  static Result<std::shared_ptr<Memory>> fromFd(size_t size, int protect, int fd, size_t offset);
  // createFromDesc: `size` bytes of new shared memory (memfd) the runtime allocated itself.
  static Result<std::shared_ptr<Memory>> hostForDescription(size_t size, std::shared_ptr<MemoryDescription> description);
  // createFromDesc: a buffer a driver allocated. Has no host bytes (data() is null).
  static std::shared_ptr<Memory> ofDriverBuffer(std::shared_ptr<DriverBuffer> buffer,
                                                std::shared_ptr<MemoryDescription> description);
  ~Memory();
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool writable() const { return writable_; }
  // Checks that [offset, offset + length) lies inside the memory.
  Result<void> checkRange(size_t offset, size_t length, const char* what) const;
  // What a memory made by createFromDesc may be used for, and its state; null for the others.
  MemoryDescription* description() const { return description_.get(); }
  // The driver's buffer behind the memory, or null.
  const DriverBuffer* driverBuffer() const { return driverBuffer_.get(); }

 private:
  Memory() = default;
  void* mapping_ = nullptr;  // page-aligned start of the mapping
  size_t mappingSize_ = 0;
  uint8_t* data_ = nullptr;  // the caller's offset within it
  size_t size_ = 0;
  bool writable_ = false;
  int fd_ = -1;
  std::shared_ptr<MemoryDescription> description_;
  std::shared_ptr<DriverBuffer> driverBuffer_;
};

}  // namespace nnrt
