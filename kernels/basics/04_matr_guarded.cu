// Teaches: a 2-D grid over a rows x cols matrix, flattened row-major. Fixes 03: the grid is
// ceil(cols/block.x) x ceil(rows/block.y) and a bounds guard stops threads past either edge.
// Seed: 004_f92a7ab1d28b5b9a.txt, kernel `matr`.
#include "launchers.hpp"

namespace kl::basics {
namespace {

__global__ void matr(int *a, int N, int M) {
  // row number in matrix
  int row = blockIdx.y * blockDim.y;
  row += threadIdx.y;
  // column number in matrix
  int col = blockIdx.x * blockDim.x;
  col += threadIdx.x;
  if (row >= M || col >= N) return;
  a[row * N + col] = row * N + col;
}

}  // namespace

void launch_matr(const Args& args, cudaStream_t stream) {
  const Shape& s = args.shape;
  if (s.elements() == 0) return;
  const Dim2 grid = grid_2d(s.cols, s.rows, s.block);
  matr<<<dim3(grid.x, grid.y), dim3(s.block.x, s.block.y), 0, stream>>>(static_cast<int*>(args.out), s.cols,
                                                                          s.rows);
}

}  // namespace kl::basics
