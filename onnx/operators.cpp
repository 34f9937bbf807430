// ONNX operators -> NNAPI operations. Each mapping checks what NNAPI cannot express exactly and
// refuses it with the reason; shapes are inferred as it goes (0 = unknown dimension).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "onnx/graph_builder.hpp"
#include "onnx/tensor_proto.hpp"

namespace nnrt::onnxfront {
namespace {

using Dims = std::vector<uint32_t>;

// Adds NNAPI operation `op` with one new output operand of `type` and `dims`; returns that operand.
Result<uint32_t> apply(GraphBuilder& b, int32_t op, const std::vector<uint32_t>& inputs, int32_t type,
                       const Dims& dims) {
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.addTensor(type, dims));
  NNRT_RETURN_IF_ERROR(b.addOperation(op, inputs, {out}));
  return out;
}

// ADD, SUB, MUL or DIV of two operands (NNAPI broadcasting), no fused activation.
Result<uint32_t> arithmetic(GraphBuilder& b, int32_t op, uint32_t x, uint32_t y, int32_t type,
                            const Dims& dims) {
  NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  return apply(b, op, {x, y, fuse}, type, dims);
}

// Defines output `i` of the current node as `operand`.
void defineOperand(GraphBuilder& b, int i, uint32_t operand, int32_t type, const Dims& dims,
                   bool scalar = false) {
  Value v;
  v.operand = operand;
  v.type = type;
  v.dims = dims;
  v.scalar = scalar;
  b.define(i, std::move(v));
}

// Defines output `i` of the current node as a load-time constant.
void defineConstant(GraphBuilder& b, int i, HostTensor t) {
  Value v;
  v.type = t.type;
  v.dims = t.dimensions.empty() ? Dims{1} : t.dimensions;
  v.scalar = t.dimensions.empty();
  v.constant = std::move(t);
  b.define(i, std::move(v));
}

// A constant tensor of `type` (float32, int32 or bool) and `dims` holding `values` (converted).
Result<HostTensor> filledTensor(const GraphBuilder& b, int32_t type, const Dims& dims,
                                const std::vector<double>& values) {
  HostTensor t;
  t.type = type;
  t.dimensions = dims;
  t.bytes.resize(values.size() * elementSize(type));
  for (size_t i = 0; i < values.size(); ++i) {
    if (type == ANEURALNETWORKS_TENSOR_FLOAT32) {
      float v = static_cast<float>(values[i]);
      std::memcpy(t.bytes.data() + 4 * i, &v, 4);
    } else if (type == ANEURALNETWORKS_TENSOR_INT32) {
      if (values[i] < INT32_MIN || values[i] > INT32_MAX) return b.refused("a value does not fit int32");
      int32_t v = static_cast<int32_t>(values[i]);
      std::memcpy(t.bytes.data() + 4 * i, &v, 4);
    } else if (type == ANEURALNETWORKS_TENSOR_BOOL8) {
      t.bytes[i] = values[i] != 0 ? 1 : 0;
    } else {
      return b.refused("only float32, int32 and bool tensors are supported");
    }
  }
  return t;
}

// A constant operand of `type` and `dims` with every element `value`.
Result<uint32_t> constFilled(GraphBuilder& b, int32_t type, const Dims& dims, double value) {
  NNRT_ASSIGN_OR_RETURN(HostTensor t,
                        filledTensor(b, type, dims, std::vector<double>(elementCount(dims), value)));
  return b.addConstant(type, dims, std::move(t.bytes));
}

Result<Dims> broadcastShape(const GraphBuilder& b, const Dims& x, const Dims& y) {
  Dims out(std::max(x.size(), y.size()));
  for (size_t i = 0; i < out.size(); ++i) {
    uint32_t dx = i < out.size() - x.size() ? 1 : x[i - (out.size() - x.size())];
    uint32_t dy = i < out.size() - y.size() ? 1 : y[i - (out.size() - y.size())];
    if (dx == dy || dy == 1)
      out[i] = dx;
    else if (dx == 1)
      out[i] = dy;
    else if (dx == 0 || dy == 0)
      out[i] = 0;
    else
      return b.refused("shapes do not broadcast");
  }
  return out;
}

bool quantized(int32_t type) {
  return type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM || type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
}

// 8-bit integers (scale 1, zero point 0) only where NNAPI computes on them without requantizing.
Result<void> refuseQuantizedArithmetic(const GraphBuilder& b, const Value& v) {
  if (quantized(v.type))
    return b.refused("8-bit integer arithmetic: NNAPI saturates and requantizes where ONNX wraps");
  return {};
}

bool allKnown(const Dims& dims) {
  return std::all_of(dims.begin(), dims.end(), [](uint32_t d) { return d != 0; });
}

Result<void> requireFloat(const GraphBuilder& b, const Value& v) {
  if (v.type != ANEURALNETWORKS_TENSOR_FLOAT32) return b.refused("only float32 tensors are supported");
  return {};
}

// ADD, SUB or MUL of two small int32 constants (shape arithmetic), or ADD, SUB, MUL or DIV of two small
// float32 ones, at load time with numpy broadcasting (float32 arithmetic, as NNAPI's); nullopt when not
// all of that holds (or an integer leaves int32).
std::optional<HostTensor> foldConstants(int32_t op, const Value& x, const Value& y, const Dims& dims) {
  const bool integer = x.type == ANEURALNETWORKS_TENSOR_INT32;
  if ((!integer && x.type != ANEURALNETWORKS_TENSOR_FLOAT32) || !x.constant.has_value() ||
      !y.constant.has_value() || !allKnown(dims) || elementCount(dims) > 4096 ||
      (op != ANEURALNETWORKS_ADD && op != ANEURALNETWORKS_SUB && op != ANEURALNETWORKS_MUL &&
       (integer || op != ANEURALNETWORKS_DIV))) {
    return std::nullopt;
  }
  auto at = [&](const Value& v, size_t flat) {
    // The element of `v` (broadcast to `dims`) at flat index `flat` of the result.
    size_t offset = 0, stride = 1;
    for (size_t d = dims.size(); d-- > 0;) {
      size_t coordinate = flat % dims[d];
      flat /= dims[d];
      size_t vd = d + v.dims.size() >= dims.size() ? d + v.dims.size() - dims.size() : SIZE_MAX;
      if (vd == SIZE_MAX) continue;
      if (v.dims[vd] != 1) offset += coordinate * stride;
      stride *= v.dims[vd];
    }
    return v.constant->bytes.data() + 4 * offset;
  };
  HostTensor t;
  t.type = x.type;
  t.dimensions = x.scalar && y.scalar ? Dims{} : dims;
  t.bytes.resize(elementCount(dims) * 4);
  for (size_t i = 0; i < elementCount(dims); ++i) {
    if (integer) {
      int32_t a, c;
      std::memcpy(&a, at(x, i), 4);
      std::memcpy(&c, at(y, i), 4);
      int64_t r = op == ANEURALNETWORKS_ADD   ? int64_t{a} + c
                  : op == ANEURALNETWORKS_SUB ? int64_t{a} - c
                                              : int64_t{a} * c;
      if (r < INT32_MIN || r > INT32_MAX) return std::nullopt;
      int32_t value = static_cast<int32_t>(r);
      std::memcpy(t.bytes.data() + 4 * i, &value, 4);
    } else {
      float a, c;
      std::memcpy(&a, at(x, i), 4);
      std::memcpy(&c, at(y, i), 4);
      float r = op == ANEURALNETWORKS_ADD   ? a + c
                : op == ANEURALNETWORKS_SUB ? a - c
                : op == ANEURALNETWORKS_MUL ? a * c
                                            : a / c;
      std::memcpy(t.bytes.data() + 4 * i, &r, 4);
    }
  }
  return t;
}

// Binary elementwise with NNAPI broadcasting (numpy's, as ONNX's multidirectional broadcasting).
Result<void> binary(GraphBuilder& b, int32_t op, bool fused, int32_t outType = 0) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* y, b.requiredInput(1));
  if (x->type != y->type) return b.refused("inputs of different types");
  if (fused) NNRT_RETURN_IF_ERROR(refuseQuantizedArithmetic(b, *x));
  NNRT_ASSIGN_OR_RETURN(Dims dims, broadcastShape(b, x->dims, y->dims));
  if (auto folded = foldConstants(op, *x, *y, dims)) {
    defineConstant(b, 0, std::move(*folded));
    return {};
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t a, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t c, b.operand(*y));
  std::vector<uint32_t> inputs{a, c};
  if (fused) {
    // A following Relu or Clip joins float arithmetic as its fused activation.
    int32_t activation =
        x->type == ANEURALNETWORKS_TENSOR_FLOAT32 ? b.fuseFollowingActivation() : ANEURALNETWORKS_FUSED_NONE;
    NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b.scalarInt(activation));
    inputs.push_back(fuse);
  }
  return b.emit(op, inputs, outType != 0 ? outType : x->type, dims);
}

Result<void> unary(GraphBuilder& b, int32_t op) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (op != ANEURALNETWORKS_RELU) NNRT_RETURN_IF_ERROR(refuseQuantizedArithmetic(b, *x));
  if (x->nhwc) {
    // Elementwise: an NHWC image stays so.
    return b.emitNhwc(op, {x->operand}, x->type, x->dims);
  }
  if (op == ANEURALNETWORKS_NEG && x->type == ANEURALNETWORKS_TENSOR_INT32 && x->constant.has_value()) {
    // Negated at load time (shape arithmetic), as 0 - x.
    Value zero = *x;
    zero.constant->bytes.assign(4, 0);
    zero.constant->dimensions = {};
    zero.dims = {1};
    if (auto folded = foldConstants(ANEURALNETWORKS_SUB, zero, *x, x->dims)) {
      defineConstant(b, 0, std::move(*folded));
      return {};
    }
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t a, b.operand(*x));
  return b.emit(op, {a}, x->type, x->dims);
}

Result<void> mapIdentity(GraphBuilder& b);

// Variadic Max/Min/Sum: a chain of binary operations, left to right.
Result<void> variadic(GraphBuilder& b, int32_t op, bool fused) {
  int n = b.node()->input_size();
  if (n == 1) return mapIdentity(b);
  if (n < 1) return b.refused("no inputs");
  NNRT_ASSIGN_OR_RETURN(const Value* first, b.requiredInput(0));
  if (op == ANEURALNETWORKS_ADD) NNRT_RETURN_IF_ERROR(refuseQuantizedArithmetic(b, *first));
  Value acc;  // in ONNX's layout (b.operand), whatever the first input's
  acc.type = first->type;
  acc.dims = first->dims;
  acc.scalar = first->scalar;
  NNRT_ASSIGN_OR_RETURN(acc.operand, b.operand(*first));
  for (int i = 1; i < n; ++i) {
    NNRT_ASSIGN_OR_RETURN(const Value* y, b.requiredInput(i));
    if (y->type != acc.type) return b.refused("inputs of different types");
    NNRT_ASSIGN_OR_RETURN(Dims dims, broadcastShape(b, acc.dims, y->dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t c, b.operand(*y));
    std::vector<uint32_t> inputs{acc.operand, c};
    if (fused) {
      NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
      inputs.push_back(fuse);
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t out, b.addTensor(acc.type, dims));
    NNRT_RETURN_IF_ERROR(b.addOperation(op, inputs, {out}));
    acc.operand = out;
    acc.dims = dims;
    acc.constant.reset();
  }
  b.define(0, acc);
  return {};
}

Result<void> mapIdentity(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(uint32_t a, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.reshape(a, x->type, x->dims));
  defineOperand(b, 0, out, x->type, x->dims, x->scalar);
  return {};
}

Result<void> reshapeTo(GraphBuilder& b, const Value& x, Dims dims, bool scalar = false) {
  NNRT_ASSIGN_OR_RETURN(uint32_t a, b.operand(x));
  if (dims.empty()) dims = {1};
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.reshape(a, x.type, dims));
  Value v;
  v.operand = out;
  v.type = x.type;
  v.dims = dims;
  v.scalar = scalar;
  b.define(0, v);
  return {};
}

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
  bool constants = allKnown(first->dims);
  for (int i = 0; i < b.node()->input_size(); ++i) {
    NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(i));
    constants = constants && x->constant.has_value() && allKnown(x->dims);
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
  std::vector<uint32_t> inputs;
  bool known = true;
  for (int i = 0; i < b.node()->input_size(); ++i) {
    NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(i));
    if (x->dims.size() != out.size() || x->type != first->type)
      return b.refused("inputs differ in rank or type");
    known = known && x->dims[axis] != 0;
    out[axis] += x->dims[axis];
    NNRT_ASSIGN_OR_RETURN(uint32_t o, b.operand(*x));
    inputs.push_back(o);
  }
  if (!known) out[axis] = 0;
  NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(static_cast<int32_t>(axis)));
  inputs.push_back(axisOperand);
  return b.emit(ANEURALNETWORKS_CONCATENATION, inputs, first->type, out);
}

Result<void> softmaxLike(GraphBuilder& b, int32_t op) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  size_t rank = x->dims.size();
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", b.opset() < 13 ? 1 : -1));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t beta, b.scalarFloat(1.0f));
  if (b.opset() >= 13 || axis == rank - 1) {
    NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(static_cast<int32_t>(axis)));
    return b.emit(op, {in, beta, axisOperand}, x->type, x->dims);
  }
  // Before opset 13 the input is coerced to 2-D [before axis, from axis] and normalized per row.
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  uint32_t outer = 1, inner = 1;
  for (size_t i = 0; i < rank; ++i)
    (i < axis ? outer : inner) *= x->dims[i];
  NNRT_ASSIGN_OR_RETURN(uint32_t flat, b.reshape(in, x->type, {outer, inner}));
  NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(1));
  NNRT_ASSIGN_OR_RETURN(uint32_t normalized, b.addTensor(x->type, {outer, inner}));
  NNRT_RETURN_IF_ERROR(b.addOperation(op, {flat, beta, axisOperand}, {normalized}));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.reshape(normalized, x->type, x->dims));
  Value v;
  v.operand = out;
  v.type = x->type;
  v.dims = x->dims;
  b.define(0, v);
  return {};
}

// Explicit 2-D window geometry (Conv and the pools), NCHW input.
struct Window {
  int32_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
  int32_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  uint32_t outH = 0, outW = 0;
};

// `input` is NCHW; a 1-D window (`oneD`: NCL as NC1L) takes 1-entry attributes, H being 1.
Result<Window> windowGeometry(GraphBuilder& b, const Dims& input, uint32_t kernelH, uint32_t kernelW,
                              bool ceilMode, bool oneD = false) {
  Window w;
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides, b.attrInts("strides"));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> dilations, b.attrInts("dilations"));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> pads, b.attrInts("pads"));
  if (oneD) {
    if (strides.size() == 1) strides.insert(strides.begin(), 1);
    if (dilations.size() == 1) dilations.insert(dilations.begin(), 1);
    if (pads.size() == 2) pads = {0, pads[0], 0, pads[1]};
  }
  NNRT_ASSIGN_OR_RETURN(std::string autoPad, b.attrString("auto_pad", "NOTSET"));
  if (!strides.empty()) {
    if (strides.size() != 2) return b.refused("strides must have 2 entries");
    w.strideH = static_cast<int32_t>(strides[0]);
    w.strideW = static_cast<int32_t>(strides[1]);
  }
  if (!dilations.empty()) {
    if (dilations.size() != 2) return b.refused("dilations must have 2 entries");
    w.dilationH = static_cast<int32_t>(dilations[0]);
    w.dilationW = static_cast<int32_t>(dilations[1]);
  }
  if (w.strideH < 1 || w.strideW < 1 || w.dilationH < 1 || w.dilationW < 1)
    return b.refused("strides/dilations must be positive");
  uint32_t inH = input[2], inW = input[3];
  if (inH == 0 || inW == 0) return b.refused("spatial input size unknown");
  int64_t extentH = (static_cast<int64_t>(kernelH) - 1) * w.dilationH + 1;
  int64_t extentW = (static_cast<int64_t>(kernelW) - 1) * w.dilationW + 1;
  if (autoPad == "NOTSET") {
    if (!pads.empty()) {
      if (pads.size() != 4) return b.refused("pads must have 4 entries");
      if (std::any_of(pads.begin(), pads.end(), [](int64_t p) { return p < 0; }))
        return b.refused("negative pads");
      w.padTop = static_cast<int32_t>(pads[0]);
      w.padLeft = static_cast<int32_t>(pads[1]);
      w.padBottom = static_cast<int32_t>(pads[2]);
      w.padRight = static_cast<int32_t>(pads[3]);
    }
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    auto same = [&](int64_t in, int64_t stride, int64_t extent, int32_t& begin, int32_t& end) {
      int64_t out = (in + stride - 1) / stride;
      int64_t total = std::max<int64_t>((out - 1) * stride + extent - in, 0);
      int64_t small = total / 2, large = total - small;
      begin = static_cast<int32_t>(autoPad == "SAME_UPPER" ? small : large);
      end = static_cast<int32_t>(autoPad == "SAME_UPPER" ? large : small);
    };
    same(inH, w.strideH, extentH, w.padTop, w.padBottom);
    same(inW, w.strideW, extentW, w.padLeft, w.padRight);
  } else if (autoPad != "VALID") {
    return b.refused("auto_pad '" + autoPad + "' is not supported");
  }
  auto outSize = [&](int64_t in, int64_t padSum, int64_t extent, int64_t stride, bool ceil) -> int64_t {
    int64_t span = in + padSum - extent;
    if (span < 0) return -1;
    return (ceil ? (span + stride - 1) / stride : span / stride) + 1;
  };
  int64_t oh = outSize(inH, w.padTop + w.padBottom, extentH, w.strideH, false);
  int64_t ow = outSize(inW, w.padLeft + w.padRight, extentW, w.strideW, false);
  if (oh <= 0 || ow <= 0) return b.refused("the window is larger than the padded input");
  if (ceilMode) {
    // A partial last window: padded at the end so that NNAPI computes it (its pools leave padding out).
    auto extend = [&](int64_t in, int32_t begin, int32_t& end, int64_t extent, int64_t stride,
                      int64_t& out) -> bool {
      int64_t ceilOut = outSize(in, begin + end, extent, stride, true);
      if (ceilOut == out) return true;
      if ((ceilOut - 1) * stride >= in + begin) return false;  // the window would hold padding only
      end = static_cast<int32_t>((ceilOut - 1) * stride + extent - in - begin);
      out = ceilOut;
      return true;
    };
    if (!extend(inH, w.padTop, w.padBottom, extentH, w.strideH, oh) ||
        !extend(inW, w.padLeft, w.padRight, extentW, w.strideW, ow)) {
      return b.refused("ceil_mode adds a window of padding only");
    }
  }
  w.outH = static_cast<uint32_t>(oh);
  w.outW = static_cast<uint32_t>(ow);
  return w;
}

