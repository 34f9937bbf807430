// The split OpenBLAS products (kernels/gemm.hpp): every row and column of odd-sized products, split by
// rows and by columns, on the calling thread, on a oneTBB arena and on a team-like executor that hands
// each of its threads one even run of the pieces, against a double-precision loop.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <cmath>
#include <thread>
#include <vector>

#include "cpu_kernels/test_support.hpp"
#include "plugins/cpu/kernels/gemm.hpp"
#include "plugins/cpu/kernels/parallel.hpp"

namespace nnrt::cpu::test {
namespace {

struct Product {
  size_t m, n, k;
};

// out[m, n] (rows ldc apart, starting from `start`) += lhs[m, k] * rhs[n, k]^T, in double.
std::vector<float> reference(const std::vector<float>& lhs, const std::vector<float>& rhs, const std::vector<float>& start,
                             const Product& p, size_t ldc) {
  std::vector<float> out = start;
  for (size_t i = 0; i < p.m; ++i) {
    for (size_t j = 0; j < p.n; ++j) {
      double sum = start[i * ldc + j];
      for (size_t q = 0; q < p.k; ++q) sum += double(lhs[i * p.k + q]) * rhs[j * p.k + q];
      out[i * ldc + j] = static_cast<float>(sum);
    }
  }
  return out;
}

// Three "threads", each given one even run of [0, count): what the fast layer's OpenMP team does.
void teamRun(void*, size_t count, size_t, void (*body)(const void*, size_t, size_t), const void* context) {
  std::vector<std::thread> team;
  for (size_t t = 0; t < 3; ++t) {
    const size_t begin = count * t / 3, end = count * (t + 1) / 3;
    if (begin < end) team.emplace_back([=] { body(context, begin, end); });
  }
  for (auto& thread : team) thread.join();
}

void checkAll(const char* where) {
  const Product products[] = {{1, 1000, 37}, {1, 5, 3}, {300, 70, 19}, {70, 300, 19}, {5, 777, 3}, {129, 129, 65}};
  uint32_t seed = 1;
  for (const Product& p : products) {
    SCOPED_TRACE(std::string(where) + ": " + std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k));
    const size_t ldc = p.n + 3;  // out rows apart more than n: the columns split must keep to them
    const auto lhs = randomFloats(p.m * p.k, -1, 1, seed++), rhs = randomFloats(p.n * p.k, -1, 1, seed++);
    const auto start = randomFloats(p.m * ldc, -1, 1, seed++);
    std::vector<float> out = start;
    detail::gemmAccumulate(lhs.data(), p.k, rhs.data(), p.k, p.m, p.n, p.k, out.data(), ldc);
    const auto expected = reference(lhs, rhs, start, p, ldc);
    for (size_t i = 0; i < out.size(); ++i) ASSERT_NEAR(out[i], expected[i], 1e-4) << "at " << i;
    if (p.m == 1) {
      std::vector<float> y(start.begin(), start.begin() + p.n);
      detail::gemvAccumulate(rhs.data(), p.n, p.k, lhs.data(), y.data());
      for (size_t j = 0; j < p.n; ++j) ASSERT_NEAR(y[j], expected[j], 1e-4) << "row " << j;
    }
  }
}

// Rows of rhs further apart than k (a slice of wider weights), one row of lhs included: not a plain
// matrix-vector product then.
TEST(SplitGemm, RhsRowsFurtherApartThanK) {
  const size_t m = 1, n = 70, k = 19, ldb = 23, ldc = 70;
  const auto lhs = randomFloats(m * k, -1, 1, 41), rhs = randomFloats(n * ldb, -1, 1, 42);
  std::vector<float> out(m * ldc, 0.5f);
  detail::gemmAccumulate(lhs.data(), k, rhs.data(), ldb, m, n, k, out.data(), ldc);
  for (size_t j = 0; j < n; ++j) {
    double expected = 0.5;
    for (size_t q = 0; q < k; ++q) expected += double(lhs[q]) * rhs[j * ldb + q];
    ASSERT_NEAR(out[j], expected, 1e-4) << "column " << j;
  }
}

// A matrix of 256 KiB or more is read backwards on every other product over it (its last rows are
// then still in the cache): the same values each time, bit for bit, on 2 threads, with rows that are not
// a multiple of the blocks of eight and columns not of sixteen.
TEST(SplitGemm, RepeatedProductsOverOneMatrixGiveTheSameValues) {
  const size_t rows = 1027, cols = 301;
  const auto matrix = randomFloats(rows * cols, -1, 1, 51), vec = randomFloats(cols, -1, 1, 52);
  const auto start = randomFloats(rows, -1, 1, 53);
  const auto expected = reference(vec, matrix, start, Product{1, rows, cols}, rows);
  tbb::task_arena arena(2);
  std::vector<float> first;
  for (int product = 0; product < 4; ++product) {
    std::vector<float> y = start;
    arena.execute([&] { detail::gemvAccumulate(matrix.data(), rows, cols, vec.data(), y.data()); });
    for (size_t j = 0; j < rows; ++j) ASSERT_NEAR(y[j], expected[j], 1e-4) << "product " << product << ", row " << j;
    if (product == 0) first = y;
    ASSERT_EQ(y, first) << "product " << product;
  }
}

TEST(SplitGemm, OnTheCallingThread) {
  detail::ScopedExecutor inline_(&detail::kCallingThread);
  checkAll("calling thread");
}

TEST(SplitGemm, OnAOneTbbArena) {
  tbb::task_arena arena(2);
  arena.execute([] { checkAll("oneTBB arena of 2"); });
}

TEST(SplitGemm, OnATeamThatSplitsEvenly) {
  const detail::ParallelExecutor team{teamRun, nullptr};
  detail::ScopedExecutor onTeam(&team);
  checkAll("team of 3");
}

}  // namespace
}  // namespace nnrt::cpu::test
