// Little-endian byte writer and bounds-checked reader for the cache files. The reader never reads
// past its span: every read reports failure instead, so corrupted input cannot crash the driver.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace nnrt::opencl {

class ByteWriter {
 public:
  template <class T>
  requires std::is_arithmetic_v<T>
  void put(T value) {
    uint8_t bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    if constexpr (std::endian::native == std::endian::big) std::reverse(bytes, bytes + sizeof(T));
    out_.insert(out_.end(), bytes, bytes + sizeof(T));
  }
  void putBytes(std::span<const uint8_t> bytes) { out_.insert(out_.end(), bytes.begin(), bytes.end()); }
  void putString(const std::string& s) {
    put(static_cast<uint32_t>(s.size()));
    putBytes({reinterpret_cast<const uint8_t*>(s.data()), s.size()});
  }
  std::vector<uint8_t>& bytes() { return out_; }

 private:
  std::vector<uint8_t> out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> in) : in_(in) {}

  template <class T>
  requires std::is_arithmetic_v<T>
  bool get(T& value) {
    if (remaining() < sizeof(T)) return false;
    uint8_t bytes[sizeof(T)];
    std::memcpy(bytes, in_.data() + at_, sizeof(T));
    if constexpr (std::endian::native == std::endian::big) std::reverse(bytes, bytes + sizeof(T));
    std::memcpy(&value, bytes, sizeof(T));
    at_ += sizeof(T);
    return true;
  }
  bool getBytes(size_t count, std::span<const uint8_t>& bytes) {
    if (remaining() < count) return false;
    bytes = in_.subspan(at_, count);
    at_ += count;
    return true;
  }
  bool getString(std::string& s, uint32_t maxLength) {
    uint32_t length = 0;
    std::span<const uint8_t> bytes;
    if (!get(length) || length > maxLength || !getBytes(length, bytes)) return false;
    s.assign(bytes.begin(), bytes.end());
    return true;
  }
  size_t position() const { return at_; }
  size_t remaining() const { return in_.size() - at_; }

 private:
  std::span<const uint8_t> in_;
  size_t at_ = 0;
};

}  // namespace nnrt::opencl
