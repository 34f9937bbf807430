// The cpu driver's one dispatch table (kKernels, at the end of this file) and the adapters that turn
// a KernelCall into a call of the kernel library. Adapters are templates over the kernel function,
// so each table row names its kernel and nothing is written out per operation.
#include "plugins/cpu/cpu_operations.hpp"

#include <array>
#include <cstdint>
#include <vector>

#include "nnrt/driver/ops/operand_types.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/kernels/activation.hpp"
#include "plugins/cpu/kernels/conv.hpp"
#include "plugins/cpu/kernels/elementwise.hpp"
#include "plugins/cpu/kernels/fully_connected.hpp"
#include "plugins/cpu/kernels/pool.hpp"
#include "plugins/cpu/kernels/reduce.hpp"
#include "plugins/cpu/kernels/softmax.hpp"
#include "plugins/cpu/kernels/tensor_shape.hpp"

namespace nnrt::cpu {
namespace {

using driver::Result;
using ops::Arg;

// ---- Element-wise ------------------------------------------------------------------------------------

using BinaryFloatFn = void (*)(const float*, const Shape&, const float*, const Shape&, Activation, float*,
                               const Shape&);
using BinaryQuantFn = void (*)(const uint8_t*, const Shape&, Quant, const uint8_t*, const Shape&, Quant,
                               Activation, uint8_t*, const Shape&, Quant);
using UnaryFloatFn = void (*)(const float*, size_t, float*);
using UnaryQuantFn = void (*)(const uint8_t*, size_t, Quant, uint8_t*);

template <BinaryFloatFn Fn>
Result<void> binaryFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::BinaryParams>(c));
  const Arg &a = c.op.inputs[0], &b = c.op.inputs[1];
  Fn(input<float>(c, 0), shapeOf(a), input<float>(c, 1), shapeOf(b), p->activation,
     output<float>(c), shapeOf(c.op.outputs[0]));
  return {};
}

template <BinaryQuantFn Fn>
Result<void> binaryQuant(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::BinaryParams>(c));
  const Arg &a = c.op.inputs[0], &b = c.op.inputs[1], &out = c.op.outputs[0];
  Fn(input<uint8_t>(c, 0), shapeOf(a), quantOf(a), input<uint8_t>(c, 1), shapeOf(b), quantOf(b),
     p->activation, output<uint8_t>(c), shapeOf(out), quantOf(out));
  return {};
}

template <UnaryFloatFn Fn>
Result<void> unaryFloat(const KernelCall& c) {
  Fn(input<float>(c, 0), elementsOf(c.op.inputs[0]), output<float>(c));
  return {};
}

template <UnaryQuantFn Fn>
Result<void> unaryQuant(const KernelCall& c) {
  Fn(input<uint8_t>(c, 0), elementsOf(c.op.inputs[0]), quantOf(c.op.inputs[0]), output<uint8_t>(c));
  return {};
}

// ---- FULLY_CONNECTED -----------------------------------------------------------------------------------

Result<void> fullyConnectedFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::FullyConnectedParams>(c));
  fullyConnected(input<float>(c, 0), input<float>(c, 1), input<float>(c, 2), p->batchSize, p->inputSize,
                 p->numUnits, p->activation, output<float>(c));
  return {};
}

Result<void> fullyConnectedQuant(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::FullyConnectedParams>(c));
  fullyConnected(input<uint8_t>(c, 0), quantOf(c.op.inputs[0]), input<uint8_t>(c, 1), quantOf(c.op.inputs[1]),
                 input<int32_t>(c, 2), p->batchSize, p->inputSize, p->numUnits, p->activation,
                 output<uint8_t>(c), quantOf(c.op.outputs[0]));
  return {};
}

// ---- 2-D image operations (NHWC kernels; NCHW models go through a transpose) ---------------------------

