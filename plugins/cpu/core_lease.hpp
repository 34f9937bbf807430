// The cpu device's cores as one lease, so that its kernels never keep more busy threads than cores.
//
// Reference kernels run in the device's oneTBB arena (at most `threads` workers among all of them)
// and share the lease; a fast kernel runs oneDNN on its own OpenMP team of `threads` threads and
// takes the lease whole. So at any moment either oneTBB or one OpenMP team computes, never both.
// A waiting exclusive holder stops new shared holders from entering, so a stream of small reference
// kernels cannot starve the fast ones. Threads that wait sleep on a condition variable.
#pragma once

#include <condition_variable>
#include <mutex>

namespace nnrt::cpu {

class CoreLease {
 public:
  // Exclusive (std::unique_lock): one fast kernel.
  void lock() {
    std::unique_lock guard(mutex_);
    ++exclusiveWaiting_;
    changed_.wait(guard, [this] { return !exclusive_ && shared_ == 0; });
    --exclusiveWaiting_;
    exclusive_ = true;
  }
  void unlock() {
    {
      std::lock_guard guard(mutex_);
      exclusive_ = false;
    }
    changed_.notify_all();
  }
  // Shared (std::shared_lock): reference kernels, which oneTBB's arena already bounds.
  void lock_shared() {
    std::unique_lock guard(mutex_);
    changed_.wait(guard, [this] { return !exclusive_ && exclusiveWaiting_ == 0; });
    ++shared_;
  }
  void unlock_shared() {
    bool last = false;
    {
      std::lock_guard guard(mutex_);
      last = --shared_ == 0;
    }
    if (last) changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int shared_ = 0;
  int exclusiveWaiting_ = 0;
  bool exclusive_ = false;
};

}  // namespace nnrt::cpu
