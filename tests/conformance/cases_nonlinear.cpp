// PRELU, ELU, HARD_SWISH, POW, LOG_SOFTMAX, CAST, QUANTIZE and FILL (feature levels 3 and 4) in every
// operand type NNAPI lists for them through feature level 4: broadcast alphas and exponents, quantized
// inputs and outputs with parameters of their own, every axis of LOG_SOFTMAX, every CAST pair between
// the convertible types (truncation toward zero, quant8 saturation), identity casts, QUANTIZE's
// rounding and saturation. Expected values come from <cmath> in double precision here.
#include <algorithm>
#include <cmath>
#include <string>

#include "conformance/operation_case.hpp"
#include "support/reference_ops.hpp"

namespace nnrt::test::conformance {

std::vector<OperationCase> nonlinearCases();

namespace {

using O = OperationType;

struct Q {
  float scale = 0.0f;
  int32_t zeroPoint = 0;
};
struct Data {
  std::vector<double> stored, real;
};
Data data(OperandType type, size_t n, uint32_t seed, Q q, double lo, double hi) {
  if (!isQuant8(type)) {
    auto v = randomValues(type, n, seed, lo, hi);
    return {v, v};
  }
  auto stored = randomQuant(n, seed, static_cast<int>(quant8Lowest(type)), static_cast<int>(quant8Highest(type)));
  return {stored, ref::dequantize(stored, q.scale, q.zeroPoint)};
}

std::vector<double> outputOf(OperandType type, const std::vector<double>& real, Q q) {
  return isQuant8(type) ? ref::quantize(real, q.scale, q.zeroPoint, quant8Lowest(type), quant8Highest(type)) : real;
}

OperationCase preluCase(OperandType type, uint32_t seed) {
  CaseBuilder c("prelu_" + typeSuffix(type), O::PRELU);
  const Q qx = type == Q8 ? Q{0.05f, 128} : type == Q8S ? Q{0.05f, 0} : Q{};
  const Q qa = type == Q8 ? Q{0.01f, 50} : type == Q8S ? Q{0.01f, -78} : Q{};
  const Q qo = type == Q8 ? Q{0.04f, 120} : type == Q8S ? Q{0.04f, -8} : Q{};
  const std::vector<uint32_t> dx{2, 3, 4}, da{1, 4};  // one alpha per channel (last dimension)
  const Data x = data(type, ref::count(dx), seed, qx, -3, 3);
  const Data a = data(type, ref::count(da), seed + 1, qa, 0, 0.5);
  const ref::Tensor out =
      ref::broadcast({dx, x.real}, {da, a.real}, [](double v, double al) { return v < 0 ? al * v : v; });
  const uint32_t ix = c.input(type, dx, x.stored, qx.scale, qx.zeroPoint);
  const uint32_t ia = c.constant(type, da, a.stored, qa.scale, qa.zeroPoint);
  c.output(type, out.dims, outputOf(type, out.values, qo), qo.scale, qo.zeroPoint);
  return c.build({ix, ia});
}

OperationCase eluCase(OperandType type, uint32_t seed) {
  CaseBuilder c("elu_" + typeSuffix(type), O::ELU);
  const std::vector<uint32_t> dims{3, 7};
  const auto x = randomValues(type, ref::count(dims), seed, -4, 3);
  const double alpha = 1.5;
  std::vector<double> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) out[i] = x[i] < 0 ? alpha * (std::exp(x[i]) - 1) : x[i];
  const uint32_t ix = c.input(type, dims, x);
  c.output(type, dims, out);
  return c.build({ix, type == F16 ? c.float16(1.5f) : c.float32(1.5f)});
}

OperationCase hardSwishCase(OperandType type, uint32_t seed) {
  CaseBuilder c("hard_swish_" + typeSuffix(type), O::HARD_SWISH);
  const Q qx = type == Q8 ? Q{0.04f, 128} : type == Q8S ? Q{0.04f, 0} : Q{};
  const Q qo = type == Q8 ? Q{0.03f, 30} : type == Q8S ? Q{0.03f, -98} : Q{};
  const std::vector<uint32_t> dims{2, 5, 6};
  const Data x = data(type, ref::count(dims), seed, qx, -5, 5);
  std::vector<double> real(x.real.size());
  for (size_t i = 0; i < real.size(); ++i) real[i] = x.real[i] * std::clamp(x.real[i] + 3, 0.0, 6.0) / 6;
  const uint32_t ix = c.input(type, dims, x.stored, qx.scale, qx.zeroPoint);
  c.output(type, dims, outputOf(type, real, qo), qo.scale, qo.zeroPoint);
  return c.build({ix});
}

OperationCase powCase(OperandType type, uint32_t seed) {
  CaseBuilder c("pow_" + typeSuffix(type), O::POW);
  const std::vector<uint32_t> db{2, 3, 4}, de{4};
  const auto b = randomValues(type, ref::count(db), seed, 0.1, 3);
  const auto e = randomValues(type, ref::count(de), seed + 1, -2, 2);
  const ref::Tensor out = ref::broadcast({db, b}, {de, e}, [](double x, double y) { return std::pow(x, y); });
  const uint32_t ib = c.input(type, db, b);
  const uint32_t ie = c.input(type, de, e);
  c.output(type, out.dims, out.values);
  return c.build({ib, ie});
}

OperationCase logSoftmaxCase(OperandType type, int32_t axis, uint32_t seed) {
  CaseBuilder c("log_softmax_axis" + (axis < 0 ? "_neg" + std::to_string(-axis) : std::to_string(axis)) + "_" +
                    typeSuffix(type),
                O::LOG_SOFTMAX);
  const std::vector<uint32_t> dims{2, 3, 5};
  const auto x = randomValues(type, ref::count(dims), seed, -3, 3);
  const double beta = 0.7;
  const uint32_t a = static_cast<uint32_t>(axis < 0 ? axis + 3 : axis);
  const auto strides = ref::strides(dims);
  std::vector<double> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t k = (i / strides[a]) % dims[a];
    const size_t first = i - k * strides[a];
    double sum = 0;
    for (size_t j = 0; j < dims[a]; ++j) sum += std::exp(beta * x[first + j * strides[a]]);
    out[i] = beta * x[i] - std::log(sum);
  }
  const uint32_t ix = c.input(type, dims, x);
  c.output(type, dims, out);
  return c.build({ix, type == F16 ? c.float16(0.7f) : c.float32(0.7f), c.int32(axis)});
}

