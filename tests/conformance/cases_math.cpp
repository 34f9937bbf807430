// ABS, EXP, LOG, NEG, RSQRT, SIN, SQRT, the six comparisons, MAXIMUM, MINIMUM, LOGICAL_AND, LOGICAL_OR,
// LOGICAL_NOT and SELECT (feature level 3) in every operand type NNAPI lists for them through feature
// level 4: broadcasting, quantized operands with parameters of their own (compared by real value,
// requantized into the output's), INT32's most negative value for ABS and NEG. Expected values come
// from <cmath> in double precision and from comparing and requantizing real values here.
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>

#include "conformance/operation_case.hpp"
#include "support/reference_ops.hpp"

namespace nnrt::test::conformance {

std::vector<OperationCase> mathCases();

namespace {

using O = OperationType;
constexpr auto B8 = OperandType::TENSOR_BOOL8;

struct Q {
  float scale = 0.0f;
  int32_t zeroPoint = 0;
};
// Stored values of `type` (small integers for INT32 and BOOL8 so that equal values occur) and their
// real values.
struct Data {
  std::vector<double> stored, real;
};
Data data(OperandType type, size_t n, uint32_t seed, Q q) {
  if (type == B8) {
    auto v = randomQuant(n, seed, 0, 1);
    return {v, v};
  }
  if (type == I32) {
    auto v = randomQuant(n, seed, -3, 3);
    return {v, v};
  }
  if (isQuant8(type)) {
    auto stored = randomQuant(n, seed, static_cast<int>(quant8Lowest(type)), static_cast<int>(quant8Highest(type)));
    return {stored, ref::dequantize(stored, q.scale, q.zeroPoint)};
  }
  // Halves and wholes in [-2, 2]: exactly representable, so equal values occur in both operands.
  auto v = randomQuant(n, seed, -4, 4);
  for (double& x : v) x /= 2;
  return {v, v};
}

// ---- Unary math --------------------------------------------------------------------------------------

OperationCase unaryCase(O op, const char* name, double (*fn)(double), OperandType type, double lo, double hi,
                        uint32_t seed) {
  CaseBuilder c(std::string(name) + "_" + typeSuffix(type), op);
  const std::vector<uint32_t> dims{2, 3, 5};
  const auto in = randomValues(type, ref::count(dims), seed, lo, hi);
  std::vector<double> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) out[i] = fn(in[i]);
  const uint32_t x = c.input(type, dims, in);
  c.output(type, dims, out);
  return c.build({x});
}

double absOf(double x) { return std::fabs(x); }
double expOf(double x) { return std::exp(x); }
double logOf(double x) { return std::log(x); }
double negOf(double x) { return -x; }
double rsqrtOf(double x) { return 1.0 / std::sqrt(x); }
double sinOf(double x) { return std::sin(x); }
double sqrtOf(double x) { return std::sqrt(x); }

// ABS and NEG on INT32 by hand, including the most negative value (two's complement wrap: its
// absolute value and negation are itself).
OperationCase int32UnaryCase(O op, const char* name) {
  CaseBuilder c(std::string(name) + "_int32_by_hand", op);
  const double minimum = std::numeric_limits<int32_t>::min();
  const std::vector<double> in{-5, 0, 7, -2147483647, minimum, 1};
  const std::vector<double> out = op == O::ABS ? std::vector<double>{5, 0, 7, 2147483647, minimum, 1}
                                               : std::vector<double>{5, 0, -7, 2147483647, minimum, -1};
  const uint32_t x = c.input(I32, {6}, in);
  c.output(I32, {6}, out);
  return c.build({x});
}

// ---- Comparisons -----------------------------------------------------------------------------------

using Compare = std::function<bool(double, double)>;

// a [2, 3, 4] against b [3, 1] (broadcast along the last dimension), BOOL8 out.
OperationCase comparisonCase(O op, const char* name, const Compare& holds, OperandType type, uint32_t seed) {
  CaseBuilder c(std::string(name) + "_" + typeSuffix(type), op);
  const Q qa = type == Q8 ? Q{0.5f, 128} : type == Q8S ? Q{0.5f, 0} : Q{};
  const Q qb = type == Q8 ? Q{0.25f, 120} : type == Q8S ? Q{0.25f, -8} : Q{};
  const std::vector<uint32_t> da{2, 3, 4}, db{3, 1};
  Data a = data(type, ref::count(da), seed, qa);
  Data b = data(type, ref::count(db), seed + 1, qb);
  if (isQuant8(type)) {
    // Some elements of a equal in real value to the b they meet: b's stored value for a's real one.
    for (size_t i = 0; i < a.stored.size(); i += 3) {
      const size_t j = (i / 4) % 3;
      const double bq = a.real[i] / qb.scale + qb.zeroPoint;
      if (bq >= quant8Lowest(type) && bq <= quant8Highest(type)) {
        b.stored[j] = bq;
        b.real[j] = a.real[i];
      }
    }
  }
  const ref::Tensor out = ref::broadcast({da, a.real}, {db, b.real},
                                         [&](double x, double y) { return holds(x, y) ? 1.0 : 0.0; });
  const uint32_t ia = c.input(type, da, a.stored, qa.scale, qa.zeroPoint);
  const uint32_t ib = c.input(type, db, b.stored, qb.scale, qb.zeroPoint);
  c.output(B8, out.dims, out.values);
  return c.build({ia, ib});
}

// ---- MAXIMUM, MINIMUM --------------------------------------------------------------------------------

OperationCase extremumCase(O op, bool larger, OperandType type, uint32_t seed) {
  CaseBuilder c(std::string(larger ? "maximum_" : "minimum_") + typeSuffix(type), op);
  const Q qa = type == Q8 ? Q{0.5f, 128} : type == Q8S ? Q{0.5f, 0} : Q{};
  const Q qb = type == Q8 ? Q{0.25f, 120} : type == Q8S ? Q{0.25f, -8} : Q{};
  const Q qo = type == Q8 ? Q{0.4f, 100} : type == Q8S ? Q{0.4f, -20} : Q{};
  const std::vector<uint32_t> da{4, 1, 3}, db{2, 3};
  const Data a = data(type, ref::count(da), seed, qa);
  const Data b = data(type, ref::count(db), seed + 1, qb);
  ref::Tensor out = ref::broadcast({da, a.real}, {db, b.real},
                                   [&](double x, double y) { return larger ? std::max(x, y) : std::min(x, y); });
  if (isQuant8(type)) out.values = ref::quantize(out.values, qo.scale, qo.zeroPoint, quant8Lowest(type), quant8Highest(type));
  const uint32_t ia = c.input(type, da, a.stored, qa.scale, qa.zeroPoint);
  const uint32_t ib = c.constant(type, db, b.stored, qb.scale, qb.zeroPoint);
  c.output(type, out.dims, out.values, qo.scale, qo.zeroPoint);
  return c.build({ia, ib});
}

// ---- LOGICAL_*, SELECT -------------------------------------------------------------------------------

OperationCase logicalCase(O op, const char* name, bool isAnd) {
  CaseBuilder c(std::string(name) + "_bool8", op);
  const std::vector<uint32_t> da{2, 4}, db{4};
  const auto a = randomQuant(8, 31, 0, 1), b = randomQuant(4, 32, 0, 1);
  const ref::Tensor out = ref::broadcast({da, a}, {db, b}, [isAnd](double x, double y) {
    return isAnd ? (x != 0 && y != 0 ? 1.0 : 0.0) : (x != 0 || y != 0 ? 1.0 : 0.0);
  });
  const uint32_t ia = c.input(B8, da, a);
  const uint32_t ib = c.input(B8, db, b);
  c.output(B8, out.dims, out.values);
  return c.build({ia, ib});
}

OperationCase logicalNotCase() {
  CaseBuilder c("logical_not_bool8", O::LOGICAL_NOT);
  const std::vector<double> in{1, 0, 0, 1, 1, 0};
  const uint32_t x = c.input(B8, {2, 3}, in);
  c.output(B8, {2, 3}, {0, 1, 1, 0, 0, 1});
  return c.build({x});
}

// SELECT(condition, a, b); quantized operands in parameters of their own (`requantize`) or all alike.
OperationCase selectCase(OperandType type, bool requantize, uint32_t seed) {
  CaseBuilder c("select_" + typeSuffix(type) + (isQuant8(type) && requantize ? "_requantized" : ""), O::SELECT);
  const std::vector<uint32_t> dims{3, 5};
  const Q same = type == Q8 ? Q{0.5f, 128} : type == Q8S ? Q{0.5f, 0} : Q{};
  const Q qa = same;
  const Q qb = requantize ? (type == Q8 ? Q{0.25f, 120} : Q{0.25f, -8}) : same;
  const Q qo = requantize ? (type == Q8 ? Q{0.4f, 100} : Q{0.4f, -20}) : same;
  const auto cond = randomQuant(15, seed, 0, 1);
  const Data a = data(type, 15, seed + 1, qa), b = data(type, 15, seed + 2, qb);
  std::vector<double> out(15);
  for (size_t i = 0; i < 15; ++i) {
    if (!isQuant8(type)) {
      out[i] = cond[i] != 0 ? a.stored[i] : b.stored[i];
    } else {
      out[i] = ref::quantize(cond[i] != 0 ? a.real[i] : b.real[i], qo.scale, qo.zeroPoint, quant8Lowest(type), quant8Highest(type));
    }
  }
  const uint32_t ic = c.input(B8, dims, cond);
  const uint32_t ia = c.input(type, dims, a.stored, qa.scale, qa.zeroPoint);
  const uint32_t ib = c.input(type, dims, b.stored, qb.scale, qb.zeroPoint);
  c.output(type, dims, out, qo.scale, qo.zeroPoint);
  return c.build({ic, ia, ib});
}

}  // namespace

