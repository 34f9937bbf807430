// Double-precision references for L2_NORMALIZATION, LOCAL_RESPONSE_NORMALIZATION, RESIZE_BILINEAR,
// DEQUANTIZE and LSH_PROJECTION (hashing with FarmHash, the function NNAPI names), written from the NNAPI definitions (NeuralNetworks.h) and sharing no code with any
// driver. Values are reals: quantized cases dequantize their inputs (ref::dequantize) and quantize the
// exact result (ref::quantize). Image tensors are NHWC (NCHW cases convert with nhwcToNchw).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <farmhash.h>

#include "support/reference_ops.hpp"

namespace nnrt::test::ref {

namespace image_detail {
// outer x size x inner around `axis`.
inline void splitAt(const std::vector<uint32_t>& dims, uint32_t axis, size_t& outer, size_t& size, size_t& inner) {
  outer = 1;
  inner = 1;
  size = dims[axis];
  for (uint32_t i = 0; i < axis; ++i)
    outer *= dims[i];
  for (size_t i = axis + 1; i < dims.size(); ++i)
    inner *= dims[i];
}
}  // namespace image_detail

// L2_NORMALIZATION: each vector along `axis` divided by its Euclidean norm (a zero vector stays 0).
inline Tensor l2Normalization(const Tensor& in, uint32_t axis) {
  size_t outer, size, inner;
  image_detail::splitAt(in.dims, axis, outer, size, inner);
  Tensor out{in.dims, std::vector<double>(in.values.size(), 0.0)};
  for (size_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < inner; ++i) {
      double squares = 0.0;
      for (size_t k = 0; k < size; ++k)
        squares += std::pow(in.values[(o * size + k) * inner + i], 2);
      const double norm = std::sqrt(squares);
      for (size_t k = 0; k < size; ++k) {
        const size_t at = (o * size + k) * inner + i;
        out.values[at] = norm > 0 ? in.values[at] / norm : 0.0;
      }
    }
  return out;
}

// LOCAL_RESPONSE_NORMALIZATION: sqr_sum = sum of input^2 over [d - radius, d + radius] along `axis`
// (inside the tensor); output = input / (bias + alpha * sqr_sum)^beta.
inline Tensor localResponseNormalization(const Tensor& in, uint32_t axis, int radius, double bias, double alpha,
                                         double beta) {
  size_t outer, size, inner;
  image_detail::splitAt(in.dims, axis, outer, size, inner);
  Tensor out{in.dims, std::vector<double>(in.values.size(), 0.0)};
  for (size_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < inner; ++i)
      for (int d = 0; d < static_cast<int>(size); ++d) {
        double sqrSum = 0.0;
        for (int j = d - radius; j <= d + radius; ++j) {
          if (j < 0 || j >= static_cast<int>(size)) continue;
          sqrSum += std::pow(in.values[(o * size + static_cast<size_t>(j)) * inner + i], 2);
        }
        const size_t at = (o * size + static_cast<size_t>(d)) * inner + i;
        out.values[at] = in.values[at] / std::pow(bias + alpha * sqrSum, beta);
      }
  return out;
}

// RESIZE_BILINEAR of an NHWC tensor to outH x outW. Scale per dimension: in / out, or (in - 1) /
// (out - 1) with align corners (and out > 1). Output pixel i samples source coordinate i * scale, or
// (i + 0.5) * scale - 0.5 with half pixel centers, clamped to [0, in - 1], interpolating linearly
// between the two neighbouring pixels in each dimension.
inline Tensor resizeBilinear(const Tensor& in, uint32_t outH, uint32_t outW, bool alignCorners,
                             bool halfPixelCenters) {
  const uint32_t n = in.dims[0], h = in.dims[1], w = in.dims[2], c = in.dims[3];
  auto source = [&](uint32_t i, uint32_t inSize, uint32_t outSize) {
    const double scale = alignCorners && outSize > 1 ? double(inSize - 1) / double(outSize - 1)
                                                     : double(inSize) / double(outSize);
    const double x = halfPixelCenters ? (i + 0.5) * scale - 0.5 : i * scale;
    return std::clamp(x, 0.0, double(inSize - 1));
  };
  auto pixel = [&](uint32_t b, uint32_t y, uint32_t x, uint32_t k) {
    return in.values[((size_t(b) * h + y) * w + x) * c + k];
  };
  Tensor out{{n, outH, outW, c}, std::vector<double>(size_t(n) * outH * outW * c)};
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t oy = 0; oy < outH; ++oy)
      for (uint32_t ox = 0; ox < outW; ++ox) {
        const double sy = source(oy, h, outH), sx = source(ox, w, outW);
        const uint32_t y0 = uint32_t(std::floor(sy)), x0 = uint32_t(std::floor(sx));
        const uint32_t y1 = std::min(y0 + 1, h - 1), x1 = std::min(x0 + 1, w - 1);
        const double fy = sy - y0, fx = sx - x0;
        for (uint32_t k = 0; k < c; ++k) {
          out.values[((size_t(b) * outH + oy) * outW + ox) * c + k] =
              (1 - fy) * (1 - fx) * pixel(b, y0, x0, k) + (1 - fy) * fx * pixel(b, y0, x1, k) +
              fy * (1 - fx) * pixel(b, y1, x0, k) + fy * fx * pixel(b, y1, x1, k);
        }
      }
  return out;
}

