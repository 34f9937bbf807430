// Randomized checks of the partitioner (the strategy of Android's TestPartitioningRandom): random
// DAGs over three fake devices with random costs and random support. Instead of expected plans, each
// plan is checked against properties recomputed here from first principles with plain sets:
//  - every placement is an allowed candidate no other allowed candidate beats;
//  - every operation is in exactly one step, on its placement's device, after everything it reads;
//  - each step's inputs and outputs are exactly the operands crossing its boundary, in Android's
//    group order, and the dependencies are exactly the pairs of steps an operand crosses between.
#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "partitioner/partitioner.hpp"
#include "test_model.hpp"

namespace nnrt::partition {
namespace {

using namespace nnrt::partition::testing;

struct RandomCase {
  TestModel model;
  std::vector<DeviceView> devices;
};

void build(RandomCase& c, std::mt19937& rng) {
  TestModel& m = c.model;
  const int32_t types[] = {kAdd, kMul, kConv};
  const uint32_t act = m.constant();
  std::vector<uint32_t> readable;
  const size_t inputCount = 1 + rng() % 3;
  for (size_t i = 0; i < inputCount; ++i)
    readable.push_back(m.input());
  const size_t operationCount = 1 + rng() % 40;
  for (size_t j = 0; j < operationCount; ++j) {
    std::vector<uint32_t> reads;
    const size_t readCount = 1 + rng() % 3;
    for (size_t r = 0; r < readCount; ++r)
      reads.push_back(readable[rng() % readable.size()]);
    reads.push_back(act);
    const uint32_t out = rng() % 4 == 0 ? m.output() : m.temporary();
    m.operation(types[rng() % 3], reads, {out});
    readable.push_back(out);
  }
  const float costs[] = {0.5f, 1.0f, 2.0f};
  c.devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, costs[rng() % 3]).view(operationCount),
               uniform("gpu", NNRT_DEVICE_TYPE_GPU, costs[rng() % 3]).view(operationCount),
               uniform("npu", NNRT_DEVICE_TYPE_ACCELERATOR, costs[rng() % 3]).view(operationCount)};
  for (size_t j = 0; j < operationCount; ++j) {
    for (DeviceView& device : c.devices)
      device.supported[j] = rng() % 3 != 0;
    if (std::none_of(c.devices.begin(), c.devices.end(),
                     [j](const DeviceView& d) { return d.supported[j]; })) {
      c.devices[rng() % 3].supported[j] = true;
    }
  }
}

