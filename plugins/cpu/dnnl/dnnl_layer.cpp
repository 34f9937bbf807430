// libnnrt_cpu_dnnl.so: the cpu driver's fast layer on oneDNN (see plugins/cpu/fast_path.hpp).
//
// Each FastKernel owns everything its operation needs at execution: the primitive (created once,
// for the exact shapes), the weights reordered into the layout the primitive chose, a copy of the
// bias, the fused activation (a post-op), its scratchpad, and the memory objects whose data handles
// an execution points at the request's tensors. Running one allocates nothing.
//
// What is taken (see docs/cpu-performance.md for the measurements behind each choice):
// - float32: CONV_2D (3x3 stride 1 with enough channels and pixels as Winograd F(2x2, 3x3) unless the
//   device option winograd is off), DEPTHWISE_CONV_2D (NHWC or NCHW, any padding, stride and dilation),
//   GROUPED_CONV_2D, TRANSPOSE_CONV_2D (a deconvolution), FULLY_CONNECTED, BATCH_MATMUL,
//   AVERAGE_POOL_2D and MAX_POOL_2D, SOFTMAX with beta 1, ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM
//   (broadcasting), RELU,
//   RELU1, RELU6, LOGISTIC, TANH, HARD_SWISH, ELU, PRELU, TRANSPOSE (also 8-bit);
// - 8-bit quantized (QUANT8_ASYMM and QUANT8_ASYMM_SIGNED data): the four convolutions and
//   FULLY_CONNECTED whose filters are signed with zero point 0 (per-tensor or per-channel).
// Filters, weights and biases must be constants (BATCH_MATMUL's operands need not be). Everything else stays
// on the reference kernels. A float32 FULLY_CONNECTED of one row runs a product of the layer's own on
// packed weights instead of oneDNN's (matrix_vector.hpp); a swish epilogue over a large output, a pass of
// the layer's own after the primitive (swish_pass.hpp).
#include <omp.h>

#include <cstring>
#include <exception>
#include <optional>
#include <oneapi/dnnl/dnnl.hpp>
#include <type_traits>
#include <variant>
#include <vector>

#include "nnrt/driver/activation.hpp"
#include "nnrt/driver/ops/operand_types.hpp"
#include "plugins/cpu/dnnl/avx512.hpp"
#include "plugins/cpu/dnnl/depthwise_int8.hpp"
#include "plugins/cpu/dnnl/matrix_vector.hpp"
#include "plugins/cpu/dnnl/softmax_rows.hpp"
#include "plugins/cpu/dnnl/swish_pass.hpp"
#include "plugins/cpu/fast_path.hpp"

namespace nnrt::cpu::dnnl_layer {
namespace {

using driver::Result;
using dims = dnnl::memory::dims;
using dt = dnnl::memory::data_type;

constexpr int32_t kFloat32 = static_cast<int32_t>(driver::OperandType::TENSOR_FLOAT32);
constexpr int32_t kInt32 = static_cast<int32_t>(driver::OperandType::TENSOR_INT32);
constexpr int32_t kQuant8 = static_cast<int32_t>(driver::OperandType::TENSOR_QUANT8_ASYMM);
constexpr int32_t kQuant8Signed = static_cast<int32_t>(driver::OperandType::TENSOR_QUANT8_ASYMM_SIGNED);
constexpr int32_t kQuant8PerChannel = static_cast<int32_t>(driver::OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL);

Result<std::unique_ptr<FastKernel>> refuse(const std::string& why) { return driver::invalidArgument(why); }

// The row-major strides of `shape`.
dims plainStrides(const dims& shape) {
  dims strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  return strides;
}

// A plain (row-major) description of `shape`.
dnnl::memory::desc plainDesc(const dims& shape) {
  return dnnl::memory::desc(shape, dt::f32, plainStrides(shape));
}

// An NCHW-logical description of an activation stored NHWC or NCHW.
dnnl::memory::desc imageDesc(uint32_t n, uint32_t c, uint32_t h, uint32_t w, bool nchw) {
  return dnnl::memory::desc({n, c, h, w}, dt::f32,
                            nchw ? dnnl::memory::format_tag::nchw : dnnl::memory::format_tag::nhwc);
}

// oneDNN's own reference implementations ("ref:any", "ref_int8:any") are slower than the driver's
// reference kernels: a case only they serve stays on the driver's.
bool isReference(const char* impl) { return std::string(impl).rfind("ref", 0) == 0; }

// A window the primitives slide over the input: its dilated extent fits the padded input and is at
// most about twice the input, and so are the pads; a pool's window also never lies entirely in the
// padding (no value to take). Models beyond that are out of what oneDNN's kernels are made for (a pool
// 2^31 - 1 taps high took 12 seconds in them before failing); the reference kernels, which clip every
// window to the input, run them.
bool windowFits(uint64_t in, uint64_t filter, uint64_t dilation, uint64_t padBefore, uint64_t padAfter, bool pool) {
  const uint64_t extent = (std::max<uint64_t>(filter, 1) - 1) * std::max<uint64_t>(dilation, 1) + 1;
  const uint64_t bound = 2 * in + 2;
  if (pool && (padBefore >= extent || padAfter >= extent)) return false;
  return extent <= in + padBefore + padAfter && extent <= bound && padBefore <= bound && padAfter <= bound;
}

bool windowsFit(const ops::Conv2DParams& p) {
  return windowFits(p.inputHeight, p.filterHeight, p.dilationH, p.padTop, p.padBottom, false) &&
         windowFits(p.inputWidth, p.filterWidth, p.dilationW, p.padLeft, p.padRight, false);
}

bool windowsFit(const ops::Pool2DParams& p) {
  return windowFits(p.inputHeight, p.filterH, 1, p.padTop, p.padBottom, true) &&
         windowFits(p.inputWidth, p.filterW, 1, p.padLeft, p.padRight, true);
}
constexpr const char* onlyReference = "oneDNN has only its reference implementation for this case";

// The smallest output (in values) whose swish epilogue runs as the layer's own pass (swish_pass.hpp).
constexpr size_t kSwishPassMinimum = 16384;

// The oneDNN type of an 8-bit quantized NNAPI type.
dt int8Type(int32_t type) { return type == kQuant8 ? dt::u8 : dt::s8; }

// A quantized filter oneDNN can take: signed 8-bit with zero point 0, one scale or one per output
// channel (`channelDim` of the filter). Its scales (one, or one per output channel) or a reason.
Result<std::vector<float>> filterScales(const ops::Arg& filter, uint32_t channelDim, size_t channels) {
  if (!filter.hasValue()) return driver::invalidArgument("the filter must be a constant");
  if (filter.type == kQuant8PerChannel) {
    const nnrt_operand* o = filter.operand;
    if (o == nullptr || o->channel_scales == nullptr || o->channel_dim != channelDim || o->channel_scale_count != channels)
      return driver::invalidArgument("per-channel scales not along the output channels");
    return std::vector<float>(o->channel_scales, o->channel_scales + channels);
  }
  if (filter.type == kQuant8Signed && filter.zeroPoint == 0) return std::vector<float>{filter.scale};
  return driver::invalidArgument(
      "oneDNN takes signed 8-bit filters with zero point 0 only (this one is " + ops::typeName(filter.type) +
      " with zero point " + std::to_string(filter.zeroPoint) + ")");
}

// NNAPI's fused activation as a oneDNN post-op.
void appendActivation(dnnl::post_ops& post, driver::Activation activation) {
  switch (activation) {
    case driver::Activation::None:
      break;
    case driver::Activation::Relu:
      post.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
      break;
    case driver::Activation::Relu1:
      post.append_eltwise(1.0f, dnnl::algorithm::eltwise_clip, -1.0f, 1.0f);
      break;
    case driver::Activation::Relu6:
      post.append_eltwise(1.0f, dnnl::algorithm::eltwise_clip, 0.0f, 6.0f);
      break;
  }
}

// NNAPI's fused activation, then the epilogue (fast_path.hpp), as oneDNN post-ops.
dnnl::primitive_attr attrFor(driver::Activation activation, const Epilogue& epilogue = {}) {
  dnnl::post_ops post;
  appendActivation(post, activation);
  switch (epilogue.op) {
    case EpilogueOp::None:
      break;
    case EpilogueOp::Swish:  // x * logistic(alpha x), alpha 1
      post.append_eltwise(1.0f, dnnl::algorithm::eltwise_swish, 1.0f, 0.0f);
      break;
    case EpilogueOp::HardSwish:  // x * min(max(x + 3, 0), 6) / 6, as NNAPI's HARD_SWISH
      post.append_eltwise(1.0f, dnnl::algorithm::eltwise_hardswish, 0.0f, 0.0f);
      break;
    case EpilogueOp::Logistic:
      post.append_eltwise(1.0f, dnnl::algorithm::eltwise_logistic, 0.0f, 0.0f);
      break;
    case EpilogueOp::Tanh:
      post.append_eltwise(1.0f, dnnl::algorithm::eltwise_tanh, 0.0f, 0.0f);
      break;
    case EpilogueOp::LeakyRelu:  // x > 0 ? x : alpha x
      post.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, epilogue.alpha, 0.0f);
      break;
    case EpilogueOp::Multiply:  // alpha x
      post.append_eltwise(1.0f, dnnl::algorithm::eltwise_linear, epilogue.alpha, 0.0f);
      break;
    case EpilogueOp::Divide:  // x / alpha as x times its reciprocal (within an ulp of the division)
      post.append_eltwise(1.0f, dnnl::algorithm::eltwise_linear, 1.0f / epilogue.alpha, 0.0f);
      break;
  }
  if (epilogue.residual) {  // x + the destination's values (the residual), then the ADD's activation
    post.append_sum(1.0f);
    appendActivation(post, epilogue.activation);
  }
  dnnl::primitive_attr attr;
  attr.set_post_ops(post);
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

// NNAPI's filter of a convolution `type` as oneDNN's weights of `dataType`, in NNAPI's layout:
// CONV_2D [o][kh][kw][i]; DEPTHWISE_CONV_2D [1][kh][kw][i * multiplier] (`groups` is the
// multiplier); GROUPED_CONV_2D [o][kh][kw][i / groups]; TRANSPOSE_CONV_2D [o][kh][kw][i].
dnnl::memory::desc convWeights(int32_t type, const ops::Conv2DParams& p, uint32_t groups, dt dataType) {
  const dnnl::memory::dim o = p.outputChannels, i = p.inputChannels, kh = p.filterHeight, kw = p.filterWidth;
  switch (static_cast<driver::OperationType>(type)) {
    case driver::OperationType::DEPTHWISE_CONV_2D:  // {groups = i, multiplier, 1, kh, kw}
      return dnnl::memory::desc({i, groups, 1, kh, kw}, dataType, {groups, 1, 1, kw * o, o});
    case driver::OperationType::GROUPED_CONV_2D: {  // {groups, o / groups, i / groups, kh, kw}
      const dnnl::memory::dim og = o / groups, ig = i / groups;
      return dnnl::memory::desc({groups, og, ig, kh, kw}, dataType,
                                {og * kh * kw * ig, kh * kw * ig, 1, kw * ig, ig});
    }
    default:  // {o, i, kh, kw}
      return dnnl::memory::desc({o, i, kh, kw}, dataType, {kh * kw * i, 1, kw * i, i});
  }
}

// The convolution geometry of CONV_2D, DEPTHWISE_CONV_2D, GROUPED_CONV_2D or TRANSPOSE_CONV_2D.
const ops::Conv2DParams& convolutionParams(driver::OperationType kind, const OpParams& params) {
  switch (kind) {
    case driver::OperationType::DEPTHWISE_CONV_2D:
      return std::get<ops::DepthwiseConv2DParams>(params);
    case driver::OperationType::GROUPED_CONV_2D:
      return std::get<ops::GroupedConv2DParams>(params);
    case driver::OperationType::TRANSPOSE_CONV_2D:
      return std::get<ops::TransposeConv2DParams>(params);
    default:
      return std::get<ops::Conv2DParams>(params);
  }
}

using ConvolutionPd =
    std::variant<dnnl::convolution_forward::primitive_desc, dnnl::deconvolution_forward::primitive_desc>;

// The primitive descriptor of convolution `type` (a deconvolution for TRANSPOSE_CONV_2D). A
// transposed convolution's trailing pads are what its output size leaves: refused when negative
// (NNAPI's implicit padding may crop the output that way).
Result<ConvolutionPd> convolutionDesc(int32_t type, const ops::Conv2DParams& p, const dnnl::memory::desc& src,
                                      const dnnl::memory::desc& weights, const dnnl::memory::desc& bias,
                                      const dnnl::memory::desc& dst, const dnnl::primitive_attr& attr,
                                      const dnnl::engine& engine) {
  const dims strides{p.strideH, p.strideW};
  const dims padL{p.padTop, p.padLeft};
  if (type == static_cast<int32_t>(driver::OperationType::TRANSPOSE_CONV_2D)) {
    const dnnl::memory::dim padB =
        (dnnl::memory::dim{p.inputHeight} - 1) * p.strideH + p.filterHeight - p.padTop - p.outputHeight;
    const dnnl::memory::dim padR =
        (dnnl::memory::dim{p.inputWidth} - 1) * p.strideW + p.filterWidth - p.padLeft - p.outputWidth;
    if (padB < 0 || padR < 0)
      return driver::invalidArgument("the output is larger than the transposed window covers");
    const dnnl::deconvolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                                                 dnnl::algorithm::deconvolution_direct, src, weights, bias,
                                                 dst, strides, padL, {padB, padR});
    return ConvolutionPd(dnnl::deconvolution_forward::primitive_desc(desc, attr, engine));
  }
  const dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src, weights, bias, dst,
      strides, {p.dilationH - 1, p.dilationW - 1}, padL, {p.padBottom, p.padRight});
  return ConvolutionPd(dnnl::convolution_forward::primitive_desc(desc, attr, engine));
}

