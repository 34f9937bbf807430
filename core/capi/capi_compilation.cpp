// The C API of devices and compilations.
#include <android/NeuralNetworks.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <vector>

#include "core/capi/handles.hpp"
#include "core/device/device_registry.hpp"
#include "core/device/driver_buffer.hpp"

using nnrt::Error;
using nnrt::ResultCode;
using nnrt::capi::guarded;
using nnrt::capi::notForOneDevice;
using nnrt::capi::report;
using nnrt::capi::unexpectedNull;

namespace {

constexpr uint64_t kDefaultLoopTimeoutNs = 2'000'000'000ull;
constexpr uint64_t kMaximumLoopTimeoutNs = 15'000'000'000ull;

// One ANeuralNetworksDevice per loaded device, made once with the registry and never freed.
const std::vector<ANeuralNetworksDevice>& deviceHandles() {
  static std::once_flag once;
  static std::vector<ANeuralNetworksDevice> handles;
  std::call_once(once, [] {
    for (const auto& d : nnrt::DeviceRegistry::global().devices()) handles.push_back({d});
  });
  return handles;
}

// Device functions fail when the configuration could not be read, naming why.
int configProblem(const char* function) {
  const auto& error = nnrt::DeviceRegistry::global().configError();
  return error ? report(function, *error) : ANEURALNETWORKS_NO_ERROR;
}

}  // namespace

