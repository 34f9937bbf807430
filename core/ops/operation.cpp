// The table of operation signatures and the checks every signed operation shares. The per-operation
// rules live in the family files (ops_elementwise.cpp, ops_activation.cpp, ops_conv.cpp, ops_pool.cpp,
// ops_shape.cpp).
#include "core/ops/operation.hpp"

#include <initializer_list>

#include "core/ops/ops_common.hpp"
#include "core/ops/ops_families.hpp"

namespace nnrt::ops {

namespace {

using namespace detail;

constexpr uint64_t bits(std::initializer_list<uint32_t> positions) {
  uint64_t mask = 0;
  for (uint32_t p : positions)
    mask |= uint64_t{1} << p;
  return mask;
}

struct Signature {
  OperationType type;
  uint64_t inputCounts;   // bit n set: the operation may take n inputs
  uint32_t variadicFrom;  // when non-zero: any count >= this (inputCounts unused)
  uint32_t outputCount;
  uint64_t omittable;  // bit i set: input i may be an omitted optional input (NO_VALUE)
  ValidateFn validate;
  InferFn infer;
};

using T = OperationType;
// Conv: implicit 7, 8 (layout), 10 (layout, dilation); explicit 10, 11, 13. Depthwise: one more.
// Pools: implicit 7, 8; explicit 10, 11.
const Signature kSignatures[] = {
    {T::ADD, bits({3}), 0, 1, 0, validateBinary, inferBinary},
    {T::SUB, bits({3}), 0, 1, 0, validateBinary, inferBinary},
    {T::MUL, bits({3}), 0, 1, 0, validateBinary, inferBinary},
    {T::DIV, bits({3}), 0, 1, 0, validateBinary, inferBinary},
    {T::FLOOR, bits({1}), 0, 1, 0, validateFloor, inferLikeInput0},
    {T::RELU, bits({1}), 0, 1, 0, validateRelu, inferLikeInput0},
    {T::RELU1, bits({1}), 0, 1, 0, validateRelu, inferLikeInput0},
    {T::RELU6, bits({1}), 0, 1, 0, validateRelu, inferLikeInput0},
    {T::LOGISTIC, bits({1}), 0, 1, 0, validateLogistic, inferLikeInput0},
    {T::TANH, bits({1}), 0, 1, 0, validateTanh, inferLikeInput0},
    {T::SOFTMAX, bits({2, 3}), 0, 1, bits({2}), validateSoftmax, inferLikeInput0},
    {T::FULLY_CONNECTED, bits({4}), 0, 1, 0, validateFullyConnected, inferFullyConnected},
    {T::CONV_2D, bits({7, 8, 10, 11, 13}), 0, 1, bits({7, 8, 9, 10, 11, 12}), validateConv2D, inferConv2D},
    {T::DEPTHWISE_CONV_2D, bits({8, 9, 11, 12, 14}), 0, 1, bits({8, 9, 10, 11, 12, 13}),
     validateDepthwiseConv2D, inferDepthwiseConv2D},
    {T::AVERAGE_POOL_2D, bits({7, 8, 10, 11}), 0, 1, bits({7, 10}), validatePool, inferPool},
    {T::MAX_POOL_2D, bits({7, 8, 10, 11}), 0, 1, bits({7, 10}), validatePool, inferPool},
    {T::L2_POOL_2D, bits({7, 8, 10, 11}), 0, 1, bits({7, 10}), validatePool, inferPool},
    {T::RESHAPE, bits({2}), 0, 1, 0, validateReshape, inferReshape},
    {T::CONCATENATION, 0, 2, 1, 0, validateConcatenation, inferConcatenation},
    {T::SQUEEZE, bits({1, 2}), 0, 1, bits({1}), validateSqueeze, inferSqueeze},
    {T::TRANSPOSE, bits({1, 2}), 0, 1, bits({1}), validateTranspose, inferTranspose},
    {T::PAD, bits({2}), 0, 1, 0, validatePad, inferPad},
    {T::MEAN, bits({3}), 0, 1, 0, validateMean, inferMean},
};

const Signature* findSignature(int32_t type) {
  for (const Signature& s : kSignatures) {
    if (static_cast<int32_t>(s.type) == type) return &s;
  }
  return nullptr;
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

driver::Result<void> checkCounts(const Signature& sig, const OpArgs& op) {
  const size_t n = op.inputs.size();
  if (sig.variadicFrom != 0) {
    if (n < sig.variadicFrom) {
      return driver::invalidArgument(operationName(op.type) + " takes at least " +
                                     std::to_string(sig.variadicFrom) + " inputs, not " + std::to_string(n));
    }
  } else if (n >= 64 || (sig.inputCounts & (uint64_t{1} << n)) == 0) {
    return driver::invalidArgument(operationName(op.type) + " takes " + countList(sig.inputCounts) +
                                   " inputs, not " + std::to_string(n));
  }
  if (op.outputs.size() != sig.outputCount) {
    return driver::invalidArgument(operationName(op.type) + " takes " + std::to_string(sig.outputCount) +
                                   (sig.outputCount == 1 ? " output" : " outputs") + ", not " +
                                   std::to_string(op.outputs.size()));
  }
  return {};
}

// What holds for any operand of a signed operation, whatever its position.
driver::Result<void> checkOperand(const std::string& label, const Arg& arg) {
  if (!isKnownOperandType(arg.type) || isType(arg.type, OperandType::OEM) ||
      isType(arg.type, OperandType::TENSOR_OEM_BYTE) || isType(arg.type, OperandType::SUBGRAPH)) {
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
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const Arg& arg = op.inputs[i];
    if (arg.omitted) {
      if (i >= 64 || (sig.omittable & (uint64_t{1} << i)) == 0) {
        return driver::invalidArgument(inputLabel(op, i, {}) +
                                       " is omitted, but it is not an optional input");
      }
      continue;
    }
    NNRT_RETURN_IF_ERROR(checkOperand(inputLabel(op, i, {}), arg));
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    if (op.outputs[i].omitted) return driver::invalidArgument(outputLabel(op, i) + " must not be omitted");
    NNRT_RETURN_IF_ERROR(checkOperand(outputLabel(op, i), op.outputs[i]));
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

bool hasSignature(int32_t operationType) {
  return findSignature(operationType) != nullptr;
}

driver::Result<void> validate(const OpArgs& op) {
  const Signature* sig = findSignature(op.type);
  if (sig == nullptr) return {};
  NNRT_RETURN_IF_ERROR(checkCounts(*sig, op));
  NNRT_RETURN_IF_ERROR(checkOperands(*sig, op));
  NNRT_RETURN_IF_ERROR(sig->validate(op));
  NNRT_ASSIGN_OR_RETURN(std::vector<Shape> shapes, sig->infer(op));
  return checkDeclaredOutputs(op, shapes);
}

driver::Result<std::vector<Shape>> inferShapes(const OpArgs& op) {
  const Signature* sig = findSignature(op.type);
  if (sig == nullptr) return declaredOutputShapes(op);
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
