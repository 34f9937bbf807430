/*
 * nnrt: Android's Neural Networks API (NNAPI) for Linux.
 *
 * Public C API. This header is source-compatible with Android's <android/NeuralNetworks.h>:
 * every name, enum value, struct layout and function signature matches the NDK, so a C or C++
 * program written against NNAPI compiles unchanged. The comments are nnrt's own.
 *
 * Android marks each declaration with the API level that introduced it (__INTRODUCED_IN);
 * Linux has no such mechanism, so nnrt declares everything unconditionally and notes the level
 * in a comment instead (the annotation macros exist, expanding to nothing; see below).
 * Feature levels 1..5 correspond to Android API levels 27..31.
 *
 * Conventions shared by all functions returning int: the value is one of the ResultCode enumerators.
 * ANEURALNETWORKS_UNEXPECTED_NULL is returned whenever a required pointer argument is NULL, and
 * ANEURALNETWORKS_BAD_STATE when an object is used in the wrong phase of its life (for example
 * modified after *_finish). Output pointers are written only on success unless stated otherwise.
 *
 * Vendor-extension entry points live in <android/NeuralNetworksExtensions.h>, as on Android.
 */

#ifndef ANDROID_NEURAL_NETWORKS_H
#define ANDROID_NEURAL_NETWORKS_H

/* The guard names used by Android's own copies of this header, defined so that code which
 * tests for them (to detect that the NNAPI declarations are present) keeps working. */
#ifndef ANDROID_FRAMEWORKS_ML_NN_RUNTIME_NEURAL_NETWORKS_H
#define ANDROID_FRAMEWORKS_ML_NN_RUNTIME_NEURAL_NETWORKS_H
#endif
#ifndef ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_H
#define ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_H
#endif
/* Android 12+ splits the types into NeuralNetworksTypes.h and the deprecated OEM codes into
 * NeuralNetworksOEM.h; everything from both is declared here, so their guards are defined too and
 * copies of those headers included afterwards add nothing. */
#ifndef ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_TYPES_H
#define ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_TYPES_H
#endif
#ifndef ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_OEM_H
#define ANDROID_PACKAGES_MODULES_NEURALNETWORKS_RUNTIME_NEURAL_NETWORKS_OEM_H
#endif

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

/* ============================================================================================== */
/* Availability macros                                                                            */
/* ============================================================================================== */

/* Android annotates each declaration with __NNAPI_INTRODUCED_IN(api) (and, from API 35,
 * __NNAPI_DEPRECATED_IN(api)) to drive its availability checks. Linux has no API levels: both
 * expand to nothing, so code that uses them on its own declarations compiles unchanged. The
 * parameter is spelled as in Android's definition, so an identical redefinition is allowed. */
#ifndef __NNAPI_INTRODUCED_IN
#define __NNAPI_INTRODUCED_IN(x)
#endif
#ifndef __NNAPI_DEPRECATED_IN
#define __NNAPI_DEPRECATED_IN(x)
#endif

/* Lowest Android API level offering each feature level, as used by NNAPI wrappers in
 * __builtin_available(android __NNAPI_FL5_MIN_ANDROID_API__, *) checks. Android's header defines
 * the FL5 one (as __ANDROID_API_S__, i.e. 31); FL1..FL4 follow the same pattern. Plain numbers
 * here, usable in #if; a prior definition is kept. */
#ifndef __NNAPI_FL1_MIN_ANDROID_API__
#define __NNAPI_FL1_MIN_ANDROID_API__ 27
#endif
#ifndef __NNAPI_FL2_MIN_ANDROID_API__
#define __NNAPI_FL2_MIN_ANDROID_API__ 28
#endif
#ifndef __NNAPI_FL3_MIN_ANDROID_API__
#define __NNAPI_FL3_MIN_ANDROID_API__ 29
#endif
#ifndef __NNAPI_FL4_MIN_ANDROID_API__
#define __NNAPI_FL4_MIN_ANDROID_API__ 30
#endif
#ifndef __NNAPI_FL5_MIN_ANDROID_API__
#define __NNAPI_FL5_MIN_ANDROID_API__ 31
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ============================================================================================== */
/* Enumerations                                                                                   */
/* ============================================================================================== */

/**
 * Data types of model operands (ANeuralNetworksOperandType::type).
 *
 * Scalars have rank 0; tensor types may have any rank. Quantized types use the scale and zeroPoint
 * fields of ANeuralNetworksOperandType: real = (stored - zeroPoint) * scale.
 */
typedef enum {
    /** 32-bit IEEE 754 float scalar. */
    ANEURALNETWORKS_FLOAT32 = 0,
    /** Signed 32-bit integer scalar. */
    ANEURALNETWORKS_INT32 = 1,
    /** Unsigned 32-bit integer scalar. */
    ANEURALNETWORKS_UINT32 = 2,
    /** Tensor of 32-bit floats. */
    ANEURALNETWORKS_TENSOR_FLOAT32 = 3,
    /** Tensor of signed 32-bit integers (also used for biases of quantized ops). */
    ANEURALNETWORKS_TENSOR_INT32 = 4,
    /** Tensor of unsigned 8-bit integers, asymmetric quantization (zero point 0..255). */
    ANEURALNETWORKS_TENSOR_QUANT8_ASYMM = 5,
    /** 8-bit boolean scalar; 0 is false, anything else true. (API 29) */
    ANEURALNETWORKS_BOOL = 6,
    /** Tensor of signed 16-bit integers, symmetric quantization (zero point 0). (API 29) */
    ANEURALNETWORKS_TENSOR_QUANT16_SYMM = 7,
    /** Tensor of IEEE 754 half-precision floats. (API 29) */
    ANEURALNETWORKS_TENSOR_FLOAT16 = 8,
    /** Tensor of 8-bit booleans. (API 29) */
    ANEURALNETWORKS_TENSOR_BOOL8 = 9,
    /** IEEE 754 half-precision float scalar. (API 29) */
    ANEURALNETWORKS_FLOAT16 = 10,
    /** Tensor of signed 8-bit integers quantized with one scale per channel; see
     *  ANeuralNetworksModel_setOperandSymmPerChannelQuantParams. (API 29) */
    ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL = 11,
    /** Tensor of unsigned 16-bit integers, asymmetric quantization (zero point 0..65535). (API 29) */
    ANEURALNETWORKS_TENSOR_QUANT16_ASYMM = 12,
    /** Tensor of signed 8-bit integers, symmetric quantization (zero point 0). (API 29) */
    ANEURALNETWORKS_TENSOR_QUANT8_SYMM = 13,
    /** Tensor of signed 8-bit integers, asymmetric quantization (zero point -128..127). (API 30) */
    ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED = 14,
    /** Reference to another model, used as a branch or body of IF / WHILE. (API 30) */
    ANEURALNETWORKS_MODEL = 15,

    /** OEM-specific scalar (deprecated by Android in API 29 in favour of extensions). */
    ANEURALNETWORKS_OEM_SCALAR = 10000,
    /** OEM-specific tensor of bytes (deprecated by Android in API 29 in favour of extensions). */
    ANEURALNETWORKS_TENSOR_OEM_BYTE = 10001,
} OperandCode;

