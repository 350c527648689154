// Matmul shapes biased toward what breaks tiled kernels: 1, primes, TILE-1/TILE/TILE+1 for
// TILE 2, 16 and 32, powers of two and their neighbours. Sides up to 512 (64 under a
// sanitizer); the slow tier (KL_PROPERTY_TIER=slow) draws sides from 513 to 2048 instead.
// Edges are drawn at every size (kl::gen::edge_of) and shrink toward the smallest; the ranges
// between them stay scaled by RapidCheck's size, because each case costs m*n*k multiply-adds
// of CPU oracle and small shapes make small counterexamples.
#pragma once

#include "generators.hpp"

#include "kl/matmul.hpp"
#include "kl/test_env.hpp"

#include <rapidcheck.h>

#include <vector>

namespace kl::gen {

inline std::int64_t max_matmul_side() {
  if (sanitizer_small_mode()) return 64;
  return slow_tier() ? 2048 : 512;
}

// Large sides only, still biased to tile edges: the slow tier spends its few cases (each with
// millions of elements to check) where the normal tier never reaches. Edges: 513, the primes
// 521 and 1031, 768 +- 1, 1024 +- 1, 1535, 2047, 2048.
inline rc::Gen<std::int64_t> slow_matmul_side() {
  const std::vector<std::int64_t> edges = {513, 521, 767, 768, 769, 1023, 1024, 1025, 1031, 1535, 2047, 2048};
  return rc::gen::weightedOneOf<std::int64_t>({
      {3, edge_of(edges)},
      {2, rc::gen::inRange<std::int64_t>(513, 2049)},
  });
}

// One side of a matmul shape. Edges (up to max_matmul_side()): 1, 2, 3, 8 +- 1, 16 +- 1, 32 +- 1,
// 64 +- 1, 128 +- 1, 256 +- 1, 511, 512 and the primes 5, 13, 61, 97, 251, 509 (8, 16, 64 and
// 128: the SGEMM ladder's tile depths and sides; 16, 64, 128 and 256: the tensor-core rungs'
// fragments, k-tiles and block tiles).
inline rc::Gen<std::int64_t> matmul_side() {
  if (slow_tier() && !sanitizer_small_mode()) return slow_matmul_side();
  const std::int64_t limit = max_matmul_side();
  const std::vector<std::int64_t> edges = edges_within<std::int64_t>(
      {1, 2, 3, 5, 7, 8, 9, 13, 15, 16, 17, 31, 32, 33, 61, 63, 64, 65, 97, 127, 128, 129, 251, 255, 256, 257, 509, 511, 512},
      1, limit);
  return rc::gen::weightedOneOf<std::int64_t>({
      {3, edge_of(edges)},
      {2, rc::gen::inRange<std::int64_t>(1, limit + 1)},
  });
}

inline rc::Gen<matmul::Shape> matmul_shape() {
  return rc::gen::build<matmul::Shape>(rc::gen::set(&matmul::Shape::m, matmul_side()),
                                       rc::gen::set(&matmul::Shape::n, matmul_side()),
                                       rc::gen::set(&matmul::Shape::k, matmul_side()));
}

// The range of square_side(tile): whole tiles from the tier's smallest side to its largest
// (513..2048 in the slow tier, else tile..max_matmul_side()), at least one tile.
struct SquareSideRange {
  std::int64_t lo, hi;
};
inline SquareSideRange square_side_range(std::int64_t tile) {
  const bool slow = slow_tier() && !sanitizer_small_mode();
  const std::int64_t lo = slow ? (513 + tile - 1) / tile * tile : tile;
  return {lo, std::max(lo, max_matmul_side() / tile * tile)};
}

// The side of a square shape made of whole tiles (the square tiled variants take nothing
// else). Edges, within square_side_range(tile): its ends, one tile past the low end, and each
// power of two p in range with p - tile and p + tile.
inline rc::Gen<std::int64_t> square_side(std::int64_t tile) {
  const auto [lo, hi] = square_side_range(tile);
  std::vector<std::int64_t> edges = {lo, lo + tile, hi};
  for (std::int64_t p = 1; p <= hi; p *= 2)
    if (p % tile == 0) edges.insert(edges.end(), {p - tile, p, p + tile});
  return rc::gen::weightedOneOf<std::int64_t>({
      {3, edge_of(edges_within(std::move(edges), lo, hi))},
      {2, rc::gen::map(rc::gen::inRange<std::int64_t>(lo / tile, hi / tile + 1), [tile](std::int64_t tiles) { return tiles * tile; })},
  });
}

// The side n of an imatmul (n x n) case, up to 300 (64 under a sanitizer). Edges: 1, 2, 3,
// 16 +- 1 (its tile), 32 +- 1, 64 +- 1, 128 +- 1, 256 +- 1, the prime 97 and 300.
inline rc::Gen<std::int64_t> imatmul_side() {
  const std::int64_t limit = sanitizer_small_mode() ? 64 : 300;
  const std::vector<std::int64_t> edges = edges_within<std::int64_t>(
      {1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 97, 127, 128, 129, 255, 256, 257, 300}, 1, limit);
  return rc::gen::weightedOneOf<std::int64_t>({
      {1, edge_of(edges)},
      {1, rc::gen::inRange<std::int64_t>(1, limit + 1)},
  });
}

// Shapes on which rung 36's plan deals k-steps out (kl/matmul_stream_k.hpp: C of fewer tiles
// than the SMs and k of ten k-steps or more, so blocks share tiles and add their partials): C of
// 1-8 tile rows by 1-4 tile columns of 128 x 256, each side off the tile by 0 to a tile less one,
// and k one of the edges 577 (the shortest shared plan), 640, 1021, 1024, 1025, 1280, 2048, 3001,
// 4096, 8191, 8192, or uniform over 577..8192; a fifth of the draws take k in 1..576 (whole tiles).
// Under a sanitizer: sides 1-64 and k at most 1280 (edges 577, 640, 1021, 1024, 1025, 1280), the
// tools' time growing with k. Every draw spans its range at every size.
inline rc::Gen<matmul::Shape> tensor_stream_k_shape() {
  const bool small = sanitizer_small_mode();
  const auto side = [small](std::int64_t tile, std::int64_t most_tiles) -> rc::Gen<std::int64_t> {
    if (small) return uniform<std::int64_t>(1, 64);
    return rc::gen::apply([tile](std::int64_t tiles, std::int64_t short_by) { return tile * tiles - short_by; },
                          uniform<std::int64_t>(1, most_tiles), uniform<std::int64_t>(0, tile - 1));
  };
  const std::int64_t most_k = small ? 1280 : 8192;
  const rc::Gen<std::int64_t> k = rc::gen::weightedOneOf<std::int64_t>({
      {2, edge_of(edges_within<std::int64_t>({577, 640, 1021, 1024, 1025, 1280, 2048, 3001, 4096, 8191, 8192}, 1, most_k))},
      {2, uniform<std::int64_t>(577, most_k)},
      {1, uniform<std::int64_t>(1, 576)},
  });
  return rc::gen::build<matmul::Shape>(rc::gen::set(&matmul::Shape::m, side(128, 8)), rc::gen::set(&matmul::Shape::n, side(256, 4)),
                                       rc::gen::set(&matmul::Shape::k, k));
}

}  // namespace kl::gen

namespace kl::matmul {
// Lets RapidCheck print a Shape in counterexamples.
inline void showValue(const Shape& s, std::ostream& os) {
  os << "m=" << s.m << " n=" << s.n << " k=" << s.k << (s.bias ? " bias" : "");
}
}  // namespace kl::matmul
