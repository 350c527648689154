// The configurations sgemm_tuning.conf's H100 lines name for shapes neither small nor large and
// for large C (8192 x 8192 elements or more): rung 27 runs them there, and rungs 28 (split-K) and
// 29 (stream-K) run them on every GPU, the large one where a large C is computed in whole tiles.
// Both have the 64 x 128 x 16 tile the split-K and stream-K plans are made for; the large one
// walks C down groups of 8 tile rows (Config::GROUP), the order tune chose for large C. One
// definition of each type and its name, so the rungs cannot drift apart; kl.matmul.tuning.host
// checks the names against the tuning file.
#pragma once

#include "sgemm_prefetched.cuh"

namespace kl::matmul::prefetched {

using H100Tuned = Config<64, 128, 16, 32, 64, 4, 8, FmaOrder::snake, 0, false, CStores::scalars>;
inline constexpr const char* h100_tuned_name = "64x128x16_w32x64_t8_s4_snake_g0_c1";
using H100TunedLarge = Config<64, 128, 16, 32, 64, 4, 8, FmaOrder::snake, 8, false, CStores::scalars>;
inline constexpr const char* h100_tuned_large_name = "64x128x16_w32x64_t8_s4_snake_g8_c1";

}  // namespace kl::matmul::prefetched
