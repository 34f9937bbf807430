// ONNX convolutions, pooling and matrix products -> NNAPI: Conv, the pools, Gemm, MatMul and
// ConvTranspose (ConvInteger and MatMulInteger: operators_quant.cpp).
#include "onnx/operators_common.hpp"

namespace nnrt::onnxfront {

namespace {

// Explicit 2-D window geometry (Conv and the pools), NCHW input.
struct Window {
  int32_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
  int32_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  uint32_t outH = 0, outW = 0;
};

// `input` is NCHW; a 1-D window (`oneD`: NCL as NC1L) takes 1-entry attributes, H being 1.
Result<Window> windowGeometry(GraphBuilder& b, const Dims& input, uint32_t kernelH, uint32_t kernelW,
                              bool ceilMode, bool oneD = false) {
  Window w;
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides, b.attrInts("strides"));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> dilations, b.attrInts("dilations"));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> pads, b.attrInts("pads"));
  if (oneD) {
    if (strides.size() == 1) strides.insert(strides.begin(), 1);
    if (dilations.size() == 1) dilations.insert(dilations.begin(), 1);
    if (pads.size() == 2) pads = {0, pads[0], 0, pads[1]};
  }
  NNRT_ASSIGN_OR_RETURN(std::string autoPad, b.attrString("auto_pad", "NOTSET"));
  if (!strides.empty()) {
    if (strides.size() != 2) return b.refused("strides must have 2 entries");
    w.strideH = static_cast<int32_t>(strides[0]);
    w.strideW = static_cast<int32_t>(strides[1]);
  }
  if (!dilations.empty()) {
    if (dilations.size() != 2) return b.refused("dilations must have 2 entries");
    w.dilationH = static_cast<int32_t>(dilations[0]);
    w.dilationW = static_cast<int32_t>(dilations[1]);
  }
  if (w.strideH < 1 || w.strideW < 1 || w.dilationH < 1 || w.dilationW < 1)
    return b.refused("strides/dilations must be positive");
  uint32_t inH = input[2], inW = input[3];
  if (inH == 0 || inW == 0) return b.refused("spatial input size unknown");
  int64_t extentH = (static_cast<int64_t>(kernelH) - 1) * w.dilationH + 1;
  int64_t extentW = (static_cast<int64_t>(kernelW) - 1) * w.dilationW + 1;
  if (autoPad == "NOTSET") {
    if (!pads.empty()) {
      if (pads.size() != 4) return b.refused("pads must have 4 entries");
      if (std::any_of(pads.begin(), pads.end(), [](int64_t p) { return p < 0; }))
        return b.refused("negative pads");
      w.padTop = static_cast<int32_t>(pads[0]);
      w.padLeft = static_cast<int32_t>(pads[1]);
      w.padBottom = static_cast<int32_t>(pads[2]);
      w.padRight = static_cast<int32_t>(pads[3]);
    }
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    auto same = [&](int64_t in, int64_t stride, int64_t extent, int32_t& begin, int32_t& end) {
      int64_t out = (in + stride - 1) / stride;
      int64_t total = std::max<int64_t>((out - 1) * stride + extent - in, 0);
      int64_t small = total / 2, large = total - small;
      begin = static_cast<int32_t>(autoPad == "SAME_UPPER" ? small : large);
      end = static_cast<int32_t>(autoPad == "SAME_UPPER" ? large : small);
    };
    same(inH, w.strideH, extentH, w.padTop, w.padBottom);
    same(inW, w.strideW, extentW, w.padLeft, w.padRight);
  } else if (autoPad != "VALID") {
    return b.refused("auto_pad '" + autoPad + "' is not supported");
  }
  auto outSize = [&](int64_t in, int64_t padSum, int64_t extent, int64_t stride, bool ceil) -> int64_t {
    int64_t span = in + padSum - extent;
    if (span < 0) return -1;
    return (ceil ? (span + stride - 1) / stride : span / stride) + 1;
  };
  int64_t oh = outSize(inH, w.padTop + w.padBottom, extentH, w.strideH, false);
  int64_t ow = outSize(inW, w.padLeft + w.padRight, extentW, w.strideW, false);
  if (oh <= 0 || ow <= 0) return b.refused("the window is larger than the padded input");
  if (ceilMode) {
    // A partial last window: padded at the end so that NNAPI computes it (its pools leave padding out).
    auto extend = [&](int64_t in, int32_t begin, int32_t& end, int64_t extent, int64_t stride,
                      int64_t& out) -> bool {
      int64_t ceilOut = outSize(in, begin + end, extent, stride, true);
      if (ceilOut == out) return true;
      if ((ceilOut - 1) * stride >= in + begin) return false;  // the window would hold padding only
      end = static_cast<int32_t>((ceilOut - 1) * stride + extent - in - begin);
      out = ceilOut;
      return true;
    };
    if (!extend(inH, w.padTop, w.padBottom, extentH, w.strideH, oh) ||
        !extend(inW, w.padLeft, w.padRight, extentW, w.strideW, ow)) {
      return b.refused("ceil_mode adds a window of padding only");
    }
  }
  w.outH = static_cast<uint32_t>(oh);
  w.outW = static_cast<uint32_t>(ow);
  return w;
}

}  // namespace

