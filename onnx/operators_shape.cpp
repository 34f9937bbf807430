// ONNX operators that move or reshape a tensor -> NNAPI: Identity, Reshape, Flatten, Squeeze, Unsqueeze,
// Transpose, Concat, Slice, Split, Dropout, DepthToSpace/SpaceToDepth, Tile, Pad and Expand.
#include "onnx/operators_common.hpp"

namespace nnrt::onnxfront {

namespace {

// Small constants (shape arithmetic, a Loop's iteration number) stay constants through Identity and
// the reshapes, so that operations needing constant arguments can read them.
bool smallConstant(const Value& x) {
  return x.constant.has_value() && allKnown(x.dims) && elementCount(x.dims) <= 4096;
}

}  // namespace

Result<void> mapIdentity(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  if (smallConstant(*x)) {
    b.define(0, *x);
    return {};
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t a, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.reshape(a, x->type, x->dims));
  defineOperand(b, 0, out, x->type, x->dims, x->scalar);
  return {};
}

namespace {

Result<void> reshapeTo(GraphBuilder& b, const Value& x, Dims dims, bool scalar = false) {
  if (smallConstant(x)) {
    HostTensor t = *x.constant;
    t.dimensions = scalar ? Dims{} : dims;
    defineConstant(b, 0, std::move(t));
    return {};
  }
  // A rank-5 value is held packed (Value::packed): the same elements in the same order.
  NNRT_ASSIGN_OR_RETURN(uint32_t a, x.dims.size() == 5 ? packedOperand(b, x) : b.operand(x));
  if (dims.empty()) dims = {1};
  if (dims.size() == 5) {
    NNRT_ASSIGN_OR_RETURN(uint32_t out, b.reshape(a, x.type, packedDims(dims)));
    definePacked(b, 0, out, x.type, dims);
    return {};
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.reshape(a, x.type, dims));
  Value v;
  v.operand = out;
  v.type = x.type;
  v.dims = dims;
  v.scalar = scalar;
  b.define(0, v);
  return {};
}

}  // namespace

Result<void> mapReshape(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(int64_t allowZero, b.attrInt("allowzero", 0));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> shape, b.constantInts(1));
  size_t total = elementCount(x->dims);
  Dims out;
  int inferred = -1;
  size_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t d = shape[i];
    if (d == 0 && allowZero == 0) {
      if (i >= x->dims.size()) return b.refused("shape copies a dimension the input does not have");
      d = x->dims[i];
    }
    if (d == -1) {
      if (inferred >= 0) return b.refused("more than one -1 in shape");
      inferred = static_cast<int>(i);
      out.push_back(1);
      continue;
    }
    if (d <= 0) return b.refused("shape entry " + std::to_string(d) + " is not supported");
    out.push_back(static_cast<uint32_t>(d));
    known *= d;
  }
  if (inferred >= 0) {
    if (known == 0 || total % known != 0) return b.refused("shape does not match the input's element count");
    out[inferred] = static_cast<uint32_t>(total / known);
  }
  if (elementCount(out) != total) return b.refused("shape does not match the input's element count");
  // [N, C, H, W] -> [N, g, C / g, H, W], Transpose [0, 2, 1, 3, 4], Reshape back: CHANNEL_SHUFFLE by g
  // (NNAPI has no 5-D TRANSPOSE; an NHWC image is shuffled on its last axis).
  if (x->dims.size() == 4 && out.size() == 5 && out[0] == x->dims[0] && out[1] * out[2] == x->dims[1] &&
      out[3] == x->dims[2] && out[4] == x->dims[3] && b.absorbTransposeAndReshape({0, 2, 1, 3, 4}, x->dims)) {
    NNRT_ASSIGN_OR_RETURN(uint32_t groups, b.scalarInt(static_cast<int32_t>(out[1])));
    NNRT_ASSIGN_OR_RETURN(uint32_t axis, b.scalarInt(x->nhwc ? 3 : 1));
    if (x->nhwc) return b.emitNhwc(ANEURALNETWORKS_CHANNEL_SHUFFLE, {x->operand, groups, axis}, x->type, x->dims);
    NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
    return b.emit(ANEURALNETWORKS_CHANNEL_SHUFFLE, {in, groups, axis}, x->type, x->dims);
  }
  // An NHWC image [N, C, H, W] split into [N, A, C / A, H, W] and transposed to [N, A, H, W, C / A] (a YOLO
  // head's anchors and their predictions): the NHWC tensor seen as [N, H W, A, C / A] and moved by one
  // TRANSPOSE [0, 2, 1, 3] (rows of C / A values), where the literal form TRANSPOSEs the image to NCHW
  // first and then the 5-D result (YOLOv5's 40x40 head: 81 + 58 us for the two).
  if (x->nhwc && x->dims.size() == 4 && out.size() == 5 && out[0] == x->dims[0] && out[1] * out[2] == x->dims[1] &&
      out[3] == x->dims[2] && out[4] == x->dims[3] && b.absorbFollowingTranspose({0, 1, 3, 4, 2})) {
    const uint32_t n = out[0], anchors = out[1], k = out[2], h = out[3], w = out[4];
    NNRT_ASSIGN_OR_RETURN(uint32_t view, b.reshape(x->operand, x->type, {n, h * w, anchors, k}));
    NNRT_ASSIGN_OR_RETURN(uint32_t perm, b.constInts({0, 2, 1, 3}));
    NNRT_ASSIGN_OR_RETURN(uint32_t moved,
                          apply(b, ANEURALNETWORKS_TRANSPOSE, {view, perm}, x->type, {n, anchors, h * w, k}));
    // [N, A, H, W, C / A] is held packed, [N A, H, W, C / A]: the same elements in the same order.
    const Dims result{n, anchors, h, w, k};
    NNRT_ASSIGN_OR_RETURN(uint32_t packed, b.reshape(moved, x->type, packedDims(result)));
    definePacked(b, 0, packed, x->type, result);
    return {};
  }
  // [N, C' r r, H, W] -> [N, C', r, r, H, W], Transpose [0, 1, 4, 2, 5, 3], Reshape to [N, C', H r, W r]:
  // PyTorch's PixelShuffle (NNAPI has no 6-D TRANSPOSE), DepthToSpace in CRD order.
  if (x->dims.size() == 4 && out.size() == 6 && out[0] == x->dims[0] && out[2] == out[3] &&
      out[1] * out[2] * out[3] == x->dims[1] && out[4] == x->dims[2] && out[5] == x->dims[3] &&
      b.absorbTransposeAndReshape({0, 1, 4, 2, 5, 3}, {x->dims[0], out[1], x->dims[2] * out[2], x->dims[3] * out[2]}))
    return depthToSpace(b, *x, out[2], true);
  // An NHWC image [N, C, H, W] flattened to [N, C, H * W] and transposed to tokens [N, H * W, C] (a vision
  // transformer's patch embedding): the NHWC tensor reshaped, no TRANSPOSE either way.
  if (x->nhwc && x->dims.size() == 4 && out == Dims{x->dims[0], x->dims[1], x->dims[2] * x->dims[3]} &&
      b.absorbFollowingTranspose({0, 2, 1})) {
    const Dims tokens{x->dims[0], x->dims[2] * x->dims[3], x->dims[1]};
    NNRT_ASSIGN_OR_RETURN(uint32_t reshaped, b.reshape(x->operand, x->type, tokens));
    Value v;
    v.operand = reshaped;
    v.type = x->type;
    v.dims = tokens;
    b.define(0, v);
    return {};
  }
  return reshapeTo(b, *x, out, out.empty());
}

