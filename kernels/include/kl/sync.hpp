// Sync family: locks, barriers and the deadlocks they can cause, every wait loop under the
// device watchdog (seed 004, `deadlockExample`).
#pragma once

#include "kl/case_result.hpp"
#include "kl/registry.hpp"
#include "kl/watchdog.hpp"

#include <cstddef>
#include <span>
#include <string>

namespace kl::sync {

struct Shape {
  int blocks = 1;   // grid size
  int block = 256;  // threads per block
};

// The reusable grid barriers (07): rounds per launch, and the words of scratch before the slots.
inline constexpr int barrier_rounds = 8;
inline constexpr int barrier_counter_words = 4;

struct Args {
  int* out = nullptr;             // one int per block: what the block saw (see Kind)
  // Zero before launch, scratch_words(shape) words: the grid barrier's arrival counter (03, 04),
  // the reusable barriers' counters, per-round slots and per-block results (07), each block's
  // thread count (block kernels).
  unsigned* arrived = nullptr;
  WatchdogView watchdog{};
  Shape shape;
};

// The words Args::arrived holds: enough for every kernel of the family.
inline std::size_t scratch_words(const Shape& shape) {
  return static_cast<std::size_t>(barrier_counter_words) + 3 * static_cast<std::size_t>(shape.blocks > 0 ? shape.blocks : 0);
}

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

inline constexpr double default_budget_ms = 300;

}  // namespace kl::sync
