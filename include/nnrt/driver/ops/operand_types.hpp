// Properties of NNAPI operand types: element sizes, tensor-ness, quantization rules. Shared by the
// runtime and the built-in drivers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "nnrt/driver/types.hpp"

namespace nnrt::ops {

using driver::OperandType;
using driver::OperationType;

// Size in bytes of a scalar, or of one element of a tensor, for NNAPI types; 0 for SUBGRAPH,
// extension types and unknown values (extension sizes come from the extension's description).
size_t elementSize(int32_t type);
bool isTensorType(int32_t type);
bool isScalarType(int32_t type);
bool isKnownOperandType(int32_t type);  // an NNAPI type (not an extension type)
bool isQuantizedType(int32_t type);     // requires scale > 0
bool isFloatType(int32_t type);         // FLOAT16/32 scalars and tensors
inline bool isType(int32_t type, OperandType t) { return type == static_cast<int32_t>(t); }

// Number of elements; 1 for rank 0 (a scalar). nullopt when a dimension is unknown (0) or on overflow.
std::optional<uint64_t> elementCount(std::span<const uint32_t> dims);
// Bytes a fully specified operand occupies; nullopt when the size is unknown or overflows.
std::optional<uint64_t> byteSize(int32_t type, std::span<const uint32_t> dims);

// Checks Android's scale and zero point rules for the type (an empty string when they hold),
// e.g. "TENSOR_QUANT8_ASYMM zero point 300 is outside 0..255".
std::string checkQuantization(int32_t type, float scale, int32_t zeroPoint);

// "TENSOR_FLOAT32", or "extension type 0x10001" / "unknown type 42".
std::string typeName(int32_t type);
std::string operationName(int32_t type);
// "[2, 3, 0]"
std::string shapeToString(std::span<const uint32_t> dims);

}  // namespace nnrt::ops
