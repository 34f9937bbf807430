// The shared quantized arithmetic: fixed-point multipliers and quantized activation ranges.
#include <gtest/gtest.h>

#include <cmath>

#include "cpu_kernels/test_support.hpp"
#include "plugins/cpu/kernels/quantization.hpp"

namespace nnrt::cpu::test {
namespace {

TEST(Quantization, MultiplierByHand) {
  // 0.75 = 0.75 * 2^0: 10 * 0.75 = 7.5 -> 8 (half away from zero), -10 * 0.75 = -7.5 -> -8
  const auto m = QuantizedMultiplier::fromReal(0.75);
  EXPECT_EQ(m.apply(10), 8);
  EXPECT_EQ(m.apply(-10), -8);
  EXPECT_EQ(m.apply(9), 7);  // 6.75 -> 7
  // multipliers above 1 work too: 3 * 40.5 = 121.5 -> 122
  EXPECT_EQ(QuantizedMultiplier::fromReal(40.5).apply(3), 122);
  EXPECT_EQ(QuantizedMultiplier::fromReal(0.0).apply(12345), 0);
}

TEST(Quantization, RandomMultipliersMatchDoubleRounding) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> exponent(-20, 8);
  std::uniform_int_distribution<int64_t> value(-(int64_t{1} << 31), int64_t{1} << 31);
  for (int i = 0; i < 20000; ++i) {
    const double real = std::pow(2.0, exponent(rng));
    const int64_t x = value(rng);
    const double exact = static_cast<double>(x) * real;
    const auto got = QuantizedMultiplier::fromReal(real).apply(x);
    // A 31-bit mantissa is exact to 2^-31 relative; allow that plus the final rounding.
    ASSERT_LE(std::fabs(static_cast<double>(got) - exact), 0.5 + std::fabs(exact) * std::ldexp(1.0, -30))
        << "x " << x << " real " << real;
  }
}

TEST(Quantization, ActivationRangesByHand) {
  // scale 0.5, zp 10: relu [10, 255]; relu1 [10 - 2, 10 + 2] = [8, 12]; relu6 [10, 10 + 12] = [10, 22]
  const Quant q{0.5f, 10};
  EXPECT_EQ(activationRangeQuant8(Activation::None, q), (std::pair<int32_t, int32_t>{0, 255}));
  EXPECT_EQ(activationRangeQuant8(Activation::Relu, q), (std::pair<int32_t, int32_t>{10, 255}));
  EXPECT_EQ(activationRangeQuant8(Activation::Relu1, q), (std::pair<int32_t, int32_t>{8, 12}));
  EXPECT_EQ(activationRangeQuant8(Activation::Relu6, q), (std::pair<int32_t, int32_t>{10, 22}));
  // bounds outside 0..255 are clipped: scale 0.01, zp 250 -> relu1 [150, 350] -> [150, 255]
  EXPECT_EQ(activationRangeQuant8(Activation::Relu1, {0.01f, 250}), (std::pair<int32_t, int32_t>{150, 255}));
  EXPECT_EQ(activationRange(Activation::Relu6).min, 0.0f);
  EXPECT_EQ(activationRange(Activation::Relu6).max, 6.0f);
}

}  // namespace
}  // namespace nnrt::cpu::test
