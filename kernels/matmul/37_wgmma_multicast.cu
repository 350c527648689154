// Teaches (beyond the seeds): thread-block clusters and TMA multicast. Rung 36's blocks each load
// their own 128x64 box of A and 64x256 panel of B every k-step: 48 KiB from L2 a step, two thirds
// of it B. Here two blocks on neighbouring SMs form a cluster and take vertically adjacent tiles
// (rows r and r + 128, the same 256 columns): they need the same B panel, so each block loads
// half of it (two of its four 64-column boxes) with a multicast copy that lands in both blocks'
// shared memory at the same offset and signals both blocks' `full` barriers. A block reads 32 KiB
// a step from L2 instead of 48, which at the 700 W cap is power the tensor cores get back: at
// 8192^3 ncu shows the SM clock a step higher than rung 36's (docs/TENSOR_CORE_LADDER.md).
// The price is a ring shared by two blocks: a block's producer writes a slot in its peer too, so
// the slot is free only when both blocks' consumers are done with it. Each consumer releases a
// slot in both blocks (mbarrier.arrive on the peer's barrier through its cluster address, mapa),
// and `empty` counts four arrivals instead of two. The barriers are initialised before any peer
// may signal them (a cluster barrier after the init), and neither block exits while its peer may
// still write its shared memory or arrive on its barriers (a cluster barrier at the end).
// Clusters pay where each walks three pairs of tiles or more (runs_clusters below); elsewhere
// this rung is rung 36. The rest is rung 36's whole-tile path: persistent clusters walking pairs
// of tiles in the grouped order, the ring running on across tiles, C through swizzled staging and
// TMA stores, A and B read through TMA's bounds (a pair whose lower tile lies below C loads zeros
// there and stores nothing). Every mbarrier wait has a time limit (a block that traps ends the
// grid, its peer's cluster barrier with it); the perturbation build delays blocks at entry, the producer before it fills a slot and a consumer before it
// frees one. The planted twin matmul.cluster_local_release frees slots in its own block only;
// the blocks of a busy GPU's clusters drift apart enough for the exactness check to catch it.
// Seed: 004_f92a7ab1d28b5b9a.txt section 11 (cublasGemmEx's tensor cores); PTX ISA 8.x.
#include "launchers.hpp"
#include "shape_rules.hpp"
#include "tensor_core_tiles.hpp"

#include "kl/cuda_check.hpp"
#include "kl/matmul.hpp"
#include "kl/mbarrier.cuh"
#include "kl/perturb_points.cuh"

