#include "plugins/opencl/cache_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "nnrt/driver/nnrt_driver.h"
#include "plugins/opencl/byte_stream.hpp"

namespace nnrt::opencl {
namespace {

constexpr size_t kMagicSize = 8;
constexpr uint32_t kMaxNameLength = 4096;
// Cache files above this size are refused rather than read into memory.
constexpr uint64_t kMaxCacheFileBytes = uint64_t{4} << 30;

const char* magic(CacheKind kind) {
  switch (kind) {
    case CacheKind::Program:
      return "NNRTOCLP";
    case CacheKind::Model:
      return "NNRTOCLM";
    case CacheKind::Calibration:
      return "NNRTOCLC";
  }
  return "";
}
std::string label(CacheKind kind) {
  switch (kind) {
    case CacheKind::Program:
      return "model cache file";
    case CacheKind::Model:
      return "data cache file";
    case CacheKind::Calibration:
      return "calibration cache file";
  }
  return "";
}

Unexpected<driver::Error> refuse(CacheKind kind, const std::string& problem) {
  return driver::generalFailure("the " + label(kind) + " " + problem);
}

bool writeAll(int fd, const uint8_t* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pwrite(fd, data + done, size - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

bool readAll(int fd, uint8_t* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, data + done, size - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

uint64_t fnv1a64(std::span<const uint8_t> bytes, uint64_t hash) {
  for (uint8_t b : bytes) {
    hash ^= b;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string hex64(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

driver::Result<void> writeCacheFile(int fd, CacheKind kind, const CacheIdentity& identity,
                                    std::span<const uint8_t> payload) {
  ByteWriter w;
  w.putBytes({reinterpret_cast<const uint8_t*>(magic(kind)), kMagicSize});
  w.put(kCacheFormatVersion);
  w.putString(identity.deviceName);
  w.putString(identity.driverVersion);
  w.putBytes(identity.token);
  w.put(static_cast<uint64_t>(payload.size()));
  w.put(fnv1a64(payload));
  w.put(fnv1a64(w.bytes()));
  std::vector<uint8_t>& file = w.bytes();
  file.insert(file.end(), payload.begin(), payload.end());
  if (!writeAll(fd, file.data(), file.size())) {
    return driver::generalFailure("writing the " + label(kind) + " failed: " + std::strerror(errno));
  }
  // A longer earlier content would otherwise trail the new one; a descriptor that cannot be truncated
  // (a pipe, a special file) keeps it, and the reader ignores bytes past the payload.
  (void)::ftruncate(fd, static_cast<off_t>(file.size()));
  return {};
}

driver::Result<std::vector<uint8_t>> readCacheFile(int fd, CacheKind kind, const CacheIdentity& identity) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return refuse(kind, std::string("cannot be examined: ") + std::strerror(errno));
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size > kMaxCacheFileBytes)
    return refuse(kind, "is larger than " + std::to_string(kMaxCacheFileBytes) + " bytes");
  std::vector<uint8_t> file(size);
  if (!readAll(fd, file.data(), file.size())) {
    return refuse(kind, std::string("cannot be read: ") + (errno != 0 ? std::strerror(errno) : "short read"));
  }

  ByteReader r(file);
  std::span<const uint8_t> fileMagic, token;
  uint32_t version = 0;
  std::string device, driverVersion;
  uint64_t payloadSize = 0, payloadSum = 0, headerSum = 0;
  if (!r.getBytes(kMagicSize, fileMagic))
    return refuse(kind, "is truncated (" + std::to_string(size) + " bytes)");
  if (std::memcmp(fileMagic.data(), magic(kind), kMagicSize) != 0) {
    return refuse(kind, "is not an nnrt OpenCL cache file of this kind (wrong magic)");
  }
  if (!r.get(version)) return refuse(kind, "is truncated in its header");
  if (version != kCacheFormatVersion) {
    return refuse(kind, "has format version " + std::to_string(version) + "; this driver reads version " +
                            std::to_string(kCacheFormatVersion));
  }
  if (!r.getString(device, kMaxNameLength) || !r.getString(driverVersion, kMaxNameLength) ||
      !r.getBytes(NNRT_CACHE_TOKEN_SIZE, token) || !r.get(payloadSize) || !r.get(payloadSum)) {
    return refuse(kind, "is truncated in its header");
  }
  const uint64_t expectedHeaderSum = fnv1a64(std::span(file.data(), r.position()));
  if (!r.get(headerSum)) return refuse(kind, "is truncated in its header");
  if (headerSum != expectedHeaderSum) return refuse(kind, "is corrupted (header checksum mismatch)");
  if (device != identity.deviceName) {
    return refuse(kind, "was written for device '" + device + "', not '" + identity.deviceName + "'");
  }
  if (driverVersion != identity.driverVersion) {
    return refuse(kind, "was written by driver version '" + driverVersion + "', this is '" +
                            identity.driverVersion + "'");
  }
  if (identity.token.size() != NNRT_CACHE_TOKEN_SIZE ||
      std::memcmp(token.data(), identity.token.data(), NNRT_CACHE_TOKEN_SIZE) != 0) {
    return refuse(kind, "belongs to another cache token");
  }
  std::span<const uint8_t> payload;
  if (!r.getBytes(payloadSize, payload)) {
    return refuse(kind, "is truncated: its payload has " + std::to_string(r.remaining()) + " of " +
                            std::to_string(payloadSize) + " bytes");
  }
  if (fnv1a64(payload) != payloadSum) return refuse(kind, "is corrupted (payload checksum mismatch)");
  return std::vector<uint8_t>(payload.begin(), payload.end());
}

}  // namespace nnrt::opencl
