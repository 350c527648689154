// Generators biased toward the shapes that break kernels: 0 and 1, warp and block edges
// (31/32/33, 2^k +- 1), primes, and sizes needing more blocks than one wave of the GPU.
// RapidCheck shrinks a failing case toward the smallest of these.
#pragma once

#include "kl/geometry.hpp"
#include "kl/test_env.hpp"

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

namespace kl::gen {

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

// An element count in [lo, max_count()], half the time an edge value.
inline rc::Gen<std::int64_t> count(std::int64_t lo = 1) {
  const std::int64_t hi = max_count();
  std::vector<std::int64_t> edges = edge_counts(hi);
  std::erase_if(edges, [&](std::int64_t e) { return e < lo; });
  if (lo == 0) edges.insert(edges.begin(), 0);
  return rc::gen::weightedOneOf<std::int64_t>({
      {2, rc::gen::elementOf(edges)},
      {1, rc::gen::inRange<std::int64_t>(lo, 1100)},
      {1, rc::gen::inRange<std::int64_t>(lo, hi + 1)},
  });
}

// The slow tier's element counts (KL_PROPERTY_TIER=slow): past the normal tier's 2^22 up to
// `hi` (10^8 by default), half the time an edge: the largest sizes, a prime, 2^k +- 1.
inline rc::Gen<std::int64_t> slow_count(std::int64_t hi = 100'000'000) {
  const std::int64_t lo = (std::int64_t{1} << 22) + 1;
  std::vector<std::int64_t> edges = {lo, (std::int64_t{1} << 24) + 1, (std::int64_t{1} << 26) - 1,
                                     (std::int64_t{1} << 26) + 1, 99'999'989, hi - 1, hi};
  std::erase_if(edges, [&](std::int64_t e) { return e < lo || e > hi; });
  return rc::gen::weightedOneOf<std::int64_t>({
      {1, rc::gen::elementOf(edges)},
      {1, rc::gen::inRange<std::int64_t>(lo, hi + 1)},
  });
}

// count(lo), or slow_count() in the slow tier (never under a sanitizer: those runs stay small).
inline rc::Gen<std::int64_t> count_for_tier(std::int64_t lo = 1) {
  return slow_tier() && !sanitizer_small_mode() ? slow_count() : count(lo);
}

// A block size that is a whole number of warps: 32..1024.
inline rc::Gen<int> warp_multiple_block() {
  return rc::gen::map(rc::gen::inRange(1, 33), [](int warps) { return 32 * warps; });
}

// Any legal 1-D block size, biased to whole warps and the odd sizes around them.
inline rc::Gen<int> any_block() {
  return rc::gen::weightedOneOf<int>({
      {2, warp_multiple_block()},
      {1, rc::gen::elementOf(std::vector<int>{1, 2, 3, 7, 31, 33, 63, 65, 127, 129, 1000, 1023})},
      {1, rc::gen::inRange(1, 1025)},
  });
}

// A 1-D block size that breaks the rule: 0, negative, or over 1024.
inline rc::Gen<int> illegal_block() {
  return rc::gen::oneOf(rc::gen::elementOf(std::vector<int>{0, -1, -32, 1025, 2048, 4096}),
                        rc::gen::inRange(1025, 1 << 20));
}

// A 2-D block with x*y <= 1024.
inline rc::Gen<Dim2> block_2d() {
  return rc::gen::mapcat(rc::gen::inRange(1, 1025), [](int x) {
    return rc::gen::map(rc::gen::inRange(1, 1024 / x + 1), [x](int y) { return Dim2{x, y}; });
  });
}

// A grid side in 1..limit (2000 by default, 64 under a sanitizer), biased to edges.
inline rc::Gen<int> side(int limit = 2000) {
  if (sanitizer_small_mode()) limit = 64;
  std::vector<int> edges = {1, 2, 3, 4, 6, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 997, 1024, 1999, 2000};
  std::erase_if(edges, [&](int e) { return e > limit; });
  return rc::gen::weightedOneOf<int>({{1, rc::gen::elementOf(edges)}, {2, rc::gen::inRange(1, limit + 1)}});
}

}  // namespace kl::gen

namespace kl {
// Lets RapidCheck print a Dim2 in counterexamples (found by argument-dependent lookup).
inline void showValue(Dim2 d, std::ostream& os) { os << d.x << "x" << d.y; }
}  // namespace kl
