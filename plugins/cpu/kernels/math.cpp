#include "plugins/cpu/kernels/math.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "plugins/cpu/kernels/broadcast.hpp"
#include "plugins/cpu/kernels/exp_float.hpp"
#include "plugins/cpu/kernels/log_float.hpp"
#include "plugins/cpu/kernels/sin_float.hpp"
#include "plugins/cpu/kernels/parallel.hpp"
#include "plugins/cpu/kernels/quantization.hpp"

namespace nnrt::cpu {

using detail::broadcastBinary;

namespace {

template <typename T>
bool holds(Comparison c, T x, T y) {
  switch (c) {
    case Comparison::Equal:
      return x == y;
    case Comparison::NotEqual:
      return x != y;
    case Comparison::Greater:
      return x > y;
    case Comparison::GreaterEqual:
      return x >= y;
    case Comparison::Less:
      return x < y;
    case Comparison::LessEqual:
      return x <= y;
  }
  return false;
}

// The comparison is chosen once, outside the loop, so that each loop vectorizes.
template <typename T>
void compareValues(const T* a, const Shape& aShape, const T* b, const Shape& bShape, Comparison c, uint8_t* out,
                   const Shape& outShape) {
  auto run = [&](auto compare) {
    broadcastBinary(a, aShape, b, bShape, out, outShape,
                    [compare](T x, T y) { return static_cast<uint8_t>(compare(x, y)); });
  };
  switch (c) {
    case Comparison::Equal:
      return run(std::equal_to<T>());
    case Comparison::NotEqual:
      return run(std::not_equal_to<T>());
    case Comparison::Greater:
      return run(std::greater<T>());
    case Comparison::GreaterEqual:
      return run(std::greater_equal<T>());
    case Comparison::Less:
      return run(std::less<T>());
    case Comparison::LessEqual:
      return run(std::less_equal<T>());
  }
}

// MAXIMUM (larger) or MINIMUM of quantized operands: the chosen operand's byte through its
// requantization table into the output's parameters.
void extremumQuant8(const uint8_t* a, const Shape& aShape, Quant aQuant, const uint8_t* b, const Shape& bShape,
                    Quant bQuant, bool larger, uint8_t* out, const Shape& outShape, Quant outQuant) {
  const auto fromA = requantizeTable(aQuant, outQuant);
  const auto fromB = requantizeTable(bQuant, outQuant);
  broadcastBinary(a, aShape, b, bShape, out, outShape, [&](uint8_t x, uint8_t y) {
    const double rx = realValue(x, aQuant), ry = realValue(y, bQuant);
    const bool takeA = larger ? rx >= ry : rx <= ry;
    return takeA ? fromA[x] : fromB[y];
  });
}

// out[i] = f(in[i]) over n values, the function chosen once, outside the loop, so that the loops
// vectorize (LOG and SIN call the C library only for what lies beyond their ranges: log_float.hpp,
// sin_float.hpp). Compiled for AVX-512 and AVX2 as well as
// the baseline: the same bits on each (the kernels are built without contracted multiply-adds). EXP of
// 802816 values (a one-operation model, 2 threads): 545-560 -> 130-139 us.
__attribute__((target_clones("avx512f", "avx2", "default")))
void unaryRun(const float* in, size_t n, UnaryMath f, float* out) {
  switch (f) {
    case UnaryMath::Abs:
      for (size_t i = 0; i < n; ++i) out[i] = std::fabs(in[i]);
      return;
    case UnaryMath::Exp:
      for (size_t i = 0; i < n; ++i) out[i] = expFloat(in[i]);
      return;
    case UnaryMath::Log:
      logValues(in, n, out);
      return;
    case UnaryMath::Neg:
      for (size_t i = 0; i < n; ++i) out[i] = -in[i];
      return;
    case UnaryMath::Rsqrt:
      for (size_t i = 0; i < n; ++i) out[i] = 1.0f / std::sqrt(in[i]);
      return;
    case UnaryMath::Sin:
      sinValues(in, n, out);
      return;
    case UnaryMath::Sqrt:
      for (size_t i = 0; i < n; ++i) out[i] = std::sqrt(in[i]);
      return;
  }
}

}  // namespace

void unaryMath(const float* in, size_t count, UnaryMath f, float* out) {
  detail::parallelFor(count, 8, [&](size_t begin, size_t end) { unaryRun(in + begin, end - begin, f, out + begin); });
}

void unaryMath(const int32_t* in, size_t count, UnaryMath f, int32_t* out) {
  detail::parallelFor(count, 1, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      // Through uint32_t: negating INT32_MIN wraps instead of overflowing.
      const auto u = static_cast<uint32_t>(in[i]);
      const bool negate = f == UnaryMath::Neg || (f == UnaryMath::Abs && in[i] < 0);
      out[i] = static_cast<int32_t>(negate ? 0u - u : u);
    }
  });
}

void compare(const float* a, const Shape& aShape, const float* b, const Shape& bShape, Comparison c, uint8_t* out,
             const Shape& outShape) {
  compareValues(a, aShape, b, bShape, c, out, outShape);
}
void compare(const int32_t* a, const Shape& aShape, const int32_t* b, const Shape& bShape, Comparison c,
             uint8_t* out, const Shape& outShape) {
  compareValues(a, aShape, b, bShape, c, out, outShape);
}
void compareBool(const uint8_t* a, const Shape& aShape, const uint8_t* b, const Shape& bShape, Comparison c,
                 uint8_t* out, const Shape& outShape) {
  broadcastBinary(a, aShape, b, bShape, out, outShape,
            [c](uint8_t x, uint8_t y) { return static_cast<uint8_t>(holds(c, x != 0, y != 0)); });
}
void compare(const uint8_t* a, const Shape& aShape, Quant aQuant, const uint8_t* b, const Shape& bShape,
             Quant bQuant, Comparison c, uint8_t* out, const Shape& outShape) {
  broadcastBinary(a, aShape, b, bShape, out, outShape,
            [&](uint8_t x, uint8_t y) { return static_cast<uint8_t>(holds(c, realValue(x, aQuant), realValue(y, bQuant))); });
}