Result<void> convolve(GraphBuilder& b, const Value* x, const Value* w, const Value* bias, uint32_t* sums) {
  const bool integer = sums != nullptr;
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  // A 1-D convolution [N, C, L] runs as a 2-D one of [N, C, 1, L]: with a known shape as the NHWC image
  // [N, 1, L, C] of its channels-last form (kept so for the next one), else NCHW.
  const bool oneD = x->dims.size() == 3 && !integer;
  if (x->dims.size() != 4 && !oneD)
    return b.refused(integer ? "only 2-D convolutions (4-D input) are supported"
                             : "only 1-D and 2-D convolutions (3-D and 4-D inputs) are supported");
  if (w->dims.size() != x->dims.size() || !allKnown(w->dims))
    return b.refused("weights must have the input's rank and a known shape");
  if (oneD && !allKnown(x->dims)) return b.refused("input shape unknown");
  const Dims xDims = oneD ? Dims{x->dims[0], x->dims[1], 1, x->dims[2]} : x->dims;
  const Dims wDims = oneD ? Dims{w->dims[0], w->dims[1], 1, w->dims[2]} : w->dims;
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, b.attrInts("kernel_shape"));
  if (oneD && kernel.size() == 1) kernel.insert(kernel.begin(), 1);
  uint32_t M = wDims[0], Cg = wDims[1], kH = wDims[2], kW = wDims[3];
  if (!kernel.empty() && (kernel.size() != 2 || kernel[0] != kH || kernel[1] != kW)) {
    return b.refused("kernel_shape differs from the weights' shape");
  }
  NNRT_ASSIGN_OR_RETURN(int64_t group, b.attrInt("group", 1));
  uint32_t C = x->dims[1];
  if (group < 1 || C == 0 || C != Cg * group || M % group != 0)
    return b.refused("group does not match the channels");
  NNRT_ASSIGN_OR_RETURN(Window g, windowGeometry(b, xDims, kH, kW, false, oneD));
  // NNAPI filters: [1, kH, kW, M] for depthwise, else [M, kH, kW, C / group] (ONNX: [M, C / group, kH, kW]).
  const bool depthwise = group > 1 && static_cast<uint32_t>(group) == C && Cg == 1;
  const std::vector<int32_t> perm =
      depthwise ? std::vector<int32_t>{1, 2, 3, 0} : std::vector<int32_t>{0, 2, 3, 1};
  Dims filterDims;
  for (int32_t p : perm)
    filterDims.push_back(wDims[p]);
  uint32_t filterOperand;
  // A BatchNormalization that alone reads the result is folded in: each output channel's weights and
  // bias times its factor, plus its shift to the bias (ONNX Runtime folds it the same way).
  std::optional<GraphBuilder::ChannelAffine> norm;
  if (!integer && w->constant.has_value() && (bias == nullptr || bias->constant.has_value()))
    norm = b.foldFollowingBatchNorm(M);
  if (w->constant.has_value()) {
    std::vector<float> weights(elementCount(w->dims));
    std::memcpy(weights.data(), w->constant->bytes.data(), weights.size() * 4);
    std::vector<float> filter(weights.size());
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t c = 0; c < Cg; ++c)
        for (uint32_t h = 0; h < kH; ++h)
          for (uint32_t ww = 0; ww < kW; ++ww) {
            float v = weights[((m * Cg + c) * kH + h) * kW + ww];
            if (norm) v *= norm->factor[m];
            if (depthwise)
              filter[(h * kW + ww) * M + m] = v;
            else
              filter[((m * kH + h) * kW + ww) * Cg + c] = v;
          }
    NNRT_ASSIGN_OR_RETURN(filterOperand, b.constFloats(filter, filterDims));
  } else {
    NNRT_ASSIGN_OR_RETURN(uint32_t weights, b.operand(*w));
    if (oneD) {
      NNRT_ASSIGN_OR_RETURN(weights, b.reshape(weights, w->type, wDims));
    }
    NNRT_ASSIGN_OR_RETURN(uint32_t permOperand, b.constInts(perm));
    NNRT_ASSIGN_OR_RETURN(filterOperand, b.addTensor(w->type, filterDims));
    NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_TRANSPOSE, {weights, permOperand}, {filterOperand}));
  }
  if (group > 1 && !depthwise && (g.dilationH != 1 || g.dilationW != 1)) {
    return b.refused("grouped convolution with dilations has no NNAPI operation");
  }
  // With a known shape the image runs as NHWC, NNAPI's own layout (converted once where it enters).
  const bool nhwc = allKnown(x->dims) && !integer;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, !nhwc ? b.operand(*x) : oneD ? b.nhwcImage1D(*x) : b.nhwcOperand(*x));
  if (oneD && !nhwc) {
    NNRT_ASSIGN_OR_RETURN(in, b.reshape(in, x->type, xDims));
  }
  uint32_t biasOperand;
  if (bias != nullptr && (bias->dims.size() != 1 || bias->dims[0] != M)) return b.refused("bias must have shape [M]");
  if (norm) {
    std::vector<float> folded(M, 0.0f);
    if (bias != nullptr) std::memcpy(folded.data(), bias->constant->bytes.data(), size_t{M} * 4);
    for (uint32_t m = 0; m < M; ++m) folded[m] = folded[m] * norm->factor[m] + norm->shift[m];
    NNRT_ASSIGN_OR_RETURN(biasOperand, b.constFloats(folded));
  } else if (bias != nullptr) {
    NNRT_ASSIGN_OR_RETURN(biasOperand, b.operand(*bias));
  } else {
    NNRT_ASSIGN_OR_RETURN(biasOperand, b.constFloats(std::vector<float>(M, 0.0f)));
  }
  std::vector<uint32_t> inputs{in, filterOperand, biasOperand};
  for (int32_t v : {g.padLeft, g.padRight, g.padTop, g.padBottom, g.strideW, g.strideH}) {
    NNRT_ASSIGN_OR_RETURN(uint32_t s, b.scalarInt(v));
    inputs.push_back(s);
  }
  int32_t op = ANEURALNETWORKS_CONV_2D;
  if (depthwise) {
    op = ANEURALNETWORKS_DEPTHWISE_CONV_2D;
    NNRT_ASSIGN_OR_RETURN(uint32_t multiplier, b.scalarInt(static_cast<int32_t>(M / C)));
    inputs.push_back(multiplier);
  } else if (group > 1) {
    op = ANEURALNETWORKS_GROUPED_CONV_2D;
    NNRT_ASSIGN_OR_RETURN(uint32_t groups, b.scalarInt(static_cast<int32_t>(group)));
    inputs.push_back(groups);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t fuse,
                        b.scalarInt(integer ? ANEURALNETWORKS_FUSED_NONE : b.fuseFollowingActivation()));
  NNRT_ASSIGN_OR_RETURN(uint32_t nchw, b.scalarBool(!nhwc));
  inputs.push_back(fuse);
  inputs.push_back(nchw);
  if (op != ANEURALNETWORKS_GROUPED_CONV_2D) {
    NNRT_ASSIGN_OR_RETURN(uint32_t dw, b.scalarInt(g.dilationW));
    NNRT_ASSIGN_OR_RETURN(uint32_t dh, b.scalarInt(g.dilationH));
    inputs.push_back(dw);
    inputs.push_back(dh);
  }
  const Dims out{x->dims[0], M, g.outH, g.outW};
  if (oneD && nhwc) return b.emitNhwc1D(op, inputs, x->type, out);
  if (oneD) {
    NNRT_ASSIGN_OR_RETURN(uint32_t result, apply(b, op, inputs, x->type, out));
    const Dims out1D{x->dims[0], M, g.outW};
    NNRT_ASSIGN_OR_RETURN(result, b.reshape(result, x->type, out1D));
    defineOperand(b, 0, result, x->type, out1D);
    return {};
  }
  if (integer) {
    NNRT_ASSIGN_OR_RETURN(*sums, apply(b, op, inputs, x->type, out));
    return {};
  }
  if (nhwc) return b.emitNhwc(op, inputs, x->type, out);
  return b.emit(op, inputs, x->type, out);
}

