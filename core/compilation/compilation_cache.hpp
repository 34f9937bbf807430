// Files of the compilation cache (ANeuralNetworksCompilation_setCaching): per step, the model- and
// data-cache files its device asks for, named after the application's token, the step and the
// device, opened read-write and owned here (drivers only read and write through the fds).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/device/driver_device.hpp"
#include "core/support/status.hpp"

namespace nnrt {

class StepCacheFiles {
 public:
  // Opens (creating when missing) the files for one step. `existing` tells whether every file
  // was already there and non-empty, i.e. whether preparing from cache is worth trying.
  static Result<StepCacheFiles> open(const std::filesystem::path& dir, const std::vector<uint8_t>& token, size_t step,
                                     const std::string& deviceName, driver::CacheFileCounts counts);
  StepCacheFiles(StepCacheFiles&& other) noexcept;
  StepCacheFiles& operator=(StepCacheFiles&&) = delete;
  ~StepCacheFiles();

  const CacheHandles& handles() const { return handles_; }
  bool existing() const { return existing_; }
  // Empties the files before a fresh preparation writes them.
  void truncate() const;

 private:
  StepCacheFiles() = default;
  CacheHandles handles_;
  bool existing_ = false;
};

}  // namespace nnrt
