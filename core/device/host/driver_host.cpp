// nnrt-driver-host: serves one driver plugin's function table to the runtime that started it, over
// the socket it inherited (`--fd N`), for devices configured with `isolation: process`
// (core/device/remote_driver.hpp is the other end; wire.hpp the messages). The plugin is loaded
// with the runtime's own checks (DriverLibrary::load), so a plugin that crashes or aborts, even in
// a static constructor, takes only this process down.
//
// One thread at a time reads the socket, runs the request it read and writes its reply, then
// reads again: a request costs no wake-up of another thread. While requests come, a standby
// thread looks every kStandbyTick; when a request has been running a whole tick with nobody
// reading, it starts a new reading thread (the one running goes away when its call returns, as
// someone else reads by then), so a long or hung call delays the others by a tick at most. A
// driver that hangs holds one thread; the runtime kills the process when a wait on it ends. The
// process exits when the runtime's end of the socket closes.
//
// Synchronous executions come through the execute doorbell (wire::DoorbellBlock) when the runtime
// sent one with Open: a thread of its own runs each request rung, then polls the doorbell for the
// next one for the runtime's spin bound (so back-to-back executions never wait for a wake-up),
// then sleeps on it in the kernel until rung again.
#include <fcntl.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/device/driver_library.hpp"
#include "core/device/host/wire.hpp"
#include "core/support/log.hpp"

namespace nnrt::host {
namespace {

using wire::Kind;
using wire::Reader;
using wire::Writer;

// The plugin's name, for the host's own log lines (set once it is loaded).
std::string& hostedPlugin() {
  static std::string name;
  return name;
}

// How long a closing host waits for calls still inside the driver before it exits without closing it.
constexpr auto kQuietWait = std::chrono::milliseconds(1000);
// How often the standby thread looks for a request that keeps the socket unread.
constexpr auto kStandbyTick = std::chrono::milliseconds(1);

// A prepared model and what it references: the model's pool block (valid until release, as the ABI
// promises) and the execution arenas the runtime sent (by arena id).
struct Prepared {
  nnrt_prepared_model* handle = nullptr;
  std::shared_ptr<wire::SharedMemory> pools;
  std::mutex mutex;
  std::map<uint32_t, std::shared_ptr<wire::SharedMemory>> arenas;
  // An execution's end, before its reply: the release (which the runtime sends only after the
  // replies) then follows it in this process too, not only through the runtime.
  void ended() { std::lock_guard lock(mutex); }
};

class Host {
 public:
  explicit Host(int socket) : socket_(socket) {}
  // The execute doorbell, served from serve() on (by a thread of its own), polled for `spin`.
  void setDoorbell(wire::SharedMemory block, std::chrono::microseconds spin) {
    doorbell_ = std::move(block);
    spin_ = spin;
  }
  // Serves until the runtime closes the socket.
  // Serves until the runtime closes the socket. False when calls into the driver are still running
  // then (a driver that never returns): nothing is released or closed under them.
  bool serve() {
    std::thread([this] { standby(); }).detach();
    if (doorbell_.data() != nullptr) std::thread([this] { serveDoorbell(); }).detach();
    startReader();
    std::unique_lock lock(mutex_);
    ended_.wait(lock, [&] { return closed_; });
    const auto until = std::chrono::steady_clock::now() + kQuietWait;
    while (busy_ > 0 && std::chrono::steady_clock::now() < until) {
      ended_.wait_for(lock, std::chrono::milliseconds(10));
    }
    if (busy_ > 0) return false;
    lock.unlock();
    // The runtime released its models before closing; what is left (a crash of the runtime) is
    // released here, before the plugin closes.
    std::map<uint64_t, std::shared_ptr<Prepared>> left;
    {
      std::lock_guard guard(mutex_);
      left.swap(prepared_);
    }
    for (auto& [id, p] : left)
      api().release_prepared_model(p->handle);
    return true;
  }
  std::shared_ptr<DriverLibrary> library;

 private:
  void startReader() { std::thread([this] { readLoop(); }).detach(); }

