// Teaches: the fix for 05: a barrier that every thread of the block reaches, so synccheck stays
// silent. Seed: 004_f92a7ab1d28b5b9a.txt (`deadlockExample`'s closing advice).
#include "launchers.hpp"

#include "kl/watchdog.cuh"
#include "publish_passed.cuh"

namespace kl::sync {
namespace {

__global__ void uniform_barrier(int* out, unsigned* passed, WatchdogView watchdog) {
  if (threadIdx.x == 0) kl::watchdog_expired(watchdog);  // as in 05: clock before, check after
  __syncthreads();
  if (threadIdx.x == 0) kl::watchdog_expired(watchdog);
  publish_passed(passed, out);
}

}  // namespace

const void* uniform_barrier_kernel() { return reinterpret_cast<const void*>(&uniform_barrier); }

void launch_uniform_barrier(const Args& args, cudaStream_t stream) {
  uniform_barrier<<<static_cast<unsigned>(args.shape.blocks), args.shape.block, 0, stream>>>(
      args.out, args.arrived, args.watchdog);
}

}  // namespace kl::sync
