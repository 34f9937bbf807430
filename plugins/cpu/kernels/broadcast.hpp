// Internal to the kernel library: NumPy-style broadcasting of two operands of rank <= 4.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>

#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu::detail {

// The output walked as 4 nested loops (outermost first) after dropping size-1 output dimensions and
// merging neighbours that broadcast the same way. Strides are in elements; 0 marks a broadcast
// dimension. When the shapes are equal this is a single run over every element.
struct BroadcastLoop {
  std::array<size_t, 4> dims{1, 1, 1, 1};
  std::array<size_t, 4> aStride{0, 0, 0, 0};
  std::array<size_t, 4> bStride{0, 0, 0, 0};
};

// Precondition: a and b broadcast to out (dims aligned from the trailing end, equal or 1), rank <= 4.
BroadcastLoop planBroadcast(const Shape& a, const Shape& b, const Shape& out);

// Calls run(outOffset, aOffset, bOffset, count, aStep, bStep) for runs of consecutive output elements:
// element i of a run reads a[aOffset + i * aStep] and b[bOffset + i * bStep] (steps are 0 or 1).
// Runs may be processed in parallel; together they cover the output exactly once.
template <typename Run>
void forEachBroadcastRun(const BroadcastLoop& loop, const Run& run) {
  constexpr size_t kRunLength = 4096;  // long inner dimensions are cut so that they can be shared out
  const size_t inner = loop.dims[3];
  const size_t chunksPerRow = (inner + kRunLength - 1) / kRunLength;
  const size_t rows = loop.dims[0] * loop.dims[1] * loop.dims[2];
  const size_t chunkLength = std::min(inner, kRunLength);
  parallelFor(rows * chunksPerRow, chunkLength, [&](size_t begin, size_t end) {
    for (size_t task = begin; task < end; ++task) {
      const size_t row = task / chunksPerRow;
      const size_t start = (task % chunksPerRow) * kRunLength;
      const size_t i2 = row % loop.dims[2];
      const size_t i1 = (row / loop.dims[2]) % loop.dims[1];
      const size_t i0 = row / (loop.dims[2] * loop.dims[1]);
      const size_t aOffset =
          i0 * loop.aStride[0] + i1 * loop.aStride[1] + i2 * loop.aStride[2] + start * loop.aStride[3];
      const size_t bOffset =
          i0 * loop.bStride[0] + i1 * loop.bStride[1] + i2 * loop.bStride[2] + start * loop.bStride[3];
      run(row * inner + start, aOffset, bOffset, std::min(kRunLength, inner - start), loop.aStride[3],
          loop.bStride[3]);
    }
  });
}

// out = op(a, b) over the broadcast runs of a and b, for every element kernel with two operands. The
// three loop shapes let the compiler vectorize the common cases (equal shapes, one operand repeated
// along the run).
template <typename A, typename B, typename Out, typename Op>
void broadcastBinary(const A* a, const Shape& aShape, const B* b, const Shape& bShape, Out* out,
                     const Shape& outShape, const Op& op) {
  const BroadcastLoop loop = planBroadcast(aShape, bShape, outShape);
  forEachBroadcastRun(loop, [&](size_t o, size_t ia, size_t ib, size_t count, size_t aStep, size_t bStep) {
    Out* dst = out + o;
    const A* pa = a + ia;
    const B* pb = b + ib;
    if (aStep == 1 && bStep == 1) {
      for (size_t i = 0; i < count; ++i)
        dst[i] = op(pa[i], pb[i]);
    } else if (aStep == 1) {
      const B vb = *pb;
      for (size_t i = 0; i < count; ++i)
        dst[i] = op(pa[i], vb);
    } else if (bStep == 1) {
      const A va = *pa;
      for (size_t i = 0; i < count; ++i)
        dst[i] = op(va, pb[i]);
    } else {
      const Out v = op(*pa, *pb);
      std::fill(dst, dst + count, v);
    }
  });
}

}  // namespace nnrt::cpu::detail
