#include "support/test_model.hpp"

#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "support/tensor_data.hpp"

namespace nnrt::test {
namespace {

constexpr size_t kAlignment = 64;

size_t alignUp(size_t n) {
  return (n + kAlignment - 1) / kAlignment * kAlignment;
}

}  // namespace

TestModel& TestModel::operator=(const TestModel& other) {
  d_ = other.d_;
  changed();
  return *this;
}

TestModel& TestModel::operator=(TestModel&& other) noexcept {
  d_ = std::move(other.d_);
  changed();
  return *this;
}

TestModel::Operand TestModel::makeOperand(OperandType type, std::vector<uint32_t> dims, float scale,
                                          int32_t zeroPoint, int32_t lifetime) {
  Operand o;
  o.type = static_cast<int32_t>(type);
  o.dims = std::move(dims);
  o.scale = scale;
  o.zeroPoint = zeroPoint;
  o.lifetime = lifetime;
  return o;
}

uint32_t TestModel::add(Operand operand) {
  d_.operands.push_back(std::move(operand));
  changed();
  return static_cast<uint32_t>(d_.operands.size() - 1);
}

uint32_t TestModel::addOperand(OperandType type, std::vector<uint32_t> dims, float scale, int32_t zeroPoint) {
  return add(makeOperand(type, std::move(dims), scale, zeroPoint, NNRT_LIFETIME_TEMPORARY_VARIABLE));
}

uint32_t TestModel::addInput(OperandType type, std::vector<uint32_t> dims, float scale, int32_t zeroPoint) {
  const uint32_t index =
      add(makeOperand(type, std::move(dims), scale, zeroPoint, NNRT_LIFETIME_SUBGRAPH_INPUT));
  d_.inputs.push_back(index);
  return index;
}

uint32_t TestModel::addOutput(OperandType type, std::vector<uint32_t> dims, float scale, int32_t zeroPoint) {
  const uint32_t index =
      add(makeOperand(type, std::move(dims), scale, zeroPoint, NNRT_LIFETIME_SUBGRAPH_OUTPUT));
  d_.outputs.push_back(index);
  return index;
}

uint32_t TestModel::addConstant(OperandType type, std::vector<uint32_t> dims, std::vector<uint8_t> bytes,
                                float scale, int32_t zeroPoint) {
  Operand o = makeOperand(type, std::move(dims), scale, zeroPoint, NNRT_LIFETIME_CONSTANT_COPY);
  o.isConstant = true;
  o.value = std::move(bytes);
  return add(std::move(o));
}

uint32_t TestModel::addInt32(int32_t value) {
  return addConstant(OperandType::INT32, {}, std::vector<int32_t>{value});
}

uint32_t TestModel::addFloat32(float value) {
  return addConstant(OperandType::FLOAT32, {}, std::vector<float>{value});
}

uint32_t TestModel::addBool(bool value) {
  return addConstant(OperandType::BOOL, {}, std::vector<uint8_t>{static_cast<uint8_t>(value ? 1 : 0)});
}

uint32_t TestModel::addFloat16(float value) {
  return addConstant(OperandType::FLOAT16, {}, std::vector<uint16_t>{floatToHalf(value)});
}

uint32_t TestModel::addInt32Tensor(const std::vector<int32_t>& values, std::vector<uint32_t> dims) {
  if (dims.empty()) dims = {static_cast<uint32_t>(values.size())};
  return addConstant(OperandType::TENSOR_INT32, std::move(dims), values);
}

uint32_t TestModel::addOmitted(OperandType type) {
  // Still a valid operand type, as ANeuralNetworksModel_addOperand requires: quantized ones need a scale.
  using T = OperandType;
  const bool scaled = type == T::TENSOR_QUANT8_ASYMM || type == T::TENSOR_QUANT8_ASYMM_SIGNED ||
                      type == T::TENSOR_QUANT8_SYMM || type == T::TENSOR_QUANT16_SYMM || type == T::TENSOR_QUANT16_ASYMM;
  return add(makeOperand(type, {}, scaled ? 1.0f : 0.0f, 0, NNRT_LIFETIME_NO_VALUE));
}

void TestModel::setChannelQuant(uint32_t operand, uint32_t channelDim, std::vector<float> scales) {
  Operand& o = d_.operands.at(operand);
  o.channelDim = channelDim;
  o.channelScales = std::move(scales);
  changed();
}

void TestModel::addOperation(OperationType type, std::vector<uint32_t> inputs,
                             std::vector<uint32_t> outputs) {
  addOperation(static_cast<int32_t>(type), std::move(inputs), std::move(outputs));
}

void TestModel::addOperation(int32_t type, std::vector<uint32_t> inputs, std::vector<uint32_t> outputs) {
  d_.operations.push_back({type, std::move(inputs), std::move(outputs)});
  changed();
}

void TestModel::setInputsAndOutputs(std::vector<uint32_t> inputs, std::vector<uint32_t> outputs) {
  d_.inputs = std::move(inputs);
  d_.outputs = std::move(outputs);
  changed();
}

void TestModel::setRelaxed(bool relaxed) {
  d_.relaxed = relaxed;
  changed();
}

std::vector<uint8_t> TestModel::constantToInput(uint32_t operand) {
  Operand& o = d_.operands.at(operand);
  if (!o.isConstant) throw std::logic_error("TestModel::constantToInput: operand " + std::to_string(operand) + " is not a constant");
  o.isConstant = false;
  o.lifetime = NNRT_LIFETIME_SUBGRAPH_INPUT;
  d_.inputs.push_back(operand);
  changed();
  return std::exchange(o.value, {});
}

void TestModel::feedThroughAdd(uint32_t input) {
  const Operand original = d_.operands.at(input);
  if (original.lifetime != NNRT_LIFETIME_SUBGRAPH_INPUT)
    throw std::logic_error("TestModel::feedThroughAdd: operand " + std::to_string(input) + " is not a model input");
  const auto type = static_cast<OperandType>(original.type);
  Operand fresh = original;
  const uint32_t fed = add(std::move(fresh));
  for (uint32_t& i : d_.inputs)
    if (i == input) i = fed;
  d_.operands[input].lifetime = NNRT_LIFETIME_TEMPORARY_VARIABLE;
  const uint32_t zero = addConstant(type, {1}, encode(type, {static_cast<double>(original.zeroPoint)}), original.scale,
                                    original.zeroPoint);
  const uint32_t none = addInt32(0);
  d_.operations.insert(d_.operations.begin(), Operation{static_cast<int32_t>(OperationType::ADD), {fed, zero, none}, {input}});
  changed();
}

void TestModel::convertFloat32ToFloat16() {
  for (Operand& o : d_.operands) {
    const auto type = static_cast<OperandType>(o.type);
    if (type != OperandType::TENSOR_FLOAT32 && type != OperandType::FLOAT32) continue;
    const OperandType half = type == OperandType::FLOAT32 ? OperandType::FLOAT16 : OperandType::TENSOR_FLOAT16;
    if (o.isConstant) {
      std::vector<double> values(o.value.size() / sizeof(float));
      for (size_t i = 0; i < values.size(); ++i) {
        float f;
        std::memcpy(&f, o.value.data() + i * sizeof(float), sizeof f);
        values[i] = f;
      }
      std::vector<uint16_t> halves(values.size());
      for (size_t i = 0; i < values.size(); ++i) halves[i] = floatToHalf(static_cast<float>(values[i]));
      o.value = toBytes(halves);
    }
    o.type = static_cast<int32_t>(half);
  }
  changed();
}

void TestModel::convertQuant8ToSigned() {
  for (Operand& o : d_.operands) {
    if (static_cast<OperandType>(o.type) != OperandType::TENSOR_QUANT8_ASYMM) continue;
    o.type = static_cast<int32_t>(OperandType::TENSOR_QUANT8_ASYMM_SIGNED);
    o.zeroPoint -= 128;
    for (uint8_t& b : o.value) b = static_cast<uint8_t>(static_cast<int8_t>(int{b} - 128));
  }
  changed();
}

void TestModel::setOperandDims(uint32_t operand, std::vector<uint32_t> dims) {
  d_.operands.at(operand).dims = std::move(dims);
  changed();
}

void TestModel::setLargeValueThreshold(size_t bytes) {
  d_.largeValueThreshold = bytes;
  changed();
}

const nnrt_model& TestModel::view() {
  if (built_) return model_;
  // Constants: small ones in operand_values, large ones in the pool.
  operandValues_.clear();
  poolBytes_.clear();
  std::vector<nnrt_data_location> locations(d_.operands.size());
  for (size_t i = 0; i < d_.operands.size(); ++i) {
    Operand& o = d_.operands[i];
    if (!o.isConstant) continue;
    const bool large = o.value.size() > d_.largeValueThreshold;
    o.lifetime = large ? NNRT_LIFETIME_CONSTANT_REFERENCE : NNRT_LIFETIME_CONSTANT_COPY;
    std::vector<uint8_t>& area = large ? poolBytes_ : operandValues_;
    const size_t offset = alignUp(area.size());
    area.resize(offset + o.value.size());
    if (!o.value.empty()) std::memcpy(area.data() + offset, o.value.data(), o.value.size());
    locations[i] = {0, static_cast<uint32_t>(offset), static_cast<uint32_t>(o.value.size())};
  }
  std::vector<uint32_t> consumers(d_.operands.size(), 0);
  for (const Operation& op : d_.operations) {
    for (uint32_t in : op.inputs) {
      if (in < consumers.size()) ++consumers[in];
    }
  }
  cOperands_.assign(d_.operands.size(), nnrt_operand{});
  for (size_t i = 0; i < d_.operands.size(); ++i) {
    const Operand& o = d_.operands[i];
    nnrt_operand& c = cOperands_[i];
    c.type = o.type;
    c.rank = static_cast<uint32_t>(o.dims.size());
    c.dimensions = o.dims.data();
    c.scale = o.scale;
    c.zero_point = o.zeroPoint;
    c.lifetime = o.lifetime;
    c.location = locations[i];
    c.number_of_consumers = consumers[i];
    c.extra_kind = NNRT_EXTRA_NONE;
    if (!o.channelScales.empty()) {
      c.extra_kind = NNRT_EXTRA_CHANNEL_QUANT;
      c.channel_scales = o.channelScales.data();
      c.channel_scale_count = static_cast<uint32_t>(o.channelScales.size());
      c.channel_dim = o.channelDim;
    }
  }
  cOperations_.clear();
  for (const Operation& op : d_.operations) {
    cOperations_.push_back({op.type, op.inputs.data(), static_cast<uint32_t>(op.inputs.size()),
                            op.outputs.data(), static_cast<uint32_t>(op.outputs.size())});
  }
  pools_.clear();
  if (!poolBytes_.empty()) pools_.push_back({NNRT_POOL_HOST, poolBytes_.data(), poolBytes_.size()});

  model_ = nnrt_model{};
  model_.main = {cOperands_.data(),   static_cast<uint32_t>(cOperands_.size()),
                 cOperations_.data(), static_cast<uint32_t>(cOperations_.size()),
                 d_.inputs.data(),    static_cast<uint32_t>(d_.inputs.size()),
                 d_.outputs.data(),   static_cast<uint32_t>(d_.outputs.size())};
  model_.operand_values = operandValues_.data();
  model_.operand_values_size = operandValues_.size();
  model_.pools = pools_.data();
  model_.pool_count = static_cast<uint32_t>(pools_.size());
  model_.relax_computation_float32_to_float16 = d_.relaxed ? 1 : 0;
  built_ = true;
  return model_;
}

// ---- TestRequest ----------------------------------------------------------------------------------

TestRequest::TestRequest(size_t inputCount, size_t outputCount)
    : inputs_(inputCount), outputs_(outputCount) {}

void TestRequest::setInput(uint32_t k, std::vector<uint8_t> bytes, std::vector<uint32_t> dims) {
  inputs_.at(k) = {false, std::move(bytes), 0, std::move(dims)};
  built_ = false;
}

void TestRequest::omitInput(uint32_t k) {
  inputs_.at(k) = {true, {}, 0, {}};
  built_ = false;
}

void TestRequest::setOutput(uint32_t k, size_t bytes, std::vector<uint32_t> dims) {
  outputs_.at(k) = {false, {}, bytes, std::move(dims)};
  built_ = false;
}

void TestRequest::omitOutput(uint32_t k) {
  outputs_.at(k) = {true, {}, 0, {}};
  built_ = false;
}

const nnrt_request& TestRequest::view() {
  if (built_) return request_;
  auto layout = [](std::vector<Argument>& args, bool isInput, std::vector<uint8_t>& pool,
                   std::vector<nnrt_request_argument>& out) {
    std::vector<size_t> offsets(args.size());
    size_t size = 0;
    for (size_t i = 0; i < args.size(); ++i) {
      offsets[i] = alignUp(size);
      size = offsets[i] + (isInput ? args[i].bytes.size() : args[i].size);
    }
    pool.assign(size, isInput ? 0x00 : 0xFF);
    out.assign(args.size(), nnrt_request_argument{});
    for (size_t i = 0; i < args.size(); ++i) {
      const Argument& a = args[i];
      nnrt_request_argument& c = out[i];
      c.has_no_value = a.omitted ? 1 : 0;
      const size_t length = isInput ? a.bytes.size() : a.size;
      c.location = {isInput ? 0u : 1u, static_cast<uint32_t>(offsets[i]), static_cast<uint32_t>(length)};
      c.rank = static_cast<uint32_t>(a.dims.size());
      c.dimensions = a.dims.data();
      if (isInput && !a.bytes.empty()) std::memcpy(pool.data() + offsets[i], a.bytes.data(), a.bytes.size());
    }
  };
  layout(inputs_, true, inputPool_, cInputs_);
  layout(outputs_, false, outputPool_, cOutputs_);
  pools_ = {{NNRT_POOL_HOST, inputPool_.data(), inputPool_.size()},
            {NNRT_POOL_HOST, outputPool_.data(), outputPool_.size()}};
  request_ = {cInputs_.data(),  static_cast<uint32_t>(cInputs_.size()),
              cOutputs_.data(), static_cast<uint32_t>(cOutputs_.size()),
              pools_.data(),    static_cast<uint32_t>(pools_.size())};
  built_ = true;
  return request_;
}

std::span<const uint8_t> TestRequest::outputBytes(uint32_t k) const {
  if (!built_) throw std::logic_error("TestRequest::outputBytes before view()");
  const nnrt_request_argument& a = cOutputs_.at(k);
  return {outputPool_.data() + a.location.offset, a.location.length};
}

}  // namespace nnrt::test
