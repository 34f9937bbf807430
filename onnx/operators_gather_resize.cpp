// ONNX indexing and resampling -> NNAPI: Gather, GatherElements, OneHot, GatherND, Resize, Upsample, and
// with indices known at load time ScatterElements (and Scatter), ScatterND, Compress and ReverseSequence;
// GridSample.
#include "onnx/operators_common.hpp"

namespace nnrt::onnxfront {

namespace {

// Indices given at run time into an axis of `size`, ONNX's negative ones (counting from the end) made
// NNAPI's [0, size): SELECT(index < 0, index + size, index).
Result<uint32_t> positiveIndices(GraphBuilder& b, uint32_t indices, int32_t size, const Dims& dims) {
  const int32_t i32 = ANEURALNETWORKS_TENSOR_INT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t zero, b.constInts({0}));
  NNRT_ASSIGN_OR_RETURN(uint32_t negative,
                        apply(b, ANEURALNETWORKS_LESS, {indices, zero}, ANEURALNETWORKS_TENSOR_BOOL8, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t sizeOperand, b.constInts({size}));
  NNRT_ASSIGN_OR_RETURN(uint32_t wrapped,
                        arithmetic(b, ANEURALNETWORKS_ADD, indices, sizeOperand, i32, dims));
  return apply(b, ANEURALNETWORKS_SELECT, {negative, wrapped, indices}, i32, dims);
}


// Scatter with positions known at load time: update element u (updates flattened) goes to the data's
// flat position targets[u], in the updates' order. Reduction "none": a later write to a position
// replaces an earlier one; "add", "mul", "max", "min": each write combines the position's value so far
// with the update. Per round of writes (the k-th write to each position), the updates GATHERed to
// their positions and SELECTed in where a write lands: the data's other elements pass unchanged.
Result<void> scatterAt(GraphBuilder& b, const Value& data, const Value& updates, const std::vector<int64_t>& targets,
                       const std::string& reduction) {
  const int32_t type = data.type;
  if (type != ANEURALNETWORKS_TENSOR_FLOAT32 && type != ANEURALNETWORKS_TENSOR_FLOAT16 &&
      type != ANEURALNETWORKS_TENSOR_INT32)
    return b.refused("only float32, float16 and int32 data are supported");
  if (updates.type != type) return b.refused("the updates' type differs from the data's");
  constexpr int32_t kReplace = -1;  // not an operation: ADD's code is 0
  int32_t combine = kReplace;
  if (reduction == "add") {
    combine = ANEURALNETWORKS_ADD;
  } else if (reduction == "mul") {
    combine = ANEURALNETWORKS_MUL;
  } else if (reduction == "max") {
    combine = ANEURALNETWORKS_MAXIMUM;
  } else if (reduction == "min") {
    combine = ANEURALNETWORKS_MINIMUM;
  } else if (reduction != "none") {
    return b.refused("reduction '" + reduction + "' is not supported");
  }
  const size_t n = elementCount(data.dims);
  if (elementCount(updates.dims) != targets.size()) return b.refused("the updates do not match the indices");
  if (targets.size() > INT32_MAX) return b.refused("too many updates for int32 indexes");
  // rounds[k][p]: the update of the k-th write to position p, or -1.
  std::vector<std::vector<int32_t>> rounds;
  std::vector<uint32_t> writes(n, 0);
  for (size_t u = 0; u < targets.size(); ++u) {
    const auto p = static_cast<size_t>(targets[u]);
    const uint32_t k = combine == kReplace ? 0 : writes[p]++;
    if (k == rounds.size()) rounds.emplace_back(n, -1);
    rounds[k][p] = static_cast<int32_t>(u);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t current, b.operand(data));
  if (rounds.empty()) {
    defineOperand(b, 0, current, type, data.dims);
    return {};
  }
  const Dims flat{static_cast<uint32_t>(n)};
  NNRT_ASSIGN_OR_RETURN(current, b.reshape(current, type, flat));
  NNRT_ASSIGN_OR_RETURN(uint32_t source, b.operand(updates));
  NNRT_ASSIGN_OR_RETURN(source, b.reshape(source, type, {static_cast<uint32_t>(targets.size())}));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, b.scalarInt(0));
  for (const std::vector<int32_t>& round : rounds) {
    std::vector<int32_t> from(n);
    HostTensor mask;
    mask.type = ANEURALNETWORKS_TENSOR_BOOL8;
    mask.dimensions = flat;
    mask.bytes.resize(n);
    for (size_t p = 0; p < n; ++p) {
      from[p] = std::max(round[p], 0);
      mask.bytes[p] = round[p] >= 0 ? 1 : 0;
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t fromOperand, b.constInts(from, flat));
    NNRT_ASSIGN_OR_RETURN(uint32_t maskOperand, b.addConstant(mask.type, flat, std::move(mask.bytes)));
    NNRT_ASSIGN_OR_RETURN(uint32_t placed,
                          apply(b, ANEURALNETWORKS_GATHER, {source, axis, fromOperand}, type, flat));
    if (combine == ANEURALNETWORKS_ADD || combine == ANEURALNETWORKS_MUL) {
      NNRT_ASSIGN_OR_RETURN(placed, arithmetic(b, combine, current, placed, type, flat));
    } else if (combine != kReplace) {
      NNRT_ASSIGN_OR_RETURN(placed, apply(b, combine, {current, placed}, type, flat));
    }
    NNRT_ASSIGN_OR_RETURN(current, apply(b, ANEURALNETWORKS_SELECT, {maskOperand, placed, current}, type, flat));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.reshape(current, type, data.dims));
  defineOperand(b, 0, out, type, data.dims);
  return {};
}

// Input `i` of the current node as constant indices, each made non-negative against `size(k)` for
// the index at k (ONNX's negative indices count from the end), or a refusal naming the bad one.
template <typename SizeOf>
Result<std::vector<int32_t>> constantIndices(GraphBuilder& b, int i, const SizeOf& size) {
  NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(i));
  for (size_t k = 0; k < values.size(); ++k) {
    const int64_t limit = size(k);
    if (values[k] < -limit || values[k] >= limit)
      return b.refused("index " + std::to_string(values[k]) + " is out of range");
    if (values[k] < 0) values[k] += static_cast<int32_t>(limit);
  }
  return values;
}

}  // namespace

Result<void> mapGather(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* indices, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", 0));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, x->dims.size()));
  if (indices->type != ANEURALNETWORKS_TENSOR_INT32) return b.refused("indices must be integers");
  uint32_t indicesOperand;
  if (indices->constant.has_value()) {
    // NNAPI takes indices in [0, size): ONNX's negative ones count from the end.
    NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(1));
    int64_t size = x->dims[axis];
    for (int32_t& i : values) {
      if (i < -size || i >= size) return b.refused("index " + std::to_string(i) + " is out of range");
      if (i < 0) i += static_cast<int32_t>(size);
    }
    NNRT_ASSIGN_OR_RETURN(indicesOperand, b.constInts(values, indices->dims));
  } else {
    if (x->dims[axis] == 0) return b.refused("input shape unknown");
    NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*indices));
    NNRT_ASSIGN_OR_RETURN(indicesOperand,
                          positiveIndices(b, in, static_cast<int32_t>(x->dims[axis]), indices->dims));
  }
  Dims out(x->dims.begin(), x->dims.begin() + axis);
  if (!indices->scalar) out.insert(out.end(), indices->dims.begin(), indices->dims.end());
  out.insert(out.end(), x->dims.begin() + axis + 1, x->dims.end());
  Dims nnapiOut(x->dims.begin(), x->dims.begin() + axis);
  nnapiOut.insert(nnapiOut.end(), indices->dims.begin(), indices->dims.end());
  nnapiOut.insert(nnapiOut.end(), x->dims.begin() + axis + 1, x->dims.end());
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(static_cast<int32_t>(axis)));
  if (out == nnapiOut) return b.emit(ANEURALNETWORKS_GATHER, {in, axisOperand, indicesOperand}, x->type, out);
  // A scalar index drops the axis: gather with [1] and reshape.
  if (!allKnown(out)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(uint32_t gathered, b.addTensor(x->type, nnapiOut));
  NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_GATHER, {in, axisOperand, indicesOperand}, {gathered}));
  bool scalar = out.empty();
  if (scalar) out = {1};
  NNRT_ASSIGN_OR_RETURN(uint32_t reshaped, b.reshape(gathered, x->type, out));
  Value v;
  v.operand = reshaped;
  v.type = x->type;
  v.dims = out;
  v.scalar = scalar;
  b.define(0, v);
  return {};
}

