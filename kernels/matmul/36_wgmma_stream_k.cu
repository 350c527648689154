// Teaches (beyond the seeds): every SM busy on every shape. Rung 35 deals whole 128x256 tiles of
// C round robin, so a shape with fewer tiles than SMs (1024 x 1024 x 16384: 32 tiles for 132)
// leaves most SMs idle, and a shape off the tile runs on zero-padded copies. Here:
//  - stream-K (kl/matmul_stream_k.hpp): where tiles are fewer than SMs, their k-steps are dealt
//    out evenly (there: 128 blocks, each a quarter of one tile's k, all at the same k offsets).
//    A block that shares a tile writes its partial sum to global memory and announces it (a flag
//    a partial); each sharer adds up some of the tile's eight 64x64 units from every partial, in
//    block order (the same bits whatever the timing), loading each as soon as its flag is up (the
//    launch is cooperative, so all sharers are resident), and stores them through the staging as
//    whole tiles are. Every block announces all its partials before its fix-up waits for anyone's:
//    no wait closes a cycle;
//  - no padding: TMA fills zeros where a box overhangs A or B and clips its stores at C's edges,
//    so A, B and C keep their own sizes (rows padded to 16 bytes only where TMA requires it).
// What did not pay (docs/TENSOR_CORE_LADDER.md): the last sharer to arrive adding whole tiles
// alone (its reads were the kernel's tail), shares at scattered k offsets (concurrent blocks stop
// sharing A and B panels in L2), the last wave dealt out at 8192^3 (0.905x against 1.00x), and
// 128x128 tiles split in halves at K-heavy (0.80x: A read twice as often).
// Plans of whole tiles alone run an instantiation without the stream-K code (Plans::whole_tiles):
// with it, ptxas had to fit the fix-up into the same 168 registers and the whole-tile path spilled.
// The rest is rung 35: persistent blocks, the ring running on across pieces, one producer and two
// consumer warpgroups, wgmma 64x256x16, C through swizzled staging and TMA stores. Every wait has
// a time limit, after which the kernel traps; the perturbation build delays blocks at entry, the
// producer before it fills a slot, a consumer before it frees one, stores its partial or
// announces it, and a waiting warp at every look at a partial's flag. The planted twin
// matmul.last_store_after_announce has each consumer's leader store its last partial element
// after announcing the partial: only that build sees it.
// Seed: 004_f92a7ab1d28b5b9a.txt section 11 (cublasGemmEx's tensor cores); PTX ISA 8.x.
#include "launchers.hpp"
#include "shape_rules.hpp"
#include "tensor_core_tiles.hpp"

#include "kl/cuda_check.hpp"
#include "kl/matmul_stream_k.hpp"
#include "kl/mbarrier.cuh"
#include "kl/perturb.cuh"

#include "hopper_wgmma.cuh"

#include <climits>
#include <cstdint>
#include <string>