// CAST of stored values: truncation toward zero into integers, saturation into quant8's 0..255.
double castValue(double v, OperandType to) {
  if (to == I32) return std::trunc(v);
  if (to == Q8) return std::trunc(std::clamp(v, 0.0, 255.0));
  return v;
}

OperationCase castCase(OperandType from, OperandType to, uint32_t seed) {
  CaseBuilder c("cast_" + typeSuffix(from) + "_to_" + typeSuffix(to), O::CAST);
  const std::vector<uint32_t> dims{2, 9};
  std::vector<double> in;
  if (from == I32) {
    in = randomQuant(ref::count(dims), seed, -300, 300);
  } else if (from == Q8) {
    in = randomQuant(ref::count(dims), seed, 0, 255);
  } else {
    in = randomValues(from, ref::count(dims), seed, -300, 300);  // fractions, negatives, above 255
  }
  std::vector<double> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) out[i] = castValue(in[i], to);
  if (to == F16) out = roundTrip(F16, out);
  const float scale = from == Q8 ? 0.5f : 0.0f;
  const uint32_t ix = c.input(from, dims, in, scale, from == Q8 ? 10 : 0);
  c.output(to, dims, out, to == Q8 ? 0.5f : 0.0f, to == Q8 ? 10 : 0);
  return c.build({ix});
}

