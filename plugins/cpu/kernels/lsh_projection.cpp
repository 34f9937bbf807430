#include "plugins/cpu/kernels/lsh_projection.hpp"

#include <farmhash.h>

#include <cstring>
#include <vector>

namespace nnrt::cpu {
namespace {

// 1 when the weighted sum of the rows' signed 64-bit fingerprints under `seed` is positive.
int32_t signBit(float seed, const uint8_t* input, const float* weights, const LshDims& dims,
                std::vector<char>& key) {
  double score = 0.0;
  std::memcpy(key.data(), &seed, sizeof(seed));
  for (size_t r = 0; r < dims.rows; ++r) {
    if (dims.rowBytes > 0) std::memcpy(key.data() + sizeof(seed), input + r * dims.rowBytes, dims.rowBytes);
    const auto fingerprint = static_cast<int64_t>(util::Fingerprint64(key.data(), key.size()));
    const double value = static_cast<double>(fingerprint);
    score += weights != nullptr ? static_cast<double>(weights[r]) * value : value;
  }
  return score > 0 ? 1 : 0;
}

}  // namespace

void lshProjection(const float* seeds, const uint8_t* input, const float* weights, const LshDims& dims, LshType type,
                   int32_t* out) {
  std::vector<char> key(sizeof(float) + dims.rowBytes);
  for (size_t i = 0; i < dims.numHash; ++i) {
    uint32_t signature = 0;
    for (size_t j = 0; j < dims.numBits; ++j) {
      const int32_t bit = signBit(seeds[i * dims.numBits + j], input, weights, dims, key);
      if (type == LshType::Dense) {
        *out++ = bit;
      } else {
        signature = (signature << 1) | static_cast<uint32_t>(bit);
      }
    }
    // i * 2^numBits, wrapping like the int32 it lands in (nothing is added at 32 bits).
    if (type == LshType::Sparse && dims.numBits < 32) signature += static_cast<uint32_t>(i) << dims.numBits;
    if (type != LshType::Dense) *out++ = static_cast<int32_t>(signature);
  }
}

}  // namespace nnrt::cpu