Result<void> mapFlatten(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  size_t rank = x->scalar ? 0 : x->dims.size();
  NNRT_ASSIGN_OR_RETURN(int64_t axis, b.attrInt("axis", 1));
  if (axis < 0) axis += static_cast<int64_t>(rank);
  if (axis < 0 || axis > static_cast<int64_t>(rank)) return b.refused("axis outside the input's rank");
  uint32_t outer = 1, inner = 1;
  for (size_t i = 0; i < rank; ++i)
    (static_cast<int64_t>(i) < axis ? outer : inner) *= x->dims[i];
  return reshapeTo(b, *x, {outer, inner});
}

Result<std::vector<int64_t>> axesInputOrAttribute(GraphBuilder& b, int inputIndex, int64_t sinceOpset) {
  if (b.opset() >= sinceOpset) {
    if (b.attribute("axes") != nullptr)
      return b.refused("attribute 'axes' is an input since opset " + std::to_string(sinceOpset));
    NNRT_ASSIGN_OR_RETURN(const Value* axes, b.input(inputIndex));
    if (axes == nullptr) return std::vector<int64_t>{};
    NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(inputIndex));
    return std::vector<int64_t>(values.begin(), values.end());
  }
  return b.attrInts("axes");
}

Result<void> mapSqueeze(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> axes, axesInputOrAttribute(b, 1, 13));
  std::vector<bool> drop(x->dims.size(), false);
  for (int64_t a : axes) {
    NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, x->dims.size()));
    if (x->dims[axis] != 1) return b.refused("squeezed axis has size " + std::to_string(x->dims[axis]));
    drop[axis] = true;
  }
  Dims out;
  for (size_t i = 0; i < x->dims.size(); ++i) {
    if (axes.empty() ? x->dims[i] != 1 : !drop[i]) out.push_back(x->dims[i]);
  }
  return reshapeTo(b, *x, out, out.empty());
}

