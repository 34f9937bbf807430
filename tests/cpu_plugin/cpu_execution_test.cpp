// Whole-model executions on the cpu plugin: a CNN-like chain against a double-precision reference,
// deadlines, timing, the threads option, and many threads executing one prepared model at once.
#include <gtest/gtest.h>

#include <time.h>

#include <atomic>
#include <thread>

#include "cpu_plugin/cpu_plugin_fixture.hpp"
#include "support/reference_detection.hpp"

namespace nnrt::test::cpu {
namespace {

uint64_t nowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
}

std::vector<double> cnnInput(uint32_t seed) {
  return CnnModel::randomValues(CnnModel::kInputSize, 100 + seed);
}

TEST(CpuExecution, CnnChainMatchesTheReference) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  CnnModel cnn;
  auto prepared = prepare(*device, cnn.model);
  ASSERT_NE(prepared, nullptr);
  for (uint32_t seed = 0; seed < 3; ++seed) {
    const auto input = cnnInput(seed);
    TestRequest r = cnn.request(input);
    auto result = prepared->execute(r.view(), false, 0, 0);
    ASSERT_TRUE(result.has_value()) << result.error().message;
    EXPECT_EQ(result->status, driver::ErrorStatus::NONE);
    EXPECT_EQ(result->outputShapes[0].dimensions, (std::vector<uint32_t>{1, 10}));
    expectNear(r.output<float>(0), cnn.reference(input));
  }
}

TEST(CpuExecution, ThreadsOptionOfOneGivesTheSameResults) {
  LoadedDevice holder;
  auto device = loadCpu(holder, {{"threads", "1"}});
  ASSERT_NE(device, nullptr);
  CnnModel cnn;
  auto prepared = prepare(*device, cnn.model);
  ASSERT_NE(prepared, nullptr);
  const auto input = cnnInput(7);
  TestRequest r = cnn.request(input);
  auto result = prepared->execute(r.view(), false, 0, 0);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  expectNear(r.output<float>(0), cnn.reference(input));
}

TEST(CpuExecution, PassedDeadlineIsMissed) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  CnnModel cnn;
  auto prepared = prepare(*device, cnn.model);
  ASSERT_NE(prepared, nullptr);
  TestRequest r = cnn.request(cnnInput(0));
  auto missed = prepared->execute(r.view(), false, /*deadline=*/1, 0);  // 1 ns after boot
  ASSERT_FALSE(missed.has_value());
  EXPECT_TRUE(missed.error().code == ResultCode::MISSED_DEADLINE_TRANSIENT ||
              missed.error().code == ResultCode::MISSED_DEADLINE_PERSISTENT)
      << missed.error().message;

  auto inTime = prepared->execute(r.view(), false, nowNs() + 60'000'000'000u, 0);
  ASSERT_TRUE(inTime.has_value()) << inTime.error().message;
  EXPECT_EQ(inTime->status, driver::ErrorStatus::NONE);
}

TEST(CpuExecution, TimingIsMeasuredOnlyWhenAsked) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  CnnModel cnn;
  auto prepared = prepare(*device, cnn.model);
  ASSERT_NE(prepared, nullptr);
  TestRequest r = cnn.request(cnnInput(0));
  const uint64_t before = nowNs();
  auto measured = prepared->execute(r.view(), /*measure=*/true, 0, 0);
  const uint64_t elapsedUs = (nowNs() - before) / 1000;
  ASSERT_TRUE(measured.has_value()) << measured.error().message;
  const driver::Timing& t = measured->timing;
  ASSERT_NE(t.timeOnDevice, UINT64_MAX);
  ASSERT_NE(t.timeInDriver, UINT64_MAX);
  EXPECT_LE(t.timeOnDevice, t.timeInDriver);
  EXPECT_LE(t.timeInDriver, elapsedUs);

  auto unmeasured = prepared->execute(r.view(), /*measure=*/false, 0, 0);
  ASSERT_TRUE(unmeasured.has_value());
  EXPECT_EQ(unmeasured->timing.timeOnDevice, UINT64_MAX);
  EXPECT_EQ(unmeasured->timing.timeInDriver, UINT64_MAX);
}

// BOX_WITH_NMS_LIMIT -> ROI_ALIGN in one model: scores [4, 2] (class 1 against the background),
// boxes [4, 8] over an image [1, 6, 6, 2]. The number of boxes kept is known only at execution, and
// may be none: the outputs are then [0] and [0, 2, 2, 2].
struct NmsRoiModel {
  TestModel model;
  std::vector<double> boxes{0, 0, 6, 6, 0, 0, 3, 3, 0, 0, 6, 6, 0.5, 0, 3.5, 3,
                            0, 0, 6, 6, 4, 4, 6, 6, 0, 0, 6, 6, 1, 2, 5, 6};
  std::vector<double> image = randomReals(6 * 6 * 2, -1.0, 1.0, 77);

