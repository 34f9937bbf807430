// copyBytes (RESHAPE, SQUEEZE), CONCATENATION, TRANSPOSE and PAD: hand-computed layouts, then random
// tensors for every axis / permutation / padding pattern against index arithmetic written in the test;
// and ShuffleGather (a CHANNEL_SHUFFLE of a CONCATENATION, split by SLICEs) against index arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <string>

#include "cpu_kernels/test_support.hpp"
#include "plugins/cpu/kernels/shuffle_gather.hpp"
#include "plugins/cpu/kernels/tensor_ops.hpp"
#include "plugins/cpu/kernels/tensor_shape.hpp"

namespace nnrt::cpu::test {
namespace {

TEST(TensorShape, CopyBytesByHand) {
  const std::vector<float> in{1, 2, 3};
  std::vector<float> out(3, 0.0f);
  copyBytes(in.data(), 3 * sizeof(float), out.data());
  EXPECT_EQ(out, in);
  copyBytes(out.data(), 3 * sizeof(float), out.data());  // same buffer: a no-op
  EXPECT_EQ(out, in);
}

TEST(TensorShape, ConcatenationByHand) {
  // [2,1] {1; 2} ++ [2,2] {3, 4; 5, 6} along axis 1 -> [2,3] {1, 3, 4; 2, 5, 6}
  const std::vector<float> a{1, 2}, b{3, 4, 5, 6};
  const std::vector<const void*> inputs{a.data(), b.data()};
  const std::vector<Shape> shapes{{{2, 1}}, {{2, 2}}};
  std::vector<float> out(6);
  concatenation(inputs, shapes, 1, sizeof(float), out.data());
  EXPECT_EQ(out, (std::vector<float>{1, 3, 4, 2, 5, 6}));
  // [1,2] {1, 2} ++ [2,2] along axis 0 -> the buffers one after the other
  const std::vector<Shape> rows{{{1, 2}}, {{2, 2}}};
  concatenation(inputs, rows, 0, sizeof(float), out.data());
  EXPECT_EQ(out, (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(TensorShape, QuantConcatenationRequantizesByHand) {
  // output scale 1 zp 10. input 0 (scale 0.5 zp 0): {2, 4} -> reals {1, 2} -> {11, 12}
  // input 1 already has the output's parameters: copied as is.
  const std::vector<uint8_t> a{2, 4}, b{10, 13};
  const std::vector<const uint8_t*> inputs{a.data(), b.data()};
  const std::vector<Shape> shapes{{{2}}, {{2}}};
  const std::vector<Quant> quants{{0.5f, 0}, {1.0f, 10}};
  std::vector<uint8_t> out(4);
  concatenation(inputs, shapes, quants, 0, out.data(), {1.0f, 10});
  EXPECT_EQ(out, (std::vector<uint8_t>{11, 12, 10, 13}));
}

TEST(TensorShape, TransposeByHand) {
  // [2,3] {1, 2, 3; 4, 5, 6} with perm {1, 0} -> [3,2] {1, 4; 2, 5; 3, 6}
  const std::vector<float> in{1, 2, 3, 4, 5, 6};
  std::vector<float> out(6);
  const std::vector<uint32_t> perm{1, 0};
  transpose(in.data(), {{2, 3}}, perm, sizeof(float), out.data());
  EXPECT_EQ(out, (std::vector<float>{1, 4, 2, 5, 3, 6}));
  // [2,1,3] with perm {2, 0, 1} -> [3,2,1]: out[k][i][0] = in[i][0][k]
  const std::vector<uint32_t> perm3{2, 0, 1};
  transpose(in.data(), {{2, 1, 3}}, perm3, sizeof(float), out.data());
  EXPECT_EQ(out, (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(TensorShape, PadByHand) {
  // [2,2] {1, 2; 3, 4}, one row before, two columns after -> [3,4]
  const std::vector<float> in{1, 2, 3, 4};
  const std::vector<uint32_t> paddings{1, 0, 0, 2};
  std::vector<float> out(12, -1.0f);
  pad(in.data(), {{2, 2}}, paddings, 0.0f, out.data());
  EXPECT_EQ(out, (std::vector<float>{0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0}));
  // quant8 pads with the value it is given (the driver passes the zero point)
  const std::vector<uint8_t> q{1, 2, 3, 4};
  std::vector<uint8_t> qout(12);
  pad(q.data(), {{2, 2}}, paddings, uint8_t{7}, qout.data());
  EXPECT_EQ(qout, (std::vector<uint8_t>{7, 7, 7, 7, 1, 2, 7, 7, 3, 4, 7, 7}));
}

// ---- random tensors ----

// Row-major coordinates of flat index `i` in `dims`, and back.
std::vector<uint32_t> coordinates(size_t i, const std::vector<uint32_t>& dims) {
  std::vector<uint32_t> c(dims.size());
  for (size_t k = dims.size(); k-- > 0;) {
    c[k] = static_cast<uint32_t>(i % dims[k]);
    i /= dims[k];
  }
  return c;
}
size_t flatIndex(const std::vector<uint32_t>& c, const std::vector<uint32_t>& dims) {
  size_t i = 0;
  for (size_t k = 0; k < dims.size(); ++k)
    i = i * dims[k] + c[k];
  return i;
}

TEST(TensorShape, RandomConcatenationMatchesReference) {
  uint32_t seed = 1;
  const std::vector<uint32_t> base{3, 4, 5, 6};
  for (uint32_t axis = 0; axis < 4; ++axis) {
    SCOPED_TRACE("axis " + std::to_string(axis));
    const uint32_t sizes[] = {2, 1, 7};
    std::vector<Shape> shapes;
    std::vector<std::vector<float>> data;
    std::vector<const void*> inputs;
    std::vector<uint32_t> outDims = base;
    outDims[axis] = 0;
    for (uint32_t s : sizes) {
      Shape shape{base};
      shape.dims[axis] = s;
      outDims[axis] += s;
      shapes.push_back(shape);
      data.push_back(randomFloats(shape.elements(), -1, 1, seed++));
    }
    for (const auto& d : data)
      inputs.push_back(d.data());
    // Each output element comes from the input whose slab along `axis` holds it.
    std::vector<float> expected(countOf(outDims));
    for (size_t i = 0; i < expected.size(); ++i) {
      auto c = coordinates(i, outDims);
      size_t k = 0;
      while (c[axis] >= shapes[k].dims[axis])
        c[axis] -= shapes[k++].dims[axis];
      expected[i] = data[k][flatIndex(c, shapes[k].dims)];
    }
    std::vector<float> out(expected.size());
    concatenation(inputs, shapes, axis, sizeof(float), out.data());
    EXPECT_EQ(out, expected);

    // The same layout in quant8, each input with its own parameters (one equal to the output's).
    const Quant outQuant{0.02f, 120};
    const std::vector<Quant> quants{{0.05f, 100}, outQuant, {0.013f, 7}};
    std::vector<std::vector<uint8_t>> qdata;
    std::vector<const uint8_t*> qinputs;
    for (const Shape& s : shapes)
      qdata.push_back(randomBytes(s.elements(), seed++));
    for (const auto& d : qdata)
      qinputs.push_back(d.data());
    std::vector<int> qexpected(expected.size());
    for (size_t i = 0; i < qexpected.size(); ++i) {
      auto c = coordinates(i, outDims);
      size_t k = 0;
      while (c[axis] >= shapes[k].dims[axis])
        c[axis] -= shapes[k++].dims[axis];
      qexpected[i] = quantize(dequantize(qdata[k][flatIndex(c, shapes[k].dims)], quants[k]), outQuant);
    }
    std::vector<uint8_t> qout(qexpected.size());
    concatenation(qinputs, shapes, quants, axis, qout.data(), outQuant);
    expectQuantNear(qout, qexpected);
  }
}

TEST(TensorShape, ConcatenationCopiesRunsOfEveryLength) {
  // Runs of 1 to 5000 bytes per piece and row (the copy takes short runs in fixed-size moves, a
  // tail of a run over 64 bytes as its last 64 bytes again, and long runs whole), pieces of one and
  // four bytes per element; every byte placed by its own index arithmetic.
  for (size_t elementSize : {size_t{1}, size_t{4}}) {
    for (uint32_t width : {1u, 3u, 4u, 15u, 16u, 17u, 63u, 64u, 65u, 100u, 127u, 128u, 129u, 255u, 1023u, 1024u, 1250u}) {
      SCOPED_TRACE("element size " + std::to_string(elementSize) + ", width " + std::to_string(width));
      const uint32_t rows = 3, other = 5;
      const std::vector<Shape> shapes{{{rows, width}}, {{rows, other}}};
      std::vector<uint8_t> a(rows * width * elementSize), b(rows * other * elementSize);
      for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<uint8_t>(i * 7 + 1);
      for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint8_t>(i * 13 + 200);
      const std::vector<const void*> inputs{a.data(), b.data()};
      const size_t rowBytes = (width + other) * elementSize;
      std::vector<uint8_t> out(rows * rowBytes + 1, 0xEE);  // one byte past the end stays
      concatenation(inputs, shapes, 1, elementSize, out.data());
      for (size_t r = 0; r < rows; ++r) {
        for (size_t i = 0; i < width * elementSize; ++i)
          ASSERT_EQ(out[r * rowBytes + i], a[r * width * elementSize + i]) << "row " << r << ", byte " << i;
        for (size_t i = 0; i < other * elementSize; ++i)
          ASSERT_EQ(out[r * rowBytes + width * elementSize + i], b[r * other * elementSize + i]) << "row " << r;
      }
      EXPECT_EQ(out.back(), 0xEE);
    }
  }
}

TEST(TensorShape, LargeConcatenationMatchesReference) {
  // Many outer slices: the parallel path.
  const std::vector<float> a = randomFloats(4000 * 7, -1, 1, 1), b = randomFloats(4000 * 9, -1, 1, 2);
  const std::vector<const void*> inputs{a.data(), b.data()};
  const std::vector<Shape> shapes{{{4000, 7}}, {{4000, 9}}};
  std::vector<float> out(4000 * 16);
  concatenation(inputs, shapes, 1, sizeof(float), out.data());
  for (size_t r = 0; r < 4000; ++r) {
    ASSERT_TRUE(std::equal(a.begin() + r * 7, a.begin() + (r + 1) * 7, out.begin() + r * 16)) << r;
    ASSERT_TRUE(std::equal(b.begin() + r * 9, b.begin() + (r + 1) * 9, out.begin() + r * 16 + 7)) << r;
  }
}

template <typename T>
void checkTranspose(const std::vector<uint32_t>& dims, const std::vector<uint32_t>& perm, uint32_t seed) {
  std::vector<T> in(countOf(dims));
  std::mt19937 rng(seed);
  for (T& v : in)
    v = static_cast<T>(rng());
  std::vector<uint32_t> outDims(dims.size());
  for (size_t i = 0; i < dims.size(); ++i)
    outDims[i] = dims[perm[i]];
  // out[c] = in[c'] with c'[perm[i]] = c[i]
  std::vector<T> expected(in.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto c = coordinates(i, outDims);
    std::vector<uint32_t> source(dims.size());
    for (size_t k = 0; k < dims.size(); ++k)
      source[perm[k]] = c[k];
    expected[i] = in[flatIndex(source, dims)];
  }
  std::vector<T> out(in.size());
  transpose(in.data(), {dims}, perm, sizeof(T), out.data());
  EXPECT_EQ(out, expected);
}

TEST(TensorShape, RandomTransposeMatchesReference) {
  std::vector<uint32_t> perm{0, 1, 2, 3};
  uint32_t seed = 1;
  do {  // all 24 permutations of a rank-4 tensor, in 1-, 4- and 8-byte elements
    SCOPED_TRACE("perm " + std::to_string(perm[0]) + std::to_string(perm[1]) + std::to_string(perm[2]) +
                 std::to_string(perm[3]));
    checkTranspose<uint8_t>({2, 3, 4, 5}, perm, seed++);
    checkTranspose<float>({3, 1, 4, 7}, perm, seed++);
    checkTranspose<uint64_t>({2, 5, 3, 2}, perm, seed++);
  } while (std::next_permutation(perm.begin(), perm.end()));
  checkTranspose<int16_t>({5, 7}, {1, 0}, seed++);
  checkTranspose<float>({6, 5, 4}, {1, 2, 0}, seed++);
  checkTranspose<float>({64, 3, 60, 40}, {0, 2, 3, 1}, seed++);  // NCHW -> NHWC, parallel
  // Short rows copied column by column, split among threads in the middle of a run of rows.
  checkTranspose<float>({1, 3, 224, 224}, {0, 2, 3, 1}, seed++);
  // Two to four planes interleaved (the vectorized loops), runs of every length mod 16.
  checkTranspose<float>({2, 2, 17, 31}, {0, 2, 3, 1}, seed++);
  checkTranspose<float>({1, 3, 19, 23}, {0, 2, 3, 1}, seed++);
  checkTranspose<int32_t>({3, 4, 13, 29}, {0, 2, 3, 1}, seed++);
  checkTranspose<uint8_t>({3, 5, 37, 29}, {0, 2, 3, 1}, seed++);
  checkTranspose<float>({2, 15, 41, 67}, {0, 2, 3, 1}, seed++);
  checkTranspose<float>({7, 9, 300}, {0, 2, 1}, seed++);
  // Dimensions of size 1 moved (a copy), and nested neighbours merged.
  checkTranspose<float>({1, 1280, 1, 1}, {0, 2, 3, 1}, seed++);
  checkTranspose<float>({1, 1, 1, 1}, {3, 2, 1, 0}, seed++);
  checkTranspose<uint8_t>({1, 6, 1, 5}, {3, 0, 1, 2}, seed++);
  checkTranspose<float>({4, 1, 6, 5}, {2, 3, 1, 0}, seed++);
}

template <typename T>
void checkPad(const std::vector<uint32_t>& dims, const std::vector<uint32_t>& paddings, T padValue,
              uint32_t seed) {
  std::vector<T> in(countOf(dims));
  std::mt19937 rng(seed);
  for (T& v : in)
    v = static_cast<T>(rng() % 200);
  std::vector<uint32_t> outDims(dims.size());
  for (size_t i = 0; i < dims.size(); ++i)
    outDims[i] = paddings[2 * i] + dims[i] + paddings[2 * i + 1];
  std::vector<T> expected(countOf(outDims));
  for (size_t i = 0; i < expected.size(); ++i) {
    auto c = coordinates(i, outDims);
    bool inside = true;
    for (size_t k = 0; k < dims.size(); ++k) {
      if (c[k] < paddings[2 * k] || c[k] >= paddings[2 * k] + dims[k]) inside = false;
      c[k] -= paddings[2 * k];
    }
    expected[i] = inside ? in[flatIndex(c, dims)] : padValue;
  }
  std::vector<T> out(expected.size());
  pad(in.data(), {dims}, paddings, padValue, out.data());
  EXPECT_EQ(out, expected);
}

TEST(TensorShape, RandomPadMatchesReference) {
  checkPad<float>({5}, {2, 3}, 0.0f, 1);
  checkPad<float>({3, 4}, {0, 1, 2, 0}, 0.0f, 2);
  checkPad<uint8_t>({2, 3, 4}, {1, 1, 0, 2, 3, 0}, uint8_t{128}, 3);
  checkPad<float>({2, 5, 4, 3}, {1, 0, 2, 2, 0, 3, 1, 1}, 0.0f, 4);
  checkPad<int32_t>({2, 5, 4, 3}, {0, 0, 0, 0, 0, 0, 0, 0}, int32_t{-1}, 5);
  checkPad<float>({2, 64, 64, 16}, {0, 0, 1, 1, 1, 1, 0, 0}, 0.0f, 6);  // parallel
}

// MIRROR_PAD by its definition (REFLECT: index -1 reads 1, index n reads n - 2; SYMMETRIC: -1 reads 0, n
// reads n - 1), over shapes whose last axis is copied in runs (an NHWC image padded in H and W, and a long
// last axis padded by a little) and element by element (a short last axis padded); REVERSE of the last
// and of an inner axis.
TEST(TensorShape, MirrorPadAndReverseMatchTheirDefinitions) {
  struct Case {
    std::vector<uint32_t> dims, pads;
  };
  const std::vector<Case> cases{{{2, 5, 6, 8}, {0, 0, 2, 1, 1, 2, 0, 0}},
                                {{3, 40}, {1, 2, 2, 2}},
                                {{4, 6}, {0, 1, 3, 2}}};
  uint32_t seed = 40;
  for (const Case& c : cases) {
    for (const MirrorMode mode : {MirrorMode::Reflect, MirrorMode::Symmetric}) {
      SCOPED_TRACE("case " + std::to_string(seed));
      const Shape shape{c.dims};
      const auto in = randomFloats(shape.elements(), -5, 5, seed++);
      std::vector<uint32_t> outDims(c.dims.size());
      for (size_t d = 0; d < c.dims.size(); ++d) outDims[d] = c.dims[d] + c.pads[2 * d] + c.pads[2 * d + 1];
      std::vector<float> out(countOf(outDims));
      mirrorPad(in.data(), shape, c.pads, mode, sizeof(float), out.data());
      const int64_t edge = mode == MirrorMode::Reflect ? 1 : 0;
      for (size_t o = 0; o < out.size(); ++o) {
        size_t rest = o, from = 0, stride = 1;
        for (size_t d = c.dims.size(); d-- > 0;) {
          const auto n = static_cast<int64_t>(c.dims[d]);
          int64_t p = static_cast<int64_t>(rest % outDims[d]) - c.pads[2 * d];
          rest /= outDims[d];
          if (p < 0) p = -p - 1 + edge;
          if (p >= n) p = 2 * n - 1 - p - edge;
          from += static_cast<size_t>(p) * stride;
          stride *= c.dims[d];
        }
        ASSERT_EQ(out[o], in[from]) << "output element " << o;
      }
    }
    for (uint32_t axis : {0u, static_cast<uint32_t>(c.dims.size() - 1)}) {
      const Shape shape{c.dims};
      const auto in = randomFloats(shape.elements(), -5, 5, seed++);
      std::vector<float> out(in.size());
      reverse(in.data(), shape, axis, sizeof(float), out.data());
      size_t inner = 1;
      for (size_t d = axis + 1; d < c.dims.size(); ++d) inner *= c.dims[d];
      const size_t n = c.dims[axis];
      for (size_t o = 0; o < out.size(); ++o) {
        const size_t k = o / inner % n, from = o + ((n - 1 - k) - k) * inner;
        ASSERT_EQ(out[o], in[from]) << "axis " << axis << ", element " << o;
      }
    }
  }
}

// TILE by its definition (output coordinate k reads input coordinate k mod the input's extent), over
// shapes whose rows are filled by doubling (a scalar and a short row tiled many times), whose rows repeat
// the previous one (leading dimensions of one tiled), and whose rows come from different input rows.
TEST(TensorShape, TileMatchesItsDefinition) {
  struct Case {
    std::vector<uint32_t> dims, multiples;
  };
  const std::vector<Case> cases{{{1, 1, 1, 1}, {1, 6, 5, 113}},
                                {{1, 3}, {7, 11}},
                                {{2, 1, 3}, {2, 4, 3}},
                                {{3, 2, 5}, {1, 3, 1}},
                                {{1, 1, 70}, {2, 40, 2}}};
  uint32_t seed = 60;
  for (const Case& c : cases) {
    SCOPED_TRACE("case " + std::to_string(seed));
    const Shape shape{c.dims};
    const auto in = randomFloats(shape.elements(), -5, 5, seed++);
    std::vector<uint32_t> outDims(c.dims.size());
    for (size_t d = 0; d < c.dims.size(); ++d) outDims[d] = c.dims[d] * c.multiples[d];
    std::vector<float> out(countOf(outDims), -1.0f);
    tile(in.data(), shape, c.multiples, sizeof(float), out.data());
    for (size_t o = 0; o < out.size(); ++o) {
      size_t rest = o, from = 0, stride = 1;
      for (size_t d = c.dims.size(); d-- > 0;) {
        from += rest % outDims[d] % c.dims[d] * stride;
        rest /= outDims[d];
        stride *= c.dims[d];
      }
      ASSERT_EQ(out[o], in[from]) << "output element " << o;
    }
  }
}

// Two pieces of 3 channels, 2 rows, shuffled in 2 groups: channels a0 b0 a1 b1 a2 b2, split after 2 and 4.
TEST(ShuffleGather, InterleavesTwoPiecesByHand) {
  std::string why;
  auto gather = ShuffleGather::plan({3, 3}, 2, 2, {{0, 2}, {2, 6}, {0, 6}}, why);
  ASSERT_TRUE(gather.has_value()) << why;
  const std::vector<float> a{1, 2, 3, 4, 5, 6}, b{-1, -2, -3, -4, -5, -6};
  std::vector<float> head(4), tail(8), whole(12);
  const void* pieces[] = {a.data(), b.data()};
  void* outputs[] = {head.data(), tail.data(), whole.data()};
  gather->run(pieces, outputs);
  EXPECT_EQ(head, (std::vector<float>{1, -1, 4, -4}));
  EXPECT_EQ(tail, (std::vector<float>{2, -2, 3, -3, 5, -5, 6, -6}));
  EXPECT_EQ(whole, (std::vector<float>{1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6}));
}

// Random pieces in 2, 3 and 4 groups over 5x7 rows (some pieces holding several groups, one a single
// tensor): every range equals the CONCATENATION kernel's result shuffled and sliced by index arithmetic
// written here (shuffled channel j is channel (j % groups) * (C / groups) + j / groups).
// Ranges that do not start and end at a multiple of the groups, or read a group from two pieces, are
// refused.
TEST(ShuffleGather, MatchesConcatenationShuffleAndSlices) {
  struct Case {
    std::vector<uint32_t> widths;
    uint32_t groups;
    std::vector<ShuffleGather::Range> ranges;
  };
  const Case cases[] = {{{58, 58}, 2, {{0, 58}, {58, 116}}},
                        {{12, 12, 12}, 3, {{0, 36}, {3, 18}, {18, 36}}},
                        {{40}, 4, {{0, 20}, {20, 40}}},
                        {{10, 10, 20}, 2, {{0, 20}, {20, 40}, {4, 8}}}};
  const size_t rows = 35;
  uint32_t seed = 30;
  for (const Case& c : cases) {
    const uint32_t channels = std::accumulate(c.widths.begin(), c.widths.end(), 0u);
    std::vector<std::vector<float>> pieces;
    std::vector<const void*> data;
    std::vector<Shape> shapes;
    for (uint32_t w : c.widths) {
      pieces.push_back(randomFloats(rows * w, -1, 1, seed++));
      data.push_back(pieces.back().data());
      shapes.push_back(Shape{{5, 7, w}});
    }
    std::vector<float> joined(rows * channels), shuffled(rows * channels);
    concatenation(data, shapes, 2, sizeof(float), joined.data());
    const uint32_t perGroup = channels / c.groups;
    for (size_t row = 0; row < rows; ++row)
      for (uint32_t j = 0; j < channels; ++j)
        shuffled[row * channels + j] = joined[row * channels + (j % c.groups) * perGroup + j / c.groups];
    std::string why;
    auto gather = ShuffleGather::plan(c.widths, c.groups, rows, c.ranges, why);
    ASSERT_TRUE(gather.has_value()) << why;
    std::vector<std::vector<float>> outputs;
    std::vector<void*> pointers;
    for (const auto& r : c.ranges) outputs.emplace_back(rows * (r.end - r.begin));
    for (auto& o : outputs) pointers.push_back(o.data());
    gather->run(data, pointers);
    for (size_t k = 0; k < c.ranges.size(); ++k) {
      const uint32_t width = c.ranges[k].end - c.ranges[k].begin;
      for (size_t row = 0; row < rows; ++row)
        for (uint32_t j = 0; j < width; ++j)
          ASSERT_EQ(outputs[k][row * width + j], shuffled[row * channels + c.ranges[k].begin + j])
              << c.groups << " groups, range " << k << ", row " << row << ", channel " << j;
    }
  }
  std::string why;
  EXPECT_FALSE(ShuffleGather::plan({6, 6}, 2, 1, {{1, 5}}, why).has_value());
  EXPECT_NE(why.find("multiples of 2"), std::string::npos) << why;
  EXPECT_FALSE(ShuffleGather::plan({3, 9}, 2, 1, {{0, 12}}, why).has_value());  // group 0: channels 0-5
  EXPECT_NE(why.find("reads two pieces"), std::string::npos) << why;
  EXPECT_FALSE(ShuffleGather::plan({5, 6}, 2, 1, {{0, 10}}, why).has_value());  // 11 channels
}

}  // namespace
}  // namespace nnrt::cpu::test
