#include "plugins/cpu/type_adapters.hpp"

#include <cstring>
#include <vector>

#include "nnrt/driver/half.hpp"
#include "nnrt/driver/ops/operand_types.hpp"

namespace nnrt::cpu {
namespace {

using driver::OperandType;
using ops::Arg;

bool concerns(int32_t type, Widening widening) {
  if (widening == Widening::Float16ToFloat32) {
    return ops::isType(type, OperandType::TENSOR_FLOAT16) || ops::isType(type, OperandType::FLOAT16);
  }
  return ops::isType(type, OperandType::TENSOR_QUANT8_ASYMM_SIGNED);
}

// The converted description of `arg` (its data not yet converted) and the bytes it needs.
Arg widenedType(Arg arg, Widening widening, size_t& bytes) {
  const size_t count = arg.length / ops::elementSize(arg.type);
  if (widening == Widening::Float16ToFloat32) {
    arg.type = static_cast<int32_t>(ops::isType(arg.type, OperandType::FLOAT16) ? OperandType::FLOAT32
                                                                                  : OperandType::TENSOR_FLOAT32);
    bytes = count * sizeof(float);
  } else {
    arg.type = static_cast<int32_t>(OperandType::TENSOR_QUANT8_ASYMM);
    arg.zeroPoint += 128;
    bytes = count;
  }
  arg.length = bytes;
  return arg;
}

void widen(const void* from, size_t bytes, Widening widening, void* to) {
  if (widening == Widening::Float16ToFloat32) {
    driver::halvesToFloats(from, bytes / sizeof(float), to);
    return;
  }
  const auto* in = static_cast<const uint8_t*>(from);
  auto* out = static_cast<uint8_t*>(to);
  for (size_t i = 0; i < bytes; ++i) out[i] = static_cast<uint8_t>(in[i] ^ 0x80u);  // int8 + 128 as uint8
}

void narrow(const void* from, size_t bytes, Widening widening, void* to) {
  if (widening == Widening::Float16ToFloat32) {
    driver::floatsToHalves(from, bytes / sizeof(float), to);
    return;
  }
  widen(from, bytes, widening, to);  // flipping the top bit is its own inverse
}

}  // namespace

driver::Result<void> runWidened(const KernelCall& call, RunFn run, Widening widening) {
  std::vector<Arg> inputs(call.op.inputs.begin(), call.op.inputs.end());
  for (Arg& arg : inputs) {
    if (arg.omitted || !arg.hasValue() || !concerns(arg.type, widening)) continue;
    size_t bytes = 0;
    Arg widened = widenedType(arg, widening, bytes);
    void* data = call.scratch.allocate(bytes);
    widen(arg.data, bytes, widening, data);
    widened.data = data;
    arg = widened;
  }
  std::vector<Arg> outputs(call.op.outputs.begin(), call.op.outputs.end());
  std::vector<void*> outputData(call.outputData.begin(), call.outputData.end());
  std::vector<size_t> narrowBytes(outputs.size(), 0);
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!concerns(outputs[i].type, widening)) continue;
    // Output Args carry shapes, not lengths: size the widened buffer from the shape.
    size_t count = 1;
    for (uint32_t d : outputs[i].dims) count *= d;
    Arg sized = outputs[i];
    sized.length = count * ops::elementSize(sized.type);
    size_t bytes = 0;
    outputs[i] = widenedType(sized, widening, bytes);
    outputs[i].data = nullptr;
    outputs[i].length = 0;
    outputData[i] = call.scratch.allocate(bytes);
    narrowBytes[i] = bytes;
  }
  const ops::OpArgs op{call.op.type, inputs, outputs, call.op.relaxed, call.op.check};
  NNRT_RETURN_IF_ERROR(run(KernelCall{op, outputData, call.params, call.scratch}));
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (narrowBytes[i] != 0) narrow(outputData[i], narrowBytes[i], widening, call.outputData[i]);
  }
  return {};
}

}  // namespace nnrt::cpu
