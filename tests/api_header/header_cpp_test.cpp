// Compile-time checks of the public C API headers from C++: every enumerator of Android's NNAPI
// headers (API 27..31, feature levels 1..8) with its value and enum type, the macros, struct layout
// and the exact signature of every entry point (through decltype, which neither calls nor links
// the functions). One trivial runtime test makes the binary runnable under ctest.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#ifndef ANDROID_NEURAL_NETWORKS_H
#error "NeuralNetworks.h must define ANDROID_NEURAL_NETWORKS_H"
#endif

extern "C" size_t nnrt_api_header_c_operand_type_size(void);
extern "C" int64_t nnrt_api_header_c_enum_checksum(void);
// The availability annotations are accepted (and ignored) on a declaration.
extern "C" int nnrt_api_header_cpp_annotated(void) __NNAPI_INTRODUCED_IN(27) __NNAPI_DEPRECATED_IN(35);

namespace {

// Every enumerator with its Android value, as a constant of its Android enum type (which also
// proves it is an enumerator, not a macro).
#define NNRT_CHECK_ENUM(type, name, value)                                     \
    static_assert(std::is_same_v<decltype(name), type>, #name " is not a " #type); \
    static_assert(name == (value), #name " != " #value)

// OperandCode: all of them.
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_FLOAT32, 0);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_INT32, 1);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_UINT32, 2);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_TENSOR_FLOAT32, 3);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_TENSOR_INT32, 4);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 5);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_BOOL, 6);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_TENSOR_QUANT16_SYMM, 7);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_TENSOR_FLOAT16, 8);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_TENSOR_BOOL8, 9);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_FLOAT16, 10);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, 11);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_TENSOR_QUANT16_ASYMM, 12);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_TENSOR_QUANT8_SYMM, 13);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 14);
NNRT_CHECK_ENUM(OperandCode, ANEURALNETWORKS_MODEL, 15);

// OperationCode: all of them.
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_ADD, 0);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_AVERAGE_POOL_2D, 1);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_CONCATENATION, 2);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_CONV_2D, 3);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_DEPTHWISE_CONV_2D, 4);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_DEPTH_TO_SPACE, 5);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_DEQUANTIZE, 6);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_EMBEDDING_LOOKUP, 7);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_FLOOR, 8);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_FULLY_CONNECTED, 9);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_HASHTABLE_LOOKUP, 10);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_L2_NORMALIZATION, 11);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_L2_POOL_2D, 12);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION, 13);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_LOGISTIC, 14);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_LSH_PROJECTION, 15);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_LSTM, 16);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_MAX_POOL_2D, 17);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_MUL, 18);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_RELU, 19);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_RELU1, 20);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_RELU6, 21);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_RESHAPE, 22);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_RESIZE_BILINEAR, 23);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_RNN, 24);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_SOFTMAX, 25);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_SPACE_TO_DEPTH, 26);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_SVDF, 27);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_TANH, 28);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_BATCH_TO_SPACE_ND, 29);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_DIV, 30);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_MEAN, 31);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_PAD, 32);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_SPACE_TO_BATCH_ND, 33);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_SQUEEZE, 34);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_STRIDED_SLICE, 35);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_SUB, 36);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_TRANSPOSE, 37);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_ABS, 38);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_ARGMAX, 39);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_ARGMIN, 40);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_AXIS_ALIGNED_BBOX_TRANSFORM, 41);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_LSTM, 42);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_RNN, 43);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_BOX_WITH_NMS_LIMIT, 44);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_CAST, 45);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_CHANNEL_SHUFFLE, 46);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_DETECTION_POSTPROCESSING, 47);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_EQUAL, 48);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_EXP, 49);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_EXPAND_DIMS, 50);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_GATHER, 51);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_GENERATE_PROPOSALS, 52);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_GREATER, 53);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_GREATER_EQUAL, 54);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_GROUPED_CONV_2D, 55);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_HEATMAP_MAX_KEYPOINT, 56);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_INSTANCE_NORMALIZATION, 57);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_LESS, 58);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_LESS_EQUAL, 59);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_LOG, 60);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_LOGICAL_AND, 61);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_LOGICAL_NOT, 62);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_LOGICAL_OR, 63);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_LOG_SOFTMAX, 64);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_MAXIMUM, 65);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_MINIMUM, 66);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_NEG, 67);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_NOT_EQUAL, 68);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_PAD_V2, 69);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_POW, 70);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_PRELU, 71);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_QUANTIZE, 72);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_QUANTIZED_16BIT_LSTM, 73);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_RANDOM_MULTINOMIAL, 74);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_REDUCE_ALL, 75);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_REDUCE_ANY, 76);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_REDUCE_MAX, 77);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_REDUCE_MIN, 78);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_REDUCE_PROD, 79);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_REDUCE_SUM, 80);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_ROI_ALIGN, 81);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_ROI_POOLING, 82);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_RSQRT, 83);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_SELECT, 84);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_SIN, 85);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_SLICE, 86);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_SPLIT, 87);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_SQRT, 88);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_TILE, 89);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_TOPK_V2, 90);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_TRANSPOSE_CONV_2D, 91);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, 92);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN, 93);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR, 94);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_QUANTIZED_LSTM, 95);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_IF, 96);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_WHILE, 97);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_ELU, 98);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_HARD_SWISH, 99);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_FILL, 100);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_RANK, 101);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_BATCH_MATMUL, 102);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_PACK, 103);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_MIRROR_PAD, 104);
NNRT_CHECK_ENUM(OperationCode, ANEURALNETWORKS_REVERSE, 105);

