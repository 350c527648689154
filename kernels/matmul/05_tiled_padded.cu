// Teaches: padding shared tiles to [TILE][TILE+1] shifts each row by one bank, the standard fix
// for column-wise shared reads. Here As[ty][k] is a broadcast and Bs[k][tx] a row, so 03 had no
// conflicts to remove: measure, don't assume. Square n, n % TILE == 0 (TILE = 32).
// Seed: 002_546f08ca611913b2.txt `tiled_matmul(C,A,B,N)` with the `[TILE][TILE+1]` fix.
#include "launchers.hpp"

namespace kl::matmul {
namespace {

constexpr int TILE = padded_tile;

__global__ void tiled_matmul(float* C, const float* A, const float* B, int N) {
__shared__ float As[TILE][TILE + 1];
__shared__ float Bs[TILE][TILE + 1];
int row = blockIdx.y * TILE + threadIdx.y;
int col = blockIdx.x * TILE + threadIdx.x;
float acc = 0.f;
for (int t = 0; t < N / TILE; ++t) {
// Collaboratively load tiles into SRAM
As[threadIdx.y][threadIdx.x] = A[row * N + t * TILE + threadIdx.x];
Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * N + col];
__syncthreads();
// Compute partial dot product from SRAM
for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
__syncthreads();
}
C[row * N + col] = acc;
}

}  // namespace

void launch_tiled_padded(const Args& args, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(args.shape.n / TILE);
  tiled_matmul<<<dim3(blocks, blocks), dim3(TILE, TILE), 0, stream>>>(args.c, args.a, args.b,
                                                                     static_cast<int>(args.shape.n));
}

}  // namespace kl::matmul
