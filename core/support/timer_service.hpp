// The runtime's clock-driven work on one Boost.Asio thread: execution deadlines and the periodic
// device health check. Callbacks run on that thread and must be short.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

namespace nnrt {

// Cancels its timer when destroyed or cancel()ed; the callback then never runs.
class TimerHandle {
 public:
  virtual ~TimerHandle() = default;
  virtual void cancel() = 0;
};

class TimerService {
 public:
  // The process-wide service; its thread starts on first use and stops at exit.
  static TimerService& instance();

  // Runs `callback` once at `deadlineNs` (absolute CLOCK_MONOTONIC nanoseconds).
  virtual std::unique_ptr<TimerHandle> at(uint64_t deadlineNs, std::function<void()> callback) = 0;
  // Runs `callback` every `interval`, first after one interval.
  virtual std::unique_ptr<TimerHandle> every(std::chrono::milliseconds interval, std::function<void()> callback) = 0;

  virtual ~TimerService() = default;
};

}  // namespace nnrt
