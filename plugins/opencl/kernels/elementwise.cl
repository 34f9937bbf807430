// ADD, SUB, MUL, DIV with NumPy broadcasting and a fused activation; RELU family, LOGISTIC, TANH;
// RESHAPE and CONCATENATION copies. One work-item per output element; the global size is rounded up
// to the work-group size, so every kernel checks its index against `count`.

// The output is walked as 4 dimensions; a stride of 0 marks a broadcast dimension of an input.
#define NNRT_BINARY(name, expr)                                                                     \
  __kernel void name(const __global storage_t* a, const __global storage_t* b, __global storage_t* out, \
                     int count, int4 dims, int4 aStride, int4 bStride, float lo, float hi) {           \
    const int i = get_global_id(0);                                                                 \
    if (i >= count) return;                                                                         \
    const int i3 = i % dims.s3;                                                                     \
    const int r2 = i / dims.s3;                                                                     \
    const int i2 = r2 % dims.s2;                                                                    \
    const int r1 = r2 / dims.s2;                                                                    \
    const int i1 = r1 % dims.s1;                                                                    \
    const int i0 = r1 / dims.s1;                                                                    \
    const int4 at = (int4)(i0, i1, i2, i3);                                                         \
    const int4 ai = at * aStride;                                                                   \
    const int4 bi = at * bStride;                                                                   \
    const real x = LOAD(a, ai.s0 + ai.s1 + ai.s2 + ai.s3);                                          \
    const real y = LOAD(b, bi.s0 + bi.s1 + bi.s2 + bi.s3);                                          \
    STORE(out, i, clampActivation((float)(expr), lo, hi));                                          \
  }                                                                                                 \
  __kernel void name##_same(const __global storage_t* a, const __global storage_t* b,               \
                            __global storage_t* out, int count, float lo, float hi) {               \
    const int i = get_global_id(0);                                                                 \
    if (i >= count) return;                                                                         \
    const real x = LOAD(a, i);                                                                      \
    const real y = LOAD(b, i);                                                                      \
    STORE(out, i, clampActivation((float)(expr), lo, hi));                                          \
  }

NNRT_BINARY(nnrt_add, x + y)
NNRT_BINARY(nnrt_sub, x - y)
NNRT_BINARY(nnrt_mul, x * y)
NNRT_BINARY(nnrt_div, x / y)

// RELU (0, inf), RELU1 (-1, 1), RELU6 (0, 6).
__kernel void nnrt_clamp(const __global storage_t* in, __global storage_t* out, int count, float lo, float hi) {
  const int i = get_global_id(0);
  if (i >= count) return;
  STORE(out, i, clampActivation((float)LOAD(in, i), lo, hi));
}

__kernel void nnrt_logistic(const __global storage_t* in, __global storage_t* out, int count) {
  const int i = get_global_id(0);
  if (i >= count) return;
  const float x = (float)LOAD(in, i);
  STORE(out, i, 1.0f / (1.0f + exp(-x)));
}

__kernel void nnrt_tanh(const __global storage_t* in, __global storage_t* out, int count) {
  const int i = get_global_id(0);
  if (i >= count) return;
  STORE(out, i, tanh((float)LOAD(in, i)));
}

__kernel void nnrt_copy(const __global storage_t* in, __global storage_t* out, int count) {
  const int i = get_global_id(0);
  if (i >= count) return;
  STORE(out, i, LOAD(in, i));  // exact: half storage round-trips through float
}

// One input of a CONCATENATION: the input is [outer, inInner] and lands in the output [outer,
// outInner] at column `offset` (inner sizes count the concatenated axis and everything after it).
__kernel void nnrt_concat(const __global storage_t* in, __global storage_t* out, int count, int inInner,
                          int outInner, int offset) {
  const int i = get_global_id(0);
  if (i >= count) return;
  const int row = i / inInner;
  STORE(out, row * outInner + offset + i % inInner, LOAD(in, i));
}
