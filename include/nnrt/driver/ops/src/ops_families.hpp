// Internal to core/ops: the per-operation functions that the signature table in operation.cpp points
// to, one group per family file. operation.cpp has already checked the operand counts against the
// signature, omitted inputs, operand types being NNAPI types, quantization parameters and scalar
// ranks before it calls a validate function; infer functions get only the count check, so they
// read shapes and parameters defensively.
//
// Adding an operation: write its validate function (and infer function, when the output shapes
// follow from the inputs) in the family file, and add a Signature row to that file's table.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "nnrt/driver/ops/operation.hpp"

namespace nnrt::ops::detail {

// Checks at op.check's depth (see operation.hpp): at Check::Signature only what Android's
// addOperation refuses; value, shape and output-quantization checks only when op.full(). Raises
// op.featureLevel with op.needs(N) for types and options newer than feature level 1.
using ValidateFn = driver::Result<void> (*)(const OpArgs&);
// Output shapes (unknown dimensions 0, unknown rank empty), reading shapes and values defensively.
using InferFn = driver::Result<std::vector<Shape>> (*)(const OpArgs&);

constexpr uint64_t bits(std::initializer_list<uint32_t> positions) {
  uint64_t mask = 0;
  for (uint32_t p : positions)
    mask |= uint64_t{1} << p;
  return mask;
}

// One operation's signature. Before calling `validate`, operation.cpp has checked the input and
// output counts, which inputs may be omitted, that every operand has an NNAPI type (not OEM or
// SUBGRAPH: see checkOperand in operation.cpp), the quantization parameters
// of each operand and that scalars have rank 0.
struct Signature {
  OperationType type;
  uint64_t inputCounts;          // bit n set: the operation may take n inputs
  uint32_t inputsVariadicFrom;   // when non-zero: any input count >= this (inputCounts unused)
  uint64_t outputCounts;         // bit n set: the operation may have n outputs
  uint32_t outputsVariadicFrom;  // when non-zero: any output count >= this (outputCounts unused)
  uint64_t omittable;            // bit i set: input i may be an omitted optional input (NO_VALUE)
  ValidateFn validate;
  InferFn infer;  // nullptr: the declared output shapes are all that is known
};

// Each family file's table (operation.cpp indexes them all):
std::span<const Signature> mathSignatures();       // ops_math.cpp: element-wise math, comparisons, logic, casts
std::span<const Signature> tensorSignatures();     // ops_tensor.cpp: data movement, slicing, reductions, lookups
std::span<const Signature> imageSignatures();      // ops_image.cpp: convolutions, resizing, normalization, detection
std::span<const Signature> recurrentSignatures();  // ops_recurrent.cpp: LSTM/RNN family, SVDF, IF, WHILE

// ops_elementwise.cpp: ADD, SUB, MUL, DIV (broadcasting, FuseCode) and FLOOR.
driver::Result<void> validateBinary(const OpArgs& op);
driver::Result<std::vector<Shape>> inferBinary(const OpArgs& op);
driver::Result<void> validateFloor(const OpArgs& op);

// ops_activation.cpp: RELU, RELU1, RELU6, LOGISTIC, TANH, SOFTMAX (shapes: inferLikeInput0).
driver::Result<void> validateRelu(const OpArgs& op);
driver::Result<void> validateLogistic(const OpArgs& op);
driver::Result<void> validateTanh(const OpArgs& op);
driver::Result<void> validateSoftmax(const OpArgs& op);

// ops_conv.cpp: FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D.
driver::Result<void> validateFullyConnected(const OpArgs& op);
driver::Result<std::vector<Shape>> inferFullyConnected(const OpArgs& op);
driver::Result<void> validateConv2D(const OpArgs& op);
driver::Result<std::vector<Shape>> inferConv2D(const OpArgs& op);
driver::Result<void> validateDepthwiseConv2D(const OpArgs& op);
driver::Result<std::vector<Shape>> inferDepthwiseConv2D(const OpArgs& op);

// ops_pool.cpp: AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D.
driver::Result<void> validatePool(const OpArgs& op);
driver::Result<std::vector<Shape>> inferPool(const OpArgs& op);

// ops_shape.cpp: RESHAPE, CONCATENATION, SQUEEZE, TRANSPOSE, PAD, MEAN.
driver::Result<void> validateReshape(const OpArgs& op);
driver::Result<std::vector<Shape>> inferReshape(const OpArgs& op);
driver::Result<void> validateConcatenation(const OpArgs& op);
driver::Result<std::vector<Shape>> inferConcatenation(const OpArgs& op);
driver::Result<void> validateSqueeze(const OpArgs& op);
driver::Result<std::vector<Shape>> inferSqueeze(const OpArgs& op);
driver::Result<void> validateTranspose(const OpArgs& op);
driver::Result<std::vector<Shape>> inferTranspose(const OpArgs& op);
driver::Result<void> validatePad(const OpArgs& op);
driver::Result<std::vector<Shape>> inferPad(const OpArgs& op);
driver::Result<void> validateMean(const OpArgs& op);
driver::Result<std::vector<Shape>> inferMean(const OpArgs& op);

}  // namespace nnrt::ops::detail
