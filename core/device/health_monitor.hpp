// The periodic device health check: every interval, each device's getStatus is asked (on a thread of
// the device's own, started with the monitor, so a hung driver cannot stall the runtime). OFFLINE, UNKNOWN, or no answer by the next
// check marks the device unavailable; AVAILABLE or BUSY marks it available again. New compilations
// route around unavailable devices; executions on them take the fallback path.
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "core/device/driver_device.hpp"
#include "core/support/timer_service.hpp"

namespace nnrt {

class HealthMonitor {
 public:
  HealthMonitor(std::vector<std::shared_ptr<DriverDevice>> devices, std::chrono::milliseconds interval);
  ~HealthMonitor();
  // One round of checks (the timer calls this: with an interval, which starts the threads that ask).
  void check();

 private:
  struct Probe;
  std::vector<std::shared_ptr<Probe>> probes_;
  std::unique_ptr<TimerHandle> timer_;
};

}  // namespace nnrt
