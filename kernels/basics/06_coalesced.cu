// Teaches: a warp writing 32 consecutive floats is one coalesced transaction. Generalised from
// the seed's single block (idx = threadIdx.x) to `threads` threads in whole blocks.
// Seed: 004_f92a7ab1d28b5b9a.txt, kernel `coalesced` (section 6.2).
#include "launchers.hpp"

namespace kl::basics {
namespace {

// No guard, as in the seed: supports() requires threads <= the buffer's length.
__global__ void coalesced(float *arr) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  // 32 threads within the warp
  // continuous indices from 0 to 31
  arr[idx] = idx * 2.0f;
}

}  // namespace

void launch_coalesced(const Args& args, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(args.shape.threads / args.shape.block.x);
  if (blocks == 0) return;
  coalesced<<<blocks, args.shape.block.x, 0, stream>>>(static_cast<float*>(args.out));
}

}  // namespace kl::basics
