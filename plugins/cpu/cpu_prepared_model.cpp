// Preparation: checks the model's structure, selects a kernel for every operation, copies the small
// constants and decides, operation by operation, what is known before execution. Execution lives in
// cpu_execution.cpp.
#include "plugins/cpu/cpu_prepared_model.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <type_traits>

#include "nnrt/driver/ops/operand_types.hpp"

namespace nnrt::cpu {
namespace {

using driver::Result;

std::string operationLabel(uint32_t index, int32_t type) {
  return "operation " + std::to_string(index) + " (" + ops::operationName(type) + ")";
}

bool fullyKnown(const ops::Arg& arg) {
  if (arg.omitted) return true;
  if (ops::isTensorType(arg.type) && arg.dims.empty()) return false;  // unknown rank
  return std::find(arg.dims.begin(), arg.dims.end(), 0u) == arg.dims.end();
}

bool fullyKnown(const std::vector<ops::Shape>& shapes) {
  return std::all_of(shapes.begin(), shapes.end(), [](const ops::Shape& s) {
    return !s.empty() && std::find(s.begin(), s.end(), 0u) == s.end();
  });
}

// A float32 FULLY_CONNECTED of one row whose weights other operations read too (a recurrence
// unrolled step by step, as the ONNX front end writes GRU): offered to the fast layer without an
// epilogue, so that its matrix-vector product on packed weights takes it (one packed copy for all the
// steps, SharedForms) rather than oneDNN's inner product with the epilogue, which reads the weights
// at about a third of the speed (512x512: 38-45 us against 11-12). Measurements: docs/cpu-performance.md.
bool sharedWeightsRow(const ops::OpArgs& op, const OpParams& params, const std::vector<uint32_t>& readers,
                      uint32_t weightsOperand) {
  if (op.type != static_cast<int32_t>(driver::OperationType::FULLY_CONNECTED) || op.inputs.empty() ||
      op.inputs[0].type != static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32))
    return false;
  const auto* fc = std::get_if<ops::FullyConnectedParams>(&params);
  return fc != nullptr && fc->batchSize == 1 && weightsOperand < readers.size() && readers[weightsOperand] > 1;
}

// SLICE and SPLIT outputs that are contiguous runs of input 0's bytes (unit dimensions, then one cut
// dimension, then whole ones: a row of a time-major sequence, a half of a [1, 2H] gate pair): the
// byte offset of each output in input 0, so that the outputs can point into their input instead of
// being copied (CpuExecution::placeOutput). Empty when any output is not such a run or is a model
// output (the request's buffer must be written), or the operation is another.
std::vector<int64_t> viewOffsets(const ops::OpArgs& op, const std::vector<ops::Shape>& outputShapes,
                                 const std::vector<bool>& modelOutputs) {
  using T = driver::OperationType;
  const bool slice = op.type == static_cast<int32_t>(T::SLICE), split = op.type == static_cast<int32_t>(T::SPLIT);
  if ((!slice && !split) || op.inputs.size() < 2 || op.inputs[1].data == nullptr ||
      outputShapes.size() != modelOutputs.size())
    return {};
  const auto dims = op.inputs[0].dims;
  const size_t rank = dims.size(), element = ops::elementSize(op.inputs[0].type);
  // The offset of the block `size` starting at `begin`, or -1 when its bytes are not one run.
  auto runOffset = [&](const std::vector<int64_t>& begin, const ops::Shape& size) -> int64_t {
    if (size.size() != rank) return -1;
    size_t cut = 0;
    while (cut < rank && size[cut] == 1) ++cut;
    for (size_t d = cut + 1; d < rank; ++d)
      if (size[d] != dims[d] || begin[d] != 0) return -1;
    int64_t offset = 0, stride = static_cast<int64_t>(element);
    for (size_t d = rank; d-- > 0;) {
      offset += begin[d] * stride;
      stride *= dims[d];
    }
    return offset;
  };
  std::vector<int64_t> offsets;
  std::vector<int64_t> begin(rank, 0);
  if (slice) {
    const auto given = op.inputs[1].values<int32_t>();
    if (given.size() != rank) return {};
    begin.assign(given.begin(), given.end());
    offsets.push_back(runOffset(begin, outputShapes[0]));
  } else {
    const auto axisValue = op.inputs[1].values<int32_t>();
    if (axisValue.size() != 1) return {};
    const int64_t axis = axisValue[0] < 0 ? axisValue[0] + static_cast<int64_t>(rank) : axisValue[0];
    if (axis < 0 || axis >= static_cast<int64_t>(rank)) return {};
    for (const ops::Shape& shape : outputShapes) {
      offsets.push_back(runOffset(begin, shape));
      if (shape.size() == rank) begin[axis] += shape[axis];
    }
  }
  for (size_t k = 0; k < offsets.size(); ++k)
    if (offsets[k] < 0 || modelOutputs[k]) return {};
  return offsets;
}

}  // namespace

