// The result codes where nnrt once differed from Android's runtime, one test each, with the code
// Android 13's runtime returns for the same call (runtime/NeuralNetworks.cpp, ModelBuilder.cpp,
// ExecutionBuilder.cpp), and the deferrals: what Android accepts while building a model and leaves
// to the devices.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "nnrt_examples/fibonacci_extension.h"

namespace {

const uint32_t kDims[] = {2, 2};
const ANeuralNetworksOperandType kTensor{ANEURALNETWORKS_TENSOR_FLOAT32, 2, kDims, 0.0f, 0};
const ANeuralNetworksOperandType kInt32{ANEURALNETWORKS_INT32, 0, nullptr, 0.0f, 0};

class Model {
 public:
  Model() { EXPECT_EQ(ANeuralNetworksModel_create(&m_), ANEURALNETWORKS_NO_ERROR); }
  ~Model() { ANeuralNetworksModel_free(m_); }
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
  ANeuralNetworksModel* get() const { return m_; }

  uint32_t add(const ANeuralNetworksOperandType& type) {
    EXPECT_EQ(ANeuralNetworksModel_addOperand(m_, &type), ANEURALNETWORKS_NO_ERROR);
    return count_++;
  }
  uint32_t addInt32(int32_t value) {
    const uint32_t index = add(kInt32);
    EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m_, static_cast<int32_t>(index), &value, sizeof value),
              ANEURALNETWORKS_NO_ERROR);
    return index;
  }
  int addOperation(ANeuralNetworksOperationType type, std::vector<uint32_t> in, std::vector<uint32_t> out) {
    return ANeuralNetworksModel_addOperation(m_, type, static_cast<uint32_t>(in.size()), in.data(),
                                             static_cast<uint32_t>(out.size()), out.data());
  }
  int identify(std::vector<uint32_t> in, std::vector<uint32_t> out) {
    return ANeuralNetworksModel_identifyInputsAndOutputs(m_, static_cast<uint32_t>(in.size()), in.data(),
                                                         static_cast<uint32_t>(out.size()), out.data());
  }
  int finish() { return ANeuralNetworksModel_finish(m_); }

 private:
  ANeuralNetworksModel* m_ = nullptr;
  uint32_t count_ = 0;
};

// a + b -> out over [2, 2] floats, finished.
void buildAdd(Model& m) {
  const uint32_t a = m.add(kTensor), b = m.add(kTensor), act = m.addInt32(ANEURALNETWORKS_FUSED_NONE);
  const uint32_t out = m.add(kTensor);
  ASSERT_EQ(m.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {out}), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(m.identify({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(m.finish(), ANEURALNETWORKS_NO_ERROR);
}

struct Compiled {
  Model model;
  ANeuralNetworksCompilation* compilation = nullptr;
  ANeuralNetworksExecution* execution = nullptr;
  Compiled() {
    buildAdd(model);
    EXPECT_EQ(ANeuralNetworksCompilation_create(model.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_create(compilation, &execution), ANEURALNETWORKS_NO_ERROR);
  }
  ~Compiled() {
    ANeuralNetworksExecution_free(execution);
    ANeuralNetworksCompilation_free(compilation);
  }
};

TEST(AndroidCodes, NullListWithCountZeroIsUnexpectedNull) {
  Model m;
  const uint32_t a = m.add(kTensor);
  const uint32_t out = m.add(kTensor);
  EXPECT_EQ(ANeuralNetworksModel_addOperation(m.get(), ANEURALNETWORKS_RELU, 0, nullptr, 1, &out),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_addOperation(m.get(), ANEURALNETWORKS_RELU, 1, &a, 0, nullptr),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(m.get(), 0, nullptr, 1, &out),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(m.get(), 1, &a, 0, nullptr),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  // A list given with a count of 0 is BAD_DATA for addOperation.
  EXPECT_EQ(ANeuralNetworksModel_addOperation(m.get(), ANEURALNETWORKS_RELU, 1, &a, 0, &out),
            ANEURALNETWORKS_BAD_DATA);
}

TEST(AndroidCodes, NullBufferWithLengthIsUnexpectedNull) {
  Model m;
  const uint32_t t = m.add(kTensor);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), static_cast<int32_t>(t), nullptr, 16),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  Compiled c;
  EXPECT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, nullptr, nullptr, 16), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(c.execution, 0, nullptr, nullptr, 16), ANEURALNETWORKS_UNEXPECTED_NULL);
}

TEST(AndroidCodes, InconsistentDimensionsAndScalesAreBadData) {
  Model m;
  ANeuralNetworksOperandType noDims{ANEURALNETWORKS_TENSOR_FLOAT32, 2, nullptr, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &noDims), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksOperandType dimsWithoutCount{ANEURALNETWORKS_TENSOR_FLOAT32, 0, kDims, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &dimsWithoutCount), ANEURALNETWORKS_BAD_DATA);
  const ANeuralNetworksOperandType filter{ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 2, kDims, 0.0f, 0};
  const uint32_t f = m.add(filter);
  ANeuralNetworksSymmPerChannelQuantParams noScales{0, 2, nullptr};
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(m.get(), static_cast<int32_t>(f), &noScales),
            ANEURALNETWORKS_BAD_DATA);
  const float scales[] = {0.5f, 0.25f};
  ANeuralNetworksSymmPerChannelQuantParams good{0, 2, scales};
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(m.get(), static_cast<int32_t>(f), &good),
            ANEURALNETWORKS_NO_ERROR);
}

