// configs/runtime.yaml as typed structs. Every key is documented in docs/configuration.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "allowlist/allowlist.hpp"
#include "core/support/status.hpp"
#include "nnrt/driver/nnrt_driver.h"

namespace nnrt::config {

// Declared performance numbers that replace what a driver reports (lower is better, CPU = 1.0).
struct PerformanceOverride {
  std::optional<nnrt_perf_info> all;             // every operand type the device lists
  std::map<int32_t, nnrt_perf_info> byType;      // one operand type (added if the device lacks it)
  std::optional<nnrt_perf_info> relaxedScalar;
  std::optional<nnrt_perf_info> relaxedTensor;
  std::optional<nnrt_perf_info> ifPerformance;
  std::optional<nnrt_perf_info> whilePerformance;
  bool empty() const {
    return !all && byType.empty() && !relaxedScalar && !relaxedTensor && !ifPerformance && !whilePerformance;
  }
};

// Where a device's driver runs: loaded into the application's process, or in a driver host process
// of its own (core/device/remote_driver.hpp) that may crash without taking the application down.
enum class Isolation { InProcess, Process };
const char* isolationName(Isolation isolation);
// With `isolation: process`, how long each side of a synchronous execution polls for the other
// before it sleeps (core/device/host_connection.hpp, docs/runtime.md): about twice what waking a
// sleeping thread of another process costs on a small VM (~20 µs), so that back-to-back executions
// never sleep and an idle host stops polling within 50 µs of its last call. 0: no polling (every
// execution over the socket).
constexpr std::chrono::microseconds kDefaultIsolationSpin{50};
constexpr std::chrono::microseconds kMaxIsolationSpin{10'000};

struct DeviceConfig {
  std::string name;                    // unique; the device name (suffixed when a plugin offers several)
  std::string library;                 // as written in the file
  std::filesystem::path libraryPath;   // resolved: absolute, relative to the config file, or in the plugin dir
  bool enabled = true;
  // Calls into the driver run on a watchdog's worker thread, every wait bounded (see DriverGuard);
  // off: on the caller's thread, for a driver one trusts to return (the built-in cpu).
  bool watchdog = true;
  Isolation isolation = Isolation::InProcess;
  std::chrono::microseconds isolationSpin = kDefaultIsolationSpin;  // isolation_spin_us
  std::vector<std::pair<std::string, std::string>> options;  // passed to the plugin's open()
  PerformanceOverride performance;
  int line = 0;                        // 1-based line of the entry, for messages
};

enum class PartitioningMode { WithFallback, WithoutFallback, Disabled };
using allowlist::ExtensionAccess;

struct PolicyConfig {
  int32_t preference = NNRT_PREFER_FAST_SINGLE_ANSWER;  // when the application sets none
  PartitioningMode partitioning = PartitioningMode::WithFallback;
  std::string fallbackDevice = "cpu";                   // "" = no fallback
  std::vector<std::string> deviceOrder;                 // tie-break order; unlisted devices follow in file order
  std::map<int32_t, std::string> pins;                  // operation type -> device or device entry name
  std::map<std::string, std::set<int32_t>> deny;        // device or entry name -> operation types it must not run
  ExtensionAccess extensionAccess = ExtensionAccess::Allowlist;
  std::filesystem::path allowlistPath;                  // resolved against the config file; empty = none
  std::filesystem::path allowlistFromConfig;            // as the file writes it
  uint32_t healthCheckIntervalMs = 1000;                // 0 = no periodic getStatus check
};

struct RuntimeConfig {
  std::filesystem::path file;  // where it was read from ("" for built-in defaults)
  std::vector<DeviceConfig> devices;
  PolicyConfig policy;
};

// Parses YAML text. `file` names the source in messages and anchors relative paths; `pluginDir` is
// where bare library file names are looked up. Errors are BAD_DATA with "file:line: key: problem".
Result<RuntimeConfig> parseConfig(const std::string& text, const std::filesystem::path& file,
                                  const std::filesystem::path& pluginDir);
Result<RuntimeConfig> loadConfig(const std::filesystem::path& file, const std::filesystem::path& pluginDir);

// Where an installation keeps its parts, as paths relative to one another (fixed at configure time
// from CMake's install directories, so an installed prefix can be moved as a whole).
struct InstallDirs {
  std::filesystem::path binToLib;      // from the programs' folder to the libraries' (e.g. ../lib)
  std::filesystem::path libToPlugins;  // from the libraries' folder to the plugins' (nnrt)
  std::filesystem::path libToConfig;   // from the libraries' folder to the configuration's (../etc/nnrt)
};
InstallDirs installDirs();

// Where the runtime finds the plugins named without a path and its configuration file.
struct RuntimeLayout {
  std::filesystem::path pluginDir;
  std::filesystem::path configFile;
  std::filesystem::path driverHost;  // nnrt-driver-host, for devices with `isolation: process`
};

// Locates them from `selfDir`, the folder the runtime's code was loaded from: <libdir> for
// libneuralnetworks.so, <bindir> for a program that links the runtime statically (nnrt).
// - Installed (cmake --install, the Debian package): plugins in <libdir>/<libToPlugins>, the
//   configuration in <libdir>/<libToConfig>/runtime.yaml.
// - The build tree: plugins in build/lib, the configuration in build/etc/nnrt/runtime.yaml.
// The driver host program is installed in the plugin folder, and built in build/bin
// ($NNRT_DRIVER_HOST wins). $NNRT_PLUGIN_DIR and $NNRT_CONFIG win; the last resort for the configuration is
// /etc/nnrt/runtime.yaml.
RuntimeLayout locateRuntime(const std::filesystem::path& selfDir, const InstallDirs& dirs = installDirs());

const char* partitioningModeName(PartitioningMode mode);
const char* preferenceName(int32_t preference);
// "low-power" | "fast-single-answer" | "sustained-speed" -> PreferenceCode.
std::optional<int32_t> parsePreference(const std::string& text);

}  // namespace nnrt::config
