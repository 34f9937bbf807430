// The nnrt driver SDK: write a plugin as C++ classes, export it with one macro.
//
//   class MyDevice : public nnrt::driver::Device { ... };
//   nnrt::driver::Result<nnrt::driver::DeviceList> openMyPlugin(const nnrt::driver::Options& options);
//   NNRT_DRIVER_EXPORT("my_plugin", "1.0.0", openMyPlugin)
//
// The macro generates the C table of nnrt_driver.h. Every generated entry point catches every
// exception, so none crosses the boundary: a call with a status returns GENERAL_FAILURE with the
// exception's message as the reason (a callback it owes fires with the same); a getter without one
// returns a value the runtime refuses, so that it skips the device, naming it: get_name and
// get_version_string NULL, get_type and get_feature_level 0, get_status UNKNOWN (device_count and
// device_at run no plugin code). Methods keep the HAL 1.3 names. Header-only; standard library only.
#pragma once

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <poll.h>

#include "nnrt/driver/nnrt_driver.h"
#include "nnrt/driver/types.hpp"

namespace nnrt::driver {

// ---- Values the SDK methods exchange ----------------------------------------------------------

struct Capabilities {
  nnrt_perf_info relaxedFloat32toFloat16PerformanceScalar{1.0f, 1.0f};
  nnrt_perf_info relaxedFloat32toFloat16PerformanceTensor{1.0f, 1.0f};
  std::vector<nnrt_operand_performance> operandPerformance;  // kept sorted by type by the SDK
  nnrt_perf_info ifPerformance{1.0f, 1.0f};
  nnrt_perf_info whilePerformance{1.0f, 1.0f};
};

struct ExtensionOperandType {
  uint16_t type;
  bool isTensor;
  uint32_t byteSize;
};
struct Extension {
  std::string name;
  std::vector<ExtensionOperandType> operandTypes;
};

struct OutputShape {
  std::vector<uint32_t> dimensions;
  bool isSufficient = true;
};
struct Timing {
  uint64_t timeOnDevice = UINT64_MAX;  // microseconds
  uint64_t timeInDriver = UINT64_MAX;
};
// What an execution produced. status is NONE or OUTPUT_INSUFFICIENT_SIZE (then outputShapes says
// which outputs were too small and what they need); other failures are returned as Error.
struct ExecutionResult {
  ErrorStatus status = ErrorStatus::NONE;
  std::vector<OutputShape> outputShapes;
  Timing timing;
};

struct ExecuteOptions {
  bool measureTiming = false;
  uint64_t deadlineNs = 0;     // absolute CLOCK_MONOTONIC, 0 = none
  uint64_t loopTimeoutNs = 0;  // 0 = the default (2 s)
};

struct PrepareOptions {
  int32_t preference = NNRT_PREFER_FAST_SINGLE_ANSWER;
  int32_t priority = NNRT_PRIORITY_MEDIUM;
  uint64_t deadlineNs = 0;
};

// Cache files given to prepareModel_1_3 / prepareModelFromCache_1_3 (fds owned by the host).
struct CacheFiles {
  std::span<const int> modelCache;
  std::span<const int> dataCache;
  std::span<const uint8_t> token;  // NNRT_CACHE_TOKEN_SIZE bytes, or empty when caching is off
};
struct CacheFileCounts {
  uint32_t modelCache = 0;
  uint32_t dataCache = 0;
};

// ABI 1.1: what a driver-managed buffer holds (Device::allocate). Unknown dimensions are 0; an empty
// list is an unknown rank (or a scalar).
struct BufferDesc {
  int32_t type = 0;  // NNAPI OperandCode of the operands of every role
  float scale = 0.0f;
  int32_t zeroPoint = 0;
  std::vector<uint32_t> dimensions;
};

// Receives, for an unsupported operation, the reason it is unsupported.
using Explainer = std::function<void(uint32_t operationIndex, const std::string& reason)>;

// Plugin options from runtime.yaml. Every key a plugin does not consume is an error it reports.
class Options {
 public:
  Options() = default;
  explicit Options(std::map<std::string, std::string> values) : values_(std::move(values)) {}
  std::optional<std::string> get(const std::string& key) const {
    used_.insert(key);
    auto it = values_.find(key);
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }
  std::string get(const std::string& key, const std::string& fallback) const { return get(key).value_or(fallback); }
  // Fails naming the first key that no get() asked about.
  Result<void> checkAllUsed() const {
    for (const auto& [key, value] : values_) {
      if (!used_.contains(key)) return invalidArgument("unknown plugin option '" + key + "'");
    }
    return {};
  }

 private:
  std::map<std::string, std::string> values_;
  mutable std::set<std::string> used_;
};

// ---- What a plugin implements -----------------------------------------------------------------

// ABI 1.1: a driver's state for a sequence of executions of one prepared model (a burst). The
// runtime runs one execution at a time on a burst, so its state needs no lock.
class Burst {
 public:
  virtual ~Burst() = default;
  virtual Result<ExecutionResult> execute(const Request& request, const ExecuteOptions& options) = 0;
};

// A prepared model. Every method may be called from several threads at once.
class PreparedModel {
 public:
  virtual ~PreparedModel() = default;

