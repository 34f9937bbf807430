#include "plugins/opencl/op_support.hpp"

#include <algorithm>

#include "nnrt/driver/ops/operand_types.hpp"
#include "nnrt/driver/ops/operation.hpp"

namespace nnrt::opencl {
namespace {

using driver::OperandType;
using driver::OperationType;

constexpr OperationType kSupported[] = {
    OperationType::ADD,
    OperationType::SUB,
    OperationType::MUL,
    OperationType::DIV,
    OperationType::RELU,
    OperationType::RELU1,
    OperationType::RELU6,
    OperationType::LOGISTIC,
    OperationType::TANH,
    OperationType::FULLY_CONNECTED,
    OperationType::CONV_2D,
    OperationType::DEPTHWISE_CONV_2D,
    OperationType::AVERAGE_POOL_2D,
    OperationType::MAX_POOL_2D,
    OperationType::SOFTMAX,
    OperationType::RESHAPE,
    OperationType::CONCATENATION,
};

bool isSupportedType(int32_t type) {
  return std::any_of(std::begin(kSupported), std::end(kSupported),
                     [type](OperationType t) { return static_cast<int32_t>(t) == type; });
}

std::string supportedList() {
  std::string s;
  for (OperationType t : kSupported)
    s += (s.empty() ? "" : ", ") + std::string(driver::operationTypeName(t));
  return s;
}

bool isWindowed(int32_t type) {
  return type == static_cast<int32_t>(OperationType::CONV_2D) ||
         type == static_cast<int32_t>(OperationType::DEPTHWISE_CONV_2D) ||
         type == static_cast<int32_t>(OperationType::AVERAGE_POOL_2D) ||
         type == static_cast<int32_t>(OperationType::MAX_POOL_2D);
}

}  // namespace

const char* buildOptions(Precision precision) {
  switch (precision) {
    case Precision::HalfStorage:
      return "-DNNRT_HALF_STORAGE";
    case Precision::HalfCompute:
      return "-DNNRT_HALF_COMPUTE";
    case Precision::Float32:
      break;
  }
  return "";
}

const char* precisionName(Precision precision) {
  switch (precision) {
    case Precision::HalfStorage:
      return "float16 storage with float32 arithmetic";
    case Precision::HalfCompute:
      return "float16";
    case Precision::Float32:
      break;
  }
  return "float32";
}

FloatTensorTypes floatTensorTypes(const driver::Subgraph& subgraph) {
  FloatTensorTypes t;
  for (const nnrt_operand& operand : subgraph.operands()) {
    t.float32 |= operand.type == static_cast<int32_t>(OperandType::TENSOR_FLOAT32);
    t.float16 |= operand.type == static_cast<int32_t>(OperandType::TENSOR_FLOAT16);
  }
  return t;
}

Precision choosePrecision(FloatTensorTypes types, bool relaxed, bool deviceFp16, Fp16Mode mode) {
  if (types.float16)
    return deviceFp16 && mode == Fp16Mode::Auto ? Precision::HalfCompute : Precision::HalfStorage;
  if (!relaxed || mode == Fp16Mode::Off) return Precision::Float32;
  if (mode == Fp16Mode::Storage) return Precision::HalfStorage;
  return deviceFp16 ? Precision::HalfCompute : Precision::Float32;
}

std::string unsupportedReason(const driver::Model& model, uint32_t index, FloatTensorTypes modelTypes) {
  const driver::Subgraph main = model.main();
  const nnrt_operation& operation = main.operations()[index];
  const std::string name = ops::operationName(operation.type);
  if (!isSupportedType(operation.type)) {
    return name + " has no OpenCL kernel in this driver (it runs " + supportedList() + ")";
  }
  const std::vector<ops::Arg> inputs = ops::inputArgs(model, main, operation);
  const std::vector<ops::Arg> outputs = ops::outputArgs(model, main, operation);
  const ops::OpArgs op{operation.type, inputs, outputs, model.relaxComputationFloat32toFloat16()};
  if (auto valid = ops::validate(op); !valid) return name + " is not valid: " + valid.error().message;

  const int32_t dataType = inputs[0].type;
  const bool f32 = dataType == static_cast<int32_t>(OperandType::TENSOR_FLOAT32);
  const bool f16 = dataType == static_cast<int32_t>(OperandType::TENSOR_FLOAT16);
  if (!f32 && !f16) {
    return name + " on " + ops::typeName(dataType) +
           " is not supported: the opencl driver runs TENSOR_FLOAT32 and TENSOR_FLOAT16 kernels only";
  }
  if (f16 && modelTypes.float32) {
    return name +
           " on TENSOR_FLOAT16 is not supported in a model that also has TENSOR_FLOAT32 tensors: the "
           "opencl driver runs one precision per model (float32 here)";
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ops::Arg& arg = inputs[i];
    if (arg.omitted || ops::isTensorType(arg.type)) continue;
    if (!arg.hasValue()) {
      return name + " input " + std::to_string(i) + " (" + ops::typeName(arg.type) +
             " parameter) is not a constant; the opencl driver needs every parameter at preparation";
    }
    if (isWindowed(operation.type) && arg.type == static_cast<int32_t>(OperandType::BOOL) &&
        arg.scalar<uint8_t>()) {
      return name + " in NCHW layout (input " + std::to_string(i) +
             " data_layout = true) is not supported: the opencl driver runs NHWC only";
    }
  }
  if (operation.type == static_cast<int32_t>(OperationType::RESHAPE) && !inputs[1].hasValue()) {
    return "RESHAPE with a shape (input 1) that is not a constant is not supported by the opencl driver";
  }
  return {};
}

}  // namespace nnrt::opencl
