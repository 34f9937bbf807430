#include "core/model/model.hpp"

#include <cstring>
#include <set>

#include "core/model/model_view.hpp"
#include "nnrt/driver/ops/operation.hpp"

namespace nnrt {
namespace {

constexpr size_t kMaxImmediatelyCopied = 128;  // ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES
constexpr int32_t kOemOperation = 10000;
constexpr int32_t kOemScalar = 10000;
constexpr int32_t kTensorOemByte = 10001;

std::string operandName(uint32_t index) { return "operand " + std::to_string(index); }

bool isOem(int32_t type) { return type == kOemScalar || type == kTensorOemByte; }

bool isSubgraph(int32_t type) { return type == static_cast<int32_t>(driver::OperandType::SUBGRAPH); }

}  // namespace

FinishedModel::~FinishedModel() = default;

ModelBuilder::ModelBuilder(std::shared_ptr<const ExtensionRegistry> extensions) : extensions_(std::move(extensions)) {}

Result<void> ModelBuilder::checkModifiable() const {
  if (finished_) return fail(ResultCode::BAD_STATE, "the model is already finished and cannot be modified");
  if (invalid_) return fail(ResultCode::BAD_STATE, "the model failed to finish and cannot be used");
  return {};
}

Result<Operand*> ModelBuilder::operandAt(int32_t index, const char* argument) {
  if (index < 0 || static_cast<size_t>(index) >= operands_.size()) {
    return fail(ResultCode::BAD_DATA, std::string(argument) + " " + std::to_string(index) + " is out of range (the model has " +
                                          std::to_string(operands_.size()) + " operands)");
  }
  return &operands_[index];
}

// As Android, asking for an extension type is no modification: a finished model may ask too.
Result<uint16_t> ModelBuilder::useExtension(const std::string& name) {
  NNRT_ASSIGN_OR_RETURN(uint16_t prefix, extensions_->prefixOf(name));
  for (const auto& [n, p] : extensionPrefixes_) {
    if (n == name) return p;
  }
  extensionPrefixes_.emplace_back(name, prefix);
  return prefix;
}

Result<void> ModelBuilder::addOperand(int32_t type, std::span<const uint32_t> dimensions, float scale,
                                      int32_t zeroPoint) {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  const std::string what = "type.type " + ops::typeName(type);
  bool tensor = false;
  uint32_t elementSize = 0;
  if (driver::isExtensionType(type)) {
    NNRT_ASSIGN_OR_RETURN(driver::ExtensionOperandType info, extensions_->operandType(type));
    bool used = false;
    for (const auto& [n, p] : extensionPrefixes_) used = used || p == driver::extensionPrefix(type);
    if (!used) {
      return fail(ResultCode::BAD_DATA, what + ": its extension prefix was not obtained for this model "
                                               "(use ANeuralNetworksModel_getExtensionOperandType)");
    }
    tensor = info.isTensor;
    elementSize = info.byteSize;
  } else if (ops::isKnownOperandType(type)) {
    // A SUBGRAPH operand has no bytes: its value is a model (setOperandValueFromModel).
    tensor = ops::isTensorType(type);
    elementSize = isOem(type) || isSubgraph(type) ? 0 : static_cast<uint32_t>(ops::elementSize(type));
  } else {
    return fail(ResultCode::BAD_DATA, "type.type " + std::to_string(type) + " is not an NNAPI or extension operand type");
  }
  if (!tensor && !dimensions.empty()) {
    return fail(ResultCode::BAD_DATA, what + " is a scalar but type.dimensionCount is " +
                                          std::to_string(dimensions.size()) + " (must be 0)");
  }
  if (!driver::isExtensionType(type)) {
    if (std::string q = ops::checkQuantization(type, scale, zeroPoint); !q.empty()) {
      return fail(ResultCode::BAD_DATA, "type: " + q);
    }
  }
  if (tensor && !dimensions.empty() &&
      std::find(dimensions.begin(), dimensions.end(), 0u) == dimensions.end()) {
    // As Android: a tensor whose data would not fit 2^32 bytes is refused.
    uint64_t bytes = std::max<uint32_t>(elementSize, 1);
    for (uint32_t d : dimensions) {
      bytes *= d;
      if (bytes > UINT32_MAX) {
        return fail(ResultCode::BAD_DATA, "type.dimensions " + ops::shapeToString(std::vector<uint32_t>(dimensions.begin(), dimensions.end())) +
                                              " of " + ops::typeName(type) + ": the data would take 2^32 bytes or more");
      }
    }
  }
  if (operands_.size() >= UINT32_MAX - 1) return fail(ResultCode::BAD_DATA, "too many operands");
  Operand operand;
  operand.type = type;
  operand.isTensor = tensor;
  operand.elementSize = elementSize;
  operand.dimensions.assign(dimensions.begin(), dimensions.end());
  operand.scale = scale;
  operand.zeroPoint = zeroPoint;
  operands_.push_back(std::move(operand));
  return {};
}

std::optional<uint64_t> operandByteSize(const Operand& operand, std::span<const uint32_t> dimensions) {
  if (operand.elementSize == 0) return std::nullopt;
  if (!operand.isTensor) return operand.elementSize;
  if (dimensions.empty()) return std::nullopt;
  auto count = ops::elementCount(dimensions);
  if (!count) return std::nullopt;
  return *count * operand.elementSize;
}

Result<size_t> ModelBuilder::expectedLength(const Operand& operand, uint32_t index) {
  // A TENSOR_OEM_BYTE has no element size in nnrt's operands (elementSize 0), but its value is, as
  // in Android, one byte per element.
  auto bytes = operand.type == kTensorOemByte ? ops::byteSize(operand.type, operand.dimensions)
                                              : operandByteSize(operand, operand.dimensions);
  if (!bytes) {
    return fail(ResultCode::BAD_DATA, operandName(index) + " has unknown dimensions " +
                                          ops::shapeToString(operand.dimensions) + "; a constant must be fully specified");
  }
  return *bytes;
}

Result<void> ModelBuilder::setOperandValue(int32_t index, const void* buffer, size_t length) {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  NNRT_ASSIGN_OR_RETURN(Operand * operand, operandAt(index, "index"));
  if (operand->lifetime == NNRT_LIFETIME_SUBGRAPH_INPUT || operand->lifetime == NNRT_LIFETIME_SUBGRAPH_OUTPUT) {
    return fail(ResultCode::BAD_DATA, operandName(index) + " is a model input or output and cannot have a value");
  }
  if (isSubgraph(operand->type)) {
    return fail(ResultCode::BAD_DATA, operandName(index) + " is a SUBGRAPH operand; its value is a model "
                                                          "(setOperandValueFromModel)");
  }
  if (buffer != nullptr && length == 0) {
    return fail(ResultCode::BAD_DATA, "buffer is not NULL but length is 0 (NULL with length 0 marks an omitted "
                                      "optional operand)");
  }
  if (buffer == nullptr) {
    if (length != 0) {
      return fail(ResultCode::UNEXPECTED_NULL, "buffer is NULL but length is " + std::to_string(length) +
                                                   " (NULL with length 0 marks an omitted optional operand)");
    }
    operand->lifetime = NNRT_LIFETIME_NO_VALUE;
    operand->location = {};
    return {};
  }
  // As Android: only an OEM_SCALAR value has any length.
  if (operand->type != kOemScalar) {
    NNRT_ASSIGN_OR_RETURN(size_t expected, expectedLength(*operand, index));
    if (length != expected) {
      return fail(ResultCode::BAD_DATA, "length " + std::to_string(length) + " does not match " + operandName(index) +
                                            " (" + ops::typeName(operand->type) + " " +
                                            ops::shapeToString(operand->dimensions) + " needs " +
                                            std::to_string(expected) + " bytes)");
    }
  }
  if (length > UINT32_MAX) return fail(ResultCode::BAD_DATA, "length " + std::to_string(length) + " is too large");
  std::erase_if(largeValues_, [&](const PendingValue& v) { return v.operand == static_cast<uint32_t>(index); });
  if (length <= kMaxImmediatelyCopied) {
    // Keep small values 8-byte aligned so drivers may read them in place.
    size_t offset = (smallValues_.size() + 7) & ~size_t{7};
    smallValues_.resize(offset + length);
    std::memcpy(smallValues_.data() + offset, buffer, length);
    operand->lifetime = NNRT_LIFETIME_CONSTANT_COPY;
    operand->location = {0, static_cast<uint32_t>(offset), static_cast<uint32_t>(length)};
  } else {
    // Referenced until finish, then copied (the caller keeps the buffer valid until then).
    largeValues_.push_back({static_cast<uint32_t>(index), buffer, length});
    operand->lifetime = NNRT_LIFETIME_CONSTANT_REFERENCE;
    operand->location = {UINT32_MAX, 0, static_cast<uint32_t>(length)};
  }
  return {};
}

Result<void> ModelBuilder::setOperandValueFromMemory(int32_t index, std::shared_ptr<Memory> memory, size_t offset,
                                                     size_t length) {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  NNRT_ASSIGN_OR_RETURN(Operand * operand, operandAt(index, "index"));
  if (operand->lifetime == NNRT_LIFETIME_SUBGRAPH_INPUT || operand->lifetime == NNRT_LIFETIME_SUBGRAPH_OUTPUT) {
    return fail(ResultCode::BAD_DATA, operandName(index) + " is a model input or output and cannot have a value");
  }
  if (isSubgraph(operand->type)) {
    return fail(ResultCode::BAD_DATA, operandName(index) + " is a SUBGRAPH operand; its value is a model "
                                                          "(setOperandValueFromModel)");
  }
  NNRT_RETURN_IF_ERROR(memory->checkRange(offset, length, "memory"));
  if (operand->type != kOemScalar) {
    NNRT_ASSIGN_OR_RETURN(size_t expected, expectedLength(*operand, index));
    if (length != expected) {
      return fail(ResultCode::BAD_DATA, "length " + std::to_string(length) + " does not match " + operandName(index) +
                                            " (needs " + std::to_string(expected) + " bytes)");
    }
  }
  if (offset > UINT32_MAX || length > UINT32_MAX) return fail(ResultCode::BAD_DATA, "offset or length is too large");
  std::erase_if(largeValues_, [&](const PendingValue& v) { return v.operand == static_cast<uint32_t>(index); });
  size_t slot = 0;
  while (slot < memories_.size() && memories_[slot] != memory) ++slot;
  if (slot == memories_.size()) memories_.push_back(std::move(memory));
  operand->lifetime = NNRT_LIFETIME_CONSTANT_REFERENCE;
  operand->location = {static_cast<uint32_t>(slot), static_cast<uint32_t>(offset), static_cast<uint32_t>(length)};
  return {};
}

Result<void> ModelBuilder::setOperandValueFromModel(int32_t index, std::shared_ptr<const FinishedModel> value) {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  // As Android: an unfinished (or invalid) model is BAD_STATE, before the operand is looked at.
  if (!value) return fail(ResultCode::BAD_STATE, "value is not a finished model");
  NNRT_ASSIGN_OR_RETURN(Operand * operand, operandAt(index, "index"));
  // As Android, the operand's type is not looked at here: finish refuses a model value on an operand
  // that is not a SUBGRAPH.
  if (operand->lifetime == NNRT_LIFETIME_SUBGRAPH_INPUT || operand->lifetime == NNRT_LIFETIME_SUBGRAPH_OUTPUT) {
    return fail(ResultCode::BAD_DATA, operandName(index) + " is a model input or output and cannot have a value");
  }
  size_t slot = 0;
  while (slot < referencedModels_.size() && referencedModels_[slot] != value) ++slot;
  if (slot == referencedModels_.size()) referencedModels_.push_back(std::move(value));
  operand->lifetime = NNRT_LIFETIME_SUBGRAPH;
  operand->location = {0, static_cast<uint32_t>(slot), 0};
  return {};
}

Result<void> ModelBuilder::setOperandSymmPerChannelQuantParams(int32_t index, uint32_t channelDim,
                                                               std::span<const float> scales) {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  NNRT_ASSIGN_OR_RETURN(Operand * operand, operandAt(index, "index"));
  if (operand->type != static_cast<int32_t>(driver::OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL)) {
    return fail(ResultCode::BAD_DATA, operandName(index) + " is " + ops::typeName(operand->type) +
                                          ", not TENSOR_QUANT8_SYMM_PER_CHANNEL");
  }
  if (channelDim >= operand->dimensions.size()) {
    return fail(ResultCode::BAD_DATA, "channelQuant->channelDim " + std::to_string(channelDim) +
                                          " is not below the operand's rank " +
                                          std::to_string(operand->dimensions.size()));
  }
  uint32_t channels = operand->dimensions[channelDim];
  // As Android: one scale per channel, so the number of channels must be known.
  if (channels == 0) {
    return fail(ResultCode::BAD_DATA, "channelQuant->channelDim " + std::to_string(channelDim) +
                                          " is an unknown dimension of " + operandName(index) + " " +
                                          ops::shapeToString(operand->dimensions) +
                                          " (the number of channels must be known)");
  }
  if (scales.size() != channels) {
    return fail(ResultCode::BAD_DATA, "channelQuant->scaleCount " + std::to_string(scales.size()) +
                                          " does not match dimension " + std::to_string(channelDim) + " (" +
                                          std::to_string(channels) + ")");
  }
  for (size_t i = 0; i < scales.size(); ++i) {
    if (!(scales[i] > 0.0f)) {
      return fail(ResultCode::BAD_DATA, "channelQuant->scales[" + std::to_string(i) + "] must be > 0");
    }
  }
  operand->hasChannelQuant = true;
  operand->channelDim = channelDim;
  operand->channelScales.assign(scales.begin(), scales.end());
  return {};
}

Result<void> ModelBuilder::setOperandExtensionData(int32_t index, const void* data, size_t length) {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  NNRT_ASSIGN_OR_RETURN(Operand * operand, operandAt(index, "index"));
  if (!driver::isExtensionType(operand->type)) {
    return fail(ResultCode::BAD_DATA, operandName(index) + " is " + ops::typeName(operand->type) +
                                          "; extension data belongs to extension operands only");
  }
  if ((data == nullptr) != (length == 0)) {
    return fail(ResultCode::BAD_DATA, std::string("data is ") + (data == nullptr ? "NULL" : "not NULL") +
                                          " but length is " + std::to_string(length));
  }
  if (length > UINT32_MAX) return fail(ResultCode::BAD_DATA, "length is too large");
  operand->hasExtensionData = data != nullptr;
  const auto* bytes = static_cast<const uint8_t*>(data);
  operand->extensionData.assign(bytes, bytes + (data != nullptr ? length : 0));
  return {};
}

Result<void> ModelBuilder::addOperation(int32_t type, std::span<const uint32_t> inputs,
                                        std::span<const uint32_t> outputs) {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  if (driver::isExtensionType(type)) {
    bool used = false;
    for (const auto& [n, p] : extensionPrefixes_) used = used || p == driver::extensionPrefix(type);
    if (!used) {
      return fail(ResultCode::BAD_DATA, "type " + ops::operationName(type) +
                                            ": its extension prefix was not obtained for this model "
                                            "(use ANeuralNetworksModel_getExtensionOperationType)");
    }
  } else if (driver::operationTypeName(type) == nullptr) {
    return fail(ResultCode::BAD_DATA, "type " + std::to_string(type) + " is not an NNAPI or extension operation");
  }
  if (outputs.empty()) return fail(ResultCode::BAD_DATA, "outputCount is 0; an operation has at least one output");
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] >= operands_.size()) {
      return fail(ResultCode::BAD_DATA, "inputs[" + std::to_string(i) + "] = " + std::to_string(inputs[i]) +
                                            " is out of range (the model has " + std::to_string(operands_.size()) +
                                            " operands)");
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i] >= operands_.size()) {
      return fail(ResultCode::BAD_DATA, "outputs[" + std::to_string(i) + "] = " + std::to_string(outputs[i]) +
                                            " is out of range (the model has " + std::to_string(operands_.size()) +
                                            " operands)");
    }
    const Operand& out = operands_[outputs[i]];
    if (out.lifetime == NNRT_LIFETIME_CONSTANT_COPY || out.lifetime == NNRT_LIFETIME_CONSTANT_REFERENCE ||
        out.lifetime == NNRT_LIFETIME_NO_VALUE || out.lifetime == NNRT_LIFETIME_SUBGRAPH_INPUT ||
        out.lifetime == NNRT_LIFETIME_SUBGRAPH) {
      return fail(ResultCode::BAD_DATA, "outputs[" + std::to_string(i) + "] = " + std::to_string(outputs[i]) +
                                            " is a constant or a model input and cannot be written");
    }
  }
  Operation operation{type, {inputs.begin(), inputs.end()}, {outputs.begin(), outputs.end()}};
  NNRT_RETURN_IF_ERROR(validateOperation(operation, operations_.size()));
  operations_.push_back(std::move(operation));
  return {};
}

