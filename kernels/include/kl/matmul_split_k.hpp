// Split-K's rule for the SGEMM ladder's rung 28 (matmul.split_k, kernels/matmul/28_split_k.cu):
// into how many runs of k tiles each block tile of C is split. The kernel launch follows it and
// the host tests check it (kl.matmul.tuning.host): one arithmetic.
//
// A grid of whole C tiles fills the GPU only if it has about as many blocks as the GPU holds at
// once (its block slots: SMs x the blocks an SM holds). 512 x 512 x 8192 in 64 x 128 tiles is 32
// blocks for the H100's 528 slots: 94% of them idle, each block walking all 512 k tiles. Split k
// into s runs and s blocks share each tile, each adding its own run of k tiles into a partial C;
// a second kernel adds the s partials. s fills the slots that whole tiles leave empty, and no
// more, since every run costs a partial C written and read again; and every run keeps
// min_run_tiles k tiles, enough to fill the cp.async pipeline and amortise the block's start.
#pragma once

#include <algorithm>
#include <cstdint>

#if defined(__CUDACC__)
#define KL_SPLIT_K_HD __host__ __device__
#else
#define KL_SPLIT_K_HD
#endif

namespace kl::matmul::split_k {

inline constexpr int min_run_tiles = 8;

// The runs k is split into, for `blocks` tiles of C of `k_tiles` k tiles each on a GPU with
// `slots` block slots: 1 (whole tiles) wherever the tiles fill half the slots or more.
constexpr int runs_for(std::int64_t blocks, std::int64_t k_tiles, std::int64_t slots) {
  if (blocks <= 0 || k_tiles <= 0 || slots <= 0) return 1;
  const std::int64_t by_slots = slots / blocks, by_depth = k_tiles / min_run_tiles;
  return static_cast<int>(std::max<std::int64_t>(1, std::min(by_slots, by_depth)));
}

// The first k tile of run `run` of `runs` over `k_tiles` (run == runs: one past the last): the
// runs differ in length by at most one tile.
KL_SPLIT_K_HD constexpr std::int64_t first_tile(std::int64_t k_tiles, int run, int runs) { return k_tiles * run / runs; }

}  // namespace kl::matmul::split_k
