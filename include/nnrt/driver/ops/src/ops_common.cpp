#include "ops_common.hpp"

#include "nnrt/driver/half.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace nnrt::ops::detail {

std::string formatFloat(float value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(value));
  return buf;
}

namespace {

std::string quantString(const Arg& arg) {
  return "(scale " + formatFloat(arg.scale) + ", zero point " + std::to_string(arg.zeroPoint) + ")";
}

}  // namespace

// ---- Messages -----------------------------------------------------------------------------------

std::string inputLabel(const OpArgs& op, size_t index, std::string_view name) {
  std::string label = operationName(op.type) + " input " + std::to_string(index);
  if (!name.empty()) label += " (" + std::string(name) + ")";
  return label;
}

std::string outputLabel(const OpArgs& op, size_t index) {
  return operationName(op.type) + " output " + std::to_string(index);
}

Unexpected<driver::Error> inputError(const OpArgs& op, size_t index, std::string_view name,
                                     const std::string& problem) {
  return driver::invalidArgument(inputLabel(op, index, name) + " " + problem);
}

Unexpected<driver::Error> outputError(const OpArgs& op, size_t index, const std::string& problem) {
  return driver::invalidArgument(outputLabel(op, index) + " " + problem);
}

Unexpected<driver::Error> axisError(const OpArgs& op, size_t index, std::string_view name, int32_t axis,
                                    uint32_t rank) {
  const std::string r = std::to_string(rank);
  return inputError(
      op, index, name,
      "must be in [-" + r + ", " + r + ") for input 0 of rank " + r + ", not " + std::to_string(axis));
}

std::string typeList(Types types) {
  std::string s;
  size_t i = 0;
  for (OperandType t : types) {
    if (i > 0) s += (i + 1 == types.size()) ? " or " : ", ";
    s += typeName(static_cast<int32_t>(t));
    ++i;
  }
  return s;
}

// ---- Reading values -------------------------------------------------------------------------------

bool isPresent(const OpArgs& op, size_t index) {
  return index < op.inputs.size() && !op.inputs[index].omitted;
}

namespace {

// A required input must exist; one left without a value (omitted) keeps its declared type, and
// only the full check (a device's) refuses it, as Android's CPU executor does.
Result<void> checkRequired(const OpArgs& op, size_t index, std::string_view name) {
  if (index >= op.inputs.size()) return inputError(op, index, name, "is missing");
  if (op.inputs[index].omitted && op.full()) return inputError(op, index, name, "is required but was omitted");
  return {};
}

}  // namespace

std::optional<int32_t> knownInt32(const Arg& arg) {
  if (!isType(arg.type, OperandType::INT32) || !arg.hasValue() || arg.length < sizeof(int32_t)) {
    return std::nullopt;
  }
  return arg.scalar<int32_t>();
}

std::optional<bool> knownBool(const Arg& arg) {
  if (!isType(arg.type, OperandType::BOOL) || !arg.hasValue() || arg.length < 1) return std::nullopt;
  return arg.scalar<uint8_t>() != 0;
}

std::optional<float> knownFloat(const Arg& arg) {
  if (!arg.hasValue()) return std::nullopt;
  if (isType(arg.type, OperandType::FLOAT32) && arg.length >= sizeof(float)) return arg.scalar<float>();
  if (isType(arg.type, OperandType::FLOAT16) && arg.length >= sizeof(uint16_t)) {
    return driver::halfToFloat(arg.scalar<uint16_t>());
  }
  return std::nullopt;
}

std::optional<std::vector<int32_t>> knownInt32Tensor(const Arg& arg) {
  if (!isType(arg.type, OperandType::TENSOR_INT32) || !arg.hasValue() || arg.length % sizeof(int32_t) != 0) {
    return std::nullopt;
  }
  if (auto count = elementCount(arg.dims);
      count && arg.rank() > 0 && *count * sizeof(int32_t) != arg.length) {
    return std::nullopt;
  }
  std::vector<int32_t> values(arg.length / sizeof(int32_t));
  if (!values.empty()) std::memcpy(values.data(), arg.data, arg.length);
  return values;
}

// ---- Checks ---------------------------------------------------------------------------------------

bool typeIn(int32_t type, Types types) {
  return std::any_of(types.begin(), types.end(), [&](OperandType t) { return isType(type, t); });
}

