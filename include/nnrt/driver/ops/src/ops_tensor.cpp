// Signatures of data movement, slicing, gathering, reductions and lookups: the space/batch/depth
// rearrangements, STRIDED_SLICE, SLICE, SPLIT, TILE, GATHER, EXPAND_DIMS, PAD_V2, MIRROR_PAD, REVERSE,
// PACK, CHANNEL_SHUFFLE, ARGMAX/ARGMIN, the REDUCE_* family, TOPK_V2, EMBEDDING_LOOKUP and
// HASHTABLE_LOOKUP.
#include <algorithm>
#include <cstdint>

#include "nnrt/driver/ops/params.hpp"
#include "ops_common.hpp"
#include "ops_families.hpp"

namespace nnrt::ops::detail {

namespace {

using OT = OperandType;
using T = OperationType;

// kDataTypes and TENSOR_INT32: what most operations of feature level 3 and later move around.
constexpr Types kDataOrInt = {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_INT32,
                              OT::TENSOR_QUANT8_ASYMM, OT::TENSOR_QUANT8_ASYMM_SIGNED};
constexpr uint32_t kNoMaxRank = UINT32_MAX;

std::vector<Shape> one(Shape shape) {
  return std::vector<Shape>{std::move(shape)};
}

// ---- Checks shared by the family ----------------------------------------------------------------

// The level the type of input `index` decides: `base` for the original types, `float16Level` for
// TENSOR_FLOAT16 and feature level 4 for TENSOR_QUANT8_ASYMM_SIGNED.
void needsForType(const OpArgs& op, size_t index, int32_t base, int32_t float16Level) {
  op.needs(base);
  const int32_t type = op.inputs[index].type;
  if (isType(type, OT::TENSOR_FLOAT16)) op.needs(float16Level);
  if (isType(type, OT::TENSOR_QUANT8_ASYMM_SIGNED)) op.needs(4);
}

// Output `out` has the type of input `in`; a quantized one also its scale and zero point, which
// Android checks when the model is built (`now`) or else when it is prepared.
Result<void> checkOutputLike(const OpArgs& op, size_t out, size_t in, bool now = false) {
  const int32_t want = op.inputs[in].type;
  const int32_t type = op.outputs[out].type;
  if (type != want) {
    return outputError(op, out,
                       "must be " + typeName(want) + " like input " + std::to_string(in) + ", not " +
                           typeName(type));
  }
  return now || op.full() ? checkSameQuantization(op, out, in) : Result<void>{};
}

// Output `out` has exactly this type.
Result<void> checkOutputIs(const OpArgs& op, size_t out, OT type) {
  if (!isType(op.outputs[out].type, type)) {
    return outputError(op, out,
                       "must be " + typeName(static_cast<int32_t>(type)) + ", not " +
                           typeName(op.outputs[out].type));
  }
  return {};
}

// The optional layout flag: Android counts it by its position (feature level 3) and checks its
// type even when it is omitted.
Result<void> checkLayoutFlag(const OpArgs& op, size_t index) {
  if (index >= op.inputs.size()) return {};
  op.needs(3);
  if (!isType(op.inputs[index].type, OT::BOOL)) {
    return inputError(op, index, "layout (NCHW)", "must be BOOL, not " + typeName(op.inputs[index].type));
  }
  return {};
}

// Whether the layout flag at `index` selects NCHW: false when absent or omitted, nullopt when its
// value is not known.
std::optional<bool> knownNchw(const OpArgs& op, size_t index) {
  if (!isPresent(op, index)) return false;
  return knownBool(op.inputs[index]);
}

// Rank checks Android leaves to preparation: only at Check::Full.
Result<void> checkRankWhenFull(const OpArgs& op, size_t index, std::string_view name, uint32_t minRank,
                               uint32_t maxRank) {
  return op.full() ? checkRank(op, index, name, minRank, maxRank) : Result<void>{};
}

// A 1-D parameter tensor with one entry per dimension of a rank-`rank` tensor (when both known).
Result<void> checkLength(const OpArgs& op, size_t index, std::string_view name, uint32_t rank) {
  NNRT_RETURN_IF_ERROR(checkRank(op, index, name, 1, 1));
  const Arg& a = op.inputs[index];
  if (rank != 0 && a.rank() == 1 && a.dims[0] != 0 && a.dims[0] != rank) {
    return inputError(op, index, name,
                      "must have " + std::to_string(rank) + " entries, one per dimension of input 0 " +
                          shapeToString(op.inputs[0].dims) + ", not " + std::to_string(a.dims[0]));
  }
  return {};
}

// Every known entry of a TENSOR_INT32 parameter is >= minimum.
Result<void> checkEntriesAtLeast(const OpArgs& op, size_t index, std::string_view name, int32_t minimum) {
  auto values = knownInt32Tensor(op.inputs[index]);
  if (!values) return {};
  for (size_t i = 0; i < values->size(); ++i) {
    if ((*values)[i] < minimum) {
      return inputError(op, index, name,
                        "entries must be >= " + std::to_string(minimum) + ", not " +
                            std::to_string((*values)[i]) + " at " + std::to_string(i));
    }
  }
  return {};
}

// A known INT32 scalar >= minimum.
Result<void> checkAtLeast(const OpArgs& op, size_t index, std::string_view name, int32_t minimum) {
  if (auto v = knownInt32(op.inputs[index]); v && *v < minimum) {
    return inputError(op, index, name, "must be >= " + std::to_string(minimum) + ", not " + std::to_string(*v));
  }
  return {};
}

// The axis an INT32 scalar names in a tensor of `rank` dimensions ([-rank, rank)), when both known.
Result<std::optional<uint32_t>> knownAxis(const OpArgs& op, size_t index, std::string_view name, uint32_t rank) {
  auto value = knownInt32(op.inputs[index]);
  if (!value || rank == 0) return std::optional<uint32_t>{};
  auto axis = normalizeAxis(*value, rank);
  if (!axis) return axisError(op, index, name, *value, rank);
  return axis;
}

// A known axis lies in [-rank, rank) of a known rank.
Result<void> checkAxis(const OpArgs& op, size_t index, std::string_view name, uint32_t rank) {
  NNRT_RETURN_IF_ERROR(knownAxis(op, index, name, rank));
  return {};
}

// a * b, 0 when a is unknown or the product does not fit.
uint32_t scaledDim(uint32_t a, uint64_t b) {
  const uint64_t p = static_cast<uint64_t>(a) * b;
  return p > UINT32_MAX ? 0 : static_cast<uint32_t>(p);
}

// ---- BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND -----------------------------------------------------------

// Block sizes: a 1-D TENSOR_INT32 of 2 entries >= 1 (checked at Check::Full).
Result<void> checkBlockSizes(const OpArgs& op, size_t index) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, index, "block sizes", {OT::TENSOR_INT32}));
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkLength(op, index, "block sizes", 2));
  return checkEntriesAtLeast(op, index, "block sizes", 1);
}

