// Teaches: split-K, for shapes whose tiles of C leave most of the GPU idle. Rung 27 gives each
// block one 64 x 128 tile of C and all of k: at 4096^3 that is 2048 blocks for the H100's 528
// block slots (132 SMs x 4), but at 512 x 512 x 8192 it is 32 blocks: 100 SMs idle, each block
// walking 512 k tiles alone. Here the blocks at a tile split its k tiles into runs
// (kl/matmul_split_k.hpp says when and how many: where half the SMs would be idle, enough runs to
// fill the slots, each at least 8 tiles deep), each adds its run into a partial C of its own, and
// a second kernel adds the partials in run order, so C's bits do not depend on which block
// finished first. No block waits on another:
// the second kernel starts after the first has finished, in stream order, which is what makes
// this simpler than rung 36's stream-K (one kernel, blocks handing partials to each other). The
// cost is a partial C written and read once per run, so shapes whose tiles reach more than half
// the SMs (every swept shape but 512 x 512 x 8192) run rung 27's H100 kernel unchanged: its
// every-shape line's, or at a large C (8192 x 8192 elements or more) its [large] line's, the same
// tile walked down groups of 8 tile rows (at 8192^3 on the H100 1.014-1.016x cuBLAS, against
// 0.98-1.02 for the every-shape line's). The tile configurations are the H100's lines of
// sgemm_tuning.conf on every GPU (sgemm_h100_config.cuh; kl.matmul.tuning.host checks them
// against the file). Any m, n, k (zero-padded staging, sgemm_whole_tiles.hpp).
// Goal served: seed 003_2eb1131b3d611900.txt (its part 2), for C too small to fill the GPU.
#include "launchers.hpp"
#include "sgemm_h100_config.cuh"
#include "sgemm_prefetched.cuh"

#include "kl/cuda_check.hpp"
#include "kl/matmul.hpp"
#include "kl/matmul_split_k.hpp"
#include "kl/sgemm_tuning.hpp"

namespace kl::matmul {
namespace {

using WholeTiles = prefetched::H100Tuned;
using LargeWholeTiles = prefetched::H100TunedLarge;  // the same tile, rasterised: for large C, as rung 27
using SplitTiles = WholeTiles::SplitK;

int runs_for_whole_tiles(std::int64_t m, std::int64_t n, std::int64_t k) {
  const BlockSlots o = cp_async::block_slots_of<WholeTiles>(prefetched::sgemm_prefetched<WholeTiles>);
  return split_k::runs_for((m / WholeTiles::BM) * (n / WholeTiles::BN), k / WholeTiles::BK, o.sms, o.blocks_per_sm);
}

}  // namespace

void launch_whole_or_split(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t stream) {
  const int runs = runs_for_whole_tiles(m, n, k);
  if (runs == 1) {
    if (tuning::shape_class_of(m, n) == tuning::ShapeClass::large)
      prefetched::launch<LargeWholeTiles>(m, n, k, a, b, c, stream);
    else
      prefetched::launch<WholeTiles>(m, n, k, a, b, c, stream);
    return;
  }
  const std::size_t bytes = static_cast<std::size_t>(runs) * static_cast<std::size_t>(m) * static_cast<std::size_t>(n) * 4;
  auto* partials = static_cast<float*>(scratch(ScratchSlot::split_k_partials, bytes));
  prefetched::launch_split_k<SplitTiles>(m, n, k, a, b, c, runs, partials, stream);
}

namespace prefetched {
__global__ void add_partials(int count4, int runs, std::ptrdiff_t stride4, const float4* partials, float4* c) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count4; i += gridDim.x * blockDim.x) {
    float4 sum = partials[i];
    for (int run = 1; run < runs; ++run) {
      const float4 p = partials[run * stride4 + i];
      sum.x += p.x, sum.y += p.y, sum.z += p.z, sum.w += p.w;
    }
    c[i] = sum;
  }
}
}  // namespace prefetched

const TileShape split_k_tile = prefetched::tile_of<WholeTiles>();
const char* const split_k_config = prefetched::h100_tuned_name;
const char* const split_k_large_config = prefetched::h100_tuned_large_name;

int split_k_runs(const Shape& shape) {
  const PaddedShape p = padded_to_tiles(shape, split_k_tile);
  return runs_for_whole_tiles(p.m, p.n, p.k);
}

void launch_split_k(const Args& args, cudaStream_t stream) {
  launch_whole_tiles(args, stream, split_k_tile, launch_whole_or_split);
}

}  // namespace kl::matmul