/**
 * Operation types accepted by ANeuralNetworksModel_addOperation. Feature level 1 is API 27,
 * 2 is API 28, 3 is API 29, 4 is API 30; levels 6 and 7 were added after API 31.
 */
typedef enum {
    /* Feature level 1 (API 27). */
    ANEURALNETWORKS_ADD = 0,                           /**< Element-wise sum with broadcasting. */
    ANEURALNETWORKS_AVERAGE_POOL_2D = 1,               /**< 2-D average pooling. */
    ANEURALNETWORKS_CONCATENATION = 2,                 /**< Join tensors along one axis. */
    ANEURALNETWORKS_CONV_2D = 3,                       /**< 2-D convolution. */
    ANEURALNETWORKS_DEPTHWISE_CONV_2D = 4,             /**< 2-D depthwise convolution. */
    ANEURALNETWORKS_DEPTH_TO_SPACE = 5,                /**< Move depth data into spatial blocks. */
    ANEURALNETWORKS_DEQUANTIZE = 6,                    /**< Quantized tensor to float. */
    ANEURALNETWORKS_EMBEDDING_LOOKUP = 7,              /**< Gather rows of a table by index. */
    ANEURALNETWORKS_FLOOR = 8,                         /**< Element-wise floor. */
    ANEURALNETWORKS_FULLY_CONNECTED = 9,               /**< Dense layer: input x weights^T + bias. */
    ANEURALNETWORKS_HASHTABLE_LOOKUP = 10,             /**< Look values up by key. */
    ANEURALNETWORKS_L2_NORMALIZATION = 11,             /**< Normalize to unit L2 norm along an axis. */
    ANEURALNETWORKS_L2_POOL_2D = 12,                   /**< 2-D L2-norm pooling. */
    ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION = 13, /**< Local response normalization. */
    ANEURALNETWORKS_LOGISTIC = 14,                     /**< Element-wise sigmoid. */
    ANEURALNETWORKS_LSH_PROJECTION = 15,               /**< Locality-sensitive hashing projection. */
    ANEURALNETWORKS_LSTM = 16,                         /**< One step of a long short-term memory cell. */
    ANEURALNETWORKS_MAX_POOL_2D = 17,                  /**< 2-D max pooling. */
    ANEURALNETWORKS_MUL = 18,                          /**< Element-wise product with broadcasting. */
    ANEURALNETWORKS_RELU = 19,                         /**< max(0, x). */
    ANEURALNETWORKS_RELU1 = 20,                        /**< clamp(x, -1, 1). */
    ANEURALNETWORKS_RELU6 = 21,                        /**< clamp(x, 0, 6). */
    ANEURALNETWORKS_RESHAPE = 22,                      /**< Change shape, keep data. */
    ANEURALNETWORKS_RESIZE_BILINEAR = 23,              /**< Bilinear image resize. */
    ANEURALNETWORKS_RNN = 24,                          /**< One step of a basic recurrent cell. */
    ANEURALNETWORKS_SOFTMAX = 25,                      /**< Softmax along an axis. */
    ANEURALNETWORKS_SPACE_TO_DEPTH = 26,               /**< Move spatial blocks into depth. */
    ANEURALNETWORKS_SVDF = 27,                         /**< Singular value decomposition filter. */
    ANEURALNETWORKS_TANH = 28,                         /**< Element-wise hyperbolic tangent. */

    /* Feature level 2 (API 28). */
    ANEURALNETWORKS_BATCH_TO_SPACE_ND = 29,            /**< Rearrange batch into spatial blocks. */
    ANEURALNETWORKS_DIV = 30,                          /**< Element-wise quotient with broadcasting. */
    ANEURALNETWORKS_MEAN = 31,                         /**< Mean over the given axes. */
    ANEURALNETWORKS_PAD = 32,                          /**< Pad with zeros. */
    ANEURALNETWORKS_SPACE_TO_BATCH_ND = 33,            /**< Rearrange spatial blocks into batch. */
    ANEURALNETWORKS_SQUEEZE = 34,                      /**< Drop dimensions of size 1. */
    ANEURALNETWORKS_STRIDED_SLICE = 35,                /**< Strided slice. */
    ANEURALNETWORKS_SUB = 36,                          /**< Element-wise difference with broadcasting. */
    ANEURALNETWORKS_TRANSPOSE = 37,                    /**< Permute dimensions. */

    /* Feature level 3 (API 29). */
    ANEURALNETWORKS_ABS = 38,                          /**< Element-wise absolute value. */
    ANEURALNETWORKS_ARGMAX = 39,                       /**< Index of the largest value along an axis. */
    ANEURALNETWORKS_ARGMIN = 40,                       /**< Index of the smallest value along an axis. */
    ANEURALNETWORKS_AXIS_ALIGNED_BBOX_TRANSFORM = 41,  /**< Apply deltas to bounding boxes. */
    ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_LSTM = 42,  /**< LSTM over a sequence, both directions. */
    ANEURALNETWORKS_BIDIRECTIONAL_SEQUENCE_RNN = 43,   /**< RNN over a sequence, both directions. */
    ANEURALNETWORKS_BOX_WITH_NMS_LIMIT = 44,           /**< Score filtering plus non-max suppression. */
    ANEURALNETWORKS_CAST = 45,                         /**< Convert element type. */
    ANEURALNETWORKS_CHANNEL_SHUFFLE = 46,              /**< Shuffle channels between groups. */
    ANEURALNETWORKS_DETECTION_POSTPROCESSING = 47,     /**< SSD-style detection post-processing. */
    ANEURALNETWORKS_EQUAL = 48,                        /**< Element-wise a == b. */
    ANEURALNETWORKS_EXP = 49,                          /**< Element-wise e^x. */
    ANEURALNETWORKS_EXPAND_DIMS = 50,                  /**< Insert a dimension of size 1. */
    ANEURALNETWORKS_GATHER = 51,                       /**< Gather slices along an axis. */
    ANEURALNETWORKS_GENERATE_PROPOSALS = 52,           /**< Region proposals from anchors. */
    ANEURALNETWORKS_GREATER = 53,                      /**< Element-wise a > b. */
    ANEURALNETWORKS_GREATER_EQUAL = 54,                /**< Element-wise a >= b. */
    ANEURALNETWORKS_GROUPED_CONV_2D = 55,              /**< 2-D convolution in channel groups. */
    ANEURALNETWORKS_HEATMAP_MAX_KEYPOINT = 56,         /**< Keypoint locations from heatmaps. */
    ANEURALNETWORKS_INSTANCE_NORMALIZATION = 57,       /**< Per-instance normalization. */
    ANEURALNETWORKS_LESS = 58,                         /**< Element-wise a < b. */
    ANEURALNETWORKS_LESS_EQUAL = 59,                   /**< Element-wise a <= b. */
    ANEURALNETWORKS_LOG = 60,                          /**< Element-wise natural logarithm. */
    ANEURALNETWORKS_LOGICAL_AND = 61,                  /**< Element-wise a && b. */
    ANEURALNETWORKS_LOGICAL_NOT = 62,                  /**< Element-wise !a. */
    ANEURALNETWORKS_LOGICAL_OR = 63,                   /**< Element-wise a || b. */
    ANEURALNETWORKS_LOG_SOFTMAX = 64,                  /**< log(softmax(x)) along an axis. */
    ANEURALNETWORKS_MAXIMUM = 65,                      /**< Element-wise max. */
    ANEURALNETWORKS_MINIMUM = 66,                      /**< Element-wise min. */
    ANEURALNETWORKS_NEG = 67,                          /**< Element-wise negation. */
    ANEURALNETWORKS_NOT_EQUAL = 68,                    /**< Element-wise a != b. */
    ANEURALNETWORKS_PAD_V2 = 69,                       /**< Pad with a given value. */
    ANEURALNETWORKS_POW = 70,                          /**< Element-wise a^b. */
    ANEURALNETWORKS_PRELU = 71,                        /**< Parametric ReLU. */
    ANEURALNETWORKS_QUANTIZE = 72,                     /**< Float tensor to quantized. */
    ANEURALNETWORKS_QUANTIZED_16BIT_LSTM = 73,         /**< Quantized LSTM step with 16-bit state. */
    ANEURALNETWORKS_RANDOM_MULTINOMIAL = 74,           /**< Draw samples from a multinomial. */
    ANEURALNETWORKS_REDUCE_ALL = 75,                   /**< Logical AND over axes. */
    ANEURALNETWORKS_REDUCE_ANY = 76,                   /**< Logical OR over axes. */
    ANEURALNETWORKS_REDUCE_MAX = 77,                   /**< Maximum over axes. */
    ANEURALNETWORKS_REDUCE_MIN = 78,                   /**< Minimum over axes. */
    ANEURALNETWORKS_REDUCE_PROD = 79,                  /**< Product over axes. */
    ANEURALNETWORKS_REDUCE_SUM = 80,                   /**< Sum over axes. */
    ANEURALNETWORKS_ROI_ALIGN = 81,                    /**< Region-of-interest align. */
    ANEURALNETWORKS_ROI_POOLING = 82,                  /**< Region-of-interest max pooling. */
    ANEURALNETWORKS_RSQRT = 83,                        /**< Element-wise 1/sqrt(x). */
    ANEURALNETWORKS_SELECT = 84,                       /**< Element-wise cond ? a : b. */
    ANEURALNETWORKS_SIN = 85,                          /**< Element-wise sine. */
    ANEURALNETWORKS_SLICE = 86,                        /**< Contiguous slice. */
    ANEURALNETWORKS_SPLIT = 87,                        /**< Split into equal parts along an axis. */
    ANEURALNETWORKS_SQRT = 88,                         /**< Element-wise square root. */
    ANEURALNETWORKS_TILE = 89,                         /**< Repeat a tensor along each axis. */
    ANEURALNETWORKS_TOPK_V2 = 90,                      /**< Largest k values and their indices. */
    ANEURALNETWORKS_TRANSPOSE_CONV_2D = 91,            /**< 2-D transposed convolution. */
    ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM = 92, /**< LSTM over a sequence. */
    ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN = 93,  /**< RNN over a sequence. */
    ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR = 94,      /**< Nearest-neighbour image resize. */

    /* Feature level 4 (API 30). */
    ANEURALNETWORKS_QUANTIZED_LSTM = 95,               /**< Quantized LSTM with projection/peephole. */
    ANEURALNETWORKS_IF = 96,                           /**< Run one of two referenced models. */
    ANEURALNETWORKS_WHILE = 97,                        /**< Loop a body model while a condition model holds. */
    ANEURALNETWORKS_ELU = 98,                          /**< Exponential linear unit. */
    ANEURALNETWORKS_HARD_SWISH = 99,                   /**< x * relu6(x + 3) / 6. */
    ANEURALNETWORKS_FILL = 100,                        /**< Tensor of a given shape filled with a value. */
    ANEURALNETWORKS_RANK = 101,                        /**< Rank of the input as a scalar. */

    /* Feature level 6. */
    ANEURALNETWORKS_BATCH_MATMUL = 102,                /**< Batched matrix multiplication. */
    ANEURALNETWORKS_PACK = 103,                        /**< Stack tensors along a new axis. */

    /* Feature level 7. */
    ANEURALNETWORKS_MIRROR_PAD = 104,                  /**< Pad by reflecting or mirroring edges. */
    ANEURALNETWORKS_REVERSE = 105,                     /**< Reverse the order along an axis. */

    /** OEM-specific operation (deprecated by Android in API 29 in favour of extensions). */
    ANEURALNETWORKS_OEM_OPERATION = 10000,
} OperationCode;

