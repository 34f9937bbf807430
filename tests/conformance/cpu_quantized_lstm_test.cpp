// QUANTIZED_LSTM models the cpu driver accepts by type but cannot run: the execution fails with
// OP_FAILED (as Android's reference fails such a step) and an error naming the input and what is wrong with
// it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "conformance/operation_case.hpp"
#include "support/plugin_device.hpp"
#include "support/tensor_data.hpp"
#include "support/test_model.hpp"

namespace nnrt::test::conformance {
namespace {

TEST(CpuQuantizedLstm, RefusesWhatItCannotRun) {
  const LoadedDevice loaded = loadPluginDevice(NNRT_PLUGIN_DIR, "cpu", "libnnrt_driver_cpu.so");
  ASSERT_NE(loaded.device, nullptr) << loaded.error;
  const auto cases = quantizedLstmRefusedCases();
  ASSERT_EQ(cases.size(), 3u);
  for (const auto& [c, reason] : cases) {
    SCOPED_TRACE(c.name);
    TestModel model = c.model;
    auto prepared = loaded.device->prepareModel(model.view(), NNRT_PREFER_FAST_SINGLE_ANSWER,
                                                NNRT_PRIORITY_MEDIUM, 0, {});
    ASSERT_TRUE(prepared.has_value()) << prepared.error().message;
    TestRequest request(c.inputs.size(), c.outputs.size());
    for (uint32_t k = 0; k < c.inputs.size(); ++k)
      request.setInput(k, encode(c.inputs[k].type, c.inputs[k].values));
    for (uint32_t k = 0; k < c.outputs.size(); ++k) {
      const TensorValues& out = c.outputs[k].expected;
      request.setOutput(k, elementCount(out.dims) * elementSize(out.type));
    }
    auto result = (*prepared)->execute(request.view(), false, 0, 0);
    ASSERT_FALSE(result.has_value()) << "executed";
    EXPECT_EQ(result.error().code, ResultCode::OP_FAILED);
    EXPECT_THAT(result.error().message, ::testing::HasSubstr(reason));
  }
}

}  // namespace
}  // namespace nnrt::test::conformance
