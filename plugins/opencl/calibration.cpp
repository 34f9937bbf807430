#include "plugins/opencl/calibration.hpp"

#include <cblas.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <optional>
#include <system_error>
#include <thread>
#include <tuple>
#include <vector>

#include "plugins/opencl/byte_stream.hpp"
#include "plugins/opencl/cache_file.hpp"
#include "plugins/opencl/cl_errors.hpp"
#include "plugins/opencl/kernel_source.hpp"
#include "plugins/opencl/op_support.hpp"

namespace nnrt::opencl {
namespace {

using Clock = std::chrono::steady_clock;
using driver::OperandType;

constexpr size_t kElements = size_t{1} << 18;
constexpr size_t kGemmSize = 256;
constexpr int kRuns = 3;
// Part of the calibration cache's key: a change to the workload or the reference changes it, so that
// older cached ratios are measured again.
constexpr const char* kCalibrationMethod =
    "calibration 2: add 2^18 (host loop on every core), gemm 256 (BLAS)";

double seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// Best of kRuns timed runs after one warm-up run.
template <class F>
driver::Result<double> bestTime(F&& run) {
  double best = 1e30;
  for (int i = 0; i <= kRuns; ++i) {
    const auto start = Clock::now();
    NNRT_RETURN_IF_ERROR(run());
    if (i > 0) best = std::min(best, seconds(Clock::now() - start));
  }
  return std::max(best, 1e-9);
}

driver::Result<void> setArgs(cl_kernel kernel, const std::vector<std::pair<size_t, const void*>>& args) {
  for (cl_uint i = 0; i < args.size(); ++i) {
    if (cl_int err = clSetKernelArg(kernel, i, args[i].first, args[i].second); err != CL_SUCCESS) {
      return clFail(err, "clSetKernelArg during calibration");
    }
  }
  return {};
}

// Runs body(begin, end) over [0, n) split evenly across the host's cores (the calling thread takes the
// first part).
template <class F>
void onEveryCore(size_t n, const F& body) {
  const size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, n);
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (size_t t = 1; t < threads; ++t)
    pool.emplace_back([&body, n, t, threads] { body(n * t / threads, n * (t + 1) / threads); });
  body(0, n / threads);
  for (std::thread& thread : pool)
    thread.join();
}

struct HostTimes {
  double add = 0;
  double gemm = 0;
};

// The reference: the element-wise work as a plain float32 loop on every host core, the GEMM through the
// host's BLAS (OpenBLAS, the library the cpu driver's GEMM uses, with its default threads), so that
// the ratios compare with what the cpu device runs.
driver::Result<HostTimes> measureHost() {
  std::vector<float> x(kElements, 1.0f), y(kElements, 2.0f), z(kElements);
  HostTimes times;
  try {
    NNRT_ASSIGN_OR_RETURN(times.add, bestTime([&]() -> driver::Result<void> {
                            onEveryCore(kElements, [&](size_t begin, size_t end) {
                              for (size_t i = begin; i < end; ++i)
                                z[i] = x[i] + y[i];
                            });
                            return {};
                          }));
    // out = a * b^T + bias, as a fully connected layer computes it, through the host's BLAS.
    constexpr int n = static_cast<int>(kGemmSize);
    std::vector<float> out(kGemmSize * kGemmSize);
    NNRT_ASSIGN_OR_RETURN(times.gemm, bestTime([&]() -> driver::Result<void> {
                            for (size_t row = 0; row < kGemmSize; ++row)
                              std::copy(z.begin(), z.begin() + n, out.begin() + row * kGemmSize);
                            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0f, x.data(), n,
                                        y.data(), n, 1.0f, out.data(), n);
                            return {};
                          }));
    // Keep the results observable, so that no loop is optimized away.
    volatile float sink = out.back() + z.back();
    (void)sink;
  } catch (const std::system_error& e) {
    return driver::generalFailure(std::string("cannot start the host reference's threads: ") + e.what());
  }
  return times;
}

