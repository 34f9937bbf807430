// ADD, SUB, MUL, DIV and FLOOR: hand-computed cases, then random operands of many broadcast shapes
// (including ones large enough to run in parallel) against a double-precision reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>

#include "cpu_kernels/test_support.hpp"
#include "nnrt/driver/types.hpp"
#include "plugins/cpu/kernels/elementwise.hpp"
#include "plugins/cpu/kernels/nonlinear.hpp"

namespace nnrt::cpu::test {
namespace {

TEST(Elementwise, AddBroadcastsTrailingDimensionByHand) {
  // [2,3] + [3]: each row gets {10, 20, 30} added.
  const std::vector<float> a{1, 2, 3, 4, 5, 6}, b{10, 20, 30};
  std::vector<float> out(6);
  add(a.data(), {{2, 3}}, b.data(), {{3}}, Activation::None, out.data(), {{2, 3}});
  expectFloatsNear(out, {11, 22, 33, 14, 25, 36});
}

TEST(Elementwise, AddBroadcastsBothOperandsWithRelu1ByHand) {
  // [1,2] + [2,1] -> [2,2]: row r is a + b[r].
  // row 0: {0.5 + 0.25, -3 + 0.25} = {0.75, -2.75} -> relu1 {0.75, -1}
  // row 1: {0.5 + 2, -3 + 2} = {2.5, -1} -> relu1 {1, -1}
  const std::vector<float> a{0.5f, -3}, b{0.25f, 2};
  std::vector<float> out(4);
  add(a.data(), {{1, 2}}, b.data(), {{2, 1}}, Activation::Relu1, out.data(), {{2, 2}});
  expectFloatsNear(out, {0.75, -1, 1, -1});
}

TEST(Elementwise, SubSubtractsSecondFromFirstByHand) {
  // [1] - [2,2]: 1 - {5, 6, 7, 0.5} = {-4, -5, -6, 0.5}; relu -> {0, 0, 0, 0.5}.
  const std::vector<float> a{1}, b{5, 6, 7, 0.5f};
  std::vector<float> out(4);
  sub(a.data(), {{1}}, b.data(), {{2, 2}}, Activation::None, out.data(), {{2, 2}});
  expectFloatsNear(out, {-4, -5, -6, 0.5});
  sub(a.data(), {{1}}, b.data(), {{2, 2}}, Activation::Relu, out.data(), {{2, 2}});
  expectFloatsNear(out, {0, 0, 0, 0.5});
}

TEST(Elementwise, MulWithRelu6ByHand) {
  // [2] * [2,1] -> [2,2]: {2*4, -3*4, 2*0.5, -3*0.5} = {8, -12, 1, -1.5}; relu6 -> {6, 0, 1, 0}.
  const std::vector<float> a{2, -3}, b{4, 0.5f};
  std::vector<float> out(4);
  mul(a.data(), {{2}}, b.data(), {{2, 1}}, Activation::None, out.data(), {{2, 2}});
  expectFloatsNear(out, {8, -12, 1, -1.5});
  mul(a.data(), {{2}}, b.data(), {{2, 1}}, Activation::Relu6, out.data(), {{2, 2}});
  expectFloatsNear(out, {6, 0, 1, 0});
}

TEST(Elementwise, DivByHand) {
  // {1, 9, -4} / 2 = {0.5, 4.5, -2}
  const std::vector<float> a{1, 9, -4}, b{2};
  std::vector<float> out(3);
  div(a.data(), {{3}}, b.data(), {{1}}, Activation::None, out.data(), {{3}});
  expectFloatsNear(out, {0.5, 4.5, -2});
}

TEST(Elementwise, FloorByHand) {
  const std::vector<float> in{-1.5f, -0.25f, 2.75f, 3.0f, 0.0f};
  std::vector<float> out(5);
  floor(in.data(), in.size(), out.data());
  expectFloatsNear(out, {-2, -1, 2, 3, 0});
}

// CAST between float32, int32 and uint8 (TENSOR_QUANT8_ASYMM), by NNAPI's rule: toward zero, clamped to the
// output's range, NaN to 0; integers to float exactly (16777217 to the nearest float, 16777216). Enough
// values (4099) to run over the threads, the edge values at both ends.
TEST(Elementwise, CastTruncatesClampsAndMapsNaNToZeroByHand) {
  using OT = driver::OperandType;
  const auto f32 = static_cast<int32_t>(OT::TENSOR_FLOAT32), i32 = static_cast<int32_t>(OT::TENSOR_INT32),
             u8 = static_cast<int32_t>(OT::TENSOR_QUANT8_ASYMM);
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> edges{-2.7f, -0.5f, 0.5f, 254.9f, 255.5f, 3e9f, -3e9f, -2147483648.0f, inf, -inf, std::nanf("")};
  const std::vector<int32_t> toInt{-2, 0, 0, 254, 255, 2147483647, -2147483647 - 1, -2147483647 - 1, 2147483647, -2147483647 - 1, 0};
  const std::vector<uint8_t> toByte{0, 0, 0, 254, 255, 255, 0, 0, 255, 0, 0};
  std::vector<float> in(4099, 7.9f);
  std::copy(edges.begin(), edges.end(), in.begin());
  std::copy(edges.begin(), edges.end(), in.end() - static_cast<std::ptrdiff_t>(edges.size()));
  std::vector<int32_t> ints(in.size());
  std::vector<uint8_t> bytes(in.size());
  cast(in.data(), f32, in.size(), ints.data(), i32);
  cast(in.data(), f32, in.size(), bytes.data(), u8);
  for (size_t k = 0; k < edges.size(); ++k) {
    for (size_t at : {k, in.size() - edges.size() + k}) {
      EXPECT_EQ(ints[at], toInt[k]) << "float " << in[at];
      EXPECT_EQ(bytes[at], toByte[k]) << "float " << in[at];
    }
  }
  EXPECT_EQ(ints[2000], 7);
  EXPECT_EQ(bytes[2000], 7);
  const std::vector<int32_t> integers{16777217, -5, 0, 300};
  std::vector<float> floats(4);
  cast(integers.data(), i32, 4, floats.data(), f32);
  EXPECT_EQ(floats, (std::vector<float>{16777216.0f, -5.0f, 0.0f, 300.0f}));
  const std::vector<uint8_t> small{0, 1, 255};
  std::vector<int32_t> widened(3);
  cast(small.data(), u8, 3, floats.data(), f32);
  cast(small.data(), u8, 3, widened.data(), i32);
  EXPECT_EQ(std::vector<float>(floats.begin(), floats.begin() + 3), (std::vector<float>{0, 1, 255}));
  EXPECT_EQ(widened, (std::vector<int32_t>{0, 1, 255}));
}

TEST(Elementwise, QuantAddRequantizesEachOperandByHand) {
  // a: scale 0.5, zp 10: {12, 20} -> {1, 5};  b: scale 0.25, zp 0: {4, 3} -> {1, 0.75}
  // sum {2, 5.75}; output scale 1, zp 5 -> {round(2) + 5, round(5.75) + 5} = {7, 11}
  const std::vector<uint8_t> a{12, 20}, b{4, 3};
  std::vector<uint8_t> out(2);
  add(a.data(), {{2}}, {0.5f, 10}, b.data(), {{2}}, {0.25f, 0}, Activation::None, out.data(), {{2}},
      {1.0f, 5});
  EXPECT_EQ(out, (std::vector<uint8_t>{7, 11}));
  // sub: {1 - 1, 5 - 0.75} = {0, 4.25} -> {5, 9}
  sub(a.data(), {{2}}, {0.5f, 10}, b.data(), {{2}}, {0.25f, 0}, Activation::None, out.data(), {{2}},
      {1.0f, 5});
  EXPECT_EQ(out, (std::vector<uint8_t>{5, 9}));
}

TEST(Elementwise, QuantMulByHand) {
  // a, b: scale 0.5, zp 128. a {130, 124} -> {1, -2}; b {134, 132} -> {3, 2}
  // products {3, -4}; output scale 0.25, zp 100 -> {100 + 12, 100 - 16} = {112, 84}; relu -> {112, 100}
  const std::vector<uint8_t> a{130, 124}, b{134, 132};
  std::vector<uint8_t> out(2);
  mul(a.data(), {{2}}, {0.5f, 128}, b.data(), {{2}}, {0.5f, 128}, Activation::None, out.data(), {{2}},
      {0.25f, 100});
  EXPECT_EQ(out, (std::vector<uint8_t>{112, 84}));
  mul(a.data(), {{2}}, {0.5f, 128}, b.data(), {{2}}, {0.5f, 128}, Activation::Relu, out.data(), {{2}},
      {0.25f, 100});
  EXPECT_EQ(out, (std::vector<uint8_t>{112, 100}));
}

// ---- random operands against a double reference ----

Shape broadcastShape(const Shape& a, const Shape& b) {
  Shape out;
  out.dims.resize(std::max(a.rank(), b.rank()));
  for (size_t k = 0; k < out.rank(); ++k) {
    const uint32_t da = k < a.rank() ? a.dims[a.rank() - 1 - k] : 1;
    const uint32_t db = k < b.rank() ? b.dims[b.rank() - 1 - k] : 1;
    out.dims[out.rank() - 1 - k] = da == 1 ? db : da;  // a size-1 dim takes the other (which may be 0)
  }
  return out;
}

struct ShapePair {
  Shape a, b;
};

std::vector<ShapePair> shapePairs() {
  return {
      {{{2, 3, 4, 5}}, {{2, 3, 4, 5}}},  // equal shapes
      {{{2, 3, 4, 5}}, {{5}}},           // trailing vector
      {{{7}}, {{1}}},                    // scalar-like
      {{{1}}, {{7, 3}}},                 // scalar-like first operand
      {{{4, 1, 5}}, {{3, 1}}},           // both broadcast
      {{{5, 1, 3, 1}}, {{1, 4, 1, 6}}},  // alternating
      {{{3, 1}}, {{2, 1, 1, 1}}},        // output keeps a size-1 dim
      {{{1, 1, 2, 1}}, {{2, 3, 1, 1}}},
      {{{2, 0, 3}}, {{3}}},           // zero-sized
      {{{64, 128, 33}}, {{128, 1}}},  // large, parallel, short runs
      {{{300, 257}}, {{300, 257}}},   // large, parallel, one long run
      {{{1, 70000}}, {{3, 1}}},       // large rows that get cut into runs
  };
}

using FloatOp = std::function<double(double, double)>;
using FloatKernel = void (*)(const float*, const Shape&, const float*, const Shape&, Activation, float*,
                             const Shape&);

void checkFloatBinary(FloatKernel kernel, const FloatOp& op, bool divisor) {
  uint32_t seed = 1;
  const Activation acts[] = {Activation::None, Activation::Relu, Activation::Relu1, Activation::Relu6};
  for (const ShapePair& pair : shapePairs()) {
    const Shape out = broadcastShape(pair.a, pair.b);
    const Activation act = acts[seed % 4];
    SCOPED_TRACE("case " + std::to_string(seed) + " act " + std::to_string(static_cast<int>(act)));
    const auto a = randomFloats(pair.a.elements(), -4, 4, seed++);
    auto b = randomFloats(pair.b.elements(), divisor ? 0.5f : -4.0f, 4, seed++);
    if (divisor) {  // keep |b| >= 0.5 but give it both signs
      for (size_t i = 0; i < b.size(); i += 2)
        b[i] = -b[i];
    }
    std::vector<double> expected(out.elements());
    for (size_t i = 0; i < expected.size(); ++i) {
      expected[i] = activate(op(a[broadcastSource(pair.a, out, i)], b[broadcastSource(pair.b, out, i)]), act);
    }
    std::vector<float> actual(out.elements(), -999.0f);
    kernel(a.data(), pair.a, b.data(), pair.b, act, actual.data(), out);
    expectFloatsNear(actual, expected);
  }
}

TEST(Elementwise, RandomAddMatchesReference) {
  checkFloatBinary(
      add, [](double x, double y) { return x + y; }, false);
}
TEST(Elementwise, RandomSubMatchesReference) {
  checkFloatBinary(
      sub, [](double x, double y) { return x - y; }, false);
}
TEST(Elementwise, RandomMulMatchesReference) {
  checkFloatBinary(
      mul, [](double x, double y) { return x * y; }, false);
}
TEST(Elementwise, RandomDivMatchesReference) {
  checkFloatBinary(
      div, [](double x, double y) { return x / y; }, true);
}

TEST(Elementwise, RandomFloorMatchesReference) {
  const auto in = randomFloats(100003, -50, 50, 7);
  std::vector<double> expected(in.size());
  for (size_t i = 0; i < in.size(); ++i)
    expected[i] = std::floor(static_cast<double>(in[i]));
  std::vector<float> out(in.size());
  floor(in.data(), in.size(), out.data());
  expectFloatsNear(out, expected, 0.0, 0.0);
}

TEST(Elementwise, FloatOutputMayAliasFirstInput) {
  std::vector<float> a = randomFloats(50000, -1, 1, 3);
  const std::vector<float> original = a;
  const std::vector<float> b{0.5f};
  add(a.data(), {{50000}}, b.data(), {{1}}, Activation::None, a.data(), {{50000}});
  std::vector<double> expected(original.begin(), original.end());
  for (double& x : expected)
    x += 0.5;
  expectFloatsNear(a, expected);
}

using QuantKernel = void (*)(const uint8_t*, const Shape&, Quant, const uint8_t*, const Shape&, Quant,
                             Activation, uint8_t*, const Shape&, Quant);

void checkQuantBinary(QuantKernel kernel, const FloatOp& op) {
  uint32_t seed = 100;
  const Activation acts[] = {Activation::None, Activation::Relu, Activation::Relu1, Activation::Relu6};
  for (const ShapePair& pair : shapePairs()) {
    const Shape out = broadcastShape(pair.a, pair.b);
    const Activation act = acts[seed % 4];
    SCOPED_TRACE("case " + std::to_string(seed) + " act " + std::to_string(static_cast<int>(act)));
    const auto a = randomBytes(pair.a.elements(), seed++);
    const auto b = randomBytes(pair.b.elements(), seed++);
    const Quant qa{0.01f + 0.003f * (seed % 7), static_cast<int32_t>(seed * 37 % 256)};
    const Quant qb{0.02f + 0.005f * (seed % 5), static_cast<int32_t>(seed * 91 % 256)};
    std::vector<double> reals(out.elements());
    for (size_t i = 0; i < reals.size(); ++i) {
      reals[i] = op(dequantize(a[broadcastSource(pair.a, out, i)], qa),
                    dequantize(b[broadcastSource(pair.b, out, i)], qb));
    }
    const Quant qo = quantFor(reals);
    std::vector<int> expected(reals.size());
    for (size_t i = 0; i < reals.size(); ++i)
      expected[i] = quantize(activate(reals[i], act), qo);
    std::vector<uint8_t> actual(out.elements());
    kernel(a.data(), pair.a, qa, b.data(), pair.b, qb, act, actual.data(), out, qo);
    expectQuantNear(actual, expected);
  }
}

TEST(Elementwise, RandomQuantAddMatchesReference) {
  checkQuantBinary(add, [](double x, double y) { return x + y; });
}
TEST(Elementwise, RandomQuantSubMatchesReference) {
  checkQuantBinary(sub, [](double x, double y) { return x - y; });
}
TEST(Elementwise, RandomQuantMulMatchesReference) {
  checkQuantBinary(mul, [](double x, double y) { return x * y; });
}

TEST(Elementwise, QuantAddWithLargeRescaleMatchesReference) {
  // Output scale far below the inputs' (multiplier ~40): values saturate but must not wrap around.
  const auto a = randomBytes(1000, 5), b = randomBytes(1000, 6);
  const Quant qa{0.2f, 128}, qb{0.1f, 3}, qo{0.005f, 128};
  std::vector<int> expected(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    expected[i] = quantize(dequantize(a[i], qa) + dequantize(b[i], qb), qo);
  std::vector<uint8_t> actual(a.size());
  add(a.data(), {{1000}}, qa, b.data(), {{1000}}, qb, Activation::None, actual.data(), {{1000}}, qo);
  expectQuantNear(actual, expected);
}

}  // namespace
}  // namespace nnrt::cpu::test