Result<std::unique_ptr<CpuPreparedModel>> CpuPreparedModel::create(const driver::Model& model,
                                                                   std::shared_ptr<tbb::task_arena> threads,
                                                                   std::shared_ptr<CoreLease> lease,
                                                                   std::shared_ptr<FastLayer> fast,
                                                                   size_t minElements, bool fuse,
                                                                   std::string profilePath) {
  std::unique_ptr<CpuPreparedModel> prepared(new CpuPreparedModel());
  prepared->threads_ = std::move(threads);
  prepared->lease_ = std::move(lease);
  prepared->fastLayer_ = std::move(fast);
  prepared->minElements_ = minElements;
  prepared->relaxed_ = model.relaxComputationFloat32toFloat16();
  NNRT_RETURN_IF_ERROR(prepared->copyOperands(model));
  if (prepared->fastLayer_) {
    // The fast kernels' weight reorders start OpenMP teams: on the lease's thread, the only one of the
    // device that does (CoreLease).
    Result<void> planned;
    try {
      planned = prepared->lease_->runExclusive([&] { return prepared->planSteps(model); });
    } catch (const std::exception& e) {
      return driver::generalFailure(std::string("preparing the model failed: ") + e.what());
    }
    NNRT_RETURN_IF_ERROR(planned);
  } else {
    NNRT_RETURN_IF_ERROR(prepared->planSteps(model));
  }
  if (fuse) {
    prepared->fuseElementwiseSteps();
    prepared->fuseChannelShuffles();
  }
  prepared->planTemporaries();
  prepared->arenas_.setFirstBlockBytes(prepared->staticTemporaryBytes_);
  if (!profilePath.empty()) {
    prepared->profile_ = std::make_unique<Profile>();
    prepared->profile_->path = std::move(profilePath);
    prepared->profile_->totalNs.resize(prepared->steps_.size());
    prepared->profile_->recentNs.resize(prepared->steps_.size());
  }
  return prepared;
}

CpuPreparedModel::~CpuPreparedModel() {
  if (profile_ != nullptr) writeProfile();
}

void CpuPreparedModel::Profile::record(const std::vector<uint64_t>& stepNs) {
  std::lock_guard guard(mutex);
  const size_t slot = executions % kKept;
  for (size_t i = 0; i < stepNs.size(); ++i) {
    totalNs[i] += stepNs[i];
    if (recentNs[i].size() < kKept) {
      recentNs[i].push_back(stepNs[i]);
    } else {
      recentNs[i][slot] = stepNs[i];
    }
  }
  ++executions;
}

void CpuPreparedModel::writeProfile() const {
  const uint64_t executions = profile_->executions;
  if (executions == 0) return;
  struct Line {
    std::string operations, kernel;
    double medianUs, meanUs;
  };
  std::vector<Line> lines;
  double total = 0;
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& step = steps_[i];
    std::vector<uint64_t> ns = profile_->recentNs[i];
    std::nth_element(ns.begin(), ns.begin() + static_cast<std::ptrdiff_t>(ns.size() / 2), ns.end());
    Line line;
    line.medianUs = static_cast<double>(ns[ns.size() / 2]) / 1000.0;
    line.meanUs = static_cast<double>(profile_->totalNs[i]) / 1000.0 / static_cast<double>(executions);
    total += line.medianUs;
    if (step.fused != nullptr) {
      line.operations = std::to_string(step.index) + "-" + std::to_string(step.fused->members.back().index);
      for (const Step& member : step.fused->members) line.operations += " " + ops::operationName(member.type);
      line.kernel = step.fused->shuffle ? "fused channel shuffle" : "fused element-wise";
    } else {
      line.operations = std::to_string(step.index) + " " + ops::operationName(step.type);
      for (const auto& [index, type] : step.absorbed)
        line.operations += " " + std::to_string(index) + " " + ops::operationName(type);
      line.kernel = step.fast != nullptr ? step.fast->name()
                    : step.products != nullptr ? "reference, products on packed weights (avx512)"
                                               : "reference";
    }
    lines.push_back(std::move(line));
  }
  std::ofstream out(profile_->path, std::ios::app);
  out << "# nnrt cpu profile: " << executions << " executions of " << steps_.size() << " steps, "
      << total << " us per execution (the sum of the steps' medians)\n"
      << "# step\toperations\tkernel\tmedian_us\tmean_us\n";
  for (size_t i = 0; i < lines.size(); ++i) {
    out << i << '\t' << lines[i].operations << '\t' << lines[i].kernel << '\t' << lines[i].medianUs << '\t'
        << lines[i].meanUs << '\n';
  }
}

Result<void> CpuPreparedModel::copyOperands(const driver::Model& model) {
  const driver::Subgraph main = model.main();
  const auto operands = main.operands();
  operands_.resize(operands.size());
  std::vector<size_t> copyOffset(operands.size(), 0);
  for (size_t i = 0; i < operands.size(); ++i) {
    const nnrt_operand& o = operands[i];
    OperandInfo& info = operands_[i];
    info.type = o.type;
    info.dims.assign(o.dimensions, o.dimensions + o.rank);
    info.scale = o.scale;
    info.zeroPoint = o.zero_point;
    info.lifetime = o.lifetime;
    if (o.channel_scale_count > 0 && o.channel_scales != nullptr) {
      info.channelScales.assign(o.channel_scales, o.channel_scales + o.channel_scale_count);
      info.perChannel = o;
      info.perChannel.channel_scales = info.channelScales.data();
    }
    if (o.lifetime != NNRT_LIFETIME_CONSTANT_COPY && o.lifetime != NNRT_LIFETIME_CONSTANT_REFERENCE) continue;
    const std::span<const uint8_t> bytes = model.constantBytes(o);
    if (bytes.empty()) {
      return driver::invalidArgument("constant operand " + std::to_string(i) +
                                     " has no value inside the model's data");
    }
    info.constantLength = bytes.size();
    if (o.lifetime == NNRT_LIFETIME_CONSTANT_REFERENCE) {
      info.constant = bytes.data();  // pool bytes outlive this prepared model (nnrt_model)
      continue;
    }
    const size_t offset = (constants_.size() + 15) / 16 * 16;
    constants_.resize(offset + bytes.size());
    std::memcpy(constants_.data() + offset, bytes.data(), bytes.size());
    copyOffset[i] = offset;
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    if (operands_[i].lifetime == NNRT_LIFETIME_CONSTANT_COPY)
      operands_[i].constant = constants_.data() + copyOffset[i];
  }

  const auto inputs = main.inputIndexes();
  const auto outputs = main.outputIndexes();
  inputIndexes_.assign(inputs.begin(), inputs.end());
  outputIndexes_.assign(outputs.begin(), outputs.end());
  for (uint32_t index : inputIndexes_) {
    if (index >= operands_.size()) {
      return driver::invalidArgument("model input operand " + std::to_string(index) + " does not exist");
    }
  }
  for (size_t k = 0; k < outputIndexes_.size(); ++k) {
    const uint32_t index = outputIndexes_[k];
    if (index >= operands_.size()) {
      return driver::invalidArgument("model output operand " + std::to_string(index) + " does not exist");
    }
    operands_[index].modelOutput = static_cast<int32_t>(k);
  }
  return {};
}

