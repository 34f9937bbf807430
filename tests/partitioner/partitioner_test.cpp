// Exact-structure tests for the partitioner's rules, with small hand-built models and fake devices
// that declare their supported operations and costs (the strategy of Android's TestPartitioning):
// each test states the plan it expects (placements, rules, steps with their exact inputs and
// outputs, dependencies). Randomized property checks live in partitioner_random_test.cpp.
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "partitioner/partitioner.hpp"
#include "test_model.hpp"

namespace nnrt::partition {
namespace {

using namespace nnrt::partition::testing;
using Ops = std::vector<uint32_t>;
using Deps = std::vector<std::pair<size_t, size_t>>;

Plan mustPartition(const driver::Model& model, const std::vector<DeviceView>& devices,
                   const Policy& policy = {}) {
  auto plan = partition(model, devices, policy);
  EXPECT_TRUE(plan.has_value()) << (plan.has_value() ? "" : plan.error().message);
  if (!plan.has_value()) return {};
  EXPECT_EQ(plan->deviceCount, devices.size());
  EXPECT_EQ(plan->candidates.size(), plan->placements.size() * devices.size());
  for (const Placement& placement : plan->placements) {
    for (size_t d = 0; d < devices.size(); ++d) {
      EXPECT_EQ(plan->candidatesOf(placement)[d].device, d);
    }
  }
  return std::move(plan).value();
}

// Placement j's rule and candidate d of placement j, and the text of its exclusion.
std::string rule(const Plan& plan, size_t j, std::span<const DeviceView> devices) {
  return ruleText(plan, plan.placements.at(j), devices);
}
const Candidate& candidate(const Plan& plan, size_t j, size_t d) {
  return plan.candidatesOf(plan.placements.at(j))[d];
}
std::string why(const Plan& plan, size_t j, size_t d, std::span<const DeviceView> devices) {
  return whyText(plan, plan.placements.at(j), candidate(plan, j, d), devices);
}

std::string mustFail(const driver::Model& model, const std::vector<DeviceView>& devices,
                     const Policy& policy = {}) {
  auto plan = partition(model, devices, policy);
  EXPECT_FALSE(plan.has_value());
  if (plan.has_value()) return "";
  EXPECT_EQ(plan.error().status, driver::ErrorStatus::INVALID_ARGUMENT);
  return plan.error().message;
}

void expectStep(const Step& step, size_t device, const Ops& operations, const Ops& inputs,
                const Ops& outputs) {
  EXPECT_EQ(step.device, device);
  EXPECT_EQ(step.operations, operations);
  EXPECT_EQ(step.inputs, inputs);
  EXPECT_EQ(step.outputs, outputs);
}

// in0, in1 -> ADD -> t -> MUL(t, in1) -> out.
struct TwoOps {
  TestModel m;
  uint32_t in0, in1, act, t, out;
  TwoOps() {
    in0 = m.input();
    in1 = m.input();
    act = m.constant();
    t = m.temporary();
    out = m.output();
    m.operation(kAdd, {in0, in1, act}, {t});
    m.operation(kMul, {t, in1, act}, {out});
  }
};

TEST(Partitioner, OneDeviceRunsTheWholeModelAsOneStep) {
  TestModel m;
  const uint32_t a = m.input(), b = m.input(), act = m.constant(), out = m.output();
  m.operation(kAdd, {b, a, act}, {out});
  m.setInputs({b, a});  // the whole-model step keeps the model's own order
  const std::vector<DeviceView> devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(1)};
  const Plan plan = mustPartition(m.model(), devices);
  ASSERT_EQ(plan.steps.size(), 1u);
  expectStep(plan.steps[0], 0, {0}, {b, a}, {out});
  EXPECT_TRUE(plan.dependencies.empty());
  EXPECT_EQ(plan.summary, "whole model on cpu");
  ASSERT_EQ(plan.placements.size(), 1u);
  EXPECT_EQ(rule(plan, 0, devices), "only candidate");
  EXPECT_EQ(plan.placements[0].type, kAdd);
}

TEST(Partitioner, PreferenceChoosesExecTimeOrPowerUsage) {
  TwoOps t;
  FakeDevice gpu{"gpu", NNRT_DEVICE_TYPE_GPU, {{kTensorFloat32, {0.5f, 2.0f}}}, ""};
  const std::vector<DeviceView> devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2), gpu.view(2)};

  Policy fast;
  Plan plan = mustPartition(t.m.model(), devices, fast);
  EXPECT_EQ(plan.summary, "whole model on gpu");
  EXPECT_EQ(plan.placements[0].device, 1u);
  EXPECT_EQ(rule(plan, 0, devices), "cheapest");
  EXPECT_DOUBLE_EQ(candidate(plan, 0, 1).cost, 0.5);

  Policy sustained;
  sustained.preference = NNRT_PREFER_SUSTAINED_SPEED;
  EXPECT_EQ(mustPartition(t.m.model(), devices, sustained).summary, "whole model on gpu");

  Policy lowPower;
  lowPower.preference = NNRT_PREFER_LOW_POWER;
  plan = mustPartition(t.m.model(), devices, lowPower);
  EXPECT_EQ(plan.summary, "whole model on cpu");
  EXPECT_DOUBLE_EQ(candidate(plan, 0, 1).cost, 2.0);
}