/** Activation function fused into the output of some operations. */
typedef enum {
    ANEURALNETWORKS_FUSED_NONE = 0,  /**< No activation. */
    ANEURALNETWORKS_FUSED_RELU = 1,  /**< max(0, x). */
    ANEURALNETWORKS_FUSED_RELU1 = 2, /**< clamp(x, -1, 1). */
    ANEURALNETWORKS_FUSED_RELU6 = 3, /**< clamp(x, 0, 6). */
} FuseCode;

/** Implicit padding schemes for convolution and pooling operations. */
typedef enum {
    /** Pad so that output size = ceil(input size / stride). */
    ANEURALNETWORKS_PADDING_SAME = 1,
    /** No padding; only windows fully inside the input are used. */
    ANEURALNETWORKS_PADDING_VALID = 2,
} PaddingCode;

/** Execution preference hint for ANeuralNetworksCompilation_setPreference. */
typedef enum {
    /** Minimise battery drain; good for frequent background work. */
    ANEURALNETWORKS_PREFER_LOW_POWER = 0,
    /** Return a single answer as fast as possible (the default). */
    ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER = 1,
    /** Maximise throughput for a stream of successive inputs. */
    ANEURALNETWORKS_PREFER_SUSTAINED_SPEED = 2,
} PreferenceCode;

