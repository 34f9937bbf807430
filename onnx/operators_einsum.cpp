// ONNX Einsum -> NNAPI: one or two float operands, as TRANSPOSE, RESHAPE, REDUCE_SUM, a GATHER for
// repeated subscripts (diagonals) and one BATCH_MATMUL for the product.
#include "onnx/operators_common.hpp"

namespace nnrt::onnxfront {

namespace {

// A subscript: a letter (0-51) or an axis an ellipsis stands for (kEllipsis + its place counted
// from the right end of the broadcast ellipsis, so that operands of different ranks line up).
using Symbol = int;
constexpr Symbol kEllipsis = 100;

struct Term {
  std::vector<Symbol> symbols;
  bool ellipsis = false;
};

// The letters and ellipsis of one term ("...", letters), or an error.
Result<Term> parseTerm(const GraphBuilder& b, std::string_view text) {
  Term term;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      if (term.ellipsis || text.substr(i, 3) != "...") return b.refused("a malformed ellipsis in the equation");
      term.ellipsis = true;
      term.symbols.push_back(-1);  // where the ellipsis axes go
      i += 2;
    } else if (c >= 'a' && c <= 'z') {
      term.symbols.push_back(c - 'a');
    } else if (c >= 'A' && c <= 'Z') {
      term.symbols.push_back(26 + (c - 'A'));
    } else {
      return b.refused(std::string("'") + c + "' is not a subscript");
    }
  }
  return term;
}

// `term` for an operand of `rank`: the ellipsis replaced by its axes' symbols.
Result<std::vector<Symbol>> expand(const GraphBuilder& b, const Term& term, size_t rank, size_t& ellipsisRank) {
  const size_t letters = term.symbols.size() - (term.ellipsis ? 1 : 0);
  if (rank < letters || (!term.ellipsis && rank != letters))
    return b.refused("the equation does not match an operand's rank");
  const size_t e = rank - letters;
  ellipsisRank = std::max(ellipsisRank, e);
  std::vector<Symbol> out;
  for (Symbol s : term.symbols) {
    if (s != -1) {
      out.push_back(s);
      continue;
    }
    for (size_t i = 0; i < e; ++i)
      out.push_back(kEllipsis + static_cast<Symbol>(e - 1 - i));  // the last ellipsis axis is kEllipsis
  }
  return out;
}

// An operand on its way through the product: its model operand, its symbols and their sizes.
struct Operand {
  uint32_t operand;
  std::vector<Symbol> symbols;
  Dims dims;
};

// `x` with its axes in the order `symbols` (a permutation of its own): a TRANSPOSE unless it is one.
Result<Operand> arrange(GraphBuilder& b, const Operand& x, const std::vector<Symbol>& symbols, int32_t type) {
  if (symbols == x.symbols) return x;
  std::vector<int32_t> perm;
  Dims dims;
  for (Symbol s : symbols) {
    const auto at = std::find(x.symbols.begin(), x.symbols.end(), s) - x.symbols.begin();
    perm.push_back(static_cast<int32_t>(at));
    dims.push_back(x.dims[static_cast<size_t>(at)]);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t permOperand, b.constInts(perm));
  NNRT_ASSIGN_OR_RETURN(uint32_t out, apply(b, ANEURALNETWORKS_TRANSPOSE, {x.operand, permOperand}, type, dims));
  return Operand{out, symbols, dims};
}

// A subscript repeated within `x` takes the diagonal: one GATHER of the flattened operand, the repeated
// axes kept once (at the first), their sizes equal.
Result<Operand> diagonal(GraphBuilder& b, const Operand& x, int32_t type) {
  std::vector<Symbol> unique;
  Dims dims;
  for (size_t i = 0; i < x.symbols.size(); ++i) {
    const auto first = std::find(x.symbols.begin(), x.symbols.end(), x.symbols[i]) - x.symbols.begin();
    if (static_cast<size_t>(first) == i) {
      unique.push_back(x.symbols[i]);
      dims.push_back(x.dims[i]);
    } else if (x.dims[i] != x.dims[static_cast<size_t>(first)]) {
      return b.refused("a repeated subscript over axes of different sizes");
    }
  }
  if (unique.size() == x.symbols.size()) return x;
  const size_t count = elementCount(dims);
  if (elementCount(x.dims) > INT32_MAX) return b.refused("too many elements for int32 indexes");
  const std::vector<int64_t> strides = stridesOf(x.dims);
  std::vector<int32_t> map(count);
  std::vector<uint32_t> coordinate(unique.size());
  for (size_t p = 0; p < count; ++p) {
    size_t rest = p;
    for (size_t k = unique.size(); k-- > 0;) {
      coordinate[k] = static_cast<uint32_t>(rest % dims[k]);
      rest /= dims[k];
    }
    int64_t from = 0;
    for (size_t d = 0; d < x.symbols.size(); ++d) {
      const auto k = std::find(unique.begin(), unique.end(), x.symbols[d]) - unique.begin();
      from += coordinate[static_cast<size_t>(k)] * strides[d];
    }
    map[p] = static_cast<int32_t>(from);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t shaped, gatherAt(b, x.operand, type, x.dims, map, dims));
  return Operand{shaped, unique, dims};
}

