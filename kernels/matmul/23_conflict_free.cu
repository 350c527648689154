// Teaches: shared memory without bank conflicts. Rung 22 stores A transposed with four scalar
// stores per thread; two threads of a warp (rows r and the same r's other float4 of k) land in
// one bank, so each store is replayed: padding each row of As by 4 floats (one 16-byte access,
// keeping float4 alignment) shifts the second half-warp by 16 banks. And each thread's 8
// columns of B were contiguous, so a quarter-warp's eight 16-byte loads spanned 256 bytes (two
// wavefronts): splitting them into two float4 half a block tile apart (columns c*4 and c*4 + 64)
// makes eight neighbours read 128 contiguous bytes. Fixes rung 22's replays (ncu:
// l1tex__data_bank_conflicts_pipe_lsu_mem_shared). Any m, n, k (sgemm_whole_tiles.hpp).
// Goal served: seed 002_546f08ca611913b2.txt (padding shared tiles against bank conflicts).
#include "launchers.hpp"
#include "sgemm_vector_access.cuh"
#include "sgemm_whole_tiles.hpp"

namespace kl::matmul {
namespace {

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int threads = (BM / TM) * (BN / TN);  // 256
constexpr int AsRow = BM + 4;                   // padded row of the transposed A tile
static_assert(BM * BK / 4 == threads && BK * BN / 4 == threads, "one float4 of A and of B per thread per stage");

__global__ void __launch_bounds__(threads, 2) conflict_free(int M, int N, int K, const float* A, const float* B,
                                                         float* C) {
  __shared__ __align__(16) float As[BK * AsRow];  // transposed and padded: As[k * AsRow + m]
  __shared__ __align__(16) float Bs[BK * BN];
  const int threadCol = threadIdx.x % (BN / TN);  // columns threadCol*4 + {0..3} and + BN/2
  const int threadRow = threadIdx.x / (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  const int innerRowA = threadIdx.x / (BK / 4), innerColA = threadIdx.x % (BK / 4);
  const int innerRowB = threadIdx.x / (BN / 4), innerColB = threadIdx.x % (BN / 4);

  float threadResults[TM * TN] = {};
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
      const float4 a0 = load4(&As[dot * AsRow + threadRow * TM]), a1 = load4(&As[dot * AsRow + threadRow * TM + 4]);
      const float4 b0 = load4(&Bs[dot * BN + threadCol * 4]), b1 = load4(&Bs[dot * BN + threadCol * 4 + BN / 2]);
      const float regM[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float regN[TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int r = 0; r < TM; ++r)
#pragma unroll
        for (int c = 0; c < TN; ++c) threadResults[r * TN + c] += regM[r] * regN[c];
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < TM; ++r) {
    const float* t = &threadResults[r * TN];
    float* row = &C[(threadRow * TM + r) * N];
    store4(&row[threadCol * 4], make_float4(t[0], t[1], t[2], t[3]));
    store4(&row[threadCol * 4 + BN / 2], make_float4(t[4], t[5], t[6], t[7]));
  }
}

void launch_kernel(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t stream) {
  conflict_free<<<dim3(n / BN, m / BM), threads, 0, stream>>>(m, n, k, a, b, c);
}

}  // namespace

const TileShape conflict_free_tile{BM, BN, BK};

void launch_conflict_free(const Args& args, cudaStream_t stream) {
  launch_whole_tiles(args, stream, conflict_free_tile, launch_kernel);
}

}  // namespace kl::matmul
