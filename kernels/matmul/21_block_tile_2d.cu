// Teaches: 2-D block tiling. Each thread computes a TM x TN = 8x8 tile of a 128x128 block tile as
// outer products: per step of k it loads 8 values of A and 8 of B from shared memory into
// registers and does 64 FMAs with them (16 loads per 64 FMAs, against 9 per 8 in rung 20), and
// each block reuses every loaded element 128 times. Fixes rung 20's remaining shared-memory
// traffic. Any m, n, k (zero-padded staging, sgemm_whole_tiles.hpp).
// Goal served: seed 003_2eb1131b3d611900.txt ("an SGEMM at 50% of the FP32 peak").
#include "launchers.hpp"
#include "sgemm_whole_tiles.hpp"

namespace kl::matmul {
namespace {

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int threads = (BM / TM) * (BN / TN);  // 256

__global__ void __launch_bounds__(threads, 2) block_tile_2d(int M, int N, int K, const float* A, const float* B,
                                                         float* C) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  // Each stage holds BM*BK (and BK*BN) = 1024 elements: 4 per thread, rows strided by the block.
  const int innerRowA = threadIdx.x / BK, innerColA = threadIdx.x % BK;
  constexpr int strideA = threads / BK;
  const int innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN;
  constexpr int strideB = threads / BN;

  float threadResults[TM * TN] = {};
  float regM[TM], regN[TN];
  for (int bk = 0; bk < K; bk += BK) {
    for (int offset = 0; offset < BM; offset += strideA)
      As[(innerRowA + offset) * BK + innerColA] = A[(innerRowA + offset) * K + innerColA];
    for (int offset = 0; offset < BK; offset += strideB)
      Bs[(innerRowB + offset) * BN + innerColB] = B[(innerRowB + offset) * N + innerColB];
    __syncthreads();
    A += BK;
    B += BK * N;
#pragma unroll
    for (int dot = 0; dot < BK; ++dot) {
      for (int i = 0; i < TM; ++i) regM[i] = As[(threadRow * TM + i) * BK + dot];
      for (int i = 0; i < TN; ++i) regN[i] = Bs[dot * BN + threadCol * TN + i];
      for (int r = 0; r < TM; ++r)
        for (int c = 0; c < TN; ++c) threadResults[r * TN + c] += regM[r] * regN[c];
    }
    __syncthreads();
  }
  for (int r = 0; r < TM; ++r)
    for (int c = 0; c < TN; ++c) C[(threadRow * TM + r) * N + threadCol * TN + c] = threadResults[r * TN + c];
}

void launch_kernel(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t stream) {
  block_tile_2d<<<dim3(n / BN, m / BM), threads, 0, stream>>>(m, n, k, a, b, c);
}

}  // namespace

const TileShape block_tile_2d_tile{BM, BN, BK};

void launch_block_tile_2d(const Args& args, cudaStream_t stream) {
  launch_whole_tiles(args, stream, block_tile_2d_tile, launch_kernel);
}

}  // namespace kl::matmul
