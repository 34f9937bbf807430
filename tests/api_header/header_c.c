/*
 * Compile-time checks of the public C API headers from C11: every enumerator, constant and macro
 * of Android's NNAPI headers (NeuralNetworks.h and NeuralNetworksTypes.h, API 27..31, feature
 * levels 1..8) with its Android value, the struct layouts, and the exact type of every entry point.
 * Nothing here calls into the runtime: the signatures are compared with _Generic, whose controlling
 * expression is not evaluated, so the functions are neither called nor linked.
 */
#include <android/NeuralNetworksTypes.h> /* Android 12+ programs include these two directly */
#include <android/NeuralNetworksOEM.h>
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#error "this file must be compiled as C"
#endif

/* Include guards, nnrt's and Android's (code tests them to detect that NNAPI is declared). */
#ifndef ANDROID_NEURAL_NETWORKS_H
#error "NeuralNetworks.h must define ANDROID_NEURAL_NETWORKS_H"
#endif
#ifndef ANDROID_FRAMEWORKS_ML_NN_RUNTIME_NEURAL_NETWORKS_H
#error "ANDROID_FRAMEWORKS_ML_NN_RUNTIME_NEURAL_NETWORKS_H must be defined"
#endif
#ifndef ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_H
#error "ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_H must be defined"
#endif
#ifndef ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_TYPES_H
#error "ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_TYPES_H must be defined"
#endif
#ifndef ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_EXTENSIONS_H
#error "NeuralNetworksExtensions.h must define Android's guard name"
#endif

/* Availability macros: the feature-level minimum API levels are usable in #if and in constant
 * expressions, and the annotations expand to nothing. */
#if !defined(__NNAPI_FL1_MIN_ANDROID_API__) || __NNAPI_FL1_MIN_ANDROID_API__ != 27
#error "__NNAPI_FL1_MIN_ANDROID_API__ must be 27"
#endif
#if !defined(__NNAPI_FL2_MIN_ANDROID_API__) || __NNAPI_FL2_MIN_ANDROID_API__ != 28
#error "__NNAPI_FL2_MIN_ANDROID_API__ must be 28"
#endif
#if !defined(__NNAPI_FL3_MIN_ANDROID_API__) || __NNAPI_FL3_MIN_ANDROID_API__ != 29
#error "__NNAPI_FL3_MIN_ANDROID_API__ must be 29"
#endif
#if !defined(__NNAPI_FL4_MIN_ANDROID_API__) || __NNAPI_FL4_MIN_ANDROID_API__ != 30
#error "__NNAPI_FL4_MIN_ANDROID_API__ must be 30"
#endif
#if !defined(__NNAPI_FL5_MIN_ANDROID_API__) || __NNAPI_FL5_MIN_ANDROID_API__ != 31
#error "__NNAPI_FL5_MIN_ANDROID_API__ must be 31"
#endif
#if !defined(__NNAPI_INTRODUCED_IN) || !defined(__NNAPI_DEPRECATED_IN)
#error "__NNAPI_INTRODUCED_IN and __NNAPI_DEPRECATED_IN must be defined"
#endif
_Static_assert(__NNAPI_FL1_MIN_ANDROID_API__ == ANEURALNETWORKS_FEATURE_LEVEL_1, "FL1 API level");
_Static_assert(__NNAPI_FL2_MIN_ANDROID_API__ == ANEURALNETWORKS_FEATURE_LEVEL_2, "FL2 API level");
_Static_assert(__NNAPI_FL3_MIN_ANDROID_API__ == ANEURALNETWORKS_FEATURE_LEVEL_3, "FL3 API level");
_Static_assert(__NNAPI_FL4_MIN_ANDROID_API__ == ANEURALNETWORKS_FEATURE_LEVEL_4, "FL4 API level");
_Static_assert(__NNAPI_FL5_MIN_ANDROID_API__ == ANEURALNETWORKS_FEATURE_LEVEL_5, "FL5 API level");
#define NNRT_STRINGIFY_(x) #x
#define NNRT_STRINGIFY(x) NNRT_STRINGIFY_(x)
_Static_assert(sizeof(NNRT_STRINGIFY(__NNAPI_INTRODUCED_IN(27))) == 1,
               "__NNAPI_INTRODUCED_IN must expand to nothing");
