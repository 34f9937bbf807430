/*
 * nnrt driver plugin ABI.
 *
 * The C boundary between the nnrt runtime (the host) and a driver plugin: one shared object that
 * exports NNRT_DRIVER_ENTRY_NAME and offers one or more devices. It mirrors Android's NN HAL 1.3
 * (IDevice, IPreparedModel) with plain C types. docs/plugin-abi.md is the long form of the rules
 * stated here.
 *
 * Rules that hold for every function:
 *  - Nothing but plain structs, fixed-width integers, `const char*` and function pointers crosses
 *    the boundary: no C++ type, no exception, no allocator. What one side allocates, that side frees.
 *  - Status codes are HAL 1.3 ErrorStatus values (nnrt_status). A call that can fail takes an
 *    optional `nnrt_reason*` (may be NULL) into which it writes one sentence for humans on failure.
 *  - Views the host passes in (models, requests, options) are valid only during the call unless the
 *    call says otherwise. Strings and tables a plugin returns stay valid until the plugin is closed.
 *  - Deadlines are absolute nanoseconds on CLOCK_MONOTONIC, 0 meaning none. Durations passed in are
 *    nanoseconds, 0 meaning none. Timing results are microseconds, UINT64_MAX meaning "not measured".
 *  - Every callback fires exactly once per call that takes it, possibly on another thread and
 *    possibly before the call that scheduled it returns.
 */
#ifndef NNRT_DRIVER_NNRT_DRIVER_H
#define NNRT_DRIVER_NNRT_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Versioning ------------------------------------------------------------------------------ */

/* A host refuses a plugin whose abi_major differs from its own. A newer abi_minor only appends
 * fields to the end of nnrt_driver_api; struct_size tells the host which fields exist. */
#define NNRT_DRIVER_ABI_MAJOR 1
#define NNRT_DRIVER_ABI_MINOR 1

/* The one symbol a plugin exports:
 *   const nnrt_driver_api* nnrt_driver_get_api(uint32_t host_abi_major);
 * It returns a pointer to a static, immutable table: the one for host_abi_major when the plugin
 * supports several, else its only one. The host refuses a table whose abi_major differs from its
 * own and names both versions. The function must not allocate, start threads or touch devices:
 * open() does that. */
#define NNRT_DRIVER_ENTRY_NAME "nnrt_driver_get_api"

/* Size of the reason buffer every fallible call may fill. */
#define NNRT_REASON_SIZE 256
/* Largest tensor rank an output shape can report. */
#define NNRT_MAX_RANK 8
/* Size of a compilation cache token, as ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN. */
#define NNRT_CACHE_TOKEN_SIZE 32
/* Upper bound on each of the cache file counts a device may ask for. */
#define NNRT_MAX_CACHE_FILES 32

/* ---- Enumerations (int32_t on the wire) ------------------------------------------------------ */

/* HAL 1.3 ErrorStatus. */
typedef int32_t nnrt_status;
#define NNRT_STATUS_NONE 0
#define NNRT_STATUS_DEVICE_UNAVAILABLE 1
#define NNRT_STATUS_GENERAL_FAILURE 2
#define NNRT_STATUS_OUTPUT_INSUFFICIENT_SIZE 3
#define NNRT_STATUS_INVALID_ARGUMENT 4
#define NNRT_STATUS_MISSED_DEADLINE_TRANSIENT 5
#define NNRT_STATUS_MISSED_DEADLINE_PERSISTENT 6
#define NNRT_STATUS_RESOURCE_EXHAUSTED_TRANSIENT 7
#define NNRT_STATUS_RESOURCE_EXHAUSTED_PERSISTENT 8

/* Device type, same values as NNAPI's DeviceTypeCode. */
#define NNRT_DEVICE_TYPE_OTHER 1
#define NNRT_DEVICE_TYPE_CPU 2
#define NNRT_DEVICE_TYPE_GPU 3
#define NNRT_DEVICE_TYPE_ACCELERATOR 4

/* HAL 1.3 DeviceStatus. */
#define NNRT_DEVICE_STATUS_AVAILABLE 0
#define NNRT_DEVICE_STATUS_BUSY 1
#define NNRT_DEVICE_STATUS_OFFLINE 2
#define NNRT_DEVICE_STATUS_UNKNOWN 3

