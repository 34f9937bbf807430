// MEAN: hand-computed reductions (one axis, all axes, repeated axes), then every subset of axes of a
// random rank-4 tensor and a large NHWC spatial mean against a double reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "cpu_kernels/test_support.hpp"
#include "plugins/cpu/kernels/reduce.hpp"

namespace nnrt::cpu::test {
namespace {

TEST(Reduce, MeanByHand) {
  // [2,3] = {1, 2, 3; 4, 5, 6}
  const std::vector<float> in{1, 2, 3, 4, 5, 6};
  std::vector<float> out(3);
  const std::vector<uint32_t> rows{1}, columns{0}, both{0, 1}, repeated{1, 1};
  mean(in.data(), {{2, 3}}, rows, out.data());  // row means (1+2+3)/3 = 2, (4+5+6)/3 = 5
  expectFloatsNear({out[0], out[1]}, {2, 5});
  mean(in.data(), {{2, 3}}, columns, out.data());  // column means 2.5, 3.5, 4.5
  expectFloatsNear(out, {2.5, 3.5, 4.5});
  mean(in.data(), {{2, 3}}, both, out.data());  // 21 / 6 = 3.5
  expectFloatsNear({out[0]}, {3.5});
  mean(in.data(), {{2, 3}}, repeated, out.data());  // an axis named twice is reduced once
  expectFloatsNear({out[0], out[1]}, {2, 5});
}

// The output element input element `i` belongs to: its kept coordinates, row-major.
size_t outputIndex(size_t i, const std::vector<uint32_t>& dims, const std::vector<bool>& reduced) {
  size_t rest = i, o = 0, stride = 1;
  for (size_t k = dims.size(); k-- > 0;) {
    const size_t c = rest % dims[k];
    rest /= dims[k];
    if (!reduced[k]) {
      o += c * stride;
      stride *= dims[k];
    }
  }
  return o;
}

// The axes whose bits are set in `mask` (of 4), and which dimensions they reduce.
std::vector<uint32_t> axesOfMask(uint32_t mask, std::vector<bool>& reduced) {
  std::vector<uint32_t> axes;
  reduced.assign(4, false);
  for (uint32_t k = 0; k < 4; ++k) {
    if (mask & (1u << k)) {
      axes.push_back(k);
      reduced[k] = true;
    }
  }
  return axes;
}

// Mean over `axes` in double: each input element adds into the output element of its kept coordinates.
std::vector<double> referenceMean(const std::vector<float>& in, const std::vector<uint32_t>& dims,
                                  const std::vector<bool>& reduced) {
  std::vector<uint32_t> kept;
  size_t count = 1;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (reduced[k]) {
      count *= dims[k];
    } else {
      kept.push_back(dims[k]);
    }
  }
  std::vector<double> out(countOf(kept), 0.0);
  for (size_t i = 0; i < in.size(); ++i) out[outputIndex(i, dims, reduced)] += in[i];
  for (double& v : out)
    v /= static_cast<double>(count);
  return out;
}

TEST(Reduce, RandomMeanEveryAxisSubsetMatchesReference) {
  const std::vector<uint32_t> dims{3, 4, 5, 6};
  const auto in = randomFloats(countOf(dims), -10, 10, 1);
  for (uint32_t mask = 1; mask < 16; ++mask) {
    SCOPED_TRACE("axes mask " + std::to_string(mask));
    std::vector<bool> reduced;
    const std::vector<uint32_t> axes = axesOfMask(mask, reduced);
    const auto expected = referenceMean(in, dims, reduced);
    std::vector<float> out(expected.size());
    mean(in.data(), {dims}, axes, out.data());
    expectFloatsNear(out, expected);
  }
}

TEST(Reduce, LargeSpatialMeanMatchesReference) {
  // NHWC mean over H and W (global average pooling), parallel over the batch.
  const std::vector<uint32_t> dims{16, 32, 32, 24};
  const auto in = randomFloats(countOf(dims), -1, 1, 2);
  const std::vector<uint32_t> axes{2, 1};
  const auto expected = referenceMean(in, dims, {false, true, true, false});
  std::vector<float> out(expected.size());
  mean(in.data(), {dims}, axes, out.data());
  expectFloatsNear(out, expected);
}

TEST(Reduce, LastAxisMeanOfManyRowsMatchesReference) {
  // A layer normalization's MEAN: over the last axis only, rows in parallel, a length of 301 (8-element
  // partial sums and a tail of 5).
  const std::vector<uint32_t> dims{4, 50, 301};
  const auto in = randomFloats(countOf(dims), -3, 5, 3);
  const std::vector<uint32_t> axes{2};
  const auto expected = referenceMean(in, dims, {false, false, true});
  std::vector<float> out(expected.size());
  mean(in.data(), {dims}, axes, out.data());
  expectFloatsNear(out, expected);
}

// REDUCE_SUM, REDUCE_MAX, REDUCE_MIN and MEAN over every subset of axes of `dims`, against reductions in
// double (sums) or exact ones (extrema).
void checkEveryAxisSubset(const std::vector<uint32_t>& dims, uint32_t seed) {
  const auto in = randomFloats(countOf(dims), -10, 10, seed);
  for (uint32_t mask = 1; mask < 16; ++mask) {
    SCOPED_TRACE("axes mask " + std::to_string(mask));
    std::vector<bool> reduced;
    const std::vector<uint32_t> axes = axesOfMask(mask, reduced);
    size_t count = 1;
    for (uint32_t k : axes) count *= dims[k];
    std::vector<double> sums = referenceMean(in, dims, reduced);
    for (double& v : sums) v *= static_cast<double>(count);
    // The extrema: each input element against the output element of its kept coordinates.
    std::vector<float> largest(sums.size(), -1e30f), smallest(sums.size(), 1e30f);
    for (size_t i = 0; i < in.size(); ++i) {
      const size_t o = outputIndex(i, dims, reduced);
      largest[o] = std::max(largest[o], in[i]);
      smallest[o] = std::min(smallest[o], in[i]);
    }
    std::vector<float> out(sums.size());
    reduceSum(in.data(), {dims}, axes, out.data());
    for (size_t i = 0; i < out.size(); ++i) ASSERT_NEAR(out[i], sums[i], 1e-4 * (1.0 + std::fabs(sums[i]))) << i;
    reduceMax(in.data(), {dims}, axes, out.data());
    EXPECT_EQ(out, largest);
    reduceMin(in.data(), {dims}, axes, out.data());
    EXPECT_EQ(out, smallest);
    mean(in.data(), {dims}, axes, out.data());
    for (size_t i = 0; i < out.size(); ++i) {
      const double want = sums[i] / static_cast<double>(count);
      ASSERT_NEAR(out[i], want, 1e-5 * (1.0 + std::fabs(want))) << i;
    }
  }
}

// A tensor whose last dimension (130) spans more than one 64-element block of the column loops: a run of
// consecutive axes takes the parallel block loops (rows or columns), the others the general loop.
TEST(Reduce, EveryAxisSubsetOfAWideTensorMatchesReference) {
  checkEveryAxisSubset({2, 5, 7, 130}, 4);
}

// Axes of one count as reduced or kept, whichever makes one run ([1, 37, 1, 90]: axes 0, 1, 3 are the
// run 1..3); a narrow NHWC tensor's spatial sums ([1, 40, 40, 24]: one column block, 1600 rows) cut into
// segments that run in parallel.
TEST(Reduce, AxesOfOneAndNarrowColumnsMatchReference) {
  checkEveryAxisSubset({1, 37, 1, 90}, 7);
  checkEveryAxisSubset({1, 40, 40, 24}, 8);
}

// Rows of every length from 1 to 140 (the row loops take 64 or 32 values at a time, then 16 or 8, then
// one): REDUCE_MAX, REDUCE_MIN exactly, REDUCE_SUM against a sum in double.
TEST(Reduce, RowsOfEveryLengthMatchReference) {
  for (uint32_t n = 1; n <= 140; ++n) {
    SCOPED_TRACE("row length " + std::to_string(n));
    const uint32_t rows = 3;
    const auto in = randomFloats(size_t{rows} * n, -10, 10, 100 + n);
    const std::vector<uint32_t> axes{1};
    std::vector<float> largest(rows), smallest(rows), sums(rows);
    reduceMax(in.data(), {{rows, n}}, axes, largest.data());
    reduceMin(in.data(), {{rows, n}}, axes, smallest.data());
    reduceSum(in.data(), {{rows, n}}, axes, sums.data());
    for (uint32_t r = 0; r < rows; ++r) {
      const float* x = in.data() + size_t{r} * n;
      EXPECT_EQ(largest[r], *std::max_element(x, x + n)) << "row " << r;
      EXPECT_EQ(smallest[r], *std::min_element(x, x + n)) << "row " << r;
      double sum = 0;
      for (uint32_t k = 0; k < n; ++k) sum += x[k];
      EXPECT_NEAR(sums[r], sum, 1e-5 * (1.0 + std::fabs(sum))) << "row " << r;
    }
  }
}

// ARGMAX and ARGMIN along the last axis (rows of 37: two vector blocks and a tail) with many ties, a
// NaN first value (index 0, as comparisons against it are all false) and a NaN inside a row (passed
// over), against the definition: the first index whose value no other value beats.
TEST(Reduce, ArgExtremaOfRowsKeepTheFirstIndexAndPassOverNaN) {
  const size_t rows = 9, n = 37;
  std::vector<float> in(rows * n);
  const auto values = randomFloats(in.size(), 0, 5, 5);
  for (size_t i = 0; i < in.size(); ++i) in[i] = std::floor(values[i]);  // 0..4: ties everywhere
  in[0] = std::nanf("");           // row 0 starts with NaN
  in[1 * n + 20] = std::nanf("");  // row 1 has one inside
  for (const bool largest : {true, false}) {
    std::vector<int32_t> got(rows);
    const Shape shape{{static_cast<uint32_t>(rows), static_cast<uint32_t>(n)}};
    if (largest) {
      argMax(in.data(), shape, 1, got.data());
    } else {
      argMin(in.data(), shape, 1, got.data());
    }
    for (size_t r = 0; r < rows; ++r) {
      const float* x = in.data() + r * n;
      size_t best = 0;
      for (size_t k = 1; k < n; ++k)
        if (largest ? x[k] > x[best] : x[k] < x[best]) best = k;
      EXPECT_EQ(got[r], static_cast<int32_t>(best)) << (largest ? "argmax" : "argmin") << " row " << r;
    }
  }
}

// TOPK_V2 with ties everywhere (values 0..4), k of 3 (one pass keeping the best few) and 20 (a partial
// sort): the k largest, larger first, equal values by lower index first, against a stable sort.
TEST(Reduce, TopKKeepsTheLowerIndexFirstAmongEqualValues) {
  const size_t rows = 7, n = 53;
  std::vector<float> in(rows * n);
  const auto values = randomFloats(in.size(), 0, 5, 6);
  for (size_t i = 0; i < in.size(); ++i) in[i] = std::floor(values[i]);
  for (const uint32_t k : {1u, 3u, 16u, 20u}) {
    std::vector<float> got(rows * k);
    std::vector<int32_t> indices(rows * k);
    topK(in.data(), rows, n, k, got.data(), indices.data());
    for (size_t r = 0; r < rows; ++r) {
      std::vector<int32_t> order(n);
      for (size_t i = 0; i < n; ++i) order[i] = static_cast<int32_t>(i);
      const float* row = in.data() + r * n;
      std::stable_sort(order.begin(), order.end(), [row](int32_t a, int32_t b) { return row[a] > row[b]; });
      for (uint32_t j = 0; j < k; ++j) {
        EXPECT_EQ(indices[r * k + j], order[j]) << "k " << k << ", row " << r << ", place " << j;
        EXPECT_EQ(got[r * k + j], row[order[j]]) << "k " << k << ", row " << r << ", place " << j;
      }
    }
  }
}

}  // namespace
}  // namespace nnrt::cpu::test