// GatherElements: a GATHER from the flattened data at index idx * stride(axis) + the constant offset of
// each output position's other coordinates (negative indices count from the end, as ONNX).
Result<void> mapGatherElements(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* indices, b.requiredInput(1));
  if (indices->type != ANEURALNETWORKS_TENSOR_INT32) return b.refused("indices must be integers");
  if (!allKnown(x->dims) || !allKnown(indices->dims)) return b.refused("input shape unknown");
  const size_t rank = x->dims.size();
  if (indices->dims.size() != rank) return b.refused("indices must have the data's rank");
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", 0));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
  if (elementCount(x->dims) > INT32_MAX) return b.refused("the data has more elements than int32 indexes");
  const std::vector<int64_t> strides = stridesOf(x->dims);
  const size_t count = elementCount(indices->dims);
  std::vector<int32_t> offsets(count);
  for (size_t i = 0; i < count; ++i) {
    int64_t offset = 0;
    size_t rest = i;
    for (size_t d = rank; d-- > 0;) {
      uint32_t coordinate = static_cast<uint32_t>(rest % indices->dims[d]);
      rest /= indices->dims[d];
      if (d == axis) continue;
      if (coordinate >= x->dims[d]) return b.refused("indices are larger than the data off the axis");
      offset += coordinate * strides[d];
    }
    offsets[i] = static_cast<int32_t>(offset);
  }
  const int32_t size = static_cast<int32_t>(x->dims[axis]);
  const int32_t i32 = ANEURALNETWORKS_TENSOR_INT32;
  uint32_t flatIndices;
  if (indices->constant.has_value()) {
    NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(1));
    for (size_t i = 0; i < count; ++i) {
      if (values[i] < -size || values[i] >= size)
        return b.refused("index " + std::to_string(values[i]) + " is out of range");
      offsets[i] += (values[i] < 0 ? values[i] + size : values[i]) * static_cast<int32_t>(strides[axis]);
    }
    NNRT_ASSIGN_OR_RETURN(flatIndices, b.constInts(offsets, indices->dims));
  } else {
    NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*indices));
    NNRT_ASSIGN_OR_RETURN(uint32_t positive, positiveIndices(b, in, size, indices->dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t stride, b.constInts({static_cast<int32_t>(strides[axis])}));
    NNRT_ASSIGN_OR_RETURN(uint32_t scaled,
                          arithmetic(b, ANEURALNETWORKS_MUL, positive, stride, i32, indices->dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t offsetOperand, b.constInts(offsets, indices->dims));
    NNRT_ASSIGN_OR_RETURN(flatIndices,
                          arithmetic(b, ANEURALNETWORKS_ADD, scaled, offsetOperand, i32, indices->dims));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t data, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t flat,
                        b.reshape(data, x->type, {static_cast<uint32_t>(elementCount(x->dims))}));
  NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(0));
  return b.emit(ANEURALNETWORKS_GATHER, {flat, axisOperand, flatIndices}, x->type, indices->dims);
}

// OneHot with a constant depth and values: SELECT(index == iota or index == iota - depth, on, off), the
// depth axis inserted at `axis` (negative indices count from the end, as ONNX).
Result<void> mapOneHot(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* indices, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* depthValue, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* values, b.requiredInput(2));
  if (!allKnown(indices->dims)) return b.refused("input shape unknown");
  double depth = 0;
  if (depthValue->type == ANEURALNETWORKS_TENSOR_INT32) {
    NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> d, b.constantInts(1));
    if (d.size() != 1) return b.refused("depth must be one value");
    depth = d[0];
  } else {
    NNRT_ASSIGN_OR_RETURN(std::vector<float> d, b.constantFloats(1));
    if (d.size() != 1) return b.refused("depth must be one value");
    depth = std::floor(d[0]);  // ONNX casts a float depth to an integer
  }
  if (depth < 1 || depth > 1e6) return b.refused("depth must be in [1, 10^6]");
  if (elementCount(values->dims) != 2 || !values->constant.has_value())
    return b.refused("input 2 ('" + b.node()->input(2) + "') must be a constant of two values");
  const uint32_t n = static_cast<uint32_t>(depth);
  const Dims in = indices->scalar ? Dims{} : indices->dims;
  const size_t rank = in.size() + 1;
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", -1));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
  Dims out = in, expandedIndices = in, iotaDims(rank, 1);
  out.insert(out.begin() + axis, n);
  expandedIndices.insert(expandedIndices.begin() + axis, 1);
  iotaDims[axis] = n;
  // Float indices are CAST to int32, truncating as ONNX's cast to int64 does.
  if (indices->type != ANEURALNETWORKS_TENSOR_INT32 && indices->type != ANEURALNETWORKS_TENSOR_FLOAT32)
    return b.refused("only integer and float32 indices are supported");
  NNRT_ASSIGN_OR_RETURN(uint32_t index, b.operand(*indices));
  if (indices->type == ANEURALNETWORKS_TENSOR_FLOAT32) {
    NNRT_ASSIGN_OR_RETURN(
        index, apply(b, ANEURALNETWORKS_CAST, {index}, ANEURALNETWORKS_TENSOR_INT32, indices->dims));
  }
  NNRT_ASSIGN_OR_RETURN(index, b.reshape(index, ANEURALNETWORKS_TENSOR_INT32, expandedIndices));
  std::vector<int32_t> iota(n), wrapped(n);
  for (uint32_t i = 0; i < n; ++i) {
    iota[i] = static_cast<int32_t>(i);
    wrapped[i] = static_cast<int32_t>(i) - static_cast<int32_t>(n);
  }
  const int32_t b8 = ANEURALNETWORKS_TENSOR_BOOL8;
  NNRT_ASSIGN_OR_RETURN(uint32_t iotaOperand, b.constInts(iota, iotaDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t wrappedOperand, b.constInts(wrapped, iotaDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t hit, apply(b, ANEURALNETWORKS_EQUAL, {index, iotaOperand}, b8, out));
  NNRT_ASSIGN_OR_RETURN(uint32_t hitFromEnd,
                        apply(b, ANEURALNETWORKS_EQUAL, {index, wrappedOperand}, b8, out));
  NNRT_ASSIGN_OR_RETURN(uint32_t either, apply(b, ANEURALNETWORKS_LOGICAL_OR, {hit, hitFromEnd}, b8, out));
  const size_t element = elementSize(values->type);
  const size_t total = elementCount(out);
  std::vector<uint8_t> off, on;
  for (size_t i = 0; i < total; ++i) {
    off.insert(off.end(), values->constant->bytes.begin(), values->constant->bytes.begin() + element);
    on.insert(on.end(), values->constant->bytes.begin() + element,
              values->constant->bytes.begin() + 2 * element);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t onOperand, b.addConstant(values->type, out, std::move(on)));
  NNRT_ASSIGN_OR_RETURN(uint32_t offOperand, b.addConstant(values->type, out, std::move(off)));
  return b.emit(ANEURALNETWORKS_SELECT, {either, onOperand, offOperand}, values->type, out);
}

namespace {

// Resize (opset 11 on) and Upsample of the last two axes of a 4-D NCHW tensor. ONNX's interpolation is
// separable: each output row (column) is a fixed combination of input rows (columns), computed here at
// load time as ONNX's reference does (its coordinate transformation, neighbours on the edge-padded
// axis, nearest_mode, linear or cubic coefficients, exclude_outside). Where NNAPI's RESIZE_NEAREST_NEIGHBOR
// picks the same pixels (compared index by index) or RESIZE_BILINEAR uses the same coordinates (the
// output size is in * scale exactly: NNAPI scales by in / out), those run; otherwise nearest is two
// GATHERs of the chosen rows and columns and linear or cubic two FULLY_CONNECTED with the coefficient
// matrices. tf_crop_and_resize (values outside the region) is refused.
struct ResizeAxis {
  uint32_t in = 0, out = 0;
  double scale = 1;
};

struct ResizeMode {
  std::string mode, coordinates, rounding;
  double cubicA = -0.75;
  bool excludeOutside = false;
};

// Row x of the [out, in] interpolation matrix of one axis, as ONNX's reference interpolate_1d_with_x.
std::vector<double> resizeWeights(const ResizeMode& m, const ResizeAxis& a, uint32_t x) {
  const double outWidth = a.scale * a.in;
  double source;
  if (m.coordinates == "align_corners")
    source = outWidth == 1 ? 0.0 : x * (a.in - 1.0) / (outWidth - 1);
  else if (m.coordinates == "asymmetric")
    source = x / a.scale;
  else if (m.coordinates == "pytorch_half_pixel")
    source = outWidth == 1 ? -0.5 : (x + 0.5) / a.scale - 0.5;
  else if (m.coordinates == "tf_half_pixel_for_nn")
    source = (x + 0.5) / a.scale;
  else if (m.coordinates == "half_pixel_symmetric")  // the output's center on the input's
    source = a.in / 2.0 * (1 - a.out / outWidth) + (x + 0.5) / a.scale - 0.5;
  else
    source = (x + 0.5) / a.scale - 0.5;  // half_pixel
  const double whole = std::floor(source);
  const bool integral = source == whole;
  const double ratio = integral ? 1.0 : source - whole;  // in (0, 1]: the left pixel is preferred
  std::vector<double> coeffs;
  if (m.mode == "nearest") {
    bool right = integral || (m.rounding == "round_prefer_floor"  ? ratio > 0.5
                              : m.rounding == "round_prefer_ceil" ? ratio >= 0.5
                                                                  : m.rounding == "ceil");
    coeffs = {right ? 0.0 : 1.0, right ? 1.0 : 0.0};
  } else if (m.mode == "linear") {
    coeffs = {1 - ratio, ratio};
  } else {
    const double A = m.cubicA, r = ratio, s = 1 - ratio;
    coeffs = {((A * (r + 1) - 5 * A) * (r + 1) + 8 * A) * (r + 1) - 4 * A,
              ((A + 2) * r - (A + 3)) * r * r + 1, ((A + 2) * s - (A + 3)) * s * s + 1,
              ((A * (s + 1) - 5 * A) * (s + 1) + 8 * A) * (s + 1) - 4 * A};
  }
  // The n nearest indexes of the edge-padded axis, ties to the smaller, in ascending order.
  const int64_t n = static_cast<int64_t>(coeffs.size()), pad = (n + 1) / 2;
  const double center = source + pad;
  const int64_t limit = static_cast<int64_t>(a.in) + 2 * pad;
  // They lie within n of the center: sort a window of 2n + 1 indexes, kept inside the padded axis.
  const int64_t window = std::min<int64_t>(2 * n + 1, limit);
  const int64_t first = std::clamp<int64_t>(static_cast<int64_t>(std::floor(center)) - n, 0, limit - window);
  std::vector<int64_t> candidates(window);
  std::iota(candidates.begin(), candidates.end(), first);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](int64_t p, int64_t q) { return std::fabs(center - p) < std::fabs(center - q); });
  candidates.resize(std::min<int64_t>(n, limit));
  std::sort(candidates.begin(), candidates.end());
  if (m.excludeOutside) {
    double sum = 0;
    for (size_t i = 0; i < candidates.size(); ++i) {
      int64_t index = candidates[i] - pad;
      if (index < 0 || index >= static_cast<int64_t>(a.in)) coeffs[i] = 0;
      sum += coeffs[i];
    }
    for (double& c : coeffs)
      c /= sum;
  }
  std::vector<double> row(a.in, 0.0);
  for (size_t i = 0; i < candidates.size(); ++i)
    row[std::clamp<int64_t>(candidates[i] - pad, 0, a.in - 1)] += coeffs[i];
  return row;
}

