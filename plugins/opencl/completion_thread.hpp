// One background thread that finishes asynchronous executions in the order they were launched: each
// job waits for its queue, copies the outputs out and calls the host's callback. Started on the first
// job. The destructor lets the queued jobs run, then joins — unless it runs on the worker itself (a
// host that releases the prepared model from inside the callback), where it detaches: the worker only
// touches the state it shares, which it keeps alive.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace nnrt::opencl {

class CompletionThread {
 public:
  CompletionThread() = default;
  CompletionThread(const CompletionThread&) = delete;
  CompletionThread& operator=(const CompletionThread&) = delete;
  ~CompletionThread() {
    {
      std::lock_guard lock(state_->mutex);
      state_->stopping = true;
    }
    state_->wake.notify_all();
    if (!thread_.joinable()) return;
    if (thread_.get_id() == std::this_thread::get_id()) {
      thread_.detach();
    } else {
      thread_.join();
    }
  }

  // Thread-safe. A job must not throw.
  void submit(std::function<void()> job) {
    {
      std::lock_guard lock(state_->mutex);
      state_->jobs.push_back(std::move(job));
      if (!thread_.joinable()) thread_ = std::thread([state = state_] { run(*state); });
    }
    state_->wake.notify_one();
  }

 private:
  struct State {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::function<void()>> jobs;
    bool stopping = false;
  };

  static void run(State& state) {
    std::unique_lock lock(state.mutex);
    for (;;) {
      state.wake.wait(lock, [&state] { return state.stopping || !state.jobs.empty(); });
      if (state.jobs.empty()) return;  // stopping, nothing left
      std::function<void()> job = std::move(state.jobs.front());
      state.jobs.pop_front();
      lock.unlock();
      job();
      job = nullptr;
      lock.lock();
    }
  }

  std::shared_ptr<State> state_ = std::make_shared<State>();
  std::thread thread_;
};

}  // namespace nnrt::opencl
