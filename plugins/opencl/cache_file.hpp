// The files of a compilation cache (getNumberOfCacheFilesNeeded is 1 model-cache + 1 data-cache file):
//   model cache: the program binary (CL_PROGRAM_BINARIES) and the build options it was built with;
//   data cache:  the model itself (model_copy.hpp serialization: operands, operations, constants);
// and, in the same format, the calibration cache file (calibration.hpp) the plugin keeps in the user's
// cache folder.
//
// Each file is a header and a payload, little-endian:
//   magic        8 bytes, "NNRTOCLP" (program), "NNRTOCLM" (model) or "NNRTOCLC" (calibration)
//   version      u32, kCacheFormatVersion
//   device       u32 length + bytes: CL_DEVICE_NAME of the device that wrote it
//   driver       u32 length + bytes: the driver version key (plugin version, OpenCL driver version and
//                a hash of the kernel source)
//   token        32 bytes, the compilation's cache token
//   payload size u64
//   payload sum  u64, FNV-1a 64 of the payload
//   header sum   u64, FNV-1a 64 of every header byte before it
// A reader refuses a file that is short, has another magic or version, another device, driver or token,
// or a checksum that does not match, naming which. Files are read and written with pread/pwrite at
// offset 0; the descriptors are the host's and stay open.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "nnrt/driver/types.hpp"

namespace nnrt::opencl {

inline constexpr uint32_t kCacheFormatVersion = 1;

enum class CacheKind { Program, Model, Calibration };

// Who may read a cache file: it must have been written for the same device, driver and token.
struct CacheIdentity {
  std::string deviceName;
  std::string driverVersion;
  std::span<const uint8_t> token;  // NNRT_CACHE_TOKEN_SIZE bytes
};

inline constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
uint64_t fnv1a64(std::span<const uint8_t> bytes, uint64_t hash = kFnvOffset);
// 16 lowercase hex digits.
std::string hex64(uint64_t value);

// Replaces the file's content with header + payload (truncating what was longer).
driver::Result<void> writeCacheFile(int fd, CacheKind kind, const CacheIdentity& identity,
                                    std::span<const uint8_t> payload);
// The payload, after every check of the header. Failures are GENERAL_FAILURE naming the file kind and
// the problem.
driver::Result<std::vector<uint8_t>> readCacheFile(int fd, CacheKind kind, const CacheIdentity& identity);

}  // namespace nnrt::opencl
