// ONNX element-wise operators -> NNAPI: the binary and unary operations (constant operands folded at load
// time), Sum/Max/Min, Clip, Pow, Div, Reciprocal, Mean, Where, the trigonometric functions and their
// inverses, Mod, Round, Ceil, IsNaN, IsInf and Sign.
#include <tuple>
#include <utility>

#include "onnx/operators_common.hpp"

namespace nnrt::onnxfront {

// Float32 `in` rounded toward zero: FLOOR, or NEG FLOOR NEG (below zero), SELECTed.
Result<uint32_t> truncateTowardZero(GraphBuilder& b, uint32_t in, const Dims& dims) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t zero, b.constFloats({0.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t down, apply(b, ANEURALNETWORKS_FLOOR, {in}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t negated, apply(b, ANEURALNETWORKS_NEG, {in}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t negatedDown, apply(b, ANEURALNETWORKS_FLOOR, {negated}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t up, apply(b, ANEURALNETWORKS_NEG, {negatedDown}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t negative,
                        apply(b, ANEURALNETWORKS_LESS, {in, zero}, ANEURALNETWORKS_TENSOR_BOOL8, dims));
  return apply(b, ANEURALNETWORKS_SELECT, {negative, up, down}, f32, dims);
}

// Whole float32 values `in` wrapped into the range of the 8-bit `type` as two's complement integers wrap,
// r - 256 FLOOR((r - low) / 256) (exact: a reduction modulo a power of two), QUANTIZEd to `type` (scale 1:
// the values themselves).
Result<uint32_t> wrapInto8Bit(GraphBuilder& b, uint32_t in, const Dims& dims, int32_t type) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  const bool isUnsigned = type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  NNRT_ASSIGN_OR_RETURN(uint32_t low, b.constFloats({isUnsigned ? 0.0f : -128.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t scale, b.constFloats({1.0f / 256.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t span, b.constFloats({256.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t fromLow, arithmetic(b, ANEURALNETWORKS_SUB, in, low, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t turns, arithmetic(b, ANEURALNETWORKS_MUL, fromLow, scale, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t wholeTurns, apply(b, ANEURALNETWORKS_FLOOR, {turns}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t wrap, arithmetic(b, ANEURALNETWORKS_MUL, wholeTurns, span, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t wrapped, arithmetic(b, ANEURALNETWORKS_SUB, in, wrap, f32, dims));
  return apply(b, ANEURALNETWORKS_QUANTIZE, {wrapped}, type, dims);
}

namespace {

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

// The operands of a binary operation computed on NHWC images: `a` and `c` in NNAPI's order.
struct NhwcPair {
  uint32_t a, c;
};

// When one operand of a binary operation is an NHWC image of the result's (NCHW) shape `dims` and the
// other is an NHWC image that broadcasts to it, one value per channel ([C, 1, 1] or [1, C, 1, 1]) or a
// single value, their NHWC operands (a per-channel operand as [C], which broadcasts along NHWC's last
// axis); nullopt when the operation must run in ONNX's layout.
Result<std::optional<NhwcPair>> nhwcOperands(GraphBuilder& b, const Value& x, const Value& y, const Dims& dims) {
  const size_t r = dims.size();  // 4, or 3 for a 1-D image [N, C, L] kept as [N, L, C]
  if ((r != 4 && r != 3) || !(x.nhwc || y.nhwc)) return std::optional<NhwcPair>();
  const bool swap = !(x.nhwc && x.dims == dims);  // the image of the result's shape is y
  const Value& image = swap ? y : x;
  const Value& other = swap ? x : y;
  if (!image.nhwc || image.dims != dims) return std::optional<NhwcPair>();
  std::optional<uint32_t> second;
  auto broadcastsTo = [&](const Dims& d) {
    if (d.size() != r) return false;
    for (size_t a = 0; a < r; ++a)
      if (d[a] != dims[a] && d[a] != 1) return false;
    return true;
  };
  if (other.nhwc && broadcastsTo(other.dims)) {
    // Another NHWC image, or one that broadcasts to it (squeeze-and-excitation's per-channel scales
    // [N, C, 1, 1], computed by 1x1 convolutions): NHWC broadcasts as NCHW does, axis for axis.
    second = other.operand;
  } else if (!other.nhwc) {
    // Right-aligned against NCHW: every dimension 1 but the channel one (or all 1).
    const size_t rank = other.dims.size();
    bool perChannel = rank <= r;
    for (size_t d = 0; d < rank && perChannel; ++d) {
      const size_t axis = d + r - rank;
      perChannel = other.dims[d] == 1 || (axis == 1 && other.dims[d] == dims[1]);
    }
    if (perChannel) {
      const uint32_t channels = static_cast<uint32_t>(elementCount(other.dims));
      if (other.constant.has_value()) {
        NNRT_ASSIGN_OR_RETURN(second, b.addConstant(other.type, {channels}, other.constant->bytes));
      } else {
        NNRT_ASSIGN_OR_RETURN(uint32_t operand, b.operand(other));
        NNRT_ASSIGN_OR_RETURN(second, b.reshape(operand, other.type, {channels}));
      }
    }
  }
  if (!second.has_value()) return std::optional<NhwcPair>();
  return std::optional<NhwcPair>(swap ? NhwcPair{*second, image.operand} : NhwcPair{image.operand, *second});
}

// `f` of each element of a small float32 constant, at load time (RELU, FLOOR, Ceil of shape arithmetic, as
// the expanded Range computes its trip count); false when `x` is no such constant.
template <typename F>
bool foldFloats(GraphBuilder& b, const Value& x, F f) {
  if (x.type != ANEURALNETWORKS_TENSOR_FLOAT32 || !x.constant.has_value() || !allKnown(x.dims) ||
      elementCount(x.dims) > 4096)
    return false;
  HostTensor t = *x.constant;
  for (size_t i = 0; i < elementCount(x.dims); ++i) {
    float v;
    std::memcpy(&v, t.bytes.data() + 4 * i, 4);
    v = f(v);
    std::memcpy(t.bytes.data() + 4 * i, &v, 4);
  }
  defineConstant(b, 0, std::move(t));
  return true;
}

constexpr int32_t kMod = -1;  // wrappedInteger8's Mod (not an NNAPI operation)

// ONNX's Add, Sub, Mul, Div and Mod of 8-bit integers, which wrap around where NNAPI's quantized
// arithmetic saturates and requantizes: computed in float32 on the integers themselves (DEQUANTIZE at
// scale 1), exactly (every result is an integer of magnitude at most 255 * 255, below 2^24, and a
// quotient of 8-bit integers never rounds across a whole number), the quotient truncated toward zero,
// Mod's floored (fmod 0: the divisor's sign) or truncated (fmod 1); then wrapped into the type's range,
// r - 256 FLOOR((r - low) / 256), and QUANTIZEd back (whole values in range: exact).
Result<void> wrappedInteger8(GraphBuilder& b, int32_t op, int64_t fmod = 0) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* y, b.requiredInput(1));
  if (y->type != x->type) return b.refused("inputs of different types");
  NNRT_ASSIGN_OR_RETURN(Dims dims, broadcastShape(b, x->dims, y->dims));
  if (!allKnown(dims)) return b.refused("input shape unknown");
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t xi, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t yi, b.operand(*y));
  NNRT_ASSIGN_OR_RETURN(uint32_t a, apply(b, ANEURALNETWORKS_DEQUANTIZE, {xi}, f32, x->dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t c, apply(b, ANEURALNETWORKS_DEQUANTIZE, {yi}, f32, y->dims));
  // The quotient rounded toward zero (`toZero`) or down.
  auto wholeQuotient = [&](bool toZero) -> Result<uint32_t> {
    NNRT_ASSIGN_OR_RETURN(uint32_t q, arithmetic(b, ANEURALNETWORKS_DIV, a, c, f32, dims));
    if (toZero) return truncateTowardZero(b, q, dims);
    return apply(b, ANEURALNETWORKS_FLOOR, {q}, f32, dims);
  };
  uint32_t r;
  if (op == ANEURALNETWORKS_DIV) {
    NNRT_ASSIGN_OR_RETURN(r, wholeQuotient(true));
  } else if (op == kMod) {
    NNRT_ASSIGN_OR_RETURN(uint32_t q, wholeQuotient(fmod != 0));
    NNRT_ASSIGN_OR_RETURN(uint32_t product, arithmetic(b, ANEURALNETWORKS_MUL, q, c, f32, dims));
    NNRT_ASSIGN_OR_RETURN(r, arithmetic(b, ANEURALNETWORKS_SUB, a, product, f32, dims));
  } else {
    NNRT_ASSIGN_OR_RETURN(r, arithmetic(b, op, a, c, f32, dims));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t wrapped, wrapInto8Bit(b, r, dims, x->type));
  defineOperand(b, 0, wrapped, x->type, dims);
  return {};
}

}  // namespace

// Binary elementwise with NNAPI broadcasting (numpy's, as ONNX's multidirectional broadcasting).
namespace {

// binary()'s operands when an operand or the result has rank 5: the packed ones ([d0 * d1, d2, d3, d4]),
// which broadcast as the 5-D values do when each operand's first two axes are the result's or both 1
// (an operand of lower rank has a first axis of 1 or broadcasts within the last three).
Result<std::pair<uint32_t, uint32_t>> packedOperands(GraphBuilder& b, const Value& x, const Value& y,
                                                     const Dims& dims) {
  uint32_t operands[2];
  const Value* values[2] = {&x, &y};
  for (int i = 0; i < 2; ++i) {
    const Value* v = values[i];
    const size_t rank = v->scalar ? 0 : v->dims.size();
    if (rank == 5) {
      const bool same = v->dims[0] == dims[0] && v->dims[1] == dims[1];
      if (!same && v->dims[0] * v->dims[1] != 1)
        return b.refused("a 5-D operand that broadcasts over only one of the first two axes");
      NNRT_ASSIGN_OR_RETURN(operands[i], packedOperand(b, *v));
    } else {
      if (rank == 4 && v->dims[0] != 1 && dims[0] != 1)
        return b.refused("a 4-D operand of a 5-D result that broadcasts over its first axis");
      NNRT_ASSIGN_OR_RETURN(operands[i], b.operand(*v));
    }
  }
  return std::make_pair(operands[0], operands[1]);
}

}  // namespace

Result<void> binary(GraphBuilder& b, int32_t op, bool fused, int32_t outType) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* y, b.requiredInput(1));
  if (x->type != y->type) return b.refused("inputs of different types");
  if (fused && quantized(x->type)) return wrappedInteger8(b, op);
  NNRT_ASSIGN_OR_RETURN(Dims dims, broadcastShape(b, x->dims, y->dims));
  if (auto folded = foldConstants(op, *x, *y, dims)) {
    defineConstant(b, 0, std::move(*folded));
    return {};
  }
  // A 5-D value stays packed (Value::packed). An NHWC image stays so when the other operand has its
  // shape in the same layout, or is one value per channel (or a single value) that broadcasts the same
  // way in both layouts.
  const bool packed = dims.size() == 5 && (x->packed || y->packed);
  std::optional<NhwcPair> nhwc;
  if (!packed) {
    NNRT_ASSIGN_OR_RETURN(nhwc, nhwcOperands(b, *x, *y, dims));
  }
  uint32_t a = 0, c = 0;
  if (packed) {
    NNRT_ASSIGN_OR_RETURN(std::tie(a, c), packedOperands(b, *x, *y, dims));
  } else if (nhwc.has_value()) {
    a = nhwc->a;
    c = nhwc->c;
  } else {
    NNRT_ASSIGN_OR_RETURN(a, b.operand(*x));
    NNRT_ASSIGN_OR_RETURN(c, b.operand(*y));
  }
  std::vector<uint32_t> inputs{a, c};
  if (fused) {
    // A following Relu or Clip joins float arithmetic as its fused activation.
    int32_t activation =
        x->type == ANEURALNETWORKS_TENSOR_FLOAT32 ? b.fuseFollowingActivation() : ANEURALNETWORKS_FUSED_NONE;
    NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b.scalarInt(activation));
    inputs.push_back(fuse);
  }
  const int32_t type = outType != 0 ? outType : x->type;
  if (packed) {
    NNRT_ASSIGN_OR_RETURN(uint32_t result, apply(b, op, inputs, type, packedDims(dims)));
    definePacked(b, 0, result, type, dims);
    return {};
  }
  if (nhwc.has_value()) return b.emitNhwc(op, inputs, type, dims);
  return b.emit(op, inputs, type, dims);
}

Result<void> unary(GraphBuilder& b, int32_t op) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (op != ANEURALNETWORKS_RELU) NNRT_RETURN_IF_ERROR(refuseQuantizedArithmetic(b, *x));
  if (x->packed) {  // element-wise: a 5-D value stays packed
    NNRT_ASSIGN_OR_RETURN(uint32_t result, apply(b, op, {x->operand}, x->type, packedDims(x->dims)));
    definePacked(b, 0, result, x->type, x->dims);
    return {};
  }
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
  if (op == ANEURALNETWORKS_RELU && foldFloats(b, *x, [](float v) { return v > 0.0f ? v : 0.0f; })) return {};
  if (op == ANEURALNETWORKS_FLOOR && foldFloats(b, *x, [](float v) { return std::floor(v); })) return {};
  NNRT_ASSIGN_OR_RETURN(uint32_t a, b.operand(*x));
  return b.emit(op, {a}, x->type, x->dims);
}

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

namespace {

// Pow of an int32 base by constant whole exponents >= 0 (of either type): exact, by squaring. With e
// the exponents broadcast to the result's shape, x^e = prod over bits k of e of x^(2^k): per bit a
// SELECT (constant mask) of the running square or 1, multiplied in; the products wrap as int32's do.
Result<void> integerPow(GraphBuilder& b, const Value& x, const Value& y) {
  const int32_t i32 = ANEURALNETWORKS_TENSOR_INT32;
  std::vector<double> exponents;
  if (y.type == i32) {
    NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> v, b.constantInts(1));
    exponents.assign(v.begin(), v.end());
  } else if (y.type == ANEURALNETWORKS_TENSOR_FLOAT32) {
    NNRT_ASSIGN_OR_RETURN(std::vector<float> v, b.constantFloats(1));
    exponents.assign(v.begin(), v.end());
  } else {
    return b.refused("an integer base takes int32 or float32 exponents");
  }
  for (double e : exponents)
    if (e < 0 || e != std::floor(e) || e > INT32_MAX)
      return b.refused("an integer base takes whole exponents of 0 or more (it was " + std::to_string(e) + ")");
  NNRT_ASSIGN_OR_RETURN(Dims dims, broadcastShape(b, x.dims, y.dims));
  if (!allKnown(dims)) return b.refused("input shape unknown");
  // The exponents at every position of the result (broadcast as numpy does).
  const size_t count = elementCount(dims), rank = dims.size();
  const Dims yDims = y.scalar ? Dims{} : y.dims;
  std::vector<uint32_t> at(count);
  uint32_t highest = 0;
  for (size_t p = 0; p < count; ++p) {
    size_t rest = p, source = 0, stride = 1;
    for (size_t d = rank; d-- > 0;) {
      const uint32_t coordinate = static_cast<uint32_t>(rest % dims[d]);
      rest /= dims[d];
      const size_t yd = d + yDims.size() >= rank ? d + yDims.size() - rank : SIZE_MAX;
      if (yd == SIZE_MAX) continue;
      source += (yDims[yd] == 1 ? 0 : coordinate) * stride;
      stride *= yDims[yd];
    }
    at[p] = static_cast<uint32_t>(exponents[source]);
    highest = std::max(highest, at[p]);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t ones, constFilled(b, i32, dims, 1.0));
  NNRT_ASSIGN_OR_RETURN(uint32_t base, b.operand(x));
  NNRT_ASSIGN_OR_RETURN(uint32_t square, arithmetic(b, ANEURALNETWORKS_MUL, base, ones, i32, dims));  // x, broadcast
  uint32_t result = ones;
  for (uint32_t k = 0; (highest >> k) != 0; ++k) {
    HostTensor mask;
    mask.type = ANEURALNETWORKS_TENSOR_BOOL8;
    mask.dimensions = dims;
    mask.bytes.resize(count);
    bool any = false, all = true;
    for (size_t p = 0; p < count; ++p) {
      mask.bytes[p] = (at[p] >> k) & 1u;
      any = any || mask.bytes[p] != 0;
      all = all && mask.bytes[p] != 0;
    }
    if (any) {
      uint32_t factor = square;
      if (!all) {
        NNRT_ASSIGN_OR_RETURN(uint32_t maskOperand, b.addConstant(mask.type, dims, std::move(mask.bytes)));
        NNRT_ASSIGN_OR_RETURN(factor, apply(b, ANEURALNETWORKS_SELECT, {maskOperand, square, ones}, i32, dims));
      }
      NNRT_ASSIGN_OR_RETURN(result, arithmetic(b, ANEURALNETWORKS_MUL, result, factor, i32, dims));
    }
    if ((highest >> (k + 1)) != 0) {
      NNRT_ASSIGN_OR_RETURN(square, arithmetic(b, ANEURALNETWORKS_MUL, square, square, i32, dims));
    }
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t out, b.reshape(result, i32, dims));
  defineOperand(b, 0, out, i32, dims, x.scalar && y.scalar);
  return {};
}

}  // namespace

Result<void> mapPow(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* y, b.requiredInput(1));
  if (x->type == ANEURALNETWORKS_TENSOR_INT32) return integerPow(b, *x, *y);
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
  if (quantized(x->type)) return wrappedInteger8(b, ANEURALNETWORKS_DIV);
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

// Ceil: -floor(-x), exact in floating point.
Result<void> mapCeil(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (foldFloats(b, *x, [](float v) { return std::ceil(v); })) return {};
  Chain c(b, *x);
  NNRT_RETURN_IF_ERROR(c.start(*x));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_NEG));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_FLOOR));
  NNRT_RETURN_IF_ERROR(c.unary(ANEURALNETWORKS_NEG));
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

namespace {

// Trigonometric and hyperbolic functions from NNAPI's SIN and EXP, by their identities:
// cos x = sin(x + pi/2), tan x = sin x / cos x, sinh x = (e^x - e^-x) / 2, cosh x = (e^x + e^-x) / 2.
// Mathematically exact; the float32 rounding of x + pi/2 and of e^x - e^-x near 0 costs a few ulps.
Result<uint32_t> cosine(GraphBuilder& b, const Value& x, uint32_t in) {
  NNRT_ASSIGN_OR_RETURN(uint32_t quarterTurn, b.constFloats({static_cast<float>(M_PI / 2)}));
  NNRT_ASSIGN_OR_RETURN(uint32_t shifted,
                        arithmetic(b, ANEURALNETWORKS_ADD, in, quarterTurn, x.type, x.dims));
  return apply(b, ANEURALNETWORKS_SIN, {shifted}, x.type, x.dims);
}

}  // namespace

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

namespace {

// c[0] + u (c[1] + u (c[2] + ...)), by Horner's rule on the tensor `u`.
Result<uint32_t> polynomial(GraphBuilder& b, uint32_t u, const std::vector<double>& c, int32_t type,
                            const Dims& dims) {
  NNRT_ASSIGN_OR_RETURN(uint32_t last, b.constFloats({static_cast<float>(c.back())}));
  NNRT_ASSIGN_OR_RETURN(uint32_t acc, arithmetic(b, ANEURALNETWORKS_MUL, u, last, type, dims));
  for (size_t k = c.size() - 1; k-- > 0;) {
    NNRT_ASSIGN_OR_RETURN(uint32_t coefficient, b.constFloats({static_cast<float>(c[k])}));
    NNRT_ASSIGN_OR_RETURN(acc, arithmetic(b, ANEURALNETWORKS_ADD, acc, coefficient, type, dims));
    if (k == 0) break;
    NNRT_ASSIGN_OR_RETURN(acc, arithmetic(b, ANEURALNETWORKS_MUL, acc, u, type, dims));
  }
  return acc;
}

}  // namespace

// Erf, which NNAPI lacks (GELU's, in every exported BERT): erf x = x P(x^2) / Q(x^2) with x clamped to
// [-4, 4] (beyond, erf is 1 to within 1.6e-8 and rounds to +-1 in float32), P and Q of degree 5 with
// Q(0) = 1: a rational fit made for nnrt (tools/fit_erf.py: least squares reweighted towards the
// largest errors, on [0, 4] against erf in double). Its error is 1.0e-7 in double and 4.2e-7 evaluated in
// float32 by these operations (against the C library within the onnx_loader_test tolerance). 25
// operations, none an EXP; the two expansions joined at |x| = 0.5 that it replaced took 45 (BERT's GELU
// over [128, 1024]: 264 -> 89 us, docs/onnx.md).
Result<uint32_t> erfOf(GraphBuilder& b, uint32_t in, const Dims& dims) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t four, b.constFloats({4.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t minusFour, b.constFloats({-4.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t below, apply(b, ANEURALNETWORKS_MINIMUM, {in, four}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t x, apply(b, ANEURALNETWORKS_MAXIMUM, {below, minusFour}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t t, arithmetic(b, ANEURALNETWORKS_MUL, x, x, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t p, polynomial(b, t,
                                               {1.1283791144365622, 0.1883186640231763, 0.05249228576345101,
                                                0.0036851558205435965, 0.00028452802062726296,
                                                2.082093412236752e-06},
                                               f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t q, polynomial(b, t,
                                               {1.0, 0.5002256668702824, 0.11326506574191804, 0.014802115918345921,
                                                0.001146061434734006, 3.841268092501238e-05},
                                               f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t numerator, arithmetic(b, ANEURALNETWORKS_MUL, x, p, f32, dims));
  return arithmetic(b, ANEURALNETWORKS_DIV, numerator, q, f32, dims);
}

// A float32 operator of one input that `compose(b, operand, dims)` spells in NNAPI operations.
template <typename Compose>
Result<void> mapComposedUnary(GraphBuilder& b, const Compose& compose) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, compose(b, in, x->dims));
  defineOperand(b, 0, out, x->type, x->dims, x->scalar);
  return {};
}

Result<void> mapErf(GraphBuilder& b) {
  return mapComposedUnary(b, erfOf);
}

namespace {

// log(1 + u) of float32 `u`, accurate for small u where LOG(1 + u) is not: with w = 1 + u rounded,
// log(w) * (u / (w - 1)) corrects w's rounding (Goldberg, "What every computer scientist should know
// about floating-point arithmetic", 1991, theorem 4); u itself where w == 1 (|u| below half an ulp of 1).
Result<uint32_t> logOnePlus(GraphBuilder& b, uint32_t u, const Dims& dims) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t one, b.constFloats({1.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t w, arithmetic(b, ANEURALNETWORKS_ADD, u, one, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t log, apply(b, ANEURALNETWORKS_LOG, {w}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t added, arithmetic(b, ANEURALNETWORKS_SUB, w, one, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t factor, arithmetic(b, ANEURALNETWORKS_DIV, u, added, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t corrected, arithmetic(b, ANEURALNETWORKS_MUL, log, factor, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t lost,
                        apply(b, ANEURALNETWORKS_EQUAL, {w, one}, ANEURALNETWORKS_TENSOR_BOOL8, dims));
  return apply(b, ANEURALNETWORKS_SELECT, {lost, u, corrected}, f32, dims);
}

// -v where x < 0, else v: the sign of x put back on an odd function's value v at |x|.
Result<uint32_t> withSignOf(GraphBuilder& b, uint32_t x, uint32_t v, const Dims& dims) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t zero, b.constFloats({0.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t negative,
                        apply(b, ANEURALNETWORKS_LESS, {x, zero}, ANEURALNETWORKS_TENSOR_BOOL8, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t negated, apply(b, ANEURALNETWORKS_NEG, {v}, f32, dims));
  return apply(b, ANEURALNETWORKS_SELECT, {negative, negated, v}, f32, dims);
}

// v + c for a double c, as c's float32 rounding hi plus the rest lo: (v + lo) + hi.
Result<uint32_t> plusConstant(GraphBuilder& b, uint32_t v, double c, const Dims& dims) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  const float hi = static_cast<float>(c);
  NNRT_ASSIGN_OR_RETURN(uint32_t low, b.constFloats({static_cast<float>(c - hi)}));
  NNRT_ASSIGN_OR_RETURN(uint32_t high, b.constFloats({hi}));
  NNRT_ASSIGN_OR_RETURN(uint32_t partial, arithmetic(b, ANEURALNETWORKS_ADD, v, low, f32, dims));
  return arithmetic(b, ANEURALNETWORKS_ADD, partial, high, f32, dims);
}

// The inverse trigonometric and hyperbolic functions, which NNAPI lacks, composed; against the C library
// in double (onnx_loader_test, and a sweep of 1e6 inputs each) their worst relative errors are asin 2.3e-7,
// acos 2.3e-7, atan 1.6e-7, asinh 2.1e-7, acosh 1.8e-7, atanh 1.9e-7 (at most 4 float32 ulps: float32
// rounding of the steps, NNAPI's LOG, and pi/4 + atan r losing a bit where atan r nears -pi/8):
// - atan: a = |x| reduced to |r| <= tan(pi/8) by atan a = r (a <= tan(pi/8)), pi/4 + atan((a - 1)/(a + 1))
//   (up to tan(3pi/8)) or pi/2 + atan(-1/a) (beyond; -1/inf = -0 gives pi/2 at infinity), atan r by its
//   Taylor series r sum_{n=0..8} (-1)^n r^2n / (2n + 1) (the first term left out is below 7.5e-9 of the sum
//   at |r| = tan(pi/8)), pi/4 and pi/2 added as two floats each, the sign of x put back;
// - asin x = atan(x / sqrt((1 - x)(1 + x))) (x / 0 = +-inf gives +-pi/2 at +-1, NaN beyond);
// - acos x = 2 atan(sqrt((1 - x) / (1 + x))) (accurate near 1; pi at -1, NaN beyond +-1);
// - asinh: a = |x|, log1p(a + a^2 / (1 + sqrt(1 + a^2))), or log a + ln 2 beyond 2^12 (where the
//   difference 1 / 4a^2 is below 2e-9 of it and a^2 would overflow further on), the sign put back;
// - acosh: t = x - 1 (exact near 1), log1p(t + sqrt(t (t + 2))), or log x + ln 2 beyond 2^12; NaN
//   below 1 (sqrt or log of a negative number);
// - atanh x = (log1p(x) - log1p(-x)) / 2 (two terms of opposite signs, so no cancellation; +-inf at
//   +-1 from log 0, NaN beyond).
Result<uint32_t> atanOf(GraphBuilder& b, uint32_t in, const Dims& dims) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32, b8 = ANEURALNETWORKS_TENSOR_BOOL8;
  NNRT_ASSIGN_OR_RETURN(uint32_t a, apply(b, ANEURALNETWORKS_ABS, {in}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t one, b.constFloats({1.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t minusOne, b.constFloats({-1.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t eighth, b.constFloats({static_cast<float>(std::tan(M_PI / 8))}));
  NNRT_ASSIGN_OR_RETURN(uint32_t threeEighths, b.constFloats({static_cast<float>(std::tan(3 * M_PI / 8))}));
  NNRT_ASSIGN_OR_RETURN(uint32_t middle, apply(b, ANEURALNETWORKS_GREATER, {a, eighth}, b8, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t large, apply(b, ANEURALNETWORKS_GREATER, {a, threeEighths}, b8, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t below, arithmetic(b, ANEURALNETWORKS_SUB, a, one, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t above, arithmetic(b, ANEURALNETWORKS_ADD, a, one, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t turned, arithmetic(b, ANEURALNETWORKS_DIV, below, above, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t inverted, arithmetic(b, ANEURALNETWORKS_DIV, minusOne, a, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t r, apply(b, ANEURALNETWORKS_SELECT, {middle, turned, a}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(r, apply(b, ANEURALNETWORKS_SELECT, {large, inverted, r}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t r2, arithmetic(b, ANEURALNETWORKS_MUL, r, r, f32, dims));
  std::vector<double> series;
  for (int n = 0; n <= 8; ++n)
    series.push_back((n % 2 == 0 ? 1.0 : -1.0) / (2 * n + 1));
  NNRT_ASSIGN_OR_RETURN(uint32_t sum, polynomial(b, r2, series, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t reduced, arithmetic(b, ANEURALNETWORKS_MUL, sum, r, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t quarter, plusConstant(b, reduced, M_PI / 4, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t half, plusConstant(b, reduced, M_PI / 2, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t magnitude,
                        apply(b, ANEURALNETWORKS_SELECT, {middle, quarter, reduced}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(magnitude, apply(b, ANEURALNETWORKS_SELECT, {large, half, magnitude}, f32, dims));
  return withSignOf(b, in, magnitude, dims);
}

// 1 - x and 1 + x, for asin and acos.
Result<std::pair<uint32_t, uint32_t>> oneMinusAndPlus(GraphBuilder& b, uint32_t in, const Dims& dims) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t one, b.constFloats({1.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t below, arithmetic(b, ANEURALNETWORKS_SUB, one, in, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t above, arithmetic(b, ANEURALNETWORKS_ADD, one, in, f32, dims));
  return std::pair{below, above};
}

Result<uint32_t> asinOf(GraphBuilder& b, uint32_t in, const Dims& dims) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(const auto sides, oneMinusAndPlus(b, in, dims));
  const auto [below, above] = sides;
  NNRT_ASSIGN_OR_RETURN(uint32_t product, arithmetic(b, ANEURALNETWORKS_MUL, below, above, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t cosine, apply(b, ANEURALNETWORKS_SQRT, {product}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t tangent, arithmetic(b, ANEURALNETWORKS_DIV, in, cosine, f32, dims));
  return atanOf(b, tangent, dims);
}

Result<uint32_t> acosOf(GraphBuilder& b, uint32_t in, const Dims& dims) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(const auto sides, oneMinusAndPlus(b, in, dims));
  const auto [below, above] = sides;
  NNRT_ASSIGN_OR_RETURN(uint32_t ratio, arithmetic(b, ANEURALNETWORKS_DIV, below, above, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t tangent, apply(b, ANEURALNETWORKS_SQRT, {ratio}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t halfAngle, atanOf(b, tangent, dims));
  return arithmetic(b, ANEURALNETWORKS_ADD, halfAngle, halfAngle, f32, dims);
}

// log a + ln 2 where a > 2^12, else `near`: the large-argument form of asinh and acosh.
Result<uint32_t> logOfTwiceBeyond(GraphBuilder& b, uint32_t a, uint32_t near, const Dims& dims) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t log, apply(b, ANEURALNETWORKS_LOG, {a}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t ln2, b.constFloats({static_cast<float>(M_LN2)}));
  NNRT_ASSIGN_OR_RETURN(uint32_t far, arithmetic(b, ANEURALNETWORKS_ADD, log, ln2, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t limit, b.constFloats({4096.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t beyond,
                        apply(b, ANEURALNETWORKS_GREATER, {a, limit}, ANEURALNETWORKS_TENSOR_BOOL8, dims));
  return apply(b, ANEURALNETWORKS_SELECT, {beyond, far, near}, f32, dims);
}

Result<uint32_t> asinhOf(GraphBuilder& b, uint32_t in, const Dims& dims) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t a, apply(b, ANEURALNETWORKS_ABS, {in}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t one, b.constFloats({1.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t square, arithmetic(b, ANEURALNETWORKS_MUL, a, a, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t radicand, arithmetic(b, ANEURALNETWORKS_ADD, square, one, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t root, apply(b, ANEURALNETWORKS_SQRT, {radicand}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t denominator, arithmetic(b, ANEURALNETWORKS_ADD, root, one, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t quotient,
                        arithmetic(b, ANEURALNETWORKS_DIV, square, denominator, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t u, arithmetic(b, ANEURALNETWORKS_ADD, a, quotient, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t near, logOnePlus(b, u, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t magnitude, logOfTwiceBeyond(b, a, near, dims));
  return withSignOf(b, in, magnitude, dims);
}

Result<uint32_t> acoshOf(GraphBuilder& b, uint32_t in, const Dims& dims) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t one, b.constFloats({1.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t two, b.constFloats({2.0f}));
  NNRT_ASSIGN_OR_RETURN(uint32_t t, arithmetic(b, ANEURALNETWORKS_SUB, in, one, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t shifted, arithmetic(b, ANEURALNETWORKS_ADD, t, two, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t product, arithmetic(b, ANEURALNETWORKS_MUL, t, shifted, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t root, apply(b, ANEURALNETWORKS_SQRT, {product}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t u, arithmetic(b, ANEURALNETWORKS_ADD, t, root, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t near, logOnePlus(b, u, dims));
  return logOfTwiceBeyond(b, in, near, dims);
}

Result<uint32_t> atanhOf(GraphBuilder& b, uint32_t in, const Dims& dims) {
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  NNRT_ASSIGN_OR_RETURN(uint32_t up, logOnePlus(b, in, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t negated, apply(b, ANEURALNETWORKS_NEG, {in}, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t down, logOnePlus(b, negated, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t difference, arithmetic(b, ANEURALNETWORKS_SUB, up, down, f32, dims));
  NNRT_ASSIGN_OR_RETURN(uint32_t half, b.constFloats({0.5f}));
  return arithmetic(b, ANEURALNETWORKS_MUL, difference, half, f32, dims);
}

}  // namespace

Result<void> inverseTrigonometric(GraphBuilder& b, std::string_view function) {
  if (function == "Asin") return mapComposedUnary(b, asinOf);
  if (function == "Acos") return mapComposedUnary(b, acosOf);
  if (function == "Atan") return mapComposedUnary(b, atanOf);
  if (function == "Asinh") return mapComposedUnary(b, asinhOf);
  if (function == "Acosh") return mapComposedUnary(b, acoshOf);
  return mapComposedUnary(b, atanhOf);
}

// Mod on integers: fmod 0 (the divisor's sign) is a - floor(a / b) * b with NNAPI's flooring integer DIV;
// fmod 1 (C's fmod, the dividend's sign) takes b back off a nonzero remainder whose sign differs from a's.
// Float fmod is refused: a - trunc(a / b) * b rounds where C's fmod is exact.
Result<void> mapMod(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* y, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(int64_t fmod, b.attrInt("fmod", 0));
  if (quantized(x->type)) return wrappedInteger8(b, kMod, fmod);
  if (x->type != ANEURALNETWORKS_TENSOR_INT32 || y->type != x->type)
    return b.refused("only integer tensors are supported (float fmod rounds)");
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
  return mapComposedUnary(b, roundHalfToEven);
}

}  // namespace nnrt::onnxfront
