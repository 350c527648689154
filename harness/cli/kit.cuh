// What a kit family's kernels (kit.hpp) use on the device: the element a thread owns.
// The kit launches one thread per element: a grid of ceil(n / block) blocks for a Vector, of
// ceil(cols / block.x) x ceil(rows / block.y) blocks for a Matrix (x along a row). The grid
// overhangs the shape wherever the block does not divide it: every kernel guards its own bounds.
#pragma once

#include "kit.hpp"

#include <cstdint>

namespace kl::kit {

// A Vector kernel's element: blockIdx.x * blockDim.x + threadIdx.x, in 64 bits.
__device__ inline std::int64_t element() {
  return blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
}

// A Matrix kernel's element: its row (along y) and column (along x), in 64 bits.
struct Cell {
  std::int64_t row;
  std::int64_t col;
};
__device__ inline Cell cell() {
  return {blockIdx.y * static_cast<std::int64_t>(blockDim.y) + threadIdx.y,
          blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x};
}

}  // namespace kl::kit