  // Reads a request and runs it, over and over, while this thread has the turn to read.
  void readLoop() {
    std::vector<uint8_t> body;
    std::vector<int> fds;
    while (true) {
      wire::Header header{};
      if (!receiver_.receive(socket_, header, body, fds)) break;
      {
        std::lock_guard lock(mutex_);
        ++busy_;  // counted while this thread has the turn: the end of the socket sees it
        ++requests_;
        turnFree_ = true;
        if (standbyParked_) {
          standbyParked_ = false;
          standbyWake_.notify_one();
        }
      }
      handle(header, body, fds);
      for (int fd : fds) {
        if (fd >= 0) close(fd);
      }
      std::lock_guard lock(mutex_);
      --busy_;
      if (!turnFree_) {  // the standby gave the turn to another thread
        ended_.notify_all();
        return;
      }
      turnFree_ = false;
    }
    std::lock_guard lock(mutex_);
    closed_ = true;
    ended_.notify_all();
    standbyWake_.notify_one();
  }

  // Gives the turn to a new thread when a request has run a whole tick with nobody reading;
  // parks while no request comes.
  void standby() {
    std::unique_lock lock(mutex_);
    uint64_t seen = requests_;
    while (!closed_) {
      if (standbyParked_) {
        standbyWake_.wait(lock, [&] { return closed_ || !standbyParked_; });
        seen = requests_;
        continue;
      }
      standbyWake_.wait_for(lock, kStandbyTick, [&] { return closed_; });
      if (closed_) break;
      if (turnFree_ && requests_ == seen) {
        turnFree_ = false;
        startReader();
      } else if (!turnFree_ && requests_ == seen) {
        standbyParked_ = true;  // nothing came for a tick: the next request wakes this thread
      }
      seen = requests_;
    }
  }

  void reply(Writer& out) {
    std::lock_guard lock(writeMutex_);
    wire::sendMessage(socket_, out.finish());  // a closed socket ends the read loop
  }

  // Takes fds[i] (the caller closes what is left in the list).
  static int takeFd(std::vector<int>& fds, size_t i) {
    return i < fds.size() ? std::exchange(fds[i], -1) : -1;
  }

  const nnrt_driver_api& api() const { return library->api(); }
  nnrt_device* device(uint32_t index) const {
    return index < api().device_count(library->plugin()) ? api().device_at(library->plugin(), index)
                                                         : nullptr;
  }

  std::shared_ptr<Prepared> findPrepared(uint64_t id) {
    std::lock_guard lock(mutex_);
    auto it = prepared_.find(id);
    return it == prepared_.end() ? nullptr : it->second;
  }

  void handle(const wire::Header& header, std::vector<uint8_t>& body, std::vector<int>& fds) {
    Reader in(body.data(), body.size());
    Writer out;
    out.begin(static_cast<Kind>(header.kind), header.callId);
    switch (static_cast<Kind>(header.kind)) {
      case Kind::GetStatus: {
        nnrt_device* d = device(in.get<uint32_t>());
        out.put<int32_t>(d != nullptr && in.ok() ? api().get_status(d) : NNRT_DEVICE_STATUS_UNKNOWN);
        return reply(out);
      }
      case Kind::GetSupported:
        return getSupported(in, out, fds);
      case Kind::Prepare:
      case Kind::PrepareFromCache:
        return prepare(static_cast<Kind>(header.kind), header.callId, in, out, fds);
      case Kind::Release: {
        const uint64_t id = in.get<uint64_t>();
        std::shared_ptr<Prepared> p;
        {
          std::lock_guard lock(mutex_);
          auto it = prepared_.find(id);
          if (it != prepared_.end()) {
            p = std::move(it->second);
            prepared_.erase(it);
          }
        }
        if (p) {
          std::lock_guard ordered(p->mutex);  // after every execution's end (Prepared::ended)
          api().release_prepared_model(p->handle);
        }
        return reply(out);
      }
      case Kind::ExecuteSync:
      case Kind::Execute:
        return execute(static_cast<Kind>(header.kind), header.callId, in, out, fds);
      case Kind::Open:
        break;
    }
    logError("driver host: unexpected message kind " + std::to_string(header.kind) + "; closing");
    shutdown(socket_, SHUT_RDWR);
  }

