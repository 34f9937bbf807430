// Launches of the element-wise and data-movement operations: ADD, SUB, MUL, DIV, the activations,
// RESHAPE, CONCATENATION and SOFTMAX (kernels/elementwise.cl, kernels/softmax.cl).
#include <algorithm>

#include "nnrt/driver/ops/operand_types.hpp"
#include "nnrt/driver/ops/params.hpp"
#include "plugins/opencl/plan.hpp"

namespace nnrt::opencl::detail {
namespace {

using driver::OperationType;

constexpr size_t kSoftmaxWorkGroup = 64;

size_t count(std::span<const uint32_t> dims) {
  return static_cast<size_t>(ops::elementCount(dims).value_or(0));
}

// The dims padded to rank 4 with leading 1s.
std::array<uint32_t, 4> as4d(std::span<const uint32_t> dims) {
  std::array<uint32_t, 4> out{1, 1, 1, 1};
  std::copy(dims.begin(), dims.end(), out.begin() + static_cast<ptrdiff_t>(4 - dims.size()));
  return out;
}

// Element strides of an input read through a broadcast to outDims: 0 where it broadcasts.
std::array<int32_t, 4> broadcastStrides(const std::array<uint32_t, 4>& dims,
                                        const std::array<uint32_t, 4>& outDims) {
  std::array<int32_t, 4> strides{};
  int32_t stride = 1;
  for (int d = 3; d >= 0; --d) {
    strides[d] = (dims[d] == 1 && outDims[d] != 1) ? 0 : stride;
    stride *= static_cast<int32_t>(dims[d]);
  }
  return strides;
}

const char* binaryKernel(int32_t type) {
  switch (static_cast<OperationType>(type)) {
    case OperationType::ADD:
      return "nnrt_add";
    case OperationType::SUB:
      return "nnrt_sub";
    case OperationType::MUL:
      return "nnrt_mul";
    default:
      return "nnrt_div";
  }
}

}  // namespace

driver::Result<void> planBinary(const ops::OpArgs& op, std::span<const uint32_t> in, uint32_t out,
                                const LaunchLimits& limits, std::vector<Launch>& launches) {
  NNRT_ASSIGN_OR_RETURN(ops::BinaryParams p, ops::decodeBinary(op));
  const ops::FloatRange range = ops::activationRange(p.activation);
  const auto a = op.inputs[0].dims, b = op.inputs[1].dims, o = op.outputs[0].dims;
  const size_t n = count(o);
  if (n == 0) return {};
  const bool same = std::equal(a.begin(), a.end(), o.begin(), o.end()) &&
                    std::equal(b.begin(), b.end(), o.begin(), o.end());
  Launch l = linearLaunch(std::string(binaryKernel(op.type)) + (same ? "_same" : ""), n, limits);
  l.args = {KernelArg::buffer(in[0]), KernelArg::buffer(in[1]), KernelArg::buffer(out),
            KernelArg::integer(toInt(n))};
  if (!same) {
    const auto outDims = as4d(o);
    l.args.push_back(
        KernelArg::int4({toInt(outDims[0]), toInt(outDims[1]), toInt(outDims[2]), toInt(outDims[3])}));
    l.args.push_back(KernelArg::int4(broadcastStrides(as4d(a), outDims)));
    l.args.push_back(KernelArg::int4(broadcastStrides(as4d(b), outDims)));
  }
  l.args.push_back(KernelArg::number(range.min));
  l.args.push_back(KernelArg::number(range.max));
  launches.push_back(std::move(l));
  return {};
}

driver::Result<void> planActivation(const ops::OpArgs& op, uint32_t in, uint32_t out,
                                    const LaunchLimits& limits, std::vector<Launch>& launches) {
  const size_t n = count(op.outputs[0].dims);
  if (n == 0) return {};
  const auto type = static_cast<OperationType>(op.type);
  if (type == OperationType::LOGISTIC || type == OperationType::TANH) {
    Launch l = linearLaunch(type == OperationType::LOGISTIC ? "nnrt_logistic" : "nnrt_tanh", n, limits);
    l.args = {KernelArg::buffer(in), KernelArg::buffer(out), KernelArg::integer(toInt(n))};
    launches.push_back(std::move(l));
    return {};
  }
  const ops::Activation act = type == OperationType::RELU    ? ops::Activation::Relu
                              : type == OperationType::RELU1 ? ops::Activation::Relu1
                                                             : ops::Activation::Relu6;
  const ops::FloatRange range = ops::activationRange(act);
  Launch l = linearLaunch("nnrt_clamp", n, limits);
  l.args = {KernelArg::buffer(in), KernelArg::buffer(out), KernelArg::integer(toInt(n)),
            KernelArg::number(range.min), KernelArg::number(range.max)};
  launches.push_back(std::move(l));
  return {};
}

driver::Result<void> planReshape(const ops::OpArgs& op, uint32_t in, uint32_t out, const LaunchLimits& limits,
                                 std::vector<Launch>& launches) {
  const size_t n = count(op.outputs[0].dims);
  if (n == 0) return {};
  Launch l = linearLaunch("nnrt_copy", n, limits);
  l.args = {KernelArg::buffer(in), KernelArg::buffer(out), KernelArg::integer(toInt(n))};
  launches.push_back(std::move(l));
  return {};
}

driver::Result<void> planConcatenation(const ops::OpArgs& op, std::span<const uint32_t> in, uint32_t out,
                                       const LaunchLimits& limits, std::vector<Launch>& launches) {
  NNRT_ASSIGN_OR_RETURN(ops::ConcatenationParams p, ops::decodeConcatenation(op));
  const auto o = op.outputs[0].dims;
  size_t outer = 1, after = 1;
  for (uint32_t d = 0; d < o.size(); ++d) {
    if (d < p.axis) outer *= o[d];
    if (d > p.axis) after *= o[d];
  }
  const size_t outInner = o[p.axis] * after;
  size_t offset = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const size_t inInner = op.inputs[i].dims[p.axis] * after;
    const size_t n = outer * inInner;
    if (n > 0) {
      Launch l = linearLaunch("nnrt_concat", n, limits);
      l.args = {KernelArg::buffer(in[i]),
                KernelArg::buffer(out),
                KernelArg::integer(toInt(n)),
                KernelArg::integer(toInt(inInner)),
                KernelArg::integer(toInt(outInner)),
                KernelArg::integer(toInt(offset))};
      launches.push_back(std::move(l));
    }
    offset += inInner;
  }
  return {};
}

