// Memory for the temporaries of one execution: bump allocation from a few large blocks, all freed
// together when the arena is destroyed at the end of the execution.
//
// Not thread-safe: each execution owns its arena, so concurrent executions of one prepared model
// never share one. Kernels called by the execution may read and write the returned memory from
// several threads (it is plain memory); only allocate() must stay on the execution's thread.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace nnrt::cpu {

class ExecutionArena {
 public:
  static constexpr size_t kAlignment = 64;  // a cache line; more than any kernel needs

  // `firstBlockBytes` sizes the first block (e.g. the temporaries a prepared model knows it needs);
  // later blocks grow as needed.
  explicit ExecutionArena(size_t firstBlockBytes = 0)
      : nextBlockBytes_(std::max(firstBlockBytes, kMinBlock)) {}
  ExecutionArena(const ExecutionArena&) = delete;
  ExecutionArena& operator=(const ExecutionArena&) = delete;

  // `bytes` of uninitialized memory aligned to kAlignment, valid until the arena is destroyed.
  // Throws std::bad_alloc when memory runs out.
  void* allocate(size_t bytes) {
    bytes = roundUp(std::max<size_t>(bytes, 1));
    if (blocks_.empty() || used_ + bytes > capacity_) newBlock(bytes);
    void* p = current_ + used_;
    used_ += bytes;
    return p;
  }

 private:
  static constexpr size_t kMinBlock = size_t{64} << 10;
  static size_t roundUp(size_t n) { return (n + kAlignment - 1) / kAlignment * kAlignment; }

  void newBlock(size_t atLeast) {
    const size_t size = std::max(nextBlockBytes_, atLeast);
    blocks_.push_back(std::make_unique_for_overwrite<std::byte[]>(size + kAlignment));
    const auto raw = reinterpret_cast<uintptr_t>(blocks_.back().get());
    current_ = reinterpret_cast<std::byte*>(roundUp(raw));
    capacity_ = size;
    used_ = 0;
    nextBlockBytes_ = size * 2;
  }

  std::vector<std::unique_ptr<std::byte[]>> blocks_;
  std::byte* current_ = nullptr;
  size_t capacity_ = 0;
  size_t used_ = 0;
  size_t nextBlockBytes_;
};

}  // namespace nnrt::cpu
