// Teaches (beyond the seeds): two consumer warpgroups in turn ("ping-pong"). In rung 35 both
// consumers share one 128x256 tile: they finish its main loop together and both store C while
// the tensor cores wait for the next tile. Here each consumer owns whole tiles of its own, the
// block's tiles dealt out alternately (its tiles 0, 2, 4, ... to consumer 0; 1, 3, 5, ... to 1),
// and the two take turns at the tensor cores: one runs its main loop while the other stores its
// finished tile, so C's store leaves the tensor cores' path. The ring is one FIFO of k-steps
// (the producer fills the steps of the block's tiles in order; each step is used and freed by its
// tile's consumer alone), and a consumer may start waiting on its tile's stages only after the
// other has waited on its previous tile's last stage (a "turn" mbarrier each): an mbarrier's
// parity wait cannot tell phase p from phase p - 2, so nobody may wait on a slot two fills ahead.
// Tiles are 128x128 (a consumer issues two 64x128x16 wgmmas a k-slice, 128 accumulators a
// thread) or 64x256 (one 64x256x16, as in rung 35); a stage is 32 or 40 KiB, so the ring holds 6
// or 4 stages beside the consumers' 16 KiB of C staging each.
// The rest is rung 35: persistent blocks in the grouped tile order, C through swizzled shared
// memory and TMA stores, 40-register producer. Every mbarrier wait has a time limit; the
// perturbation build delays the producer before it fills a slot, a consumer before it frees one
// and before it hands the tensor cores to the other.
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
#include <string>

namespace kl::matmul {
namespace {

using namespace hopper;

constexpr int block_k = 64;
constexpr int consumers = 2;
constexpr int threads = 128 * (1 + consumers);
constexpr int box_n = 64;
constexpr int b_box_bytes = block_k * box_n * 2;
constexpr int c_box_cols = 32;                   // 128 bytes of FP32: one swizzle row
constexpr int c_box_bytes = 64 * c_box_cols * 4;  // 8 KiB: 64 rows
constexpr int staging_bytes = 2 * c_box_bytes;    // 64 x 64 of C at a time, per consumer
constexpr int max_smem = 232448;                  // an H100 block's 227 KiB
constexpr int in_flight = 1;  // k-steps of wgmmas a consumer keeps queued behind the one it issues
constexpr unsigned long long wait_limit_ns = 10'000'000'000ull;

// A consumer's tile: tile_m x tile_n, in tile_m / 64 wgmma rows of 64.
template <int tile_m, int tile_n>
struct Layout {
  static_assert(tile_m * tile_n == 128 * 128, "128 accumulators a consumer thread");
  static constexpr int halves = tile_m / 64;
  static constexpr int accumulators = tile_n / 2;  // a thread's share of a 64 x tile_n wgmma row
  static constexpr int a_stage_bytes = tile_m * block_k * 2;
  static constexpr int b_stage_bytes = block_k * tile_n * 2;
  static constexpr int stage_bytes = a_stage_bytes + b_stage_bytes;
  static constexpr int fixed_bytes = consumers * staging_bytes + 2 * 8 + 1024;  // staging, turns, alignment
  static constexpr int stages = (max_smem - fixed_bytes) / (stage_bytes + 16);   // + full and empty barriers
  static constexpr int smem_bytes = stages * (stage_bytes + 16) + fixed_bytes;
  static_assert(stages >= 2 && smem_bytes <= max_smem);
};

struct Tile {
  int row, col;
};

// Tile `id` of C in rung 33's grouped order: groups of group_rows tile rows, down each column of
// a group before the next.
constexpr int group_rows = 16;
template <int tile_m, int tile_n>
__device__ __forceinline__ Tile raster(int id, int m, int n) {
  const int tiles_m = m / tile_m, tiles_n = n / tile_n;
  const int per_group = group_rows * tiles_n;
  const int first_row = id / per_group * group_rows;
  const int rows = min(group_rows, tiles_m - first_row);
  const int in_group = id % per_group;
  return {(first_row + in_group % rows) * tile_m, in_group / rows * tile_n};
}

template <int tile_m, int tile_n>
__global__ void __launch_bounds__(threads, 1)
    wgmma_pingpong(int m, int n, int k, const __grid_constant__ CUtensorMap a_map,
                   const __grid_constant__ CUtensorMap b_map, const __grid_constant__ CUtensorMap c_map) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using L = Layout<tile_m, tile_n>;
  extern __shared__ unsigned char smem_raw[];
  const std::uint32_t base = (shared_address(smem_raw) + 1023) & ~1023u;
  const std::uint32_t a_ring = base, b_ring = base + L::stages * L::a_stage_bytes;
  const std::uint32_t staging = base + L::stages * L::stage_bytes;  // consumers' 16 KiB each
  const std::uint32_t full = staging + consumers * staging_bytes, empty = full + L::stages * 8;
  const std::uint32_t turn = empty + L::stages * 8;  // turn + 8c: consumer c may start its next tile
  const int k_tiles = k / block_k;
  const int tiles = (m / tile_m) * (n / tile_n);
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  const int grid = static_cast<int>(gridDim.x);

