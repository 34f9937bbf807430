// The cpu driver's tensor family: DEPTH_TO_SPACE, SPACE_TO_DEPTH, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND,
// STRIDED_SLICE, EMBEDDING_LOOKUP and HASHTABLE_LOOKUP. They move bytes without computing on them, so
// one byte-generic kernel (kernels/tensor_moves.hpp) serves every operand type. Parameters are read
// from the call's inputs (at execution every value is known; ops::validate has checked them).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "nnrt/driver/ops/operand_types.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/kernels/tensor_moves.hpp"

namespace nnrt::cpu {
namespace {

using driver::Result;
using ops::Arg;

size_t elementSizeOf(const Arg& arg) {
  return ops::elementSize(arg.type);
}

int32_t int32At(const KernelCall& c, size_t i) {
  return c.op.inputs[i].scalar<int32_t>();
}


// The 2 entries of a block-size tensor.
std::array<uint32_t, 2> blockAt(const KernelCall& c, size_t index) {
  const auto block = c.op.inputs[index].values<int32_t>();
  return {static_cast<uint32_t>(block[0]), static_cast<uint32_t>(block[1])};
}

// ---- DEPTH_TO_SPACE, SPACE_TO_DEPTH ------------------------------------------------------------------

using DepthSpaceFn = void (*)(const void*, const Shape&, ImageAxes, uint32_t, size_t, void*);

template <DepthSpaceFn Fn>
Result<void> depthSpace(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  Fn(in.data, shapeOf(in), imageAxes(flagAt(c, 2)), static_cast<uint32_t>(int32At(c, 1)), elementSizeOf(in),
     c.outputData[0]);
  return {};
}

// ---- BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND ----------------------------------------------------------------

Result<void> batchToSpaceBytes(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  const auto block = blockAt(c, 1);
  batchToSpace(in.data, shapeOf(in), imageAxes(flagAt(c, 2)), block[0], block[1], elementSizeOf(in),
               c.outputData[0], shapeOf(c.op.outputs[0]));
  return {};
}

// Padding is the real value 0: zero bytes for float types, the zero point for quant8 (signed or not).
Result<void> spaceToBatchBytes(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  const auto block = blockAt(c, 1);
  const auto pads = c.op.inputs[2].values<int32_t>();  // [[top, bottom], [left, right]]
  std::array<unsigned char, 8> padValue{};
  if (ops::isType(in.type, driver::OperandType::TENSOR_QUANT8_ASYMM) ||
      ops::isType(in.type, driver::OperandType::TENSOR_QUANT8_ASYMM_SIGNED)) {
    padValue[0] = static_cast<unsigned char>(in.zeroPoint & 0xff);
  }
  spaceToBatch(in.data, shapeOf(in), imageAxes(flagAt(c, 3)), block[0], block[1],
               static_cast<uint32_t>(pads[0]), static_cast<uint32_t>(pads[2]), padValue.data(),
               elementSizeOf(in), c.outputData[0], shapeOf(c.op.outputs[0]));
  return {};
}

// ---- STRIDED_SLICE ---------------------------------------------------------------------------------------

// Each dimension resolved by the SDK's ops::resolveStridedSliceAxis (the rule shape inference uses).
// A shrunk dimension keeps the one element at begin (ops::validate checked that it selects one).
Result<void> stridedSliceBytes(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  const auto begin = c.op.inputs[1].values<int32_t>();
  const auto end = c.op.inputs[2].values<int32_t>();
  const auto strides = c.op.inputs[3].values<int32_t>();
  const auto beginMask = static_cast<uint32_t>(int32At(c, 4));
  const auto endMask = static_cast<uint32_t>(int32At(c, 5));
  const auto shrinkMask = static_cast<uint32_t>(int32At(c, 6));
  const size_t rank = in.rank();
  if (begin.size() < rank || end.size() < rank || strides.size() < rank) {
    return driver::generalFailure("cpu driver bug: STRIDED_SLICE parameters shorter than the input's rank");
  }
  std::vector<SliceAxis> axes(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (in.dims[d] == 0 || strides[d] == 0) {
      return driver::generalFailure("cpu driver bug: STRIDED_SLICE with an empty dimension or a zero stride");
    }
    const ops::StridedSliceAxis axis = ops::resolveStridedSliceAxis(in.dims[d], begin[d], end[d], strides[d],
                                                                    (beginMask >> d & 1u) != 0,
                                                                    (endMask >> d & 1u) != 0);
    const int64_t count = (shrinkMask >> d & 1u) ? 1 : axis.count;
    axes[d] = SliceAxis{axis.first, axis.stride, static_cast<uint32_t>(count)};
  }
  stridedSlice(in.data, shapeOf(in), axes, elementSizeOf(in), c.outputData[0]);
  return {};
}

// ---- EMBEDDING_LOOKUP, HASHTABLE_LOOKUP ------------------------------------------------------------------

// Bytes in one row (the dimensions after the first) of `values`.
size_t rowBytesOf(const Arg& values) {
  size_t n = elementSizeOf(values);
  for (size_t d = 1; d < values.dims.size(); ++d)
    n *= values.dims[d];
  return n;
}

Result<void> embeddingLookupBytes(const KernelCall& c) {
  const Arg &lookups = c.op.inputs[0], &values = c.op.inputs[1];
  if (!embeddingLookup(input<int32_t>(c, 0), elementsOf(lookups), values.data, values.dims[0],
                       rowBytesOf(values), c.outputData[0])) {
    return driver::invalidArgument("EMBEDDING_LOOKUP: a lookup lies outside the " +
                                   std::to_string(values.dims[0]) + " rows of input 1 (values)");
  }
  return {};
}

Result<void> hashtableLookupBytes(const KernelCall& c) {
  const Arg &lookups = c.op.inputs[0], &keys = c.op.inputs[1], &values = c.op.inputs[2];
  hashtableLookup(input<int32_t>(c, 0), elementsOf(lookups), input<int32_t>(c, 1), elementsOf(keys),
                  values.data, rowBytesOf(values), c.outputData[0], output<uint8_t>(c, 1));
  return {};
}

// ---- The table -------------------------------------------------------------------------------------------

using namespace table_names;

// Every row moves bytes, whatever the type. EMBEDDING_LOOKUP and HASHTABLE_LOOKUP are found by their
// input 0 (the TENSOR_INT32 lookups); the one row serves every values type NNAPI takes.
const KernelEntry kTensorKernels[] = {
    {T::DEPTH_TO_SPACE, F32, noParams, depthSpace<depthToSpace>},
    {T::DEPTH_TO_SPACE, F16, noParams, depthSpace<depthToSpace>},
    {T::DEPTH_TO_SPACE, Q8, noParams, depthSpace<depthToSpace>},
    {T::DEPTH_TO_SPACE, Q8S, noParams, depthSpace<depthToSpace>},
    {T::SPACE_TO_DEPTH, F32, noParams, depthSpace<spaceToDepth>},
    {T::SPACE_TO_DEPTH, F16, noParams, depthSpace<spaceToDepth>},
    {T::SPACE_TO_DEPTH, Q8, noParams, depthSpace<spaceToDepth>},
    {T::SPACE_TO_DEPTH, Q8S, noParams, depthSpace<spaceToDepth>},
    {T::BATCH_TO_SPACE_ND, F32, noParams, batchToSpaceBytes},
    {T::BATCH_TO_SPACE_ND, F16, noParams, batchToSpaceBytes},
    {T::BATCH_TO_SPACE_ND, Q8, noParams, batchToSpaceBytes},
    {T::BATCH_TO_SPACE_ND, Q8S, noParams, batchToSpaceBytes},
    {T::SPACE_TO_BATCH_ND, F32, noParams, spaceToBatchBytes},
    {T::SPACE_TO_BATCH_ND, F16, noParams, spaceToBatchBytes},
    {T::SPACE_TO_BATCH_ND, Q8, noParams, spaceToBatchBytes},
    {T::SPACE_TO_BATCH_ND, Q8S, noParams, spaceToBatchBytes},
    {T::STRIDED_SLICE, F32, noParams, stridedSliceBytes},
    {T::STRIDED_SLICE, F16, noParams, stridedSliceBytes},
    {T::STRIDED_SLICE, Q8, noParams, stridedSliceBytes},
    {T::STRIDED_SLICE, Q8S, noParams, stridedSliceBytes},
    {T::EMBEDDING_LOOKUP, I32, noParams, embeddingLookupBytes},
    {T::HASHTABLE_LOOKUP, I32, noParams, hashtableLookupBytes},
};

}  // namespace

std::span<const KernelEntry> tensorKernels() {
  return kTensorKernels;
}

}  // namespace nnrt::cpu
