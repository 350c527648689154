// Teaches: 16x16 shared tiles on int with range checks on every load; fixes 10's repeated global
// reads. The seed gives fragments (loads, barrier, inner loop); assembled here as tiledMatMul.
// Seed: 004_f92a7ab1d28b5b9a.txt section 10.2, the 16x16 tiled matmul (tileA, tileB).
#include "launchers.hpp"

#include "kl/grid.hpp"

namespace kl::imatmul {
namespace {

__global__ void tiledMatMul(const int *A, const int *B, int *C, int N) {
    __shared__ int tileA[16][16];
    __shared__ int tileB[16][16];
    int tx=threadIdx.x; // Thread x-index
    int ty=threadIdx.y; // Thread y-index
    int row=ty; // Row in global matrix
    row+=blockIdx.y * blockDim.y;
    int col=tx; // Column in global matrix
    col+=blockIdx.x * blockDim.x;

    int sum = 0;
    int tiles = (N+15)/16;
    for (int tile=0; tile < tiles; tile++){
        if (row < N && tile * 16 + tx < N) {
            int aId = row * N + tile * 16 + tx;
            tileA[ty][tx] = A[aId];
        } else {
            tileA[ty][tx] = 0;
        }
        if (col < N && tile * 16 + ty < N) {
            int bId = (tile * 16 + ty) * N + col;
            tileB[ty][tx] = B[bId];
        } else {
            tileB[ty][tx] = 0;
        }
        __syncthreads();
        for (int k=0; k < 16; k++) {
            sum += tileA[ty][k] * tileB[k][tx];
        }
        __syncthreads();
    }
    if (row < N && col < N) C[row * N + col] = sum;
}

}  // namespace

void launch_tiled(const Args& args, cudaStream_t stream) {
  const Dim2 grid = grid_2d(args.shape.n, args.shape.n, {tile, tile});
  tiledMatMul<<<dim3(grid.x, grid.y), dim3(tile, tile), 0, stream>>>(args.a, args.b, args.c,
                                                                     static_cast<int>(args.shape.n));
}

}  // namespace kl::imatmul
