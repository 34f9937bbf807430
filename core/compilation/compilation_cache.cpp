#include "core/compilation/compilation_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace nnrt {
namespace {

std::string hex(const std::vector<uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : bytes) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

// The token a step's driver sees: the application's token mixed with the step and device, so two
// steps of one model never share cache entries.
std::vector<uint8_t> stepToken(const std::vector<uint8_t>& token, size_t step, const std::string& device) {
  std::vector<uint8_t> out = token;
  uint64_t h = 1469598103934665603ull;  // FNV-1a over "step:device"
  for (char c : std::to_string(step) + ":" + device) {
    h ^= static_cast<uint8_t>(c);
    h *= 1099511628211ull;
  }
  for (size_t i = 0; i < out.size(); ++i) out[i] ^= static_cast<uint8_t>(h >> (8 * (i % 8)));
  return out;
}

}  // namespace

Result<StepCacheFiles> StepCacheFiles::open(const std::filesystem::path& dir, const std::vector<uint8_t>& token,
                                            size_t step, const std::string& deviceName,
                                            driver::CacheFileCounts counts) {
  StepCacheFiles files;
  files.handles_.token = stepToken(token, step, deviceName);
  files.existing_ = true;
  std::string safeDevice = deviceName;
  for (char& c : safeDevice) {
    if (c == '/' || c == ':') c = '_';
  }
  std::string base = hex(token) + "-s" + std::to_string(step) + "-" + safeDevice;
  auto openOne = [&](const std::string& suffix, std::vector<int>& into) -> Result<void> {
    std::filesystem::path path = dir / (base + suffix);
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
      return fail(ResultCode::OP_FAILED, "cannot open cache file " + path.string() + ": " + std::strerror(errno));
    }
    into.push_back(fd);
    struct stat st{};
    if (fstat(fd, &st) != 0 || st.st_size == 0) files.existing_ = false;
    return {};
  };
  for (uint32_t i = 0; i < counts.modelCache; ++i) NNRT_RETURN_IF_ERROR(openOne(".model" + std::to_string(i), files.handles_.modelCache));
  for (uint32_t i = 0; i < counts.dataCache; ++i) NNRT_RETURN_IF_ERROR(openOne(".data" + std::to_string(i), files.handles_.dataCache));
  return files;
}

StepCacheFiles::StepCacheFiles(StepCacheFiles&& other) noexcept
    : handles_(std::move(other.handles_)), existing_(other.existing_) {
  other.handles_.modelCache.clear();
  other.handles_.dataCache.clear();
}

StepCacheFiles::~StepCacheFiles() {
  for (int fd : handles_.modelCache) ::close(fd);
  for (int fd : handles_.dataCache) ::close(fd);
}

void StepCacheFiles::truncate() const {
  for (int fd : handles_.modelCache) (void)::ftruncate(fd, 0);
  for (int fd : handles_.dataCache) (void)::ftruncate(fd, 0);
}

}  // namespace nnrt