#include "hopper_wgmma.cuh"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace kl::matmul {
namespace {

using namespace hopper;

constexpr int cluster_blocks = 2;  // along m: the pair shares B
constexpr int pair_m = cluster_blocks * block_m;
constexpr int b_boxes = block_n / box_n;
static_assert(b_boxes % cluster_blocks == 0, "each block of the cluster multicasts as many of B's boxes");

// Who frees a slot of the shared ring: the consumers of both blocks (correct), or only their own
// block's (planted: the peer's producer may overwrite a slot this block has not read yet).
enum class Release { both_blocks, own_block_only };

// Pair `id` of C's 256x256 pairs of tiles in rung 33's grouped order, groups of 8 pair rows (16
// tile rows, as rungs 33-36): the first row of the pair; rank r of the cluster computes rows
// row + 128 r.
__device__ __forceinline__ Tile raster(int id, int pairs_m, int tiles_n) {
  return grouped_cell(id, pairs_m, tiles_n, group_rows / cluster_blocks, pair_m, block_n);
}

// The producer's k-step `step`: this block's A box, and its half of B's panel for both blocks.
// Both blocks' `full` barriers expect a whole stage: this block's A, its own half of B and the
// half its peer multicasts.
__device__ __forceinline__ void fill_shared_slot(const Ring& r, int step, const CUtensorMap* a_map,
                                                 const CUtensorMap* b_map, int row, int col, int kt, unsigned rank) {
  const int slot = step % stages;
  if (step >= stages) mbarrier::wait(r.empty + 8 * slot, (step / stages - 1) % 2, wait_limit_ns);
  KL_PERTURB_POINT_AT("the producer fills a slot", step);
  mbarrier::arrive_expect_bytes(r.full + 8 * slot, a_stage_bytes + b_stage_bytes);
  tma_load(r.a + slot * a_stage_bytes, a_map, kt * block_k, row, r.full + 8 * slot);
  constexpr int per_block = b_boxes / cluster_blocks;
  for (int box = static_cast<int>(rank) * per_block; box < (static_cast<int>(rank) + 1) * per_block; ++box)
    tma_load_multicast(r.b + slot * b_stage_bytes + box * b_box_bytes, b_map, col + box * box_n, kt * block_k,
                       r.full + 8 * slot, (1u << cluster_blocks) - 1);
}

template <Release release>
__global__ void __cluster_dims__(cluster_blocks, 1, 1) __launch_bounds__(threads, 1)
    wgmma_multicast(int pairs_m, int tiles_n, int k_steps, const __grid_constant__ CUtensorMap a_map,
                    const __grid_constant__ CUtensorMap b_map, const __grid_constant__ CUtensorMap c_map) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char smem_raw[];
  // The same offsets in both blocks: a multicast box and its barrier land where the peer's are.
  const StagedSmem smem = staged_smem(smem_raw);
  const Ring& ring = smem.ring;
  const std::uint32_t staging = smem.staging;  // consumers' 16 KiB each
  const int pairs = pairs_m * tiles_n;
  const int cluster = static_cast<int>(blockIdx.x) / cluster_blocks;
  const int clusters = static_cast<int>(gridDim.x) / cluster_blocks;
  const unsigned rank = cluster_rank();
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  constexpr unsigned releasers = release == Release::both_blocks ? cluster_blocks * consumers : consumers;
  KL_PERTURB_ENTRY();

  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier::init(ring.full + 8 * s, 1);
      mbarrier::init(ring.empty + 8 * s, releasers);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  cluster_sync();  // no multicast or remote arrival reaches a barrier before its init

  if (warpgroup == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (threadIdx.x == 0) {  // the others wait at the last cluster barrier
      int step = 0;  // k-steps issued by this block over all its tiles (the peer's count is the same)
      for (int id = cluster; id < pairs; id += clusters) {
        const Tile t = raster(id, pairs_m, tiles_n);
        for (int kt = 0; kt < k_steps; ++kt, ++step)
          fill_shared_slot(ring, step, &a_map, &b_map, t.row + static_cast<int>(rank) * block_m, t.col, kt, rank);
      }
    }
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    const int consumer = warpgroup - 1;
    const bool leader = threadIdx.x % 128 == 0;  // frees slots, issues C's copies
    // A slot this consumer has read: free in this block and, unless planted, in the peer.
    const auto free_slot = [&ring](int slot) {
      if constexpr (release == Release::both_blocks) {
        for (unsigned r = 0; r < cluster_blocks; ++r) arrive_in_block(ring.empty + 8 * slot, r);
      } else {
        mbarrier::arrive(ring.empty + 8 * slot);
      }
    };
    int step = 0;
    for (int id = cluster; id < pairs; id += clusters) {
      const Tile t = raster(id, pairs_m, tiles_n);
      const int row = t.row + static_cast<int>(rank) * block_m;
      float d[128];
      accumulate_tile(d, ring, step, consumer, leader, 0, k_steps, free_slot);
#pragma unroll
      for (int q = 0; q < block_n / 64; ++q)
        store_c_quarter(d, q, row + consumer * 64, t.col, consumer, staging + consumer * c_staging_bytes, &c_map);
    }
    if (leader) bulk_wait_all();  // C written before the block's shared memory goes
  }
  cluster_sync();  // the peer's last copies into and arrivals on this block are done before it exits
#elif defined(__CUDA_ARCH__)
  __trap();  // compiled for a GPU without sm_90a's instructions: never silently leave C unwritten
#endif
}

