#include "core/model/model_view.hpp"

#include <unordered_map>

namespace nnrt {
namespace {

nnrt_operand describe(const Operand& o) {
  nnrt_operand d{};
  d.type = o.type;
  d.rank = static_cast<uint32_t>(o.dimensions.size());
  d.dimensions = o.dimensions.data();
  d.scale = o.scale;
  d.zero_point = o.zeroPoint;
  d.lifetime = o.lifetime;
  d.location = o.location;
  d.number_of_consumers = o.numberOfConsumers;
  d.extra_kind = NNRT_EXTRA_NONE;
  if (o.hasChannelQuant) {
    d.extra_kind = NNRT_EXTRA_CHANNEL_QUANT;
    d.channel_scales = o.channelScales.data();
    d.channel_scale_count = static_cast<uint32_t>(o.channelScales.size());
    d.channel_dim = o.channelDim;
  } else if (o.hasExtensionData) {
    d.extra_kind = NNRT_EXTRA_EXTENSION;
    d.extension_data = o.extensionData.data();
    d.extension_data_size = static_cast<uint32_t>(o.extensionData.size());
  }
  return d;
}

}  // namespace

std::unique_ptr<ModelView> ModelView::whole(const FinishedModel& model) {
  std::unique_ptr<ModelView> v(new ModelView());
  for (const Operand& o : model.operands)
    v->operands_.push_back(describe(o));
  v->operationIndexes_.reserve(model.operations.size() * 2);
  for (const Operation& op : model.operations) {
    v->operationTypes_.push_back(op.type);
    v->operationIndexes_.push_back(op.inputs);
    v->operationIndexes_.push_back(op.outputs);
  }
  v->inputs_ = model.inputs;
  v->outputs_ = model.outputs;
  v->sourceOperand_.resize(model.operands.size());
  for (uint32_t i = 0; i < model.operands.size(); ++i)
    v->sourceOperand_[i] = i;
  v->build(model);
  return v;
}

std::unique_ptr<ModelView> ModelView::subset(const FinishedModel& model, std::span<const uint32_t> operations,
                                             std::span<const uint32_t> inputs,
                                             std::span<const uint32_t> outputs) {
  std::unique_ptr<ModelView> v(new ModelView());
  std::unordered_map<uint32_t, uint32_t> local;
  auto map = [&](uint32_t source) {
    auto [it, inserted] = local.emplace(source, static_cast<uint32_t>(v->sourceOperand_.size()));
    if (inserted) {
      v->sourceOperand_.push_back(source);
      nnrt_operand d = describe(model.operands[source]);
      // Inside the step, an operand is an input or output of the step, a constant, omitted, or a
      // temporary that only this step sees.
      if (d.lifetime == NNRT_LIFETIME_SUBGRAPH_INPUT || d.lifetime == NNRT_LIFETIME_SUBGRAPH_OUTPUT) {
        d.lifetime = NNRT_LIFETIME_TEMPORARY_VARIABLE;
      }
      d.number_of_consumers = 0;
      v->operands_.push_back(d);
    }
    return it->second;
  };
  for (uint32_t s : inputs)
    v->inputs_.push_back(map(s));
  for (uint32_t s : outputs)
    v->outputs_.push_back(map(s));
  for (uint32_t index : operations) {
    const Operation& op = model.operations[index];
    v->operationTypes_.push_back(op.type);
    std::vector<uint32_t> in, out;
    for (uint32_t s : op.inputs) {
      uint32_t l = map(s);
      in.push_back(l);
      ++v->operands_[l].number_of_consumers;
    }
    for (uint32_t s : op.outputs)
      out.push_back(map(s));
    v->operationIndexes_.push_back(std::move(in));
    v->operationIndexes_.push_back(std::move(out));
  }
  for (uint32_t l : v->inputs_)
    v->operands_[l].lifetime = NNRT_LIFETIME_SUBGRAPH_INPUT;
  for (uint32_t l : v->outputs_)
    v->operands_[l].lifetime = NNRT_LIFETIME_SUBGRAPH_OUTPUT;
  v->build(model);
  return v;
}

void ModelView::build(const FinishedModel& model) {
  operations_.resize(operationIndexes_.size() / 2);
  for (size_t i = 0; i < operations_.size(); ++i) {
    const auto& in = operationIndexes_[2 * i];
    const auto& out = operationIndexes_[2 * i + 1];
    operations_[i] = {operationTypes_[i], in.data(), static_cast<uint32_t>(in.size()), out.data(),
                      static_cast<uint32_t>(out.size())};
  }
  for (const auto& [name, prefix] : model.extensionPrefixes)
    prefixes_.push_back({name.c_str(), prefix});
  model_.main = nnrt_subgraph{operands_.data(),   static_cast<uint32_t>(operands_.size()),
                              operations_.data(), static_cast<uint32_t>(operations_.size()),
                              inputs_.data(),     static_cast<uint32_t>(inputs_.size()),
                              outputs_.data(),    static_cast<uint32_t>(outputs_.size())};
  model_.referenced = nullptr;
  model_.referenced_count = 0;
  model_.operand_values = model.smallValues.data();
  model_.operand_values_size = model.smallValues.size();
  model_.pools = model.pools.data();
  model_.pool_count = static_cast<uint32_t>(model.pools.size());
  model_.relax_computation_float32_to_float16 = model.relaxed ? 1 : 0;
  model_.extension_prefixes = prefixes_.data();
  model_.extension_prefix_count = static_cast<uint32_t>(prefixes_.size());
}

}  // namespace nnrt
