// DEPTHWISE_CONV_2D of 8-bit images as a kernel of the fast layer's own, on CPUs with AVX-512's VNNI
// and VBMI instructions (avx512VnniVbmiSupported(), avx512.hpp): NHWC, depth multiplier 1, no dilation, a square 3x3
// or 5x5 window, strides 1 or 2, uint8 or int8 activations, signed 8-bit filters with zero point 0 (per
// tensor or per channel), int32 bias.
//
// oneDNN 2.6 serves these with `jit_int8`, no faster than its float32 depthwise convolution on the same
// shape (56x56x128, 3x3: 80-98 us hot against 76). Here each window row is one dot product of four
// taps per channel (vpdpbusd: 4 unsigned bytes times 4 signed weights, summed into int32): each input
// row's 16-channel blocks are rearranged once into "quad entries", 64 bytes holding 4 neighbouring
// pixels' bytes channel by channel (vpermb), so that a 3x3 window takes 3 instructions per 16 channels
// instead of 9 multiply-adds. Int8 activations are taken as unsigned by adding 128 to them and to their
// zero point; the padding holds the zero point, and the zero point's share of the sum (zero point times
// the sum of the channel's weights) is taken off with the bias, so the integer accumulator is the
// reference kernel's. Then the requantization by input scale x filter scale / output scale in float32,
// the output zero point and the fused activation's range, rounded to the nearest step (halves to even:
// the reference kernel rounds them away from zero, so a value may differ by one step, as oneDNN's do).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nnrt/driver/ops/params.hpp"
#include "plugins/cpu/fast_path.hpp"

namespace nnrt::cpu::dnnl_layer {

class DepthwiseInt8Kernel final : public FastKernel {
 public:
  // `p`: an NHWC depthwise convolution of multiplier 1 and a 3x3 or 5x5 window, strides up to 2, no
  // dilation (the caller checks); `isSigned`: int8 activations (else uint8). filter: NNAPI's [1, window,
  // window, channels] int8; bias: `channels` int32; scales: per channel (or one) input scale x filter
  // scale / output scale; [low, high]: the fused activation's range in output steps (zero point included).
  DepthwiseInt8Kernel(const ops::Conv2DParams& p, bool isSigned, const int8_t* filter, const int32_t* bias,
                      const std::vector<float>& scales, int32_t inputZero, int32_t outputZero, int32_t low,
                      int32_t high, int threads);
  const std::string& name() const override { return name_; }
  driver::Result<void> run(const KernelCall& call) override;

  // Output rows [first, last) (counted over batches x output height) of `in` into `out`, with
  // scratchBytes() of 64-byte aligned scratch memory: what run() does on each of its threads.
  void runRows(const void* in, void* out, size_t first, size_t last, uint8_t* scratch) const;
  size_t scratchBytes() const { return size_t{p_.filterHeight} * rowBytes_ + (pixelCount_ * 16 + 63) / 64 * 64; }

 private:
  struct Free {
    void operator()(uint8_t* p) const;
  };
  ops::Conv2DParams p_;
  bool isSigned_;
  size_t blocks_;    // of 16 channels
  size_t entries_;     // quad entries per padded input row: one per window start (every stride-th pixel)
  size_t pixelCount_;  // pixels of a padded input row the entries read (the input's all)
  size_t rowBytes_;  // entries_ x 64
  std::unique_ptr<uint8_t[], Free> weights_;  // per block and window row: taps 0-3, tap 4, 64 bytes each
  std::unique_ptr<uint8_t[], Free> padQuads_;  // the quad entries of a padding row: the zero point
  std::vector<int32_t> correction_;           // per channel: the bias less input zero point x sum of weights
  std::vector<float> scales_;                 // per channel
  int32_t inputZero_;                         // as unsigned (int8: plus 128)
  float outputZero_, low_, high_;
  int threads_;
  std::string name_ = "depthwise 8-bit quads (avx512 vnni)";
};

}  // namespace nnrt::cpu::dnnl_layer
