// ONNX operators that make constants, read shapes or convert types -> NNAPI: Constant, Cast, CastLike,
// Shape, Size, ConstantOfShape, Trilu, EyeLike, Range, and the window functions and MelWeightMatrix.
#include "onnx/operators_common.hpp"

namespace nnrt::onnxfront {

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

namespace {

Result<void> castTo(GraphBuilder& b, int32_t type);

}  // namespace

// saturate (opset 19) only concerns float8 targets, which have no NNAPI type: either value is Cast's.
Result<void> mapCast(GraphBuilder& b) {
  NNRT_RETURN_IF_ERROR(refuseBeforeOpset(b, "saturate", 19));
  NNRT_ASSIGN_OR_RETURN(int64_t to, b.attrInt("to", -1));
  auto type = nnapiTensorType(static_cast<int32_t>(to));
  if (!type.has_value())
    return b.refused("to " + onnxTypeName(static_cast<int32_t>(to)) + ": " + type.error().message);
  return castTo(b, *type);
}

namespace {

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

}  // namespace

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

namespace {

Result<void> castTo(GraphBuilder& b, int32_t type) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (type == ANEURALNETWORKS_TENSOR_BOOL8 && x->constant.has_value() && elementCount(x->dims) <= 4096 &&
      (x->type == ANEURALNETWORKS_TENSOR_FLOAT32 || x->type == ANEURALNETWORKS_TENSOR_INT32)) {
    // A small constant cast to bool at load time, as ONNX casts: nonzero (NaN too) is true.
    std::vector<double> values(elementCount(x->dims));
    for (size_t i = 0; i < values.size(); ++i) {
      if (x->type == ANEURALNETWORKS_TENSOR_INT32) {
        int32_t v;
        std::memcpy(&v, x->constant->bytes.data() + 4 * i, 4);
        values[i] = v != 0;
      } else {
        float v;
        std::memcpy(&v, x->constant->bytes.data() + 4 * i, 4);
        values[i] = v != 0.0f;
      }
    }
    NNRT_ASSIGN_OR_RETURN(HostTensor t, filledTensor(b, type, x->scalar ? Dims{} : x->dims, values));
    defineConstant(b, 0, std::move(t));
    return {};
  }
  if (type == ANEURALNETWORKS_TENSOR_BOOL8 && x->type == type) {
    b.define(0, *x);
    return {};
  }
  if (type == ANEURALNETWORKS_TENSOR_BOOL8) {
    // NNAPI's CAST takes no booleans: x != 0, as ONNX casts to bool.
    if (x->type != ANEURALNETWORKS_TENSOR_FLOAT32 && x->type != ANEURALNETWORKS_TENSOR_INT32)
      return b.refused("only float32 and int32 tensors are cast to bool");
    NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
    NNRT_ASSIGN_OR_RETURN(uint32_t zero, constFilled(b, x->type, {1}, 0.0));
    NNRT_RETURN_IF_ERROR(b.emit(ANEURALNETWORKS_NOT_EQUAL, {in, zero}, type, x->dims));
    return {};
  }
  if (x->type == ANEURALNETWORKS_TENSOR_BOOL8) {
    // From bool: SELECT of 1 and 0.
    if (type != ANEURALNETWORKS_TENSOR_FLOAT32 && type != ANEURALNETWORKS_TENSOR_INT32)
      return b.refused("bools are cast only to float32 and int32");
    if (!allKnown(x->dims)) return b.refused("input shape unknown");
    NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
    NNRT_ASSIGN_OR_RETURN(uint32_t ones, constFilled(b, type, x->dims, 1.0));
    NNRT_ASSIGN_OR_RETURN(uint32_t zeros, constFilled(b, type, x->dims, 0.0));
    return b.emit(ANEURALNETWORKS_SELECT, {in, ones, zeros}, type, x->dims);
  }
  if (quantized(type) || quantized(x->type)) {
    // NNAPI's CAST would saturate: from 8-bit integers DEQUANTIZE (their values; CAST to int32 after),
    // to them the whole part wrapped into the type's range, as ONNX's casts convert in range (and as C
    // converts to the integer, then wraps, beyond it).
    if (!allKnown(x->dims)) return b.refused("input shape unknown");
    const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32, i32 = ANEURALNETWORKS_TENSOR_INT32;
    for (int32_t t : {x->type, type}) {
      if (!quantized(t) && t != f32 && t != i32)
        return b.refused("8-bit integers are cast only to and from float32, int32 and each other");
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
    uint32_t whole;  // float32 of whole values
    if (quantized(x->type)) {
      NNRT_ASSIGN_OR_RETURN(whole, apply(b, ANEURALNETWORKS_DEQUANTIZE, {in}, f32, x->dims));
      if (type == i32) return b.emit(ANEURALNETWORKS_CAST, {whole}, type, x->dims);
      if (type == f32) {
        defineOperand(b, 0, whole, f32, x->dims, x->scalar);
        return {};
      }
    } else if (x->type == i32) {
      // int32 modulo 256 first (NNAPI's integer DIV floors: [0, 256)), then float32 exactly.
      NNRT_ASSIGN_OR_RETURN(uint32_t span, b.constInts({256}));
      NNRT_ASSIGN_OR_RETURN(uint32_t turns, arithmetic(b, ANEURALNETWORKS_DIV, in, span, i32, x->dims));
      NNRT_ASSIGN_OR_RETURN(uint32_t wrap, arithmetic(b, ANEURALNETWORKS_MUL, turns, span, i32, x->dims));
      NNRT_ASSIGN_OR_RETURN(uint32_t low, arithmetic(b, ANEURALNETWORKS_SUB, in, wrap, i32, x->dims));
      NNRT_ASSIGN_OR_RETURN(whole, apply(b, ANEURALNETWORKS_CAST, {low}, f32, x->dims));
    } else {
      NNRT_ASSIGN_OR_RETURN(whole, truncateTowardZero(b, in, x->dims));
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t out, wrapInto8Bit(b, whole, x->dims, type));
    defineOperand(b, 0, out, type, x->dims, x->scalar);
    return {};
  }
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

}  // namespace

Result<void> mapCastLike(GraphBuilder& b) {
  NNRT_RETURN_IF_ERROR(refuseBeforeOpset(b, "saturate", 19));
  NNRT_ASSIGN_OR_RETURN(const Value* like, b.requiredInput(1));
  return castTo(b, like->type);
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

namespace {

// Input `i` of the current node as one constant integer.
Result<int64_t> constantInt(GraphBuilder& b, int i) {
  NNRT_ASSIGN_OR_RETURN(std::vector<int32_t> v, b.constantInts(i));
  if (v.size() != 1) return b.refused("input " + std::to_string(i) + " must be one value");
  return v[0];
}

// The NNAPI type of attribute output_datatype (ONNX's default float).
Result<int32_t> outputDatatype(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(int64_t dtype, b.attrInt("output_datatype", 1));
  auto t = nnapiTensorType(static_cast<int32_t>(dtype));
  if (!t.has_value())
    return b.refused("output_datatype " + onnxTypeName(static_cast<int32_t>(dtype)) + ": " + t.error().message);
  return *t;
}

}  // namespace

// HannWindow, HammingWindow and BlackmanWindow of a constant size: the window is a constant,
// w[n] = a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N) with N the size (periodic) or the size - 1
// (symmetric): Hann a0 = a1 = 0.5 (ONNX writes it sin^2(pi n / N)), Hamming a0 = 25/46 and a1 = 21/46,
// Blackman 0.42, 0.5 and 0.08.
Result<void> windowFunction(GraphBuilder& b, std::string_view function) {
  NNRT_ASSIGN_OR_RETURN(int64_t size, constantInt(b, 0));
  NNRT_ASSIGN_OR_RETURN(int64_t periodic, b.attrInt("periodic", 1));
  NNRT_ASSIGN_OR_RETURN(int32_t type, outputDatatype(b));
  if (size < 1 || size > (int64_t{1} << 24)) return b.refused("size must be in [1, 2^24]");
  if (size == 1 && periodic == 0) return b.refused("a symmetric window of size 1 divides by zero (N = 0)");
  const double n1 = periodic != 0 ? static_cast<double>(size) : static_cast<double>(size - 1);
  std::vector<double> values(static_cast<size_t>(size));
  for (size_t i = 0; i < values.size(); ++i) {
    const double x = 2.0 * M_PI * static_cast<double>(i) / n1;
    if (function == "Hann") {
      const double s = std::sin(M_PI * static_cast<double>(i) / n1);
      values[i] = s * s;
    } else if (function == "Hamming") {
      values[i] = 25.0 / 46.0 - (1.0 - 25.0 / 46.0) * std::cos(x);
    } else {
      values[i] = 0.42 - 0.5 * std::cos(x) + 0.08 * std::cos(2.0 * x);
    }
  }
  NNRT_ASSIGN_OR_RETURN(HostTensor t, filledTensor(b, type, {static_cast<uint32_t>(size)}, values));
  defineConstant(b, 0, std::move(t));
  return {};
}

// MelWeightMatrix of constant arguments: a constant [dft_length / 2 + 1, num_mel_bins] of triangular
// filters, as ONNX's definition computes them (num_mel_bins + 2 points evenly spaced on the mel scale
// mel(f) = 2595 log10(1 + f / 700) from lower_edge_hertz to upper_edge_hertz, each mapped to the
// spectrogram bin floor((dft_length + 1) f / sample_rate); filter i rises from point i to point i + 1
// and falls to point i + 2, peaking at 1).
Result<void> mapMelWeightMatrix(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(int64_t bins, constantInt(b, 0));
  NNRT_ASSIGN_OR_RETURN(int64_t dftLength, constantInt(b, 1));
  NNRT_ASSIGN_OR_RETURN(int64_t sampleRate, constantInt(b, 2));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> lower, b.constantFloats(3));
  NNRT_ASSIGN_OR_RETURN(std::vector<float> upper, b.constantFloats(4));
  NNRT_ASSIGN_OR_RETURN(int32_t type, outputDatatype(b));
  if (lower.size() != 1 || upper.size() != 1) return b.refused("the edges must be one value each");
  if (bins < 1 || dftLength < 1 || sampleRate < 1 || bins * (dftLength / 2 + 1) > (int64_t{1} << 24))
    return b.refused("num_mel_bins, dft_length and sample_rate must be positive (and the matrix at most 2^24 values)");
  const int64_t spectrogramBins = dftLength / 2 + 1;
  // The edges on the mel scale in float32 (the edges' type), the points from there in double.
  const float lowMel = 2595.0f * std::log10(1.0f + lower[0] / 700.0f);
  const float highMel = 2595.0f * std::log10(1.0f + upper[0] / 700.0f);
  const double step = static_cast<double>(highMel - lowMel) / static_cast<double>(bins + 2);
  std::vector<int64_t> points(static_cast<size_t>(bins + 2));
  for (size_t i = 0; i < points.size(); ++i) {
    const double hertz = 700.0 * (std::pow(10.0, (static_cast<double>(i) * step + lowMel) / 2595.0) - 1.0);
    points[i] = static_cast<int64_t>(std::floor(static_cast<double>(dftLength + 1) * hertz / static_cast<double>(sampleRate)));
  }
  for (int64_t p : points)
    if (p < 0 || p >= spectrogramBins) return b.refused("the edges fall outside the spectrogram's bins");
  std::vector<double> values(static_cast<size_t>(spectrogramBins * bins), 0.0);
  auto at = [&](int64_t row, int64_t column) -> double& { return values[static_cast<size_t>(row * bins + column)]; };
  for (int64_t i = 0; i < bins; ++i) {
    const int64_t low = points[i], center = points[i + 1], high = points[i + 2];
    if (center == low) {
      at(center, i) = 1.0;
    } else {
      for (int64_t j = low; j <= center; ++j)
        at(j, i) = static_cast<double>(j - low) / static_cast<double>(center - low);
    }
    for (int64_t j = center; j < high; ++j)
      at(j, i) = static_cast<double>(high - j) / static_cast<double>(high - center);
  }
  NNRT_ASSIGN_OR_RETURN(HostTensor t, filledTensor(b, type,
                                                   {static_cast<uint32_t>(spectrogramBins), static_cast<uint32_t>(bins)},
                                                   values));
  defineConstant(b, 0, std::move(t));
  return {};
}

}  // namespace nnrt::onnxfront