TEST(Partitioner, TieGoesToTheEarlierDeviceAndDeviceOrderChangesIt) {
  TwoOps t;
  const std::vector<DeviceView> devices = {uniform("npu", NNRT_DEVICE_TYPE_ACCELERATOR, 0.5f).view(2),
                                           uniform("gpu", NNRT_DEVICE_TYPE_GPU, 0.5f).view(2)};
  Plan plan = mustPartition(t.m.model(), devices);
  EXPECT_EQ(plan.summary, "whole model on npu");
  EXPECT_EQ(rule(plan, 0, devices), "tie at cost 0.5: first in device order");

  Policy policy;
  policy.deviceOrder = {"gpu"};
  plan = mustPartition(t.m.model(), devices, policy);
  EXPECT_EQ(plan.summary, "whole model on gpu");
  EXPECT_EQ(plan.placements[1].device, 1u);
}

TEST(Partitioner, CpuWinsAnyTieItIsPartOf) {
  TwoOps t;
  const std::vector<DeviceView> devices = {uniform("gpu", NNRT_DEVICE_TYPE_GPU, 1.0f).view(2),
                                           uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2)};
  Policy policy;
  policy.deviceOrder = {"gpu", "cpu"};
  const Plan plan = mustPartition(t.m.model(), devices, policy);
  EXPECT_EQ(plan.summary, "whole model on cpu");
  EXPECT_EQ(rule(plan, 0, devices), "tie at cost 1: a CPU device wins ties");
}

TEST(Partitioner, RelaxedModelsUseTheRelaxedNumbers) {
  TestModel m;
  const uint32_t x = m.input(kTensorFloat32), s = m.input(kFloat32), act = m.constant();
  const uint32_t t = m.temporary(kFloat32), out = m.output();
  m.operation(kAdd, {s, s, act}, {t});    // first input FLOAT32: relaxed scalar numbers
  m.operation(kMul, {x, x, act}, {out});  // first input TENSOR_FLOAT32: relaxed tensor numbers
  (void)t;
  FakeDevice gpu{"gpu", NNRT_DEVICE_TYPE_GPU, {{kFloat32, {2.0f, 2.0f}}, {kTensorFloat32, {2.0f, 2.0f}}}, ""};
  std::vector<DeviceView> devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2), gpu.view(2)};
  devices[1].capabilities.relaxedFloat32toFloat16PerformanceScalar = {0.25f, 0.25f};
  devices[1].capabilities.relaxedFloat32toFloat16PerformanceTensor = {0.125f, 0.125f};

  Plan plan = mustPartition(m.model(), devices);  // not relaxed: the table says 2.0
  EXPECT_EQ(plan.summary, "whole model on cpu");

  m.relax();
  plan = mustPartition(m.model(), devices);
  EXPECT_EQ(plan.summary, "whole model on gpu");
  EXPECT_DOUBLE_EQ(candidate(plan, 0, 1).cost, 0.25);
  EXPECT_DOUBLE_EQ(candidate(plan, 1, 1).cost, 0.125);
  // The CPU's relaxed numbers are the defaults (1.0), not its table.
  EXPECT_DOUBLE_EQ(candidate(plan, 0, 0).cost, 1.0);
}