// Conv of float32 `x` and `w` (and `bias`, or none). `integer`: ConvInteger's, whose operands hold whole
// values and whose result is CAST to int32 (no fused activation, NCHW).
Result<void> convolve(GraphBuilder& b, const Value* x, const Value* w, const Value* bias, bool integer) {
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (x->dims.size() != 4) return b.refused("only 2-D convolutions (4-D input) are supported");
  if (w->dims.size() != 4 || !allKnown(w->dims)) return b.refused("weights must be 4-D with a known shape");
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, b.attrInts("kernel_shape"));
  uint32_t M = w->dims[0], Cg = w->dims[1], kH = w->dims[2], kW = w->dims[3];
  if (!kernel.empty() && (kernel.size() != 2 || kernel[0] != kH || kernel[1] != kW)) {
    return b.refused("kernel_shape differs from the weights' shape");
  }
  NNRT_ASSIGN_OR_RETURN(int64_t group, b.attrInt("group", 1));
  uint32_t C = x->dims[1];
  if (group < 1 || C == 0 || C != Cg * group || M % group != 0)
    return b.refused("group does not match the channels");
  NNRT_ASSIGN_OR_RETURN(Window g, windowGeometry(b, x->dims, kH, kW, false));
  // NNAPI filters: [1, kH, kW, M] for depthwise, else [M, kH, kW, C / group] (ONNX: [M, C / group, kH, kW]).
  const bool depthwise = group > 1 && static_cast<uint32_t>(group) == C && Cg == 1;
  const std::vector<int32_t> perm =
      depthwise ? std::vector<int32_t>{1, 2, 3, 0} : std::vector<int32_t>{0, 2, 3, 1};
  Dims filterDims;
  for (int32_t p : perm)
    filterDims.push_back(w->dims[p]);
  uint32_t filterOperand;
  if (w->constant.has_value()) {
    std::vector<float> weights(elementCount(w->dims));
    std::memcpy(weights.data(), w->constant->bytes.data(), weights.size() * 4);
    std::vector<float> filter(weights.size());
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t c = 0; c < Cg; ++c)
        for (uint32_t h = 0; h < kH; ++h)
          for (uint32_t ww = 0; ww < kW; ++ww) {
            float v = weights[((m * Cg + c) * kH + h) * kW + ww];
            if (depthwise)
              filter[(h * kW + ww) * M + m] = v;
            else
              filter[((m * kH + h) * kW + ww) * Cg + c] = v;
          }
    NNRT_ASSIGN_OR_RETURN(filterOperand, b.constFloats(filter, filterDims));
  } else {
    NNRT_ASSIGN_OR_RETURN(uint32_t weights, b.operand(*w));
    NNRT_ASSIGN_OR_RETURN(uint32_t permOperand, b.constInts(perm));
    NNRT_ASSIGN_OR_RETURN(filterOperand, b.addTensor(w->type, filterDims));
    NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_TRANSPOSE, {weights, permOperand}, {filterOperand}));
  }
  if (group > 1 && !depthwise && (g.dilationH != 1 || g.dilationW != 1)) {
    return b.refused("grouped convolution with dilations has no NNAPI operation");
  }
  // With a known shape the image runs as NHWC, NNAPI's own layout (converted once where it enters).
  const bool nhwc = allKnown(x->dims) && !integer;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, nhwc ? b.nhwcOperand(*x) : b.operand(*x));
  uint32_t biasOperand;
  if (bias != nullptr) {
    if (bias->dims.size() != 1 || bias->dims[0] != M) return b.refused("bias must have shape [M]");
    NNRT_ASSIGN_OR_RETURN(biasOperand, b.operand(*bias));
  } else {
    NNRT_ASSIGN_OR_RETURN(biasOperand, b.constFloats(std::vector<float>(M, 0.0f)));
  }
  std::vector<uint32_t> inputs{in, filterOperand, biasOperand};
  for (int32_t v : {g.padLeft, g.padRight, g.padTop, g.padBottom, g.strideW, g.strideH}) {
    NNRT_ASSIGN_OR_RETURN(uint32_t s, b.scalarInt(v));
    inputs.push_back(s);
  }
  int32_t op = ANEURALNETWORKS_CONV_2D;
  if (depthwise) {
    op = ANEURALNETWORKS_DEPTHWISE_CONV_2D;
    NNRT_ASSIGN_OR_RETURN(uint32_t multiplier, b.scalarInt(static_cast<int32_t>(M / C)));
    inputs.push_back(multiplier);
  } else if (group > 1) {
    op = ANEURALNETWORKS_GROUPED_CONV_2D;
    NNRT_ASSIGN_OR_RETURN(uint32_t groups, b.scalarInt(static_cast<int32_t>(group)));
    inputs.push_back(groups);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t fuse,
                        b.scalarInt(integer ? ANEURALNETWORKS_FUSED_NONE : b.fuseFollowingActivation()));
  NNRT_ASSIGN_OR_RETURN(uint32_t nchw, b.scalarBool(!nhwc));
  inputs.push_back(fuse);
  inputs.push_back(nchw);
  if (op != ANEURALNETWORKS_GROUPED_CONV_2D) {
    NNRT_ASSIGN_OR_RETURN(uint32_t dw, b.scalarInt(g.dilationW));
    NNRT_ASSIGN_OR_RETURN(uint32_t dh, b.scalarInt(g.dilationH));
    inputs.push_back(dw);
    inputs.push_back(dh);
  }
  const Dims out{x->dims[0], M, g.outH, g.outW};
  if (integer) {
    NNRT_ASSIGN_OR_RETURN(uint32_t sums, apply(b, op, inputs, x->type, out));
    return b.emit(ANEURALNETWORKS_CAST, {sums}, ANEURALNETWORKS_TENSOR_INT32, out);
  }
  if (nhwc) return b.emitNhwc(op, inputs, x->type, out);
  return b.emit(op, inputs, x->type, out);
}

Result<void> mapConv(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* w, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* bias, b.input(2));
  return convolve(b, x, w, bias, false);
}

// Input `i` of 8-bit integers minus its zero point (input `zeroIndex`, one value, or none), as float32
// (DEQUANTIZE at scale 1 gives the integers themselves, the difference is exact).
Result<Value> integersAsFloat(GraphBuilder& b, int i, int zeroIndex) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(i));
  if (!quantized(x->type)) return b.refused("input " + std::to_string(i) + " must be 8-bit integers");
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  Value value;
  value.type = f32;
  value.dims = x->dims;
  NNRT_ASSIGN_OR_RETURN(value.operand, apply(b, ANEURALNETWORKS_DEQUANTIZE, {in}, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(const Value* zero, b.input(zeroIndex));
  if (zero != nullptr) {
    if (zero->type != x->type || elementCount(zero->dims) != 1)
      return b.refused("zero points other than one value of the operand's type are not supported");
    NNRT_ASSIGN_OR_RETURN(uint32_t z, b.operand(*zero));
    NNRT_ASSIGN_OR_RETURN(uint32_t zf, apply(b, ANEURALNETWORKS_DEQUANTIZE, {z}, f32, zero->dims));
    NNRT_ASSIGN_OR_RETURN(value.operand, arithmetic(b, ANEURALNETWORKS_SUB, value.operand, zf, f32, x->dims));
  }
  return value;
}

// Whether float32 sums of `k` products of differences of 8-bit integers (each at most 255 * 255 in
// magnitude) are exact in any order: every partial sum an integer no larger than 2^24.
Result<void> requireExactIntegerSums(GraphBuilder& b, uint64_t k) {
  if (k * 255 * 255 > (uint64_t{1} << 24))
    return b.refused("a sum of " + std::to_string(k) + " products of 8-bit integers may round in float32");
  return {};
}

// ConvInteger: Conv of (x - x_zero_point) and (w - w_zero_point) computed exactly in float32 (see
// integersAsFloat, requireExactIntegerSums), CAST to int32; padding adds zeros to the differences, as ONNX.
Result<void> mapConvInteger(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* w, b.requiredInput(1));
  if (w->dims.size() != 4 || !allKnown(w->dims)) return b.refused("weights must be 4-D with a known shape");
  NNRT_RETURN_IF_ERROR(requireExactIntegerSums(b, uint64_t{w->dims[1]} * w->dims[2] * w->dims[3]));
  NNRT_ASSIGN_OR_RETURN(Value xf, integersAsFloat(b, 0, 2));
  NNRT_ASSIGN_OR_RETURN(Value wf, integersAsFloat(b, 1, 3));
  return convolve(b, &xf, &wf, nullptr, true);
}

// 1-D and 2-D pooling; a 1-D input [N, C, L] is pooled as [N, C, 1, L]. count_include_pad with padding
// PADs with zeros first (NNAPI's averages leave padding out).
Result<void> pool(GraphBuilder& b, int32_t op, bool global) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!(op == ANEURALNETWORKS_MAX_POOL_2D && quantized(x->type))) NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  const bool oneD = x->dims.size() == 3;
  if (x->dims.size() != 4 && !oneD)
    return b.refused("only 1-D and 2-D pooling (3-D and 4-D inputs) are supported");
  if (b.node()->output_size() > 1 && !b.node()->output(1).empty())
    return b.refused("the Indices output is not supported");
  if (oneD && !allKnown(x->dims)) return b.refused("input shape unknown");
  const Dims dims = oneD ? Dims{x->dims[0], x->dims[1], 1, x->dims[2]} : x->dims;
  uint32_t kH = dims[2], kW = dims[3];
  Window g;
  bool padFirst = false;
  if (global) {
    if (kH == 0 || kW == 0) return b.refused("spatial input size unknown");
    g.outH = g.outW = 1;
  } else {
    NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, b.attrInts("kernel_shape"));
    if (oneD && kernel.size() == 1) kernel.insert(kernel.begin(), 1);
    if (kernel.size() != 2) return b.refused("kernel_shape must have one entry per spatial axis");
    kH = static_cast<uint32_t>(kernel[0]);
    kW = static_cast<uint32_t>(kernel[1]);
    NNRT_ASSIGN_OR_RETURN(int64_t ceilMode, b.attrInt("ceil_mode", 0));
    NNRT_ASSIGN_OR_RETURN(int64_t storageOrder, b.attrInt("storage_order", 0));
    if (storageOrder != 0) return b.refused("storage_order 1 is not supported");
    NNRT_ASSIGN_OR_RETURN(int64_t includePad, b.attrInt("count_include_pad", 0));
    NNRT_ASSIGN_OR_RETURN(g, windowGeometry(b, dims, kH, kW, ceilMode != 0 && includePad == 0, oneD));
    if (g.dilationH != 1 || g.dilationW != 1) return b.refused("dilated pooling has no NNAPI operation");
    padFirst = includePad != 0 && (g.padTop || g.padLeft || g.padBottom || g.padRight);
    if (padFirst && ceilMode != 0) return b.refused("count_include_pad with ceil_mode is not supported");
  }
  // A 2-D pool of a known shape runs as NHWC (see mapConv).
  const bool nhwc = !oneD && !padFirst && allKnown(x->dims);
  NNRT_ASSIGN_OR_RETURN(uint32_t in, nhwc ? b.nhwcOperand(*x) : b.operand(*x));
  if (oneD) {
    NNRT_ASSIGN_OR_RETURN(in, b.reshape(in, x->type, dims));
  }
  if (padFirst) {
    if (!allKnown(dims)) return b.refused("input shape unknown");
    NNRT_ASSIGN_OR_RETURN(uint32_t paddings,
                          b.constInts({0, 0, 0, 0, g.padTop, g.padBottom, g.padLeft, g.padRight}, {4, 2}));
    NNRT_ASSIGN_OR_RETURN(uint32_t zero, b.scalarFloat(0.0f));
    Dims padded{dims[0], dims[1], dims[2] + g.padTop + g.padBottom, dims[3] + g.padLeft + g.padRight};
    NNRT_ASSIGN_OR_RETURN(in, apply(b, ANEURALNETWORKS_PAD_V2, {in, paddings, zero}, x->type, padded));
    g.padTop = g.padBottom = g.padLeft = g.padRight = 0;
  }
  std::vector<uint32_t> inputs{in};
  for (int32_t v :
       {g.padLeft, g.padRight, g.padTop, g.padBottom, g.strideW, g.strideH, static_cast<int32_t>(kW),
        static_cast<int32_t>(kH), static_cast<int32_t>(ANEURALNETWORKS_FUSED_NONE)}) {
    NNRT_ASSIGN_OR_RETURN(uint32_t s, b.scalarInt(v));
    inputs.push_back(s);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t nchw, b.scalarBool(!nhwc));
  inputs.push_back(nchw);
  const Dims out{dims[0], dims[1], g.outH, g.outW};
  if (nhwc) return b.emitNhwc(op, inputs, x->type, out);
  if (!oneD) return b.emit(op, inputs, x->type, out);
  NNRT_ASSIGN_OR_RETURN(uint32_t pooled, apply(b, op, inputs, x->type, out));
  const Dims out1{dims[0], dims[1], g.outW};
  NNRT_ASSIGN_OR_RETURN(uint32_t reshaped, b.reshape(pooled, x->type, out1));
  defineOperand(b, 0, reshaped, x->type, out1);
  return {};
}

// Transposes a constant 2-D float matrix.
std::vector<float> transposed(const std::vector<float>& m, uint32_t rows, uint32_t cols) {
  std::vector<float> t(m.size());
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < cols; ++c)
      t[c * rows + r] = m[r * cols + c];
  return t;
}

Result<void> mapGemm(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* a, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* w, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* c, b.input(2));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *a));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 1.0f));
  NNRT_ASSIGN_OR_RETURN(float beta, b.attrFloat("beta", 1.0f));
  NNRT_ASSIGN_OR_RETURN(int64_t transA, b.attrInt("transA", 0));
  NNRT_ASSIGN_OR_RETURN(int64_t transB, b.attrInt("transB", 0));
  if (a->dims.size() != 2 || w->dims.size() != 2) return b.refused("A and B must be 2-D");
  NNRT_ASSIGN_OR_RETURN(uint32_t aOperand, b.operand(*a));
  uint32_t M = a->dims[0], K = a->dims[1];
  if (transA != 0) {
    M = a->dims[1];
    K = a->dims[0];
    NNRT_ASSIGN_OR_RETURN(uint32_t perm, b.constInts({1, 0}));
    NNRT_ASSIGN_OR_RETURN(uint32_t t, b.addTensor(a->type, {M, K}));
    NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_TRANSPOSE, {aOperand, perm}, {t}));
    aOperand = t;
  }
  uint32_t N = transB != 0 ? w->dims[0] : w->dims[1];
  if ((transB != 0 ? w->dims[1] : w->dims[0]) != K || K == 0 || N == 0)
    return b.refused("A and B do not multiply");
  // FULLY_CONNECTED takes weights as [N, K].
  uint32_t weights;
  if (transB != 0) {
    NNRT_ASSIGN_OR_RETURN(weights, b.operand(*w));
  } else if (w->constant.has_value()) {
    std::vector<float> m(elementCount(w->dims));
    std::memcpy(m.data(), w->constant->bytes.data(), m.size() * 4);
    NNRT_ASSIGN_OR_RETURN(weights, b.constFloats(transposed(m, K, N), {N, K}));
  } else {
    NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*w));
    NNRT_ASSIGN_OR_RETURN(uint32_t perm, b.constInts({1, 0}));
    NNRT_ASSIGN_OR_RETURN(weights, b.addTensor(w->type, {N, K}));
    NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_TRANSPOSE, {in, perm}, {weights}));
  }
  // C joins as FULLY_CONNECTED's bias when it is a constant vector of N (or one value) and alpha is 1;
  // otherwise alpha * (A B) + beta * C is computed as ONNX writes it.
  bool cAsBias = false;
  std::vector<float> biasValues(N, 0.0f);
  if (c != nullptr && c->constant.has_value() && alpha == 1.0f) {
    size_t count = elementCount(c->dims);
    bool vector = count == N && (c->dims.size() == 1 || (c->dims.size() == 2 && c->dims[0] == 1));
    if (vector || count == 1) {
      std::vector<float> values(count);
      std::memcpy(values.data(), c->constant->bytes.data(), count * 4);
      for (uint32_t n = 0; n < N; ++n)
        biasValues[n] = beta * values[count == 1 ? 0 : n];
      cAsBias = true;
    }
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t bias, b.constFloats(biasValues));
  // The product is the result when alpha is 1 and C is the bias (or absent): a following Relu or Clip
  // then joins it as its fused activation.
  const bool last = alpha == 1.0f && (c == nullptr || cAsBias);
  NNRT_ASSIGN_OR_RETURN(uint32_t fuse,
                        b.scalarInt(last ? b.fuseFollowingActivation() : ANEURALNETWORKS_FUSED_NONE));
  NNRT_ASSIGN_OR_RETURN(uint32_t product, b.addTensor(a->type, {M, N}));
  NNRT_RETURN_IF_ERROR(
      b.addOperation(ANEURALNETWORKS_FULLY_CONNECTED, {aOperand, weights, bias, fuse}, {product}));
  uint32_t result = product;
  if (alpha != 1.0f) {
    NNRT_ASSIGN_OR_RETURN(uint32_t alphaOperand, b.constFloats({alpha}));
    NNRT_ASSIGN_OR_RETURN(uint32_t f, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
    NNRT_ASSIGN_OR_RETURN(uint32_t scaled, b.addTensor(a->type, {M, N}));
    NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_MUL, {result, alphaOperand, f}, {scaled}));
    result = scaled;
  }
  if (c != nullptr && !cAsBias) {
    uint32_t cOperand;
    if (beta == 1.0f) {
      NNRT_ASSIGN_OR_RETURN(cOperand, b.operand(*c));
    } else {
      NNRT_ASSIGN_OR_RETURN(uint32_t cIn, b.operand(*c));
      NNRT_ASSIGN_OR_RETURN(uint32_t betaOperand, b.constFloats({beta}));
      NNRT_ASSIGN_OR_RETURN(uint32_t f, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
      NNRT_ASSIGN_OR_RETURN(cOperand, b.addTensor(c->type, c->dims));
      NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_MUL, {cIn, betaOperand, f}, {cOperand}));
    }
    NNRT_ASSIGN_OR_RETURN(Dims dims, broadcastShape(b, {M, N}, c->dims));
    if (dims != Dims{M, N}) return b.refused("C does not broadcast to [M, N]");
    NNRT_ASSIGN_OR_RETURN(uint32_t f, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
    NNRT_ASSIGN_OR_RETURN(uint32_t sum, b.addTensor(a->type, {M, N}));
    NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_ADD, {result, cOperand, f}, {sum}));
    result = sum;
  }
  Value v;
  v.operand = result;
  v.type = a->type;
  v.dims = {M, N};
  b.define(0, v);
  return {};
}

