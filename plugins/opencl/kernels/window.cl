// DEPTHWISE_CONV_2D, AVERAGE_POOL_2D and MAX_POOL_2D over NHWC tensors with explicit padding: one
// work-item per output element, channels fastest so that neighbouring work-items read neighbouring
// input words. Taps outside the input are skipped (zero for the convolution; not counted by the
// pools, and a window wholly in the padding gives 0, as in the CPU reference).

// Output element i of [N, outH, outW, C] as (n, oy, ox, c).
inline int4 nnrt_nhwc(int i, int outH, int outW, int C) {
  const int c = i % C;
  int t = i / C;
  const int ox = t % outW;
  t /= outW;
  return (int4)(t / outH, t % outH, ox, c);
}

__kernel void nnrt_depthwise_conv(const __global storage_t* in, const __global storage_t* filter,
                                  const __global storage_t* bias, __global storage_t* out, int count, int inH,
                                  int inW, int inC, int kernelH, int kernelW, int outH, int outW, int outC,
                                  int multiplier, int strideH, int strideW, int padTop, int padLeft,
                                  int dilationH, int dilationW, float lo, float hi) {
  const int i = get_global_id(0);
  if (i >= count) return;
  const int4 p = nnrt_nhwc(i, outH, outW, outC);
  const int ci = p.s3 / multiplier;
  float acc = (float)LOAD(bias, p.s3);
  for (int ky = 0; ky < kernelH; ++ky) {
    const int iy = p.s1 * strideH - padTop + ky * dilationH;
    if (iy < 0 || iy >= inH) continue;
    for (int kx = 0; kx < kernelW; ++kx) {
      const int ix = p.s2 * strideW - padLeft + kx * dilationW;
      if (ix < 0 || ix >= inW) continue;
      acc += (float)LOAD(in, ((p.s0 * inH + iy) * inW + ix) * inC + ci) *
             (float)LOAD(filter, (ky * kernelW + kx) * outC + p.s3);
    }
  }
  STORE(out, i, clampActivation(acc, lo, hi));
}

#define NNRT_POOL(name, init, step, finish)                                                              \
  __kernel void name(const __global storage_t* in, __global storage_t* out, int count, int inH, int inW,  \
                     int C, int outH, int outW, int filterH, int filterW, int strideH, int strideW,       \
                     int padTop, int padLeft, float lo, float hi) {                                       \
    const int i = get_global_id(0);                                                                       \
    if (i >= count) return;                                                                               \
    const int4 p = nnrt_nhwc(i, outH, outW, C);                                                           \
    const int y0 = p.s1 * strideH - padTop;                                                               \
    const int x0 = p.s2 * strideW - padLeft;                                                              \
    const int yBegin = max(y0, 0), yEnd = min(y0 + filterH, inH);                                         \
    const int xBegin = max(x0, 0), xEnd = min(x0 + filterW, inW);                                         \
    float acc = init;                                                                                     \
    for (int y = yBegin; y < yEnd; ++y) {                                                                 \
      for (int x = xBegin; x < xEnd; ++x) {                                                               \
        const float v = (float)LOAD(in, ((p.s0 * inH + y) * inW + x) * C + p.s3);                         \
        acc = step;                                                                                       \
      }                                                                                                   \
    }                                                                                                     \
    const int covered = max(yEnd - yBegin, 0) * max(xEnd - xBegin, 0);                                    \
    STORE(out, i, clampActivation(covered > 0 ? (finish) : 0.0f, lo, hi));                                \
  }

NNRT_POOL(nnrt_avg_pool, 0.0f, acc + v, acc / (float)covered)
NNRT_POOL(nnrt_max_pool, -INFINITY, fmax(acc, v), acc)
