// ADD, SUB, MUL, DIV (broadcasting, fused activations, quant8 with distinct parameters per operand)
// and FLOOR. Valid variants a driver may leave out: TENSOR_FLOAT16, TENSOR_INT32 and
// TENSOR_QUANT8_ASYMM_SIGNED element-wise.
#include <cmath>
#include <functional>

#include "conformance/operation_case.hpp"
#include "support/reference_ops.hpp"

namespace nnrt::test::conformance {
namespace {

using Fn = std::function<double(double, double)>;
const Fn kAdd = [](double a, double b) { return a + b; };
const Fn kSub = [](double a, double b) { return a - b; };
const Fn kMul = [](double a, double b) { return a * b; };
const Fn kDiv = [](double a, double b) { return a / b; };

struct Operand {
  std::vector<uint32_t> dims;
  bool constant = false;
};

// A float (32 or 16) or TENSOR_INT32 binary operation on random data: b in [bLo, bHi] (away from 0
// for DIV).
OperationCase binaryCase(const std::string& name, OperationType op, const Fn& fn, OperandType type,
                         const Operand& a, const Operand& b, int fuse, uint32_t seed, double bLo = -4.0,
                         double bHi = 4.0) {
  CaseBuilder c(name, op);
  const bool integer = type == I32;
  const auto av = integer ? randomIntegers(ref::count(a.dims), -100, 100, seed)
                          : randomValues(type, ref::count(a.dims), seed, -4.0, 4.0);
  const auto bv = integer ? randomIntegers(ref::count(b.dims), -100, 100, seed + 1)
                          : randomValues(type, ref::count(b.dims), seed + 1, bLo, bHi);
  const uint32_t ia = a.constant ? c.constant(type, a.dims, av) : c.input(type, a.dims, av);
  const uint32_t ib = b.constant ? c.constant(type, b.dims, bv) : c.input(type, b.dims, bv);
  ref::Tensor out = ref::broadcast({a.dims, av}, {b.dims, bv}, fn);
  c.output(type, out.dims, ref::activate(out.values, fuse));
  return c.build({ia, ib, c.int32(fuse)});
}

struct Quant {
  float scale;
  int32_t zeroPoint;
};

// A quantized binary operation: reals from dequantized random data, the exact result quantized into
// the output's parameters. lo/hi: the type's range (0..255, or -128..127 for the signed type).
OperationCase quantBinaryCase(const std::string& name, OperationType op, const Fn& fn, OperandType type,
                              const std::vector<uint32_t>& aDims, Quant aq,
                              const std::vector<uint32_t>& bDims, Quant bq, Quant outQ, int fuse,
                              uint32_t seed) {
  const int lo = type == Q8S ? -128 : 0;
  const int hi = type == Q8S ? 127 : 255;
  CaseBuilder c(name, op);
  const auto av = randomQuant(ref::count(aDims), seed, lo, hi);
  const auto bv = randomQuant(ref::count(bDims), seed + 1, lo, hi);
  const uint32_t ia = c.input(type, aDims, av, aq.scale, aq.zeroPoint);
  const uint32_t ib = c.input(type, bDims, bv, bq.scale, bq.zeroPoint);
  ref::Tensor real = ref::broadcast({aDims, ref::dequantize(av, aq.scale, aq.zeroPoint)},
                                    {bDims, ref::dequantize(bv, bq.scale, bq.zeroPoint)}, fn);
  const auto expected = ref::quantize(ref::activate(real.values, fuse), outQ.scale, outQ.zeroPoint, lo, hi);
  c.output(type, real.dims, expected, outQ.scale, outQ.zeroPoint);
  return c.build({ia, ib, c.int32(fuse)});
}

}  // namespace

std::vector<OperationCase> elementwiseCases() {
  using O = OperationType;
  std::vector<OperationCase> cases;
  {
    CaseBuilder c("add_float_by_hand", O::ADD);
    const uint32_t a = c.input(F32, {2, 2}, {1, 2, 3, 4});
    const uint32_t b = c.input(F32, {2, 2}, {10, 20, 30, 40.5});
    c.output(F32, {2, 2}, {11, 22, 33, 44.5});
    cases.push_back(c.build({a, b, c.int32(0)}));
  }
  {
    // {1, -2, 3} * {2, 2, -1} = {2, -4, -3}; relu -> {2, 0, 0}
    CaseBuilder c("mul_float_by_hand_relu", O::MUL);
    const uint32_t a = c.input(F32, {3}, {1, -2, 3});
    const uint32_t b = c.input(F32, {3}, {2, 2, -1});
    c.output(F32, {3}, {2, 0, 0});
    cases.push_back(c.build({a, b, c.int32(1)}));
  }
  {
    // {1, 2, 3, 4} / {2, 4, 0.5, -8} = {0.5, 0.5, 6, -0.5}
    CaseBuilder c("div_float_by_hand", O::DIV);
    const uint32_t a = c.input(F32, {1, 4}, {1, 2, 3, 4});
    const uint32_t b = c.input(F32, {1, 4}, {2, 4, 0.5, -8});
    c.output(F32, {1, 4}, {0.5, 0.5, 6, -0.5});
    cases.push_back(c.build({a, b, c.int32(0)}));
  }
  cases.push_back(binaryCase("add_float_broadcast_relu", O::ADD, kAdd, F32, {{2, 3, 4}}, {{4}}, 1, 10));
  cases.push_back(
      binaryCase("add_float_broadcast_both_relu6", O::ADD, kAdd, F32, {{2, 1, 3}}, {{4, 1}}, 3, 11));
  cases.push_back(binaryCase("add_float_constant_operand_relu1", O::ADD, kAdd, F32, {{3, 5}}, {{1, 5}, true},
                             2, 12, -0.5, 0.5));
  cases.push_back(
      binaryCase("add_float_rank4_odd", O::ADD, kAdd, F32, {{2, 3, 5, 7}}, {{2, 3, 5, 7}}, 0, 13));
  cases.push_back(
      binaryCase("sub_float_broadcast_relu1", O::SUB, kSub, F32, {{3, 1}}, {{1, 5}}, 2, 14, -1, 1));
  cases.push_back(binaryCase("sub_float_scalar_like", O::SUB, kSub, F32, {{1}}, {{2, 3, 2}}, 0, 15));
  cases.push_back(
      binaryCase("mul_float_broadcast_rank4", O::MUL, kMul, F32, {{1, 2, 3, 4}}, {{2, 1, 1}}, 0, 16));
  cases.push_back(
      binaryCase("mul_float_big_constant_relu6", O::MUL, kMul, F32, {{4, 40}}, {{4, 40}, true}, 3, 17));
  cases.push_back(
      binaryCase("div_float_broadcast_relu", O::DIV, kDiv, F32, {{3, 4}}, {{4}}, 1, 18, 0.5, 2.0));
  cases.push_back(
      binaryCase("div_float_rank3_broadcast", O::DIV, kDiv, F32, {{2, 1, 5}}, {{3, 1}}, 0, 19, -2.0, -0.5));

  cases.push_back(quantBinaryCase("add_quant8_broadcast_relu", O::ADD, kAdd, Q8, {2, 3}, {0.5f, 100}, {3},
                                  {0.25f, 10}, {0.4f, 50}, 1, 20));
  cases.push_back(quantBinaryCase("add_quant8_same_parameters", O::ADD, kAdd, Q8, {2, 2, 5}, {0.1f, 128},
                                  {2, 2, 5}, {0.1f, 128}, {0.1f, 128}, 0, 21));
  cases.push_back(quantBinaryCase("sub_quant8_broadcast_relu6", O::SUB, kSub, Q8, {4, 1}, {0.05f, 30}, {1, 3},
                                  {0.02f, 200}, {0.05f, 100}, 3, 22));
  cases.push_back(quantBinaryCase("mul_quant8_broadcast", O::MUL, kMul, Q8, {2, 3, 4}, {0.02f, 128}, {4},
                                  {0.03f, 100}, {0.02f, 120}, 0, 23));
  cases.push_back(quantBinaryCase("mul_quant8_relu1", O::MUL, kMul, Q8, {7}, {0.01f, 128}, {7}, {0.02f, 128},
                                  {0.01f, 128}, 2, 24));
  {
    CaseBuilder c("floor_float", O::FLOOR);
    const std::vector<double> in{-2.5, -1, -0.5, 0, 0.5, 1.99, 2, 3.75, -0.001, 1e6 + 0.5};
    const uint32_t a = c.input(F32, {2, 5}, in);
    c.output(F32, {2, 5}, ref::map(in, [](double x) { return std::floor(x); }));
    cases.push_back(c.build({a}));
  }
  {
    CaseBuilder c("floor_float_random", O::FLOOR);
    const auto in = randomValues(F32, 3 * 4 * 5, 25, -10, 10);
    const uint32_t a = c.input(F32, {3, 4, 5}, in);
    c.output(F32, {3, 4, 5}, ref::map(in, [](double x) { return std::floor(x); }));
    cases.push_back(c.build({a}));
  }

  // Valid NNAPI that a driver may leave unsupported.
  cases.push_back(binaryCase("add_float16_broadcast", O::ADD, kAdd, F16, {{2, 3}}, {{3}}, 0, 30));
  cases.push_back(binaryCase("mul_float16_relu", O::MUL, kMul, F16, {{4, 2}}, {{4, 2}}, 1, 31));
  cases.push_back(binaryCase("add_int32", O::ADD, kAdd, I32, {{2, 3}}, {{3}}, 0, 32));
  cases.push_back(binaryCase("mul_int32", O::MUL, kMul, I32, {{3, 2}}, {{3, 2}}, 0, 33));
  cases.push_back(quantBinaryCase("add_quant8_signed", O::ADD, kAdd, Q8S, {2, 3}, {0.5f, -10}, {2, 3},
                                  {0.25f, 5}, {0.5f, 0}, 0, 34));
  return cases;
}

}  // namespace nnrt::test::conformance
