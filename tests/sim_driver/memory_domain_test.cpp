// Memory domains, preferred memory layout and bursts through the C API on simulated devices (each
// logs the kind of every request pool it receives, and whether the request came through a burst):
// a driver's buffer carries an output of one execution into the next without a host copy; roles on
// two drivers get the runtime's own host memory; a plugin with an ABI 1.0 table still loads and
// runs, its missing entries treated as not offered. Expected values are worked out by hand.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

const std::string kPoolLog = NNRT_POOL_LOG;
const uint32_t kDims[] = {2};
const ANeuralNetworksOperandType kTensor{ANEURALNETWORKS_TENSOR_FLOAT32, 1, kDims, 0.0f, 0};
const ANeuralNetworksOperandType kInt32{ANEURALNETWORKS_INT32, 0, nullptr, 0.0f, 0};

// The lines device `name` logged, and clears its log.
std::vector<std::string> takePoolLog(const std::string& name) {
  std::vector<std::string> lines;
  std::ifstream in(kPoolLog + "." + name);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::remove((kPoolLog + "." + name).c_str());
  return lines;
}

const ANeuralNetworksDevice* device(const std::string& name) {
  uint32_t count = 0;
  EXPECT_EQ(ANeuralNetworks_getDeviceCount(&count), ANEURALNETWORKS_NO_ERROR);
  for (uint32_t i = 0; i < count; ++i) {
    ANeuralNetworksDevice* d = nullptr;
    EXPECT_EQ(ANeuralNetworks_getDevice(i, &d), ANEURALNETWORKS_NO_ERROR);
    const char* n = nullptr;
    EXPECT_EQ(ANeuralNetworksDevice_getName(d, &n), ANEURALNETWORKS_NO_ERROR);
    if (name == n) return d;
  }
  ADD_FAILURE() << "no device " << name;
  return nullptr;
}

// out = in0 <op> in1 for each op in `ops` in a chain (the first takes in0 and in1, the next the
// previous result and in1), over float32 [2]; compiled for `deviceName`, or by the partitioner.
struct Chain {
  ANeuralNetworksModel* model = nullptr;
  ANeuralNetworksCompilation* compilation = nullptr;
  Chain(std::vector<ANeuralNetworksOperationType> ops, const char* deviceName = nullptr) {
    EXPECT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_addOperand(model, &kTensor), ANEURALNETWORKS_NO_ERROR);  // 0
    EXPECT_EQ(ANeuralNetworksModel_addOperand(model, &kTensor), ANEURALNETWORKS_NO_ERROR);  // 1
    EXPECT_EQ(ANeuralNetworksModel_addOperand(model, &kInt32), ANEURALNETWORKS_NO_ERROR);   // 2
    const int32_t none = ANEURALNETWORKS_FUSED_NONE;
    EXPECT_EQ(ANeuralNetworksModel_setOperandValue(model, 2, &none, sizeof none), ANEURALNETWORKS_NO_ERROR);
    uint32_t previous = 0, next = 3;
    for (ANeuralNetworksOperationType op : ops) {
      EXPECT_EQ(ANeuralNetworksModel_addOperand(model, &kTensor), ANEURALNETWORKS_NO_ERROR);
      const uint32_t in[] = {previous, 1, 2};
      EXPECT_EQ(ANeuralNetworksModel_addOperation(model, op, 3, in, 1, &next), ANEURALNETWORKS_NO_ERROR);
      previous = next++;
    }
    const uint32_t inputs[] = {0, 1};
    EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, inputs, 1, &previous), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_NO_ERROR);
    if (deviceName != nullptr) {
      const ANeuralNetworksDevice* d = device(deviceName);
      EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(model, &d, 1, &compilation), ANEURALNETWORKS_NO_ERROR);
    } else {
      EXPECT_EQ(ANeuralNetworksCompilation_create(model, &compilation), ANEURALNETWORKS_NO_ERROR);
    }
    EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  }
  ~Chain() {
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(model);
  }
};

