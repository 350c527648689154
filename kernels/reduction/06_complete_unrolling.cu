// Teaches: complete unrolling: with `template <unsigned int blockSize>` the block-size tests are
// decided at compile time and the stride loop disappears. Builds on 05's synced last warp.
// Seed: 004_f92a7ab1d28b5b9a.txt, kernel `blkReduct` / `blockReduction<THREADS_PERBLOCK>`.
#include "launchers.hpp"
#include "summation_plan.hpp"
#include "unroll_common.cuh"

#include "kl/grid.hpp"

namespace kl::reduction {
namespace {

template <unsigned int blockSize, class T>
__global__ void blkReduct(const T *arr, T *o, int n) {
  __shared__ T subArray[blockSize];
  int tidInBlock = threadIdx.x;
  int tidGlobal = blockIdx.x * blockSize * 2;
  tidGlobal += threadIdx.x;
  subArray[tidInBlock] = tidGlobal < n ? arr[tidGlobal] : T(0);
  T sElem = tidGlobal + static_cast<int>(blockSize) < n ? arr[tidGlobal + blockSize] : T(0);
  subArray[tidInBlock] += sElem;
  __syncthreads();
  int id = tidInBlock;
  unrolledTree<blockSize>(subArray, id);
  if (id < 32) warpReduceSynced<blockSize>(subArray, id);
  if (id == 0) atomicAdd(o, subArray[0]);
}

}  // namespace

void launch_complete_unrolling(const Args& args, cudaStream_t stream) {
  zero_output(args, stream);
  const auto blocks = static_cast<unsigned>(plan::shared_tree(args.shape.n, args.shape.block, 2).blocks);
  if (blocks == 0) return;
  with_dtype(args, [&](auto in, auto out) {
    with_block_size(args.shape.block, [&]<unsigned B>() {
      blkReduct<B><<<blocks, B, 0, stream>>>(in, out, static_cast<int>(args.shape.n));
    });
  });
}

}  // namespace kl::reduction