Result<void> ModelBuilder::identifyInputsAndOutputs(std::span<const uint32_t> inputs,
                                                    std::span<const uint32_t> outputs) {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  auto check = [&](std::span<const uint32_t> list, const char* name) -> Result<void> {
    std::set<uint32_t> seen;
    for (size_t i = 0; i < list.size(); ++i) {
      std::string arg = std::string(name) + "[" + std::to_string(i) + "] = " + std::to_string(list[i]);
      if (list[i] >= operands_.size()) return fail(ResultCode::BAD_DATA, arg + " is out of range");
      if (!seen.insert(list[i]).second) return fail(ResultCode::BAD_DATA, arg + " appears twice");
      int32_t lifetime = operands_[list[i]].lifetime;
      if (lifetime == NNRT_LIFETIME_SUBGRAPH_INPUT || lifetime == NNRT_LIFETIME_SUBGRAPH_OUTPUT) {
        return fail(ResultCode::BAD_DATA, arg + " is already a model input or output");
      }
      if (lifetime != NNRT_LIFETIME_TEMPORARY_VARIABLE) {
        return fail(ResultCode::BAD_DATA, arg + " has a value (constant or omitted) and cannot be an input or output");
      }
    }
    return {};
  };
  NNRT_RETURN_IF_ERROR(check(inputs, "inputs"));
  NNRT_RETURN_IF_ERROR(check(outputs, "outputs"));
  for (uint32_t in : inputs) {
    for (uint32_t out : outputs) {
      if (in == out) return fail(ResultCode::BAD_DATA, "operand " + std::to_string(in) + " is both an input and an output");
    }
  }
  // Calling again (with other operands: as in Android, an operand cannot be named twice) replaces the
  // previous lists.
  for (uint32_t i : inputs_) operands_[i].lifetime = NNRT_LIFETIME_TEMPORARY_VARIABLE;
  for (uint32_t i : outputs_) operands_[i].lifetime = NNRT_LIFETIME_TEMPORARY_VARIABLE;
  inputs_.assign(inputs.begin(), inputs.end());
  outputs_.assign(outputs.begin(), outputs.end());
  for (uint32_t i : inputs_) operands_[i].lifetime = NNRT_LIFETIME_SUBGRAPH_INPUT;
  for (uint32_t i : outputs_) operands_[i].lifetime = NNRT_LIFETIME_SUBGRAPH_OUTPUT;
  return {};
}

