// Sync family on the GPU: the seed spinlock completes on sm_70+, planted deadlocks end through
// the watchdog, the cooperative launch fixes the grid barrier, and the divergent barrier runs.
// Each suite is its own ctest entry (own process), so a hang cannot poison another case.
#include "kl/device_facts.hpp"
#include "kl/sync.hpp"
#include "kl/test_env.hpp"

#include <gtest/gtest.h>

using namespace kl::sync;

namespace {

// A run planted to deadlock ends only through the watchdog and gets deadlock_budget_ms, its cost;
// a run that must complete gets completion_budget_ms (kl/sync.hpp).
SyncCase run(const std::string& name, Shape shape, double budget_ms = completion_budget_ms) {
  return run_case(variant(name), shape, budget_ms);
}

std::vector<int> spinlock_blocks() {
  if (kl::sanitizer_small_mode()) return {32, 64};
  std::vector<int> blocks;
  for (int b = 32; b <= 1024; b += 32) blocks.push_back(b);
  return blocks;
}

// The reusable barriers' runs: one block, a few, and every block the GPU holds (four under a
// sanitizer), at the smallest, a middle and the largest block; the watchdog stays quiet and every
// block saw every slot of every round.
void expect_every_round_held(const std::string& name) {
  for (const int block : {32, 256, 1024}) {
    const int capacity = co_resident_capacity(variant(name), block);
    for (const int blocks : {1, 2, 3, kl::sanitizer_small_mode() ? 4 : capacity}) {
      const SyncCase c = run(name, {blocks, block});
      EXPECT_FALSE(c.tripped) << name << ": " << blocks << " blocks of " << block;
      EXPECT_TRUE(c.result.ok()) << name << ": " << blocks << " blocks of " << block << ": " << c.result.describe();
    }
  }
}

}  // namespace

// The seed's lesson changed with Volta: this case relies on independent thread scheduling.
TEST(SyncSpinlockSeed, RunsOnAGpuWithIndependentThreadScheduling) {
  const kl::DeviceFacts f = kl::device_facts();
  ASSERT_GE(f.cc_major, 7) << f.name << " is sm_" << f.cc_major << f.cc_minor
                           << ": before Volta the seed spinlock deadlocks, as the seed says";
}

// deadlockExample as written: every thread takes the lock once, the watchdog never trips and the
// count kept under the lock equals the block size (mutual exclusion held).
TEST(SyncSpinlockSeed, CompletesForBlockSizes32To1024) {
  for (const int block : spinlock_blocks()) {
    const SyncCase c = run("spinlock_seed", {kl::sanitizer_small_mode() ? 1 : 4, block});
    EXPECT_FALSE(c.tripped) << "block " << block << ": the watchdog had to end the spinlock";
    EXPECT_TRUE(c.result.ok()) << "block " << block << ": " << c.result.describe();
  }
}

// Warp 0 at __syncthreads() vs warps spinning on its flag: hangs without the watchdog. With it
// the spinners give up and arrive, so every thread of every block still finishes.
TEST(PlantedSyncIntraBlockDeadlock, WatchdogEndsTheHang) {
  for (const int block : {64, 256, 1024}) {
    const SyncCase c = run("intra_block_deadlock", {2, block}, deadlock_budget_ms);
    EXPECT_TRUE(c.tripped) << "block " << block << ": no deadlock seen; the spinners got the flag";
    EXPECT_TRUE(c.result.ok()) << "block " << block << ": not every thread finished: " << c.result.describe();
  }
}

TEST(PlantedSyncIntraBlockDeadlock, NeedsTwoWarps) {
  try {
    run("intra_block_deadlock", {1, 32});
    FAIL() << "a single-warp block was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("sync.intra_block_deadlock: block must have at least 2 warps"),
              std::string::npos)
        << e.what();
  }
}

// On an H100 (132 SMs, 2048 threads per SM): 264 blocks of 1024 threads.
TEST(PlantedSyncGridBarrier, CapacityIsThreadLimitedForThisTinyKernel) {
  const kl::DeviceFacts f = kl::device_facts();
  const int capacity = co_resident_capacity(variant("grid_barrier"), 1024);
  std::cout << "grid_barrier co-resident capacity at 1024 threads: " << capacity << " (" << f.name << ", "
            << f.sm_count << " SMs)\n";
  EXPECT_EQ(capacity, f.max_threads_per_sm / 1024 * f.sm_count);
}

TEST(PlantedSyncGridBarrier, CompletesAtCapacity) {
  const int capacity = co_resident_capacity(variant("grid_barrier"), 1024);
  const SyncCase c = run("grid_barrier", {capacity, 1024});
  EXPECT_FALSE(c.tripped) << capacity << " blocks are all resident, yet the watchdog tripped";
  EXPECT_TRUE(c.result.ok()) << c.result.describe();
}