/* HAL 1.3 OperandLifeTime. */
#define NNRT_LIFETIME_TEMPORARY_VARIABLE 0
#define NNRT_LIFETIME_SUBGRAPH_INPUT 1
#define NNRT_LIFETIME_SUBGRAPH_OUTPUT 2
#define NNRT_LIFETIME_CONSTANT_COPY 3      /* value in nnrt_model.operand_values at location.offset */
#define NNRT_LIFETIME_CONSTANT_REFERENCE 4 /* value in pools[location.pool_index] at location.offset */
#define NNRT_LIFETIME_NO_VALUE 5           /* optional argument omitted */
#define NNRT_LIFETIME_SUBGRAPH 6           /* location.offset = index into nnrt_model.referenced */

/* What nnrt_operand.extra holds. */
#define NNRT_EXTRA_NONE 0
#define NNRT_EXTRA_CHANNEL_QUANT 1 /* TENSOR_QUANT8_SYMM_PER_CHANNEL scales */
#define NNRT_EXTRA_EXTENSION 2     /* opaque bytes from ANeuralNetworksModel_setOperandExtensionData */

/* Execution preference and priority carry NNAPI's PreferenceCode / PriorityCode values. */
#define NNRT_PREFER_LOW_POWER 0
#define NNRT_PREFER_FAST_SINGLE_ANSWER 1
#define NNRT_PREFER_SUSTAINED_SPEED 2
#define NNRT_PRIORITY_LOW 90
#define NNRT_PRIORITY_MEDIUM 100
#define NNRT_PRIORITY_HIGH 110

/* Memory pool kinds. */
#define NNRT_POOL_HOST 0   /* host-addressable bytes at `host` */
#define NNRT_POOL_BUFFER 1 /* ABI 1.1, requests only: `host` is an nnrt_buffer* this driver allocated */

/* Operand and operation types are NNAPI's OperandCode / OperationCode values (int32_t). An
 * extension type is (prefix << 16) | type-within-extension, with the prefix mapped to an
 * extension name by nnrt_model.extension_prefixes. */

/* ---- Opaque handles (each side casts its own objects) ----------------------------------------- */

typedef struct nnrt_plugin nnrt_plugin;
typedef struct nnrt_device nnrt_device;
typedef struct nnrt_prepared_model nnrt_prepared_model;
typedef struct nnrt_fenced_execution nnrt_fenced_execution;
typedef struct nnrt_buffer nnrt_buffer; /* ABI 1.1: a driver-managed buffer (allocate) */
typedef struct nnrt_burst nnrt_burst;   /* ABI 1.1: a driver's per-burst state (configure_burst) */

/* ---- Small value types ----------------------------------------------------------------------- */

typedef struct nnrt_reason {
  char message[NNRT_REASON_SIZE]; /* NUL-terminated; empty when nothing was said */
} nnrt_reason;

typedef struct nnrt_option { /* one plugin option from runtime.yaml */
  const char* key;
  const char* value;
} nnrt_option;

typedef struct nnrt_perf_info { /* relative to the reference CPU = 1.0; lower is better */
  float exec_time;
  float power_usage;
} nnrt_perf_info;

typedef struct nnrt_operand_performance {
  int32_t type;
  nnrt_perf_info info;
} nnrt_operand_performance;

typedef struct nnrt_capabilities {
  nnrt_perf_info relaxed_float32_to_float16_scalar;
  nnrt_perf_info relaxed_float32_to_float16_tensor;
  const nnrt_operand_performance* operand_performance; /* sorted by type, no duplicates */
  uint32_t operand_performance_count;
  nnrt_perf_info if_performance;
  nnrt_perf_info while_performance;
} nnrt_capabilities;

typedef struct nnrt_extension_operand_type {
  uint16_t type; /* type within the extension */
  uint8_t is_tensor;
  uint32_t byte_size; /* of a scalar, or of one tensor element */
} nnrt_extension_operand_type;

typedef struct nnrt_extension {
  const char* name; /* e.g. "com.example.fibonacci" */
  const nnrt_extension_operand_type* operand_types;
  uint32_t operand_type_count;
} nnrt_extension;

/* ABI 1.1: one (operation, type) pair a device runs, for listings (`nnrt devices --operations`).
 * operand_type is the type of the operation's input 0 (for LSH_PROJECTION, its hash tensor). */
typedef struct nnrt_operation_support {
  int32_t operation;    /* NNAPI OperationCode */
  int32_t operand_type; /* NNAPI OperandCode */
} nnrt_operation_support;

