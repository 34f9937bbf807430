// Which operations the opencl driver runs, and in which precision a model runs.
//
// Supported (NHWC layout, every parameter a constant): ADD, SUB, MUL, DIV (broadcasting, fused
// activation), RELU, RELU1, RELU6, LOGISTIC, TANH, FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D
// (implicit or explicit padding, strides, dilation), AVERAGE_POOL_2D, MAX_POOL_2D, SOFTMAX (any
// axis), RESHAPE (constant shape), CONCATENATION (any axis) — on TENSOR_FLOAT32, and on
// TENSOR_FLOAT16 in a model without TENSOR_FLOAT32 tensors. Anything else is refused with a reason
// naming the operation, the type or the form.
#pragma once

#include <cstddef>
#include <string>

#include "nnrt/driver/driver.hpp"

namespace nnrt::opencl {

// How a model's tensors live on the device (see kernels/common.cl).
enum class Precision { Float32, HalfStorage, HalfCompute };
// Option fp16: auto (half storage and arithmetic for relaxed models where the device has cl_khr_fp16),
// storage (half storage, float arithmetic, for relaxed models on any device), off (float32 always).
enum class Fp16Mode { Auto, Storage, Off };

const char* buildOptions(Precision precision);  // "", "-DNNRT_HALF_STORAGE" or "-DNNRT_HALF_COMPUTE"
const char* precisionName(Precision precision);
inline size_t storageElementSize(Precision p) {
  return p == Precision::Float32 ? 4 : 2;
}

struct FloatTensorTypes {
  bool float32 = false;
  bool float16 = false;
};
FloatTensorTypes floatTensorTypes(const driver::Subgraph& subgraph);

// Float32 models run in float32 unless relaxed (then as Fp16Mode says); float16 models store half
// and compute in half where the device has cl_khr_fp16 and the mode is auto, in float otherwise.
Precision choosePrecision(FloatTensorTypes types, bool relaxed, bool deviceFp16, Fp16Mode mode);

// Why the driver cannot run main-subgraph operation `index` of `model`; empty when it can.
std::string unsupportedReason(const driver::Model& model, uint32_t index, FloatTensorTypes modelTypes);

}  // namespace nnrt::opencl