// DEQUANTIZE with one scale per index along `channelDim` (TENSOR_QUANT8_SYMM_PER_CHANNEL: zero
// point 0). Per-tensor forms use ref::dequantize.
inline std::vector<double> dequantizePerChannel(const Tensor& q, uint32_t channelDim,
                                                const std::vector<float>& scales) {
  size_t outer, size, inner;
  image_detail::splitAt(q.dims, channelDim, outer, size, inner);
  std::vector<double> real(q.values.size());
  for (size_t o = 0; o < outer; ++o)
    for (size_t k = 0; k < size; ++k)
      for (size_t i = 0; i < inner; ++i) {
        const size_t at = (o * size + k) * inner + i;
        real[at] = q.values[at] * double(scales[k]);
      }
  return real;
}

// LSH_PROJECTION (type 1 SPARSE_DEPRECATED, 2 DENSE, 3 SPARSE): for seed s (a float32) and input row
// r (its bytes as stored), h(s, r) = FarmHash Fingerprint64 of the 4 bytes of s followed by the row's
// bytes, read as a signed 64-bit integer. Bit (i, j) = 1 when sum over r of weight[r] * h(seed[i][j], r)
// is positive (weight 1 without weights). DENSE outputs the bits; SPARSE one integer per projection
// i, its bits in order, plus i * 2^numBits (not added by SPARSE_DEPRECATED).
inline std::vector<double> lshProjection(const std::vector<double>& seeds, size_t numHash, size_t numBits,
                                         const std::vector<uint8_t>& inputBytes, size_t rows,
                                         const std::vector<double>& weights, int type) {
  const size_t rowBytes = rows == 0 ? 0 : inputBytes.size() / rows;
  std::vector<double> out;
  for (size_t i = 0; i < numHash; ++i) {
    int64_t signature = 0;
    for (size_t j = 0; j < numBits; ++j) {
      const float seed = static_cast<float>(seeds[i * numBits + j]);
      double sum = 0;
      for (size_t r = 0; r < rows; ++r) {
        std::string key(reinterpret_cast<const char*>(&seed), sizeof(seed));
        key.append(reinterpret_cast<const char*>(inputBytes.data() + r * rowBytes), rowBytes);
        const double h = static_cast<double>(static_cast<int64_t>(util::Fingerprint64(key.data(), key.size())));
        sum += (weights.empty() ? 1.0 : weights[r]) * h;
      }
      const int bit = sum > 0 ? 1 : 0;
      if (type == 2) out.push_back(bit);
      signature = signature * 2 + bit;
    }
    if (type == 3) signature += static_cast<int64_t>(i) << numBits;
    if (type != 2) out.push_back(static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(signature))));
  }
  return out;
}

}  // namespace nnrt::test::ref
