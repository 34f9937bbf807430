/*
 * nnrt: Android's Neural Networks API (NNAPI) for Linux.
 *
 * Vendor-extension entry points, source-compatible with Android's
 * <android/NeuralNetworksExtensions.h>. All four were introduced in API 29.
 *
 * An extension is named in reverse-domain form (for example "com.example.fibonacci"). Within a
 * model, an extension operand or operation type is a 32-bit value whose upper 16 bits are a prefix
 * the runtime assigns to the extension and whose lower 16 bits are the type within the extension.
 * Callers that are not on the runtime's extension allowlist get ANEURALNETWORKS_BAD_DATA.
 */

#ifndef ANDROID_NEURAL_NETWORKS_EXTENSIONS_H
#define ANDROID_NEURAL_NETWORKS_EXTENSIONS_H

/* Android's own guard names, for code that tests them. */
#ifndef ANDROID_FRAMEWORKS_ML_NN_RUNTIME_NEURAL_NETWORKS_EXTENSIONS_H
#define ANDROID_FRAMEWORKS_ML_NN_RUNTIME_NEURAL_NETWORKS_EXTENSIONS_H
#endif
#ifndef ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_EXTENSIONS_H
#define ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_EXTENSIONS_H
#endif

#include "NeuralNetworks.h"

#ifdef __cplusplus
extern "C" {
#endif

/** (API 29) Stores in *isExtensionSupported whether the device implements the named extension.
 *  Returns NO_ERROR or UNEXPECTED_NULL. */
int ANeuralNetworksDevice_getExtensionSupport(const ANeuralNetworksDevice* device,
                                              const char* extensionName,
                                              bool* isExtensionSupported);

/** (API 29) Stores in *type the model-wide operand type for operand code
 *  operandCodeWithinExtension of the named extension, assigning the extension a prefix on first
 *  use. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA (unknown or disallowed extension), or
 *  BAD_STATE (model finished). */
int ANeuralNetworksModel_getExtensionOperandType(ANeuralNetworksModel* model,
                                                 const char* extensionName,
                                                 uint16_t operandCodeWithinExtension,
                                                 int32_t* type);

/** (API 29) Stores in *type the model-wide operation type for operation code
 *  operationCodeWithinExtension of the named extension. Returns NO_ERROR, UNEXPECTED_NULL,
 *  BAD_DATA (unknown or disallowed extension), or BAD_STATE (model finished). */
int ANeuralNetworksModel_getExtensionOperationType(ANeuralNetworksModel* model,
                                                   const char* extensionName,
                                                   uint16_t operationCodeWithinExtension,
                                                   ANeuralNetworksOperationType* type);

/** (API 29) Attaches length opaque bytes to extension operand index; they are copied and passed to
 *  the driver unchanged. NULL with length 0 clears them. Returns NO_ERROR, UNEXPECTED_NULL,
 *  BAD_DATA (not an extension operand, bad index), or BAD_STATE (model finished). */
int ANeuralNetworksModel_setOperandExtensionData(ANeuralNetworksModel* model, int32_t index,
                                                 const void* data, size_t length);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // ANDROID_NEURAL_NETWORKS_EXTENSIONS_H
