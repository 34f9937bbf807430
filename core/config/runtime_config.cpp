#include "core/config/runtime_config.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "nnrt/driver/types.hpp"

namespace nnrt::config {
namespace {

// Walks the YAML tree; every problem becomes "file:line: key: what".
class Reader {
 public:
  explicit Reader(std::filesystem::path file) : file_(std::move(file)) {}

  Error error(const YAML::Node& node, const std::string& key, const std::string& what) const {
    int line = node.IsDefined() ? node.Mark().line + 1 : 0;
    return at(line, key, what);
  }
  Error at(int line, const std::string& key, const std::string& what) const {
    std::string where = file_.string();
    if (line > 0) where += ":" + std::to_string(line);
    return Error{ResultCode::BAD_DATA, where + ": " + key + ": " + what};
  }

  // Checks that `node` is a map whose keys are all in `allowed` and unique.
  Result<void> checkMap(const YAML::Node& node, const std::string& key, std::initializer_list<const char*> allowed) const {
    if (!node.IsMap()) return Unexpected(error(node, key, "expected a mapping"));
    std::set<std::string> seen;
    for (const auto& item : node) {
      std::string name = item.first.as<std::string>();
      bool known = false;
      for (const char* a : allowed) known = known || name == a;
      std::string path = key.empty() ? name : key + "." + name;
      if (!known) {
        std::string list;
        for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
        return Unexpected(error(item.first, path, "unknown key (expected one of: " + list + ")"));
      }
      if (!seen.insert(name).second) return Unexpected(error(item.first, path, "duplicate key"));
    }
    return {};
  }

  Result<std::string> string(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) return Unexpected(error(node, key, "expected a string"));
    return node.Scalar();
  }
  Result<bool> boolean(const YAML::Node& node, const std::string& key) const {
    bool value = false;
    if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
      return Unexpected(error(node, key, "expected true or false, got '" + describe(node) + "'"));
    }
    return value;
  }
  Result<float> positiveNumber(const YAML::Node& node, const std::string& key) const {
    if (node.IsScalar()) {
      char* end = nullptr;
      const std::string& s = node.Scalar();
      float v = std::strtof(s.c_str(), &end);
      if (!s.empty() && end == s.c_str() + s.size() && std::isfinite(v) && v > 0) return v;
    }
    return Unexpected(error(node, key, "expected a number > 0, got '" + describe(node) + "'"));
  }
  Result<uint32_t> unsignedNumber(const YAML::Node& node, const std::string& key) const {
    if (node.IsScalar()) {
      char* end = nullptr;
      const std::string& s = node.Scalar();
      unsigned long v = std::strtoul(s.c_str(), &end, 10);
      if (!s.empty() && s[0] != '-' && end == s.c_str() + s.size() && v <= UINT32_MAX) return static_cast<uint32_t>(v);
    }
    return Unexpected(error(node, key, "expected a whole number >= 0, got '" + describe(node) + "'"));
  }
  Result<std::vector<std::string>> stringList(const YAML::Node& node, const std::string& key) const {
    if (!node.IsSequence()) return Unexpected(error(node, key, "expected a list"));
    std::vector<std::string> out;
    for (size_t i = 0; i < node.size(); ++i) {
      NNRT_ASSIGN_OR_RETURN(std::string s, string(node[i], key + "[" + std::to_string(i) + "]"));
      out.push_back(std::move(s));
    }
    return out;
  }
  Result<int32_t> operationType(const YAML::Node& node, const std::string& key) const {
    NNRT_ASSIGN_OR_RETURN(std::string name, string(node, key));
    for (int32_t t = 0; t < 200; ++t) {
      const char* n = driver::operationTypeName(t);
      if (n != nullptr && name == n) return t;
    }
    return Unexpected(error(node, key, "'" + name + "' is not an NNAPI operation name (e.g. CONV_2D)"));
  }
  Result<nnrt_perf_info> perf(const YAML::Node& node, const std::string& key) const {
    NNRT_RETURN_IF_ERROR(checkMap(node, key, {"exec_time", "power_usage"}));
    if (!node["exec_time"] || !node["power_usage"]) {
      return Unexpected(error(node, key, "needs both exec_time and power_usage"));
    }
    NNRT_ASSIGN_OR_RETURN(float exec, positiveNumber(node["exec_time"], key + ".exec_time"));
    NNRT_ASSIGN_OR_RETURN(float power, positiveNumber(node["power_usage"], key + ".power_usage"));
    return nnrt_perf_info{exec, power};
  }

