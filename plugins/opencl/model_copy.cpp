#include "plugins/opencl/model_copy.hpp"

#include <algorithm>

#include "plugins/opencl/byte_stream.hpp"

namespace nnrt::opencl {
namespace {

constexpr uint32_t kSerialVersion = 1;
constexpr uint32_t kMaxCount = 1u << 24;  // operands, operations, inputs of one operation
constexpr size_t kAlignment = 16;

size_t aligned(size_t n) {
  return (n + kAlignment - 1) / kAlignment * kAlignment;
}

bool isConstant(int32_t lifetime) {
  return lifetime == NNRT_LIFETIME_CONSTANT_COPY || lifetime == NNRT_LIFETIME_CONSTANT_REFERENCE;
}

Unexpected<driver::Error> corrupt(const std::string& what) {
  return driver::generalFailure("the cached model is malformed: " + what);
}

bool getIndexList(ByteReader& r, std::vector<uint32_t>& list) {
  uint32_t count = 0;
  if (!r.get(count) || count > kMaxCount || count > r.remaining() / 4) return false;
  list.resize(count);
  for (uint32_t& v : list) {
    if (!r.get(v)) return false;
  }
  return true;
}

void putIndexList(ByteWriter& w, const std::vector<uint32_t>& list) {
  w.put(static_cast<uint32_t>(list.size()));
  for (uint32_t v : list)
    w.put(v);
}

}  // namespace

driver::Result<std::unique_ptr<ModelCopy>> ModelCopy::copy(const driver::Model& model) {
  std::unique_ptr<ModelCopy> m(new ModelCopy());
  const driver::Subgraph main = model.main();
  m->relaxed_ = model.relaxComputationFloat32toFloat16();
  for (uint32_t i = 0; i < main.operands().size(); ++i) {
    const nnrt_operand& from = main.operands()[i];
    if (from.lifetime == NNRT_LIFETIME_SUBGRAPH) {
      return driver::invalidArgument("operand " + std::to_string(i) + " refers to a subgraph (IF / WHILE), " +
                                     "which the opencl driver does not run");
    }
    if (from.extra_kind != NNRT_EXTRA_NONE) {
      return driver::invalidArgument(
          "operand " + std::to_string(i) +
          " carries per-channel or extension data, which the opencl driver does not take");
    }
    Operand op;
    op.dims.assign(from.dimensions, from.dimensions + from.rank);
    op.desc.type = from.type;
    op.desc.scale = from.scale;
    op.desc.zero_point = from.zero_point;
    op.desc.lifetime = from.lifetime;
    op.desc.number_of_consumers = from.number_of_consumers;
    if (isConstant(from.lifetime)) {
      std::span<const uint8_t> bytes = model.constantBytes(from);
      if (bytes.size() != from.location.length) {
        return driver::invalidArgument("constant operand " + std::to_string(i) +
                                       " lies outside the model's data");
      }
      const size_t offset = aligned(m->values_.size());
      m->values_.resize(offset + bytes.size());
      std::copy(bytes.begin(), bytes.end(), m->values_.begin() + static_cast<ptrdiff_t>(offset));
      op.desc.lifetime = NNRT_LIFETIME_CONSTANT_COPY;
      op.desc.location = {0, static_cast<uint32_t>(offset), static_cast<uint32_t>(bytes.size())};
    }
    m->operands_.push_back(std::move(op));
  }
  for (const nnrt_operation& from : main.operations()) {
    m->operations_.push_back({from.type, std::vector<uint32_t>(from.inputs, from.inputs + from.input_count),
                              std::vector<uint32_t>(from.outputs, from.outputs + from.output_count)});
  }
  m->inputs_.assign(main.inputIndexes().begin(), main.inputIndexes().end());
  m->outputs_.assign(main.outputIndexes().begin(), main.outputIndexes().end());
  NNRT_RETURN_IF_ERROR(m->check());
  m->rebuildView();
  return m;
}

std::vector<uint8_t> ModelCopy::serialize() const {
  ByteWriter w;
  w.put(kSerialVersion);
  w.put(static_cast<uint32_t>(operands_.size()));
  for (const Operand& op : operands_) {
    w.put(op.desc.type);
    putIndexList(w, op.dims);
    w.put(op.desc.scale);
    w.put(op.desc.zero_point);
    w.put(op.desc.lifetime);
    w.put(op.desc.location.offset);
    w.put(op.desc.location.length);
    w.put(op.desc.number_of_consumers);
  }
  w.put(static_cast<uint32_t>(operations_.size()));
  for (const Operation& op : operations_) {
    w.put(op.type);
    putIndexList(w, op.inputs);
    putIndexList(w, op.outputs);
  }
  putIndexList(w, inputs_);
  putIndexList(w, outputs_);
  w.put(static_cast<uint8_t>(relaxed_ ? 1 : 0));
  w.put(static_cast<uint64_t>(values_.size()));
  w.putBytes(values_);
  return std::move(w.bytes());
}

driver::Result<std::unique_ptr<ModelCopy>> ModelCopy::deserialize(std::span<const uint8_t> bytes) {
  std::unique_ptr<ModelCopy> m(new ModelCopy());
  ByteReader r(bytes);
  uint32_t version = 0, count = 0;
  if (!r.get(version) || version != kSerialVersion) return corrupt("unknown serialization version");
  if (!r.get(count) || count > kMaxCount) return corrupt("bad operand count");
  m->operands_.resize(count);
  for (Operand& op : m->operands_) {
    if (!r.get(op.desc.type) || !getIndexList(r, op.dims) || op.dims.size() > NNRT_MAX_RANK ||
        !r.get(op.desc.scale) || !r.get(op.desc.zero_point) || !r.get(op.desc.lifetime) ||
        !r.get(op.desc.location.offset) || !r.get(op.desc.location.length) ||
        !r.get(op.desc.number_of_consumers)) {
      return corrupt("an operand is truncated or out of range");
    }
  }
  if (!r.get(count) || count > kMaxCount) return corrupt("bad operation count");
  m->operations_.resize(count);
  for (Operation& op : m->operations_) {
    if (!r.get(op.type) || !getIndexList(r, op.inputs) || !getIndexList(r, op.outputs)) {
      return corrupt("an operation is truncated");
    }
  }
  uint8_t relaxed = 0;
  uint64_t valueBytes = 0;
  std::span<const uint8_t> values;
  if (!getIndexList(r, m->inputs_) || !getIndexList(r, m->outputs_) || !r.get(relaxed) ||
      !r.get(valueBytes) || !r.getBytes(valueBytes, values) || r.remaining() != 0) {
    return corrupt("the model's tail is truncated or has extra bytes");
  }
  m->relaxed_ = relaxed != 0;
  m->values_.assign(values.begin(), values.end());
  NNRT_RETURN_IF_ERROR(m->check());
  m->rebuildView();
  return m;
}

// Every index in range and every constant inside values_, whatever produced the copy.
driver::Result<void> ModelCopy::check() const {
  const size_t n = operands_.size();
  for (size_t i = 0; i < n; ++i) {
    const nnrt_operand& d = operands_[i].desc;
    if (d.lifetime < NNRT_LIFETIME_TEMPORARY_VARIABLE || d.lifetime > NNRT_LIFETIME_NO_VALUE ||
        d.lifetime == NNRT_LIFETIME_CONSTANT_REFERENCE) {
      return corrupt("operand " + std::to_string(i) + " has lifetime " + std::to_string(d.lifetime));
    }
    if (d.lifetime == NNRT_LIFETIME_CONSTANT_COPY &&
        uint64_t{d.location.offset} + d.location.length > values_.size()) {
      return corrupt("the value of operand " + std::to_string(i) + " lies outside the constants");
    }
  }
  auto inRange = [n](const std::vector<uint32_t>& list) {
    return std::all_of(list.begin(), list.end(), [n](uint32_t v) { return v < n; });
  };
  for (const Operation& op : operations_) {
    if (!inRange(op.inputs) || !inRange(op.outputs)) return corrupt("an operation names a missing operand");
  }
  if (!inRange(inputs_) || !inRange(outputs_)) return corrupt("a model input or output is a missing operand");
  return {};
}

void ModelCopy::dropConstantValues(std::span<const uint32_t> operands) {
  std::vector<bool> drop(operands_.size(), false);
  for (uint32_t i : operands) {
    if (i < drop.size()) drop[i] = true;
  }
  std::vector<uint8_t> kept;
  for (size_t i = 0; i < operands_.size(); ++i) {
    nnrt_data_location& loc = operands_[i].desc.location;
    if (operands_[i].desc.lifetime != NNRT_LIFETIME_CONSTANT_COPY) continue;
    if (drop[i]) {
      loc = {0, 0, 0};
      continue;
    }
    const size_t offset = aligned(kept.size());
    kept.resize(offset + loc.length);
    std::copy_n(values_.begin() + loc.offset, loc.length, kept.begin() + static_cast<ptrdiff_t>(offset));
    loc.offset = static_cast<uint32_t>(offset);
  }
  values_ = std::move(kept);
  rebuildView();
}

void ModelCopy::rebuildView() {
  cOperands_.clear();
  for (Operand& op : operands_) {
    nnrt_operand d = op.desc;
    d.rank = static_cast<uint32_t>(op.dims.size());
    d.dimensions = op.dims.data();
    cOperands_.push_back(d);
  }
  cOperations_.clear();
  for (Operation& op : operations_) {
    cOperations_.push_back({op.type, op.inputs.data(), static_cast<uint32_t>(op.inputs.size()),
                            op.outputs.data(), static_cast<uint32_t>(op.outputs.size())});
  }
  view_ = nnrt_model{};
  view_.main = {cOperands_.data(),   static_cast<uint32_t>(cOperands_.size()),
                cOperations_.data(), static_cast<uint32_t>(cOperations_.size()),
                inputs_.data(),      static_cast<uint32_t>(inputs_.size()),
                outputs_.data(),     static_cast<uint32_t>(outputs_.size())};
  view_.operand_values = values_.data();
  view_.operand_values_size = values_.size();
  view_.relax_computation_float32_to_float16 = relaxed_ ? 1 : 0;
}

}  // namespace nnrt::opencl