// `x` summed over its axes whose symbols `keep` does not hold (REDUCE_SUM, the kept axes in order).
template <typename Keep>
Result<Operand> sumOut(GraphBuilder& b, const Operand& x, const Keep& keep, int32_t type) {
  std::vector<int32_t> axes;
  Operand out{kNoOperand, {}, {}};
  for (size_t d = 0; d < x.symbols.size(); ++d) {
    if (keep(x.symbols[d])) {
      out.symbols.push_back(x.symbols[d]);
      out.dims.push_back(x.dims[d]);
    } else {
      axes.push_back(static_cast<int32_t>(d));
    }
  }
  if (axes.empty()) return x;
  Dims kept = x.dims;
  for (int32_t a : axes)
    kept[static_cast<size_t>(a)] = 1;
  NNRT_ASSIGN_OR_RETURN(uint32_t axesOperand, b.constInts(axes));
  NNRT_ASSIGN_OR_RETURN(uint32_t keepDims, b.scalarBool(true));
  NNRT_ASSIGN_OR_RETURN(uint32_t summed,
                        apply(b, ANEURALNETWORKS_REDUCE_SUM, {x.operand, axesOperand, keepDims}, type, kept));
  NNRT_ASSIGN_OR_RETURN(out.operand, b.reshape(summed, type, out.dims.empty() ? Dims{1} : out.dims));
  return out;
}

bool contains(const std::vector<Symbol>& symbols, Symbol s) {
  return std::find(symbols.begin(), symbols.end(), s) != symbols.end();
}

}  // namespace

