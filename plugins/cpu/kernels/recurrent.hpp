// The recurrent cells: RNN, SVDF and LSTM (float32; the driver runs float16 through them widened).
// One call computes one time step for every batch entry. Matrices are row-major; a weight matrix of
// shape [rows, cols] multiplies a vector of `cols` entries.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

// The activation codes of the recurrent operations: the FuseCodes 0..3, and for LSTM's cell also
// tanh (4) and sigmoid (6). Code 5 ("sign bit") is not an NNAPI activation.
enum class RecurrentActivation : int32_t { None = 0, Relu = 1, Relu1 = 2, Relu6 = 3, Tanh = 4, Sigmoid = 6 };

// Whether `code` is one of the codes above.
bool isRecurrentActivation(int32_t code);

// RNN: hiddenOut[b] = output[b] = act(weights x[b] + recurrentWeights hiddenIn[b] + bias).
// weights [numUnits, inputSize], recurrentWeights [numUnits, numUnits], bias [numUnits].
void rnn(const float* input, const float* weights, const float* recurrentWeights, const float* bias,
         const float* hiddenIn, size_t batch, size_t inputSize, size_t numUnits, RecurrentActivation act,
         float* hiddenOut, float* output);

// SVDF with numFilters = numUnits * rank feature filters; filters u * rank .. u * rank + rank - 1
// feed unit u. The state holds, per batch and filter, memorySize activations, oldest first:
// stateIn/stateOut are [batch, numFilters * memorySize]. A step writes the new activation
// (weightsFeature x) in the last slot, computes
//   output[b, u] = act(bias[u] + sum over the unit's filters f and slots m of weightsTime[f, m] * state[f,
//   m]),
// then shifts every filter's memory one slot towards the front, leaving 0 in the last slot.
// weightsFeature [numFilters, inputSize], weightsTime [numFilters, memorySize], bias [numUnits] or null.
struct SvdfDims {
  size_t batch = 0, inputSize = 0, numFilters = 0, rank = 1, memorySize = 0;
};
void svdf(const float* input, const float* weightsFeature, const float* weightsTime, const float* bias,
          const float* stateIn, const SvdfDims& dims, RecurrentActivation act, float* stateOut,
          float* output);

// LSTM weights; null pointers mark the absent optional parts:
//  - CIFG (coupled input and forget gate): inputToInput, recurrentToInput and inputGateBias null; the
//    input gate is 1 - forget gate.
//  - peephole: cellToForget and cellToOutput (and cellToInput without CIFG) non-null.
//  - projection: projectionWeights [outputSize, numUnits] non-null, projectionBias optional.
//  - layer normalization: outputLayerNorm (and forget, cell, input without CIFG) non-null; the gate
//    biases are then added after the normalization.
// Input weights are [numUnits, inputSize], recurrent weights [numUnits, outputSize], the rest
// [numUnits]. Without projection outputSize == numUnits.
struct LstmWeights {
  const float *inputToInput = nullptr, *inputToForget = nullptr, *inputToCell = nullptr,
              *inputToOutput = nullptr;
  const float *recurrentToInput = nullptr, *recurrentToForget = nullptr, *recurrentToCell = nullptr,
              *recurrentToOutput = nullptr;
  const float *cellToInput = nullptr, *cellToForget = nullptr, *cellToOutput = nullptr;
  const float *inputGateBias = nullptr, *forgetGateBias = nullptr, *cellBias = nullptr,
              *outputGateBias = nullptr;
  const float *projectionWeights = nullptr, *projectionBias = nullptr;
  const float *inputLayerNorm = nullptr, *forgetLayerNorm = nullptr, *cellLayerNorm = nullptr,
              *outputLayerNorm = nullptr;
};
struct LstmDims {
  size_t batch = 0, inputSize = 0, numUnits = 0, outputSize = 0;
};
// One LSTM step. cellClip / projClip > 0 bound the new cell state / the projected output to
// [-clip, clip]. scratch is [batch, numUnits * (CIFG ? 3 : 4)]: per batch entry the gate values of
// the step, [input gate (not with CIFG), forget gate, cell candidate, output gate], each numUnits.
// outputStateOut and output receive the same values. With `inputPreactivations` ([batch, gates *
// numUnits] from lstmInputPreactivations) the step takes W x (+ bias) from there instead of computing it.
void lstm(const float* input, const LstmWeights& w, const LstmDims& dims, const float* outputStateIn,
          const float* cellStateIn, RecurrentActivation act, float cellClip, float projClip, float* scratch,
          float* outputStateOut, float* cellStateOut, float* output, const float* inputPreactivations = nullptr);

// The input half of lstm()'s pre-activations for `rows` input rows (time steps x batch entries, each
// inputSize values) at once, one matrix product per gate: out is [rows, gates * numUnits], per row the
// gates in lstm()'s scratch order, each its bias (0 with layer normalization, whose biases come after
// it) plus its input weights x the row. A sequence computes it for a block of steps before running
// them one after the other, so that the input weights are read once per block, not once per step.
void lstmInputPreactivations(const float* input, size_t rows, const LstmWeights& w, const LstmDims& dims,
                             float* out);

}  // namespace nnrt::cpu
