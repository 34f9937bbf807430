// Element-wise fusion: consecutive float32 element-wise steps of one output shape become one step
// whose kernel (kernels/fused_elementwise.hpp) walks the output in blocks held in L1 and writes only
// the values that later steps or the request read. NNAPI has no GELU, no erf and no layer
// normalization: a transformer spells them in tens of element-wise operations, each of which would
// otherwise write a whole tensor to memory and read it back.
#include <algorithm>

#include "nnrt/driver/activation.hpp"
#include "plugins/cpu/cpu_prepared_model.hpp"

namespace nnrt::cpu {
namespace {

using driver::OperationType;

// The instruction that computes `type` (operands still to be numbered), if the fused kernel has it.
std::optional<FusedProgram::Instruction> instructionFor(int32_t type) {
  FusedProgram::Instruction in;
  auto clamp = [&](driver::Activation act) {
    const driver::FloatRange range = driver::activationRange(act);
    in.op = FusedOp::Clamp;
    in.lo = range.min;
    in.hi = range.max;
  };
  switch (static_cast<OperationType>(type)) {
    case OperationType::ADD: in.op = FusedOp::Add; break;
    case OperationType::SUB: in.op = FusedOp::Sub; break;
    case OperationType::MUL: in.op = FusedOp::Mul; break;
    case OperationType::DIV: in.op = FusedOp::Div; break;
    case OperationType::MAXIMUM: in.op = FusedOp::Maximum; break;
    case OperationType::MINIMUM: in.op = FusedOp::Minimum; break;
    case OperationType::POW: in.op = FusedOp::Pow; break;
    case OperationType::ABS: in.op = FusedOp::Abs; break;
    case OperationType::EXP: in.op = FusedOp::Exp; break;
    case OperationType::LOG: in.op = FusedOp::Log; break;
    case OperationType::NEG: in.op = FusedOp::Neg; break;
    case OperationType::RSQRT: in.op = FusedOp::Rsqrt; break;
    case OperationType::SIN: in.op = FusedOp::Sin; break;
    case OperationType::SQRT: in.op = FusedOp::Sqrt; break;
    case OperationType::FLOOR: in.op = FusedOp::Floor; break;
    case OperationType::LOGISTIC: in.op = FusedOp::Logistic; break;
    case OperationType::TANH: in.op = FusedOp::Tanh; break;
    case OperationType::RELU: clamp(driver::Activation::Relu); break;
    case OperationType::RELU1: clamp(driver::Activation::Relu1); break;
    case OperationType::RELU6: clamp(driver::Activation::Relu6); break;
    case OperationType::EQUAL: in.op = FusedOp::Equal; break;
    case OperationType::NOT_EQUAL: in.op = FusedOp::NotEqual; break;
    case OperationType::GREATER: in.op = FusedOp::Greater; break;
    case OperationType::GREATER_EQUAL: in.op = FusedOp::GreaterEqual; break;
    case OperationType::LESS: in.op = FusedOp::Less; break;
    case OperationType::LESS_EQUAL: in.op = FusedOp::LessEqual; break;
    case OperationType::SELECT: in.op = FusedOp::Select; break;
    case OperationType::MEAN: in.op = FusedOp::RowMean; break;  // over the last axis only (fusable)
    default: return std::nullopt;
  }
  return in;
}

}  // namespace

// Steps join a run while each is static, float32 (SELECT: a bool8 condition), has one output of the
// run's shape or of its rows (the shape with its last dimension 1: a MEAN over the last axis with
// keepDims, and the element-wise steps on such means), is not part of a fast-layer chain, and reads
// from outside the run only tensors the fused kernel reads in runs (FusedElementwise::canRead). A
// CONCATENATION over the last axis joins as a Concat instruction that reads its pieces where they are
// (from before the run); one that a run will read first takes over the pieces of the CONCATENATIONs
// it concatenates (flattenConcatenations). A run of two or more steps becomes one
// fused step; a run whose kernel would need too many block buffers is cut in half until it fits.
void CpuPreparedModel::fuseElementwiseSteps() {
  const int32_t f32 = static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32);
  const int32_t b8 = static_cast<int32_t>(driver::OperandType::TENSOR_BOOL8);
  std::vector<int64_t> lastReader, producer;
  std::vector<bool> chained;  // producer or consumer of a FastLayer::chain
  auto index = [&] {
    lastReader.assign(operands_.size(), -1);
    producer.assign(operands_.size(), -1);
    for (size_t s = 0; s < steps_.size(); ++s) {
      for (uint32_t in : steps_[s].inputs) lastReader[in] = static_cast<int64_t>(s);
      for (uint32_t out : steps_[s].outputs) producer[out] = static_cast<int64_t>(s);
    }
    chained.assign(steps_.size(), false);
    for (size_t s = 0; s < steps_.size(); ++s) {
      if (!steps_[s].chainedInput) continue;
      chained[s] = true;
      if (producer[steps_[s].inputs[0]] >= 0) chained[producer[steps_[s].inputs[0]]] = true;
    }
  };
  index();
  // A float32 CONCATENATION over the last axis of at most kMaxTerms pieces: a Concat instruction.
  auto isConcat = [&](const Step& step) {
    return concatenatesFloatsOverLastAxis(step) && step.inputs.size() - 1 <= FusedProgram::kMaxTerms;
  };

