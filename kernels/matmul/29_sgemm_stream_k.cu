// Teaches: stream-K, for the last round of tiles. Rung 27's blocks each compute one 64 x 128
// tile of C, four blocks an SM: on the H100 528 at a time, in rounds. 4096^3 is 2048 tiles, 3.88
// rounds, and the last round's 64 idle slots cost as much as if they worked: ncu times 4096^3 and
// 4224 x 4096 x 4096 (2112 tiles, exactly 4 rounds) at 2.78 ms both, and 1024 x 8192 x 4096 (1.94
// rounds) and 1024 x 8448 x 4096 (2.00) at 1.41 ms both. So here one block a slot computes whole
// tiles in the rounds that fill every slot, and the tiles left over are dealt out as equal shares
// of their k tiles, so every block ends at about the same moment (kl/sgemm_stream_k.hpp: the plan
// and when it applies). A share that starts or ends inside a tile leaves a piece in a buffer of
// its own; a second kernel adds each shared tile's pieces in block order, so C's bits do not
// depend on timing and no block waits on another (the two kernels are ordered by the stream).
// Each piece of work runs rung 27's main loop itself (sgemm_prefetched.cuh's `accumulate`).
// Shapes the plan does not take run rung 28 (whole tiles, or split-K where C is small).
// The tile configuration is the H100's line of sgemm_tuning.conf on every GPU (sgemm_h100_config.cuh).
// Any m, n, k (zero-padded staging, sgemm_whole_tiles.hpp).
// Goal served: seed 003_2eb1131b3d611900.txt (its part 2), past the vendor library's last round.
#include "launchers.hpp"
#include "sgemm_h100_config.cuh"
#include "sgemm_prefetched.cuh"

#include "kl/check.hpp"
#include "kl/sgemm_stream_k.hpp"

