// Double-precision reference implementations of NNAPI operations for tests: plain loops written from
// the NNAPI definitions, sharing no code with any driver, so that an expectation computed here is an
// independent check of a driver. Image tensors are NHWC; nchwToNhwc / nhwcToNchw convert.
//
// Quantized operations are tested by dequantizing inputs (dequantize), computing in double here and
// quantizing the exact result (quantize); a driver must land within one step of it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

namespace nnrt::test::ref {

struct Tensor {
  std::vector<uint32_t> dims;
  std::vector<double> values;  // row-major
};

inline size_t count(const std::vector<uint32_t>& dims) {
  size_t n = 1;
  for (uint32_t d : dims)
    n *= d;
  return n;
}

// Row-major strides of `dims`, in elements.
inline std::vector<size_t> strides(const std::vector<uint32_t>& dims) {
  std::vector<size_t> s(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;)
    s[i - 1] = s[i] * dims[i];
  return s;
}

// ---- Quantization and fused activations -----------------------------------------------------------

inline double dequantize(double q, double scale, int32_t zeroPoint) {
  return (q - zeroPoint) * scale;
}
inline std::vector<double> dequantize(const std::vector<double>& q, double scale, int32_t zeroPoint) {
  std::vector<double> r(q.size());
  for (size_t i = 0; i < q.size(); ++i)
    r[i] = dequantize(q[i], scale, zeroPoint);
  return r;
}
// round(real / scale) + zeroPoint, clamped to [lo, hi] (0..255 for TENSOR_QUANT8_ASYMM).
inline double quantize(double real, double scale, int32_t zeroPoint, double lo = 0, double hi = 255) {
  return std::clamp(std::round(real / scale) + zeroPoint, lo, hi);
}
inline std::vector<double> quantize(const std::vector<double>& real, double scale, int32_t zeroPoint,
                                    double lo = 0, double hi = 255) {
  std::vector<double> q(real.size());
  for (size_t i = 0; i < real.size(); ++i)
    q[i] = quantize(real[i], scale, zeroPoint, lo, hi);
  return q;
}

// NNAPI FuseCode: 0 none, 1 RELU, 2 RELU1, 3 RELU6.
inline double activate(double x, int fuseCode) {
  switch (fuseCode) {
    case 1:
      return std::max(0.0, x);
    case 2:
      return std::clamp(x, -1.0, 1.0);
    case 3:
      return std::clamp(x, 0.0, 6.0);
    default:
      return x;
  }
}
inline std::vector<double> activate(std::vector<double> x, int fuseCode) {
  for (double& v : x)
    v = activate(v, fuseCode);
  return x;
}

// ---- Element-wise ----------------------------------------------------------------------------------

// NumPy broadcasting from the trailing dimension.
inline Tensor broadcast(const Tensor& a, const Tensor& b, const std::function<double(double, double)>& fn) {
  const size_t rank = std::max(a.dims.size(), b.dims.size());
  auto padded = [rank](const std::vector<uint32_t>& d) {
    std::vector<uint32_t> p(rank - d.size(), 1);
    p.insert(p.end(), d.begin(), d.end());
    return p;
  };
  const auto pa = padded(a.dims), pb = padded(b.dims);
  Tensor out;
  for (size_t i = 0; i < rank; ++i) {
    if (pa[i] != pb[i] && pa[i] != 1 && pb[i] != 1)
      throw std::invalid_argument("ref::broadcast: shapes differ");
    out.dims.push_back(std::max(pa[i], pb[i]));
  }
  const auto sa = strides(pa), sb = strides(pb), so = strides(out.dims);
  out.values.resize(count(out.dims));
  for (size_t i = 0; i < out.values.size(); ++i) {
    size_t ia = 0, ib = 0;
    for (size_t d = 0; d < rank; ++d) {
      const size_t c = (i / so[d]) % out.dims[d];
      if (pa[d] != 1) ia += c * sa[d];
      if (pb[d] != 1) ib += c * sb[d];
    }
    out.values[i] = fn(a.values[ia], b.values[ib]);
  }
  return out;
}

// ---- Layout ------------------------------------------------------------------------------------------

inline Tensor transpose(const Tensor& in, const std::vector<uint32_t>& perm) {
  Tensor out;
  for (uint32_t p : perm)
    out.dims.push_back(in.dims[p]);
  const auto si = strides(in.dims), so = strides(out.dims);
  out.values.resize(in.values.size());
  for (size_t i = 0; i < out.values.size(); ++i) {
    size_t source = 0;
    for (size_t d = 0; d < perm.size(); ++d)
      source += ((i / so[d]) % out.dims[d]) * si[perm[d]];
    out.values[i] = in.values[source];
  }
  return out;
}
inline Tensor nchwToNhwc(const Tensor& t) {
  return transpose(t, {0, 2, 3, 1});
}
inline Tensor nhwcToNchw(const Tensor& t) {
  return transpose(t, {0, 3, 1, 2});
}

// ---- Windows -----------------------------------------------------------------------------------------

// Explicit geometry of a 2-D window (convolution or pool).
struct Window {
  uint32_t padLeft = 0, padRight = 0, padTop = 0, padBottom = 0;
  uint32_t strideW = 1, strideH = 1;
  uint32_t dilationW = 1, dilationH = 1;
};

// NNAPI's SAME padding along one dimension: {before, after}, the odd element after.
inline std::pair<uint32_t, uint32_t> samePadding(uint32_t in, uint32_t filter, uint32_t stride,
                                                 uint32_t dilation = 1) {
  const int64_t out = (in + stride - 1) / stride;
  const int64_t needed = (out - 1) * stride + (int64_t{filter} - 1) * dilation + 1 - in;
  const int64_t total = std::max<int64_t>(needed, 0);
  return {static_cast<uint32_t>(total / 2), static_cast<uint32_t>(total - total / 2)};
}

inline uint32_t windowOutput(uint32_t in, uint32_t filter, uint32_t padBefore, uint32_t padAfter,
                             uint32_t stride, uint32_t dilation) {
  const uint32_t effective = (filter - 1) * dilation + 1;
  return (in + padBefore + padAfter - effective) / stride + 1;
}

// CONV_2D: in [N, H, W, C], filter [O, KH, KW, C], bias [O] -> [N, OH, OW, O]; padding reads zeros.
inline Tensor conv2d(const Tensor& in, const Tensor& filter, const std::vector<double>& bias, const Window& w,
                     int fuseCode = 0) {
  const uint32_t n = in.dims[0], h = in.dims[1], wd = in.dims[2], c = in.dims[3];
  const uint32_t o = filter.dims[0], kh = filter.dims[1], kw = filter.dims[2];
  const uint32_t oh = windowOutput(h, kh, w.padTop, w.padBottom, w.strideH, w.dilationH);
  const uint32_t ow = windowOutput(wd, kw, w.padLeft, w.padRight, w.strideW, w.dilationW);
  Tensor out{{n, oh, ow, o}, std::vector<double>(size_t{n} * oh * ow * o)};
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t y = 0; y < oh; ++y)
      for (uint32_t x = 0; x < ow; ++x)
        for (uint32_t oc = 0; oc < o; ++oc) {
          double sum = bias.empty() ? 0.0 : bias[oc];
          for (uint32_t ky = 0; ky < kh; ++ky)
            for (uint32_t kx = 0; kx < kw; ++kx) {
              const int64_t iy = int64_t{y} * w.strideH - w.padTop + int64_t{ky} * w.dilationH;
              const int64_t ix = int64_t{x} * w.strideW - w.padLeft + int64_t{kx} * w.dilationW;
              if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
              for (uint32_t ic = 0; ic < c; ++ic) {
                sum += in.values[((size_t{b} * h + iy) * wd + ix) * c + ic] *
                       filter.values[((size_t{oc} * kh + ky) * kw + kx) * c + ic];
              }
            }
          out.values[((size_t{b} * oh + y) * ow + x) * o + oc] = activate(sum, fuseCode);
        }
  return out;
}

