// Teaches: the fix for 03: a cooperative launch (cudaLaunchCooperativeKernel) guarantees that
// every block is resident, and cg::this_grid().sync() is the grid barrier. A grid above the
// co-resident capacity is refused at launch (cudaErrorCooperativeLaunchTooLarge) instead of
// deadlocking. Seed: 004_f92a7ab1d28b5b9a.txt (`deadlockExample`), the grid barrier of 03 fixed.
#include "launchers.hpp"

#include "kl/device_facts.hpp"
#include "kl/perturb.cuh"
#include "kl/watchdog.cuh"

#include <cooperative_groups.h>

#include <string>

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
  int* seen = args.out;
  unsigned* arrived = args.arrived;
  WatchdogView watchdog = args.watchdog;
  void* params[] = {&seen, &arrived, &watchdog};
  // The driver, not kernel-lab, decides: the capacity is only computed to explain a refusal.
  const cudaError_t status =
      cudaLaunchCooperativeKernel(grid_barrier_cooperative_kernel(), dim3(static_cast<unsigned>(args.shape.blocks)),
                                  dim3(static_cast<unsigned>(args.shape.block)), params, 0, stream);
  if (status == cudaErrorCooperativeLaunchTooLarge) {
    (void)cudaGetLastError();  // not sticky: clear it so the context stays usable
    throw std::invalid_argument(
        "sync.grid_barrier_cooperative: cooperative launch of " + std::to_string(args.shape.blocks) +
        " blocks exceeds the co-resident capacity " +
        std::to_string(kl::co_resident_capacity(grid_barrier_cooperative_kernel(), args.shape.block)) + " (" +
        std::to_string(args.shape.block) + " threads per block; cudaErrorCooperativeLaunchTooLarge)");
  }
  KL_CUDA_CHECK(status);
}

}  // namespace kl::sync
