// Internal to the kernel library: the loop of SIN's and LOG's vectorizable forms (sin_float.hpp,
// log_float.hpp), which serve a range of inputs and leave the rest to the C library.
#pragma once

#include <algorithm>
#include <cstddef>

namespace nnrt::cpu::detail {

// out[i] = f(in[i]) for i < n: blocks of 256 by fast(x) (a loop that vectorizes), then library(x) for the
// values where inRange(x) is false, in a block that has any (the check a loop that vectorizes too: inRange
// should combine comparisons with & where && would branch); `out` may be `in` (each block goes through a
// buffer).
template <typename Fast, typename InRange, typename Library>
[[gnu::always_inline]] inline void valuesInRange(const float* in, size_t n, float* out, const Fast& fast,
                                                 const InRange& inRange, const Library& library) {
  for (size_t base = 0; base < n; base += 256) {
    const size_t m = std::min<size_t>(256, n - base);
    float block[256];
    for (size_t i = 0; i < m; ++i) block[i] = fast(in[base + i]);
    unsigned outside = 0;
    for (size_t i = 0; i < m; ++i) outside |= inRange(in[base + i]) ? 0u : 1u;
    if (outside != 0) {
      for (size_t i = 0; i < m; ++i)
        if (!inRange(in[base + i])) block[i] = library(in[base + i]);
    }
    std::copy(block, block + m, out + base);
  }
}

}  // namespace nnrt::cpu::detail