// The two block sizes, when known and valid.
std::optional<std::pair<uint32_t, uint32_t>> knownBlock(const Arg& arg) {
  auto block = knownInt32Tensor(arg);
  if (!block || block->size() != 2 || (*block)[0] < 1 || (*block)[1] < 1) return std::nullopt;
  return std::pair<uint32_t, uint32_t>{static_cast<uint32_t>((*block)[0]), static_cast<uint32_t>((*block)[1])};
}

Result<void> validateBatchToSpace(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataTypes));
  needsForType(op, 0, 2, 3);
  NNRT_RETURN_IF_ERROR(checkBlockSizes(op, 1));
  NNRT_RETURN_IF_ERROR(checkLayoutFlag(op, 2));
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 0));
  return checkRankWhenFull(op, 0, "input", 4, 4);
}

Result<std::vector<Shape>> inferBatchToSpace(const OpArgs& op) {
  const auto in = op.inputs[0].dims;
  if (in.size() != 4) return one(Shape{});
  Shape out(4, 0);
  auto nchw = knownNchw(op, 2);
  if (!nchw) return one(std::move(out));
  const ImageLayout l = imageLayout(*nchw);
  out[l.c] = in[l.c];
  auto block = knownBlock(op.inputs[1]);
  if (!block) return one(std::move(out));
  const uint64_t blocks = uint64_t{block->first} * block->second;
  if (in[0] != 0) {
    if (in[0] % blocks != 0) {
      return inputError(op, 0, "input",
                        "batch " + std::to_string(in[0]) + " must be a multiple of the block sizes' product " +
                            std::to_string(blocks));
    }
    out[0] = static_cast<uint32_t>(in[0] / blocks);
  }
  out[l.h] = scaledDim(in[l.h], block->first);
  out[l.w] = scaledDim(in[l.w], block->second);
  return one(std::move(out));
}

Result<void> validateSpaceToBatch(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataTypes));
  needsForType(op, 0, 2, 3);
  // A quantized input with a zero point other than 0 pads with its logical zero since level 3.
  if (isType(op.inputs[0].type, OT::TENSOR_QUANT8_ASYMM) && op.inputs[0].zeroPoint != 0) op.needs(3);
  NNRT_RETURN_IF_ERROR(checkBlockSizes(op, 1));
  NNRT_RETURN_IF_ERROR(checkInputType(op, 2, "paddings", {OT::TENSOR_INT32}));
  NNRT_RETURN_IF_ERROR(checkLayoutFlag(op, 3));
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 0));
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 4, 4));
  NNRT_RETURN_IF_ERROR(checkRank(op, 2, "paddings", 2, 2));
  const Arg& p = op.inputs[2];
  if (p.rank() == 2 && ((p.dims[0] != 0 && p.dims[0] != 2) || (p.dims[1] != 0 && p.dims[1] != 2))) {
    return inputError(op, 2, "paddings", "must have shape [2, 2], not " + shapeToString(p.dims));
  }
  return checkEntriesAtLeast(op, 2, "paddings", 0);
}

Result<std::vector<Shape>> inferSpaceToBatch(const OpArgs& op) {
  const auto in = op.inputs[0].dims;
  if (in.size() != 4) return one(Shape{});
  Shape out(4, 0);
  auto nchw = knownNchw(op, 3);
  if (!nchw) return one(std::move(out));
  const ImageLayout l = imageLayout(*nchw);
  out[l.c] = in[l.c];
  auto block = knownBlock(op.inputs[1]);
  if (!block) return one(std::move(out));
  out[0] = scaledDim(in[0], uint64_t{block->first} * block->second);
  auto pads = knownInt32Tensor(op.inputs[2]);
  if (!pads || pads->size() != 4 || std::any_of(pads->begin(), pads->end(), [](int32_t v) { return v < 0; })) {
    return one(std::move(out));
  }
  const size_t spatial[2] = {l.h, l.w};
  const uint32_t sizes[2] = {block->first, block->second};
  for (size_t i = 0; i < 2; ++i) {
    const uint32_t d = in[spatial[i]];
    if (d == 0) continue;
    const uint64_t padded = uint64_t{d} + static_cast<uint64_t>((*pads)[2 * i]) + static_cast<uint64_t>((*pads)[2 * i + 1]);
    if (padded % sizes[i] != 0) {
      return inputError(op, 2, "paddings",
                        "give a padded size " + std::to_string(padded) + " for dimension " +
                            std::to_string(spatial[i]) + " that is not a multiple of its block size " +
                            std::to_string(sizes[i]));
    }
    out[spatial[i]] = static_cast<uint32_t>(padded / sizes[i]);
  }
  return one(std::move(out));
}

