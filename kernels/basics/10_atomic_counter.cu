// Teaches: atomicAdd makes concurrent read-modify-writes of one int safe: blocks x threads adds
// of 1 give exactly blocks x threads. Also its cost: the adds to one address are serialised, so
// the seed keeps atomics for combining partial results. Seed: 004_f92a7ab1d28b5b9a.txt, kernel
// `sum` (section 7.1); the seed shows no launch, so blocks and threads are parameters.
#include "launchers.hpp"

#include "kl/perturb_points.cuh"

namespace kl::basics {
namespace {

__global__ void sum(int *counter) {
    KL_PERTURB_ENTRY();
    KL_PERTURB_POINT("a thread adds to the counter");
    atomicAdd(counter, 1);
}

}  // namespace

void launch_atomic_counter(const Args& args, cudaStream_t stream) {
  // The counter starts at 0 (the guarded output arrives poisoned).
  KL_CUDA_CHECK(cudaMemsetAsync(args.out, 0, sizeof(int), stream));
  sum<<<static_cast<unsigned>(args.shape.cols), args.shape.block.x, 0, stream>>>(static_cast<int*>(args.out));
}

}  // namespace kl::basics