Result<void> mapMatMul(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* a, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* w, b.requiredInput(1));
  NNRT_RETURN_IF_ERROR(refuseQuantizedArithmetic(b, *a));
  if (a->scalar || w->scalar || a->dims.size() < 2 || w->dims.size() < 2) {
    return b.refused("1-D operands are not supported");
  }
  if (a->dims.size() != w->dims.size() || a->dims.size() > 4)
    return b.refused("operands must have the same rank, 2 to 4");
  size_t r = a->dims.size();
  for (size_t i = 0; i + 2 < r; ++i) {
    if (a->dims[i] != w->dims[i]) return b.refused("broadcast batch dimensions are not supported");
  }
  if (a->dims[r - 1] != w->dims[r - 2]) return b.refused("operands do not multiply");
  Dims out = a->dims;
  out[r - 1] = w->dims[r - 1];
  NNRT_ASSIGN_OR_RETURN(uint32_t x, b.operand(*a));
  NNRT_ASSIGN_OR_RETURN(uint32_t y, b.operand(*w));
  NNRT_ASSIGN_OR_RETURN(uint32_t adjX, b.scalarBool(false));
  NNRT_ASSIGN_OR_RETURN(uint32_t adjY, b.scalarBool(false));
  return b.emit(ANEURALNETWORKS_BATCH_MATMUL, {x, y, adjX, adjY}, a->type, out);
}

// MatMulInteger: (A - a_zero_point) (B - b_zero_point) in int32, computed exactly in float32 (see
// integersAsFloat, requireExactIntegerSums): BATCH_MATMUL, CAST to int32.
Result<void> mapMatMulInteger(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* a, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* w, b.requiredInput(1));
  if (a->scalar || w->scalar || a->dims.size() != 2 || w->dims.size() != 2 || !allKnown(a->dims) ||
      !allKnown(w->dims))
    return b.refused("only 2-D operands of known shapes are supported");
  if (a->dims[1] != w->dims[0]) return b.refused("operands do not multiply");
  NNRT_RETURN_IF_ERROR(requireExactIntegerSums(b, a->dims[1]));
  NNRT_ASSIGN_OR_RETURN(Value af, integersAsFloat(b, 0, 2));
  NNRT_ASSIGN_OR_RETURN(Value wf, integersAsFloat(b, 1, 3));
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  const Dims out{a->dims[0], w->dims[1]};
  NNRT_ASSIGN_OR_RETURN(uint32_t adjX, b.scalarBool(false));
  NNRT_ASSIGN_OR_RETURN(uint32_t adjY, b.scalarBool(false));
  NNRT_ASSIGN_OR_RETURN(uint32_t product, apply(b, ANEURALNETWORKS_BATCH_MATMUL,
                                                {af.operand, wf.operand, adjX, adjY}, f32, out));
  return b.emit(ANEURALNETWORKS_CAST, {product}, ANEURALNETWORKS_TENSOR_INT32, out);
}

// Clip: max(x, lo) then min(., hi) with one-element constants; RELU/RELU1/RELU6 when the bounds are theirs.
Result<void> mapClip(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (quantized(x->type) && b.opset() >= 11) {
    // 8-bit integers: MAXIMUM and MINIMUM with the constant bounds, exact at scale 1 (absent: the
    // type's own range, nothing to clip).
    NNRT_ASSIGN_OR_RETURN(uint32_t current, b.operand(*x));
    for (auto [i, op] : {std::pair{1, ANEURALNETWORKS_MAXIMUM}, std::pair{2, ANEURALNETWORKS_MINIMUM}}) {
      NNRT_ASSIGN_OR_RETURN(const Value* bound, b.input(i));
      if (bound == nullptr) continue;
      if (!bound->constant.has_value())
        return b.refused("input " + std::to_string(i) + " ('" + b.node()->input(i) + "') must be a constant");
      if (bound->type != x->type || bound->constant->bytes.size() != 1)
        return b.refused("min and max must be single values of the input's type");
      NNRT_ASSIGN_OR_RETURN(uint32_t k, b.addConstant(x->type, {1}, bound->constant->bytes));
      NNRT_ASSIGN_OR_RETURN(current, apply(b, op, {current, k}, x->type, x->dims));
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
    if (current == in) return mapIdentity(b);
    defineOperand(b, 0, current, x->type, x->dims);
    return {};
  }
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  std::optional<float> lo, hi;
  if (b.opset() < 11) {
    if (b.attribute("min") != nullptr) {
      NNRT_ASSIGN_OR_RETURN(lo, b.attrFloat("min", 0.0f));
    }
    if (b.attribute("max") != nullptr) {
      NNRT_ASSIGN_OR_RETURN(hi, b.attrFloat("max", 0.0f));
    }
  } else {
    for (int i = 1; i <= 2; ++i) {
      NNRT_ASSIGN_OR_RETURN(const Value* bound, b.input(i));
      if (bound == nullptr) continue;
      NNRT_ASSIGN_OR_RETURN(std::vector<float> v, b.constantFloats(i));
      if (v.size() != 1) return b.refused("min and max must be single values");
      (i == 1 ? lo : hi) = v[0];
    }
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  if (lo == 0.0f && !hi) return b.emit(ANEURALNETWORKS_RELU, {in}, x->type, x->dims);
  if (lo == 0.0f && hi == 6.0f) return b.emit(ANEURALNETWORKS_RELU6, {in}, x->type, x->dims);
  if (lo == -1.0f && hi == 1.0f) return b.emit(ANEURALNETWORKS_RELU1, {in}, x->type, x->dims);
  uint32_t current = in;
  for (auto [bound, op] : {std::pair{lo, ANEURALNETWORKS_MAXIMUM}, std::pair{hi, ANEURALNETWORKS_MINIMUM}}) {
    if (!bound) continue;
    NNRT_ASSIGN_OR_RETURN(uint32_t k, b.constFloats({*bound}));
    NNRT_ASSIGN_OR_RETURN(uint32_t out, b.addTensor(x->type, x->dims));
    NNRT_RETURN_IF_ERROR(b.addOperation(op, {current, k}, {out}));
    current = out;
  }
  if (current == in) return mapIdentity(b);
  Value v;
  v.operand = current;
  v.type = x->type;
  v.dims = x->dims;
  b.define(0, v);
  return {};
}

// BatchNormalization (inference): y = x * a + c with a = scale / sqrt(var + eps), c = B - mean * a
// per channel (axis 1), from constant parameters.
Result<void> mapBatchNorm(GraphBuilder& b) {
  if (b.node()->output_size() > 1) return b.refused("training-mode outputs are not supported");
  NNRT_ASSIGN_OR_RETURN(int64_t training, b.attrInt("training_mode", 0));
  if (training != 0) return b.refused("training_mode is not supported");
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float eps, b.attrFloat("epsilon", 1e-5f));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> scale, b.constantFloats(1));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> bias, b.constantFloats(2));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> mean, b.constantFloats(3));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> var, b.constantFloats(4));
  if (x->dims.size() < 2) return b.refused("input must have a channel axis");
  uint32_t C = x->dims[1];
  if (scale.size() != C || bias.size() != C || mean.size() != C || var.size() != C)
    return b.refused("parameters must have C values");
  std::vector<float> mul(C), add(C);
  for (uint32_t c = 0; c < C; ++c) {
    mul[c] = scale[c] / std::sqrt(var[c] + eps);
    add[c] = bias[c] - mean[c] * mul[c];
  }
  Dims paramDims(x->dims.size() - 1, 1);
  paramDims[0] = C;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t mulOperand, b.constFloats(mul, paramDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t addOperand, b.constFloats(add, paramDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t f1, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_ASSIGN_OR_RETURN(uint32_t f2, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_ASSIGN_OR_RETURN(uint32_t scaled, b.addTensor(x->type, x->dims));
  NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_MUL, {in, mulOperand, f1}, {scaled}));
  return b.emit(ANEURALNETWORKS_ADD, {scaled, addOperand, f2}, x->type, x->dims);
}

Result<void> mapPrelu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(refuseQuantizedArithmetic(b, *x));
  NNRT_ASSIGN_OR_RETURN(const Value* slope, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(Dims dims, broadcastShape(b, x->dims, slope->dims));
  if (dims != x->dims) return b.refused("slope must broadcast to the input's shape");
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t s, b.operand(*slope));
  return b.emit(ANEURALNETWORKS_PRELU, {in, s}, x->type, x->dims);
}

Result<void> mapLeakyRelu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 0.01f));
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t s, b.constFloats({alpha}));
  return b.emit(ANEURALNETWORKS_PRELU, {in, s}, x->type, x->dims);
}

Result<void> mapElu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 1.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t s, b.scalarFloat(alpha));
  return b.emit(ANEURALNETWORKS_ELU, {in, s}, x->type, x->dims);
}

Result<void> mapConstant(GraphBuilder& b) {
  // value_int(s) and value_float(s): a scalar or a 1-D tensor (int64 as int32, checked for range).
  for (const char* name : {"value_int", "value_ints", "value_float", "value_floats"}) {
    const auto* a = b.attribute(name);
    if (a == nullptr) continue;
    const bool ints = name == std::string_view("value_int") || name == std::string_view("value_ints");
    const bool scalar = name == std::string_view("value_int") || name == std::string_view("value_float");
    std::vector<double> values;
    if (scalar) {
      values.push_back(ints ? static_cast<double>(a->i()) : a->f());
    } else if (ints) {
      values.assign(a->ints().begin(), a->ints().end());
    } else {
      values.assign(a->floats().begin(), a->floats().end());
    }
    if (values.empty()) return b.refused("an empty constant has no NNAPI shape");
    NNRT_ASSIGN_OR_RETURN(
        HostTensor t, filledTensor(b, ints ? ANEURALNETWORKS_TENSOR_INT32 : ANEURALNETWORKS_TENSOR_FLOAT32,
                                   scalar ? Dims{} : Dims{static_cast<uint32_t>(values.size())}, values));
    defineConstant(b, 0, std::move(t));
    return {};
  }
  const auto* a = b.attribute("value");
  if (a == nullptr || a->type() != onnx::AttributeProto::TENSOR)
    return b.refused("only the value, value_int(s) and value_float(s) forms are supported");
  auto decoded = decodeTensor(a->t(), {});
  if (!decoded.has_value()) return b.refused(decoded.error().message);
  Value v;
  v.type = decoded->type;
  v.dims = decoded->dimensions;
  if (v.dims.empty()) {
    v.scalar = true;
    v.dims = {1};
  }
  v.constant = std::move(*decoded);
  b.define(0, std::move(v));
  return {};
}

// ReduceX: NNAPI REDUCE_* / MEAN over the given axes (all when none); keepdims as ONNX.
Result<void> reduce(GraphBuilder& b, int32_t op, int32_t pre = 0, int32_t post = 0) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (pre != 0 || post != 0 || (op != ANEURALNETWORKS_REDUCE_MAX && op != ANEURALNETWORKS_REDUCE_MIN))
    NNRT_RETURN_IF_ERROR(refuseQuantizedArithmetic(b, *x));
  NNRT_ASSIGN_OR_RETURN(int64_t keep, b.attrInt("keepdims", 1));
  NNRT_ASSIGN_OR_RETURN(int64_t noop, b.attrInt("noop_with_empty_axes", 0));
  const bool axesAsInput = std::string(b.node()->op_type()) == "ReduceSum" && b.opset() >= 13;
  std::vector<int64_t> axes;
  if (axesAsInput) {
    NNRT_ASSIGN_OR_RETURN(axes, axesInputOrAttribute(b, 1, 13));
  } else {
    NNRT_ASSIGN_OR_RETURN(axes, b.attrInts("axes"));
  }
  if (axes.empty() && noop != 0) return mapIdentity(b);
  size_t rank = x->dims.size();
  std::vector<bool> reduced(rank, axes.empty());
  for (int64_t a : axes) {
    NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
    reduced[axis] = true;
  }
  std::vector<int32_t> list;
  Dims out;
  for (size_t i = 0; i < rank; ++i) {
    if (reduced[i]) list.push_back(static_cast<int32_t>(i));
    if (!reduced[i])
      out.push_back(x->dims[i]);
    else if (keep != 0)
      out.push_back(1);
  }
  bool scalar = out.empty();
  if (scalar) out = {1};
  NNRT_ASSIGN_OR_RETURN(uint32_t current, b.operand(*x));
  if (pre != 0) {
    NNRT_ASSIGN_OR_RETURN(uint32_t t, b.addTensor(x->type, x->dims));
    if (pre == ANEURALNETWORKS_MUL) {
      NNRT_ASSIGN_OR_RETURN(uint32_t f, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
      NNRT_RETURN_IF_ERROR(b.addOperation(pre, {current, current, f}, {t}));
    } else {
      NNRT_RETURN_IF_ERROR(b.addOperation(pre, {current}, {t}));
    }
    current = t;
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t axesOperand, b.constInts(list));
  uint32_t keepOperand;
  if (op == ANEURALNETWORKS_MEAN) {
    NNRT_ASSIGN_OR_RETURN(keepOperand, b.scalarInt(keep != 0 ? 1 : 0));
  } else {
    NNRT_ASSIGN_OR_RETURN(keepOperand, b.scalarBool(keep != 0));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t reducedOperand, b.addTensor(x->type, out));
  NNRT_RETURN_IF_ERROR(b.addOperation(op, {current, axesOperand, keepOperand}, {reducedOperand}));
  current = reducedOperand;
  if (post != 0) {
    NNRT_ASSIGN_OR_RETURN(uint32_t t, b.addTensor(x->type, out));
    NNRT_RETURN_IF_ERROR(b.addOperation(post, {current}, {t}));
    current = t;
  }
  Value v;
  v.operand = current;
  v.type = x->type;
  v.dims = out;
  v.scalar = scalar;
  b.define(0, v);
  return {};
}

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
    NNRT_ASSIGN_OR_RETURN(indicesOperand, b.operand(*indices));
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

Result<void> mapPow(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* y, b.requiredInput(1));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (y->type == ANEURALNETWORKS_TENSOR_INT32) {
    // An integer exponent is CAST to float32 (exact up to 2^24 in magnitude; larger ones round).
    NNRT_ASSIGN_OR_RETURN(Dims dims, broadcastShape(b, x->dims, y->dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t base, b.operand(*x));
    NNRT_ASSIGN_OR_RETURN(uint32_t exponent, b.operand(*y));
    NNRT_ASSIGN_OR_RETURN(uint32_t asFloat, apply(b, ANEURALNETWORKS_CAST, {exponent}, x->type, y->dims));
    return b.emit(ANEURALNETWORKS_POW, {base, asFloat}, x->type, dims);
  }
  if (y->type != x->type) return b.refused("exponent of another type than the base");
  return binary(b, ANEURALNETWORKS_POW, false);
}

Result<void> mapDiv(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));  // NNAPI's integer DIV floors, ONNX's truncates
  return binary(b, ANEURALNETWORKS_DIV, true);
}

Result<void> mapReciprocal(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(uint32_t one, b.constFloats({1.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t f, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  return b.emit(ANEURALNETWORKS_DIV, {one, in, f}, x->type, x->dims);
}

Result<void> mapMean(GraphBuilder& b) {
  if (b.node()->input_size() == 1) return mapIdentity(b);
  NNRT_RETURN_IF_ERROR(variadic(b, ANEURALNETWORKS_ADD, true));
  const Value* sum = b.find(b.node()->output(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *sum));
  NNRT_ASSIGN_OR_RETURN(uint32_t n, b.constFloats({static_cast<float>(b.node()->input_size())}));
  NNRT_ASSIGN_OR_RETURN(uint32_t f, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  Value total = *sum;
  return b.emit(ANEURALNETWORKS_DIV, {total.operand, n, f}, total.type, total.dims);
}

// Where -> SELECT, which takes operands of one shape: a broadcast condition is LOGICAL_AND'ed with a
// constant true of the output's shape, broadcast values are RESHAPEd to its rank and TILEd.
Result<void> mapWhere(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* c, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* y, b.requiredInput(2));
  if (x->type != y->type) return b.refused("inputs of different types");
  NNRT_ASSIGN_OR_RETURN(Dims xy, broadcastShape(b, x->dims, y->dims));
  NNRT_ASSIGN_OR_RETURN(Dims out, broadcastShape(b, c->dims, xy));
  NNRT_ASSIGN_OR_RETURN(uint32_t co, b.operand(*c));
  NNRT_ASSIGN_OR_RETURN(uint32_t xo, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t yo, b.operand(*y));
  if (c->dims != out || x->dims != out || y->dims != out) {
    if (!allKnown(out) || !allKnown(c->dims) || !allKnown(x->dims) || !allKnown(y->dims))
      return b.refused("broadcasting with an unknown shape");
    if (c->dims != out) {
      NNRT_ASSIGN_OR_RETURN(uint32_t all, constFilled(b, ANEURALNETWORKS_TENSOR_BOOL8, out, 1.0));
      NNRT_ASSIGN_OR_RETURN(
          co, apply(b, ANEURALNETWORKS_LOGICAL_AND, {co, all}, ANEURALNETWORKS_TENSOR_BOOL8, out));
    }
    for (auto [value, operand] : {std::pair{x, &xo}, std::pair{y, &yo}}) {
      if (value->dims == out) continue;
      Dims padded(out.size() - value->dims.size(), 1);
      padded.insert(padded.end(), value->dims.begin(), value->dims.end());
      if (padded != value->dims) {
        NNRT_ASSIGN_OR_RETURN(*operand, b.reshape(*operand, value->type, padded));
      }
      std::vector<int32_t> multiples;
      for (size_t i = 0; i < out.size(); ++i)
        multiples.push_back(static_cast<int32_t>(out[i] / padded[i]));
      NNRT_ASSIGN_OR_RETURN(uint32_t multiplesOperand, b.constInts(multiples));
      NNRT_ASSIGN_OR_RETURN(*operand,
                            apply(b, ANEURALNETWORKS_TILE, {*operand, multiplesOperand}, value->type, out));
    }
  }
  return b.emit(ANEURALNETWORKS_SELECT, {co, xo, yo}, x->type, out);
}

// ArgMax/ArgMin -> ARGMAX/ARGMIN (int32 indices, NNAPI's stand-in for ONNX's int64), keepdims by RESHAPE;
// select_last_index: size - 1 - the first extreme index along the REVERSEd axis.
Result<void> argMinMax(GraphBuilder& b, int32_t op) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", 0));
  NNRT_ASSIGN_OR_RETURN(int64_t keep, b.attrInt("keepdims", 1));
  NNRT_ASSIGN_OR_RETURN(int64_t last, b.attrInt("select_last_index", 0));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, x->dims.size()));
  Dims reduced;
  for (size_t i = 0; i < x->dims.size(); ++i) {
    if (i != axis) reduced.push_back(x->dims[i]);
  }
  if (reduced.empty()) return b.refused("a 1-D input has no NNAPI output shape");
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(static_cast<int32_t>(axis)));
  const int32_t i32 = ANEURALNETWORKS_TENSOR_INT32;
  uint32_t indices;
  if (last == 0) {
    NNRT_ASSIGN_OR_RETURN(indices, apply(b, op, {in, axisOperand}, i32, reduced));
  } else {
    if (x->dims[axis] == 0) return b.refused("input shape unknown");
    NNRT_ASSIGN_OR_RETURN(uint32_t reverseAxis, b.constInts({static_cast<int32_t>(axis)}));
    NNRT_ASSIGN_OR_RETURN(uint32_t reversed,
                          apply(b, ANEURALNETWORKS_REVERSE, {in, reverseAxis}, x->type, x->dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t first, apply(b, op, {reversed, axisOperand}, i32, reduced));
    NNRT_ASSIGN_OR_RETURN(uint32_t lastIndex, b.constInts({static_cast<int32_t>(x->dims[axis]) - 1}));
    NNRT_ASSIGN_OR_RETURN(indices, arithmetic(b, ANEURALNETWORKS_SUB, lastIndex, first, i32, reduced));
  }
  if (keep == 0) {
    defineOperand(b, 0, indices, i32, reduced);
    return {};
  }
  Dims kept = x->dims;
  kept[axis] = 1;
  if (!allKnown(kept)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.reshape(indices, i32, kept));
  defineOperand(b, 0, out, i32, kept);
  return {};
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
    if (length <= 0) return b.refused("an empty slice has no NNAPI shape");
    out[axis] = static_cast<uint32_t>(length);
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
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t beginOperand, b.constInts(begin));
  NNRT_ASSIGN_OR_RETURN(uint32_t endOperand, b.constInts(end));
  NNRT_ASSIGN_OR_RETURN(uint32_t strideOperand, b.constInts(stride));
  NNRT_ASSIGN_OR_RETURN(uint32_t beginMask, b.scalarInt(0));
  NNRT_ASSIGN_OR_RETURN(uint32_t endMaskOperand, b.scalarInt(endMask));
  NNRT_ASSIGN_OR_RETURN(uint32_t shrink, b.scalarInt(0));
  return b.emit(ANEURALNETWORKS_STRIDED_SLICE,
                {in, beginOperand, endOperand, strideOperand, beginMask, endMaskOperand, shrink}, x->type,
                out);
}

