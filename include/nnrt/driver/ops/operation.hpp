// The driver SDK's operation library: one table of NNAPI operation signatures (every operation of
// feature levels 1-4 and Android 13's additions), parameter checks and shape inference. The runtime
// validates models with it and every driver, built in or out of tree, uses the same code.
//
// Two depths of checking, as Android has them:
//  - Check::Signature is what ANeuralNetworksModel_addOperation and _finish refuse with BAD_DATA:
//    operand counts, operand types and their combinations, scalar versus tensor, the ranks Android
//    checks when a rank is known, the types of the optional layout flags, the quantization rules
//    Android checks when the model is built. Constant values and shapes are not read; Android leaves
//    them to preparation and execution, and so does nnrt.
//  - Check::Full adds everything a driver must know before running the operation: parameter values
//    (FuseCode range, strides, axes), shapes (broadcasting, windows, the declared output shapes),
//    output quantization constraints. Drivers run it at getSupportedOperations_1_3 / prepareModel_1_3
//    (constants known) and again at execution (every shape and value known).
// What is not known yet (a 0 dimension, a parameter that is not a constant) is not checked yet.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "nnrt/driver/ops/operand_types.hpp"
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

enum class Check { Signature, Full };

struct OpArgs {
  int32_t type = 0;
  std::span<const Arg> inputs;
  std::span<const Arg> outputs;
  bool relaxed = false;  // the model allows float16 precision for float32 math
  Check check = Check::Full;
  // The lowest NNAPI feature level (1..8) that has this operation with these operand types and
  // options; validation functions raise it with needs(). Written by validation, read by the caller.
  mutable int32_t featureLevel = 1;

  bool full() const { return check == Check::Full; }
  void needs(int32_t level) const { featureLevel = level > featureLevel ? level : featureLevel; }
};

// Whether this module has a signature for the operation type: every NNAPI operation does (OEM and
// extension operations do not; their drivers check them).
bool hasSignature(int32_t operationType);

// Android's model-building rules for one operation (the Check::Signature depth, whatever op.check
// says): BAD_DATA-worthy problems as an INVALID_ARGUMENT error naming the operation, the operand and
// the problem. On success, the lowest feature level (1..8) with this form of the operation.
// Operations without a signature pass (feature level 1). Thread-safe.
driver::Result<int32_t> validateSignature(const OpArgs& op);

// Checks at op.check's depth: the signature, and at Check::Full the constant parameters known so
// far, the output quantization constraints and the output shapes (inferred, then compared with the
// declared output dimensions where both are known). The error names the operation, the operand
// position and the problem, e.g. "CONV_2D input 1 (filter) must be TENSOR_FLOAT32 like input 0,
// not TENSOR_INT32". Thread-safe; reads only `op` (and writes op.featureLevel).
driver::Result<void> validate(const OpArgs& op);

// Whether NNAPI lets the operation read a zero-sized tensor (a dimension of 0 at execution: the boxes
// BOX_WITH_NMS_LIMIT kept none of, and what reads them). Its outputs then have the 0 that shape
// inference passes on and no values. Android's CPU path allows it for these operations (its
// allowZeroSizedInput); the others fail the execution.
bool takesZeroSizedInputs(int32_t operationType);

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
