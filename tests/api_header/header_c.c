/*
 * Compile-time checks of the public C API headers from C11: enum values, constants and struct
 * layout must match Android's NNAPI exactly. Nothing here calls into the runtime.
 */
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>

#include <stddef.h>
#include <stdint.h>

#ifndef ANDROID_NEURAL_NETWORKS_H
#error "NeuralNetworks.h must define ANDROID_NEURAL_NETWORKS_H"
#endif
#ifdef __cplusplus
#error "this file must be compiled as C"
#endif

/* ResultCode: all of them. */
_Static_assert(ANEURALNETWORKS_NO_ERROR == 0, "NO_ERROR");
_Static_assert(ANEURALNETWORKS_OUT_OF_MEMORY == 1, "OUT_OF_MEMORY");
_Static_assert(ANEURALNETWORKS_INCOMPLETE == 2, "INCOMPLETE");
_Static_assert(ANEURALNETWORKS_UNEXPECTED_NULL == 3, "UNEXPECTED_NULL");
_Static_assert(ANEURALNETWORKS_BAD_DATA == 4, "BAD_DATA");
_Static_assert(ANEURALNETWORKS_OP_FAILED == 5, "OP_FAILED");
_Static_assert(ANEURALNETWORKS_BAD_STATE == 6, "BAD_STATE");
_Static_assert(ANEURALNETWORKS_UNMAPPABLE == 7, "UNMAPPABLE");
_Static_assert(ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE == 8, "OUTPUT_INSUFFICIENT_SIZE");
_Static_assert(ANEURALNETWORKS_UNAVAILABLE_DEVICE == 9, "UNAVAILABLE_DEVICE");
_Static_assert(ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT == 10, "MISSED_DEADLINE_TRANSIENT");
_Static_assert(ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT == 11, "MISSED_DEADLINE_PERSISTENT");
_Static_assert(ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT == 12, "RESOURCE_EXHAUSTED_TRANSIENT");
_Static_assert(ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT == 13, "RESOURCE_EXHAUSTED_PERSISTENT");
_Static_assert(ANEURALNETWORKS_DEAD_OBJECT == 14, "DEAD_OBJECT");

/* OperandCode: all of them. */
_Static_assert(ANEURALNETWORKS_FLOAT32 == 0, "FLOAT32");
_Static_assert(ANEURALNETWORKS_INT32 == 1, "INT32");
_Static_assert(ANEURALNETWORKS_UINT32 == 2, "UINT32");
_Static_assert(ANEURALNETWORKS_TENSOR_FLOAT32 == 3, "TENSOR_FLOAT32");
_Static_assert(ANEURALNETWORKS_TENSOR_INT32 == 4, "TENSOR_INT32");
_Static_assert(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM == 5, "TENSOR_QUANT8_ASYMM");
_Static_assert(ANEURALNETWORKS_BOOL == 6, "BOOL");
_Static_assert(ANEURALNETWORKS_TENSOR_QUANT16_SYMM == 7, "TENSOR_QUANT16_SYMM");
_Static_assert(ANEURALNETWORKS_TENSOR_FLOAT16 == 8, "TENSOR_FLOAT16");
_Static_assert(ANEURALNETWORKS_TENSOR_BOOL8 == 9, "TENSOR_BOOL8");
_Static_assert(ANEURALNETWORKS_FLOAT16 == 10, "FLOAT16");
_Static_assert(ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL == 11, "TENSOR_QUANT8_SYMM_PER_CHANNEL");
_Static_assert(ANEURALNETWORKS_TENSOR_QUANT16_ASYMM == 12, "TENSOR_QUANT16_ASYMM");
_Static_assert(ANEURALNETWORKS_TENSOR_QUANT8_SYMM == 13, "TENSOR_QUANT8_SYMM");
_Static_assert(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED == 14, "TENSOR_QUANT8_ASYMM_SIGNED");
_Static_assert(ANEURALNETWORKS_MODEL == 15, "MODEL");
_Static_assert(ANEURALNETWORKS_OEM_SCALAR == 10000, "OEM_SCALAR");
_Static_assert(ANEURALNETWORKS_TENSOR_OEM_BYTE == 10001, "TENSOR_OEM_BYTE");

