// Executions through the C API on the built-in plugins: values, shapes, states, events, timing,
// deadlines and concurrency.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>
#include <gtest/gtest.h>

#include <poll.h>
#include <sys/mman.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "nnrt_examples/fibonacci_extension.h"
#include "support/capi_devices.hpp"

namespace {

// n -> FIBONACCI -> output; int64 input and quant64 output (scale, zero point) or float32 both.
struct FibonacciModel {
  ANeuralNetworksModel* model = nullptr;
  ANeuralNetworksCompilation* compilation = nullptr;

  explicit FibonacciModel(bool quant, uint32_t outputLength = 10) {
    EXPECT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
    int32_t int64Type = 0, quant64Type = 0, fibonacci = 0;
    EXPECT_EQ(ANeuralNetworksModel_getExtensionOperandType(model, EXAMPLE_FIBONACCI_EXTENSION_NAME, EXAMPLE_INT64,
                                                           &int64Type),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_getExtensionOperandType(model, EXAMPLE_FIBONACCI_EXTENSION_NAME,
                                                           EXAMPLE_TENSOR_QUANT64_ASYMM, &quant64Type),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_getExtensionOperationType(model, EXAMPLE_FIBONACCI_EXTENSION_NAME,
                                                             EXAMPLE_FIBONACCI, &fibonacci),
              ANEURALNETWORKS_NO_ERROR);
    static const uint32_t one[] = {1};
    ANeuralNetworksOperandType in = quant ? ANeuralNetworksOperandType{int64Type, 0, nullptr, 0.0f, 0}
                                          : ANeuralNetworksOperandType{ANEURALNETWORKS_TENSOR_FLOAT32, 1, one, 0.0f, 0};
    outDims[0] = outputLength;
    ANeuralNetworksOperandType out = quant ? ANeuralNetworksOperandType{quant64Type, 1, outDims, 0.0f, 0}
                                           : ANeuralNetworksOperandType{ANEURALNETWORKS_TENSOR_FLOAT32, 1, outDims, 0.0f, 0};
    EXPECT_EQ(ANeuralNetworksModel_addOperand(model, &in), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_addOperand(model, &out), ANEURALNETWORKS_NO_ERROR);
    if (quant) {
      ExampleQuant64AsymmParams params{0.5, 10};
      EXPECT_EQ(ANeuralNetworksModel_setOperandExtensionData(model, 1, &params, sizeof params), ANEURALNETWORKS_NO_ERROR);
    }
    uint32_t i = 0, o = 1;
    EXPECT_EQ(ANeuralNetworksModel_addOperation(model, fibonacci, 1, &i, 1, &o), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, &i, 1, &o), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_create(model, &compilation), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  }
  ~FibonacciModel() {
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(model);
  }
  uint32_t outDims[1] = {10};
};

TEST(CapiExecution, FibonacciQuant64AsAndroidDefinesIt) {
  FibonacciModel m(/*quant=*/true);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  int64_t n = 10;
  uint64_t out[10] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  // fib / 0.5 + 10 for 1, 1, 2, 3, 5, 8, 13, 21, 34, 55.
  const uint64_t expected[10] = {12, 12, 14, 16, 20, 26, 36, 52, 78, 120};
  for (int i = 0; i < 10; ++i) EXPECT_EQ(out[i], expected[i]) << i;
  uint32_t rank = 0, dims[1] = {};
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e, 0, &rank), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(rank, 1u);
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, dims), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(dims[0], 10u);
  ANeuralNetworksExecution_free(e);
}

TEST(CapiExecution, FibonacciFloat) {
  FibonacciModel m(/*quant=*/false, 6);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  float n = 6.0f;
  float out[6] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  const float expected[6] = {1, 1, 2, 3, 5, 8};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], expected[i]) << i;
  ANeuralNetworksExecution_free(e);
}

