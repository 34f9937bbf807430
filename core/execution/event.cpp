#include "core/execution/event.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace nnrt {

Result<std::shared_ptr<Event>> Event::create() {
  std::shared_ptr<Event> event(new Event());
  event->fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (event->fd_ < 0) return fail(ResultCode::OP_FAILED, std::string("eventfd failed: ") + std::strerror(errno));
  return event;
}

Result<std::shared_ptr<Event>> Event::fromFd(int fd) {
  if (fd < 0) return fail(ResultCode::BAD_DATA, "sync_fence_fd " + std::to_string(fd) + " is not a descriptor");
  std::shared_ptr<Event> event(new Event());
  event->external_ = true;
  event->fd_ = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (event->fd_ < 0) {
    return fail(ResultCode::BAD_DATA, "sync_fence_fd " + std::to_string(fd) + " cannot be duplicated: " + std::strerror(errno));
  }
  return event;
}

Event::~Event() {
  if (fd_ >= 0) close(fd_);
}

void Event::signal(Result<void> result) {
  {
    std::lock_guard lock(mutex_);
    if (result_ || external_) return;
    result_ = std::move(result);
  }
  uint64_t one = 1;
  (void)!write(fd_, &one, sizeof one);  // the eventfd stays readable from now on
  done_.notify_all();
}

Result<void> Event::wait() const {
  if (external_) {
    pollfd p{fd_, POLLIN, 0};
    int rc;
    do {
      rc = poll(&p, 1, -1);
    } while (rc < 0 && errno == EINTR);
    if (rc < 0 || (p.revents & (POLLERR | POLLNVAL)) != 0) {
      return fail(ResultCode::OP_FAILED, "the sync fence signalled an error");
    }
    return {};
  }
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return result_.has_value(); });
  return *result_;
}

Result<int> Event::syncFenceFd() const {
  int copy = fcntl(fd_, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return fail(ResultCode::BAD_DATA, std::string("cannot duplicate the event's fd: ") + std::strerror(errno));
  return copy;
}

}  // namespace nnrt