Result<void> castTo(GraphBuilder& b, int32_t type);

Result<void> mapCast(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(int64_t to, b.attrInt("to", -1));
  auto type = nnapiTensorType(static_cast<int32_t>(to));
  if (!type.has_value())
    return b.refused("to " + onnxTypeName(static_cast<int32_t>(to)) + ": " + type.error().message);
  return castTo(b, *type);
}

// Split -> one SLICE per output.
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
  if (sizes.empty()) {
    if (x->dims[axis] % n != 0) return b.refused("the axis does not split evenly");
    sizes.assign(n, x->dims[axis] / n);
  }
  if (static_cast<int>(sizes.size()) != n) return b.refused("split sizes do not match the outputs");
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  int64_t offset = 0;
  for (int i = 0; i < n; ++i) {
    if (sizes[i] <= 0) return b.refused("an empty part has no NNAPI shape");
    std::vector<int32_t> begin(x->dims.size(), 0), size(x->dims.begin(), x->dims.end());
    begin[axis] = static_cast<int32_t>(offset);
    size[axis] = static_cast<int32_t>(sizes[i]);
    offset += sizes[i];
    NNRT_ASSIGN_OR_RETURN(uint32_t beginOperand, b.constInts(begin));
    NNRT_ASSIGN_OR_RETURN(uint32_t sizeOperand, b.constInts(size));
    Dims out(size.begin(), size.end());
    NNRT_RETURN_IF_ERROR(b.emit(ANEURALNETWORKS_SLICE, {in, beginOperand, sizeOperand}, x->type, out, i));
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

Result<void> spaceDepth(GraphBuilder& b, int32_t op) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (x->dims.size() != 4 || !allKnown(x->dims)) return b.refused("input must be 4-D with a known shape");
  NNRT_ASSIGN_OR_RETURN(int64_t block, b.attrInt("blocksize", 0));
  NNRT_ASSIGN_OR_RETURN(std::string mode, b.attrString("mode", "DCR"));
  if (mode != "DCR") return b.refused("mode '" + mode + "': NNAPI orders the depth as DCR");
  if (block < 1) return b.refused("blocksize must be positive");
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
  NNRT_ASSIGN_OR_RETURN(uint32_t blockOperand, b.scalarInt(static_cast<int32_t>(block)));
  NNRT_ASSIGN_OR_RETURN(uint32_t nchw, b.scalarBool(true));
  return b.emit(op, {in, blockOperand, nchw}, x->type, out);
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

// Pad: constant mode -> PAD_V2, reflect -> MIRROR_PAD (REFLECT).
Result<void> mapPad(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(std::string mode, b.attrString("mode", "constant"));
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
    if (axes != nullptr) return b.refused("the axes input is not supported");
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
  return b.refused("mode '" + mode + "' has no NNAPI operation");
}

// LRN across channels (axis 1): NNAPI sums over [c - radius, c + radius] and does not divide alpha by
// the size, so an odd size maps exactly with radius (size - 1) / 2 and alpha / size.
Result<void> mapLrn(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(int64_t size, b.attrInt("size", 0));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 1e-4f));
  NNRT_ASSIGN_OR_RETURN(float beta, b.attrFloat("beta", 0.75f));
  NNRT_ASSIGN_OR_RETURN(float bias, b.attrFloat("bias", 1.0f));
  if (size < 1 || size % 2 == 0)
    return b.refused("an even size sums an asymmetric window, which NNAPI does not");
  if (x->dims.size() != 4) return b.refused("input must be 4-D");
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t radius, b.scalarInt(static_cast<int32_t>((size - 1) / 2)));
  NNRT_ASSIGN_OR_RETURN(uint32_t biasOperand, b.scalarFloat(bias));
  NNRT_ASSIGN_OR_RETURN(uint32_t alphaOperand, b.scalarFloat(alpha / static_cast<float>(size)));
  NNRT_ASSIGN_OR_RETURN(uint32_t betaOperand, b.scalarFloat(beta));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, b.scalarInt(1));
  return b.emit(ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION,
                {in, radius, biasOperand, alphaOperand, betaOperand, axis}, x->type, x->dims);
}

Value constantInts32(const std::vector<int32_t>& values, bool scalar) {
  Value v;
  v.type = ANEURALNETWORKS_TENSOR_INT32;
  v.dims = {static_cast<uint32_t>(values.size())};
  v.scalar = scalar;
  HostTensor t;
  t.type = v.type;
  if (!scalar) t.dimensions = v.dims;
  t.bytes.resize(values.size() * 4);
  std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  v.constant = std::move(t);
  return v;
}

// Shape and Size are known at load time (static shapes): constants.
Result<void> mapShape(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  if (x->scalar) return b.refused("the shape of a scalar is empty, which NNAPI cannot hold");
  int64_t rank = static_cast<int64_t>(x->dims.size());
  NNRT_ASSIGN_OR_RETURN(int64_t start, b.attrInt("start", 0));
  NNRT_ASSIGN_OR_RETURN(int64_t end, b.attrInt("end", rank));
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, 0, rank);
  if (end <= start) return b.refused("an empty shape slice has no NNAPI shape");
  b.define(0, constantInts32(std::vector<int32_t>(x->dims.begin() + start, x->dims.begin() + end), false));
  return {};
}

Result<void> mapSize(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  size_t count = elementCount(x->dims);
  if (count > INT32_MAX) return b.refused("the size does not fit int32");
  b.define(0, constantInts32({static_cast<int32_t>(count)}, true));
  return {};
}

Result<void> mapConstantOfShape(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> shape, b.constantInts(0));
  HostTensor fill{ANEURALNETWORKS_TENSOR_FLOAT32, {1}, std::vector<uint8_t>(4, 0)};
  if (const auto* a = b.attribute("value")) {
    if (a->type() != onnx::AttributeProto::TENSOR) return b.refused("value must be a tensor");
    auto decoded = decodeTensor(a->t(), {});
    if (!decoded.has_value()) return b.refused(decoded.error().message);
    if (elementCount(decoded->dimensions) != 1) return b.refused("value must hold one element");
    fill = std::move(*decoded);
  }
  Value v;
  v.type = fill.type;
  for (int32_t d : shape) {
    if (d <= 0) return b.refused("an empty tensor has no NNAPI shape");
    v.dims.push_back(static_cast<uint32_t>(d));
  }
  v.scalar = v.dims.empty();
  if (v.scalar) v.dims = {1};
  HostTensor t;
  t.type = fill.type;
  t.dimensions = v.scalar ? Dims{} : v.dims;
  for (size_t i = 0; i < elementCount(v.dims); ++i)
    t.bytes.insert(t.bytes.end(), fill.bytes.begin(), fill.bytes.end());
  v.constant = std::move(t);
  b.define(0, std::move(v));
  return {};
}

Result<void> castTo(GraphBuilder& b, int32_t type) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (type == ANEURALNETWORKS_TENSOR_BOOL8 || x->type == ANEURALNETWORKS_TENSOR_BOOL8) {
    return b.refused("NNAPI CAST does not take booleans");
  }
  if (quantized(type) || quantized(x->type))
    return b.refused("casts to and from 8-bit integers are not supported (ONNX saturates or wraps by type)");
  const bool folds = [&] {
    for (int32_t t : {x->type, type})
      if (t != ANEURALNETWORKS_TENSOR_FLOAT32 && t != ANEURALNETWORKS_TENSOR_INT32) return false;
    return x->constant.has_value() && elementCount(x->dims) <= 4096;
  }();
  if (folds) {
    // A small constant is cast at load time, as NNAPI's CAST would (floats to integers truncated).
    std::vector<double> values(elementCount(x->dims));
    for (size_t i = 0; i < values.size(); ++i) {
      if (x->type == ANEURALNETWORKS_TENSOR_INT32) {
        int32_t v;
        std::memcpy(&v, x->constant->bytes.data() + 4 * i, 4);
        values[i] = v;
      } else {
        float v;
        std::memcpy(&v, x->constant->bytes.data() + 4 * i, 4);
        if (type == ANEURALNETWORKS_TENSOR_INT32 && !(std::fabs(v) < 2147483648.0f))
          return b.refused("a constant outside int32 cast to an integer");
        values[i] = type == ANEURALNETWORKS_TENSOR_INT32 ? std::trunc(v) : v;
      }
    }
    NNRT_ASSIGN_OR_RETURN(HostTensor t, filledTensor(b, type, x->scalar ? Dims{} : x->dims, values));
    defineConstant(b, 0, std::move(t));
    return {};
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  return b.emit(ANEURALNETWORKS_CAST, {in}, type, x->dims);
}

Result<void> mapCastLike(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* like, b.requiredInput(1));
  return castTo(b, like->type);
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

// Elementwise compositions, each in the order ONNX's definition computes it.
class Chain {
 public:
  Chain(GraphBuilder& b, const Value& x) : b_(b), type_(x.type), dims_(x.dims) {}
  Result<void> start(const Value& x) {
    NNRT_ASSIGN_OR_RETURN(current_, b_.operand(x));
    return {};
  }
  // current = op(current)
  Result<void> unary(int32_t op) { return add(op, {current_}); }
  // current = op(current, k) or op(k, current), with NNAPI's fused-activation argument for ADD/MUL/SUB/DIV
  Result<void> withConstant(int32_t op, float k, bool constantFirst = false) {
    NNRT_ASSIGN_OR_RETURN(uint32_t c, b_.constFloats({k}));
    std::vector<uint32_t> inputs =
        constantFirst ? std::vector<uint32_t>{c, current_} : std::vector<uint32_t>{current_, c};
    if (op == ANEURALNETWORKS_ADD || op == ANEURALNETWORKS_MUL || op == ANEURALNETWORKS_SUB ||
        op == ANEURALNETWORKS_DIV) {
      NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b_.scalarInt(ANEURALNETWORKS_FUSED_NONE));
      inputs.push_back(fuse);
    }
    return add(op, inputs);
  }
  Result<void> add(int32_t op, const std::vector<uint32_t>& inputs) {
    NNRT_ASSIGN_OR_RETURN(uint32_t out, b_.addTensor(type_, dims_));
    NNRT_RETURN_IF_ERROR(b_.addOperation(op, inputs, {out}));
    current_ = out;
    return {};
  }
  uint32_t current() const { return current_; }
  void finish() {
    Value v;
    v.operand = current_;
    v.type = type_;
    v.dims = dims_;
    b_.define(0, v);
  }

 private:
  GraphBuilder& b_;
  int32_t type_;
  Dims dims_;
  uint32_t current_ = kNoOperand;
};

// HardSigmoid: max(0, min(1, alpha * x + beta)).
Result<void> mapHardSigmoid(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 0.2f));
  NNRT_ASSIGN_OR_RETURN(float beta, b.attrFloat("beta", 0.5f));
  Chain c(b, *x);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_MUL, alpha));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_ADD, beta));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_MINIMUM, 1.0f));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_MAXIMUM, 0.0f));
  c.finish();
  return {};
}

// Softsign: x / (1 + |x|).
Result<void> mapSoftsign(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  Chain c(b, *x);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  uint32_t in = c.current();
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_ABS));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_ADD, 1.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_RETURN_IF_ERROR(c.add(ANEURALNETWORKS_DIV, {in, c.current(), fuse}));
  c.finish();
  return {};
}

// Softplus: log(exp(x) + 1).
Result<void> mapSoftplus(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  Chain c(b, *x);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_EXP));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_ADD, 1.0f));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_LOG));
  c.finish();
  return {};
}

// Selu: gamma * (x > 0 ? x : alpha * (exp(x) - 1)) = gamma * ELU(x, alpha).
Result<void> mapSelu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 1.67326319217681884765625f));
  NNRT_ASSIGN_OR_RETURN(float gamma, b.attrFloat("gamma", 1.05070102214813232421875f));
  Chain c(b, *x);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t alphaOperand, b.scalarFloat(alpha));
  NNRT_RETURN_IF_ERROR(c.add(ANEURALNETWORKS_ELU, {c.current(), alphaOperand}));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_MUL, gamma));
  c.finish();
  return {};
}

// Ceil: -floor(-x), exact in floating point.
Result<void> mapCeil(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  Chain c(b, *x);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_NEG));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_FLOOR));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_NEG));
  c.finish();
  return {};
}

