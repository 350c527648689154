// Teaches: every thread runs the kernel body with its own (blockIdx, threadIdx) pair.
// Fixes: the seed prints one line with two printf calls, which a warp executes in lockstep, so
// the halves of 32 lines interleave; one printf per line keeps each line whole.
// Seed: 004_f92a7ab1d28b5b9a.txt, kernel `hello`.
#include "launchers.hpp"

#include <cstdio>

namespace kl::basics {
namespace {

__global__ void hello() {
  printf("block id: %d, thread id: %d\n", blockIdx.x, threadIdx.x);
}

}  // namespace

void launch_hello(const Args& args, cudaStream_t stream) {
  hello<<<static_cast<unsigned>(args.shape.cols), args.shape.block.x, 0, stream>>>();
}

}  // namespace kl::basics
