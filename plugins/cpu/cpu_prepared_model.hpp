// A model prepared for the cpu driver: an immutable copy of what execution needs (operand
// descriptions, small constants, pointers to pool constants, the kernel of every operation and the
// parameters and shapes that are known before execution).
//
// Thread safety: after create() nothing in a CpuPreparedModel changes but the step times of the
// option `profile`, which executions add under the profile's mutex. Each execution keeps its
// state (shapes, buffers, a memory arena) on its own, so any number of executions may run at once.
// The only shared objects are the device's oneTBB task arena, which is thread-safe, and the model's
// pool bytes, which are read-only.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <tbb/task_arena.h>

#include "nnrt/driver/ops/operation.hpp"
#include "nnrt/driver/driver.hpp"
#include "plugins/cpu/core_lease.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/fast_path.hpp"
#include "plugins/cpu/kernels/fused_elementwise.hpp"
#include "plugins/cpu/kernels/shuffle_gather.hpp"

namespace nnrt::cpu {

class CpuPreparedModel : public driver::PreparedModel {
 public:
  // Prepares `model`, whose every operation selectKernel() accepts (else INVALID_ARGUMENT naming the
  // first that it refuses). Copies CONSTANT_COPY values; references CONSTANT_REFERENCE values, which
  // stay valid until this object is released (see nnrt_model). Reference kernels run inside
  // `threads` holding `lease` shared; the fast kernels `fast` (may be null) prepares hold it whole.
  // Light operations with fewer than `minElements` output elements are not offered to `fast`, nor
  // kept on it when CONCATENATIONs would be its only kernels (fast_path.hpp). With `fuse`, runs of
  // float32 element-wise operations run as one kernel each (fuseElementwiseSteps). With a
  // `profilePath`, every execution times its steps, and the release of this object appends their
  // medians to that file (writeProfile).
  static driver::Result<std::unique_ptr<CpuPreparedModel>> create(const driver::Model& model,
                                                                  std::shared_ptr<tbb::task_arena> threads,
                                                                  std::shared_ptr<CoreLease> lease,
                                                                  std::shared_ptr<FastLayer> fast,
                                                                  size_t minElements = kFastMinElements,
                                                                  bool fuse = true, std::string profilePath = {});
  ~CpuPreparedModel() override;

  // Binds the request, runs every operation in order and writes the model outputs into the request's
  // buffers. Thread-safe. See the .cpp for the status of each failure.
  driver::Result<driver::ExecutionResult> executeSynchronously_1_3(
      const driver::Request& request, const driver::ExecuteOptions& options) override;

 private:
  friend class CpuExecution;

