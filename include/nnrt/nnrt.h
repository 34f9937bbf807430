/*
 * nnrt's public additions to the NNAPI C API (Linux has no Android package manager, so the
 * runtime needs to be told who is calling). Link with libneuralnetworks.so.
 */
#ifndef NNRT_NNRT_H
#define NNRT_NNRT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sets the application id that package-name entries of the vendor-extension allowlist are matched
 * against (the environment variable NNRT_APP_ID does the same for programs that cannot call this).
 * NULL or "" clears it. As in Android, the allowlist prevents unintended use of vendor extensions,
 * not deliberate circumvention: any program may claim any id.
 * Returns ANEURALNETWORKS_NO_ERROR. Thread-safe. */
int ANeuralNetworksNnrt_setApplicationId(const char* applicationId);

struct ANeuralNetworksModel;

/* The ONNX front end (docs/onnx.md; link with nnrt's nnrt_onnx library and libneuralnetworks.so).
 * Loads the ONNX model in the file `path` into a new, finished model: *model receives it (free it
 * with ANeuralNetworksModel_free), *inputNames / *outputNames the ONNX names of its inputs and
 * outputs in the model's order (*inputCount / *outputCount of them; free each list with
 * ANeuralNetworksNnrt_freeOnnxNames). ONNX int64 tensors are TENSOR_INT32 operands and rank-0
 * tensors have dimensions [1] (NNAPI has neither).
 * Returns ANEURALNETWORKS_NO_ERROR; ANEURALNETWORKS_UNEXPECTED_NULL for a NULL argument;
 * ANEURALNETWORKS_BAD_DATA, with one log line naming the problem (the file, or the node, its operator
 * and the reason), for a malformed file, an unsupported opset, operator or attribute; the runtime's
 * code when it refuses the model. Nothing is allocated when it fails. */
int ANeuralNetworksNnrt_loadOnnxModel(const char* path, struct ANeuralNetworksModel** model,
                                      uint32_t* inputCount, char*** inputNames, uint32_t* outputCount,
                                      char*** outputNames);

/* Frees a name list of ANeuralNetworksNnrt_loadOnnxModel (`count` names). NULL is allowed. */
void ANeuralNetworksNnrt_freeOnnxNames(char** names, uint32_t count);

#ifdef __cplusplus
}
#endif

#endif /* NNRT_NNRT_H */
