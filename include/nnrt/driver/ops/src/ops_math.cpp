// Signatures of element-wise math, comparisons, logic, casts and quantization.
#include "ops_common.hpp"
#include "ops_families.hpp"

namespace nnrt::ops::detail {

namespace {

using OT = OperandType;
using T = OperationType;

const Signature kSignatures[] = {
    // (filled family by family)
    {T::OEM_OPERATION, 0, 0, 0, 0, 0, nullptr, nullptr},
};

}  // namespace

std::span<const Signature> mathSignatures() {
  return std::span<const Signature>(kSignatures).first(0);
}

}  // namespace nnrt::ops::detail
