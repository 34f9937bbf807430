// Owning builders of the driver ABI's C views for tests that talk to drivers directly:
//
//   TestModel   -> nnrt_model   (operands with type, dimensions, scale and zero point; constants;
//                                operations; model inputs and outputs; the relaxed flag)
//   TestRequest -> nnrt_request (one buffer per input and output)
//
//   TestModel m;
//   uint32_t a = m.addInput(OperandType::TENSOR_FLOAT32, {2, 3});
//   uint32_t b = m.addConstant(OperandType::TENSOR_FLOAT32, {3}, std::vector<float>{1, 2, 3});
//   uint32_t out = m.addOutput(OperandType::TENSOR_FLOAT32, {2, 3});
//   m.addOperation(OperationType::ADD, {a, b, m.addInt32(0)}, {out});
//   const nnrt_model& view = m.view();
//
// Constants: values of at most largeValueThreshold() bytes (128 by default, NNAPI's
// setOperandValue limit) become CONSTANT_COPY operands in nnrt_model.operand_values; larger ones
// become CONSTANT_REFERENCE operands in one memory pool, as the runtime lays them out.
//
// Lifetimes: view() returns a view into this object, rebuilt only after a change. Its pointers, and
// the pool bytes a driver may reference until its prepared model is released, stay valid while the
// object lives and is not changed: finish building before preparing, and keep the TestModel alive
// as long as any prepared model made from it. Copies and moves rebuild their own view. Not
// thread-safe; share a view between threads only once it is built.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "nnrt/driver/types.hpp"

namespace nnrt::test {

using driver::OperandType;
using driver::OperationType;

// The bytes of a vector of trivially copyable values.
template <class T>
std::vector<uint8_t> toBytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

class TestModel {
 public:
  struct Operand {
    int32_t type = 0;
    std::vector<uint32_t> dims;
    float scale = 0.0f;
    int32_t zeroPoint = 0;
    int32_t lifetime = NNRT_LIFETIME_TEMPORARY_VARIABLE;  // constants: decided by view()
    bool isConstant = false;
    std::vector<uint8_t> value;
    uint32_t channelDim = 0;
    std::vector<float> channelScales;  // non-empty: per-channel quantization
  };
  struct Operation {
    int32_t type = 0;
    std::vector<uint32_t> inputs, outputs;
  };
  // What the model is (the view is rebuilt from it); description() reads it back.
  struct Description {
    std::vector<Operand> operands;
    std::vector<Operation> operations;
    std::vector<uint32_t> inputs, outputs;
    bool relaxed = false;
    size_t largeValueThreshold = 128;
  };

  TestModel() = default;
  TestModel(const TestModel& other) : d_(other.d_) {}
  TestModel(TestModel&& other) noexcept : d_(std::move(other.d_)) {}
  TestModel& operator=(const TestModel& other);
  TestModel& operator=(TestModel&& other) noexcept;

  // ---- Operands; each returns the new operand's index. Scalars have no dimensions. ----

  // A temporary written by one operation and read by others.
  uint32_t addOperand(OperandType type, std::vector<uint32_t> dims = {}, float scale = 0.0f,
                      int32_t zeroPoint = 0);
  // A model input, appended to the model's input list. Dimensions may be 0 (unknown).
  uint32_t addInput(OperandType type, std::vector<uint32_t> dims = {}, float scale = 0.0f,
                    int32_t zeroPoint = 0);
  // A model output, appended to the model's output list. Dimensions may be 0 (unknown).
  uint32_t addOutput(OperandType type, std::vector<uint32_t> dims = {}, float scale = 0.0f,
                     int32_t zeroPoint = 0);
  // A constant with the given bytes (their length should match type x dims).
  uint32_t addConstant(OperandType type, std::vector<uint32_t> dims, std::vector<uint8_t> bytes,
                       float scale = 0.0f, int32_t zeroPoint = 0);
  template <class T>
  uint32_t addConstant(OperandType type, std::vector<uint32_t> dims, const std::vector<T>& values,
                       float scale = 0.0f, int32_t zeroPoint = 0) {
    return addConstant(type, std::move(dims), toBytes(values), scale, zeroPoint);
  }
  uint32_t addInt32(int32_t value);
  uint32_t addFloat32(float value);
  uint32_t addBool(bool value);
  uint32_t addFloat16(float value);  // a FLOAT16 scalar, rounded to half precision
  // A 1-D TENSOR_INT32 constant (axes, shapes, permutations, paddings as a flat list: give `dims`).
  uint32_t addInt32Tensor(const std::vector<int32_t>& values, std::vector<uint32_t> dims = {});
  // An omitted optional input (NNRT_LIFETIME_NO_VALUE).
  uint32_t addOmitted(OperandType type);

  // Per-channel quantization of a TENSOR_QUANT8_SYMM_PER_CHANNEL operand.
  void setChannelQuant(uint32_t operand, uint32_t channelDim, std::vector<float> scales);

  // ---- Operations and the rest of the model ----

