// Sync family: what a launcher takes (the rest of the family is in kl/sync.hpp). Only cheap headers
// here: every kernel's .cu file includes it, and nvcc parses each header twice per file.
#pragma once

#include "kl/watchdog_view.hpp"

#include <cstddef>

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

}  // namespace kl::sync
