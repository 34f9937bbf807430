#include "plugins/opencl/calibration.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <vector>

#include "plugins/cpu/kernels/elementwise.hpp"
#include "plugins/cpu/kernels/fully_connected.hpp"
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

// Device time / CPU time for the element-wise and GEMM work, combined as a geometric mean.
driver::Result<float> measureRatio(const DeviceContext& ctx, Precision precision, double cpuAdd,
                                   double cpuGemm) {
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

  const double ratio = std::sqrt((deviceAdd / cpuAdd) * (deviceGemm / cpuGemm));
  return static_cast<float>(std::clamp(ratio, 1e-3, 1e3));
}

}  // namespace

driver::Result<Calibration> calibrate(const DeviceContext& context, bool measure) {
  Calibration result;
  const auto start = Clock::now();
  if (measure) {
    std::vector<float> x(kElements, 1.0f), y(kElements, 2.0f), z(kElements);
    const cpu::Shape shape{{static_cast<uint32_t>(kElements)}};
    NNRT_ASSIGN_OR_RETURN(double cpuAdd, bestTime([&]() -> driver::Result<void> {
                            cpu::add(x.data(), shape, y.data(), shape, cpu::Activation::None, z.data(),
                                     shape);
                            return {};
                          }));
    const uint32_t n = kGemmSize;
    std::vector<float> out(size_t{n} * n);
    NNRT_ASSIGN_OR_RETURN(double cpuGemm, bestTime([&]() -> driver::Result<void> {
                            cpu::fullyConnected(x.data(), y.data(), z.data(), n, n, n, cpu::Activation::None,
                                                out.data());
                            return {};
                          }));
    NNRT_ASSIGN_OR_RETURN(result.float32Ratio, measureRatio(context, Precision::Float32, cpuAdd, cpuGemm));
    result.float16Ratio = result.float32Ratio;
    if (context.info().fp16) {
      NNRT_ASSIGN_OR_RETURN(result.float16Ratio,
                            measureRatio(context, Precision::HalfCompute, cpuAdd, cpuGemm));
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