// Builds n -> op -> out with the given types and returns what compiling it gives.
int compileFibonacciVariant(int32_t inputType, const std::vector<uint32_t>& inputDims, int32_t outputType,
                            uint16_t operationWithinExtension, uint32_t inputCount) {
  ANeuralNetworksModel* model = nullptr;
  EXPECT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
  int32_t int64Type = 0, quant64Type = 0, operation = 0;
  EXPECT_EQ(ANeuralNetworksModel_getExtensionOperandType(model, EXAMPLE_FIBONACCI_EXTENSION_NAME, EXAMPLE_INT64,
                                                         &int64Type),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_getExtensionOperandType(model, EXAMPLE_FIBONACCI_EXTENSION_NAME,
                                                         EXAMPLE_TENSOR_QUANT64_ASYMM, &quant64Type),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_getExtensionOperationType(model, EXAMPLE_FIBONACCI_EXTENSION_NAME,
                                                           operationWithinExtension, &operation),
            ANEURALNETWORKS_NO_ERROR);
  auto resolve = [&](int32_t t) { return t == -1 ? int64Type : t == -2 ? quant64Type : t; };
  const uint32_t outDims[] = {10};
  ANeuralNetworksOperandType in{resolve(inputType), static_cast<uint32_t>(inputDims.size()), inputDims.data(), 0, 0};
  ANeuralNetworksOperandType out{resolve(outputType), 1, outDims, 0, 0};
  // One operand per input (an operand nothing uses would make finish fail), then the output.
  for (uint32_t i = 0; i < inputCount; ++i)
    EXPECT_EQ(ANeuralNetworksModel_addOperand(model, &in), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_addOperand(model, &out), ANEURALNETWORKS_NO_ERROR);
  const uint32_t inputs[] = {0, 1}, output = inputCount;
  if (resolve(outputType) == quant64Type) {
    ExampleQuant64AsymmParams params{0.5, 10};
    EXPECT_EQ(ANeuralNetworksModel_setOperandExtensionData(model, static_cast<int32_t>(output), &params, sizeof params),
              ANEURALNETWORKS_NO_ERROR);
  }
  EXPECT_EQ(ANeuralNetworksModel_addOperation(model, operation, inputCount, inputs, 1, &output), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(model, inputCount, inputs, 1, &output),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation* compilation = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_create(model, &compilation), ANEURALNETWORKS_NO_ERROR);
  int result = ANeuralNetworksCompilation_finish(compilation);
  ANeuralNetworksCompilation_free(compilation);
  ANeuralNetworksModel_free(model);
  return result;
}

TEST(CapiExecution, MalformedFibonacciOperationsAreRefusedWhenCompiling) {
  constexpr int32_t kInt64 = -1, kQuant64 = -2;
  // The well-formed operation compiles (control for the cases below).
  EXPECT_EQ(compileFibonacciVariant(kInt64, {}, kQuant64, EXAMPLE_FIBONACCI, 1), ANEURALNETWORKS_NO_ERROR);
  // Input type: an int32 tensor.
  EXPECT_EQ(compileFibonacciVariant(ANEURALNETWORKS_TENSOR_INT32, {1}, kQuant64, EXAMPLE_FIBONACCI, 1),
            ANEURALNETWORKS_BAD_DATA);
  // Output type: an int32 tensor.
  EXPECT_EQ(compileFibonacciVariant(kInt64, {}, ANEURALNETWORKS_TENSOR_INT32, EXAMPLE_FIBONACCI, 1),
            ANEURALNETWORKS_BAD_DATA);
  // Operand count: two inputs.
  EXPECT_EQ(compileFibonacciVariant(kInt64, {}, kQuant64, EXAMPLE_FIBONACCI, 2), ANEURALNETWORKS_BAD_DATA);
  // Operation: a code the extension does not define.
  EXPECT_EQ(compileFibonacciVariant(kInt64, {}, kQuant64, 7, 1), ANEURALNETWORKS_BAD_DATA);
}

TEST(CapiExecution, FibonacciOfZeroFailsAtExecution) {
  FibonacciModel m(/*quant=*/true);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  int64_t n = 0;
  uint64_t out[10] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_OP_FAILED);
  uint32_t dims[1];
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, dims), ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksExecution_free(e);
}

TEST(CapiExecution, OutputInsufficientSizeReportsTheNeededShape) {
  FibonacciModel m(/*quant=*/true, /*outputLength=*/0);  // unknown output length
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  int64_t n = 10;
  uint64_t out[5] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
  uint32_t dims[1] = {};
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, dims), ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
  EXPECT_EQ(dims[0], 10u);
  ANeuralNetworksExecution_free(e);

  // With a big enough buffer the unknown dimension is filled in.
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  uint64_t big[10] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, big, sizeof big), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, dims), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(dims[0], 10u);
  EXPECT_EQ(big[9], 120u);
  ANeuralNetworksExecution_free(e);
}

