#include "core/device/host/wire.hpp"

#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cerrno>
#include <utility>

namespace nnrt::wire {
namespace {

constexpr uint64_t kPoolAlignment = 64;
// Most operands, operations or subgraphs a model on the wire may have (a count beyond the body's
// size is refused by the Reader anyway; this keeps allocations in step with it).
constexpr uint32_t kMaxCount = 1u << 24;

uint64_t alignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

void writeSubgraph(Writer& out, const nnrt_subgraph& s) {
  out.put<uint32_t>(s.operand_count);
  for (uint32_t i = 0; i < s.operand_count; ++i) {
    const nnrt_operand& o = s.operands[i];
    out.put(o.type);
    out.putArray(o.dimensions, o.dimensions != nullptr ? o.rank : 0);
    out.put(o.rank);
    out.put(o.scale);
    out.put(o.zero_point);
    out.put(o.lifetime);
    out.put(o.location);
    out.put(o.number_of_consumers);
    out.put(o.extra_kind);
    out.putArray(o.channel_scales, o.channel_scales != nullptr ? o.channel_scale_count : 0);
    out.put(o.channel_dim);
    out.putArray(o.extension_data, o.extension_data != nullptr ? o.extension_data_size : 0);
  }
  out.put<uint32_t>(s.operation_count);
  for (uint32_t i = 0; i < s.operation_count; ++i) {
    const nnrt_operation& op = s.operations[i];
    out.put(op.type);
    out.putArray(op.inputs, op.input_count);
    out.putArray(op.outputs, op.output_count);
  }
  out.putArray(s.input_indexes, s.input_count);
  out.putArray(s.output_indexes, s.output_count);
}

}  // namespace

PoolLayout poolLayout(const nnrt_model& model) {
  PoolLayout layout;
  for (uint32_t i = 0; i < model.pool_count; ++i) {
    layout.offsets.push_back(layout.totalSize);
    layout.totalSize = alignUp(layout.totalSize + model.pools[i].size, kPoolAlignment);
  }
  return layout;
}

void writeModel(Writer& out, const nnrt_model& model) {
  writeSubgraph(out, model.main);
  out.put<uint32_t>(model.referenced_count);
  for (uint32_t i = 0; i < model.referenced_count; ++i)
    writeSubgraph(out, model.referenced[i]);
  out.putBytes(model.operand_values, model.operand_values != nullptr ? model.operand_values_size : 0);
  out.put<uint32_t>(model.pool_count);
  for (uint32_t i = 0; i < model.pool_count; ++i) {
    out.put(model.pools[i].kind);
    out.put(model.pools[i].size);
  }
  out.put(model.relax_computation_float32_to_float16);
  out.put<uint32_t>(model.extension_prefix_count);
  for (uint32_t i = 0; i < model.extension_prefix_count; ++i) {
    out.putOptionalString(model.extension_prefixes[i].name);
    out.put(model.extension_prefixes[i].prefix);
  }
}

bool ModelHolder::readSubgraph(Reader& in, Subgraph& into) {
  const uint32_t operandCount = in.get<uint32_t>();
  if (!in.ok() || operandCount > kMaxCount) return false;
  into.operands.resize(operandCount);
  for (nnrt_operand& o : into.operands) {
    o.type = in.get<int32_t>();
    auto& dims = indexes_.emplace_back(in.getArray<uint32_t>());
    o.rank = in.get<uint32_t>();
    o.dimensions = dims.empty() ? nullptr : dims.data();
    if (dims.size() != (o.dimensions == nullptr ? 0 : o.rank)) return false;
    o.scale = in.get<float>();
    o.zero_point = in.get<int32_t>();
    o.lifetime = in.get<int32_t>();
    o.location = in.get<nnrt_data_location>();
    o.number_of_consumers = in.get<uint32_t>();
    o.extra_kind = in.get<int32_t>();
    auto& scales = scales_.emplace_back(in.getArray<float>());
    o.channel_scales = scales.empty() ? nullptr : scales.data();
    o.channel_scale_count = static_cast<uint32_t>(scales.size());
    o.channel_dim = in.get<uint32_t>();
    auto& data = bytes_.emplace_back(in.getArray<uint8_t>());
    o.extension_data = data.empty() ? nullptr : data.data();
    o.extension_data_size = static_cast<uint32_t>(data.size());
    if (!in.ok()) return false;
  }
  const uint32_t operationCount = in.get<uint32_t>();
  if (!in.ok() || operationCount > kMaxCount) return false;
  into.operations.resize(operationCount);
  for (nnrt_operation& op : into.operations) {
    op.type = in.get<int32_t>();
    auto& inputs = indexes_.emplace_back(in.getArray<uint32_t>());
    auto& outputs = indexes_.emplace_back(in.getArray<uint32_t>());
    op.inputs = inputs.data();
    op.input_count = static_cast<uint32_t>(inputs.size());
    op.outputs = outputs.data();
    op.output_count = static_cast<uint32_t>(outputs.size());
    if (!in.ok()) return false;
  }
  into.inputs = in.getArray<uint32_t>();
  into.outputs = in.getArray<uint32_t>();
  return in.ok();
}

nnrt_subgraph ModelHolder::viewOf(const Subgraph& s) {
  return {s.operands.data(),   static_cast<uint32_t>(s.operands.size()),
          s.operations.data(), static_cast<uint32_t>(s.operations.size()),
          s.inputs.data(),     static_cast<uint32_t>(s.inputs.size()),
          s.outputs.data(),    static_cast<uint32_t>(s.outputs.size())};
}

bool ModelHolder::read(Reader& in, const uint8_t* poolBase, uint64_t poolSize) {
  if (!readSubgraph(in, main_)) return false;
  const uint32_t referencedCount = in.get<uint32_t>();
  if (!in.ok() || referencedCount > kMaxCount) return false;
  referenced_.resize(referencedCount);
  for (Subgraph& s : referenced_) {
    if (!readSubgraph(in, s)) return false;
  }
  auto& values = bytes_.emplace_back();
  uint64_t valuesSize = 0;
  const uint8_t* valuesData = in.getBytes(valuesSize);
  if (valuesData != nullptr) values.assign(valuesData, valuesData + valuesSize);
  const uint32_t poolCount = in.get<uint32_t>();
  if (!in.ok() || poolCount > kMaxCount) return false;
  uint64_t offset = 0;
  for (uint32_t i = 0; i < poolCount; ++i) {
    nnrt_memory_pool pool{};
    pool.kind = in.get<int32_t>();
    pool.size = in.get<uint64_t>();
    if (!in.ok() || pool.kind != NNRT_POOL_HOST || pool.size > poolSize || offset > poolSize - pool.size) {
      return false;
    }
    pool.host = const_cast<uint8_t*>(poolBase + offset);  // read-only in a model view
    offset = alignUp(offset + pool.size, kPoolAlignment);
    pools_.push_back(pool);
  }
  const uint8_t relax = in.get<uint8_t>();
  const uint32_t prefixCount = in.get<uint32_t>();
  if (!in.ok() || prefixCount > kMaxCount) return false;
  for (uint32_t i = 0; i < prefixCount; ++i) {
    std::optional<std::string> name = in.getOptionalString();
    const uint16_t prefix = in.get<uint16_t>();
    prefixes_.push_back({name ? names_.emplace_back(std::move(*name)).c_str() : nullptr, prefix});
  }
  if (!in.ok()) return false;
  for (const Subgraph& s : referenced_)
    referencedViews_.push_back(viewOf(s));
  view_.main = viewOf(main_);
  view_.referenced = referencedViews_.data();
  view_.referenced_count = referencedCount;
  view_.operand_values = values.data();
  view_.operand_values_size = values.size();
  view_.pools = pools_.data();
  view_.pool_count = poolCount;
  view_.relax_computation_float32_to_float16 = relax;
  view_.extension_prefixes = prefixes_.data();
  view_.extension_prefix_count = prefixCount;
  return true;
}

void writeRequest(Writer& out, const nnrt_request& request) {
  for (auto [arguments, count] :
       {std::pair{request.inputs, request.input_count}, std::pair{request.outputs, request.output_count}}) {
    out.put<uint32_t>(count);
    for (uint32_t i = 0; i < count; ++i) {
      const nnrt_request_argument& a = arguments[i];
      out.put(a.has_no_value);
      out.put(a.location);
      out.putArray(a.dimensions, a.dimensions != nullptr ? a.rank : 0);
      out.put(a.rank);
    }
  }
}

bool RequestHolder::read(Reader& in, uint8_t* pool, uint64_t poolSize) {
  pool_ = {NNRT_POOL_HOST, pool, poolSize};
  dims_.clear();
  dimsAt_.clear();
  for (auto* list : {&inputs_, &outputs_}) {
    const uint32_t count = in.get<uint32_t>();
    if (!in.ok() || count > kMaxCount) return false;
    list->resize(count);
    for (nnrt_request_argument& a : *list) {
      a.has_no_value = in.get<uint8_t>();
      a.location = in.get<nnrt_data_location>();
      const uint32_t rank = in.getArrayInto(dimsRead_);
      a.rank = in.get<uint32_t>();
      a.dimensions = nullptr;  // pointed into dims_ once every argument's are there
      dimsAt_.push_back(dims_.size());
      dims_.insert(dims_.end(), dimsRead_.begin(), dimsRead_.end());
      if (!in.ok() || (rank != 0 && rank != a.rank)) return false;
      if (a.has_no_value != 0) continue;
      const nnrt_data_location& l = a.location;
      if (l.pool_index != 0 || l.offset > poolSize || l.length > poolSize - l.offset) return false;
    }
  }
  size_t i = 0;
  for (auto* list : {&inputs_, &outputs_}) {
    for (nnrt_request_argument& a : *list) {
      const size_t at = dimsAt_[i++];
      const size_t next = i < dimsAt_.size() ? dimsAt_[i] : dims_.size();
      if (next > at) a.dimensions = dims_.data() + at;
    }
  }
  view_ = {inputs_.data(),  static_cast<uint32_t>(inputs_.size()),
           outputs_.data(), static_cast<uint32_t>(outputs_.size()),
           &pool_,          1};
  return true;
}

void writeExecutionReply(Writer& out, nnrt_status status, const nnrt_output_shape* shapes, uint32_t count,
                         nnrt_timing timing, const char* reason) {
  out.put(status);
  out.putArray(shapes, shapes != nullptr ? count : 0);
  out.put<uint8_t>(shapes != nullptr);
  out.put(timing);
  out.putBytes(reason, reason != nullptr ? strnlen(reason, NNRT_REASON_SIZE * 4) : 0);
}

bool readExecutionReply(Reader& in, ExecutionReply& reply) {
  reply.status = in.get<nnrt_status>();
  in.getArrayInto(reply.shapes);
  const bool withShapes = in.get<uint8_t>() != 0;
  if (!withShapes) reply.shapes.clear();
  reply.timing = in.get<nnrt_timing>();
  uint64_t size = 0;
  const uint8_t* reason = in.getBytes(size);
  reply.reason.assign(reason != nullptr ? reinterpret_cast<const char*>(reason) : "", size);
  return in.ok();
}

bool sendMessage(int socket, const std::vector<uint8_t>& message, std::span<const int> fds) {
  size_t sent = 0;
  while (sent < message.size()) {
    iovec io{const_cast<uint8_t*>(message.data()) + sent, message.size() - sent};
    msghdr msg{};
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)];
    if (sent == 0 && !fds.empty()) {
      if (fds.size() > kMaxFds) return false;
      msg.msg_control = control;
      msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
      cmsghdr* c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    const ssize_t n = sendmsg(socket, &msg, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    sent += static_cast<size_t>(n);
  }
  return true;
}

namespace {

// One recvmsg into [into, into + size), retried on EINTR; the descriptors that came with the bytes
// are appended to `fds`. Returns what recvmsg returned.
ssize_t receiveSome(int socket, uint8_t* into, size_t size, std::vector<int>& fds) {
  while (true) {
    iovec io{into, size};
    msghdr msg{};
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)];
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    const ssize_t n = recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
    if (n < 0 && errno == EINTR) continue;
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); n >= 0 && c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
      const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      for (size_t i = 0; i < count; ++i) {
        int fd;
        std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
        fds.push_back(fd);
      }
    }
    return n;
  }
}