Result<void> mapConv(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* w, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* bias, b.input(2));
  return convolve(b, x, w, bias, nullptr);
}

namespace {

// 2-D MaxPool as the maximum of the kH x kW strided views of its windows (STRIDED_SLICE of the input
// PADded with -inf, MAXIMUM: exact), for what NNAPI's MAX_POOL_2D lacks: dilations and the Indices output.
// Indices: ARGMAX over the views stacked, then that view's offset plus the window's origin, flat over the
// unpadded N, C, H, W (storage_order 1: column-major within each image), as ONNX counts them.
Result<void> maxPoolByViews(GraphBuilder& b, const Value& x, const Window& g, uint32_t kH, uint32_t kW,
                            bool columnMajor) {
  NNRT_RETURN_IF_ERROR(requireFloat(b, x));
  if (!allKnown(x.dims)) return b.refused("input shape unknown");
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32, i32 = ANEURALNETWORKS_TENSOR_INT32;
  const uint32_t N = x.dims[0], C = x.dims[1], H = x.dims[2], W = x.dims[3], K = kH * kW;
  const uint32_t P = g.outH * g.outW;
  NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(x));
  if (g.padTop || g.padBottom || g.padLeft || g.padRight) {
    NNRT_ASSIGN_OR_RETURN(uint32_t paddings,
                          b.constInts({0, 0, 0, 0, g.padTop, g.padBottom, g.padLeft, g.padRight}, {4, 2}));
    NNRT_ASSIGN_OR_RETURN(uint32_t lowest, b.scalarFloat(-std::numeric_limits<float>::infinity()));
    const Dims padded{N, C, H + g.padTop + g.padBottom, W + g.padLeft + g.padRight};
    NNRT_ASSIGN_OR_RETURN(in, apply(b, ANEURALNETWORKS_PAD_V2, {in, paddings, lowest}, f32, padded));
  }
  const Dims out{N, C, g.outH, g.outW};
  NNRT_ASSIGN_OR_RETURN(uint32_t strides, b.constInts({1, 1, g.strideH, g.strideW}));
  NNRT_ASSIGN_OR_RETURN(uint32_t noMask, b.scalarInt(0));
  std::vector<uint32_t> views;
  uint32_t maximum = kNoOperand;
  for (uint32_t i = 0; i < kH; ++i) {
    for (uint32_t j = 0; j < kW; ++j) {
      const int32_t top = static_cast<int32_t>(i) * g.dilationH, left = static_cast<int32_t>(j) * g.dilationW;
      NNRT_ASSIGN_OR_RETURN(uint32_t begin, b.constInts({0, 0, top, left}));
      NNRT_ASSIGN_OR_RETURN(uint32_t end,
                            b.constInts({static_cast<int32_t>(N), static_cast<int32_t>(C),
                                         top + static_cast<int32_t>(g.outH - 1) * g.strideH + 1,
                                         left + static_cast<int32_t>(g.outW - 1) * g.strideW + 1}));
      NNRT_ASSIGN_OR_RETURN(uint32_t view,
                            apply(b, ANEURALNETWORKS_STRIDED_SLICE,
                                  {in, begin, end, strides, noMask, noMask, noMask}, f32, out));
      views.push_back(view);
      if (maximum == kNoOperand) {
        maximum = view;
      } else {
        NNRT_ASSIGN_OR_RETURN(maximum, apply(b, ANEURALNETWORKS_MAXIMUM, {maximum, view}, f32, out));
      }
    }
  }
  defineOperand(b, 0, maximum, f32, out);
  if (b.node()->output_size() < 2 || b.node()->output(1).empty()) return {};
  std::vector<uint32_t> stacked;
  for (uint32_t view : views) {
    NNRT_ASSIGN_OR_RETURN(uint32_t flat, b.reshape(view, f32, {N * C, 1, P}));
    stacked.push_back(flat);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t one, b.scalarInt(1));
  uint32_t all = stacked[0];
  if (K > 1) {
    stacked.push_back(one);
    NNRT_ASSIGN_OR_RETURN(all, apply(b, ANEURALNETWORKS_CONCATENATION, stacked, f32, {N * C, K, P}));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t which, apply(b, ANEURALNETWORKS_ARGMAX, {all, one}, i32, {N * C, P}));
  // Offsets in the unpadded image: of view (i, j) within a window, and of each window's origin.
  std::vector<int32_t> viewOffsets, origins;
  for (uint32_t i = 0; i < kH; ++i)
    for (uint32_t j = 0; j < kW; ++j) {
      const int32_t di = static_cast<int32_t>(i) * g.dilationH, dj = static_cast<int32_t>(j) * g.dilationW;
      viewOffsets.push_back(columnMajor ? dj * static_cast<int32_t>(H) + di
                                        : di * static_cast<int32_t>(W) + dj);
    }
  for (uint32_t nc = 0; nc < N * C; ++nc)
    for (uint32_t oh = 0; oh < g.outH; ++oh)
      for (uint32_t ow = 0; ow < g.outW; ++ow) {
        const int64_t h = int64_t{oh} * g.strideH - g.padTop, w = int64_t{ow} * g.strideW - g.padLeft;
        const int64_t within = columnMajor ? w * H + h : h * W + w;
        origins.push_back(static_cast<int32_t>(int64_t{nc} * H * W + within));
      }
  if (int64_t{N} * C * H * W > INT32_MAX) return b.refused("indices beyond int32");
  NNRT_ASSIGN_OR_RETURN(uint32_t offsetOperand, b.constInts(viewOffsets));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeroAxis, b.scalarInt(0));
  NNRT_ASSIGN_OR_RETURN(uint32_t offsets,
                        apply(b, ANEURALNETWORKS_GATHER, {offsetOperand, zeroAxis, which}, i32, {N * C, P}));
  NNRT_ASSIGN_OR_RETURN(uint32_t originOperand, b.constInts(origins, {N * C, P}));
  NNRT_ASSIGN_OR_RETURN(uint32_t indices,
                        arithmetic(b, ANEURALNETWORKS_ADD, offsets, originOperand, i32, {N * C, P}));
  NNRT_ASSIGN_OR_RETURN(uint32_t shaped, b.reshape(indices, i32, out));
  defineOperand(b, 1, shaped, i32, out);
  return {};
}

}  // namespace

