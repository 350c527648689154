// The kernel of rungs 25 (cp.async pipeline) and 26 (its tuned configurations): rung 24's warp
// tiling fed by a STAGES-deep ring of shared-memory tiles that cp.async fills while the FMAs of
// an earlier stage run. A is kept row-major in shared memory (cp.async copies 16 bytes as they
// are, so it cannot transpose): a thread reads, for each of its 8 rows, four k at once as one
// float4, so A still costs 2 loads per k like the transposed layout.
#pragma once

#include "sgemm_cp_async.cuh"
#include "sgemm_vector_access.cuh"

namespace kl::matmul::pipelined {

// A lane computes 8 x TN results: rows in 2 groups of 4 (WM/2 apart), columns in TN/4 groups of 4
// (4 * lanes_n apart), so a quarter-warp's B loads are contiguous and its A loads one broadcast.
template <int BM_, int BN_, int BK_, int WM_, int WN_, int STAGES_, int TN_ = 8>
struct Config {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, STAGES = STAGES_, TN = TN_;
  static constexpr int lanes_n = WN / TN, lanes_m = WM / 8;  // lanes of a warp
  static constexpr int threads = (BM / WM) * (BN / WN) * 32;
  // Blocks per SM the register budget must allow: 16 warps for 8x8 lanes, 8 for wider ones
  // (their 8 x TN accumulators need more than 128 registers).
  static constexpr int min_blocks = TN == 8 ? 512 / threads : 256 / threads;
  static constexpr int AsRow = BK + 4;  // padded: two lane rows 4 apart fall in different banks
  static constexpr int stage_floats = BM * AsRow + BK * BN;
  static constexpr std::size_t shared_bytes = std::size_t{STAGES} * stage_floats * sizeof(float);
  static_assert(lanes_m * lanes_n == 32, "a warp's lanes tile its warp tile");
  static_assert(BM % WM == 0 && BN % WN == 0 && BK % 4 == 0, "warp tiles tile the block tile");
  static_assert((BM * BK / 4) % threads == 0 && (BK * BN / 4) % threads == 0, "whole float4 copies per thread");
  static_assert(STAGES >= 2, "a pipeline needs two stages at least");
  static_assert(TN % 4 == 0 && WN % TN == 0, "whole float4 column groups");
};

// Issues the copies of the k-tile starting at column `k0` of A (row k0 of B) into `stage`.
template <class Cfg>
__device__ void load_stage(float* stage, const float* A, const float* B, int N, int K, int k0) {
  float* As = stage;
  float* Bs = stage + Cfg::BM * Cfg::AsRow;
#pragma unroll
  for (int j = 0; j < Cfg::BM * Cfg::BK / 4 / Cfg::threads; ++j) {
    const int i = threadIdx.x + j * Cfg::threads;  // consecutive threads, consecutive 16 bytes
    const int row = i / (Cfg::BK / 4), col = (i % (Cfg::BK / 4)) * 4;
    cp_async::copy16(&As[row * Cfg::AsRow + col], &A[row * K + k0 + col]);
  }
#pragma unroll
  for (int j = 0; j < Cfg::BK * Cfg::BN / 4 / Cfg::threads; ++j) {
    const int i = threadIdx.x + j * Cfg::threads;
    const int row = i / (Cfg::BN / 4), col = (i % (Cfg::BN / 4)) * 4;
    cp_async::copy16(&Bs[row * Cfg::BN + col], &B[(k0 + row) * N + col]);
  }
}

template <class Cfg>
__global__ void __launch_bounds__(Cfg::threads, Cfg::min_blocks) sgemm_pipelined(int M, int N, int K, const float* A, const float* B,
                                                                 float* C) {
  extern __shared__ __align__(16) float smem[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = warp / (Cfg::BN / Cfg::WN), warpCol = warp % (Cfg::BN / Cfg::WN);
  const int row0 = warpRow * Cfg::WM + (lane / Cfg::lanes_n) * 4;  // rows row0+{0..3}, +WM/2
  const int col0 = warpCol * Cfg::WN + (lane % Cfg::lanes_n) * 4;  // columns col0+{0..3} + g*4*lanes_n
  constexpr int groups_n = Cfg::TN / 4, group_step = 4 * Cfg::lanes_n;
  A += blockIdx.y * Cfg::BM * K;
  B += blockIdx.x * Cfg::BN;
  C += blockIdx.y * Cfg::BM * N + blockIdx.x * Cfg::BN;
  const int tiles = K / Cfg::BK;

  // Prologue: the first STAGES-1 tiles in flight (one commit group each, empty past the end, so
  // the group count per iteration stays fixed and cp_async::wait<STAGES-2> always means "tile t").
#pragma unroll
  for (int s = 0; s < Cfg::STAGES - 1; ++s) {
    if (s < tiles) load_stage<Cfg>(smem + s * Cfg::stage_floats, A, B, N, K, s * Cfg::BK);
    cp_async::commit();
  }

  float acc[8][Cfg::TN] = {};
  for (int t = 0; t < tiles; ++t) {
    cp_async::wait<Cfg::STAGES - 2>();  // tile t has landed (this thread's copies)...
    __syncthreads();                 // ...everyone's, and everyone is done with tile t-1's slot
    const int next = t + Cfg::STAGES - 1;
    if (next < tiles) load_stage<Cfg>(smem + (next % Cfg::STAGES) * Cfg::stage_floats, A, B, N, K, next * Cfg::BK);
    cp_async::commit();

    const float* As = smem + (t % Cfg::STAGES) * Cfg::stage_floats;
    const float* Bs = As + Cfg::BM * Cfg::AsRow;
#pragma unroll
    for (int kk = 0; kk < Cfg::BK; kk += 4) {
      float4 a[8];  // a[r] = A(row r of this thread, k = kk..kk+3)
#pragma unroll
      for (int r = 0; r < 8; ++r) a[r] = load4(&As[(row0 + (r / 4) * (Cfg::WM / 2) + r % 4) * Cfg::AsRow + kk]);
#pragma unroll
      for (int d = 0; d < 4; ++d) {
        float bn[Cfg::TN];
#pragma unroll
        for (int g = 0; g < groups_n; ++g) {
          const float4 b = load4(&Bs[(kk + d) * Cfg::BN + col0 + g * group_step]);
          bn[4 * g] = b.x, bn[4 * g + 1] = b.y, bn[4 * g + 2] = b.z, bn[4 * g + 3] = b.w;
        }
#pragma unroll
        for (int r = 0; r < 8; ++r) {
          const float am = d == 0 ? a[r].x : d == 1 ? a[r].y : d == 2 ? a[r].z : a[r].w;
#pragma unroll
          for (int c = 0; c < Cfg::TN; ++c) acc[r][c] += am * bn[c];
        }
      }
    }
  }
  cp_async::wait<0>();  // nothing may be left in flight when the block exits

#pragma unroll
  for (int r = 0; r < 8; ++r) {
    float* row = &C[(row0 + (r / 4) * (Cfg::WM / 2) + r % 4) * N];
#pragma unroll
    for (int g = 0; g < groups_n; ++g)
      store4(&row[col0 + g * group_step],
             make_float4(acc[r][4 * g], acc[r][4 * g + 1], acc[r][4 * g + 2], acc[r][4 * g + 3]));
  }
}

template <class Cfg>
void launch(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t stream) {
  cp_async::launch<Cfg>(sgemm_pipelined<Cfg>, m, n, k, a, b, c, stream);
}

using cp_async::tile_of;

}  // namespace kl::matmul::pipelined