// DEPTHWISE_CONV_2D: in [N, H, W, C], filter [1, KH, KW, C * multiplier]; output channel oc reads
// input channel oc / multiplier.
inline Tensor depthwiseConv2d(const Tensor& in, const Tensor& filter, const std::vector<double>& bias,
                              const Window& w, int fuseCode = 0) {
  const uint32_t n = in.dims[0], h = in.dims[1], wd = in.dims[2], c = in.dims[3];
  const uint32_t kh = filter.dims[1], kw = filter.dims[2], o = filter.dims[3];
  const uint32_t multiplier = o / c;
  const uint32_t oh = windowOutput(h, kh, w.padTop, w.padBottom, w.strideH, w.dilationH);
  const uint32_t ow = windowOutput(wd, kw, w.padLeft, w.padRight, w.strideW, w.dilationW);
  Tensor out{{n, oh, ow, o}, std::vector<double>(size_t{n} * oh * ow * o)};
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t y = 0; y < oh; ++y)
      for (uint32_t x = 0; x < ow; ++x)
        for (uint32_t oc = 0; oc < o; ++oc) {
          double sum = bias.empty() ? 0.0 : bias[oc];
          for (uint32_t ky = 0; ky < kh; ++ky)
            for (uint32_t kx = 0; kx < kw; ++kx) {
              const int64_t iy = int64_t{y} * w.strideH - w.padTop + int64_t{ky} * w.dilationH;
              const int64_t ix = int64_t{x} * w.strideW - w.padLeft + int64_t{kx} * w.dilationW;
              if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
              sum += in.values[((size_t{b} * h + iy) * wd + ix) * c + oc / multiplier] *
                     filter.values[(size_t{ky} * kw + kx) * o + oc];
            }
          out.values[((size_t{b} * oh + y) * ow + x) * o + oc] = activate(sum, fuseCode);
        }
  return out;
}

