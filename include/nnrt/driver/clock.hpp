// The one clock of the driver ABI: deadlines (nnrt_execute_options.deadline_ns, prepare deadlines)
// are absolute CLOCK_MONOTONIC nanoseconds, 0 meaning "none". Shared by the runtime and every
// driver so that both sides read the same clock the same way. Thread-safe.
#pragma once

#include <time.h>

#include <cstdint>
#include <limits>

namespace nnrt::driver {

// CLOCK_MONOTONIC now, in nanoseconds.
inline uint64_t monotonicNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

// a + b, or UINT64_MAX when the sum does not fit: any duration, UINT64_MAX included, gives a
// deadline that is later than now instead of wrapping into the past.
inline uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  return b > std::numeric_limits<uint64_t>::max() - a ? std::numeric_limits<uint64_t>::max() : a + b;
}

// The absolute deadline `durationNs` from now (never 0, which means "no deadline").
inline uint64_t deadlineAfter(uint64_t durationNs) {
  return saturatingAdd(monotonicNs(), durationNs);
}

// Whether an absolute deadline (0 = none) has passed.
inline bool deadlinePassed(uint64_t deadlineNs) {
  return deadlineNs != 0 && monotonicNs() >= deadlineNs;
}

}  // namespace nnrt::driver
