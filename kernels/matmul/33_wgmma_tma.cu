// Teaches (beyond the seeds): how Hopper reaches its tensor-core peak, which mma.sync (rung 32)
// cannot: the warpgroup MMA and the tensor memory accelerator, both sm_90a/sm_90 features.
//  - wgmma.mma_async: four warps (a warpgroup) issue one 64x256x16 product whose operands the
//    tensor cores read straight from shared memory, described by 64-bit matrix descriptors
//    (address, the strides between 8-row core-matrix groups, the swizzle); the 64x256 FP32
//    accumulator lives in the warpgroup's registers, 128 per thread. No ldmatrix: the tensor
//    cores read shared memory themselves, asynchronously, so issuing is cheap.
//  - TMA (cp.async.bulk.tensor): one thread copies a whole 2-D box of A or B from global to
//    shared memory, laid out in the 128-byte swizzle wgmma reads, and the copy engine counts
//    the bytes that arrived on an mbarrier (expect_tx / complete_tx). The tensor map that
//    describes each matrix is built on the host and passed as a __grid_constant__ parameter.
//  - Grouped rasterisation: blocks walk C down columns of 16-tile-row groups, so the blocks
//    resident at once reuse each other's A and B panels in L2 (raster() says what it is worth).
//  - Warp specialisation: warpgroup 0 only produces (one thread issues the TMA copies into a
//    4-stage ring, waiting on each slot's "empty" barrier), warpgroups 1 and 2 only consume
//    (each waits on a slot's "full" barrier, runs four wgmmas on its 64 rows of the 128x256
//    block tile, and frees the slot once the next stage's wgmmas are issued). setmaxnreg moves
//    registers from the producer (40) to the consumers (232).
//  - B is read as the caller stores it, k-major rows of n (the "MN-major" operand, wgmma's
//    transpose bit), as cuBLAS reads it: no transposed copy.
// Built for sm_90a in its own translation unit (CMakeLists.txt); on any other GPU the variant
// says it does not apply (wgmma_tma_unavailable). Every mbarrier wait has a time limit, so a
// broken pipeline traps instead of hanging. The perturbation build (kl/perturb.cuh) delays the
// producer before it fills a slot and a consumer before it frees one.
// Seed: 004_f92a7ab1d28b5b9a.txt section 11 (cublasGemmEx's tensor cores); PTX ISA 8.x, sections
// on wgmma, the matrix descriptor, cp.async.bulk.tensor and mbarrier.
#include "launchers.hpp"
#include "shape_rules.hpp"
#include "tensor_core_tiles.hpp"

#include "kl/cuda_check.hpp"
#include "kl/device_facts.hpp"
#include "kl/mbarrier.cuh"
#include "kl/perturb.cuh"

#include "hopper_wgmma.cuh"

#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kl::matmul {
namespace {

using namespace hopper;

// The tile, the ring and their sizes: hopper_wgmma.cuh ("Tiles and ring"), shared with rungs 34-36.
constexpr int smem_bytes = ring_bytes + 2 * stages * 8 + 1024;  // + barriers + 1024-byte alignment slack

// The block's tile of C: the grid is 1-D, and block i takes tile i in the grouped order
// (hopper_wgmma.cuh's grouped_tile says why that order).
__device__ __forceinline__ Tile raster(int m, int n) {
  return grouped_tile(static_cast<int>(blockIdx.x), m / block_m, n / block_n);
}

__global__ void __launch_bounds__(threads, 1)
    wgmma_tma(int m, int n, int k, const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
              float* c) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char smem_raw[];
  const std::uint32_t base = (shared_address(smem_raw) + 1023) & ~1023u;
  const std::uint32_t full = base + ring_bytes;
  const Ring ring{base, base + stages * a_stage_bytes, full, full + stages * 8};
  const int k_tiles = k / block_k;
  const Tile tile_of_block = raster(m, n);
  const int block_row = tile_of_block.row, block_col = tile_of_block.col;
  const int warpgroup = static_cast<int>(threadIdx.x) / 128;

  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      mbarrier::init(ring.full + 8 * s, 1);           // the producer's expect_tx arrival; TMA completes the bytes
      mbarrier::init(ring.empty + 8 * s, consumers);  // one arrival per consumer warpgroup
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");  // visible to the copy engine
  }
  __syncthreads();

  if (warpgroup == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (threadIdx.x != 0) return;
    // k-tile t goes to slot t % stages once the consumers have freed it (hopper_wgmma.cuh's
    // fill_slot, which the persistent rungs call with steps counted over all their tiles).
    for (int tile = 0; tile < k_tiles; ++tile) fill_slot(ring, tile, &a_map, &b_map, block_row, block_col, tile);
    return;
  }

  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
  const int consumer = warpgroup - 1;
  // Each k-tile: wait on its slot's `full` barrier, four wgmmas on this consumer's 64 rows, and
  // the previous slot freed once they are issued (hopper_wgmma.cuh, which the later rungs share).
  float d[128];
  int step = 0;
  accumulate_tile(d, ring, step, consumer, threadIdx.x % 128 == 0, 0, k_tiles);

  // The accumulator layout: warp w of the warpgroup holds rows 16w + lane/4 and 16w + lane/4 + 8;
  // d[4j .. 4j+3] are columns 8j + 2(lane%4) and the next of those two rows.
  const int warp = static_cast<int>(threadIdx.x % 128) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const int row = block_row + consumer * 64 + warp * 16 + lane / 4;
#pragma unroll
  for (int j = 0; j < block_n / 8; ++j) {
    const int col = block_col + j * 8 + 2 * (lane % 4);
    *reinterpret_cast<float2*>(&c[row * n + col]) = make_float2(d[4 * j], d[4 * j + 1]);
    *reinterpret_cast<float2*>(&c[(row + 8) * n + col]) = make_float2(d[4 * j + 2], d[4 * j + 3]);
  }
#elif defined(__CUDA_ARCH__)
  __trap();  // compiled for a GPU without sm_90a's instructions: never silently leave C unwritten
#endif
}

void launch_kernel(int m, int n, int k, const __half* a, const __half* b, float* c, cudaStream_t stream) {
  const CUtensorMap a_map = tensor_map(a, m, k, block_m, block_k);
  const CUtensorMap b_map = tensor_map(b, k, n, block_k, box_n);
  KL_CUDA_CHECK(cudaFuncSetAttribute(wgmma_tma, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  const unsigned blocks = static_cast<unsigned>((m / block_m) * (n / block_n));
  wgmma_tma<<<blocks, threads, smem_bytes, stream>>>(m, n, k, a_map, b_map, c);
}

}  // namespace

const TileShape wgmma_tma_tile{block_m, block_n, block_k};

std::string wgmma_tma_unavailable() {
  static const std::string reason = sm90a_unavailable(reinterpret_cast<const void*>(&wgmma_tma));
  return reason;
}

void launch_wgmma_tma_staged(const Args& args, cudaStream_t stream) {
  launch_half_tiles(args, stream, wgmma_tma_tile, launch_kernel);
}

}  // namespace kl::matmul
