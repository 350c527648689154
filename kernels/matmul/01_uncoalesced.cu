// Teaches: coalescing. Each warp's threads differ in `col`, so reading bt[col * K + i] strides
// by K floats across the warp: one transaction per thread instead of one per warp.
// Seeds: 003_2eb1131b3d611900.txt `matmul_uncoalesced` (B transposed), 000's `matmul_B_row_strided`.
#include "launchers.hpp"

#include "kl/grid.hpp"

namespace kl::matmul {
namespace {

// The seed's body with N = 4096 replaced by the shape; no bounds guard, hence the
// precondition m % 16 == 0 and n % 16 == 0.
__global__ void matmul_uncoalesced(const float *a, const float *bt, float *c, uint N, uint K) {
    uint row = blockIdx.y * blockDim.y + threadIdx.y;
    uint col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (uint i = 0; i < K; ++i) {
        sum += a[row * K + i] * bt[col * K + i];
    }
    c[row * N + col] = sum;
}

// The seed's kernel wants B transposed (bt is n x k); stage_transposed_b writes it, and the
// bench times the kernel alone after staging once. The transpose is coalesced on its writes
// only, which is fine: it moves k*n floats once, the product reads them m times.
__global__ void transpose(const float* b, float* bt, int k, int n) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < k) bt[static_cast<long long>(row) * k + col] = b[static_cast<long long>(col) * n + row];
}

float* transposed_b(const Shape& s) {
  return static_cast<float*>(scratch(ScratchSlot::transposed_b, static_cast<std::size_t>(s.k * s.n) * sizeof(float)));
}

}  // namespace

void stage_transposed_b(const Args& args, cudaStream_t stream) {
  const Shape& s = args.shape;
  const dim3 block(naive_block, naive_block);
  const Dim2 tgrid = grid_2d(s.k, s.n, {naive_block, naive_block});
  transpose<<<dim3(tgrid.x, tgrid.y), block, 0, stream>>>(args.b, transposed_b(s), static_cast<int>(s.k),
                                                           static_cast<int>(s.n));
}

void launch_uncoalesced_staged(const Args& args, cudaStream_t stream) {
  const Shape& s = args.shape;
  const Dim2 grid = grid_2d(s.n, s.m, {naive_block, naive_block});
  matmul_uncoalesced<<<dim3(grid.x, grid.y), dim3(naive_block, naive_block), 0, stream>>>(
      args.a, transposed_b(s), args.c, static_cast<uint>(s.n), static_cast<uint>(s.k));
}

void launch_uncoalesced(const Args& args, cudaStream_t stream) {
  stage_transposed_b(args, stream);
  launch_uncoalesced_staged(args, stream);
}

}  // namespace kl::matmul
