// Teaches: the last warp unrolled correctly for Volta and later: read, __syncwarp(), write,
// __syncwarp() at each step, so no lane reads a partial sum another lane has not yet stored.
// Fixes 04/04b's race (racecheck clean). Seed: 004_f92a7ab1d28b5b9a.txt, `warpReduce`, with the
// __syncwarp() that the CUDA programming guide requires since independent thread scheduling.
#include "launchers.hpp"
#include "unroll_common.cuh"

namespace kl::reduction {
namespace {

template <class T>
__device__ void warpReduce(T* s, int tid) {
  T v = s[tid];
  v += s[tid + 32]; __syncwarp(); s[tid] = v; __syncwarp();
  v += s[tid + 16]; __syncwarp(); s[tid] = v; __syncwarp();
  v += s[tid + 8]; __syncwarp(); s[tid] = v; __syncwarp();
  v += s[tid + 4]; __syncwarp(); s[tid] = v; __syncwarp();
  v += s[tid + 2]; __syncwarp(); s[tid] = v; __syncwarp();
  v += s[tid + 1]; __syncwarp(); s[tid] = v;
}

template <class T>
__global__ void blockReduction(const T *array, T *output, int n) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T *subArray = reinterpret_cast<T *>(shared_bytes);
  int tidInBlock = threadIdx.x;
  load_and_reduce_to_last_warp(array, subArray, n);
  if (tidInBlock < 32) {
    warpReduce(subArray, tidInBlock);
  }
  // Lane 0 wrote subArray[0] last itself: no further barrier needed to read it.
  if (tidInBlock == 0) {
    atomicAdd(output, subArray[0]);
  }
}

}  // namespace

void launch_last_warp_syncwarp(const Args& args, cudaStream_t stream) {
  launch_shared_tree_rung(args, stream, 2, blockReduction<int>, blockReduction<float>);
}

}  // namespace kl::reduction
