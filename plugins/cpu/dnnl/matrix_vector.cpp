#include "plugins/cpu/dnnl/matrix_vector.hpp"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>

namespace nnrt::cpu::dnnl_layer {
namespace {

// 16 floats per AVX-512 register; the loops over a panel's registers are unrolled (#pragma GCC unroll)
// so that its accumulators stay in registers.
constexpr size_t kVectors = PackedMatrix::kPanelRows / 16;

float* alignedFloats(size_t count) {
  const size_t bytes = (count * sizeof(float) + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, std::max<size_t>(bytes, 64));
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, 0, std::max<size_t>(bytes, 64));
  return static_cast<float*>(p);
}

// Below this many weights one thread runs the product: waking the team costs more than it saves.
constexpr size_t kParallelWeights = size_t{1} << 15;

}  // namespace

void PackedMatrix::Free::operator()(float* p) const { std::free(p); }

bool matrixVectorSupported() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") != 0;
}

PackedMatrix::PackedMatrix(const float* w, const float* b, size_t rows_, size_t cols_)
    : rows(rows_),
      cols(cols_),
      panelCount((rows_ + kPanelRows - 1) / kPanelRows),
      weights(alignedFloats(panelCount * kPanelRows * cols_)),
      bias(alignedFloats(panelCount * kPanelRows)) {
  // Panel p, column c, row j of the panel: weights[(p * cols + c) * 64 + j].
  for (size_t r = 0; r < rows; ++r) {
    float* panel = weights.get() + (r / kPanelRows) * cols * kPanelRows + r % kPanelRows;
    const float* row = w + r * cols;
    for (size_t c = 0; c < cols; ++c) panel[c * kPanelRows] = row[c];
  }
  if (b != nullptr) std::memcpy(bias.get(), b, rows * sizeof(float));
}

MatrixVectorKernel::MatrixVectorKernel(std::shared_ptr<const PackedMatrix> matrix, driver::Activation activation,
                                       int threads)
    : matrix_(std::move(matrix)), threads_(std::max(threads, 1)) {
  const driver::FloatRange range = driver::activationRange(activation);
  low_ = range.min;
  high_ = range.max;
}

// (GCC 12 warns that _mm512_max_ps's own _mm512_undefined_ps may be used uninitialized.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
__attribute__((target("avx512f"))) void MatrixVectorKernel::panels(const float* in, float* out, size_t first,
                                                                    size_t last, bool backwards) const {
  const PackedMatrix& m = *matrix_;
  const size_t count = last - first, cols = m.cols, pairs = cols / 2;
  constexpr size_t kPanelRows = PackedMatrix::kPanelRows;
  const __m512 low = _mm512_set1_ps(low_), high = _mm512_set1_ps(high_);
  const bool clamp = !(low_ == -high_ && std::isinf(high_));
  for (size_t q = 0; q < count; ++q) {
    const size_t p = first + (backwards ? count - 1 - q : q);
    const float* w = m.weights.get() + p * cols * kPanelRows;
    __m512 even[kVectors], odd[kVectors];
#pragma GCC unroll 4
    for (size_t v = 0; v < kVectors; ++v) {
      even[v] = _mm512_load_ps(m.bias.get() + p * kPanelRows + 16 * v);
      odd[v] = _mm512_setzero_ps();
    }
    for (size_t c = 0; c < pairs; ++c, w += 2 * kPanelRows) {
      const __m512 x0 = _mm512_set1_ps(in[2 * c]), x1 = _mm512_set1_ps(in[2 * c + 1]);
#pragma GCC unroll 4
      for (size_t v = 0; v < kVectors; ++v) even[v] = _mm512_fmadd_ps(_mm512_load_ps(w + 16 * v), x0, even[v]);
#pragma GCC unroll 4
      for (size_t v = 0; v < kVectors; ++v)
        odd[v] = _mm512_fmadd_ps(_mm512_load_ps(w + kPanelRows + 16 * v), x1, odd[v]);
    }
    if (cols % 2 != 0) {
      const __m512 x = _mm512_set1_ps(in[cols - 1]);
#pragma GCC unroll 4
      for (size_t v = 0; v < kVectors; ++v) even[v] = _mm512_fmadd_ps(_mm512_load_ps(w + 16 * v), x, even[v]);
    }
#pragma GCC unroll 4
    for (size_t v = 0; v < kVectors; ++v) {
      const size_t row = p * kPanelRows + 16 * v;
      if (row >= m.rows) break;
      __m512 sum = _mm512_add_ps(even[v], odd[v]);
      // max(low, x) and min(high, x) keep a NaN, as the reference kernel's clamp does.
      if (clamp) sum = _mm512_min_ps(high, _mm512_max_ps(low, sum));
      const size_t left = m.rows - row;
      const __mmask16 mask = left >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << left) - 1);
      _mm512_mask_storeu_ps(out + row, mask, sum);
    }
  }
}
#pragma GCC diagnostic pop

driver::Result<void> MatrixVectorKernel::run(const KernelCall& call) {
  const auto* in = static_cast<const float*>(call.op.inputs[0].data);
  auto* out = static_cast<float*>(call.outputData[0]);
  const PackedMatrix& m = *matrix_;
  const bool backwards = m.backwards.load(std::memory_order_relaxed);
  m.backwards.store(!backwards, std::memory_order_relaxed);
  const size_t team = m.rows * m.cols < kParallelWeights ? 1 : std::min<size_t>(threads_, m.panelCount);
  if (team <= 1 || omp_in_parallel()) {
    panels(in, out, 0, m.panelCount, backwards);
    return {};
  }
#pragma omp parallel num_threads(static_cast<int>(team))
  {
    const auto t = static_cast<size_t>(omp_get_thread_num()), n = static_cast<size_t>(omp_get_num_threads());
    panels(in, out, m.panelCount * t / n, m.panelCount * (t + 1) / n, backwards);
  }
  return {};
}

}  // namespace nnrt::cpu::dnnl_layer
