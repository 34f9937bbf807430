// The index of operation signatures and the checks every signed operation shares. The per-operation
// rules and each family's table live in the family files (ops_*.cpp); ops_families.hpp lists them.
#include "nnrt/driver/ops/operation.hpp"

#include <initializer_list>

#include "ops_common.hpp"
#include "ops_families.hpp"

namespace nnrt::ops {

namespace {

using namespace detail;

using T = OperationType;
// Conv: implicit 7, 8 (layout), 10 (layout, dilation); explicit 10, 11, 13. Depthwise: one more.
// Pools: implicit 7, 8; explicit 10, 11.
const Signature kBasicSignatures[] = {
    {T::ADD, bits({3}), 0, bits({1}), 0, 0, validateBinary, inferBinary},
    {T::SUB, bits({3}), 0, bits({1}), 0, 0, validateBinary, inferBinary},
    {T::MUL, bits({3}), 0, bits({1}), 0, 0, validateBinary, inferBinary},
    {T::DIV, bits({3}), 0, bits({1}), 0, 0, validateBinary, inferBinary},
    {T::FLOOR, bits({1}), 0, bits({1}), 0, 0, validateFloor, inferLikeInput0},
    {T::RELU, bits({1}), 0, bits({1}), 0, 0, validateRelu, inferLikeInput0},
    {T::RELU1, bits({1}), 0, bits({1}), 0, 0, validateRelu, inferLikeInput0},
    {T::RELU6, bits({1}), 0, bits({1}), 0, 0, validateRelu, inferLikeInput0},
    {T::LOGISTIC, bits({1}), 0, bits({1}), 0, 0, validateLogistic, inferLikeInput0},
    {T::TANH, bits({1}), 0, bits({1}), 0, 0, validateTanh, inferLikeInput0},
    {T::SOFTMAX, bits({2, 3}), 0, bits({1}), 0, bits({2}), validateSoftmax, inferLikeInput0},
    {T::FULLY_CONNECTED, bits({4}), 0, bits({1}), 0, 0, validateFullyConnected, inferFullyConnected},
    {T::CONV_2D, bits({7, 8, 10, 11, 13}), 0, bits({1}), 0, bits({7, 8, 9, 10, 11, 12}), validateConv2D,
     inferConv2D},
    {T::DEPTHWISE_CONV_2D, bits({8, 9, 11, 12, 14}), 0, bits({1}), 0, bits({8, 9, 10, 11, 12, 13}),
     validateDepthwiseConv2D, inferDepthwiseConv2D},
    {T::AVERAGE_POOL_2D, bits({7, 8, 10, 11}), 0, bits({1}), 0, bits({7, 10}), validatePool, inferPool},
    {T::MAX_POOL_2D, bits({7, 8, 10, 11}), 0, bits({1}), 0, bits({7, 10}), validatePool, inferPool},
    {T::L2_POOL_2D, bits({7, 8, 10, 11}), 0, bits({1}), 0, bits({7, 10}), validatePool, inferPool},
    {T::RESHAPE, bits({2}), 0, bits({1}), 0, 0, validateReshape, inferReshape},
    {T::CONCATENATION, 0, 2, bits({1}), 0, 0, validateConcatenation, inferConcatenation},
    {T::SQUEEZE, bits({2}), 0, bits({1}), 0, bits({1}), validateSqueeze, inferSqueeze},
    {T::TRANSPOSE, bits({2}), 0, bits({1}), 0, bits({1}), validateTranspose, inferTranspose},
    {T::PAD, bits({2}), 0, bits({1}), 0, 0, validatePad, inferPad},
    {T::MEAN, bits({3}), 0, bits({1}), 0, 0, validateMean, inferMean},
};

// Every family's table, indexed by operation code once (codes 0..kMaxOperationCode).
constexpr int32_t kMaxOperationCode = 127;
struct SignatureIndex {
  const Signature* byCode[kMaxOperationCode + 1] = {};