// Einsum of one or two float32 (or float16) operands. A subscript repeated within an operand takes its
// diagonal; one that appears in a single operand and not in the output is summed out first. One operand:
// then transposed to the output's order. Two: the subscripts both hold are the batch (also in the output)
// or the contracted ones (not), the others each side's own; A arranged as [batch, A's own, contracted]
// and B as [batch, contracted, B's own] (or as [batch, B's own, contracted], read adjoint, when it already
// is so), reshaped to 3-D, one BATCH_MATMUL, reshaped and transposed to the output. Without "->", the
// output is the ellipsis then the subscripts that appear once, in alphabetical order, as ONNX defines.
Result<void> mapEinsum(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(std::string equation, b.attrString("equation", ""));
  equation.erase(std::remove(equation.begin(), equation.end(), ' '), equation.end());
  const int inputs = b.node()->input_size();
  if (inputs < 1 || inputs > 2) return b.refused("only one or two operands are supported");
  const size_t arrow = equation.find("->");
  const std::string left = equation.substr(0, arrow);
  std::vector<std::string_view> texts;
  for (size_t start = 0;;) {
    const size_t comma = left.find(',', start);
    texts.push_back(std::string_view(left).substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (texts.size() != static_cast<size_t>(inputs)) return b.refused("the equation names " + std::to_string(texts.size()) +
                                                                    " operands, the node has " + std::to_string(inputs));
  std::vector<Operand> operands;
  size_t ellipsisRank = 0;
  int32_t type = 0;
  for (int i = 0; i < inputs; ++i) {
    NNRT_ASSIGN_OR_RETURN(const Value* v, b.requiredInput(i));
    if (v->type != ANEURALNETWORKS_TENSOR_FLOAT32 && v->type != ANEURALNETWORKS_TENSOR_FLOAT16)
      return b.refused("only float32 and float16 operands are supported");
    if (i > 0 && v->type != type) return b.refused("the operands' types differ");
    type = v->type;
    if (!allKnown(v->dims)) return b.refused("input shape unknown");
    NNRT_ASSIGN_OR_RETURN(Term term, parseTerm(b, texts[static_cast<size_t>(i)]));
    const Dims dims = v->scalar ? Dims{} : v->dims;
    NNRT_ASSIGN_OR_RETURN(std::vector<Symbol> symbols, expand(b, term, dims.size(), ellipsisRank));
    NNRT_ASSIGN_OR_RETURN(uint32_t operand, b.operand(*v));
    operands.push_back(Operand{operand, symbols, dims});
  }
  // The output's symbols.
  std::vector<Symbol> output;
  if (arrow != std::string::npos) {
    NNRT_ASSIGN_OR_RETURN(Term term, parseTerm(b, std::string_view(equation).substr(arrow + 2)));
    for (Symbol s : term.symbols) {
      if (s != -1) {
        if (contains(output, s)) return b.refused("a subscript repeated in the output");
        output.push_back(s);
        continue;
      }
      for (size_t i = 0; i < ellipsisRank; ++i)
        output.push_back(kEllipsis + static_cast<Symbol>(ellipsisRank - 1 - i));
    }
  } else {
    for (size_t i = 0; i < ellipsisRank; ++i)
      output.push_back(kEllipsis + static_cast<Symbol>(ellipsisRank - 1 - i));
    for (Symbol s = 0; s < 52; ++s) {
      size_t count = 0;
      for (const Operand& x : operands) count += static_cast<size_t>(std::count(x.symbols.begin(), x.symbols.end(), s));
      if (count == 1) output.push_back(s);
    }
  }
  // Every ellipsis axis must be in the output (as ONNX's does), every output symbol in an operand, and a
  // symbol's size the same wherever it appears (no broadcasting).
  std::vector<uint32_t> sizeOf(kEllipsis + 64, 0);
  for (const Operand& x : operands) {
    for (size_t d = 0; d < x.symbols.size(); ++d) {
      uint32_t& size = sizeOf[static_cast<size_t>(x.symbols[d])];
      if (size != 0 && size != x.dims[d]) return b.refused("a subscript's sizes differ (broadcasting is not supported)");
      size = x.dims[d];
    }
  }
  for (Symbol s : output)
    if (sizeOf[static_cast<size_t>(s)] == 0) return b.refused("an output subscript no operand has");

  for (Operand& x : operands) {
    NNRT_ASSIGN_OR_RETURN(x, diagonal(b, x, type));
  }
  // Sum out what only one operand holds and the output does not.
  for (size_t i = 0; i < operands.size(); ++i) {
    const Operand* other = operands.size() == 2 ? &operands[1 - i] : nullptr;
    NNRT_ASSIGN_OR_RETURN(operands[i], sumOut(b, operands[i], [&](Symbol s) {
                            return contains(output, s) || (other != nullptr && contains(other->symbols, s));
                          }, type));
  }
  Operand result = operands[0];
  if (operands.size() == 2) {
    const Operand& a = operands[0];
    const Operand& c = operands[1];
    std::vector<Symbol> batch, own, contracted, theirs;
    for (Symbol s : a.symbols) {
      if (contains(c.symbols, s)) {
        (contains(output, s) ? batch : contracted).push_back(s);
      } else {
        own.push_back(s);
      }
    }
    for (Symbol s : c.symbols)
      if (!contains(a.symbols, s)) theirs.push_back(s);
    auto concat = [](std::initializer_list<const std::vector<Symbol>*> parts) {
      std::vector<Symbol> all;
      for (const auto* p : parts) all.insert(all.end(), p->begin(), p->end());
      return all;
    };
    auto sizeProduct = [&](const std::vector<Symbol>& symbols) {
      uint32_t p = 1;
      for (Symbol s : symbols) p *= sizeOf[static_cast<size_t>(s)];
      return p;
    };
    const uint32_t B = sizeProduct(batch), M = sizeProduct(own), K = sizeProduct(contracted), N = sizeProduct(theirs);
    // A as [batch, own, contracted], or read adjoint when it is [batch, contracted, own].
    const bool adjA = a.symbols == concat({&batch, &contracted, &own}) && !own.empty() && !contracted.empty();
    NNRT_ASSIGN_OR_RETURN(Operand x, arrange(b, a, adjA ? a.symbols : concat({&batch, &own, &contracted}), type));
    const bool adjC = c.symbols == concat({&batch, &theirs, &contracted}) && !theirs.empty() && !contracted.empty();
    NNRT_ASSIGN_OR_RETURN(Operand y, arrange(b, c, adjC ? c.symbols : concat({&batch, &contracted, &theirs}), type));
    const Dims xDims = batch.empty() ? (adjA ? Dims{K, M} : Dims{M, K}) : (adjA ? Dims{B, K, M} : Dims{B, M, K});
    const Dims yDims = batch.empty() ? (adjC ? Dims{N, K} : Dims{K, N}) : (adjC ? Dims{B, N, K} : Dims{B, K, N});
    const Dims productDims = batch.empty() ? Dims{M, N} : Dims{B, M, N};
    NNRT_ASSIGN_OR_RETURN(uint32_t xFlat, b.reshape(x.operand, type, xDims));
    NNRT_ASSIGN_OR_RETURN(uint32_t yFlat, b.reshape(y.operand, type, yDims));
    NNRT_ASSIGN_OR_RETURN(uint32_t adjX, b.scalarBool(adjA));
    NNRT_ASSIGN_OR_RETURN(uint32_t adjY, b.scalarBool(adjC));
    NNRT_ASSIGN_OR_RETURN(uint32_t multiplied,
                          apply(b, ANEURALNETWORKS_BATCH_MATMUL, {xFlat, yFlat, adjX, adjY}, type, productDims));
    result.symbols = concat({&batch, &own, &theirs});
    result.dims.clear();
    for (Symbol s : result.symbols) result.dims.push_back(sizeOf[static_cast<size_t>(s)]);
    NNRT_ASSIGN_OR_RETURN(result.operand, b.reshape(multiplied, type, result.dims.empty() ? Dims{1} : result.dims));
  }
  NNRT_ASSIGN_OR_RETURN(result, arrange(b, result, output, type));
  const bool scalar = output.empty();
  defineOperand(b, 0, result.operand, type, scalar ? Dims{1} : result.dims, scalar);
  return {};
}

}  // namespace nnrt::onnxfront
