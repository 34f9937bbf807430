// Subcommands of the `nnrt` command line. Each takes its arguments (after the subcommand name)
// and returns the process exit code.
#pragma once

#include <string>
#include <vector>

namespace nnrt::tools {

int devicesCommand(const std::vector<std::string>& args);

}  // namespace nnrt::tools
