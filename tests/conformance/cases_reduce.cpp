// REDUCE_SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN, REDUCE_ALL, REDUCE_ANY, ARGMAX and ARGMIN (feature
// level 3) in every operand type NNAPI lists for them through feature level 4: one and several axes,
// negative and repeated axes, keep_dims true and false, every axis of ARGMAX/ARGMIN, ties (the first
// index wins). Expected values come from plain loops over the input here.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <string>

#include "conformance/operation_case.hpp"
#include "support/reference_ops.hpp"

namespace nnrt::test::conformance {

std::vector<OperationCase> reduceCases();

namespace {

using O = OperationType;
constexpr auto B8 = OperandType::TENSOR_BOOL8;

// Row-major index of every element of `dims` in the output that drops (or keeps as 1) `axes`.
std::vector<size_t> outputIndex(const std::vector<uint32_t>& dims, const std::set<uint32_t>& axes) {
  std::vector<size_t> index(ref::count(dims));
  const auto strides = ref::strides(dims);
  for (size_t flat = 0; flat < index.size(); ++flat) {
    size_t o = 0;
    for (size_t d = 0; d < dims.size(); ++d) {
      if (axes.count(static_cast<uint32_t>(d)) != 0) continue;
      o = o * dims[d] + (flat / strides[d]) % dims[d];
    }
    index[flat] = o;
  }
  return index;
}

std::vector<uint32_t> reducedDims(const std::vector<uint32_t>& dims, const std::set<uint32_t>& axes, bool keep) {
  std::vector<uint32_t> out;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (axes.count(static_cast<uint32_t>(d)) == 0) {
      out.push_back(dims[d]);
    } else if (keep) {
      out.push_back(1);
    }
  }
  if (out.empty()) out.push_back(1);
  return out;
}

using Combine = std::function<double(double, double)>;

OperationCase reduceCase(O op, const std::string& name, OperandType type, const std::vector<uint32_t>& dims,
                         const std::vector<int32_t>& axes, bool keep, double init, const Combine& combine,
                         uint32_t seed) {
  CaseBuilder c(name + "_" + typeSuffix(type), op);
  const bool quant = type == Q8 || type == Q8S;
  std::vector<double> in;
  if (type == B8) {
    in = randomQuant(ref::count(dims), seed, 0, 1);
  } else if (quant) {
    in = randomQuant(ref::count(dims), seed, type == Q8 ? 0 : -128, type == Q8 ? 255 : 127);
  } else {
    // REDUCE_PROD: factors near 1 keep the product in range.
    in = op == O::REDUCE_PROD ? randomValues(type, ref::count(dims), seed, 0.5, 1.5)
                              : randomValues(type, ref::count(dims), seed, -2.0, 2.0);
  }
  std::set<uint32_t> axisSet;
  for (int32_t a : axes) axisSet.insert(static_cast<uint32_t>(a < 0 ? a + static_cast<int32_t>(dims.size()) : a));
  const auto outDims = reducedDims(dims, axisSet, keep);
  const auto index = outputIndex(dims, axisSet);
  std::vector<double> out(ref::count(outDims), init);
  for (size_t i = 0; i < in.size(); ++i) out[index[i]] = combine(out[index[i]], in[i]);
  const float scale = quant ? 0.5f : 0.0f;
  const int32_t zero = type == Q8 ? 128 : 0;
  const uint32_t x = c.input(type, dims, in, scale, zero);
  c.output(type, outDims, out, scale, zero);
  return c.build({x, c.int32Tensor(axes), c.boolean(keep)});
}

OperationCase argCase(O op, bool largest, OperandType type, const std::vector<uint32_t>& dims, int32_t axis,
                      uint32_t seed) {
  CaseBuilder c(std::string(largest ? "argmax" : "argmin") + "_rank" + std::to_string(dims.size()) + "_axis" +
                    (axis < 0 ? "_neg" + std::to_string(-axis) : std::to_string(axis)) + "_" + typeSuffix(type),
                op);
  const bool quant = type == Q8 || type == Q8S;
  // Few distinct values, so that ties occur; the first index must win.
  std::vector<double> in = randomQuant(ref::count(dims), seed, -3, 3);
  if (type == Q8) for (double& v : in) v += 100;
  if (type == F32 || type == F16) for (double& v : in) v /= 2;
  const uint32_t a = static_cast<uint32_t>(axis < 0 ? axis + static_cast<int32_t>(dims.size()) : axis);
  std::vector<uint32_t> outDims;
  for (size_t d = 0; d < dims.size(); ++d) if (d != a) outDims.push_back(dims[d]);
  if (outDims.empty()) outDims.push_back(1);
  const auto strides = ref::strides(dims);
  std::vector<double> out(ref::count(outDims), -1);
  std::vector<double> best(out.size());
  const auto index = outputIndex(dims, {a});
  for (size_t i = 0; i < in.size(); ++i) {
    const size_t k = (i / strides[a]) % dims[a];
    const size_t o = index[i];
    if (out[o] < 0 || (largest ? in[i] > best[o] : in[i] < best[o])) {
      out[o] = static_cast<double>(k);
      best[o] = in[i];
    }
  }
  const uint32_t x = c.input(type, dims, in, quant ? 0.5f : 0.0f, type == Q8 ? 120 : 0);
  c.output(I32, outDims, out);
  return c.build({x, c.int32(axis)});
}

// TOPK_V2 along the last dimension: few distinct values so that ties occur (the lower index first).
OperationCase topKCase(OperandType type, const std::vector<uint32_t>& dims, int32_t k, uint32_t seed) {
  CaseBuilder c("topk_v2_k" + std::to_string(k) + "_rank" + std::to_string(dims.size()) + "_" + typeSuffix(type),
                O::TOPK_V2);
  const bool quant = type == Q8 || type == Q8S;
  std::vector<double> in = randomQuant(ref::count(dims), seed, -4, 4);
  if (type == Q8) for (double& v : in) v += 100;
  if (type == F32 || type == F16) for (double& v : in) v /= 4;
  const size_t row = dims.back(), rows = in.size() / row;
  std::vector<double> values, indices;
  for (size_t r = 0; r < rows; ++r) {
    std::vector<size_t> order(row);
    for (size_t i = 0; i < row; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return in[r * row + a] > in[r * row + b]; });
    for (int32_t j = 0; j < k; ++j) {
      values.push_back(in[r * row + order[static_cast<size_t>(j)]]);
      indices.push_back(static_cast<double>(order[static_cast<size_t>(j)]));
    }
  }
  std::vector<uint32_t> outDims = dims;
  outDims.back() = static_cast<uint32_t>(k);
  const float scale = quant ? 0.5f : 0.0f;
  const int32_t zero = type == Q8 ? 120 : 0;
  const uint32_t x = c.input(type, dims, in, scale, zero);
  c.output(type, outDims, values, scale, zero);
  c.tolerance(0, 0);  // values picked, not computed
  c.output(I32, outDims, indices);
  return c.build({x, c.int32(k)});
}

}  // namespace