// 1-D and 2-D pooling; a 1-D input [N, C, L] is pooled as [N, C, 1, L]. count_include_pad with padding
// PADs with zeros first (NNAPI's averages leave padding out). A dilated MaxPool, or a 2-D one whose
// Indices are read: maxPoolByViews.
Result<void> pool(GraphBuilder& b, int32_t op, bool global) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  if (!(op == ANEURALNETWORKS_MAX_POOL_2D && quantized(x->type))) NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  const bool oneD = x->dims.size() == 3;
  if (x->dims.size() != 4 && !oneD)
    return b.refused("only 1-D and 2-D pooling (3-D and 4-D inputs) are supported");
  const bool wantsIndices = b.node()->output_size() > 1 && !b.node()->output(1).empty();
  if (wantsIndices && oneD) return b.refused("the Indices output of 1-D pooling is not supported");
  if (oneD && !allKnown(x->dims)) return b.refused("input shape unknown");
  const Dims dims = oneD ? Dims{x->dims[0], x->dims[1], 1, x->dims[2]} : x->dims;
  uint32_t kH = dims[2], kW = dims[3];
  Window g;
  bool padFirst = false;
  if (global) {
    if (kH == 0 || kW == 0) return b.refused("spatial input size unknown");
    g.outH = g.outW = 1;
  } else {
    NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, b.attrInts("kernel_shape"));
    if (oneD && kernel.size() == 1) kernel.insert(kernel.begin(), 1);
    if (kernel.size() != 2) return b.refused("kernel_shape must have one entry per spatial axis");
    kH = static_cast<uint32_t>(kernel[0]);
    kW = static_cast<uint32_t>(kernel[1]);
    NNRT_ASSIGN_OR_RETURN(int64_t ceilMode, b.attrInt("ceil_mode", 0));
    NNRT_ASSIGN_OR_RETURN(int64_t storageOrder, b.attrInt("storage_order", 0));  // the Indices' order
    NNRT_ASSIGN_OR_RETURN(int64_t includePad, b.attrInt("count_include_pad", 0));
    if (op == ANEURALNETWORKS_AVERAGE_POOL_2D) NNRT_RETURN_IF_ERROR(refuseBeforeOpset(b, "dilations", 19));
    NNRT_ASSIGN_OR_RETURN(g, windowGeometry(b, dims, kH, kW, ceilMode != 0 && includePad == 0, oneD));
    const bool dilated = g.dilationH != 1 || g.dilationW != 1;
    if (op == ANEURALNETWORKS_MAX_POOL_2D && !oneD && (dilated || wantsIndices))
      return maxPoolByViews(b, *x, g, kH, kW, storageOrder != 0);
    if (op == ANEURALNETWORKS_MAX_POOL_2D && oneD && dilated) {
      // As the 2-D pool of [N, C, 1, L], reshaped back.
      Value image = *x;
      NNRT_ASSIGN_OR_RETURN(uint32_t flat, b.operand(*x));
      NNRT_ASSIGN_OR_RETURN(image.operand, b.reshape(flat, x->type, dims));
      image.dims = dims;
      image.constant.reset();
      NNRT_RETURN_IF_ERROR(maxPoolByViews(b, image, g, kH, kW, false));
      NNRT_ASSIGN_OR_RETURN(uint32_t pooled, b.operand(*b.find(b.node()->output(0))));
      const Dims out1{dims[0], dims[1], g.outW};
      NNRT_ASSIGN_OR_RETURN(uint32_t reshaped, b.reshape(pooled, x->type, out1));
      defineOperand(b, 0, reshaped, x->type, out1);
      return {};
    }
    if (dilated) return b.refused("dilated pooling has no NNAPI operation");
    padFirst = includePad != 0 && (g.padTop || g.padLeft || g.padBottom || g.padRight);
    if (padFirst && ceilMode != 0) return b.refused("count_include_pad with ceil_mode is not supported");
  }
  // A global pool of a float32 image held NCHW with no NHWC copy made (a model input, say) is MEAN or
  // REDUCE_MAX over its planes, [N, C, 1, 1]: making the NHWC copy first took longer than the pool
  // (1x1024x14x14: 33 us of 40).
  if (global && !oneD && !x->nhwc && x->otherLayout == kNoOperand && allKnown(x->dims) &&
      x->type == ANEURALNETWORKS_TENSOR_FLOAT32 && !wantsIndices) {
    NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*x));
    NNRT_ASSIGN_OR_RETURN(uint32_t axes, b.constInts({2, 3}));
    const bool average = op == ANEURALNETWORKS_AVERAGE_POOL_2D;
    NNRT_ASSIGN_OR_RETURN(uint32_t keep, average ? b.scalarInt(1) : b.scalarBool(true));
    return b.emit(average ? ANEURALNETWORKS_MEAN : ANEURALNETWORKS_REDUCE_MAX, {in, axes, keep}, x->type,
                  Dims{dims[0], dims[1], 1, 1});
  }
  // A pool of a known shape runs as NHWC (see convolve), its padding too; a 1-D one as [N, 1, L, C].
  const bool nhwc = allKnown(x->dims);
  NNRT_ASSIGN_OR_RETURN(uint32_t in, !nhwc ? b.operand(*x) : oneD ? b.nhwcImage1D(*x) : b.nhwcOperand(*x));
  if (oneD && !nhwc) {
    NNRT_ASSIGN_OR_RETURN(in, b.reshape(in, x->type, dims));
  }
  if (padFirst) {
    if (!allKnown(dims)) return b.refused("input shape unknown");
    const std::vector<int32_t> spatial{g.padTop, g.padBottom, g.padLeft, g.padRight};
    NNRT_ASSIGN_OR_RETURN(uint32_t paddings,
                          b.constInts(nhwc ? std::vector<int32_t>{0, 0, spatial[0], spatial[1], spatial[2], spatial[3], 0, 0}
                                           : std::vector<int32_t>{0, 0, 0, 0, spatial[0], spatial[1], spatial[2], spatial[3]},
                                      {4, 2}));
    NNRT_ASSIGN_OR_RETURN(uint32_t zero, b.scalarFloat(0.0f));
    const uint32_t h = dims[2] + g.padTop + g.padBottom, w = dims[3] + g.padLeft + g.padRight;
    const Dims padded = nhwc ? Dims{dims[0], h, w, dims[1]} : Dims{dims[0], dims[1], h, w};
    NNRT_ASSIGN_OR_RETURN(in, apply(b, ANEURALNETWORKS_PAD_V2, {in, paddings, zero}, x->type, padded));
    g.padTop = g.padBottom = g.padLeft = g.padRight = 0;
  }
  std::vector<uint32_t> inputs{in};
  for (int32_t v :
       {g.padLeft, g.padRight, g.padTop, g.padBottom, g.strideW, g.strideH, static_cast<int32_t>(kW),
        static_cast<int32_t>(kH), static_cast<int32_t>(ANEURALNETWORKS_FUSED_NONE)}) {
    NNRT_ASSIGN_OR_RETURN(uint32_t s, b.scalarInt(v));
    inputs.push_back(s);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t nchw, b.scalarBool(!nhwc));
  inputs.push_back(nchw);
  const Dims out{dims[0], dims[1], g.outH, g.outW};
  if (nhwc && oneD) return b.emitNhwc1D(op, inputs, x->type, out);
  if (nhwc) return b.emitNhwc(op, inputs, x->type, out);
  if (!oneD) return b.emit(op, inputs, x->type, out);
  NNRT_ASSIGN_OR_RETURN(uint32_t pooled, apply(b, op, inputs, x->type, out));
  const Dims out1{dims[0], dims[1], g.outW};
  NNRT_ASSIGN_OR_RETURN(uint32_t reshaped, b.reshape(pooled, x->type, out1));
  defineOperand(b, 0, reshaped, x->type, out1);
  return {};
}

