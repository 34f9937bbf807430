// ONNX's own backend node tests (Debian's libonnx-testdata) through the ONNX front end on the
// default devices: every test whose operators the loader maps is loaded, compiled and run on each of
// its data sets, and its outputs are compared with the shipped ones at the ONNX backend tests'
// tolerances (|got - want| <= 1e-7 + 1e-3 |want|; integers and booleans exactly). Tests whose
// operators are not all mapped are counted as unmapped; tests the loader refuses (an attribute or type
// it cannot map exactly) as refused, with the reason. A mapped test that fails fails this test unless
// kExpectedFailures lists it with its reason; a listed test that passes fails it too (a stale entry).
// Node tests pass shapes and axes as graph inputs; where the loader needs one as a constant, the test
// binds it to the data set's value (LoadOptions::constantInputs), as an application that knows them would.
// The same runs over the package's models exported from PyTorch (pytorch-converted: its nn modules;
// pytorch-operator: its operators; both at old opsets) and its small multi-node models (simple).
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "onnx/onnx_loader.hpp"
#include "onnx/tensor_proto.hpp"

namespace nnrt::onnxfront {
namespace {

namespace fs = std::filesystem;

const fs::path kTestData = "/usr/share/libonnx-testdata/data";

// Mapped tests whose outputs differ, each with the reason.
const std::map<std::string, std::string> kExpectedFailures = {};

struct CompilationDeleter {
  void operator()(ANeuralNetworksCompilation* c) const { ANeuralNetworksCompilation_free(c); }
};
struct ExecutionDeleter {
  void operator()(ANeuralNetworksExecution* e) const { ANeuralNetworksExecution_free(e); }
};

std::string compare(const HostTensor& got, const HostTensor& want) {
  if (got.type != want.type) return "type differs";
  if (got.bytes.size() != want.bytes.size()) return "size differs";
  size_t n = elementCount(want.dimensions);
  for (size_t i = 0; i < n; ++i) {
    if (want.type == ANEURALNETWORKS_TENSOR_FLOAT32) {
      float g, w;
      std::memcpy(&g, got.bytes.data() + 4 * i, 4);
      std::memcpy(&w, want.bytes.data() + 4 * i, 4);
      if (std::isnan(w) && std::isnan(g)) continue;
      if (g == w) continue;
      if (!(std::fabs(g - w) <= 1e-7 + 1e-3 * std::fabs(w))) {
        return "element " + std::to_string(i) + ": " + std::to_string(g) + " vs " + std::to_string(w);
      }
    } else if (std::memcmp(got.bytes.data() + i * elementSize(want.type),
                           want.bytes.data() + i * elementSize(want.type), elementSize(want.type)) != 0) {
      return "element " + std::to_string(i) + " differs";
    }
  }
  return "";
}

// Runs one data set; "" when every output matches.
std::string runDataSet(ANeuralNetworksCompilation* compilation, const LoadedModel& model,
                       const std::vector<std::string>& graphInputs, const fs::path& set) {
  std::vector<HostTensor> inputs, outputs;
  for (size_t i = 0; i < model.inputs.size(); ++i) {
    size_t file =
        std::find(graphInputs.begin(), graphInputs.end(), model.inputs[i].name) - graphInputs.begin();
    auto t = loadTensorFile(set / ("input_" + std::to_string(file) + ".pb"));
    if (!t.has_value()) return t.error().message;
    inputs.push_back(std::move(*t));
  }
  for (size_t i = 0; i < model.outputs.size(); ++i) {
    auto t = loadTensorFile(set / ("output_" + std::to_string(i) + ".pb"));
    if (!t.has_value()) return t.error().message;
    outputs.push_back(std::move(*t));
  }
  ANeuralNetworksExecution* raw = nullptr;
  if (ANeuralNetworksExecution_create(compilation, &raw) != ANEURALNETWORKS_NO_ERROR)
    return "execution_create failed";
  std::unique_ptr<ANeuralNetworksExecution, ExecutionDeleter> execution(raw);
  std::vector<std::vector<uint32_t>> dims;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::vector<uint32_t> d = inputs[i].dimensions.empty() ? std::vector<uint32_t>{1} : inputs[i].dimensions;
    // 8-bit integers are quantized types of scale 1 and zero point 0 (the loader's encoding).
    const bool quantized = inputs[i].type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM ||
                           inputs[i].type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
    ANeuralNetworksOperandType type{inputs[i].type, static_cast<uint32_t>(d.size()), d.data(),
                                    quantized ? 1.0f : 0.0f, 0};
    const void* data = inputs[i].bytes.empty() ? nullptr : inputs[i].bytes.data();
    int code =
        ANeuralNetworksExecution_setInput(raw, static_cast<int32_t>(i), &type, data, inputs[i].bytes.size());
    if (code != ANEURALNETWORKS_NO_ERROR)
      return "setInput " + std::to_string(i) + " returned " + std::to_string(code);
  }
  std::vector<HostTensor> got(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    got[i].type = model.outputs[i].type;
    got[i].bytes.resize(std::max<size_t>(outputs[i].bytes.size(), 1));
    int code = ANeuralNetworksExecution_setOutput(raw, static_cast<int32_t>(i), nullptr, got[i].bytes.data(),
                                                  got[i].bytes.size());
    if (code != ANEURALNETWORKS_NO_ERROR)
      return "setOutput " + std::to_string(i) + " returned " + std::to_string(code);
  }
  int code = ANeuralNetworksExecution_compute(raw);
  if (code != ANEURALNETWORKS_NO_ERROR) return "compute returned " + std::to_string(code);
  for (size_t i = 0; i < outputs.size(); ++i) {
    got[i].bytes.resize(outputs[i].bytes.size());
    std::string difference = compare(got[i], outputs[i]);
    if (!difference.empty()) return "output " + std::to_string(i) + ": " + difference;
  }
  return "";
}

// Loads the test's model; when the loader needs a graph input as a constant (a shape, axes, bounds:
// "input N ('name') must be a constant"), binds that input to the data set's value and loads again; when
// it needs a value computed from graph inputs, binds the one-element graph inputs.
Result<LoadedModel> loadForDataSet(const fs::path& test, const std::vector<std::string>& graphInputs,
                                   const fs::path& set, int& bound) {
  LoadOptions options;
  while (true) {
    auto model = loadOnnxModel(test / "model.onnx", options);
    if (model.has_value()) return model;
    const std::string& message = model.error().message;
    const std::string marker = "') must be a constant";
    size_t end = message.find(marker);
    size_t begin = end == std::string::npos ? std::string::npos : message.rfind("('", end);
    if (begin == std::string::npos) return model;
    std::string name = message.substr(begin + 2, end - begin - 2);
    size_t file = std::find(graphInputs.begin(), graphInputs.end(), name) - graphInputs.begin();
    if (file == graphInputs.size()) {
      // A value computed from graph inputs (the expanded functions' sizes): bind the one-element inputs.
      bool more = false;
      for (size_t i = 0; i < graphInputs.size(); ++i) {
        if (options.constantInputs.count(graphInputs[i]) != 0) continue;
        auto value = loadTensorFile(set / ("input_" + std::to_string(i) + ".pb"));
        if (!value.has_value() || elementCount(value->dimensions) != 1) continue;
        options.constantInputs[graphInputs[i]] = std::move(*value);
        more = true;
      }
      if (!more) return model;
      ++bound;
      continue;
    }
    if (options.constantInputs.count(name) != 0) return model;
    auto value = loadTensorFile(set / ("input_" + std::to_string(file) + ".pb"));
    if (!value.has_value()) return model;
    options.constantInputs[name] = std::move(*value);
    ++bound;
  }
}

// The operators of `graph` and of the graphs nested in its nodes (If's branches, Loop's body) the loader
// does not map.
void unmappedOperatorsOf(const onnx::GraphProto& graph, std::set<std::string>& missing) {
  for (const auto& node : graph.node()) {
    if (!isOperatorMapped(node.op_type())) missing.insert(node.op_type());
    for (const auto& attribute : node.attribute()) {
      if (attribute.has_g()) unmappedOperatorsOf(attribute.g(), missing);
      for (const auto& g : attribute.graphs())
        unmappedOperatorsOf(g, missing);
    }
  }
}

// Runs every test of `suite` (a folder of kTestData), prints its counts as "ONNX <suite> tests: ...", and
// fails for each mapped test that fails (unless kExpectedFailures lists it) or passes while listed.
void runSuite(const std::string& suite) {
  const fs::path folder = kTestData / suite;
  if (!fs::is_directory(folder)) GTEST_SKIP() << folder << " missing (install libonnx-testdata)";
  std::vector<fs::path> tests;
  for (const auto& entry : fs::directory_iterator(folder))
    tests.push_back(entry.path());
  std::sort(tests.begin(), tests.end());
  int passed = 0, failed = 0, expectedFailed = 0, refused = 0, unmapped = 0, withBoundInputs = 0;
  std::map<std::string, int> unmappedOperators;
  for (const auto& test : tests) {
    const std::string name = test.filename().string();
    onnx::ModelProto proto;
    std::ifstream in(test / "model.onnx", std::ios::binary);
    ASSERT_TRUE(proto.ParseFromIstream(&in)) << name;
    std::set<std::string> missing;
    unmappedOperatorsOf(proto.graph(), missing);
    if (!missing.empty()) {
      ++unmapped;
      for (const auto& op : missing)
        ++unmappedOperators[op];
      continue;
    }
    std::vector<std::string> graphInputs;
    std::set<std::string> initializers;
    for (const auto& t : proto.graph().initializer())
      initializers.insert(t.name());
    for (const auto& info : proto.graph().input()) {
      if (initializers.count(info.name()) == 0) graphInputs.push_back(info.name());
    }
    // Each data set is loaded on its own: inputs bound as constants differ between sets.
    std::string problem, refusal;
    int bound = 0;
    for (int set = 0; problem.empty() && refusal.empty(); ++set) {
      fs::path dataSet = test / ("test_data_set_" + std::to_string(set));
      if (!fs::is_directory(dataSet)) break;
      auto model = loadForDataSet(test, graphInputs, dataSet, bound);
      if (!model.has_value()) {
        refusal = model.error().message;
        break;
      }
      ANeuralNetworksCompilation* raw = nullptr;
      if (ANeuralNetworksCompilation_create(model->model.get(), &raw) != ANEURALNETWORKS_NO_ERROR ||
          ANeuralNetworksCompilation_finish(raw) != ANEURALNETWORKS_NO_ERROR) {
        problem = "compilation failed";
      }
      std::unique_ptr<ANeuralNetworksCompilation, CompilationDeleter> compilation(raw);
      if (problem.empty()) problem = runDataSet(raw, *model, graphInputs, dataSet);
    }
    if (!refusal.empty()) {
      ++refused;
      std::cout << "refused " << name << ": " << refusal << "\n";
      continue;
    }
    if (bound > 0) ++withBoundInputs;
    auto expected = kExpectedFailures.find(name);
    if (problem.empty()) {
      ++passed;
      EXPECT_TRUE(expected == kExpectedFailures.end())
          << name << " passes but is listed as an expected failure";
    } else if (expected != kExpectedFailures.end()) {
      ++expectedFailed;
    } else {
      ++failed;
      ADD_FAILURE() << name << ": " << problem;
    }
  }
  std::cout << "ONNX " << suite << " tests: " << tests.size() << " total, " << passed << " passed, " << failed
            << " failed, " << expectedFailed << " expected failures, " << refused
            << " refused by the loader, " << unmapped << " unmapped; " << withBoundInputs
            << " of the mapped ran with inputs bound as constants\nunmapped operators (tests):";
  for (const auto& [op, count] : unmappedOperators)
    std::cout << " " << op << " (" << count << ")";
  std::cout << "\n";
}


TEST(OnnxNodeTest, MappedNodeTestsMatchOnnx) { runSuite("node"); }

TEST(OnnxNodeTest, PyTorchExportsMatchOnnx) {
  runSuite("pytorch-converted");
  runSuite("pytorch-operator");
}

TEST(OnnxNodeTest, SimpleModelsMatchOnnx) { runSuite("simple"); }

}  // namespace
}  // namespace nnrt::onnxfront
