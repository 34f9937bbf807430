// The fused element-wise kernel: a hand-computed program, then a GELU-like chain with broadcast and
// scalar inputs, bool results and SELECT, and chains of MUL and ADD planned as Horner instructions,
// against the operations' own kernels run one by one (bit for bit), on sizes that do not divide the
// block; and the programs plan() refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "cpu_kernels/test_support.hpp"
#include "plugins/cpu/kernels/activation.hpp"
#include "plugins/cpu/kernels/elementwise.hpp"
#include "plugins/cpu/kernels/exp_float.hpp"
#include "plugins/cpu/kernels/fused_elementwise.hpp"
#include "plugins/cpu/kernels/log_float.hpp"
#include "plugins/cpu/kernels/sin_float.hpp"
#include "plugins/cpu/kernels/tanh_float.hpp"
#include "plugins/cpu/kernels/tensor_shape.hpp"
#include "plugins/cpu/kernels/math.hpp"
#include "plugins/cpu/kernels/nonlinear.hpp"
#include "plugins/cpu/kernels/reduce.hpp"

namespace nnrt::cpu::test {
namespace {

using Instruction = FusedProgram::Instruction;

Instruction op(FusedOp code, uint32_t a, uint32_t b = 0, uint32_t c = 0) {
  Instruction in;
  in.op = code;
  in.a = a;
  in.b = b;
  in.c = c;
  return in;
}

FusedElementwise planned(FusedProgram program) {
  std::string why;
  auto kernel = FusedElementwise::plan(std::move(program), why);
  EXPECT_TRUE(kernel.has_value()) << why;
  return kernel ? std::move(*kernel) : FusedElementwise{};
}

void expectBitwiseEqual(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    ASSERT_EQ(std::memcmp(&actual[i], &expected[i], sizeof(float)), 0)
        << "element " << i << ": " << actual[i] << " vs " << expected[i];
  }
}

TEST(FusedElementwise, SquaresAndSubtractsByHand) {
  // value 0: x {1, 2, 3, -4}; value 1: the scalar 1; 2 = x * x = {1, 4, 9, 16}; 3 = 2 - 1 = {0, 3, 8, 15};
  // 4 = max(3, x) = {1, 3, 8, 15}. Values 3 and 4 are written out.
  FusedProgram p;
  p.shape = {{4}};
  p.inputs = {{{{4}}, false}, {{{1}}, false}};
  p.code = {op(FusedOp::Square, 0), op(FusedOp::Sub, 2, 1), op(FusedOp::Maximum, 3, 0)};
  p.outputs = {3, 4};
  const FusedElementwise kernel = planned(p);
  const std::vector<float> x{1, 2, 3, -4}, one{1};
  std::vector<float> minusOne(4), maxed(4);
  const void* inputs[] = {x.data(), one.data()};
  void* outputs[] = {minusOne.data(), maxed.data()};
  kernel.run(inputs, outputs);
  EXPECT_EQ(minusOne, (std::vector<float>{0, 3, 8, 15}));
  EXPECT_EQ(maxed, (std::vector<float>{1, 3, 8, 15}));
}

// x [3, 7, 301] (6321 elements: 24 full blocks and a partial one, enough to run in parallel),
// bias [301] (copied in runs), rowScale [3, 7, 1] (repeated along each run), scalars half and limit.
//   t = relu6(x + bias)          (written out)
//   u = t * rowScale
//   e = exp(-u) ; l = logistic(u)
//   c = u < limit                 (bool8, written out)
//   s = select(c, e, l) ; r = s / half ; q = sqrt(abs(r)) ; y = pow(q, half) - floor(r)   (y written out)
TEST(FusedElementwise, ChainMatchesTheKernelsOneByOneBitForBit) {
  const Shape shape{{3, 7, 301}};
  const size_t n = shape.elements();
  const std::vector<float> x = randomFloats(n, -8, 8, 1), bias = randomFloats(301, -1, 1, 2),
                           rowScale = randomFloats(21, -2, 2, 3), half{0.5f}, limit{0.25f};

  FusedProgram p;
  p.shape = shape;
  p.inputs = {{shape, false}, {{{301}}, false}, {{{3, 7, 1}}, false}, {{{1}}, false}, {{{1}}, false}};
  // values: 0 x, 1 bias, 2 rowScale, 3 half, 4 limit; then 5.. in the order below
  Instruction add = op(FusedOp::Add, 0, 1);
  add.lo = 0.0f;
  add.hi = 6.0f;
  p.code = {add,                                 // 5 t
            op(FusedOp::Mul, 5, 2),              // 6 u
            op(FusedOp::Neg, 6),                 // 7
            op(FusedOp::Exp, 7),                 // 8 e
            op(FusedOp::Logistic, 6),            // 9 l
            op(FusedOp::Less, 6, 4),             // 10 c
            op(FusedOp::Select, 10, 8, 9),       // 11 s
            op(FusedOp::Div, 11, 3),             // 12 r
            op(FusedOp::Abs, 12),                // 13
            op(FusedOp::Sqrt, 13),               // 14 q
            op(FusedOp::Pow, 14, 3),             // 15
            op(FusedOp::Floor, 12),              // 16
            op(FusedOp::Sub, 15, 16)};           // 17 y
  p.outputs = {5, 10, 17};
  const FusedElementwise kernel = planned(p);
  EXPECT_LE(kernel.buffers(), 6u);

  std::vector<float> t(n), y(n);
  std::vector<uint8_t> c(n);
  const void* inputs[] = {x.data(), bias.data(), rowScale.data(), half.data(), limit.data()};
  void* outputs[] = {t.data(), c.data(), y.data()};
  kernel.run(inputs, outputs);

  // The same through the operations' kernels, whole tensor by whole tensor.
  std::vector<float> rt(n), u(n), neg(n), e(n), l(n), s(n), r(n), ab(n), q(n), pw(n), fl(n), ry(n);
  std::vector<uint8_t> rc(n);
  cpu::add(x.data(), shape, bias.data(), {{301}}, Activation::Relu6, rt.data(), shape);
  cpu::mul(rt.data(), shape, rowScale.data(), {{3, 7, 1}}, Activation::None, u.data(), shape);
  unaryMath(u.data(), n, UnaryMath::Neg, neg.data());
  unaryMath(neg.data(), n, UnaryMath::Exp, e.data());
  logistic(u.data(), n, l.data());
  cpu::compare(u.data(), shape, limit.data(), {{1}}, Comparison::Less, rc.data(), shape);
  select(rc.data(), e.data(), l.data(), n, sizeof(float), s.data());
  cpu::div(s.data(), shape, half.data(), {{1}}, Activation::None, r.data(), shape);
  unaryMath(r.data(), n, UnaryMath::Abs, ab.data());
  unaryMath(ab.data(), n, UnaryMath::Sqrt, q.data());
  cpu::pow(q.data(), shape, half.data(), {{1}}, pw.data(), shape);
  cpu::floor(r.data(), n, fl.data());
  cpu::sub(pw.data(), shape, fl.data(), shape, Activation::None, ry.data(), shape);

  expectBitwiseEqual(t, rt);
  EXPECT_EQ(c, rc);
  expectBitwiseEqual(y, ry);
  // Both branches of the SELECT were taken.
  EXPECT_GT(std::count(c.begin(), c.end(), 1), 100);
  EXPECT_GT(std::count(c.begin(), c.end(), 0), 100);
}

// expFloat (EXP's, LOGISTIC's and their fused forms' exponential) against exp in double precision, on
// every 61st float32 from -104 to 89 (about 33 million values, the subnormal results included): within
// 2 units in the last place; the special values exactly.
// How far `got` is from the exact `want`, in units of the last place of float32 around want.
double ulpError(float got, double want) {
  const float rounded = static_cast<float>(want);
  if (rounded == got) return 0.0;
  const float next = std::nextafter(rounded, got > rounded ? INFINITY : -INFINITY);
  const double ulp = std::fabs(static_cast<double>(next) - static_cast<double>(rounded));
  return std::fabs(static_cast<double>(got) - want) / ulp;
}

// The worst error in ulp of ys against exact(xs) in double (and where), and how many are not the
// correctly rounded value.
struct Accuracy {
  double worst = 0;
  float worstAt = 0;
  size_t inexact = 0;
};
Accuracy accuracyOf(const std::vector<float>& xs, const std::vector<float>& ys, double (*exact)(double)) {
  Accuracy a;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double want = exact(static_cast<double>(xs[i]));
    const double error = ulpError(ys[i], want);
    a.inexact += ys[i] != static_cast<float>(want);
    if (error > a.worst) {
      a.worst = error;
      a.worstAt = xs[i];
    }
  }
  return a;
}

