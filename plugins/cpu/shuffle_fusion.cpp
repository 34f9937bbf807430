// Channel-shuffle fusion: a CHANNEL_SHUFFLE over the last axis, the CONCATENATION it shuffles and the
// SLICEs that split its result become one step whose kernel (kernels/shuffle_gather.hpp) writes each
// SLICE's channels straight from the concatenated pieces. ShuffleNet v2 does the three in every unit.
#include <algorithm>

#include "plugins/cpu/cpu_prepared_model.hpp"

namespace nnrt::cpu {

using driver::OperationType;

// A CHANNEL_SHUFFLE (static, float32, over the last axis) joins a fused step with
// - the CONCATENATION (static, float32, over the last axis) whose output only it reads, if any, whose
//   pieces the step then reads instead, and
// - the SLICEs (static) of its output that take a run of its last dimension whole along the others,
//   each written by the step;
// its own output is written too when anything else reads it or the request returns it. A shuffle
// with neither stays as it was, as does one whose ranges the kernel cannot take (ShuffleGather::plan).
// Should the step's pieces not have their prepared shapes at execution, its members run one by one.
void CpuPreparedModel::fuseChannelShuffles() {
  const int32_t f32 = static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32);
  const auto is = [](const Step& step, OperationType type) {
    return step.type == static_cast<int32_t>(type) && step.isStatic && step.fused == nullptr && !step.chainedInput &&
           step.outputs.size() == 1 && step.invalid.empty();
  };
  // The values of an INT32 or TENSOR_INT32 constant.
  const auto int32s = [&](uint32_t operand) {
    const OperandInfo& info = operands_[operand];
    std::vector<int32_t> values;
    if (info.constant != nullptr && (info.type == static_cast<int32_t>(driver::OperandType::INT32) ||
                                     info.type == static_cast<int32_t>(driver::OperandType::TENSOR_INT32))) {
      values.resize(info.constantLength / sizeof(int32_t));
      std::copy_n(static_cast<const int32_t*>(info.constant), values.size(), values.begin());
    }
    return values;
  };
  std::vector<int64_t> producer(operands_.size(), -1);
  std::vector<std::vector<size_t>> readers(operands_.size());
  for (size_t s = 0; s < steps_.size(); ++s) {
    const Step& step = steps_[s];
    // A fused step reads and writes what its kernel does (its members' own operands stay inside it).
    for (uint32_t in : step.fused != nullptr ? step.fused->inputs : step.inputs) {
      if (readers[in].empty() || readers[in].back() != s) readers[in].push_back(s);
    }
    if (step.fused != nullptr) {
      for (const auto& o : step.fused->outputs)
        producer[step.fused->members[o.member].outputs[o.k]] = static_cast<int64_t>(s);
    } else {
      for (uint32_t out : step.outputs) producer[out] = static_cast<int64_t>(s);
    }
  }

