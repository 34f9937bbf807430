// SOFTMAX along one axis of a tensor seen as [outer, axisSize, inner]: one work-group per (outer,
// inner) slice; its work-items stride over the axis and combine their maximum and sum in local
// memory (the work-group size is a power of two). out = exp((x - max) * beta) / sum.
__kernel void nnrt_softmax(const __global storage_t* in, __global storage_t* out, int axisSize, int inner,
                           float beta, __local float* scratch) {
  const int slice = get_group_id(0);
  const int lid = get_local_id(0);
  const int size = get_local_size(0);
  const int base = (slice / inner) * axisSize * inner + slice % inner;

  float m = -INFINITY;
  for (int a = lid; a < axisSize; a += size) m = fmax(m, (float)LOAD(in, base + a * inner));
  scratch[lid] = m;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = size / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] = fmax(scratch[lid], scratch[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  m = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE);

  float sum = 0.0f;
  for (int a = lid; a < axisSize; a += size) sum += exp(((float)LOAD(in, base + a * inner) - m) * beta);
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = size / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float scale = 1.0f / scratch[0];
  for (int a = lid; a < axisSize; a += size) {
    const int at = base + a * inner;
    STORE(out, at, exp(((float)LOAD(in, at) - m) * beta) * scale);
  }
}
