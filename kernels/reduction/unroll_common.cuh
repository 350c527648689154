// What rungs 04..05 share: the first-add-during-load prologue and the shared-memory tree down to
// 64 partial sums, written as the seed writes it, with the last warp left to `warpReduce`.
#pragma once

namespace kl::reduction {

// Loads two elements per thread (guarded) and reduces subArray down to 64 partial sums.
// The seed puts __syncthreads() inside `if (tidInBlock < stride)`; that is a divergent barrier
// (a separate bug), so here it stays after the `if`, as in the seed's earlier loop.
template <class T>
__device__ void load_and_reduce_to_last_warp(const T *array, T *subArray, int n) {
  int tidInBlock = threadIdx.x;
  int tidGlobal = blockIdx.x * blockDim.x * 2;
  tidGlobal += threadIdx.x;
  subArray[tidInBlock] = tidGlobal < n ? array[tidGlobal] : T(0);
  T sElem = tidGlobal + static_cast<int>(blockDim.x) < n ? array[tidGlobal + blockDim.x] : T(0);
  subArray[tidInBlock] += sElem;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (tidInBlock < stride) {
      int sId = tidInBlock + stride;
      subArray[tidInBlock] += subArray[sId];
    }
    __syncthreads();
  }
}

}  // namespace kl::reduction

namespace kl::reduction {

// The last warp done right for Volta and later (rung 05's lesson, used by 06 and 07): each lane
// reads into a register, the warp meets at __syncwarp(), then writes; the second __syncwarp()
// orders the write before the next step's reads. blockSize >= 64 (s[tid + 32] is read).
template <unsigned int blockSize, class T>
__device__ void warpReduceSynced(T* s, int tid) {
  T v = s[tid];
  if (blockSize >= 64) { v += s[tid + 32]; __syncwarp(); s[tid] = v; __syncwarp(); }
  if (blockSize >= 32) { v += s[tid + 16]; __syncwarp(); s[tid] = v; __syncwarp(); }
  if (blockSize >= 16) { v += s[tid + 8]; __syncwarp(); s[tid] = v; __syncwarp(); }
  if (blockSize >= 8) { v += s[tid + 4]; __syncwarp(); s[tid] = v; __syncwarp(); }
  if (blockSize >= 4) { v += s[tid + 2]; __syncwarp(); s[tid] = v; __syncwarp(); }
  if (blockSize >= 2) { v += s[tid + 1]; __syncwarp(); s[tid] = v; }
}

// Rung 06's complete unrolling: the stride loop replaced by compile-time `blockSize >= N` tests;
// leaves 64 partial sums for the last warp.
template <unsigned int blockSize, class T>
__device__ void unrolledTree(T* subArray, int id) {
  if (blockSize >= 1024) { if (id < 512) { subArray[id] += subArray[id + 512]; } __syncthreads(); }
  if (blockSize >= 512) { if (id < 256) { subArray[id] += subArray[id + 256]; } __syncthreads(); }
  if (blockSize >= 256) { if (id < 128) { subArray[id] += subArray[id + 128]; } __syncthreads(); }
  if (blockSize >= 128) { if (id < 64) { subArray[id] += subArray[id + 64]; } __syncthreads(); }
}

// Instantiates f.template operator()<B>() for the runtime block size B in 64..1024.
template <class F>
void with_block_size(int block, F&& f) {
  switch (block) {
    case 64: f.template operator()<64>(); break;
    case 128: f.template operator()<128>(); break;
    case 256: f.template operator()<256>(); break;
    case 512: f.template operator()<512>(); break;
    case 1024: f.template operator()<1024>(); break;
    default: break;  // unreachable: supports() admits only these sizes
  }
}

}  // namespace kl::reduction
