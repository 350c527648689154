// The plan of the SGEMM ladder's rung 29 (matmul.last_round, kernels/matmul/29_sgemm_last_round.cu):
// which block computes which k tiles of which tile of C. The kernel, its fix-up and the host
// tests (kl.matmul.tuning.host) all read it from here: one arithmetic.
//
// Rung 27 gives each block one tile of C. Blocks run in rounds of one block a slot (132 SMs x 4
// slots on the H100), and a round takes as long whether its slots are all busy or not: 4096^3 is
// 2048 tiles, 3.88 rounds, and takes as long as 4224 x 4096 x 4096, 4.00 rounds (ncu, 2.78 ms
// both). Here the tiles of the full rounds go whole, as in rung 27 (blocks 0 .. whole-1), and each
// tile left over is cut along k into a long piece and a short one: the long pieces (the next
// `left_over` blocks) take the slots the last round has, the short ones (the last `left_over`
// blocks) the slots it leaves idle, several each, so that both end at about the same moment. The
// GPU hands out blocks in order of their index, which puts the long pieces before the short ones;
// the sums do not depend on it. Each piece stores its part of the tile in a buffer of its own and
// a second kernel adds the two (the only pieces of a tile: long + short is short + long in IEEE
// arithmetic, so C's bits do not depend on timing).
// A plan is no kernel's general stream-K (SGEMM_LADDER.md: its persistent loop cost more than
// the last round) but rung 27's kernel, one piece a block.
#pragma once

#include <cstdint>
#include <limits>

#if defined(__CUDACC__)
#define KL_SGEMM_LAST_ROUND_HD __host__ __device__
#else
#define KL_SGEMM_LAST_ROUND_HD
#endif

namespace kl::matmul::sgemm_last_round {

// What a piece costs beyond its k tiles (a block's start, its copy pipeline's fill, its 32 KiB
// store), in k tiles of the main loop: the balance below counts it once a piece.
inline constexpr int piece_overhead = 2;
// What the fix-up kernel costs (a second launch, the left-over tiles' two pieces read and C
// written), in rounds of one k tile: the plan applies only where the last round gains more.
inline constexpr int fixup_cost = 8;

struct Plan {
  int tiles = 0;      // C's tiles, in row-major order
  int k_tiles = 0;    // k tiles a tile
  int whole = 0;      // tiles 0 .. whole-1 go whole, to blocks 0 .. whole-1
  int left_over = 0;  // tiles whole .. tiles-1, each in two pieces (0: the plan does not apply)
  int long_k = 0;     // k tiles of a long piece (the first long_k); the short piece has the rest

  KL_SGEMM_LAST_ROUND_HD constexpr int blocks() const { return whole + 2 * left_over; }

  // One block's work: k tiles first .. first + count - 1 of tile `tile`, stored to C (buffer
  // -1) or to piece buffer `buffer` (the long piece of left-over tile j in j, the short in
  // left_over + j).
  struct Piece {
    int tile, first, count, buffer;
  };
  KL_SGEMM_LAST_ROUND_HD constexpr Piece piece(int block) const {
    if (block < whole) return {block, 0, k_tiles, -1};
    const int j = (block - whole) % left_over;
    if (block < whole + left_over) return {whole + j, 0, long_k, j};
    return {whole + j, long_k, k_tiles - long_k, left_over + j};
  }
};

// The last round's length, in k tiles, with long pieces of `long_k`: the long pieces run on the
// `left_over` slots the round has, the short ones up to `per_slot` after each other on the others.
constexpr std::int64_t last_round(std::int64_t k_tiles, std::int64_t long_k, std::int64_t per_slot) {
  const std::int64_t longs = long_k + piece_overhead, shorts = per_slot * (k_tiles - long_k + piece_overhead);
  return longs > shorts ? longs : shorts;
}

// The plan for `tiles` tiles of C of `k_tiles` k tiles each, on a GPU of `sms` SMs holding
// `blocks_per_sm` blocks each. It applies (left_over > 0) where the tiles fill a round at least
// (fewer go to rung 28's split-K rule), the last round leaves slots idle, and balancing it gains
// more than the fix-up costs; every index fits an int.
constexpr Plan plan_for(std::int64_t tiles, std::int64_t k_tiles, std::int64_t sms, std::int64_t blocks_per_sm) {
  Plan p;
  if (tiles <= 0 || k_tiles < 2 || sms <= 0 || blocks_per_sm <= 0) return p;
  const std::int64_t slots = sms * blocks_per_sm;
  if (tiles < slots || tiles + slots > std::numeric_limits<int>::max()) return p;
  const std::int64_t left_over = tiles % slots, idle = slots - left_over;
  if (left_over == 0) return p;
  const std::int64_t per_slot = (left_over + idle - 1) / idle;  // short pieces on the busiest idle slot
  // The best long piece: the two lengths of last_round cross between these two.
  const std::int64_t cross = per_slot * (k_tiles + piece_overhead) - piece_overhead;
  std::int64_t best = cross / (per_slot + 1);
  if (best >= k_tiles) best = k_tiles - 1;
  if (best < k_tiles - 1 && last_round(k_tiles, best + 1, per_slot) < last_round(k_tiles, best, per_slot)) ++best;
  if (best < 1) return p;
  const std::int64_t gain = k_tiles + piece_overhead - last_round(k_tiles, best, per_slot);
  if (gain <= fixup_cost) return p;
  p.tiles = static_cast<int>(tiles);
  p.k_tiles = static_cast<int>(k_tiles);
  p.whole = static_cast<int>(tiles - left_over);
  p.left_over = static_cast<int>(left_over);
  p.long_k = static_cast<int>(best);
  return p;
}

}  // namespace kl::matmul::sgemm_last_round
