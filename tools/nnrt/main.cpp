// nnrt: inspect devices, plan and run models.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tools/nnrt/commands.hpp"

namespace {

void usage(FILE* out) {
  std::fprintf(out,
               "usage: nnrt <command> [options]\n"
               "\n"
               "commands:\n"
               "  devices [--json]     list the devices of the configuration and the plugins that were skipped\n"
               "\n"
               "environment: NNRT_CONFIG (configuration file), NNRT_LOG (error|warning|info|verbose)\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  std::string command = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "devices") return nnrt::tools::devicesCommand(args);
  if (command == "-h" || command == "--help" || command == "help") {
    usage(stdout);
    return 0;
  }
  std::fprintf(stderr, "nnrt: unknown command '%s'\n\n", command.c_str());
  usage(stderr);
  return 2;
}