  // Maps the model's pool block (fds[0] when the model has pools) and reads the model.
  static bool readModel(Reader& in, std::vector<int>& fds, bool hasPools, wire::ModelHolder& model,
                        std::shared_ptr<wire::SharedMemory>& pools) {
    if (hasPools) {
      auto block = wire::SharedMemory::adopt(takeFd(fds, 0), false);
      if (!block) return false;
      pools = std::make_shared<wire::SharedMemory>(std::move(*block));
    }
    return model.read(in, pools ? pools->data() : nullptr, pools ? pools->size() : 0);
  }

  void getSupported(Reader& in, Writer& out, std::vector<int>& fds) {
    nnrt_device* d = device(in.get<uint32_t>());
    const bool hasPools = in.get<uint8_t>() != 0;
    wire::ModelHolder model;
    std::shared_ptr<wire::SharedMemory> pools;
    nnrt_reason reason{};
    nnrt_status status = NNRT_STATUS_INVALID_ARGUMENT;
    std::vector<uint8_t> flags;
    std::vector<std::pair<uint32_t, std::string>> explained;
    if (d != nullptr && readModel(in, fds, hasPools, model, pools)) {
      flags.assign(model.view().main.operation_count, 0);
      auto explain = [](void* context, uint32_t index, const char* why) {
        if (why != nullptr) {
          static_cast<decltype(explained)*>(context)->emplace_back(index,
                                                                   std::string(why, strnlen(why, 1024)));
        }
      };
      status =
          api().get_supported_operations_1_3(d, &model.view(), flags.data(), explain, &explained, &reason);
    } else {
      std::snprintf(reason.message, sizeof(reason.message), "driver host: malformed model message");
    }
    out.put(status);
    out.putString(reason.message);
    out.putArray(flags.data(), static_cast<uint32_t>(flags.size()));
    out.put<uint32_t>(static_cast<uint32_t>(explained.size()));
    for (const auto& [index, why] : explained) {
      out.put(index);
      out.putString(why);
    }
    reply(out);
  }

  // One preparation waiting for its callback: replied to once, by the callback or by the launch's
  // error, whichever comes first.
  struct PrepareContext {
    Host* host;
    uint64_t callId;
    Kind kind;
    std::shared_ptr<wire::SharedMemory> pools;
    std::atomic<bool> replied{false};
  };

  void answerPrepare(PrepareContext& c, nnrt_status status, nnrt_prepared_model* handle, const char* why) {
    if (c.replied.exchange(true)) {
      if (handle != nullptr) api().release_prepared_model(handle);  // a second callback's model
      return;
    }
    uint64_t id = 0;
    if (handle != nullptr) {
      auto p = std::make_shared<Prepared>();
      p->handle = handle;
      p->pools = c.pools;
      std::lock_guard lock(mutex_);
      id = nextPrepared_++;
      prepared_.emplace(id, std::move(p));
    }
    Writer out;
    out.begin(c.kind, c.callId);
    out.put(status);
    out.putString(why != nullptr ? std::string(why, strnlen(why, 1024)) : std::string());
    out.put(id);
    reply(out);
  }

  static void prepareCallback(void* context, nnrt_status status, nnrt_prepared_model* prepared,
                              const char* why) {
    std::shared_ptr<PrepareContext> c = takeContext<PrepareContext>(context);
    if (!c) return noteSecondCallback("preparation");  // its model, if any, is leaked
    c->host->answerPrepare(*c, status, prepared, why);
  }