TEST(AndroidCodes, ArgumentSetTwiceIsBadState) {
  Compiled c;
  float a[4] = {1, 2, 3, 4}, out[4] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, nullptr, a, sizeof a), ANEURALNETWORKS_BAD_STATE);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(c.execution, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(c.execution, 0, nullptr, out, sizeof out), ANEURALNETWORKS_BAD_STATE);
  // The first setting stands: the execution runs with it.
  ASSERT_EQ(ANeuralNetworksExecution_setInput(c.execution, 1, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(c.execution), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out[3], 8.0f);
}

TEST(AndroidCodes, DuplicateDevicesAreBadData) {
  Compiled c;
  uint32_t count = 0;
  ASSERT_EQ(ANeuralNetworks_getDeviceCount(&count), ANEURALNETWORKS_NO_ERROR);
  ASSERT_GE(count, 1u);
  ANeuralNetworksDevice* device = nullptr;
  ASSERT_EQ(ANeuralNetworks_getDevice(0, &device), ANEURALNETWORKS_NO_ERROR);
  const ANeuralNetworksDevice* twice[] = {device, device};
  bool supported[1] = {};
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(c.model.get(), twice, 2, supported),
            ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksCompilation* compilation = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(c.model.get(), twice, 2, &compilation),
            ANEURALNETWORKS_BAD_DATA);
  // The device list is checked before the model's state, as Android does.
  Model unfinished;
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(unfinished.get(), twice, 0, supported),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(unfinished.get(), twice, 1, supported),
            ANEURALNETWORKS_BAD_STATE);
}

