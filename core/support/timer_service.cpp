#include "core/support/timer_service.hpp"

#include <pthread.h>

#include <algorithm>
#include <mutex>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "nnrt/driver/clock.hpp"

namespace nnrt {
namespace {

namespace asio = boost::asio;

// Shared between a handle and the timer's completion: cancelled handles silence their callback.
struct TimerState {
  explicit TimerState(asio::io_context& io) : timer(io) {}
  asio::steady_timer timer;
  std::function<void()> callback;
  std::chrono::milliseconds interval{0};
  std::mutex mutex;  // orders cancel() against a running callback
  bool cancelled = false;
};

void fire(const std::shared_ptr<TimerState>& state, const boost::system::error_code& ec) {
  if (ec) return;  // cancelled
  std::lock_guard lock(state->mutex);
  if (state->cancelled) return;
  state->callback();
  if (state->interval.count() > 0) {
    state->timer.expires_after(state->interval);
    state->timer.async_wait([state](const boost::system::error_code& e) { fire(state, e); });
  }
}

class AsioHandle : public TimerHandle {
 public:
  AsioHandle(asio::io_context& io, std::shared_ptr<TimerState> state) : io_(io), state_(std::move(state)) {}
  ~AsioHandle() override { cancel(); }
  void cancel() override {
    {
      std::lock_guard lock(state_->mutex);  // waits for a callback in progress
      if (state_->cancelled) return;
      state_->cancelled = true;
    }
    asio::post(io_, [state = state_] { state->timer.cancel(); });
  }

 private:
  asio::io_context& io_;
  std::shared_ptr<TimerState> state_;
};

class AsioTimerService : public TimerService {
 public:
  AsioTimerService() : work_(asio::make_work_guard(io_)), thread_([this] {
        pthread_setname_np(pthread_self(), "nnrt-timer");
        io_.run();
      }) {}
  ~AsioTimerService() override {
    work_.reset();
    io_.stop();
    thread_.join();
  }

  std::unique_ptr<TimerHandle> at(uint64_t deadlineNs, std::function<void()> callback) override {
    auto state = std::make_shared<TimerState>(io_);
    state->callback = std::move(callback);
    // A deadline decades away (a timeout of UINT64_MAX) waits "forever" without overflowing the
    // timer's signed clock.
    constexpr uint64_t kLongestWaitNs = uint64_t{1} << 61;  // about 73 years
    const uint64_t now = driver::monotonicNs();
    auto delay = std::chrono::nanoseconds(deadlineNs > now ? std::min(deadlineNs - now, kLongestWaitNs) : 0);
    asio::post(io_, [state, delay] {
      state->timer.expires_after(delay);
      state->timer.async_wait([state](const boost::system::error_code& e) { fire(state, e); });
    });
    return std::make_unique<AsioHandle>(io_, state);
  }

  std::unique_ptr<TimerHandle> every(std::chrono::milliseconds interval, std::function<void()> callback) override {
    auto state = std::make_shared<TimerState>(io_);
    state->callback = std::move(callback);
    state->interval = interval;
    asio::post(io_, [state] {
      state->timer.expires_after(state->interval);
      state->timer.async_wait([state](const boost::system::error_code& e) { fire(state, e); });
    });
    return std::make_unique<AsioHandle>(io_, state);
  }

 private:
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::thread thread_;
};

}  // namespace

TimerService& TimerService::instance() {
  static AsioTimerService service;
  return service;
}

}  // namespace nnrt
