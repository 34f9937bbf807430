// C++ vocabulary of the driver SDK: NNAPI operand and operation types, HAL status codes, errors,
// and thin non-owning views over the C structs of nnrt_driver.h. Header-only, standard library only.
#pragma once

#if __cplusplus < 202002L
#error "the nnrt driver SDK needs C++20: compile with -std=c++20 (nnrt_add_driver() and nnrt::driver_sdk set it)"
#endif

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nnrt/driver/expected.hpp"
#include "nnrt/driver/nnrt_driver.h"

namespace nnrt::driver {

// ---- Types ------------------------------------------------------------------------------------

// NNAPI OperandCode values.
#define NNRT_OPERAND_TYPE_LIST(X)       \
  X(FLOAT32, 0)                         \
  X(INT32, 1)                           \
  X(UINT32, 2)                          \
  X(TENSOR_FLOAT32, 3)                  \
  X(TENSOR_INT32, 4)                    \
  X(TENSOR_QUANT8_ASYMM, 5)             \
  X(BOOL, 6)                            \
  X(TENSOR_QUANT16_SYMM, 7)             \
  X(TENSOR_FLOAT16, 8)                  \
  X(TENSOR_BOOL8, 9)                    \
  X(FLOAT16, 10)                        \
  X(TENSOR_QUANT8_SYMM_PER_CHANNEL, 11) \
  X(TENSOR_QUANT16_ASYMM, 12)           \
  X(TENSOR_QUANT8_SYMM, 13)             \
  X(TENSOR_QUANT8_ASYMM_SIGNED, 14)     \
  X(SUBGRAPH, 15)                       \
  X(OEM, 10000)                         \
  X(TENSOR_OEM_BYTE, 10001)

// NNAPI OperationCode values: X(name, value, NNAPI feature level that introduced it).
#define NNRT_OPERATION_TYPE_LIST(X) \
  X(ADD, 0, 1) \
  X(AVERAGE_POOL_2D, 1, 1) \
  X(CONCATENATION, 2, 1) \
  X(CONV_2D, 3, 1) \
  X(DEPTHWISE_CONV_2D, 4, 1) \
  X(DEPTH_TO_SPACE, 5, 1) \
  X(DEQUANTIZE, 6, 1) \
  X(EMBEDDING_LOOKUP, 7, 1) \
  X(FLOOR, 8, 1) \
  X(FULLY_CONNECTED, 9, 1) \
  X(HASHTABLE_LOOKUP, 10, 1) \
  X(L2_NORMALIZATION, 11, 1) \
  X(L2_POOL_2D, 12, 1) \
  X(LOCAL_RESPONSE_NORMALIZATION, 13, 1) \
  X(LOGISTIC, 14, 1) \
  X(LSH_PROJECTION, 15, 1) \
  X(LSTM, 16, 1) \
  X(MAX_POOL_2D, 17, 1) \
  X(MUL, 18, 1) \
  X(RELU, 19, 1) \
  X(RELU1, 20, 1) \
  X(RELU6, 21, 1) \
  X(RESHAPE, 22, 1) \
  X(RESIZE_BILINEAR, 23, 1) \
  X(RNN, 24, 1) \
  X(SOFTMAX, 25, 1) \
  X(SPACE_TO_DEPTH, 26, 1) \
  X(SVDF, 27, 1) \
  X(TANH, 28, 1) \
  X(BATCH_TO_SPACE_ND, 29, 2) \
  X(DIV, 30, 2) \
  X(MEAN, 31, 2) \
  X(PAD, 32, 2) \
  X(SPACE_TO_BATCH_ND, 33, 2) \
  X(SQUEEZE, 34, 2) \
  X(STRIDED_SLICE, 35, 2) \
  X(SUB, 36, 2) \
  X(TRANSPOSE, 37, 2) \
  X(ABS, 38, 3) \
  X(ARGMAX, 39, 3) \
  X(ARGMIN, 40, 3) \
  X(AXIS_ALIGNED_BBOX_TRANSFORM, 41, 3) \
  X(BIDIRECTIONAL_SEQUENCE_LSTM, 42, 3) \
  X(BIDIRECTIONAL_SEQUENCE_RNN, 43, 3) \
  X(BOX_WITH_NMS_LIMIT, 44, 3) \
  X(CAST, 45, 3) \
  X(CHANNEL_SHUFFLE, 46, 3) \
  X(DETECTION_POSTPROCESSING, 47, 3) \
  X(EQUAL, 48, 3) \
  X(EXP, 49, 3) \
  X(EXPAND_DIMS, 50, 3) \
  X(GATHER, 51, 3) \
  X(GENERATE_PROPOSALS, 52, 3) \
  X(GREATER, 53, 3) \
  X(GREATER_EQUAL, 54, 3) \
  X(GROUPED_CONV_2D, 55, 3) \
  X(HEATMAP_MAX_KEYPOINT, 56, 3) \
  X(INSTANCE_NORMALIZATION, 57, 3) \
  X(LESS, 58, 3) \
  X(LESS_EQUAL, 59, 3) \
  X(LOG, 60, 3) \
  X(LOGICAL_AND, 61, 3) \
  X(LOGICAL_NOT, 62, 3) \
  X(LOGICAL_OR, 63, 3) \
  X(LOG_SOFTMAX, 64, 3) \
  X(MAXIMUM, 65, 3) \
  X(MINIMUM, 66, 3) \
  X(NEG, 67, 3) \
  X(NOT_EQUAL, 68, 3) \
  X(PAD_V2, 69, 3) \
  X(POW, 70, 3) \
  X(PRELU, 71, 3) \
  X(QUANTIZE, 72, 3) \
  X(QUANTIZED_16BIT_LSTM, 73, 3) \
  X(RANDOM_MULTINOMIAL, 74, 3) \
  X(REDUCE_ALL, 75, 3) \
  X(REDUCE_ANY, 76, 3) \
  X(REDUCE_MAX, 77, 3) \
  X(REDUCE_MIN, 78, 3) \
  X(REDUCE_PROD, 79, 3) \
  X(REDUCE_SUM, 80, 3) \
  X(ROI_ALIGN, 81, 3) \
  X(ROI_POOLING, 82, 3) \
  X(RSQRT, 83, 3) \
  X(SELECT, 84, 3) \
  X(SIN, 85, 3) \
  X(SLICE, 86, 3) \
  X(SPLIT, 87, 3) \
  X(SQRT, 88, 3) \
  X(TILE, 89, 3) \
  X(TOPK_V2, 90, 3) \
  X(TRANSPOSE_CONV_2D, 91, 3) \
  X(UNIDIRECTIONAL_SEQUENCE_LSTM, 92, 3) \
  X(UNIDIRECTIONAL_SEQUENCE_RNN, 93, 3) \
  X(RESIZE_NEAREST_NEIGHBOR, 94, 3) \
  X(QUANTIZED_LSTM, 95, 4) \
  X(IF, 96, 4) \
  X(WHILE, 97, 4) \
  X(ELU, 98, 4) \
  X(HARD_SWISH, 99, 4) \
  X(FILL, 100, 4) \
  X(RANK, 101, 4) \
  X(BATCH_MATMUL, 102, 6) \
  X(PACK, 103, 6) \
  X(MIRROR_PAD, 104, 7) \
  X(REVERSE, 105, 7) \
  X(OEM_OPERATION, 10000, 1)

enum class OperandType : int32_t {
#define NNRT_X_(name, value) name = value,
  NNRT_OPERAND_TYPE_LIST(NNRT_X_)
#undef NNRT_X_
};

enum class OperationType : int32_t {
#define NNRT_X_(name, value, level) name = value,
  NNRT_OPERATION_TYPE_LIST(NNRT_X_)
#undef NNRT_X_
};

// "TENSOR_FLOAT32", or nullptr for a value that is not a known NNAPI type (e.g. an extension type).
constexpr const char* operandTypeName(int32_t type) {
  switch (type) {
#define NNRT_X_(name, value) \
  case value:                \
    return #name;
    NNRT_OPERAND_TYPE_LIST(NNRT_X_)
#undef NNRT_X_
  }
  return nullptr;
}
constexpr const char* operationTypeName(int32_t type) {
  switch (type) {
#define NNRT_X_(name, value, level) \
  case value:                       \
    return #name;
    NNRT_OPERATION_TYPE_LIST(NNRT_X_)
#undef NNRT_X_
  }
  return nullptr;
}
// NNAPI feature level (1..7) that introduced an operation, 0 for unknown values.
constexpr int operationFeatureLevel(int32_t type) {
  switch (type) {
#define NNRT_X_(name, value, level) \
  case value:                       \
    return level;
    NNRT_OPERATION_TYPE_LIST(NNRT_X_)
#undef NNRT_X_
  }
  return 0;
}
inline const char* operandTypeName(OperandType t) { return operandTypeName(static_cast<int32_t>(t)); }
inline const char* operationTypeName(OperationType t) { return operationTypeName(static_cast<int32_t>(t)); }

// Extension types: the high 16 bits are the model's prefix for the extension, 0 for NNAPI types.
constexpr uint16_t extensionPrefix(int32_t type) { return static_cast<uint16_t>(static_cast<uint32_t>(type) >> 16); }
constexpr uint16_t typeWithinExtension(int32_t type) { return static_cast<uint16_t>(type & 0xFFFF); }
constexpr bool isExtensionType(int32_t type) { return extensionPrefix(type) != 0; }
// The model-wide code of an extension operand or operation type.
constexpr int32_t extensionType(uint16_t prefix, uint16_t typeWithinExtension) {
  return static_cast<int32_t>((static_cast<uint32_t>(prefix) << 16) | typeWithinExtension);
}

enum class ErrorStatus : int32_t {
  NONE = NNRT_STATUS_NONE,
  DEVICE_UNAVAILABLE = NNRT_STATUS_DEVICE_UNAVAILABLE,
  GENERAL_FAILURE = NNRT_STATUS_GENERAL_FAILURE,
  OUTPUT_INSUFFICIENT_SIZE = NNRT_STATUS_OUTPUT_INSUFFICIENT_SIZE,
  INVALID_ARGUMENT = NNRT_STATUS_INVALID_ARGUMENT,
  MISSED_DEADLINE_TRANSIENT = NNRT_STATUS_MISSED_DEADLINE_TRANSIENT,
  MISSED_DEADLINE_PERSISTENT = NNRT_STATUS_MISSED_DEADLINE_PERSISTENT,
  RESOURCE_EXHAUSTED_TRANSIENT = NNRT_STATUS_RESOURCE_EXHAUSTED_TRANSIENT,
  RESOURCE_EXHAUSTED_PERSISTENT = NNRT_STATUS_RESOURCE_EXHAUSTED_PERSISTENT,
};

constexpr const char* errorStatusName(ErrorStatus s) {
  switch (s) {
    case ErrorStatus::NONE: return "NONE";
    case ErrorStatus::DEVICE_UNAVAILABLE: return "DEVICE_UNAVAILABLE";
    case ErrorStatus::GENERAL_FAILURE: return "GENERAL_FAILURE";
    case ErrorStatus::OUTPUT_INSUFFICIENT_SIZE: return "OUTPUT_INSUFFICIENT_SIZE";
    case ErrorStatus::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case ErrorStatus::MISSED_DEADLINE_TRANSIENT: return "MISSED_DEADLINE_TRANSIENT";
    case ErrorStatus::MISSED_DEADLINE_PERSISTENT: return "MISSED_DEADLINE_PERSISTENT";
    case ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT: return "RESOURCE_EXHAUSTED_TRANSIENT";
    case ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT: return "RESOURCE_EXHAUSTED_PERSISTENT";
  }
  return "UNKNOWN_STATUS";
}

enum class DeviceType : int32_t {
  OTHER = NNRT_DEVICE_TYPE_OTHER,
  CPU = NNRT_DEVICE_TYPE_CPU,
  GPU = NNRT_DEVICE_TYPE_GPU,
  ACCELERATOR = NNRT_DEVICE_TYPE_ACCELERATOR,
};
enum class DeviceStatus : int32_t {
  AVAILABLE = NNRT_DEVICE_STATUS_AVAILABLE,
  BUSY = NNRT_DEVICE_STATUS_BUSY,
  OFFLINE = NNRT_DEVICE_STATUS_OFFLINE,
  UNKNOWN = NNRT_DEVICE_STATUS_UNKNOWN,
};

// Feature level a driver built on this SDK reports by default: NNAPI feature level 4 (Android 11,
// HAL 1.3).
inline constexpr int64_t kFeatureLevelHal13 = 30;

// ---- Errors -----------------------------------------------------------------------------------

struct Error {
  ErrorStatus status = ErrorStatus::GENERAL_FAILURE;
  std::string message;
};
template <class T = void>
using Result = Expected<T, Error>;

inline Unexpected<Error> fail(ErrorStatus status, std::string message) {
  return Unexpected<Error>(Error{status, std::move(message)});
}
inline Unexpected<Error> invalidArgument(std::string message) {
  return fail(ErrorStatus::INVALID_ARGUMENT, std::move(message));
}
inline Unexpected<Error> generalFailure(std::string message) {
  return fail(ErrorStatus::GENERAL_FAILURE, std::move(message));
}

// ---- Views over the C structs -----------------------------------------------------------------

inline std::span<const uint32_t> dimensions(const nnrt_operand& operand) {
  return {operand.dimensions, operand.rank};
}
inline std::span<const uint32_t> inputs(const nnrt_operation& operation) {
  return {operation.inputs, operation.input_count};
}
inline std::span<const uint32_t> outputs(const nnrt_operation& operation) {
  return {operation.outputs, operation.output_count};
}

class Subgraph {
 public:
  explicit Subgraph(const nnrt_subgraph& subgraph) : s_(&subgraph) {}
  std::span<const nnrt_operand> operands() const { return {s_->operands, s_->operand_count}; }
  std::span<const nnrt_operation> operations() const { return {s_->operations, s_->operation_count}; }
  std::span<const uint32_t> inputIndexes() const { return {s_->input_indexes, s_->input_count}; }
  std::span<const uint32_t> outputIndexes() const { return {s_->output_indexes, s_->output_count}; }
  const nnrt_subgraph& raw() const { return *s_; }

