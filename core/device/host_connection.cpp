#include "core/device/host_connection.hpp"

#include <pthread.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include "core/support/log.hpp"

extern char** environ;

namespace nnrt {
namespace {

using wire::Kind;
using wire::Reader;
using wire::Writer;
using Clock = std::chrono::steady_clock;

// How long a starting host may take to open its plugin.
constexpr auto kOpenTimeout = std::chrono::seconds(10);
// Restart backoff: the first delay, doubled after each host that died young, up to the last.
constexpr auto kFirstBackoff = std::chrono::milliseconds(100);
constexpr auto kMaxBackoff = std::chrono::milliseconds(5000);
// A host that lived this long resets the backoff.
constexpr auto kStableLife = std::chrono::seconds(5);
// How long a closing host may take to close its plugin and exit before it is killed.
constexpr auto kExitWait = std::chrono::milliseconds(2000);
// How long the supervisor keeps off the socket after the last caller waiting in call() left, and
// how long it polls at a time.
constexpr auto kLinger = std::chrono::milliseconds(2);
constexpr auto kPollSlice = std::chrono::milliseconds(100);
// How long a caller waiting on the doorbell sleeps at a time before it looks whether the host is
// still there (its end also wakes the caller at once: lost()).
constexpr auto kDoorbellSlice = std::chrono::milliseconds(10);
// The descriptor the host finds its socket on.
constexpr int kHostFd = 3;

// How a child ended, for the log: "was killed by signal 11 (SIGSEGV)", "exited with status 1".
std::string endOf(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* abbrev = sigabbrev_np(sig);
    return "was killed by signal " + std::to_string(sig) +
           (abbrev != nullptr ? std::string(" (SIG") + abbrev + ")" : "");
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended";
}

// Waits for `pid` to end, at most `wait`, then kills it; returns its wait status.
int reap(pid_t pid, std::chrono::milliseconds wait) {
  int status = 0;
  const auto until = Clock::now() + wait;
  while (true) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) return status;
    if (Clock::now() >= until) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(pid, SIGKILL);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

Result<void> HostConnection::startFirst() {
  NNRT_RETURN_IF_ERROR(start());
  reader_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "nnrt-host");
    supervise();
  });
  return {};
}

void HostConnection::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    if (socket_ >= 0) shutdown(socket_, SHUT_RDWR);
  }
  stopWake_.notify_all();
  if (reader_.joinable()) reader_.join();
}

void HostConnection::restartHost(const std::string& why) {
  std::lock_guard lock(mutex_);
  if (!connected_ || pid_ <= 0) return;
  killReason_ = why;
  kill(pid_, SIGKILL);
}

bool HostConnection::connected(uint64_t generation) {
  std::lock_guard lock(mutex_);
  return connected_ && (generation == 0 || generation == generation_);
}
uint64_t HostConnection::generation() {
  std::lock_guard lock(mutex_);
  return generation_;
}
std::string HostConnection::goneReason() const {
  return "the driver host of plugin '" + pluginName_ + "' is gone (it ended or was restarted)";
}

void HostConnection::send(Writer& message, std::span<const int> fds, std::function<void(Reader&)> onReply,
                          std::function<void()> onLost, uint64_t generation, bool waited) {
  bool sent = false;
  uint64_t id = 0;
  {
    std::lock_guard write(writeMutex_);
    {
      std::lock_guard lock(mutex_);
      if (connected_ && (generation == 0 || generation == generation_)) {
        id = nextCall_++;
        pending_.emplace(id, Pending{std::move(onReply), onLost, !waited});
        if (!waited) ++unwaited_;
      }
    }
    if (id != 0) {
      message.setCallId(id);
      sent = wire::sendMessage(socket_, message.finish(), fds);
    }
  }
  if (sent) {
    if (!waited) wakeReaders();
    return;
  }
  if (id != 0) {
    // The supervisor fails the others; this one may already be taken by it.
    std::lock_guard lock(mutex_);
    auto it = pending_.find(id);
    if (it == pending_.end()) return;
    if (it->second.unwaited) --unwaited_;
    pending_.erase(it);
  }
  onLost();
}

