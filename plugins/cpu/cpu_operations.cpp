// The cpu driver's one dispatch table (kKernels, at the end of this file) and the adapters that turn
// a KernelCall into a call of the kernel library. Adapters are templates over the kernel function,
// so each table row names its kernel and nothing is written out per operation.
#include "plugins/cpu/cpu_operations.hpp"

#include <array>
#include <cstdint>
#include <vector>

#include "nnrt/driver/ops/operand_types.hpp"
#include "plugins/cpu/conv_per_channel.hpp"
#include "plugins/cpu/kernel_call.hpp"
#include "plugins/cpu/type_adapters.hpp"
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

using BinaryInt32Fn = void (*)(const int32_t*, const Shape&, const int32_t*, const Shape&, int32_t*, const Shape&);

template <BinaryInt32Fn Fn>
Result<void> binaryInt32(const KernelCall& c) {
  const Arg &a = c.op.inputs[0], &b = c.op.inputs[1];
  Fn(input<int32_t>(c, 0), shapeOf(a), input<int32_t>(c, 1), shapeOf(b), output<int32_t>(c),
     shapeOf(c.op.outputs[0]));
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

// ---- 2-D image operations (NHWC kernels; NCHW models go through runNhwc's transposes) ------------------

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
               convParams(*p), static_cast<float*>(out), outShape);
          });
  return {};
}

template <class P, ConvQuantFn Fn>
Result<void> convQuant(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const P* p, paramsOf<P>(c));
  const Shape filterShape = shapeOf(c.op.inputs[1]);
  runNhwc(c, p->nchw, 1, [&](const void* in, const Shape& inShape, void* out, const Shape& outShape) {
    Fn(static_cast<const uint8_t*>(in), inShape, quantOf(c.op.inputs[0]), input<uint8_t>(c, 1), filterShape,
       quantOf(c.op.inputs[1]), input<int32_t>(c, 2), convParams(*p), static_cast<uint8_t*>(out), outShape,
       quantOf(c.op.outputs[0]));
  });
  return {};
}

// Quant8 convolutions: a per-tensor filter (TENSOR_QUANT8_ASYMM / _SIGNED) or a per-channel one
// (TENSOR_QUANT8_SYMM_PER_CHANNEL, conv_per_channel.hpp).
template <class P, ConvQuantFn Fn, RunFn PerChannel>
Result<void> convQuantAnyFilter(const KernelCall& c) {
  if (ops::isType(c.op.inputs[1].type, driver::OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL)) return PerChannel(c);
  return convQuant<P, Fn>(c);
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

// Every input has the output's type (and, for quant8, parameters the validation made equal or the
// quant8 row requantizes): the bytes are laid side by side.
Result<void> concatenationBytes(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::ConcatenationParams>(c));
  const size_t n = c.op.inputs.size() - 1;  // the last input is the axis
  std::vector<const void*> data(n);
  std::vector<Shape> shapes(n);
  for (size_t i = 0; i < n; ++i) {
    data[i] = c.op.inputs[i].data;
    shapes[i] = shapeOf(c.op.inputs[i]);
  }
  concatenation(data, shapes, p->axis, ops::elementSize(c.op.inputs[0].type), c.outputData[0]);
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

Result<void> transposeBytes(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::TransposeParams>(c));
  transpose(c.op.inputs[0].data, shapeOf(c.op.inputs[0]), p->perm, ops::elementSize(c.op.inputs[0].type),
            c.outputData[0]);
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

// Quant8 PAD pads with the zero point: the real value 0, as NNAPI defines it.
Result<void> padQuant(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::PadParams>(c));
  std::vector<uint32_t> paddings;
  for (size_t d = 0; d < p->before.size(); ++d) {
    paddings.push_back(p->before[d]);
    paddings.push_back(p->after[d]);
  }
  pad<uint8_t>(input<uint8_t>(c, 0), shapeOf(c.op.inputs[0]), paddings,
               static_cast<uint8_t>(c.op.inputs[0].zeroPoint), output<uint8_t>(c));
  return {};
}

Result<void> meanFloat(const KernelCall& c) {
  NNRT_ASSIGN_OR_RETURN(const auto* p, paramsOf<ops::MeanParams>(c));
  mean(input<float>(c, 0), shapeOf(c.op.inputs[0]), p->axes, output<float>(c));
  return {};
}

// ---- Limits inside a supported (operation, type) pair ----------------------------------------------------

