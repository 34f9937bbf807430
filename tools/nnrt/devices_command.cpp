// `nnrt devices`: every device with its identity, status, extensions and capability summary, then
// every configured device that was skipped and why. With --operations, what each device declares it
// runs, by operation and type (ABI 1.1's operation table; the same table the driver answers from).
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "core/device/device_registry.hpp"
#include "nnrt/driver/ops/operand_types.hpp"
#include "tools/nnrt/commands.hpp"
#include "tools/nnrt/json_writer.hpp"
#include "tools/nnrt/text_table.hpp"

namespace nnrt::tools {
namespace {

const char* typeName(int32_t type) {
  switch (type) {
    case NNRT_DEVICE_TYPE_CPU: return "CPU";
    case NNRT_DEVICE_TYPE_GPU: return "GPU";
    case NNRT_DEVICE_TYPE_ACCELERATOR: return "ACCELERATOR";
    case NNRT_DEVICE_TYPE_OTHER: return "OTHER";
  }
  return "UNKNOWN";
}

// How long `nnrt devices` waits for a driver's getStatus.
constexpr std::chrono::milliseconds kStatusTimeout{500};

const char* statusName(std::optional<int32_t> status) {
  if (!status) return "no answer";
  switch (*status) {
    case NNRT_DEVICE_STATUS_AVAILABLE: return "available";
    case NNRT_DEVICE_STATUS_BUSY: return "busy";
    case NNRT_DEVICE_STATUS_OFFLINE: return "offline";
  }
  return "unknown";
}

std::string deviceStatus(const DriverDevice& d) {
  std::string s = statusName(d.queryStatus(kStatusTimeout));
  if (!d.available()) s += " (marked unavailable)";
  return s;
}

std::string extensionList(const DriverDevice& d) {
  std::string s;
  for (const auto& e : d.extensions()) s += (s.empty() ? "" : ",") + e.name;
  return s.empty() ? "-" : s;
}

// "TENSOR_FLOAT32 0.40/0.60 ..." — exec time / power usage relative to the CPU.
std::string capabilitySummary(const DriverDevice& d) {
  std::string s;
  char buf[96];
  for (const auto& e : d.capabilities().operandPerformance) {
    if (!ops::isTensorType(e.type)) continue;
    std::snprintf(buf, sizeof buf, "%s%s %.2f/%.2f", s.empty() ? "" : ", ", ops::typeName(e.type).c_str(),
                  e.info.exec_time, e.info.power_usage);
    s += buf;
  }
  const auto& r = d.capabilities().relaxedFloat32toFloat16PerformanceTensor;
  std::snprintf(buf, sizeof buf, "%srelaxed %.2f/%.2f", s.empty() ? "" : ", ", r.exec_time, r.power_usage);
  s += buf;
  if (d.performanceOverridden()) s += " (from config)";
  return s;
}

// The declared (operation, types) rows of a device, in table order.
struct OperationRow {
  std::string operation;
  std::vector<std::string> types;
};
std::vector<OperationRow> operationRows(const std::vector<nnrt_operation_support>& table) {
  std::vector<OperationRow> rows;
  for (const auto& pair : table) {
    const std::string name = ops::operationName(pair.operation);
    if (rows.empty() || rows.back().operation != name) rows.push_back({name, {}});
    rows.back().types.push_back(ops::typeName(pair.operand_type));
  }
  return rows;
}

void printOperations(const DriverDevice& d) {
  auto table = d.operationTable();
  if (!table) {
    std::printf("\noperations of %s: %s\n", d.name().c_str(), table.error().message.c_str());
    return;
  }
  if (table->empty()) {
    std::printf("\noperations of %s: the driver declares no operation table (ABI 1.0, or none given); "
                "`nnrt plan MODEL` asks it per model\n",
                d.name().c_str());
    return;
  }
  const auto rows = operationRows(*table);
  std::printf("\noperations of %s: %zu operations, %zu (operation, type) pairs (type of input 0)\n", d.name().c_str(),
              rows.size(), table->size());
  TextTable t({"OPERATION", "TYPES"});
  for (const auto& row : rows) {
    std::string types;
    for (const auto& type : row.types) types += (types.empty() ? "" : ", ") + type;
    t.add({row.operation, types});
  }
  t.print(stdout, "  ");
}

// Where the device's driver runs (runtime.yaml's `isolation`).
const char* isolation(const DriverDevice& d) {
  return config::isolationName(d.library().inHostProcess() ? config::Isolation::Process
                                                           : config::Isolation::InProcess);
}

void printTable(const DeviceRegistry& registry) {
  std::printf("configuration: %s\n\n", registry.config().file.string().c_str());
  TextTable table({"NAME", "TYPE", "VERSION", "FEATURE", "STATUS", "EXTENSIONS", "CAPABILITIES (exec/power, CPU = 1)"});
  for (const auto& d : registry.devices()) {
    table.add({d->name(), typeName(d->type()), d->versionString(), std::to_string(d->featureLevel()),
               deviceStatus(*d), extensionList(*d), capabilitySummary(*d)});
  }
  table.print(stdout);
  if (registry.devices().empty()) std::printf("(no device)\n");
  std::printf("\ndrivers:\n");
  TextTable drivers({"NAME", "PLUGIN", "DRIVER DEVICE", "ISOLATION", "LIBRARY"});
  for (const auto& d : registry.devices()) {
    const auto& api = d->library().api();
    drivers.add(
        {d->name(),
         std::string(api.plugin_name) + " " + api.plugin_version + " (ABI " + d->library().abiVersion() + ")",
         d->driverDeviceName(), isolation(*d), d->library().path().string()});
  }
  drivers.print(stdout, "  ");
  const auto& policy = registry.config().policy;
  std::printf("\nfallback device: %s\n",
              policy.fallbackDevice.empty() ? "none (fallback off)"
              : registry.fallbackDevice()   ? policy.fallbackDevice.c_str()
                                            : (policy.fallbackDevice + " (not loaded: fallback off)").c_str());
  if (!registry.skipped().empty()) {
    std::printf("\nskipped:\n");
    for (const auto& s : registry.skipped()) std::printf("  %-12s %s\n", s.name.c_str(), s.reason.c_str());
  }
}

void printJson(const DeviceRegistry& registry) {
  JsonWriter j;
  j.beginObject();
  j.field("configuration", registry.config().file.string());
  j.key("devices").beginArray();
  for (const auto& d : registry.devices()) {
    j.beginObject();
    j.field("name", d->name());
    j.field("driver_device", d->driverDeviceName());
    j.field("plugin", d->library().api().plugin_name);
    j.field("plugin_version", d->library().api().plugin_version);
    j.field("library", d->library().path().string());
    j.field("abi", d->library().abiVersion());
    j.field("isolation", isolation(*d));
    j.field("type", typeName(d->type()));
    j.field("version", d->versionString());
    j.field("feature_level", d->featureLevel());
    j.field("status", statusName(d->queryStatus(kStatusTimeout)));
    j.field("available", d->available());
    j.key("extensions").beginArray();
    for (const auto& e : d->extensions()) j.value(e.name);
    j.endArray();
    const auto& caps = d->capabilities();
    j.key("capabilities").beginObject();
    j.field("overridden_by_config", d->performanceOverridden());
    auto perf = [&](const char* name, const nnrt_perf_info& p) {
      j.key(name).beginObject().field("exec_time", static_cast<double>(p.exec_time));
      j.field("power_usage", static_cast<double>(p.power_usage)).endObject();
    };
    perf("relaxed_scalar", caps.relaxedFloat32toFloat16PerformanceScalar);
    perf("relaxed_tensor", caps.relaxedFloat32toFloat16PerformanceTensor);
    perf("if", caps.ifPerformance);
    perf("while", caps.whilePerformance);
    j.key("operand_performance").beginObject();
    for (const auto& e : caps.operandPerformance) perf(ops::typeName(e.type).c_str(), e.info);
    j.endObject();
    j.endObject();
    j.field("cache_files", static_cast<uint32_t>(d->cacheFilesNeeded().modelCache + d->cacheFilesNeeded().dataCache));
    // The declared operation table: null when the driver declares none (or answers nonsense).
    j.key("operations");
    auto table = d->operationTable();
    if (!table || table->empty()) {
      j.null();
    } else {
      j.beginArray();
      for (const auto& row : operationRows(*table)) {
        j.beginObject().field("operation", row.operation);
        j.key("types").beginArray();
        for (const auto& type : row.types) j.value(type);
        j.endArray().endObject();
      }
      j.endArray();
    }
    j.endObject();
  }
  j.endArray();
  j.key("fallback_device");
  if (registry.fallbackDevice()) {
    j.value(registry.config().policy.fallbackDevice);
  } else {
    j.null();
  }
  j.key("skipped").beginArray();
  for (const auto& s : registry.skipped()) {
    j.beginObject().field("name", s.name).field("library", s.library).field("reason", s.reason).endObject();
  }
  j.endArray();
  j.endObject();
  std::printf("%s\n", j.str().c_str());
}

}  // namespace

int devicesCommand(const std::vector<std::string>& args) {
  bool json = false, operations = false;
  for (const auto& a : args) {
    if (a == "--json") {
      json = true;
    } else if (a == "--operations") {
      operations = true;
    } else {
      std::fprintf(stderr, "nnrt devices: unknown option '%s'\n", a.c_str());
      return 2;
    }
  }
  DeviceRegistry& registry = DeviceRegistry::global();
  if (registry.configError()) {
    std::fprintf(stderr, "nnrt: %s\n", registry.configError()->message.c_str());
    return 1;
  }
  if (json) {
    printJson(registry);
  } else {
    printTable(registry);
    if (operations) {
      for (const auto& d : registry.devices()) printOperations(*d);
    }
  }
  return 0;
}

}  // namespace nnrt::tools
