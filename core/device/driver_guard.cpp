#include "core/device/driver_guard.hpp"

#include <pthread.h>

#include <array>
#include <deque>
#include <thread>
#include <unordered_map>

#include "core/support/log.hpp"
#include "nnrt/driver/clock.hpp"

namespace nnrt {
namespace {

// How often a wait without an answer looks at the device's availability.
constexpr auto kAvailabilitySlice = std::chrono::milliseconds(20);
// An idle worker ends after this long without a job.
constexpr auto kIdleWorkerLife = std::chrono::seconds(10);
// How long a closing guard waits for its idle workers to end (busy ones are left running).
constexpr auto kCloseWait = std::chrono::milliseconds(200);

}  // namespace

// The worker threads, shared with them: a worker stuck in a driver keeps this alive, not the guard.
struct DriverGuard::Workers {
  std::mutex mutex;
  std::condition_variable wake;    // a job arrived, or closing
  std::condition_variable exited;  // a worker ended
  std::deque<std::function<void()>> jobs;
  size_t idle = 0;
  size_t running = 0;   // threads alive
  size_t busy = 0;      // of which running a job
  size_t starting = 0;  // of which not yet waiting for their first job
  bool closing = false;

  static void loop(std::shared_ptr<Workers> self) {
    pthread_setname_np(pthread_self(), "nnrt-call");  // for ps -L, gdb and perf
    std::unique_lock lock(self->mutex);
    --self->starting;
    while (true) {
      ++self->idle;
      bool woke =
          self->wake.wait_for(lock, kIdleWorkerLife, [&] { return self->closing || !self->jobs.empty(); });
      --self->idle;
      if (!woke || self->jobs.empty()) break;  // idle too long, or closing with nothing to do
      std::function<void()> job = std::move(self->jobs.front());
      self->jobs.pop_front();
      ++self->busy;
      lock.unlock();
      job();
      job = nullptr;  // what the job holds goes before the worker waits again
      lock.lock();
      --self->busy;
    }
    --self->running;
    self->exited.notify_all();
  }
};

DriverGuard::DriverGuard(std::string deviceName, std::string pluginName, std::chrono::milliseconds grace,
                         bool watchdog)
    : deviceName_(std::move(deviceName)),
      pluginName_(std::move(pluginName)),
      grace_(grace),
      watchdog_(watchdog),
      workers_(std::make_shared<Workers>()) {}

DriverGuard::~DriverGuard() {
  std::unique_lock lock(workers_->mutex);
  workers_->closing = true;
  workers_->wake.notify_all();
  // Idle workers end at once; a worker inside a driver is left to it (never joined).
  workers_->exited.wait_for(lock, kCloseWait, [this] { return workers_->running == workers_->busy; });
}

void DriverGuard::submit(std::function<void()> job) {
  if (!watchdog_) {
    job();
    return;
  }
  std::lock_guard lock(workers_->mutex);
  workers_->jobs.push_back(std::move(job));
  // A thread started for an earlier job that has not reached its first wait counts as free (it takes
  // the oldest job when it gets there): on a loaded machine a new thread can take a while to run, and
  // counting it busy would start one more for every call meanwhile.
  if (workers_->idle + workers_->starting >= workers_->jobs.size()) {
    workers_->wake.notify_one();
    return;
  }
  ++workers_->running;
  ++workers_->starting;
  std::thread(&Workers::loop, workers_).detach();
}

void DriverGuard::takeOutOfService(const std::string& why) {
  if (restart_) {
    logError("device '" + deviceName_ + "' (plugin '" + pluginName_ + "'): " + why +
             "; its driver host process is killed and restarted");
    restart_(why);
    return;
  }
  if (!inService_.exchange(false)) return;
  logError("device '" + deviceName_ + "' (plugin '" + pluginName_ + "') is out of service: " + why +
           "; its stuck call is abandoned and the device is not used again");
}

void DriverGuard::noteLateAnswer(const std::string& what) {
  if (lateAnswerLogged_.exchange(true)) return;
  logWarning("device '" + deviceName_ + "' (plugin '" + pluginName_ + "'): " + what +
             "; ignored (logged once per device)");
}

DriverGuard::WaitEnd DriverGuard::wait(DriverCall& call, uint64_t deadlineNs, const std::string& what) {
  std::unique_lock lock(call.mutex_);
  WaitEnd end = WaitEnd::Answered;
  while (!call.answered_) {
    const uint64_t now = driver::monotonicNs();
    if (deadlineNs != 0 && now >= deadlineNs) {
      end = WaitEnd::DeadlinePassed;
      break;
    }
    if (!available()) {
      end = WaitEnd::Unavailable;
      break;
    }
    auto slice = std::chrono::nanoseconds(kAvailabilitySlice);
    if (deadlineNs != 0) slice = std::min(slice, std::chrono::nanoseconds(deadlineNs - now));
    call.done_.wait_for(lock, slice);
  }
  if (end == WaitEnd::Answered) return end;
  // The driver was told the deadline (or is failing its health check): it may still answer.
  if (call.done_.wait_for(lock, grace_, [&] { return call.answered_; })) return WaitEnd::Answered;
  call.abandoned_ = true;
  lock.unlock();
  takeOutOfService(
      what + (end == WaitEnd::DeadlinePassed ? " did not end within " : " did not end ") +
      std::to_string(grace_.count()) + " ms " +
      (end == WaitEnd::DeadlinePassed ? "after its deadline" : "after the device became unavailable"));
  return end;
}

bool DriverGuard::waitBriefly(DriverCall& call, std::chrono::milliseconds timeout) {
  std::unique_lock lock(call.mutex_);
  if (call.done_.wait_for(lock, timeout, [&] { return call.answered_; })) return true;
  call.abandoned_ = true;
  return false;
}

namespace DriverCallbacks {
namespace {

constexpr size_t kRemembered = 4096;

struct Registry {
  std::mutex mutex;
  uint64_t next = 1;
  std::unordered_map<uint64_t, std::shared_ptr<DriverCall>> live;
  struct Former {
    uint64_t id = 0;
    std::weak_ptr<DriverGuard> guard;
  };
  std::array<Former, kRemembered> former;  // by id % kRemembered
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: drivers may call back during exit
  return *r;
}

uint64_t idOf(void* context) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(context));
}

}  // namespace

void* add(std::shared_ptr<DriverCall> call) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  uint64_t id = r.next++;
  r.live.emplace(id, std::move(call));
  return reinterpret_cast<void*>(static_cast<uintptr_t>(id));
}

std::shared_ptr<DriverCall> take(void* context) {
  Registry& r = registry();
  const uint64_t id = idOf(context);
  std::lock_guard lock(r.mutex);
  auto it = r.live.find(id);
  if (it == r.live.end()) return nullptr;
  std::shared_ptr<DriverCall> call = std::move(it->second);
  r.live.erase(it);
  r.former[id % kRemembered] = {id, call->guard()};
  return call;
}

std::shared_ptr<DriverGuard> formerGuard(void* context) {
  Registry& r = registry();
  const uint64_t id = idOf(context);
  std::lock_guard lock(r.mutex);
  const Registry::Former& f = r.former[id % kRemembered];
  return f.id == id ? f.guard.lock() : nullptr;
}

}  // namespace DriverCallbacks
}  // namespace nnrt
