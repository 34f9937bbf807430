// ANeuralNetworksEvent: completion of an asynchronous execution. Signalled exactly once with the
// execution's result; waiting returns it.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>

#include "core/support/status.hpp"

namespace nnrt {

class Event {
 public:
  static std::shared_ptr<Event> create() { return std::shared_ptr<Event>(new Event()); }

  // Records the result and wakes every waiter. Later calls are ignored.
  void signal(Result<void> result);
  // Blocks until signalled; returns the execution's result.
  Result<void> wait() const;
  bool signalled() const;

 private:
  Event() = default;
  mutable std::mutex mutex_;
  mutable std::condition_variable done_;
  std::optional<Result<void>> result_;
};

}  // namespace nnrt