TEST(CapiExecution, ArgumentAndStateErrors) {
  FibonacciModel m(/*quant=*/true);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  int64_t n = 10;
  uint64_t out[10] = {};
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, &n, sizeof n), ANEURALNETWORKS_BAD_DATA);  // index
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, -1, nullptr, &n, sizeof n), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, 4), ANEURALNETWORKS_BAD_DATA);        // length
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, 16), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, nullptr, 8), ANEURALNETWORKS_UNEXPECTED_NULL);
  uint32_t dims[1];
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, dims), ANEURALNETWORKS_BAD_STATE);
  uint64_t duration = 0;
  EXPECT_EQ(ANeuralNetworksExecution_getDuration(e, ANEURALNETWORKS_DURATION_ON_HARDWARE, &duration),
            ANEURALNETWORKS_BAD_STATE);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_BAD_DATA);  // input 0 missing
  // As Android, the refused computation completed the execution: it takes no more arguments.
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksExecution_free(e);
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_BAD_STATE);  // not reusable
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksExecution_getDuration(e, 7, &duration), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksExecution_free(e);
}

TEST(CapiExecution, ReusableExecutionRunsAgainWithNewInputs) {
  FibonacciModel m(/*quant=*/false, 4);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setReusable(e, true), ANEURALNETWORKS_NO_ERROR);
  float n = 4.0f;
  float out[4] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out[3], 3.0f);
  std::memset(out, 0, sizeof out);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out[3], 3.0f);
  ANeuralNetworksExecution_free(e);
}

TEST(CapiExecution, StartComputeAndEventWait) {
  FibonacciModel m(/*quant=*/true);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  int64_t n = 10;
  uint64_t out[10] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent* event = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(e, &event), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out[9], 120u);
  ANeuralNetworksEvent_free(event);
  ANeuralNetworksExecution_free(e);
}

