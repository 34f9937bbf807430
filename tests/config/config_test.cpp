// runtime.yaml parsing: a complete good file, and each kind of malformed file with the exact
// file:line: key in the error.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include "core/config/runtime_config.hpp"

namespace nnrt::config {
namespace {

const std::filesystem::path kFile = "/etc/nnrt/runtime.yaml";
const std::filesystem::path kPlugins = "/opt/nnrt/lib";

Result<RuntimeConfig> parse(const std::string& text) { return parseConfig(text, kFile, kPlugins); }

std::string errorOf(const std::string& text) {
  auto r = parse(text);
  EXPECT_FALSE(r.has_value()) << "expected an error for:\n" << text;
  if (r.has_value()) return "";
  EXPECT_EQ(r.error().code, ResultCode::BAD_DATA);
  return r.error().message;
}

TEST(ConfigTest, CompleteFile) {
  auto r = parse(R"(version: 1
devices:
  - name: cpu
    library: libnnrt_driver_cpu.so
    options:
      threads: "2"
  - name: gpu
    library: ../plugins/libgpu.so
    enabled: false
    performance:
      default: {exec_time: 0.5, power_usage: 2.0}
      TENSOR_QUANT8_ASYMM: {exec_time: 0.25, power_usage: 1.5}
      relaxed_tensor: {exec_time: 0.1, power_usage: 0.9}
  - name: fib
    library: /usr/lib/libfib.so
policy:
  preference: low-power
  partitioning: without-fallback
  fallback_device: gpu
  device_order: [gpu, cpu]
  pins:
    CONV_2D: gpu
  deny:
    cpu: [SOFTMAX, FULLY_CONNECTED]
  extensions:
    allow: none
    allowlist: lists/allow.txt
  health_check_interval_ms: 250
)");
  ASSERT_TRUE(r.has_value()) << r.error().message;
  const RuntimeConfig& c = *r;
  ASSERT_EQ(c.devices.size(), 3u);
  EXPECT_EQ(c.devices[0].name, "cpu");
  EXPECT_EQ(c.devices[0].libraryPath, kPlugins / "libnnrt_driver_cpu.so");  // bare name: plugin folder
  EXPECT_EQ(c.devices[0].line, 3);
  ASSERT_EQ(c.devices[0].options.size(), 1u);
  EXPECT_EQ(c.devices[0].options[0], (std::pair<std::string, std::string>{"threads", "2"}));
  EXPECT_TRUE(c.devices[0].enabled);
  EXPECT_EQ(c.devices[1].libraryPath, std::filesystem::path("/etc/nnrt/../plugins/libgpu.so"));  // relative to the file
  EXPECT_FALSE(c.devices[1].enabled);
  ASSERT_TRUE(c.devices[1].performance.all.has_value());
  EXPECT_FLOAT_EQ(c.devices[1].performance.all->exec_time, 0.5f);
  EXPECT_FLOAT_EQ(c.devices[1].performance.all->power_usage, 2.0f);
  ASSERT_EQ(c.devices[1].performance.byType.count(5), 1u);  // TENSOR_QUANT8_ASYMM = 5
  EXPECT_FLOAT_EQ(c.devices[1].performance.byType.at(5).exec_time, 0.25f);
  EXPECT_FLOAT_EQ(c.devices[1].performance.relaxedTensor->exec_time, 0.1f);
  EXPECT_EQ(c.devices[2].libraryPath, std::filesystem::path("/usr/lib/libfib.so"));
  EXPECT_EQ(c.policy.preference, NNRT_PREFER_LOW_POWER);
  EXPECT_EQ(c.policy.partitioning, PartitioningMode::WithoutFallback);
  EXPECT_EQ(c.policy.fallbackDevice, "gpu");
  EXPECT_EQ(c.policy.deviceOrder, (std::vector<std::string>{"gpu", "cpu"}));
  EXPECT_EQ(c.policy.pins.at(3), "gpu");  // CONV_2D = 3
  EXPECT_EQ(c.policy.deny.at("cpu"), (std::set<int32_t>{25, 9}));  // SOFTMAX, FULLY_CONNECTED
  EXPECT_EQ(c.policy.extensionAccess, ExtensionAccess::None);
  EXPECT_EQ(c.policy.allowlistPath, std::filesystem::path("/etc/nnrt/lists/allow.txt"));
  EXPECT_EQ(c.policy.healthCheckIntervalMs, 250u);
}

TEST(ConfigTest, DefaultsForAnEmptyFileAndAnEmptyPolicy) {
  auto r = parse("");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->devices.empty());
  EXPECT_EQ(r->policy.preference, NNRT_PREFER_FAST_SINGLE_ANSWER);
  EXPECT_EQ(r->policy.partitioning, PartitioningMode::WithFallback);
  EXPECT_EQ(r->policy.fallbackDevice, "cpu");
  EXPECT_EQ(r->policy.extensionAccess, ExtensionAccess::Allowlist);
  EXPECT_EQ(r->policy.healthCheckIntervalMs, 1000u);
}

TEST(ConfigTest, SyntaxErrorNamesFileAndLine) {
  std::string e = errorOf("devices:\n  - name: cpu\n    library: [unclosed\n");
  EXPECT_NE(e.find("/etc/nnrt/runtime.yaml:"), std::string::npos) << e;
  EXPECT_NE(e.find("(syntax)"), std::string::npos) << e;
}

TEST(ConfigTest, UnknownTopLevelKey) {
  EXPECT_EQ(errorOf("version: 1\ndevcies: []\n"),
            "/etc/nnrt/runtime.yaml:2: devcies: unknown key (expected one of: version, devices, policy)");
}

TEST(ConfigTest, TheWatchdogIsOnUnlessADeviceTurnsItOff) {
  auto config = parseConfig("devices:\n  - name: a\n    library: a.so\n  - name: b\n    library: b.so\n    watchdog: false\n",
                            "/etc/nnrt/runtime.yaml", "/opt/plugins");
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_TRUE(config->devices[0].watchdog);
  EXPECT_FALSE(config->devices[1].watchdog);
  EXPECT_EQ(errorOf("devices:\n  - name: a\n    library: a.so\n    watchdog: maybe\n"),
            "/etc/nnrt/runtime.yaml:4: devices[0].watchdog: expected true or false, got 'maybe'");
}

TEST(ConfigTest, UnknownDeviceKey) {
  std::string e = errorOf("devices:\n  - name: cpu\n    library: a.so\n    enable: true\n");
  EXPECT_EQ(
      e,
      "/etc/nnrt/runtime.yaml:4: devices[0].enable: unknown key (expected one of: name, library, enabled, "
      "watchdog, isolation, isolation_spin_us, options, performance)");
}

TEST(ConfigTest, DevicesRunInProcessUnlessIsolated) {
  auto config = parseConfig(
      "devices:\n  - name: a\n    library: a.so\n  - name: b\n    library: b.so\n"
      "    isolation: process\n  - name: c\n    library: c.so\n    isolation: in-process\n",
      "/etc/nnrt/runtime.yaml", "/opt/plugins");
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config->devices[0].isolation, Isolation::InProcess);
  EXPECT_EQ(config->devices[1].isolation, Isolation::Process);
  EXPECT_EQ(config->devices[2].isolation, Isolation::InProcess);
  EXPECT_STREQ(isolationName(Isolation::Process), "process");
  EXPECT_EQ(errorOf("devices:\n  - name: a\n    library: a.so\n    isolation: sandbox\n"),
            "/etc/nnrt/runtime.yaml:4: devices[0].isolation: 'sandbox' is not in-process or process");
}

