#include "plugins/opencl/execution_slot.hpp"

#include "plugins/opencl/cl_errors.hpp"

namespace nnrt::opencl {

driver::Result<std::unique_ptr<ExecutionSlot>> ExecutionSlot::create(const DeviceContext& context) {
  auto slot = std::make_unique<ExecutionSlot>();
  NNRT_ASSIGN_OR_RETURN(slot->queue_, context.createQueue(true));
  return slot;
}

driver::Result<void> ExecutionSlot::bind(const DeviceContext& context, cl_program program,
                                         const ConstantBuffers& constants,
                                         const std::shared_ptr<const Plan>& plan,
                                         const std::vector<uint32_t>& operands,
                                         const std::function<size_t(uint32_t)>& bytes) {
  bool grown = false;
  for (uint32_t operand : operands) {
    if (operand >= buffers_.size()) {
      buffers_.resize(operand + 1);
      capacity_.resize(operand + 1, 0);
    }
    const size_t need = bytes(operand);
    if (buffers_[operand] && capacity_[operand] >= need) continue;
    buffers_[operand].reset();
    NNRT_ASSIGN_OR_RETURN(buffers_[operand], context.createBuffer(need, CL_MEM_READ_WRITE));
    capacity_[operand] = need;
    grown = true;
  }
  if (plan == plan_ && !grown) return {};

  plan_.reset();  // unbound until every argument is set
  const std::vector<Launch>& launches = plan->launches;
  kernels_.resize(launches.size());
  kernelNames_.resize(launches.size());
  for (size_t i = 0; i < launches.size(); ++i) {
    const Launch& launch = launches[i];
    if (!kernels_[i] || kernelNames_[i] != launch.kernel) {
      NNRT_ASSIGN_OR_RETURN(kernels_[i], context.createKernel(program, launch.kernel));
      kernelNames_[i] = launch.kernel;
    }
    for (cl_uint a = 0; a < launch.args.size(); ++a) {
      const KernelArg& arg = launch.args[a];
      cl_int err = CL_SUCCESS;
      switch (arg.kind) {
        case KernelArg::Kind::Buffer: {
          cl_mem mem = arg.operand < constants.size() && constants[arg.operand] ? constants[arg.operand].get()
                                                                                : buffer(arg.operand);
          if (mem == nullptr) {
            return driver::generalFailure("launch of " + launch.kernel + " names operand " +
                                          std::to_string(arg.operand) + ", which has no device buffer");
          }
          err = clSetKernelArg(kernels_[i].get(), a, sizeof(cl_mem), &mem);
          break;
        }
        case KernelArg::Kind::Int: {
          const cl_int v = arg.ints[0];
          err = clSetKernelArg(kernels_[i].get(), a, sizeof v, &v);
          break;
        }
        case KernelArg::Kind::Int4: {
          cl_int4 v;
          for (int c = 0; c < 4; ++c)
            v.s[c] = arg.ints[c];
          err = clSetKernelArg(kernels_[i].get(), a, sizeof v, &v);
          break;
        }
        case KernelArg::Kind::Float: {
          const cl_float v = arg.real;
          err = clSetKernelArg(kernels_[i].get(), a, sizeof v, &v);
          break;
        }
        case KernelArg::Kind::LocalBytes:
          err = clSetKernelArg(kernels_[i].get(), a, arg.bytes, nullptr);
          break;
      }
      if (err != CL_SUCCESS)
        return clFail(err, "clSetKernelArg(" + launch.kernel + ", " + std::to_string(a) + ")");
    }
  }
  plan_ = plan;
  return {};
}

driver::Result<void> ExecutionSlot::enqueueLaunches(bool timed, ClEvent* first, ClEvent* last) {
  const std::vector<Launch>& launches = plan_->launches;
  for (size_t i = 0; i < launches.size(); ++i) {
    const Launch& l = launches[i];
    const bool isFirst = i == 0, isLast = i + 1 == launches.size();
    cl_event event = nullptr;
    const cl_int err = clEnqueueNDRangeKernel(queue_.get(), kernels_[i].get(), l.dimensions, nullptr,
                                              l.global.data(), l.local[0] != 0 ? l.local.data() : nullptr, 0,
                                              nullptr, timed && (isFirst || isLast) ? &event : nullptr);
    if (err != CL_SUCCESS) return clFail(err, "clEnqueueNDRangeKernel(" + l.kernel + ")");
    if (event == nullptr) continue;
    ClEvent owned(event);
    if (isFirst && isLast) {
      clRetainEvent(event);
      first->reset(event);
      *last = std::move(owned);
    } else {
      *(isFirst ? first : last) = std::move(owned);
    }
  }
  return {};
}

std::vector<uint8_t>& ExecutionSlot::staging(size_t index) {
  if (index >= staging_.size()) staging_.resize(index + 1);
  return staging_[index];
}

}  // namespace nnrt::opencl
