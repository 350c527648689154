// Host checks of the generators' claims. Under each property tier's settings (normal; a
// sanitizer's KL_SANITIZER_SMALL=1 with max_size=40; the slow tier's KL_PROPERTY_TIER=slow),
// sampled at sizes spread over the tier's range as RapidCheck spreads its cases, every generator
// draws every edge its comment names, and nothing outside its range; a drawn edge shrinks to the
// smallest edge that still fails. The claims are written out here, from the comments, not read
// from the generators' own lists, so a generator that drops or stops reaching an edge fails.
#include "dispatch/dispatch_generators.hpp"
#include "generators.hpp"
#include "matmul/matmul_generators.hpp"
#include "scoped_env.hpp"

#include "kl/matmul_stream_k.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

namespace {

using kl::Dim2;
using Counts = std::vector<std::int64_t>;
using Ints = std::vector<int>;

// One property tier: its environment and the largest size RapidCheck gives a case in it.
struct Tier {
  const char* name;
  const char* sanitizer_small;  // KL_SANITIZER_SMALL
  const char* property_tier;    // KL_PROPERTY_TIER
  int max_size;
  bool small() const { return sanitizer_small != nullptr; }
  bool slow() const { return property_tier != nullptr; }
};

constexpr Tier normal_tier{"normal", nullptr, nullptr, 100};
constexpr Tier sanitizer_tier{"sanitizer", "1", nullptr, 40};  // RC_PARAMS="max_success=8 max_size=40"
constexpr Tier slow_tier{"slow", nullptr, "slow", 100};
constexpr Tier all_tiers[] = {normal_tier, sanitizer_tier, slow_tier};

constexpr std::uint64_t first_seed = 20240611;

// `samples` values of the generator that make_gen() builds under the tier's settings, the i-th
// drawn at size i mod (max_size + 1) from its own deterministic seed.
template <class MakeGen>
auto draws(const Tier& tier, MakeGen make_gen, int samples = 4000) {
  const kl::test::InTier in_tier(tier.sanitizer_small, tier.property_tier);
  const auto gen = make_gen();
  std::vector<decltype(gen(rc::Random(), 0).value())> out;
  for (int i = 0; i < samples; ++i)
    out.push_back(gen(rc::Random(first_seed + static_cast<std::uint64_t>(i)), i % (tier.max_size + 1)).value());
  return out;
}

// The claimed values that no draw produced.
template <class T>
std::vector<T> never_drawn(const std::vector<T>& claimed, const std::vector<T>& drawn) {
  std::vector<T> missing;
  for (const T& c : claimed)
    if (std::find(drawn.begin(), drawn.end(), c) == drawn.end()) missing.push_back(c);
  return missing;
}

// The values of `drawn` for which `in_range` is false.
template <class T, class Pred>
std::vector<T> outside(const std::vector<T>& drawn, Pred in_range) {
  std::vector<T> out;
  for (const T& d : drawn)
    if (!in_range(d) && std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  return out;
}

template <class T>
std::vector<T> at_most(std::vector<T> values, T limit) {
  std::erase_if(values, [&](const T& v) { return v > limit; });
  return values;
}

// Passes when `found` is empty, else fails naming what it holds.
template <class T>
testing::AssertionResult nothing_in(const std::vector<T>& found) {
  if (found.empty()) return testing::AssertionSuccess();
  return testing::AssertionFailure() << rc::toString(found);
}

// Every claimed value drawn, every drawn value in [lo, hi].
template <class T>
void expect_reaches(const Tier& tier, const char* what, const std::vector<T>& drawn, const std::vector<T>& claimed,
                    T lo, T hi) {
  EXPECT_TRUE(nothing_in(never_drawn(claimed, drawn))) << what << " in the " << tier.name << " tier";
  EXPECT_TRUE(nothing_in(outside(drawn, [&](T v) { return v >= lo && v <= hi; })))
      << what << " in the " << tier.name << " tier drew outside " << lo << ".." << hi;
}

// RapidCheck's search: take the first shrink that still fails until none does.
template <class T, class Fails>
T smallest_failing(rc::Shrinkable<T> failing, Fails fails) {
  for (bool shrunk = true; shrunk;) {
    shrunk = false;
    rc::Seq<rc::Shrinkable<T>> shrinks = failing.shrinks();
    while (rc::Maybe<rc::Shrinkable<T>> next = shrinks.next()) {
      if (fails(next->value())) {
        failing = *next;
        shrunk = true;
        break;
      }
    }
  }
  return failing.value();
}

// A draw of `wanted` from the generator (built under the tier's settings), with its shrinks.
template <class T>
rc::Shrinkable<T> draw_of(const Tier& tier, const std::function<rc::Gen<T>()>& make_gen, const T& wanted) {
  const kl::test::InTier in_tier(tier.sanitizer_small, tier.property_tier);
  const rc::Gen<T> gen = make_gen();
  for (int i = 0; i < 200000; ++i) {
    rc::Shrinkable<T> s = gen(rc::Random(first_seed + static_cast<std::uint64_t>(i)), i % (tier.max_size + 1));
    if (s.value() == wanted) return s;
  }
  throw std::runtime_error("never drew " + rc::toString(wanted));
}

// The edges count(), count_in() and side() claim below 2^22, by their comments.
const Counts claimed_counts = {1,     2,     3,     31,      32,      33,      97,      127,
                               128,   129,   255,   256,     257,     1000,    1021,    1023,
                               1024,  1025,  4095,  4096,    4097,    65535,   65536,   65537,
                               1048573, (std::int64_t{1} << 22) - 1, std::int64_t{1} << 22};
const Counts claimed_slow_counts = {(std::int64_t{1} << 22) + 1, (std::int64_t{1} << 24) + 1,
                                    (std::int64_t{1} << 26) - 1, (std::int64_t{1} << 26) + 1,
                                    99'999'989, 99'999'999, 100'000'000};

// count_in(lo, hi)'s claims: lo, hi and the count edges between.
Counts claimed_counts_in(std::int64_t lo, std::int64_t hi) {
  Counts claims = {lo, hi};
  for (const std::int64_t e : claimed_counts)
    if (e >= lo && e <= hi) claims.push_back(e);
  return claims;
}

}  // namespace

TEST(GeneratorCoverage, CountsDrawEveryEdgeInEveryTier) {
  for (const Tier& tier : all_tiers) {
    const std::int64_t cap = tier.small() ? 5000 : std::int64_t{1} << 22;
    expect_reaches(tier, "count(1)", draws(tier, [] { return kl::gen::count(1); }), claimed_counts_in(1, cap),
                   std::int64_t{1}, cap);
    expect_reaches(tier, "count(0)", draws(tier, [] { return kl::gen::count(0); }), claimed_counts_in(0, cap),
                   std::int64_t{0}, cap);
    if (tier.slow())
      expect_reaches(tier, "count_for_tier(0)", draws(tier, [] { return kl::gen::count_for_tier(0); }),
                     claimed_slow_counts, (std::int64_t{1} << 22) + 1, std::int64_t{100'000'000});
    else
      expect_reaches(tier, "count_for_tier(0)", draws(tier, [] { return kl::gen::count_for_tier(0); }),
                     claimed_counts_in(0, cap), std::int64_t{0}, cap);
    // Quicksort's n (65536, or 3000 under a sanitizer) and the planted elementwise kernel's n.
    const std::int64_t sort_limit = tier.small() ? 3000 : 65536;
    expect_reaches(tier, "count_in(0, sort limit)", draws(tier, [&] { return kl::gen::count_in(0, sort_limit); }),
                   claimed_counts_in(0, sort_limit), std::int64_t{0}, sort_limit);
    expect_reaches(tier, "count_in(1, 20000)", draws(tier, [] { return kl::gen::count_in(1, 20000); }),
                   claimed_counts_in(1, 20000), std::int64_t{1}, std::int64_t{20000});
  }
}

TEST(GeneratorCoverage, OneDimensionalBlocksDrawEveryEdgeInEveryTier) {
  const Ints block_claims = {1,   2,   3,   7,   31,  32,  33,  63,  64,   65,   96,  127,
                             128, 129, 255, 256, 257, 511, 512, 513, 1000, 1023, 1024};
  for (const Tier& tier : all_tiers) {
    expect_reaches(tier, "any_block()", draws(tier, [] { return kl::gen::any_block(); }), block_claims, 1, 1024);
    for (const int most : {256, 64}) {
      Ints claims = at_most(block_claims, most);
      claims.push_back(most);
      expect_reaches(tier, "any_block_up_to()", draws(tier, [most] { return kl::gen::any_block_up_to(most); }),
                     claims, 1, most);
    }
    const Ints warps = draws(tier, [] { return kl::gen::warp_multiple_block(); });
    expect_reaches(tier, "warp_multiple_block()", warps, Ints{32, 64, 96, 128, 256, 512, 992, 1024}, 32, 1024);
    EXPECT_TRUE(nothing_in(outside(warps, [](int b) { return b % 32 == 0; }))) << "warp_multiple_block() in " << tier.name;

    expect_reaches(tier, "power_of_two_block(32)", draws(tier, [] { return kl::gen::power_of_two_block(32); }),
                   Ints{32, 64, 128, 256, 512, 1024}, 32, 1024);
    const Ints tree_blocks = draws(tier, [] { return kl::gen::power_of_two_block(64); });
    expect_reaches(tier, "power_of_two_block(64)", tree_blocks, Ints{64, 128, 256, 512, 1024}, 64, 1024);
    EXPECT_TRUE(nothing_in(outside(tree_blocks, [](int b) { return (b & (b - 1)) == 0; }))) << tier.name;

    const Ints bad = draws(tier, [] { return kl::gen::bad_power_of_two_block(32); });
    expect_reaches(tier, "bad_power_of_two_block(32)", bad,
                   Ints{0, -1, -32, 16, 31, 33, 48, 96, 1000, 1023, 1025, 2048, 65536}, -64, 1 << 16);
    EXPECT_TRUE(nothing_in(outside(bad, [](int b) { return kl::gen::breaks_power_of_two_rule(b, 32); }))) << tier.name;

    const Ints illegal = draws(tier, [] { return kl::gen::illegal_block(); });
    expect_reaches(tier, "illegal_block()", illegal, Ints{0, -1, -32, 1025, 2048, 4096}, -32, 1 << 20);
    EXPECT_TRUE(nothing_in(outside(illegal, [](int b) { return b < 1 || b > 1024; }))) << tier.name;
  }
}

TEST(GeneratorCoverage, GridsDrawEveryEdgeInEveryTier) {
  const Ints grid_claims = {1,   2,   3,    31,   32,   33,   131,   132,   133,   263,
                            264, 265, 1023, 1024, 1025, 4095, 65535, 65536, 100000};
  for (const Tier& tier : all_tiers) {
    for (const int most : {100000, 299, 64, 2}) {
      Ints claims = at_most(grid_claims, most);
      claims.push_back(most);
      expect_reaches(tier, "grid_blocks()", draws(tier, [most] { return kl::gen::grid_blocks(most); }), claims, 1,
                     most);
    }
    expect_reaches(tier, "blocks_around(264)", draws(tier, [] { return kl::gen::blocks_around(264); }),
                   Ints{1, 263, 264, 265}, 1, 528);
    const int limit = tier.small() ? 64 : 2000;
    Ints side_claims = at_most<int>({1, 2, 3, 4, 6, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 997, 1024, 1999},
                                    limit);
    side_claims.push_back(limit);
    expect_reaches(tier, "side()", draws(tier, [] { return kl::gen::side(); }), side_claims, 1, limit);
  }
}

TEST(GeneratorCoverage, TwoDimensionalBlocksDrawEveryEdgeInEveryTier) {
  const std::vector<Dim2> claimed = {{1, 1}, {16, 16}, {32, 32}, {1024, 1}, {1, 1024}, {33, 31}, {31, 33}};
  for (const Tier& tier : all_tiers) {
    const std::vector<Dim2> blocks = draws(tier, [] { return kl::gen::block_2d(); }, 30000);
    EXPECT_TRUE(nothing_in(never_drawn(claimed, blocks))) << "block_2d() in " << tier.name;
    EXPECT_TRUE(nothing_in(outside(blocks, [](Dim2 b) { return b.x >= 1 && b.y >= 1 && b.x * b.y <= 1024; })))
        << "block_2d() in " << tier.name;
    std::vector<int> xs;
    for (const Dim2 b : blocks) xs.push_back(b.x);
    EXPECT_TRUE(nothing_in(never_drawn<int>({1, 2, 3, 4, 8, 16, 31, 32, 33, 64, 128, 256, 512, 1024}, xs)))
        << "block_2d().x in " << tier.name;
  }
}

TEST(GeneratorCoverage, MatmulSidesDrawEveryTileEdgeInEveryTier) {
  const Counts side_claims = {1,  2,  3,  5,  7,  8,   9,   13,  15,  16,  17,  31,  32,  33, 61,
                              63, 64, 65, 97, 127, 128, 129, 251, 255, 256, 257, 509, 511, 512};
  const Counts slow_side_claims = {513, 521, 767, 768, 769, 1023, 1024, 1025, 1031, 1535, 2047, 2048};
  for (const Tier& tier : all_tiers) {
    const std::int64_t limit = tier.small() ? 64 : 512;
    const Counts sides = draws(tier, [] { return kl::gen::matmul_side(); });
    if (tier.slow())
      expect_reaches(tier, "matmul_side()", sides, slow_side_claims, std::int64_t{513}, std::int64_t{2048});
    else
      expect_reaches(tier, "matmul_side()", sides, at_most(side_claims, limit), std::int64_t{1}, limit);

    const Counts imatmul_claims = {1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 97, 127, 128, 129, 255, 256, 257, 300};
    const std::int64_t imatmul_limit = tier.small() ? 64 : 300;
    expect_reaches(tier, "imatmul_side()", draws(tier, [] { return kl::gen::imatmul_side(); }),
                   at_most(imatmul_claims, imatmul_limit), std::int64_t{1}, imatmul_limit);
  }
}

// tensor_stream_k_shape() exists to reach rung 36's shared plans, which no other matmul draw
// does: on the lab's 132 SMs (one block each) most of its draws must share in every tier, every k
// edge it names must come up, and sides and k stay in their ranges.
TEST(GeneratorCoverage, TensorStreamKShapesMostlyShareTilesInEveryTier) {
  const Counts k_claims = {577, 640, 1021, 1024, 1025, 1280, 2048, 3001, 4096, 8191, 8192};
  for (const Tier& tier : {normal_tier, sanitizer_tier}) {
    const auto shapes = draws(tier, [] { return kl::gen::tensor_stream_k_shape(); });
    const std::int64_t most_k = tier.small() ? 1280 : 8192;
    Counts ks, ms, ns;
    int shared = 0;
    for (const kl::matmul::Shape& s : shapes) {
      ks.push_back(s.k);
      ms.push_back(s.m);
      ns.push_back(s.n);
      shared += kl::matmul::stream_k::plan_for(s.m, s.n, s.k, 132).sk_tiles > 0;
    }
    expect_reaches(tier, "tensor_stream_k_shape().k", ks, at_most(k_claims, most_k), std::int64_t{1}, most_k);
    // Off the tile by any amount (uniform): the range is what is checked, and the sanitizer's ends
    // (8 x 128 rows and 4 x 256 columns at most outside it).
    const std::int64_t most_side = tier.small() ? 64 : 1024;
    const Counts side_claims = tier.small() ? Counts{1, 64} : Counts{};
    expect_reaches(tier, "tensor_stream_k_shape().m", ms, side_claims, std::int64_t{1}, most_side);
    expect_reaches(tier, "tensor_stream_k_shape().n", ns, side_claims, std::int64_t{1}, most_side);
    EXPECT_GE(shared, static_cast<int>(shapes.size()) * 7 / 10) << tier.name << ": " << shared << " of " << shapes.size()
                                                               << " draws share tiles";
  }
}

TEST(GeneratorCoverage, SquareTiledSidesDrawEveryTileEdgeInEveryTier) {
  // Per tier and tile: the ends of the range, one tile past the low end, and the powers of two
  // in range with their neighbours one tile away (a subset for tile 2, which has many).
  struct Claim {
    const Tier& tier;
    std::int64_t tile;
    Counts sides;
  };
  const Claim claims[] = {
      {normal_tier, 2, {2, 4, 6, 14, 16, 18, 30, 32, 34, 254, 256, 258, 510, 512}},
      {normal_tier, 16, {16, 32, 48, 64, 80, 112, 128, 144, 240, 256, 272, 496, 512}},
      {normal_tier, 32, {32, 64, 96, 128, 160, 224, 256, 288, 480, 512}},
      {sanitizer_tier, 2, {2, 4, 6, 14, 16, 18, 30, 32, 34, 62, 64}},
      {sanitizer_tier, 16, {16, 32, 48, 64}},
      {sanitizer_tier, 32, {32, 64}},
      {slow_tier, 2, {514, 516, 1022, 1024, 1026, 2046, 2048}},
      {slow_tier, 16, {528, 544, 1008, 1024, 1040, 2032, 2048}},
      {slow_tier, 32, {544, 576, 1024, 1056, 2016, 2048}},
  };
  for (const Claim& c : claims) {
    const std::int64_t lo = c.sides.front();
    const std::int64_t hi = c.sides.back();
    const Counts sides = draws(c.tier, [&] { return kl::gen::square_side(c.tile); });
    expect_reaches(c.tier, ("square_side(" + std::to_string(c.tile) + ")").c_str(), sides, c.sides, lo, hi);
    EXPECT_TRUE(nothing_in(outside(sides, [&](std::int64_t s) { return s % c.tile == 0; })))
        << "square_side(" << c.tile << ") in " << c.tier.name << ": not whole tiles";
  }
}

TEST(GeneratorCoverage, TiledDispatchShapesAreTiledAndDrawEveryEdgeInEveryTier) {
  for (const Tier& tier : all_tiers) {
    const int limit = tier.small() ? 64 : 2000;
    std::vector<Dim2> claimed = {{1, 1}, {16, 16}, {32, 32}};
    if (tier.small())
      claimed.insert(claimed.end(), {{64, 16}, {16, 64}, {64, 1}, {1, 64}});
    else
      claimed.insert(claimed.end(), {{1024, 1}, {1, 1024}});
    const auto shapes = draws(tier, [] { return kl::gen::tiled_dispatch_shape(); }, 30000);
    std::vector<Dim2> blocks;
    bool one_tile = false, as_many_as_fit = false;
    for (const kl::dispatch::Shape& s : shapes) {
      blocks.push_back(s.block);
      one_tile |= s.width == s.block.x && s.height == s.block.y;
      as_many_as_fit |= s.width == limit / s.block.x * s.block.x && s.height == limit / s.block.y * s.block.y;
      EXPECT_TRUE(s.width % s.block.x == 0 && s.height % s.block.y == 0 && s.width <= limit && s.height <= limit &&
                  s.block.x * s.block.y <= 1024)
          << rc::toString(s) << " in the " << tier.name << " tier";
    }
    EXPECT_TRUE(nothing_in(never_drawn(claimed, blocks))) << "tiled_dispatch_shape() in " << tier.name;
    EXPECT_TRUE(one_tile) << "no shape of one block in the " << tier.name << " tier";
    EXPECT_TRUE(as_many_as_fit) << "no shape of as many blocks as fit in the " << tier.name << " tier";
  }
}

TEST(GeneratorCoverage, EdgeOfShrinksToTheSmallestFailingEdge) {
  const Counts edges = claimed_counts;
  const rc::Gen<std::int64_t> gen = kl::gen::edge_of(edges);
  for (const std::int64_t drawn : edges) {
    const rc::Shrinkable<std::int64_t> s = draw_of<std::int64_t>(normal_tier, [&] { return gen; }, drawn);
    for (const std::int64_t threshold : edges) {
      if (threshold > drawn) continue;
      EXPECT_EQ(smallest_failing(s, [&](std::int64_t n) { return n >= threshold; }), threshold)
          << "drawn " << drawn << ", failing from " << threshold;
    }
  }
}

TEST(GeneratorCoverage, DrawnEdgesShrinkToTheSmallestFailingValue) {
  const auto always = [](const auto&) { return true; };
  // The case: n = 4194303 reported where n >= 1000 fails.
  const auto n = draw_of<std::int64_t>(normal_tier, [] { return kl::gen::count(1); }, (std::int64_t{1} << 22) - 1);
  EXPECT_EQ(smallest_failing(n, [](std::int64_t v) { return v >= 1000; }), 1000);
  EXPECT_EQ(smallest_failing(n, always), 1);
  EXPECT_EQ(smallest_failing(draw_of<std::int64_t>(normal_tier, [] { return kl::gen::count(0); }, 65536), always), 0);
  const auto slow_n = draw_of<std::int64_t>(slow_tier, [] { return kl::gen::count_for_tier(1); }, 100'000'000);
  EXPECT_EQ(smallest_failing(slow_n, always), (std::int64_t{1} << 22) + 1);

  const auto block = draw_of<int>(normal_tier, [] { return kl::gen::any_block(); }, 1024);
  EXPECT_EQ(smallest_failing(block, [](int b) { return b >= 257; }), 257);
  EXPECT_EQ(smallest_failing(block, always), 1);
  const auto warps = draw_of<int>(normal_tier, [] { return kl::gen::warp_multiple_block(); }, 1024);
  EXPECT_EQ(smallest_failing(warps, [](int b) { return b >= 128; }), 128);
  EXPECT_EQ(smallest_failing(warps, always), 32);
  const auto tree = draw_of<int>(normal_tier, [] { return kl::gen::power_of_two_block(64); }, 1024);
  EXPECT_EQ(smallest_failing(tree, [](int b) { return b >= 256; }), 256);
  EXPECT_EQ(smallest_failing(tree, always), 64);

  const auto side = draw_of<int>(normal_tier, [] { return kl::gen::side(); }, 2000);
  EXPECT_EQ(smallest_failing(side, [](int s) { return s >= 129; }), 129);
  EXPECT_EQ(smallest_failing(side, always), 1);
  const auto matmul_side = draw_of<std::int64_t>(normal_tier, [] { return kl::gen::matmul_side(); }, 512);
  EXPECT_EQ(smallest_failing(matmul_side, [](std::int64_t s) { return s >= 33; }), 33);
  const auto square = draw_of<std::int64_t>(normal_tier, [] { return kl::gen::square_side(16); }, 512);
  EXPECT_EQ(smallest_failing(square, always), 16);

  const auto block_2d = draw_of<Dim2>(normal_tier, [] { return kl::gen::block_2d(); }, Dim2{1024, 1});
  const Dim2 smallest_block = smallest_failing(block_2d, always);
  EXPECT_TRUE(smallest_block == (Dim2{1, 1})) << rc::toString(smallest_block);
}

// The quicksort property's "a third presorted" is kl::gen::uniform(0, 2) == 0: the same mix at
// every size, unlike rc::gen::inRange(0, 3), which draws only 0 below size 25.
TEST(GeneratorCoverage, UniformDrawsTheSameMixAtEverySize) {
  const rc::Gen<int> choice = kl::gen::uniform(0, 2);
  constexpr int samples = 6000;
  for (const int size : {0, 1, 20, 40, 100}) {
    int counts[3] = {0, 0, 0};
    for (int i = 0; i < samples; ++i) ++counts[choice(rc::Random(first_seed + static_cast<std::uint64_t>(i)), size).value()];
    for (const int c : counts) EXPECT_NEAR(static_cast<double>(c) / samples, 1.0 / 3, 0.03) << "at size " << size;
  }
}
