// The plan of the SGEMM ladder's rung 29 (matmul.sm_balanced, kernels/matmul/29_sgemm_sm_balanced.cu):
// which SM computes which k tiles of which tile of C. The kernel, its fix-up and the host tests
// (kl.matmul.tuning.host) all read it from here: one arithmetic.
//
// Rung 27 gives each block one tile of C, and the GPU hands blocks to whichever SM has a free
// slot. Four blocks share an SM's issue slots, so what ends the kernel is the SMs with the most
// tiles: at 4096^3 (2048 tiles on 132 SMs) 68 SMs compute 16 tiles and 64 compute 15, and the
// kernel takes as long as if all had 16 (docs/SGEMM_LADDER.md: per-block traces). Here the work is
// planned per SM: SM s's list is `whole` whole tiles (s, s + sms, ...), then its equal segment of
// the tiles left over, end to end by k tile (a segment touches one tile or a few: a piece each).
// A block claims the next item of the list of the SM it runs on (an atomic cursor per SM, read
// from %smid), or, that list done, of the next SM's: every item is claimed by exactly one block
// and every block claims one, since the grid has as many blocks as the lists have items. A piece
// of a tile that several segments share goes to a buffer of its own; a second kernel adds each
// shared tile's pieces in SM order, so C's bits do not depend on who ran what.
#pragma once

#include <cstdint>
#include <limits>

#if defined(__CUDACC__)
#define KL_SGEMM_SM_BALANCED_HD __host__ __device__
#else
#define KL_SGEMM_SM_BALANCED_HD
#endif

namespace kl::matmul::sgemm_sm_balanced {

// What a piece costs beyond its k tiles (a block's start, its copy pipeline's fill, its 32 KiB
// store), in k tiles.
inline constexpr int piece_overhead = 2;
// What the fix-up kernel costs (a second launch, the shared tiles' pieces read and C written), in
// k tiles of one SM's work: the plan applies only where the busiest SM gains more.
inline constexpr int fixup_cost = 32;

struct Plan {
  int tiles = 0;    // C's tiles, in row-major order
  int k_tiles = 0;  // k tiles a tile
  int sms = 0;      // lists, one an SM (0: the plan does not apply)
  int whole = 0;    // whole tiles on every SM's list: tiles 0 .. whole * sms - 1

  KL_SGEMM_SM_BALANCED_HD constexpr int first_left_over() const { return whole * sms; }
  KL_SGEMM_SM_BALANCED_HD constexpr std::int64_t left_over_k() const {
    return static_cast<std::int64_t>(tiles - first_left_over()) * k_tiles;
  }
  // SM s's segment: k tiles [segment(s), segment(s + 1)) of the left-over tiles end to end.
  KL_SGEMM_SM_BALANCED_HD constexpr std::int64_t segment(int s) const { return left_over_k() * s / sms; }
  // The SM whose segment holds left-over k tile `at`: the last s with segment(s) <= at.
  KL_SGEMM_SM_BALANCED_HD constexpr int owner(std::int64_t at) const {
    return static_cast<int>(((at + 1) * sms + left_over_k() - 1) / left_over_k() - 1);
  }
  // Pieces of SM s's segment: the left-over tiles it touches.
  KL_SGEMM_SM_BALANCED_HD constexpr int pieces(int s) const {
    const std::int64_t begin = segment(s), end = segment(s + 1);
    return begin == end ? 0 : static_cast<int>((end - 1) / k_tiles - begin / k_tiles + 1);
  }
  KL_SGEMM_SM_BALANCED_HD constexpr int items(int s) const { return whole + pieces(s); }

  // One block's work: k tiles first .. first + count - 1 of tile `tile`, stored to C (buffer -1)
  // or to piece buffer `buffer` (2s for the piece an SM's segment starts in, 2s + 1 for the one it
  // ends in; the tiles between are whole and go to C).
  struct Piece {
    int tile, first, count, buffer;
  };
  KL_SGEMM_SM_BALANCED_HD constexpr Piece item(int s, int i) const {
    if (i < whole) return {i * sms + s, 0, k_tiles, -1};
    const std::int64_t begin = segment(s), end = segment(s + 1);
    const int t = static_cast<int>(begin / k_tiles) + (i - whole);  // among the left-over tiles
    const std::int64_t tile_begin = std::int64_t{t} * k_tiles;
    const int first = static_cast<int>(begin > tile_begin ? begin - tile_begin : 0);
    const int last = static_cast<int>(end < tile_begin + k_tiles ? end - tile_begin : k_tiles);
    const bool shared = first > 0 || last < k_tiles;
    return {first_left_over() + t, first, last - first, shared ? 2 * s + (i == whole ? 0 : 1) : -1};
  }
  // Whether SM s's segment is empty (fewer left-over k tiles than SMs): it holds no piece.
  KL_SGEMM_SM_BALANCED_HD constexpr bool idle(int s) const { return segment(s) == segment(s + 1); }
  // The SMs whose segments share left-over tile u (0-based), first .. last, those with an empty
  // segment between them holding no piece of it; first == last: one SM computes it whole.
  KL_SGEMM_SM_BALANCED_HD constexpr int first_sharer(int u) const { return owner(std::int64_t{u} * k_tiles); }
  KL_SGEMM_SM_BALANCED_HD constexpr int last_sharer(int u) const { return owner(std::int64_t{u + 1} * k_tiles - 1); }
  // Where SM s keeps its piece of left-over tile u.
  KL_SGEMM_SM_BALANCED_HD constexpr int buffer_of(int s, int u) const {
    return 2 * s + (u == static_cast<int>(segment(s) / k_tiles) ? 0 : 1);
  }
};

// The plan for `tiles` tiles of C of `k_tiles` k tiles each, on a GPU of `sms` SMs holding
// `blocks_per_sm` blocks each. It applies (sms > 0) where every SM gets a round of whole tiles at
// least (fewer tiles go to rung 28's rule), the tiles do not divide evenly among the SMs, and the
// busiest SM's work shrinks by more than the fix-up costs; every index fits an int.
constexpr Plan plan_for(std::int64_t tiles, std::int64_t k_tiles, std::int64_t sms, std::int64_t blocks_per_sm) {
  Plan p;
  if (tiles <= 0 || k_tiles <= 0 || sms <= 0 || blocks_per_sm <= 0) return p;
  if (tiles * k_tiles > std::numeric_limits<int>::max() || tiles + 2 * sms > std::numeric_limits<int>::max()) return p;
  const std::int64_t whole = tiles / sms, left_over = tiles % sms;
  if (whole < blocks_per_sm || left_over == 0) return p;
  // Rung 27's busiest SM: whole + 1 tiles; here whole tiles and a segment of at most two pieces.
  const std::int64_t segment = (left_over * k_tiles + sms - 1) / sms;
  const std::int64_t gain = (k_tiles + piece_overhead) - (segment + 2 * piece_overhead);
  if (gain <= fixup_cost) return p;
  p.tiles = static_cast<int>(tiles);
  p.k_tiles = static_cast<int>(k_tiles);
  p.sms = static_cast<int>(sms);
  p.whole = static_cast<int>(whole);
  return p;
}

}  // namespace kl::matmul::sgemm_sm_balanced
