// The conformance suite through the public C API, as an application (and Android's conformance
// tests) would run it: each case and each of its forms is built with ANeuralNetworksModel_*, compiled
// by the runtime (validation, planning and the partitioner over the configured devices: the cpu alone,
// runtime_cpu.yaml) and run in each way Android's conformance runs a model: compute, startCompute,
// a burst, startComputeWithDependencies, and with every input and output in a device memory
// (ANeuralNetworksMemory_createFromDesc, filled and read back with ANeuralNetworksMemory_copy). Output
// shapes come from getOutputOperandDimensions; the values are checked as the driver-level suite checks
// them.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/operation_case.hpp"
#include "support/capi_memory.hpp"
#include "support/tensor_data.hpp"

namespace nnrt::test::conformance {
namespace {

using nnrt::test::describedMemory;
using nnrt::test::SharedBytes;

enum class Mode { Compute, StartCompute, Burst, Fenced, DeviceMemory };

const char* modeName(Mode mode) {
  switch (mode) {
    case Mode::Compute:
      return "compute";
    case Mode::StartCompute:
      return "start_compute";
    case Mode::Burst:
      return "burst";
    case Mode::Fenced:
      return "fenced";
    case Mode::DeviceMemory:
      return "device_memory";
  }
  return "unknown";
}

class RuntimeConformance : public ::testing::TestWithParam<std::tuple<const OperationCase*, Mode>> {};

std::vector<const OperationCase*> everyCase() {
  std::vector<const OperationCase*> cases;
  for (const OperationCase& c : allOperationCases()) cases.push_back(&c);
  return cases;
}

struct Handles {
  ANeuralNetworksModel* model = nullptr;
  ANeuralNetworksCompilation* compilation = nullptr;
  ANeuralNetworksExecution* execution = nullptr;
  ANeuralNetworksBurst* burst = nullptr;
  ANeuralNetworksEvent* event = nullptr;
  std::vector<ANeuralNetworksMemory*> memories;
  ~Handles() {
    ANeuralNetworksEvent_free(event);
    ANeuralNetworksExecution_free(execution);
    ANeuralNetworksBurst_free(burst);
    for (ANeuralNetworksMemory* m : memories) ANeuralNetworksMemory_free(m);
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(model);
  }
};

// The case's model through ANeuralNetworksModel_*, finished: the first result code that is not
// NO_ERROR, or NO_ERROR. Constants over 128 bytes are referenced, and `d` must outlive the model.
int buildModel(const TestModel::Description& d, ANeuralNetworksModel* model) {
  for (const TestModel::Operand& o : d.operands) {
    const ANeuralNetworksOperandType type{o.type, static_cast<uint32_t>(o.dims.size()),
                                          o.dims.empty() ? nullptr : o.dims.data(), o.scale, o.zeroPoint};
    if (int rc = ANeuralNetworksModel_addOperand(model, &type)) return rc;
  }
  for (size_t i = 0; i < d.operands.size(); ++i) {
    const TestModel::Operand& o = d.operands[i];
    const auto index = static_cast<int32_t>(i);
    if (!o.channelScales.empty()) {
      const ANeuralNetworksSymmPerChannelQuantParams params{
          o.channelDim, static_cast<uint32_t>(o.channelScales.size()), o.channelScales.data()};
      if (int rc = ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, index, &params)) return rc;
    }
    if (o.isConstant) {
      if (int rc = ANeuralNetworksModel_setOperandValue(model, index, o.value.empty() ? nullptr : o.value.data(),
                                                        o.value.size()))
        return rc;
    } else if (o.lifetime == NNRT_LIFETIME_NO_VALUE) {
      if (int rc = ANeuralNetworksModel_setOperandValue(model, index, nullptr, 0)) return rc;
    }
  }
  for (const TestModel::Operation& op : d.operations) {
    if (int rc = ANeuralNetworksModel_addOperation(model, op.type, static_cast<uint32_t>(op.inputs.size()),
                                                   op.inputs.data(), static_cast<uint32_t>(op.outputs.size()),
                                                   op.outputs.data()))
      return rc;
  }
  const uint32_t none = 0;  // a model of constants only (FILL's cases) gives an empty, non-NULL input list
  if (int rc = ANeuralNetworksModel_identifyInputsAndOutputs(model, static_cast<uint32_t>(d.inputs.size()),
                                                             d.inputs.empty() ? &none : d.inputs.data(),
                                                             static_cast<uint32_t>(d.outputs.size()), d.outputs.data()))
    return rc;
  if (int rc = ANeuralNetworksModel_relaxComputationFloat32toFloat16(model, d.relaxed)) return rc;
  return ANeuralNetworksModel_finish(model);
}

// Input k of the model from `in` (encoded into `bytes`, which must outlive the execution), with the
// case's dimensions where the model leaves some unknown.
int setInput(ANeuralNetworksExecution* execution, const TestModel::Description& d, size_t k, const TensorValues& in,
             std::vector<uint8_t>& bytes) {
  const TestModel::Operand& declared = d.operands[d.inputs[k]];
  bytes = encode(in.type, in.values);
  const bool unknown = std::count(declared.dims.begin(), declared.dims.end(), 0u) != 0;
  const ANeuralNetworksOperandType type{declared.type, static_cast<uint32_t>(in.dims.size()), in.dims.data(),
                                        declared.scale, declared.zeroPoint};
  return ANeuralNetworksExecution_setInput(execution, static_cast<int32_t>(k), unknown ? &type : nullptr,
                                           bytes.empty() ? nullptr : bytes.data(), bytes.size());
}

// A tensor whose every dimension the model gives.
bool knownShape(const TestModel::Operand& o) {
  return !o.dims.empty() && std::count(o.dims.begin(), o.dims.end(), 0u) == 0;
}

bool isScalar(const TestModel::Operand& o) {
  using T = OperandType;
  return o.type == static_cast<int32_t>(T::INT32) || o.type == static_cast<int32_t>(T::FLOAT32) ||
         o.type == static_cast<int32_t>(T::FLOAT16) || o.type == static_cast<int32_t>(T::BOOL);
}

TEST_P(RuntimeConformance, MatchesReference) {
  const OperationCase& c = *std::get<0>(GetParam());
  const Mode mode = std::get<1>(GetParam());
  const TestModel::Description& d = c.model.description();
  // A device memory needs its dimensions from the compilation, and Android runs those of unknown
  // size only where a driver allocates them (the cpu does not).
  if (mode == Mode::DeviceMemory) {
    for (uint32_t output : d.outputs)
      if (!knownShape(d.operands[output])) GTEST_SKIP() << "an output of unknown shape (or a scalar) has no device memory";
  }
  // The buffers outlive the handles: freeing the execution waits for a computation still running.
  std::vector<std::vector<uint8_t>> inputs, outputs;
  Handles h;
  ASSERT_EQ(ANeuralNetworksModel_create(&h.model), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(buildModel(d, h.model), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_create(h.model, &h.compilation), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(h.compilation), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_create(h.compilation, &h.execution), ANEURALNETWORKS_NO_ERROR);

  inputs.resize(c.inputs.size());
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    if (mode == Mode::DeviceMemory) {
      ANeuralNetworksMemory* memory = describedMemory(h.compilation, true, static_cast<uint32_t>(k));
      ASSERT_NE(memory, nullptr) << "input " << k;
      h.memories.push_back(memory);
      inputs[k] = encode(c.inputs[k].type, c.inputs[k].values);
      SharedBytes host(inputs[k].size());
      ASSERT_NE(host.data(), nullptr);
      if (!inputs[k].empty()) std::memcpy(host.data(), inputs[k].data(), inputs[k].size());
      ASSERT_EQ(ANeuralNetworksMemory_copy(host.memory(), memory), ANEURALNETWORKS_NO_ERROR) << "input " << k;
      ASSERT_EQ(ANeuralNetworksExecution_setInputFromMemory(h.execution, static_cast<int32_t>(k), nullptr, memory, 0, 0),
                ANEURALNETWORKS_NO_ERROR)
          << "input " << k;
      continue;
    }
    ASSERT_EQ(setInput(h.execution, d, k, c.inputs[k], inputs[k]), ANEURALNETWORKS_NO_ERROR) << "input " << k;
  }
  std::vector<ANeuralNetworksMemory*> outputMemories;
  for (size_t k = 0; k < c.outputs.size(); ++k) {
    const TensorValues& out = c.outputs[k].expected;
    outputs.emplace_back(std::max<size_t>(1, elementCount(out.dims) * elementSize(out.type)), 0xFF);
    const auto index = static_cast<int32_t>(k);
    if (mode == Mode::DeviceMemory) {
      ANeuralNetworksMemory* memory = describedMemory(h.compilation, false, static_cast<uint32_t>(k));
      ASSERT_NE(memory, nullptr) << "output " << k;
      h.memories.push_back(memory);
      outputMemories.push_back(memory);
      ASSERT_EQ(ANeuralNetworksExecution_setOutputFromMemory(h.execution, index, nullptr, memory, 0, 0),
                ANEURALNETWORKS_NO_ERROR)
          << "output " << k;
      continue;
    }
    ASSERT_EQ(ANeuralNetworksExecution_setOutput(h.execution, index, nullptr, outputs.back().data(),
                                                 outputs.back().size()),
              ANEURALNETWORKS_NO_ERROR)
        << "output " << k;
  }
  switch (mode) {
    case Mode::Compute:
    case Mode::DeviceMemory:
      ASSERT_EQ(ANeuralNetworksExecution_compute(h.execution), ANEURALNETWORKS_NO_ERROR);
      break;
    case Mode::StartCompute:
      ASSERT_EQ(ANeuralNetworksExecution_startCompute(h.execution, &h.event), ANEURALNETWORKS_NO_ERROR);
      ASSERT_EQ(ANeuralNetworksEvent_wait(h.event), ANEURALNETWORKS_NO_ERROR);
      break;
    case Mode::Burst:
      ASSERT_EQ(ANeuralNetworksBurst_create(h.compilation, &h.burst), ANEURALNETWORKS_NO_ERROR);
      ASSERT_EQ(ANeuralNetworksExecution_burstCompute(h.execution, h.burst), ANEURALNETWORKS_NO_ERROR);
      break;
    case Mode::Fenced: {
      // Needs every output's shape known (Android's rule); the others run as computed.
      const int started = ANeuralNetworksExecution_startComputeWithDependencies(h.execution, nullptr, 0, 0, &h.event);
      bool known = true;
      for (uint32_t output : d.outputs) known = known && (isScalar(d.operands[output]) || knownShape(d.operands[output]));
      if (!known) {
        EXPECT_EQ(started, ANEURALNETWORKS_BAD_DATA) << "an output of unknown shape";
        return;
      }
      ASSERT_EQ(started, ANEURALNETWORKS_NO_ERROR);
      ASSERT_EQ(ANeuralNetworksEvent_wait(h.event), ANEURALNETWORKS_NO_ERROR);
      break;
    }
  }
  for (size_t k = 0; k < outputMemories.size(); ++k) {
    SharedBytes host(outputs[k].size());
    ASSERT_NE(host.data(), nullptr);
    ASSERT_EQ(ANeuralNetworksMemory_copy(outputMemories[k], host.memory()), ANEURALNETWORKS_NO_ERROR) << "output " << k;
    std::memcpy(outputs[k].data(), host.data(), outputs[k].size());
  }

  for (size_t k = 0; k < c.outputs.size(); ++k) {
    const ExpectedOutput& want = c.outputs[k];
    const auto index = static_cast<int32_t>(k);
    uint32_t rank = 0;
    ASSERT_EQ(ANeuralNetworksExecution_getOutputOperandRank(h.execution, index, &rank), ANEURALNETWORKS_NO_ERROR);
    std::vector<uint32_t> dims(rank);
    if (rank > 0) {
      ASSERT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(h.execution, index, dims.data()),
                ANEURALNETWORKS_NO_ERROR);
    }
    EXPECT_EQ(dims, want.expected.dims) << "output " << k << " shape";
    const size_t bytes = elementCount(want.expected.dims) * elementSize(want.expected.type);
    expectValues(decode(want.expected.type, std::span<const uint8_t>(outputs[k].data(), std::min(bytes, outputs[k].size()))),
                 want, k);
  }
}