// ---- DEPTH_TO_SPACE, SPACE_TO_DEPTH -------------------------------------------------------------------

Result<void> validateDepthSpace(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataTypes));
  needsForType(op, 0, 1, 3);
  NNRT_RETURN_IF_ERROR(checkScalar(op, 1, "block size", OT::INT32));
  NNRT_RETURN_IF_ERROR(checkLayoutFlag(op, 2));
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 0));
  NNRT_RETURN_IF_ERROR(checkRankWhenFull(op, 0, "input", 4, 4));
  return checkAtLeast(op, 1, "block size", 1);
}

Result<std::vector<Shape>> inferDepthSpace(const OpArgs& op) {
  const bool toSpace = op.type == static_cast<int32_t>(T::DEPTH_TO_SPACE);
  const auto in = op.inputs[0].dims;
  if (in.size() != 4) return one(Shape{});
  Shape out(4, 0);
  out[0] = in[0];
  auto nchw = knownNchw(op, 2);
  auto block = knownInt32(op.inputs[1]);
  if (!nchw || !block || *block < 1) return one(std::move(out));
  const ImageLayout l = imageLayout(*nchw);
  const uint64_t b = static_cast<uint64_t>(*block);
  // DEPTH_TO_SPACE divides the depth by b*b; SPACE_TO_DEPTH divides height and width by b.
  auto divide = [&](size_t dim, uint64_t by) -> Result<uint32_t> {
    if (in[dim] == 0) return 0u;
    if (in[dim] % by != 0) {
      return inputError(op, 0, "input",
                        "dimension " + std::to_string(dim) + " of " + shapeToString(in) + " must be a multiple of " +
                            std::to_string(by) + " for block size " + std::to_string(b));
    }
    return static_cast<uint32_t>(in[dim] / by);
  };
  if (toSpace) {
    NNRT_ASSIGN_OR_RETURN(out[l.c], divide(l.c, b * b));
    out[l.h] = scaledDim(in[l.h], b);
    out[l.w] = scaledDim(in[l.w], b);
  } else {
    NNRT_ASSIGN_OR_RETURN(out[l.h], divide(l.h, b));
    NNRT_ASSIGN_OR_RETURN(out[l.w], divide(l.w, b));
    out[l.c] = scaledDim(in[l.c], b * b);
  }
  return one(std::move(out));
}

// ---- STRIDED_SLICE, SLICE ---------------------------------------------------------------------------

Result<void> validateStridedSlice(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataTypes));
  needsForType(op, 0, 2, 3);
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 1, kMaxRank));
  static constexpr const char* kTensors[] = {"begin", "end", "strides"};
  static constexpr const char* kMasks[] = {"begin_mask", "end_mask", "shrink_axis_mask"};
  for (size_t i = 0; i < 3; ++i)
    NNRT_RETURN_IF_ERROR(checkInputType(op, 1 + i, kTensors[i], {OT::TENSOR_INT32}));
  for (size_t i = 0; i < 3; ++i)
    NNRT_RETURN_IF_ERROR(checkScalar(op, 4 + i, kMasks[i], OT::INT32));
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 0));
  if (!op.full()) return {};
  const uint32_t rank = op.inputs[0].rank();
  for (size_t i = 0; i < 3; ++i)
    NNRT_RETURN_IF_ERROR(checkLength(op, 1 + i, kTensors[i], rank));
  if (auto strides = knownInt32Tensor(op.inputs[3])) {
    for (size_t i = 0; i < strides->size(); ++i) {
      if ((*strides)[i] == 0) return inputError(op, 3, "strides", "must not be 0, as entry " + std::to_string(i) + " is");
    }
  }
  return {};
}

// Output dimensions: per input dimension, ceil((end - begin) / stride) elements (at least 0) after
// begin and end are resolved as Android does (masked: the whole extent in the stride's direction;
// otherwise negative indices count from the end and are clamped into the dimension), dimensions in
// shrink_axis_mask dropped ([1] when all are). A shrunk dimension must select exactly one element with
// a positive stride. Unknown parameters give unknown dimensions (an unknown shrink_axis_mask, an
// unknown rank).
Result<std::vector<Shape>> inferStridedSlice(const OpArgs& op) {
  const auto in = op.inputs[0].dims;
  const uint32_t rank = static_cast<uint32_t>(in.size());
  auto shrinkMask = knownInt32(op.inputs[6]);
  if (rank == 0 || !shrinkMask) return one(Shape{});
  auto shrunk = [&](uint32_t d) { return (static_cast<uint32_t>(*shrinkMask) >> d & 1u) != 0; };
  auto begin = knownInt32Tensor(op.inputs[1]);
  auto end = knownInt32Tensor(op.inputs[2]);
  auto strides = knownInt32Tensor(op.inputs[3]);
  auto beginMask = knownInt32(op.inputs[4]);
  auto endMask = knownInt32(op.inputs[5]);
  const bool known = begin && end && strides && beginMask && endMask && begin->size() == rank &&
                     end->size() == rank && strides->size() == rank;
  Shape out;
  for (uint32_t d = 0; d < rank; ++d) {
    uint32_t size = 0;
    const int64_t dim = in[d];
    if (known && dim != 0 && (*strides)[d] != 0) {
      const StridedSliceAxis axis = resolveStridedSliceAxis(
          dim, (*begin)[d], (*end)[d], (*strides)[d], (static_cast<uint32_t>(*beginMask) >> d & 1u) != 0,
          (static_cast<uint32_t>(*endMask) >> d & 1u) != 0);
      const int64_t stride = axis.stride;
      const int64_t count = axis.count;
      if (shrunk(d) && (stride < 0 || count != 1)) {
        return inputError(op, 6, "shrink_axis_mask",
                          "shrinks dimension " + std::to_string(d) +
                              ", which must then select exactly one element with a positive stride, not " +
                              std::to_string(count) + " with stride " + std::to_string(stride));
      }
      size = static_cast<uint32_t>(count);
    }
    if (!shrunk(d)) out.push_back(size);
  }
  if (out.empty()) out.push_back(1);
  return one(std::move(out));
}

