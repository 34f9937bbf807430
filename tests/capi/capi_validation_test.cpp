// Refusals of the C API: each case checks the exact NNAPI result code.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <vector>

namespace {

const uint32_t kDims[] = {2, 2};
const ANeuralNetworksOperandType kTensor{ANEURALNETWORKS_TENSOR_FLOAT32, 2, kDims, 0.0f, 0};
const ANeuralNetworksOperandType kInt32{ANEURALNETWORKS_INT32, 0, nullptr, 0.0f, 0};

// A model under construction: a, b -> ADD -> c (activation operand 2 holds NONE unless told).
class Model {
 public:
  Model() { EXPECT_EQ(ANeuralNetworksModel_create(&m_), ANEURALNETWORKS_NO_ERROR); }
  ~Model() { ANeuralNetworksModel_free(m_); }
  ANeuralNetworksModel* get() const { return m_; }
  // Operands 0, 1: inputs; 2: activation; 3: output.
  void addOperands() {
    ASSERT_EQ(ANeuralNetworksModel_addOperand(m_, &kTensor), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksModel_addOperand(m_, &kTensor), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksModel_addOperand(m_, &kInt32), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksModel_addOperand(m_, &kTensor), ANEURALNETWORKS_NO_ERROR);
    int32_t none = ANEURALNETWORKS_FUSED_NONE;
    ASSERT_EQ(ANeuralNetworksModel_setOperandValue(m_, 2, &none, sizeof none), ANEURALNETWORKS_NO_ERROR);
  }
  int addAdd(uint32_t a, uint32_t b, uint32_t out) {
    uint32_t in[] = {a, b, 2};
    return ANeuralNetworksModel_addOperation(m_, ANEURALNETWORKS_ADD, 3, in, 1, &out);
  }
  int identify(std::vector<uint32_t> in, std::vector<uint32_t> out) {
    return ANeuralNetworksModel_identifyInputsAndOutputs(m_, static_cast<uint32_t>(in.size()), in.data(),
                                                         static_cast<uint32_t>(out.size()), out.data());
  }
  // A complete, finished a + b model.
  void buildAdd() {
    addOperands();
    ASSERT_EQ(addAdd(0, 1, 3), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(identify({0, 1}, {3}), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksModel_finish(m_), ANEURALNETWORKS_NO_ERROR);
  }

 private:
  ANeuralNetworksModel* m_ = nullptr;
};

TEST(CapiValidation, NullPointers) {
  EXPECT_EQ(ANeuralNetworksModel_create(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworks_getDeviceCount(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_addOperand(nullptr, &kTensor), ANEURALNETWORKS_UNEXPECTED_NULL);
  Model m;
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  ANeuralNetworksOperandType noDims{ANEURALNETWORKS_TENSOR_FLOAT32, 2, nullptr, 0.0f, 0};
  // Android: a dimensions array inconsistent with dimensionCount is BAD_DATA, not UNEXPECTED_NULL.
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &noDims), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_addOperation(m.get(), ANEURALNETWORKS_ADD, 3, nullptr, 1, kDims),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_finish(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksCompilation_create(m.get(), nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  ANeuralNetworksCompilation* c = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_create(nullptr, &c), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_create(nullptr, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksEvent_wait(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_compute(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
}

TEST(CapiValidation, BadOperandTypes) {
  Model m;
  ANeuralNetworksOperandType t = kTensor;
  t.type = 999;
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &t), ANEURALNETWORKS_BAD_DATA);
  // A scalar with dimensions.
  ANeuralNetworksOperandType scalar{ANEURALNETWORKS_INT32, 2, kDims, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &scalar), ANEURALNETWORKS_BAD_DATA);
  // Quantization parameters: float with a scale, quant8 with scale 0 or zero point 256.
  t = kTensor;
  t.scale = 0.5f;
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &t), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksOperandType q{ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 2, kDims, 0.0f, 0};
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &q), ANEURALNETWORKS_BAD_DATA);
  q.scale = 0.5f;
  q.zeroPoint = 256;
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &q), ANEURALNETWORKS_BAD_DATA);
  q.zeroPoint = -1;
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &q), ANEURALNETWORKS_BAD_DATA);
  q.zeroPoint = 128;
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &q), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksOperandType s{ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 2, kDims, 1.0f, 128};
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &s), ANEURALNETWORKS_BAD_DATA);
}

TEST(CapiValidation, OperandValues) {
  Model m;
  m.addOperands();
  float values[4] = {1, 2, 3, 4};
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), 9, values, sizeof values), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), -1, values, sizeof values), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), 1, values, 12), ANEURALNETWORKS_BAD_DATA);  // wrong length
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), 1, nullptr, 4), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), 1, values, 0), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), 1, values, sizeof values), ANEURALNETWORKS_NO_ERROR);
  // A constant with unknown dimensions cannot have a value.
  uint32_t unknown[] = {0, 2};
  ANeuralNetworksOperandType t{ANEURALNETWORKS_TENSOR_FLOAT32, 2, unknown, 0.0f, 0};
  ASSERT_EQ(ANeuralNetworksModel_addOperand(m.get(), &t), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), 4, values, sizeof values), ANEURALNETWORKS_BAD_DATA);
}

