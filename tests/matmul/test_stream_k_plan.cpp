// Stream-K's plan (kl/matmul_stream_k.hpp), host only: which shapes are dealt out by k-step, and
// that the blocks' pieces cover every k-step of every tile exactly once, that the blocks sharing
// a tile are the ones the finisher reads, in distinct slots. The kernel (36_wgmma_stream_k.cu)
// walks the same functions; its results are checked on the GPU by kl.matmul.unit.
#include "kl/matmul_stream_k.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace kl::matmul::stream_k;

namespace {

constexpr int h100_blocks = 132;  // one block an SM

std::string text(std::int64_t m, std::int64_t n, std::int64_t k, int resident) {
  return "m=" + std::to_string(m) + " n=" + std::to_string(n) + " k=" + std::to_string(k) + " on " +
         std::to_string(resident) + " blocks";
}

// Walks every block's pieces and checks the plan's promises; returns the pieces per tile.
std::map<int, std::vector<std::pair<int, Piece>>> walk_and_check(const Plan& p, const std::string& where) {
  std::map<int, std::vector<std::pair<int, Piece>>> by_tile;
  for (int b = 0; b < p.blocks; ++b) {
    Pieces pieces(p, b);
    std::set<int> slots_used;
    int previous_tile = -1;
    int fix_ups = 0, shared_first = -1, shared_last = -1;
    p.shared_tiles(b, shared_first, shared_last);
    std::vector<int> shared_seen;
    for (Piece piece; pieces.next(piece);) {
      if (piece.tile == Pieces::fix_up) {
        ++fix_ups;
        EXPECT_EQ(piece.k_begin, piece.k_end) << where << ": the fix-up computes no k-steps";
        EXPECT_LE(previous_tile, p.sk_tiles - 1) << where << ": block " << b << "'s fix-up comes after a whole tile";
        continue;
      }
      EXPECT_GE(piece.tile, 0) << where;
      EXPECT_LT(piece.tile, p.tiles()) << where;
      EXPECT_LT(piece.k_begin, piece.k_end) << where << ": block " << b << " has an empty piece";
      EXPECT_LE(piece.k_end, p.k_steps) << where;
      EXPECT_GT(piece.tile, previous_tile) << where << ": block " << b << " visits tiles out of order";
      previous_tile = piece.tile;
      const bool shared = piece.k_begin != 0 || piece.k_end != p.k_steps;
      if (shared) {
        EXPECT_EQ(fix_ups, 0) << where << ": block " << b << " computes a shared piece after its fix-up";
        shared_seen.push_back(piece.tile);
        EXPECT_LT(piece.tile, p.sk_tiles) << where << ": only stream-K tiles are shared";
        EXPECT_TRUE(slots_used.insert(p.slot(b, piece.tile)).second) << where << ": block " << b << " reuses a slot";
        EXPECT_GE(p.slot(b, piece.tile), 2 * b) << where;
        EXPECT_LT(p.slot(b, piece.tile), 2 * b + 2) << where;
      }
      by_tile[piece.tile].push_back({b, piece});
    }
    // The fix-up: once, after the share, where there is one; over the tiles the walk shared.
    EXPECT_EQ(fix_ups, p.first_step(b) < p.first_step(b + 1) ? 1 : 0) << where << ": block " << b;
    std::vector<int> shared_said;
    for (const int t : {shared_first, shared_last})
      if (t >= 0) shared_said.push_back(t);
    EXPECT_EQ(shared_seen, shared_said) << where << ": block " << b;
  }
  EXPECT_EQ(static_cast<int>(by_tile.size()), p.tiles()) << where << ": a tile no block computes";
  for (const auto& [tile, pieces] : by_tile) {
    std::vector<int> covered(static_cast<std::size_t>(p.k_steps), 0);
    for (const auto& [block, piece] : pieces)
      for (int s = piece.k_begin; s < piece.k_end; ++s) ++covered[static_cast<std::size_t>(s)];
    for (int s = 0; s < p.k_steps; ++s)
      EXPECT_EQ(covered[static_cast<std::size_t>(s)], 1) << where << ": tile " << tile << " step " << s;
    if (tile < p.sk_tiles) {
      // The finisher adds the partials of blocks first_block .. last_block: exactly the sharers.
      EXPECT_EQ(p.sharers(tile), static_cast<int>(pieces.size())) << where << ": tile " << tile;
      const int first = p.first_block(tile), first_slot = p.slot(first, tile);
      for (std::size_t i = 0; i < pieces.size(); ++i) {
        const int s = static_cast<int>(i);
        EXPECT_EQ(pieces[i].first, first + s) << where << ": tile " << tile;
        EXPECT_EQ(Plan::sharer_slot(first, first_slot, s), p.slot(first + s, tile)) << where << ": tile " << tile << " sharer " << s;
      }
    } else {
      EXPECT_EQ(pieces.size(), 1u) << where << ": whole tile " << tile;
    }
  }
  return by_tile;
}

}  // namespace

