// Subcommands of the `nnrt` command line. Each takes its arguments (after the subcommand name)
// and returns the process exit code.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/device/device_registry.hpp"
#include "core/support/status.hpp"

namespace nnrt::tools {

int devicesCommand(const std::vector<std::string>& args);
int planCommand(const std::vector<std::string>& args);
int runCommand(const std::vector<std::string>& args);
int benchCommand(const std::vector<std::string>& args);

// "a,b" -> {"a", "b"}.
std::vector<std::string> splitList(const std::string& text);
// The registry's devices with these names; an entry name ("opencl") stands for all its devices
// ("opencl:0", ...). BAD_DATA naming the first unknown name.
Result<std::vector<std::shared_ptr<DriverDevice>>> findDevices(const DeviceRegistry& registry,
                                                               const std::vector<std::string>& names);

}  // namespace nnrt::tools