class Layer;

// A tensor of the operation that an execution supplies: op input `index` (or the output) as the
// primitive's argument `role`, re-pointed at every run.
struct Bound {
  int role;
  size_t index;
  dnnl::memory::desc desc;
};

// Input 0 as the primitive's source.
std::vector<Bound> source(const dnnl::memory::desc& desc) { return {{DNNL_ARG_SRC, 0, desc}}; }

// One prepared primitive. The bound inputs and the output are re-pointed at every run; the rest
// (weights, bias, zero points, scratchpad) is owned.
class Kernel final : public FastKernel {
 public:
  Kernel(Layer& layer, dnnl::primitive primitive, const std::vector<Bound>& inputs, const dnnl::memory::desc& dst,
         const dnnl::memory::desc& scratch, std::string name);

  void addArgument(int role, const dnnl::memory& memory) {
    owned_.push_back(memory);
    args_.push_back({role, memory.get()});
  }
  // Runs the primitive on its own copies of the source and destination in the layouts `src` and
  // `dst` (e.g. blocked nChw16c): each run reorders the bound input in and the output out.
  void stage(const dnnl::memory::desc& src, const dnnl::memory::desc& dst);
  // Only the source, which the primitive reads as `gathered`: each run copies every strideH-th row
  // and strideW-th column of the bound image (NHWC or NCHW, as `gathered`) there.
  void gatherSource(const dnnl::memory::desc& gathered, uint32_t strideH, uint32_t strideW);
  // FastLayer::chain: `producer` writes its output in the blocked layout it computes in, and
  // `consumer` reads it so, when both stage NHWC <-> the same nChw16c layout between them.
  static bool chain(Kernel& producer, Kernel& consumer);
  // Points the primitive's arguments that used `from` at `to`.
  void retarget(const dnnl::memory& from, const dnnl::memory& to);
  const std::string& name() const override { return name_; }
  Result<void> run(const KernelCall& call) override;

 private:
  Layer& layer_;
  dnnl::primitive primitive_;
  std::vector<std::pair<size_t, dnnl::memory>> inputs_;  // op input index, its memory
  dnnl::memory dst_, scratch_;
  std::vector<dnnl::memory> owned_;
  std::vector<dnnl_exec_arg_t> args_;
  // stage(): the copies before and after the primitive. NHWC to and from nChw16c (the blocked
  // layout oneDNN's Winograd takes) is a loop of the layer's own; anything else a oneDNN reorder.
  struct Restage {
    dnnl::memory from, to;
    dnnl::primitive reorder;  // null for the layer's own loops
    std::vector<dnnl_exec_arg_t> args;
    bool toBlocked = false;
    uint32_t strideH = 0, strideW = 0;  // gatherSource's (then not NHWC <-> nChw16c)
  };
  dnnl_status_t gather(const Restage& r);
  Restage restage(const dnnl::memory& from, const dnnl::memory& to);
  dnnl_status_t run(Restage& r);
  std::vector<Restage> stageIn_, stageOut_;
  std::string name_;
};

// TRANSPOSE_CONV_2D whose windows do not overlap (stride = filter size, no padding, NHWC: a U-Net's
// or a feature pyramid's 2x2 stride-2 upsampling): each input pixel writes its own kh x kw block of
// the output, the product of its C values with a [C, kh * kw * M] matrix. One inner product for every
// pixel into the execution's scratch memory, rows ordered (kh, kw, M), then each row's kh pieces of
// kw * M values copied to their places. oneDNN's deconvolution ran such a layer (128x128x32 to
// 256x256x16) at 50 GFLOP/s; measurements in docs/cpu-performance.md.
class PatchDeconvolution final : public FastKernel {
 public:
  PatchDeconvolution(std::unique_ptr<Kernel> product, const ops::Conv2DParams& p)
      : product_(std::move(product)),
        rows_(static_cast<size_t>(p.batches) * p.inputHeight),
        width_(p.inputWidth),
        kh_(p.filterHeight),
        piece_(static_cast<size_t>(p.filterWidth) * p.outputChannels),
        name_(product_->name() + " + block copies") {}
  const std::string& name() const override { return name_; }
  Result<void> run(const KernelCall& call) override {
    const size_t rowValues = width_ * kh_ * piece_;  // one input row's products
    auto* products = static_cast<float*>(call.scratch.allocate(rows_ * rowValues * sizeof(float)));
    void* const inner[1] = {products};
    NNRT_RETURN_IF_ERROR(product_->run(KernelCall{call.op, inner, call.params, call.scratch}));
    auto* out = static_cast<float*>(call.outputData[0]);
    const auto rows = static_cast<std::ptrdiff_t>(rows_);
    const size_t width = width_, kh = kh_, piece = piece_;
    // Input row r (batch n, row h) becomes output rows r * kh + i: pixel w's piece i lands at w * piece.
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t r = 0; r < rows; ++r) {
      const float* from = products + static_cast<size_t>(r) * rowValues;
      float* to = out + static_cast<size_t>(r) * rowValues;
      for (size_t w = 0; w < width; ++w)
        for (size_t i = 0; i < kh; ++i)
          std::memcpy(to + (i * width + w) * piece, from + (w * kh + i) * piece, piece * sizeof(float));
    }
    return {};
  }

 private:
  std::unique_ptr<Kernel> product_;
  size_t rows_, width_, kh_, piece_;
  std::string name_;
};