// Runs `c` with in0 from `in0` (a host array) or `in0Memory`, in1 from `in1`, and the output into
// `out` or `outMemory`.
int run(const Chain& c, const float* in0, ANeuralNetworksMemory* in0Memory, const float* in1, float* out,
        ANeuralNetworksMemory* outMemory, ANeuralNetworksBurst* burst = nullptr) {
  ANeuralNetworksExecution* e = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(c.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(in0Memory != nullptr ? ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, in0Memory, 0, 0)
                                 : ANeuralNetworksExecution_setInput(e, 0, nullptr, in0, 8),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, in1, 8), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(outMemory != nullptr ? ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr, outMemory, 0, 0)
                                 : ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, 8),
            ANEURALNETWORKS_NO_ERROR);
  int result = burst != nullptr ? ANeuralNetworksExecution_burstCompute(e, burst) : ANeuralNetworksExecution_compute(e);
  ANeuralNetworksExecution_free(e);
  return result;
}

// A memory for output 0 of `producer` and input 0 of `consumer`.
int describedMemory(const Chain& producer, const Chain& consumer, ANeuralNetworksMemory** memory) {
  ANeuralNetworksMemoryDesc* desc = nullptr;
  EXPECT_EQ(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addOutputRole(desc, producer.compilation, 0, 1.0f), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, consumer.compilation, 0, 1.0f), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_NO_ERROR);
  int result = ANeuralNetworksMemory_createFromDesc(desc, memory);
  ANeuralNetworksMemoryDesc_free(desc);
  return result;
}

class MemoryDomainSim : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"simA", "simB", "old"}) takePoolLog(name);
  }
};