// InstanceNormalization: INSTANCE_NORMALIZATION (gamma 1, beta 0; NNAPI's are scalars) then the
// per-channel scale and bias.
Result<void> mapInstanceNorm(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* scale, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* bias, b.requiredInput(2));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float eps, b.attrFloat("epsilon", 1e-5f));
  if (x->dims.size() != 4) return b.refused("only 4-D inputs (NNAPI INSTANCE_NORMALIZATION)");
  uint32_t C = x->dims[1];
  if (scale->dims != Dims{C} || bias->dims != Dims{C}) return b.refused("scale and B must have shape [C]");
  Chain c(b, *x);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t gamma, b.scalarFloat(1.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t beta, b.scalarFloat(0.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t epsilon, b.scalarFloat(eps));
  NNRT_ASSIGN_OR_RETURN(uint32_t nchw, b.scalarBool(true));
  NNRT_RETURN_IF_ERROR(
      c.add(ANEURALNETWORKS_INSTANCE_NORMALIZATION, {c.current(), gamma, beta, epsilon, nchw}));
  NNRT_ASSIGN_OR_RETURN(uint32_t s, b.operand(*scale));
  NNRT_ASSIGN_OR_RETURN(uint32_t perChannelScale, b.reshape(s, scale->type, {C, 1, 1}));
  NNRT_ASSIGN_OR_RETURN(uint32_t o, b.operand(*bias));
  NNRT_ASSIGN_OR_RETURN(uint32_t perChannelBias, b.reshape(o, bias->type, {C, 1, 1}));
  NNRT_ASSIGN_OR_RETURN(uint32_t f1, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_RETURN_IF_ERROR(c.add(ANEURALNETWORKS_MUL, {c.current(), perChannelScale, f1}));
  NNRT_ASSIGN_OR_RETURN(uint32_t f2, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_RETURN_IF_ERROR(c.add(ANEURALNETWORKS_ADD, {c.current(), perChannelBias, f2}));
  c.finish();
  return {};
}

// LayerNormalization (opset 17), as ONNX's reference computes it over the axes from `axis` on:
// mean = MEAN(x), d = x - mean, inv = 1 / sqrt(MEAN(d * d) + epsilon), y = d * inv * Scale + B;
// the optional Mean and InvStdDev outputs keep the reduced axes as 1.
Result<void> mapLayerNorm(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* scale, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* bias, b.input(2));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", -1));
  NNRT_ASSIGN_OR_RETURN(float eps, b.attrFloat("epsilon", 1e-5f));
  NNRT_ASSIGN_OR_RETURN(int64_t stash, b.attrInt("stash_type", 1));
  if (stash != onnx::TensorProto::FLOAT) return b.refused("stash_type other than float is not supported");
  if (x->scalar) return b.refused("a scalar input has no axis to normalize");
  const size_t rank = x->dims.size();
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
  std::vector<int32_t> axes;
  Dims reducedDims = x->dims;
  for (size_t i = axis; i < rank; ++i) {
    axes.push_back(static_cast<int32_t>(i));
    reducedDims[i] = 1;
  }
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  auto mean = [&](uint32_t operand) -> Result<uint32_t> {
    NNRT_ASSIGN_OR_RETURN(uint32_t axesOperand, b.constInts(axes));
    NNRT_ASSIGN_OR_RETURN(uint32_t keep, b.scalarInt(1));
    return apply(b, ANEURALNETWORKS_MEAN, {operand, axesOperand, keep}, f32, reducedDims);
  };
  NNRT_ASSIGN_OR_RETURN(uint32_t average, mean(in));
  NNRT_ASSIGN_OR_RETURN(uint32_t diff, arithmetic(b, ANEURALNETWORKS_SUB, in, average, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t squared, arithmetic(b, ANEURALNETWORKS_MUL, diff, diff, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t variance, mean(squared));
  NNRT_ASSIGN_OR_RETURN(uint32_t epsOperand, b.constFloats({eps}));
  NNRT_ASSIGN_OR_RETURN(uint32_t shifted,
                        arithmetic(b, ANEURALNETWORKS_ADD, variance, epsOperand, f32, reducedDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t stdDev, apply(b, ANEURALNETWORKS_SQRT, {shifted}, f32, reducedDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t one, b.constFloats({1.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t inverse, arithmetic(b, ANEURALNETWORKS_DIV, one, stdDev, f32, reducedDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t normalized, arithmetic(b, ANEURALNETWORKS_MUL, diff, inverse, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(Dims scaledDims, broadcastShape(b, x->dims, scale->dims));
  if (scaledDims != x->dims) return b.refused("Scale does not broadcast to the input's shape");
  NNRT_ASSIGN_OR_RETURN(uint32_t s, b.operand(*scale));
  NNRT_ASSIGN_OR_RETURN(uint32_t y, arithmetic(b, ANEURALNETWORKS_MUL, normalized, s, f32, x->dims));
  if (bias != nullptr) {
    NNRT_ASSIGN_OR_RETURN(Dims biasedDims, broadcastShape(b, x->dims, bias->dims));
    if (biasedDims != x->dims) return b.refused("B does not broadcast to the input's shape");
    NNRT_ASSIGN_OR_RETURN(uint32_t o, b.operand(*bias));
    NNRT_ASSIGN_OR_RETURN(y, arithmetic(b, ANEURALNETWORKS_ADD, y, o, f32, x->dims));
  }
  defineOperand(b, 0, y, f32, x->dims);
  defineOperand(b, 1, average, f32, reducedDims);
  defineOperand(b, 2, inverse, f32, reducedDims);
  return {};
}

// Trilu: SELECT(mask, x, 0) with the constant triangular mask over the last two axes (column - row >= k
// for the upper part, <= k for the lower).
Result<void> mapTrilu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(int64_t upper, b.attrInt("upper", 1));
  int64_t k = 0;
  NNRT_ASSIGN_OR_RETURN(const Value* kInput, b.input(1));
  if (kInput != nullptr) {
    NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(1));
    if (values.size() != 1) return b.refused("k must be one value");
    k = values[0];
  }
  if (x->scalar || x->dims.size() < 2) return b.refused("the input must have rank 2 or more");
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  const size_t rank = x->dims.size();
  const uint32_t rows = x->dims[rank - 2], cols = x->dims[rank - 1];
  std::vector<double> mask(elementCount(x->dims));
  for (size_t i = 0; i < mask.size(); ++i) {
    int64_t column = static_cast<int64_t>(i % cols), row = static_cast<int64_t>(i / cols % rows);
    mask[i] = upper != 0 ? column - row >= k : column - row <= k;
  }
  NNRT_ASSIGN_OR_RETURN(HostTensor maskTensor, filledTensor(b, ANEURALNETWORKS_TENSOR_BOOL8, x->dims, mask));
  NNRT_ASSIGN_OR_RETURN(uint32_t maskOperand,
                        b.addConstant(ANEURALNETWORKS_TENSOR_BOOL8, x->dims, std::move(maskTensor.bytes)));
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeros, constFilled(b, x->type, x->dims, 0.0));
  return b.emit(ANEURALNETWORKS_SELECT, {maskOperand, in, zeros}, x->type, x->dims);
}

// ThresholdedRelu: x > alpha ? x : 0.
Result<void> mapThresholdedRelu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 1.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t threshold, b.constFloats({alpha}));
  NNRT_ASSIGN_OR_RETURN(uint32_t above, apply(b, ANEURALNETWORKS_GREATER, {in, threshold},
                                              ANEURALNETWORKS_TENSOR_BOOL8, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeros, constFilled(b, x->type, x->dims, 0.0));
  return b.emit(ANEURALNETWORKS_SELECT, {above, in, zeros}, x->type, x->dims);
}

// Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
Result<void> mapCelu(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 1.0f));
  Chain c(b, *x);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  uint32_t in = c.current();
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_DIV, alpha));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_EXP));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_SUB, 1.0f));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_MUL, alpha));
  NNRT_RETURN_IF_ERROR(c.withConstant(ANEURALNETWORKS_MINIMUM, 0.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t positive, apply(b, ANEURALNETWORKS_RELU, {in}, x->type, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
  NNRT_RETURN_IF_ERROR(c.add(ANEURALNETWORKS_ADD, {positive, c.current(), fuse}));
  c.finish();
  return {};
}

// IsNaN: x != x.
Result<void> mapIsNaN(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  return b.emit(ANEURALNETWORKS_NOT_EQUAL, {in, in}, ANEURALNETWORKS_TENSOR_BOOL8, x->dims);
}

// IsInf: x == +inf, x == -inf or |x| == +inf, as detect_positive and detect_negative ask.
Result<void> mapIsInf(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(int64_t negative, b.attrInt("detect_negative", 1));
  NNRT_ASSIGN_OR_RETURN(int64_t positive, b.attrInt("detect_positive", 1));
  if (negative == 0 && positive == 0) return b.refused("detecting neither infinity is not supported");
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  const float infinity = std::numeric_limits<float>::infinity();
  if (negative != 0 && positive != 0) {
    NNRT_ASSIGN_OR_RETURN(in, apply(b, ANEURALNETWORKS_ABS, {in}, x->type, x->dims));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t target, b.constFloats({positive != 0 ? infinity : -infinity}));
  return b.emit(ANEURALNETWORKS_EQUAL, {in, target}, ANEURALNETWORKS_TENSOR_BOOL8, x->dims);
}

// Sign: x > 0 ? 1 : (x < 0 ? -1 : x), which keeps zeros (and NaN) as they are.
Result<void> mapSign(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (x->type != ANEURALNETWORKS_TENSOR_FLOAT32 && x->type != ANEURALNETWORKS_TENSOR_INT32)
    return b.refused("only float32 and integer tensors are supported");
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  const int32_t b8 = ANEURALNETWORKS_TENSOR_BOOL8;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t zero, constFilled(b, x->type, {1}, 0.0));
  NNRT_ASSIGN_OR_RETURN(uint32_t negative, apply(b, ANEURALNETWORKS_LESS, {in, zero}, b8, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t minusOnes, constFilled(b, x->type, x->dims, -1.0));
  NNRT_ASSIGN_OR_RETURN(uint32_t notPositive,
                        apply(b, ANEURALNETWORKS_SELECT, {negative, minusOnes, in}, x->type, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t positive, apply(b, ANEURALNETWORKS_GREATER, {in, zero}, b8, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t ones, constFilled(b, x->type, x->dims, 1.0));
  return b.emit(ANEURALNETWORKS_SELECT, {positive, ones, notPositive}, x->type, x->dims);
}

// EyeLike: a constant with ones where column - row == k.
Result<void> mapEyeLike(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(int64_t k, b.attrInt("k", 0));
  int32_t type = x->type;
  if (b.attribute("dtype") != nullptr) {
    NNRT_ASSIGN_OR_RETURN(int64_t dtype, b.attrInt("dtype", 0));
    auto t = nnapiTensorType(static_cast<int32_t>(dtype));
    if (!t.has_value())
      return b.refused("dtype " + onnxTypeName(static_cast<int32_t>(dtype)) + ": " + t.error().message);
    type = *t;
  }
  if (x->scalar || x->dims.size() != 2) return b.refused("the input must be 2-D");
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  std::vector<double> values(elementCount(x->dims));
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<int64_t>(i % x->dims[1]) - static_cast<int64_t>(i / x->dims[1]) == k ? 1.0 : 0.0;
  NNRT_ASSIGN_OR_RETURN(HostTensor t, filledTensor(b, type, x->dims, values));
  defineConstant(b, 0, std::move(t));
  return {};
}

// Range: start, limit and delta are constants, so the sequence is one too.
Result<void> mapRange(GraphBuilder& b) {
  std::vector<double> bounds;
  int32_t type = 0;
  for (int i = 0; i < 3; ++i) {
    NNRT_ASSIGN_OR_RETURN(const Value* v, b.requiredInput(i));
    if (i == 0) type = v->type;
    if (v->type != type) return b.refused("inputs of different types");
    if (elementCount(v->dims) != 1) return b.refused("start, limit and delta must be scalars");
    if (type == ANEURALNETWORKS_TENSOR_INT32) {
      NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> value, b.constantInts(i));
      bounds.push_back(value[0]);
    } else {
      NNRT_ASSIGN_OR_RETURN(std::vector<float> value, b.constantFloats(i));
      bounds.push_back(value[0]);
    }
  }
  const double start = bounds[0], limit = bounds[1], delta = bounds[2];
  if (delta == 0) return b.refused("delta 0");
  double count = std::ceil((limit - start) / delta);
  if (!(count >= 1)) return b.refused("an empty range has no NNAPI shape");
  if (count > 1e7) return b.refused("the range is longer than 10^7");
  std::vector<double> values(static_cast<size_t>(count));
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = start + static_cast<double>(i) * delta;
  NNRT_ASSIGN_OR_RETURN(HostTensor t, filledTensor(b, type, {static_cast<uint32_t>(values.size())}, values));
  defineConstant(b, 0, std::move(t));
  return {};
}

// Hardmax: over [outer, n, inner] (before opset 13: [outer, n * inner] rows), 1 where the index equals the
// ARGMAX (the first maximum, as ONNX), else 0.
Result<void> mapHardmax(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  const size_t rank = x->scalar ? 0 : x->dims.size();
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", b.opset() < 13 ? 1 : -1));
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
  uint32_t outer = 1, n = 1, inner = 1;
  for (size_t i = 0; i < rank; ++i) {
    if (i < axis)
      outer *= x->dims[i];
    else if (i == axis || b.opset() < 13)
      n *= x->dims[i];
    else
      inner *= x->dims[i];
  }
  const Dims cube{outer, n, inner};
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t reshaped, b.reshape(in, x->type, cube));
  NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(1));
  NNRT_ASSIGN_OR_RETURN(uint32_t index, apply(b, ANEURALNETWORKS_ARGMAX, {reshaped, axisOperand},
                                              ANEURALNETWORKS_TENSOR_INT32, {outer, inner}));
  NNRT_ASSIGN_OR_RETURN(uint32_t kept, b.reshape(index, ANEURALNETWORKS_TENSOR_INT32, {outer, 1, inner}));
  std::vector<int32_t> iota(n);
  std::iota(iota.begin(), iota.end(), 0);
  NNRT_ASSIGN_OR_RETURN(uint32_t iotaOperand, b.constInts(iota, {1, n, 1}));
  NNRT_ASSIGN_OR_RETURN(
      uint32_t hit, apply(b, ANEURALNETWORKS_EQUAL, {kept, iotaOperand}, ANEURALNETWORKS_TENSOR_BOOL8, cube));
  NNRT_ASSIGN_OR_RETURN(uint32_t ones, constFilled(b, x->type, cube, 1.0));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeros, constFilled(b, x->type, cube, 0.0));
  NNRT_ASSIGN_OR_RETURN(uint32_t selected,
                        apply(b, ANEURALNETWORKS_SELECT, {hit, ones, zeros}, x->type, cube));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.reshape(selected, x->type, x->dims));
  defineOperand(b, 0, out, x->type, x->dims, x->scalar);
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
  std::vector<int64_t> strides(rank, 1);
  for (size_t d = rank - 1; d-- > 0;)
    strides[d] = strides[d + 1] * x->dims[d + 1];
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
    NNRT_ASSIGN_OR_RETURN(uint32_t zero, b.constInts({0}));
    NNRT_ASSIGN_OR_RETURN(uint32_t negative, apply(b, ANEURALNETWORKS_LESS, {in, zero},
                                                   ANEURALNETWORKS_TENSOR_BOOL8, indices->dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t sizeOperand, b.constInts({size}));
    NNRT_ASSIGN_OR_RETURN(uint32_t wrapped,
                          arithmetic(b, ANEURALNETWORKS_ADD, in, sizeOperand, i32, indices->dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t positive,
                          apply(b, ANEURALNETWORKS_SELECT, {negative, wrapped, in}, i32, indices->dims));
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

// TopK -> TOPK_V2 along the last axis (a TRANSPOSE around it for another); the smallest k are the
// largest of -x. Indices are int32.
Result<void> mapTopK(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (x->type != ANEURALNETWORKS_TENSOR_FLOAT32 && x->type != ANEURALNETWORKS_TENSOR_INT32)
    return b.refused("only float32 and integer tensors are supported");
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> kValues, b.constantInts(1));
  if (kValues.size() != 1) return b.refused("K must be one value");
  NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", -1));
  NNRT_ASSIGN_OR_RETURN(int64_t largest, b.attrInt("largest", 1));
  NNRT_ASSIGN_OR_RETURN(int64_t sorted, b.attrInt("sorted", 1));
  if (sorted == 0) return b.refused("sorted 0 (an unspecified order) is not supported");
  const size_t rank = x->dims.size();
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
  const int32_t k = kValues[0];
  if (k < 1 || static_cast<uint32_t>(k) > x->dims[axis]) return b.refused("K must be in [1, the axis' size]");
  if (largest == 0 && x->type != ANEURALNETWORKS_TENSOR_FLOAT32)
    return b.refused("largest 0 on integers is not supported (negation may overflow)");
  std::vector<int32_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[axis], perm[rank - 1]);
  Dims moved = x->dims;
  std::swap(moved[axis], moved[rank - 1]);
  NNRT_ASSIGN_OR_RETURN(uint32_t current, b.operand(*x));
  if (axis != rank - 1) {
    NNRT_ASSIGN_OR_RETURN(uint32_t permOperand, b.constInts(perm));
    NNRT_ASSIGN_OR_RETURN(current,
                          apply(b, ANEURALNETWORKS_TRANSPOSE, {current, permOperand}, x->type, moved));
  }
  if (largest == 0) {
    NNRT_ASSIGN_OR_RETURN(current, apply(b, ANEURALNETWORKS_NEG, {current}, x->type, moved));
  }
  Dims out = moved;
  out.back() = static_cast<uint32_t>(k);
  NNRT_ASSIGN_OR_RETURN(uint32_t kOperand, b.scalarInt(k));
  NNRT_ASSIGN_OR_RETURN(uint32_t values, b.addTensor(x->type, out));
  NNRT_ASSIGN_OR_RETURN(uint32_t indices, b.addTensor(ANEURALNETWORKS_TENSOR_INT32, out));
  NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_TOPK_V2, {current, kOperand}, {values, indices}));
  if (largest == 0) {
    NNRT_ASSIGN_OR_RETURN(values, apply(b, ANEURALNETWORKS_NEG, {values}, x->type, out));
  }
  Dims final = out;
  std::swap(final[axis], final[rank - 1]);
  if (axis != rank - 1) {
    NNRT_ASSIGN_OR_RETURN(uint32_t p1, b.constInts(perm));
    NNRT_ASSIGN_OR_RETURN(values, apply(b, ANEURALNETWORKS_TRANSPOSE, {values, p1}, x->type, final));
    NNRT_ASSIGN_OR_RETURN(uint32_t p2, b.constInts(perm));
    NNRT_ASSIGN_OR_RETURN(
        indices, apply(b, ANEURALNETWORKS_TRANSPOSE, {indices, p2}, ANEURALNETWORKS_TENSOR_INT32, final));
  }
  defineOperand(b, 0, values, x->type, final);
  defineOperand(b, 1, indices, ANEURALNETWORKS_TENSOR_INT32, final);
  return {};
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

// Trigonometric and hyperbolic functions from NNAPI's SIN and EXP, by their identities:
// cos x = sin(x + pi/2), tan x = sin x / cos x, sinh x = (e^x - e^-x) / 2, cosh x = (e^x + e^-x) / 2.
// Mathematically exact; the float32 rounding of x + pi/2 and of e^x - e^-x near 0 costs a few ulps.
Result<uint32_t> cosine(GraphBuilder& b, const Value& x, uint32_t in) {
  NNRT_ASSIGN_OR_RETURN(uint32_t quarterTurn, b.constFloats({static_cast<float>(M_PI / 2)}));
  NNRT_ASSIGN_OR_RETURN(uint32_t shifted,
                        arithmetic(b, ANEURALNETWORKS_ADD, in, quarterTurn, x.type, x.dims));
  return apply(b, ANEURALNETWORKS_SIN, {shifted}, x.type, x.dims);
}