Result<void> mapUnsqueeze(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> axes, axesInputOrAttribute(b, 1, 13));
  if (axes.empty()) return b.refused("axes missing");
  Dims in = x->scalar ? Dims{} : x->dims;
  size_t rank = in.size() + axes.size();
  std::vector<bool> inserted(rank, false);
  for (int64_t a : axes) {
    NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
    if (inserted[axis]) return b.refused("axis repeated");
    inserted[axis] = true;
  }
  Dims out;
  size_t next = 0;
  for (size_t i = 0; i < rank; ++i)
    out.push_back(inserted[i] ? 1 : in[next++]);
  return reshapeTo(b, *x, out);
}

Result<void> mapTranspose(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> perm, b.attrInts("perm"));
  size_t rank = x->dims.size();
  if (perm.empty()) {
    for (size_t i = 0; i < rank; ++i)
      perm.push_back(static_cast<int64_t>(rank - 1 - i));
  }
  if (perm.size() != rank) return b.refused("perm does not match the input's rank");
  Dims out;
  std::vector<int32_t> p;
  for (int64_t a : perm) {
    if (a < 0 || a >= static_cast<int64_t>(rank)) return b.refused("perm entry out of range");
    out.push_back(x->dims[a]);
    p.push_back(static_cast<int32_t>(a));
  }
  if (rank == 5) {
    // Packed: the first two axes must stay (merged, they are the operand's first).
    if (p[0] != 0 || p[1] != 1) return b.refused("a 5-D Transpose that moves the first two axes");
    NNRT_ASSIGN_OR_RETURN(uint32_t in, packedOperand(b, *x));
    NNRT_ASSIGN_OR_RETURN(uint32_t permOperand, b.constInts({0, p[2] - 1, p[3] - 1, p[4] - 1}));
    NNRT_ASSIGN_OR_RETURN(uint32_t moved, apply(b, ANEURALNETWORKS_TRANSPOSE, {in, permOperand}, x->type, packedDims(out)));
    definePacked(b, 0, moved, x->type, out);
    return {};
  }
  // Between ONNX's channels-first layout and channels-last, where the value is already held channels-last,
  // a Transpose moves nothing (ConvNeXt's blocks take each image to [N, H, W, C] for a normalization and
  // an MLP over its channels, and back): [0, 2, 3, 1] of an image held NHWC is that operand as it is, and
  // [0, 3, 1, 2] of a plain [N, H, W, C] value is an image held NHWC; for 1-D images ([N, C, L] held as
  // [N, L, C]) [0, 2, 1] either way.
  if (!x->constant.has_value() && !x->packed && x->operand != kNoOperand && (rank == 4 || rank == 3) &&
      allKnown(x->dims)) {
    const std::vector<int32_t> toLast = rank == 4 ? std::vector<int32_t>{0, 2, 3, 1} : std::vector<int32_t>{0, 2, 1};
    const std::vector<int32_t> toFirst = rank == 4 ? std::vector<int32_t>{0, 3, 1, 2} : std::vector<int32_t>{0, 2, 1};
    if ((x->nhwc && p == toLast) || (!x->nhwc && p == toFirst)) {
      Value moved;
      moved.operand = x->operand;
      moved.type = x->type;
      moved.dims = out;
      moved.nhwc = !x->nhwc;
      b.define(0, std::move(moved));
      return {};
    }
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t permOperand, b.constInts(p));
  return b.emit(ANEURALNETWORKS_TRANSPOSE, {in, permOperand}, x->type, out);
}