  // Runs the request to completion.
  virtual Result<ExecutionResult> executeSynchronously_1_3(const Request& request, const ExecuteOptions& options) = 0;

  // Launches the request and calls `done` exactly once when it ends. The request's buffers stay
  // valid until then. Default: runs executeSynchronously_1_3 in the caller's thread, then `done`.
  virtual void execute_1_3(const Request& request, const ExecuteOptions& options,
                           std::function<void(Result<ExecutionResult>)> done) {
    done(executeSynchronously_1_3(request, options));
  }

  // ABI 1.1: the state for a burst of executions, e.g. cached memory mappings. Default: a burst
  // that runs each execution with executeSynchronously_1_3.
  virtual Result<std::unique_ptr<Burst>> configureBurst();
};

// A Buffer in host memory, for drivers whose kernels read and write host bytes (the cpu, test
// drivers): the SDK's Request resolves NNRT_POOL_BUFFER arguments to its bytes, so such a driver
// runs requests with buffers unchanged. Its size is fixed at allocation.
class HostBuffer : public Buffer {
 public:
  explicit HostBuffer(size_t bytes) : bytes_(bytes) {}
  std::span<uint8_t> hostBytes() override { return bytes_; }
  Result<void> copyTo(std::span<uint8_t> dst) override {
    if (dst.size() != bytes_.size()) return sizeMismatch(dst.size());
    std::copy(bytes_.begin(), bytes_.end(), dst.begin());
    return {};
  }
  Result<void> copyFrom(std::span<const uint8_t> src, std::span<const uint32_t> /*dimensions*/) override {
    if (src.size() != bytes_.size()) return sizeMismatch(src.size());
    std::copy(src.begin(), src.end(), bytes_.begin());
    return {};
  }

 private:
  Unexpected<Error> sizeMismatch(size_t bytes) const {
    return invalidArgument("the buffer holds " + std::to_string(bytes_.size()) + " bytes, not " + std::to_string(bytes));
  }
  std::vector<uint8_t> bytes_;
};

namespace detail {
// The default burst: every execution goes to executeSynchronously_1_3.
class PlainBurst : public Burst {
 public:
  explicit PlainBurst(PreparedModel& prepared) : prepared_(prepared) {}
  Result<ExecutionResult> execute(const Request& request, const ExecuteOptions& options) override {
    return prepared_.executeSynchronously_1_3(request, options);
  }

 private:
  PreparedModel& prepared_;
};
}  // namespace detail

inline Result<std::unique_ptr<Burst>> PreparedModel::configureBurst() {
  return std::unique_ptr<Burst>(new detail::PlainBurst(*this));
}

// A device. Every method may be called from several threads at once; the object lives until the
// plugin is closed.
class Device {
 public:
  virtual ~Device() = default;

  virtual const std::string& getName() const = 0;
  virtual const std::string& getVersionString() const = 0;
  virtual DeviceType getType() const = 0;
  virtual int64_t getFeatureLevel() const { return kFeatureLevelHal13; }
  virtual DeviceStatus getStatus() const { return DeviceStatus::AVAILABLE; }

  // Must not change while the plugin is open.
  virtual const Capabilities& getCapabilities_1_3() const = 0;
  virtual const std::vector<Extension>& getSupportedExtensions() const {
    static const std::vector<Extension> kNone;
    return kNone;
  }
  // ABI 1.1: the (operation, input-0 type) pairs this device runs, sorted, for listings; empty when
  // the driver does not declare them. getSupportedOperations_1_3 stays the authority per model.
  virtual const std::vector<nnrt_operation_support>& getOperationTable() const {
    static const std::vector<nnrt_operation_support> kNone;
    return kNone;
  }
  // One flag per main-subgraph operation. Explain each operation left unsupported.
  virtual Result<std::vector<bool>> getSupportedOperations_1_3(const Model& model, const Explainer& explain) const = 0;
  virtual CacheFileCounts getNumberOfCacheFilesNeeded() const { return {}; }

  // Prepares a model. Copy what you need from `model` (pool bytes may be referenced, see
  // nnrt_model). When `cache` has files, write them before returning.
  virtual Result<std::unique_ptr<PreparedModel>> prepareModel_1_3(const Model& model, const PrepareOptions& options,
                                                                  const CacheFiles& cache) const = 0;
  virtual Result<std::unique_ptr<PreparedModel>> prepareModelFromCache_1_3(const PrepareOptions& /*options*/,
                                                                           const CacheFiles& /*cache*/) const {
    return generalFailure("this driver does not prepare models from cache");
  }