namespace kl::matmul {
namespace {

using namespace hopper;
using stream_k::Piece;
using stream_k::Pieces;
using stream_k::Plan;

static_assert(block_m == stream_k::tile_m && block_n == stream_k::tile_n && block_k == stream_k::step_k,
              "the plan's tiles are the ring's (hopper_wgmma.cuh)");
static_assert(staged_smem_bytes + 2 * 4 <= 232448, "an H100 block has at most 227 KiB of shared memory");
constexpr int half_tile_floats = 64 * block_n;  // one consumer's partial

// Tile `id` of C in rung 33's grouped order (hopper_wgmma.cuh). The stream-K tiles are the first
// ids.
__device__ __forceinline__ Tile raster(int id, const Plan& p) { return grouped_tile(id, p.tiles_m, p.tiles_n); }

// C's quarter q of consumer `consumer`'s half of tile t: hopper_wgmma.cuh's epilogue, shared with
// rung 35 (taking the tile whole keeps this rung's PTX as it was measured).
__device__ __forceinline__ void store_tile_quarter(const float (&d)[128], int q, Tile t, int consumer,
                                                   std::uint32_t mine, const CUtensorMap* c_map) {
  store_c_quarter(d, q, t.row + consumer * 64, t.col, consumer, mine, c_map);
}

// The counters of the shared tiles, in PTX (cuda::atomic_ref's operations call a function, its
// check for local memory, and ptxas serialises every wgmma of a kernel across a call). One flag a
// partial (a slot's consumer half): nonzero once that partial is in place (release), so a reader
// can add each partial as soon as it is there rather than after the tile's last; and one count a
// tile of the units whose partials have been read: its last reader zeroes the tile's count and
// flags for the next launch. counters[0 .. sk_tiles) are the counts, the flags follow.
__device__ __forceinline__ unsigned* read_count(unsigned* counters, int tile) { return counters + tile; }
__device__ __forceinline__ unsigned* ready_flag(unsigned* counters, const Plan& p, int slot, int consumer) {
  return counters + p.sk_tiles + slot * consumers + consumer;
}
__device__ __forceinline__ void announce(unsigned* ready) {
  asm volatile("st.release.gpu.global.u32 [%0], 1;\n" ::"l"(ready) : "memory");
}
__device__ __forceinline__ unsigned looked_up(const unsigned* ready) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(ready) : "memory");
  return v;
}
__device__ __forceinline__ unsigned count_reads(unsigned* read, unsigned units) {
  unsigned before;
  asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], %2;\n" : "=r"(before) : "l"(read), "r"(units) : "memory");
  return before;
}
__device__ __forceinline__ void zero_counter(unsigned* counter) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], 0;\n" ::"l"(counter) : "memory");
}

// A consumer's partial of a shared tile, in slot `slot` (Plan::slot). Partials are laid out as the
// accumulators are (float4 i of consumer thread x at 128 i + x), so each warp's stores and
// loads are 512 contiguous bytes.
__device__ __forceinline__ float4* partial_in(float* partials, int slot, int consumer) {
  return reinterpret_cast<float4*>(partials + (static_cast<std::size_t>(slot) * consumers + consumer) * half_tile_floats);
}

// Where a consumer's leader stores the last element of its partial: before the warpgroup's
// barrier, as every thread does, so its release after the barrier publishes it with the rest; or,
// in the planted twin matmul.last_store_after_announce, after that release, out of its reach.
enum class Tail { before_barrier, after_announce };

// Stores this consumer's partial of `tile` and announces it: every thread's stores, then the
// warpgroup's barrier, then one release by its leader, which is cumulative: it publishes the
// stores the barrier ordered before it, so no thread fences its own (a fence a thread after 32
// stores cost 0.6-1.6 us of the K-heavy kernel's 62). Each thread's last element goes through a
// Publisher: a perturbation build holds it until the barrier, or, stored after the announcement
// (the twin's leader), lands it late.
template <Tail tail>
__device__ __forceinline__ void store_partial(const float (&d)[128], const Plan& p, int tile, int consumer,
                                              float* partials, unsigned* counters) {
  const int x = static_cast<int>(threadIdx.x % 128);
  KL_PERTURB_POINT("a consumer stores its partial tile");
  perturb::Publisher publish;
  const int slot = p.slot(static_cast<int>(blockIdx.x), tile);
  float4* mine = partial_in(partials, slot, consumer);
#pragma unroll
  for (int i = 0; i < 31; ++i) __stcg(mine + 128 * i + x, make_float4(d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]));
  float* last = reinterpret_cast<float*>(mine + 128 * 31 + x);
  __stcg(reinterpret_cast<float2*>(last), make_float2(d[124], d[125]));
  __stcg(last + 2, d[126]);
  const bool late = tail == Tail::after_announce && x == 0;
  if (!late) {
    publish.store(last + 3, d[127]);
    publish.before_block_release();
  }
  named_barrier(1 + consumer, 128);
  if (x == 0) {
    KL_PERTURB_POINT("a consumer announces its partial");
    announce(ready_flag(counters, p, slot, consumer));
    if (late) publish.store(last + 3, d[127]);
  }
}