TEST(Partitioner, MissingOperandTypeCostsInfinityButStaysACandidate) {
  TestModel m;
  const uint32_t q = m.input(kTensorQuant8), act = m.constant(), out = m.output(kTensorQuant8);
  m.operation(kAdd, {q, q, act}, {out});
  const std::vector<DeviceView> devices = {
      uniform("npu", NNRT_DEVICE_TYPE_ACCELERATOR, 0.5f).view(1),
      FakeDevice{"dsp", NNRT_DEVICE_TYPE_ACCELERATOR, {{kTensorQuant8, {3.0f, 3.0f}}}, ""}.view(1)};
  Plan plan = mustPartition(m.model(), devices);
  EXPECT_TRUE(std::isinf(candidate(plan, 0, 0).cost));
  EXPECT_FALSE(candidate(plan, 0, 0).excluded());
  EXPECT_EQ(plan.summary, "whole model on dsp");
  EXPECT_EQ(rule(plan, 0, devices), "cheapest");

  // Every candidate infinite: the tie rules decide, and the CPU wins the tie.
  const std::vector<DeviceView> noTable = {uniform("npu", NNRT_DEVICE_TYPE_ACCELERATOR, 0.5f).view(1),
                                           uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(1)};
  plan = mustPartition(m.model(), noTable);
  EXPECT_EQ(plan.summary, "whole model on cpu");
  EXPECT_EQ(rule(plan, 0, noTable), "tie at cost inf: a CPU device wins ties");
  plan = mustPartition(m.model(), {noTable[0]});
  EXPECT_EQ(plan.summary, "whole model on npu");
}

TEST(Partitioner, OperationNoDeviceCanRunIsAnErrorNamingItAndEachReason) {
  TwoOps t;
  const std::vector<DeviceView> devices = {
      uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2, {1}, "MUL needs a rank-4 tensor here"),
      uniform("gpu", NNRT_DEVICE_TYPE_GPU, 0.5f).view(2, {1})};
  const std::string message = mustFail(t.m.model(), devices);
  EXPECT_EQ(
      message,
      "no device can run operation 1 (MUL): cpu: MUL needs a rank-4 tensor here; gpu: not supported by the "
      "driver");
}

TEST(Partitioner, PinIsObeyedWhenThePinnedDeviceCanRunTheOperation) {
  TwoOps t;
  FakeDevice gpu = uniform("opencl:0", NNRT_DEVICE_TYPE_GPU, 3.0f);
  gpu.entry = "opencl";
  const std::vector<DeviceView> devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2), gpu.view(2)};
  Policy policy;
  policy.pins[kMul] = "opencl";  // by entry name
  const Plan plan = mustPartition(t.m.model(), devices, policy);
  EXPECT_EQ(plan.placements[0].device, 0u);
  EXPECT_EQ(rule(plan, 0, devices), "cheapest");
  EXPECT_EQ(plan.placements[1].device, 1u);
  EXPECT_EQ(rule(plan, 1, devices), "pinned by policy");
  EXPECT_EQ(plan.summary, "2 steps on cpu, opencl:0");
}

TEST(Partitioner, PinToADeviceThatCannotRunTheOperationIsIgnoredWithTheReason) {
  TwoOps t;
  const std::vector<DeviceView> devices = {
      uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2),
      uniform("gpu", NNRT_DEVICE_TYPE_GPU, 2.0f).view(2, {1}, "no kernel for MUL")};
  Policy policy;
  policy.pins[kMul] = "gpu";
  policy.pins[kAdd] = "tpu";
  const Plan plan = mustPartition(t.m.model(), devices, policy);
  EXPECT_EQ(plan.placements[1].device, 0u);
  EXPECT_EQ(rule(plan, 1, devices),
            "pin to gpu ignored: gpu cannot run it (no kernel for MUL); only candidate");
  EXPECT_EQ(plan.placements[0].device, 0u);
  EXPECT_EQ(rule(plan, 0, devices), "pin to tpu ignored: no device is named tpu; cheapest");
}

TEST(Partitioner, DenyListRemovesADeviceForAnOperationType) {
  TwoOps t;
  FakeDevice gpu = uniform("opencl:0", NNRT_DEVICE_TYPE_GPU, 0.5f);
  gpu.entry = "opencl";
  const std::vector<DeviceView> devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2), gpu.view(2)};
  Policy policy;
  policy.deny["opencl"] = {kAdd};
  policy.pins[kAdd] = "opencl:0";  // a pin cannot override a deny
  const Plan plan = mustPartition(t.m.model(), devices, policy);
  const Candidate& denied = candidate(plan, 0, 1);
  EXPECT_TRUE(denied.excluded());
  EXPECT_EQ(denied.exclusion, Exclusion::DeniedByPolicy);
  EXPECT_EQ(why(plan, 0, 1, devices), "denied by policy");
  EXPECT_EQ(denied.device, 1u);
  EXPECT_EQ(plan.placements[0].device, 0u);
  EXPECT_EQ(rule(plan, 0, devices),
            "pin to opencl:0 ignored: opencl:0 cannot run it (denied by policy); only candidate");
  EXPECT_EQ(plan.placements[1].device, 1u);
  EXPECT_FALSE(candidate(plan, 1, 1).excluded());
}