TEST(ExpFloat, IsWithinTwoUlpOfTheExactExponential) {
  double worst = 0;
  float worstAt = 0;
  auto check = [&](float x) {
    const double error = ulpError(expFloat(x), std::exp(static_cast<double>(x)));
    if (error > worst) {
      worst = error;
      worstAt = x;
    }
  };
  for (uint32_t bits = 0; bits <= 0x42B20000u; bits += 61) {  // 0 to 89
    float x;
    std::memcpy(&x, &bits, sizeof x);
    check(x);
  }
  for (uint32_t bits = 0x80000000u; bits <= 0xC2D00000u; bits += 61) {  // -0 to -104
    float x;
    std::memcpy(&x, &bits, sizeof x);
    check(x);
  }
  std::printf("expFloat: worst %.3f ulp at %.9g\n", worst, worstAt);
  EXPECT_LE(worst, 2.0) << "at " << worstAt;
  EXPECT_EQ(expFloat(0.0f), 1.0f);
  EXPECT_EQ(expFloat(INFINITY), INFINITY);
  EXPECT_EQ(expFloat(100.0f), INFINITY);
  EXPECT_EQ(expFloat(-INFINITY), 0.0f);
  EXPECT_EQ(expFloat(-200.0f), 0.0f);
  EXPECT_TRUE(std::isnan(expFloat(NAN)));
}

