// The devices of a runtime configuration: every enabled plugin loaded, every device started, and a
// record of each plugin or device that was skipped and why.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "allowlist/allowlist.hpp"
#include "core/config/runtime_config.hpp"
#include "core/device/driver_device.hpp"
#include "core/device/health_monitor.hpp"
#include "core/model/extension_registry.hpp"
#include "core/support/status.hpp"

namespace nnrt {

struct SkippedDevice {
  std::string name;     // the configuration entry
  std::string library;  // resolved path
  std::string reason;
};

class DeviceRegistry {
 public:
  // Loads every enabled device of `config`. Never fails: a plugin that cannot be loaded or started
  // is skipped with a warning and recorded; the others stay usable.
  static std::unique_ptr<DeviceRegistry> create(config::RuntimeConfig config);

  // The process-wide registry, made on first use from the configuration config::locateRuntime() finds. When the configuration
  // cannot be read, it has no devices and configError() says why.
  static DeviceRegistry& global();

  const std::vector<std::shared_ptr<DriverDevice>>& devices() const { return devices_; }
  const std::vector<SkippedDevice>& skipped() const { return skipped_; }
  const config::RuntimeConfig& config() const { return config_; }
  const std::optional<Error>& configError() const { return configError_; }
  std::shared_ptr<DriverDevice> find(const std::string& name) const;
  // The fallback device named by the policy, if it was loaded.
  std::shared_ptr<DriverDevice> fallbackDevice() const;

  // The folder the runtime's code was loaded from (see config::locateRuntime).
  static std::filesystem::path runtimeDirectory();

  // The extensions the loaded devices offer, with process-wide prefixes.
  const std::shared_ptr<const ExtensionRegistry>& extensions() const { return extensions_; }
  // Whether the calling program may use vendor extensions (policy extensions.allow + allowlist).
  allowlist::Decision extensionAccess() const;
  // Starts the periodic getStatus check (policy.health_check_interval_ms; 0 = never).
  void startHealthChecks();

 private:
  DeviceRegistry() = default;
  config::RuntimeConfig config_;
  std::optional<Error> configError_;
  std::vector<std::shared_ptr<DriverDevice>> devices_;
  std::vector<SkippedDevice> skipped_;
  std::shared_ptr<const ExtensionRegistry> extensions_ = ExtensionRegistry::fromList({});
  std::unique_ptr<HealthMonitor> health_;
  std::optional<allowlist::Allowlist> allowlist_;
  std::string allowlistError_;
};

}  // namespace nnrt
