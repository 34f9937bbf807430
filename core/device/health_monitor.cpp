#include "core/device/health_monitor.hpp"

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "core/support/log.hpp"

namespace nnrt {

// One device's question and the thread that asks it. The thread lives as long as the monitor (it
// holds the probe, so a thread stuck in a hung driver outlives it safely) and asks once per check:
// one thread per device, not one per question. It holds the device only while it asks: an idle
// thread does not keep a device (and its plugin) alive past the registry that owns it.
struct HealthMonitor::Probe {
  std::weak_ptr<DriverDevice> device;
  std::atomic<bool> inFlight{false};  // asked and not yet answered
  std::mutex mutex;
  std::condition_variable wake;
  bool asked = false;
  bool stopping = false;

  static void serve(const std::shared_ptr<Probe>& probe);
  void ask() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      asked = true;
    }
    wake.notify_one();
  }
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    wake.notify_one();
  }
};

namespace {

void setAvailability(DriverDevice& device, bool available, const char* why) {
  if (device.healthy() == available) return;
  device.setHealthy(available);
  if (!device.inService()) return;  // already logged, and never used again
  if (available) {
    logWarning("device '" + device.name() + "' is available again");
  } else {
    logWarning("device '" + device.name() + "' is unavailable (" + why + "); new compilations avoid it");
  }
}

const char* statusText(int32_t status) {
  switch (status) {
    case NNRT_DEVICE_STATUS_OFFLINE: return "getStatus: OFFLINE";
    case NNRT_DEVICE_STATUS_UNKNOWN: return "getStatus: UNKNOWN";
  }
  return "getStatus: unexpected value";
}

}  // namespace

void HealthMonitor::Probe::serve(const std::shared_ptr<Probe>& probe) {
  pthread_setname_np(pthread_self(), "nnrt-health");  // for ps -L, gdb and perf
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(probe->mutex);
      probe->wake.wait(lock, [&] { return probe->asked || probe->stopping; });
      if (probe->stopping) return;
      probe->asked = false;
    }
    if (std::shared_ptr<DriverDevice> device = probe->device.lock()) {
      int32_t status = device->queryStatus();
      bool ok = status == NNRT_DEVICE_STATUS_AVAILABLE || status == NNRT_DEVICE_STATUS_BUSY;
      setAvailability(*device, ok, statusText(status));
    }
    probe->inFlight.store(false);
  }
}

HealthMonitor::HealthMonitor(std::vector<std::shared_ptr<DriverDevice>> devices, std::chrono::milliseconds interval) {
  for (auto& d : devices) {
    auto probe = std::make_shared<Probe>();
    probe->device = std::move(d);
    probes_.push_back(std::move(probe));
  }
  if (interval.count() > 0) {
    // The threads start now, not at the first check, so the process's threads are all there
    // from the start.
    for (const auto& probe : probes_)
      std::thread([probe] { Probe::serve(probe); }).detach();
    timer_ = TimerService::instance().every(interval, [this] { check(); });
  }
}

HealthMonitor::~HealthMonitor() {
  timer_.reset();
  for (const auto& probe : probes_)
    probe->stop();  // a thread inside a hung driver stops when (if ever) it returns
}

void HealthMonitor::check() {
  for (const auto& probe : probes_) {
    if (probe->inFlight.exchange(true)) {
      // The previous question is still unanswered.
      if (std::shared_ptr<DriverDevice> device = probe->device.lock())
        setAvailability(*device, false, "getStatus did not answer");
      continue;
    }
    probe->ask();
  }
}

}  // namespace nnrt