extern "C" {

int ANeuralNetworks_getDeviceCount(uint32_t* numDevices) {
  static constexpr const char* kFn = "ANeuralNetworks_getDeviceCount";
  if (numDevices == nullptr) return unexpectedNull(kFn, "numDevices");
  return guarded(kFn, [&]() -> int {
    if (int problem = configProblem(kFn)) return problem;
    *numDevices = static_cast<uint32_t>(deviceHandles().size());
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworks_getDevice(uint32_t devIndex, ANeuralNetworksDevice** device) {
  static constexpr const char* kFn = "ANeuralNetworks_getDevice";
  if (device == nullptr) return unexpectedNull(kFn, "device");
  return guarded(kFn, [&]() -> int {
    const auto& handles = deviceHandles();
    if (devIndex >= handles.size()) {
      return report(kFn, Error{ResultCode::BAD_DATA, "devIndex " + std::to_string(devIndex) +
                                                         " is out of range (there are " + std::to_string(handles.size()) +
                                                         " devices)"});
    }
    *device = const_cast<ANeuralNetworksDevice*>(&handles[devIndex]);
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksDevice_getName(const ANeuralNetworksDevice* device, const char** name) {
  static constexpr const char* kFn = "ANeuralNetworksDevice_getName";
  if (device == nullptr) return unexpectedNull(kFn, "device");
  if (name == nullptr) return unexpectedNull(kFn, "name");
  *name = device->device->name().c_str();
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getType(const ANeuralNetworksDevice* device, int32_t* type) {
  static constexpr const char* kFn = "ANeuralNetworksDevice_getType";
  if (device == nullptr) return unexpectedNull(kFn, "device");
  if (type == nullptr) return unexpectedNull(kFn, "type");
  *type = device->device->type();
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getVersion(const ANeuralNetworksDevice* device, const char** version) {
  static constexpr const char* kFn = "ANeuralNetworksDevice_getVersion";
  if (device == nullptr) return unexpectedNull(kFn, "device");
  if (version == nullptr) return unexpectedNull(kFn, "version");
  *version = device->device->versionString().c_str();
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getFeatureLevel(const ANeuralNetworksDevice* device, int64_t* featureLevel) {
  static constexpr const char* kFn = "ANeuralNetworksDevice_getFeatureLevel";
  if (device == nullptr) return unexpectedNull(kFn, "device");
  if (featureLevel == nullptr) return unexpectedNull(kFn, "featureLevel");
  *featureLevel = device->device->featureLevel();
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_wait(const ANeuralNetworksDevice* device) {
  static constexpr const char* kFn = "ANeuralNetworksDevice_wait";
  if (device == nullptr) return unexpectedNull(kFn, "device");
  return guarded(kFn, [&]() -> int {
    // A driver that does not answer within a second is as good as unavailable.
    if (device->device->available() &&
        device->device->queryStatus(std::chrono::seconds(1)) == NNRT_DEVICE_STATUS_AVAILABLE) {
      return ANEURALNETWORKS_NO_ERROR;
    }
    return report(kFn, Error{ResultCode::UNAVAILABLE_DEVICE, "device '" + device->device->name() + "' is not available"});
  });
}

// Feature level 7: every NNAPI operation through feature level 7 (BATCH_MATMUL, PACK, MIRROR_PAD, REVERSE
// included), control flow and memory domains (4), padding, reusable executions and the memory
// preference queries (5). What a device runs is its own feature level.
int64_t ANeuralNetworks_getRuntimeFeatureLevel(void) { return ANEURALNETWORKS_FEATURE_LEVEL_7; }
uint64_t ANeuralNetworks_getDefaultLoopTimeout(void) { return kDefaultLoopTimeoutNs; }
uint64_t ANeuralNetworks_getMaximumLoopTimeout(void) { return kMaximumLoopTimeoutNs; }

int ANeuralNetworksCompilation_create(ANeuralNetworksModel* model, ANeuralNetworksCompilation** compilation) {
  static constexpr const char* kFn = "ANeuralNetworksCompilation_create";
  if (compilation == nullptr) return unexpectedNull(kFn, "compilation");
  *compilation = nullptr;
  if (model == nullptr) return unexpectedNull(kFn, "model");
  return guarded(kFn, [&]() -> int {
    auto finished = model->builder.finishedModel();
    if (!finished) return report(kFn, Error{ResultCode::BAD_STATE, "the model is not finished"});
    if (int problem = configProblem(kFn)) return problem;
    *compilation = new ANeuralNetworksCompilation{nnrt::Compilation(finished, nnrt::DeviceRegistry::global(), {})};
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksCompilation_createForDevices(ANeuralNetworksModel* model, const ANeuralNetworksDevice* const* devices,
                                                uint32_t numDevices, ANeuralNetworksCompilation** compilation) {
  static constexpr const char* kFn = "ANeuralNetworksCompilation_createForDevices";
  if (compilation == nullptr) return unexpectedNull(kFn, "compilation");
  *compilation = nullptr;
  if (model == nullptr) return unexpectedNull(kFn, "model");
  if (devices == nullptr) return unexpectedNull(kFn, "devices");
  return guarded(kFn, [&]() -> int {
    if (numDevices == 0) return report(kFn, Error{ResultCode::BAD_DATA, "numDevices is 0"});
    std::vector<std::shared_ptr<nnrt::DriverDevice>> list;
    std::set<const nnrt::DriverDevice*> seen;
    for (uint32_t i = 0; i < numDevices; ++i) {
      if (devices[i] == nullptr) return unexpectedNull(kFn, ("devices[" + std::to_string(i) + "]").c_str());
      if (!seen.insert(devices[i]->device.get()).second) {
        return report(kFn, Error{ResultCode::BAD_DATA, "devices[" + std::to_string(i) + "] appears twice"});
      }
      list.push_back(devices[i]->device);
    }
    auto finished = model->builder.finishedModel();
    if (!finished) return report(kFn, Error{ResultCode::BAD_STATE, "the model is not finished"});
    *compilation = new ANeuralNetworksCompilation{
        nnrt::Compilation(finished, nnrt::DeviceRegistry::global(), std::move(list))};
    return ANEURALNETWORKS_NO_ERROR;
  });
}

void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation* compilation) { delete compilation; }

int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation* compilation, int32_t preference) {
  static constexpr const char* kFn = "ANeuralNetworksCompilation_setPreference";
  if (compilation == nullptr) return unexpectedNull(kFn, "compilation");
  return guarded(kFn, [&]() -> int { return report(kFn, compilation->compilation.setPreference(preference)); });
}

int ANeuralNetworksCompilation_setPriority(ANeuralNetworksCompilation* compilation, int priority) {
  static constexpr const char* kFn = "ANeuralNetworksCompilation_setPriority";
  if (compilation == nullptr) return unexpectedNull(kFn, "compilation");
  return guarded(kFn, [&]() -> int { return report(kFn, compilation->compilation.setPriority(priority)); });
}

int ANeuralNetworksCompilation_setTimeout(ANeuralNetworksCompilation* compilation, uint64_t duration) {
  static constexpr const char* kFn = "ANeuralNetworksCompilation_setTimeout";
  if (compilation == nullptr) return unexpectedNull(kFn, "compilation");
  if (!compilation->compilation.finished() && !compilation->compilation.forOneExplicitDevice()) {
    return notForOneDevice(kFn, "a compilation");  // a finished one is BAD_STATE first, as in Android
  }
  return guarded(kFn, [&]() -> int { return report(kFn, compilation->compilation.setTimeout(duration)); });
}

int ANeuralNetworksCompilation_setCaching(ANeuralNetworksCompilation* compilation, const char* cacheDir,
                                          const uint8_t* token) {
  static constexpr const char* kFn = "ANeuralNetworksCompilation_setCaching";
  if (compilation == nullptr) return unexpectedNull(kFn, "compilation");
  if (cacheDir == nullptr) return unexpectedNull(kFn, "cacheDir");
  if (token == nullptr) return unexpectedNull(kFn, "token");
  return guarded(kFn, [&]() -> int { return report(kFn, compilation->compilation.setCaching(cacheDir, token)); });
}

int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation* compilation) {
  static constexpr const char* kFn = "ANeuralNetworksCompilation_finish";
  if (compilation == nullptr) return unexpectedNull(kFn, "compilation");
  return guarded(kFn, [&]() -> int { return report(kFn, compilation->compilation.finish()); });
}

// The largest alignment or padding the devices of the compilation's steps prefer (ABI 1.1).
static int preferred(const char* function, const ANeuralNetworksCompilation* compilation, uint32_t index, bool input,
                     uint32_t* out, bool alignment) {
  if (compilation == nullptr) return unexpectedNull(function, "compilation");
  if (out == nullptr) return unexpectedNull(function, "alignment/padding");
  auto compiled = compilation->compilation.compiled();
  if (!compiled) return report(function, Error{ResultCode::BAD_STATE, "the compilation is not finished"});
  size_t count = input ? compiled->model().inputs.size() : compiled->model().outputs.size();
  if (index >= count) {
    return report(function, Error{ResultCode::BAD_DATA, "index " + std::to_string(index) + " is out of range"});
  }
  // Every device step: of the main subgraph and of the subgraphs that interpreted IF and WHILE run
  // (an interpreted step itself has no device).
  uint32_t value = 1;
  auto take = [&](const nnrt::CompiledSubgraph& sub) {
    for (const nnrt::CompiledStep& step : sub.steps) {
      if (step.device == nullptr) continue;
      nnrt_memory_preference p = nnrt::memoryPreference(*step.device);
      value = std::max(value, alignment ? p.alignment : p.padding);
    }
  };
  take(compiled->main());
  for (uint32_t s = 0; s < compiled->model().referenced.size(); ++s) take(compiled->referenced(s));
  *out = value;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(const ANeuralNetworksCompilation* compilation,
                                                                   uint32_t index, uint32_t* alignment) {
  return preferred("ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput", compilation, index, true,
                   alignment, true);
}
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(const ANeuralNetworksCompilation* compilation,
                                                                 uint32_t index, uint32_t* padding) {
  return preferred("ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput", compilation, index, true, padding, false);
}
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput(const ANeuralNetworksCompilation* compilation,
                                                                    uint32_t index, uint32_t* alignment) {
  return preferred("ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput", compilation, index, false,
                   alignment, true);
}
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(const ANeuralNetworksCompilation* compilation,
                                                                  uint32_t index, uint32_t* padding) {
  return preferred("ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput", compilation, index, false,
                   padding, false);
}

}  // extern "C"
