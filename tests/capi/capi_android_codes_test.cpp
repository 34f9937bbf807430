// The result codes where nnrt once differed from Android's runtime, one test each, with the code
// Android 13's runtime returns for the same call (runtime/NeuralNetworks.cpp, ModelBuilder.cpp,
// ExecutionBuilder.cpp), and the deferrals: what Android accepts while building a model and leaves
// to the devices.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

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

}  // namespace