/* ABI 1.1: one use of a driver-managed buffer: input or output io_index of the prepared model
 * prepared_models[model_index] of the allocate call, used with the given frequency in (0, 1]. */
typedef struct nnrt_buffer_role {
  uint32_t model_index;
  uint32_t io_index;
  float frequency;
} nnrt_buffer_role;

/* ABI 1.1: what a device prefers of the application's buffers (ANeuralNetworksCompilation_
 * getPreferredMemoryAlignment/Padding): alignment and padding in bytes, each a power of two. */
typedef struct nnrt_memory_preference {
  uint32_t alignment;
  uint32_t padding;
} nnrt_memory_preference;

typedef struct nnrt_timing { /* microseconds, UINT64_MAX = not measured */
  uint64_t time_on_device;
  uint64_t time_in_driver;
} nnrt_timing;

typedef struct nnrt_output_shape {
  uint32_t rank;
  uint32_t dimensions[NNRT_MAX_RANK];
  uint8_t is_sufficient; /* 0 when the caller's buffer was too small for this output */
} nnrt_output_shape;

/* ---- Model view ------------------------------------------------------------------------------ */

typedef struct nnrt_data_location {
  uint32_t pool_index;
  uint32_t offset;
  uint32_t length;
} nnrt_data_location;

typedef struct nnrt_memory_pool {
  int32_t kind; /* NNRT_POOL_HOST (always, in a model view) or NNRT_POOL_BUFFER */
  void* host;   /* HOST: start of the pool's bytes, read-only in a model view; BUFFER: the nnrt_buffer* */
  uint64_t size; /* HOST: bytes; BUFFER: the buffer's size for its current dimensions */
} nnrt_memory_pool;

typedef struct nnrt_operand {
  int32_t type;
  uint32_t rank;                /* 0 = unknown rank (tensors) or a scalar */
  const uint32_t* dimensions;   /* rank entries; 0 = unknown dimension */
  float scale;
  int32_t zero_point;
  int32_t lifetime;             /* NNRT_LIFETIME_* */
  nnrt_data_location location;  /* meaning depends on lifetime */
  uint32_t number_of_consumers; /* operations of this subgraph that read it */
  int32_t extra_kind;           /* NNRT_EXTRA_* */
  /* NNRT_EXTRA_CHANNEL_QUANT */
  const float* channel_scales;
  uint32_t channel_scale_count;
  uint32_t channel_dim;
  /* NNRT_EXTRA_EXTENSION */
  const uint8_t* extension_data;
  uint32_t extension_data_size;
} nnrt_operand;

typedef struct nnrt_operation {
  int32_t type;
  const uint32_t* inputs; /* operand indexes within the subgraph */
  uint32_t input_count;
  const uint32_t* outputs;
  uint32_t output_count;
} nnrt_operation;

typedef struct nnrt_subgraph {
  const nnrt_operand* operands;
  uint32_t operand_count;
  const nnrt_operation* operations; /* in a valid topological order */
  uint32_t operation_count;
  const uint32_t* input_indexes;
  uint32_t input_count;
  const uint32_t* output_indexes;
  uint32_t output_count;
} nnrt_subgraph;

typedef struct nnrt_extension_prefix {
  const char* name;
  uint16_t prefix;
} nnrt_extension_prefix;

/* A whole model. Valid during the call that receives it; in addition, the bytes of `pools` (large
 * constants) stay valid and unchanged until every prepared model made from this view is released,
 * so a driver may reference them instead of copying. `operand_values` must be copied. */
typedef struct nnrt_model {
  nnrt_subgraph main;
  const nnrt_subgraph* referenced; /* IF / WHILE bodies; NNRT_LIFETIME_SUBGRAPH operands index it */
  uint32_t referenced_count;
  const uint8_t* operand_values; /* small constants (NNRT_LIFETIME_CONSTANT_COPY) */
  uint64_t operand_values_size;
  const nnrt_memory_pool* pools; /* large constants (NNRT_LIFETIME_CONSTANT_REFERENCE) */
  uint32_t pool_count;
  uint8_t relax_computation_float32_to_float16;
  const nnrt_extension_prefix* extension_prefixes;
  uint32_t extension_prefix_count;
} nnrt_model;

/* ---- Request view ---------------------------------------------------------------------------- */

typedef struct nnrt_request_argument {
  uint8_t has_no_value;       /* omitted optional input / unused output */
  nnrt_data_location location; /* into nnrt_request.pools */
  uint32_t rank;               /* 0 = take the model's dimensions */
  const uint32_t* dimensions;  /* when rank > 0: fills in the model's unknown dimensions */
} nnrt_request_argument;

