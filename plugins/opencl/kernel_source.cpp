#include "plugins/opencl/kernel_source.hpp"

#include <stdexcept>
#include <string_view>

#include "plugins/opencl/cache_file.hpp"

namespace nnrt::opencl {
namespace {

constexpr GemmConfig kGemmConfigs[] = {
    {"_64x64", 64, 64, 16, 8, 4},
    {"_16x64", 16, 64, 16, 4, 4},
    {"_32x32", 32, 32, 16, 4, 4},
};

std::string_view file(std::string_view name) {
  for (size_t i = 0; i < detail::kEmbeddedKernelFileCount; ++i) {
    if (name == detail::kEmbeddedKernelFiles[i].name) return detail::kEmbeddedKernelFiles[i].text;
  }
  // Only reachable if CMakeLists.txt and this file disagree about the kernel files.
  throw std::logic_error("kernel file " + std::string(name) + " is not embedded");
}

std::string gemmInstance(const GemmConfig& c) {
  std::string s = "\n#define GEMM_SUFFIX " + std::string(c.suffix) + "\n#define GEMM_TM " +
                  std::to_string(c.tm) + "\n#define GEMM_TN " + std::to_string(c.tn) + "\n#define GEMM_TK " +
                  std::to_string(c.tk) + "\n#define GEMM_WM " + std::to_string(c.wm) + "\n#define GEMM_WN " +
                  std::to_string(c.wn) + "\n";
  s += file("gemm.cl");
  s += "\n#undef GEMM_SUFFIX\n#undef GEMM_TM\n#undef GEMM_TN\n#undef GEMM_TK\n#undef GEMM_WM\n#undef "
       "GEMM_WN\n";
  return s;
}

}  // namespace

std::span<const GemmConfig> gemmConfigs() {
  return kGemmConfigs;
}

const std::string& programSource() {
  static const std::string source = [] {
    std::string s;
    for (const char* name : {"common.cl", "elementwise.cl", "window.cl", "softmax.cl"}) {
      s += file(name);
      s += '\n';
    }
    for (const GemmConfig& c : kGemmConfigs)
      s += gemmInstance(c);
    return s;
  }();
  return source;
}

uint64_t programSourceHash() {
  static const uint64_t hash =
      fnv1a64(std::span(reinterpret_cast<const uint8_t*>(programSource().data()), programSource().size()));
  return hash;
}

}  // namespace nnrt::opencl
