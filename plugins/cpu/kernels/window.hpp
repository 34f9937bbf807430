// Internal to the kernel library: which taps of a sliding window (convolution or pooling) fall inside
// the input, along one spatial axis.
#pragma once

#include <algorithm>
#include <cstdint>

#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu::detail {

// Taps t in [begin, end) read input index origin + t * dilation, all inside [0, inSize).
struct TapRange {
  uint32_t begin;
  uint32_t end;
  int64_t origin;

  int64_t inputIndex(uint32_t tap, uint32_t dilation) const { return origin + int64_t{tap} * dilation; }
};

// For output index `out` of a window of `taps` taps with the given stride, leading pad and dilation.
inline TapRange tapRange(uint32_t out, uint32_t stride, uint32_t pad, uint32_t dilation, uint32_t taps,
                         uint32_t inSize) {
  const int64_t origin = int64_t{out} * stride - pad;
  const int64_t d = dilation;
  // First tap at or after index 0, first tap at or after index inSize (ceiling divisions).
  const int64_t first = origin >= 0 ? 0 : (-origin + d - 1) / d;
  const int64_t past = inSize > origin ? (inSize - origin + d - 1) / d : 0;
  const auto begin = static_cast<uint32_t>(std::min<int64_t>(first, taps));
  const auto end = static_cast<uint32_t>(std::clamp<int64_t>(past, begin, taps));
  return {begin, end, origin};
}

// Sizes of a 2-D convolution: input [N, H, W, Cin], filter [*, KH, KW, *], output [N, OH, OW, Cout].
struct ConvGeometry {
  uint32_t batches, inH, inW, inC;
  uint32_t kernelH, kernelW;
  uint32_t outH, outW, outC;

  ConvGeometry(const Shape& in, const Shape& filter, const Shape& out)
      : batches(in.dims[0]),
        inH(in.dims[1]),
        inW(in.dims[2]),
        inC(in.dims[3]),
        kernelH(filter.dims[1]),
        kernelW(filter.dims[2]),
        outH(out.dims[1]),
        outW(out.dims[2]),
        outC(out.dims[3]) {}
};

}  // namespace nnrt::cpu::detail