namespace {

// Transposes a constant 2-D float matrix.
std::vector<float> transposed(const std::vector<float>& m, uint32_t rows, uint32_t cols) {
  std::vector<float> t(m.size());
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < cols; ++c)
      t[c * rows + r] = m[r * cols + c];
  return t;
}

}  // namespace

Result<void> mapGemm(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* a, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* w, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* c, b.input(2));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *a));
  NNRT_ASSIGN_OR_RETURN(float alpha, b.attrFloat("alpha", 1.0f));
  NNRT_ASSIGN_OR_RETURN(float beta, b.attrFloat("beta", 1.0f));
  NNRT_ASSIGN_OR_RETURN(int64_t transA, b.attrInt("transA", 0));
  NNRT_ASSIGN_OR_RETURN(int64_t transB, b.attrInt("transB", 0));
  if (a->dims.size() != 2 || w->dims.size() != 2) return b.refused("A and B must be 2-D");
  NNRT_ASSIGN_OR_RETURN(uint32_t aOperand, b.operand(*a));
  uint32_t M = a->dims[0], K = a->dims[1];
  if (transA != 0) {
    M = a->dims[1];
    K = a->dims[0];
    NNRT_ASSIGN_OR_RETURN(uint32_t perm, b.constInts({1, 0}));
    NNRT_ASSIGN_OR_RETURN(uint32_t t, b.addTensor(a->type, {M, K}));
    NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_TRANSPOSE, {aOperand, perm}, {t}));
    aOperand = t;
  }
  uint32_t N = transB != 0 ? w->dims[0] : w->dims[1];
  if ((transB != 0 ? w->dims[1] : w->dims[0]) != K || K == 0 || N == 0)
    return b.refused("A and B do not multiply");
  // FULLY_CONNECTED takes weights as [N, K].
  uint32_t weights;
  if (transB != 0) {
    NNRT_ASSIGN_OR_RETURN(weights, b.operand(*w));
  } else if (w->constant.has_value()) {
    std::vector<float> m(elementCount(w->dims));
    std::memcpy(m.data(), w->constant->bytes.data(), m.size() * 4);
    NNRT_ASSIGN_OR_RETURN(weights, b.constFloats(transposed(m, K, N), {N, K}));
  } else {
    NNRT_ASSIGN_OR_RETURN(uint32_t in, b.operand(*w));
    NNRT_ASSIGN_OR_RETURN(uint32_t perm, b.constInts({1, 0}));
    NNRT_ASSIGN_OR_RETURN(weights, b.addTensor(w->type, {N, K}));
    NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_TRANSPOSE, {in, perm}, {weights}));
  }
  // C joins as FULLY_CONNECTED's bias when it is a constant vector of N (or one value) and alpha is 1;
  // otherwise alpha * (A B) + beta * C is computed as ONNX writes it.
  bool cAsBias = false;
  std::vector<float> biasValues(N, 0.0f);
  if (c != nullptr && c->constant.has_value() && alpha == 1.0f) {
    size_t count = elementCount(c->dims);
    bool vector = count == N && (c->dims.size() == 1 || (c->dims.size() == 2 && c->dims[0] == 1));
    if (vector || count == 1) {
      std::vector<float> values(count);
      std::memcpy(values.data(), c->constant->bytes.data(), count * 4);
      for (uint32_t n = 0; n < N; ++n)
        biasValues[n] = beta * values[count == 1 ? 0 : n];
      cAsBias = true;
    }
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t bias, b.constFloats(biasValues));
  // The product is the result when alpha is 1 and C is the bias (or absent): a following Relu or Clip
  // then joins it as its fused activation.
  const bool last = alpha == 1.0f && (c == nullptr || cAsBias);
  NNRT_ASSIGN_OR_RETURN(uint32_t fuse,
                        b.scalarInt(last ? b.fuseFollowingActivation() : ANEURALNETWORKS_FUSED_NONE));
  NNRT_ASSIGN_OR_RETURN(uint32_t product, b.addTensor(a->type, {M, N}));
  NNRT_RETURN_IF_ERROR(
      b.addOperation(ANEURALNETWORKS_FULLY_CONNECTED, {aOperand, weights, bias, fuse}, {product}));
  uint32_t result = product;
  if (alpha != 1.0f) {
    NNRT_ASSIGN_OR_RETURN(uint32_t alphaOperand, b.constFloats({alpha}));
    NNRT_ASSIGN_OR_RETURN(uint32_t f, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
    NNRT_ASSIGN_OR_RETURN(uint32_t scaled, b.addTensor(a->type, {M, N}));
    NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_MUL, {result, alphaOperand, f}, {scaled}));
    result = scaled;
  }
  if (c != nullptr && !cAsBias) {
    uint32_t cOperand;
    if (beta == 1.0f) {
      NNRT_ASSIGN_OR_RETURN(cOperand, b.operand(*c));
    } else {
      NNRT_ASSIGN_OR_RETURN(uint32_t cIn, b.operand(*c));
      NNRT_ASSIGN_OR_RETURN(uint32_t betaOperand, b.constFloats({beta}));
      NNRT_ASSIGN_OR_RETURN(uint32_t f, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
      NNRT_ASSIGN_OR_RETURN(cOperand, b.addTensor(c->type, c->dims));
      NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_MUL, {cIn, betaOperand, f}, {cOperand}));
    }
    NNRT_ASSIGN_OR_RETURN(Dims dims, broadcastShape(b, {M, N}, c->dims));
    if (dims != Dims{M, N}) return b.refused("C does not broadcast to [M, N]");
    NNRT_ASSIGN_OR_RETURN(uint32_t f, b.scalarInt(ANEURALNETWORKS_FUSED_NONE));
    NNRT_ASSIGN_OR_RETURN(uint32_t sum, b.addTensor(a->type, {M, N}));
    NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_ADD, {result, cOperand, f}, {sum}));
    result = sum;
  }
  Value v;
  v.operand = result;
  v.type = a->type;
  v.dims = {M, N};
  b.define(0, v);
  return {};
}