TEST(StreamKPlan, AWaveOfTilesOrMoreGoesWhole) {
  for (const auto& [m, n, k] : {std::tuple{2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192},
                                {4000, 4000, 4000}, {128 * 12, 256 * 11, 4096}}) {
    const Plan p = plan_for(m, n, k, h100_blocks);
    EXPECT_EQ(p.sk_tiles, 0) << text(m, n, k, h100_blocks);
    EXPECT_EQ(p.blocks, std::min(p.tiles(), h100_blocks)) << text(m, n, k, h100_blocks);
  }
  EXPECT_EQ(plan_for(2048, 2048, 2048, h100_blocks).blocks, 128);  // 4 blocks idle: 32 steps, under a fix-up each
  const Plan shallow = plan_for(256, 256, 1024, h100_blocks);      // 2 tiles of 16 steps: 15.8 idle steps
  EXPECT_GT(shallow.sk_tiles, 0);
  const Plan too_shallow = plan_for(256, 256, 192, h100_blocks);  // 3 k-steps: nothing to deal out
  EXPECT_EQ(too_shallow.sk_tiles, 0);
  EXPECT_EQ(too_shallow.blocks, 2);
}

TEST(StreamKPlan, FewerTilesThanBlocksAreDealtOutInAlignedShares) {
  const Plan p = plan_for(1024, 1024, 16384, h100_blocks);  // 32 tiles of 256 k-steps
  EXPECT_EQ(p.sk_tiles, 32);
  EXPECT_EQ(p.blocks, 128);  // 4 a tile: every share a quarter of one tile
  const auto by_tile = walk_and_check(p, text(1024, 1024, 16384, 132));
  for (const auto& [tile, pieces] : by_tile) {
    ASSERT_EQ(pieces.size(), 4u) << "tile " << tile;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      EXPECT_EQ(pieces[i].second.k_begin, 64 * static_cast<int>(i)) << "tile " << tile;
      EXPECT_EQ(pieces[i].second.k_end, 64 * static_cast<int>(i) + 64) << "tile " << tile;
    }
  }
  // 100 tiles: 1.32 blocks a tile, no multiple fills the GPU: shares cross tile edges.
  const Plan odd = plan_for(128 * 10, 256 * 10, 4096, h100_blocks);
  EXPECT_EQ(odd.blocks, 132);
  walk_and_check(odd, text(1280, 2560, 4096, 132));
  // Few k-steps: a block takes at least min_block_steps of them.
  const Plan small = plan_for(128, 256, 1024, h100_blocks);  // one tile of 16 steps
  EXPECT_EQ(small.blocks, 16 / min_block_steps);
  walk_and_check(small, text(128, 256, 1024, 132));
}

TEST(StreamKPlan, EveryStepOfEveryTileIsComputedOnceOnAnyGrid) {
  // Shapes off the tile, few and many k-steps, on grids of other GPUs' sizes too.
  const std::vector<std::vector<std::int64_t>> shapes = {
      {1, 1, 1},          {129, 257, 65},     {4000, 4000, 4000}, {2557, 3740, 389},  {128, 256, 8448},
      {1536, 3072, 320},  {4096, 4096, 1024}, {8192, 1024, 4096}, {300, 5000, 700},   {64, 64, 100000},
      {129, 257, 2048},   {1000, 1000, 3000}, {2557, 3740, 2000}, {8192, 8192, 8192}, {1024, 1024, 16384}};
  int dealt_out = 0;
  for (const auto& s : shapes)
    for (const int resident : {1, 7, 108, 132, 144}) {
      const Plan p = plan_for(s[0], s[1], s[2], resident);
      const std::string where = text(s[0], s[1], s[2], resident);
      ASSERT_GE(p.blocks, 1) << where;
      ASSERT_LE(p.blocks, resident) << where;
      walk_and_check(p, where);
      dealt_out += p.sk_tiles > 0;
    }
  std::cout << dealt_out << " of the plans dealt out by k-step\n";
  EXPECT_GE(dealt_out, 15);  // the list exercises the stream-K walk
}
