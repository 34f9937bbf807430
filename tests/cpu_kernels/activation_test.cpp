// RELU, RELU1, RELU6, LOGISTIC, TANH in float and quant8: hand-computed values, then large random
// inputs (parallel path) and every one of the 256 quantized inputs against a double reference.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "cpu_kernels/test_support.hpp"
#include "plugins/cpu/kernels/activation.hpp"

namespace nnrt::cpu::test {
namespace {

TEST(Activation, ReluFamilyByHand) {
  const std::vector<float> in{-2, -0.5f, 0, 0.5f, 3, 7};
  std::vector<float> out(in.size());
  relu(in.data(), in.size(), out.data());
  expectFloatsNear(out, {0, 0, 0, 0.5, 3, 7});
  relu1(in.data(), in.size(), out.data());
  expectFloatsNear(out, {-1, -0.5, 0, 0.5, 1, 1});
  relu6(in.data(), in.size(), out.data());
  expectFloatsNear(out, {0, 0, 0, 0.5, 3, 6});
}

TEST(Activation, LogisticAndTanhByHand) {
  // logistic(ln 3) = 1 / (1 + 1/3) = 0.75, logistic(-ln 3) = 0.25, logistic(0) = 0.5
  // tanh(atanh(0.5)) = 0.5 with atanh(0.5) = 0.5 * ln 3 = 0.5493061443
  const std::vector<float> in{0.0f, std::log(3.0f), -std::log(3.0f)};
  std::vector<float> out(3);
  logistic(in.data(), 3, out.data());
  expectFloatsNear(out, {0.5, 0.75, 0.25});
  const std::vector<float> t{0.0f, 0.5493061443f, -0.5493061443f};
  tanh(t.data(), 3, out.data());
  expectFloatsNear(out, {0.0, 0.5, -0.5});
}

TEST(Activation, QuantReluFamilyByHand) {
  // relu, scale 0.5, zp 10: real 0 is q 10, so everything below 10 becomes 10.
  const std::vector<uint8_t> in{0, 9, 10, 11, 255};
  std::vector<uint8_t> out(in.size());
  relu(in.data(), in.size(), {0.5f, 10}, out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{10, 10, 10, 11, 255}));
  // relu1, scale 0.25, zp 100: [-1, 1] is q [100 - 4, 100 + 4] = [96, 104].
  const std::vector<uint8_t> in1{0, 97, 200};
  std::vector<uint8_t> out1(3);
  relu1(in1.data(), 3, {0.25f, 100}, out1.data());
  EXPECT_EQ(out1, (std::vector<uint8_t>{96, 97, 104}));
  // relu6, scale 0.5, zp 0: [0, 6] is q [0, 12].
  const std::vector<uint8_t> in6{3, 13, 255};
  relu6(in6.data(), 3, {0.5f, 0}, out1.data());
  EXPECT_EQ(out1, (std::vector<uint8_t>{3, 12, 12}));
}

TEST(Activation, QuantLogisticAndTanhByHand) {
  // input scale 0.5, zp 128: q {0, 128, 130, 255} -> real {-64, 0, 1, 63.5}
  // logistic * 256 (output scale 1/256): {~0, 128, 0.7310585786 * 256 = 187.15, ~256 -> saturates 255}
  // tanh * 128 + 128 (output scale 1/128, zp 128): {~0, 128, 0.7615941560 * 128 + 128 = 225.48, ~256 -> 255}
  const std::vector<uint8_t> in{0, 128, 130, 255};
  std::vector<uint8_t> out(4);
  logistic(in.data(), 4, {0.5f, 128}, out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 128, 187, 255}));
  tanh(in.data(), 4, {0.5f, 128}, out.data());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 128, 225, 255}));
}

using FloatKernel = void (*)(const float*, size_t, float*);

void checkFloat(FloatKernel kernel, const std::function<double(double)>& ref, float range) {
  for (size_t n : {size_t{1}, size_t{17}, size_t{100003}}) {
    const auto in = randomFloats(n, -range, range, static_cast<uint32_t>(n));
    std::vector<double> expected(n);
    for (size_t i = 0; i < n; ++i)
      expected[i] = ref(in[i]);
    std::vector<float> out(n);
    kernel(in.data(), n, out.data());
    expectFloatsNear(out, expected);
  }
}

TEST(Activation, RandomFloatMatchesReference) {
  checkFloat(
      relu, [](double x) { return std::max(0.0, x); }, 8);
  checkFloat(
      relu1, [](double x) { return std::clamp(x, -1.0, 1.0); }, 3);
  checkFloat(
      relu6, [](double x) { return std::clamp(x, 0.0, 6.0); }, 10);
  checkFloat(
      logistic, [](double x) { return 1.0 / (1.0 + std::exp(-x)); }, 20);
  checkFloat(
      tanh, [](double x) { return std::tanh(x); }, 6);
}

TEST(Activation, FloatMayRunInPlace) {
  std::vector<float> data = randomFloats(40000, -3, 3, 11);
  std::vector<double> expected(data.begin(), data.end());
  for (double& x : expected)
    x = std::clamp(x, 0.0, 6.0);
  relu6(data.data(), data.size(), data.data());
  expectFloatsNear(data, expected);
}

// All 256 inputs plus a large random buffer (parallel path), several input parameter sets.
using QuantKernel = void (*)(const uint8_t*, size_t, Quant, uint8_t*);

void checkQuant(QuantKernel kernel, const std::function<double(double)>& ref, bool sameOutputQuant,
                Quant fixedOut) {
  const Quant params[] = {{0.5f, 128}, {0.05f, 0}, {0.1f, 200}, {0.0234f, 77}};
  for (const Quant q : params) {
    std::vector<uint8_t> in(256);
    for (int i = 0; i < 256; ++i)
      in[i] = static_cast<uint8_t>(i);
    const auto tail = randomBytes(70000, static_cast<uint32_t>(q.zeroPoint));
    in.insert(in.end(), tail.begin(), tail.end());
    const Quant out = sameOutputQuant ? q : fixedOut;
    std::vector<int> expected(in.size());
    for (size_t i = 0; i < in.size(); ++i)
      expected[i] = quantize(ref(dequantize(in[i], q)), out);
    std::vector<uint8_t> actual(in.size());
    kernel(in.data(), in.size(), q, actual.data());
    expectQuantNear(actual, expected);
  }
}

TEST(Activation, RandomQuantMatchesReference) {
  checkQuant(relu, [](double x) { return std::max(0.0, x); }, true, {});
  checkQuant(relu1, [](double x) { return std::clamp(x, -1.0, 1.0); }, true, {});
  checkQuant(relu6, [](double x) { return std::clamp(x, 0.0, 6.0); }, true, {});
  checkQuant(logistic, [](double x) { return 1.0 / (1.0 + std::exp(-x)); }, false, {1.0f / 256, 0});
  checkQuant(tanh, [](double x) { return std::tanh(x); }, false, {1.0f / 128, 128});
}

}  // namespace
}  // namespace nnrt::cpu::test
