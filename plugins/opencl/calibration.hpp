// Measured capabilities: at open(), the plugin times an element-wise ADD (2^18 elements) and a
// 256x256x256 GEMM on the device and the same work on the reference CPU kernels (nnrt_cpu_kernels,
// linked statically), and reports execTime = device time / CPU time (the geometric mean of the two
// ratios) for each operand type it runs: TENSOR_FLOAT32, the FLOAT32 and INT32 parameters, and — when
// the device has cl_khr_fp16 — TENSOR_FLOAT16, FLOAT16 and the relaxed numbers from a float16 build
// (without cl_khr_fp16 those run float32 arithmetic and get the float32 numbers).
//
// powerUsage is a heuristic, not a measurement: execTime for CPU devices, execTime * 0.5 for GPUs and
// accelerators (the same work at a lower power draw than the CPU cores it would occupy).
//
// Each timing is the best of three runs after a warm-up run: a few tens of milliseconds of measuring,
// plus building the driver's program (the one models use, with the same options, so that an OpenCL
// implementation that caches builds by source has it ready for the first model). With `measure`
// false, every number is the declared 1.0 and nothing is built.
#pragma once

#include "nnrt/driver/driver.hpp"
#include "plugins/opencl/cl_context.hpp"

namespace nnrt::opencl {

struct Calibration {
  driver::Capabilities capabilities;
  float float32Ratio = 1.0f;  // device time / CPU time, float32 build
  float float16Ratio = 1.0f;  // the same for the float16 build (cl_khr_fp16 only; else float32Ratio)
  double milliseconds = 0;    // how long calibrating took, building included
};

driver::Result<Calibration> calibrate(const DeviceContext& context, bool measure);

}  // namespace nnrt::opencl