enum class PoolKind { Average, Max, L2 };

// The pools over [N, H, W, C] with a filterH x filterW window: padding is never counted (an average
// divides by the number of input elements the window covers).
inline Tensor pool2d(const Tensor& in, PoolKind kind, uint32_t filterH, uint32_t filterW, const Window& w,
                     int fuseCode = 0) {
  const uint32_t n = in.dims[0], h = in.dims[1], wd = in.dims[2], c = in.dims[3];
  const uint32_t oh = windowOutput(h, filterH, w.padTop, w.padBottom, w.strideH, 1);
  const uint32_t ow = windowOutput(wd, filterW, w.padLeft, w.padRight, w.strideW, 1);
  Tensor out{{n, oh, ow, c}, std::vector<double>(size_t{n} * oh * ow * c)};
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t y = 0; y < oh; ++y)
      for (uint32_t x = 0; x < ow; ++x)
        for (uint32_t ch = 0; ch < c; ++ch) {
          double acc = kind == PoolKind::Max ? -std::numeric_limits<double>::infinity() : 0.0;
          int covered = 0;
          for (uint32_t ky = 0; ky < filterH; ++ky)
            for (uint32_t kx = 0; kx < filterW; ++kx) {
              const int64_t iy = int64_t{y} * w.strideH - w.padTop + ky;
              const int64_t ix = int64_t{x} * w.strideW - w.padLeft + kx;
              if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
              const double v = in.values[((size_t{b} * h + iy) * wd + ix) * c + ch];
              ++covered;
              if (kind == PoolKind::Max) {
                acc = std::max(acc, v);
              } else {
                acc += kind == PoolKind::L2 ? v * v : v;
              }
            }
          double r = 0.0;
          if (covered > 0) {
            r = kind == PoolKind::Max ? acc : acc / covered;
            if (kind == PoolKind::L2) r = std::sqrt(r);
          }
          out.values[((size_t{b} * oh + y) * ow + x) * c + ch] = activate(r, fuseCode);
        }
  return out;
}

// ---- Other operations -----------------------------------------------------------------------------------

// FULLY_CONNECTED: input flattened to [batch, inputSize], weights [units, inputSize].
inline Tensor fullyConnected(const Tensor& in, const Tensor& weights, const std::vector<double>& bias,
                             int fuseCode = 0) {
  const uint32_t units = weights.dims[0], inputSize = weights.dims[1];
  const uint32_t batch = static_cast<uint32_t>(in.values.size() / inputSize);
  Tensor out{{batch, units}, std::vector<double>(size_t{batch} * units)};
  for (uint32_t b = 0; b < batch; ++b)
    for (uint32_t u = 0; u < units; ++u) {
      double sum = bias.empty() ? 0.0 : bias[u];
      for (uint32_t k = 0; k < inputSize; ++k)
        sum += in.values[size_t{b} * inputSize + k] * weights.values[size_t{u} * inputSize + k];
      out.values[size_t{b} * units + u] = activate(sum, fuseCode);
    }
  return out;
}