bool CpuPreparedModel::internalFloat(uint32_t operand) const {
  const OperandInfo& info = operands_[operand];
  return info.type == static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32) &&
         info.lifetime == NNRT_LIFETIME_TEMPORARY_VARIABLE && info.modelOutput < 0;
}

CpuPreparedModel::EpilogueMatch CpuPreparedModel::matchEpilogue(std::span<const nnrt_operation> operations,
                                                                uint32_t i, const std::vector<uint32_t>& readers,
                                                                const OpParams& params, bool residuals) const {
  using T = driver::OperationType;
  const nnrt_operation& op = operations[i];
  const auto type = static_cast<T>(op.type);
  if ((type != T::CONV_2D && type != T::DEPTHWISE_CONV_2D && type != T::GROUPED_CONV_2D &&
       type != T::TRANSPOSE_CONV_2D && type != T::FULLY_CONNECTED && type != T::BATCH_MATMUL) ||
      op.output_count != 1)
    return {};
  const bool activation = std::visit(
      [](const auto& p) {
        if constexpr (requires { p.activation; }) return p.activation != driver::Activation::None;
        return !std::is_same_v<std::decay_t<decltype(p)>, ops::BatchMatmulParams>;  // it has none
      },
      params);
  const uint32_t y = op.outputs[0];
  if (activation || !internalFloat(y) || (readers[y] != 1 && readers[y] != 2)) return {};
  std::vector<uint32_t> users;  // the operations reading y, in order
  for (uint32_t j = i + 1; j < operations.size() && users.size() < readers[y]; ++j) {
    const nnrt_operation& next = operations[j];
    if (std::find(next.inputs, next.inputs + next.input_count, y) != next.inputs + next.input_count)
      users.push_back(j);
  }
  if (users.size() != readers[y]) return {};  // one operation reads y twice
  // The value of a float32 constant of one element (a scalar or a tensor of one value).
  auto single = [&](uint32_t operand) -> std::optional<float> {
    const OperandInfo& info = operands_[operand];
    if ((info.type != static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32) &&
         info.type != static_cast<int32_t>(driver::OperandType::FLOAT32)) ||
        info.constant == nullptr || info.constantLength != sizeof(float))
      return std::nullopt;
    float v;
    std::memcpy(&v, info.constant, sizeof v);
    return v;
  };
  // NNAPI's fused-activation argument of an element-wise operation, when it is a constant (else -1).
  auto activationCode = [&](uint32_t operand) {
    const OperandInfo& act = operands_[operand];
    int32_t code = -1;
    if (act.type == static_cast<int32_t>(driver::OperandType::INT32) && act.constant != nullptr &&
        act.constantLength == sizeof(int32_t))
      std::memcpy(&code, act.constant, sizeof code);
    return code;
  };
  auto noActivation = [&](uint32_t operand) { return activationCode(operand) == 0; };
  auto floatOutput = [&](const nnrt_operation& o) {
    return o.output_count == 1 &&
           operands_[o.outputs[0]].type == static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32);
  };
  // Whether `add` is an ADD of `value` (a CONV_2D's output, or its epilogue's) and another float32 tensor
  // of its shape that a model input or an operation before the convolution holds, with a constant
  // fused activation: then `e` takes it as its residual.
  auto residualAdd = [&](const nnrt_operation& add, uint32_t value, Epilogue& e) {
    if (!residuals || type != T::CONV_2D || static_cast<T>(add.type) != T::ADD || add.input_count != 3 || !floatOutput(add))
      return false;
    const uint32_t r = add.inputs[0] == value ? add.inputs[1] : add.inputs[0];
    const OperandInfo& residual = operands_[r];
    const int32_t code = activationCode(add.inputs[2]);
    const std::vector<uint32_t>& dims = operands_[value].dims;
    if (r == value || (add.inputs[0] != value && add.inputs[1] != value) || code < 0 || code > 3 ||
        residual.type != static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32) || residual.dims != dims ||
        std::find(dims.begin(), dims.end(), 0u) != dims.end())
      return false;
    // The kernel adds the residual where it writes, so it must be there when the convolution runs.
    if (residual.lifetime == NNRT_LIFETIME_TEMPORARY_VARIABLE || residual.lifetime == NNRT_LIFETIME_SUBGRAPH_OUTPUT) {
      const auto writes = [r](const nnrt_operation& o) {
        return std::find(o.outputs, o.outputs + o.output_count, r) != o.outputs + o.output_count;
      };
      if (std::none_of(operations.begin(), operations.begin() + i, writes)) return false;
    } else if (residual.lifetime != NNRT_LIFETIME_SUBGRAPH_INPUT) {
      return false;
    }
    e.residual = true;
    e.activation = static_cast<driver::Activation>(code);
    return true;
  };
  const nnrt_operation& first = operations[users[0]];
  if (users.size() == 1) {  // y -> HARD_SWISH, LOGISTIC, TANH, or PRELU by one constant slope
    Epilogue e;
    switch (static_cast<T>(first.type)) {
      case T::HARD_SWISH: e.op = EpilogueOp::HardSwish; break;
      case T::LOGISTIC: e.op = EpilogueOp::Logistic; break;
      case T::TANH: e.op = EpilogueOp::Tanh; break;
      case T::MUL:
      case T::DIV: {  // by one constant, no activation (DIV: y the dividend)
        if (first.input_count != 3 || !noActivation(first.inputs[2])) return {};
        const bool yFirst = first.inputs[0] == y;
        if ((!yFirst && (static_cast<T>(first.type) == T::DIV || first.inputs[1] != y)) ||
            (yFirst && first.inputs[1] == y))
          return {};
        const std::optional<float> k = single(first.inputs[yFirst ? 1 : 0]);
        if (!k || (static_cast<T>(first.type) == T::DIV && *k == 0.0f) || !floatOutput(first)) return {};
        e.op = static_cast<T>(first.type) == T::MUL ? EpilogueOp::Multiply : EpilogueOp::Divide;
        e.alpha = *k;
        return {e, {users[0]}, first.outputs[0]};
      }
      case T::ADD: {  // a CONV_2D's output plus a tensor of its shape (a residual network's shortcut)
        if (!residualAdd(first, y, e)) return {};
        return {e, {users[0]}, first.outputs[0], e.residual ? first.inputs[first.inputs[0] == y ? 1 : 0] : 0};
      }
      case T::PRELU: {
        const OperandInfo* alpha = first.input_count == 2 && first.inputs[0] == y ? &operands_[first.inputs[1]] : nullptr;
        if (alpha == nullptr || alpha->type != static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32) ||
            alpha->constant == nullptr || alpha->constantLength != sizeof(float))
          return {};
        e.op = EpilogueOp::LeakyRelu;
        std::memcpy(&e.alpha, alpha->constant, sizeof(float));
        break;
      }
      default: return {};
    }
    if (first.input_count != (e.op == EpilogueOp::LeakyRelu ? 2u : 1u) || !floatOutput(first)) return {};
    return {e, {users[0]}, first.outputs[0]};
  }
  // y -> s = LOGISTIC(y) -> MUL(y, s) or MUL(s, y) with no activation.
  const nnrt_operation& mul = operations[users[1]];
  if (static_cast<T>(first.type) != T::LOGISTIC || first.input_count != 1 || !floatOutput(first) ||
      static_cast<T>(mul.type) != T::MUL || mul.input_count != 3 || !floatOutput(mul))
    return {};
  const uint32_t s = first.outputs[0];
  if (!internalFloat(s) || readers[s] != 1) return {};
  if (!((mul.inputs[0] == y && mul.inputs[1] == s) || (mul.inputs[0] == s && mul.inputs[1] == y))) return {};
  if (!noActivation(mul.inputs[2])) return {};
  // ... and then a residual ADD that alone reads the product (YOLOv5's bottlenecks).
  Epilogue e{EpilogueOp::Swish};
  const uint32_t product = mul.outputs[0];
  if (internalFloat(product) && readers[product] == 1) {
    for (uint32_t j = users[1] + 1; j < operations.size(); ++j) {
      const nnrt_operation& add = operations[j];
      if (std::find(add.inputs, add.inputs + add.input_count, product) == add.inputs + add.input_count) continue;
      if (residualAdd(add, product, e))
        return {e, {users[0], users[1], j}, add.outputs[0], add.inputs[add.inputs[0] == product ? 1 : 0]};
      break;
    }
  }
  return {e, {users[0], users[1]}, product};
}

