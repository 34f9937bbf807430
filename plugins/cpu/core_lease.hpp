// The cpu device's cores as one lease, so that its kernels never keep more busy threads than cores.
//
// Executions without fast kernels share the lease: their reference kernels run in the device's
// oneTBB arena, at most `threads` workers among all of them. An execution with fast kernels runs
// oneDNN on an OpenMP team of `threads` threads and holds the lease whole, from its first operation
// to its last. So at any moment either oneTBB or one OpenMP team computes, never both.
//
// Exclusive work runs on the lease's own thread, the only thread of the process that starts OpenMP
// teams (every cpu device shares one lease): an execution queues itself and sleeps until the runner
// thread has run it, back to back with the others queued meanwhile, on one warm team. One thread matters because libgomp counts
// the threads of every team it ever started: once they outnumber the cores (two application
// threads that each ran oneDNN), every team's threads spin 100 polls instead of GOMP_SPINCOUNT
// before sleeping, and a team then sleeps between layers (the MLP 1.6x slower, for good: the
// teams live as long as their threads). Earlier, the first waiting caller became the runner:
// 8 concurrent executions gave 0.6 of the throughput of one on the MLP. Taking the lease per
// kernel (45-80%) was worse still. Queued executions keep new shared holders out, so a stream of
// small ones cannot starve them.
//
// The runner runs each job on the CPU its caller queued it from (it moves there first when it is
// elsewhere), so that the caller, sleeping meanwhile, is woken on the CPU that woke it and runs as
// soon as the runner yields: caller and runner take turns on one CPU, the team's other threads run
// on the others. A caller woken on another CPU waited about 25 us for it on this kind of virtual
// machine (an idle virtual CPU is woken through the hypervisor), as long as a small model's whole
// execution: a 784-256-256-10 MLP took 45-47 us per execution that way, 18.6-18.8 us with the move.
// The runner may run on the CPUs of the thread that started it and those of the main thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace nnrt::cpu {

class CoreLease {
 public:
  // Work that needs every core: `run` is called once, on the runner thread, holding the whole lease.
  // It must not throw.
  struct Job {
    void (*run)(void* context) = nullptr;
    void* context = nullptr;
    std::atomic<uint32_t> done{0};  // 1 once it has run; the caller sleeps on it (a futex)
    int cpu = -1;                   // the caller's CPU when it queued the job (-1: unknown)
  };

  CoreLease() = default;
  CoreLease(const CoreLease&) = delete;
  CoreLease& operator=(const CoreLease&) = delete;
  ~CoreLease() {
    {
      std::lock_guard guard(mutex_);
      stopping_ = true;
    }
    work_.notify_all();
    // Never the runner itself: every job's owner holds the lease (its prepared model) until its job
    // is done, so the last owner lets go on another thread.
    if (runner_.joinable()) runner_.join();
  }

  // The lease every cpu device of the process shares (a new one once all have gone): they share
  // the cores, and one runner thread keeps one OpenMP team for all of them.
  static std::shared_ptr<CoreLease> ofProcess() {
    static std::mutex mutex;
    static std::weak_ptr<CoreLease> current;
    std::lock_guard guard(mutex);
    std::shared_ptr<CoreLease> lease = current.lock();
    if (lease == nullptr) {
      lease = std::make_shared<CoreLease>();
      current = lease;
    }
    return lease;
  }

  // Runs `job` with every core, on the lease's runner thread; returns once it has run.
  void runExclusive(Job& job) {
    if (serving_ == this) {  // asked from inside a job of this lease: the cores are already held here
      job.run(job.context);
      job.done.store(1, std::memory_order_release);
      return;
    }
    job.cpu = sched_getcpu();
    std::unique_lock guard(mutex_);
    if (!runner_.joinable()) runner_ = std::thread([this] { serve(); });
    queue_.push_back(&job);
    queued_.store(true, std::memory_order_release);
    if (!running_ && shared_ == 0) work_.notify_one();
    guard.unlock();
    while (job.done.load(std::memory_order_acquire) == 0) futex(&job.done, FUTEX_WAIT_PRIVATE, 0);
  }

  // Calls `work()` (returning a value) the same way and returns its result; what it throws is
  // thrown here.
  template <class Work>
  auto runExclusive(Work&& work) -> decltype(work()) {
    struct Context {
      Work& work;
      std::optional<decltype(work())> result;
      std::exception_ptr thrown;
    } context{work, {}, {}};
    Job job;
    job.context = &context;
    job.run = [](void* p) {
      auto& c = *static_cast<Context*>(p);
      try {
        c.result.emplace(c.work());
      } catch (...) {
        c.thrown = std::current_exception();
      }
    };
    runExclusive(job);
    if (context.thrown) std::rethrow_exception(context.thrown);
    return std::move(*context.result);
  }

