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

void ModelView::describeSubgraph(const FinishedModel& model, uint32_t subgraph, SubgraphArrays& arrays) {
  for (const Operand& o : model.operandsOf(subgraph))
    arrays.operands.push_back(describe(o));
  const auto& operations = model.operationsOf(subgraph);
  arrays.indexes.reserve(operations.size() * 2);
  for (const Operation& op : operations) {
    arrays.operations.push_back({op.type, nullptr, 0, nullptr, 0});
    arrays.indexes.push_back(op.inputs);
    arrays.indexes.push_back(op.outputs);
  }
  arrays.inputs = model.inputsOf(subgraph);
  arrays.outputs = model.outputsOf(subgraph);
}

nnrt_subgraph ModelView::link(SubgraphArrays& arrays) {
  for (size_t i = 0; i < arrays.operations.size(); ++i) {
    const auto& in = arrays.indexes[2 * i];
    const auto& out = arrays.indexes[2 * i + 1];
    arrays.operations[i] = {arrays.operations[i].type, in.data(), static_cast<uint32_t>(in.size()), out.data(),
                            static_cast<uint32_t>(out.size())};
  }
  return nnrt_subgraph{arrays.operands.data(),   static_cast<uint32_t>(arrays.operands.size()),
                       arrays.operations.data(), static_cast<uint32_t>(arrays.operations.size()),
                       arrays.inputs.data(),     static_cast<uint32_t>(arrays.inputs.size()),
                       arrays.outputs.data(),    static_cast<uint32_t>(arrays.outputs.size())};
}

std::unique_ptr<ModelView> ModelView::whole(const FinishedModel& model) {
  return referencedAsMain(model, kMainSubgraph);
}

std::unique_ptr<ModelView> ModelView::referencedAsMain(const FinishedModel& model, uint32_t subgraph) {
  std::unique_ptr<ModelView> v(new ModelView());
  describeSubgraph(model, subgraph, v->main_);
  v->sourceOperand_.resize(v->main_.operands.size());
  for (uint32_t i = 0; i < v->sourceOperand_.size(); ++i)
    v->sourceOperand_[i] = i;
  v->build(model);
  return v;
}

std::unique_ptr<ModelView> ModelView::subset(const FinishedModel& model, std::span<const uint32_t> operations,
                                             std::span<const uint32_t> inputs, std::span<const uint32_t> outputs,
                                             uint32_t subgraph) {
  std::unique_ptr<ModelView> v(new ModelView());
  SubgraphArrays& main = v->main_;
  const std::vector<Operand>& operands = model.operandsOf(subgraph);
  std::unordered_map<uint32_t, uint32_t> local;
  auto map = [&](uint32_t source) {
    auto [it, inserted] = local.emplace(source, static_cast<uint32_t>(v->sourceOperand_.size()));
    if (inserted) {
      v->sourceOperand_.push_back(source);
      nnrt_operand d = describe(operands[source]);
      // Inside the step, an operand is an input or output of the step, a constant, omitted, a
      // subgraph reference, or a temporary that only this step sees.
      if (d.lifetime == NNRT_LIFETIME_SUBGRAPH_INPUT || d.lifetime == NNRT_LIFETIME_SUBGRAPH_OUTPUT) {
        d.lifetime = NNRT_LIFETIME_TEMPORARY_VARIABLE;
      }
      d.number_of_consumers = 0;
      main.operands.push_back(d);
    }
    return it->second;
  };
  for (uint32_t s : inputs)
    main.inputs.push_back(map(s));
  for (uint32_t s : outputs)
    main.outputs.push_back(map(s));
  for (uint32_t index : operations) {
    const Operation& op = model.operationsOf(subgraph)[index];
    main.operations.push_back({op.type, nullptr, 0, nullptr, 0});
    std::vector<uint32_t> in, out;
    for (uint32_t s : op.inputs) {
      uint32_t l = map(s);
      in.push_back(l);
      ++main.operands[l].number_of_consumers;
    }
    for (uint32_t s : op.outputs)
      out.push_back(map(s));
    main.indexes.push_back(std::move(in));
    main.indexes.push_back(std::move(out));
  }
  for (uint32_t l : main.inputs)
    main.operands[l].lifetime = NNRT_LIFETIME_SUBGRAPH_INPUT;
  for (uint32_t l : main.outputs)
    main.operands[l].lifetime = NNRT_LIFETIME_SUBGRAPH_OUTPUT;
  v->build(model);
  return v;
}

// Every view carries all the model's referenced subgraphs (SUBGRAPH operands keep their indexes), so
// a device that runs IF or WHILE gets them whole.
void ModelView::build(const FinishedModel& model) {
  referencedArrays_.resize(model.referenced.size());
  for (uint32_t k = 0; k < model.referenced.size(); ++k) {
    describeSubgraph(model, k, referencedArrays_[k]);
    referenced_.push_back(link(referencedArrays_[k]));
  }
  for (const auto& [name, prefix] : model.extensionPrefixes)
    prefixes_.push_back({name.c_str(), prefix});
  model_.main = link(main_);
  model_.referenced = referenced_.empty() ? nullptr : referenced_.data();
  model_.referenced_count = static_cast<uint32_t>(referenced_.size());
  model_.operand_values = model.smallValues.data();
  model_.operand_values_size = model.smallValues.size();
  model_.pools = model.pools.data();
  model_.pool_count = static_cast<uint32_t>(model.pools.size());
  model_.relax_computation_float32_to_float16 = model.relaxed ? 1 : 0;
  model_.extension_prefixes = prefixes_.data();
  model_.extension_prefix_count = static_cast<uint32_t>(prefixes_.size());
}

}  // namespace nnrt
