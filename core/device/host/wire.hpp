// The wire between the runtime and an out-of-process driver host (nnrt-driver-host, `isolation:
// process`): length-prefixed binary messages over a Unix-domain socket pair, and shared memory
// (memfd) for the bytes of tensors and constants, whose descriptors travel with the message they
// belong to (SCM_RIGHTS).
//
// A message is a Header then `size` bytes of body. Every request carries a call id; the host
// answers each request with exactly one reply of the same call id (an asynchronous execution's
// reply is its callback). Bodies are written with Writer and read with Reader: fixed-width values
// in the machine's byte order (both ends are the same build on the same machine), counts before
// arrays, strings as a length and bytes. A Reader never reads past its end: a short or malformed
// body makes it fail, and the message is refused.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "nnrt/driver/nnrt_driver.h"

namespace nnrt::wire {

enum class Kind : uint32_t {
  Open = 1,          // runtime -> host: load and open the plugin; reply: its identity (OpenReply)
  GetStatus,         // device -> int32 status
  GetSupported,      // device, model (+ pool memfd) -> status, reason, flags, explanations
  Prepare,           // device, model (+ pool memfd, cache fds), options -> status, reason, prepared id
  PrepareFromCache,  // device, deadline, token (+ cache fds) -> as Prepare
  Release,           // prepared id -> empty
  ExecuteSync,       // prepared id, arena (+ memfd when new), request -> ExecutionReply
  Execute,           // as ExecuteSync, through the driver's execute_1_3 and its callback
};

struct Header {
  uint32_t size;    // body bytes after the header
  uint32_t kind;    // Kind
  uint64_t callId;  // the request's id, repeated in its reply
};
static_assert(sizeof(Header) == 16);

// Largest body either end accepts (a model with its small constants fits easily; tensors travel
// through shared memory).
constexpr uint32_t kMaxBody = 256u << 20;
// Most descriptors one message carries (a pool memfd and the cache files).
constexpr size_t kMaxFds = 1 + 2 * NNRT_MAX_CACHE_FILES;

class Writer {
 public:
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    append(&value, sizeof(T));
  }
  void putBytes(const void* data, size_t size) {
    put<uint64_t>(size);
    append(data, size);
  }
  template <class T>
  void putArray(const T* data, uint32_t count) {
    static_assert(std::is_trivially_copyable_v<T>);
    put<uint32_t>(count);
    append(data, sizeof(T) * count);
  }
  void putString(const std::string& text) { putBytes(text.data(), text.size()); }
  // A C string that may be NULL (kept apart from "").
  void putOptionalString(const char* text) {
    put<uint8_t>(text != nullptr);
    if (text != nullptr) putBytes(text, std::strlen(text));
  }
  // Starts a message: a header to be completed by finish().
  void begin(Kind kind, uint64_t callId) {
    bytes_.clear();
    put(Header{0, static_cast<uint32_t>(kind), callId});
  }
  // Sets the call id of a begun message.
  void setCallId(uint64_t callId) {
    std::memcpy(bytes_.data() + offsetof(Header, callId), &callId, sizeof(callId));
  }
  // The message, its header's size filled in.
  std::vector<uint8_t>& finish() {
    const uint32_t size = static_cast<uint32_t>(bytes_.size() - sizeof(Header));
    std::memcpy(bytes_.data(), &size, sizeof(size));
    return bytes_;
  }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  void append(const void* data, size_t size) {
    if (size == 0) return;
    const size_t at = bytes_.size();
    bytes_.resize(at + size);
    std::memcpy(bytes_.data() + at, data, size);
  }
  std::vector<uint8_t> bytes_;
};

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool ok() const { return ok_; }
  bool atEnd() const { return at_ == size_; }
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value{};
    if (!take(sizeof(T))) return value;
    std::memcpy(&value, data_ + at_ - sizeof(T), sizeof(T));
    return value;
  }
  // A pointer to `size` bytes inside the body (valid while the body is), or null.
  const uint8_t* getBytes(uint64_t& size) {
    size = get<uint64_t>();
    if (!take(size)) {
      size = 0;
      return nullptr;
    }
    return data_ + at_ - size;
  }
  template <class T>
  std::vector<T> getArray() {
    std::vector<T> values;
    getArrayInto(values);
    return values;
  }
  // Reads an array into `values` (replacing what it held; its capacity is kept). Returns the count.
  template <class T>
  uint32_t getArrayInto(std::vector<T>& values) {
    const uint32_t count = get<uint32_t>();
    values.clear();
    if (!take(uint64_t{count} * sizeof(T))) return 0;
    values.resize(count);
    if (count > 0) std::memcpy(values.data(), data_ + at_ - sizeof(T) * count, sizeof(T) * count);
    return count;
  }
  std::string getString() {
    uint64_t size = 0;
    const uint8_t* p = getBytes(size);
    return p == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(p), size);
  }
  std::optional<std::string> getOptionalString() {
    if (get<uint8_t>() == 0) return std::nullopt;
    return getString();
  }
  void fail() { ok_ = false; }

 private:
  bool take(uint64_t n) {
    if (!ok_ || n > size_ - at_) {
      ok_ = false;
      return false;
    }
    at_ += n;
    return true;
  }
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
  bool ok_ = true;
};

