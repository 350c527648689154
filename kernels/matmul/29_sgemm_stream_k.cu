// Teaches: stream-K, for the last round of tiles. Rung 27's blocks each compute one 64 x 128
// tile of C, four blocks an SM: on the H100 528 at a time, in rounds. 4096^3 is 2048 tiles, 3.88
// rounds, and the last round's 64 idle slots cost as much as if they worked: ncu times 4096^3 and
// 4224 x 4096 x 4096 (2112 tiles, exactly 4 rounds) at 2.78 ms both. So here the tiles past the
// last whole round are dealt out first, as equal shares of their k tiles, to one block a slot;
// those blocks start and end together (each walks its share from the end, so that all are near
// the same k tiles at once and L2 serves a panel's k slice to every tile that reads it), and the
// whole rounds' tiles follow, one block each, handed to the slots by the GPU's block scheduler as
// rung 27's are (kl/sgemm_stream_k.hpp: the plan and when it applies). A share that starts or
// ends inside a tile leaves a piece in a buffer of its own and takes a ticket of the tile; the
// sharer that takes the tile's last ticket adds the tile's pieces in block order (C's bits do not
// depend on timing) and stores it. No block waits on another: the last ticket's holder finds
// every piece in place, since each sharer stores its piece before its ticket is released.
// Each piece of work runs rung 27's main loop itself (sgemm_prefetched.cuh's `accumulate`), once
// per kernel: one copy of the loop, so its registers are assigned once.
// Shapes the plan does not take run rung 28 (whole tiles, or split-K where C is small).
// The tile configuration is the H100's line of sgemm_tuning.conf on every GPU (sgemm_h100_config.cuh).
// Any m, n, k (zero-padded staging, sgemm_whole_tiles.hpp).
// The perturbation build delays blocks at entry, each thread's last store of a piece, and the
// ticket; the planted twin matmul.relaxed_piece_ticket takes its ticket relaxed: only that build
// sees it.
// Goal served: seed 003_2eb1131b3d611900.txt (its part 2), past the vendor library's last round.
#include "launchers.hpp"
#include "sgemm_h100_config.cuh"
#include "sgemm_prefetched.cuh"

#include "kl/cuda_check.hpp"
#include "kl/matmul.hpp"
#include "kl/perturb.cuh"
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

// The piece of block `block`'s work that ends at `stop`: a whole tile for the blocks past the
// sharers (stop == k_tiles), else the segment of its share that ends before k tile `stop` of the
// left-over tiles' k tiles end to end (kl/sgemm_stream_k.hpp).
__device__ inline Piece piece_ending_at(const Plan& plan, int block, int stop) {
  if (block >= plan.sharers) return {block - plan.sharers, 0, plan.k_tiles};
  const sgemm_stream_k::Segment s = plan.segment_ending_at(block, stop);
  return {plan.whole_tiles + s.tile, s.first, s.count};
}

// How a sharer's ticket publishes its piece: released (acquire and release: the ticket's holder
// sees every piece stored before the tickets it follows), or, in the planted twin
// matmul.relaxed_piece_ticket, relaxed.
enum class Ticket { released, relaxed };

// A piece's floats in its buffer: float i of thread x at i * threads + x, so each warp's stores
// and loads of one i are 128 contiguous bytes.
template <class Cfg, class Float>
__device__ inline Float* piece_buffer(Float* pieces, const Plan& plan, int sharer, int left_over_tile) {
  constexpr std::ptrdiff_t tile_floats = Cfg::BM * Cfg::BN;
  return pieces + (2 * std::ptrdiff_t{sharer} + plan.piece_of(sharer, left_over_tile)) * tile_floats;
}