/* OperationCode: a spread across every feature level, the last ones and OEM. */
_Static_assert(ANEURALNETWORKS_ADD == 0, "ADD");
_Static_assert(ANEURALNETWORKS_CONV_2D == 3, "CONV_2D");
_Static_assert(ANEURALNETWORKS_FULLY_CONNECTED == 9, "FULLY_CONNECTED");
_Static_assert(ANEURALNETWORKS_LSTM == 16, "LSTM");
_Static_assert(ANEURALNETWORKS_SOFTMAX == 25, "SOFTMAX");
_Static_assert(ANEURALNETWORKS_TANH == 28, "TANH");
_Static_assert(ANEURALNETWORKS_BATCH_TO_SPACE_ND == 29, "BATCH_TO_SPACE_ND");
_Static_assert(ANEURALNETWORKS_TRANSPOSE == 37, "TRANSPOSE");
_Static_assert(ANEURALNETWORKS_ABS == 38, "ABS");
_Static_assert(ANEURALNETWORKS_DETECTION_POSTPROCESSING == 47, "DETECTION_POSTPROCESSING");
_Static_assert(ANEURALNETWORKS_GROUPED_CONV_2D == 55, "GROUPED_CONV_2D");
_Static_assert(ANEURALNETWORKS_LOG_SOFTMAX == 64, "LOG_SOFTMAX");
_Static_assert(ANEURALNETWORKS_QUANTIZED_16BIT_LSTM == 73, "QUANTIZED_16BIT_LSTM");
_Static_assert(ANEURALNETWORKS_REDUCE_SUM == 80, "REDUCE_SUM");
_Static_assert(ANEURALNETWORKS_TOPK_V2 == 90, "TOPK_V2");
_Static_assert(ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR == 94, "RESIZE_NEAREST_NEIGHBOR");
_Static_assert(ANEURALNETWORKS_QUANTIZED_LSTM == 95, "QUANTIZED_LSTM");
_Static_assert(ANEURALNETWORKS_IF == 96, "IF");
_Static_assert(ANEURALNETWORKS_WHILE == 97, "WHILE");
_Static_assert(ANEURALNETWORKS_RANK == 101, "RANK");
_Static_assert(ANEURALNETWORKS_BATCH_MATMUL == 102, "BATCH_MATMUL");
_Static_assert(ANEURALNETWORKS_PACK == 103, "PACK");
_Static_assert(ANEURALNETWORKS_MIRROR_PAD == 104, "MIRROR_PAD");
_Static_assert(ANEURALNETWORKS_REVERSE == 105, "REVERSE");
_Static_assert(ANEURALNETWORKS_OEM_OPERATION == 10000, "OEM_OPERATION");

/* Fuse, padding, preference, priority, device type, feature level, duration codes. */
_Static_assert(ANEURALNETWORKS_FUSED_NONE == 0 && ANEURALNETWORKS_FUSED_RELU == 1 &&
                       ANEURALNETWORKS_FUSED_RELU1 == 2 && ANEURALNETWORKS_FUSED_RELU6 == 3,
               "FuseCode");
_Static_assert(ANEURALNETWORKS_PADDING_SAME == 1 && ANEURALNETWORKS_PADDING_VALID == 2,
               "PaddingCode");
_Static_assert(ANEURALNETWORKS_PREFER_LOW_POWER == 0, "PREFER_LOW_POWER");
_Static_assert(ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER == 1, "PREFER_FAST_SINGLE_ANSWER");
_Static_assert(ANEURALNETWORKS_PREFER_SUSTAINED_SPEED == 2, "PREFER_SUSTAINED_SPEED");
_Static_assert(ANEURALNETWORKS_PRIORITY_LOW == 90, "PRIORITY_LOW");
_Static_assert(ANEURALNETWORKS_PRIORITY_MEDIUM == 100, "PRIORITY_MEDIUM");
_Static_assert(ANEURALNETWORKS_PRIORITY_HIGH == 110, "PRIORITY_HIGH");
_Static_assert(ANEURALNETWORKS_PRIORITY_DEFAULT == ANEURALNETWORKS_PRIORITY_MEDIUM, "PRIORITY_DEFAULT");
_Static_assert(ANEURALNETWORKS_DEVICE_UNKNOWN == 0, "DEVICE_UNKNOWN");
_Static_assert(ANEURALNETWORKS_DEVICE_OTHER == 1, "DEVICE_OTHER");
_Static_assert(ANEURALNETWORKS_DEVICE_CPU == 2, "DEVICE_CPU");
_Static_assert(ANEURALNETWORKS_DEVICE_GPU == 3, "DEVICE_GPU");
_Static_assert(ANEURALNETWORKS_DEVICE_ACCELERATOR == 4, "DEVICE_ACCELERATOR");
_Static_assert(ANEURALNETWORKS_FEATURE_LEVEL_1 == 27, "FEATURE_LEVEL_1");
_Static_assert(ANEURALNETWORKS_FEATURE_LEVEL_2 == 28, "FEATURE_LEVEL_2");
_Static_assert(ANEURALNETWORKS_FEATURE_LEVEL_3 == 29, "FEATURE_LEVEL_3");
_Static_assert(ANEURALNETWORKS_FEATURE_LEVEL_4 == 30, "FEATURE_LEVEL_4");
_Static_assert(ANEURALNETWORKS_FEATURE_LEVEL_5 == 31, "FEATURE_LEVEL_5");
_Static_assert(ANEURALNETWORKS_FEATURE_LEVEL_6 == 1000006, "FEATURE_LEVEL_6");
_Static_assert(ANEURALNETWORKS_FEATURE_LEVEL_7 == 1000007, "FEATURE_LEVEL_7");
_Static_assert(ANEURALNETWORKS_FEATURE_LEVEL_8 == 1000008, "FEATURE_LEVEL_8");
_Static_assert(ANEURALNETWORKS_DURATION_ON_HARDWARE == 0, "DURATION_ON_HARDWARE");
_Static_assert(ANEURALNETWORKS_DURATION_IN_DRIVER == 1, "DURATION_IN_DRIVER");
_Static_assert(ANEURALNETWORKS_DURATION_FENCED_ON_HARDWARE == 2, "DURATION_FENCED_ON_HARDWARE");
_Static_assert(ANEURALNETWORKS_DURATION_FENCED_IN_DRIVER == 3, "DURATION_FENCED_IN_DRIVER");

