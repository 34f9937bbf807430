#include "plugins/cpu/dnnl/matrix_vector.hpp"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>

#include "plugins/cpu/kernels/exp_float.hpp"
#include "plugins/cpu/kernels/tanh_float.hpp"

namespace nnrt::cpu::dnnl_layer {
namespace {

constexpr size_t kPanelRows = PackedMatrix::kPanelRows;
// 16 floats per AVX-512 register; the loops over a panel's registers are unrolled (#pragma GCC unroll)
// so that its accumulators stay in registers.
constexpr size_t kVectors = kPanelRows / 16;

float* alignedFloats(size_t count) {
  const size_t bytes = std::max<size_t>((count * sizeof(float) + 63) / 64 * 64, 64);
  void* p = std::aligned_alloc(64, bytes);
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, 0, bytes);
  return static_cast<float*>(p);
}

// Below this many weights one thread runs the product: waking the team costs more than it saves.
constexpr size_t kParallelWeights = size_t{1} << 15;

// The 16 lanes of register v of panel p that hold rows of [first, last), as a mask.
__mmask16 rowsMask(size_t p, size_t v, size_t first, size_t last) {
  const size_t row = p * kPanelRows + 16 * v;
  uint32_t mask = 0xffff;
  if (row < first) mask &= first - row >= 16 ? 0u : 0xffffu << (first - row);
  if (row + 16 > last) mask &= last <= row ? 0u : (1u << (last - row)) - 1;
  return static_cast<__mmask16>(mask);
}

// Panels [pBegin, pEnd) of the product (rows [first, last) of them stored, at out[row - first]), in
// `backwards` order, from the packed bias or `rowBias` (row r's at rowBias[r]) when given. (GCC 12 warns that _mm512_max_ps's own _mm512_undefined_ps may be used
// uninitialized.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
__attribute__((target("avx512f"))) void panels(const PackedMatrix& m, const float* in, float* out, size_t first,
                                               size_t last, size_t pBegin, size_t pEnd, bool backwards,
                                               bool accumulate, float lowValue, float highValue,
                                               const float* rowBias) {
  const size_t count = pEnd - pBegin, cols = m.cols, pairs = cols / 2;
  const __m512 low = _mm512_set1_ps(lowValue), high = _mm512_set1_ps(highValue);
  const bool clamp = !accumulate && !(std::isinf(lowValue) && std::isinf(highValue));
  for (size_t q = 0; q < count; ++q) {
    const size_t p = pBegin + (backwards ? count - 1 - q : q);
    const float* w = m.weights.get() + p * cols * kPanelRows;
    __mmask16 masks[kVectors];
    __m512 even[kVectors], odd[kVectors];
#pragma GCC unroll 4
    for (size_t v = 0; v < kVectors; ++v) {
      masks[v] = rowsMask(p, v, first, last);
      const ptrdiff_t at = static_cast<ptrdiff_t>(p * kPanelRows + 16 * v) - static_cast<ptrdiff_t>(first);
      even[v] = accumulate ? _mm512_maskz_loadu_ps(masks[v], out + at)
                : rowBias != nullptr ? _mm512_maskz_loadu_ps(masks[v], rowBias + p * kPanelRows + 16 * v)
                                     : _mm512_load_ps(m.bias.get() + p * kPanelRows + 16 * v);
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
      __m512 sum = _mm512_add_ps(even[v], odd[v]);
      // max(low, x) and min(high, x) keep a NaN, as the reference kernel's clamp does.
      if (clamp) sum = _mm512_min_ps(high, _mm512_max_ps(low, sum));
      const ptrdiff_t at = static_cast<ptrdiff_t>(p * kPanelRows + 16 * v) - static_cast<ptrdiff_t>(first);
      _mm512_mask_storeu_ps(out + at, masks[v], sum);
    }
  }
}
#pragma GCC diagnostic pop

}  // namespace

void PackedMatrix::Free::operator()(float* p) const { std::free(p); }

PackedMatrix::PackedMatrix(const float* w, const float* b, size_t rows_, size_t cols_)
    : source(w),
      rows(rows_),
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

