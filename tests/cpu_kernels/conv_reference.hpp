// A convolution layer for the kernel tests (shapes NHWC, filters [outC, kh, kw, inC] or, depthwise,
// [1, kh, kw, outC]) and a direct double-precision loop to check kernels against.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "plugins/cpu/kernels/conv.hpp"

namespace nnrt::cpu::test {

struct Layer {
  uint32_t n, h, w, inC, outC, kh, kw;
  Conv2DParams p;
  uint32_t outH() const {
    return (h + p.padTop + p.padBottom - ((kh - 1) * p.dilationH + 1)) / p.strideH + 1;
  }
  uint32_t outW() const {
    return (w + p.padLeft + p.padRight - ((kw - 1) * p.dilationW + 1)) / p.strideW + 1;
  }
  std::string name() const {
    return std::to_string(n) + "x" + std::to_string(h) + "x" + std::to_string(w) + "x" + std::to_string(inC) +
           " k" + std::to_string(kh) + "x" + std::to_string(kw) + " -> " + std::to_string(outC);
  }
};

// Direct convolution in double; `depthwise` selects the depthwise channel mapping. Returns the result
// (before activation) and, per output, the sum of |terms| for the float tolerance.
struct Reference {
  std::vector<double> value, magnitude;
};

using Values = std::function<double(size_t)>;

inline Reference referenceConv(const Layer& l, bool depthwise, const Values& input, const Values& filter,
                        const Values& bias) {
  const uint32_t oh = l.outH(), ow = l.outW();
  const uint32_t multiplier = depthwise ? l.outC / l.inC : 0;
  Reference r;
  r.value.resize(size_t{l.n} * oh * ow * l.outC);
  r.magnitude.resize(r.value.size());
  size_t o = 0;
  for (uint32_t b = 0; b < l.n; ++b) {
    for (uint32_t y = 0; y < oh; ++y) {
      for (uint32_t x = 0; x < ow; ++x) {
        for (uint32_t oc = 0; oc < l.outC; ++oc, ++o) {
          double sum = bias(oc), mag = std::fabs(sum);
          for (uint32_t ky = 0; ky < l.kh; ++ky) {
            for (uint32_t kx = 0; kx < l.kw; ++kx) {
              const long iy = long(y * l.p.strideH + ky * l.p.dilationH) - long(l.p.padTop);
              const long ix = long(x * l.p.strideW + kx * l.p.dilationW) - long(l.p.padLeft);
              if (iy < 0 || iy >= long(l.h) || ix < 0 || ix >= long(l.w)) continue;
              const size_t pixel = ((size_t{b} * l.h + iy) * l.w + ix) * l.inC;
              if (depthwise) {
                const double term =
                    input(pixel + oc / multiplier) * filter((size_t{ky} * l.kw + kx) * l.outC + oc);
                sum += term;
                mag += std::fabs(term);
              } else {
                for (uint32_t ic = 0; ic < l.inC; ++ic) {
                  const double term =
                      input(pixel + ic) * filter(((size_t{oc} * l.kh + ky) * l.kw + kx) * l.inC + ic);
                  sum += term;
                  mag += std::fabs(term);
                }
              }
            }
          }
          r.value[o] = sum;
          r.magnitude[o] = mag;
        }
      }
    }
  }
  return r;
}

inline Conv2DParams explicitParams(uint32_t l, uint32_t r, uint32_t t, uint32_t b, uint32_t sw, uint32_t sh,
                            uint32_t dw, uint32_t dh, Activation act) {
  return {l, r, t, b, sw, sh, dw, dh, act};
}

}  // namespace nnrt::cpu::test
