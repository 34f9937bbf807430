#include "plugins/cpu/kernels/fully_connected.hpp"

#include "plugins/cpu/kernels/gemm.hpp"
#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/quantization.hpp"

namespace nnrt::cpu {

void fullyConnected(const float* in, const float* weights, const float* bias, uint32_t batch,
                    uint32_t inputSize, uint32_t numUnits, Activation act, float* out) {
  detail::gemmBiasActivation(in, weights, bias, batch, numUnits, inputSize, act, out);
}

void fullyConnected(const uint8_t* in, Quant inQuant, const uint8_t* weights, Quant weightsQuant,
                    const int32_t* bias, uint32_t batch, uint32_t inputSize, uint32_t numUnits,
                    Activation act, uint8_t* out, Quant outQuant) {
  const auto multiplier =
      QuantizedMultiplier::fromReal(static_cast<double>(inQuant.scale) * weightsQuant.scale / outQuant.scale);
  const auto [lo, hi] = activationRangeQuant8(act, outQuant);
  // One item per output value, so that batch 1 with many units still spreads over threads.
  detail::parallelFor(size_t{batch} * numUnits, inputSize, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const size_t b = i / numUnits;
      const size_t unit = i % numUnits;
      const uint8_t* x = in + b * inputSize;
      const uint8_t* w = weights + unit * inputSize;
      int32_t acc = bias != nullptr ? bias[unit] : 0;
      for (size_t k = 0; k < inputSize; ++k) {
        acc += (int32_t{x[k]} - inQuant.zeroPoint) * (int32_t{w[k]} - weightsQuant.zeroPoint);
      }
      out[i] = clampToUint8(multiplier.apply(acc) + outQuant.zeroPoint, lo, hi);
    }
  });
}

}  // namespace nnrt::cpu