std::vector<OperationCase> reduceCases() {
  std::vector<OperationCase> cases;
  uint32_t seed = 1300;
  const Combine sum = [](double a, double x) { return a + x; };
  const Combine prod = [](double a, double x) { return a * x; };
  const Combine max = [](double a, double x) { return std::max(a, x); };
  const Combine min = [](double a, double x) { return std::min(a, x); };
  const Combine all = [](double a, double x) { return (a != 0 && x != 0) ? 1.0 : 0.0; };
  const Combine any = [](double a, double x) { return (a != 0 || x != 0) ? 1.0 : 0.0; };
  const double inf = std::numeric_limits<double>::infinity();
  struct Shape {
    std::vector<uint32_t> dims;
    std::vector<int32_t> axes;
    bool keep;
    const char* label;
  };
  const Shape shapes[] = {
      {{2, 3, 4}, {1}, false, "axis1"},
      {{2, 3, 4, 5}, {0, -1}, true, "axes0_neg1_keep"},
      {{3, 5}, {1, 1, -1}, false, "repeated_axis"},
      {{4, 2, 3}, {0, 1, 2}, false, "all_axes"},
  };
  for (const Shape& s : shapes) {
    const std::string l = s.label;
    for (OperandType t : {F32, F16}) {
      cases.push_back(reduceCase(O::REDUCE_SUM, "reduce_sum_" + l, t, s.dims, s.axes, s.keep, 0.0, sum, ++seed));
      cases.push_back(reduceCase(O::REDUCE_PROD, "reduce_prod_" + l, t, s.dims, s.axes, s.keep, 1.0, prod, ++seed));
    }
    for (OperandType t : {F32, F16, Q8, Q8S}) {
      cases.push_back(reduceCase(O::REDUCE_MAX, "reduce_max_" + l, t, s.dims, s.axes, s.keep, -inf, max, ++seed));
      cases.push_back(reduceCase(O::REDUCE_MIN, "reduce_min_" + l, t, s.dims, s.axes, s.keep, inf, min, ++seed));
    }
    cases.push_back(reduceCase(O::REDUCE_ALL, "reduce_all_" + l, B8, s.dims, s.axes, s.keep, 1.0, all, ++seed));
    cases.push_back(reduceCase(O::REDUCE_ANY, "reduce_any_" + l, B8, s.dims, s.axes, s.keep, 0.0, any, ++seed));
  }
  for (OperandType t : {F32, F16, I32, Q8, Q8S}) {
    for (int32_t axis : {0, 1, 2, -1}) {
      cases.push_back(argCase(O::ARGMAX, true, t, {3, 4, 5}, axis, ++seed));
      cases.push_back(argCase(O::ARGMIN, false, t, {3, 4, 5}, axis, ++seed));
    }
  }
  cases.push_back(argCase(O::ARGMAX, true, F32, {7}, 0, ++seed));  // rank 1: output [1]
  for (OperandType t : {F32, F16, I32, Q8, Q8S}) {
    cases.push_back(topKCase(t, {3, 9}, 4, ++seed));
    cases.push_back(topKCase(t, {2, 2, 5}, 5, ++seed));  // k = the whole row: a stable sort
  }
  cases.push_back(topKCase(F32, {6}, 1, ++seed));
  return cases;
}

}  // namespace nnrt::test::conformance