// NNAPI's (nnrt's cpu kernel's) nearest index, in float as it computes it.
int64_t nnapiNearestIndex(bool alignCorners, bool halfPixel, const ResizeAxis& a, uint32_t x) {
  const float scale = alignCorners && a.out > 1 ? static_cast<float>(a.in - 1) / static_cast<float>(a.out - 1)
                                                : static_cast<float>(a.in) / static_cast<float>(a.out);
  const float source = halfPixel ? (static_cast<float>(x) + 0.5f) * scale : static_cast<float>(x) * scale;
  int64_t index =
      alignCorners ? static_cast<int64_t>(std::round(source)) : static_cast<int64_t>(std::floor(source));
  return std::clamp<int64_t>(index, 0, a.in - 1);
}

Result<void> resize(GraphBuilder& b, const Value& x, std::vector<double> scales, std::vector<int32_t> sizes,
                    const ResizeMode& m) {
  if (x.dims.size() != 4) return b.refused("only 4-D (NCHW) inputs are supported");
  if (!allKnown(x.dims)) return b.refused("input shape unknown");
  if (m.mode != "nearest" && m.mode != "linear" && m.mode != "cubic")
    return b.refused("mode '" + m.mode + "' is not supported");
  if (m.coordinates == "tf_crop_and_resize") return b.refused("tf_crop_and_resize is not supported");
  if (m.coordinates != "half_pixel" && m.coordinates != "pytorch_half_pixel" &&
      m.coordinates != "align_corners" && m.coordinates != "asymmetric" &&
      m.coordinates != "tf_half_pixel_for_nn" &&
      !(m.coordinates == "half_pixel_symmetric" && b.opset() >= 19))
    return b.refused("coordinate_transformation_mode '" + m.coordinates + "' is not supported");
  if (m.mode != "nearest") NNRT_RETURN_IF_ERROR(requireFloat(b, x));
  Dims out = x.dims;
  bool wholeSizes = true;
  if (!sizes.empty()) {
    if (sizes.size() != 4) return b.refused("sizes must have 4 entries");
    scales.clear();
    for (size_t i = 0; i < 4; ++i) {
      if (sizes[i] < 1) return b.refused("sizes must be positive");
      out[i] = static_cast<uint32_t>(sizes[i]);
      scales.push_back(static_cast<double>(sizes[i]) / x.dims[i]);
    }
  } else {
    if (scales.size() != 4) return b.refused("scales must have 4 entries");
    for (size_t i = 0; i < 4; ++i) {
      double size = scales[i] * x.dims[i];
      if (!(size >= 1) || size > 1e6) return b.refused("scales must give sizes from 1 to 10^6");
      out[i] = static_cast<uint32_t>(size);  // ONNX truncates
      wholeSizes = wholeSizes && size == out[i];
    }
  }
  if (out[0] != x.dims[0] || out[1] != x.dims[1]) return b.refused("only the last two axes can be resized");
  const ResizeAxis axes[2] = {{x.dims[2], out[2], scales[2]}, {x.dims[3], out[3], scales[3]}};
  for (const ResizeAxis& a : axes) {
    if (static_cast<uint64_t>(a.in) * a.out > (1u << 24))
      return b.refused("an axis too large for the load-time interpolation tables (in x out above 2^24)");
  }
  std::vector<std::vector<double>> weights[2];
  for (int i = 0; i < 2; ++i)
    for (uint32_t o = 0; o < axes[i].out; ++o)
      weights[i].push_back(resizeWeights(m, axes[i], o));
  auto chosen = [&](int axis, uint32_t o) {
    const auto& row = weights[axis][o];
    return static_cast<int64_t>(std::max_element(row.begin(), row.end()) - row.begin());
  };

  // The NNAPI operation, where one computes the same.
  std::optional<std::pair<bool, bool>> native;  // align_corners, half_pixel_centers
  if (m.mode == "nearest") {
    for (auto [align, half] : {std::pair{false, false}, std::pair{false, true}, std::pair{true, false}}) {
      bool agrees = true;
      for (int i = 0; i < 2; ++i)
        for (uint32_t o = 0; o < axes[i].out && agrees; ++o)
          agrees = chosen(i, o) == nnapiNearestIndex(align, half, axes[i], o);
      if (agrees) {
        native = std::pair{align, half};
        break;
      }
    }
  } else if (m.mode == "linear" && wholeSizes) {
    if (m.coordinates == "align_corners")
      native = std::pair{true, false};
    else if (m.coordinates == "half_pixel" ||
             (m.coordinates == "pytorch_half_pixel" && out[2] > 1 && out[3] > 1))
      native = std::pair{false, true};
    else if (m.coordinates == "asymmetric")
      native = std::pair{false, false};
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(x));
  if (native) {
    NNRT_ASSIGN_OR_RETURN(uint32_t width, b.scalarInt(static_cast<int32_t>(out[3])));
    NNRT_ASSIGN_OR_RETURN(uint32_t height, b.scalarInt(static_cast<int32_t>(out[2])));
    NNRT_ASSIGN_OR_RETURN(uint32_t nchw, b.scalarBool(true));
    NNRT_ASSIGN_OR_RETURN(uint32_t align, b.scalarBool(native->first));
    NNRT_ASSIGN_OR_RETURN(uint32_t half, b.scalarBool(native->second));
    int32_t op =
        m.mode == "linear" ? ANEURALNETWORKS_RESIZE_BILINEAR : ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR;
    return b.emit(op, {in, width, height, nchw, align, half}, x.type, out);
  }
  uint32_t current = in;
  Dims dims = x.dims;
  if (m.mode == "nearest") {
    // GATHER the chosen rows, then the chosen columns.
    for (int i = 0; i < 2; ++i) {
      std::vector<int32_t> indices;
      for (uint32_t o = 0; o < axes[i].out; ++o)
        indices.push_back(static_cast<int32_t>(chosen(i, o)));
      dims[2 + i] = axes[i].out;
      NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(2 + i));
      NNRT_ASSIGN_OR_RETURN(uint32_t indicesOperand, b.constInts(indices));
      NNRT_ASSIGN_OR_RETURN(
          current, apply(b, ANEURALNETWORKS_GATHER, {current, axisOperand, indicesOperand}, x.type, dims));
    }
    defineOperand(b, 0, current, x.type, dims);
    return {};
  }
  // Columns: [N*C*H, W] x Ww^T; rows: TRANSPOSE to [N*C, OW, H], then [N*C*OW, H] x Wh^T, TRANSPOSE back.
  auto multiply = [&](uint32_t operand, uint32_t rows, const std::vector<std::vector<double>>& w,
                      uint32_t inSize) -> Result<uint32_t> {
    const uint32_t outSize = static_cast<uint32_t>(w.size());
    std::vector<float> matrix;
    for (const auto& row : w)
      for (double v : row)
        matrix.push_back(static_cast<float>(v));
    NNRT_ASSIGN_OR_RETURN(uint32_t flat, b.reshape(operand, x.type, {rows, inSize}));
    NNRT_ASSIGN_OR_RETURN(uint32_t weightsOperand, b.constFloats(matrix, {outSize, inSize}));
    NNRT_ASSIGN_OR_RETURN(uint32_t bias, b.constFloats(std::vector<float>(outSize, 0.0f)));
    NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
    return apply(b, ANEURALNETWORKS_FULLY_CONNECTED, {flat, weightsOperand, bias, fuse}, x.type,
                 {rows, outSize});
  };
  const uint32_t planes = x.dims[0] * x.dims[1];
  NNRT_ASSIGN_OR_RETURN(current, multiply(current, planes * x.dims[2], weights[1], x.dims[3]));
  NNRT_ASSIGN_OR_RETURN(current, b.reshape(current, x.type, {planes, x.dims[2], out[3]}));
  NNRT_ASSIGN_OR_RETURN(uint32_t perm1, b.constInts({0, 2, 1}));
  NNRT_ASSIGN_OR_RETURN(
      current, apply(b, ANEURALNETWORKS_TRANSPOSE, {current, perm1}, x.type, {planes, out[3], x.dims[2]}));
  NNRT_ASSIGN_OR_RETURN(current, multiply(current, planes * out[3], weights[0], x.dims[2]));
  NNRT_ASSIGN_OR_RETURN(current, b.reshape(current, x.type, {planes, out[3], out[2]}));
  NNRT_ASSIGN_OR_RETURN(uint32_t perm2, b.constInts({0, 2, 1}));
  NNRT_ASSIGN_OR_RETURN(
      current, apply(b, ANEURALNETWORKS_TRANSPOSE, {current, perm2}, x.type, {planes, out[2], out[3]}));
  NNRT_ASSIGN_OR_RETURN(current, b.reshape(current, x.type, out));
  defineOperand(b, 0, current, x.type, out);
  return {};
}

}  // namespace