  struct OperandInfo {
    int32_t type = 0;
    std::vector<uint32_t> dims;  // as declared; 0 = unknown
    float scale = 0.0f;
    int32_t zeroPoint = 0;
    int32_t lifetime = 0;
    const void* constant = nullptr;  // CONSTANT_COPY (in constants_) or CONSTANT_REFERENCE (in a pool)
    size_t constantLength = 0;
    int32_t modelOutput = -1;  // position among the model outputs, -1 if not one
    // Per-channel quantization (TENSOR_QUANT8_SYMM_PER_CHANNEL): the scales, and a description
    // whose channel_scales point into them (the rest as the model declared), for the kernels.
    std::vector<float> channelScales;
    nnrt_operand perChannel{};
  };
  struct FusedSteps;
  struct Step {
    uint32_t index = 0;  // operation index in the model (the first one's for fused steps)
    int32_t type = 0;
    std::vector<uint32_t> inputs, outputs;
    const KernelEntry* kernel = nullptr;
    // Known at preparation when every input shape and parameter was: output shapes and parameters.
    bool isStatic = false;
    std::vector<ops::Shape> outputShapes;
    OpParams params;
    // SLICE, SPLIT: with those shapes, output k is the run of input 0's bytes at viewOffsets[k]
    // (viewOffsets in the .cpp); empty when the outputs are copied.
    std::vector<int64_t> viewOffsets;
    // The fast layer's kernel for those shapes and parameters (null: the reference kernel runs).
    std::unique_ptr<FastKernel> fast;
    // The fast layer's form of the products the reference kernel does over constant weights at every
    // time step (KernelEntry::stepMatrices; null: none), taken while the execution holds every core.
    std::unique_ptr<detail::PreparedProducts> products;
    // Whether the step runs on the fast layer's threads: a fast kernel, or prepared products.
    bool usesFastLayer() const { return fast != nullptr || products != nullptr; }
    // Input 0 is written by a fast kernel in the layer's own layout (FastLayer::chain): this step's
    // fast kernel runs exactly when that one's did, else the reference kernel runs.
    bool chainedInput = false;
    // The element-wise operations after this CONV_2D or FULLY_CONNECTED that its fast kernel applies
    // to its output (matchEpilogue): `outputs` is then theirs, and the reference kernel, when it runs,
    // is followed by applyEpilogue. `absorbed`: their operation indices and types (for the profile).
    Epilogue epilogue;
    std::vector<std::pair<uint32_t, int32_t>> absorbed;
    // Epilogue::residual: the residual is the last of `inputs` (after the operation's own), and
    // the output must hold it when the fast kernel runs; planTemporaries gives the output the
    // residual's bytes when nothing reads the residual later, else the step copies it there.
    bool residualInput = false;
    // TRANSPOSEs folded into this BATCH_MATMUL's fast kernel (foldTransposes): for input `index` (or
    // the output, KernelOptions::Strided::kOutput) the operand the operation named, and the TRANSPOSE's
    // permutation; `inputs` and `outputs` name the TRANSPOSE's input, or its output, instead. When
    // the reference kernel runs, the driver transposes those operands itself.
    struct FoldedTranspose {
      int index = 0;
      uint32_t operand = 0;
      std::vector<uint32_t> perm;
    };
    std::vector<FoldedTranspose> folded;
    // Why the operation cannot run (values or shapes its signature allows but it does not): the step
    // fails when it runs, as Android's CPU path does (selectKernel's `deferred`). Empty: it runs.
    std::string invalid;
    // Set for a run of element-wise operations fused into one kernel (fuseElementwiseSteps); the
    // other fields are then those of its first operation.
    std::unique_ptr<const FusedSteps> fused;
  };
  // Consecutive float32 element-wise steps with one output shape, run block by block as one kernel
  // that writes only the values later steps or the request read. When an input does not have its
  // prepared shape at execution, the members run one by one instead.
  struct FusedSteps {
    std::vector<Step> members;
    std::vector<uint32_t> inputs;  // the operands read from outside, as the kernel's inputs
    struct Output {
      uint32_t member = 0, k = 0;  // output k of members[member]
    };
    std::vector<Output> outputs;  // the kernel's outputs, in its order
    FusedElementwise kernel;
    // Set for a CHANNEL_SHUFFLE with the CONCATENATION before it and the SLICEs after it
    // (fuseChannelShuffles): the kernel that runs instead of `kernel`, reading the pieces (`inputs`).
    std::optional<ShuffleGather> shuffle;
  };

