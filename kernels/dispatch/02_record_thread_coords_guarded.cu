// Teaches: the 2-D bounds guard. When the blocks do not tile the domain, threads past the right
// or bottom edge must not write (without the guard a thread at col >= width lands in the next
// row's cells). Fixes 01's exact-tiling precondition: any width, height and block.
// Seeds: 000_4eb26088713d3cd0.txt and 003_2eb1131b3d611900.txt, kernel `record_thread_coords`.
#include "launchers.hpp"

namespace kl::dispatch {
namespace {

__global__ void record_thread_coords(int* coords, int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col >= width || row >= height) return;

  int idx = row * width + col;  // flattened row-major index

  coords[2 * idx + 0] = col;  // x coordinate
  coords[2 * idx + 1] = row;  // y coordinate
}

}  // namespace

void launch_record_thread_coords_guarded(const Args& args, cudaStream_t stream) {
  const Shape& s = args.shape;
  const Dim2 grid = grid_2d(s.width, s.height, s.block);
  record_thread_coords<<<dim3(grid.x, grid.y), dim3(s.block.x, s.block.y), 0, stream>>>(
      args.coords, s.width, s.height);
}

}  // namespace kl::dispatch