TEST(ConfigTest, IsolationSpinIsMicrosecondsForProcessDevicesOnly) {
  auto config = parseConfig(
      "devices:\n  - name: a\n    library: a.so\n    isolation: process\n"
      "  - name: b\n    library: b.so\n    isolation: process\n    isolation_spin_us: 0\n"
      "  - name: c\n    library: c.so\n    isolation: process\n    isolation_spin_us: 10000\n",
      "/etc/nnrt/runtime.yaml", "/opt/plugins");
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config->devices[0].isolationSpin, std::chrono::microseconds(50));  // the default
  EXPECT_EQ(config->devices[1].isolationSpin, std::chrono::microseconds(0));
  EXPECT_EQ(config->devices[2].isolationSpin, std::chrono::microseconds(10000));
  EXPECT_EQ(
      errorOf("devices:\n  - name: a\n    library: a.so\n    isolation_spin_us: 20\n"),
      "/etc/nnrt/runtime.yaml:4: devices[0].isolation_spin_us: applies only to a device with isolation: "
      "process");
  EXPECT_EQ(errorOf("devices:\n  - name: a\n    library: a.so\n    isolation: process\n"
                    "    isolation_spin_us: 10001\n"),
            "/etc/nnrt/runtime.yaml:5: devices[0].isolation_spin_us: 10001 is more than 10000");
}

