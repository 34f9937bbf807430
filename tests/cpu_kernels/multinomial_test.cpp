// RANDOM_MULTINOMIAL, tested as a random process: with fixed seeds the samples are reproducible (the
// same seeds give the same samples, other seeds others), every sample is a class of positive
// probability, and over many draws each class's frequency matches softmax(logits) within five binomial
// standard deviations, sqrt(n p (1 - p)). The probabilities are computed here in double from the
// logits, not by the kernel; a kernel that ignored the logits, favoured one end of the cumulative sums
// or drew from a biased uniform would miss that band by far more than five deviations at n = 40000.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "plugins/cpu/kernels/multinomial.hpp"

namespace nnrt::cpu::test {
namespace {

// softmax of one row, non-finite logits given probability 0.
std::vector<double> probabilities(const std::vector<float>& logits) {
  std::vector<double> p(logits.size(), 0.0);
  double sum = 0.0;
  for (size_t j = 0; j < logits.size(); ++j) {
    if (std::isfinite(logits[j])) sum += p[j] = std::exp(static_cast<double>(logits[j]));
  }
  for (double& v : p)
    v /= sum;
  return p;
}

std::vector<int32_t> draw(const std::vector<float>& logits, size_t batches, size_t samples, int32_t seed0,
                          int32_t seed1) {
  std::vector<int32_t> out(batches * samples, -1);
  EXPECT_TRUE(
      randomMultinomial(logits.data(), batches, logits.size() / batches, samples, seed0, seed1, out.data()));
  return out;
}

TEST(RandomMultinomial, SameSeedsSameSamplesOtherSeedsOthers) {
  const std::vector<float> logits{0.5f, 0.0f, -0.5f, 1.0f, 0.2f, 0.1f, 0.0f, -0.3f};  // 2 x 4
  const auto first = draw(logits, 2, 64, 7, 11);
  EXPECT_EQ(draw(logits, 2, 64, 7, 11), first);
  EXPECT_NE(draw(logits, 2, 64, 7, 12), first);
  EXPECT_NE(draw(logits, 2, 64, 8, 11), first);
  EXPECT_NE(draw(logits, 2, 64, 11, 7), first);
}

TEST(RandomMultinomial, FrequenciesMatchSoftmax) {
  // Row 0: four classes of unequal weight and one of -inf (probability 0). Row 1: classes of -inf and
  // NaN (probability 0) and logits near 100, whose exp() overflows float unless the row's maximum is
  // subtracted (double holds them, so the expected probabilities need no shift).
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const size_t classes = 5, samples = 40000;
  const std::vector<std::vector<float>> rows{{1.0f, 2.0f, 0.5f, -1.0f, -inf},
                                             {100.0f, -inf, 98.0f, nan, 101.5f}};
  std::vector<float> logits;
  for (const auto& row : rows)
    logits.insert(logits.end(), row.begin(), row.end());
  const auto out = draw(logits, rows.size(), samples, 1234, 5678);
  for (size_t b = 0; b < rows.size(); ++b) {
    const auto p = probabilities(rows[b]);
    std::vector<size_t> counts(classes, 0);
    for (size_t s = 0; s < samples; ++s) {
      const int32_t k = out[b * samples + s];
      ASSERT_GE(k, 0);
      ASSERT_LT(k, static_cast<int32_t>(classes));
      ++counts[static_cast<size_t>(k)];
    }
    for (size_t j = 0; j < classes; ++j) {
      const double n = static_cast<double>(samples);
      if (p[j] == 0.0) {
        EXPECT_EQ(counts[j], 0u) << "row " << b << " class " << j << " has probability 0";
      } else {
        EXPECT_NEAR(static_cast<double>(counts[j]), n * p[j], 5.0 * std::sqrt(n * p[j] * (1.0 - p[j])))
            << "row " << b << " class " << j;
      }
    }
  }
}

TEST(RandomMultinomial, RefusesARowWithoutAFiniteLogit) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> logits{0.0f, 1.0f, -inf, std::numeric_limits<float>::quiet_NaN()};
  std::vector<int32_t> out(4);
  EXPECT_FALSE(randomMultinomial(logits.data(), 2, 2, 2, 1, 2, out.data()));
}

}  // namespace
}  // namespace nnrt::cpu::test