void maximum(const float* a, const Shape& aShape, const float* b, const Shape& bShape, float* out,
             const Shape& outShape) {
  broadcastBinary(a, aShape, b, bShape, out, outShape, [](float x, float y) { return std::max(x, y); });
}
void minimum(const float* a, const Shape& aShape, const float* b, const Shape& bShape, float* out,
             const Shape& outShape) {
  broadcastBinary(a, aShape, b, bShape, out, outShape, [](float x, float y) { return std::min(x, y); });
}
void maximum(const int32_t* a, const Shape& aShape, const int32_t* b, const Shape& bShape, int32_t* out,
             const Shape& outShape) {
  broadcastBinary(a, aShape, b, bShape, out, outShape, [](int32_t x, int32_t y) { return std::max(x, y); });
}
void minimum(const int32_t* a, const Shape& aShape, const int32_t* b, const Shape& bShape, int32_t* out,
             const Shape& outShape) {
  broadcastBinary(a, aShape, b, bShape, out, outShape, [](int32_t x, int32_t y) { return std::min(x, y); });
}
void maximum(const uint8_t* a, const Shape& aShape, Quant aQuant, const uint8_t* b, const Shape& bShape,
             Quant bQuant, uint8_t* out, const Shape& outShape, Quant outQuant) {
  extremumQuant8(a, aShape, aQuant, b, bShape, bQuant, true, out, outShape, outQuant);
}
void minimum(const uint8_t* a, const Shape& aShape, Quant aQuant, const uint8_t* b, const Shape& bShape,
             Quant bQuant, uint8_t* out, const Shape& outShape, Quant outQuant) {
  extremumQuant8(a, aShape, aQuant, b, bShape, bQuant, false, out, outShape, outQuant);
}

void logical(const uint8_t* a, const Shape& aShape, const uint8_t* b, const Shape& bShape, Logical op, uint8_t* out,
             const Shape& outShape) {
  if (aShape.dims == outShape.dims && bShape.dims == outShape.dims) {
    // No broadcasting: the operation chosen outside the loops, which vectorize (802816 values 277 -> 20 us).
    // (Byte stores may alias anything: the pointers are copied to restrict-qualified locals, or every
    // store would reload them from the closure and nothing would vectorize.)
    detail::parallelFor(outShape.elements(), 1, [a, b, out, op](size_t begin, size_t end) {
      const uint8_t* __restrict x = a + begin;
      const uint8_t* __restrict y = b + begin;
      uint8_t* __restrict z = out + begin;
      const size_t n = end - begin;
      if (op == Logical::And) {
        for (size_t i = 0; i < n; ++i) z[i] = static_cast<uint8_t>((x[i] != 0) & (y[i] != 0));
      } else {
        for (size_t i = 0; i < n; ++i) z[i] = static_cast<uint8_t>((x[i] != 0) | (y[i] != 0));
      }
    });
    return;
  }
  broadcastBinary(a, aShape, b, bShape, out, outShape, [op](uint8_t x, uint8_t y) {
    return static_cast<uint8_t>(op == Logical::And ? (x != 0 && y != 0) : (x != 0 || y != 0));
  });
}

void logicalNot(const uint8_t* in, size_t count, uint8_t* out) {
  detail::parallelFor(count, 1, [in, out](size_t begin, size_t end) {
    const uint8_t* __restrict x = in + begin;
    uint8_t* __restrict z = out + begin;
    for (size_t i = 0; i < end - begin; ++i) z[i] = x[i] == 0 ? 1 : 0;
  });
}

void select(const uint8_t* condition, const void* a, const void* b, size_t count, size_t elementSize, void* out) {
  // Elements of 1, 2, 4 or 8 bytes as integers of that width (a loop that vectorizes); others by bytes.
  auto typed = [&](auto zero) {
    using T = decltype(zero);
    const auto* pa = static_cast<const T*>(a);
    const auto* pb = static_cast<const T*>(b);
    auto* po = static_cast<T*>(out);
    detail::parallelFor(count, 1, [condition, pa, pb, po](size_t begin, size_t end) {
      // Both values read, then one chosen: a blend the compiler vectorizes.
      for (size_t i = begin; i < end; ++i) {
        const T x = pa[i], y = pb[i];
        po[i] = condition[i] != 0 ? x : y;
      }
    });
  };
  switch (elementSize) {
    case 1:
      return typed(uint8_t{});
    case 2:
      return typed(uint16_t{});
    case 4:
      return typed(uint32_t{});
    case 8:
      return typed(uint64_t{});
  }
  const auto* pa = static_cast<const uint8_t*>(a);
  const auto* pb = static_cast<const uint8_t*>(b);
  auto* po = static_cast<uint8_t*>(out);
  detail::parallelFor(count, elementSize, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      std::memcpy(po + i * elementSize, (condition[i] != 0 ? pa : pb) + i * elementSize, elementSize);
  });
}

void select(const uint8_t* condition, const uint8_t* a, Quant aQuant, const uint8_t* b, Quant bQuant, size_t count,
            uint8_t* out, Quant outQuant) {
  const auto fromA = requantizeTable(aQuant, outQuant);
  const auto fromB = requantizeTable(bQuant, outQuant);
  for (size_t i = 0; i < count; ++i) out[i] = condition[i] != 0 ? fromA[a[i]] : fromB[b[i]];
}

}  // namespace nnrt::cpu