_Static_assert(sizeof(NNRT_STRINGIFY(__NNAPI_DEPRECATED_IN(35))) == 1,
               "__NNAPI_DEPRECATED_IN must expand to nothing");
int nnrt_api_header_c_annotated(void) __NNAPI_INTRODUCED_IN(27) __NNAPI_DEPRECATED_IN(35);

/* Every enumerator with its Android value. */
#define NNRT_CHECK_VALUE(name, value) _Static_assert((name) == (value), #name " != " #value)

/* OperandCode: all of them. */
NNRT_CHECK_VALUE(ANEURALNETWORKS_FLOAT32, 0);
NNRT_CHECK_VALUE(ANEURALNETWORKS_INT32, 1);
NNRT_CHECK_VALUE(ANEURALNETWORKS_UINT32, 2);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TENSOR_FLOAT32, 3);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TENSOR_INT32, 4);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 5);
NNRT_CHECK_VALUE(ANEURALNETWORKS_BOOL, 6);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TENSOR_QUANT16_SYMM, 7);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TENSOR_FLOAT16, 8);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TENSOR_BOOL8, 9);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FLOAT16, 10);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 11);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TENSOR_QUANT16_ASYMM, 12);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TENSOR_QUANT8_SYMM, 13);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 14);
NNRT_CHECK_VALUE(ANEURALNETWORKS_MODEL, 15);

