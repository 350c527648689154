// Teaches (beyond the seeds): a persistent kernel. Rung 33 launches one block per 128x256 tile of
// C (512 blocks at 4096^3 on 132 SMs, one block an SM): every block initialises its barriers,
// fills its 4-stage ring before its first wgmma and writes its 128 KiB of C with the ring idle.
// Here the grid is one block an SM, and each block walks tiles id, id + grid, ... in rung 33's
// grouped order (the blocks at work at one time still share A and B panels in L2):
//  - the ring runs on across tiles: the producer counts k-steps over all of its block's tiles
//    (slot = step % stages, the barriers' phase = step / stages % 2), so while the consumers
//    finish a tile and store it, the producer is already filling the ring with the next tile's
//    first stages; a consumer frees the last slot of a tile once its wgmmas are done;
//  - the barriers are initialised once per SM, not once per tile.
// The rest is rung 33: one producer warpgroup (one thread issues the TMA copies, 40 registers),
// two consumer warpgroups of 64 rows each (232 registers), wgmma 64x256x16 from 128-byte-swizzled
// shared memory. Every mbarrier wait has a time limit (a broken ring traps instead of hanging);
// the perturbation build delays the producer before it fills a slot and a consumer before it
// frees one.
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

constexpr int smem_bytes = ring_bytes + 2 * stages * 8 + 1024;

// Tile `id` of C in rung 33's grouped order (hopper_wgmma.cuh).
__device__ __forceinline__ Tile raster(int id, int m, int n) { return grouped_tile(id, m / block_m, n / block_n); }

__global__ void __launch_bounds__(threads, 1)
    wgmma_persistent(int m, int n, int k, const __grid_constant__ CUtensorMap a_map,
                     const __grid_constant__ CUtensorMap b_map, float* c) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char smem_raw[];
  const std::uint32_t base = (shared_address(smem_raw) + 1023) & ~1023u;
  const std::uint32_t full = base + ring_bytes;
  const Ring ring{base, base + stages * a_stage_bytes, full, full + stages * 8};
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
  const int warp = static_cast<int>(threadIdx.x % 128) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const bool frees = threadIdx.x % 128 == 0;  // one arrival per consumer warpgroup
  int step = 0;
  for (int id = static_cast<int>(blockIdx.x); id < tiles; id += static_cast<int>(gridDim.x)) {
    const Tile t = raster(id, m, n);
    float d[128];
    accumulate_tile(d, ring, step, consumer, frees, 0, k_tiles);
    // Rung 33's accumulator layout and stores; the producer meanwhile fills the next tile's stages.
    const int row = t.row + consumer * 64 + warp * 16 + lane / 4;
#pragma unroll
    for (int j = 0; j < block_n / 8; ++j) {
      const int col = t.col + j * 8 + 2 * (lane % 4);
      *reinterpret_cast<float2*>(&c[row * n + col]) = make_float2(d[4 * j], d[4 * j + 1]);
      *reinterpret_cast<float2*>(&c[(row + 8) * n + col]) = make_float2(d[4 * j + 2], d[4 * j + 3]);
    }
  }
#elif defined(__CUDA_ARCH__)
  __trap();  // compiled for a GPU without sm_90a's instructions: never silently leave C unwritten
#endif
}

void launch_kernel(int m, int n, int k, const __half* a, const __half* b, float* c, cudaStream_t stream) {
  const CUtensorMap a_map = tensor_map(a, m, k, block_m, block_k);
  const CUtensorMap b_map = tensor_map(b, k, n, block_k, box_n);
  // One block an SM (the shared memory allows no more): as many as can be resident.
  const unsigned blocks = persistent_blocks(reinterpret_cast<const void*>(&wgmma_persistent), threads, smem_bytes,
                                            (m / block_m) * (n / block_n));
  wgmma_persistent<<<blocks, threads, smem_bytes, stream>>>(m, n, k, a_map, b_map, c);
}

}  // namespace

const TileShape wgmma_persistent_tile{block_m, block_n, block_k};

std::string wgmma_persistent_unavailable() {
  static const std::string reason = sm90a_unavailable(reinterpret_cast<const void*>(&wgmma_persistent));
  return reason;
}

void launch_wgmma_persistent_staged(const Args& args, cudaStream_t stream) {
  launch_half_tiles(args, stream, wgmma_persistent_tile, launch_kernel);
}

}  // namespace kl::matmul