// tanhFloat on every 61st float32 from 0 to 10 and -0 to -10 (beyond, every float rounds to ±1),
// against the tangent in double precision: within 2 ulp; exact at 0, ±inf and far out, NaN kept.
TEST(TanhFloat, IsWithinTwoUlpOfTheExactTangent) {
  double worst = 0;
  float worstAt = 0;
  for (uint32_t sign : {0u, 0x80000000u}) {
    for (uint32_t bits = 0; bits <= 0x41200000u; bits += 61) {  // 0 to 10
      const uint32_t signed_ = bits | sign;
      float x;
      std::memcpy(&x, &signed_, sizeof x);
      const double error = ulpError(tanhFloat(x), std::tanh(static_cast<double>(x)));
      if (error > worst) {
        worst = error;
        worstAt = x;
      }
    }
  }
  std::printf("tanhFloat: worst %.3f ulp at %.9g\n", worst, worstAt);
  EXPECT_LE(worst, 2.0) << "at " << worstAt;
  EXPECT_EQ(tanhFloat(0.0f), 0.0f);
  EXPECT_TRUE(std::signbit(tanhFloat(-0.0f)));
  EXPECT_EQ(tanhFloat(INFINITY), 1.0f);
  EXPECT_EQ(tanhFloat(-INFINITY), -1.0f);
  EXPECT_EQ(tanhFloat(50.0f), 1.0f);
  EXPECT_EQ(tanhFloat(-1e30f), -1.0f);
  EXPECT_TRUE(std::isnan(tanhFloat(NAN)));
}

// logValues (LOG's logarithm and its fused form's) on every 61st positive float32, subnormal ones
// included, against the logarithm in double precision: within 1 ulp, the correctly rounded value for all
// but a few in a million; the C library's values for zero (-inf), negative numbers and NaN (NaN) and +inf;
// and in place (out = in).
TEST(LogFloat, IsTheRoundedLogarithmAlmostEverywhere) {
  std::vector<float> xs;
  for (uint32_t bits = 1; bits < 0x7F800000u; bits += 61) {
    float x;
    std::memcpy(&x, &bits, sizeof x);
    xs.push_back(x);
  }
  std::vector<float> ys(xs.size());
  logValues(xs.data(), xs.size(), ys.data());
  const Accuracy a = accuracyOf(xs, ys, [](double v) { return std::log(v); });
  std::printf("logValues: worst %.3f ulp at %.9g, %zu of %zu not the rounded logarithm\n", a.worst, a.worstAt, a.inexact,
              xs.size());
  EXPECT_LE(a.worst, 1.0) << "at " << a.worstAt;
  EXPECT_LE(a.inexact, xs.size() / 100000);
  std::vector<float> special{1.0f, 0.0f, -0.0f, -1.0f, NAN, INFINITY, -INFINITY, 1e-45f, 3.4028235e38f};
  const std::vector<float> given = special;
  logValues(special.data(), special.size(), special.data());
  EXPECT_EQ(special[0], 0.0f);
  EXPECT_EQ(special[1], -INFINITY);
  EXPECT_EQ(special[2], -INFINITY);
  for (size_t i : {3, 4, 6}) EXPECT_TRUE(std::isnan(special[i])) << given[i];
  EXPECT_EQ(special[5], INFINITY);
  for (size_t i : {7, 8}) EXPECT_EQ(special[i], static_cast<float>(std::log(static_cast<double>(given[i])))) << given[i];
}