INSTANTIATE_TEST_SUITE_P(Runtime, RuntimeConformance,
                         ::testing::Combine(::testing::ValuesIn(everyCase()),
                                            ::testing::Values(Mode::Compute, Mode::StartCompute, Mode::Burst,
                                                              Mode::Fenced, Mode::DeviceMemory)),
                         [](const ::testing::TestParamInfo<std::tuple<const OperationCase*, Mode>>& info) {
                           return std::get<0>(info.param)->name + "_" + modeName(std::get<1>(info.param));
                         });

// Robustness: every case's scalar parameters (and the activation codes among them), and each element
// of its small int32 tensors (axes, shapes, paddings, indices), replaced one at a time by values out of
// their range. The runtime and the cpu device must answer with a result code
// (refusing the model, or failing the execution): never crash, hang or write out of bounds.
class MutatedParameters : public ::testing::TestWithParam<const OperationCase*> {};

std::vector<const OperationCase*> baseCases() {
  std::vector<const OperationCase*> cases;
  for (const OperationCase& c : allOperationCases())
    if (c.relaxedOf.empty()) cases.push_back(&c);
  return cases;
}

int runMutated(const TestModel::Description& d, const std::vector<TensorValues>& given) {
  std::vector<std::vector<uint8_t>> inputs(given.size()), outputs;
  Handles h;
  if (int rc = ANeuralNetworksModel_create(&h.model)) return rc;
  if (int rc = buildModel(d, h.model)) return rc;
  if (int rc = ANeuralNetworksCompilation_create(h.model, &h.compilation)) return rc;
  if (int rc = ANeuralNetworksCompilation_finish(h.compilation)) return rc;
  if (int rc = ANeuralNetworksExecution_create(h.compilation, &h.execution)) return rc;
  for (size_t k = 0; k < given.size(); ++k)
    if (int rc = setInput(h.execution, d, k, given[k], inputs[k])) return rc;
  for (size_t k = 0; k < d.outputs.size(); ++k) {
    outputs.emplace_back(size_t{1} << 16, 0);  // generous: a mutated shape may need more, or less
    if (int rc = ANeuralNetworksExecution_setOutput(h.execution, static_cast<int32_t>(k), nullptr,
                                                    outputs.back().data(), outputs.back().size()))
      return rc;
  }
  return ANeuralNetworksExecution_compute(h.execution);
}

