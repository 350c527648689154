// Generators biased toward the shapes that break kernels: 0 and 1, warp and block edges
// (31/32/33, 2^k +- 1), primes, and sizes needing more blocks than one wave of the GPU.
//
// Edges are drawn whatever RapidCheck's size. RapidCheck runs its cases at sizes spread over
// 0..max_size (40 under a sanitizer) and rc::gen::inRange scales its range by that size, so a
// block drawn with inRange never reaches 1024 in the sanitizer tier; edge_of and uniform below
// do not scale. Edge values shrink toward the first (smallest) edge of their list, so a failure
// is reported at the smallest failing edge, not at the one first drawn (rc::gen::elementOf
// does not shrink at all). Each generator's comment names the edges it claims; the host test
// kl.generators.coverage draws every generator under every tier's settings and checks that
// each claimed edge comes up.
#pragma once

#include "kl/geometry.hpp"
#include "kl/test_env.hpp"

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace kl::gen {

// One of `edges`, each equally likely at every size. Shrinks toward edges.front(): list them
// from the value a failure should be reported at (usually the smallest) onward.
template <class T>
rc::Gen<T> edge_of(std::vector<T> edges) {
  auto shared = std::make_shared<const std::vector<T>>(std::move(edges));
  return [shared](const rc::Random& random, int /*size*/) {
    if (shared->empty()) throw rc::GenerationFailure("edge_of: no edges to draw from");
    const auto index = static_cast<std::size_t>(rc::Random(random).next() % shared->size());
    // Shrinking the index, not the value, keeps every shrink an edge.
    const rc::Shrinkable<std::size_t> shrinking_index = rc::shrinkable::shrinkRecur(
        index, [](std::size_t i) { return rc::shrink::towards<std::size_t>(i, 0); });
    return rc::shrinkable::map(shrinking_index, [shared](std::size_t i) { return (*shared)[i]; });
  };
}

// Any value in [lo, hi] (both included), each equally likely at every size; shrinks toward lo.
template <class T>
rc::Gen<T> uniform(T lo, T hi) {
  return [lo, hi](const rc::Random& random, int /*size*/) {
    if (hi < lo) throw rc::GenerationFailure("uniform: empty range");
    const auto span = static_cast<std::uint64_t>(static_cast<std::int64_t>(hi) - static_cast<std::int64_t>(lo)) + 1;
    const auto offset = static_cast<std::int64_t>(rc::Random(random).next() % span);
    const auto value = static_cast<T>(static_cast<std::int64_t>(lo) + offset);
    return rc::shrinkable::shrinkRecur(value, [lo](T x) { return rc::shrink::towards<T>(x, lo); });
  };
}

// `edges` kept within [lo, hi], in ascending order without repeats (edge_of's shrink order).
template <class T>
std::vector<T> edges_within(std::vector<T> edges, T lo, T hi) {
  std::erase_if(edges, [&](T e) { return e < lo || e > hi; });
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

// The lab's mix for a value in [lo, hi]: half the time one of `edges` (those within the range),
// a quarter RapidCheck's size-scaled [lo, scaled_hi] (small values in the early cases, which
// keep counterexamples small), a quarter uniform over [lo, hi] at every size.
template <class T>
rc::Gen<T> edge_biased(std::vector<T> edges, T lo, T hi, T scaled_hi) {
  return rc::gen::weightedOneOf<T>({
      {2, edge_of(edges_within(std::move(edges), lo, hi))},
      {1, rc::gen::inRange<T>(lo, std::clamp(scaled_hi, lo, hi) + 1)},
      {1, uniform<T>(lo, hi)},
  });
}

// Largest element count a property draws: large enough that the grid needs many waves of an
// H100 (132 SMs x 2048 threads = 270k threads), small enough for a property run; much smaller
// under a sanitizer.
inline std::int64_t max_count() { return sanitizer_small_mode() ? 5000 : (std::int64_t{1} << 22); }

inline std::vector<std::int64_t> edge_counts(std::int64_t limit) {
  std::vector<std::int64_t> edges = {1, 2, 3, 31, 32, 33, 97, 127, 128, 129, 255, 256, 257, 1000, 1021,
                                     1023, 1024, 1025, 4095, 4096, 4097, 65535, 65536, 65537, 1048573,
                                     (std::int64_t{1} << 22) - 1, std::int64_t{1} << 22};
  std::erase_if(edges, [&](std::int64_t e) { return e > limit; });
  return edges;
}

// An element count in [lo, hi]. Edges: lo and hi themselves and every edge_counts(hi) value
// within the range (warp and block edges, 2^k +- 1, the primes 97, 1021, 1048573).
inline rc::Gen<std::int64_t> count_in(std::int64_t lo, std::int64_t hi) {
  std::vector<std::int64_t> edges = edge_counts(hi);
  edges.push_back(lo);
  edges.push_back(hi);
  return edge_biased<std::int64_t>(std::move(edges), lo, hi, 1100);
}

// An element count in [lo, max_count()], with count_in's edges (0 too when lo is 0).
inline rc::Gen<std::int64_t> count(std::int64_t lo = 1) { return count_in(lo, max_count()); }

// The slow tier's element counts (KL_PROPERTY_TIER=slow): past the normal tier's 2^22 up to
// `hi` (10^8 by default), half the time an edge: 2^22 + 1, 2^24 + 1, 2^26 +- 1, the prime
// 99999989, hi - 1 and hi; else uniform over the range (no scaled part: the tier's few cases
// are spent on large sizes).
inline rc::Gen<std::int64_t> slow_count(std::int64_t hi = 100'000'000) {
  const std::int64_t lo = (std::int64_t{1} << 22) + 1;
  std::vector<std::int64_t> edges = {lo, (std::int64_t{1} << 24) + 1, (std::int64_t{1} << 26) - 1,
                                     (std::int64_t{1} << 26) + 1, 99'999'989, hi - 1, hi};
  return rc::gen::weightedOneOf<std::int64_t>({
      {1, edge_of(edges_within(std::move(edges), lo, hi))},
      {1, uniform(lo, hi)},
  });
}

// count(lo), or slow_count() in the slow tier (never under a sanitizer: those runs stay small).
inline rc::Gen<std::int64_t> count_for_tier(std::int64_t lo = 1) {
  return slow_tier() && !sanitizer_small_mode() ? slow_count() : count(lo);
}

// A block size that is a whole number of warps: 32..1024. Edges: the powers of two 32..1024,
// 96 (three warps) and 992 (31 warps).
inline rc::Gen<int> warp_multiple_block() {
  return rc::gen::weightedOneOf<int>({
      {1, edge_of(std::vector<int>{32, 64, 96, 128, 256, 512, 992, 1024})},
      {1, rc::gen::map(uniform(1, 32), [](int warps) { return 32 * warps; })},
  });
}

// The 1-D block edges up to max_block: 1, 2, 3, 7, the powers of two, 2^k +- 1, 96, 1000 and
// max_block itself.
inline std::vector<int> block_edges(int max_block) {
  return edges_within<int>({1, 2, 3, 7, 31, 32, 33, 63, 64, 65, 96, 127, 128, 129, 255, 256, 257, 511, 512, 513,
                            1000, 1023, 1024, max_block},
                           1, max_block);
}

// Any 1-D block size in 1..max_block (at most 1024): half the time one of block_edges(max_block),
// a quarter whole warps, a quarter anything.
inline rc::Gen<int> any_block_up_to(int max_block) {
  max_block = std::clamp(max_block, 1, max_threads_per_block);
  const int most_warps = std::max(1, max_block / 32);
  return rc::gen::weightedOneOf<int>({
      {2, edge_of(block_edges(max_block))},
      {1, rc::gen::map(uniform(1, most_warps), [max_block](int warps) { return std::min(32 * warps, max_block); })},
      {1, uniform(1, max_block)},
  });
}

// Any legal 1-D block size, with block_edges(1024).
inline rc::Gen<int> any_block() { return any_block_up_to(max_threads_per_block); }

// A power-of-two block in min_block..1024, each power equally likely (each is an edge: the tree
// reductions and the Riemann ladder halve them); shrinks toward min_block.
inline rc::Gen<int> power_of_two_block(int min_block = 32) {
  std::vector<int> powers;
  for (int b = 1; b <= max_threads_per_block; b *= 2)
    if (b >= min_block) powers.push_back(b);
  return edge_of(std::move(powers));
}

// Whether `block` is outside the power-of-two blocks min_block..1024.
inline bool breaks_power_of_two_rule(int block, int min_block) {
  return block < min_block || block > max_threads_per_block || (block & (block - 1)) != 0;
}

// A block that is not a power of two in min_block..1024. Edges: 0, -1, -32, the power of two
// just below min_block, min_block +- 1, 48, 96, 1000, 1023, 1025, 2048, 65536; shrinks toward 0.
inline rc::Gen<int> bad_power_of_two_block(int min_block = 32) {
  const std::vector<int> edges = {0, -1, -32, min_block / 2, min_block - 1, min_block + 1, 48, 96, 1000, 1023, 1025, 2048, 65536};
  std::vector<int> bad;  // in the order above (edge_of's shrink order), each once
  for (const int b : edges)
    if (breaks_power_of_two_rule(b, min_block) && std::find(bad.begin(), bad.end(), b) == bad.end()) bad.push_back(b);
  return rc::gen::oneOf(edge_of(std::move(bad)),
                        rc::gen::suchThat(uniform(-64, 1 << 16),
                                          [min_block](int b) { return breaks_power_of_two_rule(b, min_block); }));
}

// A 1-D block size that breaks the rule: 0, negative, or over 1024. Edges: 0, -1, 1025, -32,
// 2048, 4096 (shrinking toward 0); else anything in 1025..2^20.
inline rc::Gen<int> illegal_block() {
  return rc::gen::oneOf(edge_of(std::vector<int>{0, -1, 1025, -32, 2048, 4096}), uniform(1025, 1 << 20));
}

// One side of a 2-D block, 1..limit: half the time an edge (1, 2, 3, 4, 8, 16, 31, 32, 33, the
// powers of two up to 1024, limit - 1 and limit), else anything.
inline rc::Gen<int> block_side(int limit) {
  const std::vector<int> edges =
      edges_within<int>({1, 2, 3, 4, 8, 16, 31, 32, 33, 64, 128, 256, 512, 1024, limit - 1, limit}, 1, limit);
  return rc::gen::weightedOneOf<int>({{1, edge_of(edges)}, {1, uniform(1, limit)}});
}

// A 2-D block with x <= max_x, y <= max_y and x*y <= 1024: x from block_side, then y from
// block_side up to what x leaves, so the full blocks (32x32, 1024x1, 1x1024, 33x31, 31x33) and
// the square ones (1x1, 16x16) come up. Shrinks toward 1x1.
inline rc::Gen<Dim2> block_2d_within(int max_x, int max_y) {
  const int x_limit = std::clamp(max_x, 1, max_threads_per_block);
  return rc::gen::mapcat(block_side(x_limit), [max_y](int x) {
    const int y_limit = std::clamp(max_y, 1, max_threads_per_block / x);
    return rc::gen::map(block_side(y_limit), [x](int y) { return Dim2{x, y}; });
  });
}

// A 2-D block with x*y <= 1024 (block_2d_within's edges).
inline rc::Gen<Dim2> block_2d() { return block_2d_within(max_threads_per_block, max_threads_per_block); }

// The largest grid side side() draws: `limit`, or 64 under a sanitizer.
inline int side_limit(int limit = 2000) { return sanitizer_small_mode() ? 64 : limit; }

// A grid side in 1..limit (2000 by default, 64 under a sanitizer). Edges: 1, 2, 3, 4, 6,
// 16 +- 1, 32 +- 1, 64 +- 1, 128 +- 1, the prime 997, 1024, 1999 and limit itself.
inline rc::Gen<int> side(int limit = 2000) {
  limit = side_limit(limit);
  return edge_biased<int>({1, 2, 3, 4, 6, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 997, 1024, 1999, limit},
                          1, limit, limit);
}

// A number of blocks in a 1-D grid, 1..max_blocks. Edges: 1, 2, 3, 32 +- 1, whole waves of an
// H100's 132 SMs and their neighbours (131..133, 263..265), 1024 +- 1, 4095, 65535, 65536,
// 100000 and max_blocks itself.
inline rc::Gen<int> grid_blocks(int max_blocks) {
  max_blocks = std::max(max_blocks, 1);
  return edge_biased<int>({1, 2, 3, 31, 32, 33, 131, 132, 133, 263, 264, 265, 1023, 1024, 1025, 4095, 65535, 65536,
                           100000, max_blocks},
                          1, max_blocks, max_blocks);
}

// A grid size around a co-residency capacity: edges 1, capacity - 1, capacity, capacity + 1
// two thirds of the time, else anything up to twice the capacity.
inline rc::Gen<int> blocks_around(int capacity) {
  capacity = std::max(capacity, 1);
  return rc::gen::weightedOneOf<int>({
      {2, edge_of(edges_within<int>({1, capacity - 1, capacity, capacity + 1}, 1, capacity + 1))},
      {1, uniform(1, 2 * capacity)},
  });
}

}  // namespace kl::gen

namespace kl {
// Lets RapidCheck print a Dim2 in counterexamples (found by argument-dependent lookup).
inline void showValue(Dim2 d, std::ostream& os) { os << d.x << "x" << d.y; }
}  // namespace kl