// sinValues (SIN's sine and its fused form's) on every 61st float32 from 0 to 2^19 and -0 to -2^19, against
// the sine in double precision: within 1 ulp, and the correctly rounded value for all but a few in a
// million; beyond 2^19 the C library's sine; the sign of zero kept, NaN for NaN and the infinities; and in
// place (out = in).
TEST(SinFloat, IsTheRoundedSineAlmostEverywhere) {
  std::vector<float> xs;
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t bits = 0; bits <= 0x49000000u; bits += 61) {  // 0 to 2^19
      const uint32_t signed_ = bits | sign;
      float x;
      std::memcpy(&x, &signed_, sizeof x);
      xs.push_back(x);
    }
  std::vector<float> ys(xs.size());
  sinValues(xs.data(), xs.size(), ys.data());
  const Accuracy a = accuracyOf(xs, ys, [](double v) { return std::sin(v); });
  std::printf("sinValues: worst %.3f ulp at %.9g, %zu of %zu not the rounded sine\n", a.worst, a.worstAt, a.inexact, xs.size());
  EXPECT_LE(a.worst, 1.0) << "at " << a.worstAt;
  EXPECT_LE(a.inexact, xs.size() / 100000);
  std::vector<float> special{0.0f, -0.0f, NAN, INFINITY, -INFINITY, 1e6f, -3e38f, 524288.5f, 1.5707964f};
  const std::vector<float> given = special;
  sinValues(special.data(), special.size(), special.data());
  EXPECT_EQ(special[0], 0.0f);
  EXPECT_FALSE(std::signbit(special[0]));
  EXPECT_TRUE(std::signbit(special[1]));
  for (size_t i = 2; i < 5; ++i) EXPECT_TRUE(std::isnan(special[i])) << given[i];
  for (size_t i = 5; i < given.size(); ++i) EXPECT_EQ(special[i], static_cast<float>(std::sin(static_cast<double>(given[i])))) << given[i];
}

// Layer normalization over rows of 300 (blocks of 3 whole rows, 15 rows: the last block partial): row
// means, centring, the variance, its square root and the scale and shift, against MEAN over the last
// axis and the broadcast kernels, bit for bit; the means and the variance plus epsilon are also
// written one value per row.
TEST(FusedElementwise, LayerNormalizationWithRowMeansMatchesTheKernels) {
  const Shape shape{{3, 5, 300}}, rows{{3, 5, 1}};
  const size_t n = shape.elements();
  const std::vector<float> x = randomFloats(n, -3, 7, 4), gamma = randomFloats(300, 0.5f, 2, 5),
                           beta = randomFloats(300, -1, 1, 6), two{2.0f}, epsilon{1e-5f};
  FusedProgram p;
  p.shape = shape;
  p.inputs = {{shape, false}, {{{300}}, false}, {{{300}}, false}, {{{1}}, false}};  // x, gamma, beta, epsilon
  p.code = {op(FusedOp::RowMean, 0),   // 4 mean
            op(FusedOp::Sub, 0, 4),    // 5 centred
            op(FusedOp::Square, 5),    // 6
            op(FusedOp::RowMean, 6),   // 7 variance
            op(FusedOp::Add, 7, 3),    // 8 variance + epsilon
            op(FusedOp::Sqrt, 8),      // 9
            op(FusedOp::Div, 5, 9),    // 10
            op(FusedOp::Mul, 10, 1),   // 11
            op(FusedOp::Add, 11, 2)};  // 12 y
  p.outputs = {12, 4, 8};
  p.outputPerRow = {false, true, true};
  const FusedElementwise kernel = planned(p);
  std::vector<float> y(n), means(15), variances(15);
  const void* inputs[] = {x.data(), gamma.data(), beta.data(), epsilon.data()};
  void* outputs[] = {y.data(), means.data(), variances.data()};
  kernel.run(inputs, outputs);

  const std::vector<uint32_t> last{2};
  std::vector<float> rm(15), c(n), sq(n), rv(15), ve(15), sd(15), d(n), g(n), ry(n);
  cpu::mean(x.data(), shape, last, rm.data());
  cpu::sub(x.data(), shape, rm.data(), rows, Activation::None, c.data(), shape);
  cpu::pow(c.data(), shape, two.data(), {{1}}, sq.data(), shape);
  cpu::mean(sq.data(), shape, last, rv.data());
  cpu::add(rv.data(), rows, epsilon.data(), {{1}}, Activation::None, ve.data(), rows);
  unaryMath(ve.data(), 15, UnaryMath::Sqrt, sd.data());
  cpu::div(c.data(), shape, sd.data(), rows, Activation::None, d.data(), shape);
  cpu::mul(d.data(), shape, gamma.data(), {{300}}, Activation::None, g.data(), shape);
  cpu::add(g.data(), shape, beta.data(), {{300}}, Activation::None, ry.data(), shape);
  expectBitwiseEqual(y, ry);
  expectBitwiseEqual(means, rm);
  expectBitwiseEqual(variances, ve);
  // A normalized row has mean beta's mean, by hand: the mean of (y - beta) / gamma is 0.
  double centre = 0;
  for (size_t k = 0; k < 300; ++k) centre += (y[k] - beta[k]) / gamma[k];
  EXPECT_NEAR(centre / 300, 0.0, 1e-5);
}

