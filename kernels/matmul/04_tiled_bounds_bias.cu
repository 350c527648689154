// Teaches: bounds checks on every tile load (zero padding) and on the store, so any m, k, n
// works, plus seed 001's register accumulator starting at bias[n]; fixes 03's n % TILE rule.
// Seed: 001_7584b942d36babe4.txt `tiled_matmul(A,B,C,M,K,N)` (TILE_SIZE 16) and its bias matmul.
#include "launchers.hpp"

#include "kl/grid.hpp"

namespace kl::matmul {
namespace {

constexpr int TILE_SIZE = bounds_tile;

__global__ void tiled_matmul(const float* A, const float* B, float* C, const float* bias,
                             int M, int K, int N) {
    __shared__ float tile_A[TILE_SIZE][TILE_SIZE];
    __shared__ float tile_B[TILE_SIZE][TILE_SIZE];

    int row = blockIdx.y * TILE_SIZE + threadIdx.y;
    int col = blockIdx.x * TILE_SIZE + threadIdx.x;
    float val = 0.0f;  // register accumulator

    for (int t = 0; t < (K + TILE_SIZE - 1) / TILE_SIZE; t++) {
        if (row < M && t * TILE_SIZE + threadIdx.x < K)
            tile_A[threadIdx.y][threadIdx.x] = A[row * K + t * TILE_SIZE + threadIdx.x];
        else
            tile_A[threadIdx.y][threadIdx.x] = 0.0f;

        if (col < N && t * TILE_SIZE + threadIdx.y < K)
            tile_B[threadIdx.y][threadIdx.x] = B[(t * TILE_SIZE + threadIdx.y) * N + col];
        else
            tile_B[threadIdx.y][threadIdx.x] = 0.0f;

        __syncthreads();

        for (int k = 0; k < TILE_SIZE; k++)
            val += tile_A[threadIdx.y][k] * tile_B[k][threadIdx.x];

        __syncthreads();  // Prevent next tile load from overwriting current tile
    }

    // Seed 001's accumulator starts at bias[n]; adding it last keeps the product's rounding
    // identical to the bias-free kernel (the oracle's bound covers either order).
    if (row < M && col < N)
        C[row * N + col] = bias != nullptr ? bias[col] + val : val;
}

}  // namespace

void launch_tiled_bounds(const Args& args, cudaStream_t stream) {
  const Shape& s = args.shape;
  const Dim2 grid = grid_2d(s.n, s.m, {TILE_SIZE, TILE_SIZE});
  tiled_matmul<<<dim3(grid.x, grid.y), dim3(TILE_SIZE, TILE_SIZE), 0, stream>>>(
      args.a, args.b, args.c, s.bias ? args.bias : nullptr, static_cast<int>(s.m), static_cast<int>(s.k),
      static_cast<int>(s.n));
}

}  // namespace kl::matmul