TEST(CapiExecution, SyncFenceDependenciesHoldTheExecution) {
  FibonacciModel m(/*quant=*/true);
  // The dependency: an eventfd the test signals by hand.
  int gate = eventfd(0, EFD_CLOEXEC);
  ASSERT_GE(gate, 0);
  ANeuralNetworksEvent* dependency = nullptr;
  ASSERT_EQ(ANeuralNetworksEvent_createFromSyncFenceFd(gate, &dependency), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  int64_t n = 10;
  uint64_t out[10] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent* done = nullptr;
  const ANeuralNetworksEvent* deps[] = {dependency};
  ASSERT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(e, deps, 1, 0, &done), ANEURALNETWORKS_NO_ERROR);
  int fence = -1;
  ASSERT_EQ(ANeuralNetworksEvent_getSyncFenceFd(done, &fence), ANEURALNETWORKS_NO_ERROR);
  ASSERT_GE(fence, 0);
  pollfd p{fence, POLLIN, 0};
  // Not done (the output buffer is not read here: the driver may write it at any moment after the
  // gate opens, and the gate is an fd whose ordering ThreadSanitizer cannot see).
  EXPECT_EQ(poll(&p, 1, 100), 0) << "the execution ran before its dependency signalled";
  uint64_t one = 1;
  ASSERT_EQ(write(gate, &one, sizeof one), static_cast<ssize_t>(sizeof one));
  EXPECT_EQ(poll(&p, 1, 5000), 1) << "the fence did not signal";
  EXPECT_EQ(ANeuralNetworksEvent_wait(done), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(out[9], 120u);
  close(fence);
  close(gate);
  ANeuralNetworksEvent_free(done);
  ANeuralNetworksEvent_free(dependency);
  ANeuralNetworksExecution_free(e);
}

// A cpu model: y = a + b on 4 floats, for the tests that need a driver that measures time.
struct AddModel {
  ANeuralNetworksModel* model = nullptr;
  ANeuralNetworksCompilation* compilation = nullptr;
  AddModel() {
    static const uint32_t dims[] = {4};
    ANeuralNetworksOperandType t{ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0.0f, 0};
    ANeuralNetworksOperandType s{ANEURALNETWORKS_INT32, 0, nullptr, 0.0f, 0};
    EXPECT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
    for (auto* type : {&t, &t, &s, &t}) EXPECT_EQ(ANeuralNetworksModel_addOperand(model, type), ANEURALNETWORKS_NO_ERROR);
    int32_t none = 0;
    EXPECT_EQ(ANeuralNetworksModel_setOperandValue(model, 2, &none, sizeof none), ANEURALNETWORKS_NO_ERROR);
    uint32_t in[] = {0, 1, 2}, out[] = {3};
    EXPECT_EQ(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, in, 1, out), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksDevice* cpu = nullptr;
    EXPECT_EQ(ANeuralNetworks_getDevice(0, &cpu), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(model, &cpu, 1, &compilation), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  }
  ~AddModel() {
    ANeuralNetworksCompilation_free(compilation);
    ANeuralNetworksModel_free(model);
  }
};

TEST(CapiExecution, TimingOfASynchronousRun) {
  AddModel m;
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, y[4] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, b, sizeof b), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, y, sizeof y), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setMeasureTiming(e, true), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(y[3], 44.0f);
  uint64_t onHardware = 0, inDriver = 0, fenced = 0;
  ASSERT_EQ(ANeuralNetworksExecution_getDuration(e, ANEURALNETWORKS_DURATION_ON_HARDWARE, &onHardware),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_getDuration(e, ANEURALNETWORKS_DURATION_IN_DRIVER, &inDriver),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_getDuration(e, ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE, &fenced),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_NE(onHardware, UINT64_MAX);
  EXPECT_NE(inDriver, UINT64_MAX);
  EXPECT_LE(onHardware, inDriver);
  EXPECT_EQ(onHardware % 1000, 0u);  // drivers report microseconds; the API reports nanoseconds
  EXPECT_EQ(fenced, UINT64_MAX);     // not a fenced run
  ANeuralNetworksExecution_free(e);
}

TEST(CapiExecution, FencedRunWaitsForTheFenceAndReportsFencedTiming) {
  AddModel m;
  int gate = eventfd(0, EFD_CLOEXEC);
  ANeuralNetworksEvent* dependency = nullptr;
  ASSERT_EQ(ANeuralNetworksEvent_createFromSyncFenceFd(gate, &dependency), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, y[4] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, a, sizeof a), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, b, sizeof b), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, y, sizeof y), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setMeasureTiming(e, true), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent* done = nullptr;
  const ANeuralNetworksEvent* deps[] = {dependency};
  ASSERT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(e, deps, 1, 0, &done), ANEURALNETWORKS_NO_ERROR);
  int fence = -1;
  ASSERT_EQ(ANeuralNetworksEvent_getSyncFenceFd(done, &fence), ANEURALNETWORKS_NO_ERROR);
  pollfd p{fence, POLLIN, 0};
  EXPECT_EQ(poll(&p, 1, 30), 0) << "ran before the fence signalled";
  close(fence);
  uint64_t one = 1;
  ASSERT_EQ(write(gate, &one, sizeof one), static_cast<ssize_t>(sizeof one));
  ASSERT_EQ(ANeuralNetworksEvent_wait(done), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(y[3], 44.0f);
  uint64_t fencedOnHardware = UINT64_MAX;
  ASSERT_EQ(ANeuralNetworksExecution_getDuration(e, ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE, &fencedOnHardware),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_NE(fencedOnHardware, UINT64_MAX) << "the driver's fenced execution reports timing";
  ANeuralNetworksEvent_free(done);
  ANeuralNetworksEvent_free(dependency);
  ANeuralNetworksExecution_free(e);
  close(gate);
}

TEST(CapiExecution, FailedDependencyFailsTheExecution) {
  FibonacciModel m(/*quant=*/true);
  ANeuralNetworksExecution* first = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &first), ANEURALNETWORKS_NO_ERROR);
  int64_t bad = 0, n = 10;
  uint64_t out1[10] = {}, out2[10] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(first, 0, nullptr, &bad, sizeof bad), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(first, 0, nullptr, out1, sizeof out1), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent* firstDone = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(first, &firstDone), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* second = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &second), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(second, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(second, 0, nullptr, out2, sizeof out2), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent* secondDone = nullptr;
  const ANeuralNetworksEvent* deps[] = {firstDone};
  ASSERT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(second, deps, 1, 0, &secondDone),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksEvent_wait(secondDone), ANEURALNETWORKS_OP_FAILED);
  EXPECT_EQ(out2[0], 0u);  // never ran
  EXPECT_EQ(ANeuralNetworksEvent_wait(firstDone), ANEURALNETWORKS_OP_FAILED);
  ANeuralNetworksEvent_free(secondDone);
  ANeuralNetworksEvent_free(firstDone);
  ANeuralNetworksExecution_free(second);
  ANeuralNetworksExecution_free(first);
}

TEST(CapiExecution, EventFreedBeforeWaitAndExecutionFreedWhileRunning) {
  FibonacciModel m(/*quant=*/true);
  int gate = eventfd(0, EFD_CLOEXEC);
  ANeuralNetworksEvent* dependency = nullptr;
  ASSERT_EQ(ANeuralNetworksEvent_createFromSyncFenceFd(gate, &dependency), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  int64_t n = 10;
  uint64_t out[10] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent* done = nullptr;
  const ANeuralNetworksEvent* deps[] = {dependency};
  ASSERT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(e, deps, 1, 0, &done), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent_free(done);        // nobody will wait: the run still completes
  ANeuralNetworksEvent_free(dependency);  // the run holds its own reference
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_BAD_STATE);  // still running
  std::thread release([gate] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    uint64_t one = 1;
    (void)!write(gate, &one, sizeof one);
  });
  ANeuralNetworksExecution_free(e);  // waits for the run to finish, then frees
  EXPECT_EQ(out[9], 120u);
  release.join();
  close(gate);
}