// Waits until a partial is in place; false if it was not within the time limit (the kernel then
// traps at its end: fix_up_tile). Every thread looks itself (an acquire of its own), so a warp
// issues a partial's loads as soon as that partial is there, the loads of the partials before it
// still in flight.
__device__ __forceinline__ bool await_partial(const unsigned* ready) {
  const unsigned long long start = globaltimer_ns();
  for (unsigned visit = 0; looked_up(ready) == 0; ++visit) {
    KL_PERTURB_POINT_AT("a consumer waits for a tile's partials", visit);
    if (globaltimer_ns() - start > wait_limit_ns) return false;
    __nanosleep(64);
  }
  return true;
}

// Adds the partials of a tile's sharers `from` .. `from` + n - 1 to quarter q of d (unit q of this
// consumer's half), in block order: each partial's loads issued as soon as it is in place, with
// the loads of the ones before it still in flight, and the adds after all n. False if a partial
// was not in place within the time limit (the sum is then wrong: the caller traps).
template <int n>
__device__ __forceinline__ bool add_partials(float (&d)[128], int q, const Plan& p, int first, int first_slot, int from,
                                             int consumer, float* partials, unsigned* counters) {
  const int x = static_cast<int>(threadIdx.x % 128);
  float4 v[n][8];
  bool in_place = true;
#pragma unroll
  for (int j = 0; j < n; ++j) {
    const int slot = Plan::sharer_slot(first, first_slot, from + j);
    in_place &= await_partial(ready_flag(counters, p, slot, consumer));
    const float4* part = partial_in(partials, slot, consumer);
#pragma unroll
    for (int i = 0; i < 8; ++i) v[j][i] = __ldcg(part + 128 * (8 * q + i) + x);
  }
#pragma unroll
  for (int j = 0; j < n; ++j) {
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      float* sum = d + 4 * (8 * q + i);
      sum[0] += v[j][i].x;
      sum[1] += v[j][i].y;
      sum[2] += v[j][i].z;
      sum[3] += v[j][i].w;
    }
  }
  return in_place;
}

// The fix-up of a shared tile, spread over its sharers: the tile's 8 units (consumer c's
// columns 64q .. 64q+63 are unit 4c + q) go round robin to the sharers in block order, so each
// reads and stores about 1/sharers of the tile (32 KiB of partials a unit and sharer). A consumer
// with a unit here adds the unit's partials in block order (the same bits whatever the timing),
// each as soon as it is in place (the launch is cooperative: all sharers are resident), and
// stores the unit through the staging, as whole tiles are. False if a partial never came (a
// protocol bug): the kernel traps at its end instead of hanging. Not here: a __trap anywhere in
// the fix-up made ptxas spill the partials' loads (210 bytes stored, 948 reloaded, against none).
__device__ __forceinline__ bool fix_up_tile(float (&d)[128], const Plan& p, int tile, int consumer, float* partials,
                                            unsigned* counters, std::uint32_t mine, const CUtensorMap* c_map) {
  const int sharers = p.sharers(tile), first = p.first_block(tile), me = static_cast<int>(blockIdx.x) - first;
  int units = 0;
#pragma unroll
  for (int q = 0; q < 4; ++q) units += (4 * consumer + q) % sharers == me;
  if (units == 0) return true;
  const int x = static_cast<int>(threadIdx.x % 128);
  const int first_slot = p.slot(first, tile);
  const Tile t = raster(tile, p);
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    if ((4 * consumer + q) % sharers != me) continue;
#pragma unroll
    for (int i = 32 * q; i < 32 * q + 32; ++i) d[i] = 0.0f;
    // Four partials' loads in flight (128 registers: the other quarters of d are dead here).
    int s = 0;
    bool in_place = true;
    for (; s + 4 <= sharers; s += 4) in_place &= add_partials<4>(d, q, p, first, first_slot, s, consumer, partials, counters);
    for (; s < sharers; ++s) in_place &= add_partials<1>(d, q, p, first, first_slot, s, consumer, partials, counters);
    if (!in_place) return false;
    // Its barriers (named barrier 1 + consumer) also order every thread's loads of the partials
    // before the leader counts the unit read below.
    store_tile_quarter(d, q, t, consumer, mine, c_map);
  }
  // The tile's last reader (its 8th unit) zeroes its count and its partials' flags for the next
  // launch: every reader has passed all its waits by then.
  if (x == 0 && count_reads(read_count(counters, tile), static_cast<unsigned>(units)) + units == 8u) {
    zero_counter(read_count(counters, tile));
    for (int s = 0; s < sharers; ++s)
      for (int c = 0; c < consumers; ++c) zero_counter(ready_flag(counters, p, Plan::sharer_slot(first, first_slot, s), c));
  }
  return true;
}