Result<void> checkInputType(const OpArgs& op, size_t index, std::string_view name, Types allowed) {
  NNRT_RETURN_IF_ERROR(checkRequired(op, index, name));
  const int32_t type = op.inputs[index].type;
  if (!typeIn(type, allowed)) {
    return inputError(op, index, name, "must be " + typeList(allowed) + ", not " + typeName(type));
  }
  return {};
}

Result<void> checkSameType(const OpArgs& op, size_t index, std::string_view name, size_t like) {
  NNRT_RETURN_IF_ERROR(checkRequired(op, index, name));
  const int32_t want = op.inputs[like].type;
  const int32_t type = op.inputs[index].type;
  if (type != want) {
    return inputError(
        op, index, name,
        "must be " + typeName(want) + " like input " + std::to_string(like) + ", not " + typeName(type));
  }
  return {};
}

Result<void> checkOutputType(const OpArgs& op, size_t index) {
  const int32_t want = op.inputs[0].type;
  const int32_t type = op.outputs[index].type;
  if (type != want)
    return outputError(op, index, "must be " + typeName(want) + " like input 0, not " + typeName(type));
  return {};
}

Result<void> checkScalar(const OpArgs& op, size_t index, std::string_view name, OperandType type) {
  NNRT_RETURN_IF_ERROR(checkRequired(op, index, name));
  if (!isType(op.inputs[index].type, type)) {
    return inputError(
        op, index, name,
        "must be " + typeName(static_cast<int32_t>(type)) + ", not " + typeName(op.inputs[index].type));
  }
  return {};
}

Result<void> checkOptionalScalar(const OpArgs& op, size_t index, std::string_view name, OperandType type) {
  if (!isPresent(op, index)) return {};
  return checkScalar(op, index, name, type);
}

Result<void> checkRank(const OpArgs& op, size_t index, std::string_view name, uint32_t minRank,
                       uint32_t maxRank) {
  const uint32_t rank = op.inputs[index].rank();
  if (rank == 0) return {};  // unknown rank
  if (rank < minRank || rank > maxRank) {
    const std::string want = minRank == maxRank
                                 ? "rank " + std::to_string(minRank)
                                 : "rank " + std::to_string(minRank) + " to " + std::to_string(maxRank);
    return inputError(op, index, name,
                      "must have " + want + ", not rank " + std::to_string(rank) + " " +
                          shapeToString(op.inputs[index].dims));
  }
  return {};
}

Result<void> checkFuseCode(const OpArgs& op, size_t index) {
  NNRT_RETURN_IF_ERROR(checkScalar(op, index, "activation", OperandType::INT32));
  if (auto code = knownInt32(op.inputs[index]); code && (*code < 0 || *code > 3)) {
    return inputError(
        op, index, "activation",
        "must be a FuseCode: 0 (NONE), 1 (RELU), 2 (RELU1) or 3 (RELU6), not " + std::to_string(*code));
  }
  return {};
}

Result<void> checkSameQuantization(const OpArgs& op, size_t out, size_t in) {
  const Arg& o = op.outputs[out];
  const Arg& i = op.inputs[in];
  if (!isQuantizedType(o.type) || o.type != i.type) return {};
  if (o.scale != i.scale || o.zeroPoint != i.zeroPoint) {
    return outputError(op, out,
                       "must have the scale and zero point of input " + std::to_string(in) + " " +
                           quantString(i) + ", not " + quantString(o));
  }
  return {};
}

Result<void> checkFixedOutputQuantization(const OpArgs& op, size_t out, float scale, int32_t zeroPoint,
                                          int32_t signedZeroPoint) {
  const Arg& o = op.outputs[out];
  int32_t wantZero;
  if (isType(o.type, OperandType::TENSOR_QUANT8_ASYMM)) {
    wantZero = zeroPoint;
  } else if (isType(o.type, OperandType::TENSOR_QUANT8_ASYMM_SIGNED)) {
    wantZero = signedZeroPoint;
  } else {
    return {};
  }
  if (o.scale != scale || o.zeroPoint != wantZero) {
    Arg want;
    want.scale = scale;
    want.zeroPoint = wantZero;
    return outputError(
        op, out,
        "of type " + typeName(o.type) + " must have " + quantString(want) + ", not " + quantString(o));
  }
  return {};
}

