// Teaches: a 2-D grid of 2-D blocks; each thread derives its global (col, row) and writes it to
// its own cell, so the output draws the dispatch. Kept exactly as the seeds write it, with no
// guard, so it supports only grids the blocks tile exactly (width % block.x == 0 and
// height % block.y == 0), as in the seeds' 4x6 example with 2x2 blocks.
// Seeds: 000_4eb26088713d3cd0.txt and 003_2eb1131b3d611900.txt, kernel `record_thread_coords`.
#include "launchers.hpp"

namespace kl::dispatch {
namespace {

__global__ void record_thread_coords(int* coords, int width) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;

  int idx = row * width + col;  // flattened row-major index

  coords[2 * idx + 0] = col;  // x coordinate
  coords[2 * idx + 1] = row;  // y coordinate
}

}  // namespace

void launch_record_thread_coords(const Args& args, cudaStream_t stream) {
  const Shape& s = args.shape;
  const Dim2 grid = grid_2d(s.width, s.height, s.block);
  record_thread_coords<<<dim3(grid.x, grid.y), dim3(s.block.x, s.block.y), 0, stream>>>(args.coords, s.width);
}

}  // namespace kl::dispatch
