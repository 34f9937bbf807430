// LSH_PROJECTION: locality-sensitive hashing of the rows of a tensor, as NNAPI defines it. Each
// projection bit is the sign of sum over rows r of weight[r] * Fingerprint64(seed ++ row r's bytes),
// with Google's FarmHash Fingerprint64 (the hash NNAPI models are trained against) over the 4-byte
// float32 seed followed by the row's bytes as stored. Pure function over caller-owned buffers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nnrt::cpu {

enum class LshType : int32_t { SparseDeprecated = 1, Dense = 2, Sparse = 3 };

struct LshDims {
  size_t numHash = 0, numBits = 0;    // the hash tensor's [numHash, numBits] seeds
  size_t rows = 0, rowBytes = 0;      // the input's first dimension and the bytes of one row
};

// seeds: numHash * numBits float32 seeds; weights: one per row, or null (every weight 1).
// Dense writes numHash * numBits bits (0 or 1); Sparse writes numHash signatures, each the
// projection's numBits bits read as an integer plus i * 2^numBits (SparseDeprecated: without the
// offset).
void lshProjection(const float* seeds, const uint8_t* input, const float* weights, const LshDims& dims, LshType type,
                   int32_t* out);

}  // namespace nnrt::cpu