// NNAPI takes TENSOR_INT32 arithmetic without a fused activation (Android's reference refuses one).
std::string noActivationForInt32(const ops::OpArgs& op) {
  if (op.inputs.size() > 2 && op.inputs[2].hasValue() && op.inputs[2].scalar<int32_t>() != 0) {
    return ops::operationName(op.type) + " on TENSOR_INT32 takes no fused activation (input 2 must be 0)";
  }
  return "";
}


// ---- The table -------------------------------------------------------------------------------------------

using namespace table_names;

// Every (operation, type of input 0) of the wave-1 operations the cpu driver runs. TENSOR_FLOAT16
// rows run the float32 kernel through viaFloat32, TENSOR_QUANT8_ASYMM_SIGNED rows the uint8 kernel
// through viaUnsigned (both exact adapters, type_adapters.hpp).
constexpr RunFn kConvQuant = convQuantAnyFilter<ops::Conv2DParams, conv2d, convQuantPerChannel>;
constexpr RunFn kDepthwiseQuant =
    convQuantAnyFilter<ops::DepthwiseConv2DParams, depthwiseConv2d, depthwiseQuantPerChannel>;

const KernelEntry kBasicKernels[] = {
    // ADD, SUB, MUL, DIV, FLOOR
    {T::ADD, F32, decodeWith<ops::decodeBinary>, binaryFloat<add>},
    {T::ADD, F16, decodeWith<ops::decodeBinary>, viaFloat32<binaryFloat<add>>},
    {T::ADD, Q8, decodeWith<ops::decodeBinary>, binaryQuant<add>},
    {T::ADD, Q8S, decodeWith<ops::decodeBinary>, viaUnsigned<binaryQuant<add>>},
    {T::ADD, I32, decodeWith<ops::decodeBinary>, binaryInt32<add>, noActivationForInt32},
    {T::SUB, F32, decodeWith<ops::decodeBinary>, binaryFloat<sub>},
    {T::SUB, F16, decodeWith<ops::decodeBinary>, viaFloat32<binaryFloat<sub>>},
    {T::SUB, Q8, decodeWith<ops::decodeBinary>, binaryQuant<sub>},
    {T::SUB, Q8S, decodeWith<ops::decodeBinary>, viaUnsigned<binaryQuant<sub>>},
    {T::SUB, I32, decodeWith<ops::decodeBinary>, binaryInt32<sub>, noActivationForInt32},
    {T::MUL, F32, decodeWith<ops::decodeBinary>, binaryFloat<mul>},
    {T::MUL, F16, decodeWith<ops::decodeBinary>, viaFloat32<binaryFloat<mul>>},
    {T::MUL, Q8, decodeWith<ops::decodeBinary>, binaryQuant<mul>},
    {T::MUL, Q8S, decodeWith<ops::decodeBinary>, viaUnsigned<binaryQuant<mul>>},
    {T::MUL, I32, decodeWith<ops::decodeBinary>, binaryInt32<mul>, noActivationForInt32},
    {T::DIV, F32, decodeWith<ops::decodeBinary>, binaryFloat<div>},
    {T::DIV, F16, decodeWith<ops::decodeBinary>, viaFloat32<binaryFloat<div>>},
    {T::DIV, I32, decodeWith<ops::decodeBinary>, binaryInt32<div>, noActivationForInt32},
    {T::FLOOR, F32, noParams, unaryFloat<floor>},
    {T::FLOOR, F16, noParams, viaFloat32<unaryFloat<floor>>},
    // Activations
    {T::RELU, F32, noParams, unaryFloat<relu>},
    {T::RELU, F16, noParams, viaFloat32<unaryFloat<relu>>},
    {T::RELU, Q8, noParams, unaryQuant<relu>},
    {T::RELU, Q8S, noParams, viaUnsigned<unaryQuant<relu>>},
    {T::RELU1, F32, noParams, unaryFloat<relu1>},
    {T::RELU1, F16, noParams, viaFloat32<unaryFloat<relu1>>},
    {T::RELU1, Q8, noParams, unaryQuant<relu1>},
    {T::RELU1, Q8S, noParams, viaUnsigned<unaryQuant<relu1>>},
    {T::RELU6, F32, noParams, unaryFloat<relu6>},
    {T::RELU6, F16, noParams, viaFloat32<unaryFloat<relu6>>},
    {T::RELU6, Q8, noParams, unaryQuant<relu6>},
    {T::RELU6, Q8S, noParams, viaUnsigned<unaryQuant<relu6>>},
    {T::LOGISTIC, F32, noParams, unaryFloat<logistic>},
    {T::LOGISTIC, F16, noParams, viaFloat32<unaryFloat<logistic>>},
    {T::LOGISTIC, Q8, noParams, unaryQuant<logistic>},
    {T::LOGISTIC, Q8S, noParams, viaUnsigned<unaryQuant<logistic>>},
    {T::TANH, F32, noParams, unaryFloat<tanh>},
    {T::TANH, F16, noParams, viaFloat32<unaryFloat<tanh>>},
    {T::TANH, Q8, noParams, unaryQuant<tanh>},
    {T::TANH, Q8S, noParams, viaUnsigned<unaryQuant<tanh>>},
    {T::SOFTMAX, F32, decodeWith<ops::decodeSoftmax>, softmaxFloat},
    {T::SOFTMAX, F16, decodeWith<ops::decodeSoftmax>, viaFloat32<softmaxFloat>},
    {T::SOFTMAX, Q8, decodeWith<ops::decodeSoftmax>, softmaxQuant},
    {T::SOFTMAX, Q8S, decodeWith<ops::decodeSoftmax>, viaUnsigned<softmaxQuant>},
    // FULLY_CONNECTED, convolutions, pools
    {T::FULLY_CONNECTED, F32, decodeWith<ops::decodeFullyConnected>, fullyConnectedFloat},
    {T::FULLY_CONNECTED, F16, decodeWith<ops::decodeFullyConnected>, viaFloat32<fullyConnectedFloat>},
    {T::FULLY_CONNECTED, Q8, decodeWith<ops::decodeFullyConnected>, fullyConnectedQuant},
    {T::FULLY_CONNECTED, Q8S, decodeWith<ops::decodeFullyConnected>, viaUnsigned<fullyConnectedQuant>},
    {T::CONV_2D, F32, decodeWith<ops::decodeConv2D>, convFloat<ops::Conv2DParams, conv2d>},
    {T::CONV_2D, F16, decodeWith<ops::decodeConv2D>, viaFloat32<convFloat<ops::Conv2DParams, conv2d>>},
    {T::CONV_2D, Q8, decodeWith<ops::decodeConv2D>, kConvQuant},
    {T::CONV_2D, Q8S, decodeWith<ops::decodeConv2D>, viaUnsigned<kConvQuant>},
    {T::DEPTHWISE_CONV_2D, F32, decodeWith<ops::decodeDepthwiseConv2D>,
     convFloat<ops::DepthwiseConv2DParams, depthwiseConv2d>},
    {T::DEPTHWISE_CONV_2D, F16, decodeWith<ops::decodeDepthwiseConv2D>,
     viaFloat32<convFloat<ops::DepthwiseConv2DParams, depthwiseConv2d>>},
    {T::DEPTHWISE_CONV_2D, Q8, decodeWith<ops::decodeDepthwiseConv2D>, kDepthwiseQuant},
    {T::DEPTHWISE_CONV_2D, Q8S, decodeWith<ops::decodeDepthwiseConv2D>, viaUnsigned<kDepthwiseQuant>},
    {T::AVERAGE_POOL_2D, F32, decodeWith<ops::decodePool2D>, poolFloat<averagePool2d>},
    {T::AVERAGE_POOL_2D, F16, decodeWith<ops::decodePool2D>, viaFloat32<poolFloat<averagePool2d>>},
    {T::AVERAGE_POOL_2D, Q8, decodeWith<ops::decodePool2D>, poolQuant<averagePool2d>},
    {T::AVERAGE_POOL_2D, Q8S, decodeWith<ops::decodePool2D>, viaUnsigned<poolQuant<averagePool2d>>},
    {T::MAX_POOL_2D, F32, decodeWith<ops::decodePool2D>, poolFloat<maxPool2d>},
    {T::MAX_POOL_2D, F16, decodeWith<ops::decodePool2D>, viaFloat32<poolFloat<maxPool2d>>},
    {T::MAX_POOL_2D, Q8, decodeWith<ops::decodePool2D>, poolQuant<maxPool2d>},
    {T::MAX_POOL_2D, Q8S, decodeWith<ops::decodePool2D>, viaUnsigned<poolQuant<maxPool2d>>},
    {T::L2_POOL_2D, F32, decodeWith<ops::decodePool2D>, poolFloat<l2Pool2d>},
    {T::L2_POOL_2D, F16, decodeWith<ops::decodePool2D>, viaFloat32<poolFloat<l2Pool2d>>},
    // Shapes and data movement: the bytes move unchanged whatever the type
    {T::RESHAPE, F32, decodeWith<ops::decodeReshape>, copyInput0, nullptr, true},
    {T::RESHAPE, F16, decodeWith<ops::decodeReshape>, copyInput0, nullptr, true},
    {T::RESHAPE, Q8, decodeWith<ops::decodeReshape>, copyInput0, nullptr, true},
    {T::RESHAPE, Q8S, decodeWith<ops::decodeReshape>, copyInput0, nullptr, true},
    {T::RESHAPE, I32, decodeWith<ops::decodeReshape>, copyInput0, nullptr, true},
    {T::SQUEEZE, F32, decodeWith<ops::decodeSqueeze>, copyInput0, nullptr, true},
    {T::SQUEEZE, F16, decodeWith<ops::decodeSqueeze>, copyInput0, nullptr, true},
    {T::SQUEEZE, Q8, decodeWith<ops::decodeSqueeze>, copyInput0, nullptr, true},
    {T::SQUEEZE, Q8S, decodeWith<ops::decodeSqueeze>, copyInput0, nullptr, true},
    {T::CONCATENATION, F32, decodeWith<ops::decodeConcatenation>, concatenationBytes},
    {T::CONCATENATION, F16, decodeWith<ops::decodeConcatenation>, concatenationBytes},
    {T::CONCATENATION, Q8, decodeWith<ops::decodeConcatenation>, concatenationQuant},
    {T::CONCATENATION, Q8S, decodeWith<ops::decodeConcatenation>, viaUnsigned<concatenationQuant>},
    {T::TRANSPOSE, F32, decodeWith<ops::decodeTranspose>, transposeBytes},
    {T::TRANSPOSE, F16, decodeWith<ops::decodeTranspose>, transposeBytes},
    {T::TRANSPOSE, Q8, decodeWith<ops::decodeTranspose>, transposeBytes},
    {T::TRANSPOSE, Q8S, decodeWith<ops::decodeTranspose>, transposeBytes},
    {T::PAD, F32, decodeWith<ops::decodePad>, padFloat},
    {T::PAD, F16, decodeWith<ops::decodePad>, viaFloat32<padFloat>},
    {T::PAD, Q8, decodeWith<ops::decodePad>, padQuant},
    {T::PAD, Q8S, decodeWith<ops::decodePad>, viaUnsigned<padQuant>},
    {T::MEAN, F32, decodeWith<ops::decodeMean>, meanFloat},
    {T::MEAN, F16, decodeWith<ops::decodeMean>, viaFloat32<meanFloat>},
    {T::MEAN, Q8, decodeWith<ops::decodeMean>, meanQuant},
    {T::MEAN, Q8S, decodeWith<ops::decodeMean>, viaUnsigned<meanQuant>},
};

}  // namespace

