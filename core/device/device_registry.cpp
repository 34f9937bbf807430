#include "core/device/device_registry.hpp"

#include <cstdlib>

#include <boost/dll/runtime_symbol_info.hpp>

#include "core/device/remote_driver.hpp"
#include "core/support/log.hpp"

namespace nnrt {
namespace {
// More devices than any plugin offers: a count above it is nonsense (or a failed count).
constexpr uint32_t kMaxDevicesPerPlugin = 256;
}  // namespace

std::unique_ptr<DeviceRegistry> DeviceRegistry::create(config::RuntimeConfig config) {
  std::unique_ptr<DeviceRegistry> registry(new DeviceRegistry());
  registry->config_ = std::move(config);
  for (const config::DeviceConfig& entry : registry->config_.devices) {
    auto skip = [&](const std::string& reason) {
      registry->skipped_.push_back({entry.name, entry.libraryPath.string(), reason});
    };
    if (!entry.enabled) {
      skip("disabled in the configuration (enabled: false)");
      continue;
    }
    std::error_code ec;
    if (entry.library.find('/') == std::string::npos && !std::filesystem::exists(entry.libraryPath, ec)) {
      std::string why = entry.libraryPath.string() + ": file not found (a bare file name is looked up in the plugin folder; write ./" +
                        entry.library + " for a file beside " + registry->config_.file.filename().string() + ")";
      logWarning("skipping device '" + entry.name + "': " + why);
      skip(why);
      continue;
    }
    auto library = entry.isolation == config::Isolation::Process
                       ? loadRemoteDriver(config::locateRuntime(runtimeDirectory()).driverHost,
                                          entry.libraryPath, entry.options, entry.isolationSpin)
                       : DriverLibrary::load(entry.libraryPath, entry.options);
    if (!library) {
      logWarning("skipping device '" + entry.name + "': " + library.error().message);
      skip(library.error().message);
      continue;
    }
    const nnrt_driver_api& api = (*library)->api();
    uint32_t count = api.device_count((*library)->plugin());
    if (count == 0 || count > kMaxDevicesPerPlugin) {
      std::string why = entry.libraryPath.string() + ": plugin '" + api.plugin_name + "' offers " +
                        (count == 0 ? std::string("no device") : std::to_string(count) + " devices");
      logWarning("skipping device '" + entry.name + "': " + why);
      skip(why);
      continue;
    }
    for (uint32_t i = 0; i < count; ++i) {
      std::string name = count == 1 ? entry.name : entry.name + ":" + std::to_string(i);
      nnrt_device* handle = api.device_at((*library)->plugin(), i);
      if (handle == nullptr) {
        std::string why = entry.libraryPath.string() + ": device_at(" + std::to_string(i) + ") returned NULL";
        logWarning("skipping device '" + name + "': " + why);
        registry->skipped_.push_back({name, entry.libraryPath.string(), why});
        continue;
      }
      // A driver may still answer one health check interval after a deadline (see DriverGuard).
      const uint32_t interval = registry->config_.policy.healthCheckIntervalMs;
      auto device = DriverDevice::create(*library, handle, name, entry.performance,
                                         interval != 0 ? std::chrono::milliseconds(interval)
                                                       : DriverDevice::kDefaultGrace,
                                         entry.watchdog);
      if (!device) {
        logWarning("skipping device '" + name + "': " + device.error().message);
        registry->skipped_.push_back({name, entry.libraryPath.string(), device.error().message});
        continue;
      }
      registry->devices_.push_back(std::move(*device));
    }
  }
  std::vector<std::pair<std::string, driver::Extension>> extensions;
  for (const auto& d : registry->devices_) {
    for (const auto& e : d->extensions()) extensions.emplace_back(d->name(), e);
  }
  registry->extensions_ = ExtensionRegistry::fromList(extensions);
  const auto& policy = registry->config_.policy;
  if (policy.extensionAccess == allowlist::ExtensionAccess::Allowlist && !policy.allowlistPath.empty()) {
    allowlist::LoadResult loaded = allowlist::loadAllowlist(policy.allowlistPath.string());
    if (loaded.ok()) {
      for (const auto& bad : loaded.list->invalid) {
        logWarning(policy.allowlistPath.string() + ": " + allowlist::describe(bad) + " (ignored)");
      }
      registry->allowlist_ = std::move(*loaded.list);
    } else {
      registry->allowlistError_ = loaded.error;
      if (!policy.allowlistFromConfig.empty() && !policy.allowlistFromConfig.is_absolute()) {
        registry->allowlistError_ += " (policy.extensions.allowlist '" + policy.allowlistFromConfig.string() +
                                     "' is relative to the configuration file's folder: copy the allowlist beside it, "
                                     "or give an absolute path)";
      }
      logError(registry->allowlistError_ + "; vendor extensions are refused to every program");
    }
  }
  const std::string& fallback = registry->config_.policy.fallbackDevice;
  if (!fallback.empty() && !registry->find(fallback)) {
    logWarning("fallback device '" + fallback + "' is not loaded; whole-model fallback is off");
  }
  return registry;
}

DeviceRegistry& DeviceRegistry::global() {
  // Never destroyed: plugins stay loaded until the process ends, so no static destructor can run
  // after a plugin (or the timer thread) is gone.
  static DeviceRegistry* instance = [] {
    config::RuntimeLayout layout = config::locateRuntime(runtimeDirectory());
    const std::filesystem::path& file = layout.configFile;
    auto config = config::loadConfig(file, layout.pluginDir);
    if (!config) {
      logError("configuration error: " + config.error().message);
      auto* empty = new DeviceRegistry();
      empty->configError_ = config.error();
      return empty;
    }
    logVerbose("configuration: " + file.string());
    DeviceRegistry* registry = create(std::move(*config)).release();
    registry->startHealthChecks();
    return registry;
  }();
  return *instance;
}

std::shared_ptr<DriverDevice> DeviceRegistry::find(const std::string& name) const {
  for (const auto& d : devices_) {
    if (d->name() == name) return d;
  }
  return nullptr;
}

std::shared_ptr<DriverDevice> DeviceRegistry::fallbackDevice() const {
  return config_.policy.fallbackDevice.empty() ? nullptr : find(config_.policy.fallbackDevice);
}

std::filesystem::path DeviceRegistry::runtimeDirectory() {
  // libneuralnetworks.so's folder, or the folder of a program that links the runtime statically. For
  // code in the main program dladdr reports the program as it was started ("nnrt", found on PATH),
  // so a location that is not absolute is read from /proc/self/exe instead.
  boost::dll::fs::error_code ec;
  boost::dll::fs::path where = boost::dll::this_line_location(ec);
  if (ec || !where.is_absolute()) where = boost::dll::program_location(ec);
  if (ec || where.empty()) return std::filesystem::current_path();
  return std::filesystem::path(where.parent_path().string()).lexically_normal();
}

}  // namespace nnrt

namespace nnrt {

void DeviceRegistry::startHealthChecks() {
  if (health_ || config_.policy.healthCheckIntervalMs == 0 || devices_.empty()) return;
  health_ = std::make_unique<HealthMonitor>(devices_, std::chrono::milliseconds(config_.policy.healthCheckIntervalMs));
}

allowlist::Decision DeviceRegistry::extensionAccess() const {
  const auto& policy = config_.policy;
  allowlist::Decision d = allowlist::decide(policy.extensionAccess, allowlist_ ? &*allowlist_ : nullptr,
                                            allowlist::currentCaller());
  if (!d.allowed && !allowlistError_.empty()) d.reason += " (" + allowlistError_ + ")";
  return d;
}

}  // namespace nnrt