class Layer final : public FastLayer {
 public:
  explicit Layer(const FastLayerOptions& options)
      : threads_(options.threads), winograd_(options.winograd), engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {
    const dnnl_version_t* v = dnnl_version();
    description_ = "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
                   std::to_string(v->patch) + " on OpenMP, " + std::to_string(threads_) + " threads" +
                   (winograd_ ? "" : ", Winograd off");
  }

  const std::string& description() const override { return description_; }
  const detail::ParallelExecutor* executor() const override { return &executor_; }
  detail::SgemmFn sgemm() const override { return &sgemmOneThread; }
  std::unique_ptr<detail::PreparedProducts> prepareProducts(std::span<const ConstantMatrix> matrices,
                                                            SharedForms* shared) override {
    if (matrices.empty() || !avx512Supported()) return nullptr;
    std::vector<std::shared_ptr<const PackedMatrix>> packed;
    for (const ConstantMatrix& m : matrices) packed.push_back(packedForm(m, nullptr, shared));
    return std::make_unique<PackedProducts>(std::move(packed), threads_);
  }
  bool chain(FastKernel& producer, FastKernel& consumer) override {
    auto* from = dynamic_cast<Kernel*>(&producer);
    auto* to = dynamic_cast<Kernel*>(&consumer);
    return from != nullptr && to != nullptr && Kernel::chain(*from, *to);
  }

