// Execution of a CpuPreparedModel. One CpuExecution per call holds everything that changes while a
// request runs (runtime shapes, buffers, the arena), so executions never share mutable state. What it
// holds comes from the prepared model's pools (ExecutionState, the arenas) and goes back after the
// run: an execution of a model whose shapes preparation knew does not allocate on the heap.
//
// Statuses: INVALID_ARGUMENT for a request that does not fit the model (counts, buffer bounds, shapes
// that contradict the model, dimensions left unknown); OUTPUT_INSUFFICIENT_SIZE (as a result, with
// every output's shape) when an output buffer is too small; MISSED_DEADLINE_TRANSIENT when the
// deadline passes before an operation starts; GENERAL_FAILURE when a kernel fails.
#include <algorithm>
#include <array>
#include <exception>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>

#include "nnrt/driver/clock.hpp"
#include "nnrt/driver/ops/operand_types.hpp"
#include "plugins/cpu/cpu_prepared_model.hpp"
#include "plugins/cpu/kernels/tensor_shape.hpp"

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace nnrt::cpu {

using driver::Result;

namespace {

// ThreadSanitizer does not see oneTBB's synchronization (the library is not instrumented): work
// handed to oneTBB declares the hand-off (release) and its pick-up (acquire). No-ops in other builds.
void handOff([[maybe_unused]] void* addr, [[maybe_unused]] bool acquire) {
#if defined(__SANITIZE_THREAD__)
  acquire ? __tsan_acquire(addr) : __tsan_release(addr);
#endif
}

std::string operationLabel(uint32_t index, int32_t type) {
  return "operation " + std::to_string(index) + " (" + ops::operationName(type) + ")";
}

bool sameDims(std::span<const uint32_t> a, std::span<const uint32_t> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

// An operand's dimensions at execution, held in place: at most NNRT_MAX_RANK of them, the most the
// driver ABI carries (an operation whose output would have more fails, CpuExecution::placeOutput).
class RuntimeDims {
 public:
  static constexpr size_t kCapacity = NNRT_MAX_RANK;

  // False, and nothing changed, when `dims` has more than kCapacity entries.
  bool assign(std::span<const uint32_t> dims) {
    if (dims.size() > kCapacity) return false;
    std::copy(dims.begin(), dims.end(), dims_.begin());
    rank_ = static_cast<uint8_t>(dims.size());
    return true;
  }
  operator std::span<const uint32_t>() const { return {dims_.data(), rank_}; }
  uint32_t* begin() { return dims_.data(); }
  uint32_t* end() { return dims_.data() + rank_; }
  const uint32_t* begin() const { return dims_.data(); }
  const uint32_t* end() const { return dims_.data() + rank_; }
  size_t size() const { return rank_; }
  bool empty() const { return rank_ == 0; }

 private:
  std::array<uint32_t, kCapacity> dims_{};
  uint8_t rank_ = 0;
};

// "request input 3", for an error message.
std::string requestArgument(const char* kind, uint32_t k) {
  return std::string("request ") + kind + " " + std::to_string(k);
}

// Into `out` (when given): `declared` with its unknown dimensions taken from `given` (rank 0 = nothing
// given). Fails when the two disagree on the rank or on a known dimension; `kind` and `k` name the
// request's argument.
Result<void> mergeDims(std::span<const uint32_t> declared, std::span<const uint32_t> given, const char* kind,
                       uint32_t k, RuntimeDims* out) {
  if (!given.empty() && !declared.empty() && declared.size() != given.size()) {
    return driver::invalidArgument(requestArgument(kind, k) + " has rank " + std::to_string(given.size()) +
                                   " in the request, but " + std::to_string(declared.size()) + " in the model");
  }
  for (size_t d = 0; d < declared.size() && !given.empty(); ++d) {
    if (declared[d] != 0 && given[d] != 0 && declared[d] != given[d]) {
      return driver::invalidArgument(requestArgument(kind, k) + " is " + ops::shapeToString(given) +
                                     " in the request, but " + ops::shapeToString(declared) + " in the model");
    }
  }
  if (out == nullptr) return {};
  if (!out->assign(given.empty() ? declared : given))
    return driver::invalidArgument(requestArgument(kind, k) + " has more than " + std::to_string(NNRT_MAX_RANK) + " dimensions");
  for (size_t d = 0; d < declared.size(); ++d) {
    uint32_t& dim = out->begin()[d];
    if (dim == 0) dim = declared[d];
  }
  return {};
}

// The runtime state of one operand.
struct Value {
  RuntimeDims dims;
  const void* data = nullptr;
  size_t length = 0;
  bool omitted = false;
  bool sufficient = true;    // model outputs: the request's buffer was large enough
  bool writtenFast = false;  // by a fast kernel (in the fast layer's layout when chained, Step::chainedInput)
};

}  // namespace

// Kept between executions (CpuPreparedModel::freeStates_): vectors that keep their capacity.
struct CpuPreparedModel::ExecutionState {
  std::vector<Value> values;                 // by operand index
  std::vector<ops::Arg> inputs, outputs;     // the step runStep runs
  std::vector<void*> outputData;             // its outputs' bytes
  std::vector<const void*> fusedInputs;      // runFused's
  std::vector<void*> fusedOutputs;
};

void CpuPreparedModel::ExecutionStateDelete::operator()(ExecutionState* state) const { delete state; }

class CpuExecution {
 public:
  using Step = CpuPreparedModel::Step;

  CpuExecution(const CpuPreparedModel& model, CpuPreparedModel::ExecutionState& state,
               const driver::Request& request, const driver::ExecuteOptions& options)
      : model_(model), request_(request), options_(options), state_(state), values_(state.values) {
    values_.assign(model.operands_.size(), Value{});
  }

  Result<driver::ExecutionResult> run() {
    const uint64_t start = driver::monotonicNs();
    NNRT_RETURN_IF_ERROR(bindRequest());
    NNRT_RETURN_IF_ERROR(model_.hasFastSteps_ ? runStepsWithEveryCore() : runStepsInAnArena());
    driver::ExecutionResult result;
    for (uint32_t index : model_.outputIndexes_) {
      const Value& v = values_[index];
      result.outputShapes.push_back({std::vector<uint32_t>(v.dims.begin(), v.dims.end()), v.sufficient});
      if (!v.sufficient) result.status = driver::ErrorStatus::OUTPUT_INSUFFICIENT_SIZE;
    }
    if (options_.measureTiming) {
      result.timing.timeOnDevice = kernelNs_ / 1000;
      result.timing.timeInDriver = (driver::monotonicNs() - start) / 1000;
    }
    return result;
  }

 private:
  // The steps with one of the model's arenas, held only while they run: executions run back to back
  // by the lease's runner take the same one in turn (the pool gives the last one back first), so
  // their temporaries are where the previous execution left them in the caches. Nothing reads the
  // arena afterwards: model outputs are in the request's memory, and only their shapes are returned.
  Result<void> runStepsInAnArena() {
    struct Held {
      CpuExecution& e;
      explicit Held(CpuExecution& execution) : e(execution) {
        e.arenaOwner_ = e.model_.arenas_.take();
        e.arena_ = e.arenaOwner_.get();
        // The planned temporaries' block comes first: the same address, already mapped, every time.
        if (e.model_.plannedBytes_ > 0) e.planned_ = static_cast<std::byte*>(e.arena_->allocate(e.model_.plannedBytes_));
      }
      ~Held() {
        e.planned_ = nullptr;
        e.arena_ = nullptr;
        e.model_.arenas_.give(std::move(e.arenaOwner_));
      }
      Held(const Held&) = delete;
      Held& operator=(const Held&) = delete;
    } held(*this);
    return runSteps();
  }

  Result<void> runSteps() {
    CpuPreparedModel::Profile* profile = model_.profile_.get();
    std::vector<uint64_t> stepNs(profile != nullptr ? model_.steps_.size() : 0);
    for (size_t i = 0; i < model_.steps_.size(); ++i) {
      const Step& step = model_.steps_[i];
      if (driver::deadlinePassed(options_.deadlineNs)) {
        return driver::fail(
            driver::ErrorStatus::MISSED_DEADLINE_TRANSIENT,
            "the deadline passed before " + operationLabel(step.index, step.type) + " started");
      }
      const uint64_t start = profile != nullptr ? driver::monotonicNs() : 0;
      NNRT_RETURN_IF_ERROR(step.fused ? runFused(step) : runStep(step));
      if (profile != nullptr) stepNs[i] = driver::monotonicNs() - start;
    }
    if (profile != nullptr) profile->record(stepNs);
    return {};
  }

  // An execution with fast kernels holds every core of the device from its first operation to its
  // last (CoreLease): on the lease's runner thread, back to back with the executions queued with it,
  // on one warm OpenMP team. The deadline keeps being checked before each step.
  Result<void> runStepsWithEveryCore() {
    try {
      return model_.lease_->runExclusive([this]() -> Result<void> {
        holdsCores_ = true;
        struct Release {
          bool& held;
          ~Release() { held = false; }
        } release{holdsCores_};
        return runStepsInAnArena();
      });
    } catch (const std::exception& e) {  // a kernel threw, or the lease's runner thread could not start
      return driver::generalFailure(std::string("execution failed: ") + e.what());
    } catch (...) {
      return driver::generalFailure("execution failed: unknown exception");
    }
  }

  Result<void> bindRequest() {
    const auto& m = model_;
    if (request_.inputs().size() != m.inputIndexes_.size() ||
        request_.outputs().size() != m.outputIndexes_.size()) {
      return driver::invalidArgument("the request has " + std::to_string(request_.inputs().size()) +
                                     " inputs and " + std::to_string(request_.outputs().size()) +
                                     " outputs; the model has " + std::to_string(m.inputIndexes_.size()) +
                                     " and " + std::to_string(m.outputIndexes_.size()));
    }
    for (size_t i = 0; i < m.operands_.size(); ++i) {
      const auto& info = m.operands_[i];
      if (info.constant != nullptr) {
        Value& v = values_[i];
        if (!v.dims.assign(info.dims)) {
          return driver::invalidArgument("operand " + std::to_string(i) + " has more than " +
                                         std::to_string(NNRT_MAX_RANK) + " dimensions");
        }
        v.data = info.constant;
        v.length = info.constantLength;
      }
      if (info.lifetime == NNRT_LIFETIME_NO_VALUE) values_[i].omitted = true;
    }
    for (uint32_t k = 0; k < m.inputIndexes_.size(); ++k) {
      const nnrt_request_argument& arg = request_.inputs()[k];
      const uint32_t index = m.inputIndexes_[k];
      const auto& info = m.operands_[index];
      Value& v = values_[index];
      if (arg.has_no_value != 0) {
        v.omitted = true;
        requestOmitsInput_ = true;
        continue;
      }
      NNRT_RETURN_IF_ERROR(mergeDims(info.dims, {arg.dimensions, arg.rank}, "input", k, &v.dims));
      if ((ops::isTensorType(info.type) && v.dims.empty()) ||
          std::find(v.dims.begin(), v.dims.end(), 0u) != v.dims.end()) {
        return driver::invalidArgument(requestArgument("input", k) + " has unknown dimensions " +
                                       ops::shapeToString(v.dims) + "; the request must give them");
      }
      const auto bytes = ops::byteSize(info.type, v.dims);
      if (!bytes) return driver::invalidArgument(requestArgument("input", k) + " is too large");
      NNRT_ASSIGN_OR_RETURN(auto buffer, request_.inputBytes(k));
      if (buffer.size() < *bytes) {
        return driver::invalidArgument(requestArgument("input", k) + " holds " + std::to_string(buffer.size()) + " bytes, but " +
                                       ops::typeName(info.type) + " " + ops::shapeToString(v.dims) +
                                       " needs " + std::to_string(*bytes));
      }
      v.data = buffer.data();
      v.length = *bytes;
    }
    return {};
  }

  ops::Arg argOf(uint32_t index) const {
    const auto& info = model_.operands_[index];
    const Value& v = values_[index];
    ops::Arg arg;
    arg.type = info.type;
    arg.dims = v.dims;
    arg.scale = info.scale;
    arg.zeroPoint = info.zeroPoint;
    arg.data = v.data;
    arg.length = v.length;
    arg.omitted = v.omitted;
    if (!info.channelScales.empty()) arg.operand = &info.perChannel;
    return arg;
  }

  // Output shapes of an operation reading a zero-sized tensor. Shape inference takes a 0 for a
  // dimension not known yet, so it runs twice, every 0 of the inputs read as 1 and then as 2; the
  // outputs' dimensions of the operations that take zero-sized inputs are affine in it (a batch passed
  // on, concatenated, flattened into rows), so the dimension for 0 is 2 * (for 1) - (for 2).
  static Result<std::vector<ops::Shape>> zeroSizedOutputShapes(const ops::OpArgs& op) {
    std::vector<ops::Shape> probes[2];
    for (uint32_t z : {1u, 2u}) {
      std::vector<ops::Shape> dims;
      dims.reserve(op.inputs.size());
      std::vector<ops::Arg> inputs(op.inputs.begin(), op.inputs.end());
      for (ops::Arg& a : inputs) {
        dims.emplace_back(a.dims.begin(), a.dims.end());
        for (uint32_t& d : dims.back()) d = d == 0 ? z : d;
        a.dims = dims.back();
      }
      NNRT_ASSIGN_OR_RETURN(probes[z - 1], ops::inferShapes({op.type, inputs, op.outputs, op.relaxed}));
    }
    std::vector<ops::Shape> shapes = probes[0];
    for (size_t k = 0; k < shapes.size(); ++k) {
      if (k >= probes[1].size() || probes[1][k].size() != shapes[k].size())
        return driver::generalFailure("cannot infer the output shapes of a zero-sized input");
      for (size_t d = 0; d < shapes[k].size(); ++d) {
        const int64_t at0 = 2 * int64_t{probes[0][k][d]} - int64_t{probes[1][k][d]};
        if (at0 < 0) return driver::generalFailure("cannot infer the output shapes of a zero-sized input");
        shapes[k][d] = static_cast<uint32_t>(at0);
      }
    }
    return shapes;
  }

  Result<void> runStep(const Step& step) {
    auto label = [&step] { return operationLabel(step.index, step.type); };  // for errors only
    if (!step.invalid.empty()) return driver::generalFailure(label() + ": " + step.invalid);
    if (isViewNow(step)) {  // nothing to compute or check: the outputs point into input 0
      const ops::Arg input0 = argOf(step.inputs[0]);
      for (size_t k = 0; k < step.outputs.size(); ++k)
        NNRT_RETURN_IF_ERROR(placeOutput(step, k, step.outputShapes[k], input0, step.viewOffsets.empty() ? -1 : step.viewOffsets[k]));
      return {};
    }
    // The argument lists live in the execution's state, whose vectors keep their capacity.
    std::vector<ops::Arg>& inputs = state_.inputs;
    std::vector<ops::Arg>& outputs = state_.outputs;
    inputs.clear();
    outputs.clear();
    for (uint32_t index : step.inputs)
      inputs.push_back(argOf(index));
    // The residual a fused ADD adds (Step::residualInput) is no input of the operation itself.
    ops::Arg residual;
    if (step.residualInput) {
      residual = inputs.back();
      inputs.pop_back();
      if (residual.omitted || residual.data == nullptr)
        return driver::generalFailure(label() + ": the tensor its ADD adds has no value");
    }
    for (uint32_t index : step.outputs) {
      outputs.push_back(argOf(index));
      outputs.back().dims = model_.operands_[index].dims;  // as declared, for validation
    }
    const ops::OpArgs declared{step.type, inputs, outputs, model_.relaxed_};
    if (!step.folded.empty() && !isStaticNow(step)) return runUnfolded(step, inputs);

    // Shapes and parameters: from preparation when the inputs have the shapes seen then.
    const std::vector<ops::Shape>* shapes = &step.outputShapes;
    const OpParams* params = &step.params;
    std::vector<ops::Shape> inferred;
    OpParams decoded;
    if (!isStaticNow(step)) {
      // Every input is known now, so a 0 dimension is a zero-sized tensor (boxes none of which were kept).
      const bool zeroSized = std::any_of(inputs.begin(), inputs.end(), [](const ops::Arg& a) {
        return !a.omitted && std::find(a.dims.begin(), a.dims.end(), 0u) != a.dims.end();
      });
      // An operation that cannot run on the values it was given fails (OP_FAILED, as on Android);
      // the request itself was checked before.
      if (zeroSized && !step.kernel->zeroSizedInputs && !ops::takesZeroSizedInputs(step.type))
        return driver::generalFailure(label() + " does not take zero-sized inputs");
      if (auto valid = ops::validate(declared); !valid)
        return driver::generalFailure(label() + ": " + valid.error().message);
      if (zeroSized) {
        NNRT_ASSIGN_OR_RETURN(inferred, zeroSizedOutputShapes(declared));
      } else {
        NNRT_ASSIGN_OR_RETURN(inferred, ops::inferShapes(declared));
      }
      for (size_t k = 0; k < inferred.size(); ++k) {
        const ops::Shape& s = inferred[k];
        // A scalar output (RANK's INT32) has the empty shape; a tensor's must be known in full, but for
        // the 0 a zero-sized input passes on, or the dimensions the kernel decides.
        const bool tensor = k < outputs.size() && ops::isTensorType(outputs[k].type);
        const bool zeroKnown = zeroSized || step.kernel->shapesFromData;
        if ((tensor && s.empty()) || (!zeroKnown && std::find(s.begin(), s.end(), 0u) != s.end())) {
          return driver::invalidArgument(label() + ": cannot determine its output shape " +
                                         ops::shapeToString(s));
        }
      }
      // Zero-sized outputs (a zero-sized input passed its 0 on): nothing to compute.
      const bool nothing = zeroSized && !step.kernel->zeroSizedInputs &&
                           std::all_of(inferred.begin(), inferred.end(), [](const ops::Shape& s) {
                             return std::find(s.begin(), s.end(), 0u) != s.end();
                           });
      if (nothing) {
        for (size_t k = 0; k < step.outputs.size() && k < inferred.size(); ++k) {
          NNRT_RETURN_IF_ERROR(placeOutput(step, k, inferred[k], inputs[0], -1));
          values_[step.outputs[k]].writtenFast = false;  // in the plain layout (of no values)
        }
        return {};
      }
      NNRT_ASSIGN_OR_RETURN(decoded, step.kernel->decode(declared));
      shapes = &inferred;
      params = &decoded;
    }
    if (step.kernel->shapesFromData) return runPlacingKernel(step, inputs, outputs, *params);

    // SLICE, SPLIT with their prepared shapes: the outputs point into input 0 (Step::viewOffsets).
    const bool views = !step.viewOffsets.empty() && params == &step.params;
    std::vector<void*>& outputData = state_.outputData;
    outputData.assign(step.outputs.size(), nullptr);
    for (size_t k = 0; k < step.outputs.size(); ++k) {
      NNRT_ASSIGN_OR_RETURN(outputData[k], placeOutput(step, k, (*shapes)[k], inputs[0], views ? step.viewOffsets[k] : -1));
      outputs[k].dims = values_[step.outputs[k]].dims;
    }
    if (views) return {};
    const ops::OpArgs op{step.type, inputs, outputs, model_.relaxed_};
    const KernelCall call{op, outputData, *params, *arena_};
    // A step chained to its producer (FastLayer::chain) reads the layer's own layout: its fast
    // kernel runs exactly when the producer's did (both have their prepared shapes, or neither).
    const bool chainedReady = !step.chainedInput || values_[step.inputs[0]].writtenFast;
    const bool fast = step.fast != nullptr && params == &step.params && chainedReady;
    for (uint32_t out : step.outputs) values_[out].writtenFast = fast;
    if (step.residualInput && !sameDims(residual.dims, (*shapes)[0])) {
      return driver::generalFailure(label() + ": its ADD adds a tensor of shape " + ops::shapeToString(residual.dims) +
                                    " to its output of shape " + ops::shapeToString((*shapes)[0]));
    }
    if (fast) {
      // The kernel adds the residual where it writes: unless planTemporaries put the output on the
      // residual's bytes, it is copied there first.
      if (step.residualInput && outputData[0] != residual.data) std::memcpy(outputData[0], residual.data, residual.length);
      return runFastKernel(step, call);
    }
    if (step.chainedInput && chainedReady) {
      return driver::generalFailure(label() + ": cpu driver bug: its input is in the fast layer's layout but its fast kernel cannot run");
    }
    // RESHAPE, SQUEEZE into a temporary that points at input 0: nothing to compute, no cores needed.
    if (step.kernel->outputIsInput0 && outputData[0] == inputs[0].data) return {};
    if (step.epilogue.empty()) return runKernel(step, call);
    // The operations the fast kernel would have applied to the output (Step::epilogue) follow it.
    auto* values = static_cast<float*>(outputData[0]);
    const size_t count = ops::elementCount((*shapes)[0]).value_or(0);
    if (step.residualInput && outputData[0] == residual.data) {
      // The output holds the residual: the convolution's values go elsewhere first.
      void* const product[1] = {arena_->allocate(count * sizeof(float))};
      const KernelCall apart{op, product, *params, *arena_};
      return runOnThreads(step, [&]() -> Result<void> {
        NNRT_RETURN_IF_ERROR(step.kernel->run(apart));
        applyEpilogue(step.epilogue, static_cast<float*>(product[0]), count, static_cast<const float*>(residual.data));
        std::memcpy(values, product[0], count * sizeof(float));
        return {};
      });
    }
    return runOnThreads(step, [&]() -> Result<void> {
      NNRT_RETURN_IF_ERROR(step.kernel->run(call));
      applyEpilogue(step.epilogue, values, count, static_cast<const float*>(residual.data));
      return {};
    });
  }

  // A BATCH_MATMUL whose fast kernel took the TRANSPOSEs around it (Step::folded) on its reference
  // kernel: the transposed inputs are made in the execution's memory, the product is written there
  // and transposed into the output. Only a request that leaves an input out gets here (the step's
  // shapes are the prepared ones otherwise), so the prepared shapes and parameters hold.
  Result<void> runUnfolded(const Step& step, std::vector<ops::Arg> inputs) {
    using Folded = CpuPreparedModel::Step::FoldedTranspose;
    const Folded* outputFold = nullptr;
    std::array<ops::Shape, 3> shapes;  // the transposed operands' dimensions, which their Args view
    for (const Folded& f : step.folded) {
      if (f.index == KernelOptions::Strided::kOutput) {
        outputFold = &f;
        continue;
      }
      ops::Arg& arg = inputs[static_cast<size_t>(f.index)];
      ops::Shape& dims = shapes[static_cast<size_t>(f.index)];
      dims.resize(f.perm.size());
      for (size_t a = 0; a < f.perm.size(); ++a) dims[a] = arg.dims[f.perm[a]];
      const size_t bytes = *ops::byteSize(arg.type, dims);
      void* copy = arena_->allocate(bytes);
      transpose(arg.data, Shape{ops::Shape(arg.dims.begin(), arg.dims.end())}, f.perm, sizeof(float), copy);
      arg.dims = dims;
      arg.data = copy;
      arg.length = bytes;
    }
    const ops::Shape& resultShape = step.outputShapes[0];
    NNRT_ASSIGN_OR_RETURN(void* result, placeOutput(step, 0, resultShape, inputs[0]));
    ops::Arg out = argOf(step.outputs[0]);
    out.dims = resultShape;
    void* product = result;
    if (outputFold != nullptr) {  // the product's shape: the output's with the permutation undone
      ops::Shape& dims = shapes[2];
      dims.resize(outputFold->perm.size());
      for (size_t a = 0; a < dims.size(); ++a) dims[outputFold->perm[a]] = resultShape[a];
      out.dims = dims;
      product = arena_->allocate(*ops::byteSize(out.type, dims));
    }
    out.data = product;
    const ops::Shape productShape(out.dims.begin(), out.dims.end());
    std::vector<ops::Arg> outputs{out};
    void* const outputData[1] = {product};
    const ops::OpArgs op{step.type, inputs, outputs, model_.relaxed_};
    const KernelCall call{op, outputData, step.params, *arena_};
    return runOnThreads(step, [&]() -> Result<void> {
      NNRT_RETURN_IF_ERROR(step.kernel->run(call));
      applyEpilogue(step.epilogue, static_cast<float*>(product), ops::elementCount(out.dims).value_or(0));
      if (outputFold != nullptr) transpose(product, Shape{productShape}, outputFold->perm, sizeof(float), result);
      return {};
    });
  }

  // A kernel whose output shapes depend on the data: it places each output once it knows its shape.
  Result<void> runPlacingKernel(const Step& step, const std::vector<ops::Arg>& inputs,
                                std::vector<ops::Arg>& outputs, const OpParams& params) {
    std::vector<bool> placed(step.outputs.size(), false);
    const PlaceOutputFn place = [&](size_t k, const ops::Shape& shape) -> Result<void*> {
      if (k >= placed.size() || placed[k]) {
        return driver::generalFailure("cpu driver bug: output " + std::to_string(k) + " placed twice or out of range");
      }
      placed[k] = true;
      return placeOutput(step, k, shape, inputs[0]);
    };
    const ops::OpArgs op{step.type, inputs, outputs, model_.relaxed_};
    const KernelCall call{op, {}, params, *arena_, &place};
    NNRT_RETURN_IF_ERROR(runKernel(step, call));
    if (std::find(placed.begin(), placed.end(), false) != placed.end()) {
      return driver::generalFailure(operationLabel(step.index, step.type) + ": cpu driver bug: an output was not placed");
    }
    return {};
  }

  // A RESHAPE or SQUEEZE into a temporary, or a SLICE or SPLIT whose outputs are runs of its input
  // (Step::viewOffsets), with its prepared shapes: placeOutput points the outputs into input 0, without
  // the operation's arguments that runStep builds: a recurrent network unrolled takes several such
  // steps per time step (the GRU's 322 views, 0.15 to 0.2 us each through runStep, 0.1 us this way).
  bool isViewNow(const Step& step) const {
    const bool relabels = step.kernel->outputIsInput0 && step.outputs.size() == 1 &&
                          model_.operands_[step.outputs[0]].modelOutput < 0;
    return (relabels || !step.viewOffsets.empty()) && step.fast == nullptr && !step.chainedInput && isStaticNow(step);
  }

  // Whether the step's prepared shapes and parameters hold: it had them, and every input has the
  // dimensions it had at preparation (always so, unless a request gave a model input other ones).
  bool isStaticNow(const Step& step) const {
    if (!step.isStatic || requestOmitsInput_) return false;
    for (uint32_t in : step.inputs) {
      const Value& v = values_[in];
      if (!v.omitted && !sameDims(v.dims, model_.operands_[in].dims)) return false;
    }
    return true;
  }

  // Records output k's runtime shape and decides where its bytes go: the request's buffer for a
  // model output that fits, input 0's bytes for a temporary that merely re-labels them (RESHAPE,
  // SQUEEZE) or a run of them `viewOffset` bytes in (>= 0: Step::viewOffsets), its planned place,
  // else the arena.
  Result<void*> placeOutput(const Step& step, size_t k, const ops::Shape& shape, const ops::Arg& input0,
                            int64_t viewOffset = -1) {
    const uint32_t index = step.outputs[k];
    const auto& info = model_.operands_[index];
    Value& v = values_[index];
    if (!v.dims.assign(shape)) {
      return driver::generalFailure(operationLabel(step.index, step.type) + ": its output would have " +
                                    std::to_string(shape.size()) + " dimensions; the cpu driver takes at most " +
                                    std::to_string(NNRT_MAX_RANK));
    }
    // At execution a 0 dimension is a zero-sized tensor, not an unknown one: it takes no bytes.
    const bool empty = std::find(shape.begin(), shape.end(), 0u) != shape.end();
    const auto bytes = empty ? std::optional<uint64_t>(0) : ops::byteSize(info.type, shape);
    if (!bytes)
      return driver::invalidArgument(operationLabel(step.index, step.type) + ": output is too large");
    v.length = *bytes;
    void* data = nullptr;
    if (info.modelOutput >= 0) {
      const nnrt_request_argument& arg = request_.outputs()[info.modelOutput];
      NNRT_RETURN_IF_ERROR(mergeDims(shape, {arg.dimensions, arg.rank}, "output", static_cast<uint32_t>(info.modelOutput), nullptr));
      if (arg.has_no_value == 0) {
        NNRT_ASSIGN_OR_RETURN(auto buffer, request_.outputBytes(static_cast<uint32_t>(info.modelOutput)));
        if (buffer.size() >= *bytes) {
          data = buffer.data();
        } else {
          v.sufficient = false;  // computed anyway, so that every later shape is known
        }
      }
    } else if (step.kernel->outputIsInput0 && k == 0) {
      data = const_cast<void*>(input0.data);  // never written: the kernel's copy is a no-op
    } else if (viewOffset >= 0) {
      data = const_cast<std::byte*>(static_cast<const std::byte*>(input0.data) + viewOffset);  // never written
    }
    if (data == nullptr && planned_ != nullptr && model_.plannedOffset_[index] >= 0 && *bytes <= model_.plannedSize_[index])
      data = planned_ + model_.plannedOffset_[index];
    if (data == nullptr) data = arena_->allocate(*bytes);
    v.data = data;
    return data;
  }

  // Element-wise steps fused into one kernel (CpuPreparedModel::FusedSteps): the kernel writes the
  // outputs later steps or the request read; the others are never materialized. When an input does
  // not have its prepared shape, the members run one by one.
  Result<void> runFused(const Step& step) {
    const CpuPreparedModel::FusedSteps& fused = *step.fused;
    bool prepared = !requestOmitsInput_;
    for (uint32_t in : fused.inputs) {
      prepared = prepared && !values_[in].omitted && sameDims(values_[in].dims, model_.operands_[in].dims);
    }
    if (!prepared) {
      for (const Step& member : fused.members)
        NNRT_RETURN_IF_ERROR(runStep(member));
      return {};
    }
    std::vector<const void*>& inputs = state_.fusedInputs;
    inputs.clear();
    for (uint32_t in : fused.inputs) inputs.push_back(values_[in].data);
    std::vector<void*>& outputs = state_.fusedOutputs;
    outputs.clear();
    const ops::Arg unused;
    for (const auto& o : fused.outputs) {
      const Step& member = fused.members[o.member];
      NNRT_ASSIGN_OR_RETURN(void* data, placeOutput(member, o.k, member.outputShapes[o.k], unused));
      values_[member.outputs[o.k]].writtenFast = false;
      outputs.push_back(data);
    }
    return runOnThreads(step, [&]() -> Result<void> {
      if (fused.shuffle) {
        fused.shuffle->run(inputs, outputs);
      } else {
        fused.kernel.run(inputs, outputs);
      }
      return {};
    });
  }

  // A kernel call as the task the device's arena runs. task_arena::execute may hand it to another
  // thread; handOff on the task's own address (`this` needs no read of the task) declares that to
  // ThreadSanitizer.
  template <typename Body>
  struct KernelTask {
    const Body& body;
    detail::SgemmFn sgemm;  // the fast layer's, for the kernel's products (kernels/gemm.hpp)
    Result<void> status;
    std::string thrown;

    void operator()() {
      handOff(this, true);
      detail::ScopedSgemm products(sgemm);
      try {
        status = body();
      } catch (const std::exception& e) {
        thrown = e.what();
      } catch (...) {
        thrown = "unknown exception";
      }
      handOff(this, false);
    }
  };

  Result<void> runKernel(const Step& step, const KernelCall& call) {
    return runOnThreads(step, [&] { return step.kernel->run(call); });
  }

  template <typename Body>
  Result<void> runOnThreads(const Step& step, const Body& body) {
    const uint64_t start = options_.measureTiming ? driver::monotonicNs() : 0;
    KernelTask<Body> task{body, model_.fastLayer_ ? model_.fastLayer_->sgemm() : nullptr, {}, {}};
    const detail::ParallelExecutor* team = model_.fastLayer_ ? model_.fastLayer_->executor() : nullptr;
    if (holdsCores_ && team != nullptr) {
      // Holding every core: the kernel's loops run on the fast layer's OpenMP team, which is awake
      // between the fast kernels, instead of waking oneTBB's threads beside its spinning ones; so do
      // the products the layer prepared for the step.
      detail::ScopedExecutor onTeam(team);
      detail::ScopedProducts products(step.products.get());
      task();
    } else {
      // An execution without fast kernels shares the cores with others like it (the arena bounds them).
      std::shared_lock<CoreLease> cores;
      if (!holdsCores_) cores = std::shared_lock(*model_.lease_);
      handOff(&task, false);
      model_.threads_->execute(task);  // parallel loops in the kernel stay within the device's threads
      handOff(&task, true);
    }
    if (options_.measureTiming) kernelNs_ += driver::monotonicNs() - start;
    const auto label = [&step] {
      if (step.fused == nullptr) return operationLabel(step.index, step.type);
      return "operations " + std::to_string(step.index) + " to " + std::to_string(step.fused->members.back().index) +
             (step.fused->shuffle ? " (fused channel shuffle)" : " (fused element-wise)");
    };
    if (!task.thrown.empty()) return driver::generalFailure(label() + " failed: " + task.thrown);
    if (!task.status) return driver::generalFailure(label() + " failed: " + task.status.error().message);
    return {};
  }

  // The step's fast kernel, on this thread's OpenMP team (the execution holds every core).
  Result<void> runFastKernel(const Step& step, const KernelCall& call) {
    const uint64_t start = options_.measureTiming ? driver::monotonicNs() : 0;
    const auto label = [&step] { return operationLabel(step.index, step.type); };
    Result<void> status;
    try {
      status = step.fast->run(call);
    } catch (const std::exception& e) {
      return driver::generalFailure(label() + " failed: " + e.what());
    }
    if (options_.measureTiming) kernelNs_ += driver::monotonicNs() - start;
    if (!status) return driver::generalFailure(label() + " failed in " + step.fast->name() + ": " + status.error().message);
    return {};
  }

  const CpuPreparedModel& model_;
  const driver::Request& request_;
  const driver::ExecuteOptions& options_;
  std::unique_ptr<ExecutionArena> arenaOwner_;  // from the model's pool while the steps run (runStepsInAnArena)
  ExecutionArena* arena_ = nullptr;
  std::byte* planned_ = nullptr;  // CpuPreparedModel::planTemporaries' block in the arena
  CpuPreparedModel::ExecutionState& state_;
  std::vector<Value>& values_;  // state_.values
  bool requestOmitsInput_ = false;  // then every operation is validated again
  bool holdsCores_ = false;         // inside runStepsWithEveryCore
  uint64_t kernelNs_ = 0;
};

Result<driver::ExecutionResult> CpuPreparedModel::executeSynchronously_1_3(
    const driver::Request& request, const driver::ExecuteOptions& options) {
  if (driver::deadlinePassed(options.deadlineNs)) {
    return driver::fail(driver::ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                        "the deadline passed before execution");
  }
  ExecutionStatePtr state;
  {
    std::lock_guard lock(statesMutex_);
    if (!freeStates_.empty()) {
      state = std::move(freeStates_.back());
      freeStates_.pop_back();
    }
  }
  if (state == nullptr) state.reset(new ExecutionState);
  auto result = CpuExecution(*this, *state, request, options).run();
  std::lock_guard lock(statesMutex_);
  freeStates_.push_back(std::move(state));
  return result;
}

}  // namespace nnrt::cpu
