/*
 * ADD -> FIBONACCI -> ADD through the NNAPI C API: standard operations around a vendor extension
 * operation. nnrt partitions it into three steps: ADD on the cpu, EXAMPLE_FIBONACCI on the
 * Fibonacci device, ADD on the cpu again.
 *
 *   n = x + 2                   (ADD, TENSOR_FLOAT32 [1])
 *   fib = FIBONACCI(n)          (com.example.fibonacci, TENSOR_FLOAT32 [n] of 1, 1, 2, 3, 5, ...)
 *   y = fib + offsets           (ADD with a constant vector)
 *
 * The program must be allowed to use vendor extensions: run it with
 * NNRT_APP_ID=com.example.fibonacci_demo (listed in configs/allowlist.txt), or list its path there.
 */
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>
#include <nnrt_examples/fibonacci_extension.h>
#include <stdio.h>

#define COUNT 8

#define CHECK(call)                                                    \
  do {                                                                 \
    int result_ = (call);                                              \
    if (result_ != ANEURALNETWORKS_NO_ERROR) {                         \
      fprintf(stderr, "%s failed with result code %d\n", #call, result_); \
      return 1;                                                        \
    }                                                                  \
  } while (0)

static int build(ANeuralNetworksModel* model) {
  uint32_t one[] = {1}, count[] = {COUNT};
  ANeuralNetworksOperandType scalarTensor = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, one, 0.0f, 0};
  ANeuralNetworksOperandType vector = {ANEURALNETWORKS_TENSOR_FLOAT32, 1, count, 0.0f, 0};
  ANeuralNetworksOperandType activation = {ANEURALNETWORKS_INT32, 0, NULL, 0.0f, 0};
  ANeuralNetworksOperationType fibonacci;
  CHECK(ANeuralNetworksModel_getExtensionOperationType(model, EXAMPLE_FIBONACCI_EXTENSION_NAME, EXAMPLE_FIBONACCI,
                                                       &fibonacci));
  CHECK(ANeuralNetworksModel_addOperand(model, &scalarTensor)); /* 0: x */
  CHECK(ANeuralNetworksModel_addOperand(model, &scalarTensor)); /* 1: two */
  CHECK(ANeuralNetworksModel_addOperand(model, &activation));   /* 2: fused activation NONE */
  CHECK(ANeuralNetworksModel_addOperand(model, &scalarTensor)); /* 3: n */
  CHECK(ANeuralNetworksModel_addOperand(model, &vector));       /* 4: fib */
  CHECK(ANeuralNetworksModel_addOperand(model, &vector));       /* 5: offsets */
  CHECK(ANeuralNetworksModel_addOperand(model, &vector));       /* 6: y */
  const float two = 2.0f;
  const int32_t none = ANEURALNETWORKS_FUSED_NONE;
  const float offsets[COUNT] = {0.5f, 0.25f, 0.0f, -0.25f, -0.5f, -1.0f, -2.0f, -4.0f};
  CHECK(ANeuralNetworksModel_setOperandValue(model, 1, &two, sizeof two));
  CHECK(ANeuralNetworksModel_setOperandValue(model, 2, &none, sizeof none));
  CHECK(ANeuralNetworksModel_setOperandValue(model, 5, offsets, sizeof offsets));
  uint32_t addIn[] = {0, 1, 2}, addOut[] = {3};
  uint32_t fibIn[] = {3}, fibOut[] = {4};
  uint32_t add2In[] = {4, 5, 2}, add2Out[] = {6};
  CHECK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, addIn, 1, addOut));
  CHECK(ANeuralNetworksModel_addOperation(model, fibonacci, 1, fibIn, 1, fibOut));
  CHECK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3, add2In, 1, add2Out));
  uint32_t inputs[] = {0}, outputs[] = {6};
  CHECK(ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, inputs, 1, outputs));
  return ANeuralNetworksModel_finish(model);
}

int main(void) {
  ANeuralNetworksModel* model = NULL;
  CHECK(ANeuralNetworksModel_create(&model));
  CHECK(build(model));

  ANeuralNetworksCompilation* compilation = NULL;
  CHECK(ANeuralNetworksCompilation_create(model, &compilation));
  CHECK(ANeuralNetworksCompilation_setPreference(compilation, ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER));
  CHECK(ANeuralNetworksCompilation_finish(compilation));

  ANeuralNetworksExecution* execution = NULL;
  CHECK(ANeuralNetworksExecution_create(compilation, &execution));
  const float x = COUNT - 2; /* n = x + 2 = COUNT */
  float y[COUNT];
  CHECK(ANeuralNetworksExecution_setInput(execution, 0, NULL, &x, sizeof x));
  CHECK(ANeuralNetworksExecution_setOutput(execution, 0, NULL, y, sizeof y));
  ANeuralNetworksEvent* event = NULL;
  CHECK(ANeuralNetworksExecution_startCompute(execution, &event));
  CHECK(ANeuralNetworksEvent_wait(event));

  printf("y = fib(x + 2) + offsets:");
  for (int i = 0; i < COUNT; ++i) printf(" %g", y[i]);
  printf("\n");

  ANeuralNetworksEvent_free(event);
  ANeuralNetworksExecution_free(execution);
  ANeuralNetworksCompilation_free(compilation);
  ANeuralNetworksModel_free(model);
  return 0;
}
