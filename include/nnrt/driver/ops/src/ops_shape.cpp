// RESHAPE, CONCATENATION, SQUEEZE, TRANSPOSE, PAD and MEAN: operations whose output shape follows
// from the input shapes and a TENSOR_INT32 or INT32 parameter that may be a constant or known only
// at execution.
#include <algorithm>

#include "ops_common.hpp"
#include "ops_families.hpp"

namespace nnrt::ops::detail {

namespace {

using OT = OperandType;

// Input 0 as data of one of `types` with a known rank up to 4, output 0 of its type and, at
// Check::Full, its quantization. `firstLevel` is the feature level of the TENSOR_FLOAT32 form;
// TENSOR_FLOAT16 needs 3 and TENSOR_QUANT8_ASYMM_SIGNED 4.
Result<void> checkDataInOut(const OpArgs& op, int32_t firstLevel, Types types = kDataTypes) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "input", types));
  op.needs(firstLevel);
  const int32_t type = op.inputs[0].type;
  if (isType(type, OT::TENSOR_FLOAT16)) op.needs(3);
  if (isType(type, OT::TENSOR_QUANT8_ASYMM_SIGNED)) op.needs(4);
  NNRT_RETURN_IF_ERROR(checkRank(op, 0, "input", 1, kMaxRank));
  NNRT_RETURN_IF_ERROR(checkOutputType(op, 0));
  return op.full() ? checkSameQuantization(op, 0, 0) : Result<void>{};
}

// A TENSOR_INT32 parameter tensor: its type when the model is built, its rank at Check::Full.
Result<void> checkIntTensor(const OpArgs& op, size_t index, std::string_view name, uint32_t rank) {
  NNRT_RETURN_IF_ERROR(checkInputType(op, index, name, {OT::TENSOR_INT32}));
  return checkRankAtFull(op, index, name, rank, rank);
}

// The optional TENSOR_INT32 input 1 of SQUEEZE and TRANSPOSE: always listed (Android takes exactly
// two inputs), declared TENSOR_INT32 even when omitted.
Result<void> checkOptionalIntTensor(const OpArgs& op, std::string_view name) {
  NNRT_RETURN_IF_ERROR(checkDeclaredType(op, 1, name, OT::TENSOR_INT32));
  return checkRankAtFull(op, 1, name, 1, 1);
}

// Unknown rank, or `rank` unknown dimensions.
Shape unknownDims(uint32_t rank) {
  return Shape(rank, 0);
}

std::vector<Shape> one(Shape shape) {
  return std::vector<Shape>{std::move(shape)};
}

}  // namespace

// ---- RESHAPE ------------------------------------------------------------------------------------

// Feature levels: TENSOR_FLOAT32 and TENSOR_QUANT8_ASYMM since 1, TENSOR_FLOAT16 since 3,
// TENSOR_QUANT8_ASYMM_SIGNED since 4, TENSOR_INT32 since 6.
Result<void> validateReshape(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkDataInOut(op, 1,
                                      {OT::TENSOR_FLOAT16, OT::TENSOR_FLOAT32, OT::TENSOR_QUANT8_ASYMM,
                                       OT::TENSOR_QUANT8_ASYMM_SIGNED, OT::TENSOR_INT32}));
  if (isType(op.inputs[0].type, OT::TENSOR_INT32)) op.needs(6);
  return checkIntTensor(op, 1, "shape", 1);
}