  if (threadIdx.x == 0) {
    for (int s = 0; s < L::stages; ++s) {
      mbarrier::init(full + 8 * s, 1);
      mbarrier::init(empty + 8 * s, 1);  // a step is freed by its tile's consumer alone
    }
    for (int c = 0; c < consumers; ++c) mbarrier::init(turn + 8 * c, 1);
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();

  if (warpgroup == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (threadIdx.x != 0) return;
    int step = 0;  // k-steps issued by this block, over all its tiles
    for (int id = static_cast<int>(blockIdx.x); id < tiles; id += grid) {
      const Tile t = raster<tile_m, tile_n>(id, m, n);
      for (int kt = 0; kt < k_tiles; ++kt, ++step) {
        const int slot = step % L::stages;
        if (step >= L::stages) mbarrier::wait(empty + 8 * slot, (step / L::stages - 1) % 2, wait_limit_ns);
        KL_PERTURB_POINT_AT("the producer fills a slot", step);
        mbarrier::arrive_expect_bytes(full + 8 * slot, L::stage_bytes);
        tma_load(a_ring + slot * L::a_stage_bytes, &a_map, kt * block_k, t.row, full + 8 * slot);
        for (int box = 0; box < tile_n / box_n; ++box)
          tma_load(b_ring + slot * L::b_stage_bytes + box * b_box_bytes, &b_map, t.col + box * box_n, kt * block_k,
                   full + 8 * slot);
      }
    }
    return;
  }

  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
  const int consumer = warpgroup - 1;
  const int warp = static_cast<int>(threadIdx.x % 128) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const bool leader = threadIdx.x % 128 == 0;  // frees slots, hands over the turn, issues C's copies
  const std::uint32_t mine = staging + consumer * staging_bytes;
  int turns = 0;  // this consumer's waits on its turn barrier so far
  for (int j = consumer, id = static_cast<int>(blockIdx.x) + consumer * grid; id < tiles; j += 2, id += 2 * grid) {
    const Tile t = raster<tile_m, tile_n>(id, m, n);
    // The other consumer has waited on the last stage of the block's tile j - 1, so every slot
    // this tile's stages use has completed the fill before the one it waits for.
    if (j > 0) mbarrier::wait(turn + 8 * consumer, turns++ % 2, wait_limit_ns);
    float d[L::halves][L::accumulators];
#pragma unroll
    for (int h = 0; h < L::halves; ++h)
#pragma unroll
      for (int i = 0; i < L::accumulators; ++i) d[h][i] = 0.0f;
    int step = j * k_tiles;
    for (int kt = 0; kt < k_tiles; ++kt, ++step) {
      const int slot = step % L::stages;
      mbarrier::wait(full + 8 * slot, (step / L::stages) % 2, wait_limit_ns);
      if (kt == k_tiles - 1 && leader) {
        KL_PERTURB_POINT_AT("a consumer hands the tensor cores over", j);
        mbarrier::arrive(turn + 8 * (1 - consumer));
      }
      const std::uint32_t a_tile = a_ring + slot * L::a_stage_bytes;
      const std::uint32_t b_tile = b_ring + slot * L::b_stage_bytes;
      wgmma_fence();
#pragma unroll
      for (int s = 0; s < block_k / 16; ++s)
#pragma unroll
        for (int h = 0; h < L::halves; ++h) {
          const std::uint64_t a = descriptor(a_tile + h * 64 * 128 + s * 32, 16, 1024);
          const std::uint64_t b = descriptor(b_tile + s * 2048, b_box_bytes, 1024);
          if constexpr (tile_n == 256)
            wgmma_64x256x16(d[h], a, b);
          else
            wgmma_64x128x16(d[h], a, b);
        }
      wgmma_commit();
      wgmma_wait_group<in_flight>();  // the wgmmas of step - in_flight are done reading its slot
#pragma unroll
      for (int h = 0; h < L::halves; ++h) accumulators_written(d[h]);
      if (kt >= in_flight && leader) {
        KL_PERTURB_POINT_AT("a consumer frees a slot", step);
        mbarrier::arrive(empty + 8 * ((step - in_flight) % L::stages));
      }
    }
    wgmma_wait_group<0>();
#pragma unroll
    for (int h = 0; h < L::halves; ++h) accumulators_written(d[h]);
    if (leader)  // the tile's last slots: read
      for (int back = min(in_flight, k_tiles); back >= 1; --back) mbarrier::arrive(empty + 8 * ((step - back) % L::stages));
    // Rung 33's accumulator layout, per 64-row half h: warp w holds rows 16w + lane/4 and
    // 16w + lane/4 + 8; d[h][4j .. 4j+3] are columns 8j + 2(lane%4) and the next, of those rows.
    const int r0 = warp * 16 + lane / 4;
#pragma unroll
    for (int h = 0; h < L::halves; ++h)
#pragma unroll
      for (int q = 0; q < tile_n / 64; ++q) {
        if (leader) bulk_wait_read();  // the previous boxes' copies have read the staging
        named_barrier(1 + consumer, 128);
#pragma unroll
        for (int j8 = 8 * q; j8 < 8 * q + 8; ++j8) {
          const int col = j8 * 8 + 2 * (lane % 4) - 64 * q;  // 0..63 within this 64-column piece
          const int box = col / c_box_cols, cb = col % c_box_cols;
#pragma unroll
          for (int half = 0; half < 2; ++half) {
            const int r = r0 + 8 * half;
            // 128-byte swizzle: the 16-byte unit cb/4 of row r sits at unit (cb/4) ^ (r % 8).
            const std::uint32_t at = mine + box * c_box_bytes + r * 128 + (((cb / 4) ^ (r % 8)) * 16) + (cb % 4) * 4;
            st_shared_f2(at, d[h][4 * j8 + 2 * half], d[h][4 * j8 + 2 * half + 1]);
          }
        }
        fence_proxy_async();  // these writes, seen by the copy engine
        named_barrier(1 + consumer, 128);
        if (leader) {
          for (int box = 0; box < 2; ++box)
            tma_store(&c_map, mine + box * c_box_bytes, t.col + 64 * q + box * c_box_cols, t.row + 64 * h);
          bulk_commit();
        }
      }
  }
  if (leader) bulk_wait_all();  // C written before the block's shared memory goes
#elif defined(__CUDA_ARCH__)
  __trap();  // compiled for a GPU without sm_90a's instructions: never silently leave C unwritten
#endif
}

template <int tile_m, int tile_n>
void launch_kernel(int m, int n, int k, const __half* a, const __half* b, float* c, cudaStream_t stream) {
  using L = Layout<tile_m, tile_n>;
  const CUtensorMap a_map = tensor_map(a, m, k, tile_m, block_k);
  const CUtensorMap b_map = tensor_map(b, k, n, block_k, box_n);
  const CUtensorMap c_map = tensor_map_f32(c, m, n, 64, c_box_cols);
  const void* kernel = reinterpret_cast<const void*>(&wgmma_pingpong<tile_m, tile_n>);
  const unsigned blocks = persistent_blocks(kernel, threads, L::smem_bytes, (m / tile_m) * (n / tile_n));
  wgmma_pingpong<tile_m, tile_n><<<blocks, threads, L::smem_bytes, stream>>>(m, n, k, a_map, b_map, c_map);
}

}  // namespace

const TileShape wgmma_pingpong_tile{128, 128, block_k};
const TileShape wgmma_pingpong_wide_tile{64, 256, block_k};

std::string wgmma_pingpong_unavailable() {
  static const std::string reason = sm90a_unavailable(reinterpret_cast<const void*>(&wgmma_pingpong<128, 128>));
  return reason;
}

void launch_wgmma_pingpong_staged(const Args& args, cudaStream_t stream) {
  launch_half_tiles(args, stream, wgmma_pingpong_tile, launch_kernel<128, 128>);
}
void launch_wgmma_pingpong_wide_staged(const Args& args, cudaStream_t stream) {
  launch_half_tiles(args, stream, wgmma_pingpong_wide_tile, launch_kernel<64, 256>);
}

}  // namespace kl::matmul
