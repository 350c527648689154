// Teaches: a 2-D block indexes a flat matrix, id = x + y * width. Fixes: the seed launches one
// M x M block (so M <= 32); here a guarded 2-D grid adds matrices of any rows x cols.
// Seed: 004_f92a7ab1d28b5b9a.txt, kernel `sum_matr` (X := X + Y).
#include "launchers.hpp"

namespace kl::basics {
namespace {

__global__ void sum_matr(int* X, const int* Y, int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col >= width || row >= height) return;
  int id = col;
  id += row * width;
  X[id] = X[id] + Y[id];
}

}  // namespace

void launch_sum_matr(const Args& args, cudaStream_t stream) {
  const Shape& s = args.shape;
  if (s.elements() == 0) return;
  const Dim2 grid = grid_2d(s.cols, s.rows, s.block);
  sum_matr<<<dim3(grid.x, grid.y), dim3(s.block.x, s.block.y), 0, stream>>>(
      static_cast<int*>(args.out), static_cast<const int*>(args.a), s.cols, s.rows);
}

}  // namespace kl::basics
