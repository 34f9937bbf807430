// Operation semantics shared by the runtime and the built-in drivers: one table of operation
// signatures (validation) and shape inference, driven by what is known about the operands.
//
// The same code runs at three moments with different knowledge:
//  - ANeuralNetworksModel_addOperation: declared types and shapes, constant values when set;
//  - a driver's getSupportedOperations_1_3 / prepareModel_1_3: the finished model;
//  - a driver's execution: every shape and value.
// What is not known yet (a 0 dimension, a parameter that is not a constant) is not checked yet.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "core/ops/operand_types.hpp"
#include "nnrt/driver/types.hpp"

namespace nnrt::ops {

using Shape = std::vector<uint32_t>;

// One operand as an operation sees it.
struct Arg {
  int32_t type = 0;
  std::span<const uint32_t> dims;  // a tensor of rank 0 has unknown rank; 0 entries are unknown
  float scale = 0.0f;
  int32_t zeroPoint = 0;
  const void* data = nullptr;             // the value when known (constants; everything at execution)
  size_t length = 0;                      // bytes at data
  bool omitted = false;                   // an optional input given no value (NO_VALUE)
  const nnrt_operand* operand = nullptr;  // the full description (per-channel scales), when there is one

  bool hasValue() const { return data != nullptr; }
  uint32_t rank() const { return static_cast<uint32_t>(dims.size()); }
  // Reads a scalar value; the caller checks hasValue() and the type first.
  template <class T>
  T scalar() const {
    T v{};
    std::memcpy(&v, data, sizeof v);
    return v;
  }
  template <class T>
  std::span<const T> values() const {
    return {static_cast<const T*>(data), length / sizeof(T)};
  }
};

struct OpArgs {
  int32_t type = 0;
  std::span<const Arg> inputs;
  std::span<const Arg> outputs;
  bool relaxed = false;  // the model allows float16 precision for float32 math
};

// Whether this module has a signature for the operation type (an NNAPI operation it knows).
// Operations without one (LSTM, IF, WHILE, OEM and extension operations, ...) are outside this
// module: validate() accepts them and inferShapes() returns their declared output shapes, so the
// runtime accepts them at addOperation and leaves them to drivers that claim them (no built-in
// driver does, since the built-in drivers support only operations with a signature).
bool hasSignature(int32_t operationType);

// Checks operand counts against the signature (including which optional inputs may be omitted),
// types and their allowed combinations, quantization rules, ranks and the constant parameters
// known so far (feature levels up to 4), then infers the output shapes and checks them against
// the declared output dimensions where both are known. The error names the operation, the operand
// position and the problem, e.g. "CONV_2D input 1 (filter) must be TENSOR_FLOAT32 like input 0,
// not TENSOR_INT32". Thread-safe; reads only `op`.
driver::Result<void> validate(const OpArgs& op);

// Output shapes from input shapes and known parameters, one per output: unknown dimensions stay 0
// and an empty Shape is an unknown rank. Declared output dimensions are not consulted. Besides what
// the shapes need it checks only the operand counts; it is safe to call on operations validate()
// refused.
// Fails when the known shapes or parameters are inconsistent (e.g. ADD of [2,3] and [4,3]).
driver::Result<std::vector<Shape>> inferShapes(const OpArgs& op);

// The Args of an operation of `subgraph` (a subgraph of `model`): declared types and shapes, the
// values of constant operands, NO_VALUE operands marked omitted, `operand` set. An operand index
// outside the subgraph gives an Arg of type -1, which validate() refuses. The Args point into the
// model view and live as long as it does.
std::vector<Arg> inputArgs(const driver::Model& model, const driver::Subgraph& subgraph,
                           const nnrt_operation& operation);
std::vector<Arg> outputArgs(const driver::Model& model, const driver::Subgraph& subgraph,
                            const nnrt_operation& operation);

}  // namespace nnrt::ops