Result<void> mapConcat(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* first, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", b.opset() < 4 ? 1 : INT64_MAX));
  if (a == INT64_MAX) return b.refused("attribute axis missing");
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, first->dims.size()));
  Dims out = first->dims;
  out[axis] = 0;
  bool constants = true;
  for (int i = 0; i < b.node()->input_size(); ++i) {
    NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(i));
    constants = constants && x->constant.has_value() && (allKnown(x->dims) || isEmptyConstant(*x));
  }
  if (constants) {
    // Concatenated at load time (shapes built from Shape and Slice stay constants).
    const size_t element = elementSize(first->type);
    uint32_t outer = 1, inner = 1;
    for (size_t d = 0; d < out.size(); ++d)
      (d < axis ? outer : inner) *= d == axis ? 1 : out[d];
    std::vector<const Value*> inputs;
    for (int i = 0; i < b.node()->input_size(); ++i) {
      NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(i));
      if (x->dims.size() != out.size() || x->type != first->type)
        return b.refused("inputs differ in rank or type");
      out[axis] += x->dims[axis];
      inputs.push_back(x);
    }
    HostTensor t;
    t.type = first->type;
    t.dimensions = out;
    for (uint32_t o = 0; o < outer; ++o) {
      for (const Value* x : inputs) {
        size_t block = static_cast<size_t>(x->dims[axis]) * inner * element;
        const uint8_t* from = x->constant->bytes.data() + o * block;
        t.bytes.insert(t.bytes.end(), from, from + block);
      }
    }
    defineConstant(b, 0, std::move(t));
    return {};
  }
  // Images a convolution left in NHWC (SqueezeNet's and Inception's branches, concatenated over channels)
  // are concatenated so, on NHWC's axis, instead of each being transposed to NCHW and the result back;
  // 1-D images ([N, C, L] kept as [N, L, C]) the same way.
  bool nhwc = out.size() == 4 || out.size() == 3;
  bool anyNhwc = false;
  for (int i = 0; i < b.node()->input_size() && nhwc; ++i) {
    NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(i));
    anyNhwc = anyNhwc || x->nhwc;
    nhwc = !x->constant.has_value() || x->nhwc;
  }
  nhwc = nhwc && anyNhwc;
  // 5-D values are concatenated packed, after their first two axes (the operand's axis - 1).
  const bool packed = out.size() == 5;
  if (packed && axis < 2) return b.refused("a 5-D Concat along the first two axes");
  std::vector<uint32_t> inputs;
  bool known = true;
  for (int i = 0; i < b.node()->input_size(); ++i) {
    NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(i));
    if (x->dims.size() != out.size() || x->type != first->type)
      return b.refused("inputs differ in rank or type");
    if (packed && (x->dims[0] != first->dims[0] || x->dims[1] != first->dims[1]))
      return b.refused("5-D inputs that differ in their first two axes");
    known = known && x->dims[axis] != 0;
    out[axis] += x->dims[axis];
    NNRT_ASSIGN_OR_RETURN(uint32_t o, nhwc ? b.nhwcOperand(*x) : packed ? packedOperand(b, *x) : b.operand(*x));
    inputs.push_back(o);
  }
  if (!known) out[axis] = 0;
  NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand,
                        b.scalarInt(nhwc ? channelsLastAxis(static_cast<int32_t>(axis), out.size())
                                         : static_cast<int32_t>(packed ? axis - 1 : axis)));
  inputs.push_back(axisOperand);
  if (packed) {
    NNRT_ASSIGN_OR_RETURN(uint32_t joined, apply(b, ANEURALNETWORKS_CONCATENATION, inputs, first->type, packedDims(out)));
    definePacked(b, 0, joined, first->type, out);
    return {};
  }
  if (nhwc) return b.emitNhwc(ANEURALNETWORKS_CONCATENATION, inputs, first->type, out);
  return b.emit(ANEURALNETWORKS_CONCATENATION, inputs, first->type, out);
}

