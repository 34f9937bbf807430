// nnrt: inspect devices, plan and run models.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tools/nnrt/commands.hpp"

namespace {

void usage(FILE* out) {
  std::fprintf(
      out,
      "usage: nnrt <command> [options]\n"
      "\n"
      "commands:\n"
      "  devices [--json]     list the devices of the configuration and the plugins that were skipped\n"
      "          [--operations]  and what each device declares it runs, by operation and type\n"
      "  plan MODEL           show how a model file is partitioned: steps, candidates, costs, rules\n"
      "                       [--preference P] [--devices a,b] [--json] [--dot FILE]\n"
      "  run MODEL            compile and run a model file; print outputs, timing and devices\n"
      "                       [--device(s) a,b] [--preference P] [--input NAME=FILE|NAME=v1,v2,...]\n"
      "                       [--output NAME=FILE] [--repeat N] [--explain]\n"
      "  bench MODEL          measure a model's latency (min, median, p90, p99, max), throughput and\n"
      "                       each step's time by device; same device and input options as run\n"
      "                       [--warmup N] [--runs N] [--time SECONDS] [--json] [--svg FILE]\n"
      "\n"
      "P: low-power | fast-single-answer | sustained-speed. Model files: docs/model-format.md\n"
      "environment: NNRT_CONFIG (configuration file), NNRT_LOG (error|warning|info|verbose),\n"
      "             NNRT_APP_ID (application id for the extension allowlist)\n");
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
  if (command == "plan") return nnrt::tools::planCommand(args);
  if (command == "run") return nnrt::tools::runCommand(args);
  if (command == "bench") return nnrt::tools::benchCommand(args);
  if (command == "-h" || command == "--help" || command == "help") {
    usage(stdout);
    return 0;
  }
  std::fprintf(stderr, "nnrt: unknown command '%s'\n\n", command.c_str());
  usage(stderr);
  return 2;
}
