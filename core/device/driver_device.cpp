#include "core/device/driver_device.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <deque>
#include <optional>
#include <tuple>

#include <android/NeuralNetworks.h>

#include "core/support/log.hpp"

namespace nnrt {

std::string reasonText(const nnrt_reason& reason) {
  return std::string(reason.message, strnlen(reason.message, sizeof(reason.message)));
}

Error statusError(nnrt_status status, std::string reason, const std::string& context) {
  return fromDriver(driver::Error{static_cast<driver::ErrorStatus>(status), std::move(reason)}, context);
}
Error driverError(nnrt_status status, const nnrt_reason& reason, const std::string& context) {
  return statusError(status, reasonText(reason), context);
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

// Longest name, version string, extension name or reason the runtime takes from a driver.
constexpr size_t kMaxDriverString = 1024;
// Most entries the runtime takes in a driver's capability or extension table.
constexpr uint32_t kMaxTableEntries = 1u << 16;

// A driver's string, when it is one: not NULL and NUL-terminated within kMaxDriverString bytes.
std::optional<std::string> boundedString(const char* text) {
  if (text == nullptr) return std::nullopt;
  const size_t length = strnlen(text, kMaxDriverString + 1);
  if (length > kMaxDriverString) return std::nullopt;
  return std::string(text, length);
}
// A driver's reason, cut to kMaxDriverString bytes; NULL is "".
std::string reasonOf(const char* text) {
  return text == nullptr ? std::string() : std::string(text, strnlen(text, kMaxDriverString));
}

// A copy of a request view (not of its pools' bytes) owned by a call, so that a driver still
// running an abandoned call never reads the caller's freed view.
class RequestCopy {
 public:
  explicit RequestCopy(const nnrt_request& r)
      : inputs_(r.inputs, r.inputs + r.input_count),
        outputs_(r.outputs, r.outputs + r.output_count),
        pools_(r.pools, r.pools + r.pool_count) {
    for (auto* list : {&inputs_, &outputs_}) {
      for (nnrt_request_argument& a : *list) {
        if (a.dimensions == nullptr) continue;
        a.dimensions = dims_.emplace_back(a.dimensions, a.dimensions + a.rank).data();
      }
    }
    view_ = {inputs_.data(), r.input_count, outputs_.data(), r.output_count, pools_.data(), r.pool_count};
  }
  RequestCopy(const RequestCopy&) = delete;
  RequestCopy& operator=(const RequestCopy&) = delete;
  const nnrt_request& view() const { return view_; }

 private:
  std::vector<nnrt_request_argument> inputs_, outputs_;
  std::vector<nnrt_memory_pool> pools_;
  std::deque<std::vector<uint32_t>> dims_;
  nnrt_request view_{};
};

// What a driver answered for one execution.
struct ExecuteCall : DriverCall {
  ExecuteCall(std::shared_ptr<DriverGuard> guard, std::shared_ptr<const RequestCopy> request)
      : DriverCall(std::move(guard)), request(std::move(request)) {}
  std::shared_ptr<const RequestCopy> request;  // valid until the driver answers
  nnrt_status status = NNRT_STATUS_GENERAL_FAILURE;
  std::vector<nnrt_output_shape> shapes;
  uint32_t shapeCount = 0;  // as the driver said
  nnrt_timing timing{UINT64_MAX, UINT64_MAX};
  std::string reason;

  void store(nnrt_status s, const nnrt_output_shape* from, uint32_t count, nnrt_timing t, std::string why) {
    status = s;
    shapeCount = count;
    // Shapes are read only when there is one per output; any other count is refused later.
    if (from != nullptr && count == request->view().output_count) shapes.assign(from, from + count);
    timing = t;
    reason = std::move(why);
  }
};

// A late or second callback for `context`: logged once on the device it was for.
void noteUnexpectedCallback(void* context, const std::string& what) {
  if (auto guard = DriverCallbacks::formerGuard(context)) {
    guard->noteLateAnswer(what);
    return;
  }
  static std::atomic<bool> logged{false};
  if (!logged.exchange(true)) logWarning("a driver " + what + " for a call the runtime does not know; ignored");
}

void executeCallback(void* context, nnrt_status status, const nnrt_output_shape* shapes, uint32_t count,
                     nnrt_timing timing, const char* reason) {
  auto call = std::dynamic_pointer_cast<ExecuteCall>(DriverCallbacks::take(context));
  if (!call) return noteUnexpectedCallback(context, "called back twice for one execution");
  if (!call->answer([&] { call->store(status, shapes, count, timing, reasonOf(reason)); })) {
    call->guard()->noteLateAnswer("an execution ended after the runtime stopped waiting for it");
  }
}

// Turns what a driver answered for an execution into a result, refusing nonsense: a shape count
// other than the output count, a sufficiency flag other than 0/1 or at odds with the status, a rank
// other than the one the request gives.
Result<driver::ExecutionResult> executionResult(const ExecuteCall& call, const std::string& what) {
  if (call.status != NNRT_STATUS_NONE && call.status != NNRT_STATUS_OUTPUT_INSUFFICIENT_SIZE) {
    return Unexpected(statusError(call.status, call.reason, what));
  }
  const nnrt_request& request = call.request->view();
  if (call.shapeCount != request.output_count || call.shapes.size() != request.output_count) {
    return fail(ResultCode::OP_FAILED, what + ": the driver reported " + std::to_string(call.shapeCount) +
                                           " output shapes for " + std::to_string(request.output_count) + " outputs");
  }
  bool anyInsufficient = false;
  for (uint32_t i = 0; i < request.output_count; ++i) {
    const nnrt_output_shape& shape = call.shapes[i];
    const uint32_t expected = request.outputs[i].rank;
    if (shape.is_sufficient > 1) {
      return fail(ResultCode::OP_FAILED, what + ": the driver reported is_sufficient " +
                                             std::to_string(shape.is_sufficient) + " for output " + std::to_string(i));
    }
    if (shape.rank != 0 && shape.rank <= NNRT_MAX_RANK && expected != 0 && shape.rank != expected) {
      return fail(ResultCode::OP_FAILED, what + ": the driver reported rank " + std::to_string(shape.rank) +
                                             " for output " + std::to_string(i) + " of rank " +
                                             std::to_string(expected));
    }
    anyInsufficient = anyInsufficient || shape.is_sufficient == 0;
  }
  if (anyInsufficient != (call.status == NNRT_STATUS_OUTPUT_INSUFFICIENT_SIZE)) {
    return fail(ResultCode::OP_FAILED, what + (anyInsufficient
                                                   ? ": the driver succeeded with an output marked too small"
                                                   : ": the driver reported OUTPUT_INSUFFICIENT_SIZE for no output"));
  }
  return toExecutionResult(call.status, call.shapes.data(), request.output_count, call.timing);
}

// The error of a wait that ended without the driver's answer.
Error waitError(DriverGuard::WaitEnd end, const std::string& what) {
  if (end == DriverGuard::WaitEnd::DeadlinePassed) {
    return Error{ResultCode::MISSED_DEADLINE_TRANSIENT, what + " did not end by the deadline"};
  }
  return Error{ResultCode::UNAVAILABLE_DEVICE, what + " did not end: the device became unavailable"};
}

}  // namespace

void PreparedModel::executeAsync(const nnrt_request& request, bool measure, uint64_t deadlineNs,
                                 uint64_t loopTimeoutNs, std::function<void(Result<driver::ExecutionResult>)> done) const {
  auto call = std::make_shared<ExecuteCall>(guard_, std::make_shared<const RequestCopy>(request));
  // One worker launches (the driver may run the whole request inside execute_1_3), another waits.
  // The launch holds the prepared model: a driver may still use it after calling back and before
  // execute_1_3 returns, so it is not released under that call.
  guard_->submit([call, self = shared_from_this(), library = library_, prepared = prepared_, measure, deadlineNs,
                  loopTimeoutNs] {
    void* context = DriverCallbacks::add(call);
    nnrt_reason reason{};
    nnrt_status s = library->api().execute_1_3(prepared, &call->request->view(), measure ? 1 : 0, deadlineNs,
                                               loopTimeoutNs, &executeCallback, context, &reason);
    // A failed launch is answered with its status, should the driver not also call back.
    if (s != NNRT_STATUS_NONE) {
      if (DriverCallbacks::take(context)) {
        call->answer([&] { call->store(s, nullptr, 0, {UINT64_MAX, UINT64_MAX}, reasonText(reason)); });
      }
    }
  });
  guard_->submit([call, guard = guard_, deadlineNs, done = std::move(done)] {
    const std::string what = "execution on device '" + guard->deviceName() + "'";
    DriverGuard::WaitEnd end = guard->wait(*call, deadlineNs, what);
    done(end == DriverGuard::WaitEnd::Answered ? executionResult(*call, what) : Unexpected(waitError(end, what)));
  });
}

namespace {

// A fenced execution from launch to the end of its fence, run on a worker as one blocking call.
struct FencedCall : DriverCall {
  using DriverCall::DriverCall;
  Result<PreparedModel::FencedResult> result = fail(ResultCode::OP_FAILED, "no answer");
};

// Duplicates of the caller's descriptors, closed when the last holder goes.
struct OwnedFds {
  std::vector<int> fds;
  explicit OwnedFds(std::span<const int> from) {
    for (int fd : from) fds.push_back(fd >= 0 ? dup(fd) : -1);
  }
  ~OwnedFds() {
    for (int fd : fds) {
      if (fd >= 0) close(fd);
    }
  }
  OwnedFds(const OwnedFds&) = delete;
  OwnedFds& operator=(const OwnedFds&) = delete;
};

}  // namespace

Result<PreparedModel::FencedResult> PreparedModel::executeFenced(const nnrt_request& request,
                                                                 std::span<const int> waitFds, bool measure,
                                                                 uint64_t deadlineNs, uint64_t loopTimeoutNs,
                                                                 uint64_t durationNs) const {
  const std::string what = "fenced execution on device '" + deviceName() + "'";
  auto call = std::make_shared<FencedCall>(guard_);
  auto copy = std::make_shared<const RequestCopy>(request);
  auto fds = std::make_shared<const OwnedFds>(waitFds);
  guard_->submit([call, copy, fds, what, library = library_, prepared = prepared_, measure, deadlineNs, loopTimeoutNs,
                  durationNs] {
    const nnrt_driver_api& api = library->api();
    auto run = [&]() -> Result<FencedResult> {
      int fence = -1;
      nnrt_fenced_execution* handle = nullptr;
      nnrt_reason reason{};
      nnrt_status status =
          api.execute_fenced(prepared, &copy->view(), fds->fds.data(), static_cast<uint32_t>(fds->fds.size()),
                             measure ? 1 : 0, deadlineNs, loopTimeoutNs, durationNs, &fence, &handle, &reason);
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
      return FencedResult{{launched.time_on_device, launched.time_in_driver},
                          {fenced.time_on_device, fenced.time_in_driver}};
    };
    Result<FencedResult> result = run();
    call->answer([&] { call->result = std::move(result); });
  });
  DriverGuard::WaitEnd end = guard_->wait(*call, deadlineNs, what);
  if (end != DriverGuard::WaitEnd::Answered) return Unexpected(waitError(end, what));
  return std::move(call->result);
}

PreparedModel::~PreparedModel() {
  // An out-of-service device may still be running a call on this model: it is leaked, not released.
  if (prepared_ != nullptr && guard_->inService()) library_->api().release_prepared_model(prepared_);
}

Result<driver::ExecutionResult> PreparedModel::execute(const nnrt_request& request, bool measure,
                                                       uint64_t deadlineNs, uint64_t loopTimeoutNs) const {
  return executeBounded(request, deadlineNs, "execution on device '" + deviceName() + "'",
                        [library = library_, prepared = prepared_, measure, deadlineNs, loopTimeoutNs](
                            const nnrt_request& view, nnrt_output_shape* shapes, uint32_t count, nnrt_timing* timing,
                            nnrt_reason* reason) {
                          return library->api().execute_synchronously_1_3(prepared, &view, measure ? 1 : 0,
                                                                          deadlineNs, loopTimeoutNs, shapes, count,
                                                                          timing, reason);
                        });
}

Result<driver::ExecutionResult> PreparedModel::executeBounded(const nnrt_request& request, uint64_t deadlineNs,
                                                              const std::string& what, SyncEntry entry) const {
  auto call = std::make_shared<ExecuteCall>(guard_, std::make_shared<const RequestCopy>(request));
  guard_->submit([call, entry = std::move(entry)] {
    const uint32_t count = call->request->view().output_count;
    std::vector<nnrt_output_shape> shapes(count);
    nnrt_timing timing{UINT64_MAX, UINT64_MAX};
    nnrt_reason reason{};
    nnrt_status s = entry(call->request->view(), shapes.data(), count, &timing, &reason);
    const bool withShapes = s == NNRT_STATUS_NONE || s == NNRT_STATUS_OUTPUT_INSUFFICIENT_SIZE;
    call->answer([&] { call->store(s, withShapes ? shapes.data() : nullptr, count, timing, reasonText(reason)); });
  });
  DriverGuard::WaitEnd end = guard_->wait(*call, deadlineNs, what);
  if (end != DriverGuard::WaitEnd::Answered) return Unexpected(waitError(end, what));
  return executionResult(*call, what);
}

Result<std::shared_ptr<DriverDevice>> DriverDevice::create(std::shared_ptr<DriverLibrary> library, nnrt_device* device,
                                                           std::string name,
                                                           const config::PerformanceOverride& overrides,
                                                           std::chrono::milliseconds grace, bool watchdog) {
  const nnrt_driver_api& api = library->api();
  const std::string where = library->path().string() + ": device '" + name + "'";
  std::shared_ptr<DriverDevice> d(new DriverDevice());
  d->library_ = library;
  d->device_ = device;
  d->name_ = std::move(name);
  d->guard_ = std::make_shared<DriverGuard>(d->name_, api.plugin_name, grace, watchdog);
  if (library->restartHook()) d->guard_->setRestartHook(library->restartHook());
  // The SDK turns a getter's exception into NULL, an invalid type or feature level 0.
  std::optional<std::string> driverName = boundedString(api.get_name(device));
  if (!driverName || driverName->empty()) {
    return fail(ResultCode::OP_FAILED, where + ": driver gave no name (NULL, empty or over " +
                                           std::to_string(kMaxDriverString) + " bytes)");
  }
  d->driverName_ = std::move(*driverName);
  std::optional<std::string> version = boundedString(api.get_version_string(device));
  if (!version) {
    return fail(ResultCode::OP_FAILED, where + ": driver gave no version string (NULL or over " +
                                           std::to_string(kMaxDriverString) + " bytes)");
  }
  d->version_ = std::move(*version);
  d->type_ = api.get_type(device);
  if (d->type_ < NNRT_DEVICE_TYPE_OTHER || d->type_ > NNRT_DEVICE_TYPE_ACCELERATOR) {
    return fail(ResultCode::OP_FAILED, where + ": unknown device type " + std::to_string(d->type_));
  }
  d->featureLevel_ = api.get_feature_level(device);
  const bool knownLevel = (d->featureLevel_ >= ANEURALNETWORKS_FEATURE_LEVEL_1 &&
                           d->featureLevel_ <= ANEURALNETWORKS_FEATURE_LEVEL_5) ||
                          (d->featureLevel_ >= ANEURALNETWORKS_FEATURE_LEVEL_6 &&
                           d->featureLevel_ <= ANEURALNETWORKS_FEATURE_LEVEL_8);
  if (!knownLevel) {
    return fail(ResultCode::OP_FAILED, where + ": unknown feature level " + std::to_string(d->featureLevel_));
  }

  nnrt_capabilities caps{};
  nnrt_reason reason{};
  if (nnrt_status s = api.get_capabilities_1_3(device, &caps, &reason); s != NNRT_STATUS_NONE) {
    return Unexpected(driverError(s, reason, where + ": getCapabilities_1_3"));
  }
  if (caps.operand_performance_count > 0 && caps.operand_performance == nullptr) {
    return fail(ResultCode::OP_FAILED, where + ": capability table is NULL");
  }
  if (caps.operand_performance_count > kMaxTableEntries) {
    return fail(ResultCode::OP_FAILED, where + ": capability table has " +
                                           std::to_string(caps.operand_performance_count) + " entries");
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
  if (extensionCount > kMaxTableEntries || (extensionCount > 0 && extensions == nullptr)) {
    return fail(ResultCode::OP_FAILED, where + ": extension table of " + std::to_string(extensionCount) +
                                           " entries is malformed");
  }
  for (uint32_t i = 0; i < extensionCount; ++i) {
    const nnrt_extension& e = extensions[i];
    std::optional<std::string> extensionName = boundedString(e.name);
    if (!extensionName || (e.operand_type_count > 0 && e.operand_types == nullptr) ||
        e.operand_type_count > kMaxTableEntries) {
      return fail(ResultCode::OP_FAILED, where + ": extension " + std::to_string(i) + " is malformed");
    }
    driver::Extension ext{std::move(*extensionName), {}};
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

namespace {
struct StatusCall : DriverCall {
  using DriverCall::DriverCall;
  int32_t status = NNRT_DEVICE_STATUS_UNKNOWN;
};
}  // namespace

std::optional<int32_t> DriverDevice::queryStatus(std::chrono::milliseconds timeout) const {
  auto call = std::make_shared<StatusCall>(guard_);
  guard_->submit([call, library = library_, device = device_] {
    int32_t status = library->api().get_status(device);
    call->answer([&] { call->status = status; });
  });
  if (!guard_->waitBriefly(*call, timeout)) return std::nullopt;
  return call->status;
}

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

namespace {

struct SupportCall : DriverCall {
  using DriverCall::DriverCall;
  nnrt_status status = NNRT_STATUS_GENERAL_FAILURE;
  std::vector<uint8_t> flags;
  std::vector<std::string> reasons;
  std::string reason;
};

// What a driver answered for one preparation.
struct PrepareCall : DriverCall {
  PrepareCall(std::shared_ptr<DriverGuard> guard, std::shared_ptr<DriverLibrary> library,
              std::shared_ptr<const void> keepAlive, const CacheHandles& cache)
      : DriverCall(std::move(guard)),
        library(std::move(library)),
        keepAlive(std::move(keepAlive)),
        modelCache(cache.modelCache),
        dataCache(cache.dataCache),
        token(cache.token) {}
  // What the driver may use until it answers.
  std::shared_ptr<DriverLibrary> library;
  std::shared_ptr<const void> keepAlive;
  OwnedFds modelCache, dataCache;
  std::vector<uint8_t> token;
  // The answer.
  nnrt_status status = NNRT_STATUS_GENERAL_FAILURE;
  nnrt_prepared_model* prepared = nullptr;
  std::string reason;
};

void prepareCallback(void* context, nnrt_status status, nnrt_prepared_model* prepared, const char* reason) {
  auto call = std::dynamic_pointer_cast<PrepareCall>(DriverCallbacks::take(context));
  if (!call) {
    return noteUnexpectedCallback(context, prepared != nullptr
                                               ? "called back twice for one preparation (the second model is leaked)"
                                               : "called back twice for one preparation");
  }
  if (!call->answer([&] {
        call->status = status;
        call->prepared = prepared;
        call->reason = reasonOf(reason);
      })) {
    // Nobody waits for this model any more: released here.
    if (prepared != nullptr) call->library->api().release_prepared_model(prepared);
    call->guard()->noteLateAnswer("a preparation ended after the runtime stopped waiting for it (its model is released)");
  }
}

// Launches a preparation on a worker (`launch` calls the driver with the callback and context) and
// waits for its callback.
template <class Launch>
Result<std::shared_ptr<PreparedModel>> prepareWith(const std::shared_ptr<DriverGuard>& guard,
                                                   std::shared_ptr<PrepareCall> call, uint64_t deadlineNs,
                                                   const std::string& what, Launch launch) {
  guard->submit([call, launch] {
    void* context = DriverCallbacks::add(call);
    nnrt_reason reason{};
    nnrt_status s = launch(*call, context, &reason);
    // A failed launch is answered with its status, should the driver not also call back.
    if (s != NNRT_STATUS_NONE && DriverCallbacks::take(context)) {
      call->answer([&] {
        call->status = s;
        call->reason = reasonText(reason);
      });
    }
  });
  DriverGuard::WaitEnd end = guard->wait(*call, deadlineNs, what);
  if (end != DriverGuard::WaitEnd::Answered) return Unexpected(waitError(end, what));
  if (call->status != NNRT_STATUS_NONE || call->prepared == nullptr) {
    if (call->prepared != nullptr) call->library->api().release_prepared_model(call->prepared);
    // Success without a model is a failure.
    nnrt_status s = call->status != NNRT_STATUS_NONE ? call->status : NNRT_STATUS_GENERAL_FAILURE;
    return Unexpected(statusError(s, call->reason, what));
  }
  return std::make_shared<PreparedModel>(call->library, call->prepared, guard);
}

}  // namespace

Result<DriverDevice::Support> DriverDevice::getSupportedOperations(const nnrt_model& model) const {
  const std::string what = "getSupportedOperations_1_3 on '" + name_ + "'";
  auto call = std::make_shared<SupportCall>(guard_);
  guard_->submit([call, library = library_, device = device_, &model] {
    std::vector<uint8_t> flags(model.main.operation_count, 0);
    std::vector<std::string> reasons(model.main.operation_count);
    auto explain = [](void* context, uint32_t index, const char* reason) {
      auto* list = static_cast<std::vector<std::string>*>(context);
      if (index < list->size() && reason != nullptr) (*list)[index] = reasonOf(reason);
    };
    nnrt_reason reason{};
    nnrt_status s = library->api().get_supported_operations_1_3(device, &model, flags.data(), explain, &reasons,
                                                                &reason);
    call->answer([&] {
      call->status = s;
      call->flags = std::move(flags);
      call->reasons = std::move(reasons);
      call->reason = reasonText(reason);
    });
  });
  DriverGuard::WaitEnd end = guard_->wait(*call, 0, what);
  if (end != DriverGuard::WaitEnd::Answered) return Unexpected(waitError(end, what));
  if (call->status != NNRT_STATUS_NONE) {
    return Unexpected(statusError(call->status, call->reason, what));
  }
  for (size_t i = 0; i < call->flags.size(); ++i) {
    if (call->flags[i] > 1) {
      return fail(ResultCode::OP_FAILED, what + ": the driver answered " + std::to_string(call->flags[i]) +
                                             " (not 0 or 1) for operation " + std::to_string(i) +
                                             "; its answer is refused");
    }
  }
  Support support;
  support.supported.assign(call->flags.begin(), call->flags.end());
  support.reasons = std::move(call->reasons);
  return support;
}

Result<std::shared_ptr<PreparedModel>> DriverDevice::prepareModel(const nnrt_model& model, int32_t preference,
                                                                  int32_t priority, uint64_t deadlineNs,
                                                                  const CacheHandles& cache,
                                                                  std::shared_ptr<const void> keepAlive) const {
  auto call = std::make_shared<PrepareCall>(guard_, library_, std::move(keepAlive), cache);
  return prepareWith(guard_, call, deadlineNs, "prepareModel_1_3 on '" + name_ + "'",
                     [device = device_, &model, preference, priority, deadlineNs](PrepareCall& c, void* context,
                                                                                   nnrt_reason* reason) {
                       return c.library->api().prepare_model_1_3(
                           device, &model, preference, priority, deadlineNs, c.modelCache.fds.data(),
                           static_cast<uint32_t>(c.modelCache.fds.size()), c.dataCache.fds.data(),
                           static_cast<uint32_t>(c.dataCache.fds.size()), c.token.empty() ? nullptr : c.token.data(),
                           &prepareCallback, context, reason);
                     });
}

Result<std::shared_ptr<PreparedModel>> DriverDevice::prepareModelFromCache(uint64_t deadlineNs,
                                                                           const CacheHandles& cache) const {
  auto call = std::make_shared<PrepareCall>(guard_, library_, nullptr, cache);
  return prepareWith(guard_, call, deadlineNs, "prepareModelFromCache_1_3 on '" + name_ + "'",
                     [device = device_, deadlineNs](PrepareCall& c, void* context, nnrt_reason* reason) {
                       return c.library->api().prepare_model_from_cache_1_3(
                           device, deadlineNs, c.modelCache.fds.data(), static_cast<uint32_t>(c.modelCache.fds.size()),
                           c.dataCache.fds.data(), static_cast<uint32_t>(c.dataCache.fds.size()),
                           c.token.empty() ? nullptr : c.token.data(), &prepareCallback, context, reason);
                     });
}

}  // namespace nnrt
