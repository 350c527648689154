// Launch geometry a launcher needs: CUDA's limits, Dim2, and grids that cover a problem. No
// standard header past <cstdint>, so the .cu files that include it stay cheap to compile; the
// block rules as messages are in kl/geometry.hpp. Pure host code: the host tier proves (by
// property) that every grid covers every element.
#pragma once

#include <cstdint>

namespace kl {

// CUDA's limits for every compute capability the lab targets (>= 7.0).
inline constexpr int max_threads_per_block = 1024;
inline constexpr std::int64_t max_grid_x = 2147483647;  // 2^31 - 1
inline constexpr std::int64_t max_grid_yz = 65535;

struct Dim2 {
  int x = 1;
  int y = 1;
  friend bool operator==(const Dim2&, const Dim2&) = default;
};

constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// The 4-byte elements from p to its next 16-byte boundary (0..3), at most n: the head a kernel
// reading or writing 16-byte vectors does one element at a time. p must be 4-byte aligned.
inline std::int64_t head_to_16_bytes(const void* p, std::int64_t n) {
  const auto into = static_cast<std::int64_t>((reinterpret_cast<std::uintptr_t>(p) / 4) % 4);
  const std::int64_t head = (4 - into) % 4;
  return n < head ? n : head;
}

// Blocks needed to cover n elements with `threads` per block (n >= 0; 0 elements -> 0 blocks).
// Throws std::invalid_argument, naming the rule broken (kl/geometry.hpp), for an invalid block or
// a grid that would exceed CUDA's x-dimension limit.
std::int64_t grid_1d(std::int64_t n, int threads);
// Blocks in x and y covering a width x height domain.
Dim2 grid_2d(std::int64_t width, std::int64_t height, Dim2 block);

}  // namespace kl