TEST(CapiExecution, FailedRunSignalsItsEvent) {
  FibonacciModel m(/*quant=*/true);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  int64_t n = -3;
  uint64_t out[10] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent* event = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(e, &event), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_OP_FAILED);
  ANeuralNetworksEvent_free(event);
  ANeuralNetworksExecution_free(e);
}

TEST(CapiExecution, ExpiredDeadline) {
  FibonacciModel m(/*quant=*/true);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(m.compilation, &e), ANEURALNETWORKS_NO_ERROR);
  int64_t n = 10;
  uint64_t out[10] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  // The compilation was not made for one device: NNAPI refuses deadlines on it.
  EXPECT_EQ(ANeuralNetworksExecution_setTimeout(e, 1), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksExecution_free(e);

  const ANeuralNetworksDevice* fibonacci = nnrt::test::deviceNamed("fibonacci");
  ASSERT_NE(fibonacci, nullptr);
  ANeuralNetworksCompilation* compilation = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(m.model, &fibonacci, 1, &compilation), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &e), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setTimeout(e, 1), ANEURALNETWORKS_NO_ERROR);  // 1 ns: gone before it starts
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT);
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(compilation);
}

TEST(CapiExecution, ExtensionOperationsAreSupportedOnlyByTheirDevice) {
  FibonacciModel m(/*quant=*/true);
  uint32_t count = 0;
  ASSERT_EQ(ANeuralNetworks_getDeviceCount(&count), ANEURALNETWORKS_NO_ERROR);
  int found = 0;
  for (uint32_t i = 0; i < count; ++i) {
    ANeuralNetworksDevice* d = nullptr;
    ASSERT_EQ(ANeuralNetworks_getDevice(i, &d), ANEURALNETWORKS_NO_ERROR);
    const char* name = nullptr;
    ASSERT_EQ(ANeuralNetworksDevice_getName(d, &name), ANEURALNETWORKS_NO_ERROR);
    bool supported[1] = {true};
    const ANeuralNetworksDevice* list[] = {d};
    ASSERT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(m.model, list, 1, supported),
              ANEURALNETWORKS_NO_ERROR);
    bool hasExtension = false;
    ASSERT_EQ(ANeuralNetworksDevice_getExtensionSupport(d, EXAMPLE_FIBONACCI_EXTENSION_NAME, &hasExtension),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(supported[0], std::string(name) == "fibonacci") << name;
    EXPECT_EQ(hasExtension, std::string(name) == "fibonacci") << name;
    found += supported[0] ? 1 : 0;
  }
  EXPECT_EQ(found, 1);
}

TEST(CapiExecution, SupportedOperationsAnswerInTheCallersOrder) {
  // Operations added out of topological order: operation 0 (ADD) reads what operation 1
  // (FIBONACCI) writes, so the runtime runs them as 1, 0; the answer must still be in the order
  // they were added.
  ANeuralNetworksModel* model = nullptr;
  ASSERT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
  int32_t fibonacci = 0;
  ASSERT_EQ(ANeuralNetworksModel_getExtensionOperationType(model, EXAMPLE_FIBONACCI_EXTENSION_NAME, EXAMPLE_FIBONACCI,
                                                           &fibonacci),
            ANEURALNETWORKS_NO_ERROR);
  const uint32_t one[] = {1}, four[] = {4};
  ANeuralNetworksOperandType n{ANEURALNETWORKS_TENSOR_FLOAT32, 1, one, 0, 0};
  ANeuralNetworksOperandType v{ANEURALNETWORKS_TENSOR_FLOAT32, 1, four, 0, 0};
  ANeuralNetworksOperandType s{ANEURALNETWORKS_INT32, 0, nullptr, 0, 0};
  for (auto* t : {&n, &v, &v, &s, &v}) ASSERT_EQ(ANeuralNetworksModel_addOperand(model, t), ANEURALNETWORKS_NO_ERROR);
  int32_t none = 0;
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(model, 3, &none, sizeof none), ANEURALNETWORKS_NO_ERROR);
  const uint32_t addIn[] = {1, 2, 3}, addOut[] = {4}, fibIn[] = {0}, fibOut[] = {1};
  ASSERT_EQ(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, addIn, 1, addOut), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_addOperation(model, fibonacci, 1, fibIn, 1, fibOut), ANEURALNETWORKS_NO_ERROR);
  const uint32_t inputs[] = {0, 2};
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, inputs, 1, addOut), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_NO_ERROR);
  uint32_t count = 0;
  ASSERT_EQ(ANeuralNetworks_getDeviceCount(&count), ANEURALNETWORKS_NO_ERROR);
  for (uint32_t i = 0; i < count; ++i) {
    ANeuralNetworksDevice* d = nullptr;
    const char* name = nullptr;
    ASSERT_EQ(ANeuralNetworks_getDevice(i, &d), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksDevice_getName(d, &name), ANEURALNETWORKS_NO_ERROR);
    bool supported[2] = {};
    const ANeuralNetworksDevice* list[] = {d};
    ASSERT_EQ(ANeuralNetworksModel_getSupportedOperationsForDevices(model, list, 1, supported), ANEURALNETWORKS_NO_ERROR);
    if (std::string(name) == "cpu") {
      EXPECT_TRUE(supported[0]);   // ADD
      EXPECT_FALSE(supported[1]);  // FIBONACCI
    }
    if (std::string(name) == "fibonacci") {
      EXPECT_FALSE(supported[0]);
      EXPECT_TRUE(supported[1]);
    }
  }
  ANeuralNetworksModel_free(model);
}

