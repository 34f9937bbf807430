// The cpu driver's kernel table for the tensor family (see tensorKernels() in cpu_operations.hpp).
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/type_adapters.hpp"

namespace nnrt::cpu {

std::span<const KernelEntry> tensorKernels() {
  return {};
}

}  // namespace nnrt::cpu