// Slice -> STRIDED_SLICE with ONNX's clamped starts and ends.
Result<void> mapSlice(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  size_t rank = x->dims.size();
  std::vector<int64_t> starts, ends, axes, steps;
  if (b.opset() < 10) {
    NNRT_ASSIGN_OR_RETURN(starts, b.attrInts("starts"));
    NNRT_ASSIGN_OR_RETURN(ends, b.attrInts("ends"));
    NNRT_ASSIGN_OR_RETURN(axes, b.attrInts("axes"));
  } else {
    auto ints = [&](int i, std::vector<int64_t>& out) -> Result<void> {
      NNRT_ASSIGN_OR_RETURN(const Value* v, b.input(i));
      if (v == nullptr) return {};
      NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(i));
      out.assign(values.begin(), values.end());
      return {};
    };
    NNRT_RETURN_IF_ERROR(ints(1, starts));
    NNRT_RETURN_IF_ERROR(ints(2, ends));
    NNRT_RETURN_IF_ERROR(ints(3, axes));
    NNRT_RETURN_IF_ERROR(ints(4, steps));
  }
  if (axes.empty()) {
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(static_cast<int64_t>(i));
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (starts.size() != ends.size() || starts.size() != axes.size() || starts.size() != steps.size()) {
    return b.refused("starts, ends, axes and steps differ in length");
  }
  std::vector<int32_t> begin(rank, 0), end(x->dims.begin(), x->dims.end()), stride(rank, 1);
  int32_t endMask = 0;
  Dims out = x->dims;
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < starts.size(); ++i) {
    NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, axes[i], rank));
    if (seen[axis]) return b.refused("axis repeated");
    seen[axis] = true;
    int64_t dim = x->dims[axis], step = steps[i];
    if (step == 0) return b.refused("step 0");
    int64_t s = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t e = ends[i] < 0 ? ends[i] + dim : ends[i];
    if (step > 0) {
      s = std::clamp<int64_t>(s, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
    } else {
      s = std::clamp<int64_t>(s, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
    }
    int64_t length = step > 0 ? (e - s + step - 1) / step : (s - e + (-step) - 1) / (-step);
    // An empty slice of a constant stays on the host (an empty prefix of a shape, say).
    if (length <= 0 && !x->constant.has_value()) return b.refused("an empty slice has no NNAPI shape");
    out[axis] = static_cast<uint32_t>(std::max<int64_t>(length, 0));
    begin[axis] = static_cast<int32_t>(s);
    end[axis] = static_cast<int32_t>(e);
    stride[axis] = static_cast<int32_t>(step);
    if (e == -1) endMask |= 1 << axis;  // down to index 0: TF-style end_mask, as -1 would count from the end
  }
  if (x->constant.has_value()) {
    // A slice of a constant (typically of a Shape) is computed here: NNAPI's STRIDED_SLICE takes no int32.
    size_t element = elementSize(x->type);
    HostTensor t;
    t.type = x->type;
    t.dimensions = out;
    t.bytes.resize(elementCount(out) * element);
    std::vector<uint32_t> index(rank, 0);
    for (size_t o = 0; o < elementCount(out); ++o) {
      size_t source = 0;
      for (size_t d = 0; d < rank; ++d)
        source = source * x->dims[d] + (begin[d] + static_cast<int64_t>(index[d]) * stride[d]);
      std::memcpy(t.bytes.data() + o * element, x->constant->bytes.data() + source * element, element);
      for (size_t d = rank; d-- > 0;) {
        if (++index[d] < out[d]) break;
        index[d] = 0;
      }
    }
    Value v;
    v.type = x->type;
    v.dims = out;
    v.constant = std::move(t);
    b.define(0, std::move(v));
    return {};
  }
  const bool packed = rank == 5;
  if (packed) {
    // Packed: the first two axes whole, the others sliced on the operand's axes 1 to 3.
    if (seen[0] || seen[1]) return b.refused("a 5-D Slice of the first two axes");
    begin.erase(begin.begin());
    end.erase(end.begin());
    stride.erase(stride.begin());
    end[0] = static_cast<int32_t>(x->dims[0] * x->dims[1]);
    endMask >>= 1;
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t in, packed ? packedOperand(b, *x) : b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t beginOperand, b.constInts(begin));
  NNRT_ASSIGN_OR_RETURN(uint32_t endOperand, b.constInts(end));
  NNRT_ASSIGN_OR_RETURN(uint32_t strideOperand, b.constInts(stride));
  NNRT_ASSIGN_OR_RETURN(uint32_t beginMask, b.scalarInt(0));
  NNRT_ASSIGN_OR_RETURN(uint32_t endMaskOperand, b.scalarInt(endMask));
  NNRT_ASSIGN_OR_RETURN(uint32_t shrink, b.scalarInt(0));
  const std::vector<uint32_t> inputs{in, beginOperand, endOperand, strideOperand, beginMask, endMaskOperand, shrink};
  if (packed) {
    NNRT_ASSIGN_OR_RETURN(uint32_t sliced, apply(b, ANEURALNETWORKS_STRIDED_SLICE, inputs, x->type, packedDims(out)));
    definePacked(b, 0, sliced, x->type, out);
    return {};
  }
  return b.emit(ANEURALNETWORKS_STRIDED_SLICE, inputs, x->type, out);
}

