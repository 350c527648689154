// Teaches (beyond the seeds): thread-block clusters and TMA multicast. Rung 35's blocks each load
// their own 128x64 panel of A and 64x256 panel of B every k-step: 48 KiB from L2 a step, two
// thirds of it B. Here two blocks on neighbouring SMs form a cluster and take vertically
// adjacent tiles (rows r and r + 128, the same 256 columns): they need the same B panel, so each
// block loads half of it (two of its four 64-column boxes) with a multicast copy that lands in
// both blocks' shared memory at the same offset and signals both blocks' `full` barriers. A block
// now reads 32 KiB a step from L2 instead of 48.
// The price is a ring shared by two blocks: a block's producer overwrites a slot in its peer too,
// so the slot is free only when both blocks' consumers are done with it. Each consumer releases
// a slot in both blocks (mbarrier.arrive on the peer's barrier through its cluster address, mapa),
// and `empty` counts four arrivals instead of two. The barriers are initialised before any peer
// may signal them (a cluster barrier after the init), and neither block exits while its peer may
// still arrive on its barriers (a cluster barrier at the end).
// The rest is rung 35: persistent clusters walking pairs of tiles in the grouped order, the ring
// running on across tiles, C through swizzled staging and TMA stores. Every mbarrier wait has a
// time limit; the perturbation build delays the producer before it fills a slot and a consumer
// before it reads and before it frees one.
// Seed: 004_f92a7ab1d28b5b9a.txt section 11 (cublasGemmEx's tensor cores); PTX ISA 8.x.
#include "launchers.hpp"
#include "tensor_core_tiles.hpp"

#include "kl/check.hpp"
#include "kl/device_facts.hpp"
#include "kl/mbarrier.cuh"
#include "kl/perturb.cuh"

#include "hopper_wgmma.cuh"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

namespace kl::matmul {
namespace {

using namespace hopper;

constexpr int cluster_blocks = 2;  // along m: the pair shares B
constexpr int block_m = 128, block_n = 256, block_k = 64;
constexpr int pair_m = cluster_blocks * block_m;
constexpr int stages = 4;
constexpr int consumers = 2;
constexpr int threads = 128 * (1 + consumers);
constexpr int box_n = 64;
constexpr int b_boxes = block_n / box_n;
constexpr int a_stage_bytes = block_m * block_k * 2;
constexpr int b_stage_bytes = block_k * block_n * 2;
constexpr int b_box_bytes = block_k * box_n * 2;
constexpr int ring_bytes = stages * (a_stage_bytes + b_stage_bytes);
constexpr int c_box_cols = 32;                   // 128 bytes of FP32: one swizzle row
constexpr int c_box_bytes = 64 * c_box_cols * 4;  // 8 KiB: 64 rows of a consumer's half
constexpr int staging_bytes = 2 * c_box_bytes;    // 64 columns at a time, per consumer
constexpr int smem_bytes = ring_bytes + consumers * staging_bytes + 2 * stages * 8 + 1024;
static_assert(smem_bytes <= 232448, "an H100 block has at most 227 KiB of shared memory");
static_assert(b_boxes % cluster_blocks == 0, "each block of the cluster multicasts as many of B's boxes");
constexpr unsigned long long wait_limit_ns = 10'000'000'000ull;

// Who frees a slot of the shared ring: the consumers of both blocks (correct), or only their own
// block's (planted: the peer's producer may overwrite a slot this block still reads).
enum class Release { both_blocks, own_block_only };

struct Tile {
  int row, col;  // the pair's first row; the block of rank r computes rows row + 128 r
};

// Pair `id` of C's 256x256 pair tiles in the grouped order: groups of group_rows pair rows (16
// tile rows, as rung 35), down each column of a group before the next.
constexpr int group_rows = 8;
__device__ __forceinline__ Tile raster(int id, int m, int n) {
  const int pairs_m = m / pair_m, tiles_n = n / block_n;
  const int per_group = group_rows * tiles_n;
  const int first_row = id / per_group * group_rows;
  const int rows = min(group_rows, pairs_m - first_row);
  const int in_group = id % per_group;
  return {(first_row + in_group % rows) * pair_m, in_group / rows * block_n};
}

template <Release release>
__global__ void __cluster_dims__(cluster_blocks, 1, 1) __launch_bounds__(threads, 1)
    wgmma_multicast(int m, int n, int k, const __grid_constant__ CUtensorMap a_map,
                    const __grid_constant__ CUtensorMap b_map, const __grid_constant__ CUtensorMap c_map) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char smem_raw[];
  // The same offsets in both blocks: a multicast box and its barrier land where the peer's are.
  const std::uint32_t base = (shared_address(smem_raw) + 1023) & ~1023u;
  const std::uint32_t a_ring = base, b_ring = base + stages * a_stage_bytes;
  const std::uint32_t staging = base + ring_bytes;  // consumers' 16 KiB each
  const std::uint32_t full = staging + consumers * staging_bytes, empty = full + stages * 8;
  const int k_tiles = k / block_k;
  const int pairs = (m / pair_m) * (n / block_n);
  const int cluster = static_cast<int>(blockIdx.x) / cluster_blocks;
  const int clusters = static_cast<int>(gridDim.x) / cluster_blocks;
  const unsigned rank = cluster_rank();
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  constexpr unsigned releasers = release == Release::both_blocks ? cluster_blocks * consumers : consumers;

  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier::init(full + 8 * s, 1);
      mbarrier::init(empty + 8 * s, releasers);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  cluster_sync();  // no multicast or remote arrival reaches a barrier before its init

