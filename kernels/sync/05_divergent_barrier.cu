// Teaches: a barrier inside a branch that only part of the block takes. On sm_70+ it completes
// (threads that skipped it and exited count as arrived), yet it is undefined behaviour, and
// compute-sanitizer synccheck reports "Barrier error detected. Divergent thread(s) in warp".
// Planted; fixed by 06. Seed: 004_f92a7ab1d28b5b9a.txt (`deadlockExample`'s closing advice:
// all threads in a block must execute synchronization instructions identically).
#include "launchers.hpp"

#include "kl/watchdog.cuh"
#include "publish_passed.cuh"

namespace kl::sync {
namespace {

__global__ void divergent_barrier(int* out, unsigned* passed, WatchdogView watchdog) {
  // A hardware barrier has no loop to give up in: thread 0 starts the clock before it and checks
  // after it, so a barrier that held it past the budget is reported. Only ctest's TIMEOUT can
  // end one that never releases.
  if (threadIdx.x == 0) kl::watchdog_expired(watchdog);
  if (threadIdx.x < 16) __syncthreads();
  if (threadIdx.x == 0) kl::watchdog_expired(watchdog);
  publish_passed(passed, out);
}

}  // namespace

const void* divergent_barrier_kernel() { return reinterpret_cast<const void*>(&divergent_barrier); }

void launch_divergent_barrier(const Args& args, cudaStream_t stream) {
  divergent_barrier<<<static_cast<unsigned>(args.shape.blocks), args.shape.block, 0, stream>>>(
      args.out, args.arrived, args.watchdog);
}

}  // namespace kl::sync
