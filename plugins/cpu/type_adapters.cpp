#include "plugins/cpu/type_adapters.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "nnrt/driver/half.hpp"
#include "nnrt/driver/ops/operand_types.hpp"

namespace nnrt::cpu {
namespace {

using driver::OperandType;
using ops::Arg;

bool concerns(int32_t type, Widening widening) {
  switch (widening) {
    case Widening::Float16ToFloat32:
      return ops::isType(type, OperandType::TENSOR_FLOAT16) || ops::isType(type, OperandType::FLOAT16);
    case Widening::SignedToUnsigned:
      return ops::isType(type, OperandType::TENSOR_QUANT8_ASYMM_SIGNED);
    case Widening::QuantizedToFloat32:
      return ops::isType(type, OperandType::TENSOR_QUANT8_ASYMM) ||
             ops::isType(type, OperandType::TENSOR_QUANT8_ASYMM_SIGNED) ||
             ops::isType(type, OperandType::TENSOR_QUANT16_ASYMM) ||
             ops::isType(type, OperandType::TENSOR_QUANT16_SYMM);
  }
  return false;
}

// The converted description of `arg` (its data not yet converted) and the bytes it needs.
Arg widenedType(Arg arg, Widening widening, size_t& bytes) {
  const size_t count = arg.length / ops::elementSize(arg.type);
  switch (widening) {
    case Widening::Float16ToFloat32:
      arg.type = static_cast<int32_t>(ops::isType(arg.type, OperandType::FLOAT16) ? OperandType::FLOAT32
                                                                                    : OperandType::TENSOR_FLOAT32);
      bytes = count * sizeof(float);
      break;
    case Widening::SignedToUnsigned:
      arg.type = static_cast<int32_t>(OperandType::TENSOR_QUANT8_ASYMM);
      arg.zeroPoint += 128;
      bytes = count;
      break;
    case Widening::QuantizedToFloat32:
      arg.type = static_cast<int32_t>(OperandType::TENSOR_FLOAT32);
      arg.scale = 0.0f;
      arg.zeroPoint = 0;
      bytes = count * sizeof(float);
      break;
  }
  arg.length = bytes;
  return arg;
}

// The stored integer i of a quantized tensor `arg`.
double storedAt(const Arg& arg, const void* data, size_t i) {
  switch (static_cast<OperandType>(arg.type)) {
    case OperandType::TENSOR_QUANT8_ASYMM: return static_cast<const uint8_t*>(data)[i];
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return static_cast<const int8_t*>(data)[i];
    case OperandType::TENSOR_QUANT16_ASYMM: return static_cast<const uint16_t*>(data)[i];
    default: return static_cast<const int16_t*>(data)[i];  // TENSOR_QUANT16_SYMM
  }
}

template <class T>
void storeRounded(double q, void* data, size_t i) {
  const double lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
  static_cast<T*>(data)[i] = static_cast<T>(std::clamp(std::round(q), lo, hi));
}

// `original` describes the unconverted operand (its type, scale and zero point); `count` elements.
void widen(const Arg& original, const void* from, size_t count, Widening widening, void* to) {
  switch (widening) {
    case Widening::Float16ToFloat32:
      driver::halvesToFloats(from, count, to);
      return;
    case Widening::SignedToUnsigned: {
      const auto* in = static_cast<const uint8_t*>(from);
      auto* out = static_cast<uint8_t*>(to);
      for (size_t i = 0; i < count; ++i) out[i] = static_cast<uint8_t>(in[i] ^ 0x80u);  // int8 + 128 as uint8
      return;
    }
    case Widening::QuantizedToFloat32: {
      auto* out = static_cast<float*>(to);
      for (size_t i = 0; i < count; ++i) {
        out[i] = static_cast<float>((storedAt(original, from, i) - original.zeroPoint) * original.scale);
      }
      return;
    }
  }
}

void narrow(const Arg& original, const void* from, size_t count, Widening widening, void* to) {
  switch (widening) {
    case Widening::Float16ToFloat32:
      driver::floatsToHalves(from, count, to);
      return;
    case Widening::SignedToUnsigned:
      widen(original, from, count, widening, to);  // flipping the top bit is its own inverse
      return;
    case Widening::QuantizedToFloat32: {
      const auto* in = static_cast<const float*>(from);
      for (size_t i = 0; i < count; ++i) {
        const double q = static_cast<double>(in[i]) / original.scale + original.zeroPoint;
        switch (static_cast<OperandType>(original.type)) {
          case OperandType::TENSOR_QUANT8_ASYMM: storeRounded<uint8_t>(q, to, i); break;
          case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: storeRounded<int8_t>(q, to, i); break;
          case OperandType::TENSOR_QUANT16_ASYMM: storeRounded<uint16_t>(q, to, i); break;
          default: storeRounded<int16_t>(q, to, i); break;
        }
      }
      return;
    }
  }
}

size_t elementCount(std::span<const uint32_t> dims) {
  size_t count = 1;
  for (uint32_t d : dims) count *= d;
  return count;
}

// An output of the widened call still to be converted back into the caller's buffer.
struct Narrowing {
  Arg original;
  void* widened = nullptr;
  void* target = nullptr;
  size_t count = 0;
};

}  // namespace

driver::Result<void> runWidened(const KernelCall& call, RunFn run, Widening widening) {
  std::vector<Arg> inputs(call.op.inputs.begin(), call.op.inputs.end());
  for (Arg& arg : inputs) {
    if (arg.omitted || !arg.hasValue() || !concerns(arg.type, widening)) continue;
    size_t bytes = 0;
    Arg widened = widenedType(arg, widening, bytes);
    void* data = call.scratch.allocate(bytes);
    widen(arg, arg.data, arg.length / ops::elementSize(arg.type), widening, data);
    widened.data = data;
    arg = widened;
  }
  std::vector<Arg> outputs(call.op.outputs.begin(), call.op.outputs.end());
  std::vector<Narrowing> narrowings;
  // A widened buffer for output k of `shape` (the caller's bytes at `target`).
  auto widenOutput = [&](size_t k, std::span<const uint32_t> shape, void* target) {
    Arg sized = call.op.outputs[k];
    const size_t count = elementCount(shape);
    sized.length = count * ops::elementSize(sized.type);
    size_t bytes = 0;
    outputs[k] = widenedType(sized, widening, bytes);
    outputs[k].data = nullptr;
    outputs[k].length = 0;
    void* data = call.scratch.allocate(bytes);
    narrowings.push_back({call.op.outputs[k], data, target, count});
    return data;
  };
  std::vector<void*> outputData(call.outputData.begin(), call.outputData.end());
  PlaceOutputFn place;
  if (call.placeOutput != nullptr) {
    place = [&](size_t k, const ops::Shape& shape) -> driver::Result<void*> {
      NNRT_ASSIGN_OR_RETURN(void* target, (*call.placeOutput)(k, shape));
      if (!concerns(call.op.outputs[k].type, widening)) return target;
      return widenOutput(k, shape, target);
    };
  } else {
    for (size_t i = 0; i < outputs.size(); ++i) {
      // Output Args carry shapes, not lengths: size the widened buffer from the shape.
      if (concerns(outputs[i].type, widening)) outputData[i] = widenOutput(i, outputs[i].dims, call.outputData[i]);
    }
  }
  const ops::OpArgs op{call.op.type, inputs, outputs, call.op.relaxed, call.op.check};
  NNRT_RETURN_IF_ERROR(
      run(KernelCall{op, outputData, call.params, call.scratch, call.placeOutput != nullptr ? &place : nullptr}));
  for (const Narrowing& n : narrowings) narrow(n.original, n.widened, n.count, widening, n.target);
  return {};
}

}  // namespace nnrt::cpu
