// Teaches: balancing SMs, not slots. Rung 27's blocks each compute one 64 x 128 tile of C, four
// blocks an SM, and the GPU hands each block to whichever SM has a slot free. The four blocks of
// an SM share its issue slots unevenly (the four it starts together end after 538, 587, 704 and
// 829 us at 4096^3: the scheduler favours older warps), so slots free up at scattered moments,
// and what ends the kernel is the SMs given the most tiles: 16 on 68 SMs at 4096^3, against 15.5
// on average (docs/SGEMM_LADDER.md: every block's SM, start and end traced). Balancing slots
// instead (the last round's tiles cut into long and short pieces) bought nothing: the short
// pieces landed on every SM. Here the plan is made per SM (kl/sgemm_sm_balanced.hpp): each SM's
// list is the same number of whole tiles and then an equal segment of the tiles left over, end to
// end by k tile; a block reads the SM it runs on (%smid) and claims the next item of that SM's
// list (an atomic cursor each), or, that list done, of another's. A tile that several segments
// share is stored in pieces that a second kernel adds in SM order, so C's bits do not depend on
// who ran what. Every block runs rung 27's main loop once (sgemm_prefetched.cuh's `accumulate`):
// stream-K's persistent loop around it, which also balances SMs, got a worse register assignment
// from ptxas and lost 15%. Shapes the plan does not take run rung 28 (whole tiles, or split-K
// where C is small).
// The tile configuration is the H100's line of sgemm_tuning.conf on every GPU (sgemm_h100_config.cuh).
// Any m, n, k (zero-padded staging, sgemm_whole_tiles.hpp).
// Goal served: seed 003_2eb1131b3d611900.txt (its part 2), past the vendor library's last round.
#include "launchers.hpp"
#include "sgemm_h100_config.cuh"
#include "sgemm_prefetched.cuh"

#include "kl/check.hpp"
#include "kl/sgemm_sm_balanced.hpp"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace kl::matmul {
namespace prefetched {

// EXPERIMENT: per block: SM, start, end, claimed item (list * 65536 + index).
static __device__ unsigned long long sb_trace[4 * 65536];
static __device__ __noinline__ void sb_mark(int which, unsigned long long item) {
  if (threadIdx.x != 0 || blockIdx.x >= 65536) return;
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  unsigned smid;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  if (which == 0) {
    sb_trace[4 * blockIdx.x] = smid;
    sb_trace[4 * blockIdx.x + 1] = t;
    sb_trace[4 * blockIdx.x + 3] = item;
  } else {
    sb_trace[4 * blockIdx.x + 2] = t;
  }
}
static void sb_dump(unsigned blocks) {
  const char* path = std::getenv("KL_TRACE");
  if (path == nullptr) return;
  std::vector<unsigned long long> h(4 * static_cast<std::size_t>(blocks));
  KL_CUDA_CHECK(cudaDeviceSynchronize());
  KL_CUDA_CHECK(cudaMemcpyFromSymbol(h.data(), sb_trace, h.size() * 8));
  std::FILE* f = std::fopen(path, "w");
  for (unsigned b = 0; b < blocks; ++b)
    std::fprintf(f, "%u %llu %llu %llu %llu\n", b, h[4 * b], h[4 * b + 1], h[4 * b + 2], h[4 * b + 3]);
  std::fclose(f);
}

using sgemm_sm_balanced::Plan;

// The corner of tile `tile` (row-major over C's tiles) in C, whose rows are N floats apart.
template <class Cfg>
__device__ inline std::ptrdiff_t tile_corner(int tile, int N) {
  const int tiles_n = N / Cfg::BN;
  return std::ptrdiff_t{tile / tiles_n} * Cfg::BM * N + (tile % tiles_n) * Cfg::BN;
}

// The item this block computes: the next of the list of the SM it runs on, or, that list done,
// of the next SM's that has one left (thread 0 claims into `claimed`; the block reads it after the
// barrier). The grid has as many blocks as the lists have items, so every claim finds one.
__device__ inline void claim_item(const Plan& plan, unsigned* cursors, int2& claimed) {
  if (threadIdx.x == 0) {
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    const int home = static_cast<int>(smid % static_cast<unsigned>(plan.sms));
    claimed = make_int2(-1, 0);
    for (int d = 0; d < plan.sms; ++d) {
      const int s = (home + d) % plan.sms;
      const int i = static_cast<int>(atomicAdd(cursors + s, 1u));
      if (i < plan.items(s)) {
        claimed = make_int2(s, i);
        break;
      }
    }
    if (claimed.x < 0) __trap();  // more blocks than items: a launch bug, never a silent gap in C
  }
  __syncthreads();
}

// One block, one item (Plan::item): a whole tile into C, or a piece into its buffer.
template <class Cfg>
__global__ void __launch_bounds__(Cfg::threads, Cfg::min_blocks)
    sgemm_sm_balanced(int N, int K, const float* A, const float* B, float* C, float* pieces, unsigned* cursors,
                      Plan plan) {
  extern __shared__ __align__(16) float smem[];
  const int2 origin = lane_origin<Cfg>();
  __shared__ int2 claimed;
  claim_item(plan, cursors, claimed);
  sb_mark(0, static_cast<unsigned long long>(claimed.x) * 65536 + static_cast<unsigned>(claimed.y));
  const Plan::Piece p = plan.item(claimed.x, claimed.y);
  const int tiles_n = N / Cfg::BN;
  float acc[8][Cfg::TN];
  accumulate<Cfg>(acc, smem, A + std::ptrdiff_t{p.tile / tiles_n} * Cfg::BM * K + p.first * Cfg::BK,
                  B + std::ptrdiff_t{p.first} * Cfg::BK * N + (p.tile % tiles_n) * Cfg::BN, N, K, p.count, origin.y,
                  origin.x);
  const Plan::Piece q = plan.item(claimed.x, claimed.y);  // read again, not kept live through the loop
  float* out = q.buffer < 0 ? C + tile_corner<Cfg>(q.tile, N) : pieces + std::ptrdiff_t{q.buffer} * Cfg::BM * Cfg::BN;
  const int ld = q.buffer < 0 ? N : Cfg::BN;
  KL_SGEMM_STORE_TILE(Cfg, acc, out, ld, origin.y, origin.x)
  sb_mark(1, 0);
}

// Left-over tile blockIdx.x of C that several SMs' segments share = their pieces added in SM
// order; a tile one segment holds whole is in C already.
template <class Cfg>
__global__ void add_sm_balanced_pieces(int N, float* C, const float* pieces, Plan plan) {
  const int u = static_cast<int>(blockIdx.x), first = plan.first_sharer(u), last = plan.last_sharer(u);
  if (first == last) return;
  float* c = C + tile_corner<Cfg>(plan.first_left_over() + u, N);
  constexpr int tile_floats = Cfg::BM * Cfg::BN;
  for (int e = static_cast<int>(threadIdx.x) * 4; e < tile_floats; e += static_cast<int>(blockDim.x) * 4) {
    float4 sum = load4(pieces + std::ptrdiff_t{plan.buffer_of(first, u)} * tile_floats + e);
    for (int s = first + 1; s <= last; ++s) {
      if (plan.idle(s)) continue;
      const float4 v = load4(pieces + std::ptrdiff_t{plan.buffer_of(s, u)} * tile_floats + e);
      sum.x += v.x, sum.y += v.y, sum.z += v.z, sum.w += v.w;
    }
    store4(c + std::ptrdiff_t{e / Cfg::BN} * N + e % Cfg::BN, sum);
  }
}

}  // namespace prefetched

