// Shared by every kernel of the opencl driver. The host prepends the build options that pick the
// precision of a model's program:
//   (none)              float32 storage and arithmetic;
//   -DNNRT_HALF_STORAGE  tensors stored as half, arithmetic in float (vload_half / vstore_half are
//                        core OpenCL, so this works on every device);
//   -DNNRT_HALF_COMPUTE  tensors stored as half and element-wise arithmetic in half (cl_khr_fp16).
// Sums over many terms (GEMM, pools, softmax) always accumulate in float.
#if defined(NNRT_HALF_COMPUTE)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef half storage_t;
typedef half real;
#define LOAD(p, i) ((p)[i])
#define STORE(p, i, v) ((p)[i] = (half)(v))
#elif defined(NNRT_HALF_STORAGE)
typedef half storage_t;
typedef float real;
#define LOAD(p, i) vload_half((i), (p))
#define STORE(p, i, v) vstore_half_rte((float)(v), (i), (p))
#else
typedef float storage_t;
typedef float real;
#define LOAD(p, i) ((p)[i])
#define STORE(p, i, v) ((p)[i] = (v))
#endif

// The fused activation as bounds; comparisons keep NaN, as the CPU reference does.
inline float clampActivation(float x, float lo, float hi) {
  x = x < lo ? lo : x;
  return x > hi ? hi : x;
}

#define NNRT_CAT_(a, b) a##b
#define NNRT_CAT(a, b) NNRT_CAT_(a, b)

// Geometry of a CONV_2D read as an implicit GEMM (NHWC input, filter [Cout, KH, KW, Cin]).
typedef struct {
  int inH, inW, inC, kernelW;
  int outH, outW;
  int strideH, strideW, padTop, padLeft, dilationH, dilationW;
} ConvGeometry;
