// Properties of the sync family over random grids and blocks, every run under the watchdog.
#include "generators.hpp"
#include "property.hpp"

#include "kl/sync.hpp"

using namespace kl::sync;

namespace {

// WatchdogTripsIffGridExceedsCapacity's one budget: each deadlocked case costs about one, and the
// property runs under no tool (planted), where a grid within capacity completes in far less. The
// runs that must complete get completion_budget_ms (kl/sync.hpp).
constexpr double budget_ms = 200;

}  // namespace

// The software grid barrier deadlocks if and only if its grid exceeds the co-resident capacity
// of this kernel at this block size (occupancy API x SM count). Planted: excluded from sanitizers.
KL_PROPERTY(PlantedSyncGridBarrierProperty, WatchdogTripsIffGridExceedsCapacity, ()) {
  const Variant& v = variant("grid_barrier");
  const int block = *kl::gen::any_block().as("block");
  const int capacity = co_resident_capacity(v, block);
  const int blocks = *kl::gen::blocks_around(capacity).as("blocks");
  RC_TAG(blocks > capacity ? "above capacity" : "within capacity");
  const SyncCase c = run_case(v, {blocks, block}, budget_ms);
  if (c.tripped != (blocks > capacity))
    RC_FAIL(std::to_string(blocks) + " blocks of " + std::to_string(block) + " threads, capacity " +
            std::to_string(capacity) + ": watchdog " + (c.tripped ? "tripped" : "stayed quiet"));
  RC_ASSERT(c.result.guards.ok());
  RC_ASSERT(c.tripped || c.result.ok());
}

namespace {

// `v` completes for any block and any grid (up to 299 blocks; under a sanitizer 64 threads and two
// blocks at most), every thread counted past its sync point, the output's guards intact.
void check_completes_for_any_launch(const Variant& v) {
  const bool small = kl::sanitizer_small_mode();
  const int block = *kl::gen::any_block_up_to(small ? 64 : 1024).as("block");
  const int blocks = *kl::gen::grid_blocks(small ? 2 : 299).as("blocks");
  const SyncCase c = run_case(v, {blocks, block}, completion_budget_ms);
  RC_ASSERT(!c.tripped);
  if (!c.result.ok()) RC_FAIL(c.result.describe());
}

}  // namespace

// The seed spinlock completes for any block and grid on sm_70+, with mutual exclusion intact.
KL_PROPERTY(SyncProperty, SpinlockSeedCompletesForAnyLaunch, ()) { check_completes_for_any_launch(variant("spinlock_seed")); }

// The fix for divergent_barrier: every thread of every block reaches the same __syncthreads(), for
// any block and grid (synccheck runs this property too, and must stay silent on it).
KL_PROPERTY(SyncProperty, UniformBarrierCompletesForAnyLaunch, ()) {
  check_completes_for_any_launch(variant("uniform_barrier"));
}

namespace {

// A cooperatively launched barrier completes, every block seeing what it must, for every grid the
// driver accepts (up to capacity) and any block.
void check_cooperative_barrier_up_to_capacity(const Variant& v) {
  const bool small = kl::sanitizer_small_mode();
  const int block = small ? 64 : *kl::gen::any_block().as("block");
  const int capacity = co_resident_capacity(v, block);
  const int blocks = *kl::gen::grid_blocks(small ? std::min(capacity, 4) : capacity).as("blocks");
  const SyncCase c = run_case(v, {blocks, block}, completion_budget_ms);
  RC_ASSERT(!c.tripped);
  if (!c.result.ok()) RC_FAIL(c.result.describe());
}

}  // namespace

// The reusable barrier holds every round.
KL_PROPERTY(SyncProperty, RotatingBarrierHoldsEveryRoundUpToCapacity, ()) {
  check_cooperative_barrier_up_to_capacity(variant("grid_barrier_rotating"));
}

KL_PROPERTY(SyncProperty, CooperativeBarrierCompletesUpToCapacity, ()) {
  check_cooperative_barrier_up_to_capacity(variant("grid_barrier_cooperative"));
}
