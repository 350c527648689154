// The kernel of rungs 26 (register prefetch) and 27 (its tuned configurations). Rung 25 left a
// quarter of the issue slots empty: its A fragment (8 rows x 4 k as float4, 32 registers) left no
// room under the 128-register cap to load step k+1's operands while step k's FMAs run, so every
// step began by waiting on shared memory, and every tile on a barrier with nothing in flight.
// Here A is stored transposed in shared memory (As[k][m], written by 4-byte cp.async copies, so
// the transpose costs no registers), which shrinks a step's operands to 8 + 8 floats, and the
// operands are double-buffered in registers: step k+1's are loaded while step k's 64 FMAs run,
// and the next tile's first step is loaded across the tile's single barrier.
#pragma once

#include "sgemm_cp_async.cuh"
#include "sgemm_vector_access.cuh"

#include "kl/matmul_split_k.hpp"

#include <cstddef>

namespace kl::matmul::prefetched {

// The order in which a step's 8 x TN FMAs are written. The sum is the same (every accumulator
// gets one FMA per k, in k order), but ptxas assigns registers and operand-reuse flags following
// it, and the register-bank conflicts among the three FMA sources that result differ: ncu shows
// them as dispatch stalls. No order wins for every tile shape, so it is a tuning parameter.
enum class FmaOrder {
  rows,         // for each row r, every column c: consecutive FMAs share A(r)
  cols,         // for each column c, every row r: consecutive FMAs share B(c)
  snake,        // rows, every other row walked backwards: the row change shares B(c) too
  interleaved,  // cols, the rows in the order 0 4 1 5 2 6 3 7: A's two float4 loads alternate
  snake_cols,   // cols, every other column walked upwards: the column change shares A(r) too
};

// How a lane writes its 8 x TN results to C. float4s: four columns a store, so ptxas must keep
// every four accumulators of a row in four consecutive registers, and accumulator (r, c) lands in
// register bank c % 4, the bank of B(c) (a fragment is float4 loads too): wherever the reuse cache
// does not serve B(c), the FMA reads two registers of one bank. scalars: one store an element,
// four times the epilogue's stores, and ptxas places the accumulators where it likes; on the
// H100 the tuned tile's FMAs read a third as many registers twice (docs/SGEMM_LADDER.md, "C
// stored a float at a time").
enum class CStores { float4s, scalars };

// A lane computes 8 x TN results: rows in 2 groups of 4 (WM/2 apart), columns in TN/4 groups of
// 4 (4 * lanes_n apart), so a quarter-warp's B loads are contiguous and its A loads one broadcast.
// GROUP > 0 rasterises the blocks: consecutive blocks walk down GROUP block rows before moving
// right, so the blocks resident together share A rows and B columns in L2 (0: launch order).
// SPLIT_K compiles the kernel for split-K (rung 28): the gridDim.z blocks at a tile of C each
// take their run of k tiles (kl/matmul_split_k.hpp) and store a partial C of their own, which
// launch_split_k adds up. (A flag, not a branch on gridDim.z: the whole-tile kernels' code stays
// what it was.)
template <int BM_, int BN_, int BK_, int WM_, int WN_, int STAGES_, int TN_ = 8, FmaOrder ORDER_ = FmaOrder::rows,
          int GROUP_ = 0, bool SPLIT_K_ = false, CStores STORES_ = CStores::float4s>
struct Config {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, STAGES = STAGES_, TN = TN_;
  static constexpr FmaOrder ORDER = ORDER_;
  static constexpr int GROUP = GROUP_;
  static constexpr bool SPLIT_K = SPLIT_K_;
  static constexpr CStores STORES = STORES_;
  // This configuration compiled for split-K (rung 28): every other parameter carried over here, so
  // that one added later cannot be left behind by the split instantiation.
  using SplitK = Config<BM_, BN_, BK_, WM_, WN_, STAGES_, TN_, ORDER_, GROUP_, true, STORES_>;
  static constexpr int lanes_n = WN / TN, lanes_m = WM / 8;  // lanes of a warp
  static constexpr int groups_n = TN / 4, group_step = 4 * lanes_n;
  static constexpr int threads = (BM / WM) * (BN / WN) * 32;
  // Blocks per SM the register budget must allow: 16 warps for 8x8 lanes, 8 for wider ones
  // (their 8 x 16 accumulators and two operand sets need more than 128 registers).
  static constexpr int min_blocks = TN == 8 ? 512 / threads : 256 / threads;
  // As[k][m] rows padded by 4 floats: the copies of a warp (4 rows x 8 k of A) land in 32
  // different banks, and every row still starts 16-byte aligned for the float4 reads.
  static constexpr int AsRow = BM + 4;
  static constexpr int stage_floats = BK * AsRow + BK * BN;
  static constexpr std::size_t shared_bytes = std::size_t{STAGES} * stage_floats * sizeof(float);
  static constexpr int a_copies = BM * BK / threads;      // 4-byte copies of A per thread per tile
  static constexpr int b_copies = BK * BN / 4 / threads;  // 16-byte copies of B per thread per tile
  static_assert(lanes_m * lanes_n == 32, "a warp's lanes tile its warp tile");
  static_assert(BM % WM == 0 && BN % WN == 0 && WM % 8 == 0 && WN % TN == 0, "warp tiles tile the block tile");
  static_assert(TN % 4 == 0 && min_blocks >= 1, "whole float4 column groups, a block fits an SM");
  static_assert(BK % 2 == 0, "the register double buffer alternates within a tile");
  static_assert(threads % BK == 0 && a_copies * threads == BM * BK, "whole rows of A copies per pass");
  static_assert(threads % (BN / 4) == 0 && b_copies * threads * 4 == BK * BN, "whole rows of B copies per pass");
  static_assert(STAGES >= 2, "a pipeline needs two stages at least");
  static_assert(GROUP >= 0, "a rasterisation group is a number of block rows");
};

// Where one thread's copies of a tile come from and go to; the sources advance a tile at a time.
template <class Cfg>
struct CopyPlan {
  const float* a;  // A(row, k0 + col) of this thread's first copy; later ones are a_step rows down
  const float* b;  // B(k0 + row, col) of its first copy; later ones are b_step rows down
  std::ptrdiff_t a_step, b_step, b_advance;
  int a_dst, b_dst;  // offsets in a stage of the first copy's destination

