// Shared by the cpu plugin's driver-level tests: the plugin loaded through the runtime's own loading
// path, and a small CNN (CONV_2D -> RELU -> MAX_POOL_2D -> RESHAPE -> FULLY_CONNECTED -> SOFTMAX)
// with its double-precision reference.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "support/plugin_device.hpp"
#include "support/reference_ops.hpp"
#include "support/tensor_data.hpp"
#include "support/test_model.hpp"

namespace nnrt::test::cpu {

// The cpu plugin from the build's lib/ folder, opened with `options`. Fails the test when it does
// not load.
inline std::shared_ptr<DriverDevice> loadCpu(
    LoadedDevice& holder, const std::vector<std::pair<std::string, std::string>>& options = {}) {
  holder = loadPluginDevice(NNRT_PLUGIN_DIR, "cpu", "libnnrt_driver_cpu.so", options);
  EXPECT_NE(holder.device, nullptr) << holder.error;
  return holder.device;
}

inline std::shared_ptr<PreparedModel> prepare(const DriverDevice& device, TestModel& model) {
  auto prepared =
      device.prepareModel(model.view(), NNRT_PREFER_FAST_SINGLE_ANSWER, NNRT_PRIORITY_MEDIUM, 0, {});
  EXPECT_TRUE(prepared.has_value()) << prepared.error().message;
  return prepared.has_value() ? *prepared : nullptr;
}

inline std::vector<float> toFloats(const std::vector<double>& values) {
  return std::vector<float>(values.begin(), values.end());
}

// input [1, 8, 8, 3] -> CONV_2D 3x3 SAME (4 filters) -> RELU -> MAX_POOL_2D 2x2 stride 2 -> RESHAPE
// [1, 64] -> FULLY_CONNECTED (10 units) -> SOFTMAX -> output [1, 10]. The filter and the weights are
// larger than 128 bytes, so they are pool constants; the biases are copied constants.
struct CnnModel {
  static constexpr uint32_t kInputSize = 8 * 8 * 3;
  static constexpr uint32_t kOutputSize = 10;
  std::vector<double> filter, convBias, weights, fcBias;
  TestModel model;

  CnnModel() {
    using T = OperandType;
    using O = OperationType;
    filter = randomValues(4 * 3 * 3 * 3, 1);
    convBias = randomValues(4, 2);
    weights = randomValues(10 * 64, 3);
    fcBias = randomValues(10, 4);
    TestModel& m = model;
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {1, 8, 8, 3});
    const uint32_t f = m.addConstant(T::TENSOR_FLOAT32, {4, 3, 3, 3}, toFloats(filter));
    const uint32_t b = m.addConstant(T::TENSOR_FLOAT32, {4}, toFloats(convBias));
    const uint32_t conv = m.addOperand(T::TENSOR_FLOAT32, {1, 8, 8, 4});
    m.addOperation(O::CONV_2D, {in, f, b, m.addInt32(1), m.addInt32(1), m.addInt32(1), m.addInt32(0)},
                   {conv});
    const uint32_t relu = m.addOperand(T::TENSOR_FLOAT32, {1, 8, 8, 4});
    m.addOperation(O::RELU, {conv}, {relu});
    const uint32_t pool = m.addOperand(T::TENSOR_FLOAT32, {1, 4, 4, 4});
    m.addOperation(
        O::MAX_POOL_2D,
        {relu, m.addInt32(2), m.addInt32(2), m.addInt32(2), m.addInt32(2), m.addInt32(2), m.addInt32(0)},
        {pool});
    const uint32_t flat = m.addOperand(T::TENSOR_FLOAT32, {1, 64});
    m.addOperation(O::RESHAPE, {pool, m.addInt32Tensor({1, 64})}, {flat});
    const uint32_t w = m.addConstant(T::TENSOR_FLOAT32, {10, 64}, toFloats(weights));
    const uint32_t fb = m.addConstant(T::TENSOR_FLOAT32, {10}, toFloats(fcBias));
    const uint32_t fc = m.addOperand(T::TENSOR_FLOAT32, {1, 10});
    m.addOperation(O::FULLY_CONNECTED, {flat, w, fb, m.addInt32(0)}, {fc});
    const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {1, 10});
    m.addOperation(O::SOFTMAX, {fc, m.addFloat32(1.0f)}, {out});
  }

  static std::vector<double> randomValues(size_t n, uint32_t seed) {
    return roundTrip(OperandType::TENSOR_FLOAT32, randomReals(n, -1.0, 1.0, seed));
  }

  std::vector<double> reference(const std::vector<double>& input) const {
    const auto same = ref::samePadding(8, 3, 1);
    ref::Window w{same.first, same.second, same.first, same.second};
    ref::Tensor x = ref::conv2d({{1, 8, 8, 3}, input}, {{4, 3, 3, 3}, filter}, convBias, w, /*relu*/ 1);
    x = ref::pool2d(x, ref::PoolKind::Max, 2, 2, ref::Window{0, 0, 0, 0, 2, 2});
    x = ref::fullyConnected({{1, 64}, x.values}, {{10, 64}, weights}, fcBias);
    return ref::softmax(x, 1.0, 1).values;
  }

  TestRequest request(const std::vector<double>& input) const {
    TestRequest r(1, 1);
    r.setInput(0, toFloats(input));
    r.setOutput(0, kOutputSize * sizeof(float));
    return r;
  }
};

inline void expectNear(const std::vector<float>& got, const std::vector<double>& want,
                       double tolerance = 1e-5) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], tolerance + tolerance * std::fabs(want[i])) << "element " << i;
  }
}

}  // namespace nnrt::test::cpu
