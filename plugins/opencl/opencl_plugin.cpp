// Entry point of libnnrt_driver_opencl.so: enumerates OpenCL platforms and devices through the ICD
// loader and offers one nnrt device per device the options select.
#include <regex>
#include <string>
#include <vector>

#include "nnrt/driver/driver.hpp"
#include "plugins/opencl/cl_errors.hpp"
#include "plugins/opencl/opencl_device.hpp"

#include <CL/cl_ext.h>

namespace nnrt::opencl {
namespace {

std::string platformString(cl_platform_id p, cl_platform_info what) {
  size_t size = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  clGetPlatformInfo(p, what, size, s.data(), nullptr);
  s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
  return s;
}

std::string deviceString(cl_device_id d, cl_device_info what) {
  size_t size = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string s(size, '\0');
  clGetDeviceInfo(d, what, size, s.data(), nullptr);
  s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
  return s;
}

template <class T>
T deviceValue(cl_device_id d, cl_device_info what) {
  T v{};
  clGetDeviceInfo(d, what, sizeof v, &v, nullptr);
  return v;
}

driver::Result<std::regex> pattern(const driver::Options& options, const char* key) {
  std::string text = options.get(key, ".*");
  try {
    return std::regex(text, std::regex::ECMAScript | std::regex::icase);
  } catch (const std::regex_error& e) {
    return driver::invalidArgument(std::string("option ") + key + "='" + text +
                                   "' is not a valid pattern: " + e.what());
  }
}

driver::Result<cl_device_type> deviceType(const driver::Options& options) {
  std::string t = options.get("device_type", "all");
  if (t == "all") return cl_device_type{CL_DEVICE_TYPE_ALL};
  if (t == "gpu") return cl_device_type{CL_DEVICE_TYPE_GPU};
  if (t == "cpu") return cl_device_type{CL_DEVICE_TYPE_CPU};
  if (t == "accelerator") return cl_device_type{CL_DEVICE_TYPE_ACCELERATOR};
  return driver::invalidArgument("option device_type='" + t + "' is not all, gpu, cpu or accelerator");
}

driver::Result<bool> boolean(const driver::Options& options, const char* key, bool fallback) {
  const std::string v = options.get(key, fallback ? "true" : "false");
  if (v == "true") return true;
  if (v == "false") return false;
  return driver::invalidArgument(std::string("option ") + key + "='" + v + "' is not true or false");
}

driver::Result<Fp16Mode> fp16Mode(const driver::Options& options) {
  const std::string v = options.get("fp16", "auto");
  if (v == "auto") return Fp16Mode::Auto;
  if (v == "storage") return Fp16Mode::Storage;
  if (v == "off") return Fp16Mode::Off;
  return driver::invalidArgument("option fp16='" + v + "' is not auto, storage or off");
}

// Options (all optional):
//   platform           pattern on the platform name (default: any)
//   device_type        all | gpu | cpu | accelerator (default all)
//   device             pattern on the device name (default: any)
//   calibrate          true | false (default true): measure capabilities at open (calibration.hpp);
//                      false declares 1.0 for every type
//   calibration_cache  true | false (default true): keep the measured numbers in the user's cache folder
//                      per device and driver, so that later starts read them instead of measuring
//   fp16               auto | storage | off (default auto): how relaxed float32 models run — auto uses
//                      float16 storage and arithmetic where the device has cl_khr_fp16 (float32
//                      elsewhere), storage keeps tensors as float16 with float32 arithmetic on any
//                      device, off keeps float32
//   build_options      extra OpenCL C compiler options for model programs (default none)
//   build_from_source  true | false (default true): false compiles no OpenCL C, so only models in the
//                      compilation cache can be prepared (deployments that ship caches; tests)
// Patterns are case-insensitive ECMAScript regular expressions that may match any part of the name.
driver::Result<driver::DeviceList> openOpenClPlugin(const driver::Options& options) {
  NNRT_ASSIGN_OR_RETURN(std::regex platformPattern, pattern(options, "platform"));
  NNRT_ASSIGN_OR_RETURN(std::regex devicePattern, pattern(options, "device"));
  NNRT_ASSIGN_OR_RETURN(cl_device_type wanted, deviceType(options));
  DeviceOptions deviceOptions;
  NNRT_ASSIGN_OR_RETURN(deviceOptions.calibrate, boolean(options, "calibrate", true));
  NNRT_ASSIGN_OR_RETURN(deviceOptions.calibrationCache, boolean(options, "calibration_cache", true));
  NNRT_ASSIGN_OR_RETURN(deviceOptions.fp16, fp16Mode(options));
  deviceOptions.buildOptions = options.get("build_options", "");
  NNRT_ASSIGN_OR_RETURN(deviceOptions.buildFromSource, boolean(options, "build_from_source", true));
  NNRT_RETURN_IF_ERROR(options.checkAllUsed());

  cl_uint platformCount = 0;
  cl_int err = clGetPlatformIDs(0, nullptr, &platformCount);
  if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && platformCount == 0)) {
    return driver::fail(driver::ErrorStatus::DEVICE_UNAVAILABLE,
                        "no OpenCL platform is installed (the ICD loader found none)");
  }
  if (err != CL_SUCCESS)
    return driver::generalFailure(std::string("clGetPlatformIDs failed: ") + clErrorName(err));
  std::vector<cl_platform_id> platforms(platformCount);
  clGetPlatformIDs(platformCount, platforms.data(), nullptr);

