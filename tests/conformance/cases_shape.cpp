// RESHAPE, SQUEEZE, CONCATENATION, TRANSPOSE, PAD and MEAN: wildcard shapes, omitted optional
// inputs, negative axes, constant and runtime parameter tensors, quant8 requantization in
// CONCATENATION. Valid variants a driver may leave out: quant8 TRANSPOSE and MEAN.
#include "conformance/operation_case.hpp"
#include "support/reference_ops.hpp"

namespace nnrt::test::conformance {
namespace {

using O = OperationType;

OperationCase meanCase(const std::string& name, OperandType type, const std::vector<uint32_t>& dims,
                       const std::vector<int32_t>& axes, bool keep, uint32_t seed) {
  CaseBuilder c(name, O::MEAN);
  const bool quant = type == Q8;
  const auto in =
      quant ? randomQuant(ref::count(dims), seed) : randomValues(type, ref::count(dims), seed, -5, 5);
  const uint32_t a = c.input(type, dims, in, quant ? 0.1f : 0.0f, quant ? 100 : 0);
  std::vector<uint32_t> resolved;
  for (int32_t axis : axes)
    resolved.push_back(static_cast<uint32_t>(axis < 0 ? axis + static_cast<int32_t>(dims.size()) : axis));
  const auto out = ref::mean({dims, quant ? ref::dequantize(in, 0.1f, 100) : in}, resolved, keep);
  c.output(type, out.dims, quant ? ref::quantize(out.values, 0.1f, 100) : out.values, quant ? 0.1f : 0.0f,
           quant ? 100 : 0);
  return c.build({a, c.int32Tensor(axes), c.int32(keep ? 1 : 0)});
}

OperationCase transposeCase(const std::string& name, OperandType type, const std::vector<uint32_t>& dims,
                            const std::vector<int32_t>& perm, uint32_t seed) {
  CaseBuilder c(name, O::TRANSPOSE);
  const bool quant = type == Q8;
  const auto in = quant ? randomQuant(ref::count(dims), seed) : randomValues(type, ref::count(dims), seed);
  const uint32_t a = c.input(type, dims, in, quant ? 0.5f : 0.0f, quant ? 7 : 0);
  std::vector<uint32_t> p;
  if (perm.empty()) {
    for (size_t d = dims.size(); d-- > 0;)
      p.push_back(static_cast<uint32_t>(d));
  } else {
    p.assign(perm.begin(), perm.end());
  }
  const auto out = ref::transpose({dims, in}, p);
  c.output(type, out.dims, out.values, quant ? 0.5f : 0.0f, quant ? 7 : 0);
  return c.build({a, perm.empty() ? c.omitted(I32) : c.int32Tensor(perm)});
}

}  // namespace

std::vector<OperationCase> shapeCases() {
  std::vector<OperationCase> cases;
  // RESHAPE
  {
    CaseBuilder c("reshape_float_wildcard", O::RESHAPE);
    const auto in = randomValues(F32, 24, 300);
    const uint32_t a = c.input(F32, {2, 3, 4}, in);
    c.output(F32, {4, 6}, in);
    cases.push_back(c.build({a, c.int32Tensor({4, -1})}));
  }
  {
    // The shape is a model input: known only at execution.
    CaseBuilder c("reshape_float_runtime_shape", O::RESHAPE);
    const auto in = randomValues(F32, 30, 301);
    const uint32_t a = c.input(F32, {5, 6}, in);
    const uint32_t shape = c.input(I32, {3}, {3, 2, 5});
    c.output(F32, {3, 2, 5}, in);
    cases.push_back(c.build({a, shape}));
  }
  {
    CaseBuilder c("reshape_quant8", O::RESHAPE);
    const auto in = randomQuant(12, 302);
    const uint32_t a = c.input(Q8, {12}, in, 0.25f, 3);
    c.output(Q8, {2, 2, 3}, in, 0.25f, 3);
    cases.push_back(c.build({a, c.int32Tensor({2, 2, 3})}));
  }
  // SQUEEZE
  {
    CaseBuilder c("squeeze_float_axes", O::SQUEEZE);
    const auto in = randomValues(F32, 6, 303);
    const uint32_t a = c.input(F32, {1, 3, 1, 2}, in);
    c.output(F32, {3, 2}, in);
    cases.push_back(c.build({a, c.int32Tensor({0, 2})}));
  }
  {
    CaseBuilder c("squeeze_float_axes_omitted", O::SQUEEZE);
    const auto in = randomValues(F32, 6, 304);
    const uint32_t a = c.input(F32, {1, 3, 1, 2}, in);
    c.output(F32, {3, 2}, in);
    cases.push_back(c.build({a, c.omitted(I32)}));
  }
  {
    CaseBuilder c("squeeze_float_negative_axis", O::SQUEEZE);
    const auto in = randomValues(F32, 6, 305);
    const uint32_t a = c.input(F32, {2, 1, 3}, in);
    c.output(F32, {2, 3}, in);
    cases.push_back(c.build({a, c.int32Tensor({-2})}));
  }
  // CONCATENATION
  {
    CaseBuilder c("concatenation_float_three_inputs_axis1", O::CONCATENATION);
    std::vector<ref::Tensor> parts;
    std::vector<uint32_t> inputs;
    for (uint32_t i = 0; i < 3; ++i) {
      parts.push_back({{2, i + 1, 3}, randomValues(F32, 6 * (i + 1), 306 + i)});
      inputs.push_back(c.input(F32, parts.back().dims, parts.back().values));
    }
    const auto out = ref::concatenation(parts, 1);
    c.output(F32, out.dims, out.values);
    inputs.push_back(c.int32(1));
    cases.push_back(c.build(inputs));
  }
  {
    CaseBuilder c("concatenation_float_negative_axis_constant", O::CONCATENATION);
    const ref::Tensor x{{2, 3}, randomValues(F32, 6, 310)}, y{{2, 2}, randomValues(F32, 4, 311)};
    const uint32_t a = c.input(F32, x.dims, x.values);
    const uint32_t b = c.constant(F32, y.dims, y.values);
    const auto out = ref::concatenation({x, y}, 1);
    c.output(F32, out.dims, out.values);
    cases.push_back(c.build({a, b, c.int32(-1)}));
  }
  {
    CaseBuilder c("concatenation_float_rank4_axis0", O::CONCATENATION);
    const ref::Tensor x{{1, 2, 3, 2}, randomValues(F32, 12, 312)},
        y{{2, 2, 3, 2}, randomValues(F32, 24, 313)};
    const uint32_t a = c.input(F32, x.dims, x.values);
    const uint32_t b = c.input(F32, y.dims, y.values);
    const auto out = ref::concatenation({x, y}, 0);
    c.output(F32, out.dims, out.values);
    cases.push_back(c.build({a, b, c.int32(0)}));
  }
  {
    // Inputs with their own parameters are requantized into the output's.
    CaseBuilder c("concatenation_quant8_requantize", O::CONCATENATION);
    const auto xq = randomQuant(8, 314), yq = randomQuant(4, 315);
    const uint32_t a = c.input(Q8, {2, 4}, xq, 0.1f, 100);
    const uint32_t b = c.input(Q8, {2, 2}, yq, 0.05f, 20);
    const auto out = ref::concatenation(
        {{{2, 4}, ref::dequantize(xq, 0.1f, 100)}, {{2, 2}, ref::dequantize(yq, 0.05f, 20)}}, 1);
    c.output(Q8, out.dims, ref::quantize(out.values, 0.08f, 90), 0.08f, 90);
    cases.push_back(c.build({a, b, c.int32(1)}));
  }
  {
    CaseBuilder c("concatenation_quant8_same_parameters", O::CONCATENATION);
    const ref::Tensor x{{3, 2}, randomQuant(6, 316)}, y{{1, 2}, randomQuant(2, 317)};
    const uint32_t a = c.input(Q8, x.dims, x.values, 0.2f, 10);
    const uint32_t b = c.input(Q8, y.dims, y.values, 0.2f, 10);
    const auto out = ref::concatenation({x, y}, 0);
    c.output(Q8, out.dims, out.values, 0.2f, 10);
    cases.push_back(c.build({a, b, c.int32(0)}));
  }
  // TRANSPOSE
  cases.push_back(transposeCase("transpose_float_perm", F32, {2, 3, 4}, {2, 0, 1}, 320));
  cases.push_back(transposeCase("transpose_float_rank4_perm_omitted", F32, {2, 3, 4, 5}, {}, 321));
  cases.push_back(transposeCase("transpose_float_rank2", F32, {7, 3}, {1, 0}, 322));
  // PAD
  {
    CaseBuilder c("pad_float_rank2", O::PAD);
    const ref::Tensor x{{2, 3}, randomValues(F32, 6, 330)};
    const uint32_t a = c.input(F32, x.dims, x.values);
    const auto out = ref::pad(x, {1, 2}, {0, 1});
    c.output(F32, out.dims, out.values);
    cases.push_back(c.build({a, c.int32Tensor({1, 0, 2, 1}, {2, 2})}));
  }
  {
    CaseBuilder c("pad_float_rank4", O::PAD);
    const ref::Tensor x{{1, 2, 3, 2}, randomValues(F32, 12, 331)};
    const uint32_t a = c.input(F32, x.dims, x.values);
    const auto out = ref::pad(x, {0, 1, 0, 0}, {0, 1, 2, 1});
    c.output(F32, out.dims, out.values);
    cases.push_back(c.build({a, c.int32Tensor({0, 0, 1, 1, 0, 2, 0, 1}, {4, 2})}));
  }
  // MEAN
  cases.push_back(meanCase("mean_float_keep_dims", F32, {2, 3, 4}, {1}, true, 340));
  cases.push_back(meanCase("mean_float_negative_axes", F32, {2, 3, 4}, {-1, 0}, false, 341));
  cases.push_back(meanCase("mean_float_all_axes", F32, {3, 2, 5}, {0, 1, 2}, false, 342));
  cases.push_back(meanCase("mean_float_spatial_rank4", F32, {2, 17, 19, 3}, {1, 2}, true, 343));
  cases.push_back(meanCase("mean_float_repeated_axis", F32, {4, 6}, {1, -1}, false, 344));

  // Valid NNAPI that a driver may leave unsupported.
  cases.push_back(meanCase("mean_quant8", Q8, {2, 3, 4}, {1, 2}, false, 350));
  cases.push_back(transposeCase("transpose_quant8", Q8, {2, 3, 2}, {1, 2, 0}, 351));
  return cases;
}

}  // namespace nnrt::test::conformance