Result<void> trigonometric(GraphBuilder& b, std::string_view function) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  uint32_t out;
  if (function == "Cos") {
    NNRT_ASSIGN_OR_RETURN(out, cosine(b, *x, in));
  } else if (function == "Tan") {
    NNRT_ASSIGN_OR_RETURN(uint32_t sine, apply(b, ANEURALNETWORKS_SIN, {in}, x->type, x->dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t cos, cosine(b, *x, in));
    NNRT_ASSIGN_OR_RETURN(out, arithmetic(b, ANEURALNETWORKS_DIV, sine, cos, x->type, x->dims));
  } else {
    NNRT_ASSIGN_OR_RETURN(uint32_t up, apply(b, ANEURALNETWORKS_EXP, {in}, x->type, x->dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t negated, apply(b, ANEURALNETWORKS_NEG, {in}, x->type, x->dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t down, apply(b, ANEURALNETWORKS_EXP, {negated}, x->type, x->dims));
    int32_t op = function == "Sinh" ? ANEURALNETWORKS_SUB : ANEURALNETWORKS_ADD;
    NNRT_ASSIGN_OR_RETURN(uint32_t combined, arithmetic(b, op, up, down, x->type, x->dims));
    NNRT_ASSIGN_OR_RETURN(uint32_t half, b.constFloats({0.5f}));
    NNRT_ASSIGN_OR_RETURN(out, arithmetic(b, ANEURALNETWORKS_MUL, combined, half, x->type, x->dims));
  }
  defineOperand(b, 0, out, x->type, x->dims, x->scalar);
  return {};
}

// CumSum along a constant axis: BATCH_MATMUL with a constant 0/1 triangular matrix (exclusive: the
// diagonal left out; reverse: the other triangle), the axis moved last by TRANSPOSE when it is not.
Result<void> mapCumSum(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> axisValue, b.constantInts(1));
  if (axisValue.size() != 1) return b.refused("axis must be one value");
  NNRT_ASSIGN_OR_RETURN(int64_t exclusive, b.attrInt("exclusive", 0));
  NNRT_ASSIGN_OR_RETURN(int64_t reverse, b.attrInt("reverse", 0));
  const size_t rank = x->scalar ? 0 : x->dims.size();
  NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, axisValue[0], rank));
  const uint32_t n = x->dims[axis];
  if (n > 4096) return b.refused("an axis longer than 4096 (the triangular matrix is n x n)");
  uint32_t rows = 1;
  for (size_t i = 0; i < rank; ++i)
    rows *= i == axis ? 1 : x->dims[i];
  // out[r, j] = sum_i x[r, i] * m[i, j], m[i, j] = 1 where element i enters sum j.
  std::vector<float> m(static_cast<size_t>(n) * n, 0.0f);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      bool enters = reverse != 0 ? i >= j : i <= j;
      if (exclusive != 0 && i == j) enters = false;
      m[static_cast<size_t>(i) * n + j] = enters ? 1.0f : 0.0f;
    }
  std::vector<int32_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[axis], perm[rank - 1]);
  Dims moved = x->dims;
  std::swap(moved[axis], moved[rank - 1]);
  NNRT_ASSIGN_OR_RETURN(uint32_t current, b.operand(*x));
  if (axis != rank - 1) {
    NNRT_ASSIGN_OR_RETURN(uint32_t permOperand, b.constInts(perm));
    NNRT_ASSIGN_OR_RETURN(current,
                          apply(b, ANEURALNETWORKS_TRANSPOSE, {current, permOperand}, x->type, moved));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t matrixIn, b.reshape(current, x->type, {rows, n}));
  NNRT_ASSIGN_OR_RETURN(uint32_t triangle, b.constFloats(m, {n, n}));
  NNRT_ASSIGN_OR_RETURN(uint32_t adjX, b.scalarBool(false));
  NNRT_ASSIGN_OR_RETURN(uint32_t adjY, b.scalarBool(false));
  NNRT_ASSIGN_OR_RETURN(uint32_t sums, apply(b, ANEURALNETWORKS_BATCH_MATMUL,
                                             {matrixIn, triangle, adjX, adjY}, x->type, {rows, n}));
  NNRT_ASSIGN_OR_RETURN(current, b.reshape(sums, x->type, moved));
  if (axis != rank - 1) {
    NNRT_ASSIGN_OR_RETURN(uint32_t permOperand, b.constInts(perm));
    NNRT_ASSIGN_OR_RETURN(current,
                          apply(b, ANEURALNETWORKS_TRANSPOSE, {current, permOperand}, x->type, x->dims));
  }
  defineOperand(b, 0, current, x->type, x->dims, x->scalar);
  return {};
}

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
  std::vector<double> scales;
  std::vector<int32_t> sizes;
  NNRT_ASSIGN_OR_RETURN(const Value* sizesInput, b.input(3));
  if (sizesInput != nullptr && elementCount(sizesInput->dims) > 0) {
    NNRT_ASSIGN_OR_RETURN(sizes, b.constantInts(3));
  } else {
    NNRT_ASSIGN_OR_RETURN(std::vector<float> s, b.constantFloats(2));
    scales.assign(s.begin(), s.end());
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

// ConvTranspose (2-D, and 1-D as NC1L; group 1) -> TRANSPOSE_CONV_2D with explicit padding and the NCHW
// flag. Weights [C, M, kH, kW] are reordered to NNAPI's [M, kH, kW, C] at load time (dilations spread
// them with zeros); output_padding, or an output_shape larger than the full result, adds zero rows and
// columns at the end (PAD_V2, the bias added after), as ONNX's definition gives them.
Result<void> mapConvTranspose(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* w, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* bias, b.input(2));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  const bool oneD = x->dims.size() == 3;
  if (x->dims.size() != 4 && !oneD)
    return b.refused("only 1-D and 2-D transposed convolutions are supported");
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  if (w->dims.size() != x->dims.size() || !allKnown(w->dims))
    return b.refused("weights must have the input's rank");
  NNRT_ASSIGN_OR_RETURN(std::vector<float> weights, b.constantFloats(1));
  NNRT_ASSIGN_OR_RETURN(int64_t group, b.attrInt("group", 1));
  if (group != 1) return b.refused("group other than 1 has no NNAPI operation");
  auto pairOf = [&](const char* name, int64_t fallback) -> Result<std::vector<int64_t>> {
    NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> v, b.attrInts(name));
    if (v.empty()) v.assign(oneD ? 1 : 2, fallback);
    if (oneD && v.size() == 1) v.insert(v.begin(), fallback);
    if (v.size() != 2) return b.refused(std::string(name) + " must have one entry per spatial axis");
    return v;
  };
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides, pairOf("strides", 1));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> dilations, pairOf("dilations", 1));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> outputPadding, pairOf("output_padding", 0));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> outputShape, b.attrInts("output_shape"));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> pads, b.attrInts("pads"));
  NNRT_ASSIGN_OR_RETURN(std::string autoPad, b.attrString("auto_pad", "NOTSET"));
  if (oneD && pads.size() == 2) pads = {0, pads[0], 0, pads[1]};
  if (oneD && outputShape.size() == 1) outputShape.insert(outputShape.begin(), 1);
  const Dims in = oneD ? Dims{x->dims[0], x->dims[1], 1, x->dims[2]} : x->dims;
  const uint32_t C = w->dims[0], M = w->dims[1], kH = oneD ? 1 : w->dims[2], kW = w->dims.back();
  if (in[1] != C) return b.refused("the weights do not match the input's channels");
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, b.attrInts("kernel_shape"));
  if (!kernel.empty() && (kernel.back() != kW || (!oneD && kernel[0] != kH)))
    return b.refused("kernel_shape differs from the weights' shape");
  for (int64_t v : {strides[0], strides[1], dilations[0], dilations[1]})
    if (v < 1) return b.refused("strides and dilations must be positive");
  // Per axis: the full size, the padding at each end (negative at the end: zeros added there).
  int64_t begin[2], end[2], outSize[2];
  const int64_t extent[2] = {(static_cast<int64_t>(kH) - 1) * dilations[0] + 1,
                             (static_cast<int64_t>(kW) - 1) * dilations[1] + 1};
  for (int i = 0; i < 2; ++i) {
    const int64_t full = strides[i] * (in[2 + i] - 1) + outputPadding[i] + extent[i];
    if (outputPadding[i] < 0 || outputPadding[i] >= std::max(strides[i], dilations[i]))
      return b.refused("output_padding must be below the stride or the dilation");
    if (!outputShape.empty() || (autoPad != "NOTSET" && autoPad != "VALID")) {
      int64_t target = outputShape.empty()       ? in[2 + i] * strides[i]
                       : outputShape.size() == 2 ? outputShape[i]
                                                 : -1;
      if (target < 1) return b.refused("output_shape must have one positive entry per spatial axis");
      int64_t total = full - target;
      if (total < 0) {
        begin[i] = 0;
        end[i] = total;
      } else if (autoPad == "SAME_LOWER") {
        end[i] = total / 2;
        begin[i] = total - end[i];
      } else {
        begin[i] = total / 2;
        end[i] = total - begin[i];
      }
    } else if (autoPad == "VALID" || pads.empty()) {
      begin[i] = end[i] = 0;
    } else {
      if (pads.size() != 4) return b.refused("pads must have one pair per spatial axis");
      begin[i] = pads[i];
      end[i] = pads[2 + i];
      if (begin[i] < 0 || end[i] < 0) return b.refused("negative pads");
    }
    // output_padding is a negative padding at the end.
    end[i] -= outputPadding[i];
    outSize[i] = full - outputPadding[i] - begin[i] - end[i];
    if (outSize[i] < 1) return b.refused("the output would be empty");
  }
  // NNAPI filter [M, eH, eW, C], the kernel spread by the dilations.
  const uint32_t eH = static_cast<uint32_t>(extent[0]), eW = static_cast<uint32_t>(extent[1]);
  std::vector<float> filter(static_cast<size_t>(M) * eH * eW * C, 0.0f);
  for (uint32_t c = 0; c < C; ++c)
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t h = 0; h < kH; ++h)
        for (uint32_t ww = 0; ww < kW; ++ww) {
          size_t fh = h * dilations[0], fw = ww * dilations[1];
          filter[((m * eH + fh) * eW + fw) * C + c] = weights[((c * M + m) * kH + h) * kW + ww];
        }
  NNRT_ASSIGN_OR_RETURN(uint32_t filterOperand, b.constFloats(filter, {M, eH, eW, C}));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeroBias, b.constFloats(std::vector<float>(M, 0.0f)));
  NNRT_ASSIGN_OR_RETURN(uint32_t input, b.operand(*x));
  if (oneD) {
    NNRT_ASSIGN_OR_RETURN(input, b.reshape(input, x->type, in));
  }
  const bool extended = end[0] < 0 || end[1] < 0;
  const int32_t cropBottom = static_cast<int32_t>(std::max<int64_t>(end[0], 0));
  const int32_t cropRight = static_cast<int32_t>(std::max<int64_t>(end[1], 0));
  const Dims convOut{in[0], M, static_cast<uint32_t>(outSize[0] + std::min<int64_t>(end[0], 0)),
                     static_cast<uint32_t>(outSize[1] + std::min<int64_t>(end[1], 0))};
  uint32_t biasOperand = zeroBias;
  if (bias != nullptr) {
    if (bias->dims != Dims{M}) return b.refused("bias must have shape [M]");
    if (!extended) {
      NNRT_ASSIGN_OR_RETURN(biasOperand, b.operand(*bias));
    }
  }
  std::vector<uint32_t> inputs{input, filterOperand, biasOperand};
  for (int32_t v : {static_cast<int32_t>(begin[1]), cropRight, static_cast<int32_t>(begin[0]), cropBottom,
                    static_cast<int32_t>(strides[1]), static_cast<int32_t>(strides[0]),
                    static_cast<int32_t>(ANEURALNETWORKS_FUSED_NONE)}) {
    NNRT_ASSIGN_OR_RETURN(uint32_t s, b.scalarInt(v));
    inputs.push_back(s);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t nchw, b.scalarBool(true));
  inputs.push_back(nchw);
  NNRT_ASSIGN_OR_RETURN(uint32_t current,
                        apply(b, ANEURALNETWORKS_TRANSPOSE_CONV_2D, inputs, x->type, convOut));
  const Dims out{in[0], M, static_cast<uint32_t>(outSize[0]), static_cast<uint32_t>(outSize[1])};
  if (extended) {
    NNRT_ASSIGN_OR_RETURN(uint32_t paddings,
                          b.constInts({0, 0, 0, 0, 0, static_cast<int32_t>(out[2] - convOut[2]), 0,
                                       static_cast<int32_t>(out[3] - convOut[3])},
                                      {4, 2}));
    NNRT_ASSIGN_OR_RETURN(uint32_t zero, b.scalarFloat(0.0f));
    NNRT_ASSIGN_OR_RETURN(current, apply(b, ANEURALNETWORKS_PAD_V2, {current, paddings, zero}, x->type, out));
    if (bias != nullptr) {
      NNRT_ASSIGN_OR_RETURN(uint32_t o, b.operand(*bias));
      NNRT_ASSIGN_OR_RETURN(uint32_t perChannel, b.reshape(o, bias->type, {M, 1, 1}));
      NNRT_ASSIGN_OR_RETURN(current, arithmetic(b, ANEURALNETWORKS_ADD, current, perChannel, x->type, out));
    }
  }
  if (oneD) {
    const Dims out1{out[0], M, out[3]};
    NNRT_ASSIGN_OR_RETURN(current, b.reshape(current, x->type, out1));
    defineOperand(b, 0, current, x->type, out1);
    return {};
  }
  defineOperand(b, 0, current, x->type, out);
  return {};
}

