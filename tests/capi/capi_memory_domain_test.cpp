// Memory domains, padding, preferred memory layout and bursts through the C API on the built-in
// plugins, with Android's result codes. The cpu allocates the memories of these single-device
// compilations (ABI 1.1 allocate); tests/sim_driver/memory_domain_test.cpp covers the runtime's own
// host memory and a second driver.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "support/capi_memory.hpp"

namespace {

using nnrt::test::describedMemory;

const ANeuralNetworksOperandType kAct{ANEURALNETWORKS_INT32, 0, nullptr, 0.0f, 0};

// out = in0 + in1 (activation in2, a model input as in Android's validation tests), every tensor
// of `type`; finished and compiled.
struct AddModel {
  ANeuralNetworksModel* model = nullptr;
  ANeuralNetworksCompilation* compilation = nullptr;
  explicit AddModel(const ANeuralNetworksOperandType& type, bool finishCompilation = true) {
    EXPECT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
    for (const auto* t : {&type, &type, &kAct, &type}) EXPECT_EQ(ANeuralNetworksModel_addOperand(model, t), ANEURALNETWORKS_NO_ERROR);
    const uint32_t in[] = {0, 1, 2}, out[] = {3};
    EXPECT_EQ(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(model, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_create(model, &compilation), ANEURALNETWORKS_NO_ERROR);
    if (finishCompilation) {
      EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
    }
  }
  ~AddModel() {
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(model);
  }
};

const uint32_t kDims2[] = {2};
const ANeuralNetworksOperandType kFloat2{ANEURALNETWORKS_TENSOR_FLOAT32, 1, kDims2, 0.0f, 0};
const ANeuralNetworksOperandType kQuant2{ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 1, kDims2, 1.0f, 0};

// A memory of `size` bytes of shared memory, read-write.
ANeuralNetworksMemory* sharedMemory(size_t size, void** mapping = nullptr) {
  int fd = memfd_create("test", MFD_CLOEXEC);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(ftruncate(fd, static_cast<off_t>(size)), 0);
  ANeuralNetworksMemory* memory = nullptr;
  EXPECT_EQ(ANeuralNetworksMemory_createFromFd(size, PROT_READ | PROT_WRITE, fd, 0, &memory), ANEURALNETWORKS_NO_ERROR);
  if (mapping != nullptr) *mapping = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  return memory;
}

void checkRoleRules(bool input) {
  auto add = [input](ANeuralNetworksMemoryDesc* d, const ANeuralNetworksCompilation* c, uint32_t i, float f) {
    return input ? ANeuralNetworksMemoryDesc_addInputRole(d, c, i, f) : ANeuralNetworksMemoryDesc_addOutputRole(d, c, i, f);
  };
  AddModel m(kFloat2, /*finishCompilation=*/false);
  ANeuralNetworksMemoryDesc* desc = nullptr;
  ASSERT_EQ(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(add(nullptr, m.compilation, 0, 1.0f), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(add(desc, nullptr, 0, 1.0f), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(add(desc, m.compilation, 0, 1.0f), ANEURALNETWORKS_BAD_DATA);  // unfinished compilation
  ASSERT_EQ(ANeuralNetworksCompilation_finish(m.compilation), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(add(desc, m.compilation, 999, 1.0f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(add(desc, m.compilation, 0, 10.0f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(add(desc, m.compilation, 0, 0.0f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(add(desc, m.compilation, 0, -1.0f), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(add(desc, m.compilation, 0, 1.0f), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(add(desc, m.compilation, 0, 1.0f), ANEURALNETWORKS_BAD_DATA);  // the same role twice
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(add(desc, m.compilation, 0, 1.0f), ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksMemoryDesc_free(desc);
}

TEST(MemoryDomain, AddInputRoleChecks) { checkRoleRules(true); }
TEST(MemoryDomain, AddOutputRoleChecks) { checkRoleRules(false); }

// A role of another compilation whose operand differs in `bad` is refused, as input or output.
void checkIncompatible(const ANeuralNetworksOperandType& good, const ANeuralNetworksOperandType& bad) {
  AddModel g(good), b(bad);
  for (bool firstInput : {true, false}) {
    ANeuralNetworksMemoryDesc* desc = nullptr;
    ASSERT_EQ(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(firstInput ? ANeuralNetworksMemoryDesc_addInputRole(desc, g.compilation, 0, 1.0f)
                         : ANeuralNetworksMemoryDesc_addOutputRole(desc, g.compilation, 0, 1.0f),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, b.compilation, 0, 1.0f), ANEURALNETWORKS_BAD_DATA);
    EXPECT_EQ(ANeuralNetworksMemoryDesc_addOutputRole(desc, b.compilation, 0, 1.0f), ANEURALNETWORKS_BAD_DATA);
    ANeuralNetworksMemoryDesc_free(desc);
  }
}

TEST(MemoryDomain, RolesMustAgreeOnTheOperand) {
  ANeuralNetworksOperandType t = kFloat2;
  t.type = ANEURALNETWORKS_TENSOR_FLOAT16;
  checkIncompatible(kFloat2, t);
  t = kQuant2;
  t.scale = 0.5f;
  checkIncompatible(kQuant2, t);
  t = kQuant2;
  t.zeroPoint = 128;
  checkIncompatible(kQuant2, t);
  const uint32_t rank2[] = {2, 1}, dims1[] = {1};
  t = kQuant2;
  t.dimensionCount = 2;
  t.dimensions = rank2;
  checkIncompatible(kQuant2, t);
  t = kQuant2;
  t.dimensions = dims1;
  checkIncompatible(kQuant2, t);
}

TEST(MemoryDomain, SetDimensionsChecks) {
  AddModel m(kFloat2, false);
  ANeuralNetworksMemoryDesc* desc = nullptr;
  ASSERT_EQ(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
  const uint32_t two[] = {2}, three[] = {3}, twoOne[] = {2, 1};
  EXPECT_EQ(ANeuralNetworksMemoryDesc_setDimensions(nullptr, 1, two), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, two), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, three), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_setDimensions(desc, 2, twoOne), ANEURALNETWORKS_BAD_DATA);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(m.compilation), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, m.compilation, 2, 1.0f), ANEURALNETWORKS_BAD_DATA);  // a scalar
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, m.compilation, 0, 1.0f), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, two), ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksMemoryDesc_free(desc);

  ASSERT_EQ(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, m.compilation, 2, 1.0f), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_setDimensions(desc, 0, nullptr), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_setDimensions(desc, 1, two), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksMemoryDesc_free(desc);
}

TEST(MemoryDomain, FinishAndCreateChecks) {
  AddModel m(kFloat2);
  ANeuralNetworksMemoryDesc* desc = nullptr;
  ASSERT_EQ(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory* memory = nullptr;
  EXPECT_EQ(ANeuralNetworksMemory_createFromDesc(desc, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksMemory_createFromDesc(desc, &memory), ANEURALNETWORKS_BAD_STATE);  // unfinished
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_BAD_DATA);                // no role
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, m.compilation, 0, 0.5f), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksMemory_createFromDesc(desc, &memory), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemoryDesc_free(desc);  // the memory outlives its description
  ANeuralNetworksMemory_free(memory);
  // A described memory holds arguments, not operand values.
  ANeuralNetworksModel* model = nullptr;
  ASSERT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_addOperand(model, &kFloat2), ANEURALNETWORKS_NO_ERROR);
  memory = describedMemory(m.compilation, true, 0);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(model, 0, memory, 0, 8), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksMemory_free(memory);
  ANeuralNetworksModel_free(model);
}

// Android's copying rules between shared memory and described memories of [1, 2], [2] and [2, 1].
TEST(MemoryDomain, CopyChecksSizesDimensionsAndInitialization) {
  const uint32_t good[] = {1, 2}, bad1[] = {2}, bad2[] = {2, 1};
  AddModel g({ANEURALNETWORKS_TENSOR_FLOAT32, 2, good, 0, 0}), b1({ANEURALNETWORKS_TENSOR_FLOAT32, 1, bad1, 0, 0}),
      b2({ANEURALNETWORKS_TENSOR_FLOAT32, 2, bad2, 0, 0});
  ANeuralNetworksMemory *goodShared = sharedMemory(8), *smallShared = sharedMemory(4), *bigShared = sharedMemory(16);
  ANeuralNetworksMemory *device1 = describedMemory(g.compilation, true, 0), *device2 = describedMemory(g.compilation, true, 0);
  ANeuralNetworksMemory *badDevice1 = describedMemory(b1.compilation, true, 0), *badDevice2 = describedMemory(b2.compilation, true, 0);

  EXPECT_EQ(ANeuralNetworksMemory_copy(nullptr, device1), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksMemory_copy(device1, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksMemory_copy(goodShared, smallShared), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksMemory_copy(goodShared, bigShared), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksMemory_copy(smallShared, device1), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksMemory_copy(bigShared, device1), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksMemory_copy(device1, goodShared), ANEURALNETWORKS_BAD_DATA);  // uninitialized source
  EXPECT_EQ(ANeuralNetworksMemory_copy(goodShared, device1), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemory_copy(device1, smallShared), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksMemory_copy(smallShared, device1), ANEURALNETWORKS_BAD_DATA);  // a failed copy...
  EXPECT_EQ(ANeuralNetworksMemory_copy(device1, goodShared), ANEURALNETWORKS_BAD_DATA);   // ...uninitializes
  EXPECT_EQ(ANeuralNetworksMemory_copy(goodShared, device1), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemory_copy(device1, bigShared), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksMemory_copy(device2, device1), ANEURALNETWORKS_BAD_DATA);  // uninitialized source
  EXPECT_EQ(ANeuralNetworksMemory_copy(goodShared, badDevice1), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemory_copy(badDevice1, device1), ANEURALNETWORKS_BAD_DATA);  // rank
  EXPECT_EQ(ANeuralNetworksMemory_copy(goodShared, badDevice2), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemory_copy(badDevice2, device1), ANEURALNETWORKS_BAD_DATA);  // dimensions
  EXPECT_EQ(ANeuralNetworksMemory_copy(goodShared, device2), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemory_copy(smallShared, device2), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksMemory_copy(device2, device1), ANEURALNETWORKS_BAD_DATA);  // deinitialized source
  // As Android: copying a memory onto itself succeeds and counts as initializing it.
  ANeuralNetworksMemory* fresh = describedMemory(g.compilation, true, 0);
  EXPECT_EQ(ANeuralNetworksMemory_copy(fresh, fresh), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemory_copy(fresh, goodShared), ANEURALNETWORKS_NO_ERROR);
  for (auto* m : {goodShared, smallShared, bigShared, device1, device2, badDevice1, badDevice2, fresh}) {
    ANeuralNetworksMemory_free(m);
  }
}

// Bytes go host -> described memory -> described memory -> host unchanged.
TEST(MemoryDomain, CopiesRoundTrip) {
  AddModel m(kFloat2);
  void* inBytes = nullptr;
  void* outBytes = nullptr;
  ANeuralNetworksMemory *in = sharedMemory(8, &inBytes), *out = sharedMemory(8, &outBytes);
  const float values[2] = {1.5f, -2.25f};
  std::memcpy(inBytes, values, sizeof values);
  ANeuralNetworksMemory *a = describedMemory(m.compilation, true, 0), *b = describedMemory(m.compilation, true, 1);
  EXPECT_EQ(ANeuralNetworksMemory_copy(in, a), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemory_copy(a, b), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemory_copy(b, out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(std::memcmp(outBytes, values, sizeof values), 0);
  munmap(inBytes, 8);
  munmap(outBytes, 8);
  for (auto* x : {in, out, a, b}) ANeuralNetworksMemory_free(x);
}

int runAdd(ANeuralNetworksCompilation* c, ANeuralNetworksMemory* in0, const float* in1, ANeuralNetworksMemory* outMemory,
           float* out) {
  ANeuralNetworksExecution* e = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  const int32_t act = ANEURALNETWORKS_FUSED_NONE;
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, in0, 0, 0), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, in1, 8), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 2, nullptr, &act, sizeof act), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(outMemory != nullptr ? ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr, outMemory, 0, 0)
                                 : ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, 8),
            ANEURALNETWORKS_NO_ERROR);
  int result = ANeuralNetworksExecution_compute(e);
  ANeuralNetworksExecution_free(e);
  return result;
}

// An execution refuses an uninitialized input memory (OP_FAILED at compute, as Android); an
// execution that writes the memory initializes it for the next one.
TEST(MemoryDomain, ExecutionsWriteAndReadDescribedMemories) {
  AddModel m(kFloat2);
  ANeuralNetworksMemoryDesc* desc = nullptr;
  ASSERT_EQ(ANeuralNetworksMemoryDesc_create(&desc), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addInputRole(desc, m.compilation, 0, 1.0f), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_addOutputRole(desc, m.compilation, 0, 1.0f), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(desc), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory *x = nullptr, *y = nullptr;
  ASSERT_EQ(ANeuralNetworksMemory_createFromDesc(desc, &x), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksMemory_createFromDesc(desc, &y), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemoryDesc_free(desc);

  const float ones[2] = {1.0f, 1.0f}, seed[2] = {2.0f, -3.0f};
  float out[2] = {};
  EXPECT_EQ(runAdd(m.compilation, x, ones, nullptr, out), ANEURALNETWORKS_OP_FAILED);  // uninitialized
  void* bytes = nullptr;
  ANeuralNetworksMemory* host = sharedMemory(8, &bytes);
  std::memcpy(bytes, seed, sizeof seed);
  ASSERT_EQ(ANeuralNetworksMemory_copy(host, x), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(runAdd(m.compilation, x, ones, y, nullptr), ANEURALNETWORKS_NO_ERROR);  // y = x + 1 = {3, -2}
  EXPECT_EQ(runAdd(m.compilation, y, ones, nullptr, out), ANEURALNETWORKS_NO_ERROR);  // y + 1
  EXPECT_EQ(out[0], 4.0f);
  EXPECT_EQ(out[1], -1.0f);

  // Bad offset or length, and a role the memory was not described for.
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, x, 1, 0), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, x, 0, 8), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e, 1, nullptr, x, 0, 0), ANEURALNETWORKS_BAD_DATA);
  const uint32_t three[] = {3};
  const ANeuralNetworksOperandType wrong{ANEURALNETWORKS_TENSOR_FLOAT32, 1, three, 0, 0};
  EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e, 0, &wrong, x, 0, 0), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr, x, 0, 0), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution_free(e);
  munmap(bytes, 8);
  for (auto* mem : {x, y, host}) ANeuralNetworksMemory_free(mem);
}

TEST(Padding, LongerBuffersOnlyWhenEnabled) {
  AddModel m(kFloat2);
  ANeuralNetworksExecution* e = nullptr;
  float buffer[8] = {};
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, buffer, 12), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, buffer, 12), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksExecution_free(e);
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_enableInputAndOutputPadding(nullptr, true), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_enableInputAndOutputPadding(e, true), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, buffer, 7), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, buffer, 7), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksMemory* memory = sharedMemory(32);
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, memory, 0, 7), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, memory, 0, 32), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_enableInputAndOutputPadding(e, false), ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksMemory_free(memory);
}

