// Measured capabilities: at open(), the plugin times an element-wise ADD (2^18 elements) and a
// 256x256x256 GEMM on the device, and the same work on the host (the reference: the ADD as a plain
// loop of its own over every host core, the GEMM through the host's BLAS, which the cpu driver's GEMM
// also calls), and reports execTime = device time / host time (the geometric mean of the two ratios) for each
// operand type it runs: TENSOR_FLOAT32, the FLOAT32 and INT32 parameters, and — when the device has
// cl_khr_fp16 — TENSOR_FLOAT16, FLOAT16 and the relaxed numbers from a float16 build (without cl_khr_fp16
// those run float32 arithmetic and get the float32 numbers). The plugin links no other driver's code
// (docs/configuration.md#opencl-calibration).
//
// powerUsage is a heuristic, not a measurement: execTime for CPU devices, execTime * 0.5 for GPUs and
// accelerators (the same work at a lower power draw than the CPU cores it would occupy).
//
// Each timing is the best of three runs after a warm-up run: a few tens of milliseconds of measuring,
// plus building the driver's program (the one models use, with the same options, so that an OpenCL
// implementation that caches builds by source has it ready for the first model). With `measure`
// false, every number is the declared 1.0 and nothing is built.
//
// The two measured ratios are cached in the user's cache folder ($XDG_CACHE_HOME/nnrt/, else
// ~/.cache/nnrt/), one file per device and driver: its name hashes the device name and the driver key
// (plugin version, OpenCL driver version, kernel source hash), and its header (cache_file.hpp, kind
// Calibration) repeats both, so another device, driver or plugin build never reads it. A missing,
// foreign or corrupt file is measured again and rewritten (through a temporary file and a rename, so
// concurrent processes never see half a file); a cache folder that cannot be written only costs the
// measurement at each start.
#pragma once

#include <filesystem>
#include <string>

#include "nnrt/driver/driver.hpp"
#include "plugins/opencl/cl_context.hpp"

namespace nnrt::opencl {

struct Calibration {
  driver::Capabilities capabilities;
  float float32Ratio = 1.0f;  // device time / host time, float32 build
  float float16Ratio = 1.0f;  // the same for the float16 build (cl_khr_fp16 only; else float32Ratio)
  double milliseconds = 0;    // how long calibrating took: building, or reading the cache, included
  bool fromCache = false;     // the ratios were read from the calibration cache file
};

struct CalibrationOptions {
  bool measure = true;    // false: declare 1.0 everywhere
  bool useCache = true;   // read and write the calibration cache file
  std::string driverKey;  // what the cache file is keyed by besides the device name
};

driver::Result<Calibration> calibrate(const DeviceContext& context, const CalibrationOptions& options);

// Where the calibration of `deviceName` with `driverKey` is cached; empty when neither XDG_CACHE_HOME
// nor HOME is set (absolute paths only, as the XDG specification asks).
std::filesystem::path calibrationCacheFile(const std::string& deviceName, const std::string& driverKey);

}  // namespace nnrt::opencl
