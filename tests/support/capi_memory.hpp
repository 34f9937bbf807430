// Memories of the public C API for tests: one from a finished description with a single role, and
// host bytes an application shares with the runtime (a memfd, mapped for the test to read and write).
#pragma once

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <android/NeuralNetworks.h>

namespace nnrt::test {

// A finished description with one role (input or output `index` of `compilation`), and a memory from it.
inline ANeuralNetworksMemory* describedMemory(const ANeuralNetworksCompilation* compilation, bool input,
                                              uint32_t index) {
  ANeuralNetworksMemoryDesc* desc = nullptr;
  EXPECT_EQ(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(input ? ANeuralNetworksMemoryDesc_addInputRole(desc, compilation, index, 1.0f)
                  : ANeuralNetworksMemoryDesc_addOutputRole(desc, compilation, index, 1.0f),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory* memory = nullptr;
  EXPECT_EQ(ANeuralNetworksMemory_createFromDesc(desc, &memory), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemoryDesc_free(desc);
  return memory;
}

// `size` bytes (at least 1) of shared memory wrapped by ANeuralNetworksMemory_createFromFd, read-write,
// and mapped here; data() is null when something failed.
class SharedBytes {
 public:
  explicit SharedBytes(size_t size) : size_(std::max<size_t>(size, 1)) {
    fd_ = memfd_create("nnrt_test", MFD_CLOEXEC);
    if (fd_ < 0 || ftruncate(fd_, static_cast<off_t>(size_)) != 0) return;
    void* at = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (at == MAP_FAILED) return;
    if (ANeuralNetworksMemory_createFromFd(size_, PROT_READ | PROT_WRITE, fd_, 0, &memory_) != ANEURALNETWORKS_NO_ERROR) {
      munmap(at, size_);
      return;
    }
    data_ = static_cast<uint8_t*>(at);
  }
  ~SharedBytes() {
    ANeuralNetworksMemory_free(memory_);
    if (data_ != nullptr) munmap(data_, size_);
    if (fd_ >= 0) close(fd_);
  }
  SharedBytes(const SharedBytes&) = delete;
  SharedBytes& operator=(const SharedBytes&) = delete;

  uint8_t* data() const { return data_; }
  ANeuralNetworksMemory* memory() const { return memory_; }

 private:
  size_t size_;
  int fd_ = -1;
  uint8_t* data_ = nullptr;
  ANeuralNetworksMemory* memory_ = nullptr;
};

}  // namespace nnrt::test
