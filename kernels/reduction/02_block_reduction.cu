// Teaches: a tree sum per block in shared memory (interleaved, `tid < stride`), one atomicAdd
// per block instead of per element. Seed: 004_f92a7ab1d28b5b9a.txt, kernel `blockReduction`
// (the seed loads array[tidGlobal] unguarded; here n is a parameter and the tail loads 0).
#include "launchers.hpp"

namespace kl::reduction {
namespace {

template <class T>
__global__ void blockReduction(const T *array, T *output, int n) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T *subArray = reinterpret_cast<T *>(shared_bytes);
  int tidInBlock = threadIdx.x;
  int tidGlobal = blockIdx.x * blockDim.x;
  tidGlobal += threadIdx.x;
  subArray[tidInBlock] = tidGlobal < n ? array[tidGlobal] : T(0);
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

void launch_block_reduction(const Args& args, cudaStream_t stream) {
  launch_shared_tree_rung(args, stream, 1, blockReduction<int>, blockReduction<float>);
}

}  // namespace kl::reduction
