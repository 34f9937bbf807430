// QUANTIZED_16BIT_LSTM: one LSTM step in 8- and 16-bit fixed point, as NNAPI defines it (feature
// level 3). Pure function over caller-owned buffers.
//
// Formats (raw integer r, real value r * scale): the input and output activations are uint8 with
// scale 1/128 and zero point 128; the gates' pre-activations 16-bit with 3 integer bits (scale 2^-12);
// the gate values 16-bit with 0 integer bits (scale 2^-15); the cell state 16-bit with 4 integer bits
// (scale 2^-11). Every rescaling rounds to nearest with halves away from zero and saturates to the
// destination's range. Per batch entry and unit u, for gate k in (input, forget, cell, output):
//   acc_k   = bias_k[u] + sum_i (x_i - 128)(W_k[u, i] - wZero) + sum_j (h_j - 128)(R_k[u, j] - wZero)
//   pre_k   = sat16(round(acc_k * 4096 * biasScale))                        (3 integer bits)
//   i, f, o = sat16(round(2^15 * sigmoid(pre / 2^12))),  g = the same with tanh  (0 integer bits)
//   c       = sat16(round(round(i * g / 2^15) / 2^4) + round(f * cPrev / 2^15))  (4 integer bits)
//   out     = 128 + clamp(round(round(o * sat16(round(2^15 * tanh(sat16(2 c) / 2^12))) / 2^15) / 2^8))
// Android's reference evaluates sigmoid and tanh with gemmlowp's fixed-point approximations; they are
// exact here (rounded once), which can differ from those by a unit or two of the 2^-15 gate scale.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace nnrt::cpu {

struct QuantizedLstm16 {
  size_t batch = 0, inputSize = 0, outputSize = 0;
  // Input weights [outputSize, inputSize] and recurrent weights [outputSize, outputSize] of the
  // input, forget, cell and output gates, sharing one zero point.
  std::array<const uint8_t*, 4> inputWeights{}, recurrentWeights{};
  int32_t weightsZeroPoint = 0;
  std::array<const int32_t*, 4> biases{};  // [outputSize] each, scale biasScale
  double biasScale = 0.0;                  // the weights' scale / 128
};

// input [batch, inputSize], outputIn and output [batch, outputSize] (uint8, scale 1/128, zero point
// 128); cellIn and cellOut [batch, outputSize] (int16, scale 2^-11). Precondition: inputSize +
// outputSize < 2^16 (the int32 accumulator cannot overflow).
void quantizedLstm16(const uint8_t* input, const QuantizedLstm16& p, const int16_t* cellIn,
                     const uint8_t* outputIn, int16_t* cellOut, uint8_t* output);

}  // namespace nnrt::cpu