// Chains of MUL and ADD become single Horner instructions (a polynomial evaluated by Horner's rule,
// GELU's erf has two): x [4, 777] (3108 elements: three full blocks and a partial one), scalars
// c0..c5, gamma [777]. With t = x * x:
//   P = ((c5 t + c4) t + c2) t + c0, RELU6 on the last ADD (both bounds reached)  - one chain
//   Q = (c4 t + c3) t + c1, written with its operands the other way round        - one chain
//   R = Q x + gamma (an array term; x is not Q's factor, so a chain of its own), S = P R
//   U = x c1 + c2 (written out: its chain ends there), V = U x + c3
// 18 instructions plan as 7, with results bit-identical to the MUL and ADD kernels run one by one.
TEST(FusedElementwise, HornerChainsMatchTheKernelsOneByOneBitForBit) {
  const Shape shape{{4, 777}}, one{{1}};
  const size_t n = shape.elements();
  const std::vector<float> x = randomFloats(n, -1.5f, 1.5f, 7), gamma = randomFloats(777, -1, 1, 8);
  const std::vector<std::vector<float>> c{{-0.5f}, {0.75f}, {1.5f}, {-0.25f}, {-2.0f}, {3.0f}};
  FusedProgram p;
  p.shape = shape;
  p.inputs = {{shape, false}};
  for (size_t k = 0; k < 6; ++k) p.inputs.push_back({one, false});  // 1..6: c0..c5
  p.inputs.push_back({{{777}}, false});                            // 7: gamma
  Instruction last = op(FusedOp::Add, 17, 1);
  last.lo = 0.0f;
  last.hi = 6.0f;
  p.code = {op(FusedOp::Mul, 0, 0),    // 8 t
            op(FusedOp::Mul, 8, 6),    // 9  P: t c5
            op(FusedOp::Mul, 5, 8),    // 10 Q: c4 t
            op(FusedOp::Add, 9, 5),    // 11 P: + c4
            op(FusedOp::Add, 4, 10),   // 12 Q: c3 +
            op(FusedOp::Mul, 11, 8),   // 13 P: * t
            op(FusedOp::Mul, 8, 12),   // 14 Q: t *
            op(FusedOp::Add, 13, 3),   // 15 P: + c2
            op(FusedOp::Add, 14, 2),   // 16 Q: + c1
            op(FusedOp::Mul, 15, 8),   // 17 P: * t
            last,                      // 18 P: + c0, RELU6
            op(FusedOp::Mul, 16, 0),   // 19 R: Q x
            op(FusedOp::Add, 19, 7),   // 20 R: + gamma
            op(FusedOp::Mul, 18, 20),  // 21 S
            op(FusedOp::Mul, 0, 2),    // 22 U: x c1
            op(FusedOp::Add, 22, 3),   // 23 U: + c2
            op(FusedOp::Mul, 23, 0),   // 24 V: U x
            op(FusedOp::Add, 24, 4)};  // 25 V: + c3
  p.outputs = {21, 23, 25};
  const FusedElementwise kernel = planned(p);
  EXPECT_EQ(kernel.instructions(), 7u);  // t, P, Q, R, S, U, V

  std::vector<float> s(n), u(n), v(n);
  const void* inputs[] = {x.data(), c[0].data(), c[1].data(), c[2].data(), c[3].data(), c[4].data(), c[5].data(),
                          gamma.data()};
  void* outputs[] = {s.data(), u.data(), v.data()};
  kernel.run(inputs, outputs);

  std::vector<std::vector<float>> r(26, std::vector<float>(n));
  const auto mul = [&](size_t to, const float* a, const Shape& as, const float* b, const Shape& bs) {
    cpu::mul(a, as, b, bs, Activation::None, r[to].data(), shape);
  };
  const auto add = [&](size_t to, const float* a, const Shape& as, const float* b, const Shape& bs,
                       Activation activation = Activation::None) {
    cpu::add(a, as, b, bs, activation, r[to].data(), shape);
  };
  mul(8, x.data(), shape, x.data(), shape);
  mul(9, r[8].data(), shape, c[5].data(), one);
  mul(10, c[4].data(), one, r[8].data(), shape);
  add(11, r[9].data(), shape, c[4].data(), one);
  add(12, c[3].data(), one, r[10].data(), shape);
  mul(13, r[11].data(), shape, r[8].data(), shape);
  mul(14, r[8].data(), shape, r[12].data(), shape);
  add(15, r[13].data(), shape, c[2].data(), one);
  add(16, r[14].data(), shape, c[1].data(), one);
  mul(17, r[15].data(), shape, r[8].data(), shape);
  add(18, r[17].data(), shape, c[0].data(), one, Activation::Relu6);
  mul(19, r[16].data(), shape, x.data(), shape);
  add(20, r[19].data(), shape, gamma.data(), {{777}});
  mul(21, r[18].data(), shape, r[20].data(), shape);
  mul(22, x.data(), shape, c[1].data(), one);
  add(23, r[22].data(), shape, c[2].data(), one);
  mul(24, r[23].data(), shape, x.data(), shape);
  add(25, r[24].data(), shape, c[3].data(), one);
  expectBitwiseEqual(s, r[21]);
  expectBitwiseEqual(u, r[23]);
  expectBitwiseEqual(v, r[25]);
  // RELU6 clamped P at both ends.
  EXPECT_GT(std::count(r[18].begin(), r[18].end(), 0.0f), 10);
  EXPECT_GT(std::count(r[18].begin(), r[18].end(), 6.0f), 10);
}

