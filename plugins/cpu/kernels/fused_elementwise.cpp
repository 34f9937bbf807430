#include "plugins/cpu/kernels/fused_elementwise.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "plugins/cpu/kernels/element_copy.hpp"
#include "plugins/cpu/kernels/exp_float.hpp"
#include "plugins/cpu/kernels/log_float.hpp"
#include "plugins/cpu/kernels/tanh_float.hpp"
#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/row_reduce.hpp"
#include "plugins/cpu/kernels/sin_float.hpp"

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
// unary for functions over whole runs of values (values(in, count, out)).
template <typename Values>
[[gnu::always_inline]] inline void unaryValues(size_t n, const float* a, unsigned scalars, float* out, const Values& values) {
  if (scalars & 1u) {
    values(a, 1, out);
    std::fill(out + 1, out + n, out[0]);
    return;
  }
  values(a, n, out);
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
    case FusedOp::Log:  // as LOG computes it (log_float.hpp)
      return unaryValues(n, a, scalars, out, [](const float* x, size_t count, float* y) { logValues(x, count, y); });
    case FusedOp::Neg:
      return unary(n, a, scalars, out, [](float x) { return -x; });
    case FusedOp::Rsqrt:
      return unary(n, a, scalars, out, [](float x) { return 1.0f / std::sqrt(x); });
    case FusedOp::Sin:  // as SIN computes it (sin_float.hpp)
      return unaryValues(n, a, scalars, out, [](const float* x, size_t count, float* y) { sinValues(x, count, y); });
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
    case FusedOp::Horner:  // run by executeHorner, which takes its terms
    case FusedOp::Concat:  // run by concatenate, which reads its pieces where they are
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

// Horner's chain (FusedOp::Horner) over n elements: p = a * b, then p = p + t_k and, but for the last
// term, p = p * b; the products and sums are separate statements, as MUL's and ADD's (the library is
// built with -ffp-contract=off, so neither becomes a fused multiply-add). The common case, a polynomial
// in b with scalar coefficients, runs with the term count known at compile time: p stays in a register.
template <size_t N, bool ScalarA>
[[gnu::always_inline]] inline void hornerScalarTerms(size_t n, const float* a, const float* b, const float* const* terms,
                                                     float lo, float hi, float* out) {
  float c[N];
  for (size_t k = 0; k < N; ++k) c[k] = *terms[k];
  const float a0 = *a;
  for (size_t i = 0; i < n; ++i) {
    const float x = b[i];
    float p = (ScalarA ? a0 : a[i]) * x;
    for (size_t k = 0; k < N; ++k) {
      p = p + c[k];
      if (k + 1 < N) p = p * x;
    }
    out[i] = std::min(std::max(p, lo), hi);
  }
}

template <size_t N>
[[gnu::always_inline]] inline bool hornerFixed(size_t count, size_t n, const float* a, bool scalarA, const float* b,
                                               const float* const* terms, float lo, float hi, float* out) {
  if (count != N) return false;
  scalarA ? hornerScalarTerms<N, true>(n, a, b, terms, lo, hi, out) : hornerScalarTerms<N, false>(n, a, b, terms, lo, hi, out);
  return true;
}

__attribute__((target_clones("avx512f", "avx2", "default")))
void executeHorner(size_t n, const float* a, const float* b, const float* const* terms, size_t count, uint32_t scalars,
                   float lo, float hi, float* out) {
  const bool scalarA = (scalars & 1u) != 0, scalarB = (scalars & 2u) != 0;
  const uint32_t termBits = scalars >> 2;
  if (!scalarB && termBits == (1u << count) - 1) {
    if (hornerFixed<1>(count, n, a, scalarA, b, terms, lo, hi, out) ||
        hornerFixed<2>(count, n, a, scalarA, b, terms, lo, hi, out) ||
        hornerFixed<3>(count, n, a, scalarA, b, terms, lo, hi, out) ||
        hornerFixed<4>(count, n, a, scalarA, b, terms, lo, hi, out) ||
        hornerFixed<5>(count, n, a, scalarA, b, terms, lo, hi, out) ||
        hornerFixed<6>(count, n, a, scalarA, b, terms, lo, hi, out) ||
        hornerFixed<7>(count, n, a, scalarA, b, terms, lo, hi, out) ||
        hornerFixed<8>(count, n, a, scalarA, b, terms, lo, hi, out))
      return;
  }
  if (count == 1 && !scalarA && !scalarB && termBits == 0) {  // a * b + t over arrays (a normalization's scale and shift)
    const float* t = terms[0];
    for (size_t i = 0; i < n; ++i) {
      float p = a[i] * b[i];
      p = p + t[i];
      out[i] = std::min(std::max(p, lo), hi);
    }
    return;
  }
  // Any operand an array or a scalar: step by step over the block (at most FusedElementwise::kBlock elements), each step a loop.
  constexpr size_t kRun = FusedElementwise::kBlock;
  alignas(64) float p[kRun], repeated[kRun];
  if (scalarB) std::fill(repeated, repeated + kRun, *b);
  for (size_t begin = 0; begin < n; begin += kRun) {
    const size_t m = std::min(kRun, n - begin);
    const float* x = scalarB ? repeated : b + begin;
    if (scalarA) {
      const float a0 = *a;
      for (size_t i = 0; i < m; ++i) p[i] = a0 * x[i];
    } else {
      const float* from = a + begin;
      for (size_t i = 0; i < m; ++i) p[i] = from[i] * x[i];
    }
    for (size_t k = 0; k < count; ++k) {
      if ((termBits >> k) & 1u) {
        const float t = *terms[k];
        for (size_t i = 0; i < m; ++i) p[i] = p[i] + t;
      } else {
        const float* t = terms[k] + begin;
        for (size_t i = 0; i < m; ++i) p[i] = p[i] + t[i];
      }
      if (k + 1 < count) {
        for (size_t i = 0; i < m; ++i) p[i] = p[i] * x[i];
      }
    }
    float* to = out + begin;
    for (size_t i = 0; i < m; ++i) {
      const float v = p[i];  // a value, not a reference into p: the loop vectorizes
      to[i] = std::min(std::max(v, lo), hi);
    }
  }
}

// Elements [start, start + n) of a Concat over pieces of `widths` columns (rows of their sum), copied
// run by run from `inputs`, the program's inputs (Concat's terms).
void concatenate(const Instruction& in, const std::vector<uint32_t>& widths, std::span<const void* const> inputs,
                 size_t start, size_t n, float* out) {
  size_t columns = 0;
  for (uint32_t w : widths) columns += w;
  size_t row = start / columns, column = start % columns;
  size_t piece = 0, offset = 0;  // the piece holding `column`, and its first column
  while (column >= offset + widths[piece]) offset += widths[piece++];
  for (size_t done = 0; done < n;) {
    const size_t length = std::min(offset + widths[piece] - column, n - done);
    const auto* from = static_cast<const float*>(inputs[in.terms[piece]]) + row * widths[piece] + (column - offset);
    detail::copyRun(out + done, from, length * sizeof(float));  // a run of a piece: a few cache lines
    done += length;
    column += length;
    if (column == offset + widths[piece]) {  // on to the next piece, or the next row's first
      offset += widths[piece];
      if (++piece == widths.size()) {
        piece = 0;
        offset = 0;
        column = 0;
        ++row;
      }
    }
  }
}

// The values an instruction reads, in the order of its scalar bits (scalars_): a, b, c as its
// operation has them; Horner's a, b, then its terms; Concat's pieces.
size_t operandsOf(const Instruction& in, uint32_t (&operands)[2 + FusedProgram::kMaxTerms]) {
  const size_t terms = std::min(in.terms.size(), FusedProgram::kMaxTerms);
  if (in.op == FusedOp::Concat) {
    std::copy_n(in.terms.begin(), terms, operands);
    return terms;
  }
  operands[0] = in.a;
  operands[1] = in.b;
  if (in.op == FusedOp::Horner) {
    std::copy_n(in.terms.begin(), terms, operands + 2);
    return 2 + terms;
  }
  operands[2] = in.c;
  return fusedOperandCount(in.op);
}

// `program` (valid) with each chain of Mul and Add that FusedOp::Horner computes replaced by one
// Horner instruction in the place of the chain's last Add; values renumbered.
FusedProgram formHornerChains(FusedProgram program) {
  const size_t inputs = program.inputs.size(), count = program.code.size();
  std::vector<Instruction>& code = program.code;
  std::vector<uint32_t> uses(inputs + count, 0);
  std::vector<int64_t> reader(inputs + count, -1);
  std::vector<bool> output(inputs + count, false);
  for (size_t k = 0; k < count; ++k) {
    uint32_t operands[2 + FusedProgram::kMaxTerms];
    const size_t n = operandsOf(code[k], operands);
    for (size_t i = 0; i < n; ++i) {
      ++uses[operands[i]];
      reader[operands[i]] = static_cast<int64_t>(k);
    }
  }
  for (uint32_t v : program.outputs) {
    if (v < output.size()) output[v] = true;  // plan() refuses the others
  }
  const auto plain = [](const Instruction& in) {
    return in.lo == -std::numeric_limits<float>::infinity() && in.hi == std::numeric_limits<float>::infinity();
  };
  // The one instruction that reads instruction k's value (not an output), else -1.
  const auto onlyReader = [&](size_t k) -> int64_t {
    const size_t v = inputs + k;
    return !output[v] && uses[v] == 1 ? reader[v] : -1;
  };
  // The operand of the two-operand `in` other than `v` (never v itself: in reads v once).
  const auto other = [](const Instruction& in, uint32_t v) { return in.a == v ? in.b : in.a; };
  std::vector<bool> removed(count, false);
  bool formed = false;
  for (size_t m = 0; m < count; ++m) {
    if (removed[m] || code[m].op != FusedOp::Mul || !plain(code[m])) continue;
    const int64_t j = onlyReader(m);
    if (j < 0 || code[static_cast<size_t>(j)].op != FusedOp::Add) continue;
    Instruction horner;
    horner.op = FusedOp::Horner;
    horner.a = code[m].a;
    horner.b = code[m].b;
    horner.terms.push_back(other(code[static_cast<size_t>(j)], static_cast<uint32_t>(inputs + m)));
    std::vector<size_t> members{m, static_cast<size_t>(j)};
    size_t last = static_cast<size_t>(j);
    while (horner.terms.size() < FusedProgram::kMaxHornerTerms && plain(code[last])) {
      const int64_t m2 = onlyReader(last);
      if (m2 < 0 || code[static_cast<size_t>(m2)].op != FusedOp::Mul || !plain(code[static_cast<size_t>(m2)])) break;
      const uint32_t factor = other(code[static_cast<size_t>(m2)], static_cast<uint32_t>(inputs + last));
      if (members.size() == 2 && factor == horner.a && factor != horner.b) std::swap(horner.a, horner.b);
      if (factor != horner.b) break;
      const int64_t j2 = onlyReader(static_cast<size_t>(m2));
      if (j2 < 0 || code[static_cast<size_t>(j2)].op != FusedOp::Add) break;
      horner.terms.push_back(other(code[static_cast<size_t>(j2)], static_cast<uint32_t>(inputs + m2)));
      members.push_back(static_cast<size_t>(m2));
      members.push_back(static_cast<size_t>(j2));
      last = static_cast<size_t>(j2);
    }
    horner.lo = code[last].lo;
    horner.hi = code[last].hi;
    for (size_t k : members) removed[k] = k != last;
    code[last] = std::move(horner);
    formed = true;
  }
  if (!formed) return program;
  // Renumber: the inputs keep theirs; the removed instructions' values were read only inside their chain.
  std::vector<uint32_t> renamed(inputs + count, 0);
  for (size_t v = 0; v < inputs; ++v) renamed[v] = static_cast<uint32_t>(v);
  std::vector<Instruction> kept;
  for (size_t k = 0; k < count; ++k) {
    if (removed[k]) continue;
    Instruction in = std::move(code[k]);
    in.a = renamed[in.a];
    in.b = renamed[in.b];
    in.c = renamed[in.c];
    for (uint32_t& t : in.terms) t = renamed[t];
    renamed[inputs + k] = static_cast<uint32_t>(inputs + kept.size());
    kept.push_back(std::move(in));
  }
  const size_t removedCount = count - kept.size();
  code = std::move(kept);
  for (uint32_t& v : program.outputs) v = v < renamed.size() ? renamed[v] : static_cast<uint32_t>(v - removedCount);
  return program;
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
  size_t valueCount = inputCount + program.code.size();
  if (valueCount > kMaxValues) {
    why = std::to_string(valueCount) + " values, more than " + std::to_string(kMaxValues);
    return std::nullopt;
  }
  // The pieces of Concat instructions: float32 inputs of the program's shape but for the last
  // dimension, read by nothing else, whose last dimensions add up to the program's.
  std::vector<bool> isPiece(inputCount, false), readOtherwise(inputCount, false);
  for (size_t k = 0; k < program.code.size(); ++k) {
    const Instruction& in = program.code[k];
    if (in.op != FusedOp::Concat) {
      uint32_t operands[2 + FusedProgram::kMaxTerms];
      const size_t count = operandsOf(in, operands);
      for (size_t i = 0; i < count; ++i) {
        if (operands[i] < inputCount) readOtherwise[operands[i]] = true;
      }
      continue;
    }
    const size_t rank = program.shape.rank();
    uint64_t width = 0;
    for (uint32_t piece : in.terms) {
      const Shape* shape = piece < inputCount ? &program.inputs[piece].shape : nullptr;
      if (shape == nullptr || program.inputs[piece].isBool || rank == 0 || shape->rank() != rank ||
          !std::equal(shape->dims.begin(), shape->dims.end() - 1, program.shape.dims.begin()) ||
          shape->dims.back() == 0) {
        why = "instruction " + std::to_string(k) + " concatenates value " + std::to_string(piece) +
              ", which is not a float32 input of the program's shape but for its last dimension";
        return std::nullopt;
      }
      isPiece[piece] = true;
      width += shape->dims.back();
    }
    if (width != program.shape.dims.back()) {
      why = "instruction " + std::to_string(k) + " concatenates " + std::to_string(width) + " of " +
            std::to_string(program.shape.dims.back()) + " columns";
      return std::nullopt;
    }
  }
  std::vector<bool> isBool(valueCount, false);
  for (size_t v = 0; v < inputCount; ++v) {
    isBool[v] = program.inputs[v].isBool;
    if (isPiece[v] && readOtherwise[v]) {
      why = "input " + std::to_string(v) + " is a piece of a concatenation and read otherwise";
      return std::nullopt;
    }
    if (!isPiece[v] && !canRead(program.inputs[v].shape, program.shape)) {
      why = "input " + std::to_string(v) + " does not broadcast to the program's shape in runs";
      return std::nullopt;
    }
  }
  for (size_t k = 0; k < program.code.size(); ++k) {
    const Instruction& in = program.code[k];
    const bool hasTerms = in.op == FusedOp::Horner || in.op == FusedOp::Concat;
    const size_t maxTerms = in.op == FusedOp::Horner ? FusedProgram::kMaxHornerTerms : FusedProgram::kMaxTerms;
    if (in.terms.size() > maxTerms || hasTerms == in.terms.empty()) {
      why = "instruction " + std::to_string(k) + " has " + std::to_string(in.terms.size()) + " terms";
      return std::nullopt;
    }
    uint32_t operands[2 + FusedProgram::kMaxTerms];
    const size_t count = operandsOf(in, operands);
    for (size_t i = 0; i < count; ++i) {
      const bool wantBool = in.op == FusedOp::Select && i == 0;
      if (operands[i] >= inputCount + k || isBool[operands[i]] != wantBool) {
        why = "instruction " + std::to_string(k) + " reads value " + std::to_string(operands[i]) +
              ", which is not an earlier value of its kind";
        return std::nullopt;
      }
    }
    isBool[inputCount + k] = fusedYieldsBool(in.op);
  }
  program = formHornerChains(std::move(program));
  valueCount = inputCount + program.code.size();
  std::vector<int64_t> lastUse(valueCount, -1);
  for (size_t k = 0; k < program.code.size(); ++k) {
    uint32_t operands[2 + FusedProgram::kMaxTerms];
    const size_t count = operandsOf(program.code[k], operands);
    for (size_t i = 0; i < count; ++i) lastUse[operands[i]] = static_cast<int64_t>(k);
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
  // A float32 input that is one row repeated (a per-channel scale or shift) reads the same block of it
  // in every block once blocks hold whole rows: it is tiled into its buffer once per run of blocks
  // instead of gathered block by block.
  const size_t columns = program.shape.rank() == 0 ? 0 : program.shape.dims.back();
  auto isRow = [&](size_t v) {
    const Shape& shape = program.inputs[v].shape;
    return !isPiece[v] && !program.inputs[v].isBool && lastUse[v] >= 0 && columns > 1 && columns <= kBlock &&
           shape.rank() > 0 && shape.dims.back() == columns && shape.elements() == columns &&
           shape.elements() != program.shape.elements();
  };
  bool tiles = false;
  for (size_t v = 0; v < inputCount; ++v) tiles = tiles || isRow(v);
  if (tiles) f.blockElements_ = kBlock / columns * columns;
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
    if (isPiece[v]) {
      f.places_[v] = {Where::Piece, static_cast<uint32_t>(v), 0, {}};
    } else if (shape.elements() == program.shape.elements()) {
      f.places_[v] = {Where::InPlace, static_cast<uint32_t>(v), 0, {}};
    } else if (shape.elements() == 1) {
      f.places_[v] = {Where::Scalar, static_cast<uint32_t>(v), 0, {}};
    } else if (isRow(v)) {
      f.places_[v] = {Where::Tiled, static_cast<uint32_t>(v), take(), {}};
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
    uint32_t operands[2 + FusedProgram::kMaxTerms];
    const size_t count = operandsOf(program.code[k], operands);
    for (size_t i = 0; i < count; ++i) {
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
  f.pieceWidths_.resize(program.code.size());
  for (size_t k = 0; k < program.code.size(); ++k) {
    uint32_t operands[2 + FusedProgram::kMaxTerms];
    const size_t count = operandsOf(program.code[k], operands);
    for (size_t i = 0; i < count && i < 32; ++i) {
      if (f.places_[operands[i]].where == Where::Scalar) f.scalars_[k] |= 1u << i;
    }
    if (program.code[k].op == FusedOp::Concat) {
      for (uint32_t piece : program.code[k].terms) f.pieceWidths_[k].push_back(program.inputs[piece].shape.dims.back());
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
    const size_t columns = program_.shape.rank() == 0 ? 1 : program_.shape.dims.back();
    for (size_t v = 0; v < inputCount; ++v) {
      if (places_[v].where != Where::Tiled) continue;
      float* tiled = buffers[places_[v].buffer];
      for (size_t r = 0; r < blockElements_; r += columns)
        std::memcpy(tiled + r, inputs[v], columns * sizeof(float));
      at[v] = tiled;
    }
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
        if (in.op == FusedOp::Concat) {
          concatenate(in, pieceWidths_[k], inputs, start, n, static_cast<float*>(at[v]));
        } else if (in.op == FusedOp::Horner) {
          const float* terms[FusedProgram::kMaxTerms];
          for (size_t t = 0; t < in.terms.size(); ++t) terms[t] = static_cast<const float*>(at[in.terms[t]]);
          executeHorner(n, static_cast<const float*>(at[in.a]), static_cast<const float*>(at[in.b]), terms,
                        in.terms.size(), scalars_[k], in.lo, in.hi, static_cast<float*>(at[v]));
        } else {
          execute(in, n, rowLength_, scalars_[k], at[in.a], at[in.b], at[in.c], at[v]);
        }
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