/* Inputs and outputs in the order of the main subgraph's input_indexes / output_indexes.
 * Input pools are read-only; output pools are written by the driver. A NNRT_POOL_BUFFER pool is
 * only ever given to the driver that allocated it, for a role it was allocated for, with offset 0
 * and the argument's whole length. */
typedef struct nnrt_request {
  const nnrt_request_argument* inputs;
  uint32_t input_count;
  const nnrt_request_argument* outputs;
  uint32_t output_count;
  const nnrt_memory_pool* pools;
  uint32_t pool_count;
} nnrt_request;

/* ---- Callbacks ------------------------------------------------------------------------------- */

/* Result of prepare_model_1_3 / prepare_model_from_cache_1_3. On success `prepared` is owned by
 * the host, which releases it with release_prepared_model. `reason` is valid during the call. */
typedef void (*nnrt_prepare_callback)(void* context, nnrt_status status, nnrt_prepared_model* prepared,
                                      const char* reason);

/* Result of execute_1_3. `shapes` (one per request output, valid during the call) is given on
 * success and on NNRT_STATUS_OUTPUT_INSUFFICIENT_SIZE, otherwise NULL with shape_count 0. */
typedef void (*nnrt_execute_callback)(void* context, nnrt_status status, const nnrt_output_shape* shapes,
                                      uint32_t shape_count, nnrt_timing timing, const char* reason);

/* Called by get_supported_operations_1_3 for each operation it does not support, with why. */
typedef void (*nnrt_explain_callback)(void* context, uint32_t operation_index, const char* reason);

/* ---- The function table ---------------------------------------------------------------------- */

