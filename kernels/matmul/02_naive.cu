// Teaches: one thread per output element with coalesced reads of B (b[i * N + col]: adjacent
// threads, adjacent addresses); fixes 01's strided reads. Seed: 003_2eb1131b3d611900.txt `matmul`.
#include "launchers.hpp"

#include "kl/grid.hpp"

namespace kl::matmul {
namespace {

// The seed's body for a general m x k times k x n; no bounds guard, hence m % 16 == n % 16 == 0.
__global__ void matmul(const float *a, const float *b, float *c, uint N, uint K) {
    uint row = blockIdx.y * blockDim.y + threadIdx.y;
    uint col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (uint i = 0; i < K; ++i)
        sum += a[row * K + i] * b[i * N + col];
    c[row * N + col] = sum;
}

}  // namespace

void launch_naive(const Args& args, cudaStream_t stream) {
  const Shape& s = args.shape;
  const Dim2 grid = grid_2d(s.n, s.m, {naive_block, naive_block});
  matmul<<<dim3(grid.x, grid.y), dim3(naive_block, naive_block), 0, stream>>>(
      args.a, args.b, args.c, static_cast<uint>(s.n), static_cast<uint>(s.k));
}

}  // namespace kl::matmul
