// ANeuralNetworksModel: building a model with Android's rules, and the immutable FinishedModel
// that compilations share once `finish` has validated and sorted it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/memory/memory.hpp"
#include "core/model/extension_registry.hpp"
#include "core/support/status.hpp"
#include "nnrt/driver/nnrt_driver.h"

namespace nnrt {

class ModelView;

struct Operand {
  int32_t type = 0;
  bool isTensor = false;
  uint32_t elementSize = 0;  // bytes of a scalar or of one tensor element (0: OEM, no fixed size)
  std::vector<uint32_t> dimensions;
  float scale = 0.0f;
  int32_t zeroPoint = 0;
  int32_t lifetime = NNRT_LIFETIME_TEMPORARY_VARIABLE;
  // CONSTANT_COPY: offset/length in FinishedModel::smallValues. CONSTANT_REFERENCE: a pool of
  // FinishedModel::pools (before finish, pool_index indexes ModelBuilder's references).
  nnrt_data_location location{};
  uint32_t numberOfConsumers = 0;
  // TENSOR_QUANT8_SYMM_PER_CHANNEL
  bool hasChannelQuant = false;
  uint32_t channelDim = 0;
  std::vector<float> channelScales;
  // Extension operands
  bool hasExtensionData = false;
  std::vector<uint8_t> extensionData;
};

// Bytes an operand of these dimensions occupies; nullopt while a dimension is unknown.
std::optional<uint64_t> operandByteSize(const Operand& operand, std::span<const uint32_t> dimensions);

struct Operation {
  int32_t type = 0;
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
};

// A subgraph that IF and WHILE operations refer to (a SUBGRAPH operand's location.offset indexes
// FinishedModel::referenced). Its operations are sorted; its constants live in the FinishedModel's
// smallValues and pools like the main subgraph's.
struct ReferencedSubgraph {
  std::vector<Operand> operands;
  std::vector<Operation> operations;
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
};

// The main subgraph, where a subgraph index is asked for.
inline constexpr uint32_t kMainSubgraph = UINT32_MAX;

// A validated model. Operations are in topological order, the order of addOperation kept where it is
// one (among the operations whose inputs are ready, the one added first comes first); originalIndex
// maps back to the order of addOperation. Immutable and shared; the constant bytes it points to live as long as it does.
struct FinishedModel {
  std::vector<Operand> operands;
  std::vector<Operation> operations;     // sorted
  std::vector<uint32_t> originalIndex;   // sorted position -> addOperation order
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
  std::vector<uint8_t> smallValues;      // CONSTANT_COPY bytes
  std::vector<uint8_t> largeValues;      // setOperandValue values over 128 bytes, copied at finish
  std::vector<std::shared_ptr<Memory>> memories;  // setOperandValueFromMemory
  std::vector<nnrt_memory_pool> pools;   // pool 0: largeValues (if any), then one per memory
  bool relaxed = false;
  std::vector<std::pair<std::string, uint16_t>> extensionPrefixes;  // extensions this model uses
  bool usesExtensionOrOem = false;
  // Every subgraph referenced from this model, directly or through another referenced subgraph, each
  // once (Android's flattening). referencedModels[k] is the finished model referenced[k] was copied
  // from; it owns the large constants and memories that pools point to for referenced[k].
  std::vector<ReferencedSubgraph> referenced;
  std::vector<std::shared_ptr<const FinishedModel>> referencedModels;
  std::unique_ptr<ModelView> view;       // the whole model as drivers see it

  // The operands, operations, inputs and outputs of kMainSubgraph or of referenced[subgraph].
  const std::vector<Operand>& operandsOf(uint32_t subgraph) const {
    return subgraph == kMainSubgraph ? operands : referenced[subgraph].operands;
  }
  const std::vector<Operation>& operationsOf(uint32_t subgraph) const {
    return subgraph == kMainSubgraph ? operations : referenced[subgraph].operations;
  }
  const std::vector<uint32_t>& inputsOf(uint32_t subgraph) const {
    return subgraph == kMainSubgraph ? inputs : referenced[subgraph].inputs;
  }
  const std::vector<uint32_t>& outputsOf(uint32_t subgraph) const {
    return subgraph == kMainSubgraph ? outputs : referenced[subgraph].outputs;
  }

