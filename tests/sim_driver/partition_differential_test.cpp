// Randomized differential test of partitioning. Strategy: for each seed, a random graph of 2 to 100
// operations the cpu plugin runs (element-wise arithmetic and activations, broadcasting constants,
// operands shared by several operations, dead branches, model outputs that later operations read)
// is compiled twice — once for the cpu alone, once over the cpu and one to three simulated devices
// that each support a random subset of the operation types at a random cost. The simulated devices
// compute with the cpu's reference kernels and the cpu with its fast ones where exact (oneDNN's
// ADD, SUB, MUL, RELU*), so however the graph is split into steps, the outputs must be equal. Android does the same with its TestPartitioningRandom.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

#include "core/compilation/compilation.hpp"
#include "core/device/device_registry.hpp"
#include "core/execution/execution.hpp"
#include "core/model/model.hpp"

namespace nnrt {
namespace {

using driver::OperationType;

constexpr int kSeeds = 200;
const OperationType kBinary[] = {OperationType::ADD, OperationType::SUB, OperationType::MUL};
const OperationType kUnary[] = {OperationType::RELU, OperationType::RELU1, OperationType::RELU6,
                                OperationType::LOGISTIC, OperationType::TANH};
const char* kTypeNames[] = {"ADD", "SUB", "MUL", "RELU", "RELU1", "RELU6", "LOGISTIC", "TANH"};

struct RandomGraph {
  std::shared_ptr<const FinishedModel> model;
  std::vector<std::vector<float>> inputs;  // per model input
  std::vector<size_t> outputElements;      // per model output
  size_t operations = 0;
};

const std::vector<uint32_t> kShape = {2, 3};
constexpr size_t kElements = 6;

RandomGraph makeGraph(std::mt19937& gen, const DeviceRegistry& registry) {
  ModelBuilder m(registry.extensions());
  const int32_t tensor = static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32);
  uint32_t next = 0;
  auto add = [&](std::vector<uint32_t> dims) {
    EXPECT_TRUE(m.addOperand(tensor, dims, 0, 0));
    return next++;
  };
  std::uniform_real_distribution<float> value(-2.0f, 2.0f);
  RandomGraph g;
  // Model inputs.
  std::vector<uint32_t> inputs, available;
  const int inputCount = 1 + static_cast<int>(gen() % 3);
  for (int i = 0; i < inputCount; ++i) {
    inputs.push_back(add(kShape));
    available.push_back(inputs.back());
    std::vector<float> data(kElements);
    for (float& v : data) v = value(gen);
    g.inputs.push_back(std::move(data));
  }
  // One activation scalar per fused activation code, shared by every binary operation.
  uint32_t activations[4];
  for (int32_t code = 0; code < 4; ++code) {
    EXPECT_TRUE(m.addOperand(static_cast<int32_t>(driver::OperandType::INT32), {}, 0, 0));
    activations[code] = next++;
    EXPECT_TRUE(m.setOperandValue(activations[code], &code, sizeof code));
  }
  g.operations = 2 + gen() % 99;
  std::vector<uint32_t> produced;
  for (size_t op = 0; op < g.operations; ++op) {
    uint32_t a = available[gen() % available.size()];
    uint32_t out = add(kShape);
    if (gen() % 3 != 0) {
      OperationType type = kBinary[gen() % 3];
      uint32_t b;
      if (gen() % 3 == 0) {  // a constant, broadcast along the last axis or full-size
        std::vector<uint32_t> dims = gen() % 2 ? std::vector<uint32_t>{3} : kShape;
        b = add(dims);
        std::vector<float> data(dims.size() == 1 ? 3 : kElements);
        for (float& v : data) v = value(gen);
        EXPECT_TRUE(m.setOperandValue(b, data.data(), data.size() * sizeof(float)));
      } else {
        b = available[gen() % available.size()];
      }
      const uint32_t in[] = {a, b, activations[gen() % 4]};
      EXPECT_TRUE(m.addOperation(static_cast<int32_t>(type), in, std::span<const uint32_t>(&out, 1)));
    } else {
      OperationType type = kUnary[gen() % 5];
      EXPECT_TRUE(m.addOperation(static_cast<int32_t>(type), std::span<const uint32_t>(&a, 1),
                                 std::span<const uint32_t>(&out, 1)));
    }
    available.push_back(out);
    produced.push_back(out);
  }
  // Outputs: the last operation's result plus a random few (some of which later operations read);
  // the rest of the results are dead branches or temporaries.
  std::vector<uint32_t> outputs = {produced.back()};
  for (size_t i = 0; i + 1 < produced.size(); ++i) {
    if (gen() % 6 == 0) outputs.push_back(produced[i]);
  }
  EXPECT_TRUE(m.identifyInputsAndOutputs(inputs, outputs));
  auto finished = m.finish();
  EXPECT_TRUE(finished.has_value()) << (finished ? "" : finished.error().message);
  g.model = m.finishedModel();
  g.outputElements.assign(outputs.size(), kElements);
  return g;
}

std::unique_ptr<DeviceRegistry> randomRegistry(std::mt19937& gen, std::string& description) {
  std::ostringstream yaml;
  yaml << "devices:\n  - name: cpu\n    library: " NNRT_PLUGIN_DIR "/libnnrt_driver_cpu.so\n"
       << "    options: {threads: \"1\"}\n";
  const int simulated = 1 + static_cast<int>(gen() % 3);
  const char* costs[] = {"0.3", "0.5", "1.0", "1.5"};
  for (int d = 0; d < simulated; ++d) {
    std::string ops;
    for (const char* name : kTypeNames) {
      if (gen() % 2) ops += (ops.empty() ? "" : ",") + std::string(name);
    }
    if (ops.empty()) ops = "ADD";
    std::string cost = costs[gen() % 4];
    yaml << "  - name: sim" << d << "\n    library: " NNRT_TEST_PLUGIN_DIR "/libnnrt_driver_sim.so\n"
         << "    options: {latency_ms: \"0\", ops: \"" << ops << "\", exec_time: \"" << cost << "\"}\n";
    description += " sim" + std::to_string(d) + "(" + ops + " @" + cost + ")";
  }
  yaml << "policy:\n  health_check_interval_ms: 0\n";
  auto config = config::parseConfig(yaml.str(), NNRT_PLUGIN_DIR "/random.yaml", NNRT_PLUGIN_DIR);
  EXPECT_TRUE(config.has_value()) << config.error().message;
  return DeviceRegistry::create(std::move(*config));
}

// Runs the graph on `compiled` and returns every output's bytes.
std::vector<std::vector<float>> run(const std::shared_ptr<const CompiledModel>& compiled, const RandomGraph& g) {
  Execution e(compiled);
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    EXPECT_TRUE(e.setInput(static_cast<int32_t>(i), nullptr, g.inputs[i].data(), kElements * sizeof(float)));
  }
  std::vector<std::vector<float>> outputs(g.outputElements.size(), std::vector<float>(kElements));
  for (size_t i = 0; i < outputs.size(); ++i) {
    EXPECT_TRUE(e.setOutput(static_cast<int32_t>(i), nullptr, outputs[i].data(), kElements * sizeof(float)));
  }
  auto result = e.compute();
  EXPECT_TRUE(result.has_value()) << (result ? "" : result.error().message);
  return outputs;
}

