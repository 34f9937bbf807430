// The runtime's connection to one nnrt-driver-host (`isolation: process`, core/device/remote_driver.hpp):
// starts the host and has it open the plugin, sends requests and reads their replies over the socket
// pair (core/device/host/wire.hpp), notices a host that died, fails its calls in flight, and restarts
// it with backoff; kills a host on which a call was abandoned. What the plugin offers is read by the
// subclass (accept()), which keeps the proxy function table.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/device/host/wire.hpp"
#include "core/support/status.hpp"

namespace nnrt {

class HostConnection {
 public:
  HostConnection(std::filesystem::path hostProgram, std::filesystem::path pluginPath,
                 std::vector<std::pair<std::string, std::string>> options)
      : hostProgram_(std::move(hostProgram)),
        pluginPath_(std::move(pluginPath)),
        options_(std::move(options)) {}
  // A subclass calls stop() in its own destructor: a restart in progress calls accept().
  virtual ~HostConnection() { stop(); }
  HostConnection(const HostConnection&) = delete;
  HostConnection& operator=(const HostConnection&) = delete;

  // Starts the first host and the supervising thread.
  Result<void> startFirst();

  // Ends the host and the supervising thread; calls in flight fail with DEVICE_UNAVAILABLE.
  void stop();

  // Kills the host (a call on it was abandoned); the supervisor restarts it.
  void restartHost(const std::string& why);

  bool connected(uint64_t generation = 0);
  uint64_t generation();
  std::string goneReason() const;

  // Sends a request (its call id is set here). Exactly one of `onReply` (on the supervising thread,
  // with the reply's body) and `onLost` (on any thread, possibly this one) runs. `generation` 0:
  // any host; else only the host that made a prepared model.
  // `waited`: the caller reads replies itself until this one comes (call()); otherwise the
  // supervisor is woken to read it.
  void send(wire::Writer& message, std::span<const int> fds, std::function<void(wire::Reader&)> onReply,
            std::function<void()> onLost, uint64_t generation = 0, bool waited = false);

  // Sends a request and waits for its reply, which `read` reads (on whichever thread reads the
  // socket). False when the host went away first.
  bool call(wire::Writer& message, std::span<const int> fds, const std::function<void(wire::Reader&)>& read,
            uint64_t generation = 0);

 protected:
  // Reads the rest of a started host's answer to Open (the plugin's name, version and devices).
  // Returns why the host is refused (it is then stopped), empty when it is accepted. Runs on the
  // thread that starts the host: startFirst()'s, then the supervisor's.
  virtual std::string accept(wire::Reader& in) = 0;

  std::string pluginName_;  // set by accept() when the first host opened the plugin

 private:
  using Clock = std::chrono::steady_clock;

  struct Pending {
    std::function<void(wire::Reader&)> onReply;
    std::function<void()> onLost;
    bool unwaited = false;  // nobody reads for it but the supervisor
  };

  void wakeReaders();
  bool readOne();
  bool superviseOne();
  bool unwaitedDue();
  Result<void> start();
  bool stopRequested();
  void supervise();
  bool lost();

  std::filesystem::path hostProgram_, pluginPath_;
  std::vector<std::pair<std::string, std::string>> options_;

  std::mutex writeMutex_;  // one message at a time on the socket; held to replace the socket
  std::mutex mutex_;
  std::condition_variable stopWake_;
  int socket_ = -1;
  pid_t pid_ = -1;
  bool connected_ = false;
  bool stopping_ = false;
  uint64_t generation_ = 0;
  Clock::time_point startedAt_;
  std::string killReason_;
  uint64_t nextCall_ = 1;
  std::map<uint64_t, Pending> pending_;
  size_t unwaited_ = 0;  // pending calls whose reply only the supervisor reads
  std::thread reader_;

  // Who reads the socket: one reader at a time (readerActive_), callers in call() before the
  // supervisor; broken_ once a reader saw the socket end, until the next host starts.
  std::mutex readMutex_;
  std::condition_variable readWake_;       // callers in call()
  std::condition_variable superviseWake_;  // the supervisor
  bool readerActive_ = false;
  bool broken_ = false;
  int syncWaiting_ = 0;
  std::vector<uint8_t> readBody_;  // used by the reader of the moment
  std::vector<int> readFds_;
  wire::Receiver receiver_;
};

}  // namespace nnrt
