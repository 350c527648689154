// Teaches: each thread adds two elements while loading, so no thread idles in the first step and
// half the blocks suffice. Fixes 02's idle half. Seed: 004_f92a7ab1d28b5b9a.txt, `blockReduction`
// with "two loads and addition" (the seed's BLOCKS = ceil(n/T)/2 drops a block for odd counts and
// reads past n: here blocks = ceil(n / 2T) and both loads are guarded).
#include "launchers.hpp"

namespace kl::reduction {
namespace {

template <class T>
__global__ void blockReduction(const T *array, T *output, int n) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T *subArray = reinterpret_cast<T *>(shared_bytes);
  int tidInBlock = threadIdx.x;
  int tidGlobal = blockIdx.x * blockDim.x * 2;
  tidGlobal += threadIdx.x;
  subArray[tidInBlock] = tidGlobal < n ? array[tidGlobal] : T(0);
  T sElem = tidGlobal + static_cast<int>(blockDim.x) < n ? array[tidGlobal + blockDim.x] : T(0);
  subArray[tidInBlock] += sElem;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tidInBlock < stride) {
      subArray[tidInBlock] += subArray[tidInBlock + stride];
    }
    __syncthreads();
  }
  if (tidInBlock == 0) {
    atomicAdd(output, subArray[0]);
  }
}

}  // namespace

void launch_first_add_during_load(const Args& args, cudaStream_t stream) {
  launch_shared_tree_rung(args, stream, 2, blockReduction<int>, blockReduction<float>);
}

}  // namespace kl::reduction