// FuseCode: all of them.
NNRT_CHECK_ENUM(FuseCode, ANEURALNETWORKS_FUSED_NONE, 0);
NNRT_CHECK_ENUM(FuseCode, ANEURALNETWORKS_FUSED_RELU, 1);
NNRT_CHECK_ENUM(FuseCode, ANEURALNETWORKS_FUSED_RELU1, 2);
NNRT_CHECK_ENUM(FuseCode, ANEURALNETWORKS_FUSED_RELU6, 3);

// PaddingCode: all of them.
NNRT_CHECK_ENUM(PaddingCode, ANEURALNETWORKS_PADDING_SAME, 1);
NNRT_CHECK_ENUM(PaddingCode, ANEURALNETWORKS_PADDING_VALID, 2);

// PreferenceCode: all of them.
NNRT_CHECK_ENUM(PreferenceCode, ANEURALNETWORKS_PREFER_LOW_POWER, 0);
NNRT_CHECK_ENUM(PreferenceCode, ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER, 1);
NNRT_CHECK_ENUM(PreferenceCode, ANEURALNETWORKS_PREFER_SUSTAINED_SPEED, 2);

// DeviceTypeCode: all of them.
NNRT_CHECK_ENUM(DeviceTypeCode, ANEURALNETWORKS_DEVICE_UNKNOWN, 0);
NNRT_CHECK_ENUM(DeviceTypeCode, ANEURALNETWORKS_DEVICE_OTHER, 1);
NNRT_CHECK_ENUM(DeviceTypeCode, ANEURALNETWORKS_DEVICE_CPU, 2);
NNRT_CHECK_ENUM(DeviceTypeCode, ANEURALNETWORKS_DEVICE_GPU, 3);
NNRT_CHECK_ENUM(DeviceTypeCode, ANEURALNETWORKS_DEVICE_ACCELERATOR, 4);

// FeatureLevelCode: all of them.
NNRT_CHECK_ENUM(FeatureLevelCode, ANEURALNETWORKS_FEATURE_LEVEL_1, 27);
NNRT_CHECK_ENUM(FeatureLevelCode, ANEURALNETWORKS_FEATURE_LEVEL_2, 28);
NNRT_CHECK_ENUM(FeatureLevelCode, ANEURALNETWORKS_FEATURE_LEVEL_3, 29);
NNRT_CHECK_ENUM(FeatureLevelCode, ANEURALNETWORKS_FEATURE_LEVEL_4, 30);
NNRT_CHECK_ENUM(FeatureLevelCode, ANEURALNETWORKS_FEATURE_LEVEL_5, 31);
NNRT_CHECK_ENUM(FeatureLevelCode, ANEURALNETWORKS_FEATURE_LEVEL_6, 1000006);
NNRT_CHECK_ENUM(FeatureLevelCode, ANEURALNETWORKS_FEATURE_LEVEL_7, 1000007);
NNRT_CHECK_ENUM(FeatureLevelCode, ANEURALNETWORKS_FEATURE_LEVEL_8, 1000008);

