// Plugin loading and device enumeration through real shared objects: the built-in plugins, a
// configurable SDK test plugin, and broken files that must be refused with the right reason.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <algorithm>
#include <fstream>

#include "core/device/device_registry.hpp"
#include "core/device/driver_library.hpp"
#include <android/NeuralNetworks.h>

namespace nnrt {
namespace {

const std::filesystem::path kTestPlugins = NNRT_TEST_PLUGIN_DIR;
const std::filesystem::path kPlugins = NNRT_PLUGIN_DIR;

std::string loadError(const std::filesystem::path& path,
                      const std::vector<std::pair<std::string, std::string>>& options = {}) {
  auto lib = DriverLibrary::load(path, options);
  EXPECT_FALSE(lib.has_value());
  return lib.has_value() ? "" : lib.error().message;
}

std::unique_ptr<DeviceRegistry> registryFrom(const std::string& yaml) {
  auto config = config::parseConfig(yaml, kPlugins / "runtime.yaml", kPlugins);
  EXPECT_TRUE(config.has_value()) << config.error().message;
  return DeviceRegistry::create(std::move(*config));
}

TEST(DriverLibraryTest, LoadsAGoodPlugin) {
  auto lib = DriverLibrary::load(kTestPlugins / "libnnrt_driver_test.so", {{"devices", "3"}});
  ASSERT_TRUE(lib.has_value()) << lib.error().message;
  const nnrt_driver_api& api = (*lib)->api();
  EXPECT_STREQ(api.plugin_name, "test");
  EXPECT_STREQ(api.plugin_version, "9.9.9");
  EXPECT_EQ((*lib)->abiVersion(), "1.1");
  EXPECT_EQ(api.device_count((*lib)->plugin()), 3u);
  EXPECT_STREQ(api.get_name(api.device_at((*lib)->plugin(), 2)), "test-device-2");
  EXPECT_EQ(api.device_at((*lib)->plugin(), 3), nullptr);
}

TEST(DriverLibraryTest, MissingFile) {
  EXPECT_EQ(loadError(kTestPlugins / "libmissing.so"), (kTestPlugins / "libmissing.so").string() + ": file not found");
}

TEST(DriverLibraryTest, NotASharedObject) {
  std::filesystem::path path = std::filesystem::temp_directory_path() / "nnrt_not_a_library.so";
  std::ofstream(path) << "this is text, not ELF\n";
  EXPECT_EQ(loadError(path), path.string() + ": not a shared object (no ELF header)");
  std::filesystem::remove(path);
  EXPECT_EQ(loadError(kTestPlugins), kTestPlugins.string() + ": not a regular file");
}

TEST(DriverLibraryTest, LibraryWithoutEntrySymbol) {
  std::filesystem::path path = kTestPlugins / "libnnrt_test_no_entry.so";
  EXPECT_EQ(loadError(path),
            path.string() + ": does not export the entry symbol nnrt_driver_get_api (not an nnrt driver plugin)");
}

TEST(DriverLibraryTest, WrongAbiMajorIsRefusedBeforeOpen) {
  std::filesystem::path path = kTestPlugins / "libnnrt_test_wrong_abi.so";
  EXPECT_EQ(loadError(path),
            path.string() + ": driver ABI version 2.5 is not supported; this runtime requires major version 1");
  // The refused library was unloaded without its open() being called: load it again and ask it.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr);
  auto wasOpened = reinterpret_cast<int (*)()>(dlsym(handle, "wrong_abi_plugin_was_opened"));
  ASSERT_NE(wasOpened, nullptr);
  EXPECT_EQ(wasOpened(), 0);
  dlclose(handle);
}

TEST(DriverLibraryTest, OpenFailureCarriesTheReason) {
  std::filesystem::path path = kTestPlugins / "libnnrt_driver_test.so";
  EXPECT_EQ(loadError(path, {{"fail_open", "no hardware here"}}),
            path.string() + ": plugin 'test' failed to start: DEVICE_UNAVAILABLE (no hardware here)");
  EXPECT_EQ(loadError(path, {{"throw_open", "boom"}}),
            path.string() + ": plugin 'test' failed to start: GENERAL_FAILURE (driver threw: boom)");
  EXPECT_EQ(loadError(path, {{"colour", "blue"}}),
            path.string() + ": plugin 'test' failed to start: INVALID_ARGUMENT (unknown plugin option 'colour')");
}

TEST(DeviceRegistryTest, EnumeratesTheBuiltInPlugins) {
  auto registry = registryFrom(R"(
devices:
  - name: cpu
    library: libnnrt_driver_cpu.so
  - name: fibonacci
    library: libnnrt_driver_sample_ext.so
)");
  ASSERT_EQ(registry->devices().size(), 2u);
  EXPECT_TRUE(registry->skipped().empty());
  const auto& cpu = registry->devices()[0];
  EXPECT_EQ(cpu->name(), "cpu");
  EXPECT_EQ(cpu->driverDeviceName(), "nnrt-reference-cpu");
  EXPECT_EQ(cpu->type(), NNRT_DEVICE_TYPE_CPU);
  EXPECT_EQ(cpu->featureLevel(), 30);
  EXPECT_EQ(cpu->queryStatus(), NNRT_DEVICE_STATUS_AVAILABLE);
  EXPECT_TRUE(cpu->extensions().empty());
  for (const auto& p : cpu->capabilities().operandPerformance) {
    EXPECT_EQ(p.info.exec_time, 1.0f);  // the reference device defines 1.0
  }
  const auto& fib = registry->devices()[1];
  EXPECT_EQ(fib->type(), NNRT_DEVICE_TYPE_ACCELERATOR);
  ASSERT_EQ(fib->extensions().size(), 1u);
  EXPECT_EQ(fib->extensions()[0].name, "com.example.fibonacci");
  ASSERT_EQ(fib->extensions()[0].operandTypes.size(), 2u);
  EXPECT_EQ(fib->extensions()[0].operandTypes[1].type, 1);
  EXPECT_TRUE(fib->extensions()[0].operandTypes[1].isTensor);
  EXPECT_EQ(fib->extensions()[0].operandTypes[1].byteSize, 8u);
  EXPECT_EQ(registry->fallbackDevice(), cpu);
}


TEST(DeviceRegistryTest, MissingPluginIsSkippedAndTheOthersStay) {
  auto registry = registryFrom(R"(
devices:
  - name: cpu
    library: libnnrt_driver_cpu.so
  - name: ghost
    library: /nonexistent/libghost.so
  - name: fibonacci
    library: libnnrt_driver_sample_ext.so
)");
  ASSERT_EQ(registry->devices().size(), 2u);
  EXPECT_EQ(registry->devices()[0]->name(), "cpu");
  EXPECT_EQ(registry->devices()[1]->name(), "fibonacci");
  ASSERT_EQ(registry->skipped().size(), 1u);
  EXPECT_EQ(registry->skipped()[0].name, "ghost");
  EXPECT_EQ(registry->skipped()[0].reason, "/nonexistent/libghost.so: file not found");
}

TEST(DeviceRegistryTest, MultiDevicePluginsGetIndexedNames) {
  auto registry = registryFrom("devices:\n  - name: acc\n    library: test_plugins/libnnrt_driver_test.so\n"
                               "    options: {devices: \"2\"}\n");
  ASSERT_EQ(registry->devices().size(), 2u);
  EXPECT_EQ(registry->devices()[0]->name(), "acc:0");
  EXPECT_EQ(registry->devices()[1]->name(), "acc:1");
  EXPECT_EQ(registry->devices()[1]->driverDeviceName(), "test-device-1");
  EXPECT_EQ(registry->devices()[1]->versionString(), "test 1.2.3");
  EXPECT_EQ(registry->fallbackDevice(), nullptr);  // "cpu" is not loaded
}

// ABI 1.1's operation table: read as declared, empty when the driver declares none, refused when
// out of order.
TEST(DeviceRegistryTest, OperationTableIsReadAndChecked) {
  auto registry = registryFrom(
      "devices:\n"
      "  - {name: plain, library: test_plugins/libnnrt_driver_test.so}\n"
      "  - {name: listed, library: test_plugins/libnnrt_driver_test.so, options: {operation_table: sorted}}\n"
      "  - {name: jumbled, library: test_plugins/libnnrt_driver_test.so, options: {operation_table: unsorted}}\n");
  ASSERT_EQ(registry->devices().size(), 3u);
  auto plain = registry->devices()[0]->operationTable();
  ASSERT_TRUE(plain.has_value()) << plain.error().message;
  EXPECT_TRUE(plain->empty());

  auto listed = registry->devices()[1]->operationTable();
  ASSERT_TRUE(listed.has_value()) << listed.error().message;
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].operation, ANEURALNETWORKS_ADD);
  EXPECT_EQ((*listed)[1].operation, ANEURALNETWORKS_RELU);
  EXPECT_EQ((*listed)[1].operand_type, ANEURALNETWORKS_TENSOR_FLOAT32);