// MatMul of an A [..., K] by a constant float32 matrix B [K, N], as exporters write every projection
// of a transformer (and tf2onnx every dense layer, A of rank 2): one FULLY_CONNECTED over A's rows (B
// transposed to its [N, K] weights at load time, so that the cpu device packs them once), with a
// RESHAPE to and from [rows, K] where A has more than two dimensions. The same sums as numpy's matmul.
// The Add of a constant vector that usually follows becomes the FULLY_CONNECTED's bias (else it is zero).
Result<void> matMulByConstantMatrix(GraphBuilder& b, const Value& a, const Value& w) {
  const uint32_t K = w.dims[0], N = w.dims[1];
  if (a.dims.back() != K || K == 0 || N == 0) return b.refused("operands do not multiply");
  for (uint32_t d : a.dims)
    if (d == 0) return b.refused("A's shape is not known");
  const uint32_t rows = static_cast<uint32_t>(elementCount(a.dims) / K);
  std::vector<float> m(elementCount(w.dims));
  std::memcpy(m.data(), w.constant->bytes.data(), m.size() * 4);
  NNRT_ASSIGN_OR_RETURN(uint32_t weights, b.constFloats(transposed(m, K, N), {N, K}));
  NNRT_ASSIGN_OR_RETURN(uint32_t bias, b.constFloats(b.absorbFollowingBias(N, a.dims.size()).value_or(std::vector<float>(N, 0.0f))));
  const bool matrix = a.dims.size() == 2;
  NNRT_ASSIGN_OR_RETURN(uint32_t input, b.operand(a));
  uint32_t flat = input;
  if (!matrix) {
    NNRT_ASSIGN_OR_RETURN(flat, b.reshape(input, a.type, {rows, K}));
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t fuse, b.scalarInt(b.fuseFollowingActivation()));  // after the bias
  NNRT_ASSIGN_OR_RETURN(uint32_t product, b.addTensor(a.type, {rows, N}));
  NNRT_RETURN_IF_ERROR(b.addOperation(ANEURALNETWORKS_FULLY_CONNECTED, {flat, weights, bias, fuse}, {product}));
  Dims out = a.dims;
  out.back() = N;
  uint32_t shaped = product;
  if (!matrix) {
    NNRT_ASSIGN_OR_RETURN(shaped, b.reshape(product, a.type, out));
  }
  defineOperand(b, 0, shaped, a.type, out);
  return {};
}

