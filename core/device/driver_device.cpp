#include "core/device/driver_device.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <tuple>

#include "core/support/log.hpp"

namespace nnrt {

std::string reasonText(const nnrt_reason& reason) {
  return std::string(reason.message, strnlen(reason.message, sizeof(reason.message)));
}

Error driverError(nnrt_status status, const nnrt_reason& reason, const std::string& context) {
  return fromDriver(driver::Error{static_cast<driver::ErrorStatus>(status), reasonText(reason)}, context);
}

namespace {

bool validPerf(const nnrt_perf_info& p) {
  return std::isfinite(p.exec_time) && std::isfinite(p.power_usage) && p.exec_time > 0 && p.power_usage > 0;
}

void applyOverrides(driver::Capabilities& caps, const config::PerformanceOverride& o) {
  if (o.all) {
    for (auto& entry : caps.operandPerformance) entry.info = *o.all;
    caps.relaxedFloat32toFloat16PerformanceScalar = *o.all;
    caps.relaxedFloat32toFloat16PerformanceTensor = *o.all;
    caps.ifPerformance = *o.all;
    caps.whilePerformance = *o.all;
  }
  for (const auto& [type, info] : o.byType) {
    auto it = std::find_if(caps.operandPerformance.begin(), caps.operandPerformance.end(),
                           [type](const auto& e) { return e.type == type; });
    if (it != caps.operandPerformance.end()) {
      it->info = info;
    } else {
      caps.operandPerformance.push_back({type, info});
    }
  }
  std::sort(caps.operandPerformance.begin(), caps.operandPerformance.end(),
            [](const auto& a, const auto& b) { return a.type < b.type; });
  if (o.relaxedScalar) caps.relaxedFloat32toFloat16PerformanceScalar = *o.relaxedScalar;
  if (o.relaxedTensor) caps.relaxedFloat32toFloat16PerformanceTensor = *o.relaxedTensor;
  if (o.ifPerformance) caps.ifPerformance = *o.ifPerformance;
  if (o.whilePerformance) caps.whilePerformance = *o.whilePerformance;
}

// Collects a preparation result delivered through the C callback, possibly on another thread.
struct PrepareWaiter {
  std::mutex mutex;
  std::condition_variable done;
  bool finished = false;
  nnrt_status status = NNRT_STATUS_GENERAL_FAILURE;
  nnrt_prepared_model* prepared = nullptr;
  std::string reason;

  static void callback(void* context, nnrt_status status, nnrt_prepared_model* prepared, const char* reason) {
    auto* self = static_cast<PrepareWaiter*>(context);
    std::lock_guard lock(self->mutex);
    if (self->finished) return;  // a second call breaks the ABI; ignore it
    self->status = status;
    self->prepared = prepared;
    self->reason = reason != nullptr ? reason : "";
    self->finished = true;
    self->done.notify_all();
  }
  void wait() {
    std::unique_lock lock(mutex);
    done.wait(lock, [this] { return finished; });
  }
};

}  // namespace

driver::ExecutionResult toExecutionResult(nnrt_status status, const nnrt_output_shape* shapes, uint32_t count,
                                          nnrt_timing timing) {
  driver::ExecutionResult result;
  result.status = static_cast<driver::ErrorStatus>(status);
  result.timing = {timing.time_on_device, timing.time_in_driver};
  for (uint32_t i = 0; i < count && shapes != nullptr; ++i) {
    // A rank above NNRT_MAX_RANK does not fit the ABI's shape: reported as an empty shape, the
    // runtime keeps the dimensions it already knows for that output.
    const uint32_t rank = shapes[i].rank <= NNRT_MAX_RANK ? shapes[i].rank : 0;
    result.outputShapes.push_back(
        {std::vector<uint32_t>(shapes[i].dimensions, shapes[i].dimensions + rank), shapes[i].is_sufficient != 0});
  }
  return result;
}

namespace {

struct AsyncExecution {
  std::function<void(Result<driver::ExecutionResult>)> done;
  std::string deviceName;
  uint32_t outputCount;