Result<std::vector<Shape>> inferReshape(const OpArgs& op) {
  const Arg& shapeArg = op.inputs[1];
  auto values = knownInt32Tensor(shapeArg);
  if (!values) return one(shapeArg.rank() == 1 ? unknownDims(shapeArg.dims[0]) : Shape{});
  if (values->empty()) return inputError(op, 1, "shape", "must have at least one element");
  uint64_t product = 1;
  int wildcard = -1;
  for (size_t i = 0; i < values->size(); ++i) {
    const int32_t v = (*values)[i];
    if (v == -1) {
      if (wildcard >= 0)
        return inputError(
            op, 1, "shape",
            "may contain -1 only once, not in " + std::to_string(wildcard) + " and " + std::to_string(i));
      wildcard = static_cast<int>(i);
    } else if (v <= 0) {
      return inputError(op, 1, "shape",
                        "entries must be > 0 or -1, not " + std::to_string(v) + " at " + std::to_string(i));
    } else {
      if (product > UINT64_MAX / static_cast<uint64_t>(v)) {
        return inputError(op, 1, "shape", "element count overflows");
      }
      product *= static_cast<uint64_t>(v);
    }
  }
  Shape out(values->size());
  for (size_t i = 0; i < values->size(); ++i)
    out[i] = (*values)[i] < 0 ? 0 : static_cast<uint32_t>((*values)[i]);
  const auto in = op.inputs[0].dims;
  auto count = elementCount(in);
  if (in.empty() || !count) return one(std::move(out));  // the -1 entry stays unknown
  if (wildcard >= 0) {
    if (*count % product != 0 || *count / product > UINT32_MAX) {
      return inputError(op, 1, "shape",
                        "cannot reshape " + shapeToString(in) + " (" + std::to_string(*count) +
                            " elements) with -1 into a multiple of " + std::to_string(product));
    }
    out[wildcard] = static_cast<uint32_t>(*count / product);
  } else if (product != *count) {
    return inputError(op, 1, "shape",
                      shapeToString(out) + " has " + std::to_string(product) + " elements, but the input " +
                          shapeToString(in) + " has " + std::to_string(*count));
  }
  return one(std::move(out));
}

// ---- CONCATENATION ------------------------------------------------------------------------------

// Feature levels: TENSOR_FLOAT32 and TENSOR_QUANT8_ASYMM since 1, TENSOR_FLOAT16 since 3,
// TENSOR_QUANT8_ASYMM_SIGNED since 4. Since feature level 3 the TENSOR_QUANT8_ASYMM inputs may
// each have a scale and zero point other than the output's. Android checks each known rank (up to
// 4) when the model is built; that the ranks agree waits for Check::Full.
Result<void> validateConcatenation(const OpArgs& op) {
  const size_t axis = op.inputs.size() - 1;
  NNRT_RETURN_IF_ERROR(checkInputType(op, 0, "", kDataTypes));
  const int32_t type = op.inputs[0].type;
  if (isType(type, OT::TENSOR_FLOAT16)) op.needs(3);
  if (isType(type, OT::TENSOR_QUANT8_ASYMM_SIGNED)) op.needs(4);
  for (size_t i = 0; i < axis; ++i) {
    if (i > 0) NNRT_RETURN_IF_ERROR(checkSameType(op, i, "", 0));
    NNRT_RETURN_IF_ERROR(checkRank(op, i, "", 1, kMaxRank));
  }
  NNRT_RETURN_IF_ERROR(checkScalar(op, axis, "axis", OT::INT32));
  NNRT_RETURN_IF_ERROR(checkOutputType(op, 0));
  if (isType(type, OT::TENSOR_QUANT8_ASYMM)) {
    const Arg& out = op.outputs[0];
    for (size_t i = 0; i < axis; ++i) {
      if (op.inputs[i].scale != out.scale || op.inputs[i].zeroPoint != out.zeroPoint) op.needs(3);
    }
  }
  return {};
}