Result<void> checkPerChannel(const OpArgs& op, size_t index, std::string_view name, uint32_t channelDim) {
  const Arg& a = op.inputs[index];
  if (a.operand == nullptr) return {};  // no description to check against
  const nnrt_operand& o = *a.operand;
  if (o.extra_kind != NNRT_EXTRA_CHANNEL_QUANT || o.channel_scales == nullptr) {
    return inputError(op, index, name, "of type TENSOR_QUANT8_SYMM_PER_CHANNEL has no per-channel scales");
  }
  if (o.channel_dim != channelDim) {
    return inputError(op, index, name,
                      "must be quantized along dimension " + std::to_string(channelDim) + ", not " +
                          std::to_string(o.channel_dim));
  }
  if (channelDim < a.rank() && a.dims[channelDim] != 0 && o.channel_scale_count != a.dims[channelDim]) {
    return inputError(op, index, name,
                      "has " + std::to_string(o.channel_scale_count) + " channel scales for " +
                          std::to_string(a.dims[channelDim]) + " channels");
  }
  for (uint32_t c = 0; c < o.channel_scale_count; ++c) {
    if (!(o.channel_scales[c] > 0) || !std::isfinite(o.channel_scales[c])) {
      return inputError(
          op, index, name,
          "channel " + std::to_string(c) + " scale must be > 0, not " + formatFloat(o.channel_scales[c]));
    }
  }
  return {};
}

Result<void> checkBias(const OpArgs& op, size_t bias, size_t input, size_t filter) {
  NNRT_RETURN_IF_ERROR(checkRequired(op, bias, "bias"));
  const Arg& in = op.inputs[input];
  const Arg& f = op.inputs[filter];
  const Arg& b = op.inputs[bias];
  if (isFloatType(in.type)) return checkSameType(op, bias, "bias", input);
  if (!isType(b.type, OperandType::TENSOR_INT32)) {
    return inputError(op, bias, "bias",
                      "must be TENSOR_INT32 for a " + typeName(in.type) + " input, not " + typeName(b.type));
  }
  if (b.zeroPoint != 0)
    return inputError(op, bias, "bias", "must have zero point 0, not " + std::to_string(b.zeroPoint));
  if (isType(f.type, OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL)) {
    if (b.scale != 0) {
      return inputError(op, bias, "bias",
                        "must have scale 0 with a per-channel filter (each channel's scale is input scale * "
                        "filter scale), not " +
                            formatFloat(b.scale));
    }
    return {};
  }
  const double want = static_cast<double>(in.scale) * static_cast<double>(f.scale);
  // The scales are floats: allow a few ulps between the caller's product and ours.
  if (std::abs(static_cast<double>(b.scale) - want) > want * 1e-5) {
    return inputError(op, bias, "bias",
                      "scale must be input scale * filter scale = " + formatFloat(static_cast<float>(want)) +
                          ", not " + formatFloat(b.scale));
  }
  return {};
}

Result<void> checkBiasType(const OpArgs& op, size_t bias, size_t input) {
  NNRT_RETURN_IF_ERROR(checkRequired(op, bias, "bias"));
  const int32_t in = op.inputs[input].type;
  const int32_t type = op.inputs[bias].type;
  if (isFloatType(in)) return checkSameType(op, bias, "bias", input);
  if (!isType(type, OperandType::TENSOR_INT32)) {
    return inputError(op, bias, "bias",
                      "must be TENSOR_INT32 for a " + typeName(in) + " input, not " + typeName(type));
  }
  return {};
}

Result<void> checkDeclaredType(const OpArgs& op, size_t index, std::string_view name, OperandType type) {
  if (index >= op.inputs.size()) return inputError(op, index, name, "is missing");
  const int32_t have = op.inputs[index].type;
  if (!isType(have, type)) {
    return inputError(op, index, name,
                      std::string(op.inputs[index].omitted ? "is omitted but must still be declared " : "must be ") +
                          typeName(static_cast<int32_t>(type)) + ", not " + typeName(have));
  }
  return {};
}

Result<void> checkRankAtFull(const OpArgs& op, size_t index, std::string_view name, uint32_t minRank,
                             uint32_t maxRank) {
  if (!op.full() || !isPresent(op, index)) return {};
  return checkRank(op, index, name, minRank, maxRank);
}

// ---- Shapes ---------------------------------------------------------------------------------------