Result<void> validateSlice(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataOrInt));
  needsForType(op, 0, 3, 3);
  NNRT_RETURN_IF_ERROR(checkInputType(op, 1, "begin", {OT::TENSOR_INT32}));
  NNRT_RETURN_IF_ERROR(checkInputType(op, 2, "size", {OT::TENSOR_INT32}));
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 0));
  if (!op.full()) return {};
  const uint32_t rank = op.inputs[0].rank();
  NNRT_RETURN_IF_ERROR(checkLength(op, 1, "begin", rank));
  return checkLength(op, 2, "size", rank);
}

Result<std::vector<Shape>> inferSlice(const OpArgs& op) {
  const auto in = op.inputs[0].dims;
  const uint32_t rank = static_cast<uint32_t>(in.size());
  auto begin = knownInt32Tensor(op.inputs[1]);
  auto size = knownInt32Tensor(op.inputs[2]);
  if (rank == 0 || !begin || !size || begin->size() != rank || size->size() != rank) {
    return one(Shape(rank, 0));
  }
  Shape out(rank, 0);
  for (uint32_t d = 0; d < rank; ++d) {
    const int64_t b = (*begin)[d];
    const int64_t s = (*size)[d];
    if (b < 0) return inputError(op, 1, "begin", "entry " + std::to_string(d) + " must be >= 0, not " + std::to_string(b));
    if (s < -1) {
      return inputError(op, 2, "size", "entry " + std::to_string(d) + " must be >= 0 or -1, not " + std::to_string(s));
    }
    if (in[d] == 0) {
      if (s >= 0) out[d] = static_cast<uint32_t>(s);
      continue;
    }
    const int64_t extent = s == -1 ? in[d] - b : s;
    if (b > in[d] || extent < 0 || b + extent > in[d]) {
      return inputError(op, 2, "size",
                        "entry " + std::to_string(d) + " (" + std::to_string(s) + ") from begin " + std::to_string(b) +
                            " does not fit in dimension " + std::to_string(d) + " of " + shapeToString(in));
    }
    out[d] = static_cast<uint32_t>(extent);
  }
  return one(std::move(out));
}

// ---- SPLIT --------------------------------------------------------------------------------------------

Result<void> validateSplit(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataOrInt));
  needsForType(op, 0, 3, 3);
  NNRT_RETURN_IF_ERROR(checkScalar(op, 1, "axis", OT::INT32));
  NNRT_RETURN_IF_ERROR(checkScalar(op, 2, "num_splits", OT::INT32));
  for (size_t i = 0; i < op.outputs.size(); ++i)
    NNRT_RETURN_IF_ERROR(checkOutputLike(op, i, 0));
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 1, kNoMaxRank));
  NNRT_RETURN_IF_ERROR(checkAxis(op, 1, "axis", op.inputs[0].rank()));
  if (auto n = knownInt32(op.inputs[2]); n && (*n < 1 || static_cast<size_t>(*n) != op.outputs.size())) {
    return inputError(op, 2, "num_splits",
                      "must equal the number of outputs, " + std::to_string(op.outputs.size()) + ", not " +
                          std::to_string(*n));
  }
  return {};
}

Result<std::vector<Shape>> inferSplit(const OpArgs& op) {
  const auto in = op.inputs[0].dims;
  const uint32_t rank = static_cast<uint32_t>(in.size());
  Shape out(rank, 0);
  NNRT_ASSIGN_OR_RETURN(auto axis, knownAxis(op, 1, "axis", rank));
  if (axis) {
    out = toShape(in);
    const uint64_t n = op.outputs.size();
    if (in[*axis] != 0 && n != 0) {
      if (in[*axis] % n != 0) {
        return inputError(op, 1, "axis",
                          "dimension " + std::to_string(*axis) + " of " + shapeToString(in) +
                              " cannot be split evenly into " + std::to_string(n) + " outputs");
      }
      out[*axis] = static_cast<uint32_t>(in[*axis] / n);
    }
  }
  return std::vector<Shape>(op.outputs.size(), out);
}

// ---- TILE ---------------------------------------------------------------------------------------------

Result<void> validateTile(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataOrInt));
  needsForType(op, 0, 3, 3);
  NNRT_RETURN_IF_ERROR(checkInputType(op, 1, "multiples", {OT::TENSOR_INT32}));
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 0));
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 1, kNoMaxRank));
  NNRT_RETURN_IF_ERROR(checkLength(op, 1, "multiples", op.inputs[0].rank()));
  return checkEntriesAtLeast(op, 1, "multiples", 1);
}