Result<std::vector<Shape>> inferConcatenation(const OpArgs& op) {
  const size_t n = op.inputs.size() - 1;
  uint32_t rank = 0;
  size_t rankFrom = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t r = op.inputs[i].rank();
    if (r == 0) continue;
    if (rank == 0) {
      rank = r;
      rankFrom = i;
    } else if (r != rank) {
      return inputError(op, i, "",
                        "has rank " + std::to_string(r) + ", but input " + std::to_string(rankFrom) +
                            " has rank " + std::to_string(rank));
    }
  }
  if (rank == 0) return one(Shape{});
  auto axisValue = knownInt32(op.inputs[n]);
  if (!axisValue) return one(unknownDims(rank));
  auto axis = normalizeAxis(*axisValue, rank);
  if (!axis) return axisError(op, n, "axis", *axisValue, rank);

  Shape out(rank, 0);
  uint64_t sum = 0;
  bool sumKnown = true;
  for (size_t i = 0; i < n; ++i) {
    const auto dims = op.inputs[i].dims;
    if (dims.empty()) {
      sumKnown = false;
      continue;
    }
    for (uint32_t d = 0; d < rank; ++d) {
      if (d == *axis) continue;
      if (dims[d] != 0 && out[d] != 0 && dims[d] != out[d]) {
        return inputError(op, i, "",
                          shapeToString(dims) + " differs from the other inputs in dimension " +
                              std::to_string(d) + " (" + std::to_string(dims[d]) + " vs " +
                              std::to_string(out[d]) + "); only the axis dimension " + std::to_string(*axis) +
                              " may differ");
      }
      if (out[d] == 0) out[d] = dims[d];
    }
    if (dims[*axis] == 0) sumKnown = false;
    sum += dims[*axis];
  }
  if (sum > UINT32_MAX) return inputError(op, n, "axis", "concatenated size overflows");
  if (sumKnown) out[*axis] = static_cast<uint32_t>(sum);
  return one(std::move(out));
}

// ---- SQUEEZE ------------------------------------------------------------------------------------

// Feature levels: TENSOR_FLOAT32 and TENSOR_QUANT8_ASYMM since 2, TENSOR_FLOAT16 since 3,
// TENSOR_QUANT8_ASYMM_SIGNED since 4.
Result<void> validateSqueeze(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkDataInOut(op, 2));
  return checkOptionalIntTensor(op, "axes");
}

Result<std::vector<Shape>> inferSqueeze(const OpArgs& op) {
  const auto in = op.inputs[0].dims;
  const uint32_t rank = static_cast<uint32_t>(in.size());
  if (rank == 0) return one(Shape{});
  std::vector<bool> squeeze(rank, false);
  if (!isPresent(op, 1)) {
    // Every dimension of size 1 goes; an unknown one may or may not be 1.
    if (std::find(in.begin(), in.end(), 0u) != in.end()) return one(Shape{});
    for (uint32_t d = 0; d < rank; ++d)
      squeeze[d] = in[d] == 1;
  } else {
    auto axes = knownInt32Tensor(op.inputs[1]);
    if (!axes) return one(Shape{});
    for (int32_t a : *axes) {
      auto axis = normalizeAxis(a, rank);
      if (!axis) return axisError(op, 1, "axes", a, rank);
      if (in[*axis] != 0 && in[*axis] != 1) {
        return inputError(op, 1, "axes",
                          "names dimension " + std::to_string(*axis) + " of " + shapeToString(in) +
                              ", which is " + std::to_string(in[*axis]) + ", not 1");
      }
      squeeze[*axis] = true;
    }
  }
  Shape out;
  for (uint32_t d = 0; d < rank; ++d) {
    if (!squeeze[d]) out.push_back(in[d]);
  }
  if (out.empty()) out.push_back(1);  // squeezing every dimension gives [1]
  return one(std::move(out));
}

// ---- TRANSPOSE ----------------------------------------------------------------------------------

// Feature levels: TENSOR_FLOAT32 and TENSOR_QUANT8_ASYMM since 2, TENSOR_FLOAT16 since 3,
// TENSOR_QUANT8_ASYMM_SIGNED since 4.
Result<void> validateTranspose(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkDataInOut(op, 2));
  return checkOptionalIntTensor(op, "perm");
}

