// Compile-time checks of the public C API headers from C++: enum values, constants, struct layout
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

namespace {

// ResultCode: all of them.
static_assert(ANEURALNETWORKS_NO_ERROR == 0);
static_assert(ANEURALNETWORKS_OUT_OF_MEMORY == 1);
static_assert(ANEURALNETWORKS_INCOMPLETE == 2);
static_assert(ANEURALNETWORKS_UNEXPECTED_NULL == 3);
static_assert(ANEURALNETWORKS_BAD_DATA == 4);
static_assert(ANEURALNETWORKS_OP_FAILED == 5);
static_assert(ANEURALNETWORKS_BAD_STATE == 6);
static_assert(ANEURALNETWORKS_UNMAPPABLE == 7);
static_assert(ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE == 8);
static_assert(ANEURALNETWORKS_UNAVAILABLE_DEVICE == 9);
static_assert(ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT == 10);
static_assert(ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT == 11);
static_assert(ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT == 12);
static_assert(ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT == 13);
static_assert(ANEURALNETWORKS_DEAD_OBJECT == 14);

// OperandCode: all of them.
static_assert(ANEURALNETWORKS_FLOAT32 == 0);
static_assert(ANEURALNETWORKS_INT32 == 1);
static_assert(ANEURALNETWORKS_UINT32 == 2);
static_assert(ANEURALNETWORKS_TENSOR_FLOAT32 == 3);
static_assert(ANEURALNETWORKS_TENSOR_INT32 == 4);
static_assert(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM == 5);
static_assert(ANEURALNETWORKS_BOOL == 6);
static_assert(ANEURALNETWORKS_TENSOR_QUANT16_SYMM == 7);
static_assert(ANEURALNETWORKS_TENSOR_FLOAT16 == 8);
static_assert(ANEURALNETWORKS_TENSOR_BOOL8 == 9);
static_assert(ANEURALNETWORKS_FLOAT16 == 10);
static_assert(ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL == 11);
static_assert(ANEURALNETWORKS_TENSOR_QUANT16_ASYMM == 12);
static_assert(ANEURALNETWORKS_TENSOR_QUANT8_SYMM == 13);
static_assert(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED == 14);
static_assert(ANEURALNETWORKS_MODEL == 15);
static_assert(ANEURALNETWORKS_OEM_SCALAR == 10000);
static_assert(ANEURALNETWORKS_TENSOR_OEM_BYTE == 10001);

// OperationCode: a spread across every feature level, the last ones and OEM.
static_assert(ANEURALNETWORKS_ADD == 0);
static_assert(ANEURALNETWORKS_CONV_2D == 3);
static_assert(ANEURALNETWORKS_FULLY_CONNECTED == 9);
static_assert(ANEURALNETWORKS_LSTM == 16);
static_assert(ANEURALNETWORKS_SOFTMAX == 25);
static_assert(ANEURALNETWORKS_TANH == 28);
static_assert(ANEURALNETWORKS_BATCH_TO_SPACE_ND == 29);
static_assert(ANEURALNETWORKS_TRANSPOSE == 37);
static_assert(ANEURALNETWORKS_ABS == 38);
static_assert(ANEURALNETWORKS_DETECTION_POSTPROCESSING == 47);
static_assert(ANEURALNETWORKS_GROUPED_CONV_2D == 55);
static_assert(ANEURALNETWORKS_LOG_SOFTMAX == 64);
static_assert(ANEURALNETWORKS_QUANTIZED_16BIT_LSTM == 73);
static_assert(ANEURALNETWORKS_REDUCE_SUM == 80);
static_assert(ANEURALNETWORKS_TOPK_V2 == 90);
static_assert(ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR == 94);
static_assert(ANEURALNETWORKS_QUANTIZED_LSTM == 95);
static_assert(ANEURALNETWORKS_IF == 96);
static_assert(ANEURALNETWORKS_WHILE == 97);
static_assert(ANEURALNETWORKS_RANK == 101);
static_assert(ANEURALNETWORKS_BATCH_MATMUL == 102);
static_assert(ANEURALNETWORKS_PACK == 103);
static_assert(ANEURALNETWORKS_MIRROR_PAD == 104);
static_assert(ANEURALNETWORKS_REVERSE == 105);
static_assert(ANEURALNETWORKS_OEM_OPERATION == 10000);

// Fuse, padding, preference, priority, device type, feature level, duration codes.
static_assert(ANEURALNETWORKS_FUSED_NONE == 0 && ANEURALNETWORKS_FUSED_RELU == 1 &&
              ANEURALNETWORKS_FUSED_RELU1 == 2 && ANEURALNETWORKS_FUSED_RELU6 == 3);
static_assert(ANEURALNETWORKS_PADDING_SAME == 1 && ANEURALNETWORKS_PADDING_VALID == 2);
static_assert(ANEURALNETWORKS_PREFER_LOW_POWER == 0);
static_assert(ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER == 1);
static_assert(ANEURALNETWORKS_PREFER_SUSTAINED_SPEED == 2);
static_assert(ANEURALNETWORKS_PRIORITY_LOW == 90);
static_assert(ANEURALNETWORKS_PRIORITY_MEDIUM == 100);
static_assert(ANEURALNETWORKS_PRIORITY_HIGH == 110);
static_assert(ANEURALNETWORKS_PRIORITY_DEFAULT == ANEURALNETWORKS_PRIORITY_MEDIUM);
static_assert(ANEURALNETWORKS_DEVICE_UNKNOWN == 0);
static_assert(ANEURALNETWORKS_DEVICE_OTHER == 1);
static_assert(ANEURALNETWORKS_DEVICE_CPU == 2);
static_assert(ANEURALNETWORKS_DEVICE_GPU == 3);
static_assert(ANEURALNETWORKS_DEVICE_ACCELERATOR == 4);
static_assert(ANEURALNETWORKS_FEATURE_LEVEL_1 == 27);
static_assert(ANEURALNETWORKS_FEATURE_LEVEL_2 == 28);
static_assert(ANEURALNETWORKS_FEATURE_LEVEL_3 == 29);
static_assert(ANEURALNETWORKS_FEATURE_LEVEL_4 == 30);
static_assert(ANEURALNETWORKS_FEATURE_LEVEL_5 == 31);
static_assert(ANEURALNETWORKS_FEATURE_LEVEL_6 == 1000006);
static_assert(ANEURALNETWORKS_FEATURE_LEVEL_7 == 1000007);
static_assert(ANEURALNETWORKS_FEATURE_LEVEL_8 == 1000008);
static_assert(ANEURALNETWORKS_DURATION_ON_HARDWARE == 0);
static_assert(ANEURALNETWORKS_DURATION_IN_DRIVER == 1);
static_assert(ANEURALNETWORKS_DURATION_FENCED_ON_HARDWARE == 2);
static_assert(ANEURALNETWORKS_DURATION_FENCED_IN_DRIVER == 3);

// Constants.
static_assert(ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES == 128);
static_assert(ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN == 32);

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
            int64_t{ANEURALNETWORKS_DURATION_FENCED_IN_DRIVER} + int64_t{ANEURALNETWORKS_DEAD_OBJECT};
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