// ResultCode: all of them.
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_NO_ERROR, 0);
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_OUT_OF_MEMORY, 1);
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_INCOMPLETE, 2);
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_UNEXPECTED_NULL, 3);
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_BAD_DATA, 4);
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_OP_FAILED, 5);
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_BAD_STATE, 6);
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_UNMAPPABLE, 7);
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE, 8);
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_UNAVAILABLE_DEVICE, 9);
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT, 10);
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT, 11);
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT, 12);
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT, 13);
NNRT_CHECK_ENUM(ResultCode, ANEURALNETWORKS_DEAD_OBJECT, 14);

// DurationCode: all of them.
NNRT_CHECK_ENUM(DurationCode, ANEURALNETWORKS_DURATION_ON_HARDWARE, 0);
NNRT_CHECK_ENUM(DurationCode, ANEURALNETWORKS_DURATION_IN_DRIVER, 1);
NNRT_CHECK_ENUM(DurationCode, ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE, 2);
NNRT_CHECK_ENUM(DurationCode, ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER, 3);

// PriorityCode: all of them.
NNRT_CHECK_ENUM(PriorityCode, ANEURALNETWORKS_PRIORITY_LOW, 90);
NNRT_CHECK_ENUM(PriorityCode, ANEURALNETWORKS_PRIORITY_MEDIUM, 100);
NNRT_CHECK_ENUM(PriorityCode, ANEURALNETWORKS_PRIORITY_HIGH, 110);
NNRT_CHECK_ENUM(PriorityCode, ANEURALNETWORKS_PRIORITY_DEFAULT, ANEURALNETWORKS_PRIORITY_MEDIUM);

#undef NNRT_CHECK_ENUM

