// Sync family: locks, barriers and the deadlocks they can cause, every wait loop under the
// device watchdog (seed 004, `deadlockExample`).
#pragma once

#include "kl/case_result.hpp"
#include "kl/registry.hpp"
#include "kl/sync_args.hpp"
#include "kl/watchdog.hpp"

#include <cstddef>
#include <span>
#include <string>

namespace kl::sync {

// What each block writes to out[blockIdx.x] when the kernel does its job.
enum class Kind {
  lock,           // the count of threads that passed the lock: == block
  block_barrier,  // the count of threads that got past the block's barrier: == block
  grid_barrier,   // the arrivals the block saw when it left the grid barrier: == blocks
};

// What a run is predicted to do.
enum class Expect {
  completes,             // the watchdog stays quiet
  trips,                 // a deadlock by design: only the watchdog ends it
  trips_above_capacity,  // trips iff blocks > co-resident capacity of the kernel
};

struct Variant : kl::Variant<Shape, Args> {
  Kind kind;
  Expect expect;
  const void* (*device_kernel)();  // for occupancy queries; nullptr for the CPU reference
};

std::span<const Variant> variants();
inline const Variant& variant(std::string_view name) { return find_variant(variants(), name); }

// The occupancy API x SM count for this variant's kernel at `block` threads (a host variant: 0).
int co_resident_capacity(const Variant& v, int block);
// Whether the watchdog is predicted to trip for `shape` (capacity from co_resident_capacity).
bool predicts_trip(const Variant& v, const Shape& shape, int capacity);
// The correct per-block value (Kind) for `shape`.
int expected_per_block(Kind kind, const Shape& shape);

struct SyncCase {
  CaseResult result;  // out[] against expected_per_block, with its guards
  bool tripped = false;
  double elapsed_ms = 0;  // the launch, timed by events
};

// Launches `v` under a fresh watchdog of `budget_ms` into a guarded buffer and reports what
// the blocks wrote and whether the watchdog had to end a wait.
SyncCase run_case(const Variant& v, const Shape& shape, double budget_ms);

// The budget of a run whose deadlock is its verdict (planted, or predicted above capacity): what
// each such run costs. The tests' for such runs, and `kernel-lab run`'s default there and in the
// perturbation build.
inline constexpr double deadlock_budget_ms = 300;

// The budget of a run that must complete (the tests', the properties' and `kernel-lab run`'s where
// it predicts completion): one it never needs, since there the watchdog only ends a hang.
// Instrumented runs are slow and uneven: under racecheck with its host workers capped at two, in
// a tier of 16 tests at once, grid_barrier_rotating at 4 blocks of 1024 tripped 300 ms and failed
// a correct barrier (an H200, 2026-11-29). A run planted to deadlock keeps a short budget, which
// is its cost.
inline constexpr double completion_budget_ms = 5000;

}  // namespace kl::sync
