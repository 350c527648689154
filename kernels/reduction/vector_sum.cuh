// Device helpers of the vectorised rungs (09, 10): 16-byte vector types, a thread's sum of its
// elements with 16-byte loads, a warp's and a block's sum in registers with shuffles.
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

// Vectors each thread loads before it adds any (8 measured the same as 4 at 2^28 on the H100).
constexpr int vectors_in_flight = 4;

// This thread's sum of its elements: in + head is 16-byte aligned; head <= n.
template <class T>
__device__ __forceinline__ T thread_sum(const T* in, long long n, int head) {
  using V = typename Vec4<T>::type;
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long vectors = (n - head) / 4;
  const V* body = reinterpret_cast<const V*>(in + head);
  T sum = T(0);
  if (tid < head) sum += in[tid];
  long long i = tid;
  for (; i + (vectors_in_flight - 1) * threads < vectors; i += vectors_in_flight * threads) {
    V v[vectors_in_flight];
#pragma unroll
    for (int u = 0; u < vectors_in_flight; ++u) v[u] = body[i + u * threads];
#pragma unroll
    for (int u = 0; u < vectors_in_flight; ++u) add_vector(sum, v[u]);
  }
  for (; i < vectors; i += threads) add_vector(sum, body[i]);
  const long long tail = head + 4 * vectors;
  if (tid < n - tail) sum += in[tail + tid];
  return sum;
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
