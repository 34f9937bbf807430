#include "plugins/opencl/plan.hpp"

#include <algorithm>
#include <limits>

#include "nnrt/driver/ops/operand_types.hpp"

namespace nnrt::opencl {
namespace {

using driver::OperationType;

constexpr size_t kLinearWorkGroup = 64;

bool fullyKnown(const ops::Shape& s) {
  return std::find(s.begin(), s.end(), 0u) == s.end();
}

std::string where(uint32_t index, int32_t type) {
  return "operation " + std::to_string(index) + " (" + ops::operationName(type) + ")";
}

}  // namespace

namespace detail {

Launch linearLaunch(std::string kernel, size_t count, const LaunchLimits& limits) {
  Launch l;
  l.kernel = std::move(kernel);
  l.dimensions = 1;
  const size_t group = std::min(kLinearWorkGroup, limits.maxWorkGroupSize);
  l.local = {group, 0};
  l.global = {(count + group - 1) / group * group, 0};
  return l;
}

int32_t toInt(size_t value) {
  return static_cast<int32_t>(value);
}

}  // namespace detail

driver::Result<void> planOperation(const ops::OpArgs& op, std::span<const uint32_t> in,
                                   std::span<const uint32_t> out, const LaunchLimits& limits,
                                   std::vector<Launch>& launches) {
  switch (static_cast<OperationType>(op.type)) {
    case OperationType::ADD:
    case OperationType::SUB:
    case OperationType::MUL:
    case OperationType::DIV:
      return detail::planBinary(op, in, out[0], limits, launches);
    case OperationType::RELU:
    case OperationType::RELU1:
    case OperationType::RELU6:
    case OperationType::LOGISTIC:
    case OperationType::TANH:
      return detail::planActivation(op, in[0], out[0], limits, launches);
    case OperationType::RESHAPE:
      return detail::planReshape(op, in[0], out[0], limits, launches);
    case OperationType::CONCATENATION:
      return detail::planConcatenation(op, in.first(in.size() - 1), out[0], limits, launches);
    case OperationType::SOFTMAX:
      return detail::planSoftmax(op, in[0], out[0], limits, launches);
    case OperationType::FULLY_CONNECTED:
      return detail::planFullyConnected(op, in, out[0], limits, launches);
    case OperationType::CONV_2D:
      return detail::planConv2D(op, in, out[0], limits, launches);
    case OperationType::DEPTHWISE_CONV_2D:
      return detail::planDepthwiseConv2D(op, in, out[0], limits, launches);
    case OperationType::AVERAGE_POOL_2D:
    case OperationType::MAX_POOL_2D:
      return detail::planPool(op, in[0], out[0], limits, launches);
    default:
      break;
  }
  return driver::generalFailure(ops::operationName(op.type) + " has no OpenCL kernel in this driver");
}

driver::Result<std::shared_ptr<const Plan>> buildPlan(const ModelCopy& model,
                                                      std::span<const ops::Shape> inputShapes,
                                                      const LaunchLimits& limits) {
  const driver::Subgraph main = model.main();
  auto plan = std::make_shared<Plan>();
  plan->shapes.reserve(main.operands().size());
  for (const nnrt_operand& operand : main.operands())
    plan->shapes.push_back(shapeOf(driver::dimensions(operand)));
  for (size_t i = 0; i < main.inputIndexes().size() && i < inputShapes.size(); ++i) {
    plan->shapes[main.inputIndexes()[i]] = inputShapes[i];
  }

  for (uint32_t index = 0; index < main.operations().size(); ++index) {
    const nnrt_operation& operation = main.operations()[index];
    std::vector<ops::Arg> inputs = ops::inputArgs(model.model(), main, operation);
    std::vector<ops::Arg> outputs = ops::outputArgs(model.model(), main, operation);
    for (size_t i = 0; i < inputs.size(); ++i) {
      const ops::Shape& shape = plan->shapes[operation.inputs[i]];
      if (!inputs[i].omitted && ops::isTensorType(inputs[i].type) && (shape.empty() || !fullyKnown(shape))) {
        return driver::invalidArgument(where(index, operation.type) + ": input " + std::to_string(i) +
                                       " has unknown dimensions " + ops::shapeToString(shape));
      }
      inputs[i].dims = shape;
    }
    const ops::OpArgs probe{operation.type, inputs, outputs, model.relaxed()};
    NNRT_ASSIGN_OR_RETURN(std::vector<ops::Shape> inferred, ops::inferShapes(probe));
    for (size_t o = 0; o < outputs.size() && o < inferred.size(); ++o) {
      const ops::Shape& shape = inferred[o];
      const auto declared = outputs[o].dims;
      if (shape.empty() || !fullyKnown(shape)) {
        return driver::invalidArgument(where(index, operation.type) + ": the shape of output " +
                                       std::to_string(o) + " cannot be inferred (" +
                                       ops::shapeToString(shape) + ")");
      }
      bool agrees = declared.empty() || declared.size() == shape.size();
      for (size_t d = 0; agrees && !declared.empty() && d < shape.size(); ++d) {
        agrees = declared[d] == 0 || declared[d] == shape[d];
      }
      if (!agrees) {
        return driver::invalidArgument(where(index, operation.type) + ": output " + std::to_string(o) +
                                       " is " + ops::shapeToString(shape) + ", but the model declares " +
                                       ops::shapeToString(declared));
      }
      plan->shapes[operation.outputs[o]] = shape;
      outputs[o].dims = plan->shapes[operation.outputs[o]];
    }
    for (const ops::Arg& arg : inputs) {
      if (auto count = ops::elementCount(arg.dims); !count || *count > std::numeric_limits<int32_t>::max()) {
        return driver::generalFailure(where(index, operation.type) + ": a tensor of " +
                                      ops::shapeToString(arg.dims) +
                                      " elements is too large for the opencl kernels' 32-bit indexes");
      }
    }
    for (const ops::Arg& arg : outputs) {
      if (auto count = ops::elementCount(arg.dims); !count || *count > std::numeric_limits<int32_t>::max()) {
        return driver::generalFailure(where(index, operation.type) + ": output " +
                                      ops::shapeToString(arg.dims) +
                                      " is too large for the opencl kernels' 32-bit indexes");
      }
    }
    const ops::OpArgs op{operation.type, inputs, outputs, model.relaxed()};
    if (auto planned =
            planOperation(op, driver::inputs(operation), driver::outputs(operation), limits, plan->launches);
        !planned) {
      driver::Error error = planned.error();
      error.message = where(index, operation.type) + ": " + error.message;
      return Unexpected(std::move(error));
    }
  }
  return std::shared_ptr<const Plan>(std::move(plan));
}

}  // namespace nnrt::opencl