// Split -> one SLICE per output. Without split sizes the parts are equal; from opset 18 one of the split
// input and num_outputs must be given (the operator's definition), and with num_outputs a part that
// does not divide the axis is rounded up and the last part takes what remains.
Result<void> mapSplit(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", 0));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, x->dims.size()));
  std::vector<int64_t> sizes;
  if (b.opset() < 13) {
    NNRT_ASSIGN_OR_RETURN(sizes, b.attrInts("split"));
  } else {
    NNRT_ASSIGN_OR_RETURN(const Value* split, b.input(1));
    if (split != nullptr) {
      NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(1));
      sizes.assign(values.begin(), values.end());
    }
  }
  int n = b.node()->output_size();
  NNRT_RETURN_IF_ERROR(refuseBeforeOpset(b, "num_outputs", 18));
  if (b.attribute("num_outputs") != nullptr) {
    if (!sizes.empty()) return b.refused("both the split input and attribute 'num_outputs' are given");
    NNRT_ASSIGN_OR_RETURN(int64_t parts, b.attrInt("num_outputs", 0));
    if (parts != n) {
      return b.refused("attribute 'num_outputs' is " + std::to_string(parts) + " where the node has " +
                       std::to_string(n) + " outputs");
    }
  }
  if (sizes.empty() && b.opset() >= 18 && b.attribute("num_outputs") == nullptr)
    return b.refused("from opset 18 Split needs the split input or attribute 'num_outputs'");
  if (sizes.empty()) {
    const int64_t size = x->dims[axis];
    if (b.opset() < 18 && size % n != 0) return b.refused("the axis does not split evenly");
    const int64_t part = (size + n - 1) / n;
    sizes.assign(n, part);
    sizes.back() = size - part * (n - 1);
  }
  if (static_cast<int>(sizes.size()) != n) return b.refused("split sizes do not match the outputs");
  // An NHWC image is split on the NHWC axis of ONNX's axis (ShuffleNet's halves of its channels); a 1-D
  // image kept channels last the same way.
  const bool nhwc = x->nhwc;
  // A 5-D value is split packed, after its first two axes (the operand's axis - 1).
  const bool packed = x->dims.size() == 5;
  if (packed && axis < 2) return b.refused("a 5-D Split along the first two axes");
  NNRT_ASSIGN_OR_RETURN(uint32_t in, nhwc ? Result<uint32_t>(x->operand)
                                          : packed ? packedOperand(b, *x) : b.operand(*x));
  int64_t offset = 0;
  for (int i = 0; i < n; ++i) {
    if (sizes[i] <= 0) return b.refused("an empty part has no NNAPI shape");
    std::vector<int32_t> begin(x->dims.size(), 0), size(x->dims.begin(), x->dims.end());
    begin[axis] = static_cast<int32_t>(offset);
    size[axis] = static_cast<int32_t>(sizes[i]);
    offset += sizes[i];
    Dims out(size.begin(), size.end());
    if (nhwc) {  // begin and size in channels-last order
      std::vector<int32_t> lastBegin(begin.size()), lastSize(size.size());
      for (size_t d = 0; d < begin.size(); ++d) {
        lastBegin[static_cast<size_t>(channelsLastAxis(static_cast<int32_t>(d), begin.size()))] = begin[d];
        lastSize[static_cast<size_t>(channelsLastAxis(static_cast<int32_t>(d), size.size()))] = size[d];
      }
      begin = lastBegin;
      size = lastSize;
    }
    if (packed) {
      begin.erase(begin.begin());
      size.erase(size.begin());
      size[0] = static_cast<int32_t>(x->dims[0] * x->dims[1]);
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t beginOperand, b.constInts(begin));
    NNRT_ASSIGN_OR_RETURN(uint32_t sizeOperand, b.constInts(size));
    if (packed) {
      NNRT_ASSIGN_OR_RETURN(uint32_t part,
                            apply(b, ANEURALNETWORKS_SLICE, {in, beginOperand, sizeOperand}, x->type, packedDims(out)));
      definePacked(b, i, part, x->type, out);
    } else if (nhwc) {
      NNRT_RETURN_IF_ERROR(b.emitNhwc(ANEURALNETWORKS_SLICE, {in, beginOperand, sizeOperand}, x->type, out, i));
    } else {
      NNRT_RETURN_IF_ERROR(b.emit(ANEURALNETWORKS_SLICE, {in, beginOperand, sizeOperand}, x->type, out, i));
    }
  }
  if (offset != x->dims[axis]) return b.refused("split sizes do not add up to the axis");
  return {};
}

// Dropout in inference mode: the identity; its mask output (opset 10 on: bool) is all true.
Result<void> mapDropout(GraphBuilder& b) {
  const bool mask = b.node()->output_size() > 1 && !b.node()->output(1).empty();
  if (mask && b.opset() < 10) return b.refused("the mask output before opset 10 is not supported");
  NNRT_ASSIGN_OR_RETURN(int64_t isTest, b.attrInt("is_test", 1));
  if (isTest == 0) return b.refused("training mode is not supported");
  NNRT_ASSIGN_OR_RETURN(const Value* training, b.input(2));
  if (training != nullptr) {
    if (!training->constant.has_value())
      return b.refused("input 2 ('" + b.node()->input(2) + "') must be a constant");
    if (training->type != ANEURALNETWORKS_TENSOR_BOOL8) return b.refused("training_mode must be a bool");
    // Training with ratio 0 drops nothing: the identity too.
    bool dropsNothing = false;
    if (training->constant->bytes.at(0) != 0) {
      NNRT_ASSIGN_OR_RETURN(std::vector<float> ratio, b.constantFloats(1));
      dropsNothing = ratio.size() == 1 && ratio[0] == 0.0f;
    }
    if (training->constant->bytes.at(0) != 0 && !dropsNothing)
      return b.refused("training mode drops at random: only a ratio of 0 is supported");
  }
  NNRT_RETURN_IF_ERROR(mapIdentity(b));
  if (mask) {
    const Value* x = b.find(b.node()->output(0));
    NNRT_ASSIGN_OR_RETURN(HostTensor ones,
                          filledTensor(b, ANEURALNETWORKS_TENSOR_BOOL8, x->scalar ? Dims{} : x->dims,
                                       std::vector<double>(elementCount(x->dims), 1.0)));
    defineConstant(b, 1, std::move(ones));
  }
  return {};
}

