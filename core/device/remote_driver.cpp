#include "core/device/remote_driver.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <span>

#include "core/device/host/wire.hpp"
#include "core/device/host_connection.hpp"

namespace nnrt {
namespace {

using wire::Kind;
using wire::Reader;
using wire::Writer;

constexpr uint64_t kAlignment = 64;

uint64_t alignUp(uint64_t value) {
  return (value + kAlignment - 1) / kAlignment * kAlignment;
}

void setReason(nnrt_reason* reason, const std::string& text) {
  if (reason == nullptr) return;
  std::snprintf(reason->message, sizeof(reason->message), "%s", text.c_str());
}

// What the host told about one device when it opened the plugin; what nnrt_device* points at.
struct RemoteDevice {
  class RemoteDriver* driver = nullptr;
  uint32_t index = 0;
  bool present = false;  // the plugin's device_at gave a device
  std::optional<std::string> name, version;
  int32_t type = 0;
  int64_t featureLevel = 0;
  nnrt_status capsStatus = NNRT_STATUS_GENERAL_FAILURE;
  std::string capsReason;
  nnrt_capabilities caps{};
  std::vector<nnrt_operand_performance> performance;
  nnrt_status extensionsStatus = NNRT_STATUS_GENERAL_FAILURE;
  std::string extensionsReason;
  std::vector<nnrt_extension> extensions;
  std::deque<std::string> extensionNames;
  std::deque<std::vector<nnrt_extension_operand_type>> extensionTypes;
  nnrt_status cacheStatus = NNRT_STATUS_GENERAL_FAILURE;
  std::string cacheReason;
  uint32_t modelFiles = 0, dataFiles = 0;
  bool hasTable = false;
  nnrt_status tableStatus = NNRT_STATUS_NONE;
  std::string tableReason;
  std::vector<nnrt_operation_support> table;

  bool read(Reader& in) {
    present = in.get<uint8_t>() != 0;
    if (!present) return in.ok();
    name = in.getOptionalString();
    version = in.getOptionalString();
    type = in.get<int32_t>();
    featureLevel = in.get<int64_t>();
    capsStatus = in.get<nnrt_status>();
    capsReason = in.getString();
    caps.relaxed_float32_to_float16_scalar = in.get<nnrt_perf_info>();
    caps.relaxed_float32_to_float16_tensor = in.get<nnrt_perf_info>();
    caps.if_performance = in.get<nnrt_perf_info>();
    caps.while_performance = in.get<nnrt_perf_info>();
    performance = in.getArray<nnrt_operand_performance>();
    caps.operand_performance = performance.data();
    caps.operand_performance_count = static_cast<uint32_t>(performance.size());
    extensionsStatus = in.get<nnrt_status>();
    extensionsReason = in.getString();
    const uint32_t count = in.get<uint32_t>();
    for (uint32_t e = 0; e < count && in.ok(); ++e) {
      std::optional<std::string> extensionName = in.getOptionalString();
      auto& types = extensionTypes.emplace_back(in.getArray<nnrt_extension_operand_type>());
      const char* text =
          extensionName ? extensionNames.emplace_back(std::move(*extensionName)).c_str() : nullptr;
      extensions.push_back({text, types.data(), static_cast<uint32_t>(types.size())});
    }
    cacheStatus = in.get<nnrt_status>();
    cacheReason = in.getString();
    modelFiles = in.get<uint32_t>();
    dataFiles = in.get<uint32_t>();
    hasTable = in.get<uint8_t>() != 0;
    if (hasTable) {
      tableStatus = in.get<nnrt_status>();
      tableReason = in.getString();
      table = in.getArray<nnrt_operation_support>();
    }
    return in.ok();
  }
};

// One execution arena: a memfd block the host maps once (sent with the first execution that uses
// it, and again when it grows).
struct Arena {
  uint32_t id = 0;
  wire::SharedMemory block;
  bool sent = false;
};

struct RemotePrepared {
  class RemoteDriver* driver = nullptr;
  uint64_t id = 0;          // the host's handle
  uint64_t generation = 0;  // of the host that prepared it
  std::mutex mutex;
  std::vector<std::unique_ptr<Arena>> idle;
  uint32_t arenas = 0;
  // Held by the runtime until release_prepared_model, and by each execution in a call on it: an
  // execution the runtime abandoned (its host is then killed) may end after the release.
  std::atomic<int> holders{1};

