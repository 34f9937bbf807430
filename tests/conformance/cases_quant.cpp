// The wave-1 operations in the operand types NNAPI added to them after feature level 1:
// TENSOR_QUANT8_ASYMM_SIGNED (feature level 4), TENSOR_FLOAT16 (3), TENSOR_INT32 arithmetic (3-4),
// and TENSOR_QUANT8_ASYMM for PAD, SQUEEZE and TRANSPOSE. Quantized expectations dequantize the
// inputs, compute in double (support/reference_ops.hpp) and quantize the exact result.
#include <cmath>

#include "conformance/operation_case.hpp"
#include "support/reference_ops.hpp"

namespace nnrt::test::conformance {
namespace {

using O = OperationType;

struct Q {
  float scale;
  int32_t zeroPoint;
};

bool isSigned(OperandType type) {
  return type == Q8S;
}
double lowest(OperandType type) {
  return isSigned(type) ? -128 : 0;
}
double highest(OperandType type) {
  return isSigned(type) ? 127 : 255;
}
std::vector<double> randomStored(OperandType type, size_t n, uint32_t seed) {
  return randomQuant(n, seed, static_cast<int>(lowest(type)), static_cast<int>(highest(type)));
}
std::vector<double> quantizeAs(OperandType type, const std::vector<double>& real, Q q) {
  return ref::quantize(real, q.scale, q.zeroPoint, lowest(type), highest(type));
}

// A quantized unary operation: out = fn(dequantized in), quantized into `outQ`.
OperationCase quantUnary(const std::string& name, O op, OperandType type, Q inQ, Q outQ,
                         const std::function<double(double)>& fn, uint32_t seed) {
  CaseBuilder c(name, op);
  const std::vector<uint32_t> dims{2, 3, 4};
  const auto in = randomStored(type, ref::count(dims), seed);
  const uint32_t a = c.input(type, dims, in, inQ.scale, inQ.zeroPoint);
  c.output(type, dims, quantizeAs(type, ref::map(ref::dequantize(in, inQ.scale, inQ.zeroPoint), fn), outQ),
           outQ.scale, outQ.zeroPoint);
  return c.build({a});
}

// A float16 unary operation on values that float16 holds exactly.
OperationCase halfUnary(const std::string& name, O op, const std::function<double(double)>& fn, double lo,
                        double hi, uint32_t seed) {
  CaseBuilder c(name, op);
  const std::vector<uint32_t> dims{3, 5};
  const auto in = randomValues(F16, ref::count(dims), seed, lo, hi);
  const uint32_t a = c.input(F16, dims, in);
  c.output(F16, dims, ref::map(in, fn));
  return c.build({a});
}

using BinaryFn = std::function<double(double, double)>;

OperationCase quantBinary(const std::string& name, O op, const BinaryFn& fn, std::vector<uint32_t> aDims, Q aq,
                          std::vector<uint32_t> bDims, Q bq, Q outQ, int fuse, uint32_t seed) {
  CaseBuilder c(name, op);
  const auto av = randomStored(Q8S, ref::count(aDims), seed);
  const auto bv = randomStored(Q8S, ref::count(bDims), seed + 1);
  const uint32_t ia = c.input(Q8S, aDims, av, aq.scale, aq.zeroPoint);
  const uint32_t ib = c.input(Q8S, bDims, bv, bq.scale, bq.zeroPoint);
  ref::Tensor real = ref::broadcast({aDims, ref::dequantize(av, aq.scale, aq.zeroPoint)},
                                    {bDims, ref::dequantize(bv, bq.scale, bq.zeroPoint)}, fn);
  c.output(Q8S, real.dims, quantizeAs(Q8S, ref::activate(real.values, fuse), outQ), outQ.scale, outQ.zeroPoint);
  return c.build({ia, ib, c.int32(fuse)});
}

OperationCase halfBinary(const std::string& name, O op, const BinaryFn& fn, std::vector<uint32_t> aDims,
                         std::vector<uint32_t> bDims, int fuse, uint32_t seed, double bLo = -4, double bHi = 4) {
  CaseBuilder c(name, op);
  const auto av = randomValues(F16, ref::count(aDims), seed, -4, 4);
  const auto bv = randomValues(F16, ref::count(bDims), seed + 1, bLo, bHi);
  const uint32_t ia = c.input(F16, aDims, av);
  const uint32_t ib = c.constant(F16, bDims, bv);
  ref::Tensor out = ref::broadcast({aDims, av}, {bDims, bv}, fn);
  c.output(F16, out.dims, ref::activate(out.values, fuse));
  return c.build({ia, ib, c.int32(fuse)});
}

void signedQuantCases(std::vector<OperationCase>& cases) {
  const auto add = [](double a, double b) { return a + b; };
  const auto sub = [](double a, double b) { return a - b; };
  const auto mul = [](double a, double b) { return a * b; };
  cases.push_back(quantBinary("sub_quant8_signed_broadcast_relu", O::SUB, sub, {2, 3}, {0.5f, -3}, {3}, {0.25f, 7},
                              {0.5f, -20}, 1, 301));
  cases.push_back(quantBinary("mul_quant8_signed_relu6", O::MUL, mul, {2, 2, 3}, {0.05f, 10}, {2, 2, 3},
                              {0.04f, -5}, {0.03f, -128}, 3, 303));
  cases.push_back(
      quantBinary("add_quant8_signed_random", O::ADD, add, {4, 5}, {0.1f, 0}, {4, 5}, {0.2f, -100}, {0.3f, 2}, 0, 305));
  {
    // real a = 0.5 * (q - (-1)): {-1, 3, 9} -> {0, 2, 5}; b = 2 * (q - 0): {1, -1, 0} -> {2, -2, 0};
    // a + b = {2, 0, 5} quantized with scale 0.5, zero point -128: {-124, -128, -118}.
    CaseBuilder c("add_quant8_signed_by_hand", O::ADD);
    const uint32_t a = c.input(Q8S, {3}, {-1, 3, 9}, 0.5f, -1);
    const uint32_t b = c.input(Q8S, {3}, {1, -1, 0}, 2.0f, 0);
    c.output(Q8S, {3}, {-124, -128, -118}, 0.5f, -128);
    cases.push_back(c.build({a, b, c.int32(0)}));
  }
  const Q in{0.0625f, -8};
  cases.push_back(quantUnary("relu_quant8_signed", O::RELU, Q8S, in, in, [](double x) { return std::max(x, 0.0); }, 311));
  cases.push_back(quantUnary("relu1_quant8_signed", O::RELU1, Q8S, in, in,
                             [](double x) { return std::clamp(x, -1.0, 1.0); }, 312));
  cases.push_back(quantUnary("relu6_quant8_signed", O::RELU6, Q8S, {0.05f, -128}, {0.05f, -128},
                             [](double x) { return std::clamp(x, 0.0, 6.0); }, 313));
  cases.push_back(quantUnary("logistic_quant8_signed", O::LOGISTIC, Q8S, {0.05f, 3}, {1.0f / 256, -128},
                             [](double x) { return 1.0 / (1.0 + std::exp(-x)); }, 314));
  cases.push_back(quantUnary("tanh_quant8_signed", O::TANH, Q8S, {0.03f, -2}, {1.0f / 128, 0},
                             [](double x) { return std::tanh(x); }, 315));
  {
    CaseBuilder c("softmax_quant8_signed", O::SOFTMAX);
    const std::vector<uint32_t> dims{3, 6};
    const auto in = randomStored(Q8S, ref::count(dims), 316);
    const uint32_t a = c.input(Q8S, dims, in, 0.1f, -20);
    const auto real = ref::softmax({dims, ref::dequantize(in, 0.1f, -20)}, 0.5, 1).values;
    c.output(Q8S, dims, quantizeAs(Q8S, real, {1.0f / 256, -128}), 1.0f / 256, -128);
    cases.push_back(c.build({a, c.float32(0.5f)}));
  }
  {
    // FULLY_CONNECTED: 3 batches of 5 inputs to 4 units, per-tensor signed weights.
    CaseBuilder c("fully_connected_quant8_signed_relu", O::FULLY_CONNECTED);
    const Q inQ{0.1f, -5}, wQ{0.05f, 2}, outQ{0.2f, -30};
    const auto in = randomStored(Q8S, 15, 320);
    const auto w = randomStored(Q8S, 20, 321);
    const auto bias = randomIntegers(4, -200, 200, 322);
    const uint32_t a = c.input(Q8S, {3, 5}, in, inQ.scale, inQ.zeroPoint);
    const uint32_t wi = c.constant(Q8S, {4, 5}, w, wQ.scale, wQ.zeroPoint);
    const uint32_t bi = c.constant(I32, {4}, bias, inQ.scale * wQ.scale, 0);
    const auto real = ref::fullyConnected({{3, 5}, ref::dequantize(in, inQ.scale, inQ.zeroPoint)},
                                          {{4, 5}, ref::dequantize(w, wQ.scale, wQ.zeroPoint)},
                                          ref::dequantize(bias, inQ.scale * wQ.scale, 0), 1);
    c.output(Q8S, real.dims, quantizeAs(Q8S, real.values, outQ), outQ.scale, outQ.zeroPoint);
    cases.push_back(c.build({a, wi, bi, c.int32(1)}));
  }
  {
    // CONV_2D 3x3, stride 2, SAME padding, 3 -> 4 channels, per-tensor signed filter.
    CaseBuilder c("conv2d_quant8_signed_same_stride2", O::CONV_2D);
    const Q inQ{0.125f, -4}, fQ{0.0625f, 1}, outQ{0.5f, 3};
    const std::vector<uint32_t> inDims{1, 5, 6, 3}, fDims{4, 3, 3, 3};
    const auto in = randomStored(Q8S, ref::count(inDims), 330);
    const auto f = randomStored(Q8S, ref::count(fDims), 331);
    const auto bias = randomIntegers(4, -500, 500, 332);
    const uint32_t a = c.input(Q8S, inDims, in, inQ.scale, inQ.zeroPoint);
    const uint32_t fi = c.constant(Q8S, fDims, f, fQ.scale, fQ.zeroPoint);
    const uint32_t bi = c.constant(I32, {4}, bias, inQ.scale * fQ.scale, 0);
    ref::Window w;
    std::tie(w.padTop, w.padBottom) = ref::samePadding(5, 3, 2);
    std::tie(w.padLeft, w.padRight) = ref::samePadding(6, 3, 2);
    w.strideH = w.strideW = 2;
    const auto real = ref::conv2d({inDims, ref::dequantize(in, inQ.scale, inQ.zeroPoint)},
                                  {fDims, ref::dequantize(f, fQ.scale, fQ.zeroPoint)},
                                  ref::dequantize(bias, inQ.scale * fQ.scale, 0), w);
    c.output(Q8S, real.dims, quantizeAs(Q8S, real.values, outQ), outQ.scale, outQ.zeroPoint);
    cases.push_back(c.build({a, fi, bi, c.int32(1), c.int32(2), c.int32(2), c.int32(0)}));
  }
  {
    // DEPTHWISE_CONV_2D 2x2, depth multiplier 2, VALID padding.
    CaseBuilder c("depthwise_conv2d_quant8_signed_multiplier2", O::DEPTHWISE_CONV_2D);
    const Q inQ{0.1f, 10}, fQ{0.02f, -3}, outQ{0.05f, -7};
    const std::vector<uint32_t> inDims{1, 4, 3, 2}, fDims{1, 2, 2, 4};
    const auto in = randomStored(Q8S, ref::count(inDims), 340);
    const auto f = randomStored(Q8S, ref::count(fDims), 341);
    const auto bias = randomIntegers(4, -300, 300, 342);
    const uint32_t a = c.input(Q8S, inDims, in, inQ.scale, inQ.zeroPoint);
    const uint32_t fi = c.constant(Q8S, fDims, f, fQ.scale, fQ.zeroPoint);
    const uint32_t bi = c.constant(I32, {4}, bias, inQ.scale * fQ.scale, 0);
    const auto real = ref::depthwiseConv2d({inDims, ref::dequantize(in, inQ.scale, inQ.zeroPoint)},
                                           {fDims, ref::dequantize(f, fQ.scale, fQ.zeroPoint)},
                                           ref::dequantize(bias, inQ.scale * fQ.scale, 0), ref::Window{});
    c.output(Q8S, real.dims, quantizeAs(Q8S, real.values, outQ), outQ.scale, outQ.zeroPoint);
    cases.push_back(c.build({a, fi, bi, c.int32(2), c.int32(1), c.int32(1), c.int32(2), c.int32(0)}));
  }
  for (auto [name, kind, op] : {std::tuple{"average_pool_quant8_signed", ref::PoolKind::Average, O::AVERAGE_POOL_2D},
                                std::tuple{"max_pool_quant8_signed", ref::PoolKind::Max, O::MAX_POOL_2D}}) {
    CaseBuilder c(name, op);
    const Q q{0.25f, -12};
    const std::vector<uint32_t> dims{1, 4, 5, 2};
    const auto in = randomStored(Q8S, ref::count(dims), 350);
    const uint32_t a = c.input(Q8S, dims, in, q.scale, q.zeroPoint);
    ref::Window w;
    w.strideH = w.strideW = 2;
    w.padRight = 1;
    const auto real = ref::pool2d({dims, ref::dequantize(in, q.scale, q.zeroPoint)}, kind, 2, 2, w);
    c.output(Q8S, real.dims, quantizeAs(Q8S, real.values, q), q.scale, q.zeroPoint);
    cases.push_back(c.build({a, c.int32(0), c.int32(1), c.int32(0), c.int32(0), c.int32(2), c.int32(2),
                             c.int32(2), c.int32(2), c.int32(0)}));
  }
  {
    // CONCATENATION along axis 1 with different parameters per input: requantized.
    CaseBuilder c("concatenation_quant8_signed_requantize", O::CONCATENATION);
    const auto x = randomStored(Q8S, 6, 360), y = randomStored(Q8S, 4, 361);
    const uint32_t a = c.input(Q8S, {2, 3}, x, 0.5f, -10);
    const uint32_t b = c.input(Q8S, {2, 2}, y, 0.25f, 20);
    const auto real = ref::concatenation(
        {{{2, 3}, ref::dequantize(x, 0.5f, -10)}, {{2, 2}, ref::dequantize(y, 0.25f, 20)}}, 1);
    c.output(Q8S, real.dims, quantizeAs(Q8S, real.values, {0.5f, 0}), 0.5f, 0);
    cases.push_back(c.build({a, b, c.int32(1)}));
  }
  {
    // Data movement keeps the parameters: the stored values move unchanged.
    const auto in = randomStored(Q8S, 24, 370);
    CaseBuilder t("transpose_quant8_signed", O::TRANSPOSE);
    const uint32_t a = t.input(Q8S, {2, 3, 4}, in, 0.5f, -3);
    t.output(Q8S, {4, 2, 3}, ref::transpose({{2, 3, 4}, in}, {2, 0, 1}).values, 0.5f, -3);
    cases.push_back(t.build({a, t.int32Tensor({2, 0, 1})}));

    CaseBuilder r("reshape_quant8_signed", O::RESHAPE);
    const uint32_t b = r.input(Q8S, {2, 3, 4}, in, 0.5f, -3);
    r.output(Q8S, {6, 4}, in, 0.5f, -3);
    cases.push_back(r.build({b, r.int32Tensor({-1, 4})}));

    CaseBuilder s("squeeze_quant8_signed", O::SQUEEZE);
    const uint32_t d = s.input(Q8S, {1, 24, 1}, in, 0.5f, -3);
    s.output(Q8S, {24}, in, 0.5f, -3);
    cases.push_back(s.build({d, s.omitted(I32)}));

    // PAD fills with the zero point (real 0): -3.
    CaseBuilder p("pad_quant8_signed", O::PAD);
    const uint32_t e = p.input(Q8S, {2, 3, 4}, in, 0.5f, -3);
    p.output(Q8S, {3, 3, 6}, ref::pad({{2, 3, 4}, in}, {1, 0, 2}, {0, 0, 0}, -3).values, 0.5f, -3);
    cases.push_back(p.build({e, p.int32Tensor({1, 0, 0, 0, 2, 0}, {3, 2})}));
  }
}

void quant8MovementCases(std::vector<OperationCase>& cases) {
  const auto in = randomStored(Q8, 12, 380);
  // PAD fills with the zero point: 128.
  CaseBuilder p("pad_quant8_zero_point", O::PAD);
  const uint32_t a = p.input(Q8, {3, 4}, in, 0.1f, 128);
  p.output(Q8, {4, 7}, ref::pad({{3, 4}, in}, {0, 2}, {1, 1}, 128).values, 0.1f, 128);
  cases.push_back(p.build({a, p.int32Tensor({0, 1, 2, 1}, {2, 2})}));

  CaseBuilder s("squeeze_quant8", O::SQUEEZE);
  const uint32_t b = s.input(Q8, {3, 1, 4}, in, 0.1f, 128);
  s.output(Q8, {3, 4}, in, 0.1f, 128);
  cases.push_back(s.build({b, s.int32Tensor({1})}));
}

void halfCases(std::vector<OperationCase>& cases) {
  cases.push_back(halfBinary("sub_float16_broadcast", O::SUB, [](double a, double b) { return a - b; }, {2, 3},
                             {3}, 0, 401));
  cases.push_back(halfBinary("div_float16_relu1", O::DIV, [](double a, double b) { return a / b; }, {2, 3}, {2, 3},
                             2, 403, 0.5, 4));
  cases.push_back(halfUnary("floor_float16", O::FLOOR, [](double x) { return std::floor(x); }, -5, 5, 405));
  cases.push_back(halfUnary("relu6_float16", O::RELU6, [](double x) { return std::clamp(x, 0.0, 6.0); }, -3, 9, 406));
  cases.push_back(halfUnary("tanh_float16", O::TANH, [](double x) { return std::tanh(x); }, -3, 3, 407));
  {
    CaseBuilder c("max_pool_float16_same", O::MAX_POOL_2D);
    const std::vector<uint32_t> dims{1, 5, 5, 2};
    const auto in = randomValues(F16, ref::count(dims), 410, -4, 4);
    const uint32_t a = c.input(F16, dims, in);
    ref::Window w;
    std::tie(w.padTop, w.padBottom) = ref::samePadding(5, 3, 2);
    std::tie(w.padLeft, w.padRight) = ref::samePadding(5, 3, 2);
    w.strideH = w.strideW = 2;
    const auto out = ref::pool2d({dims, in}, ref::PoolKind::Max, 3, 3, w);
    c.output(F16, out.dims, out.values);
    cases.push_back(c.build({a, c.int32(1), c.int32(2), c.int32(2), c.int32(3), c.int32(3), c.int32(0)}));
  }
  {
    CaseBuilder c("mean_float16_keep", O::MEAN);
    const std::vector<uint32_t> dims{2, 3, 4};
    const auto in = randomValues(F16, ref::count(dims), 411, -4, 4);
    const uint32_t a = c.input(F16, dims, in);
    const auto out = ref::mean({dims, in}, {0, 2}, true);
    c.output(F16, out.dims, out.values);
    cases.push_back(c.build({a, c.int32Tensor({0, -1}), c.int32(1)}));
  }
  {
    const auto in = randomValues(F16, 12, 412, -4, 4);
    CaseBuilder p("pad_float16", O::PAD);
    const uint32_t a = p.input(F16, {3, 4}, in);
    p.output(F16, {5, 5}, ref::pad({{3, 4}, in}, {1, 0}, {1, 1}).values);
    cases.push_back(p.build({a, p.int32Tensor({1, 1, 0, 1}, {2, 2})}));

    CaseBuilder t("transpose_float16", O::TRANSPOSE);
    const uint32_t b = t.input(F16, {3, 4}, in);
    t.output(F16, {4, 3}, ref::transpose({{3, 4}, in}, {1, 0}).values);
    cases.push_back(t.build({b, t.omitted(I32)}));

    CaseBuilder k("concatenation_float16", O::CONCATENATION);
    const uint32_t x = k.input(F16, {3, 4}, in);
    const uint32_t y = k.constant(F16, {1, 4}, {0.5, -1.5, 2, 8});
    k.output(F16, {4, 4}, ref::concatenation({{{3, 4}, in}, {{1, 4}, {0.5, -1.5, 2, 8}}}, 0).values);
    cases.push_back(k.build({x, y, k.int32(0)}));

    CaseBuilder r("reshape_float16", O::RESHAPE);
    const uint32_t z = r.input(F16, {3, 4}, in);
    r.output(F16, {2, 6}, in);
    cases.push_back(r.build({z, r.int32Tensor({2, 6})}));
  }
}

void int32Cases(std::vector<OperationCase>& cases) {
  {
    // Floor division, as Python's //: 7 // 2 = 3, -7 // 2 = -4, 7 // -2 = -4, -7 // -2 = 3, 6 // 3 = 2,
    // -6 // 3 = -2.
    CaseBuilder c("div_int32_floor_by_hand", O::DIV);
    const uint32_t a = c.input(I32, {6}, {7, -7, 7, -7, 6, -6});
    const uint32_t b = c.input(I32, {6}, {2, 2, -2, -2, 3, 3});
    c.output(I32, {6}, {3, -4, -4, 3, 2, -2});
    cases.push_back(c.build({a, b, c.int32(0)}));
  }
  {
    // {10, -3, 0} - {[1], [-2]} broadcast: [[9, -4, -1], [12, -1, 2]].
    CaseBuilder c("sub_int32_broadcast_by_hand", O::SUB);
    const uint32_t a = c.input(I32, {3}, {10, -3, 0});
    const uint32_t b = c.input(I32, {2, 1}, {1, -2});
    c.output(I32, {2, 3}, {9, -4, -1, 12, -1, 2});
    cases.push_back(c.build({a, b, c.int32(0)}));
  }
}

}  // namespace

std::vector<OperationCase> quantCases() {
  std::vector<OperationCase> cases;
  signedQuantCases(cases);
  quant8MovementCases(cases);
  int32Cases(cases);
  return cases;
}

std::vector<OperationCase> float16Cases() {
  std::vector<OperationCase> cases;
  halfCases(cases);
  return cases;
}

}  // namespace nnrt::test::conformance