  auto fusable = [&](size_t s) -> std::optional<FusedProgram::Instruction> {
    const Step& step = steps_[s];
    if (!step.isStatic || chained[s] || step.outputs.size() != 1) return std::nullopt;
    if (isConcat(step)) {
      FusedProgram::Instruction in;
      in.op = FusedOp::Concat;
      return in;
    }
    auto in = instructionFor(step.type);
    if (!in) return std::nullopt;
    const size_t operands = fusedOperandCount(in->op);
    if (step.inputs.size() < operands) return std::nullopt;
    for (size_t i = 0; i < operands; ++i) {
      const bool condition = in->op == FusedOp::Select && i == 0;
      if (operands_[step.inputs[i]].type != (condition ? b8 : f32)) return std::nullopt;
    }
    if (in->op == FusedOp::Pow) {  // by the constant 2: a square, as POW's own kernel computes it
      const OperandInfo& e = operands_[step.inputs[1]];
      if (e.constant != nullptr && e.constantLength == sizeof(float) &&
          *static_cast<const float*>(e.constant) == 2.0f)
        in->op = FusedOp::Square;
    }
    if (in->op == FusedOp::RowMean) {  // with keepDims, over the last axis alone
      const auto* params = std::get_if<ops::MeanParams>(&step.params);
      const size_t rank = operands_[step.inputs[0]].dims.size();
      if (params == nullptr || !params->keepDims || params->axes.empty() ||
          std::any_of(params->axes.begin(), params->axes.end(), [&](uint32_t a) { return a + 1 != rank; }))
        return std::nullopt;
    }
    if (in->op <= FusedOp::Div) {
      const auto* params = std::get_if<ops::BinaryParams>(&step.params);
      if (params == nullptr) return std::nullopt;
      const driver::FloatRange range = driver::activationRange(params->activation);
      in->lo = range.min;
      in->hi = range.max;
    }
    return in;
  };

  // The operands step s's instruction reads: a CONCATENATION's pieces, else the first operands of its operation.
  auto reads = [&](size_t s) {
    const Step& step = steps_[s];
    const FusedOp op = fusable(s)->op;
    const size_t count = op == FusedOp::Concat ? step.inputs.size() - 1 : fusedOperandCount(op);
    return std::vector<uint32_t>(step.inputs.begin(), step.inputs.begin() + static_cast<std::ptrdiff_t>(count));
  };

  // The shape a step walks: its output's, or for a MEAN its input's (its output is that shape's rows).
  auto walked = [&](size_t s) -> const std::vector<uint32_t>& {
    return steps_[s].type == static_cast<int32_t>(OperationType::MEAN) ? operands_[steps_[s].inputs[0]].dims
                                                                        : steps_[s].outputShapes[0];
  };
  // `shape` with its last dimension 1: the values a run computes once per row, kept repeated along it.
  auto rowsOf = [](std::vector<uint32_t> shape) {
    if (!shape.empty()) shape.back() = 1;
    return shape;
  };