template <Release release>
const void* kernel_of() {
  return reinterpret_cast<const void*>(&wgmma_multicast<release>);
}

// Clusters of two that can be resident at once with this shared memory (asked once a kernel), at
// most half a test's cap on the grid (capped_persistent_grid), at least one.
template <Release release>
int resident_clusters() {
  static const int clusters = [] {
    allow_shared_memory(kernel_of<release>(), staged_smem_bytes);
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(cluster_blocks);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = staged_smem_bytes;
    int count = 0;
    KL_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&count, wgmma_multicast<release>, &config));
    if (count < 1)
      throw std::runtime_error("matmul.wgmma_multicast: no cluster of two blocks of " +
                               std::to_string(staged_smem_bytes) + " bytes of shared memory fits on this GPU");
    return count;
  }();
  return std::max(1, capped_persistent_grid(clusters * cluster_blocks) / cluster_blocks);
}

// C's pairs of tiles and the k-steps of each.
struct PairGrid {
  int pairs_m, tiles_n, k_steps;
  int pairs() const { return pairs_m * tiles_n; }
};
PairGrid pair_grid(const Shape& s) {
  const int tiles_m = static_cast<int>((s.m + block_m - 1) / block_m);
  return {(tiles_m + cluster_blocks - 1) / cluster_blocks, static_cast<int>((s.n + block_n - 1) / block_n),
          static_cast<int>((s.k + block_k - 1) / block_k)};
}

// Clusters pay where each walks three pairs or more (measured on the H100, five alternated runs,
// docs/TENSOR_CORE_LADDER.md "Rung 37"): a launch in clusters costs about 1 us, and at one or
// two pairs a cluster (2048^3, 1024 x 8192 x 4096) the rung read 2% under rung 36; from 3.9 pairs
// a cluster (4096^3, 4000^3) to 15.5 (8192^3) it read the same or 1.5-3% over. Elsewhere, and
// where rung 36's plan deals k-steps out, this rung is rung 36. Tests that ask for it
// (use_clusters_on_every_whole_tile_plan) run the clusters on every whole-tile plan.
constexpr int min_pairs_per_cluster = 3;
std::atomic<bool> clusters_everywhere{false};
template <Release release>
bool runs_clusters(const Shape& s) {
  if (wgmma_stream_k_shares_tiles(s)) return false;
  if (clusters_everywhere.load()) return true;
  return pair_grid(s).pairs() >= min_pairs_per_cluster * resident_clusters<release>();
}

template <Release release>
void launch_multicast(const Args& args, cudaStream_t stream) {
  if (!runs_clusters<release>(args.shape)) {
    launch_wgmma_stream_k_staged(args, stream);
    return;
  }
  const PairGrid g = pair_grid(args.shape);
  const BoundedOperands io = bounded_operands(args);
  const unsigned blocks = static_cast<unsigned>(cluster_blocks * std::min(g.pairs(), resident_clusters<release>()));
  wgmma_multicast<release><<<blocks, threads, staged_smem_bytes, stream>>>(g.pairs_m, g.tiles_n, g.k_steps, io.a, io.b,
                                                                          io.c);
  io.finish(args, stream);
}

}  // namespace

bool wgmma_multicast_runs_clusters(const Shape& s) { return runs_clusters<Release::both_blocks>(s); }
bool use_clusters_on_every_whole_tile_plan(bool everywhere) { return clusters_everywhere.exchange(everywhere); }

std::string wgmma_multicast_unavailable() {
  static const std::string reason = sm90a_unavailable(kernel_of<Release::both_blocks>());
  return reason;
}

void launch_wgmma_multicast_staged(const Args& args, cudaStream_t stream) {
  launch_multicast<Release::both_blocks>(args, stream);
}

void launch_cluster_local_release_staged(const Args& args, cudaStream_t stream) {
  launch_multicast<Release::own_block_only>(args, stream);
}

}  // namespace kl::matmul