  static void callback(void* context, nnrt_status status, const nnrt_output_shape* shapes, uint32_t count,
                       nnrt_timing timing, const char* reason) {
    std::unique_ptr<AsyncExecution> self(static_cast<AsyncExecution*>(context));
    if (status != NNRT_STATUS_NONE && status != NNRT_STATUS_OUTPUT_INSUFFICIENT_SIZE) {
      self->done(Unexpected(fromDriver(driver::Error{static_cast<driver::ErrorStatus>(status), reason ? reason : ""},
                                       "execution on device '" + self->deviceName + "'")));
      return;
    }
    if (count != self->outputCount) {
      self->done(fail(ResultCode::OP_FAILED, "device '" + self->deviceName + "' reported " + std::to_string(count) +
                                                 " output shapes for " + std::to_string(self->outputCount) + " outputs"));
      return;
    }
    self->done(toExecutionResult(status, shapes, count, timing));
  }
};

}  // namespace

void PreparedModel::executeAsync(const nnrt_request& request, bool measure, uint64_t deadlineNs,
                                 uint64_t loopTimeoutNs, std::function<void(Result<driver::ExecutionResult>)> done) const {
  auto* context = new AsyncExecution{std::move(done), deviceName_, request.output_count};
  nnrt_reason reason{};
  // The driver calls back exactly once, also when the launch fails; the callback frees the context.
  library_->api().execute_1_3(prepared_, &request, measure ? 1 : 0, deadlineNs, loopTimeoutNs,
                              &AsyncExecution::callback, context, &reason);
}

Result<PreparedModel::FencedResult> PreparedModel::executeFenced(const nnrt_request& request,
                                                                 std::span<const int> waitFds, bool measure,
                                                                 uint64_t deadlineNs, uint64_t loopTimeoutNs,
                                                                 uint64_t durationNs) const {
  const nnrt_driver_api& api = library_->api();
  const std::string what = "fenced execution on device '" + deviceName_ + "'";
  int fence = -1;
  nnrt_fenced_execution* handle = nullptr;
  nnrt_reason reason{};
  nnrt_status status = api.execute_fenced(prepared_, &request, waitFds.data(), static_cast<uint32_t>(waitFds.size()),
                                          measure ? 1 : 0, deadlineNs, loopTimeoutNs, durationNs, &fence, &handle,
                                          &reason);
  if (status != NNRT_STATUS_NONE) return Unexpected(driverError(status, reason, what));
  if (handle == nullptr) return fail(ResultCode::OP_FAILED, what + ": the driver returned no execution handle");
  if (fence >= 0) {
    pollfd p{fence, POLLIN, 0};
    int rc;
    do {
      rc = poll(&p, 1, -1);
    } while (rc < 0 && errno == EINTR);
    close(fence);
  }
  nnrt_status runStatus = NNRT_STATUS_GENERAL_FAILURE;
  nnrt_timing launched{UINT64_MAX, UINT64_MAX}, fenced{UINT64_MAX, UINT64_MAX};
  nnrt_reason runReason{};
  status = api.get_fenced_execution_info(handle, &runStatus, &launched, &fenced, &runReason);
  api.release_fenced_execution(handle);
  if (status != NNRT_STATUS_NONE) return Unexpected(driverError(status, runReason, what));
  if (runStatus != NNRT_STATUS_NONE) return Unexpected(driverError(runStatus, runReason, what));
  return FencedResult{{launched.time_on_device, launched.time_in_driver}, {fenced.time_on_device, fenced.time_in_driver}};
}

PreparedModel::~PreparedModel() {
  if (prepared_ != nullptr) library_->api().release_prepared_model(prepared_);
}

Result<driver::ExecutionResult> PreparedModel::execute(const nnrt_request& request, bool measure,
                                                       uint64_t deadlineNs, uint64_t loopTimeoutNs) const {
  std::vector<nnrt_output_shape> shapes(request.output_count);
  nnrt_timing timing{UINT64_MAX, UINT64_MAX};
  nnrt_reason reason{};
  nnrt_status status = library_->api().execute_synchronously_1_3(prepared_, &request, measure ? 1 : 0, deadlineNs,
                                                                 loopTimeoutNs, shapes.data(), request.output_count,
                                                                 &timing, &reason);
  if (status != NNRT_STATUS_NONE && status != NNRT_STATUS_OUTPUT_INSUFFICIENT_SIZE) {
    return Unexpected(driverError(status, reason, "execution on device '" + deviceName_ + "'"));
  }
  return toExecutionResult(status, shapes.data(), request.output_count, timing);
}

Result<std::shared_ptr<DriverDevice>> DriverDevice::create(std::shared_ptr<DriverLibrary> library, nnrt_device* device,
                                                           std::string name,
                                                           const config::PerformanceOverride& overrides) {
  const nnrt_driver_api& api = library->api();
  const std::string where = library->path().string() + ": device '" + name + "'";
  std::shared_ptr<DriverDevice> d(new DriverDevice());
  d->library_ = library;
  d->device_ = device;
  d->name_ = std::move(name);
  const char* driverName = api.get_name(device);
  const char* version = api.get_version_string(device);
  if (driverName == nullptr || *driverName == '\0') return fail(ResultCode::OP_FAILED, where + ": driver gave no name");
  d->driverName_ = driverName;
  d->version_ = version != nullptr ? version : "";
  d->type_ = api.get_type(device);
  if (d->type_ < NNRT_DEVICE_TYPE_OTHER || d->type_ > NNRT_DEVICE_TYPE_ACCELERATOR) {
    return fail(ResultCode::OP_FAILED, where + ": unknown device type " + std::to_string(d->type_));
  }
  d->featureLevel_ = api.get_feature_level(device);

  nnrt_capabilities caps{};
  nnrt_reason reason{};
  if (nnrt_status s = api.get_capabilities_1_3(device, &caps, &reason); s != NNRT_STATUS_NONE) {
    return Unexpected(driverError(s, reason, where + ": getCapabilities_1_3"));
  }
  if (caps.operand_performance_count > 0 && caps.operand_performance == nullptr) {
    return fail(ResultCode::OP_FAILED, where + ": capability table is NULL");
  }
  d->capabilities_.relaxedFloat32toFloat16PerformanceScalar = caps.relaxed_float32_to_float16_scalar;
  d->capabilities_.relaxedFloat32toFloat16PerformanceTensor = caps.relaxed_float32_to_float16_tensor;
  d->capabilities_.ifPerformance = caps.if_performance;
  d->capabilities_.whilePerformance = caps.while_performance;
  for (uint32_t i = 0; i < caps.operand_performance_count; ++i) {
    const auto& e = caps.operand_performance[i];
    if (i > 0 && e.type <= caps.operand_performance[i - 1].type) {
      return fail(ResultCode::OP_FAILED, where + ": capability table is not sorted by operand type");
    }
    if (!validPerf(e.info)) {
      return fail(ResultCode::OP_FAILED, where + ": capability of " + std::to_string(e.type) + " is not a positive number");
    }
    d->capabilities_.operandPerformance.push_back(e);
  }
  for (const nnrt_perf_info& p : {caps.relaxed_float32_to_float16_scalar, caps.relaxed_float32_to_float16_tensor,
                                  caps.if_performance, caps.while_performance}) {
    if (!validPerf(p)) return fail(ResultCode::OP_FAILED, where + ": a capability is not a positive number");
  }
  applyOverrides(d->capabilities_, overrides);
  d->overridden_ = !overrides.empty();

  const nnrt_extension* extensions = nullptr;
  uint32_t extensionCount = 0;
  if (nnrt_status s = api.get_supported_extensions(device, &extensions, &extensionCount, &reason);
      s != NNRT_STATUS_NONE) {
    return Unexpected(driverError(s, reason, where + ": getSupportedExtensions"));
  }
  for (uint32_t i = 0; i < extensionCount; ++i) {
    const nnrt_extension& e = extensions[i];
    if (e.name == nullptr || (e.operand_type_count > 0 && e.operand_types == nullptr)) {
      return fail(ResultCode::OP_FAILED, where + ": extension " + std::to_string(i) + " is malformed");
    }
    driver::Extension ext{e.name, {}};
    for (uint32_t t = 0; t < e.operand_type_count; ++t) {
      ext.operandTypes.push_back({e.operand_types[t].type, e.operand_types[t].is_tensor != 0, e.operand_types[t].byte_size});
    }
    d->extensions_.push_back(std::move(ext));
  }

  uint32_t modelFiles = 0, dataFiles = 0;
  if (nnrt_status s = api.get_number_of_cache_files_needed(device, &modelFiles, &dataFiles, &reason);
      s != NNRT_STATUS_NONE) {
    return Unexpected(driverError(s, reason, where + ": getNumberOfCacheFilesNeeded"));
  }
  if (modelFiles > NNRT_MAX_CACHE_FILES || dataFiles > NNRT_MAX_CACHE_FILES) {
    logWarning(where + ": asks for more than " + std::to_string(NNRT_MAX_CACHE_FILES) + " cache files; caching is off");
    modelFiles = dataFiles = 0;
  }
  d->cacheFiles_ = {modelFiles, dataFiles};
  return d;
}

int32_t DriverDevice::queryStatus() const { return library_->api().get_status(device_); }

Result<std::vector<nnrt_operation_support>> DriverDevice::operationTable() const {
  const nnrt_driver_api& api = library_->api();
  constexpr size_t kEnd = offsetof(nnrt_driver_api, get_operation_table) + sizeof(api.get_operation_table);
  if (api.struct_size < kEnd || api.get_operation_table == nullptr) return std::vector<nnrt_operation_support>{};
  const std::string where = "device '" + name_ + "'";
  const nnrt_operation_support* table = nullptr;
  uint32_t count = 0;
  nnrt_reason reason{};
  if (nnrt_status s = api.get_operation_table(device_, &table, &count, &reason); s != NNRT_STATUS_NONE) {
    return Unexpected(driverError(s, reason, where + ": get_operation_table"));
  }
  constexpr uint32_t kMaxPairs = 1u << 20;
  if (count > 0 && table == nullptr) return fail(ResultCode::OP_FAILED, where + ": operation table is NULL");
  if (count > kMaxPairs) {
    return fail(ResultCode::OP_FAILED, where + ": operation table has " + std::to_string(count) + " entries");
  }
  std::vector<nnrt_operation_support> pairs(table, table + count);
  for (size_t i = 1; i < pairs.size(); ++i) {
    const auto& a = pairs[i - 1];
    const auto& b = pairs[i];
    if (std::tie(a.operation, a.operand_type) >= std::tie(b.operation, b.operand_type)) {
      return fail(ResultCode::OP_FAILED,
                  where + ": operation table is not sorted without duplicates at entry " + std::to_string(i));
    }
  }
  return pairs;
}

Result<DriverDevice::Support> DriverDevice::getSupportedOperations(const nnrt_model& model) const {
  Support support;
  std::vector<uint8_t> flags(model.main.operation_count, 0);
  support.reasons.resize(model.main.operation_count);
  auto explain = [](void* context, uint32_t index, const char* reason) {
    auto* reasons = static_cast<std::vector<std::string>*>(context);
    if (index < reasons->size() && reason != nullptr) (*reasons)[index] = reason;
  };
  nnrt_reason reason{};
  nnrt_status s = library_->api().get_supported_operations_1_3(device_, &model, flags.data(), explain,
                                                               &support.reasons, &reason);
  if (s != NNRT_STATUS_NONE) return Unexpected(driverError(s, reason, "getSupportedOperations_1_3 on '" + name_ + "'"));
  support.supported.assign(flags.begin(), flags.end());
  return support;
}

namespace {
Result<std::shared_ptr<PreparedModel>> finishPrepare(PrepareWaiter& waiter, nnrt_status launched,
                                                     const nnrt_reason& reason, const std::string& what,
                                                     const std::shared_ptr<DriverLibrary>& library,
                                                     const std::string& device) {
  waiter.wait();  // the ABI promises exactly one callback, also on a launch error
  if (waiter.status != NNRT_STATUS_NONE || waiter.prepared == nullptr) {
    nnrt_status s = waiter.status != NNRT_STATUS_NONE ? waiter.status : launched;
    if (s == NNRT_STATUS_NONE) s = NNRT_STATUS_GENERAL_FAILURE;  // success without a model is a failure
    std::string why = !waiter.reason.empty() ? waiter.reason : reasonText(reason);
    return Unexpected(fromDriver(driver::Error{static_cast<driver::ErrorStatus>(s), why}, what + " on '" + device + "'"));
  }
  return std::make_shared<PreparedModel>(library, waiter.prepared, device);
}
}  // namespace

Result<std::shared_ptr<PreparedModel>> DriverDevice::prepareModel(const nnrt_model& model, int32_t preference,
                                                                  int32_t priority, uint64_t deadlineNs,
                                                                  const CacheHandles& cache) const {
  PrepareWaiter waiter;
  nnrt_reason reason{};
  nnrt_status s = library_->api().prepare_model_1_3(
      device_, &model, preference, priority, deadlineNs, cache.modelCache.data(),
      static_cast<uint32_t>(cache.modelCache.size()), cache.dataCache.data(),
      static_cast<uint32_t>(cache.dataCache.size()), cache.token.empty() ? nullptr : cache.token.data(),
      &PrepareWaiter::callback, &waiter, &reason);
  return finishPrepare(waiter, s, reason, "prepareModel_1_3", library_, name_);
}

Result<std::shared_ptr<PreparedModel>> DriverDevice::prepareModelFromCache(uint64_t deadlineNs,
                                                                           const CacheHandles& cache) const {
  PrepareWaiter waiter;
  nnrt_reason reason{};
  nnrt_status s = library_->api().prepare_model_from_cache_1_3(
      device_, deadlineNs, cache.modelCache.data(), static_cast<uint32_t>(cache.modelCache.size()),
      cache.dataCache.data(), static_cast<uint32_t>(cache.dataCache.size()),
      cache.token.empty() ? nullptr : cache.token.data(), &PrepareWaiter::callback, &waiter, &reason);
  return finishPrepare(waiter, s, reason, "prepareModelFromCache_1_3", library_, name_);
}

}  // namespace nnrt