/* OperationCode: all of them. */
NNRT_CHECK_VALUE(ANEURALNETWORKS_ADD, 0);
NNRT_CHECK_VALUE(ANEURALNETWORKS_AVERAGE_POOL_2D, 1);
NNRT_CHECK_VALUE(ANEURALNETWORKS_CONCATENATION, 2);
NNRT_CHECK_VALUE(ANEURALNETWORKS_CONV_2D, 3);
NNRT_CHECK_VALUE(ANEURALNETWORKS_DEPTHWISE_CONV_2D, 4);
NNRT_CHECK_VALUE(ANEURALNETWORKS_DEPTH_TO_SPACE, 5);
NNRT_CHECK_VALUE(ANEURALNETWORKS_DEQUANTIZE, 6);
NNRT_CHECK_VALUE(ANEURALNETWORKS_EMBEDDING_LOOKUP, 7);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FLOOR, 8);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FULLY_CONNECTED, 9);
NNRT_CHECK_VALUE(ANEURALNETWORKS_HASHTABLE_LOOKUP, 10);
NNRT_CHECK_VALUE(ANEURALNETWORKS_L2_NORMALIZATION, 11);
NNRT_CHECK_VALUE(ANEURALNETWORKS_L2_POOL_2D, 12);
NNRT_CHECK_VALUE(ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION, 13);
NNRT_CHECK_VALUE(ANEURALNETWORKS_LOGISTIC, 14);
NNRT_CHECK_VALUE(ANEURALNETWORKS_LSH_PROJECTION, 15);
NNRT_CHECK_VALUE(ANEURALNETWORKS_LSTM, 16);
NNRT_CHECK_VALUE(ANEURALNETWORKS_MAX_POOL_2D, 17);
NNRT_CHECK_VALUE(ANEURALNETWORKS_MUL, 18);
NNRT_CHECK_VALUE(ANEURALNETWORKS_RELU, 19);
NNRT_CHECK_VALUE(ANEURALNETWORKS_RELU1, 20);
NNRT_CHECK_VALUE(ANEURALNETWORKS_RELU6, 21);
NNRT_CHECK_VALUE(ANEURALNETWORKS_RESHAPE, 22);
NNRT_CHECK_VALUE(ANEURALNETWORKS_RESIZE_BILINEAR, 23);
NNRT_CHECK_VALUE(ANEURALNETWORKS_RNN, 24);
NNRT_CHECK_VALUE(ANEURALNETWORKS_SOFTMAX, 25);
NNRT_CHECK_VALUE(ANEURALNETWORKS_SPACE_TO_DEPTH, 26);
NNRT_CHECK_VALUE(ANEURALNETWORKS_SVDF, 27);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TANH, 28);
NNRT_CHECK_VALUE(ANEURALNETWORKS_BATCH_TO_SPACE_ND, 29);
NNRT_CHECK_VALUE(ANEURALNETWORKS_DIV, 30);
NNRT_CHECK_VALUE(ANEURALNETWORKS_MEAN, 31);
NNRT_CHECK_VALUE(ANEURALNETWORKS_PAD, 32);
NNRT_CHECK_VALUE(ANEURALNETWORKS_SPACE_TO_BATCH_ND, 33);
NNRT_CHECK_VALUE(ANEURALNETWORKS_SQUEEZE, 34);
NNRT_CHECK_VALUE(ANEURALNETWORKS_STRIDED_SLICE, 35);
NNRT_CHECK_VALUE(ANEURALNETWORKS_SUB, 36);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TRANSPOSE, 37);
NNRT_CHECK_VALUE(ANEURALNETWORKS_ABS, 38);
NNRT_CHECK_VALUE(ANEURALNETWORKS_ARGMAX, 39);
NNRT_CHECK_VALUE(ANEURALNETWORKS_ARGMIN, 40);
NNRT_CHECK_VALUE(ANEURALNETWORKS_AXIS_ALIGNED_BBOX_TRANSFORM, 41);
NNRT_CHECK_VALUE(ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_LSTM, 42);
NNRT_CHECK_VALUE(ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_RNN, 43);
NNRT_CHECK_VALUE(ANEURALNETWORKS_BOX_WITH_NMS_LIMIT, 44);
NNRT_CHECK_VALUE(ANEURALNETWORKS_CAST, 45);
NNRT_CHECK_VALUE(ANEURALNETWORKS_CHANNEL_SHUFFLE, 46);
NNRT_CHECK_VALUE(ANEURALNETWORKS_DETECTION_POSTPROCESSING, 47);
NNRT_CHECK_VALUE(ANEURALNETWORKS_EQUAL, 48);
NNRT_CHECK_VALUE(ANEURALNETWORKS_EXP, 49);
NNRT_CHECK_VALUE(ANEURALNETWORKS_EXPAND_DIMS, 50);
NNRT_CHECK_VALUE(ANEURALNETWORKS_GATHER, 51);
NNRT_CHECK_VALUE(ANEURALNETWORKS_GENERATE_PROPOSALS, 52);
NNRT_CHECK_VALUE(ANEURALNETWORKS_GREATER, 53);
NNRT_CHECK_VALUE(ANEURALNETWORKS_GREATER_EQUAL, 54);
NNRT_CHECK_VALUE(ANEURALNETWORKS_GROUPED_CONV_2D, 55);
NNRT_CHECK_VALUE(ANEURALNETWORKS_HEATMAP_MAX_KEYPOINT, 56);
NNRT_CHECK_VALUE(ANEURALNETWORKS_INSTANCE_NORMALIZATION, 57);
NNRT_CHECK_VALUE(ANEURALNETWORKS_LESS, 58);
NNRT_CHECK_VALUE(ANEURALNETWORKS_LESS_EQUAL, 59);
NNRT_CHECK_VALUE(ANEURALNETWORKS_LOG, 60);
NNRT_CHECK_VALUE(ANEURALNETWORKS_LOGICAL_AND, 61);
NNRT_CHECK_VALUE(ANEURALNETWORKS_LOGICAL_NOT, 62);
NNRT_CHECK_VALUE(ANEURALNETWORKS_LOGICAL_OR, 63);
NNRT_CHECK_VALUE(ANEURALNETWORKS_LOG_SOFTMAX, 64);
NNRT_CHECK_VALUE(ANEURALNETWORKS_MAXIMUM, 65);
NNRT_CHECK_VALUE(ANEURALNETWORKS_MINIMUM, 66);
NNRT_CHECK_VALUE(ANEURALNETWORKS_NEG, 67);
NNRT_CHECK_VALUE(ANEURALNETWORKS_NOT_EQUAL, 68);
NNRT_CHECK_VALUE(ANEURALNETWORKS_PAD_V2, 69);
NNRT_CHECK_VALUE(ANEURALNETWORKS_POW, 70);
NNRT_CHECK_VALUE(ANEURALNETWORKS_PRELU, 71);
NNRT_CHECK_VALUE(ANEURALNETWORKS_QUANTIZE, 72);
NNRT_CHECK_VALUE(ANEURALNETWORKS_QUANTIZED_16BIT_LSTM, 73);
NNRT_CHECK_VALUE(ANEURALNETWORKS_RANDOM_MULTINOMIAL, 74);
NNRT_CHECK_VALUE(ANEURALNETWORKS_REDUCE_ALL, 75);
NNRT_CHECK_VALUE(ANEURALNETWORKS_REDUCE_ANY, 76);
NNRT_CHECK_VALUE(ANEURALNETWORKS_REDUCE_MAX, 77);
NNRT_CHECK_VALUE(ANEURALNETWORKS_REDUCE_MIN, 78);
NNRT_CHECK_VALUE(ANEURALNETWORKS_REDUCE_PROD, 79);
NNRT_CHECK_VALUE(ANEURALNETWORKS_REDUCE_SUM, 80);
NNRT_CHECK_VALUE(ANEURALNETWORKS_ROI_ALIGN, 81);
NNRT_CHECK_VALUE(ANEURALNETWORKS_ROI_POOLING, 82);
NNRT_CHECK_VALUE(ANEURALNETWORKS_RSQRT, 83);
NNRT_CHECK_VALUE(ANEURALNETWORKS_SELECT, 84);
NNRT_CHECK_VALUE(ANEURALNETWORKS_SIN, 85);
NNRT_CHECK_VALUE(ANEURALNETWORKS_SLICE, 86);
NNRT_CHECK_VALUE(ANEURALNETWORKS_SPLIT, 87);
NNRT_CHECK_VALUE(ANEURALNETWORKS_SQRT, 88);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TILE, 89);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TOPK_V2, 90);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TRANSPOSE_CONV_2D, 91);
NNRT_CHECK_VALUE(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, 92);
NNRT_CHECK_VALUE(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN, 93);
NNRT_CHECK_VALUE(ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR, 94);
NNRT_CHECK_VALUE(ANEURALNETWORKS_QUANTIZED_LSTM, 95);
NNRT_CHECK_VALUE(ANEURALNETWORKS_IF, 96);
NNRT_CHECK_VALUE(ANEURALNETWORKS_WHILE, 97);
NNRT_CHECK_VALUE(ANEURALNETWORKS_ELU, 98);
NNRT_CHECK_VALUE(ANEURALNETWORKS_HARD_SWISH, 99);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FILL, 100);
NNRT_CHECK_VALUE(ANEURALNETWORKS_RANK, 101);
NNRT_CHECK_VALUE(ANEURALNETWORKS_BATCH_MATMUL, 102);
NNRT_CHECK_VALUE(ANEURALNETWORKS_PACK, 103);
NNRT_CHECK_VALUE(ANEURALNETWORKS_MIRROR_PAD, 104);
NNRT_CHECK_VALUE(ANEURALNETWORKS_REVERSE, 105);

