// Teaches (beyond the seeds): what rung 30 lacked, reuse. A block of eight warps stages a
// 128x32 tile of A and a 32x128 tile of B in shared memory with 16-byte loads, then each warp
// multiplies a 32x64 piece of the block's 128x128 C tile from it (2x4 fragments, eight
// accumulators): every value read from global memory now feeds 8 (A) or 4 (B) mma_syncs
// instead of one. Rows are padded by 8 halves (16 bytes) so the fragment loads of consecutive
// rows start in different banks. One stage: the warps still wait for each tile's loads.
// Seed: 004_f92a7ab1d28b5b9a.txt section 11; 003's shared-memory tiling, on tensor cores.
#include "launchers.hpp"
#include "tensor_core_tiles.hpp"

#include <mma.h>

namespace kl::matmul {
namespace {

using namespace nvcuda;

constexpr int fragment = 16;
constexpr int block_m = 128, block_n = 128, block_k = 32;
constexpr int warps_m = 4, warps_n = 2;                    // 8 warps
constexpr int warp_m = block_m / warps_m;                  // 32 rows: 2 fragments
constexpr int warp_n = block_n / warps_n;                  // 64 columns: 4 fragments
constexpr int frags_m = warp_m / fragment, frags_n = warp_n / fragment;
constexpr int threads = 32 * warps_m * warps_n;
constexpr int pad = 8;                                     // halves: 16 bytes
constexpr int a_stride = block_k + pad, b_stride = block_n + pad;
constexpr int halves_per_vector = 8;                       // one uint4

__global__ void __launch_bounds__(threads) wmma_shared(int n, int k, const __half* a, const __half* b, float* c) {
  __shared__ __align__(32) __half a_tile[block_m * a_stride];
  __shared__ __align__(32) __half b_tile[block_k * b_stride];
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int warp_row = warp / warps_n * warp_m, warp_col = warp % warps_n * warp_n;
  const int block_row = static_cast<int>(blockIdx.y) * block_m, block_col = static_cast<int>(blockIdx.x) * block_n;

  wmma::fragment<wmma::accumulator, fragment, fragment, fragment, float> acc[frags_m][frags_n];
#pragma unroll
  for (int i = 0; i < frags_m; ++i)
#pragma unroll
    for (int j = 0; j < frags_n; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  for (int depth = 0; depth < k; depth += block_k) {
    // A: 128 rows of 4 vectors; B: 32 rows of 16 vectors; 512 vectors each, two per thread.
#pragma unroll
    for (int v = static_cast<int>(threadIdx.x); v < block_m * block_k / halves_per_vector; v += threads) {
      const int r = v / (block_k / halves_per_vector), col = v % (block_k / halves_per_vector) * halves_per_vector;
      *reinterpret_cast<uint4*>(&a_tile[r * a_stride + col]) =
          *reinterpret_cast<const uint4*>(&a[(block_row + r) * k + depth + col]);
    }
#pragma unroll
    for (int v = static_cast<int>(threadIdx.x); v < block_k * block_n / halves_per_vector; v += threads) {
      const int r = v / (block_n / halves_per_vector), col = v % (block_n / halves_per_vector) * halves_per_vector;
      *reinterpret_cast<uint4*>(&b_tile[r * b_stride + col]) =
          *reinterpret_cast<const uint4*>(&b[(depth + r) * n + block_col + col]);
    }
    __syncthreads();
#pragma unroll
    for (int step = 0; step < block_k; step += fragment) {
      wmma::fragment<wmma::matrix_a, fragment, fragment, fragment, __half, wmma::row_major> a_frag[frags_m];
      wmma::fragment<wmma::matrix_b, fragment, fragment, fragment, __half, wmma::row_major> b_frag[frags_n];
#pragma unroll
      for (int i = 0; i < frags_m; ++i)
        wmma::load_matrix_sync(a_frag[i], &a_tile[(warp_row + i * fragment) * a_stride + step], a_stride);
#pragma unroll
      for (int j = 0; j < frags_n; ++j)
        wmma::load_matrix_sync(b_frag[j], &b_tile[step * b_stride + warp_col + j * fragment], b_stride);
#pragma unroll
      for (int i = 0; i < frags_m; ++i)
#pragma unroll
        for (int j = 0; j < frags_n; ++j) wmma::mma_sync(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
    }
    __syncthreads();  // the next tile overwrites what slower warps may still be reading
  }
#pragma unroll
  for (int i = 0; i < frags_m; ++i)
#pragma unroll
    for (int j = 0; j < frags_n; ++j)
      wmma::store_matrix_sync(c + (block_row + warp_row + i * fragment) * n + block_col + warp_col + j * fragment,
                              acc[i][j], n, wmma::mem_row_major);
}

void launch_kernel(int m, int n, int k, const __half* a, const __half* b, float* c, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>(n / block_n), static_cast<unsigned>(m / block_m));
  wmma_shared<<<grid, threads, 0, stream>>>(n, k, a, b, c);
}

}  // namespace

const TileShape wmma_shared_tile{block_m, block_n, block_k};

void launch_wmma_shared_staged(const Args& args, cudaStream_t stream) {
  launch_half_tiles(args, stream, wmma_shared_tile, launch_kernel);
}

}  // namespace kl::matmul