bool HostConnection::call(Writer& message, std::span<const int> fds, const std::function<void(Reader&)>& read,
                          uint64_t generation) {
  struct Wait {
    std::mutex mutex;
    std::condition_variable done;
    bool finished = false;
    bool answered = false;
  };
  auto wait = std::make_shared<Wait>();
  auto finish = [wait](bool answered) {
    std::lock_guard lock(wait->mutex);
    wait->answered = answered;
    wait->finished = true;
  };
  send(
      message, fds,
      [&read, finish](Reader& in) {
        read(in);
        finish(true);
      },
      [finish] { finish(false); }, generation, /*waited*/ true);
  // This thread reads the socket itself while no one else does (the reply then needs no handoff
  // from the supervisor); otherwise it sleeps until whoever reads has dispatched a message.
  auto done = [&] {
    std::lock_guard lock(wait->mutex);
    return wait->finished;
  };
  std::unique_lock turn(readMutex_);
  ++syncWaiting_;
  while (!done()) {
    if (!readerActive_ && !broken_) {
      readerActive_ = true;
      turn.unlock();
      const bool ok = readOne();
      turn.lock();
      readerActive_ = false;
      if (!ok) {
        broken_ = true;
        superviseWake_.notify_one();
      }
      // Only other callers wait for the turn or for the reply this thread may have read.
      if (!ok || syncWaiting_ > 1) readWake_.notify_all();
    } else {
      readWake_.wait(turn);
    }
  }
  --syncWaiting_;
  // The supervisor looks by itself every kLinger; it is woken only for a reply nobody reads.
  if (syncWaiting_ == 0 && unwaitedDue()) superviseWake_.notify_one();
  return wait->answered;
}

std::shared_ptr<HostConnection::Doorbell> HostConnection::holdDoorbell(size_t requestSize, uint64_t maxReply,
                                                                       uint64_t generation) {
  if (requestSize > wire::DoorbellBlock::kMessageBytes || maxReply > wire::DoorbellBlock::kMessageBytes)
    return nullptr;
  std::shared_ptr<Doorbell> doorbell;
  {
    std::lock_guard lock(mutex_);
    if (!connected_ || (generation != 0 && generation != generation_)) return nullptr;
    doorbell = doorbell_;
  }
  if (!doorbell || doorbell->held.exchange(true, std::memory_order_acquire)) return nullptr;
  return doorbell;
}

// Rings for the request in the doorbell, then waits for its reply: polls for spin_ (a short call
// is answered within it), then sleeps on the reply word in slices, looking between them whether
// the host is still there.
HostConnection::Rung HostConnection::waitForReply(Doorbell& doorbell, uint64_t generation) {
  wire::DoorbellBlock& block = *doorbell.block;
  const uint32_t sequence = ++doorbell.sequence;
  wire::announce(block.request, sequence);
  std::chrono::nanoseconds spin = spin_;
  while (true) {
    const uint32_t reply = wire::awaitChange(block.reply, sequence - 1, block.request, spin, kDoorbellSlice);
    if (reply == sequence) return Rung::Answered;
    spin = {};
    if (reply != sequence - 1) {  // written by something else than the host's doorbell thread
      doorbell.dead = true;
      restartHost("its execute doorbell holds a reply to no request");
      return Rung::Lost;
    }
    if (doorbell.dead.load() || !connected(generation)) return Rung::Lost;
  }
}

void HostConnection::wakeReaders() {
  std::lock_guard turn(readMutex_);
  readWake_.notify_all();
  superviseWake_.notify_one();
}

// Receives one message and runs its call's reply. False when the socket ended.
bool HostConnection::readOne() {
  wire::Header header{};
  if (!receiver_.receive(socket_, header, readBody_, readFds_)) return false;
  for (int fd : readFds_)
    close(fd);
  Pending pending;
  {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(header.callId);
    if (it == pending_.end()) return true;
    pending = std::move(it->second);
    pending_.erase(it);
    if (pending.unwaited) --unwaited_;
  }
  Reader in(readBody_.data(), readBody_.size());
  pending.onReply(in);
  return true;
}