Result<void> mapMatMul(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* a, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* w, b.requiredInput(1));
  NNRT_RETURN_IF_ERROR(refuseQuantizedArithmetic(b, *a));
  if (a->scalar || w->scalar || a->dims.size() < 2 || w->dims.size() < 2) {
    return b.refused("1-D operands are not supported");
  }
  if (w->dims.size() == 2 && w->constant.has_value() &&
      a->type == ANEURALNETWORKS_TENSOR_FLOAT32) {
    return matMulByConstantMatrix(b, *a, *w);
  }
  if (a->dims.size() != w->dims.size() || a->dims.size() > 4)
    return b.refused("operands must have the same rank, 2 to 4 (or B a constant matrix)");
  size_t r = a->dims.size();
  for (size_t i = 0; i + 2 < r; ++i) {
    if (a->dims[i] != w->dims[i]) return b.refused("broadcast batch dimensions are not supported");
  }
  if (a->dims[r - 1] != w->dims[r - 2]) return b.refused("operands do not multiply");
  Dims out = a->dims;
  out[r - 1] = w->dims[r - 1];
  NNRT_ASSIGN_OR_RETURN(uint32_t x, b.operand(*a));
  NNRT_ASSIGN_OR_RETURN(uint32_t y, b.operand(*w));
  NNRT_ASSIGN_OR_RETURN(uint32_t adjX, b.scalarBool(false));
  NNRT_ASSIGN_OR_RETURN(uint32_t adjY, b.scalarBool(false));
  return b.emit(ANEURALNETWORKS_BATCH_MATMUL, {x, y, adjX, adjY}, a->type, out);
}

