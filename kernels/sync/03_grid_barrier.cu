// Teaches: a software grid barrier (every block adds to a global counter, then spins until all
// arrived) is correct only while every block is resident at once. Above the co-resident capacity
// the resident blocks spin forever waiting for blocks that cannot be scheduled until they leave:
// a real deadlock, which the watchdog turns into a report.
// Seed: 004_f92a7ab1d28b5b9a.txt (`deadlockExample` and the `atomicAdd` counter), lifted to the grid.
#include "launchers.hpp"

#include "kl/perturb_points.cuh"
#include "kl/watchdog.cuh"

namespace kl::sync {
namespace {

__global__ void grid_barrier(int* seen, unsigned* arrived, WatchdogView watchdog) {
  KL_PERTURB_ENTRY();
  if (threadIdx.x == 0) {
    KL_PERTURB_POINT("a block arrives at the barrier");
    atomicAdd(arrived, 1u);
    const volatile unsigned* count = arrived;
    for (unsigned look = 0; *count < gridDim.x; ++look) {
      KL_PERTURB_POINT_AT("a block waits at the barrier", look);
      if (kl::watchdog_expired(watchdog)) break;
    }
    // gridDim.x after a complete barrier; fewer for a block that gave up.
    seen[blockIdx.x] = static_cast<int>(*count);
  }
  // The other threads wait here (a hardware barrier, no spinning) and keep the block resident.
  __syncthreads();
}

}  // namespace

const void* grid_barrier_kernel() { return reinterpret_cast<const void*>(&grid_barrier); }

void launch_grid_barrier(const Args& args, cudaStream_t stream) {
  grid_barrier<<<static_cast<unsigned>(args.shape.blocks), args.shape.block, 0, stream>>>(args.out, args.arrived,
                                                                                         args.watchdog);
}

}  // namespace kl::sync