typedef struct nnrt_driver_api {
  uint32_t abi_major;
  uint32_t abi_minor;
  uint32_t struct_size;       /* sizeof(nnrt_driver_api) as the plugin was built */
  const char* plugin_name;    /* e.g. "cpu" */
  const char* plugin_version; /* e.g. "1.0.0" */

  /* -- Plugin lifetime. open/close are never called concurrently for one plugin. -- */

  /* Starts the plugin with the options from runtime.yaml (valid during the call). On success
   * *plugin is the handle for every other call; on failure it is untouched and nothing leaks. */
  nnrt_status (*open)(const nnrt_option* options, uint32_t option_count, nnrt_plugin** plugin,
                      nnrt_reason* reason);
  /* Releases the plugin, every device and every string or table it handed out. The host has
   * released every prepared model and fenced execution first. */
  void (*close)(nnrt_plugin* plugin);
  /* Number of devices and the i-th device, fixed between open and close. Thread-safe. */
  uint32_t (*device_count)(const nnrt_plugin* plugin);
  nnrt_device* (*device_at)(const nnrt_plugin* plugin, uint32_t index);

  /* -- Device identity. All thread-safe; returned strings live until close. -- */

  const char* (*get_name)(const nnrt_device* device);           /* unique within the plugin */
  const char* (*get_version_string)(const nnrt_device* device); /* driver version */
  int32_t (*get_type)(const nnrt_device* device);               /* NNRT_DEVICE_TYPE_* */
  int64_t (*get_feature_level)(const nnrt_device* device);      /* NNAPI FeatureLevelCode value */
  int32_t (*get_status)(const nnrt_device* device);             /* NNRT_DEVICE_STATUS_*; fast */

  /* -- Device capabilities and support. Thread-safe. -- */

  /* Fills *capabilities; the table it points to lives until close. */
  nnrt_status (*get_capabilities_1_3)(const nnrt_device* device, nnrt_capabilities* capabilities,
                                      nnrt_reason* reason);
  /* Points *extensions at `*count` descriptions that live until close. */
  nnrt_status (*get_supported_extensions)(const nnrt_device* device, const nnrt_extension** extensions,
                                          uint32_t* count, nnrt_reason* reason);
  /* Writes supported[i] (0 or 1) for each main-subgraph operation i of `model`. For every
   * operation left unsupported it may call explain(explain_context, i, why); explain may be NULL. */
  nnrt_status (*get_supported_operations_1_3)(const nnrt_device* device, const nnrt_model* model,
                                              uint8_t* supported, nnrt_explain_callback explain,
                                              void* explain_context, nnrt_reason* reason);
  /* How many model-cache and data-cache files prepare_model_1_3 wants (each <= 32). */
  nnrt_status (*get_number_of_cache_files_needed)(const nnrt_device* device, uint32_t* model_cache_count,
                                                  uint32_t* data_cache_count, nnrt_reason* reason);

  /* -- Preparation. Thread-safe. -- */

  /* Compiles `model` for execution. The plugin copies what it needs from the view before this
   * returns (pool bytes excepted, see nnrt_model). Cache fds, when given (counts equal to
   * get_number_of_cache_files_needed), are open read-write and owned by the host; the plugin
   * writes its cache into them before calling back and does not keep them. The callback fires
   * exactly once, also when this returns an error (with the same status). */
  nnrt_status (*prepare_model_1_3)(const nnrt_device* device, const nnrt_model* model, int32_t preference,
                                   int32_t priority, uint64_t deadline_ns, const int* model_cache_fds,
                                   uint32_t model_cache_count, const int* data_cache_fds,
                                   uint32_t data_cache_count, const uint8_t* token,
                                   nnrt_prepare_callback callback, void* context, nnrt_reason* reason);
  /* Rebuilds a prepared model from cache files written by an earlier prepare_model_1_3 with the
   * same token. Files that are truncated, corrupted or written by another device or driver
   * version are refused with NNRT_STATUS_GENERAL_FAILURE, never trusted. Callback as above. */
  nnrt_status (*prepare_model_from_cache_1_3)(const nnrt_device* device, uint64_t deadline_ns,
                                              const int* model_cache_fds, uint32_t model_cache_count,
                                              const int* data_cache_fds, uint32_t data_cache_count,
                                              const uint8_t* token, nnrt_prepare_callback callback,
                                              void* context, nnrt_reason* reason);
  /* Releases a prepared model. The host calls it once, after every execution on it finished. */
  void (*release_prepared_model)(nnrt_prepared_model* prepared);

  /* -- Execution on a prepared model. Any number of calls may run at once on one prepared model. -- */

  /* Runs `request` and returns when done. `shapes` has request->output_count entries to fill on
   * success and on OUTPUT_INSUFFICIENT_SIZE; `timing` is filled when `measure` is non-zero
   * (otherwise set to UINT64_MAX). loop_timeout_ns bounds each WHILE loop (0 = the default 2 s). */
  nnrt_status (*execute_synchronously_1_3)(nnrt_prepared_model* prepared, const nnrt_request* request,
                                           uint8_t measure, uint64_t deadline_ns, uint64_t loop_timeout_ns,
                                           nnrt_output_shape* shapes, uint32_t shape_count,
                                           nnrt_timing* timing, nnrt_reason* reason);
  /* Launches `request` in the background. The request view and its pools stay valid until the
   * callback fires. The callback fires exactly once, also when this returns an error. */
  nnrt_status (*execute_1_3)(nnrt_prepared_model* prepared, const nnrt_request* request, uint8_t measure,
                             uint64_t deadline_ns, uint64_t loop_timeout_ns, nnrt_execute_callback callback,
                             void* context, nnrt_reason* reason);
  /* Launches `request` after every fd in wait_fds (sync fences or eventfds, owned by the host)
   * becomes readable; `duration_ns` bounds the run from then. On success *sync_fence_fd is a
   * new fd owned by the host that becomes readable when the run ends (or -1 if it already
   * ended) and *execution is a handle to query with get_fenced_execution_info and release with
   * release_fenced_execution. The request view stays valid until the run ends. May be NULL in the
   * table when the driver does not offer fenced execution. */
  nnrt_status (*execute_fenced)(nnrt_prepared_model* prepared, const nnrt_request* request,
                                const int* wait_fds, uint32_t wait_count, uint8_t measure,
                                uint64_t deadline_ns, uint64_t loop_timeout_ns, uint64_t duration_ns,
                                int* sync_fence_fd, nnrt_fenced_execution** execution, nnrt_reason* reason);
  /* Status of a finished fenced run, timing from launch and from the fences being signalled. */
  nnrt_status (*get_fenced_execution_info)(nnrt_fenced_execution* execution, nnrt_status* run_status,
                                           nnrt_timing* timing_launched, nnrt_timing* timing_fenced,
                                           nnrt_reason* reason);
  void (*release_fenced_execution)(nnrt_fenced_execution* execution);

  /* ---- ABI 1.1. The host reads an entry below only when struct_size covers it; each may be NULL. */

  /* The (operation, type) pairs the device runs, sorted by operation then type, no duplicates; the
   * table lives until close. A listing for people and tools: get_supported_operations_1_3 stays the
   * authority for a given model (shapes, values and options can still be refused there). An empty
   * table, or a NULL entry, means the driver does not declare one. */
  nnrt_status (*get_operation_table)(const nnrt_device* device, const nnrt_operation_support** table,
                                     uint32_t* count, nnrt_reason* reason);

  /* -- Driver-managed buffers (memory domains, ANeuralNetworksMemory_createFromDesc). Optional:
   *    allocate NULL means not offered (the runtime then uses host memory); when allocate is given,
   *    the three buffer entries after it are given too. -- */

  /* Allocates a buffer for one operand used in the given roles of `prepared_models` (each one this
   * device prepared and the host still holds), with `dimensions` (rank 0 = unknown rank, a 0 entry
   * = unknown dimension; the model operands of every role are compatible with them). `type`,
   * `scale` and `zero_point` are the operands' (NNAPI OperandCode). The buffer starts
   * uninitialized. On success *buffer is owned by the host, which releases it with
   * release_buffer after every execution and copy using it ended. Thread-safe. */
  nnrt_status (*allocate)(const nnrt_device* device, int32_t type, float scale, int32_t zero_point,
                          uint32_t rank, const uint32_t* dimensions, nnrt_prepared_model* const* prepared_models,
                          uint32_t prepared_model_count, const nnrt_buffer_role* input_roles,
                          uint32_t input_role_count, const nnrt_buffer_role* output_roles,
                          uint32_t output_role_count, nnrt_buffer** buffer, nnrt_reason* reason);
  /* Copies the buffer's contents into `dst` (a NNRT_POOL_HOST pool valid during the call), whose size
   * is the buffer's size for its current dimensions. Fails when the buffer is uninitialized. */
  nnrt_status (*buffer_copy_to)(nnrt_buffer* buffer, const nnrt_memory_pool* dst, nnrt_reason* reason);
  /* Fills the buffer from `src` (a NNRT_POOL_HOST pool valid during the call) and sets its
   * dimensions to `dimensions` (rank entries, every one known; rank 0 keeps the allocated ones). */
  nnrt_status (*buffer_copy_from)(nnrt_buffer* buffer, const nnrt_memory_pool* src, uint32_t rank,
                                  const uint32_t* dimensions, nnrt_reason* reason);
  /* Frees the buffer. Called once. */
  void (*release_buffer)(nnrt_buffer* buffer);

  /* -- Memory preference. Optional (NULL: alignment 64, padding 1). Thread-safe. -- */

  /* The alignment and padding this device prefers for the application's input and output buffers
   * (ANeuralNetworksCompilation_getPreferredMemoryAlignment/Padding report the largest over the
   * devices of a compilation). Each a power of two; alignment at most 4096, padding at most 4096. */
  void (*get_memory_preference)(const nnrt_device* device, nnrt_memory_preference* preference);

  /* -- Bursts (ANeuralNetworksBurst). Optional: configure_burst NULL means not offered (a burst
   *    then runs through execute_synchronously_1_3); when given, the two entries after it are given
   *    too. -- */

  /* Creates the driver's state for a sequence of executions of `prepared` (e.g. cached memory
   * mappings). On success *burst is owned by the host, which releases it with release_burst before
   * releasing `prepared`. Thread-safe. */
  nnrt_status (*configure_burst)(nnrt_prepared_model* prepared, nnrt_burst** burst, nnrt_reason* reason);
  /* As execute_synchronously_1_3, through the burst. The host runs one execution at a time on a
   * burst, so the driver needs no lock for its per-burst state. A pool's `host` pointer may repeat
   * from one execution to the next with the same bytes behind it (a cache key the driver may use). */
  nnrt_status (*execute_burst)(nnrt_burst* burst, const nnrt_request* request, uint8_t measure,
                               uint64_t deadline_ns, uint64_t loop_timeout_ns, nnrt_output_shape* shapes,
                               uint32_t shape_count, nnrt_timing* timing, nnrt_reason* reason);
  void (*release_burst)(nnrt_burst* burst);
} nnrt_driver_api;

/* Signature of the exported entry point. */
typedef const nnrt_driver_api* (*nnrt_driver_get_api_fn)(uint32_t host_abi_major);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* NNRT_DRIVER_NNRT_DRIVER_H */
