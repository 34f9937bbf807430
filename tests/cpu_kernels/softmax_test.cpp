// SOFTMAX in float and quant8: hand-computed distributions (beta, non-last axis), then random tensors
// along every axis, with inputs large enough to overflow exp() unless the maximum is subtracted; LOG_SOFTMAX
// on the same tensors (and a negative beta) against the definition in double.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cpu_kernels/test_support.hpp"
#include "plugins/cpu/kernels/nonlinear.hpp"
#include "plugins/cpu/kernels/softmax.hpp"

namespace nnrt::cpu::test {
namespace {

TEST(Softmax, FloatByHand) {
  // exp of {0, ln 2, ln 3} = {1, 2, 3}, sum 6 -> {1/6, 2/6, 3/6}
  const std::vector<float> in{0.0f, std::log(2.0f), std::log(3.0f)};
  std::vector<float> out(3);
  softmax(in.data(), {{1, 3}}, 1.0f, 1, out.data());
  expectFloatsNear(out, {1.0 / 6, 2.0 / 6, 3.0 / 6});
}

TEST(Softmax, FloatBetaByHand) {
  // beta 2 on {0, ln 2}: exp {0, 2 ln 2} = {1, 4}, sum 5 -> {0.2, 0.8}
  const std::vector<float> in{0.0f, std::log(2.0f)};
  std::vector<float> out(2);
  softmax(in.data(), {{2}}, 2.0f, 0, out.data());
  expectFloatsNear(out, {0.2, 0.8});
}

TEST(Softmax, FloatFirstAxisByHand) {
  // [2,2] = {0, ln 3; ln 3, 0} along axis 0: column 0 is {0, ln 3} -> {1/4, 3/4}, column 1 the reverse
  const float l3 = std::log(3.0f);
  const std::vector<float> in{0.0f, l3, l3, 0.0f};
  std::vector<float> out(4);
  softmax(in.data(), {{2, 2}}, 1.0f, 0, out.data());
  expectFloatsNear(out, {0.25, 0.75, 0.75, 0.25});
}

TEST(Softmax, FloatLargeInputsDoNotOverflowByHand) {
  // {1000, 1000 + ln 3}: exp would overflow, the shifted form gives {1/4, 3/4}.
  const std::vector<float> in{1000.0f, 1000.0f + std::log(3.0f)};
  std::vector<float> out(2);
  softmax(in.data(), {{2}}, 1.0f, 0, out.data());
  expectFloatsNear(out, {0.25, 0.75}, 1e-4, 0);  // 1000 + ln 3 is only representable to ~6e-5 in float
}

TEST(Softmax, QuantByHand) {
  // input scale ln 2, zp 0: {0, 1, 2} -> reals {0, ln 2, 2 ln 2} -> exp {1, 2, 4} / 7
  // = {0.142857, 0.285714, 0.571429}; times 256 (output scale 1/256) = {36.57, 73.14, 146.29} -> {37, 73,
  // 146}
  const std::vector<uint8_t> in{0, 1, 2};
  std::vector<uint8_t> out(3);
  softmax(in.data(), {{1, 3}}, {0.69314718f, 0}, 1.0f, 1, out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{37, 73, 146}));
}

struct Case {
  Shape shape;
  uint32_t axis;
  float beta;
};

const Case kCases[] = {
    {{{3, 100}}, 1, 1.0f}, {{{2, 3, 4, 5}}, 1, 0.5f}, {{{2, 3, 4, 5}}, 3, 2.0f}, {{{2, 3, 4, 5}}, 0, 1.0f},
    {{{7}}, 0, 1.0f},      {{{1, 1}}, 1, 1.0f},       {{{512, 300}}, 1, 1.0f},   {{{300, 512}}, 0, 0.7f},
};

// Softmax along `axis` in double, written as an explicit walk over (outer, inner) slices.
template <typename T>
std::vector<double> referenceSoftmax(const Case& c, const std::vector<T>& in, double inScale) {
  size_t outer = 1, inner = 1;
  for (uint32_t i = 0; i < c.axis; ++i)
    outer *= c.shape.dims[i];
  for (size_t i = c.axis + 1; i < c.shape.rank(); ++i)
    inner *= c.shape.dims[i];
  const size_t n = c.shape.dims[c.axis];
  std::vector<double> out(in.size());
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < inner; ++i) {
      const auto at = [&](size_t k) { return (o * n + k) * inner + i; };
      double best = -1e300;
      for (size_t k = 0; k < n; ++k)
        best = std::max(best, double(in[at(k)]) * inScale);
      double sum = 0;
      for (size_t k = 0; k < n; ++k)
        sum += std::exp((double(in[at(k)]) * inScale - best) * c.beta);
      for (size_t k = 0; k < n; ++k)
        out[at(k)] = std::exp((double(in[at(k)]) * inScale - best) * c.beta) / sum;
    }
  }
  return out;
}