  Result<std::unique_ptr<FastKernel>> prepare(const ops::OpArgs& op, const OpParams& params,
                                              const KernelOptions& options) override {
    const Epilogue& epilogue = options.epilogue;
    if (!options.strided.empty() && op.type != static_cast<int32_t>(driver::OperationType::BATCH_MATMUL))
      return refuse("strided operands are taken by BATCH_MATMUL only");
    if (op.inputs.empty() || op.outputs.size() != 1) return refuse("not an operation this layer takes");
    const int32_t type = op.inputs[0].type;
    if (type != kFloat32 && type != kQuant8 && type != kQuant8Signed)
      return refuse("only float32 and 8-bit quantized tensors take the oneDNN path");
    if (!epilogue.empty()) {
      using T = driver::OperationType;
      const auto t = static_cast<T>(op.type);
      if (type != kFloat32 || (t != T::CONV_2D && t != T::DEPTHWISE_CONV_2D && t != T::GROUPED_CONV_2D &&
                               t != T::TRANSPOSE_CONV_2D && t != T::FULLY_CONNECTED && t != T::BATCH_MATMUL))
        return refuse(std::string("no epilogue ") + epilogueName(epilogue) + " for this operation");
      if (epilogue.residual && t != T::CONV_2D)
        return refuse("a residual ADD is taken after a CONV_2D only");
    }
    // Swish as a pass of the layer's own after the primitive (swish_pass.hpp), faster than oneDNN's
    // post-op where the output is large enough to pay for the pass's parallel region (about 1 us: an
    // excitation's 1x1 products keep the post-op); the same order of operations, as nothing follows the
    // swish (no residual ADD).
    size_t outputCount = 1;
    for (uint32_t d : op.outputs[0].dims) outputCount *= d;
    if (epilogue.op == EpilogueOp::Swish && !epilogue.residual && outputCount >= kSwishPassMinimum &&
        avx512Supported()) {
      KernelOptions plain = options;
      plain.epilogue.op = EpilogueOp::None;
      NNRT_ASSIGN_OR_RETURN(std::unique_ptr<FastKernel> kernel, prepare(op, params, plain));
      return std::unique_ptr<FastKernel>(std::make_unique<SwishAfter>(std::move(kernel), outputCount, threads_));
    }
    const bool fits = std::visit(
        [](const auto& q) {
          using P = std::decay_t<decltype(q)>;
          if constexpr (std::is_same_v<P, ops::Conv2DParams> || std::is_same_v<P, ops::DepthwiseConv2DParams> ||
                        std::is_same_v<P, ops::GroupedConv2DParams> || std::is_same_v<P, ops::Pool2DParams>) {
            return windowsFit(q);
          } else {
            return true;
          }
        },
        params);
    if (!fits) return refuse("a window or padding far larger than the input");
    try {
      omp_set_num_threads(threads_);  // the primitive plans its work for this many threads
      if (op.type == static_cast<int32_t>(driver::OperationType::TRANSPOSE))
        return transpose(op, std::get<ops::TransposeParams>(params));
      if (type != kFloat32) return quantized(op, params);
      switch (static_cast<driver::OperationType>(op.type)) {
        case driver::OperationType::CONV_2D:
          return convolution(op, std::get<ops::Conv2DParams>(params), 1, epilogue);
        case driver::OperationType::DEPTHWISE_CONV_2D: {
          const auto& p = std::get<ops::DepthwiseConv2DParams>(params);
          return convolution(op, p, p.depthMultiplier, epilogue);
        }
        case driver::OperationType::GROUPED_CONV_2D: {
          const auto& p = std::get<ops::GroupedConv2DParams>(params);
          return convolution(op, p, p.groups, epilogue);
        }
        case driver::OperationType::TRANSPOSE_CONV_2D:
          return convolution(op, std::get<ops::TransposeConv2DParams>(params), 1, epilogue);
        case driver::OperationType::FULLY_CONNECTED:
          return fullyConnected(op, std::get<ops::FullyConnectedParams>(params), options);
        case driver::OperationType::BATCH_MATMUL:
          return batchMatmul(op, std::get<ops::BatchMatmulParams>(params), options);
        case driver::OperationType::AVERAGE_POOL_2D:
          return pool(std::get<ops::Pool2DParams>(params), dnnl::algorithm::pooling_avg_exclude_padding);
        case driver::OperationType::MAX_POOL_2D:
          return pool(std::get<ops::Pool2DParams>(params), dnnl::algorithm::pooling_max);
        case driver::OperationType::SOFTMAX:
          return softmax(op, std::get<ops::SoftmaxParams>(params));
        case driver::OperationType::ADD:
          return binary(op, dnnl::algorithm::binary_add, true, std::get<ops::BinaryParams>(params).activation);
        case driver::OperationType::MUL:
          return binary(op, dnnl::algorithm::binary_mul, true, std::get<ops::BinaryParams>(params).activation);
        case driver::OperationType::SUB:
          return binary(op, dnnl::algorithm::binary_sub, false, std::get<ops::BinaryParams>(params).activation);
        case driver::OperationType::DIV:
          return binary(op, dnnl::algorithm::binary_div, false, std::get<ops::BinaryParams>(params).activation);
        case driver::OperationType::MAXIMUM:
          return binary(op, dnnl::algorithm::binary_max, true, driver::Activation::None);
        case driver::OperationType::MINIMUM:
          return binary(op, dnnl::algorithm::binary_min, true, driver::Activation::None);
        case driver::OperationType::RELU:
          return eltwise(op, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
        case driver::OperationType::RELU1:
          return eltwise(op, dnnl::algorithm::eltwise_clip, -1.0f, 1.0f);
        case driver::OperationType::RELU6:
          return eltwise(op, dnnl::algorithm::eltwise_clip, 0.0f, 6.0f);
        case driver::OperationType::LOGISTIC:
          return eltwise(op, dnnl::algorithm::eltwise_logistic, 0.0f, 0.0f);
        case driver::OperationType::TANH:
          return eltwise(op, dnnl::algorithm::eltwise_tanh, 0.0f, 0.0f);
        case driver::OperationType::HARD_SWISH:
          return eltwise(op, dnnl::algorithm::eltwise_hardswish, 0.0f, 0.0f);
        case driver::OperationType::ELU: {
          if (op.inputs.size() < 2 || !op.inputs[1].hasValue() ||
              op.inputs[1].type != static_cast<int32_t>(driver::OperandType::FLOAT32))
            return refuse("ELU's alpha must be a float32 constant");
          return eltwise(op, dnnl::algorithm::eltwise_elu, op.inputs[1].scalar<float>(), 0.0f);
        }
        case driver::OperationType::PRELU:
          return prelu(op);
        default:
          return refuse("no oneDNN primitive is used for this operation");
      }
    } catch (const dnnl::error& e) {
      return refuse(std::string("oneDNN has no primitive for it: ") + e.what());
    } catch (const std::bad_variant_access&) {
      return refuse("parameters of an unexpected kind");  // a driver bug; the reference kernel runs
    }
  }

  // 8-bit quantized convolutions (CONV_2D, DEPTHWISE_CONV_2D, GROUPED_CONV_2D, TRANSPOSE_CONV_2D) and
  // FULLY_CONNECTED: int8 primitives whose output scales (input scale x filter scale / output scale,
  // per channel) and zero points are attributes, the int32 bias added to the accumulator as NNAPI
  // defines it. oneDNN rounds to nearest even where
  // the reference kernels round half away from zero: results may differ by one step.
  Result<std::unique_ptr<FastKernel>> quantized(const ops::OpArgs& op, const OpParams& params) {
    const ops::Arg& input = op.inputs[0];
    const ops::Arg& output = op.outputs[0];
    const auto kind = static_cast<driver::OperationType>(op.type);
    if (kind != driver::OperationType::CONV_2D && kind != driver::OperationType::DEPTHWISE_CONV_2D &&
        kind != driver::OperationType::GROUPED_CONV_2D && kind != driver::OperationType::TRANSPOSE_CONV_2D &&
        kind != driver::OperationType::FULLY_CONNECTED)
      return refuse("no quantized oneDNN primitive is used for this operation");
    if (output.type != input.type) return refuse("the output type differs from the input type");
    const ops::Arg& bias = op.inputs[2];
    if (bias.type != kInt32 || !bias.hasValue()) return refuse("the bias must be an int32 constant");
    const dt data = int8Type(input.type);
    const bool depthwise = kind == driver::OperationType::DEPTHWISE_CONV_2D;

    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    // oneDNN 2.6 takes zero points at execution only (DNNL_RUNTIME_S32_VAL): each kernel owns them.
    attr.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
    attr.set_zero_points(DNNL_ARG_DST, 0, {DNNL_RUNTIME_S32_VAL});
    auto addZeroPoints = [&](Kernel& kernel) {
      const dnnl::memory::desc one({1}, dt::s32, dnnl::memory::format_tag::a);
      kernel.addArgument(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, copied(one, &input.zeroPoint));
      kernel.addArgument(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, copied(one, &output.zeroPoint));
    };
    auto scalesFor = [&](const std::vector<float>& filter) {
      std::vector<float> scales(filter.size());
      for (size_t c = 0; c < filter.size(); ++c) scales[c] = input.scale * filter[c] / output.scale;
      return scales;
    };
    // The activation in the scaled domain, before the output zero point is added.
    auto addActivation = [&](driver::Activation activation) {
      const driver::FloatRange range = driver::activationRange(activation);
      if (activation == driver::Activation::None) return;
      dnnl::post_ops post;
      if (activation == driver::Activation::Relu) {
        post.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
      } else {
        post.append_eltwise(1.0f, dnnl::algorithm::eltwise_clip, range.min / output.scale, range.max / output.scale);
      }
      attr.set_post_ops(post);
    };

    if (kind == driver::OperationType::FULLY_CONNECTED) {
      const auto& p = std::get<ops::FullyConnectedParams>(params);
      NNRT_ASSIGN_OR_RETURN(auto filter, filterScales(op.inputs[1], 0, p.numUnits));
      const dnnl::memory::dim m = p.batchSize, k = p.inputSize, n = p.numUnits;
      const std::vector<float> scales = scalesFor(filter);
      attr.set_output_scales(scales.size() > 1 ? 1 << 1 : 0, scales);
      addActivation(p.activation);
      const dnnl::memory::desc src({m, k}, data, dnnl::memory::format_tag::ab);
      const dnnl::memory::desc dst({m, n}, data, dnnl::memory::format_tag::ab);
      const dnnl::memory::desc userWeights({k, n}, dt::s8, dnnl::memory::format_tag::ba);  // NNAPI [n][k]
      const dnnl::memory::desc anyWeights({k, n}, dt::s8, dnnl::memory::format_tag::any);
      const dnnl::memory::desc biasDesc({1, n}, dt::s32, dnnl::memory::format_tag::ab);
      const dnnl::matmul::desc desc(src, anyWeights, biasDesc, dst);
      const dnnl::matmul::primitive_desc pd(desc, attr, engine_);
      if (isReference(pd.impl_info_str())) return refuse(onlyReference);
      auto kernel = std::make_unique<Kernel>(*this, dnnl::matmul(pd), source(src), dst, pd.scratchpad_desc(),
                                             std::string("oneDNN ") + pd.impl_info_str());
      kernel->addArgument(DNNL_ARG_WEIGHTS, reordered(userWeights, op.inputs[1].data, pd.weights_desc()));
      kernel->addArgument(DNNL_ARG_BIAS, copied(biasDesc, bias.data));
      addZeroPoints(*kernel);
      return std::unique_ptr<FastKernel>(std::move(kernel));
    }

    const ops::Conv2DParams& p = convolutionParams(kind, params);
    const uint32_t groups = depthwise ? std::get<ops::DepthwiseConv2DParams>(params).depthMultiplier
                            : kind == driver::OperationType::GROUPED_CONV_2D
                                ? std::get<ops::GroupedConv2DParams>(params).groups
                                : 1;
    NNRT_ASSIGN_OR_RETURN(auto filter, filterScales(op.inputs[1], depthwise ? 3 : 0, p.outputChannels));
    const std::vector<float> scales = scalesFor(filter);
    // A depthwise 3x3 or 5x5 window over an NHWC image: the layer's own kernel (depthwise_int8.hpp).
    // Below 14 output columns its per-row work (rearranging each input row) costs more than it saves:
    // MobileNet's 7x7 layers took 16.3 and 20.5 us against oneDNN's 13.5 and 18.8.
    if (depthwise && groups == 1 && !p.nchw && p.dilationH == 1 && p.dilationW == 1 && p.outputWidth >= 14 &&
        p.filterHeight == p.filterWidth && (p.filterHeight == 3 || p.filterHeight == 5) &&
        p.padTop < p.filterHeight && p.padLeft < p.filterWidth && p.strideW <= 2 && avx512VnniVbmiSupported()) {
      const bool isSigned = input.type == kQuant8Signed;
      const driver::QuantizedRange range =
          driver::activationRange(p.activation, output.scale, output.zeroPoint, isSigned ? -128 : 0, isSigned ? 127 : 255);
      return std::unique_ptr<FastKernel>(std::make_unique<DepthwiseInt8Kernel>(
          p, isSigned, static_cast<const int8_t*>(op.inputs[1].data), static_cast<const int32_t*>(bias.data), scales,
          input.zeroPoint, output.zeroPoint, range.min, range.max, threads_));
    }
    attr.set_output_scales(scales.size() > 1 ? 1 << 1 : 0, scales);
    addActivation(p.activation);
    auto image = [&](uint32_t c, uint32_t h, uint32_t w) {
      return dnnl::memory::desc({p.batches, c, h, w}, data,
                                p.nchw ? dnnl::memory::format_tag::nchw : dnnl::memory::format_tag::nhwc);
    };
    const auto src = image(p.inputChannels, p.inputHeight, p.inputWidth);
    const auto dst = image(p.outputChannels, p.outputHeight, p.outputWidth);
    const dnnl::memory::desc userWeights = convWeights(op.type, p, groups, dt::s8);
    const dnnl::memory::desc anyWeights(userWeights.dims(), dt::s8, dnnl::memory::format_tag::any);
    const dnnl::memory::desc biasDesc({p.outputChannels}, dt::s32, dnnl::memory::format_tag::a);
    NNRT_ASSIGN_OR_RETURN(auto pd,
                          convolutionDesc(op.type, p, src, anyWeights, biasDesc, dst, attr, engine_));
    NNRT_ASSIGN_OR_RETURN(auto kernel, convolutionKernel(pd, src, dst, userWeights, op.inputs[1].data,
                                                         copied(biasDesc, bias.data)));
    addZeroPoints(static_cast<Kernel&>(*kernel));
    return kernel;
  }

  int threads() const { return threads_; }
  dnnl::stream& stream() { return stream_; }

 private:
  // CONV_2D, DEPTHWISE_CONV_2D (a group per input channel, `groups` = its multiplier),
  // GROUPED_CONV_2D (`groups` groups) and TRANSPOSE_CONV_2D (a deconvolution).
  Result<std::unique_ptr<FastKernel>> convolution(const ops::OpArgs& op, const ops::Conv2DParams& p,
                                                  uint32_t groups, const Epilogue& epilogue) {
    const ops::Arg& filter = op.inputs[1];
    const ops::Arg& bias = op.inputs[2];
    if (filter.type != kFloat32 || !filter.hasValue() || !bias.hasValue())
      return refuse("the filter and bias must be float32 constants");
    const auto src = imageDesc(p.batches, p.inputChannels, p.inputHeight, p.inputWidth, p.nchw);
    const auto dst = imageDesc(p.batches, p.outputChannels, p.outputHeight, p.outputWidth, p.nchw);
    const dnnl::memory::desc userWeights = convWeights(op.type, p, groups, dt::f32);
    const dnnl::memory::desc anyWeights(userWeights.dims(), dt::f32, dnnl::memory::format_tag::any);
    const dnnl::memory::desc biasDesc({p.outputChannels}, dt::f32, dnnl::memory::format_tag::a);
    if (op.type == static_cast<int32_t>(driver::OperationType::TRANSPOSE_CONV_2D) && !p.nchw &&
        p.strideH == p.filterHeight && p.strideW == p.filterWidth && p.padTop == 0 && p.padLeft == 0 &&
        p.outputHeight == p.inputHeight * p.filterHeight && p.outputWidth == p.inputWidth * p.filterWidth)
      return patchDeconvolution(p, filter.data, bias.data, epilogue);
    if (op.type == static_cast<int32_t>(driver::OperationType::CONV_2D) && winogradPays(p)) {
      // Winograd computes into a blocked copy of the output, which does not hold the residual: when it
      // serves the rest, the driver asks again without the ADD, which Winograd's saving outweighs.
      if (epilogue.residual) {
        Epilogue rest = epilogue;
        rest.residual = false;
        if (winogradDesc(p, src, dst, userWeights, biasDesc, rest)) return refuse("Winograd pays more than a fused residual ADD");
      } else if (auto kernel = winograd(p, src, dst, userWeights, filter.data, biasDesc, bias.data, epilogue)) {
        return kernel;
      }
    }
    if (op.type == static_cast<int32_t>(driver::OperationType::CONV_2D) && readsStridedPixels(p))
      return gatheredConvolution(op, p, src, dst, userWeights, biasDesc, epilogue);
    NNRT_ASSIGN_OR_RETURN(auto pd, convolutionDesc(op.type, p, src, anyWeights, biasDesc, dst,
                                                   attrFor(p.activation, epilogue), engine_));
    return convolutionKernel(pd, src, dst, userWeights, filter.data, copied(biasDesc, bias.data));
  }

  // A 1x1 convolution with strides and no padding (a residual network's projection shortcut) reads
  // only every strideH-th row and strideW-th column of its input.
  static bool readsStridedPixels(const ops::Conv2DParams& p) {
    return p.filterHeight == 1 && p.filterWidth == 1 && (p.strideH > 1 || p.strideW > 1) && p.padTop == 0 &&
           p.padBottom == 0 && p.padLeft == 0 && p.padRight == 0 &&
           p.outputHeight == (p.inputHeight - 1) / p.strideH + 1 && p.outputWidth == (p.inputWidth - 1) / p.strideW + 1;
  }

  // Such a convolution on a dense copy of the pixels it reads, with unit strides: oneDNN 2.6's
  // `brgconv_1x1` runs some strided layers at about half the speed of the same product on unit
  // strides (ResNet-50's and ResNeXt's 512 -> 1024 shortcut from 28x28 to 14x14: 1736 against 970 us
  // on 2 cores), and never faster (docs/cpu-performance.md, "Strided 1x1 convolutions"). The copy
  // costs about 6 us for that layer's 14x14x512 (Kernel::gather).
  Result<std::unique_ptr<FastKernel>> gatheredConvolution(const ops::OpArgs& op, const ops::Conv2DParams& p,
                                                          const dnnl::memory::desc& src, const dnnl::memory::desc& dst,
                                                          const dnnl::memory::desc& userWeights,
                                                          const dnnl::memory::desc& biasDesc, const Epilogue& epilogue) {
    const auto gathered = imageDesc(p.batches, p.inputChannels, p.outputHeight, p.outputWidth, p.nchw);
    ops::Conv2DParams unit = p;
    unit.inputHeight = p.outputHeight;
    unit.inputWidth = p.outputWidth;
    unit.strideH = unit.strideW = 1;
    const dnnl::memory::desc anyWeights(userWeights.dims(), dt::f32, dnnl::memory::format_tag::any);
    NNRT_ASSIGN_OR_RETURN(auto pd, convolutionDesc(op.type, unit, gathered, anyWeights, biasDesc, dst,
                                                   attrFor(p.activation, epilogue), engine_));
    NNRT_ASSIGN_OR_RETURN(auto kernel, convolutionKernel(pd, src, dst, userWeights, op.inputs[1].data,
                                                         copied(biasDesc, op.inputs[2].data)));
    static_cast<Kernel&>(*kernel).gatherSource(gathered, p.strideH, p.strideW);
    return kernel;
  }

  // PatchDeconvolution: the inner product of every input pixel with the filter as [kh * kw * M, C]
  // (rows ordered (kh, kw, M); NNAPI's filter is [M][kh][kw][C]), the bias repeated per block position.
  Result<std::unique_ptr<FastKernel>> patchDeconvolution(const ops::Conv2DParams& p, const void* filter,
                                                         const void* bias, const Epilogue& epilogue) {
    const dnnl::memory::dim pixels = dnnl::memory::dim{p.batches} * p.inputHeight * p.inputWidth;
    const dnnl::memory::dim c = p.inputChannels, m = p.outputChannels, blocks = dnnl::memory::dim{p.filterHeight} * p.filterWidth;
    const auto* f = static_cast<const float*>(filter);
    const auto* b = static_cast<const float*>(bias);
    std::vector<float> weights(static_cast<size_t>(blocks * m * c)), biases(static_cast<size_t>(blocks * m));
    for (dnnl::memory::dim k = 0; k < blocks; ++k)
      for (dnnl::memory::dim o = 0; o < m; ++o) {
        std::memcpy(&weights[static_cast<size_t>((k * m + o) * c)], f + (o * blocks + k) * c, static_cast<size_t>(c) * sizeof(float));
        biases[static_cast<size_t>(k * m + o)] = b[o];
      }
    const auto src = plainDesc({pixels, c});
    const auto dst = plainDesc({pixels, blocks * m});
    const dnnl::memory::desc anyWeights({blocks * m, c}, dt::f32, dnnl::memory::format_tag::any);
    const dnnl::memory::desc biasDesc({blocks * m}, dt::f32, dnnl::memory::format_tag::a);
    const dnnl::inner_product_forward::desc desc(dnnl::prop_kind::forward_inference, src, anyWeights, biasDesc, dst);
    const dnnl::inner_product_forward::primitive_desc pd(desc, attrFor(p.activation, epilogue), engine_);
    if (isReference(pd.impl_info_str())) return refuse(onlyReference);
    auto product = std::make_unique<Kernel>(*this, dnnl::inner_product_forward(pd), source(src), dst, pd.scratchpad_desc(),
                                            std::string("oneDNN ") + pd.impl_info_str());
    product->addArgument(DNNL_ARG_WEIGHTS, reordered(plainDesc({blocks * m, c}), weights.data(), pd.weights_desc()));
    product->addArgument(DNNL_ARG_BIAS, copied(biasDesc, biases.data()));
    return std::unique_ptr<FastKernel>(std::make_unique<PatchDeconvolution>(std::move(product), p));
  }

  // Winograd F(2x2, 3x3) computes a 3x3 stride-1 convolution with 2.25 times fewer multiplications
  // than the direct method; measured here, its error against a float64 reference is no larger than
  // the direct kernel's. It wins once the layer is large enough to amortise its transforms and the
  // copies its blocked layout costs: measured (BM_Conv3x3Winograd, docs/cpu-performance.md), 0.63 to
  // 0.77 of the direct kernel's time from 64 channels, 14x14 pixels and 10^8 operations on; slower
  // below (14x14 with 64 channels, 28x28 with 32, 16 channels, 7x7 with 256). In a model (DenseNet's
  // 128 -> 32 layers), 32 output channels from 64 input ones and 5 x 10^7 operations win too: 0.82 at
  // 56x56, 0.89 at 28x28.
  bool winogradPays(const ops::Conv2DParams& p) const {
    const double operations = 18.0 * p.inputChannels * p.outputChannels * p.outputHeight * p.outputWidth;
    return winograd_ && p.filterHeight == 3 && p.filterWidth == 3 && p.strideH == 1 && p.strideW == 1 &&
           p.dilationH == 1 && p.dilationW == 1 && p.inputChannels >= 64 && p.outputChannels >= 32 &&
           p.outputHeight >= 14 && p.outputWidth >= 14 && operations * p.batches >= 5e7;
  }

  // oneDNN's Winograd primitive for these shapes and post-ops, if it has one that is not its reference.
  std::optional<dnnl::convolution_forward::primitive_desc> winogradDesc(const ops::Conv2DParams& p,
                                                                       const dnnl::memory::desc& src,
                                                                       const dnnl::memory::desc& dst,
                                                                       const dnnl::memory::desc& userWeights,
                                                                       const dnnl::memory::desc& biasDesc,
                                                                       const Epilogue& epilogue) {
    auto any = [](const dnnl::memory::desc& d) { return dnnl::memory::desc(d.dims(), dt::f32, dnnl::memory::format_tag::any); };
    try {
      const dnnl::convolution_forward::desc desc(
          dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_winograd, any(src), any(userWeights),
          biasDesc, any(dst), {1, 1}, {0, 0}, {p.padTop, p.padLeft}, {p.padBottom, p.padRight});
      dnnl::convolution_forward::primitive_desc pd(desc, attrFor(p.activation, epilogue), engine_);
      if (isReference(pd.impl_info_str())) return std::nullopt;
      return pd;
    } catch (const dnnl::error&) {
      return std::nullopt;
    }
  }

  // oneDNN's Winograd convolution, on blocked copies of the activations (it takes no NHWC), or
  // null when oneDNN has none for these shapes (oneDNN 2.6: AVX-512 and channel counts that are
  // multiples of 16); the direct kernel is used then.
  std::unique_ptr<FastKernel> winograd(const ops::Conv2DParams& p, const dnnl::memory::desc& src,
                                       const dnnl::memory::desc& dst, const dnnl::memory::desc& userWeights,
                                       const void* weights, const dnnl::memory::desc& biasDesc, const void* bias,
                                       const Epilogue& epilogue) {
    const auto found = winogradDesc(p, src, dst, userWeights, biasDesc, epilogue);
    if (!found) return nullptr;
    const dnnl::convolution_forward::primitive_desc& pd = *found;
    try {
      auto kernel = std::make_unique<Kernel>(*this, dnnl::convolution_forward(pd), source(src), dst,
                                             pd.scratchpad_desc(), std::string("oneDNN ") + pd.impl_info_str());
      // oneDNN reorders into its Winograd weight format from plain OIHW only.
      const dnnl::memory plain = reordered(
          userWeights, weights,
          dnnl::memory::desc(userWeights.dims(), dt::f32, dnnl::memory::format_tag::oihw));
      kernel->addArgument(DNNL_ARG_WEIGHTS, reordered(plain.get_desc(), plain.get_data_handle(), pd.weights_desc()));
      kernel->addArgument(DNNL_ARG_BIAS, copied(biasDesc, bias));
      kernel->stage(pd.src_desc(), pd.dst_desc());
      return kernel;
    } catch (const dnnl::error&) {
      return nullptr;
    }
  }

  // The kernel of a convolution or deconvolution primitive descriptor, its weights reordered from
  // `userWeights` at `weights`.
  template <class Pd>
  Result<std::unique_ptr<FastKernel>> convolutionKernelOf(const Pd& pd, const dnnl::memory::desc& src,
                                                          const dnnl::memory::desc& dst,
                                                          const dnnl::memory::desc& userWeights,
                                                          const void* weights, const dnnl::memory& bias) {
    if (isReference(pd.impl_info_str())) return refuse(onlyReference);
    using Primitive = std::conditional_t<std::is_same_v<Pd, dnnl::deconvolution_forward::primitive_desc>,
                                         dnnl::deconvolution_forward, dnnl::convolution_forward>;
    auto kernel = std::make_unique<Kernel>(*this, Primitive(pd), source(src), dst, pd.scratchpad_desc(),
                                           std::string("oneDNN ") + pd.impl_info_str());
    kernel->addArgument(DNNL_ARG_WEIGHTS, reordered(userWeights, weights, pd.weights_desc()));
    kernel->addArgument(DNNL_ARG_BIAS, bias);
    return std::unique_ptr<FastKernel>(std::move(kernel));
  }
  Result<std::unique_ptr<FastKernel>> convolutionKernel(const ConvolutionPd& pd,
                                                        const dnnl::memory::desc& src,
                                                        const dnnl::memory::desc& dst,
                                                        const dnnl::memory::desc& userWeights,
                                                        const void* weights, const dnnl::memory& bias) {
    return std::visit(
        [&](const auto& d) { return convolutionKernelOf(d, src, dst, userWeights, weights, bias); }, pd);
  }

  Result<std::unique_ptr<FastKernel>> fullyConnected(const ops::OpArgs& op, const ops::FullyConnectedParams& p,
                                                     const KernelOptions& options) {
    const Epilogue& epilogue = options.epilogue;
    const ops::Arg& weights = op.inputs[1];
    const ops::Arg& bias = op.inputs[2];
    if (weights.type != kFloat32 || !weights.hasValue()) return refuse("the weights must be float32 constants");
    const dnnl::memory::dim m = p.batchSize, k = p.inputSize, n = p.numUnits;
    // One row (and an epilogue without a residual): the layer's own product on packed weights
    // (matrix_vector.hpp). The weights are packed once per model: the operations of an unrolled
    // recurrence share them. A bias that is not a constant (an unrolled GRU's input projection) is read
    // at each run.
    if (m == 1 && !epilogue.residual && avx512Supported() && bias.type == kFloat32 && !bias.omitted) {
      const bool atRun = !bias.hasValue();
      auto packed = packedForm({static_cast<const float*>(weights.data), static_cast<size_t>(n), static_cast<size_t>(k)},
                               atRun ? nullptr : static_cast<const float*>(bias.data), options.shared);
      return std::unique_ptr<FastKernel>(
          std::make_unique<MatrixVectorKernel>(std::move(packed), p.activation, threads_, atRun, epilogue));
    }
    if (!bias.hasValue()) return refuse("the bias must be a float32 constant");
    const auto src = plainDesc({m, k});
    const auto dst = plainDesc({m, n});
    const auto userWeights = plainDesc({n, k});
    const dnnl::memory::desc anyWeights({n, k}, dt::f32, dnnl::memory::format_tag::any);
    const dnnl::memory::desc biasDesc({n}, dt::f32, dnnl::memory::format_tag::a);
    const dnnl::inner_product_forward::desc desc(dnnl::prop_kind::forward_inference, src, anyWeights, biasDesc, dst);
    const dnnl::inner_product_forward::primitive_desc pd(desc, attrFor(p.activation, epilogue), engine_);
    if (isReference(pd.impl_info_str())) return refuse(onlyReference);
    auto kernel = std::make_unique<Kernel>(*this, dnnl::inner_product_forward(pd), source(src), dst, pd.scratchpad_desc(),
                                           std::string("oneDNN ") + pd.impl_info_str());
    kernel->addArgument(DNNL_ARG_WEIGHTS, reordered(userWeights, weights.data, pd.weights_desc()));
    kernel->addArgument(DNNL_ARG_BIAS, copied(biasDesc, bias.data));
    return std::unique_ptr<FastKernel>(std::move(kernel));
  }

  // BATCH_MATMUL: lhs [..., m, k] times rhs [..., k, n], either stored transposed (adjoint); both
  // operands are bound at execution (a constant rhs is read in place, not reordered).
  Result<std::unique_ptr<FastKernel>> batchMatmul(const ops::OpArgs& op, const ops::BatchMatmulParams& p,
                                                  const KernelOptions& options) {
    if (op.inputs[1].type != kFloat32) return refuse("the rhs is not float32");
    // The operand's matrices as stored (densely, or through the driver's strides), described by their
    // logical (untransposed) dimensions.
    auto matrices = [&](int index, const ops::Arg& a, bool adjoint) {
      const dims stored(a.dims.begin(), a.dims.end());
      const std::vector<int64_t>* given = options.stridesOf(index);
      dims strides = given != nullptr ? dims(given->begin(), given->end()) : plainStrides(stored);
      dims logical = stored;
      const size_t r = stored.size();
      if (adjoint) {
        std::swap(logical[r - 2], logical[r - 1]);
        std::swap(strides[r - 2], strides[r - 1]);
      }
      return dnnl::memory::desc(logical, dt::f32, strides);
    };
    for (const KernelOptions::Strided& s : options.strided) {
      const bool output = s.index == KernelOptions::Strided::kOutput;
      if (!output && (s.index < 0 || s.index > 1)) return refuse("strides for an input BATCH_MATMUL does not have");
      const size_t rank = output ? op.outputs[0].dims.size() : op.inputs[static_cast<size_t>(s.index)].dims.size();
      if (s.strides.size() != rank) return refuse("strides do not match the operand's rank");
    }
    const auto lhs = matrices(0, op.inputs[0], p.adjointLhs);
    const auto rhs = matrices(1, op.inputs[1], p.adjointRhs);
    const auto dst = matrices(KernelOptions::Strided::kOutput, op.outputs[0], false);
    const dnnl::primitive_attr attr = attrFor(driver::Activation::None, options.epilogue);
    const dnnl::matmul::desc desc(lhs, rhs, dst);
    const dnnl::matmul::primitive_desc pd(desc, attr, engine_);
    if (isReference(pd.impl_info_str())) return refuse(onlyReference);
    return std::unique_ptr<FastKernel>(std::make_unique<Kernel>(
        *this, dnnl::matmul(pd), std::vector<Bound>{{DNNL_ARG_SRC, 0, lhs}, {DNNL_ARG_WEIGHTS, 1, rhs}}, dst,
        pd.scratchpad_desc(), std::string("oneDNN ") + pd.impl_info_str()));
  }

  Result<std::unique_ptr<FastKernel>> pool(const ops::Pool2DParams& p, dnnl::algorithm algorithm) {
    const auto src = imageDesc(p.batches, p.channels, p.inputHeight, p.inputWidth, p.nchw);
    const auto dst = imageDesc(p.batches, p.channels, p.outputHeight, p.outputWidth, p.nchw);
    const dnnl::pooling_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, src, dst,
                                           {p.strideH, p.strideW}, {p.filterH, p.filterW},
                                           {p.padTop, p.padLeft}, {p.padBottom, p.padRight});
    const dnnl::pooling_forward::primitive_desc pd(desc, attrFor(p.activation), engine_);
    if (isReference(pd.impl_info_str())) return refuse(onlyReference);
    return std::unique_ptr<FastKernel>(std::make_unique<Kernel>(*this, dnnl::pooling_forward(pd), source(src), dst,
                                                                pd.scratchpad_desc(),
                                                                std::string("oneDNN ") + pd.impl_info_str()));
  }