Result<void> mapResize(GraphBuilder& b) {
  if (b.opset() < 11) return b.refused("Resize before opset 11 is not supported");
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  ResizeMode m;
  NNRT_ASSIGN_OR_RETURN(m.mode, b.attrString("mode", "nearest"));
  NNRT_ASSIGN_OR_RETURN(m.coordinates, b.attrString("coordinate_transformation_mode", "half_pixel"));
  NNRT_ASSIGN_OR_RETURN(m.rounding, b.attrString("nearest_mode", "round_prefer_floor"));
  NNRT_ASSIGN_OR_RETURN(float a, b.attrFloat("cubic_coeff_a", -0.75f));
  m.cubicA = a;
  NNRT_ASSIGN_OR_RETURN(int64_t excludeOutside, b.attrInt("exclude_outside", 0));
  m.excludeOutside = excludeOutside != 0;
  if (m.rounding != "round_prefer_floor" && m.rounding != "round_prefer_ceil" && m.rounding != "floor" &&
      m.rounding != "ceil") {
    return b.refused("nearest_mode '" + m.rounding + "' is not supported");
  }
  for (const char* attribute : {"antialias", "axes", "keep_aspect_ratio_policy"})
    NNRT_RETURN_IF_ERROR(refuseBeforeOpset(b, attribute, 18));
  NNRT_ASSIGN_OR_RETURN(int64_t antialias, b.attrInt("antialias", 0));
  if (antialias != 0) return b.refused("attribute 'antialias' (an antialiasing filter) is not supported");
  NNRT_ASSIGN_OR_RETURN(std::string policy, b.attrString("keep_aspect_ratio_policy", "stretch"));
  std::vector<double> scales;
  std::vector<int32_t> sizes;
  NNRT_ASSIGN_OR_RETURN(const Value* sizesInput, b.input(3));
  if (sizesInput != nullptr && elementCount(sizesInput->dims) > 0) {
    NNRT_ASSIGN_OR_RETURN(sizes, b.constantInts(3));
    // The policy only reads sizes.
    if (policy != "stretch")
      return b.refused("attribute 'keep_aspect_ratio_policy' '" + policy + "' is not supported");
  } else {
    NNRT_ASSIGN_OR_RETURN(std::vector<float> s, b.constantFloats(2));
    scales.assign(s.begin(), s.end());
  }
  // Scales or sizes of the listed axes only (opset 18): the others keep their size.
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> axes, b.attrInts("axes"));
  if (!axes.empty()) {
    const size_t rank = x->dims.size();
    if ((sizes.empty() ? scales.size() : sizes.size()) != axes.size())
      return b.refused("scales or sizes must have one entry per axis in attribute 'axes'");
    std::vector<double> fullScales(rank, 1.0);
    std::vector<int32_t> fullSizes(x->dims.begin(), x->dims.end());
    std::vector<bool> seen(rank, false);
    for (size_t i = 0; i < axes.size(); ++i) {
      NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, axes[i], rank));
      if (seen[axis])
        return b.refused("axis " + std::to_string(axes[i]) + " is repeated in attribute 'axes'");
      seen[axis] = true;
      if (sizes.empty())
        fullScales[axis] = scales[i];
      else
        fullSizes[axis] = sizes[i];
    }
    if (sizes.empty())
      scales = std::move(fullScales);
    else
      sizes = std::move(fullSizes);
  }
  return resize(b, *x, scales, sizes, m);
}

// Upsample (deprecated): asymmetric coordinates, nearest rounds down.
Result<void> mapUpsample(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(std::string mode, b.attrString("mode", "nearest"));
  std::vector<double> scales;
  if (b.opset() < 9) {
    if (b.attribute("scales") == nullptr) return b.refused("attribute scales missing");
    for (float s : b.attribute("scales")->floats())
      scales.push_back(s);
  } else {
    NNRT_ASSIGN_OR_RETURN(std::vector<float> s, b.constantFloats(1));
    scales.assign(s.begin(), s.end());
  }
  return resize(b, *x, scales, {}, ResizeMode{mode, "asymmetric", "floor"});
}

