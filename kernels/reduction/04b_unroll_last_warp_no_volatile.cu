// PLANTED: rung 04 without `volatile`. The compiler may keep s[tid] in a register and read its
// neighbours' partial sums before they are stored (and lanes are not in lockstep since Volta):
// on the H100 the sums are WRONG, and racecheck reports the hazards. What the seed's remark on
// `volatile` warns about. Fixed by 05 (__syncwarp).
// Seed: 004_f92a7ab1d28b5b9a.txt, kernel `warpReduce` with the `volatile` removed.
#include "launchers.hpp"
#include "unroll_common.cuh"

namespace kl::reduction {
namespace {

template <class T>
__device__ void warpReduce(T* s, int tid) {
  s[tid] = s[tid] + s[tid + 32];
  s[tid] = s[tid] + s[tid + 16];
  s[tid] = s[tid] + s[tid + 8];
  s[tid] = s[tid] + s[tid + 4];
  s[tid] = s[tid] + s[tid + 2];
  s[tid] = s[tid] + s[tid + 1];
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
  if (tidInBlock == 0) {
    atomicAdd(output, subArray[0]);
  }
}

}  // namespace

void launch_unroll_last_warp_no_volatile(const Args& args, cudaStream_t stream) {
  launch_shared_tree_rung(args, stream, 2, blockReduction<int>, blockReduction<float>);
}

}  // namespace kl::reduction
