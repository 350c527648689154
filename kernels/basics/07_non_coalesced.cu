// Teaches: a stride of 2 splits each warp's writes over twice the memory segments. Its
// precondition: with T threads the last write lands at 2*(T-1), so the buffer needs 2T-1 ints.
// Seed: 004_f92a7ab1d28b5b9a.txt, kernel `nonCoalesced` (section 6.2).
#include "launchers.hpp"

namespace kl::basics {
namespace {

// No guard, as in the seed: supports() requires 2 * threads - 1 <= the buffer's length.
__global__ void nonCoalesced(int *arr) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  // non continuous indices 0 2 4 ...
  arr[idx * 2] = idx * 2.0f;
}

}  // namespace

void launch_non_coalesced(const Args& args, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(args.shape.threads / args.shape.block.x);
  if (blocks == 0) return;
  nonCoalesced<<<blocks, args.shape.block.x, 0, stream>>>(static_cast<int*>(args.out));
}

}  // namespace kl::basics
