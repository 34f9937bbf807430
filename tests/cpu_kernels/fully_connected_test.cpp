// FULLY_CONNECTED in float (OpenBLAS) and quant8 (int32 accumulation): hand-computed cases, then random
// layers of odd sizes against a double-precision reference.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cpu_kernels/test_support.hpp"
#include "plugins/cpu/kernels/fully_connected.hpp"

namespace nnrt::cpu::test {
namespace {

TEST(FullyConnected, FloatByHand) {
  // in [2,3] = {1, 2, 3; -1, 0, 1}, weights [2,3] = {1, 0, -1; 0.5, 0.5, 0.5}, bias {0.5, -1}
  // out[0] = {1 - 3 + 0.5, 0.5 + 1 + 1.5 - 1} = {-1.5, 2}
  // out[1] = {-1 - 1 + 0.5, -0.5 + 0 + 0.5 - 1} = {-1.5, -1}
  const std::vector<float> in{1, 2, 3, -1, 0, 1}, weights{1, 0, -1, 0.5f, 0.5f, 0.5f}, bias{0.5f, -1};
  std::vector<float> out(4);
  fullyConnected(in.data(), weights.data(), bias.data(), 2, 3, 2, Activation::None, out.data());
  expectFloatsNear(out, {-1.5, 2, -1.5, -1});
  fullyConnected(in.data(), weights.data(), bias.data(), 2, 3, 2, Activation::Relu, out.data());
  expectFloatsNear(out, {0, 2, 0, 0});
}

TEST(FullyConnected, QuantByHand) {
  // in: scale 0.5, zp 2: {4, 0} -> {1, -1}
  // weights: scale 0.25, zp 1: unit 0 {5, 3} -> {1, 0.5}; unit 1 {1, 9} -> {0, 2}
  // bias: scale 0.5 * 0.25 = 0.125: {8, -4} -> {1, -0.5}
  // unit 0: 1*1 + (-1)*0.5 + 1 = 1.5;  unit 1: 1*0 + (-1)*2 - 0.5 = -2.5
  // output scale 0.5, zp 10: {10 + 3, 10 - 5} = {13, 5}; relu -> {13, 10}
  const std::vector<uint8_t> in{4, 0}, weights{5, 3, 1, 9};
  const std::vector<int32_t> bias{8, -4};
  std::vector<uint8_t> out(2);
  fullyConnected(in.data(), {0.5f, 2}, weights.data(), {0.25f, 1}, bias.data(), 1, 2, 2, Activation::None,
                 out.data(), {0.5f, 10});
  EXPECT_EQ(out, (std::vector<uint8_t>{13, 5}));
  fullyConnected(in.data(), {0.5f, 2}, weights.data(), {0.25f, 1}, bias.data(), 1, 2, 2, Activation::Relu,
                 out.data(), {0.5f, 10});
  EXPECT_EQ(out, (std::vector<uint8_t>{13, 10}));
}

struct Layer {
  uint32_t batch, inputSize, numUnits;
  Activation act;
};

const Layer kLayers[] = {
    {1, 1, 1, Activation::None},       {3, 257, 131, Activation::None},   {5, 17, 3, Activation::Relu},
    {1, 1000, 500, Activation::Relu6}, {64, 512, 300, Activation::Relu1}, {7, 33, 64, Activation::None},
};

TEST(FullyConnected, RandomFloatMatchesReference) {
  uint32_t seed = 1;
  for (const Layer& l : kLayers) {
    SCOPED_TRACE("batch " + std::to_string(l.batch) + " input " + std::to_string(l.inputSize));
    const auto in = randomFloats(size_t{l.batch} * l.inputSize, -1, 1, seed++);
    const auto weights = randomFloats(size_t{l.numUnits} * l.inputSize, -1, 1, seed++);
    const auto bias = randomFloats(l.numUnits, -1, 1, seed++);
    std::vector<double> expected(size_t{l.batch} * l.numUnits), magnitude(expected.size());
    for (uint32_t b = 0; b < l.batch; ++b) {
      for (uint32_t u = 0; u < l.numUnits; ++u) {
        double sum = bias[u], mag = std::fabs(bias[u]);
        for (uint32_t k = 0; k < l.inputSize; ++k) {
          const double term = double{in[b * l.inputSize + k]} * weights[u * l.inputSize + k];
          sum += term;
          mag += std::fabs(term);
        }
        expected[b * l.numUnits + u] = activate(sum, l.act);
        magnitude[b * l.numUnits + u] = mag;
      }
    }
    std::vector<float> out(expected.size());
    fullyConnected(in.data(), weights.data(), bias.data(), l.batch, l.inputSize, l.numUnits, l.act,
                   out.data());
    // A float32 dot product of K terms carries rounding error proportional to the sum of the terms'
    // magnitudes (up to ~K * 2^-24 of it), which can be far larger than the result when terms cancel;
    // 1e-5 of that magnitude bounds it for these sizes.
    expectFloatsNear(out, expected, 1e-5, 1e-5, magnitude, 1e-5);
  }
}

TEST(FullyConnected, RandomQuantMatchesReference) {
  uint32_t seed = 50;
  for (const Layer& l : kLayers) {
    SCOPED_TRACE("batch " + std::to_string(l.batch) + " input " + std::to_string(l.inputSize));
    const Quant qi{0.02f + 0.001f * (seed % 5), static_cast<int32_t>(seed * 29 % 256)};
    const Quant qw{0.01f + 0.002f * (seed % 3), static_cast<int32_t>(seed * 53 % 256)};
    const auto in = randomBytes(size_t{l.batch} * l.inputSize, seed++);
    const auto weights = randomBytes(size_t{l.numUnits} * l.inputSize, seed++);
    const auto bias = randomInts(l.numUnits, -20000, 20000, seed++);
    const double biasScale = double{qi.scale} * qw.scale;
    std::vector<double> reals(size_t{l.batch} * l.numUnits);
    for (uint32_t b = 0; b < l.batch; ++b) {
      for (uint32_t u = 0; u < l.numUnits; ++u) {
        double sum = bias[u] * biasScale;
        for (uint32_t k = 0; k < l.inputSize; ++k) {
          sum += dequantize(in[b * l.inputSize + k], qi) * dequantize(weights[u * l.inputSize + k], qw);
        }
        reals[b * l.numUnits + u] = sum;
      }
    }
    const Quant qo = quantFor(reals);
    std::vector<int> expected(reals.size());
    for (size_t i = 0; i < reals.size(); ++i)
      expected[i] = quantize(activate(reals[i], l.act), qo);
    std::vector<uint8_t> out(reals.size());
    fullyConnected(in.data(), qi, weights.data(), qw, bias.data(), l.batch, l.inputSize, l.numUnits, l.act,
                   out.data(), qo);
    expectQuantNear(out, expected);
  }
}

}  // namespace
}  // namespace nnrt::cpu::test
