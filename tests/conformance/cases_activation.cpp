// RELU, RELU1, RELU6, LOGISTIC, TANH and SOFTMAX in float32 and quant8 (quantized LOGISTIC, TANH and
// SOFTMAX have the output parameters NNAPI fixes). Valid variants a driver may leave out:
// TENSOR_FLOAT16.
#include <cmath>
#include <functional>

#include "conformance/operation_case.hpp"
#include "support/reference_ops.hpp"

namespace nnrt::test::conformance {
namespace {

using Unary = std::function<double(double)>;
const Unary kRelu = [](double x) { return std::max(0.0, x); };
const Unary kRelu1 = [](double x) { return std::clamp(x, -1.0, 1.0); };
const Unary kRelu6 = [](double x) { return std::clamp(x, 0.0, 6.0); };
const Unary kLogistic = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
const Unary kTanh = [](double x) { return std::tanh(x); };

OperationCase unaryCase(const std::string& name, OperationType op, const Unary& fn, OperandType type,
                        const std::vector<uint32_t>& dims, double lo, double hi, uint32_t seed) {
  CaseBuilder c(name, op);
  const auto in = randomValues(type, ref::count(dims), seed, lo, hi);
  const uint32_t a = c.input(type, dims, in);
  c.output(type, dims, ref::map(in, fn));
  return c.build({a});
}

// Quantized: the input's parameters are given; out (scale, zero point) is the input's for the RELUs
// and NNAPI's fixed parameters for LOGISTIC and TANH.
OperationCase quantUnaryCase(const std::string& name, OperationType op, const Unary& fn,
                             const std::vector<uint32_t>& dims, float inScale, int32_t inZero, float outScale,
                             int32_t outZero, uint32_t seed) {
  CaseBuilder c(name, op);
  const auto in = randomQuant(ref::count(dims), seed);
  const uint32_t a = c.input(Q8, dims, in, inScale, inZero);
  c.output(Q8, dims, ref::quantize(ref::map(ref::dequantize(in, inScale, inZero), fn), outScale, outZero),
           outScale, outZero);
  return c.build({a});
}

// SOFTMAX; axis < 0 omits the axis input (the 2-input form, default last axis) unless `giveAxis`.
OperationCase softmaxCase(const std::string& name, OperandType type, const std::vector<uint32_t>& dims,
                          double beta, int32_t axis, bool giveAxis, uint32_t seed) {
  CaseBuilder c(name, OperationType::SOFTMAX);
  const auto in = randomValues(type, ref::count(dims), seed, -3, 3);
  const uint32_t a = c.input(type, dims, in);
  const uint32_t rank = static_cast<uint32_t>(dims.size());
  const uint32_t resolved = axis < 0 ? static_cast<uint32_t>(axis + static_cast<int32_t>(rank)) : axis;
  c.output(type, dims, ref::softmax({dims, in}, beta, resolved).values);
  const uint32_t b = type == F16 ? c.float16(static_cast<float>(beta)) : c.float32(static_cast<float>(beta));
  if (!giveAxis) return c.build({a, b});
  return c.build({a, b, c.int32(axis)});
}

}  // namespace

std::vector<OperationCase> activationCases() {
  using O = OperationType;
  std::vector<OperationCase> cases;
  {
    CaseBuilder c("relu_float_by_hand", O::RELU);
    const uint32_t a = c.input(F32, {4}, {-1.5, 0, 0.25, 7});
    c.output(F32, {4}, {0, 0, 0.25, 7});
    cases.push_back(c.build({a}));
  }
  cases.push_back(unaryCase("relu_float", O::RELU, kRelu, F32, {2, 3, 5}, -3, 3, 40));
  cases.push_back(unaryCase("relu1_float", O::RELU1, kRelu1, F32, {3, 7}, -3, 3, 41));
  cases.push_back(unaryCase("relu6_float", O::RELU6, kRelu6, F32, {1, 2, 3, 9}, -8, 8, 42));
  cases.push_back(unaryCase("logistic_float", O::LOGISTIC, kLogistic, F32, {3, 7}, -6, 6, 43));
  cases.push_back(unaryCase("tanh_float", O::TANH, kTanh, F32, {2, 2, 3, 3}, -4, 4, 44));
  cases.push_back(unaryCase("relu_float_large", O::RELU, kRelu, F32, {64, 1031}, -1, 1, 45));

  cases.push_back(quantUnaryCase("relu_quant8", O::RELU, kRelu, {2, 3, 5}, 0.05f, 120, 0.05f, 120, 46));
  cases.push_back(quantUnaryCase("relu1_quant8", O::RELU1, kRelu1, {17}, 0.02f, 100, 0.02f, 100, 47));
  cases.push_back(quantUnaryCase("relu6_quant8", O::RELU6, kRelu6, {3, 11}, 0.05f, 60, 0.05f, 60, 48));
  cases.push_back(
      quantUnaryCase("logistic_quant8", O::LOGISTIC, kLogistic, {4, 9}, 0.05f, 128, 1.0f / 256, 0, 49));
  cases.push_back(quantUnaryCase("tanh_quant8", O::TANH, kTanh, {2, 3, 6}, 0.03f, 110, 1.0f / 128, 128, 50));

  {
    // exp(x - 3) for x = 1, 2, 3: {e^-2, e^-1, 1} / (e^-2 + e^-1 + 1)
    CaseBuilder c("softmax_float_by_hand", O::SOFTMAX);
    const uint32_t a = c.input(F32, {1, 3}, {1, 2, 3});
    const double s = std::exp(-2.0) + std::exp(-1.0) + 1.0;
    c.output(F32, {1, 3}, {std::exp(-2.0) / s, std::exp(-1.0) / s, 1.0 / s});
    cases.push_back(c.build({a, c.float32(1.0f)}));
  }
  cases.push_back(softmaxCase("softmax_float_default_axis", F32, {2, 7}, 1.0, -1, false, 51));
  cases.push_back(softmaxCase("softmax_float_beta_axis0", F32, {3, 4}, 0.5, 0, true, 52));
  cases.push_back(softmaxCase("softmax_float_rank4_negative_axis", F32, {2, 3, 2, 5}, 1.3, -3, true, 53));
  cases.push_back(softmaxCase("softmax_float_large_rows", F32, {3, 1000}, 2.0, -1, true, 54));
  {
    CaseBuilder c("softmax_quant8", O::SOFTMAX);
    const std::vector<uint32_t> dims{2, 5};
    const auto in = randomQuant(10, 55);
    const uint32_t a = c.input(Q8, dims, in, 0.1f, 100);
    const auto real = ref::softmax({dims, ref::dequantize(in, 0.1f, 100)}, 0.8, 1).values;
    c.output(Q8, dims, ref::quantize(real, 1.0 / 256, 0), 1.0f / 256, 0);
    cases.push_back(c.build({a, c.float32(0.8f)}));
  }

  // Valid NNAPI that a driver may leave unsupported.
  cases.push_back(unaryCase("logistic_float16", O::LOGISTIC, kLogistic, F16, {2, 5}, -4, 4, 56));
  cases.push_back(softmaxCase("softmax_float16", F16, {2, 6}, 1.0, -1, false, 57));
  return cases;
}

}  // namespace nnrt::test::conformance
