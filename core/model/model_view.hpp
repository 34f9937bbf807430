// A model as drivers see it (nnrt_model) and everything the view points to, built from a
// FinishedModel: the whole model, or the sub-model of one partition step. Immutable once built;
// it keeps no copy of constant bytes but points into the FinishedModel, which must outlive it.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "core/model/model.hpp"
#include "nnrt/driver/nnrt_driver.h"

namespace nnrt {

class ModelView {
 public:
  // The whole model: operands as they are, main subgraph inputs/outputs as identified.
  static std::unique_ptr<ModelView> whole(const FinishedModel& model);
  // A step: `operations` (sorted-model indexes, in execution order) with `inputs` and `outputs`
  // (source operand indexes) as the sub-model's inputs and outputs. Operands are renumbered in
  // order of first use; sourceOperand() maps back.
  static std::unique_ptr<ModelView> subset(const FinishedModel& model, std::span<const uint32_t> operations,
                                           std::span<const uint32_t> inputs, std::span<const uint32_t> outputs);

  const nnrt_model& view() const { return model_; }
  // Sub-model operand index -> source operand index (the identity for the whole model).
  uint32_t sourceOperand(uint32_t index) const { return sourceOperand_[index]; }

 private:
  ModelView() = default;
  void build(const FinishedModel& model);

  nnrt_model model_{};
  std::vector<nnrt_operand> operands_;
  std::vector<nnrt_operation> operations_;
  std::vector<int32_t> operationTypes_;
  std::vector<std::vector<uint32_t>> operationIndexes_;  // [2i] inputs, [2i+1] outputs
  std::vector<uint32_t> inputs_, outputs_;
  std::vector<nnrt_extension_prefix> prefixes_;
  std::vector<uint32_t> sourceOperand_;
};

}  // namespace nnrt