// Device time / host time for the element-wise and GEMM work, combined as a geometric mean.
driver::Result<float> measureRatio(const DeviceContext& ctx, Precision precision, const HostTimes& host) {
  // The models' own program and options: a driver that caches builds by source (PoCL does) then has the
  // first model's program ready.
  NNRT_ASSIGN_OR_RETURN(ClProgram program, ctx.buildFromSource(programSource(), buildOptions(precision)));
  NNRT_ASSIGN_OR_RETURN(ClQueue queue, ctx.createQueue(false));
  const size_t element = storageElementSize(precision);
  NNRT_ASSIGN_OR_RETURN(ClMem a, ctx.createBuffer(kElements * element, CL_MEM_READ_WRITE));
  NNRT_ASSIGN_OR_RETURN(ClMem b, ctx.createBuffer(kElements * element, CL_MEM_READ_WRITE));
  NNRT_ASSIGN_OR_RETURN(ClMem c, ctx.createBuffer(kElements * element, CL_MEM_READ_WRITE));
  const cl_float zero = 0.0f;
  for (cl_mem buffer : {a.get(), b.get(), c.get()}) {
    if (cl_int err = clEnqueueFillBuffer(queue.get(), buffer, &zero, element == 4 ? 4 : 2, 0,
                                         kElements * element, 0, nullptr, nullptr);
        err != CL_SUCCESS) {
      return clFail(err, "clEnqueueFillBuffer during calibration");
    }
  }

  auto runKernel = [&](cl_kernel kernel, cl_uint dims, const size_t* global, const size_t* local) {
    return [=, &queue]() -> driver::Result<void> {
      if (cl_int err =
              clEnqueueNDRangeKernel(queue.get(), kernel, dims, nullptr, global, local, 0, nullptr, nullptr);
          err != CL_SUCCESS) {
        return clFail(err, "clEnqueueNDRangeKernel during calibration");
      }
      if (cl_int err = clFinish(queue.get()); err != CL_SUCCESS)
        return clFail(err, "clFinish during calibration");
      return {};
    };
  };

  NNRT_ASSIGN_OR_RETURN(ClKernel add, ctx.createKernel(program.get(), "nnrt_add_same"));
  const cl_int count = static_cast<cl_int>(kElements);
  const cl_float lo = -INFINITY, hi = INFINITY;
  cl_mem am = a.get(), bm = b.get(), cm = c.get();
  NNRT_RETURN_IF_ERROR(setArgs(add.get(), {{sizeof am, &am},
                                           {sizeof bm, &bm},
                                           {sizeof cm, &cm},
                                           {sizeof count, &count},
                                           {sizeof lo, &lo},
                                           {sizeof hi, &hi}}));
  const size_t group = std::min<size_t>(64, ctx.info().maxWorkGroupSize);
  const size_t global = (kElements + group - 1) / group * group;
  NNRT_ASSIGN_OR_RETURN(double deviceAdd, bestTime(runKernel(add.get(), 1, &global, &group)));

  // The GEMM reads the same buffers: A = a, B = b (256 x 256 each), bias = c, C = c.
  const GemmConfig& config =
      gemmConfigs()[ctx.info().maxWorkGroupSize >= gemmConfigs()[0].workGroupSize() ? 0 : 2];
  NNRT_ASSIGN_OR_RETURN(ClKernel gemm,
                        ctx.createKernel(program.get(), "nnrt_gemm" + std::string(config.suffix)));
  const cl_int n = static_cast<cl_int>(kGemmSize);
  NNRT_ASSIGN_OR_RETURN(ClMem out, ctx.createBuffer(kGemmSize * kGemmSize * element, CL_MEM_READ_WRITE));
  cl_mem om = out.get();
  NNRT_RETURN_IF_ERROR(setArgs(gemm.get(), {{sizeof am, &am},
                                            {sizeof bm, &bm},
                                            {sizeof cm, &cm},
                                            {sizeof om, &om},
                                            {sizeof n, &n},
                                            {sizeof n, &n},
                                            {sizeof n, &n},
                                            {sizeof lo, &lo},
                                            {sizeof hi, &hi}}));
  const size_t local[2] = {config.tn / config.wn, config.tm / config.wm};
  const size_t grid[2] = {kGemmSize / config.tn * local[0], kGemmSize / config.tm * local[1]};
  NNRT_ASSIGN_OR_RETURN(double deviceGemm, bestTime(runKernel(gemm.get(), 2, grid, local)));

  const double ratio = std::sqrt((deviceAdd / host.add) * (deviceGemm / host.gemm));
  return static_cast<float>(std::clamp(ratio, 1e-3, 1e3));
}

// The cache file's identity: the device, and the driver key with the calibration method.
struct CacheKey {
  std::string deviceName;
  std::string driverVersion;
  std::vector<uint8_t> token = std::vector<uint8_t>(NNRT_CACHE_TOKEN_SIZE, 0);
  CacheIdentity identity() const { return {deviceName, driverVersion, token}; }
};

