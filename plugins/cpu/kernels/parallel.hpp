// Internal to the kernel library: the one place that decides when work is worth spreading over oneTBB.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace nnrt::cpu::detail {

// ThreadSanitizer cannot see oneTBB's own synchronization (the library is not instrumented), so the
// hand-off to and from the workers is declared to it. No-ops in other builds.
inline void tsanRelease([[maybe_unused]] const void* addr) {
#if defined(__SANITIZE_THREAD__)
  __tsan_release(const_cast<void*>(addr));
#endif
}
inline void tsanAcquire([[maybe_unused]] const void* addr) {
#if defined(__SANITIZE_THREAD__)
  __tsan_acquire(const_cast<void*>(addr));
#endif
}

// Another pool the parallel loops may run on instead of oneTBB, chosen per calling thread (Scoped-
// Executor). The cpu driver sets its fast layer's OpenMP team while an execution holds every core:
// the team is awake between the fast kernels, and a second pool beside it would compete with its
// spinning threads. run() calls body(context, begin, end) over disjoint ranges covering [0, count),
// each at least `grain` items but for the last; a null run() runs the loop on the calling thread.
struct ParallelExecutor {
  void (*run)(void* state, size_t count, size_t grain, void (*body)(const void* context, size_t begin, size_t end),
              const void* context) = nullptr;
  void* state = nullptr;
};
inline thread_local const ParallelExecutor* currentExecutor = nullptr;
inline constexpr ParallelExecutor kCallingThread{};  // nested loops inside another pool's ranges

class ScopedExecutor {
 public:
  explicit ScopedExecutor(const ParallelExecutor* executor) : saved_(currentExecutor) { currentExecutor = executor; }
  ~ScopedExecutor() { currentExecutor = saved_; }
  ScopedExecutor(const ScopedExecutor&) = delete;
  ScopedExecutor& operator=(const ScopedExecutor&) = delete;

 private:
  const ParallelExecutor* saved_;
};

// Below this many units of work (roughly one multiply-add or one element each) a call runs inline:
// starting tasks would cost more than it saves.
inline constexpr size_t kParallelWorkThreshold = size_t{1} << 15;

// Calls body(begin, end) over disjoint sub-ranges covering [0, count), possibly from several threads.
// workPerItem estimates the cost of one index, so that short loops over heavy items still split.
template <typename Body>
void parallelFor(size_t count, size_t workPerItem, const Body& body) {
  if (count == 0) return;
  workPerItem = std::max<size_t>(workPerItem, 1);
  if (count < 2 || count * workPerItem < kParallelWorkThreshold) {
    body(size_t{0}, count);
    return;
  }
  const size_t grain = std::max<size_t>(1, (kParallelWorkThreshold / 4) / workPerItem);
  if (const ParallelExecutor* executor = currentExecutor) {
    if (executor->run == nullptr) {
      body(size_t{0}, count);
      return;
    }
    executor->run(executor->state, count, grain, [](const void* context, size_t begin, size_t end) {
      ScopedExecutor inside(&kCallingThread);
      (*static_cast<const Body*>(context))(begin, end);
    }, &body);
    return;
  }
  tsanRelease(&body);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, count, grain), [&](const tbb::blocked_range<size_t>& r) {
    tsanAcquire(&body);
    body(r.begin(), r.end());
    tsanRelease(&body);
  });
  tsanAcquire(&body);
}

}  // namespace nnrt::cpu::detail
