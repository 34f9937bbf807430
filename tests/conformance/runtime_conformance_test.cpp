// The conformance suite through the public C API, as an application (and Android's conformance
// tests) would run it: each case and each of its forms is built with ANeuralNetworksModel_*, compiled
// by the runtime (validation, planning and the partitioner over the configured devices: the cpu alone,
// runtime_cpu.yaml) and run with ANeuralNetworksExecution_compute; output shapes come from
// getOutputOperandDimensions. The values are checked as the driver-level suite checks them.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "conformance/operation_case.hpp"
#include "support/tensor_data.hpp"

namespace nnrt::test::conformance {
namespace {

class RuntimeConformance : public ::testing::TestWithParam<const OperationCase*> {};

std::vector<const OperationCase*> everyCase() {
  std::vector<const OperationCase*> cases;
  for (const OperationCase& c : allOperationCases()) cases.push_back(&c);
  return cases;
}

struct Handles {
  ANeuralNetworksModel* model = nullptr;
  ANeuralNetworksCompilation* compilation = nullptr;
  ANeuralNetworksExecution* execution = nullptr;
  ~Handles() {
    ANeuralNetworksExecution_free(execution);
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(model);
  }
};

// The case's model through ANeuralNetworksModel_*; constants over 128 bytes are referenced, and the
// case (built once for the whole program) keeps them.
void buildModel(const TestModel::Description& d, ANeuralNetworksModel* model) {
  for (const TestModel::Operand& o : d.operands) {
    const ANeuralNetworksOperandType type{o.type, static_cast<uint32_t>(o.dims.size()),
                                          o.dims.empty() ? nullptr : o.dims.data(), o.scale, o.zeroPoint};
    ASSERT_EQ(ANeuralNetworksModel_addOperand(model, &type), ANEURALNETWORKS_NO_ERROR);
  }
  for (size_t i = 0; i < d.operands.size(); ++i) {
    const TestModel::Operand& o = d.operands[i];
    const auto index = static_cast<int32_t>(i);
    if (!o.channelScales.empty()) {
      const ANeuralNetworksSymmPerChannelQuantParams params{
          o.channelDim, static_cast<uint32_t>(o.channelScales.size()), o.channelScales.data()};
      ASSERT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, index, &params),
                ANEURALNETWORKS_NO_ERROR);
    }
    if (o.isConstant) {
      ASSERT_EQ(ANeuralNetworksModel_setOperandValue(model, index, o.value.empty() ? nullptr : o.value.data(),
                                                     o.value.size()),
                ANEURALNETWORKS_NO_ERROR)
          << "operand " << i;
    } else if (o.lifetime == NNRT_LIFETIME_NO_VALUE) {
      ASSERT_EQ(ANeuralNetworksModel_setOperandValue(model, index, nullptr, 0), ANEURALNETWORKS_NO_ERROR);
    }
  }
  for (const TestModel::Operation& op : d.operations) {
    ASSERT_EQ(ANeuralNetworksModel_addOperation(model, op.type, static_cast<uint32_t>(op.inputs.size()),
                                                op.inputs.data(), static_cast<uint32_t>(op.outputs.size()),
                                                op.outputs.data()),
              ANEURALNETWORKS_NO_ERROR)
        << "operation type " << op.type;
  }
  const uint32_t none = 0;  // a model of constants only (FILL's cases) gives an empty, non-NULL input list
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(model, static_cast<uint32_t>(d.inputs.size()),
                                                          d.inputs.empty() ? &none : d.inputs.data(),
                                                          static_cast<uint32_t>(d.outputs.size()), d.outputs.data()),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_relaxComputationFloat32toFloat16(model, d.relaxed), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_NO_ERROR);
}

TEST_P(RuntimeConformance, MatchesReference) {
  const OperationCase& c = *GetParam();
  const TestModel::Description& d = c.model.description();
  Handles h;
  ASSERT_EQ(ANeuralNetworksModel_create(&h.model), ANEURALNETWORKS_NO_ERROR);
  buildModel(d, h.model);
  if (HasFatalFailure()) return;
  ASSERT_EQ(ANeuralNetworksCompilation_create(h.model, &h.compilation), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(h.compilation), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_create(h.compilation, &h.execution), ANEURALNETWORKS_NO_ERROR);

  std::vector<std::vector<uint8_t>> inputs;
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    const TensorValues& in = c.inputs[k];
    const TestModel::Operand& declared = d.operands[d.inputs[k]];
    inputs.push_back(encode(in.type, in.values));
    // The case's dimensions where the model leaves some unknown.
    const bool unknown = std::count(declared.dims.begin(), declared.dims.end(), 0u) != 0;
    const ANeuralNetworksOperandType type{declared.type, static_cast<uint32_t>(in.dims.size()), in.dims.data(),
                                          declared.scale, declared.zeroPoint};
    ASSERT_EQ(ANeuralNetworksExecution_setInput(h.execution, static_cast<int32_t>(k), unknown ? &type : nullptr,
                                                inputs.back().empty() ? nullptr : inputs.back().data(),
                                                inputs.back().size()),
              ANEURALNETWORKS_NO_ERROR)
        << "input " << k;
  }
  std::vector<std::vector<uint8_t>> outputs;
  for (size_t k = 0; k < c.outputs.size(); ++k) {
    const TensorValues& out = c.outputs[k].expected;
    outputs.emplace_back(std::max<size_t>(1, elementCount(out.dims) * elementSize(out.type)), 0xFF);
    ASSERT_EQ(ANeuralNetworksExecution_setOutput(h.execution, static_cast<int32_t>(k), nullptr, outputs.back().data(),
                                                 outputs.back().size()),
              ANEURALNETWORKS_NO_ERROR)
        << "output " << k;
  }
  ASSERT_EQ(ANeuralNetworksExecution_compute(h.execution), ANEURALNETWORKS_NO_ERROR);

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
    const std::vector<double> got =
        decode(want.expected.type, std::span<const uint8_t>(outputs[k].data(), std::min(bytes, outputs[k].size())));
    ASSERT_EQ(got.size(), want.expected.values.size()) << "output " << k << " element count";
    size_t failures = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      const double expected = want.expected.values[i];
      const double tolerance = want.absTolerance + want.relTolerance * std::fabs(expected);
      if (std::fabs(got[i] - expected) <= tolerance) continue;  // false for NaN
      if (failures++ < 5) {
        ADD_FAILURE() << "output " << k << " element " << i << ": got " << got[i] << ", want " << expected
                      << " (tolerance " << tolerance << ")";
      }
    }
    EXPECT_EQ(failures, 0u) << "mismatches in output " << k << " of " << got.size() << " elements";
  }
}

INSTANTIATE_TEST_SUITE_P(Runtime, RuntimeConformance, ::testing::ValuesIn(everyCase()),
                         [](const ::testing::TestParamInfo<const OperationCase*>& info) { return info.param->name; });

}  // namespace
}  // namespace nnrt::test::conformance