  auto jumbled = registry->devices()[2]->operationTable();
  ASSERT_FALSE(jumbled.has_value());
  EXPECT_EQ(jumbled.error().message,
            "device 'jumbled': operation table is not sorted without duplicates at entry 1");
}

// The cpu plugin lists exactly the pairs of its kernel tables (docs/cpu-operations.md is generated
// from the same tables): a few spot checks through the ABI.
TEST(DeviceRegistryTest, CpuDeclaresItsOperationTable) {
  auto registry = registryFrom("devices:\n  - {name: cpu, library: libnnrt_driver_cpu.so}\n");
  ASSERT_EQ(registry->devices().size(), 1u);
  auto table = registry->devices()[0]->operationTable();
  ASSERT_TRUE(table.has_value()) << table.error().message;
  auto has = [&](int32_t op, int32_t type) {
    return std::any_of(table->begin(), table->end(),
                       [&](const nnrt_operation_support& s) { return s.operation == op && s.operand_type == type; });
  };
  EXPECT_TRUE(has(ANEURALNETWORKS_CONV_2D, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED));
  EXPECT_TRUE(has(ANEURALNETWORKS_LSTM, ANEURALNETWORKS_TENSOR_FLOAT16));
  EXPECT_TRUE(has(ANEURALNETWORKS_DEQUANTIZE, ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL));
  EXPECT_FALSE(has(ANEURALNETWORKS_FLOOR, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM));  // NNAPI lists no such form
  EXPECT_TRUE(has(ANEURALNETWORKS_RANDOM_MULTINOMIAL, ANEURALNETWORKS_TENSOR_FLOAT16));
  EXPECT_FALSE(has(ANEURALNETWORKS_IF, ANEURALNETWORKS_TENSOR_BOOL8));  // control flow: the runtime runs IF
}