TEST(Partitioner, DisabledModePutsTheWholeModelOnTheFallbackDevice) {
  TwoOps t;
  const std::vector<DeviceView> devices = {uniform("gpu", NNRT_DEVICE_TYPE_GPU, 0.125f).view(2),
                                           uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2)};
  Policy policy;
  policy.mode = Mode::Disabled;
  const Plan plan = mustPartition(t.m.model(), devices, policy);
  EXPECT_EQ(plan.summary, "whole model on cpu (partitioning: disabled)");
  ASSERT_EQ(plan.steps.size(), 1u);
  expectStep(plan.steps[0], 1, {0, 1}, {t.in0, t.in1}, {t.out});
  for (const Placement& placement : plan.placements) {
    EXPECT_EQ(placement.device, 1u);
    EXPECT_EQ(placement.rule.kind, RuleKind::PartitioningDisabled);
    EXPECT_EQ(ruleText(plan, placement, devices), "partitioning: disabled");
    EXPECT_DOUBLE_EQ(plan.candidatesOf(placement)[0].cost, 0.125);
  }
}

TEST(Partitioner, DisabledModeFailsWhenTheFallbackCannotRunEverything) {
  TwoOps t;
  std::vector<DeviceView> devices = {uniform("gpu", NNRT_DEVICE_TYPE_GPU, 0.1f).view(2),
                                     uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2, {1}, "no MUL today")};
  Policy policy;
  policy.mode = Mode::Disabled;
  EXPECT_EQ(mustFail(t.m.model(), devices, policy),
            "cpu cannot run operation 1 (MUL): no MUL today (partitioning: disabled)");
  policy.fallbackDevice = "";
  EXPECT_EQ(mustFail(t.m.model(), devices, policy), "partitioning is disabled and no fallback device is set");
  policy.fallbackDevice = "tpu";
  EXPECT_EQ(mustFail(t.m.model(), devices, policy),
            "partitioning is disabled and the fallback device 'tpu' is not among the devices (gpu, cpu)");
}

TEST(Partitioner, ExplicitDevicesAreTheOnlyCandidates) {
  TwoOps t;
  const std::vector<DeviceView> devices = {uniform("npu", NNRT_DEVICE_TYPE_ACCELERATOR, 2.0f).view(2, {0}),
                                           uniform("gpu", NNRT_DEVICE_TYPE_GPU, 3.0f).view(2)};
  Policy policy;
  policy.explicitDevices = true;
  Plan plan = mustPartition(t.m.model(), devices, policy);
  EXPECT_EQ(plan.summary, "2 steps on gpu, npu");
  // Disabled partitioning with explicit devices: the fallback (cpu) is not one of them, so the
  // first device in tie order that runs everything takes the whole model.
  policy.mode = Mode::Disabled;
  plan = mustPartition(t.m.model(), devices, policy);
  EXPECT_EQ(plan.summary, "whole model on gpu (partitioning: disabled)");
  EXPECT_EQ(plan.steps.size(), 1u);
  policy.explicitDevices = false;
  EXPECT_EQ(mustFail(t.m.model(), devices, policy),
            "partitioning is disabled and the fallback device 'cpu' is not among the devices (npu, gpu)");
}

