#include "plugins/cpu/kernels/multinomial.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace nnrt::cpu {

bool randomMultinomial(const float* logits, size_t batches, size_t classes, size_t samples, int32_t seed0,
                       int32_t seed1, int32_t* out) {
  std::seed_seq seeds{static_cast<uint32_t>(seed0), static_cast<uint32_t>(seed1)};
  std::mt19937_64 generator(seeds);
  std::vector<double> cumulative(classes);
  for (size_t b = 0; b < batches; ++b) {
    const float* row = logits + b * classes;
    // exp(logit - max) keeps the sums finite; the max is over the finite logits.
    float max = std::numeric_limits<float>::lowest();
    bool anyFinite = false;
    for (size_t j = 0; j < classes; ++j) {
      if (std::isfinite(row[j])) {
        max = std::max(max, row[j]);
        anyFinite = true;
      }
    }
    if (!anyFinite) return false;
    double total = 0.0;
    for (size_t j = 0; j < classes; ++j) {
      if (std::isfinite(row[j])) total += std::exp(static_cast<double>(row[j]) - max);
      cumulative[j] = total;
    }
    for (size_t s = 0; s < samples; ++s) {
      const double uniform = static_cast<double>(generator() >> 11) * 0x1.0p-53;  // [0, 1)
      const double target = uniform * total;
      // The first class whose cumulative sum exceeds the target: never a class of probability 0,
      // and never past the last finite class since target < total.
      const auto found = std::upper_bound(cumulative.begin(), cumulative.end(), target);
      out[b * samples + s] = static_cast<int32_t>(found - cumulative.begin());
    }
  }
  return true;
}

}  // namespace nnrt::cpu