namespace {

using Tiles = prefetched::H100Tuned;
using sgemm_sm_balanced::Plan;

Plan plan_for_whole_tiles(std::int64_t m, std::int64_t n, std::int64_t k) {
  auto* kernel = prefetched::sgemm_sm_balanced<Tiles>;
  KL_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(Tiles::shared_bytes)));
  const BlockSlots o = block_slots(reinterpret_cast<const void*>(kernel), Tiles::threads, Tiles::shared_bytes);
  return sgemm_sm_balanced::plan_for((m / Tiles::BM) * (n / Tiles::BN), k / Tiles::BK, o.sms, o.blocks_per_sm);
}

void launch_sm_balanced_or_rung_28(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t stream) {
  const Plan plan = plan_for_whole_tiles(m, n, k);
  if (plan.sms == 0) {
    launch_whole_or_split(m, n, k, a, b, c, stream);
    return;
  }
  int blocks = 0;
  for (int s = 0; s < plan.sms; ++s) blocks += plan.items(s);
  const std::size_t bytes = std::size_t{2} * static_cast<std::size_t>(plan.sms) * Tiles::BM * Tiles::BN * 4;
  auto* pieces = static_cast<float*>(scratch(ScratchSlot::sm_balanced_pieces, bytes));
  auto* cursors = static_cast<unsigned*>(scratch(ScratchSlot::sm_balanced_cursors, static_cast<std::size_t>(plan.sms) * 4));
  KL_CUDA_CHECK(cudaMemsetAsync(cursors, 0, static_cast<std::size_t>(plan.sms) * 4, stream));
  prefetched::sgemm_sm_balanced<Tiles><<<static_cast<unsigned>(blocks), Tiles::threads, Tiles::shared_bytes, stream>>>(
      n, k, a, b, c, pieces, cursors, plan);
  KL_CUDA_CHECK(cudaGetLastError());
  prefetched::sb_dump(static_cast<unsigned>(blocks));
  constexpr int fixup_threads = 256;
  prefetched::add_sm_balanced_pieces<Tiles><<<static_cast<unsigned>(plan.tiles - plan.first_left_over()), fixup_threads,
                                              0, stream>>>(n, c, pieces, plan);
}

}  // namespace

const TileShape sm_balanced_tile = prefetched::tile_of<Tiles>();

sgemm_sm_balanced::Plan sm_balanced_plan(const Shape& shape) {
  const PaddedShape p = padded_to_tiles(shape, sm_balanced_tile);
  return plan_for_whole_tiles(p.m, p.n, p.k);
}

void launch_sm_balanced(const Args& args, cudaStream_t stream) {
  launch_whole_tiles(args, stream, sm_balanced_tile, launch_sm_balanced_or_rung_28);
}

}  // namespace kl::matmul
