// Teaches: a tree sum per block in shared memory (interleaved, `tid < stride`), one atomicAdd
// per block instead of per element. Seed: 004_f92a7ab1d28b5b9a.txt, kernel `blockReduction`
// (the seed loads array[tidGlobal] unguarded; here n is a parameter and the tail loads 0).
#include "launchers.hpp"

#include "kl/geometry.hpp"

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
  zero_output(args, stream);
  const auto blocks = static_cast<unsigned>(grid_1d(args.shape.n, args.shape.block));
  if (blocks == 0) return;
  const std::size_t shared = static_cast<std::size_t>(args.shape.block) * 4;
  with_dtype(args, [&](auto in, auto out) {
    blockReduction<<<blocks, args.shape.block, shared, stream>>>(in, out, static_cast<int>(args.shape.n));
  });
}

}  // namespace kl::reduction