// A CONCATENATION over the last axis joins a run as a Concat instruction that reads its pieces where
// they are: pieces of 32, 1 and 64 columns (97: blocks start mid-row and mid-piece) over [2, 5, 7]
// rows, then a batch normalization and RELU (x * scale + shift, per column). The concatenation
// written out and the result equal the CONCATENATION, MUL and ADD kernels' bit for bit.
TEST(FusedElementwise, ConcatenationReadsItsPiecesWhereTheyAre) {
  const Shape shape{{2, 5, 7, 97}}, columns{{97}};
  const size_t n = shape.elements(), rows = 70;
  const std::vector<float> a = randomFloats(rows * 32, -2, 2, 9), b = randomFloats(rows, -2, 2, 10),
                           c = randomFloats(rows * 64, -2, 2, 11), scale = randomFloats(97, 0.5f, 1.5f, 12),
                           shift = randomFloats(97, -0.5f, 0.5f, 13);
  FusedProgram p;
  p.shape = shape;
  p.inputs = {{{{2, 5, 7, 32}}, false}, {{{2, 5, 7, 1}}, false}, {{{2, 5, 7, 64}}, false}, {columns, false},
              {columns, false}};
  Instruction concat;
  concat.op = FusedOp::Concat;
  concat.terms = {0, 1, 2};
  Instruction add = op(FusedOp::Add, 6, 4);
  add.lo = 0.0f;
  p.code = {concat,                  // 5
            op(FusedOp::Mul, 5, 3),  // 6
            add};                    // 7
  p.outputs = {5, 7};
  const FusedElementwise kernel = planned(p);
  std::vector<float> joined(n), y(n);
  const void* inputs[] = {a.data(), b.data(), c.data(), scale.data(), shift.data()};
  void* outputs[] = {joined.data(), y.data()};
  kernel.run(inputs, outputs);

  std::vector<float> rj(n), scaled(n), ry(n);
  const void* pieces[] = {a.data(), b.data(), c.data()};
  const Shape pieceShapes[] = {{{2, 5, 7, 32}}, {{2, 5, 7, 1}}, {{2, 5, 7, 64}}};
  concatenation(pieces, pieceShapes, 3, sizeof(float), rj.data());
  cpu::mul(rj.data(), shape, scale.data(), columns, Activation::None, scaled.data(), shape);
  cpu::add(scaled.data(), shape, shift.data(), columns, Activation::Relu, ry.data(), shape);
  expectBitwiseEqual(joined, rj);
  expectBitwiseEqual(y, ry);
  // By hand: row 69's column 32 is b's last value, column 96 c's last.
  EXPECT_EQ(joined[69 * 97 + 32], b[69]);
  EXPECT_EQ(joined[69 * 97 + 96], c[69 * 64 + 63]);

  // Pieces must add up to the last dimension, and be read by nothing else.
  std::string why;
  FusedProgram narrow = p;
  narrow.code[0].terms = {0, 2};
  EXPECT_FALSE(FusedElementwise::plan(narrow, why).has_value());
  EXPECT_NE(why.find("96 of 97"), std::string::npos) << why;
  FusedProgram shared = p;
  shared.code.push_back(op(FusedOp::Add, 7, 1));
  EXPECT_FALSE(FusedElementwise::plan(shared, why).has_value());
  EXPECT_NE(why.find("read otherwise"), std::string::npos) << why;
}

