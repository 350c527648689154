// Teaches: 1-D block tiling. Each thread computes a column of TM = 8 results of a 64x64 block
// tile, so one value of B read from shared memory feeds 8 FMAs from registers instead of 1: the
// tiled kernels' one-load-per-FMA ratio becomes one per 8 (plus the A loads). Fixes tiled_32's
// shared-memory-bound inner loop. Any m, n, k (zero-padded staging, sgemm_whole_tiles.hpp).
// Goal served: seed 003_2eb1131b3d611900.txt ("an SGEMM at 50% of the FP32 peak").
#include "launchers.hpp"
#include "sgemm_whole_tiles.hpp"

namespace kl::matmul {
namespace {

constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
constexpr int threads = BM * BN / TM;  // 512: one thread per TM-tall column of the block tile
static_assert(threads == BM * BK && threads == BK * BN, "each thread loads one A and one B element per stage");

__global__ void __launch_bounds__(threads) block_tile_1d(int M, int N, int K, const float* A, const float* B,
                                                         float* C) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int threadCol = threadIdx.x % BN;
  const int threadRow = threadIdx.x / BN;  // which TM-tall slice of the block's rows
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  const int innerRowA = threadIdx.x / BK, innerColA = threadIdx.x % BK;
  const int innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN;

  float threadResults[TM] = {};
  for (int bk = 0; bk < K; bk += BK) {
    As[innerRowA * BK + innerColA] = A[innerRowA * K + innerColA];
    Bs[innerRowB * BN + innerColB] = B[innerRowB * N + innerColB];
    __syncthreads();
    A += BK;
    B += BK * N;
#pragma unroll
    for (int dot = 0; dot < BK; ++dot) {
      const float b = Bs[dot * BN + threadCol];  // reused TM times from a register
      for (int r = 0; r < TM; ++r) threadResults[r] += As[(threadRow * TM + r) * BK + dot] * b;
    }
    __syncthreads();
  }
  for (int r = 0; r < TM; ++r) C[(threadRow * TM + r) * N + threadCol] = threadResults[r];
}

void launch_kernel(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t stream) {
  block_tile_1d<<<dim3(n / BN, m / BM), threads, 0, stream>>>(m, n, k, a, b, c);
}

}  // namespace

const TileShape block_tile_1d_tile{BM, BN, BK};

void launch_block_tile_1d(const Args& args, cudaStream_t stream) {
  launch_whole_tiles(args, stream, block_tile_1d_tile, launch_kernel);
}

}  // namespace kl::matmul
