// Teaches: block-level reduction through shared memory: each warp's sum goes to a __shared__
// slot, one barrier, then the first warp adds the slots and thread 0 issues the block's single
// atomicAdd: blockDim/32 times fewer atomics than rung 04 (the seed's fastest bar).
// Seed: 004_f92a7ab1d28b5b9a.txt, "Shared Memory" of section 10.3 (Figure 25).
#include "device_common.cuh"
#include "launchers.hpp"

namespace kl::riemann {
namespace {

__global__ void sharedRiemannSum(double a, double dx, long long N, double *result) {
  __shared__ double warpSums[32];  // one slot per warp of a block of up to 1024 threads
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  double sum = warpSum(unrolledPartialSum(a, dx, N));
  if (lane == 0) warpSums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < static_cast<int>(blockDim.x / 32) ? warpSums[lane] : 0.0;
    sum = warpSum(sum);
    if (lane == 0) atomicAdd(result, sum);
  }
}

}  // namespace

void launch_shared_memory(const Args& args, cudaStream_t stream) {
  zero_output(args, stream);
  const unsigned blocks =
      resident_grid(reinterpret_cast<const void*>(sharedRiemannSum), args.shape.block, args.shape.n);
  sharedRiemannSum<<<blocks, args.shape.block, 0, stream>>>(a, step(args.shape.n), args.shape.n, args.out);
}

}  // namespace kl::riemann