Result<Shape> broadcastShapes(std::span<const uint32_t> a, std::span<const uint32_t> b) {
  if (a.empty() || b.empty()) return Shape{};  // unknown rank
  const size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const uint32_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    const uint32_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    uint32_t d;
    if (da == db || db == 1) {
      d = da;
    } else if (da == 1) {
      d = db;
    } else if (da == 0 || db == 0) {
      d = std::max(da, db);  // the unknown side must be 1 or the known size
    } else {
      return driver::invalidArgument("shapes " + shapeToString(a) + " and " + shapeToString(b) +
                                     " do not broadcast: " + std::to_string(da) + " vs " +
                                     std::to_string(db));
    }
    out[rank - 1 - i] = d;
  }
  return out;
}

Result<std::vector<Shape>> inferLikeInput0(const OpArgs& op) {
  return std::vector<Shape>{toShape(op.inputs[0].dims)};
}

std::optional<uint32_t> normalizeAxis(int32_t axis, uint32_t rank) {
  const int64_t r = rank;
  if (axis < -r || axis >= r) return std::nullopt;
  return static_cast<uint32_t>(axis < 0 ? axis + r : axis);
}

Result<std::vector<Shape>> reducedShape(const OpArgs& op, std::optional<bool> keep) {
  const auto in = op.inputs[0].dims;
  const uint32_t rank = static_cast<uint32_t>(in.size());
  if (rank == 0) return std::vector<Shape>{Shape{}};
  auto axes = knownInt32Tensor(op.inputs[1]);
  std::vector<bool> reduce(rank, false);
  if (axes) {
    for (int32_t a : *axes) {
      auto axis = normalizeAxis(a, rank);
      if (!axis) return axisError(op, 1, "axes", a, rank);
      reduce[*axis] = true;
    }
  }
  if (!keep) return std::vector<Shape>{Shape{}};
  if (!axes) return std::vector<Shape>{*keep ? Shape(rank, 0) : Shape{}};
  Shape out;
  for (uint32_t d = 0; d < rank; ++d) {
    if (!reduce[d]) {
      out.push_back(in[d]);
    } else if (*keep) {
      out.push_back(1);
    }
  }
  if (out.empty()) out.push_back(1);  // every dimension reduced without keep_dims gives [1]
  return std::vector<Shape>{std::move(out)};
}

// ---- 2-D windows ----------------------------------------------------------------------------------

namespace {

// Reads a required INT32 parameter and checks it is >= minimum when known.
Result<std::optional<int32_t>> readInt(const OpArgs& op, size_t index, std::string_view name,
                                       int32_t minimum) {
  NNRT_RETURN_IF_ERROR(checkScalar(op, index, name, OperandType::INT32));
  auto value = knownInt32(op.inputs[index]);
  if (value && *value < minimum) {
    return inputError(op, index, name,
                      "must be >= " + std::to_string(minimum) + ", not " + std::to_string(*value));
  }
  return value;
}

}  // namespace