std::vector<OperationCase> mathCases() {
  std::vector<OperationCase> cases;
  uint32_t seed = 900;
  for (OperandType t : {F32, F16}) {
    cases.push_back(unaryCase(O::ABS, "abs", absOf, t, -3, 3, ++seed));
    cases.push_back(unaryCase(O::EXP, "exp", expOf, t, -3, 3, ++seed));
    cases.push_back(unaryCase(O::LOG, "log", logOf, t, 0.05, 8, ++seed));
    cases.push_back(unaryCase(O::NEG, "neg", negOf, t, -3, 3, ++seed));
    cases.push_back(unaryCase(O::RSQRT, "rsqrt", rsqrtOf, t, 0.05, 8, ++seed));
    cases.push_back(unaryCase(O::SIN, "sin", sinOf, t, -6, 6, ++seed));
    cases.push_back(unaryCase(O::SQRT, "sqrt", sqrtOf, t, 0, 8, ++seed));
  }
  cases.push_back(int32UnaryCase(O::ABS, "abs"));
  cases.push_back(int32UnaryCase(O::NEG, "neg"));

  struct Cmp {
    O op;
    const char* name;
    Compare holds;
  };
  const Cmp comparisons[] = {
      {O::EQUAL, "equal", [](double x, double y) { return x == y; }},
      {O::NOT_EQUAL, "not_equal", [](double x, double y) { return x != y; }},
      {O::GREATER, "greater", [](double x, double y) { return x > y; }},
      {O::GREATER_EQUAL, "greater_equal", [](double x, double y) { return x >= y; }},
      {O::LESS, "less", [](double x, double y) { return x < y; }},
      {O::LESS_EQUAL, "less_equal", [](double x, double y) { return x <= y; }},
  };
  for (const Cmp& cmp : comparisons) {
    for (OperandType t : {B8, F32, F16, I32, Q8, Q8S}) cases.push_back(comparisonCase(cmp.op, cmp.name, cmp.holds, t, ++seed));
  }
  for (OperandType t : {F32, F16, I32, Q8, Q8S}) {
    cases.push_back(extremumCase(O::MAXIMUM, true, t, ++seed));
    cases.push_back(extremumCase(O::MINIMUM, false, t, ++seed));
  }
  cases.push_back(logicalCase(O::LOGICAL_AND, "logical_and", true));
  cases.push_back(logicalCase(O::LOGICAL_OR, "logical_or", false));
  cases.push_back(logicalNotCase());
  for (OperandType t : {F32, F16, I32}) cases.push_back(selectCase(t, false, ++seed));
  for (OperandType t : {Q8, Q8S}) {
    cases.push_back(selectCase(t, false, ++seed));
    cases.push_back(selectCase(t, true, ++seed));
  }
  return cases;
}

}  // namespace nnrt::test::conformance
