// Teaches: the last round of blocks, balanced. Rung 27's blocks each compute one 64 x 128 tile
// of C, four blocks an SM: on the H100 528 at a time, in rounds. 4096^3 is 2048 tiles, 3.88
// rounds, and the last round's 64 idle slots cost as much as if they worked: ncu times 4096^3 and
// 4224 x 4096 x 4096 (2112 tiles, exactly 4 rounds) at 2.78 ms both, and 1024 x 8192 x 4096 (1.94
// rounds) and 1024 x 8448 x 4096 (2.00) at 1.41 ms both. Here the full rounds' tiles go whole and
// each tile left over is cut along k into a long piece, for a slot the last round has, and a short
// one, for a slot it leaves idle (several a slot), so that the round's slots end together
// (kl/sgemm_last_round.hpp: the plan and when it pays). Each piece stores its part in a buffer of
// its own and a second kernel adds the two, so no block waits on another (the two kernels are
// ordered by the stream) and C's bits do not depend on timing.
// Every block runs rung 27's main loop once (sgemm_prefetched.cuh's `accumulate`): stream-K's
// persistent loop around it, which also removes the idle slots, got a worse register assignment
// from ptxas and lost 15% (docs/SGEMM_LADDER.md). Shapes the plan does not take run rung 28
// (whole tiles, or split-K where C is small).
// The tile configuration is the H100's line of sgemm_tuning.conf on every GPU (sgemm_h100_config.cuh).
// Any m, n, k (zero-padded staging, sgemm_whole_tiles.hpp).
// Goal served: seed 003_2eb1131b3d611900.txt (its part 2), past the vendor library's last round.
#include "launchers.hpp"
#include "sgemm_h100_config.cuh"
#include "sgemm_prefetched.cuh"

#include "kl/check.hpp"
#include "kl/sgemm_last_round.hpp"

namespace kl::matmul {
namespace prefetched {

using sgemm_last_round::Plan;

// The corner of tile `tile` (row-major over C's tiles) in C, whose rows are N floats apart.
template <class Cfg>
__device__ inline std::ptrdiff_t tile_corner(int tile, int N) {
  const int tiles_n = N / Cfg::BN;
  return std::ptrdiff_t{tile / tiles_n} * Cfg::BM * N + (tile % tiles_n) * Cfg::BN;
}

// One block, one piece (Plan::piece): a whole tile into C, or a piece into its buffer.
template <class Cfg>
__global__ void __launch_bounds__(Cfg::threads, Cfg::min_blocks)
    sgemm_last_round(int N, int K, const float* A, const float* B, float* C, float* pieces, Plan plan) {
  KL_TRACE_BEGIN()
  extern __shared__ __align__(16) float smem[];
  const int2 origin = lane_origin<Cfg>();
  const Plan::Piece p = plan.piece(static_cast<int>(blockIdx.x));
  const int tiles_n = N / Cfg::BN;
  float acc[8][Cfg::TN];
  accumulate<Cfg>(acc, smem, A + std::ptrdiff_t{p.tile / tiles_n} * Cfg::BM * K + p.first * Cfg::BK,
                  B + std::ptrdiff_t{p.first} * Cfg::BK * N + (p.tile % tiles_n) * Cfg::BN, N, K, p.count, origin.y,
                  origin.x);
  const Plan::Piece q = plan.piece(static_cast<int>(blockIdx.x));  // recomputed, not kept live through the loop
  float* out = q.buffer < 0 ? C + tile_corner<Cfg>(q.tile, N) : pieces + std::ptrdiff_t{q.buffer} * Cfg::BM * Cfg::BN;
  const int ld = q.buffer < 0 ? N : Cfg::BN;
  KL_SGEMM_STORE_TILE(Cfg, acc, out, ld, origin.y, origin.x)
  KL_TRACE_END()
}

// Left-over tile blockIdx.x of C = its long piece + its short piece.
template <class Cfg>
__global__ void add_last_round_pieces(int N, float* C, const float* pieces, Plan plan) {
  const int j = static_cast<int>(blockIdx.x);
  float* c = C + tile_corner<Cfg>(plan.whole + j, N);
  constexpr int tile_floats = Cfg::BM * Cfg::BN;
  const float* long_piece = pieces + std::ptrdiff_t{j} * tile_floats;
  const float* short_piece = pieces + std::ptrdiff_t{plan.left_over + j} * tile_floats;
  for (int e = static_cast<int>(threadIdx.x) * 4; e < tile_floats; e += static_cast<int>(blockDim.x) * 4) {
    const float4 l = load4(long_piece + e), s = load4(short_piece + e);
    store4(c + std::ptrdiff_t{e / Cfg::BN} * N + e % Cfg::BN, make_float4(l.x + s.x, l.y + s.y, l.z + s.z, l.w + s.w));
  }
}

}  // namespace prefetched

namespace {

using Tiles = prefetched::H100Tuned;
using sgemm_last_round::Plan;

Plan plan_for_whole_tiles(std::int64_t m, std::int64_t n, std::int64_t k) {
  auto* kernel = prefetched::sgemm_last_round<Tiles>;
  KL_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(Tiles::shared_bytes)));
  const BlockSlots o = block_slots(reinterpret_cast<const void*>(kernel), Tiles::threads, Tiles::shared_bytes);
  return sgemm_last_round::plan_for((m / Tiles::BM) * (n / Tiles::BN), k / Tiles::BK, o.sms, o.blocks_per_sm);
}

void launch_last_round_or_rung_28(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t stream) {
  const Plan plan = plan_for_whole_tiles(m, n, k);
  if (plan.left_over == 0) {
    launch_whole_or_split(m, n, k, a, b, c, stream);
    return;
  }
  const std::size_t bytes = std::size_t{2} * static_cast<std::size_t>(plan.left_over) * Tiles::BM * Tiles::BN * 4;
  auto* pieces = static_cast<float*>(scratch(ScratchSlot::last_round_pieces, bytes));
  prefetched::sgemm_last_round<Tiles>
      <<<static_cast<unsigned>(plan.blocks()), Tiles::threads, Tiles::shared_bytes, stream>>>(n, k, a, b, c, pieces, plan);
  KL_CUDA_CHECK(cudaGetLastError());
  prefetched::trace_dump(static_cast<unsigned>(plan.blocks()));
  constexpr int fixup_threads = 256;
  prefetched::add_last_round_pieces<Tiles>
      <<<static_cast<unsigned>(plan.left_over), fixup_threads, 0, stream>>>(n, c, pieces, plan);
}

}  // namespace

const TileShape last_round_tile = prefetched::tile_of<Tiles>();

sgemm_last_round::Plan last_round_plan(const Shape& shape) {
  const PaddedShape p = padded_to_tiles(shape, last_round_tile);
  return plan_for_whole_tiles(p.m, p.n, p.k);
}

void launch_last_round(const Args& args, cudaStream_t stream) {
  launch_whole_tiles(args, stream, last_round_tile, launch_last_round_or_rung_28);
}

}  // namespace kl::matmul
