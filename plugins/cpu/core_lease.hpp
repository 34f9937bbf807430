// The cpu device's cores as one lease, so that its kernels never keep more busy threads than cores.
//
// Executions without fast kernels share the lease: their reference kernels run in the device's
// oneTBB arena, at most `threads` workers among all of them. An execution with fast kernels runs
// oneDNN on an OpenMP team of `threads` threads and holds the lease whole, from its first operation
// to its last. So at any moment either oneTBB or one OpenMP team computes, never both.
//
// Exclusive holders are combined: an execution queues itself; the first thread to find the cores
// free becomes the runner and runs every queued execution, its own and those queued meanwhile, back
// to back on its own (warm) OpenMP team, then releases the cores; the others sleep until theirs has
// run. A lone execution runs on its own thread with no hand-off. Taking the lease per kernel
// instead woke a different thread's team for every kernel and let the waiting executions' own
// work preempt the team: 8 concurrent executions gave 45-80% of the throughput of one. Queued
// executions keep new shared holders out, so a stream of small ones cannot starve them.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>

namespace nnrt::cpu {

class CoreLease {
 public:
  // Work that needs every core: `run` is called once, on some thread holding the whole lease.
  struct Job {
    void (*run)(void* context) = nullptr;
    void* context = nullptr;
    bool done = false;
    std::condition_variable wake;  // done, or this job may start running the queue
  };

  // Runs `job` with every core; returns once it has run (on this thread or on the runner's).
  void runExclusive(Job& job) {
    std::unique_lock guard(mutex_);
    queue_.push_back(&job);
    job.wake.wait(guard, [&] { return job.done || (!running_ && shared_ == 0 && queue_.front() == &job); });
    if (job.done) return;
    running_ = true;
    while (!queue_.empty()) {
      Job* next = queue_.front();
      queue_.pop_front();
      guard.unlock();
      next->run(next->context);
      guard.lock();
      next->done = true;
      if (next != &job) next->wake.notify_one();
    }
    running_ = false;
    guard.unlock();
    sharedMayEnter_.notify_all();
  }

  // Shared (std::shared_lock): one reference kernel, which oneTBB's arena already bounds.
  void lock_shared() {
    std::unique_lock guard(mutex_);
    sharedMayEnter_.wait(guard, [this] { return !running_ && queue_.empty(); });
    ++shared_;
  }
  void unlock_shared() {
    std::lock_guard guard(mutex_);
    if (--shared_ == 0 && !queue_.empty()) queue_.front()->wake.notify_one();  // it runs the queue
  }

 private:
  std::mutex mutex_;
  std::condition_variable sharedMayEnter_;
  std::deque<Job*> queue_;  // exclusive work waiting to run
  int shared_ = 0;
  bool running_ = false;
};

}  // namespace nnrt::cpu
