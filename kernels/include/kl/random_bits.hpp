// kl::RandomBits: random bits a few at a time from one 64-bit draw of a seeded mt19937_64, for the
// host inputs of 2^26..2^28 elements that the tests and the bench draw: a standard distribution
// object per value consumes a whole draw (or two) for a few bits of entropy, which made input
// generation the larger part of the perf tier's host time. Host-only header.
#pragma once

#include <cstdint>
#include <random>

namespace kl {

class RandomBits {
 public:
  explicit RandomBits(std::mt19937_64& rng) : rng_(rng) {}

  // `count` (1..32) random bits.
  std::uint64_t take(int count) {
    if (left_ < count) {
      word_ = rng_();
      left_ = 64;
    }
    const std::uint64_t bits = word_ & ((std::uint64_t{1} << count) - 1);
    word_ >>= count;
    left_ -= count;
    return bits;
  }
  // An integer uniform in [0, bound), with bound <= 2^count: `count` bits, redrawn while >= bound.
  std::int64_t below(std::int64_t bound, int count) {
    for (;;)
      if (const auto v = static_cast<std::int64_t>(take(count)); v < bound) return v;
  }
  // A float uniform on the grid of 2^-24 steps of [lo, hi).
  float uniform(float lo, float hi) {
    return static_cast<float>(lo + (static_cast<double>(hi) - lo) * (static_cast<double>(take(24)) * 0x1p-24));
  }
  // True with probability wanted / left (32-bit resolution; always when wanted == left, never when
  // wanted == 0).
  bool one_in(std::size_t wanted, std::size_t left) {
    return static_cast<double>(take(32)) * 0x1p-32 * static_cast<double>(left) < static_cast<double>(wanted);
  }

 private:
  std::mt19937_64& rng_;
  std::uint64_t word_ = 0;
  int left_ = 0;
};

}  // namespace kl