 private:
  const nnrt_subgraph* s_;
};

// A model as a driver receives it. Non-owning; see nnrt_model for how long the data lives.
class Model {
 public:
  explicit Model(const nnrt_model& model) : m_(&model) {}
  Subgraph main() const { return Subgraph(m_->main); }
  uint32_t referencedCount() const { return m_->referenced_count; }
  Subgraph referenced(uint32_t index) const { return Subgraph(m_->referenced[index]); }
  bool relaxComputationFloat32toFloat16() const { return m_->relax_computation_float32_to_float16 != 0; }
  const nnrt_model& raw() const { return *m_; }

  // The bytes of a constant operand (CONSTANT_COPY or CONSTANT_REFERENCE); an empty span for
  // every other lifetime and for a location outside the model's data.
  std::span<const uint8_t> constantBytes(const nnrt_operand& operand) const {
    const nnrt_data_location& loc = operand.location;
    if (operand.lifetime == NNRT_LIFETIME_CONSTANT_COPY) {
      if (uint64_t{loc.offset} + loc.length > m_->operand_values_size) return {};
      return {m_->operand_values + loc.offset, loc.length};
    }
    if (operand.lifetime == NNRT_LIFETIME_CONSTANT_REFERENCE) {
      if (loc.pool_index >= m_->pool_count) return {};
      const nnrt_memory_pool& pool = m_->pools[loc.pool_index];
      if (uint64_t{loc.offset} + loc.length > pool.size) return {};
      return {static_cast<const uint8_t*>(pool.host) + loc.offset, loc.length};
    }
    return {};
  }