// Reads exactly `size` bytes, collecting descriptors that come with them.
bool receiveExactly(int socket, uint8_t* into, size_t size, std::vector<int>& fds) {
  size_t got = 0;
  while (got < size) {
    const ssize_t n = receiveSome(socket, into + got, size - got, fds);
    if (n <= 0) return false;
    got += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

bool receiveMessage(int socket, Header& header, std::vector<uint8_t>& body, std::vector<int>& fds) {
  fds.clear();
  bool ok = receiveExactly(socket, reinterpret_cast<uint8_t*>(&header), sizeof(header), fds);
  ok = ok && header.size <= kMaxBody;
  if (ok) {
    body.resize(header.size);
    ok = receiveExactly(socket, body.data(), header.size, fds);
  }
  if (!ok) {
    for (int fd : fds)
      close(fd);
    fds.clear();
  }
  return ok;
}

namespace {
// The read-ahead buffer of a Receiver: larger messages are read straight into their body.
constexpr size_t kReceiveBuffer = 16 << 10;
}  // namespace

Receiver::Receiver() : buffer_(kReceiveBuffer) {}

Receiver::~Receiver() {
  reset();
}

void Receiver::reset() {
  for (Descriptors& d : descriptors_) {
    for (int fd : d.fds)
      close(fd);
  }
  descriptors_.clear();
  begin_ = end_ = 0;
  offset_ = 0;
}

bool Receiver::fill(int socket) {
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  thread_local std::vector<int> fds;
  fds.clear();
  const ssize_t n = receiveSome(socket, buffer_.data() + end_, buffer_.size() - end_, fds);
  if (n <= 0) {
    for (int fd : fds)
      close(fd);
    return false;
  }
  if (!fds.empty()) descriptors_.push_back({offset_ + (end_ - begin_) + n - 1, fds});
  end_ += static_cast<size_t>(n);
  return true;
}

bool Receiver::receive(int socket, Header& header, std::vector<uint8_t>& body, std::vector<int>& fds) {
  fds.clear();
  while (end_ - begin_ < sizeof(Header)) {
    if (!fill(socket)) return false;
  }
  std::memcpy(&header, buffer_.data() + begin_, sizeof(header));
  if (header.size > kMaxBody) return false;
  const uint64_t start = offset_;
  const uint64_t total = sizeof(Header) + uint64_t{header.size};
  bool ok = true;
  body.resize(header.size);
  if (total <= buffer_.size()) {
    while (ok && end_ - begin_ < total)
      ok = fill(socket);
    if (!ok) return false;
    if (header.size > 0) std::memcpy(body.data(), buffer_.data() + begin_ + sizeof(Header), header.size);
    begin_ += total;
    offset_ += total;
  } else {
    // Too large to read ahead: what is here, then the rest straight into the body.
    const size_t here = end_ - begin_ - sizeof(Header);
    if (here > 0) std::memcpy(body.data(), buffer_.data() + begin_ + sizeof(Header), here);
    begin_ = end_ = 0;
    ok = receiveExactly(socket, body.data() + here, header.size - here, fds);
    offset_ += total;
  }
  // The descriptors that came with this message (any before it were a peer's mistake).
  while (!descriptors_.empty() && descriptors_.front().lastByte < start + total) {
    Descriptors& d = descriptors_.front();
    if (d.lastByte >= start) {
      fds.insert(fds.end(), d.fds.begin(), d.fds.end());
    } else {
      for (int fd : d.fds)
        close(fd);
    }
    descriptors_.pop_front();
  }
  if (!ok) {
    for (int fd : fds)
      close(fd);
    fds.clear();
  }
  return ok;
}

SharedMemory::~SharedMemory() {
  if (data_ != nullptr) munmap(data_, size_);
  if (fd_ >= 0) close(fd_);
}

SharedMemory& SharedMemory::operator=(SharedMemory&& other) noexcept {
  if (this != &other) {
    this->~SharedMemory();
    fd_ = std::exchange(other.fd_, -1);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

std::optional<SharedMemory> SharedMemory::create(const char* name, uint64_t size) {
  size = alignUp(std::max<uint64_t>(size, 1), static_cast<uint64_t>(sysconf(_SC_PAGESIZE)));
  SharedMemory block;
  block.fd_ = memfd_create(name, MFD_CLOEXEC);
  if (block.fd_ < 0 || ftruncate(block.fd_, static_cast<off_t>(size)) != 0) return std::nullopt;
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, block.fd_, 0);
  if (p == MAP_FAILED) return std::nullopt;
  block.data_ = static_cast<uint8_t*>(p);
  block.size_ = size;
  return block;
}

std::optional<SharedMemory> SharedMemory::adopt(int fd, bool writable) {
  SharedMemory block;
  block.fd_ = fd;
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) return std::nullopt;
  const int protection = PROT_READ | (writable ? PROT_WRITE : 0);
  void* p = mmap(nullptr, static_cast<size_t>(st.st_size), protection, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) return std::nullopt;
  block.data_ = static_cast<uint8_t*>(p);
  block.size_ = static_cast<uint64_t>(st.st_size);
  block.closeFd();
  return block;
}

void SharedMemory::closeFd() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

namespace {

// The futex calls on a word in shared memory (no FUTEX_PRIVATE_FLAG: the other side is another
// process).
void futexWait(std::atomic<uint32_t>& word, uint32_t seen, std::chrono::nanoseconds slice) {
  timespec timeout{static_cast<time_t>(slice.count() / 1'000'000'000),
                   static_cast<long>(slice.count() % 1'000'000'000)};
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAIT, seen,
          slice.count() > 0 ? &timeout : nullptr, nullptr, 0);
}
void futexWake(std::atomic<uint32_t>& word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
}

// A hint to the processor that this thread polls (frees the core's resources for its sibling).
void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

uint32_t awaitChange(DoorbellWord& word, uint32_t seen, const DoorbellWord& other,
                     std::chrono::nanoseconds spin, std::chrono::nanoseconds slice) {
  uint32_t now = word.value.load(std::memory_order_acquire);
  if (now != seen) return now;
  // Polls in bursts. Between them, the processor goes to the other side when that side is ready
  // to run on this very processor (not asleep, and last polled here): on a machine with more ready
  // threads than cores the two sides may share one, and a plain spin would keep the other side
  // off it until the bound ends. sched_yield acts on this processor's queue only, so it is of no
  // use otherwise, and would give the processor to unrelated threads for a whole time slice.
  // (Measured on a 2-core VM loaded by builds: plain spins 2-110 µs a round trip from one run to
  // the next, yielding after every burst 11 µs, but over 400 µs beside busy loops.)
  if (spin.count() > 0) {
    const auto until = std::chrono::steady_clock::now() + spin;
    do {
      for (int i = 0; i < 16; ++i) {
        cpuRelax();
        now = word.value.load(std::memory_order_acquire);
        if (now != seen) return now;
      }
      const int cpu = sched_getcpu();
      word.cpu.store(static_cast<uint32_t>(cpu), std::memory_order_relaxed);
      if (other.asleep.load(std::memory_order_relaxed) == 0 &&
          other.cpu.load(std::memory_order_relaxed) == static_cast<uint32_t>(cpu)) {
        sched_yield();
      }
    } while (std::chrono::steady_clock::now() < until);
  }
  // Announced before the last look (both sequentially consistent, as in announce()): either this
  // thread sees the new value, or the other side sees `asleep` and wakes it.
  word.asleep.store(1, std::memory_order_seq_cst);
  now = word.value.load(std::memory_order_seq_cst);
  if (now == seen) {
    futexWait(word.value, seen, slice);
    now = word.value.load(std::memory_order_acquire);
  }
  word.asleep.store(0, std::memory_order_relaxed);
  return now;
}

void announce(DoorbellWord& word, uint32_t value) {
  word.value.store(value, std::memory_order_seq_cst);
  if (word.asleep.load(std::memory_order_seq_cst) != 0) futexWake(word.value);
}

void wakeAll(DoorbellWord& word) {
  futexWake(word.value);
}

}  // namespace nnrt::wire