TEST(CapiValidation, OperationIndexesAndSignatures) {
  Model m;
  m.addOperands();
  EXPECT_EQ(m.addAdd(0, 7, 3), ANEURALNETWORKS_BAD_DATA);  // input out of range
  EXPECT_EQ(m.addAdd(0, 1, 8), ANEURALNETWORKS_BAD_DATA);  // output out of range
  uint32_t in[] = {0, 1};
  uint32_t out = 3;
  EXPECT_EQ(ANeuralNetworksModel_addOperation(m.get(), ANEURALNETWORKS_ADD, 2, in, 1, &out),
            ANEURALNETWORKS_BAD_DATA);  // ADD takes three inputs
  EXPECT_EQ(ANeuralNetworksModel_addOperation(m.get(), 777, 2, in, 1, &out), ANEURALNETWORKS_BAD_DATA);
  uint32_t wrongTypes[] = {0, 2, 2};  // an INT32 scalar where a tensor belongs
  EXPECT_EQ(ANeuralNetworksModel_addOperation(m.get(), ANEURALNETWORKS_ADD, 3, wrongTypes, 1, &out),
            ANEURALNETWORKS_BAD_DATA);
  int32_t badActivation = 7;
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), 2, &badActivation, sizeof badActivation),
            ANEURALNETWORKS_NO_ERROR);
  // Android checks the FuseCode's value only when the model runs, so addOperation accepts it.
  EXPECT_EQ(m.addAdd(0, 1, 3), ANEURALNETWORKS_NO_ERROR);
  // Writing a constant.
  int32_t none = 0;
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), 2, &none, sizeof none), ANEURALNETWORKS_NO_ERROR);
  uint32_t constantOut = 2;
  uint32_t addIn[] = {0, 1, 2};
  EXPECT_EQ(ANeuralNetworksModel_addOperation(m.get(), ANEURALNETWORKS_ADD, 3, addIn, 1, &constantOut),
            ANEURALNETWORKS_BAD_DATA);
}

TEST(CapiValidation, InputsAndOutputs) {
  Model m;
  m.addOperands();
  ASSERT_EQ(m.addAdd(0, 1, 3), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(m.identify({0, 0}, {3}), ANEURALNETWORKS_BAD_DATA);   // duplicate input
  EXPECT_EQ(m.identify({0, 1}, {3, 3}), ANEURALNETWORKS_BAD_DATA);  // duplicate output
  EXPECT_EQ(m.identify({0, 1}, {1}), ANEURALNETWORKS_BAD_DATA);    // both input and output
  EXPECT_EQ(m.identify({0, 9}, {3}), ANEURALNETWORKS_BAD_DATA);    // out of range
  EXPECT_EQ(m.identify({0, 2}, {3}), ANEURALNETWORKS_BAD_DATA);    // a constant as input
  EXPECT_EQ(m.identify({0, 1}, {3}), ANEURALNETWORKS_NO_ERROR);
}

TEST(CapiValidation, ModificationAfterFinish) {
  Model m;
  m.buildAdd();
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &kTensor), ANEURALNETWORKS_BAD_STATE);
  int32_t none = 0;
  EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m.get(), 2, &none, sizeof none), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(m.addAdd(0, 1, 3), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(m.identify({0, 1}, {3}), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksModel_relaxComputationFloat32toFloat16(m.get(), true), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksModel_finish(m.get()), ANEURALNETWORKS_BAD_STATE);
}

TEST(CapiValidation, CycleIsRefusedAtFinish) {
  Model m;
  m.addOperands();
  ASSERT_EQ(ANeuralNetworksModel_addOperand(m.get(), &kTensor), ANEURALNETWORKS_NO_ERROR);  // 4
  ASSERT_EQ(m.addAdd(0, 4, 3), ANEURALNETWORKS_NO_ERROR);  // 3 = 0 + 4
  ASSERT_EQ(m.addAdd(3, 1, 4), ANEURALNETWORKS_NO_ERROR);  // 4 = 3 + 1: a cycle
  ASSERT_EQ(m.identify({0, 1}, {3}), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_finish(m.get()), ANEURALNETWORKS_BAD_DATA);
  // A model that failed to finish cannot be used.
  ANeuralNetworksCompilation* c = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_create(m.get(), &c), ANEURALNETWORKS_BAD_STATE);
  // Nor modified: the state is checked before the arguments, as in Android.
  ANeuralNetworksOperandType inconsistent = kTensor;
  inconsistent.dimensions = nullptr;  // with dimensionCount 2: BAD_DATA on a usable model
  EXPECT_EQ(ANeuralNetworksModel_addOperand(m.get(), &inconsistent), ANEURALNETWORKS_BAD_STATE);
}