void packedProduct(const PackedMatrix& m, const float* in, float* out, size_t first, size_t last, bool accumulate,
                   float low, float high, int threads, const float* bias) {
  if (first >= last) return;
  const size_t pBegin = first / kPanelRows, pEnd = (last + kPanelRows - 1) / kPanelRows, count = pEnd - pBegin;
  const bool backwards = m.backwards.load(std::memory_order_relaxed);
  m.backwards.store(!backwards, std::memory_order_relaxed);
  const size_t team =
      (last - first) * m.cols < kParallelWeights ? 1 : std::min<size_t>(static_cast<size_t>(std::max(threads, 1)), count);
  if (team <= 1 || omp_in_parallel()) {
    panels(m, in, out, first, last, pBegin, pEnd, backwards, accumulate, low, high, bias);
    return;
  }
#pragma omp parallel num_threads(static_cast<int>(team))
  {
    const auto t = static_cast<size_t>(omp_get_thread_num()), n = static_cast<size_t>(omp_get_num_threads());
    panels(m, in, out, first, last, pBegin + count * t / n, pBegin + count * (t + 1) / n, backwards, accumulate,
           low, high, bias);
  }
}

std::shared_ptr<const PackedMatrix> packedForm(const ConstantMatrix& matrix, const float* bias, SharedForms* shared) {
  const std::pair<const void*, std::string> key{
      matrix.data, "packed " + std::to_string(matrix.rows) + "x" + std::to_string(matrix.cols) + " bias " +
                       std::to_string(reinterpret_cast<uintptr_t>(bias))};
  std::shared_ptr<const void>* found = shared != nullptr ? &(*shared)[key] : nullptr;
  if (found != nullptr && *found) return std::static_pointer_cast<const PackedMatrix>(*found);
  auto packed = std::make_shared<const PackedMatrix>(matrix.data, bias, matrix.rows, matrix.cols);
  if (found != nullptr) *found = packed;
  return packed;
}

namespace {

// A one-row product's epilogue over its `count` values with the reference kernels' own scalar functions
// (expFloat, tanhFloat) and expressions (kernels/activation.cpp, nonlinear.cpp, elementwise.cpp; the
// driver's applyEpilogue): the same bits as the separate operations. A row is a few thousand values at
// most: one thread.
void rowEpilogue(const Epilogue& epilogue, float* v, size_t count) {
  const float k = epilogue.alpha;
  for (size_t i = 0; i < count; ++i) {
    const float x = v[i];
    switch (epilogue.op) {
      case EpilogueOp::None: return;
      case EpilogueOp::Swish: v[i] = x * (1.0f / (1.0f + expFloat(-x))); break;
      case EpilogueOp::HardSwish: v[i] = x * std::min(std::max(x + 3.0f, 0.0f), 6.0f) / 6.0f; break;
      case EpilogueOp::Logistic: v[i] = 1.0f / (1.0f + expFloat(-x)); break;
      case EpilogueOp::Tanh: v[i] = tanhFloat(x); break;
      case EpilogueOp::LeakyRelu: v[i] = x < 0.0f ? k * x : x; break;
      case EpilogueOp::Multiply: v[i] = x * k; break;
      case EpilogueOp::Divide: v[i] = x / k; break;
    }
  }
}

}  // namespace

MatrixVectorKernel::MatrixVectorKernel(std::shared_ptr<const PackedMatrix> matrix, driver::Activation activation,
                                       int threads, bool biasAtRun, Epilogue epilogue)
    : matrix_(std::move(matrix)), threads_(std::max(threads, 1)), biasAtRun_(biasAtRun), epilogue_(epilogue) {
  const driver::FloatRange range = driver::activationRange(activation);
  low_ = range.min;
  high_ = range.max;
}

driver::Result<void> MatrixVectorKernel::run(const KernelCall& call) {
  const float* bias = biasAtRun_ ? static_cast<const float*>(call.op.inputs[2].data) : nullptr;
  // A request may leave a bias that is a model input out; its size the execution checked against the shape.
  if (biasAtRun_ && bias == nullptr) return driver::generalFailure("FULLY_CONNECTED: the bias has no value");
  packedProduct(*matrix_, static_cast<const float*>(call.op.inputs[0].data), static_cast<float*>(call.outputData[0]),
                0, matrix_->rows, false, low_, high_, threads_, bias);
  rowEpilogue(epilogue_, static_cast<float*>(call.outputData[0]), matrix_->rows);
  return {};
}

bool PackedProducts::accumulate(const float* matrix, size_t rows, size_t cols, const float* vec, float* out) const {
  for (const auto& m : matrices_) {
    if (m->cols != cols || matrix < m->source || matrix >= m->source + m->rows * m->cols) continue;
    const auto offset = static_cast<size_t>(matrix - m->source);
    if (offset % cols != 0 || offset / cols + rows > m->rows) continue;
    constexpr float inf = std::numeric_limits<float>::infinity();
    packedProduct(*m, vec, out, offset / cols, offset / cols + rows, true, -inf, inf, threads_);
    return true;
  }
  return false;
}

}  // namespace nnrt::cpu::dnnl_layer
