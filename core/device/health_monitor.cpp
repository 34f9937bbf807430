#include "core/device/health_monitor.hpp"

#include <atomic>
#include <thread>

#include "core/support/log.hpp"

namespace nnrt {

struct HealthMonitor::Probe {
  std::shared_ptr<DriverDevice> device;
  std::atomic<bool> inFlight{false};
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

HealthMonitor::HealthMonitor(std::vector<std::shared_ptr<DriverDevice>> devices, std::chrono::milliseconds interval) {
  for (auto& d : devices) {
    auto probe = std::make_shared<Probe>();
    probe->device = std::move(d);
    probes_.push_back(std::move(probe));
  }
  if (interval.count() > 0) timer_ = TimerService::instance().every(interval, [this] { check(); });
}

HealthMonitor::~HealthMonitor() { timer_.reset(); }

void HealthMonitor::check() {
  for (const auto& probe : probes_) {
    if (probe->inFlight.exchange(true)) {
      // The previous question is still unanswered.
      setAvailability(*probe->device, false, "getStatus did not answer");
      continue;
    }
    std::thread([probe] {
      int32_t status = probe->device->queryStatus();
      bool ok = status == NNRT_DEVICE_STATUS_AVAILABLE || status == NNRT_DEVICE_STATUS_BUSY;
      setAvailability(*probe->device, ok, statusText(status));
      probe->inFlight.store(false);
    }).detach();
  }
}

}  // namespace nnrt