  if (warpgroup == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (threadIdx.x == 0) {
      int step = 0;  // k-steps issued by this block, over all its tiles (the peer's count is the same)
      for (int id = cluster; id < pairs; id += clusters) {
        const Tile t = raster(id, m, n);
        for (int kt = 0; kt < k_tiles; ++kt, ++step) {
          const int slot = step % stages;
          if (step >= stages) mbarrier::wait(empty + 8 * slot, (step / stages - 1) % 2, wait_limit_ns);
          KL_PERTURB_POINT_AT("the producer fills a slot", step);
          // This block's A and all of B: half copied here, half by the peer into both blocks.
          mbarrier::arrive_expect_bytes(full + 8 * slot, a_stage_bytes + b_stage_bytes);
          tma_load(a_ring + slot * a_stage_bytes, &a_map, kt * block_k, t.row + static_cast<int>(rank) * block_m,
                   full + 8 * slot);
          for (int box = static_cast<int>(rank) * b_boxes / cluster_blocks;
               box < (static_cast<int>(rank) + 1) * b_boxes / cluster_blocks; ++box)
            tma_load_multicast(b_ring + slot * b_stage_bytes + box * b_box_bytes, &b_map, t.col + box * box_n,
                               kt * block_k, full + 8 * slot, (1u << cluster_blocks) - 1);
        }
      }
    }
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    const int consumer = warpgroup - 1;
    const int warp = static_cast<int>(threadIdx.x % 128) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const bool leader = threadIdx.x % 128 == 0;  // frees slots, issues C's copies
    // A slot read by this consumer: free in this block and, unless planted, in the peer.
    const auto free_slot = [&](int slot) {
      if constexpr (release == Release::both_blocks) {
        for (unsigned r = 0; r < cluster_blocks; ++r) arrive_in_block(empty + 8 * slot, r);
      } else {
        mbarrier::arrive(empty + 8 * slot);
      }
    };
    int step = 0;
    for (int id = cluster; id < pairs; id += clusters) {
      const Tile t = raster(id, m, n);
      const int row = t.row + static_cast<int>(rank) * block_m;
      float d[128];
#pragma unroll
      for (int i = 0; i < 128; ++i) d[i] = 0.0f;
      for (int kt = 0; kt < k_tiles; ++kt, ++step) {
        const int slot = step % stages;
        mbarrier::wait(full + 8 * slot, (step / stages) % 2, wait_limit_ns);
        KL_PERTURB_POINT_AT("a consumer reads a slot", step);
        const std::uint32_t a_tile = a_ring + slot * a_stage_bytes + consumer * 64 * 128;
        const std::uint32_t b_tile = b_ring + slot * b_stage_bytes;
        wgmma_fence();
#pragma unroll
        for (int s = 0; s < block_k / 16; ++s)
          wgmma_64x256x16(d, descriptor(a_tile + s * 32, 16, 1024), descriptor(b_tile + s * 2048, b_box_bytes, 1024));
        wgmma_commit();
        wgmma_wait<1>(d);  // the previous step's wgmmas are done reading its slot
        if (kt > 0 && leader) {
          KL_PERTURB_POINT_AT("a consumer frees a slot", step);
          free_slot((step - 1) % stages);
        }
      }
      wgmma_wait<0>(d);
      if (leader) free_slot((step - 1) % stages);  // the tile's last slot: read
      // Rung 35's epilogue: 64 columns at a time through the swizzled staging and TMA stores.
      const std::uint32_t mine = staging + consumer * staging_bytes;
      const int r0 = warp * 16 + lane / 4;
#pragma unroll
      for (int q = 0; q < block_n / 64; ++q) {
        if (leader) bulk_wait_read();  // the previous boxes' copies have read the staging
        named_barrier(1 + consumer, 128);
#pragma unroll
        for (int j = 8 * q; j < 8 * q + 8; ++j) {
          const int col = j * 8 + 2 * (lane % 4) - 64 * q;
          const int box = col / c_box_cols, cb = col % c_box_cols;
#pragma unroll
          for (int half = 0; half < 2; ++half) {
            const int r = r0 + 8 * half;
            const std::uint32_t at = mine + box * c_box_bytes + r * 128 + (((cb / 4) ^ (r % 8)) * 16) + (cb % 4) * 4;
            st_shared_f2(at, d[4 * j + 2 * half], d[4 * j + 2 * half + 1]);
          }
        }
        fence_proxy_async();
        named_barrier(1 + consumer, 128);
        if (leader) {
          for (int box = 0; box < 2; ++box)
            tma_store(&c_map, mine + box * c_box_bytes, t.col + 64 * q + box * c_box_cols, row + consumer * 64);
          bulk_commit();
        }
      }
    }
    if (leader) bulk_wait_all();  // C written before the block's shared memory goes
  }
  cluster_sync();  // the peer's last arrivals on this block's barriers are done before it exits
#elif defined(__CUDA_ARCH__)
  __trap();  // compiled for a GPU without sm_90a's instructions: never silently leave C unwritten
#endif
}

// Clusters of two that can be resident at once with this shared memory (asked once a kernel).
template <Release release>
int resident_clusters() {
  static const int clusters = [] {
    const void* kernel = reinterpret_cast<const void*>(&wgmma_multicast<release>);
    KL_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(cluster_blocks);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = smem_bytes;
    int count = 0;
    KL_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&count, wgmma_multicast<release>, &config));
    return std::max(1, count);
  }();
  return clusters;
}