namespace {

std::vector<int64_t> denseStrides(const std::vector<uint32_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) strides[d - 1] = strides[d] * dims[d];
  return strides;
}

}  // namespace

bool CpuPreparedModel::foldTransposes(Step& step, const ops::OpArgs& args, std::span<const nnrt_operation> operations,
                                      uint32_t i, const std::vector<uint32_t>& readers,
                                      const std::vector<int32_t>& producer, const EpilogueMatch& match,
                                      std::vector<bool>& absorbed, std::vector<bool>& written) {
  using T = driver::OperationType;
  const auto f32 = static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32);
  KernelOptions options{match.epilogue, {}};
  std::vector<Step::FoldedTranspose> folded;
  std::vector<uint32_t> inputs = step.inputs;
  std::vector<uint32_t> before;  // the earlier TRANSPOSEs' operation indices
  for (int k = 0; k < 2; ++k) {
    const uint32_t t = step.inputs[static_cast<size_t>(k)];
    // Back through TRANSPOSEs whose results only the next one reads (a split into heads, then the
    // keys' swap of their last two axes), composing their permutations: t = transpose(u, perm).
    uint32_t u = t;
    std::vector<uint32_t> perm, chain;
    while (internalFloat(u) && readers[u] == 1 && producer[u] >= 0) {
      const auto j = static_cast<uint32_t>(producer[u]);
      auto it = std::find_if(steps_.rbegin(), steps_.rend(), [&](const Step& s) { return s.index == j && s.fused == nullptr; });
      if (it == steps_.rend() || it->type != static_cast<int32_t>(T::TRANSPOSE) || !it->isStatic) break;
      const std::vector<uint32_t>& p = std::get<ops::TransposeParams>(it->params).perm;
      if (!perm.empty() && p.size() != perm.size()) break;
      if (perm.empty()) {
        perm = p;
      } else {
        for (uint32_t& a : perm) a = p[a];
      }
      chain.push_back(j);
      u = it->inputs[0];
    }
    const std::vector<uint32_t>& uDims = operands_[u].dims;
    if (chain.empty() || operands_[u].type != f32 || uDims.size() != perm.size() ||
        std::find(uDims.begin(), uDims.end(), 0u) != uDims.end())
      continue;
    const std::vector<int64_t> dense = denseStrides(uDims);
    std::vector<int64_t> strides(perm.size());
    for (size_t a = 0; a < perm.size(); ++a) strides[a] = dense[perm[a]];
    options.strided.push_back({k, strides});
    folded.push_back({k, t, perm});
    inputs[static_cast<size_t>(k)] = u;
    before.insert(before.end(), chain.begin(), chain.end());
  }
  // The output: its only reader a TRANSPOSE by a constant (or the omitted, reversing) permutation.
  const uint32_t y = match.epilogue.op != EpilogueOp::None ? match.output : step.outputs[0];
  if (y != step.outputs[0] && written[y]) return false;  // a model that writes it twice: reported later
  const uint32_t last = match.operations.empty() ? i : match.operations.back();
  std::optional<uint32_t> after;
  uint32_t z = 0;
  std::vector<uint32_t> zDims;
  if (internalFloat(y) && readers[y] == 1) {
    for (uint32_t r = last + 1; r < operations.size(); ++r) {
      const nnrt_operation& next = operations[r];
      if (std::find(next.inputs, next.inputs + next.input_count, y) == next.inputs + next.input_count) continue;
      const std::vector<uint32_t>& yDims = step.outputShapes[0];
      std::vector<uint32_t> perm(yDims.size());
      bool known = static_cast<T>(next.type) == T::TRANSPOSE && next.inputs[0] == y && next.output_count == 1 &&
                   operands_[next.outputs[0]].type == f32;
      if (known && next.input_count > 1 && operands_[next.inputs[1]].lifetime != NNRT_LIFETIME_NO_VALUE) {
        const OperandInfo& p = operands_[next.inputs[1]];
        known = p.type == static_cast<int32_t>(driver::OperandType::TENSOR_INT32) && p.constant != nullptr &&
                p.constantLength == perm.size() * sizeof(int32_t);
        if (known) {
          std::vector<int32_t> values(perm.size());
          std::memcpy(values.data(), p.constant, p.constantLength);
          std::vector<bool> seen(perm.size(), false);
          for (size_t a = 0; a < perm.size() && known; ++a) {
            known = values[a] >= 0 && static_cast<size_t>(values[a]) < perm.size() && !seen[static_cast<size_t>(values[a])];
            if (known) {
              perm[a] = static_cast<uint32_t>(values[a]);
              seen[perm[a]] = true;
            }
          }
        }
      } else {
        for (size_t a = 0; a < perm.size(); ++a) perm[a] = static_cast<uint32_t>(perm.size() - 1 - a);
      }
      if (known && !written[next.outputs[0]]) {
        zDims.resize(perm.size());
        for (size_t a = 0; a < perm.size(); ++a) zDims[a] = yDims[perm[a]];
        const std::vector<int64_t> dense = denseStrides(zDims);
        std::vector<int64_t> strides(perm.size());
        for (size_t a = 0; a < perm.size(); ++a) strides[perm[a]] = dense[a];
        options.strided.push_back({KernelOptions::Strided::kOutput, strides});
        folded.push_back({KernelOptions::Strided::kOutput, y, perm});
        after = r;
        z = next.outputs[0];
      }
      break;
    }
  }
  if (folded.empty()) return false;
  auto fast = fastLayer_->prepare(args, step.params, options);
  if (!fast) return false;
  step.fast = std::move(*fast);
  step.epilogue = match.epilogue;
  step.folded = std::move(folded);
  step.inputs = std::move(inputs);
  for (uint32_t j : before) {
    step.absorbed.emplace_back(j, static_cast<int32_t>(T::TRANSPOSE));
    std::erase_if(steps_, [&](const Step& s) { return s.index == j; });
  }
  for (uint32_t j : match.operations) {
    step.absorbed.emplace_back(j, operations[j].type);
    absorbed[j] = true;
  }
  written[step.outputs[0]] = false;
  step.outputs = {y};
  written[y] = true;
  if (after) {
    step.absorbed.emplace_back(*after, static_cast<int32_t>(T::TRANSPOSE));
    absorbed[*after] = true;
    written[y] = false;
    step.outputs = {z};
    step.outputShapes = {zDims};
    written[z] = true;
  }
  return true;
}