// {1, 2} + {10, 20} = {11, 22} stays in simA's buffer; {11, 22} + {100, 200} = {111, 222}.
TEST_F(MemoryDomainSim, DriverBufferCarriesAnOutputIntoTheNextExecution) {
  Chain add({ANEURALNETWORKS_ADD}, "simA");
  ANeuralNetworksMemory* memory = nullptr;
  ASSERT_EQ(describedMemory(add, add, &memory), ANEURALNETWORKS_NO_ERROR);
  const float a[2] = {1, 2}, b[2] = {10, 20}, c[2] = {100, 200};
  float out[2] = {};
  ASSERT_EQ(run(add, a, nullptr, b, nullptr, memory), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(run(add, nullptr, memory, c, out, nullptr), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out[0], 111.0f);
  EXPECT_EQ(out[1], 222.0f);
  // Pools of each request: inputs, then outputs; 1 is NNRT_POOL_BUFFER.
  EXPECT_EQ(takePoolLog("simA"), (std::vector<std::string>{"sim-0 plain 0 0 1", "sim-0 plain 1 0 0"}));

  // Its contents copied out through the driver.
  int fd = memfd_create("out", MFD_CLOEXEC);
  ASSERT_EQ(ftruncate(fd, 8), 0);
  ANeuralNetworksMemory* host = nullptr;
  ASSERT_EQ(ANeuralNetworksMemory_createFromFd(8, PROT_READ | PROT_WRITE, fd, 0, &host), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksMemory_copy(memory, host), ANEURALNETWORKS_NO_ERROR);
  float copied[2] = {};
  ASSERT_EQ(pread(fd, copied, sizeof copied, 0), static_cast<ssize_t>(sizeof copied));
  EXPECT_EQ(copied[0], 11.0f);
  EXPECT_EQ(copied[1], 22.0f);
  close(fd);
  ANeuralNetworksMemory_free(host);
  ANeuralNetworksMemory_free(memory);
}

// ADD goes to simA and MUL to simB: no one driver serves both roles, so the runtime allocates host
// memory ({1, 2} + {10, 20} = {11, 22}; {11, 22} * {2, 3} = {22, 66}). Compilations made for
// explicit devices get no such fallback (OP_FAILED).
TEST_F(MemoryDomainSim, RolesOnTwoDriversGetHostMemory) {
  Chain add({ANEURALNETWORKS_ADD}), mul({ANEURALNETWORKS_MUL});
  ANeuralNetworksMemory* memory = nullptr;
  ASSERT_EQ(describedMemory(add, mul, &memory), ANEURALNETWORKS_NO_ERROR);
  const float a[2] = {1, 2}, b[2] = {10, 20}, c[2] = {2, 3};
  float out[2] = {};
  ASSERT_EQ(run(add, a, nullptr, b, nullptr, memory), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(run(mul, nullptr, memory, c, out, nullptr), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out[0], 22.0f);
  EXPECT_EQ(out[1], 66.0f);
  EXPECT_EQ(takePoolLog("simA"), (std::vector<std::string>{"sim-0 plain 0 0 0"}));
  EXPECT_EQ(takePoolLog("simB"), (std::vector<std::string>{"sim-0 plain 0 0 0"}));
  ANeuralNetworksMemory_free(memory);

  Chain addA({ANEURALNETWORKS_ADD}, "simA"), mulB({ANEURALNETWORKS_MUL}, "simB");
  memory = nullptr;
  EXPECT_EQ(describedMemory(addA, mulB, &memory), ANEURALNETWORKS_OP_FAILED);
  EXPECT_EQ(memory, nullptr);
}

// Burst computations reach the driver's burst and give what plain ones give: {i, 1} + {0.5, 2}.
TEST_F(MemoryDomainSim, BurstGoesThroughTheDriversBurst) {
  Chain add({ANEURALNETWORKS_ADD}, "simA");
  ANeuralNetworksBurst* burst = nullptr;
  ASSERT_EQ(ANeuralNetworksBurst_create(add.compilation, &burst), ANEURALNETWORKS_NO_ERROR);
  const float b[2] = {0.5f, 2.0f};
  for (int i = 0; i < 3; ++i) {
    const float a[2] = {static_cast<float>(i), 1.0f};
    float viaBurst[2] = {}, plain[2] = {};
    ASSERT_EQ(run(add, a, nullptr, b, viaBurst, nullptr, burst), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(run(add, a, nullptr, b, plain, nullptr), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(viaBurst[0], i + 0.5f);
    EXPECT_EQ(viaBurst[1], 3.0f);
    EXPECT_EQ(std::memcmp(viaBurst, plain, sizeof plain), 0);
  }
  EXPECT_EQ(takePoolLog("simA"), (std::vector<std::string>{"sim-0 burst 0 0 0", "sim-0 plain 0 0 0", "sim-0 burst 0 0 0",
                                                           "sim-0 plain 0 0 0", "sim-0 burst 0 0 0", "sim-0 plain 0 0 0"}));
  ANeuralNetworksBurst_free(burst);
}

// The largest alignment and padding over the devices of the compilation's steps.
TEST_F(MemoryDomainSim, PreferredMemoryIsTheLargestOverTheSteps) {
  Chain both({ANEURALNETWORKS_ADD, ANEURALNETWORKS_MUL}), addOnly({ANEURALNETWORKS_ADD}, "simA");
  uint32_t value = 0;
  ASSERT_EQ(ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(both.compilation, 0, &value), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(value, 256u);
  ASSERT_EQ(ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(both.compilation, 0, &value), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(value, 16u);
  ASSERT_EQ(ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput(addOnly.compilation, 0, &value), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(value, 64u);
  ASSERT_EQ(ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(addOnly.compilation, 1, &value), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(value, 1u);
}

// A plugin whose table ends before ABI 1.1's entries loads and runs; buffers, bursts and the
// memory preference are "not offered" there ({3, 4} + {0.25, 0.5}).
TEST_F(MemoryDomainSim, Abi10PluginStillLoadsAndRuns) {
  Chain add({ANEURALNETWORKS_ADD}, "old");
  const float a[2] = {3, 4}, b[2] = {0.25f, 0.5f};
  float out[2] = {};
  ANeuralNetworksBurst* burst = nullptr;
  ASSERT_EQ(ANeuralNetworksBurst_create(add.compilation, &burst), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(run(add, a, nullptr, b, out, nullptr, burst), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out[0], 3.25f);
  EXPECT_EQ(out[1], 4.5f);
  ANeuralNetworksBurst_free(burst);
  EXPECT_EQ(takePoolLog("old"), (std::vector<std::string>{"sim-0 plain 0 0 0"}));
  uint32_t value = 0;
  ASSERT_EQ(ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(add.compilation, 0, &value), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(value, 64u);
  ANeuralNetworksMemory* memory = nullptr;
  EXPECT_EQ(describedMemory(add, add, &memory), ANEURALNETWORKS_OP_FAILED);  // explicit device, no allocate
}

}  // namespace
