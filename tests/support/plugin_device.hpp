// Loads one driver plugin the way the runtime does, for tests that exercise a real plugin file: a
// runtime configuration written here, DeviceRegistry (Boost.DLL loading, the ABI checks) and the
// DriverDevice wrapper that every runtime call goes through.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/device/device_registry.hpp"

namespace nnrt::test {

struct LoadedDevice {
  std::unique_ptr<DeviceRegistry> registry;  // keeps the plugin loaded
  std::shared_ptr<DriverDevice> device;      // null when the device could not be loaded
  std::string error;                         // then: why not
};

// Loads `library` (a file name looked up in `pluginDir`, or a path) as device `name`, opened with
// `options` (the plugin's `options:` mapping in runtime.yaml). When the plugin offers several
// devices, the first one is returned.
LoadedDevice loadPluginDevice(const std::filesystem::path& pluginDir, const std::string& name,
                              const std::string& library,
                              const std::vector<std::pair<std::string, std::string>>& options = {});

}  // namespace nnrt::test
