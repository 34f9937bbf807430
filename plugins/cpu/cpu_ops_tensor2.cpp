// The cpu driver's second tensor family: SLICE, SPLIT, TILE, GATHER, EXPAND_DIMS, PAD_V2 and
// CHANNEL_SHUFFLE (feature level 3), PACK (feature level 6), MIRROR_PAD and REVERSE (feature level 7),
// in every operand type NNAPI lists for them. They move bytes without computing on them: NNAPI gives
// quantized outputs their input's scale and zero point (ops::validate checks it), so one
// byte-generic kernel (kernels/tensor_ops.hpp, tensor_moves.hpp, tensor_shape.hpp) serves every type.
// Parameters are read from the call's inputs (at execution every value is known; ops::validate has
// checked them) and output shapes from the call's outputs (ops::inferShapes computed them).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "nnrt/driver/ops/operand_types.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/kernels/tensor_moves.hpp"
#include "plugins/cpu/kernels/tensor_ops.hpp"
#include "plugins/cpu/kernels/tensor_shape.hpp"

namespace nnrt::cpu {

std::span<const KernelEntry> tensor2Kernels();

namespace {

using driver::OperandType;
using driver::Result;
using ops::Arg;

size_t elementSizeOf(const Arg& arg) {
  return ops::elementSize(arg.type);
}

int32_t int32At(const KernelCall& c, size_t i) {
  return c.op.inputs[i].scalar<int32_t>();
}

// An axis scalar in [-rank, rank) (ops::validate checked the range) as a dimension index.
uint32_t axisAt(const KernelCall& c, size_t i, size_t rank) {
  const int32_t axis = int32At(c, i);
  return static_cast<uint32_t>(axis < 0 ? axis + static_cast<int32_t>(rank) : axis);
}

// A [rank, 2] paddings tensor as rank {before, after} pairs (ops::validate checked they are >= 0).
std::vector<uint32_t> paddingsAt(const KernelCall& c, size_t i) {
  const auto pads = c.op.inputs[i].values<int32_t>();
  return std::vector<uint32_t>(pads.begin(), pads.end());
}

// ---- SLICE -------------------------------------------------------------------------------------------

// Dimension d keeps output dims[d] elements from begin[d] (a size of -1 is already resolved there).
Result<void> sliceBytes(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  const Arg& out = c.op.outputs[0];
  const auto begin = c.op.inputs[1].values<int32_t>();
  if (begin.size() < in.rank() || out.rank() != in.rank()) {
    return driver::generalFailure("cpu driver bug: SLICE begin or output shorter than the input's rank");
  }
  std::vector<SliceAxis> axes(in.rank());
  for (size_t d = 0; d < in.rank(); ++d)
    axes[d] = SliceAxis{begin[d], 1, out.dims[d]};
  stridedSlice(in.data, shapeOf(in), axes, elementSizeOf(in), c.outputData[0]);
  return {};
}

// ---- SPLIT, TILE, GATHER -------------------------------------------------------------------------------

Result<void> splitBytes(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  split(in.data, shapeOf(in), axisAt(c, 1, in.rank()), elementSizeOf(in), c.outputData);
  return {};
}

Result<void> tileBytes(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  const auto multiples = c.op.inputs[1].values<int32_t>();
  const std::vector<uint32_t> times(multiples.begin(), multiples.end());
  if (times.size() < in.rank())
    return driver::generalFailure("cpu driver bug: TILE multiples shorter than the rank");
  tile(in.data, shapeOf(in), times, elementSizeOf(in), c.outputData[0]);
  return {};
}

Result<void> gatherBytes(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  const uint32_t axis = axisAt(c, 1, in.rank());
  if (!gather(in.data, shapeOf(in), axis, input<int32_t>(c, 2), elementsOf(c.op.inputs[2]), elementSizeOf(in),
              c.outputData[0])) {
    return driver::invalidArgument("GATHER: an index lies outside the " + std::to_string(in.dims[axis]) +
                                   " entries of dimension " + std::to_string(axis) + " of input 0");
  }
  return {};
}

// ---- EXPAND_DIMS, PACK -----------------------------------------------------------------------------------

// The bytes are unchanged (a no-op when the output already is input 0).
Result<void> expandDimsBytes(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  copyBytes(in.data, elementsOf(in) * elementSizeOf(in), c.outputData[0]);
  return {};
}

// PACK(axis, t1, ..., tN): a concatenation along `axis` of the inputs, each given a dimension of 1
// there. Quantized inputs share the output's scale and zero point (ops::validate checks it).
Result<void> packBytes(const KernelCall& c) {
  const Arg& out = c.op.outputs[0];
  const auto axis = static_cast<uint32_t>(int32At(c, 0));
  const size_t n = c.op.inputs.size() - 1;
  std::vector<const void*> inputs(n);
  std::vector<Shape> shapes(n);
  for (size_t k = 0; k < n; ++k) {
    const Arg& in = c.op.inputs[k + 1];
    inputs[k] = in.data;
    shapes[k] = shapeOf(in);
    if (axis > shapes[k].rank())
      return driver::generalFailure("cpu driver bug: PACK axis beyond the inputs' rank");
    shapes[k].dims.insert(shapes[k].dims.begin() + axis, 1);
  }
  concatenation(inputs, shapes, axis, elementSizeOf(out), c.outputData[0]);
  return {};
}

// ---- PAD_V2, MIRROR_PAD ----------------------------------------------------------------------------------

// The pad value as the tensor stores it: a float32 or float16 scalar (as its bits), or for quant8 the
// INT32 scalar's stored value in the input's scale and zero point (its low byte, as Android reads it).
Result<void> padV2Bytes(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  const Arg& value = c.op.inputs[2];
  const std::vector<uint32_t> pads = paddingsAt(c, 1);
  const Shape shape = shapeOf(in);
  if (pads.size() < 2 * in.rank())
    return driver::generalFailure("cpu driver bug: PAD_V2 paddings shorter than 2 * rank");
  if (ops::isType(in.type, OperandType::TENSOR_FLOAT32)) {
    pad(input<float>(c, 0), shape, pads, value.scalar<float>(), output<float>(c));
  } else if (ops::isType(in.type, OperandType::TENSOR_FLOAT16)) {
    pad(input<uint16_t>(c, 0), shape, pads, value.scalar<uint16_t>(), output<uint16_t>(c));
  } else {
    pad(input<uint8_t>(c, 0), shape, pads, static_cast<uint8_t>(value.scalar<int32_t>() & 0xff),
        output<uint8_t>(c));
  }
  return {};
}

Result<void> mirrorPadBytes(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  const std::vector<uint32_t> pads = paddingsAt(c, 1);
  if (pads.size() < 2 * in.rank()) {
    return driver::generalFailure("cpu driver bug: MIRROR_PAD paddings shorter than 2 * rank");
  }
  const MirrorMode mode = int32At(c, 2) == 0 ? MirrorMode::Reflect : MirrorMode::Symmetric;
  mirrorPad(in.data, shapeOf(in), pads, mode, elementSizeOf(in), c.outputData[0]);
  return {};
}

// ---- REVERSE, CHANNEL_SHUFFLE
// ------------------------------------------------------------------------------

// The axis is a [1] TENSOR_INT32 in [0, rank).
Result<void> reverseBytes(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  const auto axis = c.op.inputs[1].values<int32_t>();
  if (axis.empty()) return driver::generalFailure("cpu driver bug: REVERSE without an axis");
  reverse(in.data, shapeOf(in), static_cast<uint32_t>(axis[0]), elementSizeOf(in), c.outputData[0]);
  return {};
}

Result<void> channelShuffleBytes(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  channelShuffle(in.data, shapeOf(in), axisAt(c, 2, in.rank()), static_cast<uint32_t>(int32At(c, 1)),
                 elementSizeOf(in), c.outputData[0]);
  return {};
}

// ---- The table -------------------------------------------------------------------------------------------

using namespace table_names;

// Every row moves bytes, whatever the type. EXPAND_DIMS, like RESHAPE, leaves the bytes as they are
// (outputIsInput0). PACK is found by its input 0, the INT32 axis scalar; the one row serves every
// tensor type NNAPI takes (ops::validate checks the tensors).
const KernelEntry kTensor2Kernels[] = {
    {T::SLICE, F32, noParams, sliceBytes},
    {T::SLICE, F16, noParams, sliceBytes},
    {T::SLICE, Q8, noParams, sliceBytes},
    {T::SLICE, Q8S, noParams, sliceBytes},
    {T::SLICE, I32, noParams, sliceBytes},
    {T::SPLIT, F32, noParams, splitBytes},
    {T::SPLIT, F16, noParams, splitBytes},
    {T::SPLIT, Q8, noParams, splitBytes},
    {T::SPLIT, Q8S, noParams, splitBytes},
    {T::SPLIT, I32, noParams, splitBytes},
    {T::TILE, F32, noParams, tileBytes},
    {T::TILE, F16, noParams, tileBytes},
    {T::TILE, Q8, noParams, tileBytes},
    {T::TILE, Q8S, noParams, tileBytes},
    {T::TILE, I32, noParams, tileBytes},
    {T::GATHER, F32, noParams, gatherBytes},
    {T::GATHER, F16, noParams, gatherBytes},
    {T::GATHER, Q8, noParams, gatherBytes},
    {T::GATHER, Q8S, noParams, gatherBytes},
    {T::GATHER, I32, noParams, gatherBytes},
    {T::EXPAND_DIMS, F32, noParams, expandDimsBytes, nullptr, true},
    {T::EXPAND_DIMS, F16, noParams, expandDimsBytes, nullptr, true},
    {T::EXPAND_DIMS, Q8, noParams, expandDimsBytes, nullptr, true},
    {T::EXPAND_DIMS, Q8S, noParams, expandDimsBytes, nullptr, true},
    {T::EXPAND_DIMS, I32, noParams, expandDimsBytes, nullptr, true},
    {T::PAD_V2, F32, noParams, padV2Bytes},
    {T::PAD_V2, F16, noParams, padV2Bytes},
    {T::PAD_V2, Q8, noParams, padV2Bytes},
    {T::PAD_V2, Q8S, noParams, padV2Bytes},
    {T::CHANNEL_SHUFFLE, F32, noParams, channelShuffleBytes},
    {T::CHANNEL_SHUFFLE, F16, noParams, channelShuffleBytes},
    {T::CHANNEL_SHUFFLE, Q8, noParams, channelShuffleBytes},
    {T::CHANNEL_SHUFFLE, Q8S, noParams, channelShuffleBytes},
    {T::MIRROR_PAD, F32, noParams, mirrorPadBytes},
    {T::MIRROR_PAD, F16, noParams, mirrorPadBytes},
    {T::MIRROR_PAD, Q8, noParams, mirrorPadBytes},
    {T::MIRROR_PAD, Q8S, noParams, mirrorPadBytes},
    {T::MIRROR_PAD, I32, noParams, mirrorPadBytes},
    {T::REVERSE, F32, noParams, reverseBytes},
    {T::REVERSE, F16, noParams, reverseBytes},
    {T::REVERSE, Q8, noParams, reverseBytes},
    {T::REVERSE, Q8S, noParams, reverseBytes},
    {T::REVERSE, I32, noParams, reverseBytes},
    {T::PACK, I32Scalar, noParams, packBytes},
};

}  // namespace

std::span<const KernelEntry> tensor2Kernels() {
  return kTensor2Kernels;
}

}  // namespace nnrt::cpu