// Calls body(in, inShape, out, outShape) with input 0 and output 0 as NHWC. For an NCHW operation
// both are transposed through the execution's scratch memory.
template <class Body>
void runNhwc(const KernelCall& c, bool nchw, size_t elementSize, const Body& body) {
  const Arg& in = c.op.inputs[0];
  const Arg& out = c.op.outputs[0];
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

Conv2DParams kernelParams(const ops::Conv2DParams& p) {
  return Conv2DParams{p.padLeft,   p.padRight,  p.padTop,
                      p.padBottom, p.strideW,   p.strideH,
                      p.dilationW, p.dilationH, p.activation};
}
Pool2DParams kernelParams(const ops::Pool2DParams& p) {
  return Pool2DParams{p.padLeft,   p.padRight, p.padTop,
                      p.padBottom, p.strideW,  p.strideH,
                      p.filterW,   p.filterH,  p.activation};
}

using ConvFloatFn = void (*)(const float*, const Shape&, const float*, const Shape&, const float*,
                             const Conv2DParams&, float*, const Shape&);
using ConvQuantFn = void (*)(const uint8_t*, const Shape&, Quant, const uint8_t*, const Shape&, Quant,
                             const int32_t*, const Conv2DParams&, uint8_t*, const Shape&, Quant);

// P is ops::Conv2DParams (CONV_2D) or ops::DepthwiseConv2DParams (DEPTHWISE_CONV_2D; the kernel reads
// the depth multiplier from the shapes).
template <class P, ConvFloatFn Fn>
Result<void> convFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const P* p, paramsOf<P>(c));
  const Shape filterShape = shapeOf(c.op.inputs[1]);
  runNhwc(c, p->nchw, sizeof(float),
          [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
            Fn(static_cast<const float*>(in), inShape, input<float>(c, 1), filterShape, input<float>(c, 2),
               kernelParams(*p), static_cast<float*>(out), outShape);
          });
  return {};
}

template <class P, ConvQuantFn Fn>
Result<void> convQuant(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const P* p, paramsOf<P>(c));
  const Shape filterShape = shapeOf(c.op.inputs[1]);
  runNhwc(c, p->nchw, 1, [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
    Fn(static_cast<const uint8_t*>(in), inShape, quantOf(c.op.inputs[0]), input<uint8_t>(c, 1), filterShape,
       quantOf(c.op.inputs[1]), input<int32_t>(c, 2), kernelParams(*p), static_cast<uint8_t*>(out), outShape,
       quantOf(c.op.outputs[0]));
  });
  return {};
}

using PoolFloatFn = void (*)(const float*, const Shape&, const Pool2DParams&, float*, const Shape&);
using PoolQuantFn = void (*)(const uint8_t*, const Shape&, Quant, const Pool2DParams&, uint8_t*,
                             const Shape&);

template <PoolFloatFn Fn>
Result<void> poolFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::Pool2DParams>(c));
  runNhwc(c, p->nchw, sizeof(float),
          [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
            Fn(static_cast<const float*>(in), inShape, kernelParams(*p), static_cast<float*>(out), outShape);
          });
  return {};
}

template <PoolQuantFn Fn>
Result<void> poolQuant(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::Pool2DParams>(c));
  runNhwc(c, p->nchw, 1, [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
    Fn(static_cast<const uint8_t*>(in), inShape, quantOf(c.op.inputs[0]), kernelParams(*p),
       static_cast<uint8_t*>(out), outShape);
  });
  return {};
}

// ---- SOFTMAX -------------------------------------------------------------------------------------------

Result<void> softmaxFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::SoftmaxParams>(c));
  softmax(input<float>(c, 0), shapeOf(c.op.inputs[0]), p->beta, p->axis, output<float>(c));
  return {};
}

Result<void> softmaxQuant(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::SoftmaxParams>(c));
  softmax(input<uint8_t>(c, 0), shapeOf(c.op.inputs[0]), quantOf(c.op.inputs[0]), p->beta, p->axis,
          output<uint8_t>(c));
  return {};
}

// ---- Data movement -------------------------------------------------------------------------------------

// RESHAPE and SQUEEZE: the bytes are unchanged (a no-op when the output already is input 0).
Result<void> copyInput0(const KernelCall& c) {
  const Arg& in = c.op.inputs[0];
  copyBytes(in.data, in.length, c.outputData[0]);
  return {};
}

Result<void> concatenationFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::ConcatenationParams>(c));
  const size_t n = c.op.inputs.size() - 1;  // the last input is the axis
  std::vector<const void*> data(n);
  std::vector<Shape> shapes(n);
  for (size_t i = 0; i < n; ++i) {
    data[i] = c.op.inputs[i].data;
    shapes[i] = shapeOf(c.op.inputs[i]);
  }
  concatenation(data, shapes, p->axis, sizeof(float), c.outputData[0]);
  return {};
}

