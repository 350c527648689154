// Teaches: staging a block's slice in shared memory, with a barrier between load and use.
// Fixes: the seed's fragment stops after doubling; here the value is written back, a guard
// handles any n, and every thread reaches the barrier (only loads and stores are guarded).
// Seed: 004_f92a7ab1d28b5b9a.txt, kernel `shMemEx` (precondition: blockDim.x <= 256).
#include "launchers.hpp"

namespace kl::basics {
namespace {

__global__ void shMemEx(const int *in, int *out, int n) {
  // Declare shared memory
  __shared__ int subArray[256];
  // Global index (index within main array)
  int idx = threadIdx.x;
  idx += blockIdx.x * blockDim.x;
  // Thread index within the block
  int tid = threadIdx.x;
  // Load data from global memory to shared memory
  if (idx < n) subArray[tid] = in[idx];
  // Ensure all threads finish loading
  __syncthreads();
  // Perform computation (double the value)
  if (idx < n) {
    subArray[tid] *= 2;
    out[idx] = subArray[tid];
  }
}

}  // namespace

void launch_sh_mem_ex(const Args& args, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(grid_1d(args.shape.cols, args.shape.block.x));
  if (blocks == 0) return;
  shMemEx<<<blocks, args.shape.block.x, 0, stream>>>(static_cast<const int*>(args.a), static_cast<int*>(args.out),
                                                     args.shape.cols);
}

}  // namespace kl::basics