  auto producedIn = [&](uint32_t operand, size_t first, size_t end) {
    return producer[operand] >= static_cast<int64_t>(first) && producer[operand] < static_cast<int64_t>(end);
  };

  // The fused step of steps [first, end), or null when its kernel cannot be planned. Values: the
  // operands read from outside, in order of first use, then one per step.
  auto build = [&](size_t first, size_t end) -> std::unique_ptr<FusedSteps> {
    auto fused = std::make_unique<FusedSteps>();
    FusedProgram program;
    program.shape = Shape{walked(first)};
    for (size_t s = first; s < end; ++s) {
      for (uint32_t operand : reads(s)) {
        if (producedIn(operand, first, end) ||
            std::find(fused->inputs.begin(), fused->inputs.end(), operand) != fused->inputs.end())
          continue;
        fused->inputs.push_back(operand);
        program.inputs.push_back({Shape{operands_[operand].dims}, operands_[operand].type == b8});
      }
    }
    const auto inputs = static_cast<uint32_t>(fused->inputs.size());
    auto valueOf = [&](uint32_t operand) {
      if (producedIn(operand, first, end)) return inputs + static_cast<uint32_t>(producer[operand] - first);
      return static_cast<uint32_t>(std::find(fused->inputs.begin(), fused->inputs.end(), operand) - fused->inputs.begin());
    };
    for (size_t s = first; s < end; ++s) {
      FusedProgram::Instruction in = *fusable(s);
      const std::vector<uint32_t> read = reads(s);
      if (in.op == FusedOp::Concat) {
        for (uint32_t piece : read) in.terms.push_back(valueOf(piece));
      } else {
        uint32_t* operands[3] = {&in.a, &in.b, &in.c};
        for (size_t i = 0; i < read.size(); ++i) *operands[i] = valueOf(read[i]);
      }
      program.code.push_back(in);
      const uint32_t out = steps_[s].outputs[0];
      if (lastReader[out] >= static_cast<int64_t>(end) || operands_[out].modelOutput >= 0) {
        program.outputs.push_back(inputs + static_cast<uint32_t>(s - first));
        program.outputPerRow.push_back(steps_[s].outputShapes[0] != program.shape.dims);
        fused->outputs.push_back({static_cast<uint32_t>(s - first), 0});
      }
    }
    std::string why;
    auto kernel = FusedElementwise::plan(std::move(program), why);
    if (!kernel) return nullptr;
    fused->kernel = std::move(*kernel);
    return fused;
  };

  // Whether step s can read its operands in a run that starts at `first` and has the given shape.
  // A CONCATENATION's pieces are read where they are, so they must come from before the run.
  auto readable = [&](size_t s, size_t first, const Shape& shape) {
    const bool concat = fusable(s)->op == FusedOp::Concat;
    for (uint32_t in : reads(s)) {
      if (concat ? producedIn(in, first, s)
                 : !producedIn(in, first, s) && !FusedElementwise::canRead(Shape{operands_[in].dims}, shape))
        return false;
    }
    return true;
  };

  flattenConcatenations([&](size_t s) {
    if (s + 1 >= steps_.size() || chained[s] || !isConcat(steps_[s]) || !fusable(s + 1)) return false;
    const std::vector<uint32_t> next = reads(s + 1);
    return std::find(next.begin(), next.end(), steps_[s].outputs[0]) != next.end();
  });
  index();

  std::vector<Step> steps;
  steps.reserve(steps_.size());
  for (size_t s = 0; s < steps_.size();) {
    size_t end = s;
    if (fusable(s)) {
      // Steps that walk the run's shape, and element-wise ones on its rows (a variance plus epsilon,
      // its square root), computed repeated along each row.
      const Shape shape{walked(s)};
      const std::vector<uint32_t> rows = rowsOf(shape.dims);
      auto fits = [&](size_t e) {
        return walked(e) == shape.dims ||
               (steps_[e].type != static_cast<int32_t>(OperationType::MEAN) && steps_[e].outputShapes[0] == rows);
      };
      while (end < steps_.size() && end - s < FusedElementwise::kMaxValues / 2 && fusable(end) && fits(end) &&
             readable(end, s, shape))
        ++end;
    }
    std::unique_ptr<FusedSteps> fused;
    while (end >= s + 2 && !(fused = build(s, end))) end = s + (end - s) / 2;
    if (fused == nullptr) {
      steps.push_back(std::move(steps_[s]));
      ++s;
      continue;
    }
    for (size_t m = s; m < end; ++m) {
      steps_[m].fast.reset();  // should the members run one by one, they run the reference kernels
      fused->members.push_back(std::move(steps_[m]));
    }
    Step step;
    step.index = fused->members.front().index;
    step.type = fused->members.front().type;
    step.fused = std::move(fused);
    steps.push_back(std::move(step));
    s = end;
  }
  steps_ = std::move(steps);
  hasFastSteps_ = std::any_of(steps_.begin(), steps_.end(), [](const Step& step) { return step.usesFastLayer(); });
}

