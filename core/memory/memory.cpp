#include "core/memory/memory.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace nnrt {

Result<std::shared_ptr<Memory>> Memory::fromFd(size_t size, int protect, int fd, size_t offset) {
  // As Android: only a descriptor that cannot be duplicated is refused here (OP_FAILED); a size of
  // 0 makes a memory no range fits in, and protection bits other than read and write are ignored.
  if (fd < 0) return fail(ResultCode::OP_FAILED, "fd " + std::to_string(fd) + " is not a file descriptor");
  std::shared_ptr<Memory> memory(new Memory());
  memory->fd_ = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (memory->fd_ < 0) {
    return fail(ResultCode::OP_FAILED, "fd " + std::to_string(fd) + " cannot be duplicated: " + std::strerror(errno));
  }
  if (size == 0) return memory;
  protect &= PROT_READ | PROT_WRITE;
  if (protect == 0) {
    return fail(ResultCode::BAD_DATA, "protect must include PROT_READ or PROT_WRITE (a memory nnrt can neither read "
                                      "nor write is refused)");
  }
  long page = sysconf(_SC_PAGESIZE);
  size_t alignedOffset = offset - offset % static_cast<size_t>(page);
  size_t mappingSize = size + (offset - alignedOffset);
  void* mapping = mmap(nullptr, mappingSize, protect, MAP_SHARED, memory->fd_, static_cast<off_t>(alignedOffset));
  if (mapping == MAP_FAILED) {
    return fail(ResultCode::UNMAPPABLE, "mmap of " + std::to_string(size) + " bytes at offset " +
                                            std::to_string(offset) + " failed: " + std::strerror(errno));
  }
  memory->mapping_ = mapping;
  memory->mappingSize_ = mappingSize;
  memory->data_ = static_cast<uint8_t*>(mapping) + (offset - alignedOffset);
  memory->size_ = size;
  memory->writable_ = (protect & PROT_WRITE) != 0;
  return memory;
}

Result<std::shared_ptr<Memory>> Memory::hostForDescription(size_t size,
                                                          std::shared_ptr<MemoryDescription> description) {
  int fd = memfd_create("nnrt-memory", MFD_CLOEXEC);
  if (fd < 0) return fail(ResultCode::OUT_OF_MEMORY, std::string("memfd_create failed: ") + std::strerror(errno));
  if (ftruncate(fd, static_cast<off_t>(size)) != 0) {
    int error = errno;
    close(fd);
    return fail(ResultCode::OUT_OF_MEMORY, "cannot size shared memory to " + std::to_string(size) + " bytes: " +
                                               std::strerror(error));
  }
  auto memory = fromFd(size, PROT_READ | PROT_WRITE, fd, 0);
  close(fd);  // fromFd keeps its own duplicate
  if (!memory) return memory;
  (*memory)->description_ = std::move(description);
  return memory;
}

std::shared_ptr<Memory> Memory::ofDriverBuffer(std::shared_ptr<DriverBuffer> buffer,
                                               std::shared_ptr<MemoryDescription> description) {
  std::shared_ptr<Memory> memory(new Memory());
  memory->driverBuffer_ = std::move(buffer);
  memory->description_ = std::move(description);
  memory->writable_ = true;
  return memory;
}

Memory::~Memory() {
  if (mapping_ != nullptr) munmap(mapping_, mappingSize_);
  if (fd_ >= 0) close(fd_);
}

Result<void> Memory::checkRange(size_t offset, size_t length, const char* what) const {
  if (offset > size_ || length > size_ - offset) {
    return fail(ResultCode::BAD_DATA, std::string(what) + ": offset " + std::to_string(offset) + " + length " +
                                          std::to_string(length) + " exceeds the memory's " + std::to_string(size_) +
                                          " bytes");
  }
  return {};
}

}  // namespace nnrt