TEST(DeviceRegistryTest, DisabledDevicesAreListedAsSkipped) {
  auto registry = registryFrom("devices:\n  - name: cpu\n    library: libnnrt_driver_cpu.so\n    enabled: false\n");
  EXPECT_TRUE(registry->devices().empty());
  ASSERT_EQ(registry->skipped().size(), 1u);
  EXPECT_EQ(registry->skipped()[0].reason, "disabled in the configuration (enabled: false)");
}

TEST(DeviceRegistryTest, PerformanceOverridesReplaceDriverNumbers) {
  auto registry = registryFrom(R"(
devices:
  - name: acc
    library: test_plugins/libnnrt_driver_test.so
    performance:
      TENSOR_FLOAT32: {exec_time: 0.125, power_usage: 0.25}
      TENSOR_QUANT8_ASYMM: {exec_time: 3, power_usage: 4}
)");
  ASSERT_EQ(registry->devices().size(), 1u);
  const auto& d = *registry->devices()[0];
  EXPECT_TRUE(d.performanceOverridden());
  const auto& perf = d.capabilities().operandPerformance;
  ASSERT_EQ(perf.size(), 2u);  // the driver listed TENSOR_FLOAT32 only; the override adds QUANT8
  EXPECT_EQ(perf[0].type, 3);
  EXPECT_EQ(perf[0].info.exec_time, 0.125f);
  EXPECT_EQ(perf[0].info.power_usage, 0.25f);
  EXPECT_EQ(perf[1].type, 5);
  EXPECT_EQ(perf[1].info.exec_time, 3.0f);
}

TEST(DeviceRegistryTest, StatusComesFromTheDriver) {
  auto registry = registryFrom("devices:\n  - name: acc\n    library: test_plugins/libnnrt_driver_test.so\n"
                               "    options: {status: offline}\n");
  ASSERT_EQ(registry->devices().size(), 1u);
  EXPECT_EQ(registry->devices()[0]->queryStatus(), NNRT_DEVICE_STATUS_OFFLINE);
}

TEST(DeviceRegistryTest, ThrowingPrepareBecomesAnError) {
  auto registry = registryFrom("devices:\n  - name: acc\n    library: test_plugins/libnnrt_driver_test.so\n");
  ASSERT_EQ(registry->devices().size(), 1u);
  nnrt_model model{};
  auto prepared = registry->devices()[0]->prepareModel(model, NNRT_PREFER_FAST_SINGLE_ANSWER, NNRT_PRIORITY_MEDIUM, 0, {});
  ASSERT_FALSE(prepared.has_value());
  EXPECT_EQ(prepared.error().code, ResultCode::OP_FAILED);
  EXPECT_EQ(prepared.error().message,
            "prepareModel_1_3 on 'acc': GENERAL_FAILURE (driver threw: prepare is not implemented by the test device)");
}

}  // namespace
}  // namespace nnrt