  static std::string describe(const YAML::Node& node) {
    if (node.IsScalar()) return node.Scalar();
    if (node.IsMap()) return "a mapping";
    if (node.IsSequence()) return "a list";
    return "nothing";
  }

 private:
  std::filesystem::path file_;
};

Result<PerformanceOverride> parsePerformance(const Reader& r, const YAML::Node& node, const std::string& key) {
  if (!node.IsMap()) return Unexpected(r.error(node, key, "expected a mapping"));
  PerformanceOverride out;
  for (const auto& item : node) {
    std::string name = item.first.as<std::string>();
    std::string path = key + "." + name;
    NNRT_ASSIGN_OR_RETURN(nnrt_perf_info info, r.perf(item.second, path));
    if (name == "default") {
      out.all = info;
    } else if (name == "relaxed_scalar") {
      out.relaxedScalar = info;
    } else if (name == "relaxed_tensor") {
      out.relaxedTensor = info;
    } else if (name == "if") {
      out.ifPerformance = info;
    } else if (name == "while") {
      out.whilePerformance = info;
    } else {
      bool found = false;
      for (int32_t t = 0; t <= 15 && !found; ++t) {
        const char* n = driver::operandTypeName(t);
        if (n != nullptr && name == n) {
          if (!out.byType.emplace(t, info).second) return Unexpected(r.error(item.first, path, "duplicate key"));
          found = true;
        }
      }
      if (!found) {
        return Unexpected(r.error(item.first, path,
                                  "unknown key (expected default, relaxed_scalar, relaxed_tensor, if, while or an "
                                  "operand type such as TENSOR_FLOAT32)"));
      }
    }
  }
  return out;
}

std::filesystem::path resolveLibrary(const std::string& library, const std::filesystem::path& file,
                                     const std::filesystem::path& pluginDir) {
  std::filesystem::path p(library);
  if (p.is_absolute()) return p;
  if (library.find('/') == std::string::npos) return pluginDir / p;  // bare name: the plugin folder
  return file.parent_path() / p;                                       // relative to the config file
}