// The deprecated OEM codes (Android declares them in NeuralNetworksOEM.h as anonymous enums; nnrt
// in OperandCode / OperationCode) and the two constants of anonymous enums.
#define NNRT_CHECK_CONSTANT(name, value)                                          \
    static_assert(std::is_enum_v<decltype(name)>, #name " is not an enumerator"); \
    static_assert(name == (value), #name " != " #value)
NNRT_CHECK_CONSTANT(ANEURALNETWORKS_OEM_SCALAR, 10000);
NNRT_CHECK_CONSTANT(ANEURALNETWORKS_TENSOR_OEM_BYTE, 10001);
NNRT_CHECK_CONSTANT(ANEURALNETWORKS_OEM_OPERATION, 10000);
NNRT_CHECK_CONSTANT(ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES, 128);
NNRT_CHECK_CONSTANT(ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN, 32);
#undef NNRT_CHECK_CONSTANT

// Macros: Android's include guards, the feature-level minimum API levels, and the availability
// annotations, which expand to nothing.
#if !defined(ANDROID_FRAMEWORKS_ML_NN_RUNTIME_NEURAL_NETWORKS_H) ||                       \
        !defined(ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_H) ||       \
        !defined(ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_TYPES_H) || \
        !defined(ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_EXTENSIONS_H)
#error "Android's include guard names must be defined"
#endif
#if !defined(__NNAPI_INTRODUCED_IN) || !defined(__NNAPI_DEPRECATED_IN)
#error "__NNAPI_INTRODUCED_IN and __NNAPI_DEPRECATED_IN must be defined"
#endif
static_assert(__NNAPI_FL1_MIN_ANDROID_API__ == 27);
static_assert(__NNAPI_FL2_MIN_ANDROID_API__ == 28);
static_assert(__NNAPI_FL3_MIN_ANDROID_API__ == 29);
static_assert(__NNAPI_FL4_MIN_ANDROID_API__ == 30);
static_assert(__NNAPI_FL5_MIN_ANDROID_API__ == 31);
static_assert(__NNAPI_FL5_MIN_ANDROID_API__ == ANEURALNETWORKS_FEATURE_LEVEL_5);
#if __NNAPI_FL5_MIN_ANDROID_API__ != 31
#error "__NNAPI_FL5_MIN_ANDROID_API__ must be usable in #if"
#endif
#define NNRT_STRINGIFY_(x) #x
#define NNRT_STRINGIFY(x) NNRT_STRINGIFY_(x)
static_assert(sizeof(NNRT_STRINGIFY(__NNAPI_INTRODUCED_IN(27))) == 1,
              "__NNAPI_INTRODUCED_IN must expand to nothing");
static_assert(sizeof(NNRT_STRINGIFY(__NNAPI_DEPRECATED_IN(35))) == 1,
              "__NNAPI_DEPRECATED_IN must expand to nothing");
#undef NNRT_STRINGIFY
#undef NNRT_STRINGIFY_

// Struct layout and typedefs.
static_assert(std::is_standard_layout_v<ANeuralNetworksOperandType>);
static_assert(offsetof(ANeuralNetworksOperandType, type) == 0);
static_assert(offsetof(ANeuralNetworksOperandType, dimensionCount) == 4);
static_assert(offsetof(ANeuralNetworksOperandType, dimensions) == 8);
static_assert(offsetof(ANeuralNetworksOperandType, scale) == 8 + sizeof(void*));
static_assert(offsetof(ANeuralNetworksOperandType, zeroPoint) == 12 + sizeof(void*));
static_assert(sizeof(ANeuralNetworksOperandType) == 16 + sizeof(void*));
static_assert(std::is_same_v<decltype(ANeuralNetworksOperandType::type), int32_t>);
static_assert(std::is_same_v<decltype(ANeuralNetworksOperandType::dimensionCount), uint32_t>);
static_assert(std::is_same_v<decltype(ANeuralNetworksOperandType::dimensions), const uint32_t*>);
static_assert(std::is_same_v<decltype(ANeuralNetworksOperandType::scale), float>);
static_assert(std::is_same_v<decltype(ANeuralNetworksOperandType::zeroPoint), int32_t>);
static_assert(offsetof(ANeuralNetworksSymmPerChannelQuantParams, channelDim) == 0);
static_assert(offsetof(ANeuralNetworksSymmPerChannelQuantParams, scaleCount) == 4);
static_assert(offsetof(ANeuralNetworksSymmPerChannelQuantParams, scales) == 8);
static_assert(std::is_same_v<decltype(ANeuralNetworksSymmPerChannelQuantParams::scales), const float*>);
static_assert(std::is_same_v<ANeuralNetworksOperationType, int32_t>);

// Exact signatures of every entry point (Android NDK), checked without calling or linking them.
#define NNRT_CHECK_SIGNATURE(fn, type) \
    static_assert(std::is_same_v<decltype(fn), type>, #fn " has the wrong signature")

// Global / device.
NNRT_CHECK_SIGNATURE(ANeuralNetworks_getDeviceCount, int(uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworks_getDevice, int(uint32_t, ANeuralNetworksDevice**));
NNRT_CHECK_SIGNATURE(ANeuralNetworks_getRuntimeFeatureLevel, int64_t());
NNRT_CHECK_SIGNATURE(ANeuralNetworks_getDefaultLoopTimeout, uint64_t());
NNRT_CHECK_SIGNATURE(ANeuralNetworks_getMaximumLoopTimeout, uint64_t());
NNRT_CHECK_SIGNATURE(ANeuralNetworksDevice_getName, int(const ANeuralNetworksDevice*, const char**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksDevice_getType, int(const ANeuralNetworksDevice*, int32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksDevice_getVersion,
                     int(const ANeuralNetworksDevice*, const char**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksDevice_getFeatureLevel,
                     int(const ANeuralNetworksDevice*, int64_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksDevice_getExtensionSupport,
                     int(const ANeuralNetworksDevice*, const char*, bool*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksDevice_wait, int(const ANeuralNetworksDevice*));

// Model.
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_create, int(ANeuralNetworksModel**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_free, void(ANeuralNetworksModel*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_finish, int(ANeuralNetworksModel*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_addOperand,
                     int(ANeuralNetworksModel*, const ANeuralNetworksOperandType*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_setOperandValue,
                     int(ANeuralNetworksModel*, int32_t, const void*, size_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_setOperandValueFromMemory,
                     int(ANeuralNetworksModel*, int32_t, const ANeuralNetworksMemory*, size_t,
                         size_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_setOperandValueFromModel,
                     int(ANeuralNetworksModel*, int32_t, const ANeuralNetworksModel*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_addOperation,
                     int(ANeuralNetworksModel*, ANeuralNetworksOperationType, uint32_t,
                         const uint32_t*, uint32_t, const uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_identifyInputsAndOutputs,
                     int(ANeuralNetworksModel*, uint32_t, const uint32_t*, uint32_t,
                         const uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_relaxComputationFloat32toFloat16,
                     int(ANeuralNetworksModel*, bool));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams,
                     int(ANeuralNetworksModel*, int32_t,
                         const ANeuralNetworksSymmPerChannelQuantParams*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_getSupportedOperationsForDevices,
                     int(const ANeuralNetworksModel*, const ANeuralNetworksDevice* const*, uint32_t,
                         bool*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_getExtensionOperandType,
                     int(ANeuralNetworksModel*, const char*, uint16_t, int32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_getExtensionOperationType,
                     int(ANeuralNetworksModel*, const char*, uint16_t,
                         ANeuralNetworksOperationType*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksModel_setOperandExtensionData,
                     int(ANeuralNetworksModel*, int32_t, const void*, size_t));

// Compilation.
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_create,
                     int(ANeuralNetworksModel*, ANeuralNetworksCompilation**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_createForDevices,
                     int(ANeuralNetworksModel*, const ANeuralNetworksDevice* const*, uint32_t,
                         ANeuralNetworksCompilation**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_free, void(ANeuralNetworksCompilation*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_setPreference,
                     int(ANeuralNetworksCompilation*, int32_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_setCaching,
                     int(ANeuralNetworksCompilation*, const char*, const uint8_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_setPriority, int(ANeuralNetworksCompilation*, int));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_setTimeout,
                     int(ANeuralNetworksCompilation*, uint64_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_finish, int(ANeuralNetworksCompilation*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput,
                     int(const ANeuralNetworksCompilation*, uint32_t, uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput,
                     int(const ANeuralNetworksCompilation*, uint32_t, uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput,
                     int(const ANeuralNetworksCompilation*, uint32_t, uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput,
                     int(const ANeuralNetworksCompilation*, uint32_t, uint32_t*));

// Execution.
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_create,
                     int(ANeuralNetworksCompilation*, ANeuralNetworksExecution**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_free, void(ANeuralNetworksExecution*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setInput,
                     int(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*,
                         const void*, size_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setInputFromMemory,
                     int(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*,
                         const ANeuralNetworksMemory*, size_t, size_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setOutput,
                     int(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*,
                         void*, size_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setOutputFromMemory,
                     int(ANeuralNetworksExecution*, int32_t, const ANeuralNetworksOperandType*,
                         const ANeuralNetworksMemory*, size_t, size_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_startCompute,
                     int(ANeuralNetworksExecution*, ANeuralNetworksEvent**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_compute, int(ANeuralNetworksExecution*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_getOutputOperandRank,
                     int(ANeuralNetworksExecution*, int32_t, uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_getOutputOperandDimensions,
                     int(ANeuralNetworksExecution*, int32_t, uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_burstCompute,
                     int(ANeuralNetworksExecution*, ANeuralNetworksBurst*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setMeasureTiming, int(ANeuralNetworksExecution*, bool));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_getDuration,
                     int(const ANeuralNetworksExecution*, int32_t, uint64_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setTimeout, int(ANeuralNetworksExecution*, uint64_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setLoopTimeout,
                     int(ANeuralNetworksExecution*, uint64_t));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_startComputeWithDependencies,
                     int(ANeuralNetworksExecution*, const ANeuralNetworksEvent* const*, uint32_t,
                         uint64_t, ANeuralNetworksEvent**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_enableInputAndOutputPadding,
                     int(ANeuralNetworksExecution*, bool));
NNRT_CHECK_SIGNATURE(ANeuralNetworksExecution_setReusable, int(ANeuralNetworksExecution*, bool));

// Memory and memory descriptors.
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemory_createFromFd,
                     int(size_t, int, int, size_t, ANeuralNetworksMemory**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemory_createFromAHardwareBuffer,
                     int(const AHardwareBuffer*, ANeuralNetworksMemory**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemory_createFromDesc,
                     int(const ANeuralNetworksMemoryDesc*, ANeuralNetworksMemory**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemory_copy,
                     int(const ANeuralNetworksMemory*, const ANeuralNetworksMemory*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemory_free, void(ANeuralNetworksMemory*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemoryDesc_create, int(ANeuralNetworksMemoryDesc**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemoryDesc_free, void(ANeuralNetworksMemoryDesc*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemoryDesc_addInputRole,
                     int(ANeuralNetworksMemoryDesc*, const ANeuralNetworksCompilation*, uint32_t,
                         float));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemoryDesc_addOutputRole,
                     int(ANeuralNetworksMemoryDesc*, const ANeuralNetworksCompilation*, uint32_t,
                         float));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemoryDesc_setDimensions,
                     int(ANeuralNetworksMemoryDesc*, uint32_t, const uint32_t*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksMemoryDesc_finish, int(ANeuralNetworksMemoryDesc*));

// Event and burst.
NNRT_CHECK_SIGNATURE(ANeuralNetworksEvent_wait, int(ANeuralNetworksEvent*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksEvent_free, void(ANeuralNetworksEvent*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksEvent_createFromSyncFenceFd, int(int, ANeuralNetworksEvent**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksEvent_getSyncFenceFd, int(const ANeuralNetworksEvent*, int*));
NNRT_CHECK_SIGNATURE(ANeuralNetworksBurst_create,
                     int(ANeuralNetworksCompilation*, ANeuralNetworksBurst**));
NNRT_CHECK_SIGNATURE(ANeuralNetworksBurst_free, void(ANeuralNetworksBurst*));

#undef NNRT_CHECK_SIGNATURE

}  // namespace

TEST(ApiHeader, CAndCppAgreeOnLayoutAndValues) {
    EXPECT_EQ(nnrt_api_header_c_operand_type_size(), sizeof(ANeuralNetworksOperandType));
    const int64_t expected =
            int64_t{ANEURALNETWORKS_TENSOR_FLOAT32} + int64_t{ANEURALNETWORKS_REVERSE} +
            int64_t{ANEURALNETWORKS_FUSED_RELU6} + int64_t{ANEURALNETWORKS_PADDING_VALID} +
            int64_t{ANEURALNETWORKS_PREFER_SUSTAINED_SPEED} + int64_t{ANEURALNETWORKS_PRIORITY_HIGH} +
            int64_t{ANEURALNETWORKS_DEVICE_ACCELERATOR} + int64_t{ANEURALNETWORKS_FEATURE_LEVEL_8} +
            int64_t{ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER} + int64_t{ANEURALNETWORKS_DEAD_OBJECT};
    EXPECT_EQ(nnrt_api_header_c_enum_checksum(), expected);
}

TEST(ApiHeader, OperandTypeIsAggregate) {
    const uint32_t dims[2] = {2, 3};
    const ANeuralNetworksOperandType t = {ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 2, dims, 0.5f, 128};
    EXPECT_EQ(t.type, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM);
    EXPECT_EQ(t.dimensionCount, 2u);
    EXPECT_EQ(t.dimensions[1], 3u);
    EXPECT_FLOAT_EQ(t.scale, 0.5f);
    EXPECT_EQ(t.zeroPoint, 128);
}