/* Constants. */
_Static_assert(ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES == 128, "immediate copy limit");
_Static_assert(ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN == 32, "cache token size");

/* Struct layout (LP64 and ILP32 alike: fields in declaration order, natural alignment). */
_Static_assert(offsetof(ANeuralNetworksOperandType, type) == 0, "OperandType.type");
_Static_assert(offsetof(ANeuralNetworksOperandType, dimensionCount) == 4, "OperandType.dimensionCount");
_Static_assert(offsetof(ANeuralNetworksOperandType, dimensions) == 8,
               "OperandType.dimensions");
_Static_assert(offsetof(ANeuralNetworksOperandType, scale) == 8 + sizeof(void*), "OperandType.scale");
_Static_assert(offsetof(ANeuralNetworksOperandType, zeroPoint) == 12 + sizeof(void*),
               "OperandType.zeroPoint");
_Static_assert(sizeof(ANeuralNetworksOperandType) == 16 + sizeof(void*), "OperandType size");
_Static_assert(offsetof(ANeuralNetworksSymmPerChannelQuantParams, channelDim) == 0, "channelDim");
_Static_assert(offsetof(ANeuralNetworksSymmPerChannelQuantParams, scaleCount) == 4, "scaleCount");
_Static_assert(offsetof(ANeuralNetworksSymmPerChannelQuantParams, scales) == 8, "scales");
_Static_assert(sizeof(ANeuralNetworksOperationType) == 4, "ANeuralNetworksOperationType is int32_t");

/* The typedef'd enum names exist and can hold their values. */
static const OperandCode kOperand = ANEURALNETWORKS_TENSOR_FLOAT32;
static const OperationCode kOperation = ANEURALNETWORKS_REVERSE;
static const FuseCode kFuse = ANEURALNETWORKS_FUSED_RELU6;
static const PaddingCode kPadding = ANEURALNETWORKS_PADDING_VALID;
static const PreferenceCode kPreference = ANEURALNETWORKS_PREFER_SUSTAINED_SPEED;
static const PriorityCode kPriority = ANEURALNETWORKS_PRIORITY_HIGH;
static const DeviceTypeCode kDeviceType = ANEURALNETWORKS_DEVICE_ACCELERATOR;
static const FeatureLevelCode kFeatureLevel = ANEURALNETWORKS_FEATURE_LEVEL_8;
static const DurationCode kDuration = ANEURALNETWORKS_DURATION_FENCED_IN_DRIVER;
static const ResultCode kResult = ANEURALNETWORKS_DEAD_OBJECT;

/* Called from the C++ test so that the C and C++ views of the layout are compared at run time. */
size_t nnrt_api_header_c_operand_type_size(void);
size_t nnrt_api_header_c_operand_type_size(void) { return sizeof(ANeuralNetworksOperandType); }

int64_t nnrt_api_header_c_enum_checksum(void);
int64_t nnrt_api_header_c_enum_checksum(void) {
    return (int64_t)kOperand + (int64_t)kOperation + (int64_t)kFuse + (int64_t)kPadding +
           (int64_t)kPreference + (int64_t)kPriority + (int64_t)kDeviceType +
           (int64_t)kFeatureLevel + (int64_t)kDuration + (int64_t)kResult;
}
