// A driver built to misbehave, one way per device, for the runtime's robustness tests. It offers
// one device that runs float32 ADD (of two same-sized inputs, activation ignored) faster than the
// cpu claims to, and misbehaves as its option `fault` says:
//   none                          behaves
//   prepare_never_calls_back      prepare_model_1_3 returns NONE and never calls back
//   prepare_hangs                 prepareModel_1_3 never returns
//   prepare_calls_back_twice      a second callback 300 ms later, on another thread
//   prepare_calls_back_late       the model arrives 600 ms later, on another thread
//   execute_hangs                 executeSynchronously_1_3 never returns (execute_1_3 and fenced too)
//   execute_never_calls_back      execute_1_3 returns NONE and never calls back
//   execute_calls_back_twice      a second execute callback 100 ms later, on another thread
//   status_hangs                  getStatus never returns
//   status_hangs_when_stuck       execute hangs, and from then on getStatus never returns
//   throw_<call>                  the C++ method behind <call> throws: get_name, get_version_string,
//                                 get_type, get_feature_level, get_status, get_capabilities,
//                                 get_supported_operations, prepare, execute
//   supported_garbage             get_supported_operations_1_3 writes 0xAB instead of 0/1
//   shapes_garbage                execute_synchronously_1_3 reports is_sufficient 0xAB
//   execute_crashes_on_negative   an execution whose first input starts with a negative number
//                                 crashes the process (SIGSEGV); others run (isolation: process only)
//   execute_hangs_on_negative     an execution whose first input starts with a negative number
//                                 never returns; others run
// Faults the SDK cannot express (a callback withheld or repeated, bytes other than 0/1) wrap its
// generated C entry points.
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "nnrt/driver/driver.hpp"

namespace {

using namespace nnrt::driver;

[[noreturn]] void hangForever() {
  for (;;)
    std::this_thread::sleep_for(std::chrono::hours(1));
}

class FaultPrepared : public PreparedModel {
 public:
  FaultPrepared(std::string fault, std::atomic<bool>& stuck) : fault_(std::move(fault)), stuck_(stuck) {}
  const std::string& fault() const { return fault_; }
  Result<ExecutionResult> executeSynchronously_1_3(const Request& request, const ExecuteOptions&) override {
    if (fault_ == "execute_hangs" || fault_ == "status_hangs_when_stuck") {
      stuck_ = true;
      hangForever();
    }
    if (fault_ == "throw_execute") throw std::runtime_error("execute exploded");
    NNRT_ASSIGN_OR_RETURN(auto a, request.inputBytes(0));
    if (fault_ == "execute_crashes_on_negative" && a.size() >= sizeof(float)) {
      float first;
      std::memcpy(&first, a.data(), sizeof(float));
      if (first < 0) std::raise(SIGSEGV);  // as a driver that dereferences NULL
    }
    if (fault_ == "execute_hangs_on_negative" && a.size() >= sizeof(float)) {
      float first;
      std::memcpy(&first, a.data(), sizeof(float));
      if (first < 0) hangForever();
    }
    NNRT_ASSIGN_OR_RETURN(auto b, request.inputBytes(1));
    NNRT_ASSIGN_OR_RETURN(auto out, request.outputBytes(0));
    const size_t n = out.size() / sizeof(float);
    if (a.size() < out.size() || b.size() < out.size())
      return invalidArgument("inputs smaller than the output");
    for (size_t i = 0; i < n; ++i) {
      float x, y;
      std::memcpy(&x, a.data() + i * sizeof(float), sizeof(float));
      std::memcpy(&y, b.data() + i * sizeof(float), sizeof(float));
      const float z = x + y;
      std::memcpy(out.data() + i * sizeof(float), &z, sizeof(float));
    }
    ExecutionResult result;
    OutputShape shape;
    const nnrt_request_argument& o = request.outputs()[0];
    shape.dimensions.assign(o.dimensions, o.dimensions + o.rank);
    result.outputShapes.push_back(std::move(shape));
    return result;
  }