TEST(CapiValidation, MissingAndMultipleWriters) {
  {
    Model m;  // operand 4 is read but nobody writes it
    m.addOperands();
    ASSERT_EQ(ANeuralNetworksModel_addOperand(m.get(), &kTensor), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(m.addAdd(0, 4, 3), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(m.identify({0, 1}, {3}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_finish(m.get()), ANEURALNETWORKS_BAD_DATA);
  }
  {
    Model m;  // operand 3 is written twice
    m.addOperands();
    ASSERT_EQ(m.addAdd(0, 1, 3), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(m.addAdd(1, 0, 3), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(m.identify({0, 1}, {3}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_finish(m.get()), ANEURALNETWORKS_BAD_DATA);
  }
  {
    Model m;  // the output is never written
    m.addOperands();
    ASSERT_EQ(ANeuralNetworksModel_addOperand(m.get(), &kTensor), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(m.addAdd(0, 1, 3), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(m.identify({0, 1}, {4}), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_finish(m.get()), ANEURALNETWORKS_BAD_DATA);
  }
  {
    Model m;  // no operation at all
    ASSERT_EQ(ANeuralNetworksModel_addOperand(m.get(), &kTensor), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_finish(m.get()), ANEURALNETWORKS_BAD_DATA);
  }
}

TEST(CapiValidation, CompilationSettings) {
  Model unfinished;
  unfinished.addOperands();
  ANeuralNetworksCompilation* c = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_create(unfinished.get(), &c), ANEURALNETWORKS_BAD_STATE);
  Model m;
  m.buildAdd();
  ASSERT_EQ(ANeuralNetworksCompilation_create(m.get(), &c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_setPreference(c, 3), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksCompilation_setPreference(c, -1), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksCompilation_setPreference(c, ANEURALNETWORKS_PREFER_LOW_POWER), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_setPriority(c, 95), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksCompilation_setPriority(c, ANEURALNETWORKS_PRIORITY_HIGH), ANEURALNETWORKS_NO_ERROR);
  uint8_t token[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN] = {};
  // As Android: the directory is not looked at until finish, where an unusable one turns caching off.
  EXPECT_EQ(ANeuralNetworksCompilation_setCaching(c, "/nonexistent/dir", token), ANEURALNETWORKS_NO_ERROR);
  // An execution of an unfinished compilation.
  ANeuralNetworksExecution* e = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(e, nullptr);
  ANeuralNetworksCompilation_free(c);
}

TEST(CapiValidation, CreateForDevicesArguments) {
  Model m;
  m.buildAdd();
  ANeuralNetworksDevice* d = nullptr;
  ASSERT_EQ(ANeuralNetworks_getDevice(0, &d), ANEURALNETWORKS_NO_ERROR);
  uint32_t count = 0;
  ASSERT_EQ(ANeuralNetworks_getDeviceCount(&count), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworks_getDevice(count, &d), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksCompilation* c = nullptr;
  const ANeuralNetworksDevice* twice[] = {d, d};
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(m.get(), twice, 2, &c), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(m.get(), twice, 0, &c), ANEURALNETWORKS_BAD_DATA);
}

TEST(CapiValidation, UnsupportedFeaturesSayNotSupported) {
  ANeuralNetworksEvent* event = nullptr;
  EXPECT_EQ(ANeuralNetworksEvent_createFromSyncFenceFd(-1, &event), ANEURALNETWORKS_BAD_DATA);
  Model m;
  // As Android, an unfinished value model is BAD_STATE.
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromModel(m.get(), 0, m.get()), ANEURALNETWORKS_BAD_STATE);
  uint32_t in = 0, out = 1;
  ASSERT_EQ(ANeuralNetworksModel_addOperand(m.get(), &kTensor), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_addOperand(m.get(), &kTensor), ANEURALNETWORKS_NO_ERROR);
  // A WHILE needs at least 3 inputs, the first two SUBGRAPH references.
  EXPECT_EQ(ANeuralNetworksModel_addOperation(m.get(), ANEURALNETWORKS_WHILE, 1, &in, 1, &out),
            ANEURALNETWORKS_BAD_DATA);
}

TEST(CapiValidation, RuntimeConstants) {
  EXPECT_EQ(ANeuralNetworks_getDefaultLoopTimeout(), 2'000'000'000ull);
  EXPECT_EQ(ANeuralNetworks_getMaximumLoopTimeout(), 15'000'000'000ull);
  EXPECT_EQ(ANeuralNetworks_getRuntimeFeatureLevel(), ANEURALNETWORKS_FEATURE_LEVEL_7);
}

}  // namespace
