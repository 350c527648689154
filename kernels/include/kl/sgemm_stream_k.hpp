// The plan of the SGEMM ladder's rung 29 (matmul.stream_k, kernels/matmul/29_sgemm_stream_k.cu):
// which block computes which k tiles of which tile of C. The kernel and the host tests
// (kl.matmul.tuning.host) read it from here: one arithmetic.
//
// Rung 27 gives each block one tile of C. Blocks run in rounds of one block a slot (132 SMs x 4
// slots on the H100), and a round takes as long whether its slots are all busy or not: 4096^3 is
// 2048 tiles, 3.88 rounds, and takes as long as 4224 x 4096 x 4096, 4.00 rounds (ncu, 2.78 ms
// both), so the last round's idle slots cost 3%. Here the tiles past the last whole round (fewer
// than the slots) are dealt out first, as equal shares of their k tiles end to end, to the first
// `sharers` blocks, which all start together and end together; the whole rounds' tiles follow, one
// block each, and the GPU's block scheduler hands them to the slots as they free up, as it does
// for rung 27. A share may start or end inside a tile; such a piece goes to a buffer of its own
// (at most two a block: its first and its last), and the last of a tile's sharers to finish adds
// the tile's pieces in block order, so C's bits do not depend on timing.
#pragma once

#include "kl/host_device.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace kl::matmul::sgemm_stream_k {

// A share keeps at least this many k tiles: enough to fill the copy pipeline and pay for its piece.
inline constexpr int min_share = 8;
// The plan applies to at most this many whole rounds. At 8192^3 (15 rounds) one launch under ncu
// is not slower than rung 28 (20.50 against 20.57 ms), but the bench's back-to-back runs at the
// power cap are: 0.969-0.977x cuBLAS against 0.988-1.008 with the shares walked from the end,
// 2-4.5% slower walked from the start (docs/SGEMM_LADDER.md, "Shares walked from the end").
inline constexpr int max_whole_rounds = 3;

// k tiles first .. first + count - 1 of left-over tile `tile` (0-based among the left-over tiles).
struct Segment {
  int tile, first, count;
};

struct Plan {
  int tiles = 0;        // C's tiles, in row-major order
  int k_tiles = 0;      // k tiles a tile
  int blocks = 0;       // blocks launched (0: this plan does not apply; the rung runs rung 28)
  int whole_tiles = 0;  // tiles 0 .. whole_tiles-1, one block each: blocks sharers .. blocks-1
  int sharers = 0;      // blocks 0 .. sharers-1 share the tiles from whole_tiles on
  int share = 0;        // k tiles a share (the last sharer's may be shorter)

  KL_HOST_DEVICE constexpr int left_over_tiles() const { return tiles - whole_tiles; }
  KL_HOST_DEVICE constexpr int left_over_k_tiles() const { return left_over_tiles() * k_tiles; }
  // The first k tile, in the left-over tiles' k tiles end to end, of sharer b's share, and its end.
  KL_HOST_DEVICE constexpr int share_begin(int b) const { return b * share; }
  KL_HOST_DEVICE constexpr int share_end(int b) const {
    const int end = share_begin(b) + share;
    return end < left_over_k_tiles() ? end : left_over_k_tiles();
  }
  // The sharers of left-over tile j (0-based among the left-over tiles): first..last, in order.
  KL_HOST_DEVICE constexpr int first_sharer(int j) const { return j * k_tiles / share; }
  KL_HOST_DEVICE constexpr int last_sharer(int j) const { return ((j + 1) * k_tiles - 1) / share; }
  KL_HOST_DEVICE constexpr int sharers_of(int j) const { return last_sharer(j) - first_sharer(j) + 1; }
  // The segment of sharer b's share that ends before k tile `stop` (of the left-over tiles' k
  // tiles end to end): the k tiles of one tile from the tile's start or the share's, whichever is
  // later. Sharers walk their shares from the end. Where a share spans two tiles, its last
  // segment (k tiles 0 .. e-1 of the second tile) comes first and its first segment (k tiles
  // s .. k_tiles-1 of the first) after: every sharer starts at k tile 0 together, and moves on to
  // k tile s at the moment e = share - (k_tiles - s), k_tiles - share ahead of the clock, the same
  // for all; a share inside one tile runs between the two. So concurrent sharers stay within
  // k_tiles - share k tiles of each other (31 of 256 at 4096^3), and the tiles of a row of C read
  // the same k tiles of A, those of a column the same of B, close together in time: L2 serves them
  // once. (Walked from the start, the sharers' k offsets spread over the whole tile.)
  KL_HOST_DEVICE constexpr Segment segment_ending_at(int b, int stop) const {
    const int j = (stop - 1) / k_tiles, tile_start = j * k_tiles;
    const int begin = tile_start > share_begin(b) ? tile_start : share_begin(b);
    return {j, begin - tile_start, stop - begin};
  }
  // Which of sharer b's two piece buffers holds its part of left-over tile j: the first (0) when j
  // is the tile its share starts in, else the second (1).
  KL_HOST_DEVICE constexpr int piece_of(int b, int j) const { return j == share_begin(b) / k_tiles ? 0 : 1; }
};

// The plan for `tiles` tiles of C of `k_tiles` k tiles each, on a GPU of `sms` SMs holding
// `blocks_per_sm` blocks each. It applies (blocks > 0) where whole tiles would fill at least half
// the slots (fewer go to rung 28's split-K rule) and at most max_whole_rounds rounds before the
// last, the last round of whole tiles would be at most 95% full (fuller, the round's idle slots
// cost less than the pieces), and every index, a share past the last included, fits an int.
constexpr Plan plan_for(std::int64_t tiles, std::int64_t k_tiles, std::int64_t sms, std::int64_t blocks_per_sm) {
  Plan p;
  const std::int64_t slots = sms * blocks_per_sm;
  if (tiles <= 0 || k_tiles <= 0 || sms <= 0 || blocks_per_sm <= 0) return p;
  if (2 * tiles < slots || 2 * tiles * k_tiles > std::numeric_limits<int>::max()) return p;
  if (tiles / slots > max_whole_rounds) return p;
  const std::int64_t left_over = tiles % slots;
  if (left_over == 0 || 20 * left_over > 19 * slots) return p;
  const std::int64_t left_over_k = left_over * k_tiles;
  const std::int64_t sharers = std::min(slots, left_over_k / min_share);
  if (sharers < 2) return p;
  const std::int64_t share = (left_over_k + sharers - 1) / sharers;
  p.tiles = static_cast<int>(tiles);
  p.k_tiles = static_cast<int>(k_tiles);
  p.whole_tiles = static_cast<int>(tiles - left_over);
  p.sharers = static_cast<int>((left_over_k + share - 1) / share);  // no sharer left without k tiles
  p.share = static_cast<int>(share);
  p.blocks = p.sharers + p.whole_tiles;
  return p;
}

}  // namespace kl::matmul::sgemm_stream_k
