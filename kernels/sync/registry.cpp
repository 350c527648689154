// The sync family's table: the host reference, the seed spinlock, then deadlocks and their fixes.
#include "launchers.hpp"

#include "kl/device_facts.hpp"
#include "kl/geometry.hpp"
#include "kl/sync.hpp"

namespace kl::sync {
namespace {

constexpr const char* seed004 = "004_f92a7ab1d28b5b9a.txt";

std::string any_launch(const Shape& s) {
  if (s.blocks < 1) return "blocks must be >= 1, got " + std::to_string(s.blocks);
  return block_1d_violation(s.block);
}

std::string two_warps(const Shape& s) {
  if (std::string rule = any_launch(s); !rule.empty()) return rule;
  if (s.block < 64)
    return "block must have at least 2 warps (64 threads) so one warp can wait for the others, got " +
           std::to_string(s.block);
  return "";
}

std::string over_sixteen(const Shape& s) {
  if (std::string rule = any_launch(s); !rule.empty()) return rule;
  if (s.block <= 16)
    return "block must have more than 16 threads, or `threadIdx.x < 16` does not divide it, got " +
           std::to_string(s.block);
  return "";
}

const std::vector<Variant>& table() {
  static const std::vector<Variant> variants = {
      {{{"sync", "cpu_oracle", "-", "CPU reference",
         "Variant 0: what a correct grid barrier leaves behind, computed with no waiting: every block "
         "saw all `blocks` arrivals.",
         Role::reference, {}},
        any_launch, launch_cpu_oracle},
       Kind::grid_barrier, Expect::completes, nullptr},
      {{{"sync", "spinlock_seed", seed004, "deadlockExample",
         "A spinlock on a __shared__ semaphore (atomicCAS), as the seed writes it. It completes on sm_70+: "
         "independent thread scheduling lets the lock holder run while its warp-mates spin. Before Volta a "
         "warp ran one path at a time and kept running the 31 spinning threads, so the holder never reached "
         "`semaphore=0`: the seed's deadlock.",
         Role::teaching, {}},
        any_launch, launch_spinlock_seed},
       Kind::lock, Expect::completes, spinlock_seed_kernel},
      {{{"sync", "intra_block_deadlock", seed004, "deadlockExample",
         "A deadlock independent thread scheduling cannot save: warp 0 waits at __syncthreads() for warps "
         "that spin on a flag warp 0 sets only after that barrier. It hangs on sm_90; the watchdog ends it.",
         Role::planted,
         {{Checker::watchdog, "", "", {"--block", "256"}, "sync.uniform_barrier"}}},
        two_warps, launch_intra_block_deadlock},
       Kind::block_barrier, Expect::trips, intra_block_deadlock_kernel},
      {{{"sync", "grid_barrier", seed004, "deadlockExample",
         "A software grid barrier (atomicAdd, then spin until every block arrived) works only while every "
         "block is resident: above the co-resident capacity (occupancy x SMs) it deadlocks, and the "
         "watchdog reports it.",
         Role::planted,
         {{Checker::watchdog, "", "", {"--blocks", "1000", "--block", "1024"}, "sync.grid_barrier_cooperative"}}},
        any_launch, launch_grid_barrier},
       Kind::grid_barrier, Expect::trips_above_capacity, grid_barrier_kernel},
      {{{"sync", "grid_barrier_cooperative", seed004, "deadlockExample",
         "The fix for grid_barrier: cudaLaunchCooperativeKernel guarantees co-residency and "
         "cg::this_grid().sync() is the barrier; a grid above capacity is refused at launch "
         "(cudaErrorCooperativeLaunchTooLarge) instead of hanging.",
         Role::teaching, {}},
        any_launch, launch_grid_barrier_cooperative},
       Kind::grid_barrier, Expect::completes, grid_barrier_cooperative_kernel},
      {{{"sync", "divergent_barrier", seed004, "deadlockExample",
         "`if (threadIdx.x < 16) __syncthreads();`: a barrier only part of the block reaches. It completes "
         "on sm_70+ (exited threads count as arrived) but is undefined behaviour; synccheck reports it.",
         Role::planted,
         {{Checker::synccheck, R"(Divergent thread\(s\) in warp)", "sync-divergent-barrier",
           {"--blocks", "1", "--block", "32"}, "sync.uniform_barrier"}}},
        over_sixteen, launch_divergent_barrier},
       Kind::block_barrier, Expect::completes, divergent_barrier_kernel},
      {{{"sync", "uniform_barrier", seed004, "deadlockExample",
         "The fix for divergent_barrier: every thread of the block reaches the same __syncthreads().",
         Role::teaching, {}},
        any_launch, launch_uniform_barrier},
       Kind::block_barrier, Expect::completes, uniform_barrier_kernel},
      {{{"sync", "grid_barrier_rotating", seed004, "deadlockExample (a reusable grid barrier, beyond the seed)",
         "A grid barrier used every round of an iterative kernel: a counter may only be reset once no "
         "block can still be watching it, so rounds rotate through three counters and block 0 resets "
         "the one last used two rounds ago. Cooperative launch (every block resident); each round every "
         "block publishes a slot and counts the slots it sees past the barrier.",
         Role::teaching, {}},
        any_launch, launch_grid_barrier_rotating},
       Kind::grid_barrier, Expect::completes, grid_barrier_rotating_kernel},
      {{{"sync", "grid_barrier_early_reset", seed004, "deadlockExample (a reusable grid barrier, beyond the seed)",
         "PLANTED: the reusable barrier with two counters, so block 0 resets the one the previous round "
         "used while a late block may still spin on it; that block never sees its round complete and "
         "the grid deadlocks. Block 0's round of work outlasts every spinner's last look on the H100, "
         "so every test and all four sanitizers pass it; the perturbation build delays a spinner "
         "between looks and the watchdog reports the deadlock.",
         Role::planted,
         {{Checker::perturbation, "", "perturb-grid-barrier-early-reset", {"--blocks", "128", "--block", "256"},
           "sync.grid_barrier_rotating"}}},
        any_launch, launch_grid_barrier_early_reset},
       Kind::grid_barrier, Expect::completes, grid_barrier_early_reset_kernel},
  };
  return variants;
}

}  // namespace

std::span<const Variant> variants() { return table(); }

int co_resident_capacity(const Variant& v, int block) {
  return v.device_kernel == nullptr ? 0 : kl::co_resident_capacity(v.device_kernel(), block);
}

bool predicts_trip(const Variant& v, const Shape& shape, int capacity) {
  switch (v.expect) {
    case Expect::completes: return false;
    case Expect::trips: return true;
    case Expect::trips_above_capacity: return shape.blocks > capacity;
  }
  return false;
}

int expected_per_block(Kind kind, const Shape& shape) {
  return kind == Kind::grid_barrier ? shape.blocks : shape.block;
}

}  // namespace kl::sync
