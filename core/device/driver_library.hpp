// One loaded driver plugin: the shared object, its checked function table and its open handle.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <boost/dll/shared_library.hpp>

#include "core/support/status.hpp"
#include "nnrt/driver/nnrt_driver.h"

namespace nnrt {

class DriverLibrary {
 public:
  // Checks the file before running any of its code (exists, is a shared object, exports
  // NNRT_DRIVER_ENTRY_NAME), loads it, checks the table (ABI major, size, required functions)
  // and opens the plugin with `options`. On any failure everything acquired is released and the
  // error names the file and the reason.
  static Result<std::shared_ptr<DriverLibrary>> load(const std::filesystem::path& path,
                                                     const std::vector<std::pair<std::string, std::string>>& options);
  ~DriverLibrary();
  DriverLibrary(const DriverLibrary&) = delete;
  DriverLibrary& operator=(const DriverLibrary&) = delete;

  const nnrt_driver_api& api() const { return *api_; }
  nnrt_plugin* plugin() const { return plugin_; }
  const std::filesystem::path& path() const { return path_; }
  // ABI version the plugin was built against, "1.0".
  std::string abiVersion() const;

 private:
  DriverLibrary() = default;
  std::filesystem::path path_;
  boost::dll::shared_library library_;
  const nnrt_driver_api* api_ = nullptr;
  nnrt_plugin* plugin_ = nullptr;
};

}  // namespace nnrt
