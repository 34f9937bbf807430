/*
 * A C application built outside the tree with `pkg-config --cflags --libs neuralnetworks` against an
 * installed nnrt (out_of_tree_test.sh): runs RELU on a [2, 3] tensor on the device named by argv[1],
 * through the public C API only, and prints the six results.
 */
#include <android/NeuralNetworks.h>
#include <stdio.h>
#include <string.h>

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
    fprintf(stderr, "usage: %s DEVICE\n", argv[0]);
    return 2;
  }
  uint32_t count = 0;
  CHECK(ANeuralNetworks_getDeviceCount(&count));
  ANeuralNetworksDevice* device = NULL;
  for (uint32_t i = 0; i < count; ++i) {
    ANeuralNetworksDevice* d = NULL;
    const char* name = NULL;
    CHECK(ANeuralNetworks_getDevice(i, &d));
    CHECK(ANeuralNetworksDevice_getName(d, &name));
    if (strcmp(name, argv[1]) == 0) device = d;
  }
  if (device == NULL) {
    fprintf(stderr, "no device named %s\n", argv[1]);
    return 1;
  }

  uint32_t dims[] = {2, 3};
  ANeuralNetworksOperandType tensor = {ANEURALNETWORKS_TENSOR_FLOAT32, 2, dims, 0.0f, 0};
  ANeuralNetworksModel* model = NULL;
  CHECK(ANeuralNetworksModel_create(&model));
  CHECK(ANeuralNetworksModel_addOperand(model, &tensor));
  CHECK(ANeuralNetworksModel_addOperand(model, &tensor));
  uint32_t in[] = {0}, out[] = {1};
  CHECK(ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_RELU, 1, in, 1, out));
  CHECK(ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, in, 1, out));
  CHECK(ANeuralNetworksModel_finish(model));

  ANeuralNetworksCompilation* compilation = NULL;
  CHECK(ANeuralNetworksCompilation_createForDevices(model, (const ANeuralNetworksDevice* const*)&device, 1,
                                                    &compilation));
  CHECK(ANeuralNetworksCompilation_finish(compilation));
  ANeuralNetworksExecution* execution = NULL;
  CHECK(ANeuralNetworksExecution_create(compilation, &execution));
  float x[6] = {-1.0f, 2.0f, -3.0f, 4.5f, 0.0f, -0.5f}, y[6] = {0};
  CHECK(ANeuralNetworksExecution_setInput(execution, 0, NULL, x, sizeof x));
  CHECK(ANeuralNetworksExecution_setOutput(execution, 0, NULL, y, sizeof y));
  CHECK(ANeuralNetworksExecution_compute(execution));
  printf("relu on %s:", argv[1]);
  for (int i = 0; i < 6; ++i) printf(" %g", y[i]);
  printf("\n");
  ANeuralNetworksExecution_free(execution);
  ANeuralNetworksCompilation_free(compilation);
  ANeuralNetworksModel_free(model);
  return 0;
}
