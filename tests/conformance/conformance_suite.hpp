// One conformance suite for every driver plugin (STYLE lesson 6): every case of
// allOperationCases() runs on a device loaded from the real plugin file through DeviceRegistry and
// DriverDevice, exactly as the runtime loads it.
//
// For each case, a plugin either
//   - supports it: getSupportedOperations_1_3 says yes, prepareModel_1_3 succeeds, and the execution
//     returns outputs of the expected shapes within the case's tolerance; or
//   - lists it as expected-unsupported: getSupportedOperations_1_3 says no (with a reason) and
//     prepareModel_1_3 refuses the model with INVALID_ARGUMENT.
//
// Instantiating the suite for a plugin is one statement in a file of the conformance_test binary:
//
//   INSTANTIATE_TEST_SUITE_P(OpenCl, OperationConformance,
//                            conformanceCasesFor({"opencl", "libnnrt_driver_opencl.so", {},
//                            {"mean_quant8"}}), conformanceCaseName);
//
// plus add_dependencies(conformance_test <plugin target>) in tests/conformance/CMakeLists.txt.
// Names in the unsupported list that match no case fail the suite (a typo must not hide a case).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "conformance/operation_case.hpp"

namespace nnrt::test::conformance {

struct PluginUnderTest {
  std::string device;   // the device name in the generated runtime configuration, e.g. "cpu"
  std::string library;  // file name in the build's plugin folder, e.g. "libnnrt_driver_cpu.so"
  std::vector<std::pair<std::string, std::string>> options;  // the plugin's runtime.yaml options
  std::set<std::string> expectedUnsupported;                 // names of cases it must refuse
  // When the plugin loads but offers no usable device (e.g. no OpenCL platform on the machine),
  // skip the cases instead of failing them.
  bool skipWhenNoDevice = false;
  // Families of cases (OperationCase::family) it must refuse whole, e.g. "recurrent".
  std::set<std::string> unsupportedFamilies;
};

struct ConformanceParam {
  std::shared_ptr<const PluginUnderTest> plugin;
  const OperationCase* testCase = nullptr;  // null: `unknownName` is a listed name without a case
  std::string unknownName;
};

// Every case for `plugin`, for INSTANTIATE_TEST_SUITE_P.
::testing::internal::ParamGenerator<ConformanceParam> conformanceCasesFor(PluginUnderTest plugin);
// The GoogleTest name of a parameter: the case name.
std::string conformanceCaseName(const ::testing::TestParamInfo<ConformanceParam>& info);

// Names the case when GoogleTest prints a parameter.
void PrintTo(const ConformanceParam& param, std::ostream* os);

class OperationConformance : public ::testing::TestWithParam<ConformanceParam> {};

}  // namespace nnrt::test::conformance
