// The tiled GEMM behind FULLY_CONNECTED and CONV_2D: C[M, N] = act(A[M, K] * B[N, K]^T + bias[N]),
// all row-major. B is the weights / filter as NNAPI stores it ([units, inputSize] or
// [Cout, KH * KW * Cin]), so no transposition is needed.
//
// This file is a template: the host includes it once per tile configuration, defining GEMM_TM x
// GEMM_TN (the output tile of one work-group), GEMM_TK (the depth of one step through K), GEMM_WM x
// GEMM_WN (the outputs of one work-item) and GEMM_SUFFIX (appended to the kernel names).
//
// A work-group of (GEMM_TN / GEMM_WN) x (GEMM_TM / GEMM_WM) work-items walks K in steps of GEMM_TK:
// together they copy a GEMM_TM x GEMM_TK slice of A and a GEMM_TN x GEMM_TK slice of B into local
// memory (zeros past the edges, so M, N and K need not divide the tiles), then each work-item
// accumulates its GEMM_WM x GEMM_WN outputs from local memory. The outputs of a work-item are spread
// GEMM_TM / GEMM_WM rows and GEMM_TN / GEMM_WN columns apart, so neighbouring work-items read
// neighbouring local words and write neighbouring output columns.
//
// For CONV_2D, A is the im2col matrix of the input, never built: a row is an output position
// (n, oy, ox), a column a filter tap (ky, kx, ci), and each load reads the input directly (zero in
// the padding). Each work-item always loads the same column of the A and B slices, so the tap is
// decoded once per step and the rows once per kernel.

#define GEMM_RM (GEMM_TM / GEMM_WM)
#define GEMM_RN (GEMM_TN / GEMM_WN)
#define GEMM_WG (GEMM_RM * GEMM_RN)
#define GEMM_ROW_STEP (GEMM_WG / GEMM_TK)
#define GEMM_A_LOADS (GEMM_TM / GEMM_ROW_STEP)
#define GEMM_B_LOADS (GEMM_TN / GEMM_ROW_STEP)