// Waits until the supervisor should read (the socket ended, or nobody waits in call() and a
// reply is expected), then reads one message. False when the socket ended.
bool HostConnection::superviseOne() {
  {
    std::unique_lock turn(readMutex_);
    // Not woken when a caller leaves (that would cost every call a wake-up): looks every kLinger.
    if (!superviseWake_.wait_for(turn, kLinger,
                                 [&] { return broken_ || (!readerActive_ && syncWaiting_ == 0); })) {
      return true;
    }
    if (broken_) return false;
    // Right after the callers in call() left, more may come: lingering briefly keeps this
    // thread off their replies' way, unless a reply nobody waits for is due.
    if (!unwaitedDue()) {
      superviseWake_.wait_for(turn, kLinger, [&] { return broken_ || unwaitedDue(); });
      if (broken_) return false;
    }
  }
  pollfd p{socket_, POLLIN, 0};
  if (poll(&p, 1, static_cast<int>(kPollSlice.count())) == 0) return true;
  {
    std::lock_guard turn(readMutex_);
    if (broken_) return false;
    if (readerActive_ || syncWaiting_ > 0) return true;  // a caller reads
    readerActive_ = true;
  }
  const bool ok = readOne();
  std::lock_guard turn(readMutex_);
  readerActive_ = false;
  if (!ok) broken_ = true;
  if (!ok || syncWaiting_ > 0) readWake_.notify_all();
  return ok;
}
bool HostConnection::unwaitedDue() {
  std::lock_guard lock(mutex_);
  return unwaited_ > 0;
}

// Starts a host and has it open the plugin; on success it is the connected host.
Result<void> HostConnection::start() {
  const std::string where = pluginPath_.string() + ": ";
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
    return fail(ResultCode::OP_FAILED,
                where + "cannot make a socket pair for the driver host: " + std::strerror(errno));
  }
  int ours = pair[0], theirs = pair[1];
  if (theirs == kHostFd) {  // dup2 onto itself would keep O_CLOEXEC
    const int moved = fcntl(theirs, F_DUPFD_CLOEXEC, kHostFd + 1);
    close(theirs);
    theirs = moved;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, theirs, kHostFd);
  const std::string program = hostProgram_.string();
  const std::string fdText = std::to_string(kHostFd);
  char* argv[] = {const_cast<char*>(program.c_str()), const_cast<char*>("--fd"),
                  const_cast<char*>(fdText.c_str()), nullptr};
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(theirs);
  if (spawned != 0) {
    close(ours);
    return fail(ResultCode::OP_FAILED,
                where + "cannot start the driver host " + program + ": " + std::strerror(spawned));
  }
  auto failed = [&](const std::string& why, std::chrono::milliseconds wait) -> Unexpected<Error> {
    close(ours);
    const int status = reap(pid, wait);
    return fail(ResultCode::OP_FAILED, where + why + " (the driver host " + endOf(status) + ")");
  };

  // The execute doorbell goes with Open (its memfd, and how long the host polls it).
  std::shared_ptr<Doorbell> doorbell;
  if (spin_.count() > 0) {
    auto memory = wire::SharedMemory::create("nnrt-execute-doorbell", sizeof(wire::DoorbellBlock));
    if (!memory) return failed("cannot make shared memory for the execute doorbell", kExitWait);
    doorbell = std::make_shared<Doorbell>();
    doorbell->memory = std::move(*memory);
    doorbell->block = new (doorbell->memory.data()) wire::DoorbellBlock();
  }
  Writer open;
  open.begin(Kind::Open, 0);
  open.putString(pluginPath_.string());
  open.put<uint32_t>(static_cast<uint32_t>(options_.size()));
  for (const auto& [key, value] : options_) {
    open.putString(key);
    open.putString(value);
  }
  open.put<uint8_t>(doorbell != nullptr);
  open.put<uint32_t>(static_cast<uint32_t>(spin_.count()));
  const int doorbellFd[1] = {doorbell ? doorbell->memory.fd() : -1};
  if (!wire::sendMessage(ours, open.finish(), std::span<const int>(doorbellFd, doorbell ? 1 : 0)))
    return failed("the driver host did not take the plugin", kExitWait);
  if (doorbell) doorbell->memory.closeFd();  // the host has its own
  pollfd p{ours, POLLIN, 0};
  const auto until = Clock::now() + kOpenTimeout;
  int ready = 0;
  while (ready <= 0) {
    if (stopRequested()) return failed("the runtime is closing", std::chrono::milliseconds(0));
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    if (left.count() <= 0) {
      return failed(
          "the driver host did not open the plugin within " + std::to_string(kOpenTimeout.count()) + " s",
          std::chrono::milliseconds(0));
    }
    ready = poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 100)));
    if (ready < 0 && errno != EINTR)
      return failed("cannot wait for the driver host", std::chrono::milliseconds(0));
  }
  wire::Header header{};
  std::vector<uint8_t> body;
  std::vector<int> fds;
  if (!wire::receiveMessage(ours, header, body, fds)) {
    return failed("the driver host ended while loading the plugin", kExitWait);
  }
  for (int fd : fds)
    close(fd);
  Reader in(body.data(), body.size());
  if (in.get<uint8_t>() == 0) {
    // The host's own load error names the file and the reason.
    std::string why = in.getString();
    close(ours);
    reap(pid, kExitWait);
    return fail(ResultCode::OP_FAILED, why);
  }
  if (std::string why = accept(in); !why.empty()) return failed(why, kExitWait);
  {
    std::lock_guard turn(readMutex_);
    broken_ = false;
    receiver_.reset();  // nobody reads while broken_
  }
  {
    std::lock_guard write(writeMutex_);
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      socket_ = ours;
      pid_ = pid;
      connected_ = true;
      ++generation_;
      doorbell_ = std::move(doorbell);
      startedAt_ = Clock::now();
      return {};
    }
  }
  return failed("the runtime is closing", std::chrono::milliseconds(0));
}

