#include "conformance/conformance_suite.hpp"

#include <cmath>
#include <map>
#include <mutex>
#include <sstream>

#include "support/plugin_device.hpp"

namespace nnrt::test::conformance {
namespace {

// One loaded device per plugin configuration, kept for the whole test program.
const LoadedDevice& deviceFor(const PluginUnderTest& plugin) {
  static std::mutex mutex;
  static std::map<std::string, LoadedDevice> loaded;
  std::lock_guard lock(mutex);
  std::string key = plugin.device + "|" + plugin.library;
  for (const auto& [k, v] : plugin.options)
    key += "|" + k + "=" + v;
  auto it = loaded.find(key);
  if (it == loaded.end()) {
    it = loaded.emplace(key, loadPluginDevice(NNRT_PLUGIN_DIR, plugin.device, plugin.library, plugin.options))
             .first;
  }
  return it->second;
}

std::string dimsString(const std::vector<uint32_t>& dims) {
  std::ostringstream s;
  s << "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s << (i ? ", " : "") << dims[i];
  return s.str() + "]";
}

}  // namespace

::testing::internal::ParamGenerator<ConformanceParam> conformanceCasesFor(PluginUnderTest plugin) {
  auto shared = std::make_shared<const PluginUnderTest>(std::move(plugin));
  std::vector<ConformanceParam> params;
  std::set<std::string> known;
  for (const OperationCase& c : allOperationCases()) {
    params.push_back({shared, &c, {}});
    known.insert(c.name);
  }
  for (const std::string& name : shared->expectedUnsupported) {
    if (!known.count(name)) params.push_back({shared, nullptr, name});
  }
  return ::testing::ValuesIn(params);
}

std::string conformanceCaseName(const ::testing::TestParamInfo<ConformanceParam>& info) {
  if (info.param.testCase != nullptr) return info.param.testCase->name;
  std::string name = "unknown_unsupported_entry_";
  for (char ch : info.param.unknownName)
    name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return name;
}

void PrintTo(const ConformanceParam& param, std::ostream* os) {
  *os << param.plugin->device << ": "
      << (param.testCase != nullptr ? param.testCase->name : param.unknownName);
}

TEST_P(OperationConformance, MatchesReference) {
  const ConformanceParam& param = GetParam();
  const PluginUnderTest& plugin = *param.plugin;
  if (param.testCase == nullptr) {
    FAIL() << "the expected-unsupported list of '" << plugin.device << "' names '" << param.unknownName
           << "', which is not a conformance case";
  }
  const LoadedDevice& loaded = deviceFor(plugin);
  if (!loaded.device) {
    if (plugin.skipWhenNoDevice) GTEST_SKIP() << "no device: " << loaded.error;
    FAIL() << "cannot load " << plugin.library << ": " << loaded.error;
  }
  const OperationCase& c = *param.testCase;
  TestModel model = c.model;  // the view must outlive the prepared model
  const nnrt_model& view = model.view();

  auto support = loaded.device->getSupportedOperations(view);
  ASSERT_TRUE(support.has_value()) << support.error().message;
  ASSERT_EQ(support->supported.size(), model.operationCount());
  auto prepared =
      loaded.device->prepareModel(view, NNRT_PREFER_FAST_SINGLE_ANSWER, NNRT_PRIORITY_MEDIUM, 0, {});

  // A copy in another form shares the expectation of the case it copies, unless listed itself. The
  // operation under test is the last one (the "internal" form ADDs each input first).
  const std::string& listedName = c.relaxedOf.empty() ? c.name : c.relaxedOf;
  const size_t tested = model.operationCount() - 1;
  if (plugin.expectedUnsupported.count(c.name) != 0 || plugin.expectedUnsupported.count(listedName) != 0 ||
      plugin.unsupportedFamilies.count(c.family) != 0) {
    // The operation under test, or one the case needs before it (the zero-sized family's detection).
    size_t refused = 0;
    while (refused <= tested && support->supported[refused]) ++refused;
    ASSERT_LE(refused, tested) << "listed as unsupported, but the driver claims every operation";
    EXPECT_FALSE(support->reasons[refused].empty()) << "an unsupported operation needs a reason";
    EXPECT_FALSE(prepared.has_value()) << "prepareModel_1_3 accepted an operation it reports unsupported";
    return;
  }
  for (size_t k = 0; k <= tested; ++k)
    ASSERT_TRUE(support->supported[k]) << "operation " << k << " reported unsupported: " << support->reasons[k];
  ASSERT_TRUE(prepared.has_value()) << prepared.error().message;

  TestRequest request(c.inputs.size(), c.outputs.size());
  for (uint32_t k = 0; k < c.inputs.size(); ++k)
    request.setInput(k, encode(c.inputs[k].type, c.inputs[k].values));
  for (uint32_t k = 0; k < c.outputs.size(); ++k) {
    const TensorValues& out = c.outputs[k].expected;
    request.setOutput(k, elementCount(out.dims) * elementSize(out.type));
  }
  auto result = (*prepared)->execute(request.view(), /*measure=*/false, /*deadline=*/0, /*loopTimeout=*/0);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  ASSERT_EQ(result->status, driver::ErrorStatus::NONE);
  ASSERT_EQ(result->outputShapes.size(), c.outputs.size());
  for (uint32_t k = 0; k < c.outputs.size(); ++k) {
    const TensorValues& out = c.outputs[k].expected;
    EXPECT_EQ(dimsString(result->outputShapes[k].dimensions), dimsString(out.dims))
        << "output " << k << " shape";
    expectValues(decode(out.type, request.outputBytes(k)), c.outputs[k], k);
  }
}

}  // namespace nnrt::test::conformance
