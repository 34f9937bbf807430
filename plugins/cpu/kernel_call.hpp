// Reading a KernelCall: the helpers every table file of the cpu driver uses to turn a call into
// the arguments of a kernel of kernels/.
#pragma once

#include <array>
#include <variant>
#include <vector>

#include "nnrt/driver/ops/operation.hpp"
#include "nnrt/driver/ops/params.hpp"
#include "plugins/cpu/cpu_operations.hpp"
#include "plugins/cpu/kernels/conv.hpp"
#include "plugins/cpu/kernels/tensor_shape.hpp"
#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

inline Shape shapeOf(const ops::Arg& arg) {
  return Shape{std::vector<uint32_t>(arg.dims.begin(), arg.dims.end())};
}
inline Quant quantOf(const ops::Arg& arg) {
  return Quant{arg.scale, arg.zeroPoint};
}
inline size_t elementsOf(const ops::Arg& arg) {
  return shapeOf(arg).elements();
}
// An optional tensor given no value (NO_VALUE), or given one without elements: NNAPI models use both
// forms for the recurrent operations' optional inputs.
inline bool absent(const ops::Arg& arg) {
  return arg.omitted || arg.data == nullptr || elementsOf(arg) == 0;
}
template <class T>
const T* input(const KernelCall& c, size_t i) {
  return static_cast<const T*>(c.op.inputs[i].data);
}
template <class T>
T* output(const KernelCall& c, size_t i = 0) {
  return static_cast<T*>(c.outputData[i]);
}

// The decoded parameters of the kind the table row promised.
template <class P>
driver::Result<const P*> paramsOf(const KernelCall& c) {
  const P* p = std::get_if<P>(&c.params);
  if (p == nullptr) {
    return driver::generalFailure("cpu driver bug: " + ops::operationName(c.op.type) +
                                  " got parameters of the wrong kind");
  }
  return p;
}

// A table row's decode function from an SDK decoder (ops::decodeConv2D, ...).
template <auto Decode>
driver::Result<OpParams> decodeWith(const ops::OpArgs& op) {
  NNRT_ASSIGN_OR_RETURN(auto params, Decode(op));
  return OpParams(std::move(params));
}
inline driver::Result<OpParams> noParams(const ops::OpArgs&) {
  return OpParams{};
}

// An optional BOOL input at `index` (a layout flag, align corners, ...): true when present, given
// and true.
inline bool flagAt(const KernelCall& c, size_t index) {
  if (index >= c.op.inputs.size()) return false;
  const ops::Arg& flag = c.op.inputs[index];
  return !flag.omitted && flag.hasValue() && flag.scalar<uint8_t>() != 0;
}

// The kernels' convolution window from the SDK's decoded CONV_2D / DEPTHWISE_CONV_2D parameters.
inline Conv2DParams convParams(const ops::Conv2DParams& p) {
  return Conv2DParams{p.padLeft,   p.padRight,  p.padTop,    p.padBottom, p.strideW,
                      p.strideH,   p.dilationW, p.dilationH, p.activation};
}

// Calls body(in, inShape, out, outShape) with input 0 and output 0 as NHWC. For an NCHW operation
// both are transposed through the execution's scratch memory.
template <class Body>
void runNhwc(const KernelCall& c, bool nchw, size_t elementSize, const Body& body) {
  const ops::Arg& in = c.op.inputs[0];
  const ops::Arg& out = c.op.outputs[0];
  if (!nchw) {
    body(in.data, shapeOf(in), c.outputData[0], shapeOf(out));
    return;
  }
  static constexpr std::array<uint32_t, 4> kToNhwc{0, 2, 3, 1};
  static constexpr std::array<uint32_t, 4> kToNchw{0, 3, 1, 2};
  const Shape inNhwc{{in.dims[0], in.dims[2], in.dims[3], in.dims[1]}};
  const Shape outNhwc{{out.dims[0], out.dims[2], out.dims[3], out.dims[1]}};
  void* inData = c.scratch.allocate(inNhwc.elements() * elementSize);
  void* outData = c.scratch.allocate(outNhwc.elements() * elementSize);
  transpose(in.data, shapeOf(in), kToNhwc, elementSize, inData);
  body(inData, inNhwc, outData, outNhwc);
  transpose(outData, outNhwc, kToNchw, elementSize, c.outputData[0]);
}

// As runNhwc, for operations that treat every channel alike and apart (the resizes): an NCHW operation's
// N x C planes are given to body as N * C images of one channel each, in place, without transposes.
template <class Body>
void runNhwcOrPlanes(const KernelCall& c, bool nchw, const Body& body) {
  const ops::Arg& in = c.op.inputs[0];
  const ops::Arg& out = c.op.outputs[0];
  if (!nchw) {
    body(in.data, shapeOf(in), c.outputData[0], shapeOf(out));
    return;
  }
  body(in.data, Shape{{in.dims[0] * in.dims[1], in.dims[2], in.dims[3], 1}}, c.outputData[0],
       Shape{{out.dims[0] * out.dims[1], out.dims[2], out.dims[3], 1}});
}

}  // namespace nnrt::cpu
