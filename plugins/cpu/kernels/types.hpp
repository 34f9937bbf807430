// Vocabulary shared by every CPU kernel: shapes, quantization parameters, fused activations and the
// window parameters of the 2-D image operations.
//
// Kernels are pure functions over raw, caller-owned buffers. They never allocate the output, never
// validate: the driver checks operands and computes output shapes before calling. Unless a function
// says otherwise, inputs and outputs must not overlap, and every function is safe to call from many
// threads at once on distinct outputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "nnrt/driver/activation.hpp"

namespace nnrt::cpu {

// Row-major dimensions; 4-D image tensors are NHWC. Rank 0 is a scalar (one element).
struct Shape {
  std::vector<uint32_t> dims;

  size_t rank() const { return dims.size(); }
  size_t elements() const {
    size_t n = 1;
    for (uint32_t d : dims)
      n *= d;
    return n;
  }
};

// TENSOR_QUANT8_ASYMM parameters: real = (q - zeroPoint) * scale, q in 0..255.
struct Quant {
  float scale;
  int32_t zeroPoint;
};

// NNAPI FuseCode values.
using driver::Activation;

// CONV_2D and DEPTHWISE_CONV_2D with explicit padding (the driver resolves implicit padding).
struct Conv2DParams {
  uint32_t padLeft = 0, padRight = 0, padTop = 0, padBottom = 0;
  uint32_t strideW = 1, strideH = 1;
  uint32_t dilationW = 1, dilationH = 1;
  Activation act = Activation::None;
};

// AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D with explicit padding.
struct Pool2DParams {
  uint32_t padLeft = 0, padRight = 0, padTop = 0, padBottom = 0;
  uint32_t strideW = 1, strideH = 1;
  uint32_t filterW = 1, filterH = 1;
  Activation act = Activation::None;
};

}  // namespace nnrt::cpu