template <Release release>
void launch_kernel(int m, int n, int k, const __half* a, const __half* b, float* c, cudaStream_t stream) {
  const CUtensorMap a_map = tensor_map(a, m, k, block_m, block_k);
  const CUtensorMap b_map = tensor_map(b, k, n, block_k, box_n);
  const CUtensorMap c_map = tensor_map_f32(c, m, n, 64, c_box_cols);
  const int pairs = (m / pair_m) * (n / block_n);
  const unsigned blocks = static_cast<unsigned>(cluster_blocks * std::min(pairs, resident_clusters<release>()));
  wgmma_multicast<release><<<blocks, threads, smem_bytes, stream>>>(m, n, k, a_map, b_map, c_map);
}

}  // namespace

const TileShape wgmma_multicast_tile{pair_m, block_n, block_k};

std::string wgmma_multicast_unavailable() {
  static const std::string reason =
      sm90a_unavailable(reinterpret_cast<const void*>(&wgmma_multicast<Release::both_blocks>));
  return reason;
}

void launch_wgmma_multicast_staged(const Args& args, cudaStream_t stream) {
  launch_half_tiles(args, stream, wgmma_multicast_tile, launch_kernel<Release::both_blocks>);
}

void launch_cluster_local_release_staged(const Args& args, cudaStream_t stream) {
  launch_half_tiles(args, stream, wgmma_multicast_tile, launch_kernel<Release::own_block_only>);
}

}  // namespace kl::matmul