// ADD -> FIBONACCI -> ADD: the extension operation runs only on the device that has the extension,
// even though the CPU's driver (wrongly) claims it.
TEST(Partitioner, ExtensionOperationGoesOnlyToDevicesWithTheExtension) {
  TestModel m;
  m.registerExtension("com.example.fibonacci", 1);
  const int32_t fibonacci = extensionType(1, 0);
  const uint32_t a = m.input(), b = m.input(), act = m.constant();
  const uint32_t sum = m.temporary(), fib = m.temporary(), out = m.output();
  m.operation(kAdd, {a, b, act}, {sum});
  m.operation(fibonacci, {sum}, {fib});
  m.operation(kAdd, {fib, a, act}, {out});
  DeviceView cpu = uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(3);
  DeviceView fibDevice =
      uniform("fibonacci", NNRT_DEVICE_TYPE_ACCELERATOR, 5.0f).view(3, {0, 2}, "only FIBONACCI");
  fibDevice.extensions = {"com.example.fibonacci"};
  const std::vector<DeviceView> devices = {cpu, fibDevice};

  const Plan plan = mustPartition(m.model(), devices);
  ASSERT_EQ(plan.steps.size(), 3u);
  expectStep(plan.steps[0], 0, {0}, {a, b}, {sum});
  expectStep(plan.steps[1], 1, {1}, {sum}, {fib});
  expectStep(plan.steps[2], 0, {2}, {a, fib}, {out});
  EXPECT_EQ(plan.dependencies, (Deps{{0, 1}, {1, 2}}));
  EXPECT_EQ(plan.summary, "3 steps on cpu, fibonacci");
  const Placement& placement = plan.placements[1];
  EXPECT_EQ(placement.type, fibonacci);
  EXPECT_EQ(placement.device, 1u);
  EXPECT_EQ(ruleText(plan, placement, devices),
            "extension com.example.fibonacci: only devices that support it are candidates; only candidate");
  EXPECT_TRUE(candidate(plan, 1, 0).excluded());
  EXPECT_EQ(why(plan, 1, 0, devices), "does not support extension com.example.fibonacci");
  EXPECT_EQ(why(plan, 0, 1, devices), "only FIBONACCI");

  // Without a device that has the extension, the operation has no candidate.
  EXPECT_EQ(mustFail(m.model(), {cpu}),
            "no device can run operation 1 (com.example.fibonacci:0): cpu: does not support extension "
            "com.example.fibonacci");
}

// Step inputs are [model inputs, temporaries from other steps, model outputs read back], outputs
// [model outputs, temporaries other steps read], each group by ascending operand index; a model
// output read by a later step is an output of its producer and an input of the reader.
TEST(Partitioner, StepInputsAndOutputsFollowAndroidsOrder) {
  TestModel m;
  const uint32_t late = m.temporary();                // 0: temporary written by gpu, read by cpu
  const uint32_t in0 = m.input();                     // 1
  const uint32_t axis = m.constant();                 // 2
  const uint32_t result = m.output();                 // 3: cpu's result
  const uint32_t early = m.temporary();               // 4: temporary written by gpu, read by cpu
  const uint32_t shown = m.output();                  // 5: model output written by gpu, read back by cpu
  const uint32_t in1 = m.input();                     // 6
  const uint32_t none = m.omitted();                  // 7
  const uint32_t internal = m.temporary();            // 8: gpu-internal
  m.operation(kMul, {in1, in0, axis}, {internal});    // 0 gpu
  m.operation(kMul, {internal, in0, axis}, {early});  // 1 gpu
  m.operation(kSub, {internal, in1, axis}, {late, shown});                     // 2 gpu
  m.operation(kConcat, {shown, early, in1, late, in0, none, axis}, {result});  // 3 cpu
  const std::vector<DeviceView> devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(4, {0, 1, 2}),
                                           uniform("gpu", NNRT_DEVICE_TYPE_GPU, 1.0f).view(4, {3})};
  const Plan plan = mustPartition(m.model(), devices);
  ASSERT_EQ(plan.steps.size(), 2u);
  expectStep(plan.steps[0], 1, {0, 1, 2}, {in0, in1}, {shown, late, early});
  expectStep(plan.steps[1], 0, {3}, {in0, in1, late, early, shown}, {result});
  EXPECT_EQ(plan.dependencies, (Deps{{0, 1}}));
}

// in -> A(cpu) -> {B(gpu), C(npu)} -> D(cpu).
struct Diamond {
  TestModel m;
  uint32_t in, act, t0, t1, t2, out;
  Diamond() {
    in = m.input();
    act = m.constant();
    t0 = m.temporary();
    t1 = m.temporary();
    t2 = m.temporary();
    out = m.output();
    m.operation(kAdd, {in, in, act}, {t0});
    m.operation(kMul, {t0, t0, act}, {t1});
    m.operation(kConv, {t0, act}, {t2});
    m.operation(kAdd, {t1, t2, act}, {out});
  }
};

