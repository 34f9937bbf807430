// Test helpers for the partitioner: an owning builder of nnrt_model views and fake DeviceViews that
// declare their supported operations and costs. Only what the partitioner reads is filled in
// (types, lifetimes, operations, inputs/outputs, referenced subgraphs, extension prefixes).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "nnrt/driver/driver.hpp"
#include "partitioner/partitioner.hpp"

namespace nnrt::partition::testing {

constexpr int32_t kFloat32 = static_cast<int32_t>(driver::OperandType::FLOAT32);
constexpr int32_t kInt32 = static_cast<int32_t>(driver::OperandType::INT32);
constexpr int32_t kTensorFloat32 = static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32);
constexpr int32_t kTensorQuant8 = static_cast<int32_t>(driver::OperandType::TENSOR_QUANT8_ASYMM);
constexpr int32_t kAdd = static_cast<int32_t>(driver::OperationType::ADD);
constexpr int32_t kMul = static_cast<int32_t>(driver::OperationType::MUL);
constexpr int32_t kSub = static_cast<int32_t>(driver::OperationType::SUB);
constexpr int32_t kConv = static_cast<int32_t>(driver::OperationType::CONV_2D);
constexpr int32_t kConcat = static_cast<int32_t>(driver::OperationType::CONCATENATION);
constexpr int32_t kIf = static_cast<int32_t>(driver::OperationType::IF);

// The type of operation or operand `type` of the extension registered under `prefix`.
constexpr int32_t extensionType(uint16_t prefix, uint16_t type) {
  return static_cast<int32_t>((uint32_t{prefix} << 16) | type);
}

// One subgraph under construction. Operand and operation indexes are returned in creation order.
class TestSubgraph {
 public:
  uint32_t input(int32_t type = kTensorFloat32) {
    const uint32_t index = add(type, NNRT_LIFETIME_SUBGRAPH_INPUT);
    inputs_.push_back(index);
    return index;
  }
  uint32_t output(int32_t type = kTensorFloat32) {
    const uint32_t index = add(type, NNRT_LIFETIME_SUBGRAPH_OUTPUT);
    outputs_.push_back(index);
    return index;
  }
  uint32_t temporary(int32_t type = kTensorFloat32) { return add(type, NNRT_LIFETIME_TEMPORARY_VARIABLE); }
  uint32_t constant(int32_t type = kInt32) { return add(type, NNRT_LIFETIME_CONSTANT_COPY); }
  uint32_t omitted(int32_t type = kTensorFloat32) { return add(type, NNRT_LIFETIME_NO_VALUE); }
  uint32_t subgraphReference(uint32_t referencedIndex) {
    const uint32_t index = add(static_cast<int32_t>(driver::OperandType::SUBGRAPH), NNRT_LIFETIME_SUBGRAPH);
    operands_[index].location.offset = referencedIndex;
    return index;
  }
  uint32_t operation(int32_t type, std::vector<uint32_t> inputs, std::vector<uint32_t> outputs) {
    operations_.push_back({type, std::move(inputs), std::move(outputs)});
    return static_cast<uint32_t>(operations_.size() - 1);
  }
  // Marks an operand as a model output after the fact (e.g. to reorder the output list).
  void setOutputs(std::vector<uint32_t> outputs) { outputs_ = std::move(outputs); }
  void setInputs(std::vector<uint32_t> inputs) { inputs_ = std::move(inputs); }
  size_t operationCount() const { return operations_.size(); }

  // Rebuilds the C view; pointers stay valid until this object changes.
  const nnrt_subgraph& view() {
    cOperations_.clear();
    for (const Op& op : operations_) {
      cOperations_.push_back({op.type, op.inputs.data(), static_cast<uint32_t>(op.inputs.size()),
                              op.outputs.data(), static_cast<uint32_t>(op.outputs.size())});
    }
    view_ = {};
    view_.operands = operands_.data();
    view_.operand_count = static_cast<uint32_t>(operands_.size());
    view_.operations = cOperations_.data();
    view_.operation_count = static_cast<uint32_t>(cOperations_.size());
    view_.input_indexes = inputs_.data();
    view_.input_count = static_cast<uint32_t>(inputs_.size());
    view_.output_indexes = outputs_.data();
    view_.output_count = static_cast<uint32_t>(outputs_.size());
    return view_;
  }

