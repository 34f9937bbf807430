// Launches of the operations with weights or windows: FULLY_CONNECTED and CONV_2D on the tiled GEMM
// (kernels/gemm.cl), DEPTHWISE_CONV_2D and the pools (kernels/window.cl).
#include "nnrt/driver/ops/params.hpp"
#include "plugins/opencl/kernel_source.hpp"
#include "plugins/opencl/plan.hpp"

namespace nnrt::opencl::detail {
namespace {

// Products with at most this many rows (a FULLY_CONNECTED batch) use the 16-row tile.
constexpr size_t kFewRows = 16;

driver::Result<const GemmConfig*> chooseGemm(size_t rows, const LaunchLimits& limits) {
  const auto configs = gemmConfigs();
  auto usable = [&](size_t i) { return i < limits.gemmUsable.size() && limits.gemmUsable[i]; };
  if (rows <= kFewRows && usable(1)) return &configs[1];
  for (size_t i = 0; i < configs.size(); ++i) {
    if (usable(i)) return &configs[i];
  }
  return driver::generalFailure("no GEMM tile configuration fits the device's work-group size");
}

// C[M, N] = act(A[M, K] * B[N, K]^T + bias): the launch and its first nine arguments.
Launch gemmLaunch(const char* name, const GemmConfig& c, std::span<const uint32_t> in, uint32_t out, size_t m,
                  size_t n, size_t k, ops::Activation activation) {
  const ops::FloatRange range = ops::activationRange(activation);
  Launch l;
  l.kernel = std::string(name) + c.suffix;
  l.dimensions = 2;
  l.local = {c.tn / c.wn, c.tm / c.wm};
  l.global = {(n + c.tn - 1) / c.tn * l.local[0], (m + c.tm - 1) / c.tm * l.local[1]};
  l.args = {KernelArg::buffer(in[0]),     KernelArg::buffer(in[1]),     KernelArg::buffer(in[2]),
            KernelArg::buffer(out),       KernelArg::integer(toInt(m)), KernelArg::integer(toInt(n)),
            KernelArg::integer(toInt(k)), KernelArg::number(range.min), KernelArg::number(range.max)};
  return l;
}

}  // namespace

driver::Result<void> planFullyConnected(const ops::OpArgs& op, std::span<const uint32_t> in, uint32_t out,
                                        const LaunchLimits& limits, std::vector<Launch>& launches) {
  NNRT_ASSIGN_OR_RETURN(ops::FullyConnectedParams p, ops::decodeFullyConnected(op));
  if (p.batchSize == 0 || p.numUnits == 0) return {};
  NNRT_ASSIGN_OR_RETURN(const GemmConfig* config, chooseGemm(p.batchSize, limits));
  launches.push_back(
      gemmLaunch("nnrt_gemm", *config, in, out, p.batchSize, p.numUnits, p.inputSize, p.activation));
  return {};
}

driver::Result<void> planConv2D(const ops::OpArgs& op, std::span<const uint32_t> in, uint32_t out,
                                const LaunchLimits& limits, std::vector<Launch>& launches) {
  NNRT_ASSIGN_OR_RETURN(ops::Conv2DParams p, ops::decodeConv2D(op));
  const size_t rows = size_t{p.batches} * p.outputHeight * p.outputWidth;
  if (rows == 0 || p.outputChannels == 0) return {};
  NNRT_ASSIGN_OR_RETURN(const GemmConfig* config, chooseGemm(rows, limits));
  const bool pointwise = p.filterHeight == 1 && p.filterWidth == 1 && p.strideH == 1 && p.strideW == 1 &&
                         p.padLeft == 0 && p.padRight == 0 && p.padTop == 0 && p.padBottom == 0;
  if (pointwise) {  // the input already is the [positions, Cin] matrix
    launches.push_back(
        gemmLaunch("nnrt_gemm", *config, in, out, rows, p.outputChannels, p.inputChannels, p.activation));
    return {};
  }
  const size_t depth = size_t{p.filterHeight} * p.filterWidth * p.inputChannels;
  Launch l = gemmLaunch("nnrt_conv", *config, in, out, rows, p.outputChannels, depth, p.activation);
  for (uint32_t v : {p.inputHeight, p.inputWidth, p.inputChannels, p.filterWidth, p.outputHeight,
                     p.outputWidth, p.strideH, p.strideW, p.padTop, p.padLeft, p.dilationH, p.dilationW}) {
    l.args.push_back(KernelArg::integer(toInt(v)));
  }
  launches.push_back(std::move(l));
  return {};
}

driver::Result<void> planDepthwiseConv2D(const ops::OpArgs& op, std::span<const uint32_t> in, uint32_t out,
                                         const LaunchLimits& limits, std::vector<Launch>& launches) {
  NNRT_ASSIGN_OR_RETURN(ops::DepthwiseConv2DParams p, ops::decodeDepthwiseConv2D(op));
  const size_t n = size_t{p.batches} * p.outputHeight * p.outputWidth * p.outputChannels;
  if (n == 0) return {};
  const ops::FloatRange range = ops::activationRange(p.activation);
  Launch l = linearLaunch("nnrt_depthwise_conv", n, limits);
  l.args = {KernelArg::buffer(in[0]), KernelArg::buffer(in[1]), KernelArg::buffer(in[2]),
            KernelArg::buffer(out), KernelArg::integer(toInt(n))};
  for (uint32_t v : {p.inputHeight, p.inputWidth, p.inputChannels, p.filterHeight, p.filterWidth,
                     p.outputHeight, p.outputWidth, p.outputChannels, p.depthMultiplier, p.strideH, p.strideW,
                     p.padTop, p.padLeft, p.dilationH, p.dilationW}) {
    l.args.push_back(KernelArg::integer(toInt(v)));
  }
  l.args.push_back(KernelArg::number(range.min));
  l.args.push_back(KernelArg::number(range.max));
  launches.push_back(std::move(l));
  return {};
}

driver::Result<void> planPool(const ops::OpArgs& op, uint32_t in, uint32_t out, const LaunchLimits& limits,
                              std::vector<Launch>& launches) {
  NNRT_ASSIGN_OR_RETURN(ops::Pool2DParams p, ops::decodePool2D(op));
  const size_t n = size_t{p.batches} * p.outputHeight * p.outputWidth * p.channels;
  if (n == 0) return {};
  const ops::FloatRange range = ops::activationRange(p.activation);
  const bool average = op.type == static_cast<int32_t>(driver::OperationType::AVERAGE_POOL_2D);
  Launch l = linearLaunch(average ? "nnrt_avg_pool" : "nnrt_max_pool", n, limits);
  l.args = {KernelArg::buffer(in), KernelArg::buffer(out), KernelArg::integer(toInt(n))};
  for (uint32_t v : {p.inputHeight, p.inputWidth, p.channels, p.outputHeight, p.outputWidth, p.filterH,
                     p.filterW, p.strideH, p.strideW, p.padTop, p.padLeft}) {
    l.args.push_back(KernelArg::integer(toInt(v)));
  }
  l.args.push_back(KernelArg::number(range.min));
  l.args.push_back(KernelArg::number(range.max));
  launches.push_back(std::move(l));
  return {};
}

}  // namespace nnrt::opencl::detail
