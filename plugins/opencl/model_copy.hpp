// The driver's own copy of a model's main subgraph: operands, operations, inputs, outputs and the
// values of every constant, owned, so that it outlives the host's view, can be written into the data
// cache file and read back. view() presents it as an nnrt_model again (constants as CONSTANT_COPY
// values), so the SDK operation library reads it like any model.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "nnrt/driver/driver.hpp"

namespace nnrt::opencl {

class ModelCopy {
 public:
  // Copies the main subgraph of `model`, constants included (from operand_values and from pools).
  // Fails for a model whose main subgraph refers to other subgraphs or has extension data, which no
  // operation this driver supports takes.
  static driver::Result<std::unique_ptr<ModelCopy>> copy(const driver::Model& model);
  // Reads serialize()'s bytes back, checking every count, index and range.
  static driver::Result<std::unique_ptr<ModelCopy>> deserialize(std::span<const uint8_t> bytes);
  std::vector<uint8_t> serialize() const;

  ModelCopy(const ModelCopy&) = delete;
  ModelCopy& operator=(const ModelCopy&) = delete;

  // Valid as long as this object and unchanged by anything but dropConstantValues.
  const nnrt_model& view() const { return view_; }
  driver::Model model() const { return driver::Model(view_); }
  driver::Subgraph main() const { return driver::Subgraph(view_.main); }
  bool relaxed() const { return view_.relax_computation_float32_to_float16 != 0; }

  // Forgets the host copy of the listed constants (their bytes live on the device now); they keep
  // their type and shape, and the model reads them as constants without a known value.
  void dropConstantValues(std::span<const uint32_t> operands);

 private:
  struct Operand {
    nnrt_operand desc{};
    std::vector<uint32_t> dims;
  };
  struct Operation {
    int32_t type = 0;
    std::vector<uint32_t> inputs, outputs;
  };
  ModelCopy() = default;
  void rebuildView();
  driver::Result<void> check() const;

  std::vector<Operand> operands_;
  std::vector<Operation> operations_;
  std::vector<uint32_t> inputs_, outputs_;
  std::vector<uint8_t> values_;  // every constant, 16-byte aligned
  bool relaxed_ = false;

  std::vector<nnrt_operand> cOperands_;
  std::vector<nnrt_operation> cOperations_;
  nnrt_model view_{};
};

}  // namespace nnrt::opencl