std::span<const KernelEntry> basicKernels() {
  return kBasicKernels;
}

std::vector<std::span<const KernelEntry>> kernelTables() {
  return {basicKernels(),  tensorKernels(),  imageKernels(),     recurrentKernels(), quantizedLstmKernels(),
          mathKernels(),   reduceKernels(),  nonlinearKernels(), tensor2Kernels(),   conv2Kernels(),
          detectionKernels()};
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

Result<const KernelEntry*> selectKernel(const ops::OpArgs& op, std::string* deferred) {
  const std::string name = ops::operationName(op.type);
  if (!hasKernelFor(op.type)) return driver::invalidArgument(name + " is not implemented by the cpu driver");
  bool invalid = false;
  if (auto valid = ops::validate(op); !valid) {
    ops::OpArgs signature = op;
    signature.check = ops::Check::Signature;
    if (deferred == nullptr || !ops::validate(signature))
      return driver::invalidArgument("invalid operation: " + valid.error().message);
    *deferred = "invalid operation: " + valid.error().message;
    invalid = true;
  }
  const int32_t type = op.inputs.empty() ? -1 : op.inputs[0].type;
  const KernelEntry* entry = findKernel(op.type, type);
  if (entry == nullptr) {
    return driver::invalidArgument(name + " on " + ops::typeName(type) +
                                   " is not implemented by the cpu driver");
  }
  if (entry->limit != nullptr && !invalid) {
    if (std::string why = entry->limit(op); !why.empty()) return driver::invalidArgument(why);
  }
  return entry;
}

}  // namespace nnrt::cpu