  // Appends an operation; operations must be added in an order that is valid to run.
  void addOperation(OperationType type, std::vector<uint32_t> inputs, std::vector<uint32_t> outputs);
  void addOperation(int32_t type, std::vector<uint32_t> inputs, std::vector<uint32_t> outputs);
  // Replaces the model input / output lists (addInput/addOutput append in creation order).
  void setInputsAndOutputs(std::vector<uint32_t> inputs, std::vector<uint32_t> outputs);
  void setRelaxed(bool relaxed);
  // Makes constant `operand` a model input (appended to the input list) and returns the bytes it held.
  std::vector<uint8_t> constantToInput(uint32_t operand);
  // Makes model input `input` a temporary written by ADD(new input, zero, NONE), the ADD first of all
  // operations; the new input takes its place in the input list (zero is 0.0, or the zero point).
  void feedThroughAdd(uint32_t input);
  // Every TENSOR_FLOAT32 operand becomes TENSOR_FLOAT16 and every FLOAT32 scalar FLOAT16, constant
  // values rounded to half precision.
  void convertFloat32ToFloat16();
  // Every TENSOR_QUANT8_ASYMM operand becomes TENSOR_QUANT8_ASYMM_SIGNED with the same real values:
  // zero point and stored values 128 lower.
  void convertQuant8ToSigned();
  // Replaces an operand's dimensions (0 where unknown).
  void setOperandDims(uint32_t operand, std::vector<uint32_t> dims);
  // Values larger than this go to the pool; 0 puts every constant there, SIZE_MAX none.
  void setLargeValueThreshold(size_t bytes);
  size_t largeValueThreshold() const { return d_.largeValueThreshold; }

  // ---- Reading back ----

  size_t operandCount() const { return d_.operands.size(); }
  size_t operationCount() const { return d_.operations.size(); }
  const std::vector<uint32_t>& inputs() const { return d_.inputs; }
  const std::vector<uint32_t>& outputs() const { return d_.outputs; }
  OperandType operandType(uint32_t operand) const {
    return static_cast<OperandType>(d_.operands.at(operand).type);
  }
  const std::vector<uint32_t>& operandDims(uint32_t operand) const { return d_.operands.at(operand).dims; }
  bool isConstant(uint32_t operand) const { return d_.operands.at(operand).isConstant; }
  bool relaxed() const { return d_.relaxed; }
  int32_t operationType(size_t operation) const { return d_.operations.at(operation).type; }
  const Description& description() const { return d_; }

  // The model as a driver receives it (see the lifetime rules above).
  const nnrt_model& view();

 private:
  uint32_t add(Operand operand);
  static Operand makeOperand(OperandType type, std::vector<uint32_t> dims, float scale, int32_t zeroPoint,
                             int32_t lifetime);
  void changed() { built_ = false; }

  Description d_;
  bool built_ = false;
  std::vector<nnrt_operand> cOperands_;
  std::vector<nnrt_operation> cOperations_;
  std::vector<uint8_t> operandValues_;
  std::vector<uint8_t> poolBytes_;
  std::vector<nnrt_memory_pool> pools_;
  nnrt_model model_{};
};

// Buffers of one execution: inputs in request pool 0, outputs in pool 1, each at a 64-byte aligned
// offset. Output buffers start filled with 0xFF bytes (NaN for floats) so unwritten outputs show.
// view() is rebuilt only after a change, so outputs can be read after an execution. Not thread-safe:
// give each concurrent execution its own TestRequest.
class TestRequest {
 public:
  TestRequest(size_t inputCount, size_t outputCount);

  // Input k's bytes; `dims` (optional) fill in the model's unknown dimensions.
  void setInput(uint32_t k, std::vector<uint8_t> bytes, std::vector<uint32_t> dims = {});
  template <class T>
  void setInput(uint32_t k, const std::vector<T>& values, std::vector<uint32_t> dims = {}) {
    setInput(k, toBytes(values), std::move(dims));
  }
  void omitInput(uint32_t k);  // has_no_value
  // Output k gets a buffer of `bytes` bytes; `dims` (optional) as for inputs.
  void setOutput(uint32_t k, size_t bytes, std::vector<uint32_t> dims = {});
  void omitOutput(uint32_t k);

  const nnrt_request& view();

  std::span<const uint8_t> outputBytes(uint32_t k) const;
  template <class T>
  std::vector<T> output(uint32_t k) const {
    const auto bytes = outputBytes(k);
    std::vector<T> values(bytes.size() / sizeof(T));
    if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
    return values;
  }

 private:
  struct Argument {
    bool omitted = false;
    std::vector<uint8_t> bytes;  // inputs
    size_t size = 0;             // outputs
    std::vector<uint32_t> dims;
  };
  std::vector<Argument> inputs_, outputs_;
  bool built_ = false;
  std::vector<nnrt_request_argument> cInputs_, cOutputs_;
  std::vector<uint8_t> inputPool_, outputPool_;
  std::vector<nnrt_memory_pool> pools_;
  nnrt_request request_{};
};

}  // namespace nnrt::test
