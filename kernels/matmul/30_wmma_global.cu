// Teaches (beyond the seeds): the tensor cores from CUDA C++, through the WMMA API. A warp
// multiplies 16x16x16 fragments of FP16 in one mma_sync, accumulating in FP32: the unit of work
// is a warp and a tile, not a thread and an element. This first rung loads every fragment
// straight from global memory, so each value of A and B is read once per 16x16 output tile that
// needs it: the tensor cores wait on memory, which the next rungs fix.
// Seed: 004_f92a7ab1d28b5b9a.txt section 11 (tensor cores through cublasGemmEx); this writes
// the kernel itself. FP16 A and B are staged as for GemmEx (tensor_core_tiles.hpp).
#include "launchers.hpp"
#include "tensor_core_tiles.hpp"

#include <mma.h>

namespace kl::matmul {
namespace {

using namespace nvcuda;

constexpr int fragment = 16;             // WMMA's m = n = k for FP16 inputs
constexpr int warps_m = 2, warps_n = 2;  // a block's four warps own a 2x2 square of C tiles

// One warp per 16x16 tile of C: k/16 fragment loads of A and of B, each an mma_sync.
__global__ void wmma_global(int n, int k, const __half* a, const __half* b, float* c) {
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int row = (static_cast<int>(blockIdx.y) * warps_m + warp / warps_n) * fragment;
  const int col = (static_cast<int>(blockIdx.x) * warps_n + warp % warps_n) * fragment;
  wmma::fragment<wmma::matrix_a, fragment, fragment, fragment, __half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, fragment, fragment, fragment, __half, wmma::row_major> b_frag;
  wmma::fragment<wmma::accumulator, fragment, fragment, fragment, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int depth = 0; depth < k; depth += fragment) {
    wmma::load_matrix_sync(a_frag, a + row * k + depth, k);
    wmma::load_matrix_sync(b_frag, b + depth * n + col, n);
    wmma::mma_sync(acc, a_frag, b_frag, acc);
  }
  wmma::store_matrix_sync(c + row * n + col, acc, n, wmma::mem_row_major);
}

void launch_kernel(int m, int n, int k, const __half* a, const __half* b, float* c, cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>(n / wmma_global_tile.bn), static_cast<unsigned>(m / wmma_global_tile.bm));
  wmma_global<<<grid, 32 * warps_m * warps_n, 0, stream>>>(n, k, a, b, c);
}

}  // namespace

const TileShape wmma_global_tile{warps_m * fragment, warps_n * fragment, fragment};

void launch_wmma_global_staged(const Args& args, cudaStream_t stream) {
  launch_half_tiles(args, stream, wmma_global_tile, launch_kernel);
}

}  // namespace kl::matmul