/* FuseCode: all of them. */
NNRT_CHECK_VALUE(ANEURALNETWORKS_FUSED_NONE, 0);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FUSED_RELU, 1);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FUSED_RELU1, 2);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FUSED_RELU6, 3);

/* PaddingCode: all of them. */
NNRT_CHECK_VALUE(ANEURALNETWORKS_PADDING_SAME, 1);
NNRT_CHECK_VALUE(ANEURALNETWORKS_PADDING_VALID, 2);

/* PreferenceCode: all of them. */
NNRT_CHECK_VALUE(ANEURALNETWORKS_PREFER_LOW_POWER, 0);
NNRT_CHECK_VALUE(ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER, 1);
NNRT_CHECK_VALUE(ANEURALNETWORKS_PREFER_SUSTAINED_SPEED, 2);

/* DeviceTypeCode: all of them. */
NNRT_CHECK_VALUE(ANEURALNETWORKS_DEVICE_UNKNOWN, 0);
NNRT_CHECK_VALUE(ANEURALNETWORKS_DEVICE_OTHER, 1);
NNRT_CHECK_VALUE(ANEURALNETWORKS_DEVICE_CPU, 2);
NNRT_CHECK_VALUE(ANEURALNETWORKS_DEVICE_GPU, 3);
NNRT_CHECK_VALUE(ANEURALNETWORKS_DEVICE_ACCELERATOR, 4);