/** Kinds of device reported by ANeuralNetworksDevice_getType. (API 29) */
typedef enum {
    ANEURALNETWORKS_DEVICE_UNKNOWN = 0,     /**< Type not reported. */
    ANEURALNETWORKS_DEVICE_OTHER = 1,       /**< None of the categories below. */
    ANEURALNETWORKS_DEVICE_CPU = 2,         /**< Runs on one or more CPU cores. */
    ANEURALNETWORKS_DEVICE_GPU = 3,         /**< A GPU that also serves graphics APIs. */
    ANEURALNETWORKS_DEVICE_ACCELERATOR = 4, /**< A dedicated machine-learning accelerator. */
} DeviceTypeCode;

/**
 * NNAPI feature levels, as returned by ANeuralNetworksDevice_getFeatureLevel and
 * ANeuralNetworks_getRuntimeFeatureLevel. Levels 1..5 equal the Android API level that
 * introduced them; later levels are decoupled from API levels.
 */
typedef enum {
    ANEURALNETWORKS_FEATURE_LEVEL_1 = 27,
    ANEURALNETWORKS_FEATURE_LEVEL_2 = 28,
    ANEURALNETWORKS_FEATURE_LEVEL_3 = 29,
    ANEURALNETWORKS_FEATURE_LEVEL_4 = 30,
    ANEURALNETWORKS_FEATURE_LEVEL_5 = 31,
    ANEURALNETWORKS_FEATURE_LEVEL_6 = 1000006,
    ANEURALNETWORKS_FEATURE_LEVEL_7 = 1000007,
    ANEURALNETWORKS_FEATURE_LEVEL_8 = 1000008,
} FeatureLevelCode;

/** Result codes returned by the API functions. */
typedef enum {
    /** Success. */
    ANEURALNETWORKS_NO_ERROR = 0,
    /** An allocation failed. */
    ANEURALNETWORKS_OUT_OF_MEMORY = 1,
    /** The operation has not finished. */
    ANEURALNETWORKS_INCOMPLETE = 2,
    /** A required pointer argument was NULL. */
    ANEURALNETWORKS_UNEXPECTED_NULL = 3,
    /** An argument or the model is invalid. */
    ANEURALNETWORKS_BAD_DATA = 4,
    /** The operation failed while running. */
    ANEURALNETWORKS_OP_FAILED = 5,
    /** The object is in the wrong state for this call. */
    ANEURALNETWORKS_BAD_STATE = 6,
    /** A memory object or file descriptor could not be mapped. */
    ANEURALNETWORKS_UNMAPPABLE = 7,
    /** An output buffer is too small; the required shape can be queried. (API 29) */
    ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE = 8,
    /** A device could not be reached or has failed. (API 29) */
    ANEURALNETWORKS_UNAVAILABLE_DEVICE = 9,
    /** A deadline was missed; retrying may succeed. (API 30) */
    ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT = 10,
    /** A deadline was missed and retrying will not help. (API 30) */
    ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT = 11,
    /** A resource ran out temporarily; retrying may succeed. (API 30) */
    ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT = 12,
    /** A resource ran out and retrying will not help. (API 30) */
    ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT = 13,
    /** A driver process died; the object must be recreated. (API 30) */
    ANEURALNETWORKS_DEAD_OBJECT = 14,
} ResultCode;

enum {
    /**
     * Operand values of at most this many bytes passed to ANeuralNetworksModel_setOperandValue
     * are copied at once; larger ones are referenced and must stay valid until the model is done.
     */
    ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES = 128
};

enum {
    /** Length in bytes of the token passed to ANeuralNetworksCompilation_setCaching. (API 29) */
    ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN = 32
};

/** Which duration ANeuralNetworksExecution_getDuration reports. (API 29) */
typedef enum {
    /** Time spent on the device's hardware, excluding driver overhead on the host. */
    ANEURALNETWORKS_DURATION_ON_HARDWARE = 0,
    /** Time spent in the driver, hardware time included. */
    ANEURALNETWORKS_DURATION_IN_DRIVER = 1,
    /** For fenced executions: hardware time after all wait-for fences were signalled. (API 30) */
    ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE = 2,
    /** For fenced executions: driver time after all wait-for fences were signalled. (API 30) */
    ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER = 3,
} DurationCode;

/** Relative priority of a compilation's executions on one device. (API 30) */
typedef enum {
    ANEURALNETWORKS_PRIORITY_LOW = 90,
    ANEURALNETWORKS_PRIORITY_MEDIUM = 100,
    ANEURALNETWORKS_PRIORITY_HIGH = 110,
    ANEURALNETWORKS_PRIORITY_DEFAULT = ANEURALNETWORKS_PRIORITY_MEDIUM,
} PriorityCode;

/* ============================================================================================== */
/* Types                                                                                          */
/* ============================================================================================== */

/** Android graphics buffer. Declared only so that the AHardwareBuffer entry point type-checks. */
typedef struct AHardwareBuffer AHardwareBuffer;

/** Opaque block of memory (shared memory, a mapped file, or a device buffer). */
typedef struct ANeuralNetworksMemory ANeuralNetworksMemory;