  SignatureIndex() {
    for (std::span<const Signature> family :
         {std::span<const Signature>(kBasicSignatures), mathSignatures(), tensorSignatures(), imageSignatures(),
          recurrentSignatures()}) {
      for (const Signature& s : family) {
        const auto code = static_cast<int32_t>(s.type);
        if (code >= 0 && code <= kMaxOperationCode && byCode[code] == nullptr) byCode[code] = &s;
      }
    }
  }
};

const Signature* findSignature(int32_t type) {
  static const SignatureIndex index;
  return type >= 0 && type <= kMaxOperationCode ? index.byCode[type] : nullptr;
}

std::string countList(uint64_t counts) {
  std::string s;
  int listed = 0;
  const int total = __builtin_popcountll(counts);
  for (uint32_t n = 0; n < 64; ++n) {
    if ((counts & (uint64_t{1} << n)) == 0) continue;
    if (listed > 0) s += (listed + 1 == total) ? " or " : ", ";
    s += std::to_string(n);
    ++listed;
  }
  return s;
}

driver::Result<void> checkCount(const OpArgs& op, const char* what, size_t n, uint64_t counts,
                                uint32_t variadicFrom) {
  if (variadicFrom != 0) {
    if (n < variadicFrom) {
      return driver::invalidArgument(operationName(op.type) + " takes at least " + std::to_string(variadicFrom) +
                                     " " + what + "s, not " + std::to_string(n));
    }
  } else if (n >= 64 || (counts & (uint64_t{1} << n)) == 0) {
    return driver::invalidArgument(operationName(op.type) + " takes " + countList(counts) + " " + what +
                                   (counts == bits({1}) ? "" : "s") + ", not " + std::to_string(n));
  }
  return {};
}

driver::Result<void> checkCounts(const Signature& sig, const OpArgs& op) {
  NNRT_RETURN_IF_ERROR(checkCount(op, "input", op.inputs.size(), sig.inputCounts, sig.inputsVariadicFrom));
  return checkCount(op, "output", op.outputs.size(), sig.outputCounts, sig.outputsVariadicFrom);
}

// What holds for any operand of a signed operation, whatever its position.
// SUBGRAPH operands belong to IF and WHILE only; their validate functions place them.
driver::Result<void> checkOperand(const std::string& label, const Arg& arg, bool controlFlow) {
  if (!isKnownOperandType(arg.type) || isType(arg.type, OperandType::OEM) ||
      isType(arg.type, OperandType::TENSOR_OEM_BYTE) ||
      (isType(arg.type, OperandType::SUBGRAPH) && !controlFlow)) {
    return driver::invalidArgument(label + " has type " + typeName(arg.type) +
                                   ", which this operation does not take");
  }
  if (isScalarType(arg.type) && arg.rank() != 0) {
    return driver::invalidArgument(label + " is a " + typeName(arg.type) + " scalar but has dimensions " +
                                   shapeToString(arg.dims));
  }
  if (std::string problem = checkQuantization(arg.type, arg.scale, arg.zeroPoint); !problem.empty()) {
    return driver::invalidArgument(label + ": " + problem);
  }
  if (arg.hasValue()) {
    auto expected = byteSize(arg.type, arg.dims);
    if (expected && *expected != arg.length) {
      return driver::invalidArgument(label + " holds " + std::to_string(arg.length) + " bytes, but " +
                                     typeName(arg.type) + " " + shapeToString(arg.dims) + " needs " +
                                     std::to_string(*expected));
    }
  }
  return {};
}

driver::Result<void> checkOperands(const Signature& sig, const OpArgs& op) {
  const bool controlFlow =
      op.type == static_cast<int32_t>(OperationType::IF) || op.type == static_cast<int32_t>(OperationType::WHILE);
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const Arg& arg = op.inputs[i];
    if (arg.omitted) {
      if (i < 64 && (sig.omittable & (uint64_t{1} << i)) != 0) continue;
      // As Android, a required input left without a value is the device's to refuse: the model
      // is built, and only the full check (a device's) refuses it.
      if (op.full()) {
        return driver::invalidArgument(inputLabel(op, i, {}) + " is omitted, but it is not an optional input");
      }
    }
    NNRT_RETURN_IF_ERROR(checkOperand(inputLabel(op, i, {}), arg, controlFlow));
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    if (op.outputs[i].omitted) return driver::invalidArgument(outputLabel(op, i) + " must not be omitted");
    NNRT_RETURN_IF_ERROR(checkOperand(outputLabel(op, i), op.outputs[i], false));
  }
  return {};
}

// Declared output dimensions must agree with the inferred ones wherever both are known.
driver::Result<void> checkDeclaredOutputs(const OpArgs& op, const std::vector<Shape>& inferred) {
  for (size_t i = 0; i < op.outputs.size() && i < inferred.size(); ++i) {
    const auto declared = op.outputs[i].dims;
    const Shape& shape = inferred[i];
    if (declared.empty() || shape.empty()) continue;  // a rank is unknown
    bool agree = declared.size() == shape.size();
    for (size_t d = 0; agree && d < shape.size(); ++d) {
      agree = declared[d] == 0 || shape[d] == 0 || declared[d] == shape[d];
    }
    if (!agree) {
      return driver::invalidArgument(outputLabel(op, i) + " is declared " + shapeToString(declared) +
                                     ", but its inputs give " + shapeToString(shape));
    }
  }
  return {};
}

std::vector<Shape> declaredOutputShapes(const OpArgs& op) {
  std::vector<Shape> shapes;
  shapes.reserve(op.outputs.size());
  for (const Arg& out : op.outputs)
    shapes.push_back(toShape(out.dims));
  return shapes;
}

Arg makeArg(const driver::Model& model, const driver::Subgraph& subgraph, uint32_t index) {
  Arg arg;
  const auto operands = subgraph.operands();
  if (index >= operands.size()) {
    arg.type = -1;  // refused by validate as an unknown type
    return arg;
  }
  const nnrt_operand& operand = operands[index];
  arg.type = operand.type;
  arg.dims = driver::dimensions(operand);
  arg.scale = operand.scale;
  arg.zeroPoint = operand.zero_point;
  arg.operand = &operand;
  arg.omitted = operand.lifetime == NNRT_LIFETIME_NO_VALUE;
  if (auto bytes = model.constantBytes(operand); !bytes.empty()) {
    arg.data = bytes.data();
    arg.length = bytes.size();
  }
  return arg;
}

}  // namespace