  // The extension a type prefix stands for in this model, if any.
  std::optional<std::string_view> extensionName(uint16_t prefix) const {
    for (uint32_t i = 0; i < m_->extension_prefix_count; ++i) {
      if (m_->extension_prefixes[i].prefix == prefix) return std::string_view(m_->extension_prefixes[i].name);
    }
    return std::nullopt;
  }

 private:
  const nnrt_model* m_;
};

// An execution request. Buffer accessors check the location against the pools.
// ABI 1.1: a driver-managed buffer (Device::allocate), the nnrt_buffer* of NNRT_POOL_BUFFER pools.
// The runtime runs copies and executions on one buffer one at a time; it tracks whether the
// contents are initialized and which dimensions they have, so a driver need not.
class Buffer {
 public:
  virtual ~Buffer() = default;
  // The buffer's bytes for its current dimensions when the driver keeps them in host memory; the
  // SDK's Request then reads and writes NNRT_POOL_BUFFER arguments through it. Empty otherwise: the
  // driver then resolves such arguments itself (Request::buffer).
  virtual std::span<uint8_t> hostBytes() { return {}; }
  // Copies the contents out to `dst`, whose size is the buffer's size for its current dimensions.
  virtual Result<void> copyTo(std::span<uint8_t> dst) = 0;
  // Fills the buffer from `src`; `dimensions` (all known) become its dimensions, or keep the
  // allocated ones when empty.
  virtual Result<void> copyFrom(std::span<const uint8_t> src, std::span<const uint32_t> dimensions) = 0;
};

class Request {
 public:
  explicit Request(const nnrt_request& request) : r_(&request) {}
  std::span<const nnrt_request_argument> inputs() const { return {r_->inputs, r_->input_count}; }
  std::span<const nnrt_request_argument> outputs() const { return {r_->outputs, r_->output_count}; }
  const nnrt_request& raw() const { return *r_; }

