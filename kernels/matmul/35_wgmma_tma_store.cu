// Teaches (beyond the seeds): the epilogue overlapped with the next tile's main loop. In rung 34
// the consumers store their 128x256 FP32 tile to global memory with 8-byte stores while the
// tensor cores idle; here each consumer writes its 64x256 half into shared memory, 64 columns at
// a time (two 64x32 boxes in the 128-byte swizzle, so the 32 lanes of a store land in distinct
// banks), and one thread hands each box to TMA (cp.async.bulk.tensor global <- shared): the copy
// engine drains C while the consumer already waits on the next tile's first stage. Before a
// box's staging is written again its previous copy must have read it (cp.async.bulk.wait_group.read),
// and the writes are made visible to the copy engine first (fence.proxy.async). The staging (16 KiB
// a consumer) fits beside the 4-stage ring: 224 KiB of the 227 an H100 block may have. (The
// epilogue's code is hopper_wgmma.cuh's store_c_quarter, which rung 36 uses too.)
// The rest is rung 34: persistent blocks in the grouped tile order, the ring running on across
// tiles, one producer and two consumer warpgroups, wgmma 64x256x16. Every mbarrier wait has a
// time limit; the perturbation build delays the producer before it fills a slot and a consumer
// before it frees one.
// Seed: 004_f92a7ab1d28b5b9a.txt section 11 (cublasGemmEx's tensor cores); PTX ISA 8.x.
#include "launchers.hpp"
#include "shape_rules.hpp"
#include "tensor_core_tiles.hpp"

#include "kl/cuda_check.hpp"
#include "kl/device_facts.hpp"
#include "kl/mbarrier.cuh"

#include "hopper_wgmma.cuh"

#include <cstdint>
#include <string>

namespace kl::matmul {
namespace {

using namespace hopper;

// Tile `id` of C in rung 33's grouped order (hopper_wgmma.cuh).
__device__ __forceinline__ Tile raster(int id, int m, int n) { return grouped_tile(id, m / block_m, n / block_n); }

__global__ void __launch_bounds__(threads, 1)
    wgmma_tma_store(int m, int n, int k, const __grid_constant__ CUtensorMap a_map,
                    const __grid_constant__ CUtensorMap b_map, const __grid_constant__ CUtensorMap c_map) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char smem_raw[];
  const StagedSmem smem = staged_smem(smem_raw);
  const Ring& ring = smem.ring;
  const std::uint32_t staging = smem.staging;  // consumers' 16 KiB each
  const int k_tiles = k / block_k;
  const int tiles = (m / block_m) * (n / block_n);
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;

  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier::init(ring.full + 8 * s, 1);
      mbarrier::init(ring.empty + 8 * s, consumers);
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();

  if (warpgroup == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (threadIdx.x != 0) return;
    int step = 0;  // k-steps issued by this block, over all its tiles
    for (int id = static_cast<int>(blockIdx.x); id < tiles; id += static_cast<int>(gridDim.x)) {
      const Tile t = raster(id, m, n);
      for (int kt = 0; kt < k_tiles; ++kt, ++step) fill_slot(ring, step, &a_map, &b_map, t.row, t.col, kt);
    }
    return;
  }

  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
  const int consumer = warpgroup - 1;
  const bool leader = threadIdx.x % 128 == 0;  // frees slots (one arrival a warpgroup), waits for C's copies
  int step = 0;
  for (int id = static_cast<int>(blockIdx.x); id < tiles; id += static_cast<int>(gridDim.x)) {
    const Tile t = raster(id, m, n);
    float d[128];
    accumulate_tile(d, ring, step, consumer, leader, 0, k_tiles);
    // C through the staging, 64 columns at a time (hopper_wgmma.cuh's epilogue).
#pragma unroll
    for (int q = 0; q < block_n / 64; ++q)
      store_c_quarter(d, q, t.row + consumer * 64, t.col, consumer, staging + consumer * c_staging_bytes, &c_map);
  }
  if (leader) bulk_wait_all();  // C written before the block's shared memory goes
#elif defined(__CUDA_ARCH__)
  __trap();  // compiled for a GPU without sm_90a's instructions: never silently leave C unwritten
#endif
}

void launch_kernel(int m, int n, int k, const __half* a, const __half* b, float* c, cudaStream_t stream) {
  const CUtensorMap a_map = tensor_map(a, m, k, block_m, block_k);
  const CUtensorMap b_map = tensor_map(b, k, n, block_k, box_n);
  const CUtensorMap c_map = tensor_map_f32(c, m, n, 64, c_box_cols);
  // One block an SM (the shared memory allows no more): as many as can be resident.
  const unsigned blocks = persistent_blocks(reinterpret_cast<const void*>(&wgmma_tma_store), threads, staged_smem_bytes,
                                            (m / block_m) * (n / block_n));
  wgmma_tma_store<<<blocks, threads, staged_smem_bytes, stream>>>(m, n, k, a_map, b_map, c_map);
}

}  // namespace

const TileShape wgmma_tma_store_tile{block_m, block_n, block_k};

std::string wgmma_tma_store_unavailable() {
  static const std::string reason = sm90a_unavailable(reinterpret_cast<const void*>(&wgmma_tma_store));
  return reason;
}

void launch_wgmma_tma_store_staged(const Args& args, cudaStream_t stream) {
  launch_half_tiles(args, stream, wgmma_tma_store_tile, launch_kernel);
}

}  // namespace kl::matmul