  Result<std::unique_ptr<FastKernel>> softmax(const ops::OpArgs& op, const ops::SoftmaxParams& p) {
    const auto& in = op.inputs[0].dims;
    if (p.axis + 1 == in.size() && in.back() > 0 && avx512Supported()) {  // rows: the layer's own
      size_t rows = 1;
      for (size_t d = 0; d + 1 < in.size(); ++d) rows *= in[d];
      return std::unique_ptr<FastKernel>(std::make_unique<SoftmaxRows>(rows, in.back(), p.beta, threads_));
    }
    if (p.beta != 1.0f) return refuse("oneDNN's softmax has no beta; beta " + std::to_string(p.beta) + " is not 1");
    dims shape(op.inputs[0].dims.begin(), op.inputs[0].dims.end());
    const auto data = plainDesc(shape);
    const dnnl::softmax_forward::desc desc(dnnl::prop_kind::forward_inference, data, static_cast<int>(p.axis));
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    const dnnl::softmax_forward::primitive_desc pd(desc, attr, engine_);
    if (isReference(pd.impl_info_str())) return refuse(onlyReference);
    return std::unique_ptr<FastKernel>(std::make_unique<Kernel>(
        *this, dnnl::softmax_forward(pd), source(data), data, pd.scratchpad_desc(), std::string("oneDNN ") + pd.impl_info_str()));
  }