/** Opaque graph of operands and operations, built then frozen with ANeuralNetworksModel_finish. */
typedef struct ANeuralNetworksModel ANeuralNetworksModel;

/** Opaque compiled form of a finished model for one or more devices. */
typedef struct ANeuralNetworksCompilation ANeuralNetworksCompilation;

/** Opaque single (or, with setReusable, repeated) run of a compilation on concrete inputs. */
typedef struct ANeuralNetworksExecution ANeuralNetworksExecution;

/** Opaque context for low-latency back-to-back executions of one compilation. (API 29) */
typedef struct ANeuralNetworksBurst ANeuralNetworksBurst;

/** Opaque completion signal of an asynchronous execution, possibly backed by a sync fence. */
typedef struct ANeuralNetworksEvent ANeuralNetworksEvent;

/** Opaque handle to a device that can run models; owned by the runtime. (API 29) */
typedef struct ANeuralNetworksDevice ANeuralNetworksDevice;

/** Opaque description of a device memory to be created with ANeuralNetworksMemory_createFromDesc.
 *  (API 30) */
typedef struct ANeuralNetworksMemoryDesc ANeuralNetworksMemoryDesc;

/** Type of an operand, for scalars and tensors alike. */
typedef struct ANeuralNetworksOperandType {
    /** An OperandCode, or an extension operand type. */
    int32_t type;
    /** Rank; 0 for scalars (or a tensor of unknown rank). */
    uint32_t dimensionCount;
    /** dimensionCount sizes, 0 meaning "unknown"; NULL for scalars. */
    const uint32_t* dimensions;
    /** Quantization scale; 0 for non-quantized types. */
    float scale;
    /** Quantization zero point; 0 for non-quantized types. */
    int32_t zeroPoint;
} ANeuralNetworksOperandType;

/** An OperationCode, or an extension operation type. */
typedef int32_t ANeuralNetworksOperationType;

/** Per-channel quantization of an ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL operand. (API 29) */
typedef struct ANeuralNetworksSymmPerChannelQuantParams {
    /** Index of the channel dimension. */
    uint32_t channelDim;
    /** Number of scales; must equal dimensions[channelDim]. */
    uint32_t scaleCount;
    /** scaleCount positive scales, copied by the runtime. */
    const float* scales;
} ANeuralNetworksSymmPerChannelQuantParams;

/* ============================================================================================== */
/* Global queries and devices                                                                     */
/* ============================================================================================== */

/** (API 29) Stores the number of available devices in *numDevices.
 *  Returns NO_ERROR, or UNEXPECTED_NULL. */
int ANeuralNetworks_getDeviceCount(uint32_t* numDevices);

/** (API 29) Stores the device at devIndex (0 <= devIndex < count) in *device. The device is owned
 *  by the runtime and stays valid for the life of the process. Returns NO_ERROR, UNEXPECTED_NULL,
 *  or BAD_DATA for an index out of range. */
int ANeuralNetworks_getDevice(uint32_t devIndex, ANeuralNetworksDevice** device);

/** (API 29) Stores the device's name in *name; the string is owned by the runtime and lives as long
 *  as the device. Returns NO_ERROR or UNEXPECTED_NULL. */
int ANeuralNetworksDevice_getName(const ANeuralNetworksDevice* device, const char** name);

/** (API 29) Stores the device's DeviceTypeCode in *type. Returns NO_ERROR, UNEXPECTED_NULL, or
 *  BAD_DATA if the type cannot be obtained. */
int ANeuralNetworksDevice_getType(const ANeuralNetworksDevice* device, int32_t* type);

/** (API 29) Stores the driver's version string in *version; the string is owned by the runtime.
 *  Returns NO_ERROR or UNEXPECTED_NULL. */
int ANeuralNetworksDevice_getVersion(const ANeuralNetworksDevice* device, const char** version);

/** (API 29) Stores the highest FeatureLevelCode the device implements in *featureLevel.
 *  Returns NO_ERROR or UNEXPECTED_NULL. */
int ANeuralNetworksDevice_getFeatureLevel(const ANeuralNetworksDevice* device,
                                          int64_t* featureLevel);

/** (API 30) Blocks until the device is alive again after a driver failure. Returns NO_ERROR,
 *  UNEXPECTED_NULL, or UNAVAILABLE_DEVICE if it cannot recover. */
int ANeuralNetworksDevice_wait(const ANeuralNetworksDevice* device);

/** (API 31) Returns the FeatureLevelCode implemented by this runtime. */
int64_t ANeuralNetworks_getRuntimeFeatureLevel(void);

/** (API 30) Returns the default timeout, in nanoseconds, applied to each WHILE loop. */
uint64_t ANeuralNetworks_getDefaultLoopTimeout(void);

/** (API 30) Returns the largest WHILE loop timeout, in nanoseconds, that
 *  ANeuralNetworksExecution_setLoopTimeout accepts without clamping. */
uint64_t ANeuralNetworks_getMaximumLoopTimeout(void);

/* ============================================================================================== */
/* Memory                                                                                         */
/* ============================================================================================== */

/** (API 27) Maps size bytes of fd, starting at offset, with protection protect (PROT_* flags) into a
 *  new memory object stored in *memory. The runtime duplicates fd, so the caller keeps ownership of
 *  its own descriptor. Free with ANeuralNetworksMemory_free. Returns NO_ERROR, UNEXPECTED_NULL,
 *  BAD_DATA, UNMAPPABLE, or OUT_OF_MEMORY. */
int ANeuralNetworksMemory_createFromFd(size_t size, int protect, int fd, size_t offset,
                                       ANeuralNetworksMemory** memory);

/** (API 29) Wraps an Android hardware buffer in a memory object stored in *memory; the buffer must
 *  outlive it. Linux offers no AHardwareBuffer, so expect UNEXPECTED_NULL for NULL arguments and
 *  BAD_DATA for a buffer the runtime cannot use; NO_ERROR or OUT_OF_MEMORY otherwise. */
int ANeuralNetworksMemory_createFromAHardwareBuffer(const AHardwareBuffer* ahwb,
                                                    ANeuralNetworksMemory** memory);