bool HostConnection::stopRequested() {
  std::lock_guard lock(mutex_);
  return stopping_;
}

// The supervising thread: reads replies, and when the host goes, fails its calls and restarts it.
void HostConnection::supervise() {
  auto backoff = kFirstBackoff;
  while (true) {
    while (superviseOne()) {
    }
    const bool stopping = lost();
    if (stopping) return;
    backoff = Clock::now() - startedAt_ >= kStableLife ? kFirstBackoff : std::min(backoff * 2, kMaxBackoff);
    logWarning("restarting the driver host of plugin '" + pluginName_ + "' in " +
               std::to_string(backoff.count()) + " ms");
    while (true) {
      {
        std::unique_lock lock(mutex_);
        if (stopWake_.wait_for(lock, backoff, [&] { return stopping_; })) return;
      }
      Result<void> started = start();
      if (started) {
        logWarning("the driver host of plugin '" + pluginName_ + "' is running again (pid " +
                   std::to_string(pid_) + "); its devices answer again");
        break;
      }
      if (stopRequested()) return;
      backoff = std::min(backoff * 2, kMaxBackoff);
      logError("the driver host of plugin '" + pluginName_ + "' did not restart: " + started.error().message +
               "; trying again in " + std::to_string(backoff.count()) + " ms");
    }
  }
}

// The host's socket ended: disconnects, reaps the host, logs why, and fails the calls in flight.
// True when the runtime is stopping.
bool HostConnection::lost() {
  std::map<uint64_t, Pending> inFlight;
  pid_t pid;
  bool stopping;
  std::string killReason;
  std::shared_ptr<Doorbell> doorbell;
  {
    std::lock_guard write(writeMutex_);
    std::lock_guard lock(mutex_);
    connected_ = false;
    doorbell = std::move(doorbell_);
    inFlight.swap(pending_);
    unwaited_ = 0;
    pid = std::exchange(pid_, -1);
    close(socket_);
    socket_ = -1;
    stopping = stopping_;
    killReason = std::exchange(killReason_, std::string());
  }
  if (doorbell) {  // a caller waiting on it sees its call failed at once
    doorbell->dead = true;
    wire::wakeAll(doorbell->block->reply);
  }
  const int status = reap(pid, stopping ? kExitWait : std::chrono::milliseconds(500));
  if (!stopping) {
    std::string what = "the driver host of plugin '" + pluginName_ + "' (" + pluginPath_.string() + ", pid " +
                       std::to_string(pid) + ") " + endOf(status);
    if (!killReason.empty()) what += ", killed by the runtime: " + killReason;
    logError(what + "; " + std::to_string(inFlight.size()) +
             " calls in flight fail with DEVICE_UNAVAILABLE and its devices are OFFLINE until it restarts");
  }
  for (auto& [id, pending] : inFlight)
    pending.onLost();
  wakeReaders();  // callers in call() see their calls failed
  return stopping;
}

}  // namespace nnrt
