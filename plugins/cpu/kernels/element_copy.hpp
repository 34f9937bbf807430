// Internal to the kernel library: copying one element of a type-generic (byte) kernel, and short runs
// of bytes.
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

// Copies a run of `bytes` bytes between buffers that do not overlap, typically a few cache lines (a
// concatenation's piece of one pixel's channels): below 256 bytes, 64 bytes at a time by fixed-size
// copies, which compile to vector moves, the tail as the run's last 64 bytes again (a memcpy call per
// run costs more than such a copy); from 256 bytes on, memcpy (the C library's copy, with the widest
// moves the processor has, is then faster).
inline void copyRun(void* dst, const void* src, size_t bytes) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  if (bytes >= 256) {
    std::memcpy(d, s, bytes);
    return;
  }
  if (bytes >= 64) {
    size_t i = 0;
    for (; i + 64 <= bytes; i += 64) __builtin_memcpy(d + i, s + i, 64);
    if (i < bytes) __builtin_memcpy(d + bytes - 64, s + bytes - 64, 64);
    return;
  }
  size_t i = 0;
  for (; i + 16 <= bytes; i += 16) __builtin_memcpy(d + i, s + i, 16);
  for (; i + 4 <= bytes; i += 4) __builtin_memcpy(d + i, s + i, 4);
  for (; i < bytes; ++i) d[i] = s[i];
}

}  // namespace nnrt::cpu::detail
