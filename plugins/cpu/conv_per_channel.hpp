// Table adapters (header-only) for CONV_2D and DEPTHWISE_CONV_2D with a per-channel quantized filter
// (TENSOR_QUANT8_SYMM_PER_CHANNEL) on TENSOR_QUANT8_ASYMM input/output, and for quant8 MEAN. The
// TENSOR_QUANT8_ASYMM_SIGNED rows reach them through viaUnsigned (input 0 and the output shifted by
// 128; the int8 filter and the int32 bias are used as they are).
#pragma once

#include <cstdint>
#include <string>

#include "nnrt/driver/ops/params.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/kernels/conv.hpp"
#include "plugins/cpu/kernels/reduce.hpp"

namespace nnrt::cpu {
namespace per_channel_detail {

// The per-channel scales of input 1 (the filter): one per output channel along `channelDim`.
inline driver::Result<const float*> filterScales(const KernelCall& c, uint32_t channelDim) {
  const ops::Arg& filter = c.op.inputs[1];
  const nnrt_operand* operand = filter.operand;
  const std::string name = ops::operationName(c.op.type);
  if (operand == nullptr || operand->channel_scales == nullptr) {
    return driver::generalFailure("cpu driver bug: " + name + " has a per-channel filter without scales");
  }
  if (operand->channel_dim != channelDim || filter.rank() != 4 ||
      operand->channel_scale_count != filter.dims[channelDim]) {
    return driver::invalidArgument(name + ": the per-channel filter's scales must run along dimension " +
                                   std::to_string(channelDim) + ", one per output channel");
  }
  return operand->channel_scales;
}

// P: ops::Conv2DParams (channel dimension 0) or ops::DepthwiseConv2DParams (channel dimension 3).
using PerChannelFn = void (*)(const uint8_t*, const Shape&, Quant, const int8_t*, const Shape&, const float*,
                              const int32_t*, const Conv2DParams&, uint8_t*, const Shape&, Quant);

template <class P>
driver::Result<void> runPerChannel(const KernelCall& c, uint32_t channelDim, PerChannelFn fn) {
  NNRT_ASSIGN_OR_RETURN(const P* p, paramsOf<P>(c));
  NNRT_ASSIGN_OR_RETURN(const float* scales, filterScales(c, channelDim));
  const Shape filterShape = shapeOf(c.op.inputs[1]);
  const Quant inQuant = quantOf(c.op.inputs[0]);
  const Quant outQuant = quantOf(c.op.outputs[0]);
  const int32_t* bias = c.op.inputs.size() > 2 && !c.op.inputs[2].omitted ? input<int32_t>(c, 2) : nullptr;
  runNhwc(c, p->nchw, 1, [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
    fn(static_cast<const uint8_t*>(in), inShape, inQuant, input<int8_t>(c, 1), filterShape, scales, bias,
       convParams(*p), static_cast<uint8_t*>(out), outShape, outQuant);
  });
  return {};
}

}  // namespace per_channel_detail

// CONV_2D, TENSOR_QUANT8_ASYMM input/output, TENSOR_QUANT8_SYMM_PER_CHANNEL filter [Cout, KH, KW, Cin]
// with channel_dim 0, TENSOR_INT32 bias; NHWC or NCHW. Parameters: ops::Conv2DParams.
inline driver::Result<void> convQuantPerChannel(const KernelCall& c) {
  return per_channel_detail::runPerChannel<ops::Conv2DParams>(c, 0, conv2dPerChannel);
}

// DEPTHWISE_CONV_2D, as above with the filter [1, KH, KW, Cout] and channel_dim 3. Parameters:
// ops::DepthwiseConv2DParams (the kernel reads the depth multiplier from the shapes).
inline driver::Result<void> depthwiseQuantPerChannel(const KernelCall& c) {
  return per_channel_detail::runPerChannel<ops::DepthwiseConv2DParams>(c, 3, depthwiseConv2dPerChannel);
}

// MEAN on TENSOR_QUANT8_ASYMM; the output has its own scale and zero point. Parameters: ops::MeanParams.
inline driver::Result<void> meanQuant(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::MeanParams>(c));
  mean(input<uint8_t>(c, 0), shapeOf(c.op.inputs[0]), quantOf(c.op.inputs[0]), p->axes, output<uint8_t>(c),
       quantOf(c.op.outputs[0]));
  return {};
}

}  // namespace nnrt::cpu