  void prepare(Kind kind, uint64_t callId, Reader& in, Writer& out, std::vector<int>& fds) {
    nnrt_device* d = device(in.get<uint32_t>());
    const int32_t preference = in.get<int32_t>();
    const int32_t priority = in.get<int32_t>();
    const uint64_t deadline = in.get<uint64_t>();
    const uint32_t modelCacheCount = in.get<uint32_t>();
    const uint32_t dataCacheCount = in.get<uint32_t>();
    const bool hasToken = in.get<uint8_t>() != 0;
    uint8_t token[NNRT_CACHE_TOKEN_SIZE] = {};
    for (uint8_t& b : token)
      b = in.get<uint8_t>();
    const bool hasPools = kind == Kind::Prepare && in.get<uint8_t>() != 0;
    auto context = std::make_shared<PrepareContext>();
    context->host = this;
    context->callId = callId;
    context->kind = kind;
    wire::ModelHolder model;
    const size_t cacheStart = hasPools ? 1 : 0;
    bool ok = d != nullptr && in.ok() && modelCacheCount <= NNRT_MAX_CACHE_FILES &&
              dataCacheCount <= NNRT_MAX_CACHE_FILES &&
              fds.size() == cacheStart + modelCacheCount + dataCacheCount;
    if (ok && kind == Kind::Prepare) ok = readModel(in, fds, hasPools, model, context->pools);
    if (!ok) {
      out.put<nnrt_status>(NNRT_STATUS_INVALID_ARGUMENT);
      out.putString("driver host: malformed preparation message");
      out.put<uint64_t>(0);
      return reply(out);
    }
    const int* modelFds = fds.data() + cacheStart;
    const int* dataFds = modelFds + modelCacheCount;
    void* id = addContext(context);
    nnrt_reason reason{};
    nnrt_status s = kind == Kind::Prepare
                        ? api().prepare_model_1_3(d, &model.view(), preference, priority, deadline, modelFds,
                                                  modelCacheCount, dataFds, dataCacheCount,
                                                  hasToken ? token : nullptr, &prepareCallback, id, &reason)
                        : api().prepare_model_from_cache_1_3(d, deadline, modelFds, modelCacheCount, dataFds,
                                                             dataCacheCount, hasToken ? token : nullptr,
                                                             &prepareCallback, id, &reason);
    if (s != NNRT_STATUS_NONE && takeContext<PrepareContext>(id)) {
      reason.message[sizeof(reason.message) - 1] = '\0';
      answerPrepare(*context, s, nullptr, reason.message);
    }
  }

  struct ExecuteContext {
    Host* host;
    uint64_t callId;
    std::shared_ptr<Prepared> prepared;  // held until the callback
    std::shared_ptr<wire::SharedMemory> arena;
    wire::RequestHolder request;
  };

  static void executeCallback(void* context, nnrt_status status, const nnrt_output_shape* shapes,
                              uint32_t count, nnrt_timing timing, const char* why) {
    std::shared_ptr<ExecuteContext> c = takeContext<ExecuteContext>(context);
    if (!c) return noteSecondCallback("execution");
    c->prepared->ended();
    Writer out;
    out.begin(Kind::Execute, c->callId);
    wire::writeExecutionReply(out, status, shapes, count, timing, why);
    c->host->reply(out);
  }

  // What a synchronous execution reuses from one to the next: nothing is allocated once it has held
  // a request as large.
  struct SyncScratch {
    wire::RequestHolder request;
    std::vector<nnrt_output_shape> shapes;
  };

  // The arena `arenaId` of a prepared model: the block in fds[0] when the runtime sent one (it
  // replaces any of that id), else the one it sent before; null when there is none.
  static std::shared_ptr<wire::SharedMemory> arenaOf(Prepared& p, uint32_t arenaId, std::vector<int>& fds) {
    std::lock_guard lock(p.mutex);
    if (!fds.empty()) {
      auto block = wire::SharedMemory::adopt(takeFd(fds, 0), true);
      if (block) p.arenas[arenaId] = std::make_shared<wire::SharedMemory>(std::move(*block));
    }
    auto it = p.arenas.find(arenaId);
    return it != p.arenas.end() ? it->second : nullptr;
  }

  static void refuseExecution(Writer& out) {
    wire::writeExecutionReply(out, NNRT_STATUS_INVALID_ARGUMENT, nullptr, 0, {UINT64_MAX, UINT64_MAX},
                              "driver host: malformed execution message or unknown prepared model");
  }

  // Runs an ExecuteSync request (from the socket or the doorbell); writes the reply's body to `out`.
  void executeSync(Reader& in, Writer& out, std::vector<int>& fds, SyncScratch& scratch) {
    std::shared_ptr<Prepared> prepared = findPrepared(in.get<uint64_t>());
    const uint32_t arenaId = in.get<uint32_t>();
    const uint8_t measure = in.get<uint8_t>();
    const uint64_t deadline = in.get<uint64_t>();
    const uint64_t loopTimeout = in.get<uint64_t>();
    std::shared_ptr<wire::SharedMemory> arena =
        prepared && in.ok() ? arenaOf(*prepared, arenaId, fds) : nullptr;
    if (!arena || !scratch.request.read(in, arena->data(), arena->size())) return refuseExecution(out);
    const nnrt_request& request = scratch.request.view();
    scratch.shapes.assign(request.output_count, nnrt_output_shape{});
    nnrt_timing timing{UINT64_MAX, UINT64_MAX};
    nnrt_reason reason{};
    nnrt_status s =
        api().execute_synchronously_1_3(prepared->handle, &request, measure, deadline, loopTimeout,
                                        scratch.shapes.data(), request.output_count, &timing, &reason);
    prepared->ended();
    reason.message[sizeof(reason.message) - 1] = '\0';
    const bool withShapes = s == NNRT_STATUS_NONE || s == NNRT_STATUS_OUTPUT_INSUFFICIENT_SIZE;
    wire::writeExecutionReply(out, s, withShapes ? scratch.shapes.data() : nullptr, request.output_count,
                              timing, reason.message);
  }

