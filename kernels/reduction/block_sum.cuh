// Device helpers of the vectorised rungs (09, 10): 16-byte vector types, a warp's and a block's
// sum in registers with shuffles.
#pragma once

namespace kl::reduction {

template <class T>
struct Vec4;
template <>
struct Vec4<float> {
  using type = float4;
};
template <>
struct Vec4<int> {
  using type = int4;
};

template <class T, class V>
__device__ __forceinline__ void add_vector(T& sum, const V& v) {
  sum += v.x;
  sum += v.y;
  sum += v.z;
  sum += v.w;
}

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// The block's sum, valid in thread 0; every thread must call it. blockDim.x is a power of two
// >= 32. Callers separate two calls with a __syncthreads() (warp_sums is reused).
template <class T>
__device__ T block_sum(T v) {
  __shared__ T warp_sums[32];
  v = warp_sum(v);
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  v = T(0);
  if (warp == 0) {
    if (lane < static_cast<int>(blockDim.x / 32)) v = warp_sums[lane];
    v = warp_sum(v);
  }
  return v;
}

}  // namespace kl::reduction