// Stores this block's piece of left-over tile j and takes the tile's ticket; true for the block
// that takes the last one. Every thread stores its 8 x TN floats (the last through a Publisher),
// the block's barrier orders them before thread 0's ticket, an acquire-release add, which is
// cumulative: it publishes the stores the barrier ordered before it, and its acquire makes every
// piece published before it visible to the thread, then to the block through the second barrier.
template <class Cfg, Ticket how>
__device__ inline bool store_piece_and_take_ticket(const float (&acc)[8][Cfg::TN], float* pieces, unsigned* tickets,
                                                   const Plan& plan, int j) {
  __shared__ bool last_ticket;
  const int x = static_cast<int>(threadIdx.x);
  float* mine = piece_buffer<Cfg>(pieces, plan, static_cast<int>(blockIdx.x), j) + x;
  {
    KL_PERTURB_POINT("a sharer stores its piece");
    perturb::Publisher publish;
#pragma unroll
    for (int i = 0; i < 8 * Cfg::TN - 1; ++i) __stcg(mine + i * Cfg::threads, acc[i / Cfg::TN][i % Cfg::TN]);
    publish.store(mine + (8 * Cfg::TN - 1) * Cfg::threads, acc[7][Cfg::TN - 1]);
    if constexpr (how == Ticket::released) publish.before_block_release();
    __syncthreads();
    if (x == 0) {
      constexpr cuda::memory_order order =
          how == Ticket::released ? cuda::memory_order_acq_rel : cuda::memory_order_relaxed;
      last_ticket = publish.fetch_add(tickets + j, 1u, order) + 1 == static_cast<unsigned>(plan.sharers_of(j));
    }
  }  // a perturbation build lands the twin's held stores here, late
  __syncthreads();
  return last_ticket;
}

// The last ticket's holder: left-over tile j = its sharers' pieces added in block order, into
// sum; the tile's ticket count back to zero for the next launch (no other block touches it again
// in this one). Half the floats at a time: 32 sums and 32 loads in flight fit the registers.
template <class Cfg>
__device__ inline void add_pieces(float (&sum)[8][Cfg::TN], const float* pieces, unsigned* tickets, const Plan& plan,
                                  int j) {
  const int x = static_cast<int>(threadIdx.x), first = plan.first_sharer(j), last = plan.last_sharer(j);
  KL_PERTURB_POINT("the last sharer loads the pieces");
  constexpr int half = 4 * Cfg::TN;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const float* part = piece_buffer<Cfg>(pieces, plan, first, j) + x;
#pragma unroll
    for (int i = h * half; i < h * half + half; ++i) sum[i / Cfg::TN][i % Cfg::TN] = __ldcg(part + i * Cfg::threads);
    for (int s = first + 1; s <= last; ++s) {
      part = piece_buffer<Cfg>(pieces, plan, s, j) + x;
#pragma unroll
      for (int i = h * half; i < h * half + half; ++i) sum[i / Cfg::TN][i % Cfg::TN] += __ldcg(part + i * Cfg::threads);
    }
  }
  if (x == 0) tickets[j] = 0;
}

// Blocks 0 .. sharers-1 walk their shares piece by piece, last piece first (Plan::segment_ending_at
// says why); the others compute one whole tile. One loop, with one call of the main loop: every
// value a piece needs is recomputed from `stop`, so that ptxas keeps no more live across the main
// loop than rung 27 does.
template <class Cfg, Ticket how>
__global__ void __launch_bounds__(Cfg::threads, Cfg::min_blocks)
    sgemm_stream_k(int N, int K, const float* A, const float* B, float* C, float* pieces, unsigned* tickets,
                   Plan plan) {
  KL_PERTURB_ENTRY();
  extern __shared__ __align__(16) float smem[];
  const int2 origin = lane_origin<Cfg>();
  const int block = static_cast<int>(blockIdx.x), tiles_n = N / Cfg::BN;
  const bool sharer = block < plan.sharers;
  const int begin = sharer ? plan.share_begin(block) : 0;
  for (int stop = sharer ? plan.share_end(block) : plan.k_tiles; stop > begin;) {
    const Piece p = piece_ending_at(plan, block, stop);
    float acc[8][Cfg::TN];
    accumulate<Cfg>(acc, smem, A + std::ptrdiff_t{p.tile / tiles_n} * Cfg::BM * K + p.first * Cfg::BK,
                    B + std::ptrdiff_t{p.first} * Cfg::BK * N + (p.tile % tiles_n) * Cfg::BN, N, K, p.count,
                    origin.y, origin.x);
    const Piece q = piece_ending_at(plan, block, stop);  // recomputed, not kept live through the main loop
    stop -= q.count;
    if (q.count < plan.k_tiles) {  // a piece of a shared tile
      const int j = q.tile - plan.whole_tiles;
      if (!store_piece_and_take_ticket<Cfg, how>(acc, pieces, tickets, plan, j)) continue;
      add_pieces<Cfg>(acc, pieces, tickets, plan, j);
    }
    float* out = C + tile_corner<Cfg>(q.tile, N);
    KL_SGEMM_STORE_TILE(Cfg, acc, out, N, origin.y, origin.x)
  }
}

}  // namespace prefetched

