// Teaches: vectorised memory access. Global loads and the C store move 16 bytes per instruction
// (float4), and A is stored transposed in shared memory (As[k][m]), so each thread's 8 values of
// A for one k are contiguous and load as two float4 like its 8 values of B: a quarter of rung
// 21's load instructions. Needs 16-byte aligned rows: whole tiles make k and n multiples of 4.
// Any m, n, k (zero-padded staging, sgemm_whole_tiles.hpp).
// Goal served: seed 003_2eb1131b3d611900.txt ("an SGEMM at 50% of the FP32 peak").
#include "launchers.hpp"
#include "sgemm_vector_access.cuh"
#include "sgemm_whole_tiles.hpp"

namespace kl::matmul {
namespace {

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int threads = (BM / TM) * (BN / TN);  // 256
static_assert(BM * BK / 4 == threads && BK * BN / 4 == threads, "one float4 of A and of B per thread per stage");

__global__ void __launch_bounds__(threads, 2) vectorized(int M, int N, int K, const float* A, const float* B, float* C) {
  __shared__ __align__(16) float As[BK * BM];  // transposed: As[k * BM + m]
  __shared__ __align__(16) float Bs[BK * BN];
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  const int innerRowA = threadIdx.x / (BK / 4), innerColA = threadIdx.x % (BK / 4);
  const int innerRowB = threadIdx.x / (BN / 4), innerColB = threadIdx.x % (BN / 4);

  float threadResults[TM * TN] = {};
  for (int bk = 0; bk < K; bk += BK) {
    const float4 a = load4(&A[innerRowA * K + innerColA * 4]);
    As[(innerColA * 4 + 0) * BM + innerRowA] = a.x;
    As[(innerColA * 4 + 1) * BM + innerRowA] = a.y;
    As[(innerColA * 4 + 2) * BM + innerRowA] = a.z;
    As[(innerColA * 4 + 3) * BM + innerRowA] = a.w;
    *reinterpret_cast<float4*>(&Bs[innerRowB * BN + innerColB * 4]) = load4(&B[innerRowB * N + innerColB * 4]);
    __syncthreads();
    A += BK;
    B += BK * N;
#pragma unroll
    for (int dot = 0; dot < BK; ++dot) {
      const float4 a0 = load4(&As[dot * BM + threadRow * TM]), a1 = load4(&As[dot * BM + threadRow * TM + 4]);
      const float4 b0 = load4(&Bs[dot * BN + threadCol * TN]), b1 = load4(&Bs[dot * BN + threadCol * TN + 4]);
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
  for (int r = 0; r < TM; ++r)
#pragma unroll
    for (int c = 0; c < TN; c += 4) {
      const float* t = &threadResults[r * TN + c];
      *reinterpret_cast<float4*>(&C[(threadRow * TM + r) * N + threadCol * TN + c]) = make_float4(t[0], t[1], t[2], t[3]);
    }
}

void launch_kernel(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t stream) {
  vectorized<<<dim3(n / BN, m / BM), threads, 0, stream>>>(m, n, k, a, b, c);
}

}  // namespace

const TileShape vectorized_tile{BM, BN, BK};

void launch_vectorized(const Args& args, cudaStream_t stream) {
  launch_whole_tiles(args, stream, vectorized_tile, launch_kernel);
}

}  // namespace kl::matmul
