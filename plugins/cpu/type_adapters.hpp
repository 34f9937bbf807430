// Kernels for one operand type serving another, exactly:
//  - viaFloat32<Run>: TENSOR_FLOAT16 tensors and FLOAT16 scalars are widened to float32 in the
//    execution's scratch memory, the float32 kernel runs, and float16 outputs are rounded back
//    (NNAPI's float16 tolerance is far above what the two roundings cost).
//  - viaUnsigned<Run>: TENSOR_QUANT8_ASYMM_SIGNED tensors become TENSOR_QUANT8_ASYMM by adding 128
//    to every value and to the zero point. real = scale * (q - zeroPoint) is unchanged, and so are
//    the unsigned kernel's rounding and saturation: the result is bit-exact, not an approximation.
// Other operands (per-channel filters, int32 biases, parameters) pass through untouched.
#pragma once

#include "plugins/cpu/cpu_operations.hpp"

namespace nnrt::cpu {

enum class Widening { Float16ToFloat32, SignedToUnsigned };

// Converts the operands `widening` concerns, runs `run` on the converted call, converts back.
driver::Result<void> runWidened(const KernelCall& call, RunFn run, Widening widening);

template <RunFn Run>
driver::Result<void> viaFloat32(const KernelCall& call) {
  return runWidened(call, Run, Widening::Float16ToFloat32);
}

template <RunFn Run>
driver::Result<void> viaUnsigned(const KernelCall& call) {
  return runWidened(call, Run, Widening::SignedToUnsigned);
}

}  // namespace nnrt::cpu