  // ABI 1.1: a buffer for one operand used in the given roles (nnrt_buffer_role.model_index indexes
  // `preparedModels`, all prepared by this device). Default: not offered, the runtime then uses
  // host memory.
  virtual Result<std::unique_ptr<Buffer>> allocate(const BufferDesc& /*desc*/,
                                                   std::span<PreparedModel* const> /*preparedModels*/,
                                                   std::span<const nnrt_buffer_role> /*inputRoles*/,
                                                   std::span<const nnrt_buffer_role> /*outputRoles*/) const {
    return generalFailure("this driver does not allocate buffers");
  }
  // ABI 1.1: the alignment and padding this device prefers for the application's buffers (powers
  // of two, at most 4096 each).
  virtual nnrt_memory_preference getMemoryPreference() const { return {64, 1}; }
};

using DeviceList = std::vector<std::unique_ptr<Device>>;
using PluginFactory = Result<DeviceList> (*)(const Options& options);

// ---- The C glue the export macro instantiates -------------------------------------------------

namespace detail {

inline void writeReason(nnrt_reason* reason, const std::string& text) {
  if (reason == nullptr) return;
  std::snprintf(reason->message, sizeof(reason->message), "%s", text.c_str());
}
inline nnrt_status toC(ErrorStatus s) { return static_cast<nnrt_status>(s); }

// Runs `body`, turning an exception into GENERAL_FAILURE. Returns the status `body` returned.
template <class F>
nnrt_status guarded(nnrt_reason* reason, F&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    writeReason(reason, std::string("driver threw: ") + e.what());
  } catch (...) {
    writeReason(reason, "driver threw a non-standard exception");
  }
  return NNRT_STATUS_GENERAL_FAILURE;
}

// Runs `body`, turning an exception into `onThrow`: for the entry points without a status.
template <class T, class F>
T guardedValue(T onThrow, F&& body) {
  try {
    return body();
  } catch (...) {
    return onThrow;
  }
}

struct DeviceHandle {
  std::unique_ptr<Device> impl;
  // C copies of the tables, built on first request and kept until close.
  std::once_flag capabilitiesOnce;
  nnrt_capabilities capabilities{};
  std::vector<nnrt_operand_performance> performance;
  std::once_flag extensionsOnce;
  std::vector<nnrt_extension> extensions;
  std::vector<std::vector<nnrt_extension_operand_type>> extensionTypes;
};
struct PluginHandle {
  std::vector<std::unique_ptr<DeviceHandle>> devices;
};
struct PreparedHandle {
  std::unique_ptr<PreparedModel> impl;
  // The main subgraph's output shapes as the model declares them (0 = unknown dimension, nullopt =
  // unknown rank); empty after a preparation from cache. See knownOutputShapes.
  std::vector<std::optional<std::vector<uint32_t>>> declaredOutputs;
};
struct BurstHandle {
  std::unique_ptr<Burst> impl;
  const PreparedHandle* prepared;  // released after its bursts
};
struct FencedHandle {
  nnrt_status status = NNRT_STATUS_NONE;
  nnrt_timing launched{UINT64_MAX, UINT64_MAX};
  nnrt_timing fenced{UINT64_MAX, UINT64_MAX};
  std::string reason;
};

inline DeviceHandle* device(const nnrt_device* d) {
  return reinterpret_cast<DeviceHandle*>(const_cast<nnrt_device*>(d));
}
inline nnrt_timing toC(const Timing& t) { return {t.timeOnDevice, t.timeInDriver}; }

inline std::vector<std::optional<std::vector<uint32_t>>> declaredOutputShapes(const nnrt_model& model) {
  std::vector<std::optional<std::vector<uint32_t>>> shapes;
  for (uint32_t i = 0; i < model.main.output_count; ++i) {
    const nnrt_operand& o = model.main.operands[model.main.output_indexes[i]];
    auto t = static_cast<OperandType>(o.type);
    bool scalar = t == OperandType::FLOAT32 || t == OperandType::INT32 || t == OperandType::UINT32 ||
                  t == OperandType::BOOL || t == OperandType::FLOAT16;
    if (o.rank == 0 && !scalar) {
      shapes.emplace_back(std::nullopt);
    } else {
      shapes.emplace_back(std::vector<uint32_t>(o.dimensions, o.dimensions + o.rank));
    }
  }
  return shapes;
}

// What an execution's outputs are known to be before it runs: the request's dimensions, else the
// model's. The SDK reports these for a driver that leaves ExecutionResult::outputShapes empty.
inline std::vector<std::optional<std::vector<uint32_t>>> knownOutputShapes(const PreparedHandle& handle,
                                                                           const nnrt_request& request) {
  std::vector<std::optional<std::vector<uint32_t>>> known(request.output_count);
  for (uint32_t i = 0; i < request.output_count; ++i) {
    const nnrt_request_argument& a = request.outputs[i];
    if (a.rank > 0) {
      known[i] = std::vector<uint32_t>(a.dimensions, a.dimensions + a.rank);
    } else if (i < handle.declaredOutputs.size()) {
      known[i] = handle.declaredOutputs[i];
    }
  }
  return known;
}

// Copies shapes into the caller's array. A rank above NNRT_MAX_RANK is reported with its true rank
// and its first NNRT_MAX_RANK dimensions; the runtime then relies on the dimensions it knows. A
// driver that reports no shapes gets the known ones (`known`), when every one is fully known.
inline Result<void> fillShapes(const std::vector<OutputShape>& reported, nnrt_output_shape* to, uint32_t count,
                               const std::vector<std::optional<std::vector<uint32_t>>>& known) {
  std::vector<OutputShape> filled;
  if (reported.empty() && count > 0) {
    for (uint32_t i = 0; i < count; ++i) {
      bool full = i < known.size() && known[i] &&
                  std::find(known[i]->begin(), known[i]->end(), 0u) == known[i]->end();
      if (!full) {
        return generalFailure("the driver reported no output shapes, and output " + std::to_string(i) +
                              "'s shape is not fully known before execution: a driver must set "
                              "ExecutionResult::outputShapes for outputs of unknown shape");
      }
      filled.push_back({*known[i], true});
    }
  }
  const std::vector<OutputShape>& from = filled.empty() ? reported : filled;
  if (from.size() != count) {
    return generalFailure("driver reported " + std::to_string(from.size()) + " output shapes for " +
                          std::to_string(count) + " outputs");
  }
  for (uint32_t i = 0; i < count; ++i) {
    to[i] = nnrt_output_shape{};
    to[i].rank = static_cast<uint32_t>(from[i].dimensions.size());
    for (uint32_t d = 0; d < to[i].rank && d < NNRT_MAX_RANK; ++d) to[i].dimensions[d] = from[i].dimensions[d];
    to[i].is_sufficient = from[i].isSufficient ? 1 : 0;
  }
  return {};
}

template <const char* const* Name, const char* const* Version, PluginFactory Factory>
struct Glue {
  static nnrt_status open(const nnrt_option* options, uint32_t count, nnrt_plugin** plugin, nnrt_reason* reason) {
    return guarded(reason, [&]() -> nnrt_status {
      std::map<std::string, std::string> values;
      for (uint32_t i = 0; i < count; ++i) values[options[i].key] = options[i].value;
      Result<DeviceList> devices = Factory(Options(std::move(values)));
      if (!devices) {
        writeReason(reason, devices.error().message);
        return toC(devices.error().status);
      }
      auto handle = std::make_unique<PluginHandle>();
      for (auto& d : *devices) {
        auto h = std::make_unique<DeviceHandle>();
        h->impl = std::move(d);
        handle->devices.push_back(std::move(h));
      }
      *plugin = reinterpret_cast<nnrt_plugin*>(handle.release());
      return NNRT_STATUS_NONE;
    });
  }
  static void close(nnrt_plugin* plugin) {
    try {
      delete reinterpret_cast<PluginHandle*>(plugin);
    } catch (...) {
      // A destructor that throws cannot be reported through close(); nothing else to do.
    }
  }
  static uint32_t deviceCount(const nnrt_plugin* plugin) {
    return static_cast<uint32_t>(reinterpret_cast<const PluginHandle*>(plugin)->devices.size());
  }
  static nnrt_device* deviceAt(const nnrt_plugin* plugin, uint32_t index) {
    const auto* p = reinterpret_cast<const PluginHandle*>(plugin);
    if (index >= p->devices.size()) return nullptr;
    return reinterpret_cast<nnrt_device*>(p->devices[index].get());
  }
  static const char* getName(const nnrt_device* d) {
    return guardedValue<const char*>(nullptr, [d] { return device(d)->impl->getName().c_str(); });
  }
  static const char* getVersionString(const nnrt_device* d) {
    return guardedValue<const char*>(nullptr, [d] { return device(d)->impl->getVersionString().c_str(); });
  }
  static int32_t getType(const nnrt_device* d) {
    return guardedValue<int32_t>(0, [d] { return static_cast<int32_t>(device(d)->impl->getType()); });
  }
  static int64_t getFeatureLevel(const nnrt_device* d) {
    return guardedValue<int64_t>(0, [d] { return device(d)->impl->getFeatureLevel(); });
  }
  static int32_t getStatus(const nnrt_device* d) {
    return guardedValue<int32_t>(NNRT_DEVICE_STATUS_UNKNOWN,
                                 [d] { return static_cast<int32_t>(device(d)->impl->getStatus()); });
  }
  static nnrt_status getCapabilities(const nnrt_device* d, nnrt_capabilities* out, nnrt_reason* reason) {
    return guarded(reason, [&]() -> nnrt_status {
      DeviceHandle* h = device(d);
      std::call_once(h->capabilitiesOnce, [h] {
        const Capabilities& c = h->impl->getCapabilities_1_3();
        h->performance = c.operandPerformance;
        std::sort(h->performance.begin(), h->performance.end(),
                  [](const auto& a, const auto& b) { return a.type < b.type; });
        h->capabilities = nnrt_capabilities{c.relaxedFloat32toFloat16PerformanceScalar,
                                            c.relaxedFloat32toFloat16PerformanceTensor,
                                            h->performance.data(),
                                            static_cast<uint32_t>(h->performance.size()),
                                            c.ifPerformance,
                                            c.whilePerformance};
      });
      *out = h->capabilities;
      return NNRT_STATUS_NONE;
    });
  }
  static nnrt_status getExtensions(const nnrt_device* d, const nnrt_extension** out, uint32_t* count,
                                   nnrt_reason* reason) {
    return guarded(reason, [&]() -> nnrt_status {
      DeviceHandle* h = device(d);
      std::call_once(h->extensionsOnce, [h] {
        const std::vector<Extension>& list = h->impl->getSupportedExtensions();
        h->extensionTypes.resize(list.size());
        for (size_t i = 0; i < list.size(); ++i) {
          for (const auto& t : list[i].operandTypes) {
            h->extensionTypes[i].push_back({t.type, static_cast<uint8_t>(t.isTensor ? 1 : 0), t.byteSize});
          }
          h->extensions.push_back({list[i].name.c_str(), h->extensionTypes[i].data(),
                                   static_cast<uint32_t>(h->extensionTypes[i].size())});
        }
      });
      *out = h->extensions.data();
      *count = static_cast<uint32_t>(h->extensions.size());
      return NNRT_STATUS_NONE;
    });
  }
  static nnrt_status getOperationTable(const nnrt_device* d, const nnrt_operation_support** out, uint32_t* count,
                                       nnrt_reason* reason) {
    return guarded(reason, [&]() -> nnrt_status {
      const std::vector<nnrt_operation_support>& table = device(d)->impl->getOperationTable();
      *out = table.data();
      *count = static_cast<uint32_t>(table.size());
      return NNRT_STATUS_NONE;
    });
  }
  static nnrt_status getSupported(const nnrt_device* d, const nnrt_model* model, uint8_t* supported,
                                  nnrt_explain_callback explain, void* context, nnrt_reason* reason) {
    return guarded(reason, [&]() -> nnrt_status {
      Explainer explainer = [&](uint32_t index, const std::string& why) {
        if (explain != nullptr) explain(context, index, why.c_str());
      };
      Result<std::vector<bool>> result = device(d)->impl->getSupportedOperations_1_3(Model(*model), explainer);
      if (!result) {
        writeReason(reason, result.error().message);
        return toC(result.error().status);
      }
      if (result->size() != model->main.operation_count) {
        writeReason(reason, "driver answered for " + std::to_string(result->size()) + " operations, the model has " +
                                std::to_string(model->main.operation_count));
        return NNRT_STATUS_GENERAL_FAILURE;
      }
      for (size_t i = 0; i < result->size(); ++i) supported[i] = (*result)[i] ? 1 : 0;
      return NNRT_STATUS_NONE;
    });
  }
  static nnrt_status getCacheCounts(const nnrt_device* d, uint32_t* model, uint32_t* data, nnrt_reason* reason) {
    return guarded(reason, [&]() -> nnrt_status {
      CacheFileCounts counts = device(d)->impl->getNumberOfCacheFilesNeeded();
      *model = counts.modelCache;
      *data = counts.dataCache;
      return NNRT_STATUS_NONE;
    });
  }
  // Delivers a preparation result through the callback, exactly once, and returns its status.
  static nnrt_status deliver(Result<std::unique_ptr<PreparedModel>> result, nnrt_prepare_callback callback,
                             void* context, nnrt_reason* reason,
                             std::vector<std::optional<std::vector<uint32_t>>> declaredOutputs = {}) {
    if (!result) {
      writeReason(reason, result.error().message);
      callback(context, toC(result.error().status), nullptr, result.error().message.c_str());
      return toC(result.error().status);
    }
    auto* handle = new PreparedHandle{std::move(*result), std::move(declaredOutputs)};
    callback(context, NNRT_STATUS_NONE, reinterpret_cast<nnrt_prepared_model*>(handle), "");
    return NNRT_STATUS_NONE;
  }
  static nnrt_status failCallback(nnrt_status status, nnrt_prepare_callback callback, void* context,
                                  nnrt_reason* reason) {
    callback(context, status, nullptr, reason != nullptr ? reason->message : "driver failure");
    return status;
  }
  static nnrt_status prepare(const nnrt_device* d, const nnrt_model* model, int32_t preference, int32_t priority,
                             uint64_t deadline, const int* modelFds, uint32_t modelCount, const int* dataFds,
                             uint32_t dataCount, const uint8_t* token, nnrt_prepare_callback callback, void* context,
                             nnrt_reason* reason) {
    bool delivered = false;
    nnrt_status status = guarded(reason, [&]() -> nnrt_status {
      CacheFiles cache{{modelFds, modelCount},
                       {dataFds, dataCount},
                       token != nullptr ? std::span<const uint8_t>(token, NNRT_CACHE_TOKEN_SIZE)
                                        : std::span<const uint8_t>()};
      auto result = device(d)->impl->prepareModel_1_3(Model(*model), {preference, priority, deadline}, cache);
      delivered = true;
      return deliver(std::move(result), callback, context, reason, declaredOutputShapes(*model));
    });
    return delivered ? status : failCallback(status, callback, context, reason);
  }
  static nnrt_status prepareFromCache(const nnrt_device* d, uint64_t deadline, const int* modelFds,
                                      uint32_t modelCount, const int* dataFds, uint32_t dataCount,
                                      const uint8_t* token, nnrt_prepare_callback callback, void* context,
                                      nnrt_reason* reason) {
    bool delivered = false;
    nnrt_status status = guarded(reason, [&]() -> nnrt_status {
      if (token == nullptr) {
        writeReason(reason, "prepare_model_from_cache_1_3 needs a token");
        return NNRT_STATUS_INVALID_ARGUMENT;
      }
      CacheFiles cache{{modelFds, modelCount}, {dataFds, dataCount}, {token, NNRT_CACHE_TOKEN_SIZE}};
      auto result = device(d)->impl->prepareModelFromCache_1_3({NNRT_PREFER_FAST_SINGLE_ANSWER, NNRT_PRIORITY_MEDIUM,
                                                                deadline},
                                                               cache);
      delivered = true;
      return deliver(std::move(result), callback, context, reason);
    });
    return delivered ? status : failCallback(status, callback, context, reason);
  }
  static void release(nnrt_prepared_model* prepared) {
    try {
      delete reinterpret_cast<PreparedHandle*>(prepared);
    } catch (...) {
    }
  }
  static PreparedHandle& handle(nnrt_prepared_model* p) { return *reinterpret_cast<PreparedHandle*>(p); }
  static PreparedModel& prepared(nnrt_prepared_model* p) { return *handle(p).impl; }