/* FeatureLevelCode: all of them. */
NNRT_CHECK_VALUE(ANEURALNETWORKS_FEATURE_LEVEL_1, 27);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FEATURE_LEVEL_2, 28);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FEATURE_LEVEL_3, 29);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FEATURE_LEVEL_4, 30);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FEATURE_LEVEL_5, 31);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FEATURE_LEVEL_6, 1000006);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FEATURE_LEVEL_7, 1000007);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FEATURE_LEVEL_8, 1000008);

/* ResultCode: all of them. */
NNRT_CHECK_VALUE(ANEURALNETWORKS_NO_ERROR, 0);
NNRT_CHECK_VALUE(ANEURALNETWORKS_OUT_OF_MEMORY, 1);
NNRT_CHECK_VALUE(ANEURALNETWORKS_INCOMPLETE, 2);
NNRT_CHECK_VALUE(ANEURALNETWORKS_UNEXPECTED_NULL, 3);
NNRT_CHECK_VALUE(ANEURALNETWORKS_BAD_DATA, 4);
NNRT_CHECK_VALUE(ANEURALNETWORKS_OP_FAILED, 5);
NNRT_CHECK_VALUE(ANEURALNETWORKS_BAD_STATE, 6);
NNRT_CHECK_VALUE(ANEURALNETWORKS_UNMAPPABLE, 7);
NNRT_CHECK_VALUE(ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE, 8);
NNRT_CHECK_VALUE(ANEURALNETWORKS_UNAVAILABLE_DEVICE, 9);
NNRT_CHECK_VALUE(ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT, 10);
NNRT_CHECK_VALUE(ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT, 11);
NNRT_CHECK_VALUE(ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT, 12);
NNRT_CHECK_VALUE(ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT, 13);
NNRT_CHECK_VALUE(ANEURALNETWORKS_DEAD_OBJECT, 14);

/* DurationCode: all of them. */
NNRT_CHECK_VALUE(ANEURALNETWORKS_DURATION_ON_HARDWARE, 0);
NNRT_CHECK_VALUE(ANEURALNETWORKS_DURATION_IN_DRIVER, 1);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE, 2);
NNRT_CHECK_VALUE(ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER, 3);

/* PriorityCode: all of them. */
NNRT_CHECK_VALUE(ANEURALNETWORKS_PRIORITY_LOW, 90);
NNRT_CHECK_VALUE(ANEURALNETWORKS_PRIORITY_MEDIUM, 100);
NNRT_CHECK_VALUE(ANEURALNETWORKS_PRIORITY_HIGH, 110);
NNRT_CHECK_VALUE(ANEURALNETWORKS_PRIORITY_DEFAULT, ANEURALNETWORKS_PRIORITY_MEDIUM);

/* The deprecated OEM codes (Android declares them in NeuralNetworksOEM.h; nnrt in the enums). */
NNRT_CHECK_VALUE(ANEURALNETWORKS_OEM_SCALAR, 10000);
NNRT_CHECK_VALUE(ANEURALNETWORKS_TENSOR_OEM_BYTE, 10001);
NNRT_CHECK_VALUE(ANEURALNETWORKS_OEM_OPERATION, 10000);

