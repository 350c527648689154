// Teaches: operator precedence in launch arithmetic. `blockCount /= 1024 + 1` divides by 1025,
// so the 1-D grid of 1024-thread blocks is sized wrongly: past ~1M elements it under-launches
// (elements never written), below it over-launches into an unguarded kernel. PLANTED BUG.
// Seed: 004_f92a7ab1d28b5b9a.txt, kernel `matr` with its main()'s launch, kept as written.
#include "launchers.hpp"

namespace kl::basics {
namespace {

__global__ void matr(int *a, int N) {
  // row number in matrix
  int row = blockIdx.y * blockDim.y;
  row += threadIdx.y;
  // column number in matrix
  int col = blockIdx.x * blockDim.x;
  col += threadIdx.x;
  a[row * N + col] = row * N + col;
}

}  // namespace

void launch_matr_seed_launch(const Args& args, cudaStream_t stream) {
  const int N = args.shape.cols;
  const int M = args.shape.rows;
  int blockCount = (N * M + 1023);
  blockCount /= 1024 + 1;
  if (blockCount == 0) return;
  matr<<<blockCount, 1024, 0, stream>>>(static_cast<int*>(args.out), N);
}

}  // namespace kl::basics