// GatherND: a GATHER from the data flattened to [batch * indexed, rest...] at the flat index
// batch offset + sum_j idx[..., j] * stride_j (each component SLICEd, negatives counted from the end),
// the output [indices' leading dims, rest...].
Result<void> mapGatherND(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* indices, b.requiredInput(1));
  if (indices->type != ANEURALNETWORKS_TENSOR_INT32) return b.refused("indices must be integers");
  if (!allKnown(x->dims) || !allKnown(indices->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(int64_t batchDims, b.attrInt("batch_dims", 0));
  const size_t r = x->dims.size(), q = indices->dims.size();
  const uint32_t k = indices->dims.back();
  if (batchDims < 0 || static_cast<size_t>(batchDims) >= std::min(r, q) ||
      static_cast<size_t>(batchDims) + k > r)
    return b.refused("batch_dims and the index length do not fit the data");
  for (int64_t i = 0; i < batchDims; ++i)
    if (x->dims[i] != indices->dims[i]) return b.refused("batch dimensions differ");
  const size_t nb = static_cast<size_t>(batchDims);
  uint32_t batch = 1, indexed = 1;
  for (size_t i = 0; i < nb; ++i)
    batch *= x->dims[i];
  std::vector<int32_t> strides(k);
  for (uint32_t j = k; j-- > 0;) {
    strides[j] = static_cast<int32_t>(indexed);
    indexed *= x->dims[nb + j];
  }
  if (static_cast<uint64_t>(batch) * indexed > INT32_MAX)
    return b.refused("too many elements for int32 indexes");
  Dims lead(indices->dims.begin(), indices->dims.end() - 1);  // the positions
  Dims rest(x->dims.begin() + nb + k, x->dims.end());
  Dims out = lead;
  out.insert(out.end(), rest.begin(), rest.end());
  if (out.empty() || lead.empty()) return b.refused("a scalar result has no NNAPI shape");
  // The batch offset of each position: its batch coordinate * indexed.
  const size_t positions = elementCount(lead);
  uint32_t perBatch = 1;
  for (size_t i = nb; i < lead.size(); ++i)
    perBatch *= lead[i];
  std::vector<int32_t> offsets(positions);
  for (size_t p = 0; p < positions; ++p)
    offsets[p] = static_cast<int32_t>(p / perBatch * indexed);
  const int32_t i32 = ANEURALNETWORKS_TENSOR_INT32;
  Dims component = lead;
  component.push_back(1);
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*indices));
  NNRT_ASSIGN_OR_RETURN(uint32_t flat, b.constInts(offsets, component));
  for (uint32_t j = 0; j < k; ++j) {
    std::vector<int32_t> begin(q, 0), size(indices->dims.begin(), indices->dims.end());
    begin.back() = static_cast<int32_t>(j);
    size.back() = 1;
    NNRT_ASSIGN_OR_RETURN(uint32_t beginOperand, b.constInts(begin));
    NNRT_ASSIGN_OR_RETURN(uint32_t sizeOperand, b.constInts(size));
    NNRT_ASSIGN_OR_RETURN(uint32_t idx,
                          apply(b, ANEURALNETWORKS_SLICE, {in, beginOperand, sizeOperand}, i32, component));
    NNRT_ASSIGN_OR_RETURN(uint32_t positive,
                          positiveIndices(b, idx, static_cast<int32_t>(x->dims[nb + j]), component));
    NNRT_ASSIGN_OR_RETURN(uint32_t stride, b.constInts({strides[j]}));
    NNRT_ASSIGN_OR_RETURN(uint32_t scaled,
                          arithmetic(b, ANEURALNETWORKS_MUL, positive, stride, i32, component));
    NNRT_ASSIGN_OR_RETURN(flat, arithmetic(b, ANEURALNETWORKS_ADD, flat, scaled, i32, component));
  }
  NNRT_ASSIGN_OR_RETURN(flat, b.reshape(flat, i32, lead));
  Dims flattened{batch * indexed};
  flattened.insert(flattened.end(), rest.begin(), rest.end());
  NNRT_ASSIGN_OR_RETURN(uint32_t data, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(data, b.reshape(data, x->type, flattened));
  NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(0));
  return b.emit(ANEURALNETWORKS_GATHER, {data, axisOperand, flat}, x->type, out);
}

// ScatterElements (and Scatter, its older name) with constant indices: update i goes to the data's
// position of the index's coordinates with the one along `axis` replaced by the index (scatterAt).
Result<void> mapScatterElements(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* data, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* indices, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* updates, b.requiredInput(2));
  if (!allKnown(data->dims) || !allKnown(indices->dims)) return b.refused("input shape unknown");
  const size_t rank = data->dims.size();
  if (indices->dims.size() != rank || indices->dims != updates->dims)
    return b.refused("indices and updates must have one shape, of the data's rank");
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", 0));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
  NNRT_ASSIGN_OR_RETURN(std::string reduction, b.attrString("reduction", "none"));
  if (elementCount(data->dims) > INT32_MAX) return b.refused("the data has more elements than int32 indexes");
  NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values,
                        constantIndices(b, 1, [&](size_t) { return int64_t{data->dims[axis]}; }));
  const std::vector<int64_t> strides = stridesOf(data->dims);
  std::vector<int64_t> targets(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    int64_t target = 0;
    size_t rest = i;
    for (size_t d = rank; d-- > 0;) {
      const uint32_t coordinate = static_cast<uint32_t>(rest % indices->dims[d]);
      rest /= indices->dims[d];
      if (d != axis && coordinate >= data->dims[d])
        return b.refused("indices are larger than the data off the axis");
      target += (d == axis ? values[i] : coordinate) * strides[d];
    }
    targets[i] = target;
  }
  return scatterAt(b, *data, *updates, targets, reduction);
}

// ScatterND with constant indices [..., k]: each index tuple names a slice of the data (its trailing
// rank - k axes), which the matching slice of the updates writes (scatterAt).
Result<void> mapScatterND(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* data, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* indices, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* updates, b.requiredInput(2));
  if (!allKnown(data->dims) || !allKnown(indices->dims) || !allKnown(updates->dims))
    return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(std::string reduction, b.attrString("reduction", "none"));
  const size_t rank = data->scalar ? 0 : data->dims.size();
  const uint32_t k = indices->scalar ? 0 : indices->dims.back();
  if (indices->scalar || k < 1 || k > rank) return b.refused("the index length must be in [1, the data's rank]");
  if (elementCount(data->dims) > INT32_MAX) return b.refused("the data has more elements than int32 indexes");
  NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values,
                        constantIndices(b, 1, [&](size_t i) { return int64_t{data->dims[i % k]}; }));
  const std::vector<int64_t> strides = stridesOf(data->dims);
  const size_t slice = static_cast<size_t>(strides[k - 1]), tuples = values.size() / k;
  if (elementCount(updates->dims) != tuples * slice) return b.refused("the updates do not match the indices");
  std::vector<int64_t> targets(tuples * slice);
  for (size_t t = 0; t < tuples; ++t) {
    int64_t base = 0;
    for (uint32_t j = 0; j < k; ++j)
      base += values[t * k + j] * strides[j];
    for (size_t e = 0; e < slice; ++e)
      targets[t * slice + e] = base + static_cast<int64_t>(e);
  }
  return scatterAt(b, *data, *updates, targets, reduction);
}