  static nnrt_status executeSync(nnrt_prepared_model* p, const nnrt_request* request, uint8_t measure,
                                 uint64_t deadline, uint64_t loopTimeout, nnrt_output_shape* shapes,
                                 uint32_t shapeCount, nnrt_timing* timing, nnrt_reason* reason) {
    if (timing != nullptr) *timing = nnrt_timing{UINT64_MAX, UINT64_MAX};
    return guarded(reason, [&]() -> nnrt_status {
      auto result = prepared(p).executeSynchronously_1_3(Request(*request), {measure != 0, deadline, loopTimeout});
      return report(std::move(result), shapes, shapeCount, knownOutputShapes(handle(p), *request), timing, reason);
    });
  }
  static nnrt_status report(Result<ExecutionResult> result, nnrt_output_shape* shapes, uint32_t shapeCount,
                            const std::vector<std::optional<std::vector<uint32_t>>>& known, nnrt_timing* timing,
                            nnrt_reason* reason) {
    if (!result) {
      writeReason(reason, result.error().message);
      return toC(result.error().status);
    }
    if (auto filled = fillShapes(result->outputShapes, shapes, shapeCount, known); !filled) {
      writeReason(reason, filled.error().message);
      return NNRT_STATUS_GENERAL_FAILURE;
    }
    if (timing != nullptr) *timing = toC(result->timing);
    if (result->status == ErrorStatus::OUTPUT_INSUFFICIENT_SIZE) writeReason(reason, "an output buffer is too small");
    return toC(result->status);
  }
  static nnrt_status execute(nnrt_prepared_model* p, const nnrt_request* request, uint8_t measure, uint64_t deadline,
                             uint64_t loopTimeout, nnrt_execute_callback callback, void* context,
                             nnrt_reason* reason) {
    // Shared with the completion, which may run on another thread after this call returns.
    auto delivered = std::make_shared<std::atomic<bool>>(false);
    nnrt_status launch = guarded(reason, [&]() -> nnrt_status {
      uint32_t count = request->output_count;
      prepared(p).execute_1_3(Request(*request), {measure != 0, deadline, loopTimeout},
                              [callback, context, count, delivered,
                               known = knownOutputShapes(handle(p), *request)](Result<ExecutionResult> result) {
                                if (delivered->exchange(true)) return;  // exactly once
                                std::vector<nnrt_output_shape> shapes(count);
                                nnrt_timing timing{UINT64_MAX, UINT64_MAX};
                                nnrt_reason why{};
                                nnrt_status s = NNRT_STATUS_GENERAL_FAILURE;
                                try {
                                  s = report(std::move(result), shapes.data(), count, known, &timing, &why);
                                } catch (...) {
                                  writeReason(&why, "driver failed while reporting its result");
                                }
                                bool withShapes = s == NNRT_STATUS_NONE || s == NNRT_STATUS_OUTPUT_INSUFFICIENT_SIZE;
                                callback(context, s, withShapes ? shapes.data() : nullptr, withShapes ? count : 0,
                                         timing, why.message);
                              });
      return NNRT_STATUS_NONE;
    });
    if (launch != NNRT_STATUS_NONE && !delivered->exchange(true)) {
      callback(context, launch, nullptr, 0, nnrt_timing{UINT64_MAX, UINT64_MAX},
               reason != nullptr ? reason->message : "driver failure");
    }
    return launch;
  }
  // Generic fenced execution: waits for the fences, then runs synchronously within the call, so
  // the returned sync fence is -1 ("already finished").
  static nnrt_status executeFenced(nnrt_prepared_model* p, const nnrt_request* request, const int* waitFds,
                                   uint32_t waitCount, uint8_t measure, uint64_t deadline, uint64_t loopTimeout,
                                   uint64_t /*duration*/, int* syncFence, nnrt_fenced_execution** execution,
                                   nnrt_reason* reason) {
    return guarded(reason, [&]() -> nnrt_status {
      for (uint32_t i = 0; i < waitCount; ++i) {
        pollfd pfd{waitFds[i], POLLIN, 0};
        int rc;
        do {
          rc = ::poll(&pfd, 1, -1);
        } while (rc < 0 && errno == EINTR);
        if (rc < 0 || (pfd.revents & (POLLERR | POLLNVAL)) != 0) {
          writeReason(reason, "wait-for fence " + std::to_string(i) + " is invalid or in error");
          return NNRT_STATUS_INVALID_ARGUMENT;
        }
      }
      auto handle = std::make_unique<FencedHandle>();
      std::vector<nnrt_output_shape> shapes(request->output_count);
      nnrt_reason why{};
      handle->status = executeSync(p, request, measure, deadline, loopTimeout, shapes.data(), request->output_count,
                                   &handle->launched, &why);
      handle->fenced = handle->launched;
      handle->reason = why.message;
      *syncFence = -1;
      *execution = reinterpret_cast<nnrt_fenced_execution*>(handle.release());
      return NNRT_STATUS_NONE;
    });
  }
  static nnrt_status fencedInfo(nnrt_fenced_execution* e, nnrt_status* status, nnrt_timing* launched,
                                nnrt_timing* fenced, nnrt_reason* reason) {
    return guarded(reason, [&]() -> nnrt_status {
      auto* h = reinterpret_cast<FencedHandle*>(e);
      *status = h->status;
      if (launched != nullptr) *launched = h->launched;
      if (fenced != nullptr) *fenced = h->fenced;
      if (h->status != NNRT_STATUS_NONE) writeReason(reason, h->reason);
      return NNRT_STATUS_NONE;
    });
  }
  static void releaseFenced(nnrt_fenced_execution* e) {
    try {
      delete reinterpret_cast<FencedHandle*>(e);
    } catch (...) {
    }
  }

