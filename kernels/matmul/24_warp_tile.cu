// Teaches: warp tiling (block tile -> warp tile -> thread tile). The 256 threads form 8 warps,
// each owning a contiguous 32x64 sub-tile of the 128x128 block tile; within it a lane computes
// rows {4l, 4l+16} x columns {4c, 4c+32} in 4x4 pieces. Per step of k a warp now reads 32 values
// of A and 64 of B from shared memory for its 2048 FMAs, where rung 23's warps (2 rows of 16
// threads spanning the whole 128 columns) read 16 + 128 = 144: a third less shared-memory
// traffic, and every quarter-warp reads one broadcast A address and 128 contiguous bytes of B.
// Any m, n, k (zero-padded staging, sgemm_whole_tiles.hpp).
// Goal served: seed 003_2eb1131b3d611900.txt ("an SGEMM at 50% of the FP32 peak").
#include "launchers.hpp"
#include "sgemm_vector_access.cuh"
#include "sgemm_whole_tiles.hpp"

namespace kl::matmul {
namespace {

constexpr int BM = 128, BN = 128, BK = 8;
constexpr int WM = 32, WN = 64;                              // warp tile
constexpr int lanes_n = WN / 8, lanes_m = WM / 8;            // 8 x 4 lanes, 8x8 results each
constexpr int threads = (BM / WM) * (BN / WN) * 32;          // 256
constexpr int AsRow = BM + 4;                                // transposed A, padded as in rung 23
static_assert(lanes_m * lanes_n == 32, "a warp's lanes tile its warp tile");
static_assert(BM * BK / 4 == threads && BK * BN / 4 == threads, "one float4 of A and of B per thread per stage");

__global__ void __launch_bounds__(threads, 2) warp_tile(int M, int N, int K, const float* A, const float* B, float* C) {
  __shared__ __align__(16) float As[BK * AsRow];
  __shared__ __align__(16) float Bs[BK * BN];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
  const int laneRow = lane / lanes_n, laneCol = lane % lanes_n;
  // The first of this thread's rows and columns within the block tile; the others are +WM/2, +WN/2.
  const int row0 = warpRow * WM + laneRow * 4, col0 = warpCol * WN + laneCol * 4;
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  const int innerRowA = threadIdx.x / (BK / 4), innerColA = threadIdx.x % (BK / 4);
  const int innerRowB = threadIdx.x / (BN / 4), innerColB = threadIdx.x % (BN / 4);

  float acc[8][8] = {};
  for (int bk = 0; bk < K; bk += BK) {
    const float4 a = load4(&A[innerRowA * K + innerColA * 4]);
    As[(innerColA * 4 + 0) * AsRow + innerRowA] = a.x;
    As[(innerColA * 4 + 1) * AsRow + innerRowA] = a.y;
    As[(innerColA * 4 + 2) * AsRow + innerRowA] = a.z;
    As[(innerColA * 4 + 3) * AsRow + innerRowA] = a.w;
    store4(&Bs[innerRowB * BN + innerColB * 4], load4(&B[innerRowB * N + innerColB * 4]));
    __syncthreads();
    A += BK;
    B += BK * N;
#pragma unroll
    for (int dot = 0; dot < BK; ++dot) {
      const float4 a0 = load4(&As[dot * AsRow + row0]), a1 = load4(&As[dot * AsRow + row0 + WM / 2]);
      const float4 b0 = load4(&Bs[dot * BN + col0]), b1 = load4(&Bs[dot * BN + col0 + WN / 2]);
      const float am[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float bn[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int r = 0; r < 8; ++r)
#pragma unroll
        for (int c = 0; c < 8; ++c) acc[r][c] += am[r] * bn[c];
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    float* row = &C[(row0 + (r / 4) * (WM / 2) + r % 4) * N];
    store4(&row[col0], make_float4(acc[r][0], acc[r][1], acc[r][2], acc[r][3]));
    store4(&row[col0 + WN / 2], make_float4(acc[r][4], acc[r][5], acc[r][6], acc[r][7]));
  }
}

void launch_kernel(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t stream) {
  warp_tile<<<dim3(n / BN, m / BM), threads, 0, stream>>>(m, n, k, a, b, c);
}

}  // namespace

const TileShape warp_tile_tile{BM, BN, BK};

void launch_warp_tile(const Args& args, cudaStream_t stream) {
  launch_whole_tiles(args, stream, warp_tile_tile, launch_kernel);
}

}  // namespace kl::matmul