TEST_P(MutatedParameters, AnswerWithAResultCode) {
  const OperationCase& c = *GetParam();
  const TestModel::Description& original = c.model.description();
  size_t runs = 0;
  for (size_t i = 0; i < original.operands.size(); ++i) {
    const TestModel::Operand& o = original.operands[i];
    if (!o.isConstant) continue;
    std::vector<std::vector<uint8_t>> values;
    if (o.type == static_cast<int32_t>(OperandType::TENSOR_INT32) && o.value.size() <= 8 * sizeof(int32_t)) {
      // Small int32 tensors (axes, shapes, paddings, indices, permutations): one element at a time.
      for (size_t e = 0; e < o.value.size() / sizeof(int32_t); ++e) {
        for (int32_t v : {-1, 1 << 20, INT32_MIN, INT32_MAX}) {
          std::vector<uint8_t> bytes = o.value;
          std::memcpy(bytes.data() + e * sizeof(int32_t), &v, sizeof v);
          values.push_back(std::move(bytes));
        }
      }
    } else if (!o.dims.empty()) {
      continue;
    } else if (o.type == static_cast<int32_t>(OperandType::INT32)) {
      for (int32_t v : {-1, 0, 7, 1 << 20, INT32_MIN, INT32_MAX}) values.push_back(toBytes(std::vector<int32_t>{v}));
    } else if (o.type == static_cast<int32_t>(OperandType::FLOAT32)) {
      for (float v : {-1.0f, 0.0f, 1e30f, std::nanf(""), -INFINITY})
        values.push_back(toBytes(std::vector<float>{v}));
    } else {
      continue;
    }
    for (const auto& bytes : values) {
      TestModel::Description d = original;
      d.operands[i].value = bytes;
      const int rc = runMutated(d, c.inputs);
      EXPECT_TRUE(rc >= ANEURALNETWORKS_NO_ERROR && rc <= ANEURALNETWORKS_DEAD_OBJECT)
          << "operand " << i << ": result " << rc;
      ++runs;
    }
  }
  // Small int32 inputs (indices, lookups, shapes fed at execution), one element at a time.
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    if (c.inputs[k].type != I32 || c.inputs[k].values.size() > 8) continue;
    for (size_t e = 0; e < c.inputs[k].values.size(); ++e) {
      for (double v : {-1.0, double(1 << 20), double(INT32_MIN), double(INT32_MAX)}) {
        std::vector<TensorValues> given = c.inputs;
        given[k].values[e] = v;
        const int rc = runMutated(original, given);
        EXPECT_TRUE(rc >= ANEURALNETWORKS_NO_ERROR && rc <= ANEURALNETWORKS_DEAD_OBJECT)
            << "input " << k << ": result " << rc;
        ++runs;
      }
    }
  }
  if (runs == 0) GTEST_SKIP() << "no parameter to change";
}

INSTANTIATE_TEST_SUITE_P(Runtime, MutatedParameters, ::testing::ValuesIn(baseCases()),
                         [](const ::testing::TestParamInfo<const OperationCase*>& info) { return info.param->name; });

}  // namespace
}  // namespace nnrt::test::conformance
