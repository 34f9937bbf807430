// The cpu device's cores as one lease, so that its kernels never keep more busy threads than cores.
//
// Reference kernels run in the device's oneTBB arena (at most `threads` workers among all of them)
// and share the lease. Fast kernels run oneDNN on an OpenMP team of `threads` threads and need the
// lease whole. So at any moment either oneTBB or one OpenMP team computes, never both.
//
// Fast kernels are combined: an execution that wants to run one queues it; the first thread to find
// the cores free becomes the runner and runs every queued kernel, its own and those other executions
// queued meanwhile, back to back, on its own OpenMP team, then releases the cores. Under concurrent
// executions one team stays busy and warm instead of a different thread's team being woken for every
// kernel (which halved the throughput of 8 concurrent executions); a lone execution runs its kernels
// on its own thread with no hand-off. Queued kernels keep new shared holders out, so a stream of
// small reference kernels cannot starve them. Waiting threads sleep on condition variables.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>

namespace nnrt::cpu {

class CoreLease {
 public:
  // One fast kernel: `run` is called once, on some thread holding the whole lease.
  struct Job {
    void (*run)(void* context) = nullptr;
    void* context = nullptr;
    bool done = false;
    std::condition_variable wake;  // done, or this job may start running the queue
  };

  // Runs `job` with every core; returns once it has run (here or on the current runner's thread).
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

  // Shared (std::shared_lock): reference kernels, which oneTBB's arena already bounds.
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
  std::deque<Job*> queue_;  // fast kernels waiting to run
  int shared_ = 0;
  bool running_ = false;
};

}  // namespace nnrt::cpu
