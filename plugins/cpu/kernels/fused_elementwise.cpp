#include "plugins/cpu/kernels/fused_elementwise.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "plugins/cpu/kernels/exp_float.hpp"
#include "plugins/cpu/kernels/tanh_float.hpp"
#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/row_mean.hpp"

namespace nnrt::cpu {
namespace {

using Instruction = FusedProgram::Instruction;

size_t elementSize(bool isBool) { return isBool ? 1 : sizeof(float); }

// Whether `in` broadcasts to `out` (dims aligned from the trailing end, each equal or 1).
bool broadcasts(const Shape& in, const Shape& out) {
  if (in.rank() > out.rank()) return false;
  const size_t lead = out.rank() - in.rank();
  for (size_t d = 0; d < in.rank(); ++d) {
    if (in.dims[d] != out.dims[lead + d] && in.dims[d] != 1) return false;
  }
  return true;
}

// Elements [start, start + n) of the program's shape, read from `src` through `loop` (one operand
// planned against itself: aStride), copied or repeated run by run.
template <typename T>
void gather(const detail::BroadcastLoop& loop, const T* src, size_t start, size_t n, T* dst) {
  const size_t inner = loop.dims[3];
  const size_t end = start + n;
  for (size_t p = start; p < end;) {
    const size_t row = p / inner, column = p % inner;
    const size_t length = std::min(inner - column, end - p);
    const size_t i2 = row % loop.dims[2];
    const size_t i1 = (row / loop.dims[2]) % loop.dims[1];
    const size_t i0 = row / (loop.dims[2] * loop.dims[1]);
    const T* from = src + i0 * loop.aStride[0] + i1 * loop.aStride[1] + i2 * loop.aStride[2] + column * loop.aStride[3];
    if (loop.aStride[3] != 0) {
      std::copy(from, from + length, dst);
    } else {
      std::fill(dst, dst + length, *from);
    }
    dst += length;
    p += length;
  }
}

// The expressions below are those of the operations' own kernels, character for character, so that
// fused results equal unfused ones bit for bit (the tests compare them). An operand marked scalar
// (one element, for every element of the block) is read once, as the broadcast kernels read it.
// Always inlined: each is compiled within execute's clone for the processor.
template <typename Out, typename Op>
[[gnu::always_inline]] inline void binary(size_t n, const float* a, const float* b, unsigned scalars, Out* out, const Op& op) {
  switch (scalars & 3u) {
    case 0:
      for (size_t i = 0; i < n; ++i) out[i] = op(a[i], b[i]);
      return;
    case 1: {
      const float x = *a;
      for (size_t i = 0; i < n; ++i) out[i] = op(x, b[i]);
      return;
    }
    case 2: {
      const float y = *b;
      for (size_t i = 0; i < n; ++i) out[i] = op(a[i], y);
      return;
    }
    default:
      std::fill(out, out + n, op(*a, *b));
  }
}
template <typename Op>
[[gnu::always_inline]] inline void arithmetic(size_t n, const float* a, const float* b, unsigned scalars, float lo, float hi, float* out,
                const Op& op) {
  binary(n, a, b, scalars, out, [&](float x, float y) { return std::min(std::max(op(x, y), lo), hi); });
}
template <typename Op>
[[gnu::always_inline]] inline void compare(size_t n, const float* a, const float* b, unsigned scalars, uint8_t* out, const Op& op) {
  binary(n, a, b, scalars, out, [&](float x, float y) { return static_cast<uint8_t>(op(x, y)); });
}
template <typename Op>
[[gnu::always_inline]] inline void unary(size_t n, const float* a, unsigned scalars, float* out, const Op& op) {
  if (scalars & 1u) {
    std::fill(out, out + n, op(*a));
    return;
  }
  for (size_t i = 0; i < n; ++i) out[i] = op(a[i]);
}

// Compiled for AVX-512 and AVX2 as well as the baseline, chosen when the library loads: the loops are
// short, in L1, and limited by how many elements an instruction moves.
__attribute__((target_clones("avx512f", "avx2", "default")))
void execute(const Instruction& in, size_t n, size_t rowLength, unsigned scalars, const void* va, const void* vb,
             const void* vc, void* vout) {
  const auto* a = static_cast<const float*>(va);
  const auto* b = static_cast<const float*>(vb);
  auto* out = static_cast<float*>(vout);
  auto* flags = static_cast<uint8_t*>(vout);
  const float lo = in.lo, hi = in.hi;
  switch (in.op) {
    case FusedOp::Add:
      return arithmetic(n, a, b, scalars, lo, hi, out, [](float x, float y) { return x + y; });
    case FusedOp::Sub:
      return arithmetic(n, a, b, scalars, lo, hi, out, [](float x, float y) { return x - y; });
    case FusedOp::Mul:
      return arithmetic(n, a, b, scalars, lo, hi, out, [](float x, float y) { return x * y; });
    case FusedOp::Div:
      return arithmetic(n, a, b, scalars, lo, hi, out, [](float x, float y) { return x / y; });
    case FusedOp::Maximum:
      return binary(n, a, b, scalars, out, [](float x, float y) { return std::max(x, y); });
    case FusedOp::Minimum:
      return binary(n, a, b, scalars, out, [](float x, float y) { return std::min(x, y); });
    case FusedOp::Pow:
      return binary(n, a, b, scalars, out, [](float x, float y) { return std::pow(x, y); });
    case FusedOp::Abs:
      return unary(n, a, scalars, out, [](float x) { return std::fabs(x); });
    case FusedOp::Exp:
      return unary(n, a, scalars, out, [](float x) { return expFloat(x); });
    case FusedOp::Log:
      return unary(n, a, scalars, out, [](float x) { return std::log(x); });
    case FusedOp::Neg:
      return unary(n, a, scalars, out, [](float x) { return -x; });
    case FusedOp::Rsqrt:
      return unary(n, a, scalars, out, [](float x) { return 1.0f / std::sqrt(x); });
    case FusedOp::Sin:
      return unary(n, a, scalars, out, [](float x) { return std::sin(x); });
    case FusedOp::Sqrt:
      return unary(n, a, scalars, out, [](float x) { return std::sqrt(x); });
    case FusedOp::Floor:
      return unary(n, a, scalars, out, [](float x) { return std::floor(x); });
    case FusedOp::Logistic:
      return unary(n, a, scalars, out, [](float x) { return 1.0f / (1.0f + expFloat(-x)); });
    case FusedOp::Tanh:
      return unary(n, a, scalars, out, [](float x) { return tanhFloat(x); });
    case FusedOp::Clamp:
      return unary(n, a, scalars, out, [lo, hi](float x) { return std::min(std::max(x, lo), hi); });
    case FusedOp::Square:
      return unary(n, a, scalars, out, [](float x) { return x * x; });
    case FusedOp::Equal:
      return compare(n, a, b, scalars, flags, [](float x, float y) { return x == y; });
    case FusedOp::NotEqual:
      return compare(n, a, b, scalars, flags, [](float x, float y) { return x != y; });
    case FusedOp::Greater:
      return compare(n, a, b, scalars, flags, [](float x, float y) { return x > y; });
    case FusedOp::GreaterEqual:
      return compare(n, a, b, scalars, flags, [](float x, float y) { return x >= y; });
    case FusedOp::Less:
      return compare(n, a, b, scalars, flags, [](float x, float y) { return x < y; });
    case FusedOp::LessEqual:
      return compare(n, a, b, scalars, flags, [](float x, float y) { return x <= y; });
    case FusedOp::RowMean:
      for (size_t r = 0; r < n; r += rowLength) std::fill(out + r, out + r + rowLength, detail::rowMean(a + r, rowLength));
      return;
    case FusedOp::Select: {
      // The bits, moved as SELECT's kernel moves 4-byte elements; scalar operands repeated.
      const auto* condition = static_cast<const uint8_t*>(va);
      const auto* x = static_cast<const uint32_t*>(vb);
      const auto* y = static_cast<const uint32_t*>(vc);
      auto* bits = static_cast<uint32_t*>(vout);
      const size_t sc = (scalars & 1u) ? 0 : 1, sx = (scalars & 2u) ? 0 : 1, sy = (scalars & 4u) ? 0 : 1;
      if (scalars == 0) {
        for (size_t i = 0; i < n; ++i) {
          const uint32_t p = x[i], q = y[i];
          bits[i] = condition[i] != 0 ? p : q;
        }
        return;
      }
      for (size_t i = 0; i < n; ++i) {
        const uint32_t p = x[i * sx], q = y[i * sy];
        bits[i] = condition[i * sc] != 0 ? p : q;
      }
      return;
    }
  }
}

}  // namespace

size_t fusedOperandCount(FusedOp op) {
  switch (op) {
    case FusedOp::Abs:
    case FusedOp::Exp:
    case FusedOp::Log:
    case FusedOp::Neg:
    case FusedOp::Rsqrt:
    case FusedOp::Sin:
    case FusedOp::Sqrt:
    case FusedOp::Floor:
    case FusedOp::Logistic:
    case FusedOp::Tanh:
    case FusedOp::Clamp:
    case FusedOp::Square:
    case FusedOp::RowMean:
      return 1;
    case FusedOp::Select:
      return 3;
    default:
      return 2;
  }
}

bool fusedYieldsBool(FusedOp op) {
  return op >= FusedOp::Equal && op <= FusedOp::LessEqual;
}

bool FusedElementwise::canRead(const Shape& in, const Shape& out) {
  if (!broadcasts(in, out)) return false;
  if (in.elements() == out.elements() || in.elements() == 1) return true;
  if (out.rank() > 4) return false;
  const detail::BroadcastLoop loop = detail::planBroadcast(in, in, out);
  return loop.dims[3] >= 16 || loop.aStride[3] == 0;
}

std::optional<FusedElementwise> FusedElementwise::plan(FusedProgram program, std::string& why) {
  const size_t inputCount = program.inputs.size();
  const size_t valueCount = inputCount + program.code.size();
  if (valueCount > kMaxValues) {
    why = std::to_string(valueCount) + " values, more than " + std::to_string(kMaxValues);
    return std::nullopt;
  }
  std::vector<bool> isBool(valueCount, false);
  std::vector<int64_t> lastUse(valueCount, -1);
  for (size_t v = 0; v < inputCount; ++v) {
    isBool[v] = program.inputs[v].isBool;
    if (!canRead(program.inputs[v].shape, program.shape)) {
      why = "input " + std::to_string(v) + " does not broadcast to the program's shape in runs";
      return std::nullopt;
    }
  }
  for (size_t k = 0; k < program.code.size(); ++k) {
    const Instruction& in = program.code[k];
    const uint32_t operands[3] = {in.a, in.b, in.c};
    const size_t count = fusedOperandCount(in.op);
    for (size_t i = 0; i < count; ++i) {
      const bool wantBool = in.op == FusedOp::Select && i == 0;
      if (operands[i] >= inputCount + k || isBool[operands[i]] != wantBool) {
        why = "instruction " + std::to_string(k) + " reads value " + std::to_string(operands[i]) +
              ", which is not an earlier value of its kind";
        return std::nullopt;
      }
      lastUse[operands[i]] = static_cast<int64_t>(k);
    }
    isBool[inputCount + k] = fusedYieldsBool(in.op);
  }

  FusedElementwise f;
  const bool perRow = std::find(program.outputPerRow.begin(), program.outputPerRow.end(), true) != program.outputPerRow.end();
  const bool rowMeans = std::any_of(program.code.begin(), program.code.end(),
                                    [](const Instruction& in) { return in.op == FusedOp::RowMean; });
  if (perRow || rowMeans) {
    f.rowLength_ = program.shape.rank() == 0 ? 1 : program.shape.dims.back();
    if (f.rowLength_ == 0 || f.rowLength_ > kBlock) {
      why = "rows of " + std::to_string(f.rowLength_) + " elements do not fit a block of " + std::to_string(kBlock);
      return std::nullopt;
    }
    f.blockElements_ = kBlock / f.rowLength_ * f.rowLength_;
  }
  if (!program.outputPerRow.empty() && program.outputPerRow.size() != program.outputs.size()) {
    why = "outputPerRow does not have one entry per output";
    return std::nullopt;
  }
  f.places_.resize(valueCount);
  for (size_t o = 0; o < program.outputs.size(); ++o) {
    const uint32_t v = program.outputs[o];
    if (v < inputCount || v >= valueCount || f.places_[v].where == Where::Output ||
        f.places_[v].where == Where::RowOutput) {
      why = "output " + std::to_string(o) + " is not the result of an instruction, or repeats one";
      return std::nullopt;
    }
    const bool row = !program.outputPerRow.empty() && program.outputPerRow[o];
    f.places_[v] = {row ? Where::RowOutput : Where::Output, static_cast<uint32_t>(o), 0, {}};
  }

  // Buffers: the lowest free one for each new value; a value's buffer is free again after the
  // instruction that reads it last (not before: an instruction never writes over its operands).
  std::vector<bool> busy;
  auto take = [&]() -> uint32_t {
    auto it = std::find(busy.begin(), busy.end(), false);
    if (it == busy.end()) it = busy.insert(busy.end(), false);
    *it = true;
    return static_cast<uint32_t>(it - busy.begin());
  };
  for (size_t v = 0; v < inputCount; ++v) {
    const Shape& shape = program.inputs[v].shape;
    if (shape.elements() == program.shape.elements()) {
      f.places_[v] = {Where::InPlace, static_cast<uint32_t>(v), 0, {}};
    } else if (shape.elements() == 1) {
      f.places_[v] = {Where::Scalar, static_cast<uint32_t>(v), 0, {}};
    } else if (lastUse[v] >= 0) {
      f.places_[v] = {Where::Gathered, static_cast<uint32_t>(v), take(), detail::planBroadcast(shape, shape, program.shape)};
    }
  }
  for (size_t k = 0; k < program.code.size(); ++k) {
    const uint32_t v = static_cast<uint32_t>(inputCount + k);
    if (f.places_[v].where == Where::RowOutput) {
      f.places_[v].buffer = take();
    } else if (f.places_[v].where != Where::Output) {
      f.places_[v] = {Where::Buffer, 0, take(), {}};
    }
    const Instruction& in = program.code[k];
    const uint32_t operands[3] = {in.a, in.b, in.c};
    for (size_t i = 0; i < fusedOperandCount(in.op); ++i) {
      const Place& p = f.places_[operands[i]];
      if (lastUse[operands[i]] == static_cast<int64_t>(k) &&
          (p.where == Where::Buffer || p.where == Where::Gathered || p.where == Where::RowOutput))
        busy[p.buffer] = false;
    }
    if (lastUse[v] < 0 && (f.places_[v].where == Where::Buffer || f.places_[v].where == Where::RowOutput))
      busy[f.places_[v].buffer] = false;
  }
  if (busy.size() > kMaxBuffers) {
    why = "it needs " + std::to_string(busy.size()) + " block buffers, more than " + std::to_string(kMaxBuffers);
    return std::nullopt;
  }
  f.bufferCount_ = busy.size();
  f.scalars_.resize(program.code.size(), 0);
  for (size_t k = 0; k < program.code.size(); ++k) {
    const Instruction& in = program.code[k];
    const uint32_t operands[3] = {in.a, in.b, in.c};
    for (size_t i = 0; i < fusedOperandCount(in.op); ++i) {
      if (f.places_[operands[i]].where == Where::Scalar) f.scalars_[k] |= 1u << i;
    }
  }
  f.program_ = std::move(program);
  return f;
}

void FusedElementwise::run(std::span<const void* const> inputs, std::span<void* const> outputs) const {
  const size_t count = program_.shape.elements();
  const size_t blocks = (count + blockElements_ - 1) / blockElements_;
  const size_t inputCount = program_.inputs.size();
  detail::parallelFor(blocks, kBlock * std::max<size_t>(program_.code.size(), 1), [&](size_t first, size_t last) {
    alignas(64) float buffers[kMaxBuffers][kBlock];
    std::array<void*, kMaxValues> at;
    at.fill(nullptr);  // unused inputs, and the operands an instruction does not have
    for (size_t block = first; block < last; ++block) {
      const size_t start = block * blockElements_;
      const size_t n = std::min(blockElements_, count - start);
      for (size_t v = 0; v < inputCount; ++v) {
        const Place& p = places_[v];
        const bool isBool = program_.inputs[v].isBool;
        if (p.where == Where::Scalar) {
          at[v] = const_cast<void*>(inputs[v]);
        } else if (p.where == Where::InPlace) {
          at[v] = const_cast<std::byte*>(static_cast<const std::byte*>(inputs[v])) + start * elementSize(isBool);
        } else if (p.where == Where::Gathered) {
          at[v] = buffers[p.buffer];
          if (isBool) {
            gather(p.loop, static_cast<const uint8_t*>(inputs[v]), start, n, static_cast<uint8_t*>(at[v]));
          } else {
            gather(p.loop, static_cast<const float*>(inputs[v]), start, n, static_cast<float*>(at[v]));
          }
        }
      }
      for (size_t k = 0; k < program_.code.size(); ++k) {
        const Instruction& in = program_.code[k];
        const size_t v = inputCount + k;
        const Place& p = places_[v];
        at[v] = p.where == Where::Output
                    ? static_cast<std::byte*>(outputs[p.index]) + start * elementSize(fusedYieldsBool(in.op))
                    : static_cast<void*>(buffers[p.buffer]);
        execute(in, n, rowLength_, scalars_[k], at[in.a], at[in.b], at[in.c], at[v]);
        if (p.where == Where::RowOutput) {  // the first element of each row
          const size_t size = elementSize(fusedYieldsBool(in.op));
          auto* to = static_cast<std::byte*>(outputs[p.index]) + start / rowLength_ * size;
          const auto* from = static_cast<const std::byte*>(at[v]);
          for (size_t r = 0; r < n / rowLength_; ++r) std::memcpy(to + r * size, from + r * rowLength_ * size, size);
        }
      }
    }
  });
}

}  // namespace nnrt::cpu
