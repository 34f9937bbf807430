// What the cpu driver can run: one table of (operation, type of input 0) -> kernel entry, the support
// decision built on it (used alike by getSupportedOperations_1_3 and prepareModel_1_3), and the
// adapters that call the kernels of kernels/ with decoded parameters.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "nnrt/driver/ops/operation.hpp"
#include "nnrt/driver/ops/params.hpp"
#include "nnrt/driver/types.hpp"
#include "plugins/cpu/execution_arena.hpp"

namespace nnrt::cpu {

// The decoded parameters of one operation (std::monostate for operations that take none).
using OpParams =
    std::variant<std::monostate, ops::BinaryParams, ops::FullyConnectedParams, ops::Conv2DParams,
                 ops::DepthwiseConv2DParams, ops::Pool2DParams, ops::SoftmaxParams, ops::ReshapeParams,
                 ops::ConcatenationParams, ops::SqueezeParams, ops::TransposeParams, ops::PadParams,
                 ops::MeanParams, ops::RoiParams, ops::BoxWithNmsLimitParams, ops::GenerateProposalsParams,
                 ops::DetectionPostprocessingParams, ops::GroupedConv2DParams, ops::TransposeConv2DParams,
                 ops::BatchMatmulParams>;

// For an operation whose output shapes depend on its data (KernelEntry::shapesFromData): records
// output k's shape, once the kernel knows it, and returns where its bytes go (exactly its size).
using PlaceOutputFn = std::function<driver::Result<void*>(size_t k, const ops::Shape& shape)>;

// One operation at execution, every shape and value known: `op.inputs` carry runtime shapes and
// data, `op.outputs` runtime shapes; `outputData[i]` is where output i's bytes go (exactly its size).
struct KernelCall {
  const ops::OpArgs& op;
  std::span<void* const> outputData;
  const OpParams& params;
  ExecutionArena& scratch;  // the execution's memory, for layout changes
  // Set for KernelEntry::shapesFromData only: outputData is then empty and the kernel places every
  // output through it, once.
  const PlaceOutputFn* placeOutput = nullptr;
};

using RunFn = driver::Result<void> (*)(const KernelCall& call);

struct KernelEntry {
  driver::OperationType operation;
  driver::OperandType inputType;  // the type of input 0
  // Decodes the parameters through the SDK operation library (INVALID_ARGUMENT when something is not known yet).
  driver::Result<OpParams> (*decode)(const ops::OpArgs& op);
  // Runs the kernel. Fails only on a driver bug (parameters of the wrong kind).
  RunFn run;
  // A limit of this driver inside the (operation, type) pair, e.g. per-channel quantized filters:
  // returns why the operation is not supported, or "" when it is. May be null.
  std::string (*limit)(const ops::OpArgs& op) = nullptr;
  // RESHAPE, SQUEEZE: output 0 holds input 0's bytes unchanged, so a temporary output may simply
  // point at input 0 instead of being copied.
  bool outputIsInput0 = false;
  // Inputs may have a dimension of 0 (Android's allowZeroSizedInput: the boxes left by
  // BOX_WITH_NMS_LIMIT); the outputs then have the 0 that shape inference passes on. Other operations
  // refuse such inputs at execution.
  bool zeroSizedInputs = false;
  // The output shapes are known only once the kernel has run (the boxes BOX_WITH_NMS_LIMIT keeps): the
  // kernel places its outputs through KernelCall::placeOutput.
  bool shapesFromData = false;
  // The inputs (2-D weights) the kernel multiplies a vector by at every time step, through
  // detail::gemvAccumulate: the recurrent operations. When they are constants the fast layer may
  // prepare those products (FastLayer::prepareProducts). Empty for other operations.
  std::span<const uint32_t> stepMatrices{};
};

// Short names for the rows of the kernel tables (each table file says `using namespace table_names;`).
namespace table_names {
using T = driver::OperationType;
constexpr auto F16 = driver::OperandType::TENSOR_FLOAT16;
constexpr auto F32 = driver::OperandType::TENSOR_FLOAT32;
constexpr auto I32 = driver::OperandType::TENSOR_INT32;
constexpr auto Q8 = driver::OperandType::TENSOR_QUANT8_ASYMM;
constexpr auto Q8S = driver::OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
constexpr auto Q8Symm = driver::OperandType::TENSOR_QUANT8_SYMM;
constexpr auto Q8C = driver::OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL;
constexpr auto Q16A = driver::OperandType::TENSOR_QUANT16_ASYMM;  // AXIS_ALIGNED_BBOX_TRANSFORM's boxes
constexpr auto I32Scalar = driver::OperandType::INT32;  // PACK's input 0, its axis
}  // namespace table_names

// The kernel tables, one per family of operations (a new family adds its own cpu_ops_<family>.cpp
// and joins kernelTables()); selectKernel looks through all of them, and docs/cpu-operations.md is
// generated from them.
std::span<const KernelEntry> basicKernels();   // cpu_operations.cpp: element-wise, conv, pools, shapes
std::span<const KernelEntry> tensorKernels();  // cpu_ops_tensor.cpp: space/depth/batch moves, slices, lookups
std::span<const KernelEntry> imageKernels();   // cpu_ops_image.cpp: normalization, resizing, dequantization
std::span<const KernelEntry> recurrentKernels();  // cpu_ops_recurrent.cpp: RNN, SVDF, LSTM
std::span<const KernelEntry> quantizedLstmKernels();  // cpu_ops_quantized_lstm.cpp: QUANTIZED_16BIT_LSTM, QUANTIZED_LSTM
std::span<const KernelEntry> mathKernels();  // cpu_ops_math.cpp: unary math, comparisons, min/max, logic, SELECT
std::span<const KernelEntry> reduceKernels();  // cpu_ops_reduce.cpp: REDUCE_*, ARGMAX, ARGMIN, TOPK_V2
std::span<const KernelEntry> nonlinearKernels();  // cpu_ops_nonlinear.cpp: PRELU, ELU, HARD_SWISH, POW, LOG_SOFTMAX, CAST, QUANTIZE, FILL
std::span<const KernelEntry> tensor2Kernels();  // cpu_ops_tensor2.cpp: slice, split, tile, gather, pads, pack, ...
std::span<const KernelEntry> conv2Kernels();  // cpu_ops_conv2.cpp: grouped/transpose conv, nearest resize, instance norm, batch matmul
std::span<const KernelEntry> detectionKernels();  // cpu_ops_detection.cpp: boxes, NMS, proposals, ROI pooling
std::vector<std::span<const KernelEntry>> kernelTables();

// The kernel entry that runs `op` (declared shapes, constant values) or, as INVALID_ARGUMENT, one
// sentence saying why this driver cannot run it: an operation or type without a kernel, a limit of
// the kernel, or ops::validate refusing the operation. Thread-safe.
// With `deferred`, an operation whose types and operand counts are valid (Check::Signature, what
// ANeuralNetworksModel_addOperation checks) but whose values or shapes are not is accepted, the reason
// in *deferred: as Android's CPU path, it then fails when it runs (OP_FAILED), not when it is compiled.
driver::Result<const KernelEntry*> selectKernel(const ops::OpArgs& op, std::string* deferred = nullptr);

}  // namespace nnrt::cpu
