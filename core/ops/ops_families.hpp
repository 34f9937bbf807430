// Internal to core/ops: the per-operation functions that the signature table in operation.cpp points
// to, one group per family file. operation.cpp has already checked the operand counts against the
// signature, omitted inputs, operand types being NNAPI types, quantization parameters and scalar
// ranks before it calls a validate function; infer functions get only the count check, so they
// read shapes and parameters defensively.
#pragma once

#include <vector>

#include "core/ops/operation.hpp"

namespace nnrt::ops::detail {

using ValidateFn = driver::Result<void> (*)(const OpArgs&);
using InferFn = driver::Result<std::vector<Shape>> (*)(const OpArgs&);

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