namespace kl::matmul {
namespace prefetched {

using sgemm_stream_k::Plan;

// The corner of tile `tile` (row-major over C's tiles) in C, whose rows are N floats apart.
template <class Cfg>
__device__ inline std::ptrdiff_t tile_corner(int tile, int N) {
  const int tiles_n = N / Cfg::BN;
  return std::ptrdiff_t{tile / tiles_n} * Cfg::BM * N + (tile % tiles_n) * Cfg::BN;
}

// One piece of a block's work: k tiles first .. first + count - 1 of tile `tile`.
struct Piece {
  int tile, first, count;
};

// The piece of block `block`'s work that starts at `at`, its k tiles counted end to end: the whole
// tiles of its rounds (block, block + blocks, ...), then its share of the left-over tiles.
__device__ inline Piece piece_at(const Plan& plan, int block, int at) {
  const int whole = plan.whole_rounds * plan.k_tiles;
  if (at < whole) return {at / plan.k_tiles * plan.blocks + block, 0, plan.k_tiles};
  const int shared = plan.share_begin(block) + (at - whole), first = shared % plan.k_tiles;
  return {plan.first_left_over() + shared / plan.k_tiles, first, min(plan.k_tiles - first, plan.share_end(block) - shared)};
}

// The k tiles of block `block`'s work, end to end.
__device__ inline int work_of(const Plan& plan, int block) {
  const int share = block < plan.sharers ? plan.share_end(block) - plan.share_begin(block) : 0;
  return plan.whole_rounds * plan.k_tiles + share;
}

// One loop over the block's pieces, with one call of the main loop and one store: every value
// the pieces need is recomputed from `at`, so that ptxas keeps no more live across the main loop
// than rung 27 does (two copies of the loop, one for the rounds and one for the share, spilled 40
// bytes).
template <class Cfg>
__global__ void __launch_bounds__(Cfg::threads, Cfg::min_blocks)
    sgemm_stream_k(int N, int K, const float* A, const float* B, float* C, float* pieces, Plan plan) {
  extern __shared__ __align__(16) float smem[];
  const int2 origin = lane_origin<Cfg>();
  const int block = static_cast<int>(blockIdx.x), work = work_of(plan, block);
  const int tiles_n = N / Cfg::BN;
  for (int at = 0; at < work;) {
    const Piece p = piece_at(plan, block, at);
    float acc[8][Cfg::TN];
    accumulate<Cfg>(acc, smem, A + std::ptrdiff_t{p.tile / tiles_n} * Cfg::BM * K + p.first * Cfg::BK,
                    B + std::ptrdiff_t{p.first} * Cfg::BK * N + (p.tile % tiles_n) * Cfg::BN, N, K, p.count,
                    origin.y, origin.x);
    const Piece q = piece_at(plan, block, at);  // recomputed, not kept live through the main loop
    // A whole tile goes to C; a piece at the share's start to this block's first buffer, one at
    // its end to the second (Plan::piece_of).
    const bool whole = q.count == plan.k_tiles;
    const int piece_index = 2 * block + (at == plan.whole_rounds * plan.k_tiles ? 0 : 1);
    float* out = whole ? C + tile_corner<Cfg>(q.tile, N) : pieces + std::ptrdiff_t{piece_index} * Cfg::BM * Cfg::BN;
    const int ld = whole ? N : Cfg::BN;
    KL_SGEMM_STORE_TILE(Cfg, acc, out, ld, origin.y, origin.x)
    at += q.count;
  }
}

// C's left-over tile blockIdx.x = its sharers' pieces added in block order; a tile one block
// computed whole is already in C.
template <class Cfg>
__global__ void add_stream_k_pieces(int N, float* C, const float* pieces, Plan plan) {
  const int j = static_cast<int>(blockIdx.x), first = plan.first_sharer(j), last = plan.last_sharer(j);
  if (first == last) return;
  float* c = C + tile_corner<Cfg>(plan.first_left_over() + j, N);
  constexpr int tile_floats = Cfg::BM * Cfg::BN;
  for (int e = static_cast<int>(threadIdx.x) * 4; e < tile_floats; e += static_cast<int>(blockDim.x) * 4) {
    auto piece = [&](int sharer) {
      return load4(pieces + std::ptrdiff_t{2 * sharer + plan.piece_of(sharer, j)} * tile_floats + e);
    };
    float4 sum = piece(first);
    for (int sharer = first + 1; sharer <= last; ++sharer) {
      const float4 p = piece(sharer);
      sum.x += p.x, sum.y += p.y, sum.z += p.z, sum.w += p.w;
    }
    store4(c + std::ptrdiff_t{e / Cfg::BN} * N + e % Cfg::BN, sum);
  }
}

}  // namespace prefetched

namespace {

using Tiles = prefetched::H100Tuned;
using sgemm_stream_k::Plan;

Plan plan_for_whole_tiles(std::int64_t m, std::int64_t n, std::int64_t k) {
  auto* kernel = prefetched::sgemm_stream_k<Tiles>;
  KL_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(Tiles::shared_bytes)));
  const BlockSlots o = block_slots(reinterpret_cast<const void*>(kernel), Tiles::threads, Tiles::shared_bytes);
  return sgemm_stream_k::plan_for((m / Tiles::BM) * (n / Tiles::BN), k / Tiles::BK, o.sms, o.blocks_per_sm);
}

void launch_stream_k_or_rung_28(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t stream) {
  const Plan plan = plan_for_whole_tiles(m, n, k);
  if (plan.blocks == 0) {
    launch_whole_or_split(m, n, k, a, b, c, stream);
    return;
  }
  const std::size_t bytes = std::size_t{2} * static_cast<std::size_t>(plan.sharers) * Tiles::BM * Tiles::BN * 4;
  auto* pieces = static_cast<float*>(scratch(ScratchSlot::stream_k_pieces, bytes));
  prefetched::sgemm_stream_k<Tiles>
      <<<static_cast<unsigned>(plan.blocks), Tiles::threads, Tiles::shared_bytes, stream>>>(n, k, a, b, c, pieces, plan);
  KL_CUDA_CHECK(cudaGetLastError());
  constexpr int fixup_threads = 256;
  prefetched::add_stream_k_pieces<Tiles>
      <<<static_cast<unsigned>(plan.tiles - plan.first_left_over()), fixup_threads, 0, stream>>>(n, c, pieces, plan);
}

}  // namespace

const TileShape stream_k_tile = prefetched::tile_of<Tiles>();

sgemm_stream_k::Plan stream_k_plan(const Shape& shape) {
  const PaddedShape p = padded_to_tiles(shape, stream_k_tile);
  return plan_for_whole_tiles(p.m, p.n, p.k);
}

void launch_stream_k(const Args& args, cudaStream_t stream) {
  launch_whole_tiles(args, stream, stream_k_tile, launch_stream_k_or_rung_28);
}

}  // namespace kl::matmul
