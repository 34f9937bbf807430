// IF and WHILE checked against the subgraphs they refer to (Android's validateIfOperation and
// validateWhileOperation), and the flattening of referenced models at finish.
//
// No cycle can form among referenced models: only a finished model can be referenced, and a finished
// model can no longer change, so a model can refer only to models finished before it.
#include <map>

#include "core/model/model.hpp"
#include "nnrt/driver/ops/operation.hpp"

namespace nnrt {
namespace {

constexpr int32_t kIf = static_cast<int32_t>(driver::OperationType::IF);
constexpr int32_t kWhile = static_cast<int32_t>(driver::OperationType::WHILE);

std::string describe(const Operand& o) {
  std::string text = ops::typeName(o.type) + " " + ops::shapeToString(o.dimensions);
  if (o.scale != 0.0f || o.zeroPoint != 0) {
    text += " (scale " + std::to_string(o.scale) + ", zero point " + std::to_string(o.zeroPoint) + ")";
  }
  return text;
}

// Android's compatible(): the same type; ranks and dimensions equal where both are known; the same
// scale, zero point and extra parameters (per-channel scales or extension data).
bool compatible(const Operand& a, const Operand& b) {
  if (a.type != b.type) return false;
  if (!a.dimensions.empty() && !b.dimensions.empty()) {
    if (a.dimensions.size() != b.dimensions.size()) return false;
    for (size_t i = 0; i < a.dimensions.size(); ++i) {
      if (a.dimensions[i] != 0 && b.dimensions[i] != 0 && a.dimensions[i] != b.dimensions[i]) return false;
    }
  }
  if (a.scale != b.scale || a.zeroPoint != b.zeroPoint) return false;
  if (a.hasChannelQuant != b.hasChannelQuant || a.hasExtensionData != b.hasExtensionData) return false;
  if (a.hasChannelQuant && (a.channelDim != b.channelDim || a.channelScales != b.channelScales)) return false;
  return !a.hasExtensionData || a.extensionData == b.extensionData;
}

// Checks one IF or WHILE; `prefix` is "operation <i> (<type>): ".
class ControlFlowCheck {
 public:
  ControlFlowCheck(const Operation& operation, const std::vector<Operand>& operands, std::string prefix)
      : operation_(operation), operands_(operands), prefix_(std::move(prefix)) {}

  Error error(const std::string& what) const { return Error{ResultCode::BAD_DATA, prefix_ + what}; }

  // `inner` (an input or output of the referenced model) against `outer` (an operand of this model).
  Result<void> match(const std::string& role, const Operand& inner, const std::string& innerName,
                     uint32_t outerIndex, const std::string& outerName) const {
    const Operand& outer = operands_[outerIndex];
    if (compatible(inner, outer)) return {};
    return Unexpected(error(role + ": " + innerName + " is " + describe(inner) + " but " + outerName +
                            " (operand " + std::to_string(outerIndex) + ") is " + describe(outer) +
                            "; they must have the same type, quantization and known dimensions"));
  }

  // The referenced model has `modelCount` of something that must match the operation's `count`.
  Result<void> count(const std::string& role, size_t modelCount, const std::string& noun, size_t count,
                     const std::string& operationWhat) const {
    if (modelCount == count) return {};
    return Unexpected(error(role + ": the referenced model has " + std::to_string(modelCount) + " " + noun + " but " +
                            operationWhat + " " + std::to_string(count)));
  }

  const Operation& operation() const { return operation_; }