Result<void> concatenationQuant(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::ConcatenationParams>(c));
  const size_t n = c.op.inputs.size() - 1;
  std::vector<const uint8_t*> data(n);
  std::vector<Shape> shapes(n);
  std::vector<Quant> quants(n);
  for (size_t i = 0; i < n; ++i) {
    data[i] = input<uint8_t>(c, i);
    shapes[i] = shapeOf(c.op.inputs[i]);
    quants[i] = quantOf(c.op.inputs[i]);
  }
  concatenation(data, shapes, quants, p->axis, output<uint8_t>(c), quantOf(c.op.outputs[0]));
  return {};
}

Result<void> transposeFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::TransposeParams>(c));
  transpose(c.op.inputs[0].data, shapeOf(c.op.inputs[0]), p->perm, sizeof(float), c.outputData[0]);
  return {};
}

Result<void> padFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::PadParams>(c));
  std::vector<uint32_t> paddings;  // the kernel takes NNAPI's [rank, 2] layout
  for (size_t d = 0; d < p->before.size(); ++d) {
    paddings.push_back(p->before[d]);
    paddings.push_back(p->after[d]);
  }
  pad<float>(input<float>(c, 0), shapeOf(c.op.inputs[0]), paddings, 0.0f, output<float>(c));
  return {};
}

Result<void> meanFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::MeanParams>(c));
  mean(input<float>(c, 0), shapeOf(c.op.inputs[0]), p->axes, output<float>(c));
  return {};
}

// ---- Limits inside a supported (operation, type) pair ----------------------------------------------------

std::string perTensorFilterOnly(const ops::OpArgs& op) {
  if (op.inputs.size() > 1 &&
      ops::isType(op.inputs[1].type, driver::OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL)) {
    return ops::operationName(op.type) +
           " with a per-channel quantized filter (TENSOR_QUANT8_SYMM_PER_CHANNEL) is not implemented by the "
           "cpu "
           "driver";
  }
  return "";
}

// ---- The table -------------------------------------------------------------------------------------------

using T = driver::OperationType;
constexpr auto F16 = driver::OperandType::TENSOR_FLOAT16;
constexpr auto F32 = driver::OperandType::TENSOR_FLOAT32;
constexpr auto I32 = driver::OperandType::TENSOR_INT32;
constexpr auto Q8 = driver::OperandType::TENSOR_QUANT8_ASYMM;
constexpr auto Q8S = driver::OperandType::TENSOR_QUANT8_ASYMM_SIGNED;

