// The cpu driver's table for normalization, resizing and dequantization: L2_NORMALIZATION,
// LOCAL_RESPONSE_NORMALIZATION, RESIZE_BILINEAR and DEQUANTIZE in every operand type NNAPI lists for
// them through feature level 4, LSH_PROJECTION (float32 and float16 hashes; any input type) and
// RANDOM_MULTINOMIAL (float32 and float16 logits). Scalar parameters are read at execution from the operation's inputs (every value is known then; FLOAT16
// scalars arrive widened to FLOAT32 through viaFloat32).
#include <cstdint>
#include <span>
#include <string>

#include "nnrt/driver/half.hpp"
#include "nnrt/driver/ops/operand_types.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/kernels/lsh_projection.hpp"
#include "plugins/cpu/kernels/multinomial.hpp"
#include "plugins/cpu/kernels/normalization.hpp"
#include "plugins/cpu/type_adapters.hpp"

namespace nnrt::cpu {

std::span<const KernelEntry> imageKernels();

namespace {

using driver::OperandType;
using driver::Result;
using ops::Arg;

// The optional axis at `index` (default -1) made non-negative for input 0's rank.
uint32_t axisAt(const KernelCall& c, size_t index) {
  const int32_t rank = static_cast<int32_t>(c.op.inputs[0].rank());
  int32_t axis = -1;
  if (index < c.op.inputs.size() && !c.op.inputs[index].omitted && c.op.inputs[index].hasValue())
    axis = c.op.inputs[index].scalar<int32_t>();
  return static_cast<uint32_t>(axis < 0 ? axis + rank : axis);
}

// ---- L2_NORMALIZATION, LOCAL_RESPONSE_NORMALIZATION ------------------------------------------------------

Result<void> l2NormFloat(const KernelCall& c) {
  l2Normalization(input<float>(c, 0), shapeOf(c.op.inputs[0]), axisAt(c, 1), output<float>(c));
  return {};
}

Result<void> l2NormQuant(const KernelCall& c) {
  l2Normalization(input<uint8_t>(c, 0), shapeOf(c.op.inputs[0]), quantOf(c.op.inputs[0]), axisAt(c, 1),
                  output<uint8_t>(c));
  return {};
}

Result<void> lrnFloat(const KernelCall& c) {
  localResponseNormalization(input<float>(c, 0), shapeOf(c.op.inputs[0]), axisAt(c, 5),
                             c.op.inputs[1].scalar<int32_t>(), c.op.inputs[2].scalar<float>(),
                             c.op.inputs[3].scalar<float>(), c.op.inputs[4].scalar<float>(), output<float>(c));
  return {};
}

// ---- RESIZE_BILINEAR (NHWC kernels; an NCHW tensor's planes are resized as images of one channel) ------

// Inputs 3, 4, 5: layout, align corners, half pixel centers (each optional).
Result<void> resizeFloat(const KernelCall& c) {
  const bool align = flagAt(c, 4), halfPixel = flagAt(c, 5);
  runNhwcOrPlanes(c, flagAt(c, 3), [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
    resizeBilinear(static_cast<const float*>(in), inShape, align, halfPixel, static_cast<float*>(out), outShape);
  });
  return {};
}

Result<void> resizeQuant(const KernelCall& c) {
  const bool align = flagAt(c, 4), halfPixel = flagAt(c, 5);
  const Quant inQuant = quantOf(c.op.inputs[0]), outQuant = quantOf(c.op.outputs[0]);
  runNhwcOrPlanes(c, flagAt(c, 3), [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
    resizeBilinear(static_cast<const uint8_t*>(in), inShape, inQuant, align, halfPixel, static_cast<uint8_t*>(out),
                   outShape, outQuant);
  });
  return {};
}

// ---- DEQUANTIZE ----------------------------------------------------------------------------------------

// Any quantized input to a TENSOR_FLOAT32 output.
Result<void> dequantizeToFloat32(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  const size_t count = elementsOf(in);
  if (ops::isType(in.type, OperandType::TENSOR_QUANT8_ASYMM)) {
    dequantize(input<uint8_t>(c, 0), count, quantOf(in), output<float>(c));
  } else if (ops::isType(in.type, OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL)) {
    const nnrt_operand* operand = in.operand;
    if (operand == nullptr || operand->channel_scales == nullptr || operand->channel_dim >= in.rank() ||
        operand->channel_scale_count != in.dims[operand->channel_dim]) {
      return driver::generalFailure("cpu driver bug: DEQUANTIZE got a per-channel input without its scales");
    }
    dequantizePerChannel(input<int8_t>(c, 0), shapeOf(in), operand->channel_dim, operand->channel_scales,
                         output<float>(c));
  } else {  // TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT8_SYMM (zero point 0)
    dequantize(input<int8_t>(c, 0), count, quantOf(in), output<float>(c));
  }
  return {};
}

// The output type (TENSOR_FLOAT32 or TENSOR_FLOAT16) picks the path, whatever the input.
Result<void> dequantizeAny(const KernelCall& c) {
  if (ops::isType(c.op.outputs[0].type, OperandType::TENSOR_FLOAT16)) return viaFloat32<dequantizeToFloat32>(c);
  return dequantizeToFloat32(c);
}

// ---- LSH_PROJECTION ---------------------------------------------------------------------------------------

// Seeds and weights as float32: float16 ones widened into the execution's scratch memory. (The input
// rows are hashed as stored, so the float16 path cannot go through viaFloat32.)
const float* floatsOf(const KernelCall& c, const Arg& arg) {
  if (!ops::isType(arg.type, OperandType::TENSOR_FLOAT16)) return static_cast<const float*>(arg.data);
  const size_t n = elementsOf(arg);
  auto* values = static_cast<float*>(c.scratch.allocate(n * sizeof(float)));
  driver::halvesToFloats(arg.data, n, values);
  return values;
}

Result<void> lshProjectionAny(const KernelCall& c) {
  const Arg& hash = c.op.inputs[0];
  const Arg& in = c.op.inputs[1];
  const Arg& weight = c.op.inputs[2];
  LshDims dims;
  dims.numHash = hash.dims[0];
  dims.numBits = hash.dims[1];
  dims.rows = in.dims[0];
  dims.rowBytes = dims.rows == 0 ? 0 : elementsOf(in) / dims.rows * ops::elementSize(in.type);
  // ops::validate checked that a weight holds one value per row of the input.
  const bool weighted = !weight.omitted && weight.data != nullptr;
  lshProjection(floatsOf(c, hash), static_cast<const uint8_t*>(in.data), weighted ? floatsOf(c, weight) : nullptr,
                dims, static_cast<LshType>(c.op.inputs[3].scalar<int32_t>()), output<int32_t>(c));
  return {};
}

// ---- RANDOM_MULTINOMIAL -----------------------------------------------------------------------------------

// Logits [batches, classes], the sample count, seeds [2]; output [batches, samples] class indices.
Result<void> randomMultinomialFloat(const KernelCall& c) {
  const std::string name = ops::operationName(c.op.type);
  const Arg& logits = c.op.inputs[0];
  if (logits.rank() != 2) return driver::invalidArgument(name + " input 0 (input) must be 2-D");
  const Arg& count = c.op.inputs[1];
  const int32_t samples = count.scalar<int32_t>();
  if (samples <= 0) {
    return driver::invalidArgument(name + " input 1 (sample count) must be positive, not " +
                                   std::to_string(samples));
  }
  const Arg& seeds = c.op.inputs[2];
  if (elementsOf(seeds) != 2) {
    return driver::invalidArgument(name + " input 2 (seeds) must hold 2 values, not " +
                                   std::to_string(elementsOf(seeds)));
  }
  const uint32_t batches = logits.dims[0], classes = logits.dims[1];
  if (elementsOf(c.op.outputs[0]) != size_t{batches} * static_cast<uint32_t>(samples)) {
    return driver::invalidArgument(name + " output 0 must be [" + std::to_string(batches) + ", " +
                                   std::to_string(samples) + "] (batches, sample count)");
  }
  const int32_t* seed = input<int32_t>(c, 2);
  if (!randomMultinomial(input<float>(c, 0), batches, classes, static_cast<size_t>(samples), seed[0], seed[1],
                         output<int32_t>(c))) {
    return driver::invalidArgument(name + " input 0 (input) has a row without a finite logit");
  }
  return {};
}

using namespace table_names;

const KernelEntry kImageKernels[] = {
    {T::L2_NORMALIZATION, F32, noParams, l2NormFloat},
    {T::L2_NORMALIZATION, F16, noParams, viaFloat32<l2NormFloat>},
    {T::L2_NORMALIZATION, Q8, noParams, l2NormQuant},
    {T::L2_NORMALIZATION, Q8S, noParams, viaUnsigned<l2NormQuant>},
    {T::LOCAL_RESPONSE_NORMALIZATION, F32, noParams, lrnFloat},
    {T::LOCAL_RESPONSE_NORMALIZATION, F16, noParams, viaFloat32<lrnFloat>},
    {T::RESIZE_BILINEAR, F32, noParams, resizeFloat},
    {T::RESIZE_BILINEAR, F16, noParams, viaFloat32<resizeFloat>},
    {T::RESIZE_BILINEAR, Q8, noParams, resizeQuant},
    {T::RESIZE_BILINEAR, Q8S, noParams, viaUnsigned<resizeQuant>},
    {T::DEQUANTIZE, Q8, noParams, dequantizeAny},
    {T::DEQUANTIZE, Q8S, noParams, dequantizeAny},
    {T::DEQUANTIZE, Q8Symm, noParams, dequantizeAny},
    {T::DEQUANTIZE, Q8C, noParams, dequantizeAny},
    {T::LSH_PROJECTION, F32, noParams, lshProjectionAny},
    {T::LSH_PROJECTION, F16, noParams, lshProjectionAny},
    {T::RANDOM_MULTINOMIAL, F32, noParams, randomMultinomialFloat},
    {T::RANDOM_MULTINOMIAL, F16, noParams, viaFloat32<randomMultinomialFloat>},
};

}  // namespace

std::span<const KernelEntry> imageKernels() {
  return kImageKernels;
}

}  // namespace nnrt::cpu