TEST(Partitioner, DiamondFormsFourStepsWithTheirDependencies) {
  Diamond d;
  const std::vector<DeviceView> devices = {
      uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(4, {1, 2}),
      uniform("gpu", NNRT_DEVICE_TYPE_GPU, 1.0f).view(4, {0, 2, 3}),
      uniform("npu", NNRT_DEVICE_TYPE_ACCELERATOR, 1.0f).view(4, {0, 1, 3})};
  // Queues are drained CPU first, then the other devices from the last in tie order: npu before gpu.
  Plan plan = mustPartition(d.m.model(), devices);
  ASSERT_EQ(plan.steps.size(), 4u);
  expectStep(plan.steps[0], 0, {0}, {d.in}, {d.t0});
  expectStep(plan.steps[1], 2, {2}, {d.t0}, {d.t2});
  expectStep(plan.steps[2], 1, {1}, {d.t0}, {d.t1});
  expectStep(plan.steps[3], 0, {3}, {d.t1, d.t2}, {d.out});
  EXPECT_EQ(plan.dependencies, (Deps{{0, 1}, {0, 2}, {1, 3}, {2, 3}}));
  EXPECT_EQ(plan.summary, "4 steps on cpu, npu, gpu");

  Policy policy;
  policy.deviceOrder = {"npu", "gpu"};
  plan = mustPartition(d.m.model(), devices, policy);
  ASSERT_EQ(plan.steps.size(), 4u);
  EXPECT_EQ(plan.steps[1].device, 1u);
  EXPECT_EQ(plan.steps[2].device, 2u);
}

TEST(Partitioner, OperationsThatBecomeReadyWhileAQueueDrainsJoinThatStep) {
  TestModel m;
  const uint32_t a = m.input(), b = m.input(), act = m.constant();
  const uint32_t t = m.temporary(), out0 = m.output(), out1 = m.output();
  m.operation(kAdd, {a, a, act}, {t});     // cpu
  m.operation(kMul, {b, b, act}, {out1});  // gpu, ready at once
  m.operation(kAdd, {t, a, act}, {out0});  // cpu, ready once op 0 is placed
  const std::vector<DeviceView> devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(3, {1}),
                                           uniform("gpu", NNRT_DEVICE_TYPE_GPU, 1.0f).view(3, {0, 2})};
  const Plan plan = mustPartition(m.model(), devices);
  ASSERT_EQ(plan.steps.size(), 2u);
  expectStep(plan.steps[0], 0, {0, 2}, {a}, {out0});
  expectStep(plan.steps[1], 1, {1}, {b}, {out1});
  EXPECT_TRUE(plan.dependencies.empty());
}

// Android's OperandTracker wakes the readers of an operation's outputs output by output, each
// output's readers by ascending operation index; the step lists operations in that order.
TEST(Partitioner, ReadyOperationsQueueInAndroidsOrder) {
  TestModel m;
  const uint32_t a = m.input(), act = m.constant();
  const uint32_t x = m.temporary(), y = m.temporary(), gpuOut = m.output(), out1 = m.output(),
                 out2 = m.output();
  m.operation(kSub, {a, a, act}, {x, y});    // 0 cpu
  m.operation(kAdd, {y, a, act}, {out1});    // 1 cpu, reads the second output
  m.operation(kAdd, {x, a, act}, {out2});    // 2 cpu, reads the first output
  m.operation(kMul, {a, a, act}, {gpuOut});  // 3 gpu
  const std::vector<DeviceView> devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(4, {3}),
                                           uniform("gpu", NNRT_DEVICE_TYPE_GPU, 1.0f).view(4, {0, 1, 2})};
  const Plan plan = mustPartition(m.model(), devices);
  ASSERT_EQ(plan.steps.size(), 2u);
  expectStep(plan.steps[0], 0, {0, 2, 1}, {a}, {out1, out2});
  expectStep(plan.steps[1], 1, {3}, {a}, {gpuOut});
}

TEST(Partitioner, StepThatReadsOnlyConstantsIsAllowed) {
  TestModel m;
  const uint32_t c0 = m.constant(kTensorFloat32), c1 = m.constant(kTensorFloat32), act = m.constant();
  const uint32_t in = m.input(), t = m.temporary(), out = m.output();
  m.operation(kAdd, {c0, c1, act}, {t});
  m.operation(kMul, {t, in, act}, {out});
  const std::vector<DeviceView> devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2, {0}),
                                           uniform("gpu", NNRT_DEVICE_TYPE_GPU, 1.0f).view(2, {1})};
  const Plan plan = mustPartition(m.model(), devices);
  ASSERT_EQ(plan.steps.size(), 2u);
  expectStep(plan.steps[0], 1, {0}, {}, {t});
  expectStep(plan.steps[1], 0, {1}, {in, t}, {out});
}