/** (API 30) Allocates a memory object, uninitialised, matching a finished descriptor; it may live
 *  on a device. The descriptor may be freed afterwards. Returns NO_ERROR, UNEXPECTED_NULL,
 *  BAD_STATE (descriptor not finished), OP_FAILED, or OUT_OF_MEMORY. */
int ANeuralNetworksMemory_createFromDesc(const ANeuralNetworksMemoryDesc* desc,
                                         ANeuralNetworksMemory** memory);

/** (API 30) Copies the whole content of src into dst, which must have the same size (or compatible
 *  dimensions for descriptor memories). Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or OP_FAILED. */
int ANeuralNetworksMemory_copy(const ANeuralNetworksMemory* src, const ANeuralNetworksMemory* dst);

/** (API 27) Releases a memory object. Passing NULL does nothing. The memory must no longer be used
 *  by any unfinished model, compilation or execution. */
void ANeuralNetworksMemory_free(ANeuralNetworksMemory* memory);

/** (API 30) Creates an empty memory descriptor in *desc. Free with ANeuralNetworksMemoryDesc_free.
 *  Returns NO_ERROR, UNEXPECTED_NULL, or OUT_OF_MEMORY. */
int ANeuralNetworksMemoryDesc_create(ANeuralNetworksMemoryDesc** desc);

/** (API 30) Releases a memory descriptor; memories already created from it stay valid.
 *  Passing NULL does nothing. */
void ANeuralNetworksMemoryDesc_free(ANeuralNetworksMemoryDesc* desc);

/** (API 30) Declares that memories from desc will serve as input index of executions of a finished
 *  compilation; frequency in (0, 1] weights this role against others. Returns NO_ERROR,
 *  UNEXPECTED_NULL, BAD_DATA (bad index, frequency, duplicate role, incompatible shape) or BAD_STATE. */
int ANeuralNetworksMemoryDesc_addInputRole(ANeuralNetworksMemoryDesc* desc,
                                           const ANeuralNetworksCompilation* compilation,
                                           uint32_t index, float frequency);

/** (API 30) Like ANeuralNetworksMemoryDesc_addInputRole, for output index of the compilation.
 *  Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksMemoryDesc_addOutputRole(ANeuralNetworksMemoryDesc* desc,
                                            const ANeuralNetworksCompilation* compilation,
                                            uint32_t index, float frequency);

/** (API 30) Sets the dimensions of the memory (0 = unknown); they must agree with every role.
 *  The array is copied. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksMemoryDesc_setDimensions(ANeuralNetworksMemoryDesc* desc, uint32_t rank,
                                            const uint32_t* dimensions);

/** (API 30) Freezes the descriptor; it needs at least one role. Returns NO_ERROR, UNEXPECTED_NULL,
 *  BAD_DATA, or BAD_STATE if already finished. */
int ANeuralNetworksMemoryDesc_finish(ANeuralNetworksMemoryDesc* desc);

/* ============================================================================================== */
/* Model                                                                                          */
/* ============================================================================================== */

/** (API 27) Creates an empty model in *model. Free with ANeuralNetworksModel_free.
 *  Returns NO_ERROR, UNEXPECTED_NULL, or OUT_OF_MEMORY. */
int ANeuralNetworksModel_create(ANeuralNetworksModel** model);

/** (API 27) Releases a model. Passing NULL does nothing. Compilations made from it must have been
 *  freed first. */
void ANeuralNetworksModel_free(ANeuralNetworksModel* model);

/** (API 27) Validates the model and freezes it; after this it may be compiled but not changed.
 *  Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA (invalid graph), BAD_STATE (already finished),
 *  or OUT_OF_MEMORY. */
int ANeuralNetworksModel_finish(ANeuralNetworksModel* model);

/** (API 27) Appends an operand of the given type; operands are numbered from 0 in the order added.
 *  The type and its dimensions are copied. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or
 *  BAD_STATE. */
int ANeuralNetworksModel_addOperand(ANeuralNetworksModel* model,
                                    const ANeuralNetworksOperandType* type);

/** (API 27) Gives operand index a constant value. Values of at most
 *  ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES bytes are copied now; larger buffers are
 *  referenced and must outlive the model. buffer NULL with length 0 marks an omitted optional
 *  operand. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksModel_setOperandValue(ANeuralNetworksModel* model, int32_t index,
                                         const void* buffer, size_t length);

/** (API 29) Attaches per-channel scales to a TENSOR_QUANT8_SYMM_PER_CHANNEL operand; the
 *  parameters are copied. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
        ANeuralNetworksModel* model, int32_t index,
        const ANeuralNetworksSymmPerChannelQuantParams* channelQuant);

/** (API 27) Gives operand index a constant value that lives in memory at [offset, offset+length).
 *  The memory is referenced, not copied, and must outlive the model. Returns NO_ERROR,
 *  UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksModel_setOperandValueFromMemory(ANeuralNetworksModel* model, int32_t index,
                                                   const ANeuralNetworksMemory* memory,
                                                   size_t offset, size_t length);

/** (API 30) Sets an ANEURALNETWORKS_MODEL operand to reference another finished model (a branch or
 *  loop body); value must outlive model. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksModel_setOperandValueFromModel(ANeuralNetworksModel* model, int32_t index,
                                                  const ANeuralNetworksModel* value);

/** (API 27) Appends an operation reading operands inputs[0..inputCount) and writing
 *  outputs[0..outputCount); the index arrays are copied. Returns NO_ERROR, UNEXPECTED_NULL,
 *  BAD_DATA, or BAD_STATE. */
int ANeuralNetworksModel_addOperation(ANeuralNetworksModel* model,
                                      ANeuralNetworksOperationType type, uint32_t inputCount,
                                      const uint32_t* inputs, uint32_t outputCount,
                                      const uint32_t* outputs);

/** (API 27) Declares which operands are the model's inputs and outputs, in the order executions
 *  address them; the arrays are copied. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksModel_identifyInputsAndOutputs(ANeuralNetworksModel* model, uint32_t inputCount,
                                                  const uint32_t* inputs, uint32_t outputCount,
                                                  const uint32_t* outputs);

/** (API 28) Allows float32 arithmetic to be carried out with float16 range and precision.
 *  Off by default. Returns NO_ERROR, UNEXPECTED_NULL, or BAD_STATE. */
int ANeuralNetworksModel_relaxComputationFloat32toFloat16(ANeuralNetworksModel* model, bool allow);

