#include "plugins/cpu/kernels/activation.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "plugins/cpu/kernels/exp_float.hpp"
#include "plugins/cpu/kernels/tanh_float.hpp"
#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/quantization.hpp"

namespace nnrt::cpu {
namespace {

template <typename T, typename Op>
void unary(const T* in, size_t count, T* out, size_t workPerItem, const Op& op) {
  detail::parallelFor(count, workPerItem, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      out[i] = op(in[i]);
  });
}

void clampFloat(const float* in, size_t count, Activation act, float* out) {
  const auto [lo, hi] = activationRange(act);
  unary(in, count, out, 1, [lo, hi](float x) { return std::min(std::max(x, lo), hi); });
}

void clampQuant8(const uint8_t* in, size_t count, Quant quant, Activation act, uint8_t* out) {
  const auto [lo, hi] = activationRangeQuant8(act, quant);
  unary(in, count, out, 1, [lo, hi](uint8_t q) { return clampToUint8(q, lo, hi); });
}

void lookup(const uint8_t* in, size_t count, const std::array<uint8_t, 256>& table, uint8_t* out) {
  unary(in, count, out, 1, [&table](uint8_t q) { return table[q]; });
}

}  // namespace

void relu(const float* in, size_t count, float* out) {
  clampFloat(in, count, Activation::Relu, out);
}
void relu1(const float* in, size_t count, float* out) {
  clampFloat(in, count, Activation::Relu1, out);
}
void relu6(const float* in, size_t count, float* out) {
  clampFloat(in, count, Activation::Relu6, out);
}

void logistic(const float* in, size_t count, float* out) {
  unary(in, count, out, 16, [](float x) { return 1.0f / (1.0f + expFloat(-x)); });
}

void tanh(const float* in, size_t count, float* out) {
  unary(in, count, out, 16, [](float x) { return tanhFloat(x); });
}

void relu(const uint8_t* in, size_t count, Quant quant, uint8_t* out) {
  clampQuant8(in, count, quant, Activation::Relu, out);
}
void relu1(const uint8_t* in, size_t count, Quant quant, uint8_t* out) {
  clampQuant8(in, count, quant, Activation::Relu1, out);
}
void relu6(const uint8_t* in, size_t count, Quant quant, uint8_t* out) {
  clampQuant8(in, count, quant, Activation::Relu6, out);
}

void logistic(const uint8_t* in, size_t count, Quant inQuant, uint8_t* out) {
  const auto table =
      unaryTable(inQuant, Quant{1.0f / 256, 0}, [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
  lookup(in, count, table, out);
}

void tanh(const uint8_t* in, size_t count, Quant inQuant, uint8_t* out) {
  const auto table = unaryTable(inQuant, Quant{1.0f / 128, 128}, [](double x) { return std::tanh(x); });
  lookup(in, count, table, out);
}

}  // namespace nnrt::cpu