void checkPlan(const driver::Model& model, const std::vector<DeviceView>& devices, const Plan& plan) {
  const auto operations = model.main().operations();
  const auto operands = model.main().operands();
  ASSERT_EQ(plan.placements.size(), operations.size());

  // Placements: allowed, and nothing allowed is cheaper.
  for (const Placement& p : plan.placements) {
    const auto candidates = plan.candidatesOf(p);
    ASSERT_EQ(candidates.size(), devices.size());
    ASSERT_LT(p.device, devices.size());
    EXPECT_FALSE(candidates[p.device].excluded());
    for (const Candidate& other : candidates) {
      if (!other.excluded()) {
        EXPECT_LE(candidates[p.device].cost, other.cost) << ruleText(plan, p, devices);
      }
    }
  }

  // Steps: every operation once, on its device, after what it reads.
  std::map<uint32_t, uint32_t> producer;
  for (uint32_t j = 0; j < operations.size(); ++j) {
    for (uint32_t k : driver::outputs(operations[j]))
      producer[k] = j;
  }
  std::vector<int> stepOf(operations.size(), -1);
  std::vector<int> position(operations.size(), -1);
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    for (size_t i = 0; i < plan.steps[s].operations.size(); ++i) {
      const uint32_t j = plan.steps[s].operations[i];
      ASSERT_LT(j, operations.size());
      ASSERT_EQ(stepOf[j], -1) << "operation " << j << " is in two steps";
      stepOf[j] = static_cast<int>(s);
      position[j] = static_cast<int>(i);
      EXPECT_EQ(plan.steps[s].device, plan.placements[j].device);
    }
  }
  for (uint32_t j = 0; j < operations.size(); ++j) {
    ASSERT_NE(stepOf[j], -1) << "operation " << j << " is in no step";
    for (uint32_t k : driver::inputs(operations[j])) {
      auto it = producer.find(k);
      if (it == producer.end()) continue;
      const uint32_t p = it->second;
      EXPECT_TRUE(stepOf[p] < stepOf[j] || (stepOf[p] == stepOf[j] && position[p] < position[j]));
    }
  }
  const bool oneDevice = std::all_of(plan.placements.begin(), plan.placements.end(), [&](const Placement& p) {
    return p.device == plan.placements[0].device;
  });
  EXPECT_EQ(plan.steps.size() == 1, oneDevice);
  if (oneDevice) return;

  // Step boundaries and dependencies.
  std::set<std::pair<size_t, size_t>> dependencies;
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    std::set<uint32_t> modelInputs, temporaries, outputsReadBack, modelOutputs, temporariesOut;
    for (uint32_t j : plan.steps[s].operations) {
      for (uint32_t k : driver::inputs(operations[j])) {
        if (operands[k].lifetime == NNRT_LIFETIME_SUBGRAPH_INPUT) modelInputs.insert(k);
        auto it = producer.find(k);
        if (it == producer.end() || stepOf[it->second] == static_cast<int>(s)) continue;
        (operands[k].lifetime == NNRT_LIFETIME_TEMPORARY_VARIABLE ? temporaries : outputsReadBack).insert(k);
        dependencies.insert({static_cast<size_t>(stepOf[it->second]), s});
      }
      for (uint32_t k : driver::outputs(operations[j])) {
        if (operands[k].lifetime == NNRT_LIFETIME_SUBGRAPH_OUTPUT) {
          modelOutputs.insert(k);
          continue;
        }
        for (uint32_t c = 0; c < operations.size(); ++c) {
          const auto reads = driver::inputs(operations[c]);
          if (stepOf[c] != static_cast<int>(s) && std::find(reads.begin(), reads.end(), k) != reads.end()) {
            temporariesOut.insert(k);
          }
        }
      }
    }
    std::vector<uint32_t> inputs(modelInputs.begin(), modelInputs.end());
    inputs.insert(inputs.end(), temporaries.begin(), temporaries.end());
    inputs.insert(inputs.end(), outputsReadBack.begin(), outputsReadBack.end());
    std::vector<uint32_t> outputs(modelOutputs.begin(), modelOutputs.end());
    outputs.insert(outputs.end(), temporariesOut.begin(), temporariesOut.end());
    EXPECT_EQ(plan.steps[s].inputs, inputs) << "step " << s;
    EXPECT_EQ(plan.steps[s].outputs, outputs) << "step " << s;
  }
  const std::vector<std::pair<size_t, size_t>> expected(dependencies.begin(), dependencies.end());
  EXPECT_EQ(plan.dependencies, expected);
  for (const auto& [producerStep, consumerStep] : plan.dependencies)
    EXPECT_LT(producerStep, consumerStep);
}

TEST(PartitionerRandom, PlansKeepTheirInvariants) {
  std::mt19937 rng(20240607);
  const int32_t preferences[] = {NNRT_PREFER_LOW_POWER, NNRT_PREFER_FAST_SINGLE_ANSWER,
                                 NNRT_PREFER_SUSTAINED_SPEED};
  size_t multiStep = 0;
  for (int trial = 0; trial < 300; ++trial) {
    RandomCase c;
    build(c, rng);
    Policy policy;
    policy.preference = preferences[rng() % 3];
    if (rng() % 2 == 0) policy.deviceOrder = {"npu", "gpu"};
    const driver::Model model = c.model.model();
    auto plan = partition(model, c.devices, policy);
    ASSERT_TRUE(plan.has_value()) << "trial " << trial << ": " << plan.error().message;
    SCOPED_TRACE("trial " + std::to_string(trial) + ": " + plan->summary);
    checkPlan(model, c.devices, *plan);
    if (plan->steps.size() > 1) ++multiStep;
  }
  EXPECT_GT(multiStep, 100u);  // the cases exercise step formation, not only whole-model plans
}

}  // namespace
}  // namespace nnrt::partition