bool takesZeroSizedInputs(int32_t operationType) {
  switch (static_cast<driver::OperationType>(operationType)) {
    case driver::OperationType::ADD:
    case driver::OperationType::SUB:
    case driver::OperationType::MUL:
    case driver::OperationType::DIV:
    case driver::OperationType::AVERAGE_POOL_2D:
    case driver::OperationType::L2_POOL_2D:
    case driver::OperationType::MAX_POOL_2D:
    case driver::OperationType::CONCATENATION:
    case driver::OperationType::CONV_2D:
    case driver::OperationType::DEPTHWISE_CONV_2D:
    case driver::OperationType::TRANSPOSE_CONV_2D:
    case driver::OperationType::FULLY_CONNECTED:
    case driver::OperationType::DEQUANTIZE:
    case driver::OperationType::QUANTIZE:
    case driver::OperationType::RELU:
    case driver::OperationType::RELU1:
    case driver::OperationType::RELU6:
    case driver::OperationType::LOGISTIC:
    case driver::OperationType::TANH:
    case driver::OperationType::HARD_SWISH:
    case driver::OperationType::SOFTMAX:
    case driver::OperationType::RESIZE_BILINEAR:
    case driver::OperationType::RESIZE_NEAREST_NEIGHBOR:
    case driver::OperationType::SLICE:
    case driver::OperationType::TRANSPOSE:
    case driver::OperationType::AXIS_ALIGNED_BBOX_TRANSFORM:
    case driver::OperationType::BOX_WITH_NMS_LIMIT:
    case driver::OperationType::ROI_ALIGN:
      return true;
    default:
      return false;
  }
}

bool hasSignature(int32_t operationType) {
  return findSignature(operationType) != nullptr;
}

driver::Result<int32_t> validateSignature(const OpArgs& op) {
  const Signature* sig = findSignature(op.type);
  if (sig == nullptr) return 1;
  // The signature depth reads no value: the Args are copied without their data, so every
  // "value known" reader answers "not yet".
  std::vector<Arg> inputs(op.inputs.begin(), op.inputs.end());
  std::vector<Arg> outputs(op.outputs.begin(), op.outputs.end());
  for (Arg& a : inputs) {
    a.data = nullptr;
    a.length = 0;
  }
  for (Arg& a : outputs) {
    a.data = nullptr;
    a.length = 0;
  }
  OpArgs signature{op.type, inputs, outputs, op.relaxed, Check::Signature};
  NNRT_RETURN_IF_ERROR(checkCounts(*sig, signature));
  NNRT_RETURN_IF_ERROR(checkOperands(*sig, signature));
  NNRT_RETURN_IF_ERROR(sig->validate(signature));
  op.featureLevel = signature.featureLevel;
  return signature.featureLevel;
}

driver::Result<void> validate(const OpArgs& op) {
  if (!op.full()) {
    NNRT_RETURN_IF_ERROR(validateSignature(op));
    return {};
  }
  const Signature* sig = findSignature(op.type);
  if (sig == nullptr) return {};
  NNRT_RETURN_IF_ERROR(checkCounts(*sig, op));
  NNRT_RETURN_IF_ERROR(checkOperands(*sig, op));
  NNRT_RETURN_IF_ERROR(sig->validate(op));
  if (sig->infer == nullptr) return {};
  NNRT_ASSIGN_OR_RETURN(std::vector<Shape> shapes, sig->infer(op));
  return checkDeclaredOutputs(op, shapes);
}

driver::Result<std::vector<Shape>> inferShapes(const OpArgs& op) {
  const Signature* sig = findSignature(op.type);
  if (sig == nullptr || sig->infer == nullptr) return declaredOutputShapes(op);
  NNRT_RETURN_IF_ERROR(checkCounts(*sig, op));
  return sig->infer(op);
}

std::vector<Arg> inputArgs(const driver::Model& model, const driver::Subgraph& subgraph,
                           const nnrt_operation& operation) {
  std::vector<Arg> args;
  args.reserve(operation.input_count);
  for (uint32_t index : driver::inputs(operation))
    args.push_back(makeArg(model, subgraph, index));
  return args;
}

std::vector<Arg> outputArgs(const driver::Model& model, const driver::Subgraph& subgraph,
                            const nnrt_operation& operation) {
  std::vector<Arg> args;
  args.reserve(operation.output_count);
  for (uint32_t index : driver::outputs(operation))
    args.push_back(makeArg(model, subgraph, index));
  return args;
}

}  // namespace nnrt::ops
