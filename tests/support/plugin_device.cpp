#include "support/plugin_device.hpp"

#include "core/config/runtime_config.hpp"

namespace nnrt::test {
namespace {

// A YAML double-quoted scalar.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

LoadedDevice loadPluginDevice(const std::filesystem::path& pluginDir, const std::string& name,
                              const std::string& library,
                              const std::vector<std::pair<std::string, std::string>>& options) {
  std::string yaml = "devices:\n  - name: " + quoted(name) + "\n    library: " + quoted(library) + "\n";
  if (!options.empty()) {
    yaml += "    options:\n";
    for (const auto& [key, value] : options)
      yaml += "      " + quoted(key) + ": " + quoted(value) + "\n";
  }
  yaml += "policy:\n  fallback_device: null\n";
  LoadedDevice loaded;
  auto config = config::parseConfig(yaml, pluginDir / "test-runtime.yaml", pluginDir);
  if (!config) {
    loaded.error = config.error().message;
    return loaded;
  }
  loaded.registry = DeviceRegistry::create(std::move(*config));
  if (!loaded.registry->devices().empty()) {
    loaded.device = loaded.registry->devices().front();
  } else if (!loaded.registry->skipped().empty()) {
    loaded.error = loaded.registry->skipped().front().reason;
  } else {
    loaded.error = "the registry loaded no device";
  }
  return loaded;
}

}  // namespace nnrt::test
