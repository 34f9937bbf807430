// Summary statistics of measured times for `nnrt run --repeat` and `nnrt bench`.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <optional>
#include <vector>

namespace nnrt::tools {

struct Summary {
  size_t count = 0;
  double min = 0, mean = 0, median = 0, p90 = 0, p99 = 0, max = 0;
};

// The median is the middle value (the mean of the two middle ones for an even count); p90 and p99
// are nearest-rank percentiles: the value at rank ceil(p/100 * count) in ascending order. nullopt
// for no values. Documented in docs/bench-format.md.
inline std::optional<Summary> summarize(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  auto rank = [&](double p) {
    const auto r = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(n)));
    return values[std::clamp<size_t>(r, 1, n) - 1];
  };
  Summary s;
  s.count = n;
  s.min = values.front();
  s.max = values.back();
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(n);
  s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  s.p90 = rank(90);
  s.p99 = rank(99);
  return s;
}

}  // namespace nnrt::tools