Result<DeviceConfig> parseDevice(const Reader& r, const YAML::Node& node, const std::string& key,
                                 const std::filesystem::path& file, const std::filesystem::path& pluginDir) {
  NNRT_RETURN_IF_ERROR(r.checkMap(node, key,
                                  {"name", "library", "enabled", "watchdog", "isolation", "isolation_spin_us",
                                   "options", "performance"}));
  DeviceConfig d;
  d.line = node.Mark().line + 1;
  if (!node["name"]) return Unexpected(r.error(node, key + ".name", "missing"));
  if (!node["library"]) return Unexpected(r.error(node, key + ".library", "missing"));
  NNRT_ASSIGN_OR_RETURN(d.name, r.string(node["name"], key + ".name"));
  if (d.name.empty() || d.name.find_first_of(" \t,:") != std::string::npos) {
    return Unexpected(r.error(node["name"], key + ".name", "'" + d.name + "' must be non-empty without spaces, ',' or ':'"));
  }
  NNRT_ASSIGN_OR_RETURN(d.library, r.string(node["library"], key + ".library"));
  if (d.library.empty()) return Unexpected(r.error(node["library"], key + ".library", "must not be empty"));
  d.libraryPath = resolveLibrary(d.library, file, pluginDir);
  if (node["enabled"]) {
    NNRT_ASSIGN_OR_RETURN(d.enabled, r.boolean(node["enabled"], key + ".enabled"));
  }
  if (node["watchdog"]) {
    NNRT_ASSIGN_OR_RETURN(d.watchdog, r.boolean(node["watchdog"], key + ".watchdog"));
  }
  if (node["isolation"]) {
    NNRT_ASSIGN_OR_RETURN(std::string isolation, r.string(node["isolation"], key + ".isolation"));
    if (isolation == "in-process") {
      d.isolation = Isolation::InProcess;
    } else if (isolation == "process") {
      d.isolation = Isolation::Process;
    } else {
      return Unexpected(
          r.error(node["isolation"], key + ".isolation", "'" + isolation + "' is not in-process or process"));
    }
  }
  if (const YAML::Node spin = node["isolation_spin_us"]) {
    NNRT_ASSIGN_OR_RETURN(uint32_t us, r.unsignedNumber(spin, key + ".isolation_spin_us"));
    if (d.isolation != Isolation::Process) {
      return Unexpected(
          r.error(spin, key + ".isolation_spin_us", "applies only to a device with isolation: process"));
    }
    if (std::chrono::microseconds(us) > kMaxIsolationSpin) {
      return Unexpected(
          r.error(spin, key + ".isolation_spin_us",
                  std::to_string(us) + " is more than " + std::to_string(kMaxIsolationSpin.count())));
    }
    d.isolationSpin = std::chrono::microseconds(us);
  }
  if (const YAML::Node options = node["options"]) {
    if (!options.IsMap()) return Unexpected(r.error(options, key + ".options", "expected a mapping of strings"));
    for (const auto& item : options) {
      std::string name = item.first.as<std::string>();
      NNRT_ASSIGN_OR_RETURN(std::string value, r.string(item.second, key + ".options." + name));
      d.options.emplace_back(name, value);
    }
  }
  if (const YAML::Node perf = node["performance"]) {
    NNRT_ASSIGN_OR_RETURN(d.performance, parsePerformance(r, perf, key + ".performance"));
  }
  return d;
}

