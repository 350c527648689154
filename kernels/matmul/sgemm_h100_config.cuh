// The configuration sgemm_tuning.conf's H100 line names for shapes neither small nor large: rung
// 27 runs it there, and rungs 28 (split-K) and 29 (stream-K) run it on every GPU and shape. One
// definition of the type and its name, so the rungs cannot drift apart; kl.matmul.tuning.host
// checks the name against the tuning file.
#pragma once

#include "sgemm_prefetched.cuh"

namespace kl::matmul::prefetched {

using H100Tuned = Config<64, 128, 16, 32, 64, 4, 8, FmaOrder::snake, 0, false, CStores::scalars>;
inline constexpr const char* h100_tuned_name = "64x128x16_w32x64_t8_s4_snake_g0_c1";

}  // namespace kl::matmul::prefetched
