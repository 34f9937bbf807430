// The runtime's view of one plugin device: identity and capabilities read once at start-up (with
// the configuration's performance overrides applied), and the calls the runtime makes, each
// checked so that a misbehaving plugin yields an error rather than undefined behaviour. Calls that
// can block run through the device's DriverGuard (driver_guard.hpp): every wait is bounded, late
// or repeated callbacks are ignored, and a device whose call never ends is taken out of service.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/config/runtime_config.hpp"
#include "core/device/driver_guard.hpp"
#include "core/device/driver_library.hpp"
#include "core/support/status.hpp"
#include "nnrt/driver/driver.hpp"

namespace nnrt {

// The reason a plugin wrote, and a plugin's failure as the runtime's Error with `context` in front.
std::string reasonText(const nnrt_reason& reason);
Error driverError(nnrt_status status, const nnrt_reason& reason, const std::string& context);
// A driver's execution answer (status NONE or OUTPUT_INSUFFICIENT_SIZE) as the SDK's result.
driver::ExecutionResult toExecutionResult(nnrt_status status, const nnrt_output_shape* shapes, uint32_t count,
                                          nnrt_timing timing);

// A model prepared by a driver. Releases it when the last reference goes (leaks it when the device
// is out of service: a stuck call may still use it); keeps the plugin loaded.
class PreparedModel : public std::enable_shared_from_this<PreparedModel> {
 public:
  PreparedModel(std::shared_ptr<DriverLibrary> library, nnrt_prepared_model* prepared,
                std::shared_ptr<DriverGuard> guard)
      : library_(std::move(library)), prepared_(prepared), guard_(std::move(guard)) {}
  ~PreparedModel();
  PreparedModel(const PreparedModel&) = delete;
  PreparedModel& operator=(const PreparedModel&) = delete;

  // Runs a request to completion. The result's status is NONE or OUTPUT_INSUFFICIENT_SIZE (with
  // the shapes); every other failure is an Error: MISSED_DEADLINE_TRANSIENT when the driver has not
  // ended by the deadline, UNAVAILABLE_DEVICE when the device became unavailable meanwhile, OP_FAILED
  // when it answered nonsense. Thread-safe.
  Result<driver::ExecutionResult> execute(const nnrt_request& request, bool measure, uint64_t deadlineNs,
                                          uint64_t loopTimeoutNs) const;
  // Launches a request with the driver's execute_1_3; `done` runs exactly once, on another thread
  // (errors as execute). `request` is copied; its pools must stay valid until then.
  void executeAsync(const nnrt_request& request, bool measure, uint64_t deadlineNs, uint64_t loopTimeoutNs,
                    std::function<void(Result<driver::ExecutionResult>)> done) const;
  // Whether the driver offers fenced execution (execute_fenced).
  bool offersFencedExecution() const { return library_->api().execute_fenced != nullptr; }
  // Runs a request with the driver's execute_fenced once every fd in `waitFds` is readable, and
  // waits for the driver's fence. Outputs must have fully specified shapes. Thread-safe.
  struct FencedResult {
    driver::Timing launched;  // from the launch
    driver::Timing fenced;    // from the wait-for fences being signalled
  };
  Result<FencedResult> executeFenced(const nnrt_request& request, std::span<const int> waitFds, bool measure,
                                     uint64_t deadlineNs, uint64_t loopTimeoutNs, uint64_t durationNs) const;
  const std::string& deviceName() const { return guard_->deviceName(); }
  // Whether the device is still in service (not so after a call on it was abandoned).
  bool inService() const { return guard_->inService(); }
  // One synchronous driver execution entry (execute_synchronously_1_3, execute_burst) on `request`,
  // with the driver's outputs to fill.
  using SyncEntry = std::function<nnrt_status(const nnrt_request& request, nnrt_output_shape* shapes,
                                              uint32_t count, nnrt_timing* timing, nnrt_reason* reason)>;
  // Runs `entry` as execute() runs execute_synchronously_1_3: on the device's worker, the wait
  // bounded by the deadline and the device's health; `what` names the call in errors.
  Result<driver::ExecutionResult> executeBounded(const nnrt_request& request, uint64_t deadlineNs,
                                                 const std::string& what, SyncEntry entry) const;
  // For the ABI 1.1 calls that take the prepared model (driver_buffer.hpp).
  nnrt_prepared_model* handle() const { return prepared_; }
  const std::shared_ptr<DriverLibrary>& library() const { return library_; }

