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
  // Referenced subgraph `subgraph` as the main subgraph (what a device is asked to support or
  // prepare when that subgraph runs as a whole), its own inputs and outputs as identified.
  static std::unique_ptr<ModelView> referencedAsMain(const FinishedModel& model, uint32_t subgraph);
  // A step: `operations` (sorted indexes into the operations of `subgraph`, kMainSubgraph or a
  // referenced one, in execution order) with `inputs` and `outputs` (that subgraph's operand indexes)
  // as the sub-model's inputs and outputs. Operands are renumbered in order of first use;
  // sourceOperand() maps back.
  static std::unique_ptr<ModelView> subset(const FinishedModel& model, std::span<const uint32_t> operations,
                                           std::span<const uint32_t> inputs, std::span<const uint32_t> outputs,
                                           uint32_t subgraph = kMainSubgraph);

  const nnrt_model& view() const { return model_; }
  // Sub-model operand index -> source operand index (the identity for the whole model).
  uint32_t sourceOperand(uint32_t index) const { return sourceOperand_[index]; }

 private:
  // The driver structs of one subgraph and the arrays they point to.
  struct SubgraphArrays {
    std::vector<nnrt_operand> operands;
    std::vector<nnrt_operation> operations;
    std::vector<std::vector<uint32_t>> indexes;  // [2i] inputs, [2i+1] outputs of operation i
    std::vector<uint32_t> inputs, outputs;
  };

  ModelView() = default;
  // A subgraph of `model` as it is.
  static void describeSubgraph(const FinishedModel& model, uint32_t subgraph, SubgraphArrays& arrays);
  static nnrt_subgraph link(SubgraphArrays& arrays);
  void build(const FinishedModel& model);

  nnrt_model model_{};
  SubgraphArrays main_;
  std::vector<SubgraphArrays> referencedArrays_;  // every referenced subgraph of the model, as it is
  std::vector<nnrt_subgraph> referenced_;
  std::vector<nnrt_extension_prefix> prefixes_;
  std::vector<uint32_t> sourceOperand_;
};

}  // namespace nnrt
