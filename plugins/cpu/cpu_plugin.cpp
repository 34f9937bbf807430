// Entry point of libnnrt_driver_cpu.so.
#include <cstdlib>
#include <thread>

#include "nnrt/driver/driver.hpp"
#include "plugins/cpu/cpu_device.hpp"

namespace {

// Options: threads (parallelism of oneTBB loops and OpenBLAS; default: all hardware threads).
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
  NNRT_RETURN_IF_ERROR(options.checkAllUsed());
  nnrt::driver::DeviceList devices;
  devices.push_back(std::make_unique<nnrt::cpu::CpuDevice>(threads));
  return devices;
}

}  // namespace

NNRT_DRIVER_EXPORT("cpu", "0.1.0", openCpuPlugin)