  driver::DeviceList devices;
  std::string seen, failures;
  for (cl_platform_id p : platforms) {
    std::string platformName = platformString(p, CL_PLATFORM_NAME);
    seen += (seen.empty() ? "" : "; ") + platformName + ":";
    if (!std::regex_search(platformName, platformPattern)) continue;
    cl_uint count = 0;
    if (clGetDeviceIDs(p, wanted, 0, nullptr, &count) != CL_SUCCESS || count == 0) continue;
    std::vector<cl_device_id> ids(count);
    clGetDeviceIDs(p, wanted, count, ids.data(), nullptr);
    for (cl_device_id d : ids) {
      ClDeviceInfo info;
      info.platform = p;
      info.device = d;
      info.platformName = platformName;
      info.name = deviceString(d, CL_DEVICE_NAME);
      seen += " " + info.name;
      if (!std::regex_search(info.name, devicePattern)) continue;
      if (!deviceValue<cl_bool>(d, CL_DEVICE_AVAILABLE)) continue;
      info.vendor = deviceString(d, CL_DEVICE_VENDOR);
      info.driverVersion = deviceString(d, CL_DRIVER_VERSION);
      info.openclVersion = deviceString(d, CL_DEVICE_VERSION);
      info.type = deviceValue<cl_device_type>(d, CL_DEVICE_TYPE);
      info.fp16 = deviceString(d, CL_DEVICE_EXTENSIONS).find("cl_khr_fp16") != std::string::npos;
      info.globalMemory = deviceValue<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
      info.localMemory = deviceValue<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE);
      info.maxAllocation = deviceValue<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
      info.maxWorkGroupSize = deviceValue<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
      info.computeUnits = deviceValue<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS);
      auto device = OpenClDevice::create(std::move(info), deviceOptions);
      if (!device) {  // this device is skipped; the plugin fails only when no device starts
        failures += (failures.empty() ? "" : "; ") + device.error().message;
        continue;
      }
      devices.push_back(std::move(*device));
    }
  }
  if (devices.empty() && !failures.empty()) {
    return driver::fail(driver::ErrorStatus::DEVICE_UNAVAILABLE, "no OpenCL device started: " + failures);
  }
  if (devices.empty()) {
    return driver::fail(driver::ErrorStatus::DEVICE_UNAVAILABLE,
                        "no OpenCL device matches the options (found: " + seen + ")");
  }
  return devices;
}

}  // namespace
}  // namespace nnrt::opencl

NNRT_DRIVER_EXPORT("opencl", nnrt::opencl::kOpenClPluginVersion, nnrt::opencl::openOpenClPlugin)