  NmsRoiModel() {
    using T = OperandType;
    TestModel& m = model;
    const uint32_t scores = m.addInput(T::TENSOR_FLOAT32, {4, 2});
    const uint32_t rois = m.addInput(T::TENSOR_FLOAT32, {4, 8});
    const uint32_t batch = m.addInput(T::TENSOR_INT32, {4});
    const uint32_t in = m.addInput(T::TENSOR_FLOAT32, {1, 6, 6, 2});
    const uint32_t keptScores = m.addOperand(T::TENSOR_FLOAT32, {0});
    const uint32_t keptBoxes = m.addOperand(T::TENSOR_FLOAT32, {0, 4});
    const uint32_t classes = m.addOutput(T::TENSOR_INT32, {0});
    const uint32_t keptBatch = m.addOperand(T::TENSOR_INT32, {0});
    m.addOperation(OperationType::BOX_WITH_NMS_LIMIT,
                   {scores, rois, batch, m.addFloat32(0.5f), m.addInt32(-1), m.addInt32(0), m.addFloat32(0.5f),
                    m.addFloat32(1.0f), m.addFloat32(0.1f)},
                   {keptScores, keptBoxes, classes, keptBatch});
    const uint32_t out = m.addOutput(T::TENSOR_FLOAT32, {0, 2, 2, 2});
    m.addOperation(OperationType::ROI_ALIGN,
                   {in, keptBoxes, keptBatch, m.addInt32(2), m.addInt32(2), m.addFloat32(1.0f), m.addFloat32(1.0f),
                    m.addInt32(2), m.addInt32(2), m.addBool(false)},
                   {out});
  }

  TestRequest request(const std::vector<double>& scores) const {
    TestRequest r(4, 2);
    r.setInput(0, toFloats(scores));
    r.setInput(1, toFloats(boxes));
    r.setInput(2, std::vector<int32_t>{0, 0, 0, 0});
    r.setInput(3, toFloats(image));
    r.setOutput(0, 4 * sizeof(int32_t));  // room for every box: the caller cannot know how many stay
    r.setOutput(1, 4 * 2 * 2 * 2 * sizeof(float));
    return r;
  }
};

TEST(CpuExecution, NmsKeepingNoBoxGivesZeroSizedOutputs) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  NmsRoiModel m;
  auto prepared = prepare(*device, m.model);
  ASSERT_NE(prepared, nullptr);
  TestRequest r = m.request({0.9, 0.1, 0.8, 0.2, 0.7, 0.3, 0.6, 0.45});  // class 1 below 0.5 everywhere
  auto result = prepared->execute(r.view(), false, 0, 0);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->status, driver::ErrorStatus::NONE);
  EXPECT_EQ(result->outputShapes[0].dimensions, (std::vector<uint32_t>{0}));
  EXPECT_EQ(result->outputShapes[1].dimensions, (std::vector<uint32_t>{0, 2, 2, 2}));
  EXPECT_TRUE(result->outputShapes[1].isSufficient);
}

TEST(CpuExecution, NmsKeptBoxesFeedRoiAlign) {
  LoadedDevice holder;
  auto device = loadCpu(holder);
  ASSERT_NE(device, nullptr);
  NmsRoiModel m;
  auto prepared = prepare(*device, m.model);
  ASSERT_NE(prepared, nullptr);
  // Class 1: boxes 0 (0.9) and 2 (0.7) overlap by IoU 9/36 < 0.5 and stay; box 3 is below 0.5, box 1
  // is the same box as box 0 with a lower score and goes.
  const std::vector<double> scores{0.1, 0.9, 0.1, 0.8, 0.1, 0.7, 0.1, 0.4};
  TestRequest r = m.request(scores);
  auto result = prepared->execute(r.view(), false, 0, 0);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  ASSERT_EQ(result->status, driver::ErrorStatus::NONE);
  const auto nms = ref::boxWithNmsLimit(scores, m.boxes, {0, 0, 0, 0}, 2, 0.5, -1, 0, 0.5, 1.0, 0.1);
  ASSERT_EQ(nms.classes.size(), 2u);
  EXPECT_EQ(result->outputShapes[0].dimensions, (std::vector<uint32_t>{2}));
  EXPECT_EQ(result->outputShapes[1].dimensions, (std::vector<uint32_t>{2, 2, 2, 2}));
  const auto expected = ref::roiAlign(m.image, {1, 6, 6, 2}, nms.boxes, {0, 0}, 2, 2, 1.0, 1.0, 2, 2);
  const auto got = r.output<float>(1);
  ASSERT_GE(got.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-5) << i;
  EXPECT_EQ(r.output<int32_t>(0)[0], 1);
}

// Executions share nothing mutable: 8 threads x 200 executions of one prepared model, on inputs that
// differ by thread and iteration, each giving bit for bit the result of a lone execution.
TEST(CpuExecution, ConcurrentExecutionsOfOnePreparedModelAreExact) {
  LoadedDevice holder;
  auto device = loadCpu(holder, {{"threads", "4"}});
  ASSERT_NE(device, nullptr);
  CnnModel cnn;
  auto prepared = prepare(*device, cnn.model);
  ASSERT_NE(prepared, nullptr);

  constexpr int kInputs = 5, kThreads = 8, kIterations = 200;
  std::vector<std::vector<double>> inputs;
  std::vector<std::vector<float>> expected;
  for (int i = 0; i < kInputs; ++i) {
    inputs.push_back(cnnInput(static_cast<uint32_t>(i)));
    TestRequest r = cnn.request(inputs.back());
    auto result = prepared->execute(r.view(), false, 0, 0);
    ASSERT_TRUE(result.has_value()) << result.error().message;
    expected.push_back(r.output<float>(0));
    expectNear(expected.back(), cnn.reference(inputs.back()));
  }

  std::atomic<int> failures{0}, mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<TestRequest> requests;
      for (int i = 0; i < kInputs; ++i)
        requests.push_back(cnn.request(inputs[i]));
      for (int n = 0; n < kIterations; ++n) {
        const int which = (t + n) % kInputs;
        TestRequest& r = requests[which];
        auto result = prepared->execute(r.view(), false, 0, 0);
        if (!result.has_value() || result->status != driver::ErrorStatus::NONE) {
          ++failures;
        } else if (r.output<float>(0) != expected[which]) {
          ++mismatches;
        }
      }
    });
  }
  for (auto& thread : threads)
    thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
}  // namespace nnrt::test::cpu
