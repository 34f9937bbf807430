// Internal to the kernel library: copying one element of a type-generic (byte) kernel.
#pragma once

#include <cstddef>
#include <cstring>

namespace nnrt::cpu::detail {

// Copies one element of `size` bytes; a fixed size per case lets the copy become a single move.
inline void copyElement(unsigned char* dst, const unsigned char* src, size_t size) {
  switch (size) {
    case 1:
      *dst = *src;
      return;
    case 2:
      std::memcpy(dst, src, 2);
      return;
    case 4:
      std::memcpy(dst, src, 4);
      return;
    case 8:
      std::memcpy(dst, src, 8);
      return;
    default:
      std::memcpy(dst, src, size);
  }
}

}  // namespace nnrt::cpu::detail
