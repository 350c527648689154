// Split-K's rule for the SGEMM ladder's rung 28 (matmul.split_k, kernels/matmul/28_split_k.cu):
// into how many runs of k tiles each block tile of C is split. The kernel launch follows it and
// the host tests check it (kl.matmul.tuning.host): one arithmetic.
//
// A grid of whole C tiles leaves SMs idle when it has fewer blocks than the GPU has SMs.
// 512 x 512 x 8192 in 64 x 128 tiles is 32 blocks for the H100's 132 SMs (528 block slots at 4
// an SM), each block walking all 512 k tiles alone. Split k into s runs and s blocks share each
// tile, each adding its own run of k tiles into a partial C; a second kernel adds the s partials.
// The rule splits only where at least half the SMs would otherwise have no tile: at 1024^3 (128
// blocks) whole tiles, one 4-warp block an SM, run at 1.12x cuBLAS and splitting four ways did no
// better (docs/SGEMM_LADDER.md). Where it splits, s fills the block slots that whole tiles leave
// empty, and no more, since every run costs a partial C written and read again; and every run
// keeps min_run_tiles k tiles, enough to fill the cp.async pipeline and amortise the block's start.
#pragma once

#include "kl/host_device.hpp"

#include <algorithm>
#include <cstdint>

namespace kl::matmul::split_k {

inline constexpr int min_run_tiles = 8;

// The runs k is split into, for `blocks` tiles of C of `k_tiles` k tiles each, on a GPU of `sms`
// SMs holding `blocks_per_sm` blocks each: 1 (whole tiles) where the tiles reach more than half
// the SMs.
constexpr int runs_for(std::int64_t blocks, std::int64_t k_tiles, std::int64_t sms, std::int64_t blocks_per_sm) {
  if (blocks <= 0 || k_tiles <= 0 || sms <= 0 || blocks_per_sm <= 0 || 2 * blocks > sms) return 1;
  const std::int64_t by_slots = sms * blocks_per_sm / blocks, by_depth = k_tiles / min_run_tiles;
  return static_cast<int>(std::max<std::int64_t>(1, std::min(by_slots, by_depth)));
}

// The first k tile of run `run` of `runs` over `k_tiles` (run == runs: one past the last): the
// first k_tiles % runs runs take one tile more than the others. For the kernel's int and the
// host's 64-bit counts alike; no product that could overflow.
template <class Int>
KL_HOST_DEVICE constexpr Int first_tile(Int k_tiles, Int run, Int runs) {
  return run * (k_tiles / runs) + (run < k_tiles % runs ? run : k_tiles % runs);
}

}  // namespace kl::matmul::split_k