Result<std::vector<Shape>> inferTile(const OpArgs& op) {
  const auto in = op.inputs[0].dims;
  auto multiples = knownInt32Tensor(op.inputs[1]);
  if (!multiples) return one(Shape(in.size(), 0));
  if (!in.empty() && multiples->size() != in.size()) {
    return inputError(op, 1, "multiples",
                      "has " + std::to_string(multiples->size()) + " entries, but input 0 " + shapeToString(in) +
                          " has rank " + std::to_string(in.size()));
  }
  Shape out(multiples->size(), 0);
  for (size_t d = 0; d < in.size(); ++d) {
    if ((*multiples)[d] > 0) out[d] = scaledDim(in[d], static_cast<uint64_t>((*multiples)[d]));
  }
  return one(std::move(out));
}

// ---- GATHER, EXPAND_DIMS ------------------------------------------------------------------------------

Result<void> validateGather(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataOrInt));
  needsForType(op, 0, 3, 3);
  NNRT_RETURN_IF_ERROR(checkScalar(op, 1, "axis", OT::INT32));
  NNRT_RETURN_IF_ERROR(checkInputType(op, 2, "indices", {OT::TENSOR_INT32}));
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 0));
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 1, kNoMaxRank));
  return checkAxis(op, 1, "axis", op.inputs[0].rank());
}

Result<std::vector<Shape>> inferGather(const OpArgs& op) {
  const auto in = op.inputs[0].dims;
  const auto indices = op.inputs[2].dims;
  NNRT_ASSIGN_OR_RETURN(auto axis, knownAxis(op, 1, "axis", static_cast<uint32_t>(in.size())));
  if (!axis || indices.empty()) return one(Shape{});
  Shape out(in.begin(), in.begin() + *axis);
  out.insert(out.end(), indices.begin(), indices.end());
  out.insert(out.end(), in.begin() + *axis + 1, in.end());
  return one(std::move(out));
}

Result<void> validateExpandDims(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataOrInt));
  needsForType(op, 0, 3, 3);
  NNRT_RETURN_IF_ERROR(checkScalar(op, 1, "axis", OT::INT32));
  return checkOutputLike(op, 0, 0);
}

Result<std::vector<Shape>> inferExpandDims(const OpArgs& op) {
  const auto in = op.inputs[0].dims;
  const uint32_t rank = static_cast<uint32_t>(in.size());
  auto value = knownInt32(op.inputs[1]);
  if (rank == 0) return one(Shape{});
  if (!value) return one(Shape(rank + 1, 0));
  auto axis = normalizeAxis(*value, rank + 1);
  if (!axis) {
    const std::string r = std::to_string(rank + 1);
    return inputError(op, 1, "axis",
                      "must be in [-" + r + ", " + r + ") for input 0 of rank " + std::to_string(rank) + ", not " +
                          std::to_string(*value));
  }
  Shape out = toShape(in);
  out.insert(out.begin() + *axis, 1);
  return one(std::move(out));
}

// ---- PAD_V2, MIRROR_PAD -------------------------------------------------------------------------------

Result<void> validatePadV2(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataTypes));
  needsForType(op, 0, 3, 3);
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 1, kMaxRank));
  NNRT_RETURN_IF_ERROR(checkInputType(op, 1, "paddings", {OT::TENSOR_INT32}));
  // The pad value: a scalar of the tensor's float type, or INT32 for quantized tensors.
  const int32_t type = op.inputs[0].type;
  const OT valueType = isType(type, OT::TENSOR_FLOAT16)   ? OT::FLOAT16
                       : isType(type, OT::TENSOR_FLOAT32) ? OT::FLOAT32
                                                          : OT::INT32;
  NNRT_RETURN_IF_ERROR(checkScalar(op, 2, "pad value", valueType));
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 0));
  return checkRankWhenFull(op, 1, "paddings", 2, 2);
}

Result<void> validateMirrorPad(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataOrInt));
  op.needs(7);
  NNRT_RETURN_IF_ERROR(checkInputType(op, 1, "paddings", {OT::TENSOR_INT32}));
  NNRT_RETURN_IF_ERROR(checkRank(op, 1, "paddings", 2, 2));
  const Arg& in = op.inputs[0];
  const Arg& p = op.inputs[1];
  if (p.rank() == 2 && p.dims[1] != 0 && p.dims[1] != 2) {
    return inputError(op, 1, "paddings", "must have 2 columns, not " + shapeToString(p.dims));
  }
  if (in.rank() != 0 && p.rank() == 2 && p.dims[0] != 0 && p.dims[0] != in.rank()) {
    return inputError(op, 1, "paddings",
                      "must have one row per dimension of input 0 " + shapeToString(in.dims) + ", not " +
                          shapeToString(p.dims));
  }
  NNRT_RETURN_IF_ERROR(checkScalar(op, 2, "mode", OT::INT32));
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 0, true));
  const Arg& out = op.outputs[0];
  if (in.rank() != 0 && out.rank() != 0 && in.rank() != out.rank()) {
    return outputError(op, 0,
                       "must have the rank of input 0 " + shapeToString(in.dims) + ", not " + shapeToString(out.dims));
  }
  auto mode = knownInt32(op.inputs[2]);
  if (mode && *mode != 0 && *mode != 1) {
    return inputError(op, 2, "mode", "must be 0 (REFLECT) or 1 (SYMMETRIC), not " + std::to_string(*mode));
  }
  // Each padding fits the mirrored dimension: < it for REFLECT, <= it for SYMMETRIC.
  auto pads = knownInt32Tensor(p);
  if (!mode || !pads || in.rank() == 0 || pads->size() != size_t{in.rank()} * 2) return {};
  for (size_t i = 0; i < pads->size(); ++i) {
    const uint32_t dim = in.dims[i / 2];
    const int64_t pad = (*pads)[i];
    if (pad < 0) return inputError(op, 1, "paddings", "must not be negative, found " + std::to_string(pad));
    if (dim != 0 && (*mode == 0 ? pad >= dim : pad > dim)) {
      return inputError(op, 1, "paddings",
                        std::to_string(pad) + " for dimension " + std::to_string(i / 2) + " of " +
                            shapeToString(in.dims) + " must be " + (*mode == 0 ? "< " : "<= ") + std::to_string(dim) +
                            (*mode == 0 ? " in REFLECT mode" : " in SYMMETRIC mode"));
    }
  }
  return {};
}