Result<void> parsePolicy(const Reader& r, const YAML::Node& node, const std::filesystem::path& file,
                         PolicyConfig& policy) {
  NNRT_RETURN_IF_ERROR(r.checkMap(node, "policy",
                                  {"preference", "partitioning", "fallback_device", "device_order", "pins", "deny",
                                   "extensions", "health_check_interval_ms"}));
  if (const YAML::Node n = node["preference"]) {
    NNRT_ASSIGN_OR_RETURN(std::string s, r.string(n, "policy.preference"));
    auto p = parsePreference(s);
    if (!p) {
      return Unexpected(r.error(n, "policy.preference", "'" + s + "' is not low-power, fast-single-answer or sustained-speed"));
    }
    policy.preference = *p;
  }
  if (const YAML::Node n = node["partitioning"]) {
    NNRT_ASSIGN_OR_RETURN(std::string s, r.string(n, "policy.partitioning"));
    if (s == "with-fallback") {
      policy.partitioning = PartitioningMode::WithFallback;
    } else if (s == "without-fallback") {
      policy.partitioning = PartitioningMode::WithoutFallback;
    } else if (s == "disabled") {
      policy.partitioning = PartitioningMode::Disabled;
    } else {
      return Unexpected(r.error(n, "policy.partitioning", "'" + s + "' is not with-fallback, without-fallback or disabled"));
    }
  }
  if (const YAML::Node n = node["fallback_device"]) {
    if (n.IsNull()) {
      policy.fallbackDevice.clear();
    } else {
      NNRT_ASSIGN_OR_RETURN(policy.fallbackDevice, r.string(n, "policy.fallback_device"));
    }
  }
  if (const YAML::Node n = node["device_order"]) {
    NNRT_ASSIGN_OR_RETURN(policy.deviceOrder, r.stringList(n, "policy.device_order"));
  }
  if (const YAML::Node n = node["pins"]) {
    if (!n.IsMap()) return Unexpected(r.error(n, "policy.pins", "expected a mapping OPERATION: device"));
    for (const auto& item : n) {
      std::string key = "policy.pins." + item.first.as<std::string>();
      NNRT_ASSIGN_OR_RETURN(int32_t op, r.operationType(item.first, key));
      NNRT_ASSIGN_OR_RETURN(std::string device, r.string(item.second, key));
      if (!policy.pins.emplace(op, device).second) return Unexpected(r.error(item.first, key, "duplicate key"));
    }
  }
  if (const YAML::Node n = node["deny"]) {
    if (!n.IsMap()) return Unexpected(r.error(n, "policy.deny", "expected a mapping device: [OPERATION, ...]"));
    for (const auto& item : n) {
      std::string device = item.first.as<std::string>();
      std::string key = "policy.deny." + device;
      if (!item.second.IsSequence()) return Unexpected(r.error(item.second, key, "expected a list of operation names"));
      auto& set = policy.deny[device];
      for (size_t i = 0; i < item.second.size(); ++i) {
        NNRT_ASSIGN_OR_RETURN(int32_t op, r.operationType(item.second[i], key + "[" + std::to_string(i) + "]"));
        set.insert(op);
      }
    }
  }
  if (const YAML::Node n = node["extensions"]) {
    NNRT_RETURN_IF_ERROR(r.checkMap(n, "policy.extensions", {"allow", "allowlist"}));
    if (const YAML::Node a = n["allow"]) {
      NNRT_ASSIGN_OR_RETURN(std::string s, r.string(a, "policy.extensions.allow"));
      auto access = allowlist::parseExtensionAccess(s);
      if (!access) return Unexpected(r.error(a, "policy.extensions.allow", "'" + s + "' is not all, allowlist or none"));
      policy.extensionAccess = *access;
    }
    if (const YAML::Node a = n["allowlist"]) {
      NNRT_ASSIGN_OR_RETURN(std::string s, r.string(a, "policy.extensions.allowlist"));
      std::filesystem::path p(s);
      policy.allowlistPath = p.is_absolute() ? p : file.parent_path() / p;
      policy.allowlistFromConfig = p;
    }
  }
  if (const YAML::Node n = node["health_check_interval_ms"]) {
    NNRT_ASSIGN_OR_RETURN(policy.healthCheckIntervalMs, r.unsignedNumber(n, "policy.health_check_interval_ms"));
  }
  return {};
}

}  // namespace

Result<RuntimeConfig> parseConfig(const std::string& text, const std::filesystem::path& file,
                                  const std::filesystem::path& pluginDir) {
  Reader r(file);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    return Unexpected(r.at(e.mark.line + 1, "(syntax)", e.msg));
  }
  RuntimeConfig config;
  config.file = file;
  if (root.IsNull()) return config;  // an empty file: no devices, default policy
  try {
    NNRT_RETURN_IF_ERROR(r.checkMap(root, "", {"version", "devices", "policy"}));
    if (const YAML::Node v = root["version"]) {
      NNRT_ASSIGN_OR_RETURN(uint32_t version, r.unsignedNumber(v, "version"));
      if (version != 1) return Unexpected(r.error(v, "version", "this runtime reads version 1, not " + std::to_string(version)));
    }
    if (const YAML::Node devices = root["devices"]) {
      if (!devices.IsSequence()) return Unexpected(r.error(devices, "devices", "expected a list of devices"));
      std::map<std::string, int> lines;
      for (size_t i = 0; i < devices.size(); ++i) {
        std::string key = "devices[" + std::to_string(i) + "]";
        NNRT_ASSIGN_OR_RETURN(DeviceConfig d, parseDevice(r, devices[i], key, file, pluginDir));
        if (auto [it, inserted] = lines.emplace(d.name, d.line); !inserted) {
          return Unexpected(r.error(devices[i]["name"], key + ".name",
                                    "duplicate device name '" + d.name + "' (first at line " + std::to_string(it->second) + ")"));
        }
        config.devices.push_back(std::move(d));
      }
    }
    if (const YAML::Node policy = root["policy"]) {
      NNRT_RETURN_IF_ERROR(parsePolicy(r, policy, file, config.policy));
    }
  } catch (const YAML::Exception& e) {
    return Unexpected(r.at(e.mark.line + 1, "(structure)", e.msg));
  }
  return config;
}

