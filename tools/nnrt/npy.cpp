#include "tools/nnrt/npy.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace nnrt::tools {
namespace {

// The value of `key` in the header's Python dict literal, e.g. 'descr': '<f4'.
std::string headerField(const std::string& header, const std::string& key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) return "";
  at = header.find(':', at);
  if (at == std::string::npos) return "";
  ++at;
  while (at < header.size() && header[at] == ' ')
    ++at;
  if (at >= header.size()) return "";
  char open = header[at];
  if (open == '\'') return header.substr(at + 1, header.find('\'', at + 1) - at - 1);
  if (open == '(') return header.substr(at + 1, header.find(')', at) - at - 1);
  size_t end = header.find_first_of(",}", at);
  return header.substr(at, end - at);
}

}  // namespace

std::string npyDtype(ElementType element) {
  switch (element) {
    case ElementType::I8:
      return "|i1";
    case ElementType::U8:
      return "|u1";
    case ElementType::I16:
      return "<i2";
    case ElementType::U16:
      return "<u2";
    case ElementType::I32:
      return "<i4";
    case ElementType::U32:
      return "<u4";
    case ElementType::I64:
      return "<i8";
    case ElementType::U64:
      return "<u8";
    case ElementType::F16:
      return "<f2";
    case ElementType::F32:
      return "<f4";
    case ElementType::F64:
      return "<f8";
    case ElementType::Bool8:
      return "|b1";
  }
  return "";
}

Result<NpyArray> readNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(ResultCode::BAD_DATA, "cannot open '" + path + "': " + std::strerror(errno));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto bad = [&](const std::string& what) { return fail(ResultCode::BAD_DATA, "'" + path + "': " + what); };
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) return bad("not a .npy file");
  const uint8_t major = bytes[6];
  size_t headerLength = 0, start = 0;
  if (major == 1) {
    headerLength = bytes[8] | (bytes[9] << 8);
    start = 10;
  } else if ((major == 2 || major == 3) && bytes.size() >= 12) {
    headerLength = bytes[8] | (bytes[9] << 8) | (bytes[10] << 16) | (static_cast<size_t>(bytes[11]) << 24);
    start = 12;
  } else {
    return bad(".npy format version " + std::to_string(major) + " is not supported");
  }
  if (start + headerLength > bytes.size()) return bad("truncated header");
  std::string header(bytes.begin() + start, bytes.begin() + start + headerLength);
  NpyArray array;
  array.dtype = headerField(header, "descr");
  if (headerField(header, "fortran_order") != "False") return bad("only C-order arrays are supported");
  uint64_t count = 1;
  std::string shape = headerField(header, "shape");
  for (size_t at = 0; at < shape.size();) {
    size_t end = shape.find(',', at);
    std::string item = shape.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (item.find_first_not_of(' ') != std::string::npos) {
      try {
        array.shape.push_back(std::stoull(item));
      } catch (const std::exception&) {
        return bad("shape '" + shape + "' is not a list of sizes");
      }
      count *= array.shape.back();
    }
    if (end == std::string::npos) break;
    at = end + 1;
  }
  array.data.assign(bytes.begin() + start + headerLength, bytes.end());
  size_t itemSize = array.dtype.size() >= 3 ? static_cast<size_t>(std::atoi(array.dtype.c_str() + 2)) : 0;
  if (itemSize == 0 || array.data.size() != count * itemSize) {
    return bad("dtype '" + array.dtype + "' and shape (" + shape + ") do not match the " +
               std::to_string(array.data.size()) + " data bytes");
  }
  return array;
}

Result<std::vector<uint8_t>> encodeNpy(ElementType element, const std::vector<uint32_t>& shape,
                                       const std::vector<uint8_t>& data) {
  std::string shapeText;  // "2, 3"; one dimension is written "4," as Python does
  for (size_t i = 0; i < shape.size(); ++i)
    shapeText += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) shapeText += ",";
  std::string header =
      "{'descr': '" + npyDtype(element) + "', 'fortran_order': False, 'shape': (" + shapeText + "), }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string prefix = "\x93NUMPY";
  prefix += static_cast<char>(1);
  prefix += static_cast<char>(0);
  prefix += static_cast<char>(header.size() & 0xff);
  prefix += static_cast<char>(header.size() >> 8);
  prefix += header;
  std::vector<uint8_t> out(prefix.begin(), prefix.end());
  out.resize(prefix.size() + data.size());
  if (!data.empty()) std::memcpy(out.data() + prefix.size(), data.data(), data.size());
  return out;
}

}  // namespace nnrt::tools