// ---- Model views -------------------------------------------------------------------------------

// Where each pool of a model view lies in the one shared memory block that carries them: offsets
// aligned to 64 bytes, in pool order.
struct PoolLayout {
  std::vector<uint64_t> offsets;
  uint64_t totalSize = 0;
};
PoolLayout poolLayout(const nnrt_model& model);

// Writes `model` (without its pools' bytes: their sizes only; see poolLayout).
void writeModel(Writer& out, const nnrt_model& model);

// A model view read from the wire, owning every array it points to. Pools point into `poolBase`
// (the mapped shared block), laid out as poolLayout says.
class ModelHolder {
 public:
  // False when the body is malformed or the pools do not fit `poolSize` bytes at `poolBase`.
  bool read(Reader& in, const uint8_t* poolBase, uint64_t poolSize);
  const nnrt_model& view() const { return view_; }

 private:
  struct Subgraph {
    std::vector<nnrt_operand> operands;
    std::vector<nnrt_operation> operations;
    std::vector<uint32_t> inputs, outputs;
  };
  bool readSubgraph(Reader& in, Subgraph& into);
  static nnrt_subgraph viewOf(const Subgraph& s);

  std::deque<std::vector<uint32_t>> indexes_;  // dimensions, operation inputs and outputs
  std::deque<std::vector<float>> scales_;
  std::deque<std::vector<uint8_t>> bytes_;  // extension data, operand values
  std::deque<std::string> names_;
  Subgraph main_;
  std::vector<Subgraph> referenced_;
  std::vector<nnrt_subgraph> referencedViews_;
  std::vector<nnrt_memory_pool> pools_;
  std::vector<nnrt_extension_prefix> prefixes_;
  nnrt_model view_{};
};

// ---- Requests ----------------------------------------------------------------------------------

// A request whose arguments all lie in one pool (the shared arena of the execution): the view the
// host gives the driver.
void writeRequest(Writer& out, const nnrt_request& request);
class RequestHolder {
 public:
  // False when malformed or when an argument lies outside the `poolSize` bytes at `pool`. Replaces
  // the request read before: a holder read again allocates nothing once it has held one as large.
  bool read(Reader& in, uint8_t* pool, uint64_t poolSize);
  const nnrt_request& view() const { return view_; }

 private:
  std::vector<nnrt_request_argument> inputs_, outputs_;
  std::vector<uint32_t> dims_, dimsRead_;  // every argument's dimensions, one after another
  std::vector<size_t> dimsAt_;             // where each argument's begin in dims_
  nnrt_memory_pool pool_{};
  nnrt_request view_{};
};

// An execution's answer, on the wire after the call id.
struct ExecutionReply {
  nnrt_status status = NNRT_STATUS_GENERAL_FAILURE;
  std::vector<nnrt_output_shape> shapes;
  nnrt_timing timing{UINT64_MAX, UINT64_MAX};
  std::string reason;
};
void writeExecutionReply(Writer& out, nnrt_status status, const nnrt_output_shape* shapes, uint32_t count,
                         nnrt_timing timing, const char* reason);
// Replaces what `reply` held (keeping its capacity: a reply read again allocates nothing).
bool readExecutionReply(Reader& in, ExecutionReply& reply);
// The most bytes an execution's reply message (header included) takes for `outputs` outputs.
constexpr uint64_t maxExecutionReply(uint32_t outputs) {
  return sizeof(Header) + sizeof(nnrt_status) + sizeof(uint32_t) +
         uint64_t{outputs} * sizeof(nnrt_output_shape) + sizeof(uint8_t) + sizeof(nnrt_timing) +
         sizeof(uint64_t) + NNRT_REASON_SIZE * 4;
}

// ---- Descriptors and shared memory -------------------------------------------------------------

// Sends one whole message with `fds` attached to its first byte. False on a broken socket.
bool sendMessage(int socket, const std::vector<uint8_t>& message, std::span<const int> fds = {});
// Receives one message: its header, body and the descriptors that came with it (owned by the
// caller, O_CLOEXEC). False on end of file, a broken socket or a header out of bounds.
bool receiveMessage(int socket, Header& header, std::vector<uint8_t>& body, std::vector<int>& fds);