// ---- REVERSE, PACK, CHANNEL_SHUFFLE --------------------------------------------------------------------

Result<void> validateReverse(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataOrInt));
  op.needs(7);
  NNRT_RETURN_IF_ERROR(checkInputType(op, 1, "axis", {OT::TENSOR_INT32}));
  NNRT_RETURN_IF_ERROR(checkRank(op, 1, "axis", 1, 1));
  const Arg& axis = op.inputs[1];
  if (axis.rank() == 1 && axis.dims[0] > 1) {
    return inputError(op, 1, "axis", "must have shape [1], not " + shapeToString(axis.dims));
  }
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 0, true));
  const Arg& in = op.inputs[0];
  const Arg& out = op.outputs[0];
  if (in.rank() != 0 && out.rank() != 0 && in.rank() != out.rank()) {
    return outputError(op, 0,
                       "must have the rank of input 0 " + shapeToString(in.dims) + ", not " + shapeToString(out.dims));
  }
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 1, 8));
  auto value = knownInt32Tensor(axis);
  if (value && value->size() == 1 && in.rank() != 0 &&
      ((*value)[0] < 0 || static_cast<uint32_t>((*value)[0]) >= in.rank())) {
    return inputError(op, 1, "axis",
                      "must be in [0, " + std::to_string(in.rank()) + ") for input 0 of rank " +
                          std::to_string(in.rank()) + ", not " + std::to_string((*value)[0]));
  }
  return {};
}

Result<void> validatePack(const OpArgs& op) {
  op.needs(6);
  NNRT_RETURN_IF_ERROR(checkScalar(op, 0, "axis", OT::INT32));
  const Arg& out = op.outputs[0];
  if (!typeIn(out.type, kDataOrInt)) {
    return outputError(op, 0, "must be " + typeList(kDataOrInt) + ", not " + typeName(out.type));
  }
  // The inputs' rank is one less than the output's, or else the first known one.
  uint32_t rank = out.rank() > 1 ? out.rank() - 1 : 0;
  size_t rankFrom = SIZE_MAX;
  for (size_t i = 1; i < op.inputs.size(); ++i) {
    const Arg& in = op.inputs[i];
    if (in.type != out.type) {
      return inputError(op, i, "", "must be " + typeName(out.type) + " like output 0, not " + typeName(in.type));
    }
    if (isQuantizedType(out.type) && (in.scale != out.scale || in.zeroPoint != out.zeroPoint)) {
      return inputError(op, i, "",
                        "must have the scale and zero point of output 0 (scale " + formatFloat(out.scale) +
                            ", zero point " + std::to_string(out.zeroPoint) + "), not (scale " + formatFloat(in.scale) +
                            ", zero point " + std::to_string(in.zeroPoint) + ")");
    }
    if (in.rank() == 0) continue;
    if (rank == 0) {
      rank = in.rank();
      rankFrom = i;
    } else if (in.rank() != rank) {
      return inputError(op, i, "",
                        "has rank " + std::to_string(in.rank()) + ", but " +
                            (rankFrom == SIZE_MAX ? "output 0 " + shapeToString(out.dims) + " needs rank "
                                                  : "input " + std::to_string(rankFrom) + " has rank ") +
                            std::to_string(rank));
    }
  }
  if (!op.full()) return {};
  if (auto axis = knownInt32(op.inputs[0]); axis && rank != 0 && (*axis < 0 || static_cast<uint32_t>(*axis) > rank)) {
    return inputError(op, 0, "axis",
                      "must be in [0, " + std::to_string(rank + 1) + ") for inputs of rank " + std::to_string(rank) +
                          ", not " + std::to_string(*axis));
  }
  return {};
}

Result<std::vector<Shape>> inferPack(const OpArgs& op) {
  Shape in;  // the common input shape, merged from the known dimensions
  for (size_t i = 1; i < op.inputs.size(); ++i) {
    const auto dims = op.inputs[i].dims;
    if (dims.empty()) continue;
    if (in.empty()) in.assign(dims.size(), 0);
    if (dims.size() != in.size()) {
      return inputError(op, i, "", "has rank " + std::to_string(dims.size()) + ", unlike the other inputs");
    }
    for (size_t d = 0; d < in.size(); ++d) {
      if (dims[d] != 0 && in[d] != 0 && dims[d] != in[d]) {
        return inputError(op, i, "",
                          shapeToString(dims) + " differs from the other inputs in dimension " + std::to_string(d));
      }
      if (in[d] == 0) in[d] = dims[d];
    }
  }
  auto axis = knownInt32(op.inputs[0]);
  if (in.empty()) return one(Shape{});
  if (!axis || *axis < 0 || static_cast<size_t>(*axis) > in.size()) return one(Shape(in.size() + 1, 0));
  in.insert(in.begin() + *axis, static_cast<uint32_t>(op.inputs.size() - 1));
  return one(std::move(in));
}