// Padded buffers (the tail left alone) give what exact ones give: {1, 2} + {10, 20}.
TEST(Padding, ResultsEqualTheUnpaddedPath) {
  AddModel m(kFloat2);
  const int32_t act = ANEURALNETWORKS_FUSED_NONE;
  for (bool padded : {false, true}) {
    float a[4] = {1, 2, 99, 99}, b[4] = {10, 20, 99, 99}, out[4] = {0, 0, -7, -7};
    const size_t length = padded ? sizeof a : 8;
    ANeuralNetworksExecution* e = nullptr;
    ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_enableInputAndOutputPadding(e, padded), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, a, length), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, b, length), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 2, nullptr, &act, sizeof act), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, length), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR) << padded;
    EXPECT_EQ(out[0], 11.0f);
    EXPECT_EQ(out[1], 22.0f);
    EXPECT_EQ(out[2], -7.0f);
    uint32_t dims[1] = {};
    EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, dims), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(dims[0], 2u);
    ANeuralNetworksExecution_free(e);
  }
}

TEST(PreferredMemory, StatesChecksAndTheCpuDefaults) {
  AddModel m(kFloat2, false);
  uint32_t value = 0;
  EXPECT_EQ(ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(m.compilation, 0, &value), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(m.compilation, 0, &value), ANEURALNETWORKS_BAD_STATE);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(m.compilation), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(nullptr, 0, &value), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(m.compilation, 0, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(m.compilation, 3, &value), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(m.compilation, 1, &value), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput(m.compilation, 0, &value), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(value, 64u);
  EXPECT_EQ(ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(m.compilation, 1, &value), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(value, 1u);
}

// Repeated burst computations give what plain ones give: {i, 2i} + {0.5, 0.25}.
TEST(Burst, ResultsEqualPlainComputations) {
  AddModel m(kFloat2), other(kFloat2);
  ANeuralNetworksBurst* burst = nullptr;
  ASSERT_EQ(ANeuralNetworksBurst_create(m.compilation, &burst), ANEURALNETWORKS_NO_ERROR);
  const int32_t act = ANEURALNETWORKS_FUSED_NONE;
  const float b[2] = {0.5f, 0.25f};
  for (int i = 0; i < 4; ++i) {
    for (bool viaBurst : {true, false}) {
      const float a[2] = {static_cast<float>(i), static_cast<float>(2 * i)};
      float out[2] = {};
      ANeuralNetworksExecution* e = nullptr;
      ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
      EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
      EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, b, sizeof b), ANEURALNETWORKS_NO_ERROR);
      EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 2, nullptr, &act, sizeof act), ANEURALNETWORKS_NO_ERROR);
      EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
      EXPECT_EQ(viaBurst ? ANeuralNetworksExecution_burstCompute(e, burst) : ANeuralNetworksExecution_compute(e),
                ANEURALNETWORKS_NO_ERROR);
      EXPECT_EQ(out[0], i + 0.5f);
      EXPECT_EQ(out[1], 2 * i + 0.25f);
      ANeuralNetworksExecution_free(e);
    }
  }
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(other.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_burstCompute(e, burst), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksBurst_free(burst);
}

}  // namespace