  static nnrt_status allocate(const nnrt_device* d, int32_t type, float scale, int32_t zeroPoint, uint32_t rank,
                              const uint32_t* dimensions, nnrt_prepared_model* const* preparedModels,
                              uint32_t preparedCount, const nnrt_buffer_role* inputRoles, uint32_t inputCount,
                              const nnrt_buffer_role* outputRoles, uint32_t outputCount, nnrt_buffer** buffer,
                              nnrt_reason* reason) {
    return guarded(reason, [&]() -> nnrt_status {
      BufferDesc desc{type, scale, zeroPoint, std::vector<uint32_t>(dimensions, dimensions + rank)};
      std::vector<PreparedModel*> models;
      for (uint32_t i = 0; i < preparedCount; ++i) models.push_back(&prepared(preparedModels[i]));
      std::span<const nnrt_buffer_role> in(inputRoles, inputCount), out(outputRoles, outputCount);
      for (const auto& roles : {in, out}) {
        for (const nnrt_buffer_role& role : roles) {
          if (role.model_index >= preparedCount) {
            writeReason(reason, "a role names prepared model " + std::to_string(role.model_index) + " of " +
                                    std::to_string(preparedCount));
            return NNRT_STATUS_INVALID_ARGUMENT;
          }
        }
      }
      Result<std::unique_ptr<Buffer>> result = device(d)->impl->allocate(desc, models, in, out);
      if (!result) {
        writeReason(reason, result.error().message);
        return toC(result.error().status);
      }
      *buffer = reinterpret_cast<nnrt_buffer*>(static_cast<Buffer*>(result->release()));
      return NNRT_STATUS_NONE;
    });
  }
  static Buffer& buffer(nnrt_buffer* b) { return *reinterpret_cast<Buffer*>(b); }
  static nnrt_status hostPool(const nnrt_memory_pool* pool, nnrt_reason* reason) {
    if (pool == nullptr || pool->kind != NNRT_POOL_HOST || (pool->host == nullptr && pool->size > 0)) {
      writeReason(reason, "a buffer copies only to or from host memory");
      return NNRT_STATUS_INVALID_ARGUMENT;
    }
    return NNRT_STATUS_NONE;
  }
  static nnrt_status bufferCopyTo(nnrt_buffer* b, const nnrt_memory_pool* dst, nnrt_reason* reason) {
    return guarded(reason, [&]() -> nnrt_status {
      if (nnrt_status s = hostPool(dst, reason); s != NNRT_STATUS_NONE) return s;
      auto copied = buffer(b).copyTo({static_cast<uint8_t*>(dst->host), static_cast<size_t>(dst->size)});
      if (!copied) writeReason(reason, copied.error().message);
      return copied ? NNRT_STATUS_NONE : toC(copied.error().status);
    });
  }
  static nnrt_status bufferCopyFrom(nnrt_buffer* b, const nnrt_memory_pool* src, uint32_t rank,
                                    const uint32_t* dimensions, nnrt_reason* reason) {
    return guarded(reason, [&]() -> nnrt_status {
      if (nnrt_status s = hostPool(src, reason); s != NNRT_STATUS_NONE) return s;
      auto copied = buffer(b).copyFrom({static_cast<const uint8_t*>(src->host), static_cast<size_t>(src->size)},
                                       {dimensions, rank});
      if (!copied) writeReason(reason, copied.error().message);
      return copied ? NNRT_STATUS_NONE : toC(copied.error().status);
    });
  }
  static void releaseBuffer(nnrt_buffer* b) {
    try {
      delete &buffer(b);
    } catch (...) {
    }
  }
  static void getMemoryPreference(const nnrt_device* d, nnrt_memory_preference* preference) {
    try {
      *preference = device(d)->impl->getMemoryPreference();
    } catch (...) {
      *preference = {64, 1};
    }
  }
  static nnrt_status configureBurst(nnrt_prepared_model* p, nnrt_burst** burst, nnrt_reason* reason) {
    return guarded(reason, [&]() -> nnrt_status {
      Result<std::unique_ptr<Burst>> result = prepared(p).configureBurst();
      if (!result) {
        writeReason(reason, result.error().message);
        return toC(result.error().status);
      }
      *burst = reinterpret_cast<nnrt_burst*>(new BurstHandle{std::move(*result), &handle(p)});
      return NNRT_STATUS_NONE;
    });
  }
  static nnrt_status executeBurst(nnrt_burst* burst, const nnrt_request* request, uint8_t measure, uint64_t deadline,
                                  uint64_t loopTimeout, nnrt_output_shape* shapes, uint32_t shapeCount,
                                  nnrt_timing* timing, nnrt_reason* reason) {
    if (timing != nullptr) *timing = nnrt_timing{UINT64_MAX, UINT64_MAX};
    return guarded(reason, [&]() -> nnrt_status {
      const BurstHandle& h = *reinterpret_cast<BurstHandle*>(burst);
      auto result = h.impl->execute(Request(*request), {measure != 0, deadline, loopTimeout});
      return report(std::move(result), shapes, shapeCount, knownOutputShapes(*h.prepared, *request), timing, reason);
    });
  }
  static void releaseBurst(nnrt_burst* burst) {
    try {
      delete reinterpret_cast<BurstHandle*>(burst);
    } catch (...) {
    }
  }