TEST(FusedElementwise, ReadsBroadcastInputsOnlyInRuns) {
  EXPECT_TRUE(FusedElementwise::canRead({{128, 1}}, {{128, 256}}));   // repeated along each row
  EXPECT_TRUE(FusedElementwise::canRead({{256}}, {{128, 256}}));      // copied, rows of 256
  EXPECT_TRUE(FusedElementwise::canRead({{1}}, {{5, 5, 5, 5, 5}}));   // one value, any rank
  EXPECT_TRUE(FusedElementwise::canRead({{40}}, {{1, 40}}));          // the same elements
  EXPECT_FALSE(FusedElementwise::canRead({{3}}, {{100, 3}}));         // runs of 3: element by element
  EXPECT_FALSE(FusedElementwise::canRead({{5}}, {{4}}));              // does not broadcast
  EXPECT_FALSE(FusedElementwise::canRead({{2, 1, 1, 1, 32}}, {{2, 3, 3, 3, 32}}));  // rank 5 broadcast
}

TEST(FusedElementwise, PlanRefusesMalformedAndOversizedPrograms) {
  std::string why;
  FusedProgram forward;  // reads a value not computed yet
  forward.shape = {{8}};
  forward.inputs = {{{{8}}, false}};
  forward.code = {op(FusedOp::Add, 0, 2), op(FusedOp::Exp, 0)};
  forward.outputs = {2};
  EXPECT_FALSE(FusedElementwise::plan(forward, why).has_value());
  EXPECT_NE(why.find("instruction 0"), std::string::npos) << why;

  FusedProgram kinds;  // SELECT's condition must be a bool8
  kinds.shape = {{8}};
  kinds.inputs = {{{{8}}, false}};
  kinds.code = {op(FusedOp::Select, 0, 0, 0)};
  kinds.outputs = {1};
  EXPECT_FALSE(FusedElementwise::plan(kinds, why).has_value());

  // 40 values alive at once (exp of x, 40 times, summed only at the end): more than kMaxBuffers.
  FusedProgram wide;
  wide.shape = {{1024}};
  wide.inputs = {{{{1024}}, false}};
  for (uint32_t k = 0; k < 40; ++k) wide.code.push_back(op(FusedOp::Exp, 0));
  uint32_t sum = 1;
  for (uint32_t k = 1; k < 40; ++k) {
    wide.code.push_back(op(FusedOp::Add, sum, 1 + k));
    sum = static_cast<uint32_t>(wide.inputs.size() + wide.code.size() - 1);
  }
  wide.outputs = {sum};
  EXPECT_FALSE(FusedElementwise::plan(wide, why).has_value());
  EXPECT_NE(why.find("block buffers"), std::string::npos) << why;
}

}  // namespace
}  // namespace nnrt::cpu::test