namespace {

// DepthToSpace (op) or SpaceToDepth of the 4-D `x` by `block`, its depth in CRD order (`crd`) or DCR.
Result<void> spaceDepthOf(GraphBuilder& b, int32_t op, const Value& value, int64_t block, bool crd) {
  const Value* x = &value;
  if (x->dims.size() != 4 || !allKnown(x->dims)) return b.refused("input must be 4-D with a known shape");
  if (block < 1) return b.refused("blocksize must be positive");
  const std::string mode = crd ? "CRD" : "DCR";
  uint32_t k = static_cast<uint32_t>(block);
  Dims out = x->dims;
  if (op == ANEURALNETWORKS_DEPTH_TO_SPACE) {
    if (out[1] % (k * k) != 0) return b.refused("channels not divisible by blocksize^2");
    out = {out[0], out[1] / (k * k), out[2] * k, out[3] * k};
  } else {
    if (out[2] % k != 0 || out[3] % k != 0) return b.refused("spatial size not divisible by blocksize");
    out = {out[0], out[1] * k * k, out[2] / k, out[3] / k};
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  if (mode == "CRD") {
    // NNAPI orders the depth as DCR (channel (i * k + j) * C' + c goes to c, row i, column j of each block);
    // CRD takes channel c * k * k + i * k + j there: a GATHER of the channels into DCR's order first.
    const uint32_t groups = out[1];
    std::vector<int32_t> order(x->dims[1]);
    for (uint32_t c = 0; c < groups; ++c)
      for (uint32_t ij = 0; ij < k * k; ++ij)
        order[ij * groups + c] = static_cast<int32_t>(c * k * k + ij);
    NNRT_ASSIGN_OR_RETURN(uint32_t axis, b.scalarInt(1));
    NNRT_ASSIGN_OR_RETURN(uint32_t indices, b.constInts(order));
    NNRT_ASSIGN_OR_RETURN(in, apply(b, ANEURALNETWORKS_GATHER, {in, axis, indices}, x->type, x->dims));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t blockOperand, b.scalarInt(static_cast<int32_t>(block)));
  NNRT_ASSIGN_OR_RETURN(uint32_t nchw, b.scalarBool(true));
  return b.emit(op, {in, blockOperand, nchw}, x->type, out);
}

}  // namespace

Result<void> depthToSpace(GraphBuilder& b, const Value& x, uint32_t block, bool crd) {
  return spaceDepthOf(b, ANEURALNETWORKS_DEPTH_TO_SPACE, x, block, crd);
}

Result<void> spaceDepth(GraphBuilder& b, int32_t op) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(int64_t block, b.attrInt("blocksize", 0));
  NNRT_ASSIGN_OR_RETURN(std::string mode, b.attrString("mode", "DCR"));
  if (mode != "DCR" && mode != "CRD") return b.refused("mode '" + mode + "' is not supported");
  return spaceDepthOf(b, op, *x, block, mode == "CRD");
}

Result<void> mapTile(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> repeats, b.constantInts(1));
  if (repeats.size() != x->dims.size()) return b.refused("repeats does not match the input's rank");
  Dims out = x->dims;
  for (size_t i = 0; i < out.size(); ++i) {
    if (repeats[i] < 1) return b.refused("repeats must be positive");
    out[i] *= static_cast<uint32_t>(repeats[i]);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t multiples, b.constInts(repeats));
  return b.emit(ANEURALNETWORKS_TILE, {in, multiples}, x->type, out);
}