 private:
  struct Op {
    int32_t type;
    std::vector<uint32_t> inputs;
    std::vector<uint32_t> outputs;
  };
  uint32_t add(int32_t type, int32_t lifetime) {
    nnrt_operand operand{};
    operand.type = type;
    operand.lifetime = lifetime;
    operands_.push_back(operand);
    return static_cast<uint32_t>(operands_.size() - 1);
  }
  std::vector<nnrt_operand> operands_;
  std::vector<Op> operations_;
  std::vector<nnrt_operation> cOperations_;
  std::vector<uint32_t> inputs_;
  std::vector<uint32_t> outputs_;
  nnrt_subgraph view_{};
};

// A model: the main subgraph, referenced subgraphs, the relaxed flag and extension prefixes.
class TestModel : public TestSubgraph {
 public:
  TestSubgraph& referenced(uint32_t index) {
    while (referenced_.size() <= index) {
      referenced_.emplace_back();
    }
    return referenced_[index];
  }
  void relax() { relaxed_ = true; }
  // Registers extension `name` under `prefix` in the model's extension table.
  void registerExtension(const std::string& name, uint16_t prefix) { prefixes_.push_back({prefix, name}); }

  // The driver view; valid until this object changes.
  driver::Model model() {
    model_ = {};
    model_.main = view();
    cReferenced_.clear();
    for (TestSubgraph& subgraph : referenced_) {
      cReferenced_.push_back(subgraph.view());
    }
    model_.referenced = cReferenced_.data();
    model_.referenced_count = static_cast<uint32_t>(cReferenced_.size());
    model_.relax_computation_float32_to_float16 = relaxed_ ? 1 : 0;
    cPrefixes_.clear();
    for (const auto& [prefix, name] : prefixes_) {
      cPrefixes_.push_back({name.c_str(), prefix});
    }
    model_.extension_prefixes = cPrefixes_.data();
    model_.extension_prefix_count = static_cast<uint32_t>(cPrefixes_.size());
    return driver::Model(model_);
  }

 private:
  std::deque<TestSubgraph> referenced_;
  std::vector<nnrt_subgraph> cReferenced_;
  bool relaxed_ = false;
  std::vector<std::pair<uint16_t, std::string>> prefixes_;
  std::vector<nnrt_extension_prefix> cPrefixes_;
  nnrt_model model_{};
};

// A fake device. `perf` lists {operand type, {execTime, powerUsage}}; `supported` flags each
// main-subgraph operation (empty = all of `operationCount`).
struct FakeDevice {
  std::string name;
  int32_t type = NNRT_DEVICE_TYPE_ACCELERATOR;
  std::vector<std::pair<int32_t, nnrt_perf_info>> perf;
  std::string entry;

  DeviceView view(size_t operationCount, const std::set<uint32_t>& unsupported = {},
                  const std::string& reason = "") const {
    DeviceView device;
    device.name = name;
    device.entry = entry;
    device.type = type;
    for (const auto& [operandType, info] : perf) {
      device.capabilities.operandPerformance.push_back({operandType, info});
    }
    std::sort(device.capabilities.operandPerformance.begin(), device.capabilities.operandPerformance.end(),
              [](const auto& a, const auto& b) { return a.type < b.type; });
    device.supported.assign(operationCount, true);
    device.unsupportedReasons.assign(operationCount, "");
    for (uint32_t j : unsupported) {
      device.supported[j] = false;
      device.unsupportedReasons[j] = reason;
    }
    return device;
  }
};

// A device that costs `cost` (both numbers) for TENSOR_FLOAT32, FLOAT32 and INT32.
inline FakeDevice uniform(std::string name, int32_t type, float cost) {
  return FakeDevice{std::move(name),
                    type,
                    {{kFloat32, {cost, cost}}, {kInt32, {cost, cost}}, {kTensorFloat32, {cost, cost}}},
                    ""};
}

}  // namespace nnrt::partition::testing
