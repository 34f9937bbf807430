// The runtime's connection to one nnrt-driver-host (`isolation: process`, core/device/remote_driver.hpp):
// starts the host and has it open the plugin, sends requests and reads their replies over the socket
// pair (core/device/host/wire.hpp), notices a host that died, fails its calls in flight, and restarts
// it with backoff; kills a host on which a call was abandoned. Synchronous executions go through
// the host's execute doorbell in shared memory when it is free (wire::DoorbellBlock). What the
// plugin offers is read by the subclass (accept()), which keeps the proxy function table.
#pragma once

#include <sys/types.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
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
  // `spin`: how long each side of the execute doorbell polls for the other before it sleeps in the
  // kernel; zero: no doorbell (every call goes over the socket).
  HostConnection(std::filesystem::path hostProgram, std::filesystem::path pluginPath,
                 std::vector<std::pair<std::string, std::string>> options, std::chrono::microseconds spin)
      : hostProgram_(std::move(hostProgram)),
        pluginPath_(std::move(pluginPath)),
        options_(std::move(options)),
        spin_(spin) {}
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

  enum class Rung { Answered, Lost, Busy };
  // Sends a synchronous execution (an ExecuteSync message, without descriptors) through the host's
  // execute doorbell and waits for its reply, which `read(wire::Reader&)` reads on this thread.
  // Lost: the host went away first (or is not the host of `generation`). Busy: another call holds
  // the doorbell, the host has none, or the message or a reply of `maxReply` bytes would not fit:
  // send it with call() instead. Allocates nothing; the wait ends as call()'s does, when the reply
  // comes or the host's socket ends (a hung host is killed by the guard's deadline).
  template <class Read>
  Rung ring(wire::Writer& message, uint64_t maxReply, uint64_t generation, Read&& read);

 protected:
  // Reads the rest of a started host's answer to Open (the plugin's name, version and devices).
  // Returns why the host is refused (it is then stopped), empty when it is accepted. Runs on the
  // thread that starts the host: startFirst()'s, then the supervisor's.
  virtual std::string accept(wire::Reader& in) = 0;

  std::string pluginName_;  // set by accept() when the first host opened the plugin

 private:
  using Clock = std::chrono::steady_clock;

  // One host's execute doorbell, held by one call at a time.
  struct Doorbell {
    wire::SharedMemory memory;
    wire::DoorbellBlock* block = nullptr;
    std::atomic<bool> held{false};
    std::atomic<bool> dead{false};  // its host's socket ended: nothing answers any more
    uint32_t sequence = 0;          // the last request rung (by the call holding it)
  };
  std::shared_ptr<Doorbell> holdDoorbell(size_t requestSize, uint64_t maxReply, uint64_t generation);
  Rung waitForReply(Doorbell& doorbell, uint64_t generation);

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
  std::chrono::microseconds spin_;

  std::mutex writeMutex_;  // one message at a time on the socket; held to replace the socket
  std::mutex mutex_;
  std::condition_variable stopWake_;
  int socket_ = -1;
  pid_t pid_ = -1;
  bool connected_ = false;
  bool stopping_ = false;
  uint64_t generation_ = 0;
  std::shared_ptr<Doorbell> doorbell_;  // the connected host's, if it has one
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

template <class Read>
HostConnection::Rung HostConnection::ring(wire::Writer& message, uint64_t maxReply, uint64_t generation,
                                          Read&& read) {
  const std::vector<uint8_t>& bytes = message.finish();
  std::shared_ptr<Doorbell> doorbell = holdDoorbell(bytes.size(), maxReply, generation);
  if (!doorbell) return Rung::Busy;
  wire::DoorbellBlock& block = *doorbell->block;
  std::memcpy(block.requestBytes, bytes.data(), bytes.size());
  block.requestSize = static_cast<uint32_t>(bytes.size());
  const Rung rung = waitForReply(*doorbell, generation);
  if (rung == Rung::Answered) {
    // The whole reply message, as on the socket; its body follows the header.
    const size_t size = std::min<size_t>(block.replySize, sizeof(block.replyBytes));
    const size_t header = sizeof(wire::Header);
    wire::Reader in(block.replyBytes + std::min(size, header), size > header ? size - header : 0);
    read(in);
  }
  doorbell->held.store(false, std::memory_order_release);
  return rung;
}

}  // namespace nnrt