 private:
  std::shared_ptr<DriverLibrary> library_;
  nnrt_prepared_model* prepared_;
  std::shared_ptr<DriverGuard> guard_;
};

struct CacheHandles {
  std::vector<int> modelCache;
  std::vector<int> dataCache;
  std::vector<uint8_t> token;  // NNRT_CACHE_TOKEN_SIZE bytes, or empty when not caching
};

class DriverDevice {
 public:
  // Reads the device's identity, capabilities and extensions; fails if the plugin answers
  // nonsense (no name or an overlong one, an unknown type or feature level, a capability table out
  // of order, a negative cost, too many entries). `grace`: see DriverGuard.
  static Result<std::shared_ptr<DriverDevice>> create(std::shared_ptr<DriverLibrary> library, nnrt_device* device,
                                                      std::string name, const config::PerformanceOverride& overrides,
                                                      std::chrono::milliseconds grace = kDefaultGrace,
                                                      bool watchdog = true);
  // The grace period when the configuration gives no health check interval.
  static constexpr std::chrono::milliseconds kDefaultGrace{1000};

  const std::string& name() const { return name_; }              // as the runtime and NNAPI know it
  const std::string& driverDeviceName() const { return driverName_; }  // as the plugin calls it
  const std::string& versionString() const { return version_; }
  int32_t type() const { return type_; }
  int64_t featureLevel() const { return featureLevel_; }
  const driver::Capabilities& capabilities() const { return capabilities_; }
  bool performanceOverridden() const { return overridden_; }
  const std::vector<driver::Extension>& extensions() const { return extensions_; }
  driver::CacheFileCounts cacheFilesNeeded() const { return cacheFiles_; }
  const DriverLibrary& library() const { return *library_; }
  nnrt_device* handle() const { return device_; }  // for the ABI 1.1 calls of driver_buffer.hpp

  // ABI 1.1: the (operation, type) pairs the driver declares it runs, asked now; empty when it
  // declares none (an ABI 1.0 plugin, a NULL entry). A malformed table is an error.
  Result<std::vector<nnrt_operation_support>> operationTable() const;

  // Asks the driver now (NNRT_DEVICE_STATUS_*), waiting as long as it takes: for the health check,
  // which asks on a thread of its own.
  int32_t queryStatus() const;
  // Asks the driver, waiting at most `timeout`; nullopt when it did not answer in time.
  std::optional<int32_t> queryStatus(std::chrono::milliseconds timeout) const;
  // The runtime's current opinion: healthy (as the health check last saw it) and in service (no
  // call abandoned). New compilations avoid unavailable devices; executions on them fall back.
  bool available() const { return guard_->available(); }
  bool inService() const { return guard_->inService(); }
  bool healthy() const { return guard_->healthy(); }
  void setHealthy(bool healthy) { guard_->setHealthy(healthy); }

  struct Support {
    std::vector<bool> supported;       // per main-subgraph operation
    std::vector<std::string> reasons;  // why not, where the driver said
  };
  Result<Support> getSupportedOperations(const nnrt_model& model) const;

  // Prepares a model and waits for the driver's callback, bounded as executions are (see
  // PreparedModel::execute). `keepAlive` owns `model`: an abandoned preparation holds it.
  Result<std::shared_ptr<PreparedModel>> prepareModel(const nnrt_model& model, int32_t preference, int32_t priority,
                                                      uint64_t deadlineNs, const CacheHandles& cache,
                                                      std::shared_ptr<const void> keepAlive = nullptr) const;
  Result<std::shared_ptr<PreparedModel>> prepareModelFromCache(uint64_t deadlineNs, const CacheHandles& cache) const;

 private:
  DriverDevice() = default;
  std::shared_ptr<DriverLibrary> library_;
  nnrt_device* device_ = nullptr;
  std::string name_, driverName_, version_;
  int32_t type_ = NNRT_DEVICE_TYPE_OTHER;
  int64_t featureLevel_ = 0;
  driver::Capabilities capabilities_;
  bool overridden_ = false;
  std::vector<driver::Extension> extensions_;
  driver::CacheFileCounts cacheFiles_;
  std::shared_ptr<DriverGuard> guard_;
};

}  // namespace nnrt