Result<void> validateChannelShuffle(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataTypes));
  needsForType(op, 0, 3, 3);
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 1, kMaxRank));
  NNRT_RETURN_IF_ERROR(checkScalar(op, 1, "num_groups", OT::INT32));
  NNRT_RETURN_IF_ERROR(checkScalar(op, 2, "axis", OT::INT32));
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 0));
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkAtLeast(op, 1, "num_groups", 1));
  const Arg& in = op.inputs[0];
  NNRT_ASSIGN_OR_RETURN(auto axis, knownAxis(op, 2, "axis", in.rank()));
  auto groups = knownInt32(op.inputs[1]);
  if (axis && groups && in.dims[*axis] != 0 && in.dims[*axis] % static_cast<uint32_t>(*groups) != 0) {
    return inputError(op, 1, "num_groups",
                      std::to_string(*groups) + " must divide dimension " + std::to_string(*axis) + " of " +
                          shapeToString(in.dims));
  }
  return {};
}

// ---- ARGMAX, ARGMIN, REDUCE_* -----------------------------------------------------------------------

Result<void> validateArgMinMax(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataOrInt));
  op.needs(3);  // Android gives every input type, TENSOR_QUANT8_ASYMM_SIGNED too, the operation's level
  NNRT_RETURN_IF_ERROR(checkScalar(op, 1, "axis", OT::INT32));
  NNRT_RETURN_IF_ERROR(checkOutputIs(op, 0, OT::TENSOR_INT32));
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 1, kNoMaxRank));
  return checkAxis(op, 1, "axis", op.inputs[0].rank());
}

Result<std::vector<Shape>> inferArgMinMax(const OpArgs& op) {
  const auto in = op.inputs[0].dims;
  NNRT_ASSIGN_OR_RETURN(auto axis, knownAxis(op, 1, "axis", static_cast<uint32_t>(in.size())));
  if (in.empty()) return one(Shape{});
  if (!axis) return one(in.size() == 1 ? Shape{1} : Shape(in.size() - 1, 0));
  Shape out = toShape(in);
  out.erase(out.begin() + *axis);
  if (out.empty()) out.push_back(1);
  return one(std::move(out));
}

Result<void> validateReduce(const OpArgs& op) {
  const auto type = static_cast<T>(op.type);
  if (type == T::REDUCE_ALL || type == T::REDUCE_ANY) {
    NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", {OT::TENSOR_BOOL8}));
  } else if (type == T::REDUCE_PROD || type == T::REDUCE_SUM) {
    NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32}));
  } else {
    NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataTypes));
  }
  needsForType(op, 0, 3, 3);
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 1, kMaxRank));
  NNRT_RETURN_IF_ERROR(checkInputType(op, 1, "axes", {OT::TENSOR_INT32}));
  NNRT_RETURN_IF_ERROR(checkScalar(op, 2, "keep_dims", OT::BOOL));
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 0));
  return checkRankWhenFull(op, 1, "axes", 1, 1);
}

Result<std::vector<Shape>> inferReduce(const OpArgs& op) {
  return reducedShape(op, knownBool(op.inputs[2]));
}

// ---- TOPK_V2 ------------------------------------------------------------------------------------------

Result<void> validateTopK(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", kDataOrInt));
  needsForType(op, 0, 3, 3);
  NNRT_RETURN_IF_ERROR(checkScalar(op, 1, "k", OT::INT32));
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 0));
  NNRT_RETURN_IF_ERROR(checkOutputIs(op, 1, OT::TENSOR_INT32));
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 1, kNoMaxRank));
  NNRT_RETURN_IF_ERROR(checkAtLeast(op, 1, "k", 1));
  const Arg& in = op.inputs[0];
  if (auto k = knownInt32(op.inputs[1]); k && in.rank() != 0 && in.dims.back() != 0 &&
                                         static_cast<uint32_t>(*k) > in.dims.back()) {
    return inputError(op, 1, "k",
                      std::to_string(*k) + " must not exceed the last dimension of input 0 " + shapeToString(in.dims));
  }
  return {};
}

Result<std::vector<Shape>> inferTopK(const OpArgs& op) {
  Shape out = toShape(op.inputs[0].dims);
  if (!out.empty()) {
    auto k = knownInt32(op.inputs[1]);
    out.back() = k && *k > 0 ? static_cast<uint32_t>(*k) : 0;
  }
  return std::vector<Shape>{out, out};
}

// ---- EMBEDDING_LOOKUP, HASHTABLE_LOOKUP -------------------------------------------------------------

Result<void> validateEmbeddingLookup(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "lookups", {OT::TENSOR_INT32}));
  NNRT_RETURN_IF_ERROR(checkInputType(op, 1, "values", kDataOrInt));
  needsForType(op, 1, 1, 4);
  if (isType(op.inputs[1].type, OT::TENSOR_INT32) || isType(op.inputs[1].type, OT::TENSOR_QUANT8_ASYMM)) op.needs(3);
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 1));
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "lookups", 1, 1));
  return checkRank(op, 1, "values", 2, kNoMaxRank);
}

// [lookups, values' dimensions after the first]: EMBEDDING_LOOKUP and HASHTABLE_LOOKUP's output 0.
Shape lookupShape(const Arg& lookups, const Arg& values) {
  if (values.rank() == 0) return {};
  Shape out = toShape(values.dims);
  out[0] = lookups.rank() == 1 ? lookups.dims[0] : 0;
  return out;
}

