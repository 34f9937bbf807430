#include "plugins/cpu/kernels/broadcast.hpp"

#include <vector>

namespace nnrt::cpu::detail {
namespace {

// Dimension i of `out` seen from `in` (aligned from the trailing end; missing leading dims are 1).
size_t alignedDim(const Shape& in, const Shape& out, size_t i) {
  const size_t lead = out.rank() - in.rank();
  return i < lead ? 1 : in.dims[i - lead];
}

}  // namespace

BroadcastLoop planBroadcast(const Shape& a, const Shape& b, const Shape& out) {
  struct Dim {
    size_t size;
    bool aVaries;  // a has this dimension at full size (not broadcast)
    bool bVaries;
  };
  std::vector<Dim> merged;
  for (size_t i = 0; i < out.rank(); ++i) {
    const size_t size = out.dims[i];
    if (size == 1) continue;
    const bool aVaries = alignedDim(a, out, i) == size;
    const bool bVaries = alignedDim(b, out, i) == size;
    if (!merged.empty() && merged.back().aVaries == aVaries && merged.back().bVaries == bVaries) {
      merged.back().size *= size;
    } else {
      merged.push_back({size, aVaries, bVaries});
    }
  }

  // At most 4 output dimensions, and merging only shrinks the list; fill from the innermost loop.
  BroadcastLoop loop;
  size_t aRunning = 1;
  size_t bRunning = 1;
  size_t slot = 4;
  for (auto it = merged.rbegin(); it != merged.rend(); ++it) {
    --slot;
    loop.dims[slot] = it->size;
    loop.aStride[slot] = it->aVaries ? aRunning : 0;
    loop.bStride[slot] = it->bVaries ? bRunning : 0;
    if (it->aVaries) aRunning *= it->size;
    if (it->bVaries) bRunning *= it->size;
  }
  return loop;
}

}  // namespace nnrt::cpu::detail