TEST(PartitionDifferentialTest, PartitionedResultsEqualSingleDeviceResults) {
  int multiStep = 0;
  for (int seed = 0; seed < kSeeds; ++seed) {
    std::mt19937 gen(seed);
    std::string devices;
    auto registry = randomRegistry(gen, devices);
    RandomGraph g = makeGraph(gen, *registry);
    SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(g.operations) + " operations, devices cpu" +
                 devices);

    Compilation single(g.model, *registry, {registry->find("cpu")});
    ASSERT_TRUE(single.finish());
    Compilation partitioned(g.model, *registry, {});
    auto finished = partitioned.finish();
    ASSERT_TRUE(finished.has_value()) << finished.error().message;
    multiStep += partitioned.compiled()->steps().size() > 1 ? 1 : 0;

    auto expected = run(single.compiled(), g);
    auto actual = run(partitioned.compiled(), g);
    // Equal values (NaN matching NaN): the cpu's fast kernels and the reference kernels the simulated
    // devices run may give zeros different signs (relu(-0) is +0 in oneDNN), nothing else.
    for (size_t o = 0; o < expected.size(); ++o) {
      for (size_t i = 0; i < kElements; ++i) {
        const float e = expected[o][i], a = actual[o][i];
        ASSERT_TRUE(e == a || (std::isnan(e) && std::isnan(a)))
            << "output " << o << " element " << i << ": " << e << " alone, " << a << " partitioned; plan: "
            << partitioned.compiled()->plan().plan.summary;
      }
    }
  }
  // The test means something only if many graphs really were split.
  EXPECT_GE(multiStep, kSeeds / 2);
}

}  // namespace
}  // namespace nnrt
