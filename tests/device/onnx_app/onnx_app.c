/*
 * A C application built outside the tree with find_package(nnrt) and nnrt::onnx against an installed
 * nnrt (out_of_tree_test.sh): loads the ONNX model argv[1] (ONNX's test_relu: x [3, 4, 5] -> y) with
 * ANeuralNetworksNnrt_loadOnnxModel, runs it on x[i] = (i - 30) / 2 and prints the names and the sum
 * of y (by hand: (1 + 2 + ... + 29) / 2 = 217.5).
 */
#include <android/NeuralNetworks.h>
#include <nnrt/nnrt.h>
#include <stdio.h>

#define CHECK(call)                                                       \
  do {                                                                    \
    int result_ = (call);                                                 \
    if (result_ != ANEURALNETWORKS_NO_ERROR) {                            \
      fprintf(stderr, "%s failed with result code %d\n", #call, result_); \
      return 1;                                                           \
    }                                                                     \
  } while (0)

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s MODEL.onnx\n", argv[0]);
    return 2;
  }
  ANeuralNetworksModel* model = NULL;
  uint32_t inputCount = 0, outputCount = 0;
  char **inputs = NULL, **outputs = NULL;
  CHECK(ANeuralNetworksNnrt_loadOnnxModel(argv[1], &model, &inputCount, &inputs, &outputCount, &outputs));
  if (inputCount != 1 || outputCount != 1) {
    fprintf(stderr, "expected one input and one output, got %u and %u\n", inputCount, outputCount);
    return 1;
  }
  printf("%s -> %s:", inputs[0], outputs[0]);
  ANeuralNetworksNnrt_freeOnnxNames(inputs, inputCount);
  ANeuralNetworksNnrt_freeOnnxNames(outputs, outputCount);

  ANeuralNetworksCompilation* compilation = NULL;
  CHECK(ANeuralNetworksCompilation_create(model, &compilation));
  CHECK(ANeuralNetworksCompilation_finish(compilation));
  ANeuralNetworksExecution* execution = NULL;
  CHECK(ANeuralNetworksExecution_create(compilation, &execution));
  float x[60], y[60];
  for (int i = 0; i < 60; ++i)
    x[i] = (float)(i - 30) / 2;
  CHECK(ANeuralNetworksExecution_setInput(execution, 0, NULL, x, sizeof x));
  CHECK(ANeuralNetworksExecution_setOutput(execution, 0, NULL, y, sizeof y));
  CHECK(ANeuralNetworksExecution_compute(execution));
  float sum = 0;
  for (int i = 0; i < 60; ++i)
    sum += y[i];
  printf(" sum %g\n", sum);
  ANeuralNetworksExecution_free(execution);
  ANeuralNetworksCompilation_free(compilation);
  ANeuralNetworksModel_free(model);
  return 0;
}