// y = a + c, where c is a 64-float constant (too large to be copied at setOperandValue).
TEST(CapiExecution, LargeConstantsAreReadAtFinishAndCopied) {
  const uint32_t dims[] = {64};
  ANeuralNetworksOperandType t{ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0};
  ANeuralNetworksOperandType s{ANEURALNETWORKS_INT32, 0, nullptr, 0, 0};
  ANeuralNetworksModel* model = nullptr;
  ASSERT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
  for (auto* type : {&t, &t, &s, &t}) ASSERT_EQ(ANeuralNetworksModel_addOperand(model, type), ANEURALNETWORKS_NO_ERROR);
  std::vector<float> constant(64, 1.0f);
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(model, 1, constant.data(), 64 * sizeof(float)), ANEURALNETWORKS_NO_ERROR);
  constant.assign(64, 2.0f);  // before finish: the model sees this
  int32_t none = 0;
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(model, 2, &none, sizeof none), ANEURALNETWORKS_NO_ERROR);
  const uint32_t in[] = {0, 1, 2}, out[] = {3}, modelIn[] = {0};
  ASSERT_EQ(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, modelIn, 1, out), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_NO_ERROR);
  constant.assign(64, 100.0f);  // after finish: copied already, not seen
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(model, &c), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  std::vector<float> a(64), y(64);
  for (int i = 0; i < 64; ++i) a[i] = static_cast<float>(i);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, a.data(), 64 * sizeof(float)), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, y.data(), 64 * sizeof(float)), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(y[i], i + 2.0f) << i;
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(c);
  ANeuralNetworksModel_free(model);
}

