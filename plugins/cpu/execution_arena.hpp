// Memory for the temporaries of one execution: bump allocation from a few large blocks, all given
// back together by reset() at the end of the execution. A prepared model keeps its arenas for the
// next executions (ArenaPool), so that a steady stream of executions touches the same, already
// mapped memory and allocates nothing.
//
// Not thread-safe: each execution owns its arena, so concurrent executions of one prepared model
// never share one. Kernels called by the execution may read and write the returned memory from
// several threads (it is plain memory); only allocate() must stay on the execution's thread.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
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

  // Everything allocated so far is free again. Memory that took more than one block is merged into
  // one block of the total size, so the next execution of the same model fits in it.
  void reset() {
    if (blocks_.size() > 1) {
      const size_t total = totalBytes_;
      blocks_.clear();
      totalBytes_ = 0;
      nextBlockBytes_ = total;
      newBlock(total);
    }
    used_ = 0;
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
    totalBytes_ += size;
    used_ = 0;
    nextBlockBytes_ = size * 2;
  }

  std::vector<std::unique_ptr<std::byte[]>> blocks_;
  std::byte* current_ = nullptr;
  size_t capacity_ = 0;
  size_t used_ = 0;
  size_t totalBytes_ = 0;
  size_t nextBlockBytes_;
};

// The arenas of one prepared model not in use by an execution. Thread-safe.
class ArenaPool {
 public:
  explicit ArenaPool(size_t firstBlockBytes = 0) : firstBlockBytes_(firstBlockBytes) {}
  void setFirstBlockBytes(size_t bytes) { firstBlockBytes_ = bytes; }

  std::unique_ptr<ExecutionArena> take() {
    {
      std::lock_guard guard(mutex_);
      if (!free_.empty()) {
        auto arena = std::move(free_.back());
        free_.pop_back();
        return arena;
      }
    }
    return std::make_unique<ExecutionArena>(firstBlockBytes_);
  }
  void give(std::unique_ptr<ExecutionArena> arena) {
    arena->reset();
    std::lock_guard guard(mutex_);
    free_.push_back(std::move(arena));
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<ExecutionArena>> free_;
  size_t firstBlockBytes_;
};

}  // namespace nnrt::cpu
