// A chain of float32 element-wise operations run as one kernel (the driver's element-wise fusion).
//
// The output space is walked in blocks of kBlock elements; within a block every intermediate value
// lives in a small buffer on the stack (in L1) instead of a tensor in memory, and only the values
// the rest of the model reads are written out. A transformer's GELU, composed of some 50 NNAPI
// operations (NNAPI has no erf), then reads its input once and writes its output once.
//
// Each instruction computes exactly the expression of the operation's own kernel (elementwise.hpp,
// math.hpp, activation.hpp, nonlinear.hpp) on the same float values, so a fused chain gives results
// bit-identical to running its operations one by one.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "plugins/cpu/kernels/broadcast.hpp"
#include "plugins/cpu/kernels/types.hpp"

namespace nnrt::cpu {

enum class FusedOp : uint8_t {
  // float32 (a, b) -> float32, clamped to [lo, hi] (a fused activation; ±infinity for none)
  Add, Sub, Mul, Div,
  // float32 (a, b) -> float32
  Maximum, Minimum, Pow,
  // float32 a -> float32 (Clamp: to [lo, hi], as RELU, RELU1 and RELU6; Square: a * a, POW by the
  // single value 2)
  Abs, Exp, Log, Neg, Rsqrt, Sin, Sqrt, Floor, Logistic, Tanh, Clamp, Square,
  // float32 (a, b) -> bool8
  Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual,
  // (bool8 a, float32 b, float32 c) -> float32: a ? b : c
  Select,
  // float32 a -> float32: the mean of a's row (its last dimension), repeated along the row (MEAN over
  // the last axis; detail::rowMean)
  RowMean,
  // float32 (a, b, terms t1..tn) -> float32: a chain of MULs and ADDs, ((a * b + t1) * b + t2) ... * b + tn
  // (Horner's rule; n = 1 is a * b + t1), each product and each sum rounded as MUL and ADD round them,
  // then clamped to [lo, hi]. plan() forms it from such chains of Mul and Add: one pass over the block
  // instead of 2n, the intermediate values in registers.
  Horner,
  // float32 pieces (terms p1..pn) -> float32: the pieces side by side along the last dimension
  // (CONCATENATION over the last axis). Each piece is a program input of the program's shape but for
  // its last dimension, read by no other instruction.
  Concat,
};

// How many operands the operation reads (1, 2 or 3) and whether its result is a bool8.
size_t fusedOperandCount(FusedOp op);
bool fusedYieldsBool(FusedOp op);

// Values are numbered: the inputs first (0 .. inputs.size() - 1), then one per instruction, in order.
struct FusedProgram {
  struct Input {
    Shape shape;  // equal to the program's shape, or broadcast to it (NumPy rules)
    bool isBool = false;
  };
  struct Instruction {
    FusedOp op = FusedOp::Add;
    uint32_t a = 0, b = 0, c = 0;  // the values it reads (b, c unused below its operand count)
    float lo = -std::numeric_limits<float>::infinity();
    float hi = std::numeric_limits<float>::infinity();
    std::vector<uint32_t> terms;  // Horner: t1..tn (at most kMaxHornerTerms); Concat: its pieces
  };
  static constexpr size_t kMaxTerms = 64;
  static constexpr size_t kMaxHornerTerms = 16;
  Shape shape;  // every instruction's result has this shape
  std::vector<Input> inputs;
  std::vector<Instruction> code;
  std::vector<uint32_t> outputs;  // the values written to memory (float32 or bool8 by kind), in order
  // For each output (empty: none): written one value per row, a value constant along each row (the
  // shape with its last dimension 1, as a MEAN with keepDims writes it).
  std::vector<bool> outputPerRow;
};

class FusedElementwise {
 public:
  static constexpr size_t kBlock = 1024;     // elements per block (4 KiB of float32)
  static constexpr size_t kMaxBuffers = 32;  // block buffers on a thread's stack: 128 KiB
  static constexpr size_t kMaxValues = 512;

  // Whether an input of shape `in` can be read in a program of shape `out`: equal shapes, one
  // element, or a broadcast of rank <= 4 whose innermost run (after merging dimensions) is at least
  // 16 elements or constant along the run, so that blocks are filled by runs, not element by element.
  static bool canRead(const Shape& in, const Shape& out);

  // Plans `program`: first every chain of Mul and Add that only feeds itself (each product read once,
  // by the next sum, each sum but the last read once, by the next product by the same factor, no
  // clamp but the last sum's) becomes one Horner instruction; then a block buffer for each value that is neither read in place (an input of the
  // program's shape) nor written out whole, reused once no later instruction reads its value. A
  // program with row means or per-row outputs walks whole rows per block (its rows at most kBlock
  // long). Empty, with the reason in `why`, when the program is malformed, its rows are longer, or
  // it needs more than kMaxBuffers buffers.
  static std::optional<FusedElementwise> plan(FusedProgram program, std::string& why);

  // inputs[k] holds the planned program's inputs[k]; outputs[k] receives its value outputs[k] (whole tensors).
  // Blocks run in parallel on oneTBB; nothing is allocated.
  void run(std::span<const void* const> inputs, std::span<void* const> outputs) const;

  size_t buffers() const { return bufferCount_; }
  // The instructions the planned program runs (Horner chains counted once).
  size_t instructions() const { return program_.code.size(); }

 private:
  // An input read where it is (InPlace: the program's shape; Scalar: one element, for all), or
  // gathered into a buffer block by block, or tiled into one once (Tiled: one row, blocks of whole
  // rows), or a Concat's piece; a result in a buffer, written to an
  // output, or computed in a buffer and written one value per row (RowOutput).
  enum class Where : uint8_t { InPlace, Scalar, Gathered, Tiled, Buffer, Output, RowOutput, Piece };
  struct Place {
    Where where = Where::Buffer;
    uint32_t index = 0;  // input number (InPlace, Gathered), buffer (Gathered, Buffer), output number
    uint32_t buffer = 0;
    detail::BroadcastLoop loop;  // Gathered
  };

  FusedProgram program_;
  std::vector<Place> places_;     // by value
  // By instruction: bit i set when operand i is a Scalar input (a, b, c, then Horner's terms).
  std::vector<uint32_t> scalars_;
  std::vector<std::vector<uint32_t>> pieceWidths_;  // by instruction: a Concat's pieces' last dimensions
  size_t bufferCount_ = 0;
  size_t blockElements_ = kBlock;  // whole rows when rowLength_ is set
  size_t rowLength_ = 0;           // row means or per-row outputs: the last dimension
};

}  // namespace nnrt::cpu
