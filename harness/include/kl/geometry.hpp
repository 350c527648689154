// Launch geometry: block validation and grids that cover a problem. Pure host code, so the
// host tier can prove (by property) that every grid covers every element.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

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
  return std::min(n, (4 - into) % 4);
}

// Returns "" when `threads` is a valid 1-D block size, else the rule it breaks.
std::string block_1d_violation(int threads);
// Returns "" when `block` is a valid 2-D block, else the rule it breaks.
std::string block_2d_violation(Dim2 block);

// Blocks needed to cover n elements with `threads` per block (n >= 0; 0 elements -> 0 blocks).
// Throws std::invalid_argument if the grid would exceed CUDA's x-dimension limit.
std::int64_t grid_1d(std::int64_t n, int threads);
// Blocks in x and y covering a width x height domain.
Dim2 grid_2d(std::int64_t width, std::int64_t height, Dim2 block);

}  // namespace kl
