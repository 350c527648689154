// Teaches: the fix for 03: a cooperative launch (cudaLaunchCooperativeKernel) guarantees that
// every block is resident, and cg::this_grid().sync() is the grid barrier. A grid above the
// co-resident capacity is refused at launch (cudaErrorCooperativeLaunchTooLarge) instead of
// deadlocking. Seed: 004_f92a7ab1d28b5b9a.txt (`deadlockExample`), the grid barrier of 03 fixed.
#include "launchers.hpp"

#include "kl/perturb_points.cuh"
#include "kl/watchdog.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

namespace kl::sync {
namespace {

__global__ void grid_barrier_cooperative(int* seen, unsigned* arrived, WatchdogView watchdog) {
  KL_PERTURB_ENTRY();
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) {
    kl::watchdog_expired(watchdog);  // the first block here starts the clock
    KL_PERTURB_POINT("a block arrives at the barrier");
    atomicAdd(arrived, 1u);
  }
  grid.sync();
  if (threadIdx.x == 0) {
    KL_PERTURB_POINT("a block reads the count past the barrier");
    seen[blockIdx.x] = static_cast<int>(*static_cast<const volatile unsigned*>(arrived));
    // grid.sync() has no loop to give up in; this flags a barrier that took over the budget.
    kl::watchdog_expired(watchdog);
  }
}

}  // namespace

const void* grid_barrier_cooperative_kernel() { return reinterpret_cast<const void*>(&grid_barrier_cooperative); }

void launch_grid_barrier_cooperative(const Args& args, cudaStream_t stream) {
  launch_cooperatively(grid_barrier_cooperative_kernel(), "sync.grid_barrier_cooperative", args, stream);
}

}  // namespace kl::sync