Result<void> CpuPreparedModel::planSteps(const driver::Model& model) {
  const driver::Subgraph main = model.main();
  // Operands readable before the first operation runs.
  std::vector<bool> written(operands_.size(), false);
  for (uint32_t index : inputIndexes_)
    written[index] = true;
  for (size_t i = 0; i < operands_.size(); ++i) {
    const int32_t lifetime = operands_[i].lifetime;
    if (lifetime == NNRT_LIFETIME_CONSTANT_COPY || lifetime == NNRT_LIFETIME_CONSTANT_REFERENCE ||
        lifetime == NNRT_LIFETIME_NO_VALUE) {
      written[i] = true;
    }
  }

  const auto operations = main.operations();
  steps_.reserve(operations.size());
  std::vector<uint32_t> readers(operands_.size(), 0);  // operations reading each operand
  std::vector<int32_t> producer(operands_.size(), -1);  // the operation writing each operand
  for (uint32_t i = 0; i < operations.size(); ++i) {
    const nnrt_operation& operation = operations[i];
    for (uint32_t k = 0; k < operation.input_count; ++k)
      if (operation.inputs[k] < readers.size()) ++readers[operation.inputs[k]];
    for (uint32_t k = 0; k < operation.output_count; ++k)
      if (operation.outputs[k] < producer.size() && producer[operation.outputs[k]] < 0)
        producer[operation.outputs[k]] = static_cast<int32_t>(i);
  }
  std::vector<bool> absorbed(operations.size(), false);  // by an earlier step's epilogue
  SharedForms shared;  // the fast kernels' packed constants, for this preparation
  for (uint32_t i = 0; i < operations.size(); ++i) {
    if (absorbed[i]) continue;
    const nnrt_operation& operation = operations[i];
    const std::string label = operationLabel(i, operation.type);
    const std::vector<ops::Arg> inputs = ops::inputArgs(model, main, operation);
    std::vector<ops::Arg> outputs = ops::outputArgs(model, main, operation);
    const ops::OpArgs args{operation.type, inputs, outputs, relaxed_};
    std::string invalid;
    auto kernel = selectKernel(args, &invalid);
    if (!kernel) {
      return driver::invalidArgument(label +
                                     " is not supported by the cpu driver: " + kernel.error().message);
    }

    Step step;
    step.index = i;
    step.type = operation.type;
    step.kernel = *kernel;
    step.inputs.assign(operation.inputs, operation.inputs + operation.input_count);
    step.outputs.assign(operation.outputs, operation.outputs + operation.output_count);
    for (uint32_t in : step.inputs) {
      if (in >= operands_.size() || !written[in]) {
        return driver::invalidArgument(label + " reads operand " + std::to_string(in) +
                                       " before any operation writes it");
      }
    }
    for (uint32_t out : step.outputs) {
      const int32_t lifetime = out < operands_.size() ? operands_[out].lifetime : -1;
      if (lifetime != NNRT_LIFETIME_TEMPORARY_VARIABLE && lifetime != NNRT_LIFETIME_SUBGRAPH_OUTPUT) {
        return driver::invalidArgument(label + " writes operand " + std::to_string(out) +
                                       ", which is not a temporary or a model output");
      }
      if (written[out]) {
        return driver::invalidArgument(label + " writes operand " + std::to_string(out) +
                                       ", which an earlier operation already wrote");
      }
      written[out] = true;
    }
    if (!invalid.empty()) {  // fails when it runs; nothing to prepare
      step.invalid = std::move(invalid);
      steps_.push_back(std::move(step));
      continue;
    }

    // Shapes and parameters fixed by the model itself are worked out once, here.
    if (std::all_of(inputs.begin(), inputs.end(), [](const ops::Arg& a) { return fullyKnown(a); })) {
      auto shapes = ops::inferShapes(args);
      if (shapes && fullyKnown(*shapes)) {
        if (auto params = step.kernel->decode(args)) {
          step.isStatic = true;
          step.outputShapes = std::move(*shapes);
          step.params = std::move(*params);
          // What the fast layer plans for: the shapes inferred, where the model left dimensions unknown.
          for (size_t k = 0; k < outputs.size() && k < step.outputShapes.size(); ++k)
            outputs[k].dims = step.outputShapes[k];
          // A refusal only means the reference kernel runs (fast_path.hpp).
          // TRANSPOSEs around a BATCH_MATMUL (attention's heads) folded into its strides.
          if (fastLayer_ && operation.type == static_cast<int32_t>(driver::OperationType::BATCH_MATMUL) &&
              foldTransposes(step, args, operations, i, readers, producer,
                             matchEpilogue(operations, i, readers, step.params), absorbed, written)) {
            hasFastSteps_ = true;
          }
          // Element-wise operations after a convolution or FULLY_CONNECTED that its fast kernel can
          // apply to its output (SiLU, HARD_SWISH, ...): the step writes their output instead. A row
          // whose weights other operations read takes none (sharedWeightsRow).
          // Should the layer refuse a residual ADD (Winograd serves the convolution), the operation before
          // it is offered alone.
          const uint32_t weights = operation.input_count > 1 ? operation.inputs[1] : ~0u;
          const bool epilogues = fastLayer_ && step.fast == nullptr && !sharedWeightsRow(args, step.params, readers, weights);
          EpilogueMatch match = epilogues ? matchEpilogue(operations, i, readers, step.params) : EpilogueMatch{};
          std::optional<Result<std::unique_ptr<FastKernel>>> prepared;
          if (!match.epilogue.empty()) {
            prepared = fastLayer_->prepare(args, step.params, KernelOptions{match.epilogue, {}, &shared});
            if (!*prepared && match.epilogue.residual) {
              match = matchEpilogue(operations, i, readers, step.params, false);
              prepared.reset();
              if (!match.epilogue.empty()) prepared = fastLayer_->prepare(args, step.params, KernelOptions{match.epilogue, {}, &shared});
            }
          }
          if (prepared && *prepared) {
            step.fast = std::move(**prepared);
            step.epilogue = match.epilogue;
            for (uint32_t j : match.operations) {
              step.absorbed.emplace_back(j, operations[j].type);
              absorbed[j] = true;
            }
            written[step.outputs[0]] = false;
            step.outputs = {match.output};
            if (written[match.output])
              return driver::invalidArgument(label + "'s epilogue writes operand " + std::to_string(match.output) +
                                             ", which an earlier operation already wrote");
            written[match.output] = true;
            hasFastSteps_ = true;
            if (match.epilogue.residual) {  // read by the step, after the operation's inputs
              step.inputs.push_back(match.residual);
              step.residualInput = true;
            }
          }
          const bool light = isLightOperation(operation.type);
          if (step.fast == nullptr && fastLayer_ &&
              (!light || ops::elementCount(step.outputShapes[0]).value_or(0) >= minElements_)) {
            if (auto fast = fastLayer_->prepare(args, step.params, KernelOptions{{}, {}, &shared})) {
              step.fast = std::move(*fast);
              hasFastSteps_ = true;
            }
          }
          if (step.fast == nullptr) {
            std::vector<bool> modelOutputs;
            for (uint32_t out : step.outputs) modelOutputs.push_back(operands_[out].modelOutput >= 0);
            step.viewOffsets = viewOffsets(args, step.outputShapes, modelOutputs);
          }
        }
      }
    }
    if (fastLayer_ && !step.kernel->stepMatrices.empty()) {
      prepareProducts(step, shared);
      if (step.products != nullptr) hasFastSteps_ = true;
    }
    steps_.push_back(std::move(step));
  }
  if (hasFastSteps_) chainFastSteps();

  for (size_t k = 0; k < outputIndexes_.size(); ++k) {
    if (!written[outputIndexes_[k]]) {
      return driver::invalidArgument("model output " + std::to_string(k) + " (operand " +
                                     std::to_string(outputIndexes_[k]) + ") is not written by any operation");
    }
  }
  return {};
}

