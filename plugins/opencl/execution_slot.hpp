// What one execution needs on the device besides the model's constants: a command queue, a buffer
// per non-constant tensor, and a kernel object per launch with its arguments bound to those buffers.
// Slots are reused across executions (see OpenClPreparedModel's pool): binding happens only when a
// slot meets a plan it was not bound for, so repeated executions with the same shapes only enqueue.
// A slot serves one execution at a time; it is not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "plugins/opencl/cl_context.hpp"
#include "plugins/opencl/plan.hpp"

namespace nnrt::opencl {

// Device buffers every execution shares: one per constant tensor, null for other operands.
using ConstantBuffers = std::vector<ClMem>;

class ExecutionSlot {
 public:
  static driver::Result<std::unique_ptr<ExecutionSlot>> create(const DeviceContext& context);

  // Binds the slot to `plan`: buffers for the listed operands (grown when too small, never shrunk)
  // and a kernel per launch with its arguments. `bytes(operand)` is the device size of an operand under
  // the plan.
  driver::Result<void> bind(const DeviceContext& context, cl_program program,
                            const ConstantBuffers& constants, const std::shared_ptr<const Plan>& plan,
                            const std::vector<uint32_t>& operands,
                            const std::function<size_t(uint32_t)>& bytes);

  // Enqueues every launch of the bound plan. With `timed`, *first and *last receive the events of the
  // first and last launch (null when the plan has none).
  driver::Result<void> enqueueLaunches(bool timed, ClEvent* first, ClEvent* last);

  cl_command_queue queue() const { return queue_.get(); }
  cl_mem buffer(uint32_t operand) const {
    return operand < buffers_.size() ? buffers_[operand].get() : nullptr;
  }
  // Host memory for converting one model input or output (index across inputs then outputs); stays
  // valid until the slot is bound again.
  std::vector<uint8_t>& staging(size_t index);

 private:
  ClQueue queue_;
  std::shared_ptr<const Plan> plan_;
  std::vector<ClMem> buffers_;
  std::vector<size_t> capacity_;
  std::vector<ClKernel> kernels_;
  std::vector<std::string> kernelNames_;
  std::vector<std::vector<uint8_t>> staging_;
};

}  // namespace nnrt::opencl
