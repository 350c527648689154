// The tuning file of matmul.tuned (kernels/matmul/sgemm_tuning.conf), host only: the shipped file
// parses against the compiled candidates, lines pick per GPU model and class of shapes with the
// GPU's every-shape line and then the default as fallbacks, bad lines are refused naming the
// rule, and `tune --write` rewrites exactly one line. And rung 28 (matmul.split_k): it runs the
// H100's lines (the H200's too), and its rule for splitting k (kl/matmul_split_k.hpp); rung 29
// (matmul.stream_k): its plan (kl/sgemm_stream_k.hpp).
#include "kl/matmul.hpp"
#include "kl/matmul_split_k.hpp"
#include "kl/sgemm_stream_k.hpp"
#include "kl/sgemm_tuning.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

using namespace kl::matmul;

namespace {

const std::vector<std::string> known = {"a", "b", "c"};

std::string error_of(const std::string& text) {
  try {
    tuning::parse(text, known);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(SgemmTuning, ShippedFileNamesCompiledCandidates) {
  const std::vector<tuning::Choice> choices = tuning::parse(tuning_file_text(), tuned_config_names());
  const std::string fallback = tuning::config_for(choices, "some GPU without a line");
  EXPECT_FALSE(fallback.empty());
  for (const tuning::Choice& c : choices)
    EXPECT_EQ(tuning::config_for(choices, c.gpu.empty() ? "x" : c.gpu, c.shape), c.gpu.empty() ? fallback : c.config);
}

TEST(SgemmTuning, GpuLineWinsOverDefault) {
  const auto choices = tuning::parse("# comment\ndefault a\ngpu NVIDIA H100 80GB HBM3 = b  # fastest\n", known);
  EXPECT_EQ(tuning::config_for(choices, "NVIDIA H100 80GB HBM3"), "b");
  EXPECT_EQ(tuning::config_for(choices, "NVIDIA H200"), "a");
}

TEST(SgemmTuning, AClassLineWinsForItsShapesOnly) {
  const auto choices = tuning::parse("default a\ngpu H = b\ngpu H [large] = c\ngpu G [small] = c\n", known);
  EXPECT_EQ(tuning::config_for(choices, "H", tuning::ShapeClass::large), "c");
  EXPECT_EQ(tuning::config_for(choices, "H", tuning::ShapeClass::small), "b");  // H's every-shape line
  EXPECT_EQ(tuning::config_for(choices, "H", tuning::ShapeClass::any), "b");
  EXPECT_EQ(tuning::config_for(choices, "G", tuning::ShapeClass::small), "c");
  EXPECT_EQ(tuning::config_for(choices, "G", tuning::ShapeClass::large), "a");  // no G line for it: the default
  EXPECT_EQ(tuning::config_for(choices, "K", tuning::ShapeClass::large), "a");
}

TEST(SgemmTuning, ShapeClassesFollowCsSize) {
  using tuning::ShapeClass;
  EXPECT_EQ(tuning::shape_class_of(1, 1), ShapeClass::small);
  EXPECT_EQ(tuning::shape_class_of(1024, 1024), ShapeClass::small);
  EXPECT_EQ(tuning::shape_class_of(1024, 1025), ShapeClass::any);
  EXPECT_EQ(tuning::shape_class_of(8192, 1024), ShapeClass::any);  // the skinny sweep shapes
  EXPECT_EQ(tuning::shape_class_of(4096, 4096), ShapeClass::any);
  EXPECT_EQ(tuning::shape_class_of(8191, 8192), ShapeClass::any);
  EXPECT_EQ(tuning::shape_class_of(8192, 8192), ShapeClass::large);
  EXPECT_EQ(tuning::shape_class_of(65536, 1024), ShapeClass::large);
  EXPECT_EQ(tuning::name_of(ShapeClass::large), "large");
  EXPECT_EQ(tuning::name_of(ShapeClass::any), "");
}

// The shipped file's H100 lines (sgemm_tuning.conf quotes their measurements): a line for every
// shape, not the default's, and lines of their own for small C (1024^3 keeps the float4 stores)
// and large C (8192^3 rasterised in groups of block rows), 2026-11-27.
TEST(SgemmTuning, ShippedFileGivesTheH100ALineForEveryShapeClass) {
  const std::vector<tuning::Choice> choices = tuning::parse(tuning_file_text(), tuned_config_names());
  const std::string h100 = "NVIDIA H100 80GB HBM3";
  const std::string every_shape = tuning::config_for(choices, h100, tuning::ShapeClass::any);
  EXPECT_NE(every_shape, tuning::config_for(choices, "no such GPU")) << "the H100 has a line of its own";
  EXPECT_EQ(tuning::config_for(choices, h100, tuning::shape_class_of(4096, 4096)), every_shape);
  EXPECT_NE(tuning::config_for(choices, h100, tuning::shape_class_of(1024, 1024)), every_shape);
  EXPECT_NE(tuning::config_for(choices, h100, tuning::shape_class_of(8192, 8192)), every_shape);
}

// Rung 28 compiles its configurations in rather than following the file: the two must agree, on
// the H100 and on the H200, whose tune (2026-11-28) picked the H100's winners again.
TEST(SgemmTuning, TheSplitKRungRunsTheLinesOfBothSm90Gpus) {
  const std::vector<tuning::Choice> choices = tuning::parse(tuning_file_text(), tuned_config_names());
  for (const std::string gpu : {"NVIDIA H100 80GB HBM3", "NVIDIA H200"}) {
    EXPECT_EQ(tuning::config_for(choices, gpu, tuning::ShapeClass::any), split_k_config) << gpu;
    EXPECT_EQ(tuning::config_for(choices, gpu, tuning::ShapeClass::large), split_k_large_config) << gpu;
    EXPECT_EQ(tuning::config_for(choices, gpu, tuning::ShapeClass::small),
              tuning::config_for(choices, "NVIDIA H100 80GB HBM3", tuning::ShapeClass::small))
        << gpu;
  }
}

// The H100's numbers: 132 SMs, 4 blocks of the 64 x 128 tile an SM (528 block slots).
TEST(SplitK, RunsFillTheSlotsWhereHalfTheSmsWouldBeIdle) {
  using split_k::runs_for;
  EXPECT_EQ(runs_for(32, 512, 132, 4), 16);     // 512 x 512 x 8192: 32 blocks -> 512
  EXPECT_EQ(runs_for(66, 64, 132, 4), 8);       // exactly half the SMs: split
  EXPECT_EQ(runs_for(67, 64, 132, 4), 1);       // more: whole tiles
  EXPECT_EQ(runs_for(128, 64, 132, 4), 1);      // 1024^3
  EXPECT_EQ(runs_for(2048, 256, 132, 4), 1);    // 4096^3
  EXPECT_EQ(runs_for(1, 100000, 132, 4), 528);  // one tile, deep k: every slot
  EXPECT_EQ(runs_for(2, 100000, 132, 1), 66);   // one block an SM
}

TEST(SplitK, EveryRunKeepsEightTilesOfK) {
  using split_k::runs_for;
  EXPECT_EQ(runs_for(1, 7, 132, 4), 1);  // too shallow to split at all
  EXPECT_EQ(runs_for(1, 8, 132, 4), 1);
  EXPECT_EQ(runs_for(1, 16, 132, 4), 2);
  EXPECT_EQ(runs_for(1, 4096, 132, 4), 512);
  EXPECT_EQ(runs_for(4, 49, 132, 4), 6);  // 100 x 200 x 777 padded: 4 blocks, 49 k tiles
}

TEST(SplitK, NothingToSplitMeansWholeTiles) {
  using split_k::runs_for;
  EXPECT_EQ(runs_for(0, 64, 132, 4), 1);
  EXPECT_EQ(runs_for(4, 0, 132, 4), 1);
  EXPECT_EQ(runs_for(4, 64, 0, 4), 1);
  EXPECT_EQ(runs_for(4, 64, 132, 0), 1);
}

// The runs the kernel walks (first_tile) cover every k tile once, in order, at least
// min_run_tiles each and differing by one tile at most, for every split the rule can choose.
TEST(SplitK, TheRunsCoverEveryTileOnceAndEvenly) {
  for (std::int64_t blocks : {1, 2, 3, 7, 32, 66})
    for (std::int64_t k_tiles = 1; k_tiles <= 700; ++k_tiles) {
      const int runs = split_k::runs_for(blocks, k_tiles, 132, 4);
      ASSERT_GE(runs, 1);
      EXPECT_EQ(split_k::first_tile<std::int64_t>(k_tiles, 0, runs), 0);
      EXPECT_EQ(split_k::first_tile<std::int64_t>(k_tiles, runs, runs), k_tiles);
      std::int64_t shortest = k_tiles, longest = 0;
      for (int r = 0; r < runs; ++r) {
        const std::int64_t length =
            split_k::first_tile<std::int64_t>(k_tiles, r + 1, runs) - split_k::first_tile<std::int64_t>(k_tiles, r, runs);
        shortest = std::min(shortest, length);
        longest = std::max(longest, length);
      }
      EXPECT_LE(longest - shortest, 1) << blocks << " blocks, " << k_tiles << " tiles, " << runs << " runs";
      if (runs > 1) {
        EXPECT_GE(shortest, split_k::min_run_tiles) << blocks << " blocks, " << k_tiles << " tiles";
      }
    }
}

// The kernel computes the runs in int: the largest k the rung takes (m * k within an int) must
// not overflow it.
TEST(SplitK, TheKernelsIntArithmeticDoesNotOverflow) {
  const int k_tiles = INT_MAX / 16, runs = 528;
  for (int run : {0, 1, 263, 527, 528})
    EXPECT_EQ(split_k::first_tile<int>(k_tiles, run, runs), split_k::first_tile<std::int64_t>(k_tiles, run, runs));
  EXPECT_EQ(split_k::first_tile<int>(k_tiles, runs, runs), k_tiles);
}

// The H100's numbers again (528 block slots). 4096^3: 2048 tiles, 3 whole rounds (1584 tiles) and
// 464 tiles of 256 k tiles left over, dealt out first to 528 sharers (225 k tiles each, the last 9
// short); the 1584 whole tiles' blocks follow them.
TEST(SgemmStreamK, ThePlanDealsTheLastRoundOutToEverySlot) {
  const sgemm_stream_k::Plan p = sgemm_stream_k::plan_for(2048, 256, 132, 4);
  EXPECT_EQ(p.whole_tiles, 1584);
  EXPECT_EQ(p.share, 225);
  EXPECT_EQ(p.sharers, 528);
  EXPECT_EQ(p.blocks, 528 + 1584);
  EXPECT_EQ(p.share_end(527) - p.share_begin(527), 464 * 256 - 527 * 225);
  // Sharer 1 (k tiles 225 .. 449: 31 of tile 0, 194 of tile 1) starts with tile 1's k tiles 0 .. 193,
  // then tile 0's 225 .. 255, 31 k tiles ahead of its clock, as every two-tile share is.
  const sgemm_stream_k::Segment last = p.segment_ending_at(1, p.share_end(1));
  EXPECT_EQ(last.tile, 1);
  EXPECT_EQ(last.first, 0);
  EXPECT_EQ(last.count, 194);
  const sgemm_stream_k::Segment first = p.segment_ending_at(1, p.share_end(1) - last.count);
  EXPECT_EQ(first.tile, 0);
  EXPECT_EQ(first.first, 225);
  EXPECT_EQ(first.count, 31);
  EXPECT_EQ(first.first - last.count, 256 - 225);
  // 2048^3 (512 tiles, one round 97% full) and 1024^3 (128 tiles, under half the slots): no plan.
  EXPECT_EQ(sgemm_stream_k::plan_for(512, 128, 132, 4).blocks, 0);
  EXPECT_EQ(sgemm_stream_k::plan_for(128, 64, 132, 4).blocks, 0);
  // Whole rounds (4224 x 4096: 2112 tiles, 4 rounds) leave nothing to deal out.
  EXPECT_EQ(sgemm_stream_k::plan_for(2112, 256, 132, 4).blocks, 0);
  // Three whole rounds and a part are the most it takes: 8192^3 (15.5 rounds) runs rung 28.
  EXPECT_GT(sgemm_stream_k::plan_for(4 * 528 - 100, 256, 132, 4).blocks, 0);
  EXPECT_EQ(sgemm_stream_k::plan_for(4 * 528 + 100, 256, 132, 4).blocks, 0);
  EXPECT_EQ(sgemm_stream_k::plan_for(8192, 512, 132, 4).blocks, 0);
  // Half the slots and under a round: every block a sharer, no whole tiles.
  const sgemm_stream_k::Plan half = sgemm_stream_k::plan_for(264, 16, 132, 4);
  EXPECT_EQ(half.whole_tiles, 0);
  EXPECT_EQ(half.blocks, half.sharers);
  EXPECT_EQ(sgemm_stream_k::plan_for(263, 16, 132, 4).blocks, 0);
}

TEST(SgemmStreamK, NoPlanWhereNothingIsLeftToShareOrAnIndexWouldOverflow) {
  EXPECT_EQ(sgemm_stream_k::plan_for(0, 64, 132, 4).blocks, 0);
  EXPECT_EQ(sgemm_stream_k::plan_for(600, 0, 132, 4).blocks, 0);
  EXPECT_EQ(sgemm_stream_k::plan_for(600, 64, 0, 4).blocks, 0);
  EXPECT_EQ(sgemm_stream_k::plan_for(600, 64, 132, 0).blocks, 0);
  EXPECT_EQ(sgemm_stream_k::plan_for(529, 1, 132, 4).blocks, 0) << "one left-over k tile: nothing to share";
  EXPECT_EQ(sgemm_stream_k::plan_for(1000, INT_MAX / 1000, 132, 4).blocks, 0) << "k tiles end to end past INT_MAX / 2";
  EXPECT_GT(sgemm_stream_k::plan_for(1000, INT_MAX / 4000, 132, 4).blocks, 0);
}

// What the kernel walks and the last ticket's holder adds, replayed on the host for many plans:
// every k tile of every tile is computed by exactly one block; the blocks past the sharers each
// compute one whole tile, every tile before the left-over ones; a left-over tile's sharers are the
// blocks whose shares touch it, in order, and its ticket count (the pieces stored) reaches
// sharers_of(j); a piece goes to the buffer the adder reads (a share's first segment to buffer 0,
// a later partial one to buffer 1, never two pieces to one buffer); the sharers' work differs by at
// most one share, and no sharer has more than a whole tile's k tiles over the average (so the
// sharers end together). The shares are walked as the kernel walks them, from the end; where a
// share is at most a tile's k tiles, each of its segments starts 0 .. k_tiles - share k tiles
// ahead of the sharer's clock (the last sharer's shorter share a little more), so concurrent
// sharers read nearby k tiles.
TEST(SgemmStreamK, EveryKTileIsComputedOnceAndEveryPieceIsWhereTheAdderReadsIt) {
  int plans = 0;
  for (std::int64_t tiles : {60, 264, 300, 464, 527, 529, 700, 792, 1024, 2048, 8192})
    for (std::int64_t k_tiles : {1, 2, 5, 16, 17, 64, 256})
      for (std::int64_t slots_per_sm : {1, 4}) {
        const sgemm_stream_k::Plan p = sgemm_stream_k::plan_for(tiles, k_tiles, 132, slots_per_sm);
        if (p.blocks == 0) continue;
        ++plans;
        const std::string where = std::to_string(tiles) + " tiles of " + std::to_string(k_tiles) + " k tiles, " +
                                  std::to_string(slots_per_sm) + " a slot";
        EXPECT_EQ(p.blocks, p.sharers + p.whole_tiles) << where;
        EXPECT_LE(p.sharers, 132 * slots_per_sm) << where << ": the sharers all fit at once";
        std::vector<int> computed(static_cast<std::size_t>(tiles * k_tiles), 0);
        std::vector<int> pieces_in(static_cast<std::size_t>(2 * p.sharers), 0);
        std::vector<int> tickets(static_cast<std::size_t>(p.left_over_tiles()), 0);
        for (int b = p.sharers; b < p.blocks; ++b)
          for (int k = 0; k < p.k_tiles; ++k) ++computed[static_cast<std::size_t>((b - p.sharers) * p.k_tiles + k)];
        int least = INT_MAX, most = 0;
        for (int b = 0; b < p.sharers; ++b) {
          int work = 0;  // the k tiles walked so far: the sharer's clock
          for (int stop = p.share_end(b); stop > p.share_begin(b);) {  // as the kernel walks
            const sgemm_stream_k::Segment s = p.segment_ending_at(b, stop);
            const int j = s.tile;
            ASSERT_GE(j, 0) << where;
            ASSERT_GT(s.count, 0) << where;
            ASSERT_LE(s.first + s.count, p.k_tiles) << where;
            ASSERT_EQ(j * p.k_tiles + s.first + s.count, stop) << where;
            for (int k = s.first; k < s.first + s.count; ++k)
              ++computed[static_cast<std::size_t>((p.whole_tiles + j) * p.k_tiles + k)];
            EXPECT_LE(p.first_sharer(j), b) << where;
            EXPECT_GE(p.last_sharer(j), b) << where;
            if (s.count < p.k_tiles) {
              const bool first_segment = stop - s.count == p.share_begin(b);
              EXPECT_EQ(p.piece_of(b, j), first_segment ? 0 : 1) << where << ", block " << b;
              ++pieces_in[static_cast<std::size_t>(2 * b + p.piece_of(b, j))];
              ++tickets[static_cast<std::size_t>(j)];
            } else {
              EXPECT_EQ(p.sharers_of(j), 1) << where << ": a whole tile has one block";
            }
            if (p.share <= p.k_tiles) {  // at most two segments; the last sharer's share may be shorter
              EXPECT_GE(s.first - work, 0) << where << ", block " << b;
              EXPECT_LE(s.first - work, p.k_tiles - (p.share_end(b) - p.share_begin(b))) << where << ", block " << b;
            }
            stop -= s.count;
            work += s.count;
          }
          least = std::min(least, work);
          most = std::max(most, work);
        }
        for (std::size_t i = 0; i < computed.size(); ++i) ASSERT_EQ(computed[i], 1) << where << ", k tile " << i;
        for (int n : pieces_in) EXPECT_LE(n, 1) << where;
        for (int j = 0; j < p.left_over_tiles(); ++j) {
          if (p.sharers_of(j) > 1) {
            EXPECT_EQ(tickets[static_cast<std::size_t>(j)], p.sharers_of(j)) << where << ", tile " << j;
          }
        }
        EXPECT_LE(most - least, p.share) << where;
      }
  EXPECT_GT(plans, 20) << "too few of the drawn shapes made a plan to test it";
}

TEST(SgemmTuning, BadLinesNameTheRule) {
  EXPECT_NE(error_of("gpu X = a\n").find("no 'default CONFIG' line"), std::string::npos);
  EXPECT_NE(error_of("default z\n").find("unknown config 'z' (known: a, b, c)"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X a\n").find("line 2 'gpu X a': expected 'gpu NAME = CONFIG'"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X [huge] = a\n").find("unknown shape class '[huge]' (known: [small]"),
            std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X [] = a\n").find("unknown shape class '[]'"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X [large = a\n").find("unknown shape class '[large'"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X [large] = a\ngpu X [large] = b\n").find("a second line for this GPU and shape class"),
            std::string::npos);
  EXPECT_NE(error_of("default a\ngpu [large] = a\n").find("the GPU name is empty"), std::string::npos);
  EXPECT_EQ(error_of("default a\ngpu X = a\ngpu X [large] = b\ngpu X [small] = c\n"), "");
  EXPECT_NE(error_of("default a\nfastest a\n").find("expected 'default CONFIG', 'gpu NAME = CONFIG' or 'gpu NAME [CLASS] = CONFIG'"),
            std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X [small] [large] = a\n").find("unknown shape class '[small] [large]'"),
            std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X ] = a\n").find("unknown shape class ']'"), std::string::npos);
  EXPECT_NE(error_of("default a\ndefault b\n").find("a second default line"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X = a\ngpu X = b\n").find("a second line for this GPU"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu  = a\n").find("the GPU name is empty"), std::string::npos);
  EXPECT_EQ(error_of("default a\ngpu X = b\n"), "");
}

TEST(SgemmTuning, WithChoiceReplacesOrAddsOneLine) {
  const std::string text = "# head\ndefault a\ngpu X = b\ngpu Y = c\n";
  EXPECT_EQ(tuning::with_choice(text, "X", tuning::ShapeClass::any, "c"), "# head\ndefault a\ngpu X = c\ngpu Y = c\n");
  EXPECT_EQ(tuning::with_choice(text, "Z", tuning::ShapeClass::any, "a"), text + "gpu Z = a\n");
  // A class line is its own line: added beside the GPU's every-shape line, then replaced alone.
  const std::string with_large = tuning::with_choice(text, "X", tuning::ShapeClass::large, "a");
  EXPECT_EQ(with_large, text + "gpu X [large] = a\n");
  EXPECT_EQ(tuning::with_choice(with_large, "X", tuning::ShapeClass::large, "c"), text + "gpu X [large] = c\n");
  EXPECT_EQ(tuning::with_choice(with_large, "X", tuning::ShapeClass::any, "a"),
            "# head\ndefault a\ngpu X = a\ngpu Y = c\ngpu X [large] = a\n");
}