// SOFTMAX along `axis`: exp(beta * (x - max)) / sum.
inline Tensor softmax(const Tensor& in, double beta, uint32_t axis) {
  Tensor out{in.dims, std::vector<double>(in.values.size())};
  const size_t inner = strides(in.dims)[axis];
  const size_t n = in.dims[axis];
  const size_t outer = in.values.size() / (inner * n);
  for (size_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < inner; ++i) {
      const size_t base = o * n * inner + i;
      double max = -std::numeric_limits<double>::infinity();
      for (size_t k = 0; k < n; ++k)
        max = std::max(max, in.values[base + k * inner]);
      double sum = 0.0;
      for (size_t k = 0; k < n; ++k)
        sum += std::exp(beta * (in.values[base + k * inner] - max));
      for (size_t k = 0; k < n; ++k)
        out.values[base + k * inner] = std::exp(beta * (in.values[base + k * inner] - max)) / sum;
    }
  return out;
}

inline Tensor concatenation(const std::vector<Tensor>& inputs, uint32_t axis) {
  Tensor out{inputs[0].dims, {}};
  out.dims[axis] = 0;
  for (const Tensor& t : inputs)
    out.dims[axis] += t.dims[axis];
  const size_t outer = count(std::vector<uint32_t>(out.dims.begin(), out.dims.begin() + axis));
  for (size_t o = 0; o < outer; ++o)
    for (const Tensor& t : inputs) {
      const size_t block = t.values.size() / outer;
      out.values.insert(out.values.end(), t.values.begin() + o * block, t.values.begin() + (o + 1) * block);
    }
  return out;
}

// PAD with `value` (0 for floats, the zero point for quantized tensors).
inline Tensor pad(const Tensor& in, const std::vector<uint32_t>& before, const std::vector<uint32_t>& after,
                  double value = 0.0) {
  Tensor out;
  for (size_t d = 0; d < in.dims.size(); ++d)
    out.dims.push_back(before[d] + in.dims[d] + after[d]);
  out.values.assign(count(out.dims), value);
  const auto si = strides(in.dims), so = strides(out.dims);
  for (size_t i = 0; i < in.values.size(); ++i) {
    size_t target = 0;
    for (size_t d = 0; d < in.dims.size(); ++d)
      target += ((i / si[d]) % in.dims[d] + before[d]) * so[d];
    out.values[target] = in.values[i];
  }
  return out;
}

// MEAN over `axes` (non-negative, any order, repeats allowed).
inline Tensor mean(const Tensor& in, const std::vector<uint32_t>& axes, bool keepDims) {
  std::vector<bool> reduce(in.dims.size(), false);
  for (uint32_t a : axes)
    reduce[a] = true;
  std::vector<uint32_t> kept;
  for (size_t d = 0; d < in.dims.size(); ++d)
    kept.push_back(reduce[d] ? 1 : in.dims[d]);
  Tensor out{kept, std::vector<double>(count(kept), 0.0)};
  const auto si = strides(in.dims), so = strides(kept);
  for (size_t i = 0; i < in.values.size(); ++i) {
    size_t target = 0;
    for (size_t d = 0; d < in.dims.size(); ++d)
      if (!reduce[d]) target += ((i / si[d]) % in.dims[d]) * so[d];
    out.values[target] += in.values[i];
  }
  const double n = static_cast<double>(in.values.size()) / out.values.size();
  for (double& v : out.values)
    v /= n;
  if (!keepDims) {
    out.dims.clear();
    for (size_t d = 0; d < in.dims.size(); ++d)
      if (!reduce[d]) out.dims.push_back(in.dims[d]);
    if (out.dims.empty()) out.dims.push_back(1);
  }
  return out;
}

inline std::vector<double> map(const std::vector<double>& x, const std::function<double(double)>& fn) {
  std::vector<double> r(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    r[i] = fn(x[i]);
  return r;
}

}  // namespace nnrt::test::ref