  CpuPreparedModel() = default;
  driver::Result<void> copyOperands(const driver::Model& model);
  driver::Result<void> planSteps(const driver::Model& model);
  // Element-wise operations that follow operation `i` (a float32 convolution or FULLY_CONNECTED
  // without fused activation, or a BATCH_MATMUL, decoded as `params`) and read nothing else: SiLU as
  // LOGISTIC and MUL of its output, or one HARD_SWISH, LOGISTIC, TANH, PRELU by one constant slope, or
  // MUL or DIV by one constant; and after a CONV_2D (with `residuals`), alone or after SiLU, an ADD
  // of a float32 tensor of its shape, other than its inputs, that a model input or an earlier
  // operation holds. Its output must be a temporary that only they read. None when there are no such
  // operations.
  struct EpilogueMatch {
    Epilogue epilogue;
    std::vector<uint32_t> operations;  // indices of the absorbed operations
    uint32_t output = 0;               // the operand the last of them writes
    uint32_t residual = 0;             // Epilogue::residual: the tensor added
  };
  // A float32 temporary the request never sees: the kinds of operand a fused kernel may leave unwritten.
  bool internalFloat(uint32_t operand) const;
  EpilogueMatch matchEpilogue(std::span<const nnrt_operation> operations, uint32_t i,
                              const std::vector<uint32_t>& readers, const OpParams& params,
                              bool residuals = true) const;
  // A float32 BATCH_MATMUL `step` (operation `i`, static, its epilogue `match`) reading the result of a
  // TRANSPOSE that nothing else reads, or whose result only a TRANSPOSE reads (attention's heads split
  // and merged): its fast kernel reads the TRANSPOSE's input, or writes its output, through strides,
  // and the TRANSPOSEs take no step. Returns whether it did; `absorbed` marks the later operations
  // it took, `written` the operands now written.
  bool foldTransposes(Step& step, const ops::OpArgs& args, std::span<const nnrt_operation> operations, uint32_t i,
                      const std::vector<uint32_t>& readers, const std::vector<int32_t>& producer,
                      const EpilogueMatch& match, std::vector<bool>& absorbed, std::vector<bool>& written);
  void chainFastSteps();
  // The fast layer's products over the constant matrices of `step` (KernelEntry::stepMatrices).
  void prepareProducts(Step& step, SharedForms& shared) const;
  void fuseElementwiseSteps();
  void fuseChannelShuffles();
  // A static float32 CONCATENATION over the last axis: what both fusions read from its pieces.
  bool concatenatesFloatsOverLastAxis(const Step& step) const;
  template <typename JoinsRun>
  void flattenConcatenations(const JoinsRun& joinsRun);
  void planTemporaries();

  // The device option `profile`: the step times of the executions that ran every step, in bounded
  // memory (a long-running application keeps its profile on): their sum over all executions, and the
  // last kKept executions' times for the medians.
  struct Profile {
    static constexpr size_t kKept = 4096;
    std::string path;
    std::mutex mutex;
    uint64_t executions = 0;
    std::vector<uint64_t> totalNs;                // [step]
    std::vector<std::vector<uint64_t>> recentNs;  // [step][execution % kKept]
    void record(const std::vector<uint64_t>& stepNs);
  };
  // Appends to profile_->path one line per step (its operations, the kernel that ran, the median over
  // the last Profile::kKept executions and the mean over all) under a header line; nothing when no
  // execution completed.
  void writeProfile() const;

  std::vector<OperandInfo> operands_;
  std::shared_ptr<FastLayer> fastLayer_;  // declared before steps_, so it outlives their fast kernels
  std::vector<Step> steps_;
  std::vector<uint32_t> inputIndexes_, outputIndexes_;
  std::vector<uint8_t> constants_;  // the CONSTANT_COPY values, each at a 16-byte aligned offset
  bool relaxed_ = false;
  size_t staticTemporaryBytes_ = 0;  // first arena block of an execution
  // Temporaries whose size preparation knows share one block of plannedBytes_ by lifetime
  // (planTemporaries): each at plannedOffset_ (-1: placed in the arena when written), of plannedSize_.
  std::vector<int64_t> plannedOffset_;
  std::vector<uint64_t> plannedSize_;
  size_t plannedBytes_ = 0;
  mutable ArenaPool arenas_;         // kept between executions
  // What an execution keeps of its own (the operands' runtime values, the argument lists of the
  // step it runs), kept between executions like the arenas: an execution of a model whose shapes
  // preparation knew allocates nothing on the heap (cpu_execution.cpp).
  struct ExecutionState;
  struct ExecutionStateDelete {
    void operator()(ExecutionState* state) const;
  };
  using ExecutionStatePtr = std::unique_ptr<ExecutionState, ExecutionStateDelete>;
  mutable std::mutex statesMutex_;
  mutable std::vector<ExecutionStatePtr> freeStates_;
  bool hasFastSteps_ = false;        // executions then hold every core (CoreLease)
  size_t minElements_ = kFastMinElements;
  std::shared_ptr<tbb::task_arena> threads_;
  std::shared_ptr<CoreLease> lease_;
  std::unique_ptr<Profile> profile_;  // null: not profiled
};

}  // namespace nnrt::cpu