  static constexpr nnrt_driver_api kApi = {
      NNRT_DRIVER_ABI_MAJOR, NNRT_DRIVER_ABI_MINOR, sizeof(nnrt_driver_api), *Name, *Version,
      &open, &close, &deviceCount, &deviceAt,
      &getName, &getVersionString, &getType, &getFeatureLevel, &getStatus,
      &getCapabilities, &getExtensions, &getSupported, &getCacheCounts,
      &prepare, &prepareFromCache, &release,
      &executeSync, &execute, &executeFenced, &fencedInfo, &releaseFenced,
      &getOperationTable,
      &allocate, &bufferCopyTo, &bufferCopyFrom, &releaseBuffer,
      &getMemoryPreference,
      &configureBurst, &executeBurst, &releaseBurst,
  };
};

}  // namespace detail
}  // namespace nnrt::driver

// Exports the plugin's entry point. `factory` is a function
//   nnrt::driver::Result<nnrt::driver::DeviceList> factory(const nnrt::driver::Options&);
// called by open(). Use it once per plugin, at namespace scope, outside any namespace.
#define NNRT_DRIVER_EXPORT(name, version, factory)                                                          \
  namespace nnrt_driver_export_ {                                                                           \
  constexpr const char* kName = name;                                                                       \
  constexpr const char* kVersion = version;                                                                 \
  }                                                                                                         \
  extern "C" __attribute__((visibility("default"))) const nnrt_driver_api* nnrt_driver_get_api(             \
      uint32_t /*host_abi_major: the host checks our abi_major*/) {                                         \
    return &::nnrt::driver::detail::Glue<&nnrt_driver_export_::kName, &nnrt_driver_export_::kVersion,       \
                                         &factory>::kApi;                                                   \
  }