 private:
  const Operation& operation_;
  const std::vector<Operand>& operands_;
  std::string prefix_;
};

Result<void> checkCondition(const ControlFlowCheck& check, const std::string& role, const Operand& o) {
  const bool bool8 = o.type == static_cast<int32_t>(driver::OperandType::TENSOR_BOOL8);
  if (bool8 && o.dimensions.size() == 1 && o.dimensions[0] == 1) return {};
  return Unexpected(check.error(role + " is " + describe(o) + "; it must be a TENSOR_BOOL8 of shape [1]"));
}

}  // namespace

Result<void> ModelBuilder::validateControlFlow(const Operation& operation, size_t position) const {
  if (operation.type != kIf && operation.type != kWhile) return {};
  const ControlFlowCheck check(operation, operands_,
                               "operation " + std::to_string(position) + " (" + ops::operationName(operation.type) + "): ");
  // The signature check (ops_recurrent) has made sure of the counts and of the SUBGRAPH types.
  auto model = [&](uint32_t input) -> const FinishedModel* {
    const Operand& o = operands_[operation.inputs[input]];
    return o.lifetime == NNRT_LIFETIME_SUBGRAPH ? referencedModels_[o.location.offset].get() : nullptr;
  };
  const std::vector<uint32_t>& in = operation.inputs;
  const std::vector<uint32_t>& out = operation.outputs;
  if (operation.type == kIf) {
    NNRT_RETURN_IF_ERROR(checkCondition(check, "the condition (input 0)", operands_[in[0]]));
    const char* roles[] = {"then_branch", "else_branch"};
    for (uint32_t b = 0; b < 2; ++b) {
      const FinishedModel* branch = model(1 + b);
      if (branch == nullptr) continue;  // checked at finish
      const std::string role = roles[b];
      NNRT_RETURN_IF_ERROR(check.count(role, branch->inputs.size(), "inputs", in.size() - 3, "the IF passes it"));
      NNRT_RETURN_IF_ERROR(check.count(role, branch->outputs.size(), "outputs", out.size(), "the IF has"));
      for (size_t i = 0; i < branch->inputs.size(); ++i) {
        NNRT_RETURN_IF_ERROR(check.match(role, branch->operands[branch->inputs[i]], "its input " + std::to_string(i),
                                         in[3 + i], "the IF's input " + std::to_string(3 + i)));
      }
      for (size_t i = 0; i < branch->outputs.size(); ++i) {
        NNRT_RETURN_IF_ERROR(check.match(role, branch->operands[branch->outputs[i]], "its output " + std::to_string(i),
                                         out[i], "the IF's output " + std::to_string(i)));
      }
    }
    return {};
  }
  // WHILE: m = outputs loop-carried operands, k state-only operands, n input-only operands. The loop
  // has 2 + m + k + n inputs, the condition m + k + n inputs and one output, the body m + k + n inputs
  // and m + k outputs.
  if (const FinishedModel* condition = model(0)) {
    const std::string role = "condition_model";
    NNRT_RETURN_IF_ERROR(check.count(role, condition->inputs.size(), "inputs", in.size() - 2, "the WHILE passes it"));
    NNRT_RETURN_IF_ERROR(check.count(role, condition->outputs.size(), "outputs", 1, "a condition must have"));
    for (size_t i = 0; i < condition->inputs.size(); ++i) {
      NNRT_RETURN_IF_ERROR(check.match(role, condition->operands[condition->inputs[i]], "its input " + std::to_string(i),
                                       in[2 + i], "the WHILE's input " + std::to_string(2 + i)));
    }
    NNRT_RETURN_IF_ERROR(checkCondition(check, role + ": its output", condition->operands[condition->outputs[0]]));
  }
  if (const FinishedModel* body = model(1)) {
    const std::string role = "body_model";
    NNRT_RETURN_IF_ERROR(check.count(role, body->inputs.size(), "inputs", in.size() - 2, "the WHILE passes it"));
    if (body->outputs.size() < out.size()) {
      return Unexpected(check.error(role + ": it has " + std::to_string(body->outputs.size()) +
                                    " outputs, fewer than the WHILE's " + std::to_string(out.size())));
    }
    if (body->inputs.size() < body->outputs.size()) {
      return Unexpected(check.error(role + ": it has " + std::to_string(body->outputs.size()) + " outputs but only " +
                                    std::to_string(body->inputs.size()) + " inputs"));
    }
    for (size_t i = 0; i < body->inputs.size(); ++i) {
      NNRT_RETURN_IF_ERROR(check.match(role, body->operands[body->inputs[i]], "its input " + std::to_string(i),
                                       in[2 + i], "the WHILE's input " + std::to_string(2 + i)));
    }
    for (size_t i = 0; i < out.size(); ++i) {
      NNRT_RETURN_IF_ERROR(check.match(role, body->operands[body->outputs[i]], "its output " + std::to_string(i),
                                       out[i], "the WHILE's output " + std::to_string(i)));
    }
    // Loop-carried and state-only values are fed back: output i becomes input i.
    for (size_t i = 0; i < body->outputs.size(); ++i) {
      const Operand& input = body->operands[body->inputs[i]];
      const Operand& output = body->operands[body->outputs[i]];
      if (!compatible(input, output)) {
        return Unexpected(check.error(role + ": its output " + std::to_string(i) + " (" + describe(output) +
                                      ") is fed back as its input " + std::to_string(i) + " (" + describe(input) +
                                      ") but the two are not compatible"));
      }
    }
  }
  return {};
}

void ModelBuilder::flattenReferences(FinishedModel& model) const {
  std::map<const FinishedModel*, uint32_t> indexOf;
  // Copies source's main subgraph as referenced[index] (index allocated first, so that the
  // subgraphs it refers to come after it), and returns the index.
  auto collect = [&](auto& self, const std::shared_ptr<const FinishedModel>& source) -> uint32_t {
    if (auto it = indexOf.find(source.get()); it != indexOf.end()) return it->second;
    const auto index = static_cast<uint32_t>(model.referenced.size());
    indexOf.emplace(source.get(), index);
    model.referenced.emplace_back();
    model.referencedModels.push_back(source);
    ReferencedSubgraph sub{source->operands, source->operations, source->inputs, source->outputs};
    const size_t smallBase = (model.smallValues.size() + 7) & ~size_t{7};
    model.smallValues.resize(smallBase + source->smallValues.size());
    std::copy(source->smallValues.begin(), source->smallValues.end(), model.smallValues.begin() + smallBase);
    const auto poolBase = static_cast<uint32_t>(model.pools.size());
    model.pools.insert(model.pools.end(), source->pools.begin(), source->pools.end());
    for (Operand& o : sub.operands) {
      if (o.lifetime == NNRT_LIFETIME_CONSTANT_COPY) {
        o.location.offset += static_cast<uint32_t>(smallBase);
      } else if (o.lifetime == NNRT_LIFETIME_CONSTANT_REFERENCE) {
        o.location.pool_index += poolBase;
      } else if (o.lifetime == NNRT_LIFETIME_SUBGRAPH) {
        o.location.offset = self(self, source->referencedModels[o.location.offset]);
      }
    }
    model.referenced[index] = std::move(sub);
    return index;
  };
  for (Operand& o : model.operands) {
    if (o.lifetime == NNRT_LIFETIME_SUBGRAPH) o.location.offset = collect(collect, referencedModels_[o.location.offset]);
  }
}

}  // namespace nnrt