// The constant 2-D float32 inputs among the step's KernelEntry::stepMatrices, at the addresses the
// executions pass to the kernel, those that lie one after the other in memory with the same row length
// joined into one (the LSTM's gates, which its kernel multiplies as one matrix when they are so).
void CpuPreparedModel::prepareProducts(Step& step, SharedForms& shared) const {
  std::vector<ConstantMatrix> matrices;
  for (uint32_t k : step.kernel->stepMatrices) {
    if (k >= step.inputs.size()) continue;
    const OperandInfo& info = operands_[step.inputs[k]];
    if (info.constant == nullptr || info.type != static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32) ||
        info.dims.size() != 2 || info.dims[0] == 0 || info.dims[1] == 0 ||
        info.constantLength != size_t{info.dims[0]} * info.dims[1] * sizeof(float))
      continue;
    matrices.push_back({static_cast<const float*>(info.constant), info.dims[0], info.dims[1]});
  }
  if (matrices.empty()) return;
  std::sort(matrices.begin(), matrices.end(), [](const ConstantMatrix& a, const ConstantMatrix& b) { return a.data < b.data; });
  std::vector<ConstantMatrix> joined;
  for (const ConstantMatrix& m : matrices) {
    ConstantMatrix* last = joined.empty() ? nullptr : &joined.back();
    if (last != nullptr && last->data == m.data && last->rows == m.rows && last->cols == m.cols) continue;  // twice
    if (last != nullptr && last->cols == m.cols && last->data + last->rows * last->cols == m.data) {
      last->rows += m.rows;
    } else {
      joined.push_back(m);
    }
  }
  step.products = fastLayer_->prepareProducts(joined, &shared);
}