TEST(ConfigTest, WrongTypeNamesTheKey) {
  std::string e = errorOf("devices:\n  - name: cpu\n    library: a.so\n    enabled: maybe\n");
  EXPECT_EQ(e, "/etc/nnrt/runtime.yaml:4: devices[0].enabled: expected true or false, got 'maybe'");
  e = errorOf("policy:\n  health_check_interval_ms: -5\n");
  EXPECT_EQ(e, "/etc/nnrt/runtime.yaml:2: policy.health_check_interval_ms: expected a whole number >= 0, got '-5'");
  e = errorOf("devices:\n  - name: cpu\n    library: a.so\n    options: [a, b]\n");
  EXPECT_EQ(e, "/etc/nnrt/runtime.yaml:4: devices[0].options: expected a mapping of strings");
  e = errorOf("devices: {name: cpu}\n");
  EXPECT_EQ(e, "/etc/nnrt/runtime.yaml:1: devices: expected a list of devices");
}

TEST(ConfigTest, DuplicateDeviceName) {
  std::string e = errorOf("devices:\n  - name: cpu\n    library: a.so\n  - name: cpu\n    library: b.so\n");
  EXPECT_EQ(e, "/etc/nnrt/runtime.yaml:4: devices[1].name: duplicate device name 'cpu' (first at line 2)");
}

TEST(ConfigTest, DuplicateKey) {
  std::string e = errorOf("policy:\n  preference: low-power\n  preference: sustained-speed\n");
  EXPECT_EQ(e, "/etc/nnrt/runtime.yaml:3: policy.preference: duplicate key");
}

TEST(ConfigTest, MissingRequiredKeys) {
  EXPECT_EQ(errorOf("devices:\n  - name: cpu\n"), "/etc/nnrt/runtime.yaml:2: devices[0].library: missing");
  EXPECT_EQ(errorOf("devices:\n  - library: a.so\n"), "/etc/nnrt/runtime.yaml:2: devices[0].name: missing");
}

TEST(ConfigTest, BadValues) {
  EXPECT_EQ(errorOf("policy:\n  preference: fastest\n"),
            "/etc/nnrt/runtime.yaml:2: policy.preference: 'fastest' is not low-power, fast-single-answer or "
            "sustained-speed");
  EXPECT_EQ(errorOf("policy:\n  partitioning: sometimes\n"),
            "/etc/nnrt/runtime.yaml:2: policy.partitioning: 'sometimes' is not with-fallback, without-fallback or "
            "disabled");
  EXPECT_EQ(errorOf("policy:\n  pins:\n    CONV2D: gpu\n"),
            "/etc/nnrt/runtime.yaml:3: policy.pins.CONV2D: 'CONV2D' is not an NNAPI operation name (e.g. CONV_2D)");
  EXPECT_EQ(errorOf("policy:\n  deny:\n    cpu: [ADD, NOPE]\n"),
            "/etc/nnrt/runtime.yaml:3: policy.deny.cpu[1]: 'NOPE' is not an NNAPI operation name (e.g. CONV_2D)");
  EXPECT_EQ(errorOf("policy:\n  extensions:\n    allow: some\n"),
            "/etc/nnrt/runtime.yaml:3: policy.extensions.allow: 'some' is not all, allowlist or none");
  EXPECT_EQ(errorOf("devices:\n  - name: a b\n    library: x.so\n"),
            "/etc/nnrt/runtime.yaml:2: devices[0].name: 'a b' must be non-empty without spaces, ',' or ':'");
  EXPECT_EQ(errorOf("version: 2\n"), "/etc/nnrt/runtime.yaml:1: version: this runtime reads version 1, not 2");
  std::string e = errorOf("devices:\n  - name: g\n    library: g.so\n    performance:\n      default: {exec_time: 0}\n");
  EXPECT_EQ(e, "/etc/nnrt/runtime.yaml:5: devices[0].performance.default: needs both exec_time and power_usage");
  e = errorOf(
      "devices:\n  - name: g\n    library: g.so\n    performance:\n      TENSOR_FLOAT32: {exec_time: -1, power_usage: 1}\n");
  EXPECT_EQ(e,
            "/etc/nnrt/runtime.yaml:5: devices[0].performance.TENSOR_FLOAT32.exec_time: expected a number > 0, got "
            "'-1'");
}