 private:
  std::string fault_;
  std::atomic<bool>& stuck_;
};

class FaultDevice : public Device {
 public:
  explicit FaultDevice(std::string fault) : fault_(std::move(fault)) {
    capabilities_.operandPerformance = {{static_cast<int32_t>(OperandType::TENSOR_FLOAT32), {0.1f, 0.1f}}};
  }
  const std::string& fault() const { return fault_; }
  const std::string& getName() const override {
    if (fault_ == "throw_get_name") throw std::runtime_error("no name today");
    return name_;
  }
  const std::string& getVersionString() const override {
    if (fault_ == "throw_get_version_string") throw std::runtime_error("no version today");
    return version_;
  }
  DeviceType getType() const override {
    if (fault_ == "throw_get_type") throw std::runtime_error("no type today");
    return DeviceType::ACCELERATOR;
  }
  int64_t getFeatureLevel() const override {
    if (fault_ == "throw_get_feature_level") throw std::runtime_error("no level today");
    return kFeatureLevelHal13;
  }
  DeviceStatus getStatus() const override {
    if (fault_ == "throw_get_status") throw std::runtime_error("no status today");
    if (fault_ == "status_hangs" || (fault_ == "status_hangs_when_stuck" && stuck_)) hangForever();
    return DeviceStatus::AVAILABLE;
  }
  const Capabilities& getCapabilities_1_3() const override {
    if (fault_ == "throw_get_capabilities") throw std::runtime_error("no capabilities today");
    return capabilities_;
  }
  Result<std::vector<bool>> getSupportedOperations_1_3(const Model& model,
                                                       const Explainer& explain) const override {
    if (fault_ == "throw_get_supported_operations") throw std::runtime_error("no support today");
    std::vector<bool> supported;
    for (uint32_t i = 0; i < model.main().operations().size(); ++i) {
      const nnrt_operation& op = model.main().operations()[i];
      const bool add =
          op.type == static_cast<int32_t>(OperationType::ADD) &&
          model.main().operands()[op.inputs[0]].type == static_cast<int32_t>(OperandType::TENSOR_FLOAT32);
      if (!add) explain(i, "the fault device runs float32 ADD only");
      supported.push_back(add);
    }
    return supported;
  }
  Result<std::unique_ptr<PreparedModel>> prepareModel_1_3(const Model&, const PrepareOptions&,
                                                          const CacheFiles&) const override {
    if (fault_ == "prepare_hangs") hangForever();
    if (fault_ == "throw_prepare") throw std::runtime_error("prepare exploded");
    return std::unique_ptr<PreparedModel>(std::make_unique<FaultPrepared>(fault_, stuck_));
  }