/* Constants (anonymous enums). */
NNRT_CHECK_VALUE(ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES, 128);
NNRT_CHECK_VALUE(ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN, 32);

#undef NNRT_CHECK_VALUE

/* Enumerators are enumeration constants, not macros. */
#if defined(ANEURALNETWORKS_NO_ERROR) || defined(ANEURALNETWORKS_ADD) || \
        defined(ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER) || \
        defined(ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN)
#error "NNAPI enumerators must not be macros"
#endif

/* Struct layout (LP64 and ILP32 alike: fields in declaration order, natural alignment). */
_Static_assert(offsetof(ANeuralNetworksOperandType, type) == 0, "OperandType.type");
_Static_assert(offsetof(ANeuralNetworksOperandType, dimensionCount) == 4,
               "OperandType.dimensionCount");
_Static_assert(offsetof(ANeuralNetworksOperandType, dimensions) == 8,
               "OperandType.dimensions");
_Static_assert(offsetof(ANeuralNetworksOperandType, scale) == 8 + sizeof(void*),
               "OperandType.scale");
_Static_assert(offsetof(ANeuralNetworksOperandType, zeroPoint) == 12 + sizeof(void*),
               "OperandType.zeroPoint");
_Static_assert(sizeof(ANeuralNetworksOperandType) == 16 + sizeof(void*), "OperandType size");
_Static_assert(offsetof(ANeuralNetworksSymmPerChannelQuantParams, channelDim) == 0, "channelDim");
_Static_assert(offsetof(ANeuralNetworksSymmPerChannelQuantParams, scaleCount) == 4, "scaleCount");
_Static_assert(offsetof(ANeuralNetworksSymmPerChannelQuantParams, scales) == 8, "scales");
_Static_assert(sizeof(ANeuralNetworksOperationType) == 4,
               "ANeuralNetworksOperationType is int32_t");
_Static_assert(_Generic((ANeuralNetworksOperationType)0, int32_t: 1, default: 0),
               "ANeuralNetworksOperationType is int32_t");

/* The typedef'd enum names exist, are int-sized and can hold their values. */
_Static_assert(sizeof(OperandCode) == sizeof(int), "OperandCode size");
_Static_assert(sizeof(OperationCode) == sizeof(int), "OperationCode size");
_Static_assert(sizeof(FeatureLevelCode) == sizeof(int), "FeatureLevelCode size");
_Static_assert(sizeof(ResultCode) == sizeof(int), "ResultCode size");
static const OperandCode kOperand = ANEURALNETWORKS_TENSOR_FLOAT32;
static const OperationCode kOperation = ANEURALNETWORKS_REVERSE;
static const FuseCode kFuse = ANEURALNETWORKS_FUSED_RELU6;
static const PaddingCode kPadding = ANEURALNETWORKS_PADDING_VALID;
static const PreferenceCode kPreference = ANEURALNETWORKS_PREFER_SUSTAINED_SPEED;
static const PriorityCode kPriority = ANEURALNETWORKS_PRIORITY_HIGH;
static const DeviceTypeCode kDeviceType = ANEURALNETWORKS_DEVICE_ACCELERATOR;
static const FeatureLevelCode kFeatureLevel = ANEURALNETWORKS_FEATURE_LEVEL_8;
static const DurationCode kDuration = ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER;
static const ResultCode kResult = ANEURALNETWORKS_DEAD_OBJECT;