  // ADD, MUL, SUB, DIV, MAXIMUM, MINIMUM with NNAPI's broadcasting (shapes aligned at their last dimension).
  // oneDNN broadcasts its second source only: a broadcast first operand of a commutative one is swapped, of
  // SUB or DIV refused.
  Result<std::unique_ptr<FastKernel>> binary(const ops::OpArgs& op, dnnl::algorithm algorithm, bool commutative,
                                             driver::Activation activation) {
    if (op.inputs[1].type != kFloat32) return refuse("the second operand is not float32");
    const dims out(op.outputs[0].dims.begin(), op.outputs[0].dims.end());
    auto aligned = [&](const ops::Arg& a) {
      dims d(out.size() - a.dims.size(), 1);
      d.insert(d.end(), a.dims.begin(), a.dims.end());
      return d;
    };
    size_t first = 0, second = 1;
    if (aligned(op.inputs[0]) != out) {
      if (!commutative || aligned(op.inputs[1]) != out) return refuse("oneDNN broadcasts the second operand only");
      std::swap(first, second);
    }
    const auto dst = plainDesc(out);
    const auto other = plainDesc(aligned(op.inputs[second]));
    const dnnl::binary::desc desc(algorithm, dst, other, dst);
    const dnnl::binary::primitive_desc pd(desc, attrFor(activation), engine_);
    if (isReference(pd.impl_info_str())) return refuse(onlyReference);
    return std::unique_ptr<FastKernel>(std::make_unique<Kernel>(
        *this, dnnl::binary(pd), std::vector<Bound>{{DNNL_ARG_SRC_0, first, dst}, {DNNL_ARG_SRC_1, second, other}}, dst,
        pd.scratchpad_desc(), std::string("oneDNN ") + pd.impl_info_str()));
  }

