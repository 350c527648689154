// Quicksort family: what a launcher takes (the rest of the family is in kl/quicksort.hpp). Only
// cheap headers here: every kernel's .cu file includes it, and nvcc parses each header twice per
// file.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kl::quicksort {

struct Shape {
  std::int64_t n = 0;
};

struct Args {
  int* data = nullptr;  // sorted in place
  Shape shape;
};

// The fixed kernel stops recursing at this nesting depth (the device runtime allows 24) and
// sorts what is left of its range in one thread (heapsort, O(m log m)).
inline constexpr int max_launch_depth = 16;
// Each qs_gpu grid launches at most two children and only above depth max_launch_depth, so at
// most 2^(max_launch_depth+1) - 1 grids exist: the pending-launch limit the launcher sets.
inline constexpr std::int64_t pending_launch_limit = std::int64_t{1} << (max_launch_depth + 1);
// Largest n the fixed kernel accepts: bounds the one-thread heapsort of a range left at
// max_launch_depth on adversarial (already sorted) input to about 2^16 log2(2^16) swaps.
inline constexpr std::int64_t max_n = std::int64_t{1} << 16;

// Raises cudaLimitDevRuntimePendingLaunchCount to at least `count` (never lowers it).
void reserve_pending_launches(std::size_t count);
// The seed kernel recurses without limit: beyond nesting depth 24 its launches fail silently.
// Sizes that random data sorts well within that depth.
inline constexpr std::int64_t seed_max_n = 1024;

}  // namespace kl::quicksort
