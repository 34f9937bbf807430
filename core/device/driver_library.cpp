#include "core/device/driver_library.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <fstream>

#include <boost/dll/library_info.hpp>

#include "core/support/log.hpp"

namespace nnrt {
namespace {

// Bytes of the table a 1.0 plugin must provide: everything up to release_fenced_execution.
constexpr size_t kMinimumTableSize = offsetof(nnrt_driver_api, release_fenced_execution) + sizeof(void*);

Unexpected<Error> refuse(const std::filesystem::path& path, const std::string& why) {
  return fail(ResultCode::OP_FAILED, path.string() + ": " + why);
}

// Cheap checks that run no code from the file.
Result<void> inspect(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return refuse(path, "file not found");
  if (!std::filesystem::is_regular_file(path, ec)) return refuse(path, "not a regular file");
  {
    std::ifstream in(path, std::ios::binary);
    char magic[4] = {};
    if (!in.read(magic, 4)) return refuse(path, "cannot read the file");
    if (!(magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F')) {
      return refuse(path, "not a shared object (no ELF header)");
    }
  }
  try {
    boost::dll::library_info info(path, /*throw_if_not_native*/ true);
    std::vector<std::string> symbols = info.symbols();
    if (std::find(symbols.begin(), symbols.end(), NNRT_DRIVER_ENTRY_NAME) == symbols.end()) {
      return refuse(path, std::string("does not export the entry symbol ") + NNRT_DRIVER_ENTRY_NAME +
                              " (not an nnrt driver plugin)");
    }
    if (symbols.size() > 1) {
      // Loaded RTLD_LOCAL, so nothing clashes today; but a plugin's exported internals are an ABI
      // it did not mean to publish, and a sign it was built without the ABI's rules.
      logWarning(path.string() + ": exports " + std::to_string(symbols.size() - 1) + " symbols besides " +
                 NNRT_DRIVER_ENTRY_NAME + " (build it with nnrt_add_driver() from find_package(nnrt), or hidden "
                 "visibility and a version script: docs/writing-a-driver.md)");
    }
  } catch (const std::exception& e) {
    return refuse(path, std::string("not a loadable shared object: ") + e.what());
  }
  return {};
}

Result<void> checkTable(const std::filesystem::path& path, const nnrt_driver_api* api) {
  if (api == nullptr) return refuse(path, std::string(NNRT_DRIVER_ENTRY_NAME) + " returned no function table");
  if (api->abi_major != NNRT_DRIVER_ABI_MAJOR) {
    return refuse(path, "driver ABI version " + std::to_string(api->abi_major) + "." + std::to_string(api->abi_minor) +
                            " is not supported; this runtime requires major version " +
                            std::to_string(NNRT_DRIVER_ABI_MAJOR));
  }
  if (api->struct_size < kMinimumTableSize) {
    return refuse(path, "function table is " + std::to_string(api->struct_size) + " bytes, ABI 1.0 needs at least " +
                            std::to_string(kMinimumTableSize));
  }
  const std::pair<const char*, bool> required[] = {
      {"open", api->open != nullptr},
      {"close", api->close != nullptr},
      {"device_count", api->device_count != nullptr},
      {"device_at", api->device_at != nullptr},
      {"get_name", api->get_name != nullptr},
      {"get_version_string", api->get_version_string != nullptr},
      {"get_type", api->get_type != nullptr},
      {"get_feature_level", api->get_feature_level != nullptr},
      {"get_status", api->get_status != nullptr},
      {"get_capabilities_1_3", api->get_capabilities_1_3 != nullptr},
      {"get_supported_extensions", api->get_supported_extensions != nullptr},
      {"get_supported_operations_1_3", api->get_supported_operations_1_3 != nullptr},
      {"get_number_of_cache_files_needed", api->get_number_of_cache_files_needed != nullptr},
      {"prepare_model_1_3", api->prepare_model_1_3 != nullptr},
      {"prepare_model_from_cache_1_3", api->prepare_model_from_cache_1_3 != nullptr},
      {"release_prepared_model", api->release_prepared_model != nullptr},
      {"execute_synchronously_1_3", api->execute_synchronously_1_3 != nullptr},
      {"execute_1_3", api->execute_1_3 != nullptr},
  };
  for (const auto& [entry, present] : required) {
    if (!present) return refuse(path, std::string("function table entry ") + entry + " is NULL (a required entry)");
  }
  bool fenced = api->execute_fenced != nullptr;
  if (fenced != (api->get_fenced_execution_info != nullptr) || fenced != (api->release_fenced_execution != nullptr)) {
    return refuse(path, "fenced execution entries must be all set or all NULL");
  }
  if (api->plugin_name == nullptr || api->plugin_version == nullptr) {
    return refuse(path, "function table has no plugin name or version");
  }
  return {};
}

}  // namespace

Result<std::shared_ptr<DriverLibrary>> DriverLibrary::load(
    const std::filesystem::path& path, const std::vector<std::pair<std::string, std::string>>& options) {
  NNRT_RETURN_IF_ERROR(inspect(path));
  std::shared_ptr<DriverLibrary> lib(new DriverLibrary());
  lib->path_ = path;
  try {
    // RTLD_NODELETE: a plugin's code stays mapped for the life of the process. Plugins and the
    // libraries they pull in (OpenBLAS, OpenCL implementations) start threads that may outlive
    // close(); unmapping their code under them crashes the process at exit.
    const auto mode = boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local |
                      static_cast<boost::dll::load_mode::type>(RTLD_NODELETE);
    lib->library_.load(path, mode);
    auto entry = lib->library_.get<const nnrt_driver_api*(uint32_t)>(NNRT_DRIVER_ENTRY_NAME);
    lib->api_ = entry(NNRT_DRIVER_ABI_MAJOR);
  } catch (const std::exception& e) {
    return refuse(path, std::string("cannot be loaded: ") + e.what());
  }
  NNRT_RETURN_IF_ERROR(checkTable(path, lib->api_));

  std::vector<nnrt_option> cOptions;
  for (const auto& [key, value] : options) cOptions.push_back({key.c_str(), value.c_str()});
  nnrt_reason reason{};
  nnrt_plugin* plugin = nullptr;
  nnrt_status status = lib->api_->open(cOptions.data(), static_cast<uint32_t>(cOptions.size()), &plugin, &reason);
  if (status != NNRT_STATUS_NONE || plugin == nullptr) {
    std::string why = "plugin '" + std::string(lib->api_->plugin_name) + "' failed to start: " +
                      driver::errorStatusName(static_cast<driver::ErrorStatus>(status));
    reason.message[sizeof(reason.message) - 1] = '\0';
    if (reason.message[0] != '\0') why += std::string(" (") + reason.message + ")";
    lib->api_ = nullptr;  // nothing to close
    return refuse(path, why);
  }
  lib->plugin_ = plugin;
  return lib;
}

std::shared_ptr<DriverLibrary> DriverLibrary::fromTable(const std::filesystem::path& path,
                                                        const nnrt_driver_api* api, nnrt_plugin* plugin,
                                                        std::shared_ptr<void> owner,
                                                        std::function<void(const std::string& why)> restart) {
  std::shared_ptr<DriverLibrary> lib(new DriverLibrary());
  lib->path_ = path;
  lib->api_ = api;
  lib->plugin_ = plugin;
  lib->owner_ = std::move(owner);
  lib->restart_ = std::move(restart);
  return lib;
}

DriverLibrary::~DriverLibrary() {
  if (api_ != nullptr && plugin_ != nullptr) api_->close(plugin_);
  // library_ unloads after this; nothing of the plugin may be used past this point.
}

std::string DriverLibrary::abiVersion() const {
  return std::to_string(api_->abi_major) + "." + std::to_string(api_->abi_minor);
}

}  // namespace nnrt
