// How the numbers of a model file, of `nnrt run --input NAME=1,2,3` and of printed outputs become
// bytes and back: one element type per NNAPI operand type, little-endian, as the runtime stores them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nnrt/driver/half.hpp"

namespace nnrt::tools {

enum class ElementType { I8, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64, Bool8 };

// The element type of an NNAPI operand type (FLOAT32 and TENSOR_FLOAT32 -> F32, BOOL -> Bool8,
// TENSOR_QUANT8_ASYMM -> U8, OEM types -> U8, ...); nullopt for SUBGRAPH, extension and unknown types.
std::optional<ElementType> elementTypeOf(int32_t operandType);
// "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "f32", "f64", "bool".
std::optional<ElementType> parseElementType(std::string_view name);
const char* elementTypeName(ElementType type);
size_t elementBytes(ElementType type);
// "i8, u8, ..., bool": for messages.
std::string elementTypeList();

// Appends the little-endian encoding of one number written as text ("1.5", "-3", "0x1f", "true",
// ".inf", "nan"). Returns "" on success, else why the text is not a value of the type
// (e.g. "'300' is out of range for u8").
std::string appendElement(ElementType type, std::string_view text, std::vector<uint8_t>& out);

// The element at `data` as text: integers exactly, floats with up to 6 significant digits.
std::string formatElement(ElementType type, const uint8_t* data);
// The element at `data` as a double (for medians, checks and dequantization).
double elementValue(ElementType type, const uint8_t* data);

// IEEE 754 binary16 conversions (round to nearest even).
using driver::floatToHalf;
using driver::halfToFloat;

}  // namespace nnrt::tools
