// How each rung spreads n elements over threads, blocks and atomics: the launchers take their
// grids from here, and the float check takes each rung's longest chain of additions from here,
// so the error bound cannot drift from the launch it describes.
// Host-only (compiles with g++ alone).
#pragma once

#include "kl/grid.hpp"

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

// Rung 09 (vectorized_single_launch): each thread adds its head element (at most one), four
// 4-element vectors a step and its tail element (at most one) into one running sum; then two
// five-step warp shuffles; then, when the grid has several blocks, the last block adds the
// blocks' partials (ceil(blocks / block) each per thread) with the same two shuffles. The grid
// gives each thread at least 16 elements and stops at max_vectorized_blocks; larger n loops.
// 512 measured best on the H100 at 2^28 with blocks of 256 (ratio to CUB 1.000; 1024: 0.998,
// 768: 0.990, 2048: 0.988, 264: 0.982, 1056 = one full wave: 0.987).
inline constexpr std::int64_t max_vectorized_blocks = 512;
inline std::int64_t vectorized_blocks(std::int64_t n, int block) {
  return std::clamp<std::int64_t>(ceil_div(n, 16 * std::int64_t{block}), 1, max_vectorized_blocks);
}
inline Summation vectorized_single_launch(std::int64_t n, int block) {
  const std::int64_t blocks = vectorized_blocks(n, block);
  const std::int64_t vectors_per_thread = ceil_div(ceil_div(n, 4), blocks * block);
  const std::int64_t finish = blocks == 1 ? 0 : ceil_div(blocks, block) + 10;
  return {blocks, 4 * vectors_per_thread + 2, 10 + finish, 0};
}

// Rung 10 (bulk_copy_ring) runs one of two grids, chosen by n:
//  - the ring, when the input's whole 32 KiB chunks (8192 elements counted from its first 16-byte
//    boundary) outnumber the blocks the GPU holds at once with the ring's shared memory
//    (ring_resident): every block takes chunks b, b + blocks, ... through its ring; each thread
//    adds its 8192 / block elements of every chunk its block takes, then its share of the rest
//    (the head before the boundary and the tail after the last whole chunk: fewer than 8196
//    elements spread over the grid);
//  - below that, the direct grid: rung 09's 16-byte loads, 16 elements a thread, up to
//    direct_resident blocks (what the GPU holds at once without shared memory).
// Either way two five-step shuffles, then one atomicAdd per block (a grid of one block stores).
inline constexpr std::int64_t bulk_chunk_elements = 8192;
inline bool bulk_ring_streams(std::int64_t n, std::int64_t ring_resident) {
  return n / bulk_chunk_elements > ring_resident;
}
inline Summation bulk_copy_ring(std::int64_t n, int block, std::int64_t ring_resident, std::int64_t direct_resident) {
  if (bulk_ring_streams(n, ring_resident)) {
    const std::int64_t blocks = ring_resident;
    const std::int64_t chunks_per_block = ceil_div(n / bulk_chunk_elements, blocks);
    const std::int64_t rest_per_thread = ceil_div(bulk_chunk_elements + 3, blocks * block);
    return {blocks, chunks_per_block * ceil_div(bulk_chunk_elements, block) + rest_per_thread, 10, blocks};
  }
  const std::int64_t blocks =
      std::clamp<std::int64_t>(ceil_div(n, 16 * std::int64_t{block}), 1, std::max<std::int64_t>(direct_resident, 1));
  const std::int64_t vectors_per_thread = ceil_div(ceil_div(n, 4), blocks * block);
  return {blocks, 4 * vectors_per_thread + 2, 10, blocks == 1 ? 0 : blocks};  // one block stores its total
}

}  // namespace kl::reduction::plan