TEST(AndroidCodes, OperandThatNothingWritesIsBadDataAtFinish) {
  Model m;
  const uint32_t a = m.add(kTensor), b = m.add(kTensor), act = m.addInt32(ANEURALNETWORKS_FUSED_NONE);
  const uint32_t out = m.add(kTensor);
  m.add(kTensor);  // never read nor written
  ASSERT_EQ(m.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {out}), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(m.identify({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(m.finish(), ANEURALNETWORKS_BAD_DATA);
}

TEST(AndroidCodes, InputWithUnknownDimensionsIsBadDataAtSetInput) {
  Model m;
  const uint32_t open[] = {0, 2};
  const ANeuralNetworksOperandType openTensor{ANEURALNETWORKS_TENSOR_FLOAT32, 2, open, 0.0f, 0};
  const uint32_t a = m.add(openTensor), b = m.add(openTensor), act = m.addInt32(ANEURALNETWORKS_FUSED_NONE);
  const uint32_t out = m.add(openTensor);
  ASSERT_EQ(m.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {out}), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(m.identify({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(m.finish(), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation* compilation = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(m.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &e), ANEURALNETWORKS_NO_ERROR);
  float x[4] = {1, 2, 3, 4}, y[4] = {};
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, x, sizeof x), ANEURALNETWORKS_BAD_DATA);
  // With the dimensions given it is accepted; an output may stay open.
  const ANeuralNetworksOperandType full{ANEURALNETWORKS_TENSOR_FLOAT32, 2, kDims, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, &full, x, sizeof x), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 1, &full, x, sizeof x), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, y, sizeof y), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(y[2], 6.0f);
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(compilation);
}

TEST(AndroidCodes, RankAboveEightIsAccepted) {
  Model m;
  const uint32_t dims[9] = {1, 1, 1, 1, 1, 1, 1, 2, 2};
  const ANeuralNetworksOperandType rank9{ANEURALNETWORKS_TENSOR_FLOAT32, 9, dims, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &rank9), ANEURALNETWORKS_NO_ERROR);
}

// NNAPI takes deadlines and timing only for compilations made by createForDevices with one device
// (BAD_DATA otherwise); a finished compilation refuses setTimeout with BAD_STATE first.
TEST(AndroidCodes, DeadlinesAndTimingNeedACompilationForOneDevice) {
  Compiled plain;
  EXPECT_EQ(ANeuralNetworksCompilation_setTimeout(plain.compilation, 1000), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksExecution_setTimeout(plain.execution, 1000), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setMeasureTiming(plain.execution, true), ANEURALNETWORKS_BAD_DATA);
  float a[4] = {1, 2, 3, 4}, out[4] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(plain.execution, 0, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(plain.execution, 1, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(plain.execution, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent* event = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(plain.execution, nullptr, 0, 1'000'000'000, &event),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(event, nullptr);
  ASSERT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(plain.execution, nullptr, 0, 0, &event),
            ANEURALNETWORKS_NO_ERROR);  // no duration: any compilation
  EXPECT_EQ(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out[3], 8.0f);
  ANeuralNetworksEvent_free(event);

  uint32_t count = 0;
  ASSERT_EQ(ANeuralNetworks_getDeviceCount(&count), ANEURALNETWORKS_NO_ERROR);
  ASSERT_GE(count, 2u);
  ANeuralNetworksDevice* devices[2] = {};
  ASSERT_EQ(ANeuralNetworks_getDevice(0, &devices[0]), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworks_getDevice(1, &devices[1]), ANEURALNETWORKS_NO_ERROR);
  for (uint32_t n : {0u, 2u, 1u}) {  // 0: ANeuralNetworksCompilation_create
    ANeuralNetworksCompilation* compilation = nullptr;
    ASSERT_EQ(n == 0 ? ANeuralNetworksCompilation_create(plain.model.get(), &compilation)
                     : ANeuralNetworksCompilation_createForDevices(plain.model.get(), devices, n, &compilation),
              ANEURALNETWORKS_NO_ERROR);
    const int expected = n == 1 ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_BAD_DATA;
    EXPECT_EQ(ANeuralNetworksCompilation_setTimeout(compilation, 1'000'000'000), expected) << n << " devices";
    ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_setTimeout(compilation, 1000), ANEURALNETWORKS_BAD_STATE);
    ANeuralNetworksExecution* e = nullptr;
    ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &e), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setTimeout(e, 1'000'000'000), expected) << n << " devices";
    EXPECT_EQ(ANeuralNetworksExecution_setMeasureTiming(e, true), expected) << n << " devices";
    ANeuralNetworksExecution_free(e);
    ANeuralNetworksCompilation_free(compilation);
  }
}

TEST(AndroidCodes, MaximumTimeoutsWork) {
  Compiled c;
  ANeuralNetworksCompilation* compilation = nullptr;
  ANeuralNetworksDevice* device = nullptr;
  ASSERT_EQ(ANeuralNetworks_getDevice(0, &device), ANEURALNETWORKS_NO_ERROR);
  const ANeuralNetworksDevice* one[] = {device};
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(c.model.get(), one, 1, &compilation), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_setTimeout(compilation, UINT64_MAX), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &e), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setTimeout(e, UINT64_MAX), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setLoopTimeout(e, UINT64_MAX), ANEURALNETWORKS_NO_ERROR);
  float a[4] = {1, 2, 3, 4}, out[4] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out[0], 2.0f);
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(compilation);
}

// What Android accepts while the model is built and leaves to preparation and execution.
TEST(AndroidCodes, ValueAndShapeChecksWaitForTheDevices) {
  {  // A FuseCode of 999.
    Model m;
    const uint32_t a = m.add(kTensor), b = m.add(kTensor), act = m.addInt32(999), out = m.add(kTensor);
    EXPECT_EQ(m.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {out}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(m.identify({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(m.finish(), ANEURALNETWORKS_NO_ERROR);
  }
  {  // Shapes that do not broadcast: [3, 2] + [2, 1].
    Model m;
    const uint32_t d32[] = {3, 2}, d21[] = {2, 1};
    const ANeuralNetworksOperandType t32{ANEURALNETWORKS_TENSOR_FLOAT32, 2, d32, 0.0f, 0};
    const ANeuralNetworksOperandType t21{ANEURALNETWORKS_TENSOR_FLOAT32, 2, d21, 0.0f, 0};
    const ANeuralNetworksOperandType open{ANEURALNETWORKS_TENSOR_FLOAT32, 0, nullptr, 0.0f, 0};
    const uint32_t a = m.add(t32), b = m.add(t21), act = m.addInt32(0), out = m.add(open);
    EXPECT_EQ(m.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {out}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(m.identify({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(m.finish(), ANEURALNETWORKS_NO_ERROR);
  }
  {  // A declared output shape that differs from the inferred one.
    Model m;
    const uint32_t d3[] = {3, 3};
    const ANeuralNetworksOperandType t33{ANEURALNETWORKS_TENSOR_FLOAT32, 2, d3, 0.0f, 0};
    const uint32_t a = m.add(kTensor), b = m.add(kTensor), act = m.addInt32(0), out = m.add(t33);
    EXPECT_EQ(m.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {out}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(m.identify({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(m.finish(), ANEURALNETWORKS_NO_ERROR);
  }
}

// What Android refuses at addOperation whatever the values: counts and types.
TEST(AndroidCodes, SignaturesAreCheckedAtAddOperation) {
  Model m;
  const uint32_t a = m.add(kTensor), i = m.add(kInt32), out = m.add(kTensor);
  EXPECT_EQ(m.addOperation(ANEURALNETWORKS_RELU, {a, a}, {out}), ANEURALNETWORKS_BAD_DATA);  // two inputs
  EXPECT_EQ(m.addOperation(ANEURALNETWORKS_RELU, {i}, {out}), ANEURALNETWORKS_BAD_DATA);     // a scalar input
  EXPECT_EQ(m.addOperation(ANEURALNETWORKS_RELU, {a}, {out}), ANEURALNETWORKS_NO_ERROR);
}

// a + b -> out where every operand is [0, 2] (rows unknown), compiled, with an execution.
struct OpenCompiled {
  Model model;
  ANeuralNetworksCompilation* compilation = nullptr;
  ANeuralNetworksExecution* execution = nullptr;
  OpenCompiled() {
    static const uint32_t open[] = {0, 2};
    const ANeuralNetworksOperandType openTensor{ANEURALNETWORKS_TENSOR_FLOAT32, 2, open, 0.0f, 0};
    const uint32_t a = model.add(openTensor), b = model.add(openTensor);
    const uint32_t act = model.addInt32(ANEURALNETWORKS_FUSED_NONE), out = model.add(openTensor);
    EXPECT_EQ(model.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {out}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(model.identify({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(model.finish(), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksDevice* device = nullptr;  // one device: timing may be measured
    EXPECT_EQ(ANeuralNetworks_getDevice(0, &device), ANEURALNETWORKS_NO_ERROR);
    const ANeuralNetworksDevice* one[] = {device};
    EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(model.get(), one, 1, &compilation), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_create(compilation, &execution), ANEURALNETWORKS_NO_ERROR);
  }
  ~OpenCompiled() {
    ANeuralNetworksExecution_free(execution);
    ANeuralNetworksCompilation_free(compilation);
  }
};

// Android ends a computation whose request is incomplete (an input not set): compute returns
// BAD_DATA and the execution is completed with that error, so it takes no more arguments, does not
// run again and has no output shapes.
TEST(AndroidCodes, RefusedComputationCompletesTheExecution) {
  Compiled c;
  float a[4] = {1, 2, 3, 4}, out[4] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(c.execution, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(c.execution), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(c.execution, 1, nullptr, a, sizeof a), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksExecution_compute(c.execution), ANEURALNETWORKS_BAD_STATE);
  uint32_t rank = 0;
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(c.execution, 0, &rank), ANEURALNETWORKS_BAD_STATE);
}

// Android refuses every setter once a computation has started, a completed reusable execution
// included, and checks this before the index and the type.
TEST(AndroidCodes, SettersAfterAReusableRunAreBadState) {
  Compiled c;
  float a[4] = {1, 2, 3, 4}, out[4] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setReusable(c.execution, true), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(c.execution, 1, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(c.execution, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(c.execution), ANEURALNETWORKS_NO_ERROR);
  // (Android checks these two's compilation first: not made for one device, BAD_DATA.)
  EXPECT_EQ(ANeuralNetworksExecution_setMeasureTiming(c.execution, true), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setTimeout(c.execution, 1000), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setLoopTimeout(c.execution, 1000), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(c.execution, 5, nullptr, a, sizeof a), ANEURALNETWORKS_BAD_STATE);
  const ANeuralNetworksOperandType bad{ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 2, kDims, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(c.execution, 0, &bad, out, sizeof out), ANEURALNETWORKS_BAD_STATE);
  // It still runs again.
  EXPECT_EQ(ANeuralNetworksExecution_compute(c.execution), ANEURALNETWORKS_NO_ERROR);
}

// Android checks a NULL buffer with a length before anything else, the state included.
TEST(AndroidCodes, NullBufferIsCheckedBeforeTheState) {
  Compiled c;
  float a[4] = {1, 2, 3, 4}, out[4] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(c.execution, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(c.execution), ANEURALNETWORKS_BAD_DATA);  // completes it
  EXPECT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, nullptr, nullptr, sizeof a),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, nullptr, a, sizeof a), ANEURALNETWORKS_BAD_STATE);
}

// Android checks the duration code before the state: BAD_DATA even before any computation.
TEST(AndroidCodes, GetDurationChecksTheCodeFirst) {
  Compiled c;
  uint64_t duration = 0;
  EXPECT_EQ(ANeuralNetworksExecution_getDuration(c.execution, 7, &duration), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_getDuration(c.execution, -1, &duration), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_getDuration(c.execution, ANEURALNETWORKS_DURATION_ON_HARDWARE, &duration),
            ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(duration, UINT64_MAX);
}

// Android: without setMeasureTiming, getDuration of a completed execution is BAD_STATE (and the
// duration UINT64_MAX), not a successful "no value".
TEST(AndroidCodes, GetDurationWithoutTimingIsBadState) {
  Compiled c;
  float a[4] = {1, 2, 3, 4}, out[4] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(c.execution, 1, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(c.execution, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(c.execution), ANEURALNETWORKS_NO_ERROR);
  uint64_t duration = 0;
  EXPECT_EQ(ANeuralNetworksExecution_getDuration(c.execution, ANEURALNETWORKS_DURATION_IN_DRIVER, &duration),
            ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(duration, UINT64_MAX);
}

// Android: getDuration of an execution that did not succeed is BAD_STATE, an output too small
// included, while the output shapes of that run stay readable.
TEST(AndroidCodes, GetDurationAfterAnUnsuccessfulRunIsBadState) {
  OpenCompiled c;
  ASSERT_EQ(ANeuralNetworksExecution_setMeasureTiming(c.execution, true), ANEURALNETWORKS_NO_ERROR);
  const ANeuralNetworksOperandType full{ANEURALNETWORKS_TENSOR_FLOAT32, 2, kDims, 0.0f, 0};
  float a[4] = {1, 2, 3, 4}, small[1] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, &full, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(c.execution, 1, &full, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(c.execution, 0, nullptr, small, sizeof small), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(c.execution), ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
  uint32_t rank = 0;
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(c.execution, 0, &rank),
            ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
  EXPECT_EQ(rank, 2u);
  uint64_t duration = 0;
  EXPECT_EQ(ANeuralNetworksExecution_getDuration(c.execution, ANEURALNETWORKS_DURATION_ON_HARDWARE, &duration),
            ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(duration, UINT64_MAX);
}

// Android judges setInput's type on its own (as addOperand would) and then only its dimensions
// against the model: a valid type with another type code is accepted, an invalid one (or NULL
// dimensions with a count) is BAD_DATA.
TEST(AndroidCodes, SetInputTypeIsJudgedOnItsOwn) {
  Compiled c;
  float a[4] = {1, 2, 3, 4};
  const ANeuralNetworksOperandType noDims{ANEURALNETWORKS_TENSOR_FLOAT32, 2, nullptr, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, &noDims, a, sizeof a), ANEURALNETWORKS_BAD_DATA);
  const ANeuralNetworksOperandType badQuant{ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 2, kDims, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, &badQuant, a, sizeof a), ANEURALNETWORKS_BAD_DATA);
  const ANeuralNetworksOperandType unknownCode{12345, 2, kDims, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, &unknownCode, a, sizeof a), ANEURALNETWORKS_BAD_DATA);
  const ANeuralNetworksOperandType int32s{ANEURALNETWORKS_TENSOR_INT32, 2, kDims, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, &int32s, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
}

// Android checks the type (an input's dimensions must be known) before "already set".
TEST(AndroidCodes, UnknownInputDimensionsComeBeforeSetTwice) {
  OpenCompiled c;
  const ANeuralNetworksOperandType full{ANEURALNETWORKS_TENSOR_FLOAT32, 2, kDims, 0.0f, 0};
  float a[4] = {1, 2, 3, 4};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, &full, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, nullptr, a, sizeof a), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, &full, a, sizeof a), ANEURALNETWORKS_BAD_STATE);
}

// Android: a memory argument with offset 0 and length 0 ("the whole memory") is BAD_DATA for
// memories made from a file descriptor, even for an output whose size is unknown.
TEST(AndroidCodes, WholeFdMemoryArgumentIsBadData) {
  OpenCompiled c;
  const int fd = memfd_create("nnrt-android-codes", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 64), 0);
  ANeuralNetworksMemory* memory = nullptr;
  ASSERT_EQ(ANeuralNetworksMemory_createFromFd(64, PROT_READ | PROT_WRITE, fd, 0, &memory), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(c.execution, 0, nullptr, memory, 0, 0),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(c.execution, 0, nullptr, memory, 0, 16),
            ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory_free(memory);
  close(fd);
}

// Android accepts choosing padding until an input or output is set, then BAD_STATE.
TEST(AndroidCodes, PaddingChoiceComesBeforeTheArguments) {
  Compiled c;
  EXPECT_EQ(ANeuralNetworksExecution_enableInputAndOutputPadding(c.execution, true), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_enableInputAndOutputPadding(c.execution, false), ANEURALNETWORKS_NO_ERROR);
  float a[4] = {1, 2, 3, 4};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(c.execution, 0, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_enableInputAndOutputPadding(c.execution, false), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksExecution_enableInputAndOutputPadding(c.execution, true), ANEURALNETWORKS_BAD_STATE);
}

// Android: startComputeWithDependencies needs every output's dimensions known (BAD_DATA, and the
// execution is completed); startCompute does not.
TEST(AndroidCodes, StartComputeWithDependenciesNeedsKnownOutputs) {
  OpenCompiled c;
  const ANeuralNetworksOperandType full{ANEURALNETWORKS_TENSOR_FLOAT32, 2, kDims, 0.0f, 0};
  float a[4] = {1, 2, 3, 4}, out[4] = {};
  auto prepare = [&](ANeuralNetworksExecution* e) {
    ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, &full, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 1, &full, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  };
  prepare(c.execution);
  ANeuralNetworksEvent* event = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(c.execution, nullptr, 0, 0, &event),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(event, nullptr);
  EXPECT_EQ(ANeuralNetworksExecution_compute(c.execution), ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(c.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  prepare(e);
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(e, &event), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out[3], 8.0f);
  ANeuralNetworksEvent_free(event);
  ANeuralNetworksExecution_free(e);
}

// Android refuses a sync fence descriptor <= 0, 0 included.
TEST(AndroidCodes, SyncFenceFdZeroIsBadData) {
  ANeuralNetworksEvent* event = nullptr;
  EXPECT_EQ(ANeuralNetworksEvent_createFromSyncFenceFd(0, &event), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(event, nullptr);
}

// Android's createFromFd only duplicates the descriptor: a negative or closed one is OP_FAILED;
// the size (0 too) and protection bits beyond read and write are not refused there.
TEST(AndroidCodes, MemoryFromFdRefusesOnlyTheDescriptor) {
  ANeuralNetworksMemory* memory = nullptr;
  EXPECT_EQ(ANeuralNetworksMemory_createFromFd(64, PROT_READ, -1, 0, &memory), ANEURALNETWORKS_OP_FAILED);
  const int fd = memfd_create("nnrt-android-codes", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 64), 0);
  const int closed = dup(fd);
  ASSERT_GE(closed, 0);
  close(closed);
  EXPECT_EQ(ANeuralNetworksMemory_createFromFd(64, PROT_READ, closed, 0, &memory), ANEURALNETWORKS_OP_FAILED);
  EXPECT_EQ(ANeuralNetworksMemory_createFromFd(0, PROT_READ, fd, 0, &memory), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory_free(memory);
  EXPECT_EQ(ANeuralNetworksMemory_createFromFd(64, PROT_READ | PROT_EXEC, fd, 0, &memory), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory_free(memory);
  close(fd);
}

// Android: copying a memory onto itself succeeds at once, even a read-only one.
TEST(AndroidCodes, MemoryCopyOntoItselfSucceeds) {
  const int fd = memfd_create("nnrt-android-codes", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 64), 0);
  ANeuralNetworksMemory* memory = nullptr;
  ASSERT_EQ(ANeuralNetworksMemory_createFromFd(64, PROT_READ, fd, 0, &memory), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemory_copy(memory, memory), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory_free(memory);
  close(fd);
}

// Android null-checks setOperandValueFromModel's value and checks both models' states before
// anything else; the operand's type is only checked at finish.
TEST(AndroidCodes, ValueFromModelChecksArgumentsAndStates) {
  Model m;
  m.add(kTensor);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(m.get(), 0, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  Model unfinished;
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(m.get(), 0, unfinished.get()), ANEURALNETWORKS_BAD_STATE);
  Model value;
  buildAdd(value);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(m.get(), 0, value.get()), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(value.get(), 0, value.get()), ANEURALNETWORKS_BAD_STATE);
}

// Android: extension data that is NULL with a length is UNEXPECTED_NULL (before the state), and
// data with a length of 0 is BAD_DATA.
TEST(AndroidCodes, ExtensionDataNullOrSized) {
  Model m;
  int32_t int64Type = 0;
  ASSERT_EQ(ANeuralNetworksModel_getExtensionOperandType(m.get(), EXAMPLE_FIBONACCI_EXTENSION_NAME, EXAMPLE_INT64,
                                                         &int64Type),
            ANEURALNETWORKS_NO_ERROR);
  const uint32_t x = m.add(ANeuralNetworksOperandType{int64Type, 0, nullptr, 0.0f, 0});
  EXPECT_EQ(ANeuralNetworksModel_setOperandExtensionData(m.get(), static_cast<int32_t>(x), nullptr, 8),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  const uint8_t data[8] = {};
  EXPECT_EQ(ANeuralNetworksModel_setOperandExtensionData(m.get(), static_cast<int32_t>(x), data, 0),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandExtensionData(m.get(), static_cast<int32_t>(x), nullptr, 0),
            ANEURALNETWORKS_NO_ERROR);
}

// Android makes a type from any code within a known extension, on a finished model too; the
// extension's unknown code is refused when an operand is added with it.
TEST(AndroidCodes, ExtensionTypeOfAnyCode) {
  Model m;
  int32_t unknown = 0;
  EXPECT_EQ(ANeuralNetworksModel_getExtensionOperandType(m.get(), EXAMPLE_FIBONACCI_EXTENSION_NAME, 999, &unknown),
            ANEURALNETWORKS_NO_ERROR);
  const ANeuralNetworksOperandType type{unknown, 0, nullptr, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &type), ANEURALNETWORKS_BAD_DATA);
  Model finished;
  buildAdd(finished);
  int32_t int64Type = 0;
  EXPECT_EQ(ANeuralNetworksModel_getExtensionOperandType(finished.get(), EXAMPLE_FIBONACCI_EXTENSION_NAME,
                                                         EXAMPLE_INT64, &int64Type),
            ANEURALNETWORKS_NO_ERROR);
}

// Android does not look at the cache directory in setCaching; one that cannot be used leaves the
// compilation uncached.
TEST(AndroidCodes, CacheDirectoryIsNotCheckedAtSetCaching) {
  Compiled c;
  ANeuralNetworksCompilation* compilation = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(c.model.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
  const uint8_t token[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN] = {};
  EXPECT_EQ(ANeuralNetworksCompilation_setCaching(compilation, "/nonexistent/nnrt-cache", token),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation_free(compilation);
}

// Android checks a model's state before the lists, dimensions and scales that nnrt looks at in the
// C layer: on a finished model those calls are BAD_STATE, not BAD_DATA.
TEST(AndroidCodes, FinishedModelIsBadStateBeforeTheArguments) {
  Model m;
  buildAdd(m);
  ANeuralNetworksOperandType noDims{ANEURALNETWORKS_TENSOR_FLOAT32, 2, nullptr, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &noDims), ANEURALNETWORKS_BAD_STATE);
  const uint32_t list[] = {0};
  EXPECT_EQ(ANeuralNetworksModel_addOperation(m.get(), ANEURALNETWORKS_RELU, 0, list, 1, list),
            ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(m.get(), 1, list, 0, list), ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksSymmPerChannelQuantParams noScales{0, 2, nullptr};
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(m.get(), 0, &noScales),
            ANEURALNETWORKS_BAD_STATE);
}

// Android keeps one scale per channel, so the channel dimension of a per-channel operand must be
// known: an unknown one (0) is BAD_DATA whatever the scale count.
TEST(AndroidCodes, PerChannelScalesNeedAKnownChannelDimension) {
  Model m;
  const uint32_t unknownChannels[] = {0, 3};
  const uint32_t f = m.add(ANeuralNetworksOperandType{ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 2,
                                                      unknownChannels, 0.0f, 0});
  const float scales[] = {0.5f, 0.25f, 0.125f};
  ANeuralNetworksSymmPerChannelQuantParams onUnknown{0, 2, scales};
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(m.get(), static_cast<int32_t>(f), &onUnknown),
            ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksSymmPerChannelQuantParams onKnown{1, 3, scales};
  EXPECT_EQ(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(m.get(), static_cast<int32_t>(f), &onKnown),
            ANEURALNETWORKS_NO_ERROR);
}

// Android exempts only OEM_SCALAR values from the length check: a TENSOR_OEM_BYTE value is one byte
// per element, from a buffer or a memory, and needs known dimensions.
TEST(AndroidCodes, OemTensorValueIsOneBytePerElement) {
  Model m;
  const uint32_t four[] = {4};
  const uint32_t t = m.add(ANeuralNetworksOperandType{ANEURALNETWORKS_TENSOR_OEM_BYTE, 1, four, 0.0f, 0});
  const uint8_t bytes[20] = {};
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), static_cast<int32_t>(t), bytes, 20),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), static_cast<int32_t>(t), bytes, 3),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), static_cast<int32_t>(t), bytes, 4),
            ANEURALNETWORKS_NO_ERROR);
  const int fd = memfd_create("nnrt-android-codes", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 64), 0);
  ANeuralNetworksMemory* memory = nullptr;
  ASSERT_EQ(ANeuralNetworksMemory_createFromFd(64, PROT_READ, fd, 0, &memory), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(m.get(), static_cast<int32_t>(t), memory, 0, 20),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(m.get(), static_cast<int32_t>(t), memory, 0, 4),
            ANEURALNETWORKS_NO_ERROR);
  const uint32_t unknown[] = {0};
  const uint32_t u = m.add(ANeuralNetworksOperandType{ANEURALNETWORKS_TENSOR_OEM_BYTE, 1, unknown, 0.0f, 0});
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), static_cast<int32_t>(u), bytes, 4),
            ANEURALNETWORKS_BAD_DATA);
  // An OEM_SCALAR value has any length.
  const uint32_t s = m.add(ANeuralNetworksOperandType{ANEURALNETWORKS_OEM_SCALAR, 0, nullptr, 0.0f, 0});
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), static_cast<int32_t>(s), bytes, 20),
            ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory_free(memory);
  close(fd);
}

// Android refuses NULL arguments of memory descriptors and hardware buffers with UNEXPECTED_NULL
// before anything else.
TEST(AndroidCodes, MemoryDescAndHardwareBufferNullArguments) {
  EXPECT_EQ(ANeuralNetworksMemoryDesc_create(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  Compiled c;
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(nullptr, c.compilation, 0, 1.0f), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addOutputRole(nullptr, c.compilation, 0, 1.0f), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_setDimensions(nullptr, 0, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  ANeuralNetworksMemory* memory = nullptr;
  EXPECT_EQ(ANeuralNetworksMemory_createFromDesc(nullptr, &memory), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksMemory_createFromAHardwareBuffer(nullptr, &memory), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(memory, nullptr);
}

// A constant FuseCode of 999: the operation's types are right, so the model finishes and compiles (the cpu
// driver takes it), and it is the execution that fails, with OP_FAILED, as on Android (its validation
// tests build their "deinitialized memory" model so).
TEST(AndroidCodes, InvalidOperandValuesFailWhenTheModelRuns) {
  Model m;
  const uint32_t a = m.add(kTensor), b = m.add(kTensor), act = m.addInt32(999);
  const uint32_t out = m.add(kTensor);
  ASSERT_EQ(m.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {out}), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(m.identify({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(m.finish(), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation* compilation = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(m.get(), &compilation), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* execution = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &execution), ANEURALNETWORKS_NO_ERROR);
  float x[4] = {1, 2, 3, 4}, y[4] = {-7, -7, -7, -7};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(execution, 0, nullptr, x, sizeof x), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(execution, 1, nullptr, x, sizeof x), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(execution, 0, nullptr, y, sizeof y), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(execution), ANEURALNETWORKS_OP_FAILED);
  ANeuralNetworksExecution_free(execution);
  ANeuralNetworksCompilation_free(compilation);
}

// A tensor whose data would take 2^32 bytes or more is refused by addOperand, as Android refuses it;
// the same dimensions with one unknown are accepted (their size is known only later).
TEST(AndroidCodes, AddOperandRefusesTensorsOfFourGigabytesOrMore) {
  Model m;
  const uint32_t huge[] = {65536, 16384};  // 2^30 floats: 2^32 bytes
  const ANeuralNetworksOperandType tooBig{ANEURALNETWORKS_TENSOR_FLOAT32, 2, huge, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &tooBig), ANEURALNETWORKS_BAD_DATA);
  const uint32_t fits[] = {65536, 16383};
  const ANeuralNetworksOperandType justFits{ANEURALNETWORKS_TENSOR_FLOAT32, 2, fits, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &justFits), ANEURALNETWORKS_NO_ERROR);
  const uint32_t unknown[] = {0, 65536, 65536};
  const ANeuralNetworksOperandType later{ANEURALNETWORKS_TENSOR_FLOAT32, 3, unknown, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &later), ANEURALNETWORKS_NO_ERROR);
}

}  // namespace
