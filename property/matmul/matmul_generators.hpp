// Matmul shapes biased toward what breaks tiled kernels: 1, primes, TILE-1/TILE/TILE+1 for
// TILE 16 and 32, powers of two and their neighbours. Sides up to 512 (64 under a sanitizer);
// the slow tier (KL_PROPERTY_TIER=slow) draws sides from 513 to 2048 instead.
#pragma once

#include "kl/matmul.hpp"
#include "kl/test_env.hpp"

#include <rapidcheck.h>

#include <vector>

namespace kl::gen {

inline std::int64_t max_matmul_side() {
  if (sanitizer_small_mode()) return 64;
  return slow_tier() ? 2048 : 512;
}

// Large sides only, still biased to tile edges: each case costs seconds of CPU oracle, so the
// slow tier spends its few cases where the normal tier never reaches.
inline rc::Gen<std::int64_t> slow_matmul_side() {
  const std::vector<std::int64_t> edges = {513, 521, 767, 768, 769, 1023, 1024, 1025, 1031, 1535, 2047, 2048};
  return rc::gen::weightedOneOf<std::int64_t>({
      {3, rc::gen::elementOf(edges)},
      {2, rc::gen::inRange<std::int64_t>(513, 2049)},
  });
}

inline rc::Gen<std::int64_t> matmul_side() {
  if (slow_tier() && !sanitizer_small_mode()) return slow_matmul_side();
  const std::int64_t limit = max_matmul_side();
  std::vector<std::int64_t> edges = {1, 2, 3, 5, 7, 13, 15, 16, 17, 31, 32, 33, 61, 63, 64, 65,
                                     97, 127, 128, 129, 251, 255, 256, 257, 509, 511, 512};
  std::erase_if(edges, [&](std::int64_t e) { return e > limit; });
  return rc::gen::weightedOneOf<std::int64_t>({
      {1, rc::gen::just<std::int64_t>(1)},
      {3, rc::gen::elementOf(edges)},
      {2, rc::gen::inRange<std::int64_t>(1, limit + 1)},
  });
}

inline rc::Gen<matmul::Shape> matmul_shape() {
  return rc::gen::build<matmul::Shape>(rc::gen::set(&matmul::Shape::m, matmul_side()),
                                       rc::gen::set(&matmul::Shape::n, matmul_side()),
                                       rc::gen::set(&matmul::Shape::k, matmul_side()));
}

}  // namespace kl::gen

namespace kl::matmul {
// Lets RapidCheck print a Shape in counterexamples.
inline void showValue(const Shape& s, std::ostream& os) {
  os << "m=" << s.m << " n=" << s.n << " k=" << s.k << (s.bias ? " bias" : "");
}
}  // namespace kl::matmul
