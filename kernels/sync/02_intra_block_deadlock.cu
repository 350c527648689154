// Teaches: a deadlock inside one block that independent thread scheduling cannot save: warp 0
// waits at __syncthreads() for the other warps, which spin on a flag warp 0 sets only after that
// barrier. Planted: without the watchdog it hangs on sm_90. With it, the spinning warps give up,
// set the flag and arrive at the barrier themselves, so the kernel always ends.
// Seed: 004_f92a7ab1d28b5b9a.txt (`deadlockExample`'s lesson: every thread must reach the same
// synchronisation in the same way), applied to a barrier.
#include "launchers.hpp"

#include "kl/watchdog.cuh"
#include "publish_passed.cuh"

namespace kl::sync {
namespace {

__global__ void intra_block_deadlock(int* out, unsigned* passed, WatchdogView watchdog) {
  __shared__ int flag;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  volatile int& released = flag;
  if (threadIdx.x < warpSize) {
    __syncthreads();  // (A) waits for every other warp, which waits for this warp: deadlock
    released = 1;
  } else {
    while (released == 0) {
      if (kl::watchdog_expired(watchdog)) {
        released = 1;
        break;
      }
    }
    // (B) Reached only after giving up. Barrier 0 is one counter per block whatever line calls
    // it, so these arrivals complete the barrier warp 0 waits at in (A). (Had they returned
    // instead, exited threads also count as arrived on sm_70+; arriving is the explicit way.)
    __syncthreads();
  }
  publish_passed(passed, out);
}

}  // namespace

const void* intra_block_deadlock_kernel() { return reinterpret_cast<const void*>(&intra_block_deadlock); }

void launch_intra_block_deadlock(const Args& args, cudaStream_t stream) {
  intra_block_deadlock<<<static_cast<unsigned>(args.shape.blocks), args.shape.block, 0, stream>>>(
      args.out, args.arrived, args.watchdog);
}

}  // namespace kl::sync