Result<void> ModelBuilder::relaxComputationFloat32toFloat16(bool allow) {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  relaxed_ = allow;
  return {};
}

Result<void> ModelBuilder::validateOperation(const Operation& operation, size_t position) const {
  if (!ops::hasSignature(operation.type)) return {};  // extension, OEM and operations without a signature
  // The Args read constant values from the builder's storage: small values directly, large ones
  // from the caller's buffer (valid until finish), memory ones from the mapping.
  auto argOf = [&](uint32_t index) {
    const Operand& o = operands_[index];
    ops::Arg arg;
    arg.type = o.type;
    arg.dims = o.dimensions;
    arg.scale = o.scale;
    arg.zeroPoint = o.zeroPoint;
    arg.omitted = o.lifetime == NNRT_LIFETIME_NO_VALUE;
    if (o.lifetime == NNRT_LIFETIME_CONSTANT_COPY) {
      arg.data = smallValues_.data() + o.location.offset;
      arg.length = o.location.length;
    } else if (o.lifetime == NNRT_LIFETIME_CONSTANT_REFERENCE) {
      if (o.location.pool_index == UINT32_MAX) {
        for (const auto& v : largeValues_) {
          if (v.operand == index) {
            arg.data = v.buffer;
            arg.length = v.length;
          }
        }
      } else {
        arg.data = memories_[o.location.pool_index]->data() + o.location.offset;
        arg.length = o.location.length;
      }
    }
    return arg;
  };
  std::vector<ops::Arg> in, out;
  for (uint32_t i : operation.inputs) in.push_back(argOf(i));
  for (uint32_t i : operation.outputs) out.push_back(argOf(i));
  // Android's addOperation and finish check the signature only; values and shapes are the
  // devices' to check when the model is prepared and run.
  auto valid = ops::validateSignature({operation.type, in, out, relaxed_, ops::Check::Signature});
  if (!valid) {
    return fail(ResultCode::BAD_DATA, "operation " + std::to_string(position) + " (" +
                                          ops::operationName(operation.type) + "): " + valid.error().message);
  }
  return validateControlFlow(operation, position);
}

}  // namespace nnrt
