// How each rung spreads n elements over threads, blocks and atomics: the launchers take their
// grids from here, and the float check takes each rung's longest chain of additions from here,
// so the error bound cannot drift from the launch it describes.
// Host-only (compiles with g++ alone).
#pragma once

#include "kl/geometry.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace kl::reduction::plan {

// The grid-stride rungs (07, 08) stop at this many blocks: enough to fill an H100 (132 SMs x
// 2048 threads) at every block size; larger n loops.
inline constexpr std::int64_t max_grid_stride_blocks = 1024;

// One rung's summation of n elements, as a tree of additions. An element passes through at most
//   serial_adds  additions in its thread's own chain (loads added as they arrive),
//   tree_adds    additions combining the block's partial sums (shared memory or shuffles),
//   atomic_adds  atomicAdds onto the single output (one per block, in any order).
// Their total is the rung's summation depth: the longest chain of roundings any element sees.
struct Summation {
  std::int64_t blocks = 0;
  std::int64_t serial_adds = 0;
  std::int64_t tree_adds = 0;
  std::int64_t atomic_adds = 0;

  std::int64_t depth() const { return serial_adds + tree_adds + atomic_adds; }
};

// log2 of a power-of-two block: the steps of a halving tree over it.
inline std::int64_t tree_steps(int block) { return std::bit_width(static_cast<unsigned>(block)) - 1; }

// naive_sum: every element is one atomicAdd onto the output.
inline Summation one_atomic_per_element(std::int64_t n, int block) {
  return {grid_1d(n, block), 0, 0, n};
}

// Rungs 02..06: each thread loads elems_per_thread elements (adding them as it loads), a halving
// tree in shared memory, one atomicAdd per block.
inline Summation shared_tree(std::int64_t n, int block, int elems_per_thread) {
  const std::int64_t blocks = ceil_div(n, std::int64_t{elems_per_thread} * block);
  return {blocks, elems_per_thread - 1, tree_steps(block), blocks};
}

// Rung 07: a grid-stride loop adds two elements per step into the thread's running sum (which
// starts at 0), then the shared tree and one atomicAdd per block.
inline Summation grid_stride_pairs(std::int64_t n, int block) {
  const std::int64_t blocks = std::min(max_grid_stride_blocks, ceil_div(n, 2 * std::int64_t{block}));
  const std::int64_t steps = blocks == 0 ? 0 : ceil_div(n, 2 * std::int64_t{block} * blocks);
  return {blocks, 2 * steps, tree_steps(block), blocks};
}

// Rung 08: a grid-stride loop adds one element per step, then two five-step warp shuffles
// (lanes, then the warps' sums), one atomicAdd per block.
inline Summation grid_stride_shuffles(std::int64_t n, int block) {
  const std::int64_t blocks = std::min(max_grid_stride_blocks, grid_1d(n, block));
  const std::int64_t steps = blocks == 0 ? 0 : ceil_div(n, std::int64_t{block} * blocks);
  return {blocks, steps, 10, blocks};
}

}  // namespace kl::reduction::plan
