#include "kl/geometry.hpp"

#include <stdexcept>

namespace kl {

std::string block_1d_violation(int threads) {
  if (threads < 1 || threads > max_threads_per_block)
    return "block size must be in 1..1024 threads, got " + std::to_string(threads);
  return "";
}

std::string block_2d_violation(Dim2 block) {
  if (block.x < 1 || block.y < 1)
    return "block dimensions must be positive, got " + std::to_string(block.x) + "x" +
           std::to_string(block.y);
  if (static_cast<long long>(block.x) * block.y > max_threads_per_block)
    return "block x*y must be at most 1024 threads, got " + std::to_string(block.x) + "x" +
           std::to_string(block.y) + " = " +
           std::to_string(static_cast<long long>(block.x) * block.y);
  return "";
}

std::int64_t grid_1d(std::int64_t n, int threads) {
  if (const std::string rule = block_1d_violation(threads); !rule.empty())
    throw std::invalid_argument(rule);
  if (n < 0) throw std::invalid_argument("element count must be >= 0, got " + std::to_string(n));
  const std::int64_t blocks = ceil_div(n, threads);
  if (blocks > max_grid_x)
    throw std::invalid_argument("grid needs " + std::to_string(blocks) +
                                " blocks, more than CUDA's x limit 2^31-1");
  return blocks;
}

Dim2 grid_2d(std::int64_t width, std::int64_t height, Dim2 block) {
  if (const std::string rule = block_2d_violation(block); !rule.empty())
    throw std::invalid_argument(rule);
  if (width < 1 || height < 1)
    throw std::invalid_argument("width and height must be >= 1, got " + std::to_string(width) +
                                "x" + std::to_string(height));
  const std::int64_t gx = ceil_div(width, block.x);
  const std::int64_t gy = ceil_div(height, block.y);
  if (gx > max_grid_x || gy > max_grid_yz)
    throw std::invalid_argument("grid " + std::to_string(gx) + "x" + std::to_string(gy) +
                                " exceeds CUDA's limits (x <= 2^31-1, y <= 65535)");
  return {static_cast<int>(gx), static_cast<int>(gy)};
}

}  // namespace kl
