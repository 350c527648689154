// Teaches (beyond the seeds): the tensor cores below WMMA, in PTX, with the three tools every
// fast pre-Hopper GEMM uses.
//  - mma.sync.m16n8k16: the warp-level instruction WMMA compiles to, with the fragment layout in
//    the open: each lane holds known elements of A, B and C, so the epilogue writes C straight
//    from registers.
//  - ldmatrix: one instruction loads four 8x8 FP16 matrices from shared memory into exactly the
//    fragment layout mma.sync wants (.trans for B, which is stored k-major as the caller's
//    row-major B is); lanes give the row addresses.
//  - An XOR swizzle instead of padding: in a tile row of 8 (A) or 16 (B) 16-byte chunks, chunk c
//    of row r is stored at chunk c ^ (r % 8). The eight rows one ldmatrix phase reads then hit
//    eight different 16-byte bank groups, and so do cp.async's stores: no conflicts, no waste.
//  - cp.async in a 3-stage ring: global-to-shared copies that bypass registers, issued two tiles
//    ahead and waited for with cp.async.wait_group, so loads overlap the mma.syncs.
// The block computes 128x128 of C with 8 warps, each a 64x32 piece (4x4 mma tiles of 16x8);
// two blocks fit an SM (96 KiB of shared memory and at most 128 registers a thread each).
// The perturbation build (kl/perturb.cuh) delays warps as their copies land and before they refill a slot.
// Seed: 004_f92a7ab1d28b5b9a.txt section 11; rung 25's cp.async ring, on tensor cores.
#include "launchers.hpp"
#include "sgemm_cp_async.cuh"
#include "tensor_core_tiles.hpp"

#include "kl/cuda_check.hpp"
#include "kl/mbarrier.cuh"
#include "kl/perturb_points.cuh"

#include <cstdint>

namespace kl::matmul {
namespace {

constexpr int block_m = 128, block_n = 128, block_k = 64;
constexpr int stages = 3;
constexpr int warps_m = 2, warps_n = 4;
constexpr int threads = 32 * warps_m * warps_n;
constexpr int warp_m = block_m / warps_m;  // 64 rows: 4 mma tiles of 16
constexpr int warp_n = block_n / warps_n;  // 32 columns: 4 mma tiles of 8
constexpr int tiles_m = warp_m / 16, tiles_n = warp_n / 8;
constexpr int chunk = 8;  // halves in 16 bytes
constexpr int a_chunks = block_k / chunk, b_chunks = block_n / chunk;  // per tile row: 8 and 16
constexpr int a_stage_halves = block_m * block_k, b_stage_halves = block_k * block_n;
constexpr int smem_bytes = stages * (a_stage_halves + b_stage_halves) * 2;  // 96 KiB

// The half offset of logical 16-byte chunk `c` of row `r` in a tile of `row_chunks` per row.
__device__ __forceinline__ int swizzled(int r, int c, int row_chunks) { return (r * row_chunks + (c ^ (r % 8))) * chunk; }

__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(p)));
}

__device__ __forceinline__ void ldmatrix_x4_trans(std::uint32_t (&r)[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(p)));
}