bool plausible(float ratio) {
  return std::isfinite(ratio) && ratio >= 1e-3f && ratio <= 1e3f;
}

// The cached ratios, or nullopt when the file is missing, foreign or corrupt.
std::optional<std::pair<float, float>> readCachedRatios(const std::filesystem::path& file,
                                                        const CacheKey& key) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  auto payload = readCacheFile(fd, CacheKind::Calibration, key.identity());
  ::close(fd);
  if (!payload) return std::nullopt;
  ByteReader r(*payload);
  float float32 = 0, float16 = 0;
  if (!r.get(float32) || !r.get(float16) || !plausible(float32) || !plausible(float16)) return std::nullopt;
  return std::pair{float32, float16};
}

// Writes the ratios to a temporary file beside `file` and renames it over `file`. Failures leave the
// cache as it was: the next start measures again.
void writeCachedRatios(const std::filesystem::path& file, const CacheKey& key, float float32, float float16) {
  std::error_code ignored;
  std::filesystem::create_directories(file.parent_path(), ignored);
  std::string temporary = file.string() + ".XXXXXX";
  const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);
  if (fd < 0) return;
  ByteWriter payload;
  payload.put(float32);
  payload.put(float16);
  const bool written =
      writeCacheFile(fd, CacheKind::Calibration, key.identity(), payload.bytes()).has_value();
  if (::close(fd) != 0 || !written || ::rename(temporary.c_str(), file.c_str()) != 0) {
    ::unlink(temporary.c_str());
  }
}

}  // namespace

std::filesystem::path calibrationCacheFile(const std::string& deviceName, const std::string& driverKey) {
  std::filesystem::path folder;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/') {
    folder = xdg;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/') {
    folder = std::filesystem::path(home) / ".cache";
  } else {
    return {};
  }
  std::string key = deviceName;
  key.push_back('\0');
  key += driverKey;
  const uint64_t hash = fnv1a64({reinterpret_cast<const uint8_t*>(key.data()), key.size()});
  return folder / "nnrt" / ("opencl-calibration-" + hex64(hash) + ".bin");
}

driver::Result<Calibration> calibrate(const DeviceContext& context, const CalibrationOptions& options) {
  Calibration result;
  const auto start = Clock::now();
  const bool measure = options.measure;
  if (measure) {
    const CacheKey key{context.info().name, options.driverKey + "; " + kCalibrationMethod};
    const std::filesystem::path file = options.useCache
                                           ? calibrationCacheFile(context.info().name, options.driverKey)
                                           : std::filesystem::path();
    if (auto cached = file.empty() ? std::nullopt : readCachedRatios(file, key)) {
      std::tie(result.float32Ratio, result.float16Ratio) = *cached;
      result.fromCache = true;
    } else {
      NNRT_ASSIGN_OR_RETURN(HostTimes host, measureHost());
      NNRT_ASSIGN_OR_RETURN(result.float32Ratio, measureRatio(context, Precision::Float32, host));
      result.float16Ratio = result.float32Ratio;
      if (context.info().fp16) {
        NNRT_ASSIGN_OR_RETURN(result.float16Ratio, measureRatio(context, Precision::HalfCompute, host));
      }
      if (!file.empty()) writeCachedRatios(file, key, result.float32Ratio, result.float16Ratio);
    }
  }
  const bool gpuLike = (context.info().type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) != 0;
  auto perf = [gpuLike, measure](float ratio) {
    if (!measure) return nnrt_perf_info{1.0f, 1.0f};
    return nnrt_perf_info{ratio, gpuLike ? ratio * 0.5f : ratio};
  };
  driver::Capabilities& caps = result.capabilities;
  for (auto [type, ratio] : {std::pair{OperandType::FLOAT32, result.float32Ratio},
                             std::pair{OperandType::INT32, result.float32Ratio},
                             std::pair{OperandType::TENSOR_FLOAT32, result.float32Ratio},
                             std::pair{OperandType::TENSOR_FLOAT16, result.float16Ratio},
                             std::pair{OperandType::FLOAT16, result.float16Ratio}}) {
    caps.operandPerformance.push_back({static_cast<int32_t>(type), perf(ratio)});
  }
  caps.relaxedFloat32toFloat16PerformanceScalar = perf(result.float16Ratio);
  caps.relaxedFloat32toFloat16PerformanceTensor = perf(result.float16Ratio);
  result.milliseconds = seconds(Clock::now() - start) * 1000.0;
  return result;
}

}  // namespace nnrt::opencl
