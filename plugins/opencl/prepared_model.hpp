// A model prepared on one OpenCL device: its program (one per model, built with the model's precision
// options), its constants uploaded once, the plan for its declared shapes, and a pool of execution
// slots (queue, temporaries, bound kernels) reused across executions.
//
// Thread-safety: any number of executions may run at once. Each takes a slot from the pool (a mutex
// guards the pool; a new slot is made when none is free), so each concurrent execution has its own
// in-order command queue, buffers and kernel objects; the program, the constants and the plans are
// shared read-only. Only model inputs are copied in and model outputs out; temporaries stay on the
// device. execute_1_3 enqueues in the caller's thread and finishes on a completion thread.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "nnrt/driver/driver.hpp"
#include "plugins/opencl/cl_context.hpp"
#include "plugins/opencl/completion_thread.hpp"
#include "plugins/opencl/execution_slot.hpp"
#include "plugins/opencl/model_copy.hpp"
#include "plugins/opencl/op_support.hpp"
#include "plugins/opencl/plan.hpp"

namespace nnrt::opencl {

struct PreparedParts {
  std::shared_ptr<const DeviceContext> context;
  std::unique_ptr<ModelCopy> model;  // every constant value still present
  Precision precision = Precision::Float32;
  ClProgram program;  // built for `precision`
};

class OpenClPreparedModel final : public driver::PreparedModel {
 public:
  // Uploads the constants (then forgets their host copies) and plans the declared shapes when they
  // are all known; a model whose declared shapes do not fit together fails here.
  static driver::Result<std::unique_ptr<OpenClPreparedModel>> create(PreparedParts parts);
  ~OpenClPreparedModel() override = default;

  driver::Result<driver::ExecutionResult> executeSynchronously_1_3(
      const driver::Request& request, const driver::ExecuteOptions& options) override;
  void execute_1_3(const driver::Request& request, const driver::ExecuteOptions& options,
                   std::function<void(driver::Result<driver::ExecutionResult>)> done) override;

 private:
  struct Run;
  explicit OpenClPreparedModel(PreparedParts parts);
  driver::Result<void> initialize();
  driver::Result<void> uploadConstants();

  // Validates the request, plans, and enqueues everything: writes, launches, reads. A Run with
  // `complete` set needs no waiting (an output buffer was too small).
  driver::Result<std::unique_ptr<Run>> start(const driver::Request& request,
                                             const driver::ExecuteOptions& options);
  driver::Result<void> enqueue(Run& run, const driver::Request& request);
  // Waits for the run's queue, then widens converted outputs and returns the slot to the pool.
  driver::Result<driver::ExecutionResult> wait(Run& run);

  driver::Result<std::vector<ops::Shape>> inputShapes(const driver::Request& request) const;
  driver::Result<std::shared_ptr<const Plan>> planFor(const std::vector<ops::Shape>& shapes);
  std::vector<uint32_t> deviceOperands(const Plan& plan) const;
  size_t deviceBytes(const Plan& plan, uint32_t operand) const;

  driver::Result<std::unique_ptr<ExecutionSlot>> acquireSlot();
  void releaseSlot(std::unique_ptr<ExecutionSlot> slot);

  std::shared_ptr<const DeviceContext> context_;
  std::unique_ptr<ModelCopy> model_;
  Precision precision_;
  ClProgram program_;
  LaunchLimits limits_;
  ConstantBuffers constants_;
  std::shared_ptr<const Plan> staticPlan_;  // null when a model input has unknown dimensions

  std::mutex plansMutex_;
  std::map<std::vector<ops::Shape>, std::shared_ptr<const Plan>> dynamicPlans_;
  std::mutex slotsMutex_;
  std::vector<std::unique_ptr<ExecutionSlot>> freeSlots_;
  CompletionThread completion_;  // declared last: destroyed (joined) first
};

}  // namespace nnrt::opencl