TEST(ConfigTest, LoadConfigReportsAMissingFile) {
  auto r = loadConfig("/nonexistent/nnrt.yaml", kPlugins);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, "/nonexistent/nnrt.yaml: cannot open the configuration file");
}

TEST(ConfigTest, NnrtConfigOverridesTheDefaultPath) {
  ::setenv("NNRT_CONFIG", "/tmp/elsewhere.yaml", 1);
  EXPECT_EQ(locateRuntime("/opt/nnrt/lib").configFile, std::filesystem::path("/tmp/elsewhere.yaml"));
  ::unsetenv("NNRT_CONFIG");
  EXPECT_EQ(locateRuntime("/nonexistent/lib").configFile, std::filesystem::path("/etc/nnrt/runtime.yaml"));
}

// A scratch folder tree, removed at the end of the test.
class TempTree {
 public:
  TempTree() : root_(std::filesystem::temp_directory_path() / ("nnrt_layout_" + std::to_string(::getpid()))) {}
  ~TempTree() { std::filesystem::remove_all(root_); }
  std::filesystem::path file(const std::string& relative) {
    std::filesystem::path p = root_ / relative;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << "version: 1\n";
    return p;
  }
  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
};

TEST(ConfigTest, AnInstalledPrefixIsFoundFromTheLibraryOrTheProgramFolder) {
  // A Debian-style layout: <prefix>/lib/x86_64-linux-gnu/{libneuralnetworks.so, nnrt/}, <prefix>/bin/nnrt,
  // <prefix>/etc/nnrt/runtime.yaml.
  TempTree tree;
  tree.file("lib/x86_64-linux-gnu/nnrt/libnnrt_driver_cpu.so");
  tree.file("bin/nnrt");
  std::filesystem::path config = tree.file("etc/nnrt/runtime.yaml");
  InstallDirs dirs{"../lib/x86_64-linux-gnu", "nnrt", "../../etc/nnrt"};
  for (const char* self : {"lib/x86_64-linux-gnu", "bin"}) {
    SCOPED_TRACE(self);
    RuntimeLayout layout = locateRuntime(tree.root() / self, dirs);
    EXPECT_EQ(layout.pluginDir, tree.root() / "lib/x86_64-linux-gnu/nnrt");
    EXPECT_EQ(layout.configFile, config);
    EXPECT_EQ(layout.driverHost, tree.root() / "lib/x86_64-linux-gnu/nnrt/nnrt-driver-host");
  }
}

TEST(ConfigTest, TheBuildTreeKeepsPluginsBesideTheRuntime) {
  TempTree tree;
  tree.file("build/lib/libnnrt_driver_cpu.so");
  tree.file("build/bin/nnrt");
  std::filesystem::path config = tree.file("build/etc/nnrt/runtime.yaml");
  for (const char* self : {"build/lib", "build/bin"}) {
    SCOPED_TRACE(self);
    RuntimeLayout layout = locateRuntime(tree.root() / self, InstallDirs{"../lib", "nnrt", "../etc/nnrt"});
    EXPECT_EQ(layout.pluginDir, tree.root() / "build/lib");
    EXPECT_EQ(layout.configFile, config);
    EXPECT_EQ(layout.driverHost, tree.root() / "build/bin/nnrt-driver-host");
  }
  ::setenv("NNRT_PLUGIN_DIR", "/opt/plugins", 1);
  EXPECT_EQ(locateRuntime(tree.root() / "build/lib").pluginDir, std::filesystem::path("/opt/plugins"));
  ::unsetenv("NNRT_PLUGIN_DIR");
}

}  // namespace
}  // namespace nnrt::config