 private:
  std::string fault_;
  std::string name_ = "fault-device";
  std::string version_ = "fault 1.0";
  Capabilities capabilities_;
  mutable std::atomic<bool> stuck_{false};
};

Result<DeviceList> openFault(const Options& options) {
  std::string fault = options.get("fault", "none");
  NNRT_RETURN_IF_ERROR(options.checkAllUsed());
  DeviceList devices;
  devices.push_back(std::make_unique<FaultDevice>(fault));
  return devices;
}

constexpr const char* kName = "fault";
constexpr const char* kVersion = "1.0.0";
using Glue = detail::Glue<&kName, &kVersion, &openFault>;

const std::string& faultOf(const nnrt_device* device) {
  return static_cast<const FaultDevice&>(*detail::device(device)->impl).fault();
}
const std::string& faultOf(nnrt_prepared_model* prepared) {
  return static_cast<const FaultPrepared&>(Glue::prepared(prepared)).fault();
}

// A callback fired again `delay` later from a thread of its own, as a broken driver would.
template <class F>
void later(std::chrono::milliseconds delay, F&& fire) {
  std::thread([delay, fire = std::forward<F>(fire)] {
    std::this_thread::sleep_for(delay);
    fire();
  }).detach();
}

nnrt_status prepare(const nnrt_device* d, const nnrt_model* model, int32_t preference, int32_t priority,
                    uint64_t deadline, const int* modelFds, uint32_t modelCount, const int* dataFds,
                    uint32_t dataCount, const uint8_t* token, nnrt_prepare_callback callback, void* context,
                    nnrt_reason* reason) {
  const std::string& fault = faultOf(d);
  if (fault == "prepare_never_calls_back") return NNRT_STATUS_NONE;
  if (fault == "prepare_calls_back_late") {
    // Prepared now (the model view is valid only during this call), delivered later.
    struct Held {
      nnrt_status status = NNRT_STATUS_GENERAL_FAILURE;
      nnrt_prepared_model* prepared = nullptr;
    };
    auto held = std::make_shared<Held>();
    auto keep = [](void* c, nnrt_status s, nnrt_prepared_model* p, const char*) {
      auto* h = static_cast<Held*>(c);
      h->status = s;
      h->prepared = p;
    };
    Glue::prepare(d, model, preference, priority, deadline, modelFds, modelCount, dataFds, dataCount, token,
                  keep, held.get(), reason);
    later(std::chrono::milliseconds(600),
          [held, callback, context] { callback(context, held->status, held->prepared, ""); });
    return NNRT_STATUS_NONE;
  }
  nnrt_status s = Glue::prepare(d, model, preference, priority, deadline, modelFds, modelCount, dataFds,
                                dataCount, token, callback, context, reason);
  if (fault == "prepare_calls_back_twice") {
    later(std::chrono::milliseconds(300),
          [callback, context] { callback(context, NNRT_STATUS_NONE, nullptr, ""); });
  }
  return s;
}

nnrt_status execute(nnrt_prepared_model* p, const nnrt_request* request, uint8_t measure, uint64_t deadline,
                    uint64_t loopTimeout, nnrt_execute_callback callback, void* context,
                    nnrt_reason* reason) {
  const std::string& fault = faultOf(p);
  if (fault == "execute_never_calls_back") return NNRT_STATUS_NONE;
  nnrt_status s = Glue::execute(p, request, measure, deadline, loopTimeout, callback, context, reason);
  if (fault == "execute_calls_back_twice") {
    later(std::chrono::milliseconds(100), [callback, context] {
      callback(context, NNRT_STATUS_GENERAL_FAILURE, nullptr, 0, nnrt_timing{UINT64_MAX, UINT64_MAX},
               "again");
    });
  }
  return s;
}

nnrt_status executeSync(nnrt_prepared_model* p, const nnrt_request* request, uint8_t measure,
                        uint64_t deadline, uint64_t loopTimeout, nnrt_output_shape* shapes,
                        uint32_t shapeCount, nnrt_timing* timing, nnrt_reason* reason) {
  nnrt_status s =
      Glue::executeSync(p, request, measure, deadline, loopTimeout, shapes, shapeCount, timing, reason);
  if (faultOf(p) == "shapes_garbage" && shapeCount > 0) shapes[0].is_sufficient = 0xAB;
  return s;
}

nnrt_status getSupported(const nnrt_device* d, const nnrt_model* model, uint8_t* supported,
                         nnrt_explain_callback explain, void* context, nnrt_reason* reason) {
  nnrt_status s = Glue::getSupported(d, model, supported, explain, context, reason);
  if (faultOf(d) == "supported_garbage") std::memset(supported, 0xAB, model->main.operation_count);
  return s;
}

const nnrt_driver_api kApi = [] {
  nnrt_driver_api api = Glue::kApi;
  api.prepare_model_1_3 = &prepare;
  api.execute_1_3 = &execute;
  api.execute_synchronously_1_3 = &executeSync;
  api.get_supported_operations_1_3 = &getSupported;
  return api;
}();

}  // namespace

extern "C" __attribute__((visibility("default"))) const nnrt_driver_api* nnrt_driver_get_api(uint32_t) {
  return &kApi;
}
