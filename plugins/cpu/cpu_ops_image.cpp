// The cpu driver's kernel table for the image family (see imageKernels() in cpu_operations.hpp).
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/type_adapters.hpp"

namespace nnrt::cpu {

std::span<const KernelEntry> imageKernels() {
  return {};
}

}  // namespace nnrt::cpu
