// ANeuralNetworksModel_finish: whole-graph validation, topological sort, constants gathered into
// their final pools, and the driver view built once.
#include <cstring>
#include <functional>
#include <queue>

#include "core/model/model.hpp"
#include "core/model/model_view.hpp"
#include "nnrt/driver/ops/operation.hpp"

namespace nnrt {

Result<void> ModelBuilder::validateGraph(FinishedModel& model) const {
  if (model.operations.empty()) return fail(ResultCode::BAD_DATA, "the model has no operations");
  if (model.outputs.empty()) {
    return fail(ResultCode::BAD_DATA, "the model has no outputs (call identifyInputsAndOutputs before finish)");
  }
  for (size_t i = 0; i < model.operands.size(); ++i) {
    const Operand& o = model.operands[i];
    const bool subgraphType = o.type == static_cast<int32_t>(driver::OperandType::SUBGRAPH);
    if (subgraphType != (o.lifetime == NNRT_LIFETIME_SUBGRAPH)) {
      return fail(ResultCode::BAD_DATA, "operand " + std::to_string(i) +
                                            (subgraphType ? " is a SUBGRAPH operand without a model (setOperandValueFromModel)"
                                                          : " has a model as its value but is " + ops::typeName(o.type) +
                                                                ", not SUBGRAPH"));
    }
  }
  std::vector<int64_t> writer(model.operands.size(), -1);
  for (size_t i = 0; i < model.operations.size(); ++i) {
    for (uint32_t out : model.operations[i].outputs) {
      const Operand& o = model.operands[out];
      if (o.lifetime != NNRT_LIFETIME_TEMPORARY_VARIABLE && o.lifetime != NNRT_LIFETIME_SUBGRAPH_OUTPUT) {
        return fail(ResultCode::BAD_DATA, "operation " + std::to_string(i) + " (" + ops::operationName(model.operations[i].type) +
                                              ") writes operand " + std::to_string(out) +
                                              ", which is a model input, a constant or omitted");
      }
      if (writer[out] >= 0) {
        return fail(ResultCode::BAD_DATA, "operand " + std::to_string(out) + " is written by operations " +
                                              std::to_string(writer[out]) + " and " + std::to_string(i) +
                                              " (an operand has a single writer)");
      }
      writer[out] = static_cast<int64_t>(i);
    }
  }
  for (size_t i = 0; i < model.operations.size(); ++i) {
    for (uint32_t in : model.operations[i].inputs) {
      const Operand& o = model.operands[in];
      bool produced = writer[in] >= 0;
      if ((o.lifetime == NNRT_LIFETIME_TEMPORARY_VARIABLE || o.lifetime == NNRT_LIFETIME_SUBGRAPH_OUTPUT) && !produced) {
        return fail(ResultCode::BAD_DATA, "operation " + std::to_string(i) + " (" + ops::operationName(model.operations[i].type) +
                                              ") reads operand " + std::to_string(in) +
                                              ", which no operation writes and which is neither an input nor a constant");
      }
    }
  }
  for (uint32_t out : model.outputs) {
    if (writer[out] < 0) {
      return fail(ResultCode::BAD_DATA, "model output operand " + std::to_string(out) + " is never written");
    }
  }
  // As Android: every temporary has exactly one writer, even one that nothing reads.
  for (size_t i = 0; i < model.operands.size(); ++i) {
    if (model.operands[i].lifetime == NNRT_LIFETIME_TEMPORARY_VARIABLE && writer[i] < 0) {
      return fail(ResultCode::BAD_DATA, "operand " + std::to_string(i) +
                                            " is neither a model input nor a constant, and no operation writes it");
    }
  }
  for (size_t i = 0; i < model.operands.size(); ++i) {
    const Operand& o = model.operands[i];
    if (o.type == static_cast<int32_t>(driver::OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) && !o.hasChannelQuant) {
      return fail(ResultCode::BAD_DATA, "operand " + std::to_string(i) +
                                            " is TENSOR_QUANT8_SYMM_PER_CHANNEL without per-channel scales "
                                            "(setOperandSymmPerChannelQuantParams)");
    }
    if (o.hasChannelQuant && o.channelScales.size() != o.dimensions[o.channelDim]) {
      return fail(ResultCode::BAD_DATA, "operand " + std::to_string(i) + " has " + std::to_string(o.channelScales.size()) +
                                            " channel scales for dimension " + std::to_string(o.channelDim) + " of size " +
                                            std::to_string(o.dimensions[o.channelDim]));
    }
  }
  return {};
}

Result<void> ModelBuilder::sortOperations(FinishedModel& model) const {
  // Kahn's algorithm, stable: among ready operations, the one added first runs first (a heap of their
  // indexes), so operations added in a valid order keep it. (A queue in the order they became ready
  // interleaved independent chains: the two directions of an unrolled bidirectional recurrence then
  // alternated step by step, each evicting the other's weights from the cache.)
  const size_t n = model.operations.size();
  std::vector<int64_t> writer(model.operands.size(), -1);
  for (size_t i = 0; i < n; ++i) {
    for (uint32_t out : model.operations[i].outputs) writer[out] = static_cast<int64_t>(i);
  }
  std::vector<uint32_t> pending(n, 0);
  std::vector<std::vector<uint32_t>> consumers(n);
  for (size_t i = 0; i < n; ++i) {
    for (uint32_t in : model.operations[i].inputs) {
      if (writer[in] >= 0) {
        ++pending[i];
        consumers[writer[in]].push_back(static_cast<uint32_t>(i));
      }
    }
  }
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
  for (size_t i = 0; i < n; ++i) {
    if (pending[i] == 0) ready.push(static_cast<uint32_t>(i));
  }
  std::vector<uint32_t> order;
  order.reserve(n);
  while (!ready.empty()) {
    const uint32_t op = ready.top();
    ready.pop();
    order.push_back(op);
    for (uint32_t c : consumers[op]) {
      if (--pending[c] == 0) ready.push(c);
    }
  }
  if (order.size() != n) {
    for (size_t i = 0; i < n; ++i) {
      if (pending[i] != 0) {
        return fail(ResultCode::BAD_DATA, "the operations form a cycle (operation " + std::to_string(i) + ", " +
                                              ops::operationName(model.operations[i].type) + ", is part of it)");
      }
    }
  }
  std::vector<Operation> sorted;
  sorted.reserve(n);
  for (uint32_t i : order) sorted.push_back(std::move(model.operations[i]));
  model.operations = std::move(sorted);
  model.originalIndex = std::move(order);
  return {};
}

Result<void> ModelBuilder::finish() {
  NNRT_RETURN_IF_ERROR(checkModifiable());
  auto model = std::make_shared<FinishedModel>();
  model->operands = operands_;
  model->operations = operations_;
  model->inputs = inputs_;
  model->outputs = outputs_;
  model->relaxed = relaxed_;
  model->extensionPrefixes = extensionPrefixes_;

  auto refuse = [&](Error e) {
    invalid_ = true;
    return Unexpected(std::move(e));
  };
  if (auto valid = validateGraph(*model); !valid) return refuse(valid.error());
  // Every constant is known now: validate each operation again with all of them.
  for (size_t i = 0; i < model->operations.size(); ++i) {
    if (auto valid = validateOperation(model->operations[i], i); !valid) return refuse(valid.error());
    int32_t type = model->operations[i].type;
    model->usesExtensionOrOem = model->usesExtensionOrOem || driver::isExtensionType(type) ||
                                type == static_cast<int32_t>(driver::OperationType::OEM_OPERATION);
  }
  if (auto sorted = sortOperations(*model); !sorted) return refuse(sorted.error());

  // Constants: small values as they are; large values copied into one block (pool 0), each
  // 16-byte aligned; then one pool per memory object.
  model->smallValues = smallValues_;
  size_t largeBytes = 0;
  for (const auto& v : largeValues_) largeBytes = ((largeBytes + 15) & ~size_t{15}) + v.length;
  model->largeValues.resize(largeBytes);
  uint32_t memoryPoolBase = largeValues_.empty() ? 0 : 1;
  size_t offset = 0;
  for (const auto& v : largeValues_) {
    offset = (offset + 15) & ~size_t{15};
    std::memcpy(model->largeValues.data() + offset, v.buffer, v.length);
    model->operands[v.operand].location = {0, static_cast<uint32_t>(offset), static_cast<uint32_t>(v.length)};
    offset += v.length;
  }
  if (!largeValues_.empty()) {
    model->pools.push_back({NNRT_POOL_HOST, model->largeValues.data(), model->largeValues.size()});
  }
  model->memories = memories_;
  for (const auto& m : memories_) model->pools.push_back({NNRT_POOL_HOST, m->data(), m->size()});
  for (size_t i = 0; i < model->operands.size(); ++i) {
    Operand& o = model->operands[i];
    bool inMemory = o.lifetime == NNRT_LIFETIME_CONSTANT_REFERENCE &&
                    std::none_of(largeValues_.begin(), largeValues_.end(),
                                 [i](const PendingValue& v) { return v.operand == i; });
    if (inMemory) o.location.pool_index += memoryPoolBase;
  }
  for (const Operation& op : model->operations) {
    for (uint32_t in : op.inputs) ++model->operands[in].numberOfConsumers;
  }
  flattenReferences(*model);
  model->view = ModelView::whole(*model);
  finished_ = std::move(model);
  largeValues_.clear();  // the caller's buffers are no longer referenced
  return {};
}

}  // namespace nnrt
