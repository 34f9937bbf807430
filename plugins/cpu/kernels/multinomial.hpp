// RANDOM_MULTINOMIAL: draws classes with probabilities softmax(logits) per row. Pure function over
// caller-owned buffers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nnrt::cpu {

// For each row b of logits [batches, classes], writes `samples` class indices to out[b * samples ..]:
// class j with probability exp(logit_j) / sum over the row's finite logits of exp(logit) (a
// non-finite logit has probability 0). The draws come from one std::mt19937_64 seeded with
// std::seed_seq{seed0, seed1} (both fully specified by the C++ standard), so the same logits and
// seeds give the same samples on every platform; each draw is a 53-bit uniform in [0, 1) times the
// row's total, looked up in the row's cumulative sums. (Android draws from TensorFlow's Philox
// generator, whose samples these are not.) Returns false, writing nothing more, at the first row
// without a finite logit.
bool randomMultinomial(const float* logits, size_t batches, size_t classes, size_t samples, int32_t seed0,
                       int32_t seed1, int32_t* out);

}  // namespace nnrt::cpu
