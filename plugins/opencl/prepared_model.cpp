#include "plugins/opencl/prepared_model.hpp"

#include <algorithm>
#include <chrono>

#include "nnrt/driver/clock.hpp"
#include "nnrt/driver/ops/operand_types.hpp"
#include "plugins/opencl/cl_errors.hpp"
#include "nnrt/driver/half.hpp"
#include "plugins/opencl/kernel_source.hpp"

namespace nnrt::opencl {
namespace {

using Clock = std::chrono::steady_clock;
using driver::OperandType;
using driver::floatsToHalves;
using driver::halvesToFloats;

// Plans kept for shapes other than the declared ones; the map is cleared when it grows past this.
constexpr size_t kMaxDynamicPlans = 16;

bool isFloatTensor(int32_t type) {
  return type == static_cast<int32_t>(OperandType::TENSOR_FLOAT32) ||
         type == static_cast<int32_t>(OperandType::TENSOR_FLOAT16);
}
bool isFloat32Tensor(int32_t type) {
  return type == static_cast<int32_t>(OperandType::TENSOR_FLOAT32);
}

uint64_t micros(Clock::duration d) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(d).count());
}

}  // namespace

struct OpenClPreparedModel::Run {
  std::unique_ptr<ExecutionSlot> slot;
  std::shared_ptr<const Plan> plan;
  driver::ExecutionResult result;
  bool complete = false;
  bool measure = false;
  Clock::time_point started;
  ClEvent first, last;
  struct Widen {  // a half output copied into staging, to widen into the caller's float32 buffer
    size_t staging;
    uint8_t* out;
    size_t count;
  };
  std::vector<Widen> widen;
};

OpenClPreparedModel::OpenClPreparedModel(PreparedParts parts)
    : context_(std::move(parts.context)),
      model_(std::move(parts.model)),
      precision_(parts.precision),
      program_(std::move(parts.program)) {}

driver::Result<std::unique_ptr<OpenClPreparedModel>> OpenClPreparedModel::create(PreparedParts parts) {
  std::unique_ptr<OpenClPreparedModel> prepared(new OpenClPreparedModel(std::move(parts)));
  NNRT_RETURN_IF_ERROR(prepared->initialize());
  return prepared;
}

driver::Result<void> OpenClPreparedModel::initialize() {
  const ClDeviceInfo& info = context_->info();
  limits_.maxWorkGroupSize = std::max<size_t>(info.maxWorkGroupSize, 1);
  const size_t tileElement = precision_ == Precision::HalfCompute ? 2 : 4;
  for (const GemmConfig& config : gemmConfigs()) {
    bool usable = config.localMemoryBytes(tileElement) <= info.localMemory;
    for (const char* name : {"nnrt_gemm", "nnrt_conv"}) {
      NNRT_ASSIGN_OR_RETURN(ClKernel kernel,
                            context_->createKernel(program_.get(), name + std::string(config.suffix)));
      size_t size = 0;
      const cl_int err = clGetKernelWorkGroupInfo(kernel.get(), info.device, CL_KERNEL_WORK_GROUP_SIZE,
                                                  sizeof size, &size, nullptr);
      if (err != CL_SUCCESS) return clFail(err, "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)");
      usable = usable && size >= config.workGroupSize();
    }
    limits_.gemmUsable.push_back(usable);
  }
  NNRT_RETURN_IF_ERROR(uploadConstants());

  const driver::Subgraph main = model_->main();
  std::vector<ops::Shape> declared;
  bool known = true;
  for (uint32_t index : main.inputIndexes()) {
    const nnrt_operand& operand = main.operands()[index];
    declared.push_back(shapeOf(driver::dimensions(operand)));
    if (ops::isTensorType(operand.type) && !ops::elementCount(declared.back()).has_value()) known = false;
    if (ops::isTensorType(operand.type) && operand.rank == 0) known = false;
  }
  if (known) {
    NNRT_ASSIGN_OR_RETURN(staticPlan_, buildPlan(*model_, declared, limits_));
  }
  return {};
}

