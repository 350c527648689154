// Stream-K's division of a GEMM among persistent blocks (matmul.wgmma_stream_k,
// kernels/matmul/36_wgmma_stream_k.cu): which k-steps of which C tiles each block computes, which
// blocks share a tile, and where each keeps its partial sum. The kernel walks its share with
// these functions and the host tests check them (kl.matmul.stream_k.host): one arithmetic.
//
// A tile is 128 x 256 of C and one k-step 64 of k. With T tiles on B resident blocks, whole tiles
// round robin leave B - T blocks idle when T < B (1024 x 1024 x 16384: 32 tiles, 132 SMs).
// Stream-K (Osama et al., "Stream-K: Work-centric Parallel Decomposition for Dense Matrix-Matrix
// Multiplication on the GPU", 2023) instead deals the k-steps of the first sk_tiles tiles out
// evenly: block b computes steps [first_step(b), first_step(b + 1)) of their concatenation, a run
// that may start and end inside a tile. The blocks that share a tile each write their partial sum
// to a slot; once all have, each adds up a part of the tile from every partial in block order (so
// C's bits do not depend on timing) and stores it. Where the blocks can be a multiple of the tiles
// (32 tiles: 128 blocks, 4 a tile) every share is a quarter of one tile, all at the same k
// offsets, so the blocks reading one A or B panel read it at the same time, as whole tiles do.
//
// Shapes of one wave or more go whole: measured on the H100 (docs/TENSOR_CORE_LADDER.md), dealing
// out the last wave and one more (the "two-tile" hybrid) at 8192^3 scattered the blocks' k
// offsets, so concurrent blocks stopped sharing panels in L2: 0.905x GemmEx against 1.00x whole.
// With the shares walked from their end instead (blocks within 8 k-steps of each other), the last
// wave dealt out at 4096^3 would gain 2.6% if its partials were free, and they cost 14%: 0.87-0.88x.
#pragma once

#include "kl/host_device.hpp"

#include <algorithm>
#include <cstdint>

namespace kl::matmul::stream_k {

inline constexpr int tile_m = 128, tile_n = 256, step_k = 64;
// Stream-K pays where the k-steps that whole tiles leave idle, averaged over the blocks,
// outnumber what a block's fix-up costs: its partial written, then a share of the tile's partials
// read and stored, about this many k-steps' time.
inline constexpr int fixup_steps = 8;
// A block of the all-stream-K plan takes at least this many k-steps.
inline constexpr int min_block_steps = 4;

struct Plan {
  int tiles_m = 0, tiles_n = 0;  // C's tiles; the last row and column may overhang C's edges
  int k_steps = 0;               // per tile: k / 64 rounded up
  int blocks = 0;                // the persistent grid
  int sk_tiles = 0;              // tiles 0 .. sk_tiles-1 are dealt out by k-step; the rest go whole