Result<std::vector<Shape>> inferEmbeddingLookup(const OpArgs& op) {
  return one(lookupShape(op.inputs[0], op.inputs[1]));
}

Result<void> validateHashtableLookup(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "lookups", {OT::TENSOR_INT32}));
  NNRT_RETURN_IF_ERROR(checkInputType(op, 1, "keys", {OT::TENSOR_INT32}));
  NNRT_RETURN_IF_ERROR(
      checkInputType(op, 2, "values", {OT::TENSOR_FLOAT32, OT::TENSOR_INT32, OT::TENSOR_QUANT8_ASYMM}));
  NNRT_RETURN_IF_ERROR(checkOutputLike(op, 0, 2));
  NNRT_RETURN_IF_ERROR(checkOutputIs(op, 1, OT::TENSOR_QUANT8_ASYMM));
  if (!op.full()) return {};
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "lookups", 1, 1));
  NNRT_RETURN_IF_ERROR(checkRank(op, 1, "keys", 1, 1));
  NNRT_RETURN_IF_ERROR(checkRank(op, 2, "values", 1, kNoMaxRank));
  const Arg& keys = op.inputs[1];
  const Arg& values = op.inputs[2];
  if (keys.rank() == 1 && values.rank() != 0 && keys.dims[0] != 0 && values.dims[0] != 0 &&
      keys.dims[0] != values.dims[0]) {
    return inputError(op, 2, "values",
                      shapeToString(values.dims) + " must have one row per key, " + std::to_string(keys.dims[0]));
  }
  // The hits output: booleans stored with scale 1 and zero point 0.
  return checkFixedOutputQuantization(op, 1, 1.0f, 0, 0);
}

Result<std::vector<Shape>> inferHashtableLookup(const OpArgs& op) {
  const Arg& lookups = op.inputs[0];
  Shape hits = lookups.rank() == 1 ? toShape(lookups.dims) : Shape{};
  return std::vector<Shape>{lookupShape(lookups, op.inputs[2]), std::move(hits)};
}

// ---- The table ------------------------------------------------------------------------------------------

const Signature kSignatures[] = {
    {T::BATCH_TO_SPACE_ND, bits({2, 3}), 0, bits({1}), 0, bits({2}), validateBatchToSpace, inferBatchToSpace},
    {T::SPACE_TO_BATCH_ND, bits({3, 4}), 0, bits({1}), 0, bits({3}), validateSpaceToBatch, inferSpaceToBatch},
    {T::DEPTH_TO_SPACE, bits({2, 3}), 0, bits({1}), 0, bits({2}), validateDepthSpace, inferDepthSpace},
    {T::SPACE_TO_DEPTH, bits({2, 3}), 0, bits({1}), 0, bits({2}), validateDepthSpace, inferDepthSpace},
    {T::STRIDED_SLICE, bits({7}), 0, bits({1}), 0, 0, validateStridedSlice, inferStridedSlice},
    {T::SLICE, bits({3}), 0, bits({1}), 0, 0, validateSlice, inferSlice},
    {T::SPLIT, bits({3}), 0, 0, 1, 0, validateSplit, inferSplit},
    {T::TILE, bits({2}), 0, bits({1}), 0, 0, validateTile, inferTile},
    {T::GATHER, bits({3}), 0, bits({1}), 0, 0, validateGather, inferGather},
    {T::EXPAND_DIMS, bits({2}), 0, bits({1}), 0, 0, validateExpandDims, inferExpandDims},
    {T::PAD_V2, bits({3}), 0, bits({1}), 0, 0, validatePadV2, inferPad},
    {T::MIRROR_PAD, bits({3}), 0, bits({1}), 0, 0, validateMirrorPad, inferPad},
    {T::REVERSE, bits({2}), 0, bits({1}), 0, 0, validateReverse, inferLikeInput0},
    {T::PACK, 0, 2, bits({1}), 0, 0, validatePack, inferPack},
    {T::CHANNEL_SHUFFLE, bits({3}), 0, bits({1}), 0, 0, validateChannelShuffle, inferLikeInput0},
    {T::ARGMAX, bits({2}), 0, bits({1}), 0, 0, validateArgMinMax, inferArgMinMax},
    {T::ARGMIN, bits({2}), 0, bits({1}), 0, 0, validateArgMinMax, inferArgMinMax},
    {T::REDUCE_ALL, bits({3}), 0, bits({1}), 0, 0, validateReduce, inferReduce},
    {T::REDUCE_ANY, bits({3}), 0, bits({1}), 0, 0, validateReduce, inferReduce},
    {T::REDUCE_MAX, bits({3}), 0, bits({1}), 0, 0, validateReduce, inferReduce},
    {T::REDUCE_MIN, bits({3}), 0, bits({1}), 0, 0, validateReduce, inferReduce},
    {T::REDUCE_PROD, bits({3}), 0, bits({1}), 0, 0, validateReduce, inferReduce},
    {T::REDUCE_SUM, bits({3}), 0, bits({1}), 0, 0, validateReduce, inferReduce},
    {T::TOPK_V2, bits({2}), 0, bits({2}), 0, 0, validateTopK, inferTopK},
    {T::EMBEDDING_LOOKUP, bits({2}), 0, bits({1}), 0, 0, validateEmbeddingLookup, inferEmbeddingLookup},
    {T::HASHTABLE_LOOKUP, bits({3}), 0, bits({2}), 0, 0, validateHashtableLookup, inferHashtableLookup},
};

}  // namespace

std::span<const Signature> tensorSignatures() {
  return kSignatures;
}

}  // namespace nnrt::ops::detail