bool CpuPreparedModel::concatenatesFloatsOverLastAxis(const Step& step) const {
  if (step.type != static_cast<int32_t>(OperationType::CONCATENATION) || !step.isStatic || step.inputs.size() < 2 ||
      step.outputShapes.empty())
    return false;
  const auto* params = std::get_if<ops::ConcatenationParams>(&step.params);
  if (params == nullptr || params->axis + 1 != step.outputShapes[0].size()) return false;
  const int32_t f32 = static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32);
  return std::all_of(step.inputs.begin(), step.inputs.end() - 1, [&](uint32_t in) { return operands_[in].type == f32; });
}

// A CONCATENATION that the element-wise run after it will read as a Concat instruction (`joinsRun`),
// and whose pieces include the output of an earlier float32 CONCATENATION over the last axis, reads
// that one's pieces instead: DenseNet's x = concat(x, y), layer after layer, reads every layer's
// output where that layer wrote it, and no growing x is copied. Float32 only (a quantized
// CONCATENATION requantizes its pieces, and twice is not once). An earlier CONCATENATION that nothing
// reads any more is dropped.
template <typename JoinsRun>
void CpuPreparedModel::flattenConcatenations(const JoinsRun& joinsRun) {
  std::vector<int64_t> producer(operands_.size(), -1);
  std::vector<uint32_t> readers(operands_.size(), 0);
  for (size_t s = 0; s < steps_.size(); ++s) {
    for (uint32_t in : steps_[s].inputs) ++readers[in];
    for (uint32_t out : steps_[s].outputs) producer[out] = static_cast<int64_t>(s);
  }
  std::vector<bool> unread(steps_.size(), false);
  for (size_t s = 0; s < steps_.size(); ++s) {
    Step& step = steps_[s];
    if (!joinsRun(s)) continue;
    std::vector<uint32_t> pieces;
    std::vector<uint32_t> inner;  // the earlier CONCATENATIONs' outputs read no more
    for (size_t i = 0; i + 1 < step.inputs.size(); ++i) {
      const uint32_t piece = step.inputs[i];
      const int64_t p = producer[piece];
      const Step* earlier = p >= 0 ? &steps_[static_cast<size_t>(p)] : nullptr;
      if (earlier != nullptr && earlier->fused == nullptr && concatenatesFloatsOverLastAxis(*earlier)) {
        pieces.insert(pieces.end(), earlier->inputs.begin(), earlier->inputs.end() - 1);
        inner.push_back(piece);
      } else {
        pieces.push_back(piece);
      }
    }
    if (inner.empty() || pieces.size() > FusedProgram::kMaxTerms) continue;
    for (uint32_t in : step.inputs) --readers[in];
    pieces.push_back(step.inputs.back());  // the axis
    step.inputs = std::move(pieces);
    for (uint32_t in : step.inputs) ++readers[in];
    step.fast.reset();  // prepared for the pieces it had
    step.viewOffsets.clear();
    for (uint32_t out : inner) {
      if (readers[out] == 0 && operands_[out].modelOutput < 0) unread[static_cast<size_t>(producer[out])] = true;
    }
  }
  if (std::find(unread.begin(), unread.end(), true) == unread.end()) return;
  std::vector<Step> kept;
  kept.reserve(steps_.size());
  for (size_t s = 0; s < steps_.size(); ++s) {
    if (!unread[s]) kept.push_back(std::move(steps_[s]));
  }
  steps_ = std::move(kept);
}

}  // namespace nnrt::cpu