Result<WindowParams> readWindowParams(const OpArgs& op, WindowKind kind) {
  const size_t n = op.inputs.size();
  const bool dilation = kind != WindowKind::Pool;
  const size_t required = kind == WindowKind::Depthwise ? 8 : 7;  // inputs of the plain implicit form
  WindowParams w;
  if (n == required || n == required + 1) {
    w.implicit = true;
  } else if (n == required + 3) {
    // Implicit with layout and dilation, or plain explicit: the layout position holds a BOOL.
    w.implicit = dilation && isType(op.inputs[required].type, OperandType::BOOL);
  } else if (n == required + 4 || (dilation && n == required + 6)) {
    w.implicit = false;
  } else {
    return driver::invalidArgument(operationName(op.type) + " cannot take " + std::to_string(n) + " inputs");
  }

  size_t p = kind == WindowKind::Pool ? 1 : 3;
  if (w.implicit) {
    NNRT_ASSIGN_OR_RETURN(w.paddingCode, readInt(op, p, "padding scheme", INT32_MIN));
    if (w.paddingCode && *w.paddingCode != kPaddingSame && *w.paddingCode != kPaddingValid) {
      return inputError(
          op, p, "padding scheme",
          "must be a PaddingCode: 1 (SAME) or 2 (VALID), not " + std::to_string(*w.paddingCode));
    }
    ++p;
  } else {
    NNRT_ASSIGN_OR_RETURN(w.padLeft, readInt(op, p, "padding left", 0));
    NNRT_ASSIGN_OR_RETURN(w.padRight, readInt(op, p + 1, "padding right", 0));
    NNRT_ASSIGN_OR_RETURN(w.padTop, readInt(op, p + 2, "padding top", 0));
    NNRT_ASSIGN_OR_RETURN(w.padBottom, readInt(op, p + 3, "padding bottom", 0));
    p += 4;
  }
  NNRT_ASSIGN_OR_RETURN(w.strideW, readInt(op, p, "stride width", 1));
  NNRT_ASSIGN_OR_RETURN(w.strideH, readInt(op, p + 1, "stride height", 1));
  p += 2;
  if (kind == WindowKind::Pool) {
    NNRT_ASSIGN_OR_RETURN(w.filterW, readInt(op, p, "filter width", 1));
    NNRT_ASSIGN_OR_RETURN(w.filterH, readInt(op, p + 1, "filter height", 1));
    p += 2;
  } else if (kind == WindowKind::Depthwise) {
    NNRT_ASSIGN_OR_RETURN(w.depthMultiplier, readInt(op, p, "depth multiplier", 1));
    ++p;
  }
  NNRT_RETURN_IF_ERROR(checkFuseCode(op, p));
  w.activation = knownInt32(op.inputs[p]);
  w.activationIndex = p;
  ++p;

  if (isPresent(op, p)) {
    NNRT_RETURN_IF_ERROR(checkScalar(op, p, "layout (NCHW)", OperandType::BOOL));
    w.nchw = knownBool(op.inputs[p]);
  } else if (p < n) {
    NNRT_RETURN_IF_ERROR(checkDeclaredType(op, p, "layout (NCHW)", OperandType::BOOL));
  }
  if (dilation && n > p + 1) {
    NNRT_RETURN_IF_ERROR(checkDeclaredType(op, p + 1, "dilation width", OperandType::INT32));
    NNRT_RETURN_IF_ERROR(checkDeclaredType(op, p + 2, "dilation height", OperandType::INT32));
    const bool hasW = isPresent(op, p + 1);
    const bool hasH = isPresent(op, p + 2);
    if (hasW != hasH) {
      const size_t given = hasW ? p + 1 : p + 2;
      const size_t missing = hasW ? p + 2 : p + 1;
      return inputError(op, given, hasW ? "dilation width" : "dilation height",
                        "is given but input " + std::to_string(missing) + " (" +
                            (hasW ? "dilation height" : "dilation width") + ") is omitted");
    }
    if (hasW) {
      NNRT_ASSIGN_OR_RETURN(w.dilationW, readInt(op, p + 1, "dilation width", 1));
      NNRT_ASSIGN_OR_RETURN(w.dilationH, readInt(op, p + 2, "dilation height", 1));
    }
  }
  return w;
}

Result<uint32_t> windowOutputSize(const OpArgs& op, const WindowParams& w, bool height, uint32_t in,
                                  uint32_t filter) {
  const auto stride = height ? w.strideH : w.strideW;
  const auto dilation = height ? w.dilationH : w.dilationW;
  if (in == 0 || !stride) return 0u;
  const uint64_t s = static_cast<uint64_t>(*stride);
  if (w.implicit && w.paddingCode == kPaddingSame) return static_cast<uint32_t>((in + s - 1) / s);
  if (filter == 0 || !dilation) return 0u;
  const uint64_t effective = (static_cast<uint64_t>(filter) - 1) * static_cast<uint64_t>(*dilation) + 1;
  uint64_t padded = in;
  if (w.implicit) {
    if (!w.paddingCode) return 0u;
  } else {
    const auto before = height ? w.padTop : w.padLeft;
    const auto after = height ? w.padBottom : w.padRight;
    if (!before || !after) return 0u;
    padded += static_cast<uint64_t>(*before) + static_cast<uint64_t>(*after);
  }
  if (padded < effective) {
    const char* dim = height ? "height" : "width";
    return driver::invalidArgument(operationName(op.type) + ": the filter " + dim + " " +
                                   std::to_string(filter) + " (dilation " + std::to_string(*dilation) +
                                   ") does not fit in the input " + dim + " " + std::to_string(in) +
                                   " with padding " + std::to_string(padded - in));
  }
  return static_cast<uint32_t>((padded - effective) / s + 1);
}

}  // namespace nnrt::ops::detail
