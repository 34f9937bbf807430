#include "core/execution/event.hpp"

namespace nnrt {

void Event::signal(Result<void> result) {
  {
    std::lock_guard lock(mutex_);
    if (result_) return;
    result_ = std::move(result);
  }
  done_.notify_all();
}

Result<void> Event::wait() const {
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return result_.has_value(); });
  return *result_;
}

bool Event::signalled() const {
  std::lock_guard lock(mutex_);
  return result_.has_value();
}

}  // namespace nnrt