// Compress with a constant condition: a GATHER of the positions it selects along `axis` (of the
// flattened input without one); the condition's missing entries select nothing.
Result<void> mapCompress(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* condition, b.requiredInput(1));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  if (!condition->constant.has_value())
    return b.refused("input 1 ('" + b.node()->input(1) + "') must be a constant");
  if (condition->type != ANEURALNETWORKS_TENSOR_BOOL8) return b.refused("the condition must be boolean");
  const bool flatten = b.attribute("axis") == nullptr;
  uint32_t axis = 0;
  if (!flatten) {
    NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", 0));
    NNRT_ASSIGN_OR_RETURN(axis, normalizeAxis(b, a, x->dims.size()));
  }
  Dims dims = flatten ? Dims{static_cast<uint32_t>(elementCount(x->dims))} : x->dims;
  const std::vector<uint8_t>& flags = condition->constant->bytes;
  std::vector<int32_t> selected;
  for (size_t i = 0; i < std::min<size_t>(flags.size(), dims[axis]); ++i)
    if (flags[i] != 0) selected.push_back(static_cast<int32_t>(i));
  if (selected.empty()) return b.refused("the condition selects nothing: an empty result");
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  if (flatten) {
    NNRT_ASSIGN_OR_RETURN(in, b.reshape(in, x->type, dims));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(static_cast<int32_t>(axis)));
  NNRT_ASSIGN_OR_RETURN(uint32_t indices, b.constInts(selected, {static_cast<uint32_t>(selected.size())}));
  dims[axis] = static_cast<uint32_t>(selected.size());
  return b.emit(ANEURALNETWORKS_GATHER, {in, axisOperand, indices}, x->type, dims);
}

// ReverseSequence with constant sequence_lens: each batch entry's first lens[b] steps along time_axis in
// reverse order, the rest as they are; one GATHER of the flattened input (gatherAt).
Result<void> mapReverseSequence(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!allKnown(x->dims) || x->dims.size() < 2) return b.refused("the input must have a known shape of rank 2 or more");
  NNRT_ASSIGN_OR_RETURN(int64_t batchAxis, b.attrInt("batch_axis", 1));
  NNRT_ASSIGN_OR_RETURN(int64_t timeAxis, b.attrInt("time_axis", 0));
  if (!((batchAxis == 0 && timeAxis == 1) || (batchAxis == 1 && timeAxis == 0)))
    return b.refused("batch_axis and time_axis must be 0 and 1, or 1 and 0");
  NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> lens, b.constantInts(1));
  const uint32_t batch = x->dims[batchAxis], steps = x->dims[timeAxis];
  if (lens.size() != batch) return b.refused("sequence_lens must have one length per batch entry");
  for (int32_t len : lens)
    if (len < 0 || static_cast<uint32_t>(len) > steps)
      return b.refused("sequence length " + std::to_string(len) + " is out of range");
  if (elementCount(x->dims) > INT32_MAX) return b.refused("the input has more elements than int32 indexes");
  const std::vector<int64_t> strides = stridesOf(x->dims);
  std::vector<int32_t> map(elementCount(x->dims));
  for (size_t p = 0; p < map.size(); ++p) {
    const auto t = static_cast<int64_t>(p / strides[timeAxis] % steps);
    const auto entry = static_cast<size_t>(p / strides[batchAxis] % batch);
    const int64_t from = t < lens[entry] ? lens[entry] - 1 - t : t;
    map[p] = static_cast<int32_t>(static_cast<int64_t>(p) + (from - t) * strides[timeAxis]);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, gatherAt(b, in, x->type, x->dims, map, x->dims));
  defineOperand(b, 0, out, x->type, x->dims);
  return {};
}

