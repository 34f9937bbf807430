#include "tools/nnrt/element_codec.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "nnrt/driver/types.hpp"

namespace nnrt::tools {
namespace {

using driver::OperandType;

struct ElementInfo {
  ElementType type;
  const char* name;
  size_t bytes;
};

constexpr ElementInfo kElements[] = {
    {ElementType::I8, "i8", 1},   {ElementType::U8, "u8", 1},   {ElementType::I16, "i16", 2},
    {ElementType::U16, "u16", 2}, {ElementType::I32, "i32", 4}, {ElementType::U32, "u32", 4},
    {ElementType::I64, "i64", 8}, {ElementType::U64, "u64", 8}, {ElementType::F16, "f16", 2},
    {ElementType::F32, "f32", 4}, {ElementType::F64, "f64", 8}, {ElementType::Bool8, "bool", 1},
};

const ElementInfo& info(ElementType type) {
  for (const auto& e : kElements) {
    if (e.type == type) return e;
  }
  return kElements[0];
}

template <class T>
void append(std::vector<uint8_t>& out, T value) {
  uint8_t bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));  // every supported host is little-endian, as the runtime
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

template <class T>
T load(const uint8_t* data) {
  T value;
  std::memcpy(&value, data, sizeof(T));
  return value;
}

std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

std::optional<double> parseFloat(std::string_view text) {
  std::string s(text);
  // YAML's spellings of infinity and not-a-number.
  for (const char* inf : {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}) {
    if (s == inf) return std::numeric_limits<double>::infinity();
  }
  for (const char* inf : {"-.inf", "-.Inf", "-.INF"}) {
    if (s == inf) return -std::numeric_limits<double>::infinity();
  }
  for (const char* nan : {".nan", ".NaN", ".NAN"}) {
    if (s == nan) return std::numeric_limits<double>::quiet_NaN();
  }
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

// Signed integers as int64 (decimal or 0x hexadecimal, with an optional sign); nullopt when the
// text is not an integer, `overflow` set when it does not fit int64/uint64.
struct ParsedInteger {
  bool negative = false;
  uint64_t magnitude = 0;
};
std::optional<ParsedInteger> parseInteger(std::string_view text) {
  std::string s(text);
  ParsedInteger r;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) r.negative = s[i++] == '-';
  int base = 10;
  if (s.size() > i + 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    base = 16;
    i += 2;
  }
  if (i >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  r.magnitude = std::strtoull(s.c_str() + i, &end, base);
  if (end != s.c_str() + s.size() || errno == ERANGE) return std::nullopt;
  return r;
}

template <class T>
std::string appendInteger(ElementType type, std::string_view text, std::vector<uint8_t>& out) {
  auto parsed = parseInteger(text);
  if (!parsed) {
    if (parseFloat(text)) return quoted(text) + " is not a whole number (" + info(type).name + ")";
    return quoted(text) + " is not a number";
  }
  const bool fits = parsed->negative
                        ? std::numeric_limits<T>::is_signed &&
                              parsed->magnitude <= static_cast<uint64_t>(std::numeric_limits<T>::max()) + 1
                        : parsed->magnitude <= static_cast<uint64_t>(std::numeric_limits<T>::max());
  if (!fits) return quoted(text) + " is out of range for " + info(type).name;
  T value = parsed->negative ? static_cast<T>(-static_cast<int64_t>(parsed->magnitude - 1) - 1)
                             : static_cast<T>(parsed->magnitude);
  append(out, value);
  return "";
}

std::string formatDouble(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

}  // namespace

std::optional<ElementType> elementTypeOf(int32_t operandType) {
  switch (static_cast<OperandType>(operandType)) {
    case OperandType::FLOAT32:
    case OperandType::TENSOR_FLOAT32:
      return ElementType::F32;
    case OperandType::FLOAT16:
    case OperandType::TENSOR_FLOAT16:
      return ElementType::F16;
    case OperandType::INT32:
    case OperandType::TENSOR_INT32:
      return ElementType::I32;
    case OperandType::UINT32:
      return ElementType::U32;
    case OperandType::BOOL:
    case OperandType::TENSOR_BOOL8:
      return ElementType::Bool8;
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::OEM:
    case OperandType::TENSOR_OEM_BYTE:
      return ElementType::U8;
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      return ElementType::I8;
    case OperandType::TENSOR_QUANT16_SYMM:
      return ElementType::I16;
    case OperandType::TENSOR_QUANT16_ASYMM:
      return ElementType::U16;
    case OperandType::SUBGRAPH:
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<ElementType> parseElementType(std::string_view name) {
  for (const auto& e : kElements) {
    if (name == e.name) return e.type;
  }
  return std::nullopt;
}

const char* elementTypeName(ElementType type) {
  return info(type).name;
}
size_t elementBytes(ElementType type) {
  return info(type).bytes;
}

std::string elementTypeList() {
  std::string list;
  for (const auto& e : kElements)
    list += std::string(list.empty() ? "" : ", ") + e.name;
  return list;
}

std::string appendElement(ElementType type, std::string_view text, std::vector<uint8_t>& out) {
  switch (type) {
    case ElementType::I8:
      return appendInteger<int8_t>(type, text, out);
    case ElementType::U8:
      return appendInteger<uint8_t>(type, text, out);
    case ElementType::I16:
      return appendInteger<int16_t>(type, text, out);
    case ElementType::U16:
      return appendInteger<uint16_t>(type, text, out);
    case ElementType::I32:
      return appendInteger<int32_t>(type, text, out);
    case ElementType::U32:
      return appendInteger<uint32_t>(type, text, out);
    case ElementType::I64:
      return appendInteger<int64_t>(type, text, out);
    case ElementType::U64:
      return appendInteger<uint64_t>(type, text, out);
    case ElementType::Bool8: {
      if (text == "true" || text == "True" || text == "TRUE" || text == "1") {
        append<uint8_t>(out, 1);
      } else if (text == "false" || text == "False" || text == "FALSE" || text == "0") {
        append<uint8_t>(out, 0);
      } else {
        return quoted(text) + " is not true, false, 1 or 0";
      }
      return "";
    }
    case ElementType::F16:
    case ElementType::F32:
    case ElementType::F64: {
      auto v = parseFloat(text);
      if (!v) return quoted(text) + " is not a number";
      if (type == ElementType::F16) append(out, floatToHalf(static_cast<float>(*v)));
      if (type == ElementType::F32) append(out, static_cast<float>(*v));
      if (type == ElementType::F64) append(out, *v);
      return "";
    }
  }
  return "unknown element type";
}

double elementValue(ElementType type, const uint8_t* data) {
  switch (type) {
    case ElementType::I8:
      return load<int8_t>(data);
    case ElementType::U8:
      return load<uint8_t>(data);
    case ElementType::I16:
      return load<int16_t>(data);
    case ElementType::U16:
      return load<uint16_t>(data);
    case ElementType::I32:
      return load<int32_t>(data);
    case ElementType::U32:
      return load<uint32_t>(data);
    case ElementType::I64:
      return static_cast<double>(load<int64_t>(data));
    case ElementType::U64:
      return static_cast<double>(load<uint64_t>(data));
    case ElementType::F16:
      return halfToFloat(load<uint16_t>(data));
    case ElementType::F32:
      return load<float>(data);
    case ElementType::F64:
      return load<double>(data);
    case ElementType::Bool8:
      return load<uint8_t>(data) != 0 ? 1 : 0;
  }
  return 0;
}

std::string formatElement(ElementType type, const uint8_t* data) {
  switch (type) {
    case ElementType::I64:
      return std::to_string(load<int64_t>(data));
    case ElementType::U64:
      return std::to_string(load<uint64_t>(data));
    case ElementType::Bool8:
      return load<uint8_t>(data) != 0 ? "true" : "false";
    case ElementType::F16:
    case ElementType::F32:
    case ElementType::F64:
      return formatDouble(elementValue(type, data));
    default:
      return std::to_string(static_cast<int64_t>(elementValue(type, data)));
  }
}

}  // namespace nnrt::tools
