// One loaded driver plugin: the shared object, its checked function table and its open handle.
#pragma once

#include <filesystem>
#include <functional>
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
  // A table served by someone else (RemoteDriver, a plugin in a host process): `owner` keeps it
  // and its functions alive; close(plugin) is called as for a loaded one. `restart` (may be empty)
  // ends and restarts what serves the table, for a call the runtime gave up waiting on.
  static std::shared_ptr<DriverLibrary> fromTable(const std::filesystem::path& path,
                                                  const nnrt_driver_api* api, nnrt_plugin* plugin,
                                                  std::shared_ptr<void> owner,
                                                  std::function<void(const std::string& why)> restart);
  ~DriverLibrary();
  DriverLibrary(const DriverLibrary&) = delete;
  DriverLibrary& operator=(const DriverLibrary&) = delete;

  const nnrt_driver_api& api() const { return *api_; }
  nnrt_plugin* plugin() const { return plugin_; }
  const std::filesystem::path& path() const { return path_; }
  // ABI version the plugin was built against, "1.0".
  std::string abiVersion() const;
  // Whether the table is served from a driver host process (fromTable), not loaded here.
  bool inHostProcess() const { return owner_ != nullptr; }
  // Empty for a plugin loaded in this process (see fromTable).
  const std::function<void(const std::string& why)>& restartHook() const { return restart_; }

 private:
  DriverLibrary() = default;
  std::filesystem::path path_;
  boost::dll::shared_library library_;
  const nnrt_driver_api* api_ = nullptr;
  nnrt_plugin* plugin_ = nullptr;
  std::shared_ptr<void> owner_;
  std::function<void(const std::string& why)> restart_;
};

}  // namespace nnrt
