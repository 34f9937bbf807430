// MEAN: hand-computed reductions (one axis, all axes, repeated axes), then every subset of axes of a
// random rank-4 tensor and a large NHWC spatial mean against a double reference.
#include <gtest/gtest.h>

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
  for (size_t i = 0; i < in.size(); ++i) {
    size_t rest = i, o = 0, stride = 1;
    for (size_t k = dims.size(); k-- > 0;) {
      const size_t c = rest % dims[k];
      rest /= dims[k];
      if (!reduced[k]) {
        o += c * stride;
        stride *= dims[k];
      }
    }
    out[o] += in[i];
  }
  for (double& v : out)
    v /= static_cast<double>(count);
  return out;
}

TEST(Reduce, RandomMeanEveryAxisSubsetMatchesReference) {
  const std::vector<uint32_t> dims{3, 4, 5, 6};
  const auto in = randomFloats(countOf(dims), -10, 10, 1);
  for (uint32_t mask = 1; mask < 16; ++mask) {
    SCOPED_TRACE("axes mask " + std::to_string(mask));
    std::vector<uint32_t> axes;
    std::vector<bool> reduced(4);
    for (uint32_t k = 0; k < 4; ++k) {
      if (mask & (1u << k)) {
        axes.push_back(k);
        reduced[k] = true;
      }
    }
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

}  // namespace
}  // namespace nnrt::cpu::test