Result<std::vector<Shape>> inferTranspose(const OpArgs& op) {
  const auto in = op.inputs[0].dims;
  const uint32_t rank = static_cast<uint32_t>(in.size());
  if (!isPresent(op, 1)) return one(Shape(in.rbegin(), in.rend()));
  auto perm = knownInt32Tensor(op.inputs[1]);
  if (!perm) {
    const Arg& p = op.inputs[1];
    if (rank == 0 && p.rank() == 1) return one(unknownDims(p.dims[0]));
    return one(unknownDims(rank));
  }
  if (rank != 0 && perm->size() != rank) {
    return inputError(op, 1, "perm",
                      "has " + std::to_string(perm->size()) + " entries, but input 0 " + shapeToString(in) +
                          " has rank " + std::to_string(rank));
  }
  const uint32_t n = static_cast<uint32_t>(perm->size());
  std::vector<bool> seen(n, false);
  Shape out(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    const int32_t p = (*perm)[i];
    if (p < 0 || static_cast<uint32_t>(p) >= n || seen[p]) {
      return inputError(op, 1, "perm",
                        "must be a permutation of 0.." + std::to_string(n - 1) + ", entry " +
                            std::to_string(i) + " is " + std::to_string(p));
    }
    seen[p] = true;
    out[i] = rank != 0 ? in[p] : 0;
  }
  return one(std::move(out));
}

// ---- PAD ----------------------------------------------------------------------------------------

// Feature levels: TENSOR_FLOAT32 since 2, TENSOR_QUANT8_ASYMM since 2 with zero point 0 (since 3
// otherwise), TENSOR_FLOAT16 since 3, TENSOR_QUANT8_ASYMM_SIGNED since 4.
Result<void> validatePad(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkDataInOut(op, 2));
  if (isType(op.inputs[0].type, OT::TENSOR_QUANT8_ASYMM) && op.inputs[0].zeroPoint != 0) op.needs(3);
  return checkIntTensor(op, 1, "paddings", 2);
}

Result<std::vector<Shape>> inferPad(const OpArgs& op) {
  const auto in = op.inputs[0].dims;
  const Arg& paddings = op.inputs[1];
  uint32_t rank = static_cast<uint32_t>(in.size());
  if (paddings.rank() == 2) {
    const uint32_t rows = paddings.dims[0];
    const uint32_t cols = paddings.dims[1];
    if ((rank != 0 && rows != 0 && rows != rank) || (cols != 0 && cols != 2)) {
      return inputError(op, 1, "paddings",
                        "must have shape [" + std::to_string(rank) + ", 2] for input 0 " + shapeToString(in) +
                            ", not " + shapeToString(paddings.dims));
    }
    if (rank == 0) rank = rows;
  }
  auto values = knownInt32Tensor(paddings);
  if (!values) return one(unknownDims(rank));
  if (rank == 0) rank = static_cast<uint32_t>(values->size() / 2);
  if (values->size() != size_t{rank} * 2) {
    return inputError(op, 1, "paddings",
                      "has " + std::to_string(values->size()) + " values, not 2 per dimension of input 0");
  }
  Shape out(rank, 0);
  for (uint32_t d = 0; d < rank; ++d) {
    const int32_t before = (*values)[2 * d];
    const int32_t after = (*values)[2 * d + 1];
    if (before < 0 || after < 0) {
      return inputError(op, 1, "paddings",
                        "must not be negative, found " + std::to_string(std::min(before, after)) +
                            " for dimension " + std::to_string(d));
    }
    const uint64_t size = static_cast<uint64_t>(d < in.size() ? in[d] : 0) + before + after;
    if (d < in.size() && in[d] != 0) {
      if (size > UINT32_MAX) return inputError(op, 1, "paddings", "padded size overflows");
      out[d] = static_cast<uint32_t>(size);
    }
  }
  return one(std::move(out));
}

// ---- MEAN ---------------------------------------------------------------------------------------

// Feature levels: TENSOR_FLOAT32 and TENSOR_QUANT8_ASYMM since 2, TENSOR_FLOAT16 since 3,
// TENSOR_QUANT8_ASYMM_SIGNED since 4.
Result<void> validateMean(const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkDataInOut(op, 2));
  NNRT_RETURN_IF_ERROR(checkIntTensor(op, 1, "axes", 1));
  return checkScalar(op, 2, "keep_dims", OT::INT32);
}

Result<std::vector<Shape>> inferMean(const OpArgs& op) {
  auto keep = knownInt32(op.inputs[2]);
  return reducedShape(op, keep ? std::optional<bool>(*keep > 0) : std::nullopt);
}

}  // namespace nnrt::ops::detail