/* The exact type of every entry point of NeuralNetworks.h and NeuralNetworksExtensions.h. */
#define NNRT_CHECK_SIGNATURE(fn, pointer_type) \
    _Static_assert(_Generic(&(fn), pointer_type: 1, default: 0), #fn " has the wrong signature")

/* Global queries and devices. */
NNRT_CHECK_SIGNATURE(ANeuralNetworks_getDeviceCount, int (*)(uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworks_getDevice, int (*)(uint32_t, ANeuralNetworksDevice**));
NNRT_CHECK_SIGNATURE(ANeuralNetworks_getRuntimeFeatureLevel, int64_t (*)(void));
NNRT_CHECK_SIGNATURE(ANeuralNetworks_getDefaultLoopTimeout, uint64_t (*)(void));
NNRT_CHECK_SIGNATURE(ANeuralNetworks_getMaximumLoopTimeout, uint64_t (*)(void));
NNRT_CHECK_SIGNATURE(ANeuralNetworksDevice_getName,
                     int (*)(const ANeuralNetworksDevice*, const char**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksDevice_getType,
                     int (*)(const ANeuralNetworksDevice*, int32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksDevice_getVersion,
                     int (*)(const ANeuralNetworksDevice*, const char**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksDevice_getFeatureLevel,
                     int (*)(const ANeuralNetworksDevice*, int64_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksDevice_getExtensionSupport,
                     int (*)(const ANeuralNetworksDevice*, const char*, bool*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksDevice_wait, int (*)(const ANeuralNetworksDevice*));

/* Model. */
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_create, int (*)(ANeuralNetworksModel**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_free, void (*)(ANeuralNetworksModel*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_finish, int (*)(ANeuralNetworksModel*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_addOperand,
                     int (*)(ANeuralNetworksModel*, const ANeuralNetworksOperandType*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_setOperandValue,
                     int (*)(ANeuralNetworksModel*, int32_t, const void*, size_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_setOperandValueFromMemory,
                     int (*)(ANeuralNetworksModel*, int32_t, const ANeuralNetworksMemory*, size_t,
                             size_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_setOperandValueFromModel,
                     int (*)(ANeuralNetworksModel*, int32_t, const ANeuralNetworksModel*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_addOperation,
                     int (*)(ANeuralNetworksModel*, ANeuralNetworksOperationType, uint32_t,
                             const uint32_t*, uint32_t, const uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_identifyInputsAndOutputs,
                     int (*)(ANeuralNetworksModel*, uint32_t, const uint32_t*, uint32_t,
                             const uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_relaxComputationFloat32toFloat16,
                     int (*)(ANeuralNetworksModel*, bool));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams,
                     int (*)(ANeuralNetworksModel*, int32_t,
                             const ANeuralNetworksSymmPerChannelQuantParams*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_getSupportedOperationsForDevices,
                     int (*)(const ANeuralNetworksModel*, const ANeuralNetworksDevice* const*,
                             uint32_t, bool*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_getExtensionOperandType,
                     int (*)(ANeuralNetworksModel*, const char*, uint16_t, int32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_getExtensionOperationType,
                     int (*)(ANeuralNetworksModel*, const char*, uint16_t,
                             ANeuralNetworksOperationType*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_setOperandExtensionData,
                     int (*)(ANeuralNetworksModel*, int32_t, const void*, size_t));

/* Compilation. */
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_create,
                     int (*)(ANeuralNetworksModel*, ANeuralNetworksCompilation**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_createForDevices,
                     int (*)(ANeuralNetworksModel*, const ANeuralNetworksDevice* const*, uint32_t,
                             ANeuralNetworksCompilation**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_free, void (*)(ANeuralNetworksCompilation*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_setPreference,
                     int (*)(ANeuralNetworksCompilation*, int32_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_setCaching,
                     int (*)(ANeuralNetworksCompilation*, const char*, const uint8_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_setPriority,
                     int (*)(ANeuralNetworksCompilation*, int));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_setTimeout,
                     int (*)(ANeuralNetworksCompilation*, uint64_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_finish, int (*)(ANeuralNetworksCompilation*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput,
                     int (*)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput,
                     int (*)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput,
                     int (*)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput,
                     int (*)(const ANeuralNetworksCompilation*, uint32_t, uint32_t*));

/* Execution. */
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_create,
                     int (*)(ANeuralNetworksCompilation*, ANeuralNetworksExecution**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_free, void (*)(ANeuralNetworksExecution*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setInput,
                     int (*)(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*,
                             const void*, size_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setInputFromMemory,
                     int (*)(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*,
                             const ANeuralNetworksMemory*, size_t, size_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setOutput,
                     int (*)(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*,
                             void*, size_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setOutputFromMemory,
                     int (*)(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*,
                             const ANeuralNetworksMemory*, size_t, size_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_startCompute,
                     int (*)(ANeuralNetworksExecution*, ANeuralNetworksEvent**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_compute, int (*)(ANeuralNetworksExecution*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_getOutputOperandRank,
                     int (*)(ANeuralNetworksExecution*, int32_t, uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_getOutputOperandDimensions,
                     int (*)(ANeuralNetworksExecution*, int32_t, uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_burstCompute,
                     int (*)(ANeuralNetworksExecution*, ANeuralNetworksBurst*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setMeasureTiming,
                     int (*)(ANeuralNetworksExecution*, bool));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_getDuration,
                     int (*)(const ANeuralNetworksExecution*, int32_t, uint64_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setTimeout,
                     int (*)(ANeuralNetworksExecution*, uint64_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setLoopTimeout,
                     int (*)(ANeuralNetworksExecution*, uint64_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_startComputeWithDependencies,
                     int (*)(ANeuralNetworksExecution*, const ANeuralNetworksEvent* const*,
                             uint32_t, uint64_t, ANeuralNetworksEvent**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_enableInputAndOutputPadding,
                     int (*)(ANeuralNetworksExecution*, bool));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setReusable,
                     int (*)(ANeuralNetworksExecution*, bool));

/* Memory and memory descriptors. */
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemory_createFromFd,
                     int (*)(size_t, int, int, size_t, ANeuralNetworksMemory**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemory_createFromAHardwareBuffer,
                     int (*)(const AHardwareBuffer*, ANeuralNetworksMemory**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemory_createFromDesc,
                     int (*)(const ANeuralNetworksMemoryDesc*, ANeuralNetworksMemory**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemory_copy,
                     int (*)(const ANeuralNetworksMemory*, const ANeuralNetworksMemory*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemory_free, void (*)(ANeuralNetworksMemory*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemoryDesc_create, int (*)(ANeuralNetworksMemoryDesc**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemoryDesc_free, void (*)(ANeuralNetworksMemoryDesc*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemoryDesc_addInputRole,
                     int (*)(ANeuralNetworksMemoryDesc*, const ANeuralNetworksCompilation*,
                             uint32_t, float));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemoryDesc_addOutputRole,
                     int (*)(ANeuralNetworksMemoryDesc*, const ANeuralNetworksCompilation*,
                             uint32_t, float));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemoryDesc_setDimensions,
                     int (*)(ANeuralNetworksMemoryDesc*, uint32_t, const uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemoryDesc_finish, int (*)(ANeuralNetworksMemoryDesc*));

/* Event and burst. */
NNRT_CHECK_SIGNATURE(ANeuralNetworksEvent_wait, int (*)(ANeuralNetworksEvent*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksEvent_free, void (*)(ANeuralNetworksEvent*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksEvent_createFromSyncFenceFd,
                     int (*)(int, ANeuralNetworksEvent**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksEvent_getSyncFenceFd,
                     int (*)(const ANeuralNetworksEvent*, int*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksBurst_create,
                     int (*)(ANeuralNetworksCompilation*, ANeuralNetworksBurst**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksBurst_free, void (*)(ANeuralNetworksBurst*));

#undef NNRT_CHECK_SIGNATURE

/* Called from the C++ test so that the C and C++ views of the layout are compared at run time. */
size_t nnrt_api_header_c_operand_type_size(void);
size_t nnrt_api_header_c_operand_type_size(void) { return sizeof(ANeuralNetworksOperandType); }

int64_t nnrt_api_header_c_enum_checksum(void);
int64_t nnrt_api_header_c_enum_checksum(void) {
    return (int64_t)kOperand + (int64_t)kOperation + (int64_t)kFuse + (int64_t)kPadding +
           (int64_t)kPreference + (int64_t)kPriority + (int64_t)kDeviceType +
           (int64_t)kFeatureLevel + (int64_t)kDuration + (int64_t)kResult;
}