/** (API 29) For a finished model, sets supportedOps[i] (one entry per operation, in the order
 *  added) to whether any of the numDevices devices can run operation i. Returns NO_ERROR,
 *  UNEXPECTED_NULL, BAD_DATA (no devices), BAD_STATE (model not finished), or OP_FAILED. */
int ANeuralNetworksModel_getSupportedOperationsForDevices(
        const ANeuralNetworksModel* model, const ANeuralNetworksDevice* const* devices,
        uint32_t numDevices, bool* supportedOps);

/* ============================================================================================== */
/* Compilation                                                                                    */
/* ============================================================================================== */

/** (API 27) Creates a compilation of a finished model in *compilation, letting the runtime choose
 *  among all devices. The model must outlive the compilation. Free with
 *  ANeuralNetworksCompilation_free. Returns NO_ERROR, UNEXPECTED_NULL, BAD_STATE, or OUT_OF_MEMORY. */
int ANeuralNetworksCompilation_create(ANeuralNetworksModel* model,
                                      ANeuralNetworksCompilation** compilation);

/** (API 29) Like ANeuralNetworksCompilation_create, but restricted to the given devices (no CPU
 *  fallback). The array is copied. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, BAD_STATE, or
 *  OUT_OF_MEMORY. */
int ANeuralNetworksCompilation_createForDevices(ANeuralNetworksModel* model,
                                                const ANeuralNetworksDevice* const* devices,
                                                uint32_t numDevices,
                                                ANeuralNetworksCompilation** compilation);

/** (API 27) Releases a compilation. Passing NULL does nothing. Executions and bursts made from it
 *  must have been freed first. */
void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation* compilation);

/** (API 27) Sets the PreferenceCode used to choose devices. Returns NO_ERROR, UNEXPECTED_NULL,
 *  BAD_DATA, or BAD_STATE (already finished). */
int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation* compilation,
                                             int32_t preference);

/** (API 29) Enables the compilation cache in directory cacheDir, keyed by a token of
 *  ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN bytes that must uniquely identify the model; both are
 *  copied. Returns NO_ERROR, UNEXPECTED_NULL, or BAD_STATE. */
int ANeuralNetworksCompilation_setCaching(ANeuralNetworksCompilation* compilation,
                                          const char* cacheDir, const uint8_t* token);

/** (API 30) Sets the PriorityCode of this compilation's executions relative to others of the same
 *  application. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksCompilation_setPriority(ANeuralNetworksCompilation* compilation, int priority);

/** (API 30) Sets a time limit in nanoseconds for ANeuralNetworksCompilation_finish; 0 means none.
 *  Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksCompilation_setTimeout(ANeuralNetworksCompilation* compilation,
                                          uint64_t duration);

/** (API 27) Partitions and compiles the model; blocks until done. Afterwards the compilation cannot
 *  be changed. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, BAD_STATE, OP_FAILED,
 *  MISSED_DEADLINE_*, RESOURCE_EXHAUSTED_*, or OUT_OF_MEMORY. */
int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation* compilation);

/** (API 31) Stores in *alignment the preferred byte alignment of buffers or memory regions for
 *  input index of a finished compilation. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForInput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment);

/** (API 31) Stores in *padding the preferred padding (the length should be a multiple of it) for
 *  input index of a finished compilation. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding);

/** (API 31) Output counterpart of getPreferredMemoryAlignmentForInput. Returns NO_ERROR,
 *  UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksCompilation_getPreferredMemoryAlignmentForOutput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* alignment);

/** (API 31) Output counterpart of getPreferredMemoryPaddingForInput. Returns NO_ERROR,
 *  UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksCompilation_getPreferredMemoryPaddingForOutput(
        const ANeuralNetworksCompilation* compilation, uint32_t index, uint32_t* padding);

/* ============================================================================================== */
/* Execution                                                                                      */
/* ============================================================================================== */

/** (API 27) Creates an execution of a finished compilation in *execution; the compilation must
 *  outlive it. Free with ANeuralNetworksExecution_free. Returns NO_ERROR, UNEXPECTED_NULL,
 *  BAD_STATE, or OUT_OF_MEMORY. */
int ANeuralNetworksExecution_create(ANeuralNetworksCompilation* compilation,
                                    ANeuralNetworksExecution** execution);

/** (API 27) Releases an execution; one still running is waited for first. Passing NULL does
 *  nothing. */
void ANeuralNetworksExecution_free(ANeuralNetworksExecution* execution);

/** (API 27) Binds model input index to buffer[0..length). type may be NULL, or may only fill in
 *  dimensions the model left unknown. The buffer is referenced and must stay valid and unchanged
 *  until the computation ends; NULL with length 0 omits an optional input. Returns NO_ERROR,
 *  UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksExecution_setInput(ANeuralNetworksExecution* execution, int32_t index,
                                      const ANeuralNetworksOperandType* type, const void* buffer,
                                      size_t length);

/** (API 27) Binds model input index to the region [offset, offset+length) of memory, which must
 *  outlive the execution. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksExecution_setInputFromMemory(ANeuralNetworksExecution* execution, int32_t index,
                                                const ANeuralNetworksOperandType* type,
                                                const ANeuralNetworksMemory* memory, size_t offset,
                                                size_t length);

/** (API 27) Binds model output index to buffer[0..length), which must stay valid until the
 *  computation ends. type may be NULL or fill in unknown dimensions. Returns NO_ERROR,
 *  UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksExecution_setOutput(ANeuralNetworksExecution* execution, int32_t index,
                                       const ANeuralNetworksOperandType* type, void* buffer,
                                       size_t length);

/** (API 27) Binds model output index to the region [offset, offset+length) of memory, which must
 *  outlive the execution. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksExecution_setOutputFromMemory(ANeuralNetworksExecution* execution, int32_t index,
                                                 const ANeuralNetworksOperandType* type,
                                                 const ANeuralNetworksMemory* memory,
                                                 size_t offset, size_t length);

/** (API 27) Starts the computation asynchronously and stores a new event in *event; wait on it with
 *  ANeuralNetworksEvent_wait and release it with ANeuralNetworksEvent_free. Returns NO_ERROR,
 *  UNEXPECTED_NULL, BAD_DATA, BAD_STATE, or OP_FAILED (run errors are reported by the wait). */