  ~FinishedModel();
};

class ModelBuilder {
 public:
  explicit ModelBuilder(std::shared_ptr<const ExtensionRegistry> extensions);

  Result<void> addOperand(int32_t type, std::span<const uint32_t> dimensions, float scale, int32_t zeroPoint);
  Result<void> setOperandValue(int32_t index, const void* buffer, size_t length);
  Result<void> setOperandValueFromMemory(int32_t index, std::shared_ptr<Memory> memory, size_t offset, size_t length);
  // ANeuralNetworksModel_setOperandValueFromModel: operand `index` (of type SUBGRAPH) refers to the
  // main subgraph of `value`, a finished model. The same model referenced twice is kept once.
  Result<void> setOperandValueFromModel(int32_t index, std::shared_ptr<const FinishedModel> value);
  Result<void> setOperandSymmPerChannelQuantParams(int32_t index, uint32_t channelDim, std::span<const float> scales);
  Result<void> setOperandExtensionData(int32_t index, const void* data, size_t length);
  Result<void> addOperation(int32_t type, std::span<const uint32_t> inputs, std::span<const uint32_t> outputs);
  Result<void> identifyInputsAndOutputs(std::span<const uint32_t> inputs, std::span<const uint32_t> outputs);
  Result<void> relaxComputationFloat32toFloat16(bool allow);
  // Validates the whole graph, copies large values, sorts the operations and builds the view.
  Result<void> finish();

  bool finished() const { return finished_ != nullptr; }
  // The model after finish (null before).
  std::shared_ptr<const FinishedModel> finishedModel() const { return finished_; }
  const ExtensionRegistry& extensions() const { return *extensions_; }
  // Registers use of an extension and returns its prefix (for getExtensionOperand/OperationType).
  Result<uint16_t> useExtension(const std::string& name);
  // BAD_STATE once finished, or after a failed finish (as Android).
  Result<void> checkModifiable() const;

 private:
  Result<Operand*> operandAt(int32_t index, const char* argument);
  // Bytes a constant value of the operand must have; errors when its size is not fully known.
  static Result<size_t> expectedLength(const Operand& operand, uint32_t index);
  Result<void> validateOperation(const Operation& operation, size_t position) const;
  Result<void> validateGraph(FinishedModel& model) const;
  // IF and WHILE against the subgraphs they refer to (model_control_flow.cpp): Android's
  // validateIfOperation / validateWhileOperation. Skipped while a reference is not set yet.
  Result<void> validateControlFlow(const Operation& operation, size_t position) const;
  // Copies every referenced model's main subgraph (and, recursively, what it refers to) into
  // `model`, each once, moving their constants into the model's value and pool tables.
  void flattenReferences(FinishedModel& model) const;
  Result<void> sortOperations(FinishedModel& model) const;

  std::shared_ptr<const ExtensionRegistry> extensions_;
  std::vector<Operand> operands_;
  std::vector<Operation> operations_;
  std::vector<uint32_t> inputs_, outputs_;
  std::vector<uint8_t> smallValues_;
  struct PendingValue {
    uint32_t operand;
    const void* buffer;  // the caller's, until finish
    size_t length;
  };
  std::vector<PendingValue> largeValues_;
  std::vector<std::shared_ptr<Memory>> memories_;
  // setOperandValueFromModel: a SUBGRAPH operand's location.offset indexes this list until finish.
  std::vector<std::shared_ptr<const FinishedModel>> referencedModels_;
  bool relaxed_ = false;
  std::vector<std::pair<std::string, uint16_t>> extensionPrefixes_;
  std::shared_ptr<const FinishedModel> finished_;
  bool invalid_ = false;  // a failed finish leaves the model unusable, as in Android
};

}  // namespace nnrt