// The fix-up piece of a block's walk: the tiles its share started and ended in, if shared.
__device__ __forceinline__ bool fix_up(float (&d)[128], const Plan& p, int consumer, float* partials,
                                      unsigned* counters, std::uint32_t mine, const CUtensorMap* c_map) {
  int first, last;
  p.shared_tiles(static_cast<int>(blockIdx.x), first, last);
  if (first >= 0 && !fix_up_tile(d, p, first, consumer, partials, counters, mine, c_map)) return false;
  return last < 0 || fix_up_tile(d, p, last, consumer, partials, counters, mine, c_map);
}

// Which plans a kernel instantiation runs: whole tiles only (no partial, announcement or fix-up
// code: the whole-tile path's registers and code are rung 35's), or plans that share tiles.
enum class Plans { whole_tiles, with_shares };

template <Tail tail, Plans plans>
__global__ void __launch_bounds__(threads, 1)
    wgmma_stream_k(const __grid_constant__ Plan plan, const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                   const __grid_constant__ CUtensorMap c_map, float* partials, unsigned* counters) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char smem_raw[];
  const StagedSmem smem = staged_smem(smem_raw);
  const Ring& ring = smem.ring;
  const std::uint32_t staging = smem.staging;  // consumers' 16 KiB each
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  KL_PERTURB_ENTRY();
  if constexpr (plans == Plans::whole_tiles)
    if (plan.sk_tiles > 0) __trap();  // a shared plan on the whole-tile kernel: never a silent wrong C

  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier::init(ring.full + 8 * s, 1);
      mbarrier::init(ring.empty + 8 * s, consumers);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();

  Pieces pieces(plan, static_cast<int>(blockIdx.x));
  if (warpgroup == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (threadIdx.x != 0) return;
    int step = 0;  // k-steps issued by this block, over all its pieces
    for (Piece piece; pieces.next(piece);) {
      if (piece.tile == Pieces::fix_up) continue;  // the consumers' work alone
      const Tile t = raster(piece.tile, plan);
      for (int kt = piece.k_begin; kt < piece.k_end; ++kt, ++step)
        fill_slot(ring, step, &a_map, &b_map, t.row, t.col, kt);
    }
    return;
  }

  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
  const int consumer = warpgroup - 1;
  const bool leader = threadIdx.x % 128 == 0;  // frees slots (one arrival a warpgroup), waits for C's copies
  float d[128];
  int step = 0;
  bool partials_came = true;
  for (Piece piece; pieces.next(piece);) {
    if constexpr (plans == Plans::with_shares) {
      if (piece.tile == Pieces::fix_up) {  // every block has announced all its partials before this
        partials_came = fix_up(d, plan, consumer, partials, counters, staging + consumer * c_staging_bytes, &c_map);
        if (!partials_came) break;
        continue;
      }
    }
    accumulate_tile(d, ring, step, consumer, leader, piece.k_begin, piece.k_end);
    if constexpr (plans == Plans::with_shares) {
      if (piece.k_begin != 0 || piece.k_end != plan.k_steps) {
        store_partial<tail>(d, plan, piece.tile, consumer, partials, counters);
        continue;
      }
    }
    const Tile t = raster(piece.tile, plan);
#pragma unroll
    for (int q = 0; q < block_n / 64; ++q) store_tile_quarter(d, q, t, consumer, staging + consumer * c_staging_bytes, &c_map);
  }
  if (leader) bulk_wait_all();  // C written before the block's shared memory goes
  if (!partials_came) __trap();  // a sharer's partial never came: a failed launch, not a hang