// Every (operation, type of input 0) of the wave-1 operations the cpu driver runs. TENSOR_FLOAT16
// rows run the float32 kernel through viaFloat32, TENSOR_QUANT8_ASYMM_SIGNED rows the uint8 kernel
// through viaUnsigned (both exact adapters, type_adapters.hpp).
const KernelEntry kBasicKernels[] = {
    {T::ADD, F32, decodeWith<ops::decodeBinary>, binaryFloat<add>},
    {T::ADD, Q8, decodeWith<ops::decodeBinary>, binaryQuant<add>},
    {T::SUB, F32, decodeWith<ops::decodeBinary>, binaryFloat<sub>},
    {T::SUB, Q8, decodeWith<ops::decodeBinary>, binaryQuant<sub>},
    {T::MUL, F32, decodeWith<ops::decodeBinary>, binaryFloat<mul>},
    {T::MUL, Q8, decodeWith<ops::decodeBinary>, binaryQuant<mul>},
    {T::DIV, F32, decodeWith<ops::decodeBinary>, binaryFloat<div>},
    {T::FLOOR, F32, noParams, unaryFloat<floor>},
    {T::RELU, F32, noParams, unaryFloat<relu>},
    {T::RELU, Q8, noParams, unaryQuant<relu>},
    {T::RELU1, F32, noParams, unaryFloat<relu1>},
    {T::RELU1, Q8, noParams, unaryQuant<relu1>},
    {T::RELU6, F32, noParams, unaryFloat<relu6>},
    {T::RELU6, Q8, noParams, unaryQuant<relu6>},
    {T::LOGISTIC, F32, noParams, unaryFloat<logistic>},
    {T::LOGISTIC, Q8, noParams, unaryQuant<logistic>},
    {T::TANH, F32, noParams, unaryFloat<tanh>},
    {T::TANH, Q8, noParams, unaryQuant<tanh>},
    {T::SOFTMAX, F32, decodeWith<ops::decodeSoftmax>, softmaxFloat},
    {T::SOFTMAX, Q8, decodeWith<ops::decodeSoftmax>, softmaxQuant},
    {T::FULLY_CONNECTED, F32, decodeWith<ops::decodeFullyConnected>, fullyConnectedFloat},
    {T::FULLY_CONNECTED, Q8, decodeWith<ops::decodeFullyConnected>, fullyConnectedQuant},
    {T::CONV_2D, F32, decodeWith<ops::decodeConv2D>, convFloat<ops::Conv2DParams, conv2d>},
    {T::CONV_2D, Q8, decodeWith<ops::decodeConv2D>, convQuant<ops::Conv2DParams, conv2d>,
     perTensorFilterOnly},
    {T::DEPTHWISE_CONV_2D, F32, decodeWith<ops::decodeDepthwiseConv2D>,
     convFloat<ops::DepthwiseConv2DParams, depthwiseConv2d>},
    {T::DEPTHWISE_CONV_2D, Q8, decodeWith<ops::decodeDepthwiseConv2D>,
     convQuant<ops::DepthwiseConv2DParams, depthwiseConv2d>, perTensorFilterOnly},
    {T::AVERAGE_POOL_2D, F32, decodeWith<ops::decodePool2D>, poolFloat<averagePool2d>},
    {T::AVERAGE_POOL_2D, Q8, decodeWith<ops::decodePool2D>, poolQuant<averagePool2d>},
    {T::MAX_POOL_2D, F32, decodeWith<ops::decodePool2D>, poolFloat<maxPool2d>},
    {T::MAX_POOL_2D, Q8, decodeWith<ops::decodePool2D>, poolQuant<maxPool2d>},
    {T::L2_POOL_2D, F32, decodeWith<ops::decodePool2D>, poolFloat<l2Pool2d>},
    {T::RESHAPE, F32, decodeWith<ops::decodeReshape>, copyInput0, nullptr, true},
    {T::RESHAPE, Q8, decodeWith<ops::decodeReshape>, copyInput0, nullptr, true},
    {T::SQUEEZE, F32, decodeWith<ops::decodeSqueeze>, copyInput0, nullptr, true},
    {T::CONCATENATION, F32, decodeWith<ops::decodeConcatenation>, concatenationFloat},
    {T::CONCATENATION, Q8, decodeWith<ops::decodeConcatenation>, concatenationQuant},
    {T::TRANSPOSE, F32, decodeWith<ops::decodeTranspose>, transposeFloat},
    {T::PAD, F32, decodeWith<ops::decodePad>, padFloat},
    {T::MEAN, F32, decodeWith<ops::decodeMean>, meanFloat},
};

}  // namespace

std::span<const KernelEntry> basicKernels() {
  return kBasicKernels;
}

std::vector<std::span<const KernelEntry>> kernelTables() {
  return {basicKernels(), tensorKernels(), imageKernels(), recurrentKernels()};
}

namespace {

bool hasKernelFor(int32_t operation) {
  for (auto table : kernelTables()) {
    for (const KernelEntry& e : table) {
      if (static_cast<int32_t>(e.operation) == operation) return true;
    }
  }
  return false;
}

const KernelEntry* findKernel(int32_t operation, int32_t inputType) {
  for (auto table : kernelTables()) {
    for (const KernelEntry& e : table) {
      if (static_cast<int32_t>(e.operation) == operation && static_cast<int32_t>(e.inputType) == inputType) return &e;
    }
  }
  return nullptr;
}

}  // namespace

Result<const KernelEntry*> selectKernel(const ops::OpArgs& op) {
  const std::string name = ops::operationName(op.type);
  if (!hasKernelFor(op.type)) return driver::invalidArgument(name + " is not implemented by the cpu driver");
  if (auto valid = ops::validate(op); !valid)
    return driver::invalidArgument("invalid operation: " + valid.error().message);
  const int32_t type = op.inputs.empty() ? -1 : op.inputs[0].type;
  const KernelEntry* entry = findKernel(op.type, type);
  if (entry == nullptr) {
    return driver::invalidArgument(name + " on " + ops::typeName(type) +
                                   " is not implemented by the cpu driver");
  }
  if (entry->limit != nullptr) {
    if (std::string why = entry->limit(op); !why.empty()) return driver::invalidArgument(why);
  }
  return entry;
}

}  // namespace nnrt::cpu