// Pad: constant mode -> PAD_V2, reflect -> MIRROR_PAD (REFLECT), edge -> GATHERs of clamped indices, wrap
// (opset 19) -> GATHERs of indices modulo the size. From opset 18 the pads may be those of listed axes.
Result<void> mapPad(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(std::string mode, b.attrString("mode", "constant"));
  // Reflecting, repeating the edge and wrapping around move values: int32 and 8-bit integers too.
  if (mode == "constant" || (x->type != ANEURALNETWORKS_TENSOR_INT32 && !quantized(x->type)))
    NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  std::vector<int64_t> pads;
  float value = 0.0f;
  if (b.opset() < 11) {
    NNRT_ASSIGN_OR_RETURN(pads, b.attrInts("pads"));
    NNRT_ASSIGN_OR_RETURN(value, b.attrFloat("value", 0.0f));
  } else {
    NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> p, b.constantInts(1));
    pads.assign(p.begin(), p.end());
    NNRT_ASSIGN_OR_RETURN(const Value* constant, b.input(2));
    if (constant != nullptr) {
      NNRT_ASSIGN_OR_RETURN(std::vector<float> v, b.constantFloats(2));
      if (v.size() != 1) return b.refused("constant_value must be one value");
      value = v[0];
    }
    NNRT_ASSIGN_OR_RETURN(const Value* axes, b.input(3));
    if (axes != nullptr) {
      if (b.opset() < 18) return b.refused("the axes input is not defined before opset 18");
      // Pads of the listed axes only: those of the others are 0.
      NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> listed, b.constantInts(3));
      if (pads.size() != 2 * listed.size()) return b.refused("pads must have 2 entries per axis in axes");
      std::vector<int64_t> full(2 * x->dims.size(), 0);
      std::vector<bool> seen(x->dims.size(), false);
      for (size_t i = 0; i < listed.size(); ++i) {
        NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, listed[i], x->dims.size()));
        if (seen[axis]) return b.refused("axis " + std::to_string(listed[i]) + " is repeated in axes");
        seen[axis] = true;
        full[axis] = pads[i];
        full[axis + x->dims.size()] = pads[i + listed.size()];
      }
      pads = std::move(full);
    }
  }
  size_t rank = x->dims.size();
  if (pads.size() != 2 * rank) return b.refused("pads must have 2 * rank entries");
  std::vector<int32_t> paddings(2 * rank);
  Dims out = x->dims;
  for (size_t i = 0; i < rank; ++i) {
    if (pads[i] < 0 || pads[i + rank] < 0) return b.refused("negative pads are not supported");
    paddings[2 * i] = static_cast<int32_t>(pads[i]);
    paddings[2 * i + 1] = static_cast<int32_t>(pads[i + rank]);
    if (out[i] != 0) out[i] += static_cast<uint32_t>(pads[i] + pads[i + rank]);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t paddingOperand, b.constInts(paddings, {static_cast<uint32_t>(rank), 2}));
  if (mode == "constant") {
    NNRT_ASSIGN_OR_RETURN(uint32_t valueOperand, b.scalarFloat(value));
    return b.emit(ANEURALNETWORKS_PAD_V2, {in, paddingOperand, valueOperand}, x->type, out);
  }
  if (mode == "reflect") {
    NNRT_ASSIGN_OR_RETURN(uint32_t modeOperand, b.scalarInt(0));  // REFLECT
    return b.emit(ANEURALNETWORKS_MIRROR_PAD, {in, paddingOperand, modeOperand}, x->type, out);
  }
  if (mode == "edge" || (mode == "wrap" && b.opset() >= 19)) {
    // No NNAPI operation repeats the edge or wraps around: one GATHER per padded axis, of index
    // clamp(o - before, 0, size - 1) (edge) or (o - before) mod size (wrap) for each output position o.
    if (!allKnown(x->dims)) return b.refused("input shape unknown");
    Dims current = x->dims;
    for (size_t i = 0; i < rank; ++i) {
      if (pads[i] == 0 && pads[i + rank] == 0) continue;
      std::vector<int32_t> indices(out[i]);
      const int64_t size = x->dims[i];
      for (uint32_t o = 0; o < out[i]; ++o) {
        indices[o] = static_cast<int32_t>(mode == "edge" ? std::clamp<int64_t>(o - pads[i], 0, size - 1)
                                                         : ((o - pads[i]) % size + size) % size);
      }
      current[i] = out[i];
      NNRT_ASSIGN_OR_RETURN(uint32_t axis, b.scalarInt(static_cast<int32_t>(i)));
      NNRT_ASSIGN_OR_RETURN(uint32_t indexOperand, b.constInts(indices));
      NNRT_ASSIGN_OR_RETURN(in, apply(b, ANEURALNETWORKS_GATHER, {in, axis, indexOperand}, x->type, current));
    }
    if (current == x->dims) {
      NNRT_ASSIGN_OR_RETURN(in, b.reshape(in, x->type, out));  // no padding: a copy
    }
    defineOperand(b, 0, in, x->type, out, x->scalar);
    return {};
  }
  return b.refused("mode '" + mode + "' has no NNAPI operation");
}

// Expand -> RESHAPE to the output's rank, then TILE the size-1 dimensions.
Result<void> mapExpand(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> shape, b.constantInts(1));
  Dims target;
  for (int32_t d : shape) {
    if (d < 1) return b.refused("shape entries must be positive");
    target.push_back(static_cast<uint32_t>(d));
  }
  Dims in = x->scalar ? Dims{} : x->dims;
  NNRT_ASSIGN_OR_RETURN(Dims out, broadcastShape(b, in, target));
  if (out.empty()) out = {1};
  Dims padded(out.size() - std::min(out.size(), in.size()), 1);
  padded.insert(padded.end(), in.begin(), in.end());
  NNRT_ASSIGN_OR_RETURN(uint32_t current, b.operand(*x));
  if (padded != x->dims) {
    NNRT_ASSIGN_OR_RETURN(current, b.reshape(current, x->type, padded));
  }
  std::vector<int32_t> multiples;
  for (size_t i = 0; i < out.size(); ++i)
    multiples.push_back(static_cast<int32_t>(out[i] / padded[i]));
  NNRT_ASSIGN_OR_RETURN(uint32_t multiplesOperand, b.constInts(multiples));
  return b.emit(ANEURALNETWORKS_TILE, {current, multiplesOperand}, x->type, out);
}

}  // namespace nnrt::onnxfront