// Receives the messages of one socket (one reader at a time), in one recvmsg each while they are
// small: it reads whatever is waiting, up to its buffer, and keeps what belongs to the next
// message. Descriptors go with the message they were sent with: Linux ends a read right after
// the packet that carried descriptors, and that packet begins their message, so they belong to
// the message holding the last byte of that read.
class Receiver {
 public:
  Receiver();
  ~Receiver();
  Receiver(const Receiver&) = delete;
  Receiver& operator=(const Receiver&) = delete;
  // As receiveMessage.
  bool receive(int socket, Header& header, std::vector<uint8_t>& body, std::vector<int>& fds);
  // Forgets what was read ahead (for a new socket), closing its descriptors.
  void reset();

 private:
  bool fill(int socket);
  struct Descriptors {
    uint64_t lastByte;  // the stream offset of the last byte of the read they came with
    std::vector<int> fds;
  };
  std::vector<uint8_t> buffer_;
  size_t begin_ = 0, end_ = 0;  // the bytes read ahead: buffer_[begin_, end_)
  uint64_t offset_ = 0;         // the stream offset of buffer_[begin_]
  std::deque<Descriptors> descriptors_;
};

// A block of shared memory (a memfd) mapped read-write here.
class SharedMemory {
 public:
  SharedMemory() = default;
  ~SharedMemory();
  SharedMemory(SharedMemory&& other) noexcept { *this = std::move(other); }
  SharedMemory& operator=(SharedMemory&& other) noexcept;
  SharedMemory(const SharedMemory&) = delete;
  SharedMemory& operator=(const SharedMemory&) = delete;

  // A new block of `size` bytes (at least one page); nullopt when the system refuses one.
  static std::optional<SharedMemory> create(const char* name, uint64_t size);
  // Maps a block received from the other end; takes `fd` (closed here on success and failure).
  static std::optional<SharedMemory> adopt(int fd, bool writable);
  uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }
  int fd() const { return fd_; }
  // Closes the descriptor, keeping the mapping.
  void closeFd();

 private:
  int fd_ = -1;
  uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
};

// ---- The execute doorbell ----------------------------------------------------------------------

// The fast path of a synchronous execution: a block of shared memory (a memfd the runtime sends with
// Open) holding one request and one reply, the same messages as on the socket, and a sequence word
// for each. The runtime writes a request, sets `request` to its number and "rings" (wakes the host
// if it sleeps); the host runs it, writes the reply and sets `reply` to the same number. Each side
// waits for the other's word first by polling it for a bounded time (the wake-up of a sleeping
// thread by another process costs about as much as a socket round trip, ~20 µs on a small VM; a
// poll answers in well under one), then in the kernel (FUTEX_WAIT on the shared word, so not
// FUTEX_PRIVATE_FLAG). One request at a time: the runtime lets one call hold the doorbell and sends
// the others over the socket.
struct DoorbellWord {
  std::atomic<uint32_t> value{0};         // the sequence number, set by the side that announces
  std::atomic<uint32_t> asleep{0};        // its waiter sleeps on `value` in the kernel
  std::atomic<uint32_t> cpu{UINT32_MAX};  // the processor its waiter last polled on
};
struct DoorbellBlock {
  static constexpr size_t kMessageBytes = 16 << 10;  // the largest request, and reply, it carries
  alignas(64) DoorbellWord request;                  // announced by the runtime, awaited by the host
  uint32_t requestSize = 0;                          // the request's bytes in `requestBytes`
  alignas(64) DoorbellWord reply;                    // announced by the host, awaited by the runtime
  uint32_t replySize = 0;
  alignas(64) uint8_t requestBytes[kMessageBytes];
  alignas(64) uint8_t replyBytes[kMessageBytes];
};
static_assert(std::atomic<uint32_t>::is_always_lock_free &&
              sizeof(std::atomic<uint32_t>) == sizeof(uint32_t));

// Waits until `word` is no longer `seen`: polls it for at most `spin`, then sleeps in the kernel
// (saying so in the word) for at most `slice` (zero: until woken). `other` is the word the other
// side waits on, which says whether that side sleeps and where it polls. Returns the word's value,
// still `seen` when the slice ended first or the thread was woken for another reason.
uint32_t awaitChange(DoorbellWord& word, uint32_t seen, const DoorbellWord& other,
                     std::chrono::nanoseconds spin, std::chrono::nanoseconds slice);
// Sets `word` to `value` (after everything this thread wrote before) and wakes its waiter when it
// sleeps.
void announce(DoorbellWord& word, uint32_t value);
// Wakes whoever sleeps on `word`, whatever its value.
void wakeAll(DoorbellWord& word);

}  // namespace nnrt::wire