// Identity CAST of a type that casts only to itself: the bytes unchanged.
OperationCase castIdentityCase(OperandType type, uint32_t seed) {
  CaseBuilder c("cast_identity_" + std::to_string(static_cast<int>(type)), O::CAST);
  const bool boolean = type == OperandType::TENSOR_BOOL8;
  const auto v = randomQuant(12, seed, boolean ? 0 : -100, boolean ? 1 : 100);
  const float scale = boolean ? 0.0f : 0.25f;
  const uint32_t ix = c.input(type, {3, 4}, v, scale, 0);
  c.output(type, {3, 4}, v, scale, 0);
  c.tolerance(0, 0);  // the same bytes
  return c.build({ix});
}

OperationCase quantizeCase(OperandType from, OperandType to, uint32_t seed) {
  CaseBuilder c("quantize_" + typeSuffix(from) + "_to_" + typeSuffix(to), O::QUANTIZE);
  const Q q = to == Q8 ? Q{0.05f, 100} : Q{0.05f, -20};
  const std::vector<uint32_t> dims{4, 8};
  auto x = randomValues(from, ref::count(dims), seed, -12, 12);  // beyond the range: saturation
  const uint32_t ix = c.input(from, dims, x);
  c.output(to, dims, ref::quantize(x, q.scale, q.zeroPoint, quant8Lowest(to), quant8Highest(to)), q.scale, q.zeroPoint);
  return c.build({ix});
}

OperationCase fillCase(OperandType type) {
  CaseBuilder c("fill_" + typeSuffix(type), O::FILL);
  const double value = type == I32 ? -7 : 2.5;
  const uint32_t dims = c.int32Tensor({2, 3, 1});
  const uint32_t v = type == I32 ? c.int32(-7) : type == F16 ? c.float16(2.5f) : c.float32(2.5f);
  c.output(type, {2, 3, 1}, std::vector<double>(6, value));
  return c.build({dims, v});
}

// RANK: an INT32 scalar output.
OperationCase rankCase(OperandType type, std::vector<uint32_t> dims) {
  CaseBuilder c("rank_" + std::to_string(dims.size()) + "_" + typeSuffix(type), O::RANK);
  const bool quant = type == Q8 || type == Q8S;
  const uint32_t x = c.input(type, dims, std::vector<double>(ref::count(dims), type == Q8 ? 3 : 1), quant ? 0.5f : 0.0f,
                             0);
  c.output(OperandType::INT32, {}, {static_cast<double>(dims.size())});
  return c.build({x});
}

}  // namespace

std::vector<OperationCase> nonlinearCases() {
  std::vector<OperationCase> cases;
  uint32_t seed = 1700;
  for (OperandType t : {F32, F16, Q8, Q8S}) {
    cases.push_back(preluCase(t, ++seed));
    cases.push_back(hardSwishCase(t, ++seed));
  }
  for (OperandType t : {F32, F16}) {
    cases.push_back(eluCase(t, ++seed));
    cases.push_back(powCase(t, ++seed));
    for (int32_t axis : {0, 1, 2, -1}) cases.push_back(logSoftmaxCase(t, axis, ++seed));
    cases.push_back(quantizeCase(t, Q8, ++seed));
    cases.push_back(quantizeCase(t, Q8S, ++seed));
  }
  for (OperandType from : {F32, F16, I32, Q8}) {
    for (OperandType to : {F32, F16, I32, Q8}) {
      if (from != to) cases.push_back(castCase(from, to, ++seed));
    }
  }
  for (OperandType t : {OperandType::TENSOR_BOOL8, Q8S, OperandType::TENSOR_QUANT8_SYMM}) {
    cases.push_back(castIdentityCase(t, ++seed));
  }
  for (OperandType t : {F32, F16, I32}) cases.push_back(fillCase(t));
  cases.push_back(rankCase(F32, {2, 3, 4}));
  cases.push_back(rankCase(Q8, {5}));
  cases.push_back(rankCase(I32, {1, 2, 1, 2}));
  cases.push_back(rankCase(OperandType::TENSOR_BOOL8, {3, 3}));
  return cases;
}

}  // namespace nnrt::test::conformance