  KL_HOST_DEVICE int tiles() const { return tiles_m * tiles_n; }
  KL_HOST_DEVICE std::int64_t sk_steps() const { return static_cast<std::int64_t>(sk_tiles) * k_steps; }
  // The first k-step (of the stream-K tiles' concatenated steps) of block b's share; b == blocks
  // gives the end.
  KL_HOST_DEVICE std::int64_t first_step(int b) const { return sk_steps() * b / blocks; }
  // The block whose share holds step s: the last b with first_step(b) <= s.
  KL_HOST_DEVICE int owner(std::int64_t s) const {
    return static_cast<int>(((s + 1) * blocks + sk_steps() - 1) / sk_steps() - 1);
  }
  KL_HOST_DEVICE int first_block(int tile) const { return owner(static_cast<std::int64_t>(tile) * k_steps); }
  KL_HOST_DEVICE int last_block(int tile) const { return owner(static_cast<std::int64_t>(tile + 1) * k_steps - 1); }
  // How many blocks share stream-K tile `tile` (1: one block computes it whole).
  KL_HOST_DEVICE int sharers(int tile) const { return last_block(tile) - first_block(tile) + 1; }
  // Where block b keeps its partial of a tile it shares: two slots a block, the first for the
  // tile its share starts in, the second for the tile it ends in (a share that starts mid-tile
  // runs on into at most one more split tile; the tiles between are whole).
  KL_HOST_DEVICE int slot(int b, int tile) const {
    return 2 * b + (first_step(b) >= static_cast<std::int64_t>(tile) * k_steps ? 0 : 1);
  }
  KL_HOST_DEVICE int slots() const { return 2 * blocks; }
  // The slot of the s-th sharer of a tile (s = 0: first_block(tile)), given the first's: every
  // later sharer's share starts in that tile, so it keeps its partial in its first slot. No
  // division: the fix-up computes it with partials' loads in flight (a 64-bit division is a call,
  // across which ptxas spills what is live).
  KL_HOST_DEVICE static int sharer_slot(int first_block, int first_slot, int s) {
    return s == 0 ? first_slot : 2 * (first_block + s);
  }
  // The tiles block b shares with other blocks (-1: none): the one its share starts in and the
  // one it ends in. The tiles between are whole.
  KL_HOST_DEVICE void shared_tiles(int b, int& first, int& last) const {
    first = last = -1;
    const std::int64_t begin = first_step(b), end = first_step(b + 1);
    if (begin == end) return;
    const int t0 = static_cast<int>(begin / k_steps), t1 = static_cast<int>((end - 1) / k_steps);
    if (sharers(t0) > 1) first = t0;
    if (t1 != t0 && sharers(t1) > 1) last = t1;
  }
};

// k-steps [k_begin, k_end) of tile `tile`.
struct Piece {
  int tile = 0, k_begin = 0, k_end = 0;
};

// Block `block`'s pieces in order: its stream-K share (the first piece may start inside a tile,
// the last end inside one), then, if it had a share, the fix-up (a piece with tile -1 and no
// steps: the consumers add up their part of the shared tiles there), then its whole tiles round
// robin. The kernel's producer and consumers walk the same. The share's bounds are computed once
// in 64 bits; a plan's stream-K steps number fewer than 2^31 (plan_for), so the walk is 32-bit.
class Pieces {
 public:
  KL_HOST_DEVICE Pieces(const Plan& p, int block)
      : p_(p),
        step_(static_cast<int>(p.first_step(block))),
        end_(static_cast<int>(p.first_step(block + 1))),
        whole_(p.sk_tiles + block),
        fix_up_due_(step_ < end_) {}
  KL_HOST_DEVICE bool next(Piece& out) {
    if (step_ < end_) {
      const int tile = step_ / p_.k_steps, tile_start = tile * p_.k_steps;
      out = {tile, step_ - tile_start, end_ - tile_start < p_.k_steps ? end_ - tile_start : p_.k_steps};
      step_ = tile_start + out.k_end;
      return true;
    }
    if (fix_up_due_) {
      fix_up_due_ = false;
      out = {fix_up, 0, 0};
      return true;
    }
    if (whole_ < p_.tiles()) {
      out = {whole_, 0, p_.k_steps};
      whole_ += p_.blocks;
      return true;
    }
    return false;
  }
  static constexpr int fix_up = -1;

 private:
  const Plan& p_;  // in the kernel: its __grid_constant__ parameter
  int step_, end_, whole_;
  bool fix_up_due_;
};

// The plan for C = A (m x k) B (k x n) on `resident` co-resident blocks (one an SM).
inline Plan plan_for(std::int64_t m, std::int64_t n, std::int64_t k, int resident) {
  Plan p;
  p.tiles_m = static_cast<int>((m + tile_m - 1) / tile_m);
  p.tiles_n = static_cast<int>((n + tile_n - 1) / tile_n);
  p.k_steps = static_cast<int>((k + step_k - 1) / step_k);
  const int tiles = p.tiles();
  p.blocks = std::min(tiles, resident);
  // Whole tiles: a wave or more, or too few idle steps to pay for the fix-ups.
  if (tiles >= resident) return p;
  const std::int64_t idle_steps = static_cast<std::int64_t>(resident - tiles) * p.k_steps / resident;
  if (idle_steps <= fixup_steps || p.k_steps < min_block_steps) return p;
  p.sk_tiles = tiles;
  if (p.sk_steps() > INT32_MAX) {  // the walk counts steps in an int (Pieces); no int-indexed shape gets here
    p.sk_tiles = 0;
    return p;
  }
  const int per_tile = resident / tiles;
  if (per_tile >= 2 && tiles * per_tile * 10 >= 9 * resident)
    p.blocks = tiles * std::min(per_tile, p.k_steps / min_block_steps);  // aligned quarters, halves...
  else
    p.blocks = static_cast<int>(std::min<std::int64_t>(resident, p.sk_steps() / min_block_steps));
  p.blocks = std::max(p.blocks, 1);
  return p;
}

}  // namespace kl::matmul::stream_k
