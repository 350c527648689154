// Teaches: the naive matmul on int with a bounds guard, so any n works (exact arithmetic: the
// oracle must match bit for bit). Seed: 004_f92a7ab1d28b5b9a.txt section 10.2 `naiveMatMul`.
#include "launchers.hpp"

#include "kl/grid.hpp"

namespace kl::imatmul {
namespace {

__global__ void naiveMatMul(const int *A,
const int *B, int *C, int N) {
    int row = threadIdx.y;
    row += blockIdx.y * blockDim.y;
    int col = threadIdx.x;
    col += blockIdx.x * blockDim.x;
    if (row < N && col < N) {
        int sum = 0;
        for (int k = 0; k < N; k++) {
            sum += A[row * N + k] * B[k * N + col];
        }
        C[row * N + col] = sum;
    }
}

}  // namespace

void launch_naive(const Args& args, cudaStream_t stream) {
  // dim3 threadsPerBlock(16, 16); dim3 blocksPerGrid((N+15)/16, (N+15)/16);
  const Dim2 grid = grid_2d(args.shape.n, args.shape.n, {tile, tile});
  naiveMatMul<<<dim3(grid.x, grid.y), dim3(tile, tile), 0, stream>>>(args.a, args.b, args.c,
                                                                     static_cast<int>(args.shape.n));
}

}  // namespace kl::imatmul