  Result<std::span<const uint8_t>> inputBytes(uint32_t index) const {
    if (index >= r_->input_count) return invalidArgument("request input " + std::to_string(index) + " does not exist");
    auto bytes = locate(r_->inputs[index].location);
    if (!bytes) return invalidArgument("request input " + std::to_string(index) + " lies outside its memory pool");
    return std::span<const uint8_t>(bytes->data(), bytes->size());
  }
  Result<std::span<uint8_t>> outputBytes(uint32_t index) const {
    if (index >= r_->output_count) return invalidArgument("request output " + std::to_string(index) + " does not exist");
    auto bytes = locate(r_->outputs[index].location);
    if (!bytes) return invalidArgument("request output " + std::to_string(index) + " lies outside its memory pool");
    return *bytes;
  }
  // The driver-managed buffer behind a request pool, or null for a host pool.
  Buffer* buffer(uint32_t poolIndex) const {
    if (poolIndex >= r_->pool_count || r_->pools[poolIndex].kind != NNRT_POOL_BUFFER) return nullptr;
    return static_cast<Buffer*>(r_->pools[poolIndex].host);
  }

 private:
  std::optional<std::span<uint8_t>> locate(const nnrt_data_location& loc) const {
    if (loc.pool_index >= r_->pool_count) return std::nullopt;
    const nnrt_memory_pool& pool = r_->pools[loc.pool_index];
    if (uint64_t{loc.offset} + loc.length > pool.size || (pool.host == nullptr && loc.length > 0)) return std::nullopt;
    if (pool.kind == NNRT_POOL_BUFFER) {
      std::span<uint8_t> bytes = static_cast<Buffer*>(pool.host)->hostBytes();
      if (uint64_t{loc.offset} + loc.length > bytes.size()) return std::nullopt;
      return bytes.subspan(loc.offset, loc.length);
    }
    if (pool.kind != NNRT_POOL_HOST) return std::nullopt;
    return std::span<uint8_t>(static_cast<uint8_t*>(pool.host) + loc.offset, loc.length);
  }
  const nnrt_request* r_;
};

}  // namespace nnrt::driver