// Offers the fast layer each pair of fast steps where one's single output is a temporary that only
// the next reads, as its input 0, and everything else that next step reads is constant: its shapes
// are then fixed exactly when the producer's are, so both run their fast kernels or neither does
// (CpuExecution checks it at every run).
void CpuPreparedModel::chainFastSteps() {
  std::vector<uint32_t> reads(operands_.size(), 0);
  std::vector<int32_t> producer(operands_.size(), -1);
  for (size_t s = 0; s < steps_.size(); ++s) {
    for (uint32_t in : steps_[s].inputs) ++reads[in];
    for (uint32_t out : steps_[s].outputs) producer[out] = static_cast<int32_t>(s);
  }
  auto constant = [&](uint32_t index) {
    const int32_t lifetime = operands_[index].lifetime;
    return lifetime == NNRT_LIFETIME_CONSTANT_COPY || lifetime == NNRT_LIFETIME_CONSTANT_REFERENCE ||
           lifetime == NNRT_LIFETIME_NO_VALUE;
  };
  for (Step& consumer : steps_) {
    if (consumer.fast == nullptr || consumer.inputs.empty()) continue;
    const uint32_t tensor = consumer.inputs[0];
    const int32_t from = producer[tensor];
    if (from < 0 || reads[tensor] != 1 || operands_[tensor].lifetime != NNRT_LIFETIME_TEMPORARY_VARIABLE ||
        operands_[tensor].modelOutput >= 0)
      continue;
    Step& source = steps_[from];
    // A residual ADD's sums are written over the residual, in its layout: never the layer's own.
    if (source.fast == nullptr || source.outputs.size() != 1 || source.residualInput ||
        !std::all_of(consumer.inputs.begin() + 1, consumer.inputs.end(), constant))
      continue;
    consumer.chainedInput = fastLayer_->chain(*source.fast, *consumer.fast);
  }
}