TEST(Softmax, RandomFloatMatchesReference) {
  uint32_t seed = 1;
  for (const Case& c : kCases) {
    SCOPED_TRACE("case " + std::to_string(seed));
    // Inputs up to +-100: exp(100) overflows float, so only the max-shifted form passes.
    const auto in = randomFloats(c.shape.elements(), -100, 100, seed++);
    std::vector<float> out(in.size());
    softmax(in.data(), c.shape, c.beta, c.axis, out.data());
    expectFloatsNear(out, referenceSoftmax(c, in, 1.0));
  }
}

// LOG_SOFTMAX: beta * x - log(sum of exp(beta * x)) along the axis, in double with the largest term taken
// out; the rows of the cases above (lengths 1 to 512, last and other axes) and one with beta -1.5.
TEST(Softmax, RandomLogSoftmaxMatchesReference) {
  uint32_t seed = 50;
  std::vector<Case> cases(std::begin(kCases), std::end(kCases));
  cases.push_back({{{6, 77}}, 1, -1.5f});
  for (const Case& c : cases) {
    SCOPED_TRACE("case " + std::to_string(seed));
    const auto in = randomFloats(c.shape.elements(), -100, 100, seed++);
    size_t outer = 1, inner = 1;
    for (uint32_t i = 0; i < c.axis; ++i) outer *= c.shape.dims[i];
    for (size_t i = c.axis + 1; i < c.shape.rank(); ++i) inner *= c.shape.dims[i];
    const size_t n = c.shape.dims[c.axis];
    std::vector<double> expected(in.size());
    for (size_t o = 0; o < outer; ++o) {
      for (size_t i = 0; i < inner; ++i) {
        const auto at = [&](size_t k) { return (o * n + k) * inner + i; };
        double best = -1e300;
        for (size_t k = 0; k < n; ++k) best = std::max(best, double(c.beta) * in[at(k)]);
        double sum = 0;
        for (size_t k = 0; k < n; ++k) sum += std::exp(double(c.beta) * in[at(k)] - best);
        for (size_t k = 0; k < n; ++k) expected[at(k)] = double(c.beta) * in[at(k)] - best - std::log(sum);
      }
    }
    std::vector<float> out(in.size());
    logSoftmax(in.data(), c.shape, c.beta, c.axis, out.data());
    expectFloatsNear(out, expected);
  }
}

TEST(Softmax, RandomQuantMatchesReference) {
  uint32_t seed = 30;
  for (const Case& c : kCases) {
    SCOPED_TRACE("case " + std::to_string(seed));
    const Quant q{0.02f + 0.03f * (seed % 4), static_cast<int32_t>(seed * 67 % 256)};
    const auto in = randomBytes(c.shape.elements(), seed++);
    // The zero point cancels in (x - max), so the reference can work on the raw integers.
    const auto probabilities = referenceSoftmax(c, in, q.scale);
    std::vector<int> expected(probabilities.size());
    for (size_t i = 0; i < expected.size(); ++i)
      expected[i] = quantize(probabilities[i], {1.0f / 256, 0});
    std::vector<uint8_t> out(in.size());
    softmax(in.data(), c.shape, q, c.beta, c.axis, out.data());
    expectQuantNear(out, expected);
  }
}

}  // namespace
}  // namespace nnrt::cpu::test