int ANeuralNetworksExecution_startCompute(ANeuralNetworksExecution* execution,
                                          ANeuralNetworksEvent** event);

/** (API 29) Runs the computation and blocks until it ends. Returns NO_ERROR, UNEXPECTED_NULL,
 *  BAD_DATA, BAD_STATE, OP_FAILED, OUTPUT_INSUFFICIENT_SIZE, UNAVAILABLE_DEVICE, MISSED_DEADLINE_*,
 *  RESOURCE_EXHAUSTED_*, or DEAD_OBJECT. */
int ANeuralNetworksExecution_compute(ANeuralNetworksExecution* execution);

/** (API 29) After a computation that succeeded or gave OUTPUT_INSUFFICIENT_SIZE, stores the actual
 *  rank of output index in *rank. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksExecution_getOutputOperandRank(ANeuralNetworksExecution* execution,
                                                  int32_t index, uint32_t* rank);

/** (API 29) Like getOutputOperandRank, but writes rank dimensions of output index into the array
 *  dimensions. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA (e.g. rank 0), or BAD_STATE. */
int ANeuralNetworksExecution_getOutputOperandDimensions(ANeuralNetworksExecution* execution,
                                                        int32_t index, uint32_t* dimensions);

/** (API 29) Runs the computation synchronously through burst, which must come from the same
 *  compilation. Returns the same codes as ANeuralNetworksExecution_compute. */
int ANeuralNetworksExecution_burstCompute(ANeuralNetworksExecution* execution,
                                          ANeuralNetworksBurst* burst);

/** (API 29) Requests that the computation's durations be measured (for single-device
 *  compilations on Android; any compilation in nnrt). Returns NO_ERROR, UNEXPECTED_NULL,
 *  BAD_DATA, or BAD_STATE. */
int ANeuralNetworksExecution_setMeasureTiming(ANeuralNetworksExecution* execution, bool measure);

/** (API 29) After a completed computation, stores the DurationCode durationCode in nanoseconds in
 *  *duration, or UINT64_MAX when it was not measured. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA,
 *  or BAD_STATE. */
int ANeuralNetworksExecution_getDuration(const ANeuralNetworksExecution* execution,
                                         int32_t durationCode, uint64_t* duration);

/** (API 30) Sets a time limit in nanoseconds for the computation; 0 means none. Returns NO_ERROR,
 *  UNEXPECTED_NULL, BAD_DATA, or BAD_STATE. */
int ANeuralNetworksExecution_setTimeout(ANeuralNetworksExecution* execution, uint64_t duration);

/** (API 30) Sets the time limit in nanoseconds for each WHILE loop, clamped to
 *  ANeuralNetworks_getMaximumLoopTimeout. Returns NO_ERROR, UNEXPECTED_NULL, or BAD_STATE. */
int ANeuralNetworksExecution_setLoopTimeout(ANeuralNetworksExecution* execution,
                                            uint64_t duration);

/** (API 30) Starts the computation once all num_dependencies events have signalled, and stores a
 *  new event (possibly sync-fence backed) in *event; duration limits the computation itself in
 *  nanoseconds, 0 meaning none. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, BAD_STATE, or
 *  OP_FAILED. */
int ANeuralNetworksExecution_startComputeWithDependencies(
        ANeuralNetworksExecution* execution, const ANeuralNetworksEvent* const* dependencies,
        uint32_t num_dependencies, uint64_t duration, ANeuralNetworksEvent** event);

/** (API 31) Allows buffers and memory regions to be longer than the operand (any length at least
 *  the operand's; the preferred padding is a hint), when set before any input or output. Returns
 *  NO_ERROR, UNEXPECTED_NULL, or BAD_STATE. */
int ANeuralNetworksExecution_enableInputAndOutputPadding(ANeuralNetworksExecution* execution,
                                                         bool enable);

/** (API 31) Makes the execution reusable for several computations, one at a time, with the same
 *  bindings. Returns NO_ERROR, UNEXPECTED_NULL, or BAD_STATE. */
int ANeuralNetworksExecution_setReusable(ANeuralNetworksExecution* execution, bool reusable);

/* ============================================================================================== */
/* Burst                                                                                          */
/* ============================================================================================== */

/** (API 29) Creates a burst for a finished compilation in *burst; the compilation must outlive it.
 *  Free with ANeuralNetworksBurst_free. Returns NO_ERROR, UNEXPECTED_NULL, BAD_STATE, or
 *  OUT_OF_MEMORY. */
int ANeuralNetworksBurst_create(ANeuralNetworksCompilation* compilation,
                                ANeuralNetworksBurst** burst);

/** (API 29) Releases a burst. Passing NULL does nothing. */
void ANeuralNetworksBurst_free(ANeuralNetworksBurst* burst);

/* ============================================================================================== */
/* Event                                                                                          */
/* ============================================================================================== */

/** (API 27) Blocks until the event's computation ends and returns its result: NO_ERROR,
 *  UNEXPECTED_NULL, OP_FAILED, OUTPUT_INSUFFICIENT_SIZE, UNAVAILABLE_DEVICE, MISSED_DEADLINE_*,
 *  RESOURCE_EXHAUSTED_*, or DEAD_OBJECT. */
int ANeuralNetworksEvent_wait(ANeuralNetworksEvent* event);

/** (API 27) Releases an event, first waiting for its computation. Passing NULL does nothing. */
void ANeuralNetworksEvent_free(ANeuralNetworksEvent* event);

/** (API 30) Creates an event from a sync fence; the fd is duplicated, so the caller keeps its own.
 *  Free with ANeuralNetworksEvent_free. Returns NO_ERROR, UNEXPECTED_NULL, BAD_DATA, or
 *  OUT_OF_MEMORY. */
int ANeuralNetworksEvent_createFromSyncFenceFd(int sync_fence_fd, ANeuralNetworksEvent** event);

/** (API 30) Stores in *sync_fence_fd a new descriptor of the event's sync fence, which the caller
 *  must close; -1 and BAD_DATA when the event has no fence. Returns NO_ERROR, UNEXPECTED_NULL,
 *  or BAD_DATA. */
int ANeuralNetworksEvent_getSyncFenceFd(const ANeuralNetworksEvent* event, int* sync_fence_fd);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // ANDROID_NEURAL_NETWORKS_H