  void hold() { holders.fetch_add(1, std::memory_order_relaxed); }
  void drop() {
    if (holders.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  std::unique_ptr<Arena> takeArena() {
    std::lock_guard lock(mutex);
    if (!idle.empty()) {
      std::unique_ptr<Arena> a = std::move(idle.back());
      idle.pop_back();
      return a;
    }
    auto a = std::make_unique<Arena>();
    a->id = ++arenas;
    return a;
  }
  void giveArena(std::unique_ptr<Arena> a) {
    std::lock_guard lock(mutex);
    idle.push_back(std::move(a));
  }
};

// An output to copy back from the arena after the reply.
struct OutputCopy {
  uint8_t* to;
  uint64_t from;
  uint32_t length;
};

class RemoteDriver : public HostConnection {
 public:
  using HostConnection::HostConnection;
  ~RemoteDriver() override { stop(); }

  const nnrt_driver_api* table() const { return &table_; }
  const std::string& pluginName() const { return pluginName_; }
  std::vector<std::unique_ptr<RemoteDevice>>& devices() { return devices_; }

 private:
  std::string accept(Reader& in) override {
    std::string name = in.getString();
    std::string version = in.getString();
    const uint32_t count = in.get<uint32_t>();
    std::vector<std::unique_ptr<RemoteDevice>> devices;
    for (uint32_t i = 0; i < count && in.ok() && i < 4096; ++i) {
      auto d = std::make_unique<RemoteDevice>();
      d->driver = this;
      d->index = i;
      if (!d->read(in)) break;
      devices.push_back(std::move(d));
    }
    if (!in.ok() || devices.size() != count) return "the driver host's answer is malformed";

    if (pluginName_.empty()) {
      pluginName_ = std::move(name);
      pluginVersion_ = std::move(version);
      devices_ = std::move(devices);
      buildTable();
    } else {
      // A restarted host must offer what the runtime already knows.
      bool same = devices.size() == devices_.size();
      for (size_t i = 0; same && i < devices.size(); ++i) {
        same = devices[i]->present == devices_[i]->present && devices[i]->name == devices_[i]->name;
      }
      if (!same) return "the restarted plugin offers other devices than before";
    }
    return {};
  }

  void buildTable();

  std::string pluginVersion_;
  std::vector<std::unique_ptr<RemoteDevice>> devices_;
  nnrt_driver_api table_{};
};

// ---- The proxy table -----------------------------------------------------------------------------

RemoteDriver& driverOf(const nnrt_plugin* plugin) {
  return *reinterpret_cast<RemoteDriver*>(const_cast<nnrt_plugin*>(plugin));
}
const RemoteDevice& deviceOf(const nnrt_device* device) {
  return *reinterpret_cast<const RemoteDevice*>(device);
}
RemotePrepared& preparedOf(nnrt_prepared_model* prepared) {
  return *reinterpret_cast<RemotePrepared*>(prepared);
}

nnrt_status proxyOpen(const nnrt_option*, uint32_t, nnrt_plugin**, nnrt_reason* reason) {
  setReason(reason, "a remote driver is opened by its host");
  return NNRT_STATUS_GENERAL_FAILURE;
}
void proxyClose(nnrt_plugin* plugin) {
  driverOf(plugin).stop();
}
uint32_t proxyDeviceCount(const nnrt_plugin* plugin) {
  return static_cast<uint32_t>(driverOf(plugin).devices().size());
}
nnrt_device* proxyDeviceAt(const nnrt_plugin* plugin, uint32_t index) {
  auto& devices = driverOf(plugin).devices();
  if (index >= devices.size() || !devices[index]->present) return nullptr;
  return reinterpret_cast<nnrt_device*>(devices[index].get());
}
const char* proxyName(const nnrt_device* d) {
  const auto& name = deviceOf(d).name;
  return name ? name->c_str() : nullptr;
}
const char* proxyVersion(const nnrt_device* d) {
  const auto& version = deviceOf(d).version;
  return version ? version->c_str() : nullptr;
}
int32_t proxyType(const nnrt_device* d) {
  return deviceOf(d).type;
}
int64_t proxyFeatureLevel(const nnrt_device* d) {
  return deviceOf(d).featureLevel;
}

int32_t proxyStatus(const nnrt_device* d) {
  const RemoteDevice& device = deviceOf(d);
  int32_t status = NNRT_DEVICE_STATUS_OFFLINE;
  Writer message;
  message.begin(Kind::GetStatus, 0);
  message.put(device.index);
  if (!device.driver->call(message, {}, [&](Reader& in) { status = in.get<int32_t>(); })) {
    return NNRT_DEVICE_STATUS_OFFLINE;
  }
  return status;
}

nnrt_status proxyCapabilities(const nnrt_device* d, nnrt_capabilities* caps, nnrt_reason* reason) {
  const RemoteDevice& device = deviceOf(d);
  if (device.capsStatus != NNRT_STATUS_NONE) {
    setReason(reason, device.capsReason);
    return device.capsStatus;
  }
  *caps = device.caps;
  return NNRT_STATUS_NONE;
}

nnrt_status proxyExtensions(const nnrt_device* d, const nnrt_extension** extensions, uint32_t* count,
                            nnrt_reason* reason) {
  const RemoteDevice& device = deviceOf(d);
  if (device.extensionsStatus != NNRT_STATUS_NONE) {
    setReason(reason, device.extensionsReason);
    return device.extensionsStatus;
  }
  *extensions = device.extensions.data();
  *count = static_cast<uint32_t>(device.extensions.size());
  return NNRT_STATUS_NONE;
}

nnrt_status proxyCacheFiles(const nnrt_device* d, uint32_t* modelFiles, uint32_t* dataFiles,
                            nnrt_reason* reason) {
  const RemoteDevice& device = deviceOf(d);
  if (device.cacheStatus != NNRT_STATUS_NONE) {
    setReason(reason, device.cacheReason);
    return device.cacheStatus;
  }
  *modelFiles = device.modelFiles;
  *dataFiles = device.dataFiles;
  return NNRT_STATUS_NONE;
}

nnrt_status proxyOperationTable(const nnrt_device* d, const nnrt_operation_support** table, uint32_t* count,
                                nnrt_reason* reason) {
  const RemoteDevice& device = deviceOf(d);
  if (device.tableStatus != NNRT_STATUS_NONE) {
    setReason(reason, device.tableReason);
    return device.tableStatus;
  }
  *table = device.table.data();
  *count = static_cast<uint32_t>(device.table.size());
  return NNRT_STATUS_NONE;
}

// The model's pools copied into one memfd block, laid out as the wire says; no block without pools.
std::optional<wire::SharedMemory> poolBlock(const nnrt_model& model, bool& ok) {
  ok = true;
  if (model.pool_count == 0) return std::nullopt;
  wire::PoolLayout layout = wire::poolLayout(model);
  auto block = wire::SharedMemory::create("nnrt-model-pools", layout.totalSize);
  if (!block) {
    ok = false;
    return std::nullopt;
  }
  for (uint32_t i = 0; i < model.pool_count; ++i) {
    if (model.pools[i].size > 0)
      std::memcpy(block->data() + layout.offsets[i], model.pools[i].host, model.pools[i].size);
  }
  return block;
}

nnrt_status proxySupported(const nnrt_device* d, const nnrt_model* model, uint8_t* supported,
                           nnrt_explain_callback explain, void* explainContext, nnrt_reason* reason) {
  const RemoteDevice& device = deviceOf(d);
  bool ok = true;
  std::optional<wire::SharedMemory> pools = poolBlock(*model, ok);
  if (!ok) {
    setReason(reason, "cannot make shared memory for the model's constants");
    return NNRT_STATUS_RESOURCE_EXHAUSTED_TRANSIENT;
  }
  Writer message;
  message.begin(Kind::GetSupported, 0);
  message.put(device.index);
  message.put<uint8_t>(pools.has_value());
  wire::writeModel(message, *model);
  const int fds[1] = {pools ? pools->fd() : -1};
  nnrt_status status = NNRT_STATUS_GENERAL_FAILURE;
  std::string why;
  std::vector<uint8_t> flags;
  std::vector<std::pair<uint32_t, std::string>> explained;
  auto read = [&](Reader& in) {
    status = in.get<nnrt_status>();
    why = in.getString();
    flags = in.getArray<uint8_t>();
    const uint32_t count = in.get<uint32_t>();
    for (uint32_t i = 0; i < count && in.ok(); ++i) {
      const uint32_t index = in.get<uint32_t>();
      explained.emplace_back(index, in.getString());
    }
    if (!in.ok()) {
      status = NNRT_STATUS_GENERAL_FAILURE;
      why = "the driver host's answer is malformed";
    }
  };
  if (!device.driver->call(message, std::span<const int>(fds, pools ? 1 : 0), read)) {
    setReason(reason, device.driver->goneReason());
    return NNRT_STATUS_DEVICE_UNAVAILABLE;
  }
  if (status != NNRT_STATUS_NONE) {
    setReason(reason, why);
    return status;
  }
  if (flags.size() != model->main.operation_count) {
    setReason(reason, "the driver host answered for " + std::to_string(flags.size()) + " operations of " +
                          std::to_string(model->main.operation_count));
    return NNRT_STATUS_GENERAL_FAILURE;
  }
  std::copy(flags.begin(), flags.end(), supported);
  if (explain != nullptr) {
    for (const auto& [index, text] : explained)
      explain(explainContext, index, text.c_str());
  }
  return NNRT_STATUS_NONE;
}

// Sends a preparation; the reply (or the host's end) calls the runtime back.
nnrt_status sendPrepare(const RemoteDevice& device, Kind kind, const nnrt_model* model, int32_t preference,
                        int32_t priority, uint64_t deadline, const int* modelFds, uint32_t modelCount,
                        const int* dataFds, uint32_t dataCount, const uint8_t* token,
                        nnrt_prepare_callback callback, void* context, nnrt_reason* reason) {
  RemoteDriver& driver = *device.driver;
  bool ok = true;
  std::optional<wire::SharedMemory> pools = model != nullptr ? poolBlock(*model, ok) : std::nullopt;
  if (!ok || modelCount > NNRT_MAX_CACHE_FILES || dataCount > NNRT_MAX_CACHE_FILES) {
    const char* why = ok ? "too many cache files" : "cannot make shared memory for the model's constants";
    setReason(reason, why);
    callback(context, NNRT_STATUS_GENERAL_FAILURE, nullptr, why);
    return NNRT_STATUS_GENERAL_FAILURE;
  }
  Writer message;
  message.begin(kind, 0);
  message.put(device.index);
  message.put(preference);
  message.put(priority);
  message.put(deadline);
  message.put(modelCount);
  message.put(dataCount);
  message.put<uint8_t>(token != nullptr);
  for (uint32_t i = 0; i < NNRT_CACHE_TOKEN_SIZE; ++i)
    message.put<uint8_t>(token != nullptr ? token[i] : 0);
  if (kind == Kind::Prepare) {
    message.put<uint8_t>(pools.has_value());
    wire::writeModel(message, *model);
  }
  std::vector<int> fds;
  if (pools) fds.push_back(pools->fd());
  fds.insert(fds.end(), modelFds, modelFds + modelCount);
  fds.insert(fds.end(), dataFds, dataFds + dataCount);
  const uint64_t generation = driver.generation();
  driver.send(
      message, fds,
      [&driver, generation, callback, context](Reader& in) {
        nnrt_status status = in.get<nnrt_status>();
        std::string why = in.getString();
        const uint64_t id = in.get<uint64_t>();
        RemotePrepared* prepared = nullptr;
        if (in.ok() && id != 0) {
          prepared = new RemotePrepared();
          prepared->driver = &driver;
          prepared->id = id;
          prepared->generation = generation;
        }
        if (!in.ok()) {
          status = NNRT_STATUS_GENERAL_FAILURE;
          why = "the driver host's answer is malformed";
        }
        callback(context, status, reinterpret_cast<nnrt_prepared_model*>(prepared), why.c_str());
      },
      [&driver, callback, context] {
        callback(context, NNRT_STATUS_DEVICE_UNAVAILABLE, nullptr, driver.goneReason().c_str());
      },
      generation);
  return NNRT_STATUS_NONE;
}

nnrt_status proxyPrepare(const nnrt_device* d, const nnrt_model* model, int32_t preference, int32_t priority,
                         uint64_t deadline, const int* modelFds, uint32_t modelCount, const int* dataFds,
                         uint32_t dataCount, const uint8_t* token, nnrt_prepare_callback callback,
                         void* context, nnrt_reason* reason) {
  return sendPrepare(deviceOf(d), Kind::Prepare, model, preference, priority, deadline, modelFds, modelCount,
                     dataFds, dataCount, token, callback, context, reason);
}

nnrt_status proxyPrepareFromCache(const nnrt_device* d, uint64_t deadline, const int* modelFds,
                                  uint32_t modelCount, const int* dataFds, uint32_t dataCount,
                                  const uint8_t* token, nnrt_prepare_callback callback, void* context,
                                  nnrt_reason* reason) {
  return sendPrepare(deviceOf(d), Kind::PrepareFromCache, nullptr, 0, 0, deadline, modelFds, modelCount,
                     dataFds, dataCount, token, callback, context, reason);
}

void proxyRelease(nnrt_prepared_model* p) {
  RemotePrepared* prepared = &preparedOf(p);
  Writer message;
  message.begin(Kind::Release, 0);
  message.put(prepared->id);
  // A model of a host that is gone needs no release.
  prepared->driver->send(
      message, {}, [](Reader&) {}, [] {}, prepared->generation);
  prepared->drop();
}

// Copies a request's inputs into `arena` (grown when too small) and writes the execution message;
// `outputs` gets where each output's bytes go back. False (with the reason) for a request this
// proxy cannot carry.
bool stage(RemotePrepared& prepared, Arena& arena, Kind kind, const nnrt_request& request, uint8_t measure,
           uint64_t deadline, uint64_t loopTimeout, Writer& message, std::vector<OutputCopy>& outputs,
           nnrt_reason* reason) {
  thread_local std::vector<nnrt_request_argument> arguments;
  arguments.assign(request.inputs, request.inputs + request.input_count);
  arguments.insert(arguments.end(), request.outputs, request.outputs + request.output_count);
  uint64_t size = 0;
  for (nnrt_request_argument& a : arguments) {
    if (a.has_no_value != 0) continue;
    const nnrt_data_location& l = a.location;
    if (l.pool_index >= request.pool_count || request.pools[l.pool_index].kind != NNRT_POOL_HOST ||
        l.offset > request.pools[l.pool_index].size ||
        l.length > request.pools[l.pool_index].size - l.offset) {
      setReason(
          reason,
          "a request argument lies outside its pool or in a driver buffer (not offered out of process)");
      return false;
    }
    size = alignUp(size) + l.length;
  }
  if (arena.block.size() < size) {
    auto block =
        wire::SharedMemory::create("nnrt-execution-arena", std::max<uint64_t>(size, arena.block.size() * 2));
    if (!block) {
      setReason(reason, "cannot make shared memory for the execution's tensors");
      return false;
    }
    arena.block = std::move(*block);
    arena.sent = false;
  }
  outputs.clear();
  uint64_t at = 0;
  for (uint32_t i = 0; i < arguments.size(); ++i) {
    nnrt_request_argument& a = arguments[i];
    if (a.has_no_value != 0) continue;
    at = alignUp(at);
    auto* bytes = static_cast<uint8_t*>(request.pools[a.location.pool_index].host) + a.location.offset;
    if (i < request.input_count) {
      std::memcpy(arena.block.data() + at, bytes, a.location.length);
    } else {
      outputs.push_back({bytes, at, a.location.length});
    }
    a.location = {0, static_cast<uint32_t>(at), a.location.length};
    at += a.location.length;
  }
  const nnrt_request view{arguments.data(),
                          request.input_count,
                          arguments.data() + request.input_count,
                          request.output_count,
                          nullptr,
                          0};
  message.begin(kind, 0);
  message.put(prepared.id);
  message.put(arena.id);
  message.put(measure);
  message.put(deadline);
  message.put(loopTimeout);
  wire::writeRequest(message, view);
  return true;
}

void copyOutputs(const Arena& arena, const std::vector<OutputCopy>& outputs) {
  for (const OutputCopy& o : outputs)
    std::memcpy(o.to, arena.block.data() + o.from, o.length);
}

nnrt_status proxyExecuteSync(nnrt_prepared_model* p, const nnrt_request* request, uint8_t measure,
                             uint64_t deadline, uint64_t loopTimeout, nnrt_output_shape* shapes,
                             uint32_t shapeCount, nnrt_timing* timing, nnrt_reason* reason) {
  RemotePrepared& prepared = preparedOf(p);
  RemoteDriver& driver = *prepared.driver;
  *timing = {UINT64_MAX, UINT64_MAX};
  if (!driver.connected(prepared.generation)) {
    setReason(reason, driver.goneReason());
    return NNRT_STATUS_DEVICE_UNAVAILABLE;
  }
  prepared.hold();
  struct Drop {
    RemotePrepared& prepared;
    ~Drop() { prepared.drop(); }
  } drop{prepared};
  std::unique_ptr<Arena> arena = prepared.takeArena();
  thread_local Writer message;
  thread_local std::vector<OutputCopy> outputs;
  thread_local wire::ExecutionReply replyHere;
  wire::ExecutionReply& reply = replyHere;  // the reader thread fills this thread's reply
  if (!stage(prepared, *arena, Kind::ExecuteSync, *request, measure, deadline, loopTimeout, message, outputs,
             reason)) {
    prepared.giveArena(std::move(arena));
    return NNRT_STATUS_GENERAL_FAILURE;
  }
  bool readOk = false;
  auto read = [&](Reader& in) { readOk = wire::readExecutionReply(in, reply); };
  // Through the doorbell once the host has the arena; over the socket the first time (with the
  // arena's memfd), or when another call holds the doorbell.
  HostConnection::Rung rung = HostConnection::Rung::Busy;
  if (arena->sent)
    rung = driver.ring(message, wire::maxExecutionReply(request->output_count), prepared.generation, read);
  bool answered = rung == HostConnection::Rung::Answered;
  if (rung == HostConnection::Rung::Busy) {
    const int fds[1] = {arena->block.fd()};
    answered =
        driver.call(message, std::span<const int>(fds, arena->sent ? 0 : 1), read, prepared.generation);
  }
  if (answered && !arena->sent) {
    arena->sent = true;
    arena->block.closeFd();  // the host has its own
  }
  nnrt_status status = NNRT_STATUS_DEVICE_UNAVAILABLE;
  if (!answered) {
    setReason(reason, driver.goneReason());
  } else if (!readOk) {
    status = NNRT_STATUS_GENERAL_FAILURE;
    setReason(reason, "the driver host's answer is malformed");
  } else {
    status = reply.status;
    if (status == NNRT_STATUS_NONE) copyOutputs(*arena, outputs);
    std::copy_n(reply.shapes.begin(), std::min<size_t>(reply.shapes.size(), shapeCount), shapes);
    if ((status == NNRT_STATUS_NONE || status == NNRT_STATUS_OUTPUT_INSUFFICIENT_SIZE) &&
        reply.shapes.size() != shapeCount) {
      status = NNRT_STATUS_GENERAL_FAILURE;
      reply.reason = "the driver reported " + std::to_string(reply.shapes.size()) + " output shapes for " +
                     std::to_string(shapeCount) + " outputs";
    }
    *timing = reply.timing;
    if (status != NNRT_STATUS_NONE) setReason(reason, reply.reason);
  }
  prepared.giveArena(std::move(arena));
  return status;
}

nnrt_status proxyExecute(nnrt_prepared_model* p, const nnrt_request* request, uint8_t measure,
                         uint64_t deadline, uint64_t loopTimeout, nnrt_execute_callback callback,
                         void* context, nnrt_reason* reason) {
  RemotePrepared& prepared = preparedOf(p);
  RemoteDriver& driver = *prepared.driver;
  const nnrt_timing none{UINT64_MAX, UINT64_MAX};
  if (!driver.connected(prepared.generation)) {
    setReason(reason, driver.goneReason());
    callback(context, NNRT_STATUS_DEVICE_UNAVAILABLE, nullptr, 0, none, driver.goneReason().c_str());
    return NNRT_STATUS_DEVICE_UNAVAILABLE;
  }
  struct Launch {
    RemotePrepared* prepared;
    std::unique_ptr<Arena> arena;
    std::vector<OutputCopy> outputs;
    nnrt_execute_callback callback;
    void* context;
  };
  prepared.hold();  // until the callback
  auto launch = std::make_shared<Launch>(Launch{&prepared, prepared.takeArena(), {}, callback, context});
  Writer message;
  if (!stage(prepared, *launch->arena, Kind::Execute, *request, measure, deadline, loopTimeout, message,
             launch->outputs, reason)) {
    prepared.giveArena(std::move(launch->arena));
    callback(context, NNRT_STATUS_GENERAL_FAILURE, nullptr, 0, none,
             "the request cannot be sent to the driver host");
    prepared.drop();
    return NNRT_STATUS_GENERAL_FAILURE;
  }
  const int fds[1] = {launch->arena->block.fd()};
  const bool sendFd = !launch->arena->sent;
  launch->arena->sent = true;  // a lost host takes the prepared model with it
  driver.send(
      message, std::span<const int>(fds, sendFd ? 1 : 0),
      [launch](Reader& in) {
        wire::ExecutionReply reply;
        if (!wire::readExecutionReply(in, reply)) {
          reply.status = NNRT_STATUS_GENERAL_FAILURE;
          reply.reason = "the driver host's answer is malformed";
        }
        if (reply.status == NNRT_STATUS_NONE) copyOutputs(*launch->arena, launch->outputs);
        // The arena goes back before the callback: the runtime may release the model after it.
        launch->prepared->giveArena(std::move(launch->arena));
        launch->callback(launch->context, reply.status, reply.shapes.empty() ? nullptr : reply.shapes.data(),
                         static_cast<uint32_t>(reply.shapes.size()), reply.timing, reply.reason.c_str());
        launch->prepared->drop();
      },
      [launch, &driver, none] {
        launch->prepared->giveArena(std::move(launch->arena));
        launch->callback(launch->context, NNRT_STATUS_DEVICE_UNAVAILABLE, nullptr, 0, none,
                         driver.goneReason().c_str());
        launch->prepared->drop();
      },
      prepared.generation);
  return NNRT_STATUS_NONE;
}

void RemoteDriver::buildTable() {
  table_.abi_major = NNRT_DRIVER_ABI_MAJOR;
  table_.abi_minor = NNRT_DRIVER_ABI_MINOR;
  table_.struct_size = sizeof(nnrt_driver_api);
  table_.plugin_name = pluginName_.c_str();
  table_.plugin_version = pluginVersion_.c_str();
  table_.open = &proxyOpen;
  table_.close = &proxyClose;
  table_.device_count = &proxyDeviceCount;
  table_.device_at = &proxyDeviceAt;
  table_.get_name = &proxyName;
  table_.get_version_string = &proxyVersion;
  table_.get_type = &proxyType;
  table_.get_feature_level = &proxyFeatureLevel;
  table_.get_status = &proxyStatus;
  table_.get_capabilities_1_3 = &proxyCapabilities;
  table_.get_supported_extensions = &proxyExtensions;
  table_.get_supported_operations_1_3 = &proxySupported;
  table_.get_number_of_cache_files_needed = &proxyCacheFiles;
  table_.prepare_model_1_3 = &proxyPrepare;
  table_.prepare_model_from_cache_1_3 = &proxyPrepareFromCache;
  table_.release_prepared_model = &proxyRelease;
  table_.execute_synchronously_1_3 = &proxyExecuteSync;
  table_.execute_1_3 = &proxyExecute;
  // Fenced execution, driver-managed buffers, memory preference and bursts: not offered.
  table_.get_operation_table = &proxyOperationTable;
}

}  // namespace

Result<std::shared_ptr<DriverLibrary>> loadRemoteDriver(
    const std::filesystem::path& hostProgram, const std::filesystem::path& pluginPath,
    const std::vector<std::pair<std::string, std::string>>& options, std::chrono::microseconds spin) {
  auto remote = std::make_shared<RemoteDriver>(hostProgram, pluginPath, options, spin);
  NNRT_RETURN_IF_ERROR(remote->startFirst());
  std::weak_ptr<RemoteDriver> weak = remote;
  auto* plugin = reinterpret_cast<nnrt_plugin*>(remote.get());
  const nnrt_driver_api* table = remote->table();
  return DriverLibrary::fromTable(pluginPath, table, plugin, remote, [weak](const std::string& why) {
    if (auto r = weak.lock()) r->restartHost(why);
  });
}

}  // namespace nnrt