  __device__ CopyPlan(const float* A, const float* B, int N, int K) {
    const int a_row = threadIdx.x / Cfg::BK, a_col = threadIdx.x % Cfg::BK;  // 8 k of a row per 8 lanes
    const int b_row = threadIdx.x / (Cfg::BN / 4), b_col = threadIdx.x % (Cfg::BN / 4) * 4;
    a = A + std::ptrdiff_t{a_row} * K + a_col;
    b = B + std::ptrdiff_t{b_row} * N + b_col;
    a_step = std::ptrdiff_t{Cfg::threads / Cfg::BK} * K;
    b_step = std::ptrdiff_t{Cfg::threads / (Cfg::BN / 4)} * N;
    b_advance = std::ptrdiff_t{Cfg::BK} * N;
    a_dst = a_col * Cfg::AsRow + a_row;  // transposed: As[k][m]
    b_dst = Cfg::BK * Cfg::AsRow + b_row * Cfg::BN + b_col;
  }

  // Issues this thread's copies of the next tile into `stage` and moves on to the tile after it.
  __device__ void issue(float* stage) {
#pragma unroll
    for (int j = 0; j < Cfg::a_copies; ++j) cp_async::copy4(stage + a_dst + j * (Cfg::threads / Cfg::BK), a + j * a_step);
#pragma unroll
    for (int j = 0; j < Cfg::b_copies; ++j)
      cp_async::copy16(stage + b_dst + j * (Cfg::threads / (Cfg::BN / 4)) * Cfg::BN, b + j * b_step);
    a += Cfg::BK;
    b += b_advance;
  }
};

// One step's operands: A(rows of this lane, k) and B(k, columns of this lane).
template <class Cfg>
struct Fragment {
  float a[8], b[Cfg::TN];
};

__device__ inline void unpack4(float* to, float4 v) { to[0] = v.x, to[1] = v.y, to[2] = v.z, to[3] = v.w; }

template <class Cfg>
__device__ inline void load_fragment(Fragment<Cfg>& f, const float* stage, int k, int row0, int col0) {
  const float* As = stage + k * Cfg::AsRow;
  const float* Bs = stage + Cfg::BK * Cfg::AsRow + k * Cfg::BN;
  unpack4(f.a, load4(As + row0));
  unpack4(f.a + 4, load4(As + row0 + Cfg::WM / 2));
#pragma unroll
  for (int g = 0; g < Cfg::groups_n; ++g) unpack4(f.b + 4 * g, load4(Bs + col0 + g * Cfg::group_step));
}

// acc += a (x) b, the step's outer product, in the order Cfg::ORDER names.
template <class Cfg>
__device__ inline void outer_product(float (&acc)[8][Cfg::TN], const Fragment<Cfg>& f) {
#pragma unroll
  for (int i = 0; i < 8 * Cfg::TN; ++i) {
    int r = i / Cfg::TN, c = i % Cfg::TN;
    if constexpr (Cfg::ORDER == FmaOrder::cols) r = i % 8, c = i / 8;
    if constexpr (Cfg::ORDER == FmaOrder::snake) c = r % 2 ? Cfg::TN - 1 - c : c;
    if constexpr (Cfg::ORDER == FmaOrder::interleaved) r = i % 8 / 2 + i % 2 * 4, c = i / 8;
    if constexpr (Cfg::ORDER == FmaOrder::snake_cols) c = i / 8, r = c % 2 ? 7 - i % 8 : i % 8;
    acc[r][c] += f.a[r] * f.b[c];
  }
}

// The block row and column of C this block computes (see Config::GROUP).
template <class Cfg>
__device__ inline int2 block_coords() {
  if constexpr (Cfg::GROUP == 0) {
    return make_int2(blockIdx.x, blockIdx.y);
  } else {
    const int linear = blockIdx.y * gridDim.x + blockIdx.x, per_group = Cfg::GROUP * gridDim.x;
    const int first_row = linear / per_group * Cfg::GROUP;
    const int rows = min(Cfg::GROUP, static_cast<int>(gridDim.y) - first_row);  // the last group may be short
    return make_int2(linear % per_group / rows, first_row + linear % per_group % rows);
  }
}

// acc = this block's A (BM rows, `tiles` k tiles from A) times B (`tiles` k tiles from B, BN
// columns): the copies' prologue, the main loop and the drain. A points at the block's first row
// and first k, B at the first k row and the block's first column. On return every thread has
// passed the main loop's last barrier, after its last read of shared memory, so the next call may
// fill the stages again at once.
template <class Cfg>
__device__ inline void accumulate(float (&acc)[8][Cfg::TN], float* smem, const float* A, const float* B, int N, int K,
                                  int tiles, int row0, int col0) {
  CopyPlan<Cfg> copies(A, B, N, K);

  // Prologue: tiles 0..STAGES-2 in flight, one commit group each (empty past the end, so that
  // cp_async::wait<STAGES-2> below always means "the tile after the current one has landed").
#pragma unroll
  for (int s = 0; s < Cfg::STAGES - 1; ++s) {
    if (s < tiles) copies.issue(smem + s * Cfg::stage_floats);
    cp_async::commit();
  }
  cp_async::wait<Cfg::STAGES - 2>();
  __syncthreads();

  Fragment<Cfg> frag[2];
  load_fragment<Cfg>(frag[0], smem, 0, row0, col0);
#pragma unroll
  for (int r = 0; r < 8; ++r)
#pragma unroll
    for (int c = 0; c < Cfg::TN; ++c) acc[r][c] = 0.0f;
  for (int t = 0; t < tiles; ++t) {
    // The slot of tile t-1 is free: every thread passed the barrier that followed its last read.
    const int next = t + Cfg::STAGES - 1;
    if (next < tiles) copies.issue(smem + (next % Cfg::STAGES) * Cfg::stage_floats);
    cp_async::commit();
    const float* stage = smem + (t % Cfg::STAGES) * Cfg::stage_floats;
#pragma unroll
    for (int k = 0; k < Cfg::BK; ++k) {
      if (k < Cfg::BK - 1) {
        load_fragment<Cfg>(frag[(k + 1) % 2], stage, k + 1, row0, col0);
      } else {
        cp_async::wait<Cfg::STAGES - 2>();  // tile t+1 has landed (this thread's copies)...
        __syncthreads();                 // ...everyone's, and every read of tile t is done
        if (t + 1 < tiles)
          load_fragment<Cfg>(frag[0], smem + ((t + 1) % Cfg::STAGES) * Cfg::stage_floats, 0, row0, col0);
      }
      outer_product<Cfg>(acc, frag[k % 2]);
    }
  }
  cp_async::wait<0>();  // nothing may be left in flight when the block exits
}

// This thread's 8 x TN results (acc) into C, whose rows are `ldc` floats apart (C: the tile's
// corner). A macro, not a function: written through a __device__ function, the same stores made
// ptxas address them differently in rung 27's kernel (16 more instructions), and that kernel's SASS
// is the one measured and tuned; through the macro its epilogue is the measured one.
#define KL_SGEMM_STORE_TILE(Cfg, acc, C, ldc, row0, col0)                                              \
  _Pragma("unroll") for (int r_ = 0; r_ < 8; ++r_) {                                                    \
    float* row_ = &(C)[std::ptrdiff_t{(row0) + (r_ / 4) * (Cfg::WM / 2) + r_ % 4} * (ldc)];             \
    _Pragma("unroll") for (int g_ = 0; g_ < Cfg::groups_n; ++g_) {                                      \
      if constexpr (Cfg::STORES == CStores::scalars) {                                                  \
        _Pragma("unroll") for (int e_ = 0; e_ < 4; ++e_)                                                \
          row_[(col0) + g_ * Cfg::group_step + e_] = (acc)[r_][4 * g_ + e_];                            \
      } else {                                                                                          \
        store4(&row_[(col0) + g_ * Cfg::group_step],                                                    \
               make_float4((acc)[r_][4 * g_], (acc)[r_][4 * g_ + 1], (acc)[r_][4 * g_ + 2],               \
                           (acc)[r_][4 * g_ + 3]));                                                     \
      }                                                                                                 \
    }                                                                                                   \
  }

// The row and column within a block tile of this thread's first result (rows row0 + {0..3} and
// + WM/2; columns col0 + {0..3} + g * group_step), for rung 29. sgemm_prefetched below spells the
// same arithmetic out: written through this function, its kernels' SASS changed (5 of 38 in 27_tuned.cu).
template <class Cfg>
__device__ inline int2 lane_origin() {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = warp / (Cfg::BN / Cfg::WN), warpCol = warp % (Cfg::BN / Cfg::WN);
  return make_int2(warpCol * Cfg::WN + (lane % Cfg::lanes_n) * 4, warpRow * Cfg::WM + (lane / Cfg::lanes_n) * 4);
}

template <class Cfg>
__global__ void __launch_bounds__(Cfg::threads, Cfg::min_blocks)
    sgemm_prefetched(int M, int N, int K, const float* A, const float* B, float* C) {
  extern __shared__ __align__(16) float smem[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = warp / (Cfg::BN / Cfg::WN), warpCol = warp % (Cfg::BN / Cfg::WN);
  const int row0 = warpRow * Cfg::WM + (lane / Cfg::lanes_n) * 4;  // rows row0+{0..3}, +WM/2
  const int col0 = warpCol * Cfg::WN + (lane % Cfg::lanes_n) * 4;  // columns col0+{0..3} + g*group_step
  const int2 block = block_coords<Cfg>();
  A += std::ptrdiff_t{block.y} * Cfg::BM * K;
  B += block.x * Cfg::BN;
  C += std::ptrdiff_t{block.y} * Cfg::BM * N + block.x * Cfg::BN;
  int tiles = K / Cfg::BK;
  if constexpr (Cfg::SPLIT_K) {  // run blockIdx.z of gridDim.z (at least one tile each), its own partial C
    const int run = static_cast<int>(blockIdx.z), runs = static_cast<int>(gridDim.z);
    const int first = split_k::first_tile(tiles, run, runs);
    tiles = split_k::first_tile(tiles, run + 1, runs) - first;
    A += first * Cfg::BK;
    B += std::ptrdiff_t{first} * Cfg::BK * N;
    C += std::ptrdiff_t{run} * M * N;
  }
  float acc[8][Cfg::TN];
  accumulate<Cfg>(acc, smem, A, B, N, K, tiles, row0, col0);
  KL_SGEMM_STORE_TILE(Cfg, acc, C, N, row0, col0)
}

template <class Cfg>
void launch(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t stream) {
  static_assert(!Cfg::SPLIT_K, "a split-K configuration launches through launch_split_k");
  cp_async::launch<Cfg>(sgemm_prefetched<Cfg>, m, n, k, a, b, c, stream);
}

// c = the sum of `runs` partials of `count4` float4s each, `stride4` apart, added in run order
// (the same bits every time). Defined in 28_split_k.cu.
__global__ void add_partials(int count4, int runs, std::ptrdiff_t stride4, const float4* partials, float4* c);

// Split-K over whole tiles: `runs` blocks a tile of C (1 <= runs <= k / BK), each into its own
// partial C in `partials` (runs x m x n floats), then add_partials into c.
template <class Cfg>
void launch_split_k(int m, int n, int k, const float* a, const float* b, float* c, int runs, float* partials,
                    cudaStream_t stream) {
  static_assert(Cfg::SPLIT_K, "launch_split_k needs a configuration compiled for split-K");
  cp_async::launch<Cfg>(sgemm_prefetched<Cfg>, m, n, k, a, b, partials, stream, static_cast<unsigned>(runs));
  KL_CUDA_CHECK(cudaGetLastError());
  const std::ptrdiff_t count4 = std::ptrdiff_t{m} * n / 4;  // n is whole tiles, so whole float4s
  constexpr int threads = 256;
  add_partials<<<static_cast<unsigned>((count4 + threads - 1) / threads), threads, 0, stream>>>(
      static_cast<int>(count4), runs, count4, reinterpret_cast<const float4*>(partials), reinterpret_cast<float4*>(c));
}

using cp_async::tile_of;

}  // namespace kl::matmul::prefetched