  std::vector<bool> taken(steps_.size(), false);
  std::vector<std::unique_ptr<FusedSteps>> made(steps_.size());  // at the CHANNEL_SHUFFLE's place
  for (size_t b = 0; b < steps_.size(); ++b) {
    const Step& shuffle = steps_[b];
    if (taken[b] || !is(shuffle, OperationType::CHANNEL_SHUFFLE) || shuffle.inputs.size() < 3) continue;
    const uint32_t x = shuffle.inputs[0], y = shuffle.outputs[0];
    const std::vector<uint32_t>& shape = shuffle.outputShapes[0];
    const std::vector<int32_t> groups = int32s(shuffle.inputs[1]), axis = int32s(shuffle.inputs[2]);
    if (operands_[x].type != f32 || shape.empty() || groups.size() != 1 || axis.size() != 1 || groups[0] <= 0) continue;
    const auto rank = static_cast<int32_t>(shape.size());
    if ((axis[0] < 0 ? axis[0] + rank : axis[0]) != rank - 1 || shape.back() % static_cast<uint32_t>(groups[0]) != 0) continue;
    size_t rows = 1;
    for (int32_t d = 0; d + 1 < rank; ++d) rows *= shape[static_cast<size_t>(d)];

    // The pieces: the CONCATENATION's, when only the shuffle reads its output; else the input itself.
    std::vector<uint32_t> pieces{x};
    int64_t concat = producer[x];
    if (concat >= 0 && !taken[static_cast<size_t>(concat)] &&
        is(steps_[static_cast<size_t>(concat)], OperationType::CONCATENATION) &&
        concatenatesFloatsOverLastAxis(steps_[static_cast<size_t>(concat)]) && readers[x].size() == 1 &&
        operands_[x].modelOutput < 0) {
      const Step& c = steps_[static_cast<size_t>(concat)];
      pieces.assign(c.inputs.begin(), c.inputs.end() - 1);
    } else {
      concat = -1;
    }
    std::vector<uint32_t> widths;
    for (uint32_t piece : pieces) widths.push_back(operands_[piece].dims.empty() ? 0 : operands_[piece].dims.back());

    // The SLICEs over the last axis; anything else that reads the result (or the request) wants all of it.
    std::vector<ShuffleGather::Range> ranges;
    std::vector<size_t> slices;
    bool whole = operands_[y].modelOutput >= 0;
    for (size_t r : readers[y]) {
      const Step& slice = steps_[r];
      const std::vector<int32_t> begin =
          is(slice, OperationType::SLICE) && !taken[r] && slice.inputs[0] == y && slice.inputs[1] != y
              ? int32s(slice.inputs[1])
              : std::vector<int32_t>{};
      bool runOfColumns = begin.size() == shape.size() && slice.outputShapes[0].size() == shape.size();
      for (size_t d = 0; runOfColumns && d + 1 < shape.size(); ++d)
        runOfColumns = begin[d] == 0 && slice.outputShapes[0][d] == shape[d];
      if (!runOfColumns || begin.back() < 0) {
        whole = true;
        continue;
      }
      const auto first = static_cast<uint32_t>(begin.back());
      ranges.push_back({first, first + slice.outputShapes[0].back()});
      slices.push_back(r);
    }
    if (concat < 0 && slices.empty()) continue;  // nothing to gain
    if (whole) ranges.insert(ranges.begin(), ShuffleGather::Range{0, shape.back()});
    std::string why;
    auto gather = ShuffleGather::plan(widths, static_cast<uint32_t>(groups[0]), rows, ranges, why);
    if (!gather) continue;

    auto fused = std::make_unique<FusedSteps>();
    fused->inputs = pieces;
    std::vector<size_t> members;
    if (concat >= 0) members.push_back(static_cast<size_t>(concat));
    members.push_back(b);
    members.insert(members.end(), slices.begin(), slices.end());
    if (whole) fused->outputs.push_back({concat >= 0 ? 1u : 0u, 0});
    for (size_t k = 0; k < slices.size(); ++k)
      fused->outputs.push_back({static_cast<uint32_t>(members.size() - slices.size() + k), 0});
    for (size_t m : members) {
      taken[m] = true;
      steps_[m].fast.reset();  // should the members run one by one, they run the reference kernels
      steps_[m].viewOffsets.clear();
      fused->members.push_back(std::move(steps_[m]));
    }
    fused->shuffle = std::move(*gather);
    made[b] = std::move(fused);
  }

  std::vector<Step> steps;
  steps.reserve(steps_.size());
  for (size_t s = 0; s < steps_.size(); ++s) {
    if (made[s] != nullptr) {
      Step step;
      step.index = made[s]->members.front().index;
      step.type = made[s]->members.front().type;
      step.fused = std::move(made[s]);
      steps.push_back(std::move(step));
    } else if (!taken[s]) {
      steps.push_back(std::move(steps_[s]));
    }
  }
  steps_ = std::move(steps);
  hasFastSteps_ = std::any_of(steps_.begin(), steps_.end(), [](const Step& step) { return step.usesFastLayer(); });
}

}  // namespace nnrt::cpu
