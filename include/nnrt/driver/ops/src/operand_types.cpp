#include "nnrt/driver/ops/operand_types.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace nnrt::ops {

size_t elementSize(int32_t type) {
  switch (static_cast<OperandType>(type)) {
    case OperandType::FLOAT32:
    case OperandType::INT32:
    case OperandType::UINT32:
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_INT32:
    case OperandType::OEM:
      return 4;
    case OperandType::BOOL:
    case OperandType::TENSOR_BOOL8:
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_OEM_BYTE:
      return 1;
    case OperandType::FLOAT16:
    case OperandType::TENSOR_FLOAT16:
    case OperandType::TENSOR_QUANT16_SYMM:
    case OperandType::TENSOR_QUANT16_ASYMM:
      return 2;
    case OperandType::SUBGRAPH:
      return 0;
  }
  return 0;
}

bool isKnownOperandType(int32_t type) { return driver::operandTypeName(type) != nullptr; }

bool isTensorType(int32_t type) {
  switch (static_cast<OperandType>(type)) {
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_INT32:
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
    case OperandType::TENSOR_FLOAT16:
    case OperandType::TENSOR_BOOL8:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_OEM_BYTE:
      return true;
    default:
      return false;
  }
}

bool isScalarType(int32_t type) {
  switch (static_cast<OperandType>(type)) {
    case OperandType::FLOAT32:
    case OperandType::INT32:
    case OperandType::UINT32:
    case OperandType::BOOL:
    case OperandType::FLOAT16:
    case OperandType::OEM:
      return true;
    default:
      return false;
  }
}

bool isQuantizedType(int32_t type) {
  switch (static_cast<OperandType>(type)) {
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_QUANT16_SYMM:
    case OperandType::TENSOR_QUANT16_ASYMM:
      return true;
    default:
      return false;
  }
}

bool isFloatType(int32_t type) {
  switch (static_cast<OperandType>(type)) {
    case OperandType::FLOAT32:
    case OperandType::FLOAT16:
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_FLOAT16:
      return true;
    default:
      return false;
  }
}

std::optional<uint64_t> elementCount(std::span<const uint32_t> dims) {
  uint64_t count = 1;
  for (uint32_t d : dims) {
    if (d == 0) return std::nullopt;
    if (count > std::numeric_limits<uint64_t>::max() / d) return std::nullopt;
    count *= d;
  }
  return count;
}

std::optional<uint64_t> byteSize(int32_t type, std::span<const uint32_t> dims) {
  size_t element = elementSize(type);
  if (element == 0) return std::nullopt;
  if (!isTensorType(type)) return element;
  if (dims.empty()) return std::nullopt;  // unknown rank
  auto count = elementCount(dims);
  if (!count || *count > std::numeric_limits<uint64_t>::max() / element) return std::nullopt;
  return *count * element;
}

std::string checkQuantization(int32_t type, float scale, int32_t zeroPoint) {
  auto range = [&](int32_t lo, int32_t hi) -> std::string {
    if (zeroPoint < lo || zeroPoint > hi) {
      return typeName(type) + " zero point " + std::to_string(zeroPoint) + " is outside " + std::to_string(lo) +
             ".." + std::to_string(hi);
    }
    return {};
  };
  if (!std::isfinite(scale)) return typeName(type) + " scale is not a finite number";
  switch (static_cast<OperandType>(type)) {
    case OperandType::TENSOR_QUANT8_ASYMM:
      if (scale <= 0) return typeName(type) + " needs a scale > 0";
      return range(0, 255);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      if (scale <= 0) return typeName(type) + " needs a scale > 0";
      return range(-128, 127);
    case OperandType::TENSOR_QUANT16_ASYMM:
      if (scale <= 0) return typeName(type) + " needs a scale > 0";
      return range(0, 65535);
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
      if (scale <= 0) return typeName(type) + " needs a scale > 0";
      return range(0, 0);
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
      // Scales travel separately (setOperandSymmPerChannelQuantParams).
      if (scale != 0) return typeName(type) + " takes per-channel scales; its scale must be 0";
      return range(0, 0);
    case OperandType::TENSOR_INT32:
      // Biases of quantized operations carry scale = input scale * filter scale.
      if (scale < 0) return typeName(type) + " scale must not be negative";
      return {};
    case OperandType::TENSOR_OEM_BYTE:
    case OperandType::OEM:
      return {};
    default:
      if (isKnownOperandType(type)) {
        if (scale != 0) return typeName(type) + " must have scale 0, not " + std::to_string(scale);
        return range(0, 0);
      }
      return {};  // extension types: their owner decides
  }
}

std::string typeName(int32_t type) {
  if (const char* name = driver::operandTypeName(type)) return name;
  if (driver::isExtensionType(type)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "extension type 0x%08x", static_cast<uint32_t>(type));
    return buf;
  }
  return "unknown type " + std::to_string(type);
}

std::string operationName(int32_t type) {
  if (const char* name = driver::operationTypeName(type)) return name;
  if (driver::isExtensionType(type)) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "extension operation 0x%08x", static_cast<uint32_t>(type));
    return buf;
  }
  return "unknown operation " + std::to_string(type);
}

std::string shapeToString(std::span<const uint32_t> dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

}  // namespace nnrt::ops