  // TRANSPOSE (float32 or 8-bit, the values copied as stored): a reorder from the input read through
  // permuted strides into the plain output.
  Result<std::unique_ptr<FastKernel>> transpose(const ops::OpArgs& op, const ops::TransposeParams& p) {
    const ops::Arg& input = op.inputs[0];
    const ops::Arg& output = op.outputs[0];
    if (output.type != input.type || output.scale != input.scale || output.zeroPoint != input.zeroPoint)
      return refuse("the output's type or quantization differs from the input's");
    // 2 to 4 planes interleaved (NCHW to NHWC of an image's 3 channels, the ONNX models' input): the
    // reference kernel's vectorized interleave is faster (8-13 against 19-22 us for 1x3x224x224).
    const size_t rank = p.perm.size();
    if (input.type == kFloat32 && rank >= 2 && p.perm[rank - 2] == rank - 1 &&
        input.dims[p.perm[rank - 1]] >= 2 && input.dims[p.perm[rank - 1]] <= 4)
      return refuse("2 to 4 planes interleaved: the reference kernel is faster");
    // The last axis staying last (whole rows moved: attention's heads, a detection head's anchors): the
    // reference kernel's row copies are faster (1x128x12x64 by [0, 2, 1, 3]: 14.3 against 6.8 us).
    if (rank >= 2 && p.perm[rank - 1] == rank - 1) return refuse("rows moved whole: the reference kernel is faster");
    const dt data = input.type == kFloat32 ? dt::f32 : int8Type(input.type);
    const dims in(input.dims.begin(), input.dims.end());
    const dims inStrides = plainStrides(in);
    dims out(p.perm.size()), strides(p.perm.size());
    for (size_t d = 0; d < p.perm.size(); ++d) {
      out[d] = in[p.perm[d]];
      strides[d] = inStrides[p.perm[d]];
    }
    const dnnl::memory::desc src(out, data, strides);
    const dnnl::memory::desc dst(out, data, plainStrides(out));
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    const dnnl::reorder::primitive_desc pd(engine_, src, engine_, dst, attr);
    if (isReference(pd.impl_info_str())) return refuse(onlyReference);
    return std::unique_ptr<FastKernel>(std::make_unique<Kernel>(*this, dnnl::reorder(pd), source(src), dst,
                                                                pd.scratchpad_desc(),
                                                                std::string("oneDNN ") + pd.impl_info_str()));
  }

  // PRELU: alpha broadcast to the input's shape (NNAPI's broadcasting; an input that is itself
  // broadcast to alpha's shape is refused: oneDNN broadcasts the weights only).
  Result<std::unique_ptr<FastKernel>> prelu(const ops::OpArgs& op) {
    if (op.inputs[1].type != kFloat32) return refuse("alpha is not float32");
    const dims out(op.outputs[0].dims.begin(), op.outputs[0].dims.end());
    const dims in(op.inputs[0].dims.begin(), op.inputs[0].dims.end());
    if (in != out) return refuse("the input is broadcast to alpha's shape (oneDNN broadcasts alpha only)");
    dims alpha(out.size() - op.inputs[1].dims.size(), 1);
    alpha.insert(alpha.end(), op.inputs[1].dims.begin(), op.inputs[1].dims.end());
    auto data = plainDesc(out);
    auto weights = plainDesc(alpha);
    if (out.size() == 4 && alpha == dims{1, 1, 1, out[3]}) {
      // One alpha per channel of an NHWC image: oneDNN broadcasts per channel along its dimension
      // 1, so the data is described as NCHW-logical, stored NHWC.
      data = dnnl::memory::desc({out[0], out[3], out[1], out[2]}, dt::f32, dnnl::memory::format_tag::nhwc);
      weights = plainDesc({1, out[3], 1, 1});
    }
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    const dnnl::prelu_forward::desc desc(dnnl::prop_kind::forward_inference, data, weights);
    const dnnl::prelu_forward::primitive_desc pd(desc, attr, engine_);
    if (isReference(pd.impl_info_str())) return refuse(onlyReference);
    return std::unique_ptr<FastKernel>(
        std::make_unique<Kernel>(*this, dnnl::prelu_forward(pd),
                                 std::vector<Bound>{{DNNL_ARG_SRC, 0, data}, {DNNL_ARG_WEIGHTS, 1, weights}},
                                 data, pd.scratchpad_desc(), std::string("oneDNN ") + pd.impl_info_str()));
  }

  // RELU, RELU1, RELU6, LOGISTIC, TANH, HARD_SWISH, ELU. oneDNN's LOGISTIC and TANH approximations
  // differ from the reference kernels in the last bits, well inside the float32 tolerance of the
  // conformance suite (cpu_fast_path_test measures it).
  Result<std::unique_ptr<FastKernel>> eltwise(const ops::OpArgs& op, dnnl::algorithm algorithm, float alpha, float beta) {
    const auto data = plainDesc(dims(op.inputs[0].dims.begin(), op.inputs[0].dims.end()));
    const dnnl::eltwise_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, data, alpha, beta);
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    const dnnl::eltwise_forward::primitive_desc pd(desc, attr, engine_);
    if (isReference(pd.impl_info_str())) return refuse(onlyReference);
    return std::unique_ptr<FastKernel>(std::make_unique<Kernel>(*this, dnnl::eltwise_forward(pd), source(data), data,
                                                                pd.scratchpad_desc(),
                                                                std::string("oneDNN ") + pd.impl_info_str()));
  }

  // `values` (described by `from`) reordered into a new memory of layout `to`.
  dnnl::memory reordered(const dnnl::memory::desc& from, const void* values, const dnnl::memory::desc& to) {
    dnnl::memory source(from, engine_, const_cast<void*>(values));  // only read
    dnnl::memory target(to, engine_);
    dnnl::reorder(source, target).execute(stream_, source, target);
    stream_.wait();
    return target;
  }

  dnnl::memory copied(const dnnl::memory::desc& desc, const void* values) {
    dnnl::memory target(desc, engine_);
    std::memcpy(target.get_data_handle(), values, desc.get_size());
    return target;
  }

  // oneDNN's sgemm on the calling thread alone (the kernels split their products over their own pool,
  // kernels/gemm.cpp): 1.9x OpenBLAS's Haswell sgemm on the LSTM's input products, one thread each. A team
  // of one starts no OpenMP thread, so oneTBB's threads may call it too (CoreLease: no second team).
  static bool sgemmOneThread(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b, size_t ldb,
                             float* c, size_t ldc) {
    const bool nested = omp_in_parallel() != 0;  // then oneDNN runs on this thread anyway
    const int saved = omp_get_max_threads();
    if (!nested) omp_set_num_threads(1);
    const auto dim = [](size_t v) { return static_cast<dnnl_dim_t>(v); };
    const dnnl_status_t status =
        dnnl_sgemm('N', 'T', dim(m), dim(n), dim(k), 1.0f, a, dim(lda), b, dim(ldb), 1.0f, c, dim(ldc));
    if (!nested) omp_set_num_threads(saved);
    return status == dnnl_success;
  }

  int threads_;
  // Parallel loops of the reference kernels on this thread's OpenMP team, split evenly.
  detail::ParallelExecutor executor_{
      [](void* state, size_t count, size_t grain, void (*body)(const void*, size_t, size_t), const void* context) {
        const auto threads = static_cast<size_t>(*static_cast<const int*>(state));
        const size_t team = std::min(threads, (count + grain - 1) / grain);
        if (team <= 1 || omp_in_parallel()) {
          body(context, 0, count);
          return;
        }
        // An exception must not leave an OpenMP region (it would terminate): the first is kept and
        // thrown again on the calling thread, as oneTBB's loops do.
        std::exception_ptr thrown;
#pragma omp parallel num_threads(static_cast<int>(team))
        {
          const auto t = static_cast<size_t>(omp_get_thread_num()), n = static_cast<size_t>(omp_get_num_threads());
          const size_t begin = count * t / n, end = count * (t + 1) / n;
          try {
            if (begin < end) body(context, begin, end);
          } catch (...) {
#pragma omp critical(nnrt_executor_exception)
            if (!thrown) thrown = std::current_exception();
          }
        }
        if (thrown) std::rethrow_exception(thrown);
      },
      &threads_};
  bool winograd_;
  dnnl::engine engine_;
  dnnl::stream stream_;
  std::string description_;
};

