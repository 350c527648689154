// Teaches: unrolling the last warp (no loop, no __syncthreads for the final 6 steps), exactly as
// the seed writes it: `volatile` shared memory, no __syncwarp. FLAWED since Volta: the threads of
// a warp are scheduled independently, so nothing orders one lane's write of s[tid] before another
// lane's read of it; the sums come out right on the H100, yet racecheck reports the hazards.
// Seed: 004_f92a7ab1d28b5b9a.txt, kernel `warpReduce` (volatile) inside `blockReduction`.
#include "launchers.hpp"
#include "unroll_common.cuh"

namespace kl::reduction {
namespace {

// The seed writes `s[tid] += s[tid + 32];`; C++20 deprecates compound assignment to a volatile,
// so the same load-add-store is spelled out.
template <class T>
__device__ void warpReduce(volatile T* s, int tid) {
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

void launch_unroll_last_warp(const Args& args, cudaStream_t stream) {
  launch_shared_tree_rung(args, stream, 2, blockReduction<int>, blockReduction<float>);
}

}  // namespace kl::reduction
