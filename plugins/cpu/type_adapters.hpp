// Kernels for one operand type serving another:
//  - viaFloat32<Run>: TENSOR_FLOAT16 tensors and FLOAT16 scalars are widened to float32 in the
//    execution's scratch memory, the float32 kernel runs, and float16 outputs are rounded back
//    (NNAPI's float16 tolerance is far above what the two roundings cost).
//  - viaUnsigned<Run>: TENSOR_QUANT8_ASYMM_SIGNED tensors become TENSOR_QUANT8_ASYMM by adding 128
//    to every value and to the zero point. real = scale * (q - zeroPoint) is unchanged, and so are
//    the unsigned kernel's rounding and saturation: the result is bit-exact, not an approximation.
//  - viaDequantized<Run>: quantized tensors (TENSOR_QUANT8_ASYMM, _SIGNED, TENSOR_QUANT16_ASYMM,
//    TENSOR_QUANT16_SYMM) become TENSOR_FLOAT32 real values, the float32 kernel runs, and quantized
//    outputs are quantized again with their own scale and zero point (round to nearest, halves away
//    from zero, saturated). This is how Android's reference runs the detection operations; it is
//    exact to the output's quantization step.
// Other operands (per-channel filters, int32 biases, parameters) pass through untouched. Operations
// that place their outputs once they know their shapes (KernelCall::placeOutput) are served too.
#pragma once

#include "plugins/cpu/cpu_operations.hpp"

namespace nnrt::cpu {

enum class Widening { Float16ToFloat32, SignedToUnsigned, QuantizedToFloat32 };

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

template <RunFn Run>
driver::Result<void> viaDequantized(const KernelCall& call) {
  return runWidened(call, Run, Widening::QuantizedToFloat32);
}

}  // namespace nnrt::cpu