inline void NNRT_CAT(nnrt_gemm_body, GEMM_SUFFIX)(const __global storage_t* A, const __global storage_t* B,
                                                  const __global storage_t* bias, __global storage_t* C,
                                                  int M, int N, int K, float lo, float hi, const int conv,
                                                  const ConvGeometry g, __local real* As, __local real* Bs) {
  const int tx = get_local_id(0);
  const int ty = get_local_id(1);
  const int lid = ty * GEMM_RN + tx;
  const int rowBase = get_group_id(1) * GEMM_TM;
  const int colBase = get_group_id(0) * GEMM_TN;
  const int kk = lid % GEMM_TK;  // the slice column this work-item loads
  const int r0 = lid / GEMM_TK;  // its first slice row

  // Where the A rows this work-item loads start (-1: past M); for a convolution also the input
  // position of the receptive field's top-left tap.
  int aBase[GEMM_A_LOADS], aY[GEMM_A_LOADS], aX[GEMM_A_LOADS];
#pragma unroll
  for (int j = 0; j < GEMM_A_LOADS; ++j) {
    const int row = rowBase + r0 + j * GEMM_ROW_STEP;
    aBase[j] = -1;
    aY[j] = 0;
    aX[j] = 0;
    if (row < M) {
      if (conv) {
        const int ox = row % g.outW;
        const int t = row / g.outW;
        const int oy = t % g.outH;
        const int n = t / g.outH;
        aBase[j] = n * g.inH * g.inW * g.inC;
        aY[j] = oy * g.strideH - g.padTop;
        aX[j] = ox * g.strideW - g.padLeft;
      } else {
        aBase[j] = row * K;
      }
    }
  }

  float acc[GEMM_WM][GEMM_WN];
#pragma unroll
  for (int r = 0; r < GEMM_WM; ++r) {
#pragma unroll
    for (int c = 0; c < GEMM_WN; ++c) acc[r][c] = 0.0f;
  }

  for (int k0 = 0; k0 < K; k0 += GEMM_TK) {
    const int k = k0 + kk;
    const bool kIn = k < K;
    int ci = k, dy = 0, dx = 0;
    if (conv && kIn) {
      ci = k % g.inC;
      const int tap = k / g.inC;
      dx = (tap % g.kernelW) * g.dilationW;
      dy = (tap / g.kernelW) * g.dilationH;
    }
#pragma unroll
    for (int j = 0; j < GEMM_A_LOADS; ++j) {
      real v = 0;
      if (kIn && aBase[j] >= 0) {
        if (conv) {
          const int iy = aY[j] + dy;
          const int ix = aX[j] + dx;
          if (iy >= 0 && iy < g.inH && ix >= 0 && ix < g.inW) v = LOAD(A, aBase[j] + (iy * g.inW + ix) * g.inC + ci);
        } else {
          v = LOAD(A, aBase[j] + k);
        }
      }
      As[kk * GEMM_TM + r0 + j * GEMM_ROW_STEP] = v;
    }
#pragma unroll
    for (int j = 0; j < GEMM_B_LOADS; ++j) {
      const int c = r0 + j * GEMM_ROW_STEP;
      const int col = colBase + c;
      Bs[kk * GEMM_TN + c] = (kIn && col < N) ? LOAD(B, col * K + k) : (real)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll 4
    for (int q = 0; q < GEMM_TK; ++q) {
      float a[GEMM_WM], b[GEMM_WN];
#pragma unroll
      for (int r = 0; r < GEMM_WM; ++r) a[r] = (float)As[q * GEMM_TM + ty + r * GEMM_RM];
#pragma unroll
      for (int c = 0; c < GEMM_WN; ++c) b[c] = (float)Bs[q * GEMM_TN + tx + c * GEMM_RN];
#pragma unroll
      for (int r = 0; r < GEMM_WM; ++r) {
#pragma unroll
        for (int c = 0; c < GEMM_WN; ++c) acc[r][c] += a[r] * b[c];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

#pragma unroll
  for (int r = 0; r < GEMM_WM; ++r) {
    const int row = rowBase + ty + r * GEMM_RM;
    if (row >= M) continue;
#pragma unroll
    for (int c = 0; c < GEMM_WN; ++c) {
      const int col = colBase + tx + c * GEMM_RN;
      if (col < N) STORE(C, row * N + col, clampActivation(acc[r][c] + (float)LOAD(bias, col), lo, hi));
    }
  }
}

__kernel __attribute__((reqd_work_group_size(GEMM_RN, GEMM_RM, 1))) void NNRT_CAT(nnrt_gemm, GEMM_SUFFIX)(
    const __global storage_t* A, const __global storage_t* B, const __global storage_t* bias,
    __global storage_t* C, int M, int N, int K, float lo, float hi) {
  __local real As[GEMM_TK * GEMM_TM];
  __local real Bs[GEMM_TK * GEMM_TN];
  const ConvGeometry none = {0};
  NNRT_CAT(nnrt_gemm_body, GEMM_SUFFIX)(A, B, bias, C, M, N, K, lo, hi, 0, none, As, Bs);
}

__kernel __attribute__((reqd_work_group_size(GEMM_RN, GEMM_RM, 1))) void NNRT_CAT(nnrt_conv, GEMM_SUFFIX)(
    const __global storage_t* input, const __global storage_t* filter, const __global storage_t* bias,
    __global storage_t* out, int M, int N, int K, float lo, float hi, int inH, int inW, int inC, int kernelW,
    int outH, int outW, int strideH, int strideW, int padTop, int padLeft, int dilationH, int dilationW) {
  __local real As[GEMM_TK * GEMM_TM];
  __local real Bs[GEMM_TK * GEMM_TN];
  const ConvGeometry g = {inH, inW, inC, kernelW, outH, outW, strideH, strideW, padTop, padLeft, dilationH,
                          dilationW};
  NNRT_CAT(nnrt_gemm_body, GEMM_SUFFIX)(input, filter, bias, out, M, N, K, lo, hi, 1, g, As, Bs);
}

#undef GEMM_RM
#undef GEMM_RN
#undef GEMM_WG
#undef GEMM_ROW_STEP
#undef GEMM_A_LOADS
#undef GEMM_B_LOADS