#elif defined(__CUDA_ARCH__)
  __trap();  // compiled for a GPU without sm_90a's instructions: never silently leave C unwritten
#endif
}

template <Tail tail, Plans plans>
const void* kernel_of() {
  return reinterpret_cast<const void*>(&wgmma_stream_k<tail, plans>);
}

// The blocks resident at once (those of the instantiation that shares tiles: the whole-tile one
// has the same threads, shared memory and launch bounds). Both are allowed their shared memory
// here, before either's first launch.
template <Tail tail>
int resident_blocks() {
  allow_shared_memory(kernel_of<Tail::before_barrier, Plans::whole_tiles>(), staged_smem_bytes);
  return static_cast<int>(persistent_blocks(kernel_of<tail, Plans::with_shares>(), threads, staged_smem_bytes, INT_MAX));
}

template <Tail tail>
void launch_stream_k(const Args& args, cudaStream_t stream) {
  const Shape& s = args.shape;
  const Plan plan = stream_k::plan_for(s.m, s.n, s.k, resident_blocks<tail>());
  const BoundedOperands io = bounded_operands(args);
  float* partials = nullptr;
  unsigned* counters = nullptr;
  if (plan.sk_tiles > 0) {
    partials = static_cast<float*>(scratch(ScratchSlot::partials, static_cast<std::size_t>(plan.slots()) * consumers *
                                                                      half_tile_floats * sizeof(float)));
    // A count a tile and a flag a partial, zeroed when allocated; each launch's last reader of a
    // tile zeroes its own again.
    const std::size_t words = static_cast<std::size_t>(plan.sk_tiles) + static_cast<std::size_t>(plan.slots()) * consumers;
    counters = static_cast<unsigned*>(scratch(ScratchSlot::stream_k_counts, words * sizeof(unsigned), ScratchFill::zeros));
  }
  // With shared tiles, cooperative: their sharers wait for each other's partials, so every block
  // must be resident at once (the launch fails rather than hang if they cannot be). Whole tiles
  // alone launch plainly (a cooperative launch cannot overlap the previous kernel's tail).
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(plan.blocks));
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = staged_smem_bytes;
  config.stream = stream;
  cudaLaunchAttribute cooperative{};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  config.attrs = &cooperative;
  config.numAttrs = plan.sk_tiles > 0 ? 1 : 0;
  // Whole-tile plans on the instantiation without the stream-K code (announcing is moot there).
  const auto kernel = plan.sk_tiles > 0 ? wgmma_stream_k<tail, Plans::with_shares>
                                        : wgmma_stream_k<Tail::before_barrier, Plans::whole_tiles>;
  KL_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, plan, io.a, io.b, io.c, partials, counters));
  io.finish(args, stream);
}

}  // namespace

bool wgmma_stream_k_shares_tiles(const Shape& s) {
  return stream_k::plan_for(s.m, s.n, s.k, resident_blocks<Tail::before_barrier>()).sk_tiles > 0;
}

std::string wgmma_stream_k_unavailable() {
  static const std::string reason = sm90a_unavailable(kernel_of<Tail::before_barrier, Plans::with_shares>());
  return reason;
}

void launch_wgmma_stream_k_staged(const Args& args, cudaStream_t stream) {
  launch_stream_k<Tail::before_barrier>(args, stream);
}

void launch_last_store_after_announce_staged(const Args& args, cudaStream_t stream) {
  launch_stream_k<Tail::after_announce>(args, stream);
}

}  // namespace kl::matmul