Kernel::Kernel(Layer& layer, dnnl::primitive primitive, const std::vector<Bound>& inputs,
               const dnnl::memory::desc& dst, const dnnl::memory::desc& scratch, std::string name)
    : layer_(layer),
      primitive_(std::move(primitive)),
      dst_(dst, layer.stream().get_engine(), DNNL_MEMORY_NONE),
      name_(std::move(name)) {
  for (const Bound& b : inputs) {
    inputs_.emplace_back(b.index, dnnl::memory(b.desc, layer.stream().get_engine(), DNNL_MEMORY_NONE));
    args_.push_back({b.role, inputs_.back().second.get()});
  }
  args_.push_back({DNNL_ARG_DST, dst_.get()});
  if (scratch.get_size() > 0) {
    scratch_ = dnnl::memory(scratch, layer.stream().get_engine());
    args_.push_back({DNNL_ARG_SCRATCHPAD, scratch_.get()});
  }
}

void Kernel::stage(const dnnl::memory::desc& src, const dnnl::memory::desc& dst) {
  const dnnl::engine engine = layer_.stream().get_engine();
  const dnnl::memory& input = inputs_.at(0).second;
  const dnnl::memory stagedSrc(src, engine), stagedDst(dst, engine);
  stageIn_.push_back(restage(input, stagedSrc));
  stageOut_.push_back(restage(stagedDst, dst_));
  retarget(input, stagedSrc);
  retarget(dst_, stagedDst);
  owned_.push_back(stagedSrc);
  owned_.push_back(stagedDst);
}

void Kernel::gatherSource(const dnnl::memory::desc& gathered, uint32_t strideH, uint32_t strideW) {
  const dnnl::memory& input = inputs_.at(0).second;
  const dnnl::memory staged(gathered, layer_.stream().get_engine());
  stageIn_.push_back(Restage{input, staged, {}, {}, false, strideH, strideW});
  retarget(input, staged);
  owned_.push_back(staged);
  name_ += " on the strided pixels gathered";
}

// Output pixel (y, x) of `to` is input pixel (y * strideH, x * strideW) of `from`: a run of C values
// per pixel in NHWC, a strided row per channel and row in NCHW.
dnnl_status_t Kernel::gather(const Restage& r) {
  const dims in = r.from.get_desc().dims(), out = r.to.get_desc().dims();
  const bool nchw = r.to.get_desc() == dnnl::memory::desc(out, dt::f32, dnnl::memory::format_tag::nchw);
  const dnnl::memory::dim batches = out[0], channels = out[1], height = out[2], width = out[3];
  const dnnl::memory::dim inHeight = in[2], inWidth = in[3], sh = r.strideH, sw = r.strideW;
  const auto* from = static_cast<const float*>(r.from.get_data_handle());
  auto* to = static_cast<float*>(r.to.get_data_handle());
  if (nchw) {
#pragma omp parallel for collapse(2) schedule(static)
    for (dnnl::memory::dim plane = 0; plane < batches * channels; ++plane) {
      for (dnnl::memory::dim y = 0; y < height; ++y) {
        const float* row = from + (plane * inHeight + y * sh) * inWidth;
        float* into = to + (plane * height + y) * width;
        for (dnnl::memory::dim x = 0; x < width; ++x) into[x] = row[x * sw];
      }
    }
    return dnnl_success;
  }
#pragma omp parallel for collapse(2) schedule(static)
  for (dnnl::memory::dim n = 0; n < batches; ++n) {
    for (dnnl::memory::dim y = 0; y < height; ++y) {
      const float* row = from + ((n * inHeight + y * sh) * inWidth) * channels;
      float* into = to + ((n * height + y) * width) * channels;
      for (dnnl::memory::dim x = 0; x < width; ++x)
        std::memcpy(into + x * channels, row + x * sw * channels, static_cast<size_t>(channels) * sizeof(float));
    }
  }
  return dnnl_success;
}

void Kernel::retarget(const dnnl::memory& from, const dnnl::memory& to) {
  for (dnnl_exec_arg_t& arg : args_)
    if (arg.memory == from.get()) arg.memory = to.get();
}

// Whether `a` is NHWC and `b` nChw16c of the same float32 image (channels a multiple of 16).
bool nhwcAndBlocked16(const dnnl::memory::desc& a, const dnnl::memory::desc& b) {
  const dims d = a.dims();
  if (d.size() != 4 || d[1] % 16 != 0 || a.data_type() != dt::f32) return false;
  return a == dnnl::memory::desc(d, dt::f32, dnnl::memory::format_tag::nhwc) &&
         b == dnnl::memory::desc(d, dt::f32, dnnl::memory::format_tag::nChw16c);
}

Kernel::Restage Kernel::restage(const dnnl::memory& from, const dnnl::memory& to) {
  Restage r{from, to, {}, {}, false};
  if (nhwcAndBlocked16(from.get_desc(), to.get_desc())) {
    r.toBlocked = true;
  } else if (!nhwcAndBlocked16(to.get_desc(), from.get_desc())) {
    r.reorder = dnnl::reorder(from, to);
    r.args = {{DNNL_ARG_FROM, from.get()}, {DNNL_ARG_TO, to.get()}};
  }
  return r;
}

// oneDNN 2.6's reorder between NHWC and nChw16c runs at a fraction of memory speed (70 µs each way
// for 56x56x64 on the machine of docs/cpu-performance.md); this loop copies 16 channels at a time.
dnnl_status_t Kernel::run(Restage& r) {
  if (r.strideH > 0) return gather(r);
  if (r.reorder) {
    return dnnl_primitive_execute(r.reorder.get(), layer_.stream().get(), static_cast<int>(r.args.size()),
                                  r.args.data());
  }
  const dnnl::memory::desc& nhwc = r.toBlocked ? r.from.get_desc() : r.to.get_desc();
  const dims d = nhwc.dims();
  const dnnl::memory::dim batches = d[0], channels = d[1], pixels = d[2] * d[3], blocks = channels / 16;
  const auto* from = static_cast<const float*>(r.from.get_data_handle());
  auto* to = static_cast<float*>(r.to.get_data_handle());
  const bool toBlocked = r.toBlocked;
#pragma omp parallel for collapse(2) schedule(static)
  for (dnnl::memory::dim n = 0; n < batches; ++n) {
    for (dnnl::memory::dim p = 0; p < pixels; ++p) {
      const dnnl::memory::dim plain = (n * pixels + p) * channels, blocked = n * channels * pixels + p * 16;
      for (dnnl::memory::dim b = 0; b < blocks; ++b) {
        if (toBlocked)
          std::memcpy(to + blocked + b * pixels * 16, from + plain + b * 16, 16 * sizeof(float));
        else
          std::memcpy(to + plain + b * 16, from + blocked + b * pixels * 16, 16 * sizeof(float));
      }
    }
  }
  return dnnl_success;
}

bool Kernel::chain(Kernel& producer, Kernel& consumer) {
  if (producer.stageOut_.size() != 1 || consumer.stageIn_.size() != 1) return false;
  Restage& out = producer.stageOut_[0];
  Restage& in = consumer.stageIn_[0];
  const dnnl::memory::desc blocked = out.from.get_desc();
  // Only the NHWC <-> nChw16c copies: the blocked tensor then has the NHWC tensor's size.
  if (out.reorder || in.reorder || in.strideH > 0 || blocked != in.to.get_desc() || blocked.get_size() != out.to.get_desc().get_size())
    return false;
  const dnnl::engine engine = producer.layer_.stream().get_engine();
  // The tensor the execution binds is now the blocked one, at the same address; the staged copies go.
  auto bindStaged = [&](Kernel& k, dnnl::memory& bound, const dnnl::memory& staged) {
    bound = dnnl::memory(blocked, engine, DNNL_MEMORY_NONE);
    k.retarget(staged, bound);
    std::erase_if(k.owned_, [&](const dnnl::memory& m) { return m.get() == staged.get(); });
  };
  bindStaged(producer, producer.dst_, out.from);
  bindStaged(consumer, consumer.inputs_.at(0).second, in.to);
  producer.stageOut_.clear();
  consumer.stageIn_.clear();
  return true;
}

Result<void> Kernel::run(const KernelCall& call) {
  for (auto& [index, memory] : inputs_) memory.set_data_handle(const_cast<void*>(call.op.inputs[index].data));
  dst_.set_data_handle(call.outputData[0]);
  omp_set_num_threads(layer_.threads());  // this thread's OpenMP team
  dnnl::stream& stream = layer_.stream();
  auto execute = [&](const dnnl::primitive& primitive, std::vector<dnnl_exec_arg_t>& args) {
    return dnnl_primitive_execute(primitive.get(), stream.get(), static_cast<int>(args.size()), args.data());
  };
  dnnl_status_t status = dnnl_success;
  for (Restage& r : stageIn_)
    if (status == dnnl_success) status = run(r);
  if (status == dnnl_success) status = execute(primitive_, args_);
  for (Restage& r : stageOut_)
    if (status == dnnl_success) status = run(r);
  if (status != dnnl_success) return driver::generalFailure(name_ + " failed with oneDNN status " + std::to_string(status));
  stream.wait();
  return {};
}

}  // namespace
}  // namespace nnrt::cpu::dnnl_layer

// The entry point loadFastLayer() looks up. Null when oneDNN cannot start a CPU engine.
extern "C" __attribute__((visibility("default"))) nnrt::cpu::FastLayer* nnrt_cpu_create_fast_layer_6(
    const nnrt::cpu::FastLayerOptions& options) {
  try {
    return new nnrt::cpu::dnnl_layer::Layer(options);
  } catch (const std::exception&) {
    return nullptr;
  }
}
