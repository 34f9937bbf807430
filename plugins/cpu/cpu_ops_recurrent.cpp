// The cpu driver's kernel table for the recurrent family (see recurrentKernels() in cpu_operations.hpp).
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/type_adapters.hpp"

namespace nnrt::cpu {

std::span<const KernelEntry> recurrentKernels() {
  return {};
}

}  // namespace nnrt::cpu
