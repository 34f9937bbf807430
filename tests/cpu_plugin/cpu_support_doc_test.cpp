// docs/cpu-operations.md is generated from the cpu driver's kernel tables, the ones
// getSupportedOperations_1_3 answers from, so the documentation cannot drift from the driver.
// After changing a table, regenerate it: NNRT_UPDATE_DOCS=1 build/bin/cpu_support_doc_test
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "nnrt/driver/ops/operand_types.hpp"
#include "nnrt/driver/ops/operation.hpp"
#include "plugins/cpu/cpu_operations.hpp"

namespace nnrt::cpu {
namespace {

std::string generated() {
  std::map<int32_t, std::vector<std::string>> types;  // by operation code, in table order
  for (auto table : kernelTables()) {
    for (const KernelEntry& e : table) {
      types[static_cast<int32_t>(e.operation)].push_back(ops::typeName(static_cast<int32_t>(e.inputType)));
    }
  }
  std::ostringstream out;
  out << "# What the cpu plugin runs\n\n"
         "Generated from the cpu driver's kernel tables (`plugins/cpu/cpu_operations.cpp` and\n"
         "`plugins/cpu/cpu_ops_*.cpp`), the tables `getSupportedOperations_1_3` answers from; do not edit\n"
         "by hand. After changing a table: `NNRT_UPDATE_DOCS=1 build/bin/cpu_support_doc_test`.\n\n"
         "The type is the type of input 0 (LSH_PROJECTION: the hash tensor; PACK: its INT32 axis, the one row taking\n"
         "every tensor type NNAPI lists for it); the other operands follow NNAPI's signature for that type\n"
         "(e.g. TENSOR_INT32 biases for quantized convolutions). Every layout and option of the signature\n"
         "is run unless `nnrt plan` / `getSupportedOperations_1_3` names a refusal (e.g. per-channel\n"
         "quantized filters where the table says so). Models with `relaxComputationFloat32toFloat16` run\n"
         "in float32. `nnrt devices --operations` prints the same table, read from the plugin through\n"
         "the driver ABI (1.1's operation table).\n\n"
         "| operation | code | operand types |\n|---|---|---|\n";
  std::vector<std::string> missing;
  size_t operations = 0, pairs = 0;
  for (int32_t code = 0; code < 128; ++code) {
    if (!ops::hasSignature(code)) continue;
    auto it = types.find(code);
    if (it == types.end()) {
      missing.push_back(ops::operationName(code));
      continue;
    }
    ++operations;
    out << "| " << ops::operationName(code) << " | " << code << " | ";
    for (size_t i = 0; i < it->second.size(); ++i) out << (i ? ", " : "") << it->second[i];
    pairs += it->second.size();
    out << " |\n";
  }
  out << "\n" << operations << " operations, " << pairs << " (operation, type) pairs.\n\n";
  out << "Not run by the cpu plugin (" << missing.size() << "): ";
  for (size_t i = 0; i < missing.size(); ++i) out << (i ? ", " : "") << missing[i];
  out << ".\n";
  return out.str();
}

TEST(CpuSupportDoc, DocsListWhatTheTablesRun) {
  const char* source = std::getenv("NNRT_SOURCE_DIR");
  ASSERT_NE(source, nullptr) << "NNRT_SOURCE_DIR is not set (ctest sets it)";
  const std::string path = std::string(source) + "/docs/cpu-operations.md";
  const std::string want = generated();
  if (const char* update = std::getenv("NNRT_UPDATE_DOCS"); update != nullptr && std::string(update) == "1") {
    std::ofstream(path) << want;
  }
  std::ifstream file(path);
  std::stringstream have;
  have << file.rdbuf();
  EXPECT_EQ(have.str(), want) << path << " is out of date: run NNRT_UPDATE_DOCS=1 build/bin/cpu_support_doc_test";
}

}  // namespace
}  // namespace nnrt::cpu
