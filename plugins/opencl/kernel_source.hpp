// The OpenCL C source of the driver's programs. The files of kernels/ are embedded into the library at
// build time (embed_kernels.cmake); this assembles them into one program source.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace nnrt::opencl {

// One instantiation of the GEMM template (kernels/gemm.cl): a work-group computes a tm x tn output
// tile, stepping through K by tk, each work-item computing wm x wn outputs. The kernels are named
// "nnrt_gemm<suffix>" and "nnrt_conv<suffix>".
struct GemmConfig {
  const char* suffix;
  uint32_t tm, tn, tk, wm, wn;

  size_t workGroupSize() const { return size_t{tm / wm} * (tn / wn); }
  size_t localMemoryBytes(size_t elementSize) const { return size_t{tk} * (tm + tn) * elementSize; }
};

// Largest tile first: 64x64 (16x8 work-items, 8x4 outputs each); 16x64 (16x4 work-items, 4x4
// each) for products with few rows (a FULLY_CONNECTED batch); 32x32 (8x8 work-items, 4x4 each) for
// devices whose work-groups hold fewer than 128 work-items. On PoCL 3.1 (CPU), 8x4 outputs per
// work-item ran about twice as fast as 4x4 with 256 work-items, and the 16-row tile three times as
// fast as the 64-row one for a batch of 16.
std::span<const GemmConfig> gemmConfigs();

// Every kernel of the driver in one program source: common.cl, elementwise.cl, window.cl, softmax.cl
// and gemm.cl once per GemmConfig. The same text for every model, so that a driver (or PoCL's own
// kernel cache) that has built it once for some build options builds it fast again.
const std::string& programSource();
// FNV-1a 64 of programSource(): part of the cache key, so that a driver with other kernels refuses an
// older program binary even when its version string did not change.
uint64_t programSourceHash();

namespace detail {
struct EmbeddedKernelFile {
  const char* name;
  const char* text;
};
extern const EmbeddedKernelFile kEmbeddedKernelFiles[];
extern const size_t kEmbeddedKernelFileCount;
}  // namespace detail

}  // namespace nnrt::opencl