// Constants, inputs and outputs in a memory made from a file descriptor (memfd).
TEST(CapiExecution, MemoryFromFileDescriptor) {
  constexpr size_t kFloats = 16;
  int fd = memfd_create("nnrt-test", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 4096), 0);
  // Layout: [0, 64) constant c, [64, 128) input a, [128, 192) output y.
  std::vector<float> c(kFloats), a(kFloats);
  for (size_t i = 0; i < kFloats; ++i) {
    c[i] = 0.5f * i;
    a[i] = 10.0f - i;
  }
  ASSERT_EQ(pwrite(fd, c.data(), 64, 0), 64);
  ASSERT_EQ(pwrite(fd, a.data(), 64, 64), 64);
  ANeuralNetworksMemory* memory = nullptr;
  ASSERT_EQ(ANeuralNetworksMemory_createFromFd(4096, PROT_READ | PROT_WRITE, fd, 0, &memory), ANEURALNETWORKS_NO_ERROR);
  close(fd);  // the memory keeps its own descriptor

  const uint32_t dims[] = {kFloats};
  ANeuralNetworksOperandType t{ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims, 0, 0};
  ANeuralNetworksOperandType s{ANEURALNETWORKS_INT32, 0, nullptr, 0, 0};
  ANeuralNetworksModel* model = nullptr;
  ASSERT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
  for (auto* type : {&t, &t, &s, &t}) ASSERT_EQ(ANeuralNetworksModel_addOperand(model, type), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(model, 1, memory, 4090, 64), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(model, 1, memory, 0, 32), ANEURALNETWORKS_BAD_DATA);
  ASSERT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(model, 1, memory, 0, 64), ANEURALNETWORKS_NO_ERROR);
  int32_t none = 0;
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(model, 2, &none, sizeof none), ANEURALNETWORKS_NO_ERROR);
  const uint32_t in[] = {0, 1, 2}, out[] = {3}, modelIn[] = {0};
  ASSERT_EQ(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_MUL, 3, in, 1, out), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, modelIn, 1, out), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation* compilation = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(model, &compilation), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory_free(memory);  // the model and compilation keep what they use

  // A second mapping of a new memfd for the execution's input and output.
  int fd2 = memfd_create("nnrt-test-io", MFD_CLOEXEC);
  ASSERT_EQ(ftruncate(fd2, 128), 0);
  ASSERT_EQ(pwrite(fd2, a.data(), 64, 0), 64);
  ANeuralNetworksMemory* io = nullptr;
  ASSERT_EQ(ANeuralNetworksMemory_createFromFd(128, PROT_READ | PROT_WRITE, fd2, 0, &io), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr, io, 100, 64), ANEURALNETWORKS_BAD_DATA);
  ASSERT_EQ(ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, io, 0, 64), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr, io, 64, 64), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  std::vector<float> y(kFloats);
  ASSERT_EQ(pread(fd2, y.data(), 64, 64), 64);  // visible through the file
  for (size_t i = 0; i < kFloats; ++i) EXPECT_EQ(y[i], a[i] * c[i]) << i;
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksMemory_free(io);
  close(fd2);
  // A read-only memory cannot take outputs.
  int fd3 = memfd_create("nnrt-test-ro", MFD_CLOEXEC);
  ASSERT_EQ(ftruncate(fd3, 128), 0);
  ANeuralNetworksMemory* readOnly = nullptr;
  ASSERT_EQ(ANeuralNetworksMemory_createFromFd(128, PROT_READ, fd3, 0, &readOnly), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr, readOnly, 0, 64), ANEURALNETWORKS_BAD_DATA);
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksMemory_free(readOnly);
  close(fd3);
  // As Android: a negative descriptor is OP_FAILED; a size of 0 is accepted (no range fits in it).
  ANeuralNetworksMemory* empty = nullptr;
  EXPECT_EQ(ANeuralNetworksMemory_createFromFd(0, PROT_READ, 0, 0, &empty), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory_free(empty);
  EXPECT_EQ(ANeuralNetworksMemory_createFromFd(64, PROT_READ, -1, 0, &readOnly), ANEURALNETWORKS_OP_FAILED);
  ANeuralNetworksCompilation_free(compilation);
  ANeuralNetworksModel_free(model);
}