  void execute(Kind kind, uint64_t callId, Reader& in, Writer& out, std::vector<int>& fds) {
    if (kind == Kind::ExecuteSync) {
      SyncScratch scratch;
      executeSync(in, out, fds, scratch);
      return reply(out);
    }
    auto context = std::make_shared<ExecuteContext>();
    context->host = this;
    context->callId = callId;
    context->prepared = findPrepared(in.get<uint64_t>());
    const uint32_t arenaId = in.get<uint32_t>();
    const uint8_t measure = in.get<uint8_t>();
    const uint64_t deadline = in.get<uint64_t>();
    const uint64_t loopTimeout = in.get<uint64_t>();
    if (context->prepared != nullptr && in.ok()) context->arena = arenaOf(*context->prepared, arenaId, fds);
    if (!context->arena || !context->request.read(in, context->arena->data(), context->arena->size())) {
      refuseExecution(out);
      return reply(out);
    }
    const nnrt_request& request = context->request.view();
    nnrt_reason reason{};
    void* id = addContext(context);
    nnrt_status s = api().execute_1_3(context->prepared->handle, &request, measure, deadline, loopTimeout,
                                      &executeCallback, id, &reason);
    if (s != NNRT_STATUS_NONE && takeContext<ExecuteContext>(id)) {
      reason.message[sizeof(reason.message) - 1] = '\0';
      wire::writeExecutionReply(out, s, nullptr, 0, {UINT64_MAX, UINT64_MAX}, reason.message);
      reply(out);
    }
  }

  // The doorbell's thread: waits for a request (polling for spin_ after each one, then asleep),
  // runs it, writes the reply in the block and announces it. Never allocates once warm.
  void serveDoorbell() {
    pthread_setname_np(pthread_self(), "nnrt-doorbell");  // for ps -L, gdb and perf
    auto& block = *reinterpret_cast<wire::DoorbellBlock*>(doorbell_.data());
    SyncScratch scratch;
    Writer out;
    std::vector<int> noFds;
    // Requests are numbered from 1 in a new block: one rung before this thread first looks (it
    // starts with serve(), after the Open reply) is still seen as new.
    uint32_t seen = 0;
    std::chrono::nanoseconds spin{};  // no call to follow before the first
    while (true) {
      const uint32_t rung = wire::awaitChange(block.request, seen, block.reply, spin, {});
      if (rung == seen) {  // woken for nothing
        spin = {};
        continue;
      }
      seen = rung;
      {
        std::lock_guard lock(mutex_);
        if (closed_) return;
        ++busy_;
      }
      const size_t size = std::min<size_t>(block.requestSize, sizeof(block.requestBytes));
      wire::Header header{};
      if (size >= sizeof(header)) std::memcpy(&header, block.requestBytes, sizeof(header));
      out.begin(Kind::ExecuteSync, header.callId);
      if (size >= sizeof(header) && header.kind == static_cast<uint32_t>(Kind::ExecuteSync) &&
          header.size <= size - sizeof(header)) {
        Reader in(block.requestBytes + sizeof(header), header.size);
        executeSync(in, out, noFds, scratch);
      } else {
        refuseExecution(out);
      }
      const std::vector<uint8_t>* bytes = &out.finish();
      if (bytes->size() > sizeof(block.replyBytes)) {  // the runtime sends only requests whose reply fits
        out.begin(Kind::ExecuteSync, header.callId);
        wire::writeExecutionReply(out, NNRT_STATUS_GENERAL_FAILURE, nullptr, 0, {UINT64_MAX, UINT64_MAX},
                                  "driver host: the execution's reply does not fit the doorbell");
        bytes = &out.finish();
      }
      std::memcpy(block.replyBytes, bytes->data(), bytes->size());
      block.replySize = static_cast<uint32_t>(bytes->size());
      wire::announce(block.reply, rung);
      {
        std::lock_guard lock(mutex_);
        --busy_;
      }
      spin = spin_;
    }
  }

