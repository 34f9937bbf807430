// The compilation cache end to end: ANeuralNetworksCompilation_setCaching's directory and token
// make a second compilation of the same model prepare its OpenCL step from the cache files
// instead of building the program, with identical results; a corrupted cache falls back to a
// normal build.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "core/compilation/compilation.hpp"
#include "core/device/device_registry.hpp"
#include "core/execution/execution.hpp"
#include "core/model/model.hpp"

namespace nnrt {
namespace {

class RuntimeCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("nnrt_cache_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    auto config = config::parseConfig(
        "devices:\n  - name: opencl\n    library: libnnrt_driver_opencl.so\n    options: {calibrate: \"false\"}\n"
        "policy:\n  health_check_interval_ms: 0\n",
        dir_ / "runtime.yaml", NNRT_PLUGIN_DIR);
    ASSERT_TRUE(config.has_value());
    registry_ = DeviceRegistry::create(std::move(*config));
    if (registry_->devices().empty()) GTEST_SKIP() << "no OpenCL device: " << registry_->skipped()[0].reason;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // y = relu(x * w + b): FULLY_CONNECTED 4 -> 3, fused RELU.
  std::shared_ptr<const FinishedModel> model() {
    ModelBuilder m(registry_->extensions());
    const int32_t tensor = static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32);
    const uint32_t x[] = {2, 4}, w[] = {3, 4}, b[] = {3}, y[] = {2, 3};
    EXPECT_TRUE(m.addOperand(tensor, x, 0, 0));
    EXPECT_TRUE(m.addOperand(tensor, w, 0, 0));
    EXPECT_TRUE(m.addOperand(tensor, b, 0, 0));
    EXPECT_TRUE(m.addOperand(static_cast<int32_t>(driver::OperandType::INT32), {}, 0, 0));
    EXPECT_TRUE(m.addOperand(tensor, y, 0, 0));
    const float weights[12] = {0.5f, -1, 2, 0.25f, 1, 1, -1, -1, 0, 0.5f, 0.5f, 3};
    const float bias[3] = {0.1f, -0.2f, 0.3f};
    const int32_t relu = 1;
    EXPECT_TRUE(m.setOperandValue(1, weights, sizeof weights));
    EXPECT_TRUE(m.setOperandValue(2, bias, sizeof bias));
    EXPECT_TRUE(m.setOperandValue(3, &relu, sizeof relu));
    const uint32_t in[] = {0, 1, 2, 3}, out[] = {4}, modelIn[] = {0};
    EXPECT_TRUE(m.addOperation(static_cast<int32_t>(driver::OperationType::FULLY_CONNECTED), in, out));
    EXPECT_TRUE(m.identifyInputsAndOutputs(modelIn, out));
    EXPECT_TRUE(m.finish());
    return m.finishedModel();
  }

  std::shared_ptr<const CompiledModel> compile(const std::shared_ptr<const FinishedModel>& m) {
    Compilation c(m, *registry_, {});
    uint8_t token[NNRT_CACHE_TOKEN_SIZE];
    for (int i = 0; i < NNRT_CACHE_TOKEN_SIZE; ++i) token[i] = static_cast<uint8_t>(i * 7);
    EXPECT_TRUE(c.setCaching(dir_.string(), token));
    auto finished = c.finish();
    EXPECT_TRUE(finished.has_value()) << (finished ? "" : finished.error().message);
    return c.compiled();
  }

  std::vector<float> run(const std::shared_ptr<const CompiledModel>& compiled) {
    const float x[8] = {1, 2, 3, 4, -1, 0.5f, 2, -3};
    std::vector<float> y(6);
    Execution e(compiled);
    EXPECT_TRUE(e.setInput(0, nullptr, x, sizeof x));
    EXPECT_TRUE(e.setOutput(0, nullptr, y.data(), y.size() * sizeof(float)));
    EXPECT_TRUE(e.compute());
    return y;
  }

  std::filesystem::path dir_;
  std::unique_ptr<DeviceRegistry> registry_;
};

TEST_F(RuntimeCacheTest, SecondCompilationComesFromTheCache) {
  auto m = model();
  auto first = compile(m);
  ASSERT_EQ(first->steps().size(), 1u);
  EXPECT_FALSE(first->steps()[0].cacheHit);
  auto second = compile(m);
  EXPECT_TRUE(second->steps()[0].cacheHit) << "the second compilation built the program again";
  auto a = run(first), b = run(second);
  EXPECT_EQ(a, b);
  // Row 0: x = [1,2,3,4]; w row 0 = [0.5,-1,2,0.25] -> 0.5-2+6+1+0.1 = 5.6.
  EXPECT_NEAR(a[0], 5.6f, 1e-5f);
}

TEST_F(RuntimeCacheTest, CorruptedCacheFallsBackToABuild) {
  auto m = model();
  auto first = compile(m);
  auto expected = run(first);
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
    if (entry.path().extension() == ".yaml") continue;
    std::fstream f(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(40);
    f.write("garbage!", 8);
  }
  auto second = compile(m);
  EXPECT_FALSE(second->steps()[0].cacheHit);
  EXPECT_EQ(run(second), expected);
  auto third = compile(m);  // the rebuild wrote a good cache again
  EXPECT_TRUE(third->steps()[0].cacheHit);
}

}  // namespace
}  // namespace nnrt