// BOX_WITH_NMS_LIMIT -> ROI_ALIGN where no score passes the threshold: the run succeeds and the
// outputs report their 0-sized first dimension (how many boxes survive is known only at execution).
TEST(CapiExecution, ZeroBoxesKeptGiveZeroSizedOutputs) {
  ANeuralNetworksModel* model = nullptr;
  ASSERT_EQ(ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
  uint32_t next = 0;
  auto add = [&](int32_t type, std::vector<uint32_t> dims) {
    ANeuralNetworksOperandType t{type, static_cast<uint32_t>(dims.size()), dims.empty() ? nullptr : dims.data(), 0.0f,
                                 0};
    EXPECT_EQ(ANeuralNetworksModel_addOperand(model, &t), ANEURALNETWORKS_NO_ERROR);
    return next++;
  };
  auto scalar = [&](int32_t type, const void* value, size_t size) {
    const uint32_t index = add(type, {});
    EXPECT_EQ(ANeuralNetworksModel_setOperandValue(model, index, value, size), ANEURALNETWORKS_NO_ERROR);
    return index;
  };
  const float threshold = 0.5f, iou = 0.5f, sigma = 1.0f, nmsThreshold = 0.1f, ratio = 1.0f;
  const int32_t maxDetections = -1, hard = 0, two = 2;
  const bool nhwc = false;
  const uint32_t scores = add(ANEURALNETWORKS_TENSOR_FLOAT32, {2, 2});
  const uint32_t rois = add(ANEURALNETWORKS_TENSOR_FLOAT32, {2, 8});
  const uint32_t batch = add(ANEURALNETWORKS_TENSOR_INT32, {2});
  const uint32_t image = add(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 4, 4, 1});
  const uint32_t nmsIn[] = {scores, rois, batch,
                            scalar(ANEURALNETWORKS_FLOAT32, &threshold, 4),
                            scalar(ANEURALNETWORKS_INT32, &maxDetections, 4),
                            scalar(ANEURALNETWORKS_INT32, &hard, 4),
                            scalar(ANEURALNETWORKS_FLOAT32, &iou, 4),
                            scalar(ANEURALNETWORKS_FLOAT32, &sigma, 4),
                            scalar(ANEURALNETWORKS_FLOAT32, &nmsThreshold, 4)};
  const uint32_t nmsOut[] = {add(ANEURALNETWORKS_TENSOR_FLOAT32, {0}), add(ANEURALNETWORKS_TENSOR_FLOAT32, {0, 4}),
                             add(ANEURALNETWORKS_TENSOR_INT32, {0}), add(ANEURALNETWORKS_TENSOR_INT32, {0})};
  ASSERT_EQ(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_BOX_WITH_NMS_LIMIT, 9, nmsIn, 4, nmsOut),
            ANEURALNETWORKS_NO_ERROR);
  const uint32_t roiIn[] = {image, nmsOut[1], nmsOut[3], scalar(ANEURALNETWORKS_INT32, &two, 4),
                            scalar(ANEURALNETWORKS_INT32, &two, 4), scalar(ANEURALNETWORKS_FLOAT32, &ratio, 4),
                            scalar(ANEURALNETWORKS_FLOAT32, &ratio, 4), scalar(ANEURALNETWORKS_INT32, &two, 4),
                            scalar(ANEURALNETWORKS_INT32, &two, 4), scalar(ANEURALNETWORKS_BOOL, &nhwc, 1)};
  const uint32_t aligned = add(ANEURALNETWORKS_TENSOR_FLOAT32, {0, 2, 2, 1});
  ASSERT_EQ(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ROI_ALIGN, 10, roiIn, 1, &aligned),
            ANEURALNETWORKS_NO_ERROR);
  const uint32_t inputs[] = {scores, rois, batch, image}, outputs[] = {nmsOut[0], aligned};
  ASSERT_EQ(ANeuralNetworksModel_identifyInputsAndOutputs(model, 4, inputs, 2, outputs), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_finish(model), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation* compilation = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(model, &compilation), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);

  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(compilation, &e), ANEURALNETWORKS_NO_ERROR);
  const float scoreData[] = {0.9f, 0.2f, 0.8f, 0.4f};  // class 1 below the threshold
  const float boxData[] = {0, 0, 4, 4, 0, 0, 2, 2, 0, 0, 4, 4, 1, 1, 3, 3};
  const int32_t batchData[] = {0, 0};
  float imageData[16] = {};
  float keptScores[2] = {}, alignedData[8] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, scoreData, sizeof scoreData), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, boxData, sizeof boxData), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 2, nullptr, batchData, sizeof batchData), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 3, nullptr, imageData, sizeof imageData), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, keptScores, sizeof keptScores), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 1, nullptr, alignedData, sizeof alignedData),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  uint32_t rank = 0, dims[4] = {9, 9, 9, 9};
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e, 0, &rank), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(rank, 1u);
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e, 0, dims), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(dims[0], 0u);
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e, 1, &rank), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(rank, 4u);
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e, 1, dims), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(std::vector<uint32_t>(dims, dims + 4), (std::vector<uint32_t>{0, 2, 2, 1}));
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(compilation);
  ANeuralNetworksModel_free(model);
}

TEST(CapiExecution, ConcurrentExecutionsOnOneCompilation) {
  FibonacciModel m(/*quant=*/true);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        ANeuralNetworksExecution* e = nullptr;
        int64_t n = 1 + (t + i) % 10;
        uint64_t out[10] = {};
        if (ANeuralNetworksExecution_create(m.compilation, &e) != 0 ||
            ANeuralNetworksExecution_setInput(e, 0, nullptr, &n, sizeof n) != 0 ||
            ANeuralNetworksExecution_setOutput(e, 0, nullptr, out, sizeof out) != 0 ||
            ANeuralNetworksExecution_compute(e) != ANEURALNETWORKS_NO_ERROR) {
          ++wrong;
        } else {
          // The first n values, as fib / 0.5 + 10; the rest of the buffer untouched.
          uint64_t a = 1, b = 1;
          for (int64_t k = 0; k < 10; ++k) {
            uint64_t fib = k < 2 ? 1 : a + b;
            if (k >= 2) {
              a = b;
              b = fib;
            }
            uint64_t expected = k < n ? fib * 2 + 10 : 0;
            if (out[k] != expected) ++wrong;
          }
        }
        ANeuralNetworksExecution_free(e);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