  // A second callback for one call: ignored, logged once per host (on the host's stderr).
  static void noteSecondCallback(const char* what) {
    static std::atomic<bool> logged{false};
    if (logged.exchange(true)) return;
    logWarning("driver host of plugin '" + hostedPlugin() + "': the plugin called back twice for one " +
               what + "; ignored (logged once)");
  }

  // Callback contexts are ids, as in the runtime (DriverCallbacks): a second callback finds nothing.
  static std::mutex& contextMutex() {
    static std::mutex m;
    return m;
  }
  static std::map<uint64_t, std::shared_ptr<void>>& contexts() {
    static auto* m = new std::map<uint64_t, std::shared_ptr<void>>();  // drivers may call back at exit
    return *m;
  }
  static void* addContext(std::shared_ptr<void> c) {
    static uint64_t next = 1;
    std::lock_guard lock(contextMutex());
    const uint64_t id = next++;
    contexts().emplace(id, std::move(c));
    return reinterpret_cast<void*>(static_cast<uintptr_t>(id));
  }
  template <class T>
  static std::shared_ptr<T> takeContext(void* context) {
    std::lock_guard lock(contextMutex());
    auto it = contexts().find(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(context)));
    if (it == contexts().end()) return nullptr;
    auto c = std::static_pointer_cast<T>(std::move(it->second));
    contexts().erase(it);
    return c;
  }