  // Shared (std::shared_lock): one reference kernel, which oneTBB's arena already bounds.
  void lock_shared() {
    std::unique_lock guard(mutex_);
    sharedMayEnter_.wait(guard, [this] { return !running_ && queue_.empty(); });
    ++shared_;
  }
  void unlock_shared() {
    std::lock_guard guard(mutex_);
    if (--shared_ == 0 && !queue_.empty()) work_.notify_one();  // the runner runs the queue
  }

 private:
  // How long the runner polls for more work before it sleeps: a caller that runs executions back to
  // back queues its next one about 10 us after its last one ended (its own wake-up included), and a
  // sleeping runner costs another wake-up.
  static constexpr std::chrono::microseconds kLinger{50};

  static void futex(std::atomic<uint32_t>* word, int op, uint32_t value) {
    static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t));
    syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), op, value, nullptr, nullptr, 0);
  }

  // Moves the runner onto `cpu` when it runs elsewhere and may run there: pinned there for the move
  // only, its own CPUs back at once, so the scheduler stays free to move it (and the team threads
  // it starts later inherit every CPU).
  void moveTo(int cpu, const cpu_set_t& allowed) {
    if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &allowed) || sched_getcpu() == cpu) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof(one), &one) == 0) sched_setaffinity(0, sizeof(allowed), &allowed);
  }

  void serve() {
    serving_ = this;
    // What top -H and debuggers show; the OpenMP team this thread starts inherits the name.
    pthread_setname_np(pthread_self(), "nnrt-cpu-fast");
    // The CPUs of the thread that started the runner and those of the process's main thread: an
    // application thread pinned to one CPU (or a main thread pinned to one, with the calls from
    // another) would otherwise confine the runner, and every team thread it starts, to one CPU.
    cpu_set_t allowed, main;
    CPU_ZERO(&allowed);
    CPU_ZERO(&main);
    const bool follow = sched_getaffinity(0, sizeof(allowed), &allowed) == 0;
    if (follow && sched_getaffinity(getpid(), sizeof(main), &main) == 0) {
      CPU_OR(&allowed, &allowed, &main);
      if (sched_setaffinity(0, sizeof(allowed), &allowed) != 0) sched_getaffinity(0, sizeof(allowed), &allowed);
    }
    std::unique_lock guard(mutex_);
    for (;;) {
      work_.wait(guard, [this] { return stopping_ || (!queue_.empty() && shared_ == 0); });
      if (queue_.empty()) return;  // stopping, nothing left
      running_ = true;
      while (!queue_.empty()) {
        Job* next = queue_.front();
        queue_.pop_front();
        // Only a job nobody else waits behind: with more queued, the wake-up is off the critical path,
        // and moving the runner onto a CPU its team's threads run on would slow every job after it.
        const bool alone = queue_.empty();
        guard.unlock();
        if (follow && alone) moveTo(next->cpu, allowed);
        next->run(next->context);
        // Once `done` is stored the caller may return and its job be gone: the wake-up only names the
        // address, which the kernel does not read (a futex's documented use; no mutex for the caller
        // to take on waking).
        std::atomic<uint32_t>* done = &next->done;
        done->store(1, std::memory_order_release);
        futex(done, FUTEX_WAKE_PRIVATE, 1);
        guard.lock();
      }
      queued_.store(false, std::memory_order_relaxed);
      running_ = false;
      guard.unlock();
      sharedMayEnter_.notify_all();
      // Yielding, so that other work on this core (the caller just woken, above all) goes first.
      const auto until = std::chrono::steady_clock::now() + kLinger;
      while (!queued_.load(std::memory_order_acquire) && std::chrono::steady_clock::now() < until) sched_yield();
      guard.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable sharedMayEnter_;
  std::condition_variable work_;  // the runner: work queued and no shared holder, or stopping
  std::deque<Job*> queue_;        // exclusive work waiting to run
  std::atomic<bool> queued_{false};  // work queued since the runner last emptied the queue
  int shared_ = 0;
  bool running_ = false;
  bool stopping_ = false;
  std::thread runner_;  // started by the first exclusive job
  static inline thread_local const CoreLease* serving_ = nullptr;  // the lease this thread is the runner of
};

}  // namespace nnrt::cpu