// GridSample of a 4-D float32 image X [N, C, H, W] at the run-time positions Grid [N, Ho, Wo, 2] ((x, y)
// in [-1, 1]), as ONNX's reference computes it: each position unnormalized (align_corners: (g + 1) / 2 *
// (size - 1), else ((g + 1) * size - 1) / 2); nearest: rounded half to even and that pixel; bilinear: the
// four pixels around it, weighted dy2 (dx2 p11 + dx1 p12) + dy1 (dx2 p21 + dx1 p22); bicubic: the 4 x 4
// around it with Keys' cubic coefficients (a = -0.75), rows first. Outside the image a pixel is 0
// (padding zeros) or the nearest edge pixel (border); with reflection, positions beyond the borders
// ([-0.5, size - 0.5], align_corners [0, size - 1]) are reflected back inside, and so is each pixel's
// index. The pixels are one GATHER each from the image as NHWC rows [N * H * W, C] at n * H * W + y * W
// + x (computed in float32, exact below 2^24); the result stays NHWC.
Result<void> mapGridSample(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* grid, b.requiredInput(1));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *grid));
  if (x->dims.size() != 4 || !allKnown(x->dims)) return b.refused("X must be 4-D with a known shape");
  if (grid->dims.size() != 4 || !allKnown(grid->dims) || grid->dims[3] != 2 || grid->dims[0] != x->dims[0])
    return b.refused("Grid must be [N, H_out, W_out, 2] of X's N");
  NNRT_ASSIGN_OR_RETURN(std::string mode, b.attrString("mode", b.opset() >= 20 ? "linear" : "bilinear"));
  NNRT_ASSIGN_OR_RETURN(std::string padding, b.attrString("padding_mode", "zeros"));
  NNRT_ASSIGN_OR_RETURN(int64_t alignCorners, b.attrInt("align_corners", 0));
  const bool linear = mode == "bilinear" || mode == "linear", cubic = mode == "bicubic" || mode == "cubic";
  if (!linear && !cubic && mode != "nearest") return b.refused("mode '" + mode + "' is not supported");
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    return b.refused("padding_mode '" + padding + "' is not supported");
  const uint32_t N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3];
  const uint32_t Ho = grid->dims[1], Wo = grid->dims[2];
  if (static_cast<uint64_t>(N) * H * W >= (uint64_t{1} << 24))
    return b.refused("an image of 2^24 pixels or more (float32 pixel indices)");
  if (padding == "reflection" && alignCorners != 0 && (H == 1 || W == 1))
    return b.refused("reflection with align_corners over a size of 1 divides by zero");
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32, b8 = ANEURALNETWORKS_TENSOR_BOOL8;
  const Dims at{N, Ho, Wo, 1};  // one value per output position
  const Dims pixelDims{N, Ho, Wo, C};
  auto constant = [&](float v) { return b.constFloats({v}); };
  auto binaryOp = [&](int32_t op, uint32_t l, uint32_t r) -> Result<uint32_t> {
    if (op == ANEURALNETWORKS_MINIMUM || op == ANEURALNETWORKS_MAXIMUM) return apply(b, op, {l, r}, f32, at);
    return arithmetic(b, op, l, r, f32, at);
  };
  auto withConstant = [&](int32_t op, uint32_t l, float v) -> Result<uint32_t> {
    NNRT_ASSIGN_OR_RETURN(uint32_t c, constant(v));
    return binaryOp(op, l, c);
  };
  auto compare = [&](int32_t op, uint32_t l, float v) -> Result<uint32_t> {
    NNRT_ASSIGN_OR_RETURN(uint32_t c, constant(v));
    return apply(b, op, {l, c}, b8, at);
  };
  auto select = [&](uint32_t condition, uint32_t yes, uint32_t no) {
    return apply(b, ANEURALNETWORKS_SELECT, {condition, yes, no}, f32, at);
  };
  // The position along an axis of `size` pixels, unnormalized.
  auto unnormalize = [&](uint32_t coordinate, uint32_t size) -> Result<uint32_t> {
    NNRT_ASSIGN_OR_RETURN(uint32_t plusOne, withConstant(ANEURALNETWORKS_ADD, coordinate, 1.0f));
    if (alignCorners != 0) {
      NNRT_ASSIGN_OR_RETURN(uint32_t half, withConstant(ANEURALNETWORKS_DIV, plusOne, 2.0f));
      return withConstant(ANEURALNETWORKS_MUL, half, static_cast<float>(size - 1));
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t scaled, withConstant(ANEURALNETWORKS_MUL, plusOne, static_cast<float>(size)));
    NNRT_ASSIGN_OR_RETURN(uint32_t less, withConstant(ANEURALNETWORKS_SUB, scaled, 1.0f));
    return withConstant(ANEURALNETWORKS_DIV, less, 2.0f);
  };
  // v reflected by the nearer border until it lies in [lo, hi] (the reference's _gs_reflect): beyond a
  // border by d, n = floor(d / (hi - lo)) whole reflections and r = d - n (hi - lo) left; an even n
  // lands r inside that border, an odd one r inside the other.
  auto reflect = [&](uint32_t v, float lo, float hi) -> Result<uint32_t> {
    const float range = hi - lo;
    auto fold = [&](uint32_t distance, float near, float far) -> Result<uint32_t> {
      NNRT_ASSIGN_OR_RETURN(uint32_t ratio, withConstant(ANEURALNETWORKS_DIV, distance, range));
      NNRT_ASSIGN_OR_RETURN(uint32_t n, apply(b, ANEURALNETWORKS_FLOOR, {ratio}, f32, at));
      NNRT_ASSIGN_OR_RETURN(uint32_t whole, withConstant(ANEURALNETWORKS_MUL, n, range));
      NNRT_ASSIGN_OR_RETURN(uint32_t r, binaryOp(ANEURALNETWORKS_SUB, distance, whole));
      NNRT_ASSIGN_OR_RETURN(uint32_t halfN, withConstant(ANEURALNETWORKS_MUL, n, 0.5f));
      NNRT_ASSIGN_OR_RETURN(uint32_t halfFloor, apply(b, ANEURALNETWORKS_FLOOR, {halfN}, f32, at));
      NNRT_ASSIGN_OR_RETURN(uint32_t even, apply(b, ANEURALNETWORKS_EQUAL, {halfN, halfFloor}, b8, at));
      NNRT_ASSIGN_OR_RETURN(uint32_t nearValue, constant(near));
      NNRT_ASSIGN_OR_RETURN(uint32_t farValue, constant(far));
      // near + r or near - r (the direction back inside), far the other way.
      const int32_t inward = near < far ? ANEURALNETWORKS_ADD : ANEURALNETWORKS_SUB;
      const int32_t outward = near < far ? ANEURALNETWORKS_SUB : ANEURALNETWORKS_ADD;
      NNRT_ASSIGN_OR_RETURN(uint32_t fromNear, binaryOp(inward, nearValue, r));
      NNRT_ASSIGN_OR_RETURN(uint32_t fromFar, binaryOp(outward, farValue, r));
      return select(even, fromNear, fromFar);
    };
    NNRT_ASSIGN_OR_RETURN(uint32_t loValue, constant(lo));
    NNRT_ASSIGN_OR_RETURN(uint32_t hiValue, constant(hi));
    NNRT_ASSIGN_OR_RETURN(uint32_t belowBy, binaryOp(ANEURALNETWORKS_SUB, loValue, v));
    NNRT_ASSIGN_OR_RETURN(uint32_t aboveBy, binaryOp(ANEURALNETWORKS_SUB, v, hiValue));
    NNRT_ASSIGN_OR_RETURN(uint32_t fromBelow, fold(belowBy, lo, hi));
    NNRT_ASSIGN_OR_RETURN(uint32_t fromAbove, fold(aboveBy, hi, lo));
    NNRT_ASSIGN_OR_RETURN(uint32_t below, compare(ANEURALNETWORKS_LESS, v, lo));
    NNRT_ASSIGN_OR_RETURN(uint32_t above, compare(ANEURALNETWORKS_GREATER, v, hi));
    NNRT_ASSIGN_OR_RETURN(uint32_t upper, select(above, fromAbove, v));
    return select(below, fromBelow, upper);
  };
  const float xLo = alignCorners != 0 ? 0.0f : -0.5f, yLo = xLo;
  const float xHi = alignCorners != 0 ? static_cast<float>(W) - 1.0f : static_cast<float>(W) - 0.5f;
  const float yHi = alignCorners != 0 ? static_cast<float>(H) - 1.0f : static_cast<float>(H) - 0.5f;

  NNRT_ASSIGN_OR_RETURN(uint32_t g, b.operand(*grid));
  auto component = [&](int32_t k) -> Result<uint32_t> {
    NNRT_ASSIGN_OR_RETURN(uint32_t begin, b.constInts({0, 0, 0, k}));
    NNRT_ASSIGN_OR_RETURN(uint32_t size, b.constInts({-1, -1, -1, 1}));
    return apply(b, ANEURALNETWORKS_SLICE, {g, begin, size}, f32, at);
  };
  NNRT_ASSIGN_OR_RETURN(uint32_t gx, component(0));
  NNRT_ASSIGN_OR_RETURN(uint32_t gy, component(1));
  NNRT_ASSIGN_OR_RETURN(uint32_t px, unnormalize(gx, W));
  NNRT_ASSIGN_OR_RETURN(uint32_t py, unnormalize(gy, H));
  if (mode == "nearest") {
    NNRT_ASSIGN_OR_RETURN(px, roundHalfToEven(b, px, at));
    NNRT_ASSIGN_OR_RETURN(py, roundHalfToEven(b, py, at));
  }
  if (padding == "reflection") {
    NNRT_ASSIGN_OR_RETURN(px, reflect(px, xLo, xHi));
    NNRT_ASSIGN_OR_RETURN(py, reflect(py, yLo, yHi));
  }

  NNRT_ASSIGN_OR_RETURN(uint32_t image, b.nhwcOperand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t rows, b.reshape(image, f32, {N * H * W, C}));
  std::vector<float> batchOffsets(N);
  for (uint32_t n = 0; n < N; ++n) batchOffsets[n] = static_cast<float>(n * H * W);
  NNRT_ASSIGN_OR_RETURN(uint32_t batchOffset, b.constFloats(batchOffsets, {N, 1, 1, 1}));
  uint32_t ones = kNoOperand, zeros = kNoOperand;  // the inside-the-image mask's values (padding zeros)
  if (padding == "zeros") {
    NNRT_ASSIGN_OR_RETURN(ones, constFilled(b, f32, at, 1.0));
    NNRT_ASSIGN_OR_RETURN(zeros, constFilled(b, f32, at, 0.0));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, b.scalarInt(0));
  // The pixel at whole positions (xi, yi): [N, Ho, Wo, C]; outside the image 0 (zeros), the edge's
  // (border), or the reflected index's (reflection, truncated toward zero as the reference's int()).
  auto pixel = [&](uint32_t xi, uint32_t yi) -> Result<uint32_t> {
    if (padding == "reflection") {
      NNRT_ASSIGN_OR_RETURN(uint32_t rx, reflect(xi, xLo, xHi));
      NNRT_ASSIGN_OR_RETURN(uint32_t ry, reflect(yi, yLo, yHi));
      NNRT_ASSIGN_OR_RETURN(xi, truncateTowardZero(b, rx, at));
      NNRT_ASSIGN_OR_RETURN(yi, truncateTowardZero(b, ry, at));
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t lowX, withConstant(ANEURALNETWORKS_MAXIMUM, xi, 0.0f));
    NNRT_ASSIGN_OR_RETURN(uint32_t cx, withConstant(ANEURALNETWORKS_MINIMUM, lowX, static_cast<float>(W - 1)));
    NNRT_ASSIGN_OR_RETURN(uint32_t lowY, withConstant(ANEURALNETWORKS_MAXIMUM, yi, 0.0f));
    NNRT_ASSIGN_OR_RETURN(uint32_t cy, withConstant(ANEURALNETWORKS_MINIMUM, lowY, static_cast<float>(H - 1)));
    NNRT_ASSIGN_OR_RETURN(uint32_t rowStart, withConstant(ANEURALNETWORKS_MUL, cy, static_cast<float>(W)));
    NNRT_ASSIGN_OR_RETURN(uint32_t inImage, binaryOp(ANEURALNETWORKS_ADD, rowStart, cx));
    NNRT_ASSIGN_OR_RETURN(uint32_t flat, binaryOp(ANEURALNETWORKS_ADD, inImage, batchOffset));
    NNRT_ASSIGN_OR_RETURN(uint32_t whole, apply(b, ANEURALNETWORKS_CAST, {flat}, ANEURALNETWORKS_TENSOR_INT32, at));
    NNRT_ASSIGN_OR_RETURN(uint32_t index, b.reshape(whole, ANEURALNETWORKS_TENSOR_INT32, {N, Ho, Wo}));
    NNRT_ASSIGN_OR_RETURN(uint32_t value, apply(b, ANEURALNETWORKS_GATHER, {rows, axis, index}, f32, pixelDims));
    if (padding != "zeros") return value;
    // Inside the image exactly when clamping moved neither coordinate.
    NNRT_ASSIGN_OR_RETURN(uint32_t sameX, apply(b, ANEURALNETWORKS_EQUAL, {cx, xi}, b8, at));
    NNRT_ASSIGN_OR_RETURN(uint32_t sameY, apply(b, ANEURALNETWORKS_EQUAL, {cy, yi}, b8, at));
    NNRT_ASSIGN_OR_RETURN(uint32_t inside, apply(b, ANEURALNETWORKS_LOGICAL_AND, {sameX, sameY}, b8, at));
    NNRT_ASSIGN_OR_RETURN(uint32_t mask, select(inside, ones, zeros));
    return arithmetic(b, ANEURALNETWORKS_MUL, value, mask, f32, pixelDims);
  };
  auto weighted = [&](uint32_t p, uint32_t w) { return arithmetic(b, ANEURALNETWORKS_MUL, p, w, f32, pixelDims); };
  auto sum = [&](uint32_t l, uint32_t r) { return arithmetic(b, ANEURALNETWORKS_ADD, l, r, f32, pixelDims); };
  // sum_k weights[k] * values[k], in order.
  auto combine = [&](const std::vector<uint32_t>& values, const std::vector<uint32_t>& weights) -> Result<uint32_t> {
    NNRT_ASSIGN_OR_RETURN(uint32_t total, weighted(values[0], weights[0]));
    for (size_t k = 1; k < values.size(); ++k) {
      NNRT_ASSIGN_OR_RETURN(uint32_t term, weighted(values[k], weights[k]));
      NNRT_ASSIGN_OR_RETURN(total, sum(total, term));
    }
    return total;
  };
  uint32_t result;
  if (mode == "nearest") {
    NNRT_ASSIGN_OR_RETURN(result, pixel(px, py));
  } else if (linear) {
    NNRT_ASSIGN_OR_RETURN(uint32_t x1, apply(b, ANEURALNETWORKS_FLOOR, {px}, f32, at));
    NNRT_ASSIGN_OR_RETURN(uint32_t y1, apply(b, ANEURALNETWORKS_FLOOR, {py}, f32, at));
    NNRT_ASSIGN_OR_RETURN(uint32_t x2, withConstant(ANEURALNETWORKS_ADD, x1, 1.0f));
    NNRT_ASSIGN_OR_RETURN(uint32_t y2, withConstant(ANEURALNETWORKS_ADD, y1, 1.0f));
    NNRT_ASSIGN_OR_RETURN(uint32_t dx1, binaryOp(ANEURALNETWORKS_SUB, px, x1));
    NNRT_ASSIGN_OR_RETURN(uint32_t dx2, binaryOp(ANEURALNETWORKS_SUB, x2, px));
    NNRT_ASSIGN_OR_RETURN(uint32_t dy1, binaryOp(ANEURALNETWORKS_SUB, py, y1));
    NNRT_ASSIGN_OR_RETURN(uint32_t dy2, binaryOp(ANEURALNETWORKS_SUB, y2, py));
    std::vector<uint32_t> rowsAt;
    for (uint32_t yi : {y1, y2}) {
      NNRT_ASSIGN_OR_RETURN(uint32_t left, pixel(x1, yi));
      NNRT_ASSIGN_OR_RETURN(uint32_t right, pixel(x2, yi));
      NNRT_ASSIGN_OR_RETURN(uint32_t row, combine({left, right}, {dx2, dx1}));
      rowsAt.push_back(row);
    }
    NNRT_ASSIGN_OR_RETURN(result, combine(rowsAt, {dy2, dy1}));
  } else {
    // Keys' coefficients of the four taps at distance t from the first inner one (t in [0, 1)).
    auto coefficients = [&](uint32_t t) -> Result<std::vector<uint32_t>> {
      constexpr float a = -0.75f;
      // Taps 0 and 3: ((a s - 5a) s + 8a) s - 4a at s = t + 1 and 2 - t; taps 1 and 2:
      // ((a + 2) s - (a + 3)) s s + 1 at s = t and 1 - t.
      auto outer = [&](uint32_t sv) -> Result<uint32_t> {
        NNRT_ASSIGN_OR_RETURN(uint32_t v, withConstant(ANEURALNETWORKS_MUL, sv, a));
        NNRT_ASSIGN_OR_RETURN(v, withConstant(ANEURALNETWORKS_SUB, v, 5 * a));
        NNRT_ASSIGN_OR_RETURN(v, binaryOp(ANEURALNETWORKS_MUL, v, sv));
        NNRT_ASSIGN_OR_RETURN(v, withConstant(ANEURALNETWORKS_ADD, v, 8 * a));
        NNRT_ASSIGN_OR_RETURN(v, binaryOp(ANEURALNETWORKS_MUL, v, sv));
        return withConstant(ANEURALNETWORKS_SUB, v, 4 * a);
      };
      auto inner = [&](uint32_t sv) -> Result<uint32_t> {
        NNRT_ASSIGN_OR_RETURN(uint32_t v, withConstant(ANEURALNETWORKS_MUL, sv, a + 2));
        NNRT_ASSIGN_OR_RETURN(v, withConstant(ANEURALNETWORKS_SUB, v, a + 3));
        NNRT_ASSIGN_OR_RETURN(v, binaryOp(ANEURALNETWORKS_MUL, v, sv));
        NNRT_ASSIGN_OR_RETURN(v, binaryOp(ANEURALNETWORKS_MUL, v, sv));
        return withConstant(ANEURALNETWORKS_ADD, v, 1.0f);
      };
      NNRT_ASSIGN_OR_RETURN(uint32_t one, constant(1.0f));
      NNRT_ASSIGN_OR_RETURN(uint32_t two, constant(2.0f));
      NNRT_ASSIGN_OR_RETURN(uint32_t tPlusOne, withConstant(ANEURALNETWORKS_ADD, t, 1.0f));
      NNRT_ASSIGN_OR_RETURN(uint32_t oneMinusT, binaryOp(ANEURALNETWORKS_SUB, one, t));
      NNRT_ASSIGN_OR_RETURN(uint32_t twoMinusT, binaryOp(ANEURALNETWORKS_SUB, two, t));
      NNRT_ASSIGN_OR_RETURN(uint32_t c0, outer(tPlusOne));
      NNRT_ASSIGN_OR_RETURN(uint32_t c1, inner(t));
      NNRT_ASSIGN_OR_RETURN(uint32_t c2, inner(oneMinusT));
      NNRT_ASSIGN_OR_RETURN(uint32_t c3, outer(twoMinusT));
      return std::vector<uint32_t>{c0, c1, c2, c3};
    };
    NNRT_ASSIGN_OR_RETURN(uint32_t fx, apply(b, ANEURALNETWORKS_FLOOR, {px}, f32, at));
    NNRT_ASSIGN_OR_RETURN(uint32_t fy, apply(b, ANEURALNETWORKS_FLOOR, {py}, f32, at));
    NNRT_ASSIGN_OR_RETURN(uint32_t tx, binaryOp(ANEURALNETWORKS_SUB, px, fx));
    NNRT_ASSIGN_OR_RETURN(uint32_t ty, binaryOp(ANEURALNETWORKS_SUB, py, fy));
    NNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> cx, coefficients(tx));
    NNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> cy, coefficients(ty));
    std::vector<uint32_t> xs, rowsAt;
    for (float k : {-1.0f, 0.0f, 1.0f, 2.0f}) {
      NNRT_ASSIGN_OR_RETURN(uint32_t xi, withConstant(ANEURALNETWORKS_ADD, fx, k));
      xs.push_back(xi);
    }
    for (float k : {-1.0f, 0.0f, 1.0f, 2.0f}) {
      NNRT_ASSIGN_OR_RETURN(uint32_t yi, withConstant(ANEURALNETWORKS_ADD, fy, k));
      std::vector<uint32_t> taps;
      for (uint32_t xi : xs) {
        NNRT_ASSIGN_OR_RETURN(uint32_t p, pixel(xi, yi));
        taps.push_back(p);
      }
      NNRT_ASSIGN_OR_RETURN(uint32_t row, combine(taps, cx));
      rowsAt.push_back(row);
    }
    NNRT_ASSIGN_OR_RETURN(result, combine(rowsAt, cy));
  }
  Value v;
  v.operand = result;
  v.type = f32;
  v.dims = {N, C, Ho, Wo};
  v.nhwc = true;
  b.define(0, std::move(v));
  return {};
}

}  // namespace nnrt::onnxfront
