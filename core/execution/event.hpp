// ANeuralNetworksEvent: completion of an asynchronous execution, signalled exactly once with its
// result. Every event the runtime makes is also an eventfd that becomes readable when signalled
// (ANeuralNetworksEvent_getSyncFenceFd hands out a duplicate); an event made from a file descriptor
// (ANeuralNetworksEvent_createFromSyncFenceFd) is signalled when that descriptor becomes readable.
// Linux has no Android sync_file fences; eventfds play their part.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>

#include "core/support/status.hpp"

namespace nnrt {

class Event {
 public:
  // A pending event with an eventfd.
  static Result<std::shared_ptr<Event>> create();
  // An event signalled when `fd` becomes readable (POLLIN); the descriptor is duplicated.
  static Result<std::shared_ptr<Event>> fromFd(int fd);
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  // Records the result and wakes every waiter (and the eventfd). Later calls are ignored.
  void signal(Result<void> result);
  // Blocks until signalled; returns the execution's result (an fd event: success, or OP_FAILED
  // when the descriptor reports an error).
  Result<void> wait() const;
  // A new descriptor (the caller closes it) that becomes readable when the event is signalled.
  Result<int> syncFenceFd() const;
  // The descriptor itself (for poll), or -1.
  int fd() const { return fd_; }
  // Made from a caller's descriptor: its readiness is all there is to know (no error status).
  bool external() const { return external_; }

 private:
  Event() = default;
  bool external_ = false;  // made from a caller's fd: signalled by the fd, not by signal()
  int fd_ = -1;
  mutable std::mutex mutex_;
  mutable std::condition_variable done_;
  mutable std::optional<Result<void>> result_;
};

}  // namespace nnrt