// ConvTranspose (2-D, and 1-D as NC1L; group 1) -> TRANSPOSE_CONV_2D with explicit padding and the NCHW
// flag. Weights [C, M, kH, kW] are reordered to NNAPI's [M, kH, kW, C] at load time (dilations spread
// them with zeros); output_padding, or an output_shape larger than the full result, adds zero rows and
// columns at the end (PAD_V2, the bias added after), as ONNX's definition gives them.
Result<void> mapConvTranspose(GraphBuilder& b) {
  NNRT_ASSIGN_OR_RETURN(const Value* x, b.requiredInput(0));
  NNRT_ASSIGN_OR_RETURN(const Value* w, b.requiredInput(1));
  NNRT_ASSIGN_OR_RETURN(const Value* bias, b.input(2));
  NNRT_RETURN_IF_ERROR(requireFloat(b, *x));
  const bool oneD = x->dims.size() == 3;
  if (x->dims.size() != 4 && !oneD)
    return b.refused("only 1-D and 2-D transposed convolutions are supported");
  if (!allKnown(x->dims)) return b.refused("input shape unknown");
  if (w->dims.size() != x->dims.size() || !allKnown(w->dims))
    return b.refused("weights must have the input's rank");
  NNRT_ASSIGN_OR_RETURN(std::vector<float> weights, b.constantFloats(1));
  NNRT_ASSIGN_OR_RETURN(int64_t group, b.attrInt("group", 1));
  if (group != 1) return b.refused("group other than 1 has no NNAPI operation");
  auto pairOf = [&](const char* name, int64_t fallback) -> Result<std::vector<int64_t>> {
    NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> v, b.attrInts(name));
    if (v.empty()) v.assign(oneD ? 1 : 2, fallback);
    if (oneD && v.size() == 1) v.insert(v.begin(), fallback);
    if (v.size() != 2) return b.refused(std::string(name) + " must have one entry per spatial axis");
    return v;
  };
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> strides, pairOf("strides", 1));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> dilations, pairOf("dilations", 1));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> outputPadding, pairOf("output_padding", 0));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> outputShape, b.attrInts("output_shape"));
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> pads, b.attrInts("pads"));
  NNRT_ASSIGN_OR_RETURN(std::string autoPad, b.attrString("auto_pad", "NOTSET"));
  if (oneD && pads.size() == 2) pads = {0, pads[0], 0, pads[1]};
  if (oneD && outputShape.size() == 1) outputShape.insert(outputShape.begin(), 1);
  const Dims in = oneD ? Dims{x->dims[0], x->dims[1], 1, x->dims[2]} : x->dims;
  const uint32_t C = w->dims[0], M = w->dims[1], kH = oneD ? 1 : w->dims[2], kW = w->dims.back();
  if (in[1] != C) return b.refused("the weights do not match the input's channels");
  NNRT_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, b.attrInts("kernel_shape"));
  if (!kernel.empty() && (kernel.back() != kW || (!oneD && kernel[0] != kH)))
    return b.refused("kernel_shape differs from the weights' shape");
  for (int64_t v : {strides[0], strides[1], dilations[0], dilations[1]})
    if (v < 1) return b.refused("strides and dilations must be positive");
  // Per axis: the full size, the padding at each end (negative at the end: zeros added there).
  int64_t begin[2], end[2], outSize[2];
  const int64_t extent[2] = {(static_cast<int64_t>(kH) - 1) * dilations[0] + 1,
                             (static_cast<int64_t>(kW) - 1) * dilations[1] + 1};
  for (int i = 0; i < 2; ++i) {
    const int64_t full = strides[i] * (in[2 + i] - 1) + outputPadding[i] + extent[i];
    if (outputPadding[i] < 0 || outputPadding[i] >= std::max(strides[i], dilations[i]))
      return b.refused("output_padding must be below the stride or the dilation");
    if (!outputShape.empty() || (autoPad != "NOTSET" && autoPad != "VALID")) {
      int64_t target = outputShape.empty()       ? in[2 + i] * strides[i]
                       : outputShape.size() == 2 ? outputShape[i]
                                                 : -1;
      if (target < 1) return b.refused("output_shape must have one positive entry per spatial axis");
      int64_t total = full - target;
      if (total < 0) {
        begin[i] = 0;
        end[i] = total;
      } else if (autoPad == "SAME_LOWER") {
        end[i] = total / 2;
        begin[i] = total - end[i];
      } else {
        begin[i] = total / 2;
        end[i] = total - begin[i];
      }
    } else if (autoPad == "VALID" || pads.empty()) {
      begin[i] = end[i] = 0;
    } else {
      if (pads.size() != 4) return b.refused("pads must have one pair per spatial axis");
      begin[i] = pads[i];
      end[i] = pads[2 + i];
      if (begin[i] < 0 || end[i] < 0) return b.refused("negative pads");
    }
    // output_padding is a negative padding at the end.
    end[i] -= outputPadding[i];
    outSize[i] = full - outputPadding[i] - begin[i] - end[i];
    if (outSize[i] < 1) return b.refused("the output would be empty");
  }
  // NNAPI filter [M, eH, eW, C], the kernel spread by the dilations.
  const uint32_t eH = static_cast<uint32_t>(extent[0]), eW = static_cast<uint32_t>(extent[1]);
  std::vector<float> filter(static_cast<size_t>(M) * eH * eW * C, 0.0f);
  for (uint32_t c = 0; c < C; ++c)
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t h = 0; h < kH; ++h)
        for (uint32_t ww = 0; ww < kW; ++ww) {
          size_t fh = h * dilations[0], fw = ww * dilations[1];
          filter[((m * eH + fh) * eW + fw) * C + c] = weights[((c * M + m) * kH + h) * kW + ww];
        }
  NNRT_ASSIGN_OR_RETURN(uint32_t filterOperand, b.constFloats(filter, {M, eH, eW, C}));
  NNRT_ASSIGN_OR_RETURN(uint32_t zeroBias, b.constFloats(std::vector<float>(M, 0.0f)));
  const bool extended = end[0] < 0 || end[1] < 0;
  // A 2-D one whose output the operation covers runs on NHWC images, as Conv does (a U-Net's
  // upsampling between NHWC convolutions), and takes a following Relu or Clip as its activation.
  const bool nhwc = !oneD && !extended;
  NNRT_ASSIGN_OR_RETURN(uint32_t input, nhwc ? b.nhwcOperand(*x) : b.operand(*x));
  if (oneD) {
    NNRT_ASSIGN_OR_RETURN(input, b.reshape(input, x->type, in));
  }
  const int32_t cropBottom = static_cast<int32_t>(std::max<int64_t>(end[0], 0));
  const int32_t cropRight = static_cast<int32_t>(std::max<int64_t>(end[1], 0));
  const Dims convOut{in[0], M, static_cast<uint32_t>(outSize[0] + std::min<int64_t>(end[0], 0)),
                     static_cast<uint32_t>(outSize[1] + std::min<int64_t>(end[1], 0))};
  uint32_t biasOperand = zeroBias;
  if (bias != nullptr) {
    if (bias->dims != Dims{M}) return b.refused("bias must have shape [M]");
    if (!extended) {
      NNRT_ASSIGN_OR_RETURN(biasOperand, b.operand(*bias));
    }
  }
  std::vector<uint32_t> inputs{input, filterOperand, biasOperand};
  for (int32_t v : {static_cast<int32_t>(begin[1]), cropRight, static_cast<int32_t>(begin[0]), cropBottom,
                    static_cast<int32_t>(strides[1]), static_cast<int32_t>(strides[0]),
                    nhwc ? b.fuseFollowingActivation() : static_cast<int32_t>(ANEURALNETWORKS_FUSED_NONE)}) {
    NNRT_ASSIGN_OR_RETURN(uint32_t s, b.scalarInt(v));
    inputs.push_back(s);
  }
  NNRT_ASSIGN_OR_RETURN(uint32_t nchw, b.scalarBool(!nhwc));
  inputs.push_back(nchw);
  if (nhwc) return b.emitNhwc(ANEURALNETWORKS_TRANSPOSE_CONV_2D, inputs, x->type, convOut);
  NNRT_ASSIGN_OR_RETURN(uint32_t current,
                        apply(b, ANEURALNETWORKS_TRANSPOSE_CONV_2D, inputs, x->type, convOut));
  const Dims out{in[0], M, static_cast<uint32_t>(outSize[0]), static_cast<uint32_t>(outSize[1])};
  if (extended) {
    NNRT_ASSIGN_OR_RETURN(uint32_t paddings,
                          b.constInts({0, 0, 0, 0, 0, static_cast<int32_t>(out[2] - convOut[2]), 0,
                                       static_cast<int32_t>(out[3] - convOut[3])},
                                      {4, 2}));
    NNRT_ASSIGN_OR_RETURN(uint32_t zero, b.scalarFloat(0.0f));
    NNRT_ASSIGN_OR_RETURN(current, apply(b, ANEURALNETWORKS_PAD_V2, {current, paddings, zero}, x->type, out));
    if (bias != nullptr) {
      NNRT_ASSIGN_OR_RETURN(uint32_t o, b.operand(*bias));
      NNRT_ASSIGN_OR_RETURN(uint32_t perChannel, b.reshape(o, bias->type, {M, 1, 1}));
      NNRT_ASSIGN_OR_RETURN(current, arithmetic(b, ANEURALNETWORKS_ADD, current, perChannel, x->type, out));
    }
  }
  if (oneD) {
    const Dims out1{out[0], M, out[3]};
    NNRT_ASSIGN_OR_RETURN(current, b.reshape(current, x->type, out1));
    defineOperand(b, 0, current, x->type, out1);
    return {};
  }
  defineOperand(b, 0, current, x->type, out);
  return {};
}

}  // namespace nnrt::onnxfront
