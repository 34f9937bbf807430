#include "plugins/opencl/opencl_device.hpp"

#include "nnrt/driver/clock.hpp"
#include "plugins/opencl/byte_stream.hpp"
#include "plugins/opencl/cache_file.hpp"
#include "plugins/opencl/kernel_source.hpp"
#include "plugins/opencl/prepared_model.hpp"

namespace nnrt::opencl {
namespace {

constexpr uint32_t kMaxOptionsLength = 4096;

driver::Result<void> checkDeadline(uint64_t deadlineNs) {
  if (driver::deadlinePassed(deadlineNs)) {
    return driver::fail(driver::ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                        "the deadline passed before preparation");
  }
  return {};
}

// Every operation supported, and one float precision: what a prepared model needs.
driver::Result<void> checkRunnable(const driver::Model& model, driver::ErrorStatus status,
                                   const std::string& what) {
  const FloatTensorTypes types = floatTensorTypes(model.main());
  for (uint32_t i = 0; i < model.main().operations().size(); ++i) {
    if (std::string why = unsupportedReason(model, i, types); !why.empty()) {
      return driver::fail(status, what + " operation " + std::to_string(i) + " cannot run: " + why);
    }
  }
  if (types.float32 && types.float16) {
    return driver::fail(status,
                        what +
                            " mixes TENSOR_FLOAT32 and TENSOR_FLOAT16 tensors; the opencl driver runs "
                            "one precision per model");
  }
  return {};
}

}  // namespace

OpenClDevice::OpenClDevice(std::shared_ptr<DeviceContext> context, DeviceOptions options)
    : context_(std::move(context)), options_(std::move(options)) {
  const ClDeviceInfo& info = context_->info();
  // CL_DEVICE_VERSION reads "OpenCL <major.minor> <vendor text>": keep the first two words.
  std::string cl =
      info.openclVersion.substr(0, info.openclVersion.find(' ', info.openclVersion.find(' ') + 1));
  version_ = info.driverVersion + " (" + cl + ")";
  cacheKey_ = std::string("nnrt-opencl ") + kOpenClPluginVersion + "; " + version_ + "; kernels " +
              hex64(programSourceHash());
}

driver::Result<std::unique_ptr<OpenClDevice>> OpenClDevice::create(ClDeviceInfo info,
                                                                   const DeviceOptions& options) {
  NNRT_ASSIGN_OR_RETURN(std::shared_ptr<DeviceContext> context, DeviceContext::create(std::move(info)));
  std::unique_ptr<OpenClDevice> device(new OpenClDevice(context, options));
  auto calibration = calibrate(*context, {options.calibrate, options.calibrationCache, device->cacheKey_});
  if (!calibration) {
    driver::Error error = std::move(calibration).error();
    error.message = "calibrating '" + context->info().name + "' failed: " + error.message;
    return Unexpected(std::move(error));
  }
  device->calibration_ = std::move(*calibration);
  return device;
}

driver::DeviceType OpenClDevice::getType() const {
  const cl_device_type type = context_->info().type;
  if (type & CL_DEVICE_TYPE_GPU) return driver::DeviceType::GPU;
  if (type & CL_DEVICE_TYPE_CPU) return driver::DeviceType::CPU;
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return driver::DeviceType::ACCELERATOR;
  return driver::DeviceType::OTHER;
}

driver::DeviceStatus OpenClDevice::getStatus() const {
  if (context_->lost()) return driver::DeviceStatus::OFFLINE;
  cl_bool available = CL_FALSE;
  if (clGetDeviceInfo(context_->device(), CL_DEVICE_AVAILABLE, sizeof available, &available, nullptr) !=
      CL_SUCCESS) {
    return driver::DeviceStatus::UNKNOWN;
  }
  return available ? driver::DeviceStatus::AVAILABLE : driver::DeviceStatus::OFFLINE;
}

driver::Result<std::vector<bool>> OpenClDevice::getSupportedOperations_1_3(
    const driver::Model& model, const driver::Explainer& explain) const {
  const FloatTensorTypes types = floatTensorTypes(model.main());
  std::vector<bool> supported(model.main().operations().size(), false);
  for (uint32_t i = 0; i < supported.size(); ++i) {
    std::string why = unsupportedReason(model, i, types);
    supported[i] = why.empty();
    if (!why.empty()) explain(i, why);
  }
  return supported;
}

Precision OpenClDevice::precisionFor(const ModelCopy& model) const {
  return choosePrecision(floatTensorTypes(model.main()), model.relaxed(), context_->info().fp16,
                         options_.fp16);
}

std::string OpenClDevice::programOptions(Precision precision) const {
  std::string options = buildOptions(precision);
  if (!options_.buildOptions.empty()) options += (options.empty() ? "" : " ") + options_.buildOptions;
  return options;
}

driver::Result<void> OpenClDevice::writeCache(const driver::CacheFiles& cache, const ModelCopy& model,
                                              cl_program program, const std::string& options) const {
  NNRT_ASSIGN_OR_RETURN(std::vector<uint8_t> binary, context_->programBinary(program));
  ByteWriter payload;
  payload.putString(options);
  payload.putBytes(binary);
  const CacheIdentity identity{getName(), cacheKey_, cache.token};
  NNRT_RETURN_IF_ERROR(writeCacheFile(cache.modelCache[0], CacheKind::Program, identity, payload.bytes()));
  return writeCacheFile(cache.dataCache[0], CacheKind::Model, identity, model.serialize());
}

driver::Result<std::unique_ptr<driver::PreparedModel>> OpenClDevice::prepareModel_1_3(
    const driver::Model& model, const driver::PrepareOptions& options,
    const driver::CacheFiles& cache) const {
  NNRT_RETURN_IF_ERROR(checkDeadline(options.deadlineNs));
  NNRT_RETURN_IF_ERROR(checkRunnable(model, driver::ErrorStatus::INVALID_ARGUMENT, "the model's"));
  const bool caching = !cache.modelCache.empty() || !cache.dataCache.empty();
  if (caching && (cache.modelCache.size() != 1 || cache.dataCache.size() != 1)) {
    return driver::invalidArgument("the opencl driver takes 1 model-cache and 1 data-cache file, not " +
                                   std::to_string(cache.modelCache.size()) + " and " +
                                   std::to_string(cache.dataCache.size()));
  }
  NNRT_ASSIGN_OR_RETURN(std::unique_ptr<ModelCopy> copy, ModelCopy::copy(model));
  const Precision precision = precisionFor(*copy);
  const std::string programOptions = this->programOptions(precision);
  if (!options_.buildFromSource) {
    return driver::generalFailure(
        "option build_from_source is false: the opencl driver compiles no OpenCL C, so "
        "this model can only be prepared from its cache");
  }
  NNRT_ASSIGN_OR_RETURN(ClProgram program, context_->buildFromSource(programSource(), programOptions));
  if (caching && cache.token.size() == NNRT_CACHE_TOKEN_SIZE) {
    // As in Android's HAL, a cache that cannot be written does not fail the preparation: the model is
    // ready, and the next compilation simply finds no usable cache and prepares from the model again.
    (void)writeCache(cache, *copy, program.get(), programOptions);
  }
  NNRT_ASSIGN_OR_RETURN(
      std::unique_ptr<OpenClPreparedModel> prepared,
      OpenClPreparedModel::create({context_, std::move(copy), precision, std::move(program)}));
  return std::unique_ptr<driver::PreparedModel>(std::move(prepared));
}

driver::Result<std::unique_ptr<driver::PreparedModel>> OpenClDevice::prepareModelFromCache_1_3(
    const driver::PrepareOptions& options, const driver::CacheFiles& cache) const {
  NNRT_RETURN_IF_ERROR(checkDeadline(options.deadlineNs));
  if (cache.modelCache.size() != 1 || cache.dataCache.size() != 1) {
    return driver::generalFailure("the opencl driver reads 1 model-cache and 1 data-cache file, not " +
                                  std::to_string(cache.modelCache.size()) + " and " +
                                  std::to_string(cache.dataCache.size()));
  }
  const CacheIdentity identity{getName(), cacheKey_, cache.token};
  NNRT_ASSIGN_OR_RETURN(std::vector<uint8_t> data,
                        readCacheFile(cache.dataCache[0], CacheKind::Model, identity));
  NNRT_ASSIGN_OR_RETURN(std::unique_ptr<ModelCopy> copy, ModelCopy::deserialize(data));
  NNRT_RETURN_IF_ERROR(
      checkRunnable(copy->model(), driver::ErrorStatus::GENERAL_FAILURE, "the cached model's"));
  const Precision precision = precisionFor(*copy);
  const std::string programOptions = this->programOptions(precision);

  NNRT_ASSIGN_OR_RETURN(std::vector<uint8_t> payload,
                        readCacheFile(cache.modelCache[0], CacheKind::Program, identity));
  ByteReader reader(payload);
  std::string cachedOptions;
  std::span<const uint8_t> binary;
  if (!reader.getString(cachedOptions, kMaxOptionsLength) || !reader.getBytes(reader.remaining(), binary) ||
      binary.empty()) {
    return driver::generalFailure("the model cache file holds no program binary");
  }
  if (cachedOptions != programOptions) {
    return driver::generalFailure("the cached program was built with options '" + cachedOptions +
                                  "', but this model now needs '" + programOptions + "'");
  }
  auto program = context_->buildFromBinary(binary, programOptions);
  if (!program) {
    return driver::generalFailure("the cached program binary does not load: " + program.error().message);
  }
  NNRT_ASSIGN_OR_RETURN(
      std::unique_ptr<OpenClPreparedModel> prepared,
      OpenClPreparedModel::create({context_, std::move(copy), precision, std::move(*program)}));
  return std::unique_ptr<driver::PreparedModel>(std::move(prepared));
}

}  // namespace nnrt::opencl
