// Teaches: algorithm cascading: a grid-stride loop adds many elements per thread while loading,
// so a fixed grid covers any n (Brent: O(N/log N) threads are enough). Fixes 06's one-block-per-
// 2*blockSize grid. Seed: 004_f92a7ab1d28b5b9a.txt, kernel `block_reduction` (the seed reads
// array[tidGlobal + blockSize] unguarded; here it is guarded for any n).
#include "launchers.hpp"
#include "summation_plan.hpp"
#include "unroll_common.cuh"

#include "kl/grid.hpp"

namespace kl::reduction {
namespace {

template <unsigned int blockSize, class T>
__global__ void block_reduction(const T *array, T *output, int N) {
  __shared__ T subArray[blockSize];
  int tidInBlock = threadIdx.x;
  int tidGlobal = blockIdx.x * (blockSize * 2);
  tidGlobal += tidInBlock;
  int gridSize = blockSize * 2 * gridDim.x;
  subArray[tidInBlock] = 0;
  while (tidGlobal < N) {
    subArray[tidInBlock] += array[tidGlobal];
    int id = tidGlobal + blockSize;
    if (id < N) subArray[tidInBlock] += array[id];
    tidGlobal += gridSize;
  }
  __syncthreads();
  unrolledTree<blockSize>(subArray, tidInBlock);
  if (tidInBlock < 32) warpReduceSynced<blockSize>(subArray, tidInBlock);
  if (tidInBlock == 0) atomicAdd(output, subArray[0]);
}

}  // namespace

void launch_grid_stride(const Args& args, cudaStream_t stream) {
  zero_output(args, stream);
  const auto blocks = static_cast<unsigned>(plan::grid_stride_pairs(args.shape.n, args.shape.block).blocks);
  if (blocks == 0) return;
  with_dtype(args, [&](auto in, auto out) {
    with_block_size(args.shape.block, [&]<unsigned B>() {
      block_reduction<B><<<blocks, B, 0, stream>>>(in, out, static_cast<int>(args.shape.n));
    });
  });
}

}  // namespace kl::reduction