TEST(PlantedSyncGridBarrier, DeadlocksOneBlockAboveCapacity) {
  const int capacity = co_resident_capacity(variant("grid_barrier"), 1024);
  const SyncCase c = run("grid_barrier", {capacity + 1, 1024}, deadlock_budget_ms);
  EXPECT_TRUE(c.tripped) << capacity + 1 << " blocks > capacity " << capacity << ", yet no deadlock";
  EXPECT_TRUE(c.result.guards.ok()) << "every block must still write what it saw: " << c.result.describe();
  EXPECT_GT(c.result.mismatch_count, 0u) << "some block must have left before all arrived";
}

TEST(SyncGridBarrierCooperative, CompletesAtCapacity) {
  const int block = kl::sanitizer_small_mode() ? 64 : 1024;
  const int capacity = co_resident_capacity(variant("grid_barrier_cooperative"), block);
  const SyncCase c = run("grid_barrier_cooperative", {kl::sanitizer_small_mode() ? 2 : capacity, block});
  EXPECT_FALSE(c.tripped);
  EXPECT_TRUE(c.result.ok()) << c.result.describe();
}

TEST(SyncGridBarrierCooperative, CompletesForOneBlock) {
  const SyncCase c = run("grid_barrier_cooperative", {1, 32});
  EXPECT_FALSE(c.tripped);
  EXPECT_TRUE(c.result.ok()) << c.result.describe();
}

// Refused by the driver, explained by kernel-lab, and the context stays usable afterwards.
TEST(SyncGridBarrierCooperativeRefusal, AboveCapacityTheLaunchIsRefusedClearly) {
  const int capacity = co_resident_capacity(variant("grid_barrier_cooperative"), 1024);
  try {
    run("grid_barrier_cooperative", {capacity + 1, 1024});
    FAIL() << capacity + 1 << " blocks were launched cooperatively";
  } catch (const std::invalid_argument& e) {
    const std::string want = "cooperative launch of " + std::to_string(capacity + 1) +
                             " blocks exceeds the co-resident capacity " + std::to_string(capacity);
    EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
  }
  const SyncCase c = run("grid_barrier_cooperative", {1, 32});
  EXPECT_TRUE(c.result.ok()) << "the refusal left the context broken: " << c.result.describe();
}

// The reusable barrier launches cooperatively too: above capacity it is refused, not hung.
TEST(SyncGridBarrierCooperativeRefusal, TheRotatingBarrierAboveCapacityIsRefusedClearly) {
  const int capacity = co_resident_capacity(variant("grid_barrier_rotating"), 1024);
  try {
    run("grid_barrier_rotating", {capacity + 1, 1024});
    FAIL() << capacity + 1 << " blocks were launched cooperatively";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("sync.grid_barrier_rotating: cooperative launch of " +
                                         std::to_string(capacity + 1) + " blocks exceeds the co-resident capacity"),
              std::string::npos)
        << e.what();
  }
}

// The reusable barrier, eight rounds: every block sees every block's slot of every round, for one
// block, a few, and every block the GPU holds, at the smallest, a middle and the largest block.
TEST(SyncGridBarrierRotating, EveryRoundSeesEverySlotUpToCapacity) { expect_every_round_held("grid_barrier_rotating"); }

// Its planted twin (two counters: one is reset while a late block may still spin on it) passes the
// same runs, here and under all four sanitizers (kl.sync.grid_barrier_early_reset.<tool>); only the
// perturbation build sees the deadlock (kl.expect.perturb-grid-barrier-early-reset).
TEST(PlantedSyncEarlyReset, PassesTheRotatingBarriersChecksWithoutPerturbation) {
  expect_every_round_held("grid_barrier_early_reset");
}

// Completes without a tool (synccheck's verdict is kl.expect.sync-divergent-barrier).
TEST(PlantedSyncDivergentBarrier, CompletesWithoutATool) {
  for (const int block : {32, 256}) {
    const SyncCase c = run("divergent_barrier", {2, block});
    EXPECT_FALSE(c.tripped) << "block " << block;
    EXPECT_TRUE(c.result.ok()) << "block " << block << ": " << c.result.describe();
  }
}

TEST(SyncUniformBarrier, EveryThreadPassesForAnyBlock) {
  for (const int block : {1, 17, 32, 33, 256, 1024}) {
    const SyncCase c = run("uniform_barrier", {3, block});
    EXPECT_FALSE(c.tripped) << "block " << block;
    EXPECT_TRUE(c.result.ok()) << "block " << block << ": " << c.result.describe();
  }
}

TEST(SyncLaunch, ReferenceMatchesTheCooperativeBarrier) {
  const SyncCase ref = run("cpu_oracle", {5, 64});
  const SyncCase gpu = run("grid_barrier_cooperative", {5, 64});
  EXPECT_TRUE(ref.result.ok()) << ref.result.describe();
  EXPECT_TRUE(gpu.result.ok()) << gpu.result.describe();
}

TEST(SyncLaunch, RejectsBadShapesNamingVariantAndRule) {
  EXPECT_THROW(run("uniform_barrier", {0, 32}), std::invalid_argument);
  EXPECT_THROW(run("uniform_barrier", {1, 1025}), std::invalid_argument);
  try {
    run("divergent_barrier", {1, 16});
    FAIL() << "a block of 16 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("sync.divergent_barrier: block must have more than 16"), std::string::npos)
        << e.what();
  }
}
