#include "plugins/cpu/kernels/gemm.hpp"

#include <cblas.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/quantization.hpp"

namespace nnrt::cpu::detail {
namespace {

// Pieces of at least kMinBlock rows (or columns), one OpenBLAS call per thread: the OpenMP team
// (currentExecutor) hands each thread one even run of the pieces, however many; on oneTBB, pieces
// beyond its threads only add tasks.
constexpr size_t kMinBlock = 64, kTeamPieces = 16;

size_t blockOf(size_t extent) {
  const size_t pieces = currentExecutor != nullptr
                            ? kTeamPieces
                            : static_cast<size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
  return std::max(kMinBlock, (extent + pieces - 1) / pieces);
}

#if defined(__x86_64__)
// Rows [first, last) of out += matrix * vec with AVX-512: eight rows at a time, one accumulator each,
// the next 256 bytes of each prefetched. A matrix-vector product reads every weight once, so it runs
// at the speed the weights arrive. `backwards` takes the blocks of eight from the last one down: the
// weights read last are still in this core's L2 cache, and the next product over the same matrix
// (the next step of a recurrent network) starts with them (gemvAccumulate alternates). Each row is
// summed in the same order whatever the direction and the split.
// (GCC 12 warns that _mm512_reduce_add_ps's own _mm256_undefined_pd may be used uninitialized.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
__attribute__((target("avx512f"))) void gemvRowsAvx512(const float* matrix, size_t cols, const float* vec,
                                                       float* out, size_t first, size_t last, bool backwards) {
  const size_t full = cols / 16 * 16;
  const __mmask16 tail = static_cast<__mmask16>((1u << (cols - full)) - 1);
  const size_t blocks = (last - first) / 8;
  for (size_t b = 0; b < blocks; ++b) {
    const size_t r = first + 8 * (backwards ? blocks - 1 - b : b);
    const float* w = matrix + r * cols;
    __m512 acc[8];
    for (auto& a : acc) a = _mm512_setzero_ps();
    for (size_t c = 0; c < full; c += 16) {
      const __m512 x = _mm512_loadu_ps(vec + c);
      for (size_t i = 0; i < 8; ++i) {
        _mm_prefetch(reinterpret_cast<const char*>(w + i * cols + c + 64), _MM_HINT_T0);
        acc[i] = _mm512_fmadd_ps(_mm512_loadu_ps(w + i * cols + c), x, acc[i]);
      }
    }
    if (tail != 0) {
      const __m512 x = _mm512_maskz_loadu_ps(tail, vec + full);
      for (size_t i = 0; i < 8; ++i)
        acc[i] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, w + i * cols + full), x, acc[i]);
    }
    for (size_t i = 0; i < 8; ++i) out[r + i] += _mm512_reduce_add_ps(acc[i]);
  }
  for (size_t r = first + 8 * blocks; r < last; ++r) {
    const float* w = matrix + r * cols;
    __m512 acc = _mm512_setzero_ps();
    for (size_t c = 0; c < full; c += 16) acc = _mm512_fmadd_ps(_mm512_loadu_ps(w + c), _mm512_loadu_ps(vec + c), acc);
    if (tail != 0) acc = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, w + full), _mm512_maskz_loadu_ps(tail, vec + full), acc);
    out[r] += _mm512_reduce_add_ps(acc);
  }
}
#pragma GCC diagnostic pop

// A static initializer may run before libgcc's own CPU detection: it asks for it first.
const bool kAvx512 = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") != 0;
}();
#endif

// Whether the next product over `matrix` reads its rows backwards: every other product over the same
// matrix does, remembered for a few recently used matrices (a recurrent network's weights, read once
// per step). Only the order of the reads depends on it, never a value; concurrent executions may
// race on an entry and merely lose the alternation.
bool nextProductBackwards(const float* matrix) {
  struct Entry {
    std::atomic<const float*> matrix{nullptr};
    std::atomic<uint32_t> products{0};
  };
  static Entry recent[16];
  Entry& e = recent[(reinterpret_cast<uintptr_t>(matrix) >> 6) % 16];
  if (e.matrix.exchange(matrix, std::memory_order_relaxed) != matrix) {
    e.products.store(1, std::memory_order_relaxed);
    return false;
  }
  return (e.products.fetch_add(1, std::memory_order_relaxed) & 1u) != 0;
}

}  // namespace

