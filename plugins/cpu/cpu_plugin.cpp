// Entry point of libnnrt_driver_cpu.so.
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "nnrt/driver/driver.hpp"
#include "plugins/cpu/cpu_device.hpp"

namespace {

// Options: threads (parallelism of oneTBB loops, oneDNN's OpenMP team and OpenBLAS; default: all
// hardware threads); fast (on | off, default on: the oneDNN fast layer for the hot operations; off
// runs the reference kernels only); fast_min_elements (default kFastMinElements: light operations,
// element-wise work, with fewer output elements run on the reference kernels, fast_path.hpp);
// winograd (on | off, default on: 3x3 stride-1 float32 CONV_2D as Winograd F(2x2, 3x3) where
// oneDNN has it; off keeps every convolution direct); fusion (on | off, default on: runs of float32
// element-wise operations run as one kernel, elementwise_fusion.cpp); profile (a file path, default
// none: each prepared model, when released, appends the median time of each of its operations and
// the kernel that ran it; the file must be writable when the plugin opens).
nnrt::driver::Result<nnrt::driver::DeviceList> openCpuPlugin(const nnrt::driver::Options& options) {
  int threads = static_cast<int>(std::thread::hardware_concurrency());
  if (auto t = options.get("threads")) {
    char* end = nullptr;
    long v = std::strtol(t->c_str(), &end, 10);
    if (t->empty() || *end != '\0' || v < 1 || v > 1024) {
      return nnrt::driver::invalidArgument("option threads='" + *t + "' is not a whole number in 1..1024");
    }
    threads = static_cast<int>(v);
  }
  bool fast = true;
  if (auto f = options.get("fast")) {
    if (*f != "on" && *f != "off") return nnrt::driver::invalidArgument("option fast='" + *f + "' is not on or off");
    fast = *f == "on";
  }
  size_t minElements = nnrt::cpu::kFastMinElements;
  if (auto m = options.get("fast_min_elements")) {
    char* end = nullptr;
    unsigned long long v = std::strtoull(m->c_str(), &end, 10);
    if (m->empty() || *end != '\0' || (*m)[0] == '-' || v > (1ull << 40)) {
      return nnrt::driver::invalidArgument("option fast_min_elements='" + *m +
                                           "' is not a whole number in 0..2^40");
    }
    minElements = static_cast<size_t>(v);
  }
  bool winograd = true;
  if (auto w = options.get("winograd")) {
    if (*w != "on" && *w != "off") return nnrt::driver::invalidArgument("option winograd='" + *w + "' is not on or off");
    winograd = *w == "on";
  }
  bool fusion = true;
  if (auto f = options.get("fusion")) {
    if (*f != "on" && *f != "off") return nnrt::driver::invalidArgument("option fusion='" + *f + "' is not on or off");
    fusion = *f == "on";
  }
  std::string profile;
  if (auto p = options.get("profile")) {
    if (p->empty() || !std::ofstream(*p, std::ios::app))
      return nnrt::driver::invalidArgument("option profile='" + *p + "' is not a file that can be written");
    profile = *p;
  }
  NNRT_RETURN_IF_ERROR(options.checkAllUsed());
  nnrt::driver::DeviceList devices;
  devices.push_back(std::make_unique<nnrt::cpu::CpuDevice>(threads, fast, minElements, winograd, fusion, profile));
  return devices;
}

}  // namespace

NNRT_DRIVER_EXPORT("cpu", "0.1.0", openCpuPlugin)