driver::Result<void> planSoftmax(const ops::OpArgs& op, uint32_t in, uint32_t out, const LaunchLimits& limits,
                                 std::vector<Launch>& launches) {
  NNRT_ASSIGN_OR_RETURN(ops::SoftmaxParams p, ops::decodeSoftmax(op));
  const auto dims = op.inputs[0].dims;
  size_t outer = 1, inner = 1;
  for (uint32_t d = 0; d < dims.size(); ++d) {
    if (d < p.axis) outer *= dims[d];
    if (d > p.axis) inner *= dims[d];
  }
  const size_t slices = outer * inner;
  if (slices == 0 || dims[p.axis] == 0) return {};
  size_t group = 1;  // a power of two, for the tree reduction
  while (group * 2 <= std::min(kSoftmaxWorkGroup, limits.maxWorkGroupSize))
    group *= 2;
  Launch l;
  l.kernel = "nnrt_softmax";
  l.dimensions = 1;
  l.local = {group, 0};
  l.global = {slices * group, 0};
  l.args = {KernelArg::buffer(in),
            KernelArg::buffer(out),
            KernelArg::integer(toInt(dims[p.axis])),
            KernelArg::integer(toInt(inner)),
            KernelArg::number(p.beta),
            KernelArg::local(group * sizeof(float))};
  launches.push_back(std::move(l));
  return {};
}

}  // namespace nnrt::opencl::detail