// Memory planning: every temporary whose size is known at preparation gets a fixed place in one block
// that each execution takes first from its arena. A temporary lives from the step that writes it to
// the last step that reads it (a RESHAPE or SQUEEZE whose output merely relabels it extends that to
// its own readers); temporaries whose lifetimes overlap never share bytes, others may. Largest first,
// each at the lowest offset that clashes with none placed before. A model then touches a working set
// of a few live tensors instead of one fresh buffer per operation.
void CpuPreparedModel::planTemporaries() {
  const size_t n = operands_.size();
  std::vector<int64_t> first(n, -1), last(n, -1);
  std::vector<uint32_t> root(n);
  for (uint32_t i = 0; i < n; ++i) root[i] = i;
  plannedSize_.assign(n, 0);
  auto isTemporary = [&](uint32_t operand) {
    return operands_[operand].lifetime == NNRT_LIFETIME_TEMPORARY_VARIABLE && operands_[operand].modelOutput < 0;
  };
  auto read = [&](uint32_t operand, int64_t s) { last[root[operand]] = std::max(last[root[operand]], s); };
  auto write = [&](const Step& step, size_t k, int64_t s) {
    const uint32_t out = step.outputs[k];
    if (!isTemporary(out)) return;
    // placeOutput points it at input 0's bytes
    if ((step.kernel->outputIsInput0 && k == 0) || !step.viewOffsets.empty()) {
      root[out] = root[step.inputs[0]];
      return;
    }
    first[out] = s;
    if (step.isStatic) plannedSize_[out] = ops::byteSize(operands_[out].type, step.outputShapes[k]).value_or(0);
  };
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& step = steps_[i];
    const auto s = static_cast<int64_t>(i);
    if (step.fused) {
      for (uint32_t in : step.fused->inputs) read(in, s);
      for (const auto& o : step.fused->outputs) write(step.fused->members[o.member], o.k, s);
      continue;
    }
    for (uint32_t in : step.inputs) read(in, s);
    for (size_t k = 0; k < step.outputs.size(); ++k) write(step, k, s);
  }
  // A residual ADD fused into a convolution (Step::residualInput) whose residual nothing reads later:
  // the output takes the residual's bytes, so the kernel finds the residual where it writes without a
  // copy (a residual network's chain of shortcuts then lives in one block). `owner`: the temporary
  // whose block an output shares.
  std::vector<int64_t> owner(n, -1);
  auto ownerOf = [&](uint32_t operand) {
    while (owner[operand] >= 0) operand = static_cast<uint32_t>(owner[operand]);
    return operand;
  };
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& step = steps_[i];
    if (!step.residualInput) continue;
    const uint32_t r = step.inputs.back(), z = step.outputs[0], o = ownerOf(r);
    const auto s = static_cast<int64_t>(i);
    // (Not when the convolution reads the residual itself: its output would be its input.)
    const bool readByOperation = std::find(step.inputs.begin(), step.inputs.end() - 1, r) != step.inputs.end() - 1;
    if (!isTemporary(r) || !isTemporary(z) || root[r] != r || root[z] != z || first[z] != s || last[o] != s ||
        plannedSize_[z] == 0 || plannedSize_[z] > plannedSize_[o] || readByOperation)
      continue;
    owner[z] = o;
    last[o] = std::max(last[o], last[z]);
    first[z] = -1;  // placed with its owner
  }

  struct Block {
    uint32_t operand;
    int64_t first, last;
    uint64_t offset, size;
  };
  std::vector<Block> blocks;
  for (uint32_t i = 0; i < n; ++i) {
    if (first[i] >= 0 && plannedSize_[i] > 0)
      blocks.push_back({i, first[i], std::max(first[i], last[i]), 0, (plannedSize_[i] + ExecutionArena::kAlignment - 1) / ExecutionArena::kAlignment * ExecutionArena::kAlignment});
  }
  std::stable_sort(blocks.begin(), blocks.end(), [](const Block& a, const Block& b) { return a.size > b.size; });
  std::vector<const Block*> clashing;
  for (size_t b = 0; b < blocks.size(); ++b) {
    Block& block = blocks[b];
    clashing.clear();
    for (size_t p = 0; p < b; ++p) {
      if (blocks[p].first <= block.last && block.first <= blocks[p].last) clashing.push_back(&blocks[p]);
    }
    std::sort(clashing.begin(), clashing.end(), [](const Block* x, const Block* y) { return x->offset < y->offset; });
    uint64_t offset = 0;
    for (const Block* other : clashing) {
      if (offset + block.size <= other->offset) break;
      offset = std::max(offset, other->offset + other->size);
    }
    block.offset = offset;
    plannedBytes_ = std::max<size_t>(plannedBytes_, offset + block.size);
  }
  plannedOffset_.assign(n, -1);
  for (const Block& block : blocks) plannedOffset_[block.operand] = static_cast<int64_t>(block.offset);
  for (uint32_t i = 0; i < n; ++i) {
    if (owner[i] >= 0) plannedOffset_[i] = plannedOffset_[ownerOf(i)];
  }
  staticTemporaryBytes_ = plannedBytes_ + ExecutionArena::kAlignment;
}

}  // namespace nnrt::cpu