driver::Result<void> OpenClPreparedModel::uploadConstants() {
  const driver::Subgraph main = model_->main();
  const driver::Model model = model_->model();
  constants_.resize(main.operands().size());
  std::vector<uint32_t> uploaded;
  std::vector<uint16_t> narrowed;
  for (uint32_t i = 0; i < main.operands().size(); ++i) {
    const nnrt_operand& operand = main.operands()[i];
    if (operand.lifetime != NNRT_LIFETIME_CONSTANT_COPY || !isFloatTensor(operand.type)) continue;
    std::span<const uint8_t> bytes = model.constantBytes(operand);
    const void* data = bytes.data();
    size_t size = bytes.size();
    if (isFloat32Tensor(operand.type) && precision_ != Precision::Float32) {
      narrowed.resize(size / sizeof(float));
      floatsToHalves(bytes.data(), narrowed.size(), narrowed.data());
      data = narrowed.data();
      size = narrowed.size() * sizeof(uint16_t);
    }
    NNRT_ASSIGN_OR_RETURN(constants_[i], context_->createBuffer(size, CL_MEM_READ_ONLY, data));
    uploaded.push_back(i);
  }
  model_->dropConstantValues(uploaded);
  return {};
}

driver::Result<std::vector<ops::Shape>> OpenClPreparedModel::inputShapes(
    const driver::Request& request) const {
  const driver::Subgraph main = model_->main();
  if (request.inputs().size() != main.inputIndexes().size() ||
      request.outputs().size() != main.outputIndexes().size()) {
    return driver::invalidArgument("the request has " + std::to_string(request.inputs().size()) +
                                   " inputs and " + std::to_string(request.outputs().size()) +
                                   " outputs; the model has " + std::to_string(main.inputIndexes().size()) +
                                   " and " + std::to_string(main.outputIndexes().size()));
  }
  std::vector<ops::Shape> shapes;
  for (size_t k = 0; k < request.inputs().size(); ++k) {
    const nnrt_operand& operand = main.operands()[main.inputIndexes()[k]];
    const nnrt_request_argument& arg = request.inputs()[k];
    const std::string label = "request input " + std::to_string(k);
    if (arg.has_no_value) return driver::invalidArgument(label + " has no value");
    ops::Shape shape = shapeOf(driver::dimensions(operand));
    if (arg.rank > 0) {
      if (operand.rank != 0 && operand.rank != arg.rank) {
        return driver::invalidArgument(label + " has rank " + std::to_string(arg.rank) +
                                       "; the model declares " + ops::shapeToString(shape));
      }
      for (uint32_t d = 0; d < arg.rank; ++d) {
        if (operand.rank != 0 && shape[d] != 0 && shape[d] != arg.dimensions[d]) {
          return driver::invalidArgument(label + " is " +
                                         ops::shapeToString(std::span(arg.dimensions, arg.rank)) +
                                         "; the model declares " + ops::shapeToString(shape));
        }
      }
      shape.assign(arg.dimensions, arg.dimensions + arg.rank);
    }
    if (ops::isTensorType(operand.type) && (shape.empty() || !ops::elementCount(shape).has_value())) {
      return driver::invalidArgument(label + " has unknown dimensions " + ops::shapeToString(shape) +
                                     " and the request does not give them");
    }
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

driver::Result<std::shared_ptr<const Plan>> OpenClPreparedModel::planFor(
    const std::vector<ops::Shape>& shapes) {
  if (staticPlan_) return staticPlan_;  // the declared shapes are all known, so `shapes` equals them
  {
    std::lock_guard lock(plansMutex_);
    if (auto it = dynamicPlans_.find(shapes); it != dynamicPlans_.end()) return it->second;
  }
  NNRT_ASSIGN_OR_RETURN(std::shared_ptr<const Plan> plan, buildPlan(*model_, shapes, limits_));
  std::lock_guard lock(plansMutex_);
  if (dynamicPlans_.size() >= kMaxDynamicPlans) dynamicPlans_.clear();
  return dynamicPlans_.emplace(shapes, plan).first->second;
}

std::vector<uint32_t> OpenClPreparedModel::deviceOperands(const Plan& plan) const {
  const driver::Subgraph main = model_->main();
  std::vector<bool> needed(main.operands().size(), false);
  for (const Launch& launch : plan.launches) {
    for (const KernelArg& arg : launch.args) {
      if (arg.kind == KernelArg::Kind::Buffer) needed[arg.operand] = true;
    }
  }
  for (uint32_t index : main.outputIndexes())
    needed[index] = needed[index] || isFloatTensor(main.operands()[index].type);
  std::vector<uint32_t> list;
  for (uint32_t i = 0; i < needed.size(); ++i) {
    if (needed[i] && !constants_[i]) list.push_back(i);
  }
  return list;
}

size_t OpenClPreparedModel::deviceBytes(const Plan& plan, uint32_t operand) const {
  return static_cast<size_t>(ops::elementCount(plan.shapes[operand]).value_or(0)) *
         storageElementSize(precision_);
}

driver::Result<std::unique_ptr<ExecutionSlot>> OpenClPreparedModel::acquireSlot() {
  {
    std::lock_guard lock(slotsMutex_);
    if (!freeSlots_.empty()) {
      std::unique_ptr<ExecutionSlot> slot = std::move(freeSlots_.back());
      freeSlots_.pop_back();
      return slot;
    }
  }
  return ExecutionSlot::create(*context_);
}

void OpenClPreparedModel::releaseSlot(std::unique_ptr<ExecutionSlot> slot) {
  std::lock_guard lock(slotsMutex_);
  freeSlots_.push_back(std::move(slot));
}

driver::Result<std::unique_ptr<OpenClPreparedModel::Run>> OpenClPreparedModel::start(
    const driver::Request& request, const driver::ExecuteOptions& options) {
  auto run = std::make_unique<Run>();
  run->started = Clock::now();
  run->measure = options.measureTiming;
  if (driver::deadlinePassed(options.deadlineNs)) {
    return driver::fail(driver::ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                        "the deadline passed before the execution started");
  }
  NNRT_ASSIGN_OR_RETURN(std::vector<ops::Shape> shapes, inputShapes(request));
  NNRT_ASSIGN_OR_RETURN(run->plan, planFor(shapes));
  const Plan& plan = *run->plan;
  const driver::Subgraph main = model_->main();

  // Output shapes, and whether every output buffer holds its tensor.
  for (size_t k = 0; k < main.outputIndexes().size(); ++k) {
    const uint32_t index = main.outputIndexes()[k];
    const nnrt_operand& operand = main.operands()[index];
    bool sufficient = true;
    if (!request.outputs()[k].has_no_value) {
      NNRT_ASSIGN_OR_RETURN(std::span<uint8_t> bytes, request.outputBytes(static_cast<uint32_t>(k)));
      sufficient = bytes.size() >= ops::byteSize(operand.type, plan.shapes[index]).value_or(0);
    }
    run->result.outputShapes.push_back({plan.shapes[index], sufficient});
    if (!sufficient) run->result.status = driver::ErrorStatus::OUTPUT_INSUFFICIENT_SIZE;
  }
  if (run->result.status != driver::ErrorStatus::NONE) {
    run->complete = true;
    return run;
  }

  NNRT_ASSIGN_OR_RETURN(run->slot, acquireSlot());
  if (auto enqueued = enqueue(*run, request); !enqueued) {
    // Nothing may still read the caller's buffers once this returns.
    if (clFinish(run->slot->queue()) == CL_SUCCESS) releaseSlot(std::move(run->slot));
    context_->noteError(enqueued.error());
    return Unexpected(std::move(enqueued).error());
  }
  return run;
}

driver::Result<void> OpenClPreparedModel::enqueue(Run& run, const driver::Request& request) {
  const Plan& plan = *run.plan;
  const driver::Subgraph main = model_->main();
  ExecutionSlot& slot = *run.slot;
  NNRT_RETURN_IF_ERROR(slot.bind(*context_, program_.get(), constants_, run.plan, deviceOperands(plan),
                                 [this, &plan](uint32_t operand) { return deviceBytes(plan, operand); }));
  const bool narrow = precision_ != Precision::Float32;
  size_t staging = 0;
  for (size_t k = 0; k < main.inputIndexes().size(); ++k, ++staging) {
    const uint32_t index = main.inputIndexes()[k];
    const nnrt_operand& operand = main.operands()[index];
    cl_mem buffer = slot.buffer(index);
    if (!isFloatTensor(operand.type) || buffer == nullptr) continue;  // not read by any kernel
    NNRT_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, request.inputBytes(static_cast<uint32_t>(k)));
    const uint64_t need = ops::byteSize(operand.type, plan.shapes[index]).value_or(0);
    if (bytes.size() < need) {
      return driver::invalidArgument("request input " + std::to_string(k) + " has " +
                                     std::to_string(bytes.size()) + " bytes; " + ops::typeName(operand.type) +
                                     " " + ops::shapeToString(plan.shapes[index]) + " needs " +
                                     std::to_string(need));
    }
    const void* source = bytes.data();
    size_t size = need;
    if (narrow && isFloat32Tensor(operand.type)) {
      std::vector<uint8_t>& half = slot.staging(staging);
      half.resize(need / 2);
      floatsToHalves(bytes.data(), need / 4, half.data());
      source = half.data();
      size = half.size();
    }
    if (size == 0) continue;
    const cl_int err =
        clEnqueueWriteBuffer(slot.queue(), buffer, CL_FALSE, 0, size, source, 0, nullptr, nullptr);
    if (err != CL_SUCCESS) return clFail(err, "clEnqueueWriteBuffer of request input " + std::to_string(k));
  }
  NNRT_RETURN_IF_ERROR(slot.enqueueLaunches(run.measure, &run.first, &run.last));
  for (size_t k = 0; k < main.outputIndexes().size(); ++k, ++staging) {
    const uint32_t index = main.outputIndexes()[k];
    const nnrt_operand& operand = main.operands()[index];
    if (request.outputs()[k].has_no_value || !isFloatTensor(operand.type)) continue;
    cl_mem buffer = constants_[index] ? constants_[index].get() : slot.buffer(index);
    std::span<uint8_t> bytes = *request.outputBytes(static_cast<uint32_t>(k));
    const size_t count = static_cast<size_t>(ops::elementCount(plan.shapes[index]).value_or(0));
    if (count == 0) continue;
    void* target = bytes.data();
    size_t size = ops::byteSize(operand.type, plan.shapes[index]).value_or(0);
    if (narrow && isFloat32Tensor(operand.type)) {
      std::vector<uint8_t>& half = slot.staging(staging);
      half.resize(count * 2);
      run.widen.push_back({staging, bytes.data(), count});
      target = half.data();
      size = half.size();
    }
    const cl_int err =
        clEnqueueReadBuffer(slot.queue(), buffer, CL_FALSE, 0, size, target, 0, nullptr, nullptr);
    if (err != CL_SUCCESS) return clFail(err, "clEnqueueReadBuffer of request output " + std::to_string(k));
  }
  if (const cl_int err = clFlush(slot.queue()); err != CL_SUCCESS) return clFail(err, "clFlush");
  return {};
}

driver::Result<driver::ExecutionResult> OpenClPreparedModel::wait(Run& run) {
  if (run.complete) return std::move(run.result);
  if (const cl_int err = clFinish(run.slot->queue()); err != CL_SUCCESS) {
    driver::Error error = clError(err, "clFinish");
    context_->noteError(error);
    run.slot.reset();  // its queue is in an unknown state
    return Unexpected(std::move(error));
  }
  for (const Run::Widen& w : run.widen) {
    halvesToFloats(run.slot->staging(w.staging).data(), w.count, w.out);
  }
  if (run.measure) {
    run.result.timing.timeInDriver = micros(Clock::now() - run.started);
    cl_ulong begin = 0, end = 0;
    if (run.first && run.last &&
        clGetEventProfilingInfo(run.first.get(), CL_PROFILING_COMMAND_START, sizeof begin, &begin, nullptr) ==
            CL_SUCCESS &&
        clGetEventProfilingInfo(run.last.get(), CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) ==
            CL_SUCCESS &&
        end >= begin) {
      run.result.timing.timeOnDevice = (end - begin) / 1000;
    }
  }
  run.first.reset();
  run.last.reset();
  releaseSlot(std::move(run.slot));
  return std::move(run.result);
}

driver::Result<driver::ExecutionResult> OpenClPreparedModel::executeSynchronously_1_3(
    const driver::Request& request, const driver::ExecuteOptions& options) {
  auto run = start(request, options);
  if (!run) return Unexpected(std::move(run).error());
  return wait(**run);
}

void OpenClPreparedModel::execute_1_3(const driver::Request& request, const driver::ExecuteOptions& options,
                                      std::function<void(driver::Result<driver::ExecutionResult>)> done) {
  auto started = start(request, options);
  if (!started) {
    done(Unexpected(std::move(started).error()));
    return;
  }
  if ((*started)->complete) {
    done(std::move((*started)->result));
    return;
  }
  std::shared_ptr<Run> run(std::move(*started));
  completion_.submit([this, run, done = std::move(done)] { done(wait(*run)); });
}

}  // namespace nnrt::opencl