Result<RuntimeConfig> loadConfig(const std::filesystem::path& file, const std::filesystem::path& pluginDir) {
  std::ifstream in(file);
  if (!in) return fail(ResultCode::BAD_DATA, file.string() + ": cannot open the configuration file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parseConfig(buffer.str(), std::filesystem::absolute(file).lexically_normal(), pluginDir);
}

InstallDirs installDirs() {
#if defined(NNRT_BIN_TO_LIB) && defined(NNRT_LIB_TO_PLUGINS) && defined(NNRT_LIB_TO_CONFIG)
  return {NNRT_BIN_TO_LIB, NNRT_LIB_TO_PLUGINS, NNRT_LIB_TO_CONFIG};
#else
  return {"../lib", "nnrt", "../etc/nnrt"};
#endif
}

RuntimeLayout locateRuntime(const std::filesystem::path& selfDir, const InstallDirs& dirs) {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto isDir = [&ec](const fs::path& p) { return fs::is_directory(p, ec); };
  auto normal = [](const fs::path& p) { return fs::absolute(p).lexically_normal(); };

  // An installation has <libdir>/<libToPlugins>; selfDir is <libdir> or <bindir>.
  std::optional<fs::path> libDir;
  if (isDir(selfDir / dirs.libToPlugins)) {
    libDir = selfDir;
  } else if (isDir(selfDir / dirs.binToLib / dirs.libToPlugins)) {
    libDir = selfDir / dirs.binToLib;
  }
  RuntimeLayout layout;
  fs::path buildLib = selfDir / ".." / "lib";  // the build tree: build/lib and build/bin
  layout.pluginDir = normal(libDir ? *libDir / dirs.libToPlugins : buildLib);
  if (const char* env = std::getenv("NNRT_PLUGIN_DIR"); env != nullptr && *env != '\0') layout.pluginDir = env;
  layout.driverHost = normal(libDir ? *libDir / dirs.libToPlugins / "nnrt-driver-host"
                                    : selfDir / ".." / "bin" / "nnrt-driver-host");
  if (const char* env = std::getenv("NNRT_DRIVER_HOST"); env != nullptr && *env != '\0')
    layout.driverHost = env;

  if (const char* env = std::getenv("NNRT_CONFIG"); env != nullptr && *env != '\0') {
    layout.configFile = env;
    return layout;
  }
  for (const fs::path& candidate : {libDir ? *libDir / dirs.libToConfig / "runtime.yaml" : fs::path(),
                                    buildLib / ".." / "etc" / "nnrt" / "runtime.yaml"}) {
    if (!candidate.empty() && fs::exists(candidate, ec)) {
      layout.configFile = normal(candidate);
      return layout;
    }
  }
  layout.configFile = "/etc/nnrt/runtime.yaml";
  return layout;
}

const char* isolationName(Isolation isolation) {
  return isolation == Isolation::Process ? "process" : "in-process";
}

const char* partitioningModeName(PartitioningMode mode) {
  switch (mode) {
    case PartitioningMode::WithFallback: return "with-fallback";
    case PartitioningMode::WithoutFallback: return "without-fallback";
    case PartitioningMode::Disabled: return "disabled";
  }
  return "?";
}

const char* preferenceName(int32_t preference) {
  switch (preference) {
    case NNRT_PREFER_LOW_POWER: return "low-power";
    case NNRT_PREFER_FAST_SINGLE_ANSWER: return "fast-single-answer";
    case NNRT_PREFER_SUSTAINED_SPEED: return "sustained-speed";
  }
  return "?";
}

std::optional<int32_t> parsePreference(const std::string& text) {
  if (text == "low-power") return NNRT_PREFER_LOW_POWER;
  if (text == "fast-single-answer") return NNRT_PREFER_FAST_SINGLE_ANSWER;
  if (text == "sustained-speed") return NNRT_PREFER_SUSTAINED_SPEED;
  return std::nullopt;
}

}  // namespace nnrt::config