TEST(Partitioner, IfCostsIfPerformancePlusHalfOfBothBranches) {
  TestModel m;
  for (uint32_t branch = 0; branch < 2; ++branch) {
    TestSubgraph& body = m.referenced(branch);
    const uint32_t x = body.input(), act = body.constant(), y = body.output();
    body.operation(kAdd, {x, x, act}, {y});
  }
  const uint32_t cond = m.input(static_cast<int32_t>(driver::OperandType::TENSOR_BOOL8));
  const uint32_t thenRef = m.subgraphReference(0), elseRef = m.subgraphReference(1);
  const uint32_t x = m.input(), out = m.output();
  m.operation(kIf, {cond, thenRef, elseRef, x}, {out});
  std::vector<DeviceView> devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(1),
                                     uniform("gpu", NNRT_DEVICE_TYPE_GPU, 0.25f).view(1)};
  devices[1].capabilities.ifPerformance = {0.5f, 0.5f};
  const Plan plan = mustPartition(m.model(), devices);
  EXPECT_DOUBLE_EQ(candidate(plan, 0, 0).cost, 1.0 + 0.5 * (1.0 + 1.0));
  EXPECT_DOUBLE_EQ(candidate(plan, 0, 1).cost, 0.5 + 0.5 * (0.25 + 0.25));
  EXPECT_EQ(plan.summary, "whole model on gpu");
}

// x + x -> t, then IF(cond, then 0, else 1, t) -> out; branches t + t.
struct IfAfterAdd {
  TestModel m;
  uint32_t cond = 0, x = 0, t = 0, out = 0;
  IfAfterAdd() {
    for (uint32_t branch = 0; branch < 2; ++branch) {
      TestSubgraph& body = m.referenced(branch);
      const uint32_t in = body.input(), act = body.constant(), y = body.output();
      body.operation(kAdd, {in, in, act}, {y});
    }
    cond = m.input(static_cast<int32_t>(driver::OperandType::TENSOR_BOOL8));
    x = m.input();
    const uint32_t act = m.constant();
    t = m.temporary();
    const uint32_t thenRef = m.subgraphReference(0), elseRef = m.subgraphReference(1);
    out = m.output();
    m.operation(kAdd, {x, x, act}, {t});
    m.operation(kIf, {cond, thenRef, elseRef, t}, {out});
  }
};

TEST(Partitioner, ControlFlowNoDeviceRunsWholeIsInterpretedInAStepOfItsOwn) {
  IfAfterAdd f;
  const std::vector<DeviceView> devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2, {1}),
                                           uniform("gpu", NNRT_DEVICE_TYPE_GPU, 0.5f).view(2, {1})};
  const Plan plan = mustPartition(f.m.model(), devices);
  ASSERT_EQ(plan.steps.size(), 2u);
  expectStep(plan.steps[0], 1, {0}, {f.x}, {f.t});
  expectStep(plan.steps[1], kInterpreter, {1}, {f.cond, f.t}, {f.out});
  EXPECT_EQ(plan.steps[1].subgraphs, (std::vector<uint32_t>{0, 1}));
  EXPECT_TRUE(plan.steps[1].interpreted());
  EXPECT_EQ(plan.placements[1].device, kInterpreter);
  EXPECT_EQ(rule(plan, 1, devices), "control flow: interpreted by the runtime");
  EXPECT_EQ(plan.summary, "2 steps on gpu; 1 interpreted by the runtime");
  EXPECT_EQ(plan.dependencies, (std::vector<std::pair<size_t, size_t>>{{0, 1}}));
}

// Android's rule: control flow a CPU-type device would run is interpreted (its subgraphs may then go
// elsewhere); another device that is cheapest runs it whole.
TEST(Partitioner, ControlFlowTheCpuWouldRunIsInterpreted) {
  IfAfterAdd f;
  const std::vector<DeviceView> cpuOnly = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2)};
  const Plan interpreted = mustPartition(f.m.model(), cpuOnly);
  ASSERT_EQ(interpreted.steps.size(), 2u);
  EXPECT_TRUE(interpreted.steps[1].interpreted());
  const std::vector<DeviceView> withGpu = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2),
                                           uniform("gpu", NNRT_DEVICE_TYPE_GPU, 0.25f).view(2)};
  const Plan whole = mustPartition(f.m.model(), withGpu);
  EXPECT_EQ(whole.summary, "whole model on gpu");
}