// Mod on integers: fmod 0 (the divisor's sign) is a - floor(a / b) * b with NNAPI's flooring integer DIV;
// fmod 1 (C's fmod, the dividend's sign) takes b back off a nonzero remainder whose sign differs from a's.
// Float fmod is refused: a - trunc(a / b) * b rounds where C's fmod is exact.
Result<void> mapMod(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* y, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(int64_t fmod, b.attrInt("fmod", 0));
  if (x->type != ANEURALNETWORKS_TENSOR_INT32 || y->type != x->type)
    return b.refused(
        "only int32 and int64 tensors are supported (float fmod rounds, 8-bit arithmetic saturates)");
  NNRT_ASSIGN_OR_RETURN(Dims dims, broadcastShape(b, x->dims, y->dims));
  if (fmod != 0 && !allKnown(dims)) return b.refused("input shape unknown");
  const int32_t i32 = ANEURALNETWORKS_TENSOR_INT32, b8 = ANEURALNETWORKS_TENSOR_BOOL8;
  NNRT_ASSIGN_OR_RETURN(uint32_t a, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t d, b.operand(*y));
  NNRT_ASSIGN_OR_RETURN(uint32_t quotient, arithmetic(b, ANEURALNETWORKS_DIV, a, d, i32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t product, arithmetic(b, ANEURALNETWORKS_MUL, quotient, d, i32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t remainder, arithmetic(b, ANEURALNETWORKS_SUB, a, product, i32, dims));
  if (fmod == 0) {
    defineOperand(b, 0, remainder, i32, dims);
    return {};
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t zero, b.constInts({0}));
  NNRT_ASSIGN_OR_RETURN(uint32_t nonzero, apply(b, ANEURALNETWORKS_NOT_EQUAL, {remainder, zero}, b8, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t remainderNegative,
                        apply(b, ANEURALNETWORKS_LESS, {remainder, zero}, b8, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t dividendNegative, apply(b, ANEURALNETWORKS_LESS, {a, zero}, b8, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t signsDiffer,
                        apply(b, ANEURALNETWORKS_NOT_EQUAL, {remainderNegative, dividendNegative}, b8, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t adjust,
                        apply(b, ANEURALNETWORKS_LOGICAL_AND, {nonzero, signsDiffer}, b8, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t adjusted, arithmetic(b, ANEURALNETWORKS_SUB, remainder, d, i32, dims));
  return b.emit(ANEURALNETWORKS_SELECT, {adjust, adjusted, remainder}, i32, dims);
}

// Shrink: x < -lambd ? x + bias : (x > lambd ? x - bias : 0).
Result<void> mapShrink(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(float lambd, b.attrFloat("lambd", 0.5f));
  NNRT_ASSIGN_OR_RETURN(float bias, b.attrFloat("bias", 0.0f));
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32, b8 = ANEURALNETWORKS_TENSOR_BOOL8;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t upper, b.constFloats({lambd}));
  NNRT_ASSIGN_OR_RETURN(uint32_t lower, b.constFloats({-lambd}));
  NNRT_ASSIGN_OR_RETURN(uint32_t biasOperand, b.constFloats({bias}));
  NNRT_ASSIGN_OR_RETURN(uint32_t above, apply(b, ANEURALNETWORKS_GREATER, {in, upper}, b8, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t below, apply(b, ANEURALNETWORKS_LESS, {in, lower}, b8, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t lowered, arithmetic(b, ANEURALNETWORKS_SUB, in, biasOperand, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t raised, arithmetic(b, ANEURALNETWORKS_ADD, in, biasOperand, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeros, constFilled(b, f32, x->dims, 0.0));
  NNRT_ASSIGN_OR_RETURN(uint32_t inner,
                        apply(b, ANEURALNETWORKS_SELECT, {above, lowered, zeros}, f32, x->dims));
  return b.emit(ANEURALNETWORKS_SELECT, {below, raised, inner}, f32, x->dims);
}

// MeanVarianceNormalization, ONNX's function body: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9).
Result<void> mapMeanVarianceNorm(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> axes, b.attrInts("axes"));
  if (b.attribute("axes") == nullptr) axes = {0, 2, 3};
  const size_t rank = x->dims.size();
  Dims reducedDims = x->dims;
  std::vector<int32_t> list;
  for (int64_t a : axes) {
    NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, rank));
    list.push_back(static_cast<int32_t>(axis));
    reducedDims[axis] = 1;
  }
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  auto mean = [&](uint32_t operand) -> Result<uint32_t> {
    NNRT_ASSIGN_OR_RETURN(uint32_t axesOperand, b.constInts(list));
    NNRT_ASSIGN_OR_RETURN(uint32_t keep, b.scalarInt(1));
    return apply(b, ANEURALNETWORKS_MEAN, {operand, axesOperand, keep}, f32, reducedDims);
  };
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t average, mean(in));
  NNRT_ASSIGN_OR_RETURN(uint32_t averageSquared,
                        arithmetic(b, ANEURALNETWORKS_MUL, average, average, f32, reducedDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t squared, arithmetic(b, ANEURALNETWORKS_MUL, in, in, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t averageOfSquares, mean(squared));
  NNRT_ASSIGN_OR_RETURN(uint32_t variance, arithmetic(b, ANEURALNETWORKS_SUB, averageOfSquares,
                                                      averageSquared, f32, reducedDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t stdDev, apply(b, ANEURALNETWORKS_SQRT, {variance}, f32, reducedDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t epsilon, b.constFloats({1e-9f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t shifted,
                        arithmetic(b, ANEURALNETWORKS_ADD, stdDev, epsilon, f32, reducedDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t centered, arithmetic(b, ANEURALNETWORKS_SUB, in, average, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, arithmetic(b, ANEURALNETWORKS_DIV, centered, shifted, f32, x->dims));
  defineOperand(b, 0, out, f32, x->dims);
  return {};
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
  const int32_t i32 = ANEURALNETWORKS_TENSOR_INT32, b8 = ANEURALNETWORKS_TENSOR_BOOL8;
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
    NNRT_ASSIGN_OR_RETURN(uint32_t zero, b.constInts({0}));
    NNRT_ASSIGN_OR_RETURN(uint32_t negative, apply(b, ANEURALNETWORKS_LESS, {idx, zero}, b8, component));
    NNRT_ASSIGN_OR_RETURN(uint32_t axisSize, b.constInts({static_cast<int32_t>(x->dims[nb + j])}));
    NNRT_ASSIGN_OR_RETURN(uint32_t wrapped,
                          arithmetic(b, ANEURALNETWORKS_ADD, idx, axisSize, i32, component));
    NNRT_ASSIGN_OR_RETURN(uint32_t positive,
                          apply(b, ANEURALNETWORKS_SELECT, {negative, wrapped, idx}, i32, component));
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

// RNN (one layer) -> UNIDIRECTIONAL_SEQUENCE_RNN per direction: W [dirs, hidden, input] and
// R [dirs, hidden, hidden] are NNAPI's weights and recurrent weights, the bias Wb + Rb (constants, summed
// at load time), the initial state initial_h (zeros when absent), layout 0/1 NNAPI's time-major flag.
// The reverse direction runs on X REVERSEd along time, its Y REVERSEd back (its Y_h is the state after
// the first step of the sequence, as ONNX's). Y and Y_h are the directions' outputs with the direction
// axis inserted (concatenated along it when bidirectional).
Result<void> mapRnn(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (x->dims.size() != 3 || !allKnown(x->dims)) return b.refused("X must be 3-D with a known shape");
  NNRT_ASSIGN_OR_RETURN(std::string direction, b.attrString("direction", "forward"));
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    return b.refused("direction '" + direction + "' is not supported");
  const uint32_t dirs = direction == "bidirectional" ? 2 : 1;
  for (const char* unsupported : {"activation_alpha", "activation_beta", "clip"}) {
    if (b.attribute(unsupported) != nullptr)
      return b.refused(std::string("attribute '") + unsupported + "' is not supported");
  }
  std::vector<int32_t> activations(dirs, 4);  // NNAPI's recurrent activation codes: Tanh
  if (const auto* a = b.attribute("activations")) {
    if (a->strings_size() != static_cast<int>(dirs))
      return b.refused("activations must name one function per direction");
    for (uint32_t d = 0; d < dirs; ++d) {
      const std::string& f = a->strings(static_cast<int>(d));
      activations[d] = f == "Tanh" ? 4 : f == "Relu" ? 1 : f == "Sigmoid" ? 6 : -1;
      if (activations[d] < 0) return b.refused("activation '" + f + "' is not supported");
    }
  }
  NNRT_ASSIGN_OR_RETURN(int64_t layout, b.attrInt("layout", 0));
  NNRT_ASSIGN_OR_RETURN(int64_t hiddenSize, b.attrInt("hidden_size", 0));
  const uint32_t seq = layout == 0 ? x->dims[0] : x->dims[1], batch = layout == 0 ? x->dims[1] : x->dims[0];
  const uint32_t inputSize = x->dims[2], hidden = static_cast<uint32_t>(hiddenSize);
  NNRT_ASSIGN_OR_RETURN(std::vector<float> w, b.constantFloats(1));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> r, b.constantFloats(2));
  if (hidden < 1 || w.size() != static_cast<size_t>(dirs) * hidden * inputSize ||
      r.size() != static_cast<size_t>(dirs) * hidden * hidden)
    return b.refused("W and R do not match hidden_size, the directions and the input");
  std::vector<float> bias(static_cast<size_t>(dirs) * hidden, 0.0f);
  NNRT_ASSIGN_OR_RETURN(const Value* bInput, b.input(3));
  if (bInput != nullptr) {
    NNRT_ASSIGN_OR_RETURN(std::vector<float> values, b.constantFloats(3));
    if (values.size() != 2 * static_cast<size_t>(dirs) * hidden)
      return b.refused("B must have 2 * hidden_size values per direction");
    for (uint32_t d = 0; d < dirs; ++d) {
      for (uint32_t i = 0; i < hidden; ++i)
        bias[d * hidden + i] = values[2 * d * hidden + i] + values[(2 * d + 1) * hidden + i];
    }
  }
  NNRT_ASSIGN_OR_RETURN(const Value* lengths, b.input(4));
  if (lengths != nullptr) {
    NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(4));
    for (int32_t v : values)
      if (v != static_cast<int32_t>(seq)) return b.refused("sequence_lens shorter than the sequence");
  }
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(const Value* initial, b.input(5));
  uint32_t initialOperand = kNoOperand;
  if (initial != nullptr) {
    if (elementCount(initial->dims) != static_cast<size_t>(dirs) * batch * hidden)
      return b.refused("initial_h has the wrong size");
    NNRT_ASSIGN_OR_RETURN(uint32_t h, b.operand(*initial));
    // [dirs, batch, hidden] (layout 0) or [batch, dirs, hidden] (layout 1).
    NNRT_ASSIGN_OR_RETURN(
        initialOperand,
        b.reshape(h, f32, layout == 0 ? Dims{dirs, batch, hidden} : Dims{batch, dirs, hidden}));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t timeMajor, b.scalarInt(layout == 0 ? 1 : 0));
  NNRT_ASSIGN_OR_RETURN(uint32_t timeAxis, b.constInts({layout == 0 ? 0 : 1}));
  const Dims sequenceDims = layout == 0 ? Dims{seq, batch, hidden} : Dims{batch, seq, hidden};
  const Dims yDims = layout == 0 ? Dims{seq, 1, batch, hidden} : Dims{batch, seq, 1, hidden};
  const Dims yhDims = layout == 0 ? Dims{1, batch, hidden} : Dims{batch, 1, hidden};
  std::vector<uint32_t> ys, yhs;
  for (uint32_t d = 0; d < dirs; ++d) {
    const bool reverse = direction == "reverse" || d == 1;
    uint32_t state;
    if (initialOperand != kNoOperand) {
      NNRT_ASSIGN_OR_RETURN(uint32_t begin,
                            b.constInts(layout == 0 ? std::vector<int32_t>{static_cast<int32_t>(d), 0, 0}
                                                    : std::vector<int32_t>{0, static_cast<int32_t>(d), 0}));
      NNRT_ASSIGN_OR_RETURN(uint32_t size, b.constInts(layout == 0 ? std::vector<int32_t>{1, -1, -1}
                                                                   : std::vector<int32_t>{-1, 1, -1}));
      NNRT_ASSIGN_OR_RETURN(uint32_t sliced,
                            apply(b, ANEURALNETWORKS_SLICE, {initialOperand, begin, size}, f32,
                                  layout == 0 ? Dims{1, batch, hidden} : Dims{batch, 1, hidden}));
      NNRT_ASSIGN_OR_RETURN(state, b.reshape(sliced, f32, {batch, hidden}));
    } else {
      NNRT_ASSIGN_OR_RETURN(state, constFilled(b, f32, {batch, hidden}, 0.0));
    }
    uint32_t sequence = in;
    if (reverse) {
      NNRT_ASSIGN_OR_RETURN(sequence, apply(b, ANEURALNETWORKS_REVERSE, {in, timeAxis}, f32, x->dims));
    }
    const size_t wSize = static_cast<size_t>(hidden) * inputSize,
                 rSize = static_cast<size_t>(hidden) * hidden;
    NNRT_ASSIGN_OR_RETURN(uint32_t weights, b.constFloats(std::vector<float>(w.begin() + d * wSize,
                                                                             w.begin() + (d + 1) * wSize),
                                                          {hidden, inputSize}));
    NNRT_ASSIGN_OR_RETURN(uint32_t recurrent, b.constFloats(std::vector<float>(r.begin() + d * rSize,
                                                                               r.begin() + (d + 1) * rSize),
                                                            {hidden, hidden}));
    NNRT_ASSIGN_OR_RETURN(
        uint32_t biasOperand,
        b.constFloats(std::vector<float>(bias.begin() + d * hidden, bias.begin() + (d + 1) * hidden)));
    NNRT_ASSIGN_OR_RETURN(uint32_t activationOperand, b.scalarInt(activations[d]));
    NNRT_ASSIGN_OR_RETURN(uint32_t y, b.addTensor(f32, sequenceDims));
    NNRT_ASSIGN_OR_RETURN(uint32_t yh, b.addTensor(f32, {batch, hidden}));
    NNRT_RETURN_IF_ERROR(b.addOperation(
        ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN,
        {sequence, weights, recurrent, biasOperand, state, activationOperand, timeMajor}, {y, yh}));
    if (reverse) {
      NNRT_ASSIGN_OR_RETURN(y, apply(b, ANEURALNETWORKS_REVERSE, {y, timeAxis}, f32, sequenceDims));
    }
    NNRT_ASSIGN_OR_RETURN(y, b.reshape(y, f32, yDims));
    NNRT_ASSIGN_OR_RETURN(yh, b.reshape(yh, f32, yhDims));
    ys.push_back(y);
    yhs.push_back(yh);
  }
  // The direction axis: 1 of Y and 0 of Y_h (layout 0), 2 and 1 (layout 1).
  auto joined = [&](const std::vector<uint32_t>& parts, Dims dims, int32_t axis) -> Result<uint32_t> {
    if (parts.size() == 1) return parts[0];
    dims[axis] = dirs;
    NNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, b.scalarInt(axis));
    return apply(b, ANEURALNETWORKS_CONCATENATION, {parts[0], parts[1], axisOperand}, f32, dims);
  };
  Dims yOut = yDims, yhOut = yhDims;
  yOut[layout == 0 ? 1 : 2] = dirs;
  yhOut[layout == 0 ? 0 : 1] = dirs;
  if (b.node()->output_size() > 0 && !b.node()->output(0).empty()) {
    NNRT_ASSIGN_OR_RETURN(uint32_t out, joined(ys, yDims, layout == 0 ? 1 : 2));
    defineOperand(b, 0, out, f32, yOut);
  }
  if (b.node()->output_size() > 1 && !b.node()->output(1).empty()) {
    NNRT_ASSIGN_OR_RETURN(uint32_t out, joined(yhs, yhDims, layout == 0 ? 0 : 1));
    defineOperand(b, 1, out, f32, yhOut);
  }
  return {};
}

// LSTM (forward, one layer, default activations) -> UNIDIRECTIONAL_SEQUENCE_LSTM: ONNX's gate blocks
// (i, o, f, c in W [1, 4H, I], R [1, 4H, H], B [1, 8H] as Wb then Rb, P [1, 3H] as i, o, f) are split
// into NNAPI's per-gate weights at load time, the biases summed; initial_h and initial_c (zeros when
// absent) are the states in; Y, Y_h and Y_c are its three outputs with the direction axis inserted.
Result<void> mapLstm(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (x->dims.size() != 3 || !allKnown(x->dims)) return b.refused("X must be 3-D with a known shape");
  NNRT_ASSIGN_OR_RETURN(std::string direction, b.attrString("direction", "forward"));
  if (direction != "forward") return b.refused("direction '" + direction + "' is not supported");
  for (const char* unsupported : {"activation_alpha", "activation_beta", "clip"}) {
    if (b.attribute(unsupported) != nullptr)
      return b.refused(std::string("attribute '") + unsupported + "' is not supported");
  }
  if (const auto* a = b.attribute("activations")) {
    if (a->strings_size() != 3 || a->strings(0) != "Sigmoid" || a->strings(1) != "Tanh" ||
        a->strings(2) != "Tanh")
      return b.refused("activations other than Sigmoid, Tanh, Tanh are not supported");
  }
  NNRT_ASSIGN_OR_RETURN(int64_t coupled, b.attrInt("input_forget", 0));
  if (coupled != 0) return b.refused("input_forget 1 is not supported");
  NNRT_ASSIGN_OR_RETURN(int64_t layout, b.attrInt("layout", 0));
  NNRT_ASSIGN_OR_RETURN(int64_t hiddenSize, b.attrInt("hidden_size", 0));
  const uint32_t seq = layout == 0 ? x->dims[0] : x->dims[1], batch = layout == 0 ? x->dims[1] : x->dims[0];
  const uint32_t inputSize = x->dims[2], H = static_cast<uint32_t>(hiddenSize);
  NNRT_ASSIGN_OR_RETURN(std::vector<float> w, b.constantFloats(1));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> r, b.constantFloats(2));
  if (H < 1 || w.size() != size_t{4} * H * inputSize || r.size() != size_t{4} * H * H)
    return b.refused("W and R do not match hidden_size and the input");
  std::vector<float> bias(size_t{4} * H, 0.0f);
  NNRT_ASSIGN_OR_RETURN(const Value* bInput, b.input(3));
  if (bInput != nullptr) {
    NNRT_ASSIGN_OR_RETURN(std::vector<float> values, b.constantFloats(3));
    if (values.size() != size_t{8} * H) return b.refused("B must have 8 * hidden_size values");
    for (size_t i = 0; i < bias.size(); ++i)
      bias[i] = values[i] + values[bias.size() + i];
  }
  NNRT_ASSIGN_OR_RETURN(const Value* lengths, b.input(4));
  if (lengths != nullptr) {
    NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, b.constantInts(4));
    for (int32_t v : values)
      if (v != static_cast<int32_t>(seq)) return b.refused("sequence_lens shorter than the sequence");
  }
  std::vector<float> peepholes;
  NNRT_ASSIGN_OR_RETURN(const Value* pInput, b.input(7));
  if (pInput != nullptr) {
    NNRT_ASSIGN_OR_RETURN(peepholes, b.constantFloats(7));
    if (peepholes.size() != size_t{3} * H) return b.refused("P must have 3 * hidden_size values");
  }
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  // ONNX's gate blocks in order i, o, f, c; NNAPI wants i, f, c, o.
  auto block = [&](const std::vector<float>& all, int gate, size_t size) {
    return std::vector<float>(all.begin() + gate * size, all.begin() + (gate + 1) * size);
  };
  constexpr int kOnnxGate[4] = {0, 2, 3, 1};  // NNAPI's i, f, c, o in ONNX's order
  std::vector<uint32_t> inputs;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  inputs.push_back(in);
  for (int g : kOnnxGate) {
    NNRT_ASSIGN_OR_RETURN(uint32_t o, b.constFloats(block(w, g, size_t{H} * inputSize), {H, inputSize}));
    inputs.push_back(o);
  }
  for (int g : kOnnxGate) {
    NNRT_ASSIGN_OR_RETURN(uint32_t o, b.constFloats(block(r, g, size_t{H} * H), {H, H}));
    inputs.push_back(o);
  }
  for (int g : {0, 2, 1}) {  // cell to input, forget, output: ONNX's P is i, o, f
    uint32_t o;
    if (peepholes.empty()) {
      NNRT_ASSIGN_OR_RETURN(o, b.addConstant(f32, {H}, {}));  // omitted
    } else {
      NNRT_ASSIGN_OR_RETURN(o, b.constFloats(block(peepholes, g, H), {H}));
    }
    inputs.push_back(o);
  }
  for (int g : kOnnxGate) {
    NNRT_ASSIGN_OR_RETURN(uint32_t o, b.constFloats(block(bias, g, H), {H}));
    inputs.push_back(o);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t projection, b.addConstant(f32, {H, H}, {}));   // omitted
  NNRT_ASSIGN_OR_RETURN(uint32_t projectionBias, b.addConstant(f32, {H}, {}));  // omitted
  inputs.push_back(projection);
  inputs.push_back(projectionBias);
  for (int i : {5, 6}) {  // initial_h, initial_c
    NNRT_ASSIGN_OR_RETURN(const Value* initial, b.input(i));
    uint32_t state;
    if (initial != nullptr) {
      if (elementCount(initial->dims) != size_t{batch} * H)
        return b.refused("initial states have the wrong size");
      NNRT_ASSIGN_OR_RETURN(uint32_t s, b.operand(*initial));
      NNRT_ASSIGN_OR_RETURN(state, b.reshape(s, f32, {batch, H}));
    } else {
      NNRT_ASSIGN_OR_RETURN(state, constFilled(b, f32, {batch, H}, 0.0));
    }
    inputs.push_back(state);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t activation, b.scalarInt(4));  // tanh
  NNRT_ASSIGN_OR_RETURN(uint32_t cellClip, b.scalarFloat(0.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t projClip, b.scalarFloat(0.0f));
  NNRT_ASSIGN_OR_RETURN(uint32_t timeMajor, b.scalarBool(layout == 0));
  for (uint32_t o : {activation, cellClip, projClip, timeMajor})
    inputs.push_back(o);
  for (int i = 0; i < 4; ++i) {                                      // no layer normalization weights
    NNRT_ASSIGN_OR_RETURN(uint32_t o, b.addConstant(f32, {H}, {}));  // omitted
    inputs.push_back(o);
  }
  const Dims sequenceDims = layout == 0 ? Dims{seq, batch, H} : Dims{batch, seq, H};
  NNRT_ASSIGN_OR_RETURN(uint32_t y, b.addTensor(f32, sequenceDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t yh, b.addTensor(f32, {batch, H}));
  NNRT_ASSIGN_OR_RETURN(uint32_t yc, b.addTensor(f32, {batch, H}));
  NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, inputs, {y, yh, yc}));
  const Dims yDims = layout == 0 ? Dims{seq, 1, batch, H} : Dims{batch, seq, 1, H};
  const Dims stateDims = layout == 0 ? Dims{1, batch, H} : Dims{batch, 1, H};
  const std::pair<uint32_t, Dims> outputs[3] = {{y, yDims}, {yh, stateDims}, {yc, stateDims}};
  for (int i = 0; i < 3; ++i) {
    if (b.node()->output_size() <= i || b.node()->output(i).empty()) continue;
    NNRT_ASSIGN_OR_RETURN(uint32_t reshaped, b.reshape(outputs[i].first, f32, outputs[i].second));
    defineOperand(b, i, reshaped, f32, outputs[i].second);
  }
  return {};
}

// DequantizeLinear: (x - zero_point) * scale in float32, as ONNX computes it: DEQUANTIZE of the 8-bit
// integers (scale 1, zero point 0: their values exactly; CAST for int32), then SUB and MUL with the
// constant zero point and scale (per tensor, or per slice along `axis`).
Result<void> mapDequantizeLinear(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!quantized(x->type) && x->type != ANEURALNETWORKS_TENSOR_INT32)
    return b.refused("only 8-bit and 32-bit integer inputs are supported");
  NNRT_ASSIGN_OR_RETURN(std::vector<float> scale, b.constantFloats(1));
  std::vector<double> zeroPoint(scale.size(), 0.0);
  NNRT_ASSIGN_OR_RETURN(const Value* zp, b.input(2));
  if (zp != nullptr) {
    if (!zp->constant.has_value())
      return b.refused("input 2 ('" + b.node()->input(2) + "') must be a constant");
    if (zp->type != x->type || elementCount(zp->dims) != scale.size())
      return b.refused("x_zero_point must match x's type and x_scale's size");
    for (size_t i = 0; i < scale.size(); ++i) {
      const uint8_t* p = zp->constant->bytes.data() + i * elementSize(zp->type);
      int32_t v;
      if (zp->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM)
        v = *p;
      else if (zp->type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED)
        v = static_cast<int8_t>(*p);
      else
        std::memcpy(&v, p, 4);
      zeroPoint[i] = v;
    }
  }
  Dims parameterDims{1};
  if (scale.size() != 1) {
    NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", 1));
    NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, x->dims.size()));
    if (x->dims[axis] != scale.size()) return b.refused("x_scale does not match the axis");
    parameterDims.assign(x->dims.size() - axis, 1);
    parameterDims[0] = static_cast<uint32_t>(scale.size());
  }
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(
      uint32_t values,
      apply(b, quantized(x->type) ? ANEURALNETWORKS_DEQUANTIZE : ANEURALNETWORKS_CAST, {in}, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(HostTensor zeroTensor, filledTensor(b, f32, parameterDims, zeroPoint));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeroOperand, b.addConstant(f32, parameterDims, std::move(zeroTensor.bytes)));
  NNRT_ASSIGN_OR_RETURN(uint32_t centered,
                        arithmetic(b, ANEURALNETWORKS_SUB, values, zeroOperand, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t scaleOperand, b.constFloats(scale, parameterDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t out,
                        arithmetic(b, ANEURALNETWORKS_MUL, centered, scaleOperand, f32, x->dims));
  defineOperand(b, 0, out, f32, x->dims, x->scalar);
  return {};
}

// Round half to even (ONNX's Round, and QuantizeLinear's rounding) of float32 `in`, exact: with
// f = FLOOR(v) and d = v - f (exact below 2^23, where every float is whole anyway: such v are kept),
// r = f + (d > 0.5) + (d == 0.5 and f odd), f odd being f - 2 FLOOR(f / 2) == 1.
Result<uint32_t> roundHalfToEven(GraphBuilder& b, uint32_t in, const Dims& dims) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32, b8 = ANEURALNETWORKS_TENSOR_BOOL8;
  NNRT_ASSIGN_OR_RETURN(uint32_t floor, apply(b, ANEURALNETWORKS_FLOOR, {in}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t fraction, arithmetic(b, ANEURALNETWORKS_SUB, in, floor, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t half, b.constFloats({0.5f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t above, apply(b, ANEURALNETWORKS_GREATER, {fraction, half}, b8, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t tie, apply(b, ANEURALNETWORKS_EQUAL, {fraction, half}, b8, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t halved, arithmetic(b, ANEURALNETWORKS_MUL, floor, half, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t halvedFloor, apply(b, ANEURALNETWORKS_FLOOR, {halved}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t evenPart,
                        arithmetic(b, ANEURALNETWORKS_ADD, halvedFloor, halvedFloor, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t parity, arithmetic(b, ANEURALNETWORKS_SUB, floor, evenPart, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t one, b.constFloats({1.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t odd, apply(b, ANEURALNETWORKS_EQUAL, {parity, one}, b8, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t oddTie, apply(b, ANEURALNETWORKS_LOGICAL_AND, {tie, odd}, b8, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t up, apply(b, ANEURALNETWORKS_LOGICAL_OR, {above, oddTie}, b8, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t ceil, arithmetic(b, ANEURALNETWORKS_ADD, floor, one, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t rounded, apply(b, ANEURALNETWORKS_SELECT, {up, ceil, floor}, f32, dims));
  // Floats of 2^23 and more are whole (and FLOOR + 1 could round): those stay as they are.
  NNRT_ASSIGN_OR_RETURN(uint32_t magnitude, apply(b, ANEURALNETWORKS_ABS, {in}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t limit, b.constFloats({8388608.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t whole,
                        apply(b, ANEURALNETWORKS_GREATER_EQUAL, {magnitude, limit}, b8, dims));
  return apply(b, ANEURALNETWORKS_SELECT, {whole, in, rounded}, f32, dims);
}

Result<void> mapRound(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, roundHalfToEven(b, in, x->dims));
  defineOperand(b, 0, out, x->type, x->dims, x->scalar);
  return {};
}

// QuantizeLinear to uint8 or int8, as ONNX computes it: saturate(round_half_even(x / scale) + zero_point)
// in float32 (DIV, the rounding above, ADD, MAXIMUM, MINIMUM), then QUANTIZE to the loader's 8-bit
// type of scale 1, which takes the whole values as they are.
Result<void> mapQuantizeLinear(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(std::vector<float> scale, b.constantFloats(1));
  NNRT_ASSIGN_OR_RETURN(const Value* zp, b.input(2));
  int32_t outType = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  std::vector<double> zeroPoint(scale.size(), 0.0);
  if (zp != nullptr) {
    if (!zp->constant.has_value())
      return b.refused("input 2 ('" + b.node()->input(2) + "') must be a constant");
    if (!quantized(zp->type) || elementCount(zp->dims) != scale.size())
      return b.refused("y_zero_point must be 8-bit with x_scale's size");
    outType = zp->type;
    for (size_t i = 0; i < scale.size(); ++i) {
      uint8_t byte = zp->constant->bytes[i];
      zeroPoint[i] = outType == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM ? byte : static_cast<int8_t>(byte);
    }
  }
  Dims parameterDims{1};
  if (scale.size() != 1) {
    NNRT_ASSIGN_OR_RETURN(int64_t a, b.attrInt("axis", 1));
    NNRT_ASSIGN_OR_RETURN(uint32_t axis, normalizeAxis(b, a, x->dims.size()));
    if (x->dims[axis] != scale.size()) return b.refused("y_scale does not match the axis");
    parameterDims.assign(x->dims.size() - axis, 1);
    parameterDims[0] = static_cast<uint32_t>(scale.size());
  }
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t scaleOperand, b.constFloats(scale, parameterDims));
  NNRT_ASSIGN_OR_RETURN(uint32_t scaled, arithmetic(b, ANEURALNETWORKS_DIV, in, scaleOperand, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t rounded, roundHalfToEven(b, scaled, x->dims));
  NNRT_ASSIGN_OR_RETURN(HostTensor zeroTensor, filledTensor(b, f32, parameterDims, zeroPoint));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeroOperand, b.addConstant(f32, parameterDims, std::move(zeroTensor.bytes)));
  NNRT_ASSIGN_OR_RETURN(uint32_t shifted,
                        arithmetic(b, ANEURALNETWORKS_ADD, rounded, zeroOperand, f32, x->dims));
  const bool isUnsigned = outType == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  NNRT_ASSIGN_OR_RETURN(uint32_t low, b.constFloats({isUnsigned ? 0.0f : -128.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t high, b.constFloats({isUnsigned ? 255.0f : 127.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t raised, apply(b, ANEURALNETWORKS_MAXIMUM, {shifted, low}, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t saturated, apply(b, ANEURALNETWORKS_MINIMUM, {raised, high}, f32, x->dims));
  return b.emit(ANEURALNETWORKS_QUANTIZE, {saturated}, outType, x->dims);
}

const std::vector<const char*> kConvAttributes{"auto_pad",     "dilations", "group",
                                               "kernel_shape", "pads",      "strides"};

}  // namespace

// If: NNAPI IF with then_branch and else_branch built as referenced models. NNAPI passes the IF's inputs
// to both branches, so each takes every value of the enclosing graph either branch reads (constants are
// copied into the branches instead); both branches must give outputs of the same types and shapes.
Result<void> mapIf(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* cond, b.requiredInput(0));
  if (cond->type != ANEURALNETWORKS_TENSOR_BOOL8 || elementCount(cond->dims) != 1)
    return b.refused("cond must be one bool");
  const onnx::AttributeProto* thenBranch = b.attribute("then_branch");
  const onnx::AttributeProto* elseBranch = b.attribute("else_branch");
  if (thenBranch == nullptr || !thenBranch->has_g() || elseBranch == nullptr || !elseBranch->has_g())
    return b.refused("then_branch and else_branch must be graphs");
  std::vector<std::string> captured;
  outerNames(thenBranch->g(), captured);
  outerNames(elseBranch->g(), captured);
  NNRT_ASSIGN_OR_RETURN(Subgraph thenModel, buildSubgraph(b, thenBranch->g(), {}, captured));
  NNRT_ASSIGN_OR_RETURN(Subgraph elseModel, buildSubgraph(b, elseBranch->g(), {}, captured));
  const size_t n = thenModel.outputs.size();
  if (elseModel.outputs.size() != n || static_cast<int>(n) != b.node()->output_size())
    return b.refused("the branches and the node have different numbers of outputs");
  for (size_t i = 0; i < n; ++i) {
    const Value& t = thenModel.outputs[i];
    const Value& e = elseModel.outputs[i];
    if (t.type != e.type || t.dims != e.dims || t.scalar != e.scalar)
      return b.refused("output " + std::to_string(i) + " differs in type or shape between the branches");
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t condOperand, b.operand(*cond));
  NNRT_ASSIGN_OR_RETURN(uint32_t thenOperand, b.addModelOperand(thenModel.model.get()));
  NNRT_ASSIGN_OR_RETURN(uint32_t elseOperand, b.addModelOperand(elseModel.model.get()));
  std::vector<uint32_t> inputs{condOperand, thenOperand, elseOperand};
  for (const auto& name : captured) {
    const Value* value = b.find(name);
    if (value != nullptr && !value->constant.has_value()) {
      NNRT_ASSIGN_OR_RETURN(uint32_t operand, b.operand(*value));
      inputs.push_back(operand);
    }
  }
  std::vector<uint32_t> outputs;
  for (const Value& t : thenModel.outputs) {
    NNRT_ASSIGN_OR_RETURN(uint32_t out, b.addTensor(t.type, t.dims));
    outputs.push_back(out);
  }
  NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_IF, inputs, outputs));
  for (size_t i = 0; i < n; ++i)
    defineOperand(b, static_cast<int>(i), outputs[i], thenModel.outputs[i].type, thenModel.outputs[i].dims,
                  thenModel.outputs[i].scalar);
  return {};
}

const std::vector<OperatorMapping>& operatorMappings() {
  static const std::vector<OperatorMapping> mappings = {
      {"Abs", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_ABS); }},
      {"Add", {}, [](GraphBuilder& b) { return binary(b, ANEURALNETWORKS_ADD, true); }},
      {"And", {}, [](GraphBuilder& b) { return binary(b, ANEURALNETWORKS_LOGICAL_AND, false); }},
      {"ArgMax",
       {"axis", "keepdims", "select_last_index"},
       [](GraphBuilder& b) { return argMinMax(b, ANEURALNETWORKS_ARGMAX); }},
      {"ArgMin",
       {"axis", "keepdims", "select_last_index"},
       [](GraphBuilder& b) { return argMinMax(b, ANEURALNETWORKS_ARGMIN); }},
      {"AveragePool",
       {"auto_pad", "ceil_mode", "count_include_pad", "kernel_shape", "pads", "strides"},
       [](GraphBuilder& b) { return pool(b, ANEURALNETWORKS_AVERAGE_POOL_2D, false); }},
      {"BatchNormalization", {"epsilon", "momentum", "training_mode"}, mapBatchNorm},
      {"Cast", {"to"}, mapCast},
      {"CastLike", {}, mapCastLike},
      {"Ceil", {}, mapCeil},
      {"Celu", {"alpha"}, mapCelu},
      {"Clip", {"min", "max"}, mapClip},
      {"Concat", {"axis"}, mapConcat},
      {"Constant", {"value", "value_float", "value_floats", "value_int", "value_ints"}, mapConstant},
      {"ConstantOfShape", {"value"}, mapConstantOfShape},
      {"Conv", kConvAttributes, mapConv},
      {"ConvInteger", kConvAttributes, mapConvInteger},
      {"ConvTranspose",
       {"auto_pad", "dilations", "group", "kernel_shape", "output_padding", "output_shape", "pads",
        "strides"},
       mapConvTranspose},
      {"Cos", {}, [](GraphBuilder& b) { return trigonometric(b, "Cos"); }},
      {"Cosh", {}, [](GraphBuilder& b) { return trigonometric(b, "Cosh"); }},
      {"CumSum", {"exclusive", "reverse"}, mapCumSum},
      {"DepthToSpace",
       {"blocksize", "mode"},
       [](GraphBuilder& b) { return spaceDepth(b, ANEURALNETWORKS_DEPTH_TO_SPACE); }},
      {"DequantizeLinear", {"axis"}, mapDequantizeLinear},
      {"Div", {}, mapDiv},
      {"Dropout", {"is_test", "ratio", "seed"}, mapDropout},
      {"Elu", {"alpha"}, mapElu},
      {"Equal",
       {},
       [](GraphBuilder& b) { return binary(b, ANEURALNETWORKS_EQUAL, false, ANEURALNETWORKS_TENSOR_BOOL8); }},
      {"Exp", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_EXP); }},
      {"Expand", {}, mapExpand},
      {"EyeLike", {"dtype", "k"}, mapEyeLike},
      {"Flatten", {"axis"}, mapFlatten},
      {"Floor", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_FLOOR); }},
      {"Gather", {"axis"}, mapGather},
      {"GatherElements", {"axis"}, mapGatherElements},
      {"GatherND", {"batch_dims"}, mapGatherND},
      {"Gemm", {"alpha", "beta", "transA", "transB"}, mapGemm},
      {"GlobalAveragePool",
       {},
       [](GraphBuilder& b) { return pool(b, ANEURALNETWORKS_AVERAGE_POOL_2D, true); }},
      {"GlobalMaxPool", {}, [](GraphBuilder& b) { return pool(b, ANEURALNETWORKS_MAX_POOL_2D, true); }},
      {"Greater",
       {},
       [](GraphBuilder& b) {
         return binary(b, ANEURALNETWORKS_GREATER, false, ANEURALNETWORKS_TENSOR_BOOL8);
       }},
      {"GreaterOrEqual",
       {},
       [](GraphBuilder& b) {
         return binary(b, ANEURALNETWORKS_GREATER_EQUAL, false, ANEURALNETWORKS_TENSOR_BOOL8);
       }},
      {"Hardmax", {"axis"}, mapHardmax},
      {"HardSigmoid", {"alpha", "beta"}, mapHardSigmoid},
      {"HardSwish", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_HARD_SWISH); }},
      {"Identity", {}, mapIdentity},
      {"If", {"else_branch", "then_branch"}, mapIf},
      {"InstanceNormalization", {"epsilon"}, mapInstanceNorm},
      {"IsInf", {"detect_negative", "detect_positive"}, mapIsInf},
      {"IsNaN", {}, mapIsNaN},
      {"LayerNormalization", {"axis", "epsilon", "stash_type"}, mapLayerNorm},
      {"LeakyRelu", {"alpha"}, mapLeakyRelu},
      {"Less",
       {},
       [](GraphBuilder& b) { return binary(b, ANEURALNETWORKS_LESS, false, ANEURALNETWORKS_TENSOR_BOOL8); }},
      {"LessOrEqual",
       {},
       [](GraphBuilder& b) {
         return binary(b, ANEURALNETWORKS_LESS_EQUAL, false, ANEURALNETWORKS_TENSOR_BOOL8);
       }},
      {"Log", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_LOG); }},
      {"LogSoftmax", {"axis"}, [](GraphBuilder& b) { return softmaxLike(b, ANEURALNETWORKS_LOG_SOFTMAX); }},
      {"LRN", {"alpha", "beta", "bias", "size"}, mapLrn},
      {"LSTM",
       {"activation_alpha", "activation_beta", "activations", "clip", "direction", "hidden_size",
        "input_forget", "layout"},
       mapLstm},
      {"MatMul", {}, mapMatMul},
      {"MatMulInteger", {}, mapMatMulInteger},
      {"Max", {}, [](GraphBuilder& b) { return variadic(b, ANEURALNETWORKS_MAXIMUM, false); }},
      {"MaxPool",
       {"auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads", "storage_order", "strides"},
       [](GraphBuilder& b) { return pool(b, ANEURALNETWORKS_MAX_POOL_2D, false); }},
      {"Mean", {}, mapMean},
      {"MeanVarianceNormalization", {"axes"}, mapMeanVarianceNorm},
      {"Min", {}, [](GraphBuilder& b) { return variadic(b, ANEURALNETWORKS_MINIMUM, false); }},
      {"Mod", {"fmod"}, mapMod},
      {"Mul", {}, [](GraphBuilder& b) { return binary(b, ANEURALNETWORKS_MUL, true); }},
      {"Neg", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_NEG); }},
      {"Not", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_LOGICAL_NOT); }},
      {"OneHot", {"axis"}, mapOneHot},
      {"Or", {}, [](GraphBuilder& b) { return binary(b, ANEURALNETWORKS_LOGICAL_OR, false); }},
      {"Pad", {"mode", "pads", "value"}, mapPad},
      {"Pow", {}, mapPow},
      {"PRelu", {}, mapPrelu},
      {"QuantizeLinear", {"axis"}, mapQuantizeLinear},
      {"Range", {}, mapRange},
      {"Reciprocal", {}, mapReciprocal},
      {"ReduceL1",
       {"axes", "keepdims"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_REDUCE_SUM, ANEURALNETWORKS_ABS); }},
      {"ReduceL2",
       {"axes", "keepdims"},
       [](GraphBuilder& b) {
         return reduce(b, ANEURALNETWORKS_REDUCE_SUM, ANEURALNETWORKS_MUL, ANEURALNETWORKS_SQRT);
       }},
      {"ReduceLogSum",
       {"axes", "keepdims"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_REDUCE_SUM, 0, ANEURALNETWORKS_LOG); }},
      {"ReduceLogSumExp",
       {"axes", "keepdims"},
       [](GraphBuilder& b) {
         return reduce(b, ANEURALNETWORKS_REDUCE_SUM, ANEURALNETWORKS_EXP, ANEURALNETWORKS_LOG);
       }},
      {"ReduceMax",
       {"axes", "keepdims"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_REDUCE_MAX); }},
      {"ReduceMean", {"axes", "keepdims"}, [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_MEAN); }},
      {"ReduceMin",
       {"axes", "keepdims"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_REDUCE_MIN); }},
      {"ReduceProd",
       {"axes", "keepdims"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_REDUCE_PROD); }},
      {"ReduceSum",
       {"axes", "keepdims", "noop_with_empty_axes"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_REDUCE_SUM); }},
      {"ReduceSumSquare",
       {"axes", "keepdims"},
       [](GraphBuilder& b) { return reduce(b, ANEURALNETWORKS_REDUCE_SUM, ANEURALNETWORKS_MUL); }},
      {"Relu", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_RELU); }},
      {"Reshape", {"allowzero"}, mapReshape},
      {"Resize",
       {"coordinate_transformation_mode", "cubic_coeff_a", "exclude_outside", "extrapolation_value", "mode",
        "nearest_mode"},
       mapResize},
      {"RNN",
       {"activation_alpha", "activation_beta", "activations", "clip", "direction", "hidden_size", "layout"},
       mapRnn},
      {"Round", {}, mapRound},
      {"Selu", {"alpha", "gamma"}, mapSelu},
      {"Shape", {"start", "end"}, mapShape},
      {"Shrink", {"bias", "lambd"}, mapShrink},
      {"Sigmoid", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_LOGISTIC); }},
      {"Sign", {}, mapSign},
      {"Sin", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_SIN); }},
      {"Sinh", {}, [](GraphBuilder& b) { return trigonometric(b, "Sinh"); }},
      {"Size", {}, mapSize},
      {"Slice", {"starts", "ends", "axes"}, mapSlice},
      {"Softmax", {"axis"}, [](GraphBuilder& b) { return softmaxLike(b, ANEURALNETWORKS_SOFTMAX); }},
      {"Softplus", {}, mapSoftplus},
      {"Softsign", {}, mapSoftsign},
      {"SpaceToDepth",
       {"blocksize"},
       [](GraphBuilder& b) { return spaceDepth(b, ANEURALNETWORKS_SPACE_TO_DEPTH); }},
      {"Split", {"axis", "split"}, mapSplit},
      {"Sqrt", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_SQRT); }},
      {"Squeeze", {"axes"}, mapSqueeze},
      {"Sub", {}, [](GraphBuilder& b) { return binary(b, ANEURALNETWORKS_SUB, true); }},
      {"Sum", {}, [](GraphBuilder& b) { return variadic(b, ANEURALNETWORKS_ADD, true); }},
      {"Tan", {}, [](GraphBuilder& b) { return trigonometric(b, "Tan"); }},
      {"Tanh", {}, [](GraphBuilder& b) { return unary(b, ANEURALNETWORKS_TANH); }},
      {"ThresholdedRelu", {"alpha"}, mapThresholdedRelu},
      {"Tile", {}, mapTile},
      {"TopK", {"axis", "largest", "sorted"}, mapTopK},
      {"Transpose", {"perm"}, mapTranspose},
      {"Trilu", {"upper"}, mapTrilu},
      {"Unsqueeze", {"axes"}, mapUnsqueeze},
      {"Upsample", {"mode", "scales"}, mapUpsample},
      {"Where", {}, mapWhere},
      {"Xor",
       {},
       [](GraphBuilder& b) {
         return binary(b, ANEURALNETWORKS_NOT_EQUAL, false, ANEURALNETWORKS_TENSOR_BOOL8);
       }},
  };
  return mappings;
}

}  // namespace nnrt::onnxfront
