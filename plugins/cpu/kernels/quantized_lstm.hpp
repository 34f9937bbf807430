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

// QUANTIZED_LSTM: one LSTM step on signed 8-bit data (feature level 4), in the integer arithmetic
// of Android's reference (common/cpu_operations/QLSTM.cpp), which defines the operation's results.
// Per batch entry, unit u and gate k (input, forget, cell, output), "x * s" rescaling an integer by a
// fixed-point multiplier as gemmlowp does (a rounded doubling high product, then a rounding shift):
//   pre_k  = sat16(sum_i (x_i - xZero) W_k[u, i] (+ bias_k[u], see below) * inputEffective_k)
//          + sum_j (h_j - hZero) R_k[u, j] * recurrentEffective_k          (saturated to int16)
//          + P_k[u] c[u] * peepholeEffective_k                             (saturated to int16)
//   With layer normalization: mean = trunc(1024 sum / n), var = trunc((sum_sq trunc(2^20 / n) -
//   mean^2) / 2^20), z = (1024 pre - mean) * invSqrt(var) (Android's Newton iteration), pre =
//   sat16(round((z L_k[u] + bias_k[u]) / 1024) * lnScale 2^12). pre is read with 3 integer bits:
//   i, f, o = sigmoid, g = tanh in gemmlowp's 16-bit fixed point (0 integer bits); CIFG: i = 32767 - f.
//   c'  = sat16(round(f cPrev / 2^15) + round(i g / 2^(30 + cellShift))), clipped to +-cellClip
//   hid = clamp(o tanh(c') * hiddenEffective - hiddenZeroPoint, int8)   (tanh with cellShift + 15
//         integer bits)
//   out = clamp((projBias[k] + sum_u (hid_u + hiddenZeroPoint) Pr[k, u]) * projectionEffective
//         + outZero, int8), clipped to +-projectionClip; out = hid without projection.
// Rounding is to nearest, halves away from zero. Where this differs from Android's reference:
// - the peephole of the input and forget gates reads the previous cell state (Android's reads the
//   cell state output before this step writes it), the output gate's the new one, as LSTM defines;
// - without layer normalization the gate biases are added at the scale NNAPI documents (input scale
//   times the weights' scale); Android's reference drops them there;
// - sums and products are computed in 64 bits where Android's int32 ones could overflow.
struct QuantizedLstm {
  size_t batch = 0, inputSize = 0, numUnits = 0, outputSize = 0;
  // Per gate (input, forget, cell, output); the input gate's are null under CIFG. Weights
  // [numUnits, inputSize] and [numUnits, outputSize], symmetric.
  std::array<const int8_t*, 4> inputWeights{}, recurrentWeights{};
  std::array<double, 4> inputEffective{}, recurrentEffective{};  // weights' scale * data scale / intermediate
  std::array<const int16_t*, 4> peephole{};  // [numUnits]; null without peephole (never the cell gate)
  std::array<double, 4> peepholeEffective{};
  std::array<const int16_t*, 4> layerNorm{};  // [numUnits]; null without layer normalization
  std::array<double, 4> layerNormScale{};
  std::array<const int32_t*, 4> biases{};  // [numUnits]
  int32_t inputZeroPoint = 0, outputZeroPoint = 0;
  int cellShift = -11;         // the cell state's scale is 2^cellShift, -15 <= cellShift <= -9
  int32_t cellClip = 0;        // in cell state units; 0: none
  double hiddenEffective = 0;  // 2^-30 / hidden scale
  int32_t hiddenZeroPoint = 0;
  const int8_t* projection = nullptr;       // [outputSize, numUnits], or null
  const int32_t* projectionBias = nullptr;  // [outputSize], or null
  double projectionEffective = 0;           // projection scale * hidden scale / output scale
  int32_t projectionClip = 0;               // in stored units; 0: none
};

// input [batch, inputSize], outputIn and output [batch, outputSize] (int8); cellIn and cellOut
// [batch, numUnits] (int16). Without projection outputSize == numUnits. Preconditions: every size
// below 2^15 (the accumulators stay below 2^34); every effective scale below 2^31.
void quantizedLstm(const int8_t* input, const QuantizedLstm& p, const int8_t* outputIn, const int16_t* cellIn,
                   int16_t* cellOut, int8_t* output);

}  // namespace nnrt::cpu