// d += a (16x16, row) * b (16x8, col), FP16 in, FP32 accumulate.
__device__ __forceinline__ void mma_16x8x16(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                            std::uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Issues the copies of k-tile `tile` into ring slot `slot`: 1024 chunks of A and 1024 of B,
// four each per thread, every warp's 32 chunks covering whole 128-byte rows.
__device__ __forceinline__ void load_tile(__half* a_slot, __half* b_slot, const __half* a, const __half* b, int n,
                                          int k, int block_row, int block_col, int tile) {
#pragma unroll
  for (int i = 0; i < a_stage_halves / chunk / threads; ++i) {
    const int q = static_cast<int>(threadIdx.x) + i * threads;
    const int r = q / a_chunks, c = q % a_chunks;
    cp_async::copy16(a_slot + swizzled(r, c, a_chunks), a + (block_row + r) * k + tile * block_k + c * chunk);
  }
#pragma unroll
  for (int i = 0; i < b_stage_halves / chunk / threads; ++i) {
    const int q = static_cast<int>(threadIdx.x) + i * threads;
    const int r = q / b_chunks, c = q % b_chunks;
    cp_async::copy16(b_slot + swizzled(r, c, b_chunks), b + (tile * block_k + r) * n + block_col + c * chunk);
  }
}

__global__ void __launch_bounds__(threads, 2) mma_sync_pipeline(int n, int k, const __half* a, const __half* b, float* c) {
  extern __shared__ __align__(128) __half smem[];
  __half* a_ring = smem;
  __half* b_ring = smem + stages * a_stage_halves;
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const int warp_row = warp / warps_n * warp_m, warp_col = warp % warps_n * warp_n;
  const int block_row = static_cast<int>(blockIdx.y) * block_m, block_col = static_cast<int>(blockIdx.x) * block_n;
  const int k_tiles = k / block_k;

  float acc[tiles_m][tiles_n][4] = {};

  // Fill all but one slot of the ring; one commit group per tile, empty groups past the end so
  // the wait count below stays the same on the last tiles.
#pragma unroll
  for (int t = 0; t < stages - 1; ++t) {
    if (t < k_tiles) load_tile(a_ring + t * a_stage_halves, b_ring + t * b_stage_halves, a, b, n, k, block_row, block_col, t);
    cp_async::commit();
  }

  for (int tile = 0; tile < k_tiles; ++tile) {
    cp_async::wait<stages - 2>();  // this thread's copies of `tile`
    KL_PERTURB_POINT_AT("a warp's copies of a tile landed", tile);
    __syncthreads();  // everyone's copies of `tile` landed; everyone is done with tile - 1's slot
    const int next = tile + stages - 1;
    if (next < k_tiles) {
      KL_PERTURB_POINT_AT("a warp refills a ring slot", tile);
      const int slot = next % stages;
      load_tile(a_ring + slot * a_stage_halves, b_ring + slot * b_stage_halves, a, b, n, k, block_row, block_col, next);
    }
    cp_async::commit();

    const __half* a_tile = a_ring + tile % stages * a_stage_halves;
    const __half* b_tile = b_ring + tile % stages * b_stage_halves;
#pragma unroll
    for (int step = 0; step < block_k / 16; ++step) {
      // Lane l addresses row l % 16 of the 16x16 piece, chunk l / 16: the x4 load's four 8x8
      // matrices are then exactly a0..a3 of the A fragment, and b0, b1 of two 8-column B tiles.
      // Every row a lane addresses is lane % 8 modulo 8, so its swizzle is "^ (lane % 8)".
      std::uint32_t a_frag[tiles_m][4];
      const int a_chunk = (step * 2 + lane / 16) ^ (lane % 8);
#pragma unroll
      for (int i = 0; i < tiles_m; ++i)
        ldmatrix_x4(a_frag[i], a_tile + ((warp_row + i * 16 + lane % 16) * a_chunks + a_chunk) * chunk);
      std::uint32_t b_frag[tiles_n / 2][4];
#pragma unroll
      for (int j = 0; j < tiles_n / 2; ++j) {
        const int b_chunk = ((warp_col + j * 16) / chunk + lane / 16) ^ (lane % 8);
        ldmatrix_x4_trans(b_frag[j], b_tile + ((step * 16 + lane % 16) * b_chunks + b_chunk) * chunk);
      }
#pragma unroll
      for (int i = 0; i < tiles_m; ++i)
#pragma unroll
        for (int j = 0; j < tiles_n; ++j)
          mma_16x8x16(acc[i][j], a_frag[i], b_frag[j / 2][(j % 2) * 2], b_frag[j / 2][(j % 2) * 2 + 1]);
    }
  }
  cp_async::wait<0>();

  // C fragment: lane l holds rows l/4 and l/4 + 8, columns 2(l%4) and 2(l%4) + 1 of each 16x8 tile.
#pragma unroll
  for (int i = 0; i < tiles_m; ++i)
#pragma unroll
    for (int j = 0; j < tiles_n; ++j) {
      const int row = block_row + warp_row + i * 16 + lane / 4;
      const int col = block_col + warp_col + j * 8 + 2 * (lane % 4);
      *reinterpret_cast<float2*>(&c[row * n + col]) = make_float2(acc[i][j][0], acc[i][j][1]);
      *reinterpret_cast<float2*>(&c[(row + 8) * n + col]) = make_float2(acc[i][j][2], acc[i][j][3]);
    }
}

void launch_kernel(int m, int n, int k, const __half* a, const __half* b, float* c, cudaStream_t stream) {
  // Above 48 KB a kernel must opt in to its dynamic shared memory; setting it every time is cheap.
  KL_CUDA_CHECK(cudaFuncSetAttribute(mma_sync_pipeline, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  const dim3 grid(static_cast<unsigned>(n / block_n), static_cast<unsigned>(m / block_m));
  mma_sync_pipeline<<<grid, threads, smem_bytes, stream>>>(n, k, a, b, c);
}

}  // namespace

const TileShape mma_sync_pipeline_tile{block_m, block_n, block_k};

void launch_mma_sync_pipeline_staged(const Args& args, cudaStream_t stream) {
  launch_half_tiles(args, stream, mma_sync_pipeline_tile, launch_kernel);
}

}  // namespace kl::matmul