namespace {

using Tiles = prefetched::H100Tuned;
using prefetched::Ticket;
using sgemm_stream_k::Plan;

TestCap sm_cap{"cap_stream_k_sms", "SMs"};

// The SMs a plan is made for (the GPU's, or the tests' cap) and the blocks each holds; the
// twin's occupancy is the same.
BlockSlots plan_slots() {
  const BlockSlots o = cp_async::block_slots_of<Tiles>(prefetched::sgemm_stream_k<Tiles, Ticket::released>);
  return {sm_cap.applied(o.sms), o.blocks_per_sm};
}

Plan plan_for_whole_tiles(std::int64_t m, std::int64_t n, std::int64_t k) {
  const BlockSlots o = plan_slots();
  return sgemm_stream_k::plan_for((m / Tiles::BM) * (n / Tiles::BN), k / Tiles::BK, o.sms, o.blocks_per_sm);
}

template <Ticket how>
void launch_stream_k_or_rung_28(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t stream) {
  const Plan plan = plan_for_whole_tiles(m, n, k);
  if (plan.blocks == 0) {
    launch_whole_or_split(m, n, k, a, b, c, stream);
    return;
  }
  auto* kernel = prefetched::sgemm_stream_k<Tiles, how>;
  cp_async::allow_shared_bytes<Tiles>(kernel);
  const std::size_t piece_bytes =
      std::size_t{2} * static_cast<std::size_t>(plan.sharers) * Tiles::BM * Tiles::BN * sizeof(float);
  auto* pieces = static_cast<float*>(scratch(ScratchSlot::stream_k_pieces, piece_bytes));
  auto* tickets = static_cast<unsigned*>(scratch(
      ScratchSlot::stream_k_tickets, static_cast<std::size_t>(plan.left_over_tiles()) * sizeof(unsigned), ScratchFill::zeros));
  kernel<<<static_cast<unsigned>(plan.blocks), Tiles::threads, Tiles::shared_bytes, stream>>>(n, k, a, b, c, pieces,
                                                                                               tickets, plan);
}

}  // namespace

const TileShape stream_k_tile = prefetched::tile_of<Tiles>();

int cap_stream_k_sms(int sms) { return sm_cap.set(sms); }

std::int64_t stream_k_slots() {
  const BlockSlots o = plan_slots();
  return o.sms * o.blocks_per_sm;
}

sgemm_stream_k::Plan stream_k_plan(const Shape& shape) {
  const PaddedShape p = padded_to_tiles(shape, stream_k_tile);
  return plan_for_whole_tiles(p.m, p.n, p.k);
}

void launch_stream_k(const Args& args, cudaStream_t stream) {
  launch_whole_tiles(args, stream, stream_k_tile, launch_stream_k_or_rung_28<Ticket::released>);
}

void launch_relaxed_piece_ticket(const Args& args, cudaStream_t stream) {
  launch_whole_tiles(args, stream, stream_k_tile, launch_stream_k_or_rung_28<Ticket::relaxed>);
}

}  // namespace kl::matmul
