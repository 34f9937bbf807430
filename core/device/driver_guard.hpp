// How the runtime calls a plugin without trusting it to return or to call back as the ABI says.
//
// Every blocking call into a driver runs on a worker thread of the device's DriverGuard while the
// calling thread waits, bounded: until the answer comes, or the deadline passes, or the health
// check declares the device unavailable, each followed by one grace period in which the driver may
// still answer (it was told the deadline). A call still unanswered after that is abandoned: the
// device is taken out of service (logged once, never available again) and its worker thread is
// left inside the driver, never joined; what such a call holds (the plugin, its prepared model,
// the call's own state) is leaked rather than freed under it.
//
// Callback contexts are never pointers: a driver gets an id that DriverCallbacks maps to the
// call's shared state, so a callback after the waiter gave up, or a second one, finds either that
// live state or nothing, and is ignored (logged once per device).
//
// A device hosted out of process (isolation: process, remote_driver.hpp) uses the same waits; a
// call abandoned there kills and restarts the host process instead of leaving the device out of
// service, and the stuck call ends with the host.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace nnrt {

// The shared state of one call whose answer the runtime waits for. Derived classes add the
// answer's fields; they are written only inside answer() and read by the waiter after it.
class DriverGuard;
class DriverCall {
 public:
  explicit DriverCall(std::shared_ptr<DriverGuard> guard) : guard_(std::move(guard)) {}
  virtual ~DriverCall() = default;
  const std::shared_ptr<DriverGuard>& guard() const { return guard_; }
  // Stores the first answer (`store` runs under the lock) and wakes the waiter. Returns false, without
  // running `store`, when an answer came before or the waiter gave up.
  template <class F>
  bool answer(F&& store) {
    std::lock_guard lock(mutex_);
    if (answered_ || abandoned_) return false;
    store();
    answered_ = true;
    done_.notify_all();
    return true;
  }

 private:
  friend class DriverGuard;
  std::shared_ptr<DriverGuard> guard_;
  std::mutex mutex_;
  std::condition_variable done_;
  bool answered_ = false;
  bool abandoned_ = false;
};

class DriverGuard {
 public:
  // `grace`: how long past the deadline (or the device becoming unavailable) a driver may still answer.
  // `watchdog` false: submit() runs jobs on the calling thread (a driver trusted to return; no
  // thread handoff per call, which costs 10-30 us), so nothing bounds them.
  DriverGuard(std::string deviceName, std::string pluginName, std::chrono::milliseconds grace, bool watchdog = true);
  ~DriverGuard();
  DriverGuard(const DriverGuard&) = delete;
  DriverGuard& operator=(const DriverGuard&) = delete;

  const std::string& deviceName() const { return deviceName_; }
  // Health as the periodic getStatus check last saw it.
  bool healthy() const { return healthy_.load(std::memory_order_acquire); }
  void setHealthy(bool healthy) { healthy_.store(healthy, std::memory_order_release); }
  // False once a call was abandoned; for good.
  bool inService() const { return inService_.load(std::memory_order_acquire); }
  bool available() const { return healthy() && inService(); }
  // Marks the device unusable for good and logs why, once. With a restart hook (a device whose
  // driver runs in a host process), restarts the driver instead: the stuck call ends with the host.
  void takeOutOfService(const std::string& why);
  // Set once, before the first call.
  void setRestartHook(std::function<void(const std::string& why)> restart) { restart_ = std::move(restart); }

  // Runs `job` on one of the device's worker threads (a new one when every worker is busy).
  void submit(std::function<void()> job);

  enum class WaitEnd { Answered, DeadlinePassed, Unavailable };
  // Waits for `call` as described at the top. Not Answered: the call is abandoned (a late answer()
  // returns false) and the device is out of service; `what` names the call in the log.
  WaitEnd wait(DriverCall& call, uint64_t deadlineNs, const std::string& what);

  // Waits at most `timeout` for a call that may go unanswered without consequence for the device
  // (a status question); false when it did not answer, and a late answer is dropped.
  bool waitBriefly(DriverCall& call, std::chrono::milliseconds timeout);

  // Logs, once per device, that a driver answered a call nobody waits for any more.
  void noteLateAnswer(const std::string& what);

 private:
  struct Workers;
  std::string deviceName_, pluginName_;
  std::chrono::milliseconds grace_;
  bool watchdog_;
  std::atomic<bool> healthy_{true};
  std::atomic<bool> inService_{true};
  std::atomic<bool> lateAnswerLogged_{false};
  std::shared_ptr<Workers> workers_;
  std::function<void(const std::string& why)> restart_;
};

// Maps the ids given to drivers as callback contexts to the calls they answer.
namespace DriverCallbacks {
// Registers `call` until take(); the id to give as the driver's context.
void* add(std::shared_ptr<DriverCall> call);
// The call registered under `context`, removed; null when it was taken before (a second callback)
// or never registered.
std::shared_ptr<DriverCall> take(void* context);
// For a context take() no longer knows: the guard of the call it was, while that is remembered
// (the last few thousand calls), else null.
std::shared_ptr<DriverGuard> formerGuard(void* context);
}  // namespace DriverCallbacks

}  // namespace nnrt