TEST(Partitioner, DisabledPartitioningStillInterpretsControlFlow) {
  IfAfterAdd f;
  const std::vector<DeviceView> devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2, {1})};
  Policy disabled;
  disabled.mode = Mode::Disabled;
  const Plan plan = mustPartition(f.m.model(), devices, disabled);
  ASSERT_EQ(plan.steps.size(), 2u);
  expectStep(plan.steps[0], 0, {0}, {f.x}, {f.t});
  EXPECT_TRUE(plan.steps[1].interpreted());
  EXPECT_EQ(plan.summary, "whole model on cpu (partitioning: disabled), control flow interpreted");
}

TEST(Partitioner, WholeModelPlanUsesTheGivenReason) {
  TwoOps t;
  const std::vector<DeviceView> devices = {uniform("gpu", NNRT_DEVICE_TYPE_GPU, 0.5f).view(2),
                                           uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2, {}, "")};
  auto plan = wholeModelPlan(t.m.model(), devices, 1, "fallback: gpu failed to compile step 0");
  ASSERT_TRUE(plan.has_value()) << plan.error().message;
  EXPECT_EQ(plan->summary, "whole model on cpu (fallback: gpu failed to compile step 0)");
  ASSERT_EQ(plan->steps.size(), 1u);
  expectStep(plan->steps[0], 1, {0, 1}, {t.in0, t.in1}, {t.out});
  ASSERT_EQ(plan->placements.size(), 2u);
  EXPECT_EQ(rule(*plan, 1, devices), "fallback: gpu failed to compile step 0");
  EXPECT_EQ(plan->candidatesOf(plan->placements[1]).size(), 2u);
  EXPECT_EQ(plan->strings, (std::vector<std::string>{"fallback: gpu failed to compile step 0"}));

  const std::vector<DeviceView> partial = {devices[0],
                                           uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2, {0})};
  auto failed = wholeModelPlan(t.m.model(), partial, 1, "fallback");
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().message,
            "cpu cannot run operation 0 (ADD): not supported by the driver (fallback)");
  EXPECT_FALSE(wholeModelPlan(t.m.model(), partial, 2, "fallback").has_value());
}

TEST(Partitioner, RejectsModelsItCannotPlan) {
  TwoOps t;
  const std::vector<DeviceView> devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2)};
  EXPECT_EQ(mustFail(t.m.model(), {}), "no device to partition the model over");
  EXPECT_EQ(mustFail(t.m.model(), {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(3)}),
            "device cpu reports support for 3 operations but the model has 2");

  TestModel unordered;
  const uint32_t in = unordered.input(), act = unordered.constant(), a = unordered.temporary(),
                 out = unordered.output();
  unordered.operation(kMul, {a, in, act}, {out});
  unordered.operation(kAdd, {in, in, act}, {a});
  EXPECT_EQ(mustFail(unordered.model(), devices),
            "the operations are not in topological order (operation 0: operand 2 is written by operation 1)");

  TestModel cycle;
  const uint32_t x = cycle.input(), c = cycle.constant(), p = cycle.temporary(), q = cycle.temporary(),
                 o = cycle.output();
  cycle.operation(kAdd, {x, q, c}, {p});
  cycle.operation(kAdd, {p, x, c}, {q, o});
  EXPECT_EQ(mustFail(cycle.model(), devices),
            "the operations form a cycle (operation 0: operand 3 is written by operation 1)");
}

TEST(Partitioner, DescribePlanListsStepsAndCandidates) {
  TwoOps t;
  const std::vector<DeviceView> devices = {uniform("cpu", NNRT_DEVICE_TYPE_CPU, 1.0f).view(2, {1}, "no MUL"),
                                           uniform("gpu", NNRT_DEVICE_TYPE_GPU, 0.5f).view(2)};
  const Plan plan = mustPartition(t.m.model(), devices);
  const std::string text = describePlan(plan, devices);
  EXPECT_EQ(text,
            "plan: whole model on gpu\n"
            "step 0 on gpu: operations 0, 1; inputs 0, 1; outputs 4\n"
            "operation 0 (ADD) -> gpu: cheapest\n"
            "    cpu  cost 1\n"
            "    gpu  cost 0.5\n"
            "operation 1 (MUL) -> gpu: only candidate\n"
            "    cpu  excluded: no MUL\n"
            "    gpu  cost 0.5\n");
}

}  // namespace
}  // namespace nnrt::partition