void gemvAccumulate(const float* matrix, size_t rows, size_t cols, const float* vec, float* out) {
  if (rows == 0 || cols == 0) return;
  if (const PreparedProducts* prepared = currentProducts;
      prepared != nullptr && prepared->accumulate(matrix, rows, cols, vec, out))
    return;
  const size_t block = blockOf(rows), pieces = (rows + block - 1) / block;
#if defined(__x86_64__)
  // Worth it when the matrix does not fit the L1 and L2 caches at once, but part of it fits L2.
  const bool backwards = kAvx512 && rows * cols * sizeof(float) >= (size_t{256} << 10) && nextProductBackwards(matrix);
#endif
  parallelFor(pieces, block * cols, [&](size_t begin, size_t end) {
    const size_t first = begin * block, last = std::min(rows, end * block);
#if defined(__x86_64__)
    if (kAvx512) {
      gemvRowsAvx512(matrix, cols, vec, out, first, last, backwards);
      return;
    }
#endif
    cblas_sgemv(CblasRowMajor, CblasNoTrans, static_cast<int>(last - first), static_cast<int>(cols), 1.0f,
                matrix + first * cols, static_cast<int>(cols), vec, 1, 1.0f, out + first, 1);
  });
}

void gemmAccumulate(const float* lhs, size_t lda, const float* rhs, size_t ldb, size_t m, size_t n, size_t k,
                    float* out, size_t ldc) {
  if (m == 0 || n == 0 || k == 0) return;
  if (m == 1 && ldb == k) {  // one row: a matrix-vector product (sgemm would pack the weights first)
    gemvAccumulate(rhs, n, k, lhs, out);
    return;
  }
  const bool byRows = m >= n;
  const size_t extent = byRows ? m : n, block = blockOf(extent), pieces = (extent + block - 1) / block;
  const size_t other = byRows ? n : m;
  const SgemmFn fast = currentSgemm;  // read here: the pieces may run on other threads
  parallelFor(pieces, block * other * k, [&](size_t begin, size_t end) {
    const size_t first = begin * block, count = std::min(extent, end * block) - first;
    const float* a = byRows ? lhs + first * lda : lhs;
    const float* b = byRows ? rhs : rhs + first * ldb;
    float* c = byRows ? out + first * ldc : out + first;
    const size_t rows = byRows ? count : m, cols = byRows ? n : count;
    if (fast != nullptr && fast(rows, cols, k, a, lda, b, ldb, c, ldc)) return;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(rows), static_cast<int>(cols),
                static_cast<int>(k), 1.0f, a, static_cast<int>(lda), b,
                static_cast<int>(ldb), 1.0f, c, static_cast<int>(ldc));
  });
}

void gemmBiasActivation(const float* lhs, const float* rhs, const float* bias, size_t m, size_t n, size_t k,
                        Activation act, float* out) {
  if (m == 0 || n == 0) return;
  // Start from the bias and let SGEMM accumulate on top of it (beta = 1).
  parallelFor(m, n, [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      if (bias != nullptr) {
        std::memcpy(out + row * n, bias, n * sizeof(float));
      } else {
        std::fill(out + row * n, out + (row + 1) * n, 0.0f);
      }
    }
  });
  gemmAccumulate(lhs, k, rhs, k, m, n, k, out, n);
  if (act == Activation::None) return;
  const auto [lo, hi] = activationRange(act);
  parallelFor(m * n, 1, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      out[i] = std::min(std::max(out[i], lo), hi);
  });
}

}  // namespace nnrt::cpu::detail