  int socket_;
  wire::SharedMemory doorbell_;  // the execute doorbell's block, when the runtime sent one
  std::chrono::microseconds spin_{};
  wire::Receiver receiver_;  // used by the thread that has the turn
  std::mutex writeMutex_;
  std::mutex mutex_;
  int busy_ = 0;             // threads handling a request
  uint64_t requests_ = 0;    // requests read so far
  bool turnFree_ = false;    // nobody reads: the last reader runs its request
  bool standbyParked_ = false;
  std::condition_variable standbyWake_;
  std::condition_variable ended_;
  bool closed_ = false;
  std::map<uint64_t, std::shared_ptr<Prepared>> prepared_;
  uint64_t nextPrepared_ = 1;
};

void putPerf(Writer& out, const nnrt_perf_info& p) {
  out.put(p);
}

// The Open reply: the plugin's identity and, per device, everything the runtime reads once.
void describe(Writer& out, const DriverLibrary& library) {
  const nnrt_driver_api& api = library.api();
  out.put<uint8_t>(1);
  out.putString(api.plugin_name);
  out.putString(api.plugin_version);
  const uint32_t count = api.device_count(library.plugin());
  out.put(count);
  for (uint32_t i = 0; i < count; ++i) {
    const nnrt_device* d = api.device_at(library.plugin(), i);
    out.put<uint8_t>(d != nullptr);
    if (d == nullptr) continue;
    out.putOptionalString(api.get_name(d));
    out.putOptionalString(api.get_version_string(d));
    out.put(api.get_type(d));
    out.put(api.get_feature_level(d));
    nnrt_reason reason{};
    nnrt_capabilities caps{};
    nnrt_status s = api.get_capabilities_1_3(d, &caps, &reason);
    out.put(s);
    out.putString(reason.message);
    putPerf(out, caps.relaxed_float32_to_float16_scalar);
    putPerf(out, caps.relaxed_float32_to_float16_tensor);
    putPerf(out, caps.if_performance);
    putPerf(out, caps.while_performance);
    out.putArray(caps.operand_performance,
                 caps.operand_performance != nullptr ? caps.operand_performance_count : 0);
    const nnrt_extension* extensions = nullptr;
    uint32_t extensionCount = 0;
    reason = {};
    s = api.get_supported_extensions(d, &extensions, &extensionCount, &reason);
    out.put(s);
    out.putString(reason.message);
    if (extensions == nullptr) extensionCount = 0;
    out.put(extensionCount);
    for (uint32_t e = 0; e < extensionCount; ++e) {
      out.putOptionalString(extensions[e].name);
      out.putArray(extensions[e].operand_types,
                   extensions[e].operand_types != nullptr ? extensions[e].operand_type_count : 0);
    }
    uint32_t modelFiles = 0, dataFiles = 0;
    reason = {};
    s = api.get_number_of_cache_files_needed(d, &modelFiles, &dataFiles, &reason);
    out.put(s);
    out.putString(reason.message);
    out.put(modelFiles);
    out.put(dataFiles);
    constexpr size_t kTableEnd =
        offsetof(nnrt_driver_api, get_operation_table) + sizeof(api.get_operation_table);
    const bool table = api.struct_size >= kTableEnd && api.get_operation_table != nullptr;
    out.put<uint8_t>(table);
    if (table) {
      const nnrt_operation_support* pairs = nullptr;
      uint32_t pairCount = 0;
      reason = {};
      s = api.get_operation_table(d, &pairs, &pairCount, &reason);
      out.put(s);
      out.putString(reason.message);
      out.putArray(pairs, pairs != nullptr ? pairCount : 0);
    }
  }
}

int run(int socket) {
  // The first message opens the plugin.
  wire::Header header{};
  std::vector<uint8_t> body;
  std::vector<int> fds;
  if (!wire::receiveMessage(socket, header, body, fds) || header.kind != static_cast<uint32_t>(Kind::Open)) {
    logError("driver host: no open request from the runtime");
    return 1;
  }
  Reader in(body.data(), body.size());
  const std::string path = in.getString();
  std::vector<std::pair<std::string, std::string>> options;
  const uint32_t optionCount = in.get<uint32_t>();
  for (uint32_t i = 0; i < optionCount && in.ok(); ++i) {
    std::string key = in.getString();
    std::string value = in.getString();
    options.emplace_back(std::move(key), std::move(value));
  }
  const bool hasDoorbell = in.get<uint8_t>() != 0;
  const auto spin = std::chrono::microseconds(in.get<uint32_t>());
  // Never destroyed: driver threads may call back into it until the process ends.
  Host& host = *new Host(socket);
  if (hasDoorbell && in.ok()) {
    auto block = wire::SharedMemory::adopt(fds.empty() ? -1 : std::exchange(fds[0], -1), true);
    if (!block || block->size() < sizeof(wire::DoorbellBlock)) {
      logError("driver host: the execute doorbell from the runtime cannot be mapped");
      return 1;
    }
    host.setDoorbell(std::move(*block), spin);
  }
  for (int fd : fds) {
    if (fd >= 0) close(fd);
  }
  Writer out;
  out.begin(Kind::Open, header.callId);
  auto library = [&]() -> Result<std::shared_ptr<DriverLibrary>> {
    if (!in.ok()) return fail(ResultCode::BAD_DATA, "driver host: malformed open request");
    return DriverLibrary::load(path, options);
  }();
  if (!library) {
    out.put<uint8_t>(0);
    out.putString(library.error().message);
    wire::sendMessage(socket, out.finish());
    return 1;
  }
  host.library = *library;
  hostedPlugin() = (*library)->api().plugin_name;
  describe(out, **library);
  if (!wire::sendMessage(socket, out.finish())) return 1;
  if (host.serve()) host.library.reset();  // closes the plugin
  return 0;
}

}  // namespace
}  // namespace nnrt::host

int main(int argc, char** argv) {
  if (argc != 3 || std::strcmp(argv[1], "--fd") != 0) {
    std::fprintf(stderr,
                 "usage: nnrt-driver-host --fd N\n"
                 "Serves a driver plugin to the nnrt runtime that started it (isolation: process); not run "
                 "by hand.\n");
    return 2;
  }
  const int socket = std::atoi(argv[2]);
  const int flags = fcntl(socket, F_GETFD);
  if (flags < 0) {
    std::fprintf(stderr, "nnrt-driver-host: descriptor %d is not open\n", socket);
    return 2;
  }
  fcntl(socket, F_SETFD, flags | FD_CLOEXEC);  // nothing this process starts inherits it
  signal(SIGPIPE, SIG_IGN);
  const int status = nnrt::host::run(socket);
  // Threads a driver never returned from may still run: no static destructors under them.
  std::fflush(stderr);
  std::_Exit(status);
}
