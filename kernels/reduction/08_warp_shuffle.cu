// Teaches (beyond the seed): warp shuffles sum a warp in registers with no shared memory and no
// race to get wrong; shared memory holds only one value per warp. Grid-stride like 07.
// Seed: 004_f92a7ab1d28b5b9a.txt, the reduction ladder's next step (`__shfl_down_sync`).
#include "launchers.hpp"
#include "summation_plan.hpp"

#include "kl/grid.hpp"

namespace kl::reduction {
namespace {

template <class T>
__device__ T warpSum(T v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

template <class T>
__global__ void warpShuffleSum(const T *array, T *output, int n) {
  __shared__ T warpSums[32];
  T sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += array[i];
  sum = warpSum(sum);
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  if (lane == 0) warpSums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < static_cast<int>(blockDim.x / 32) ? warpSums[lane] : T(0);
    sum = warpSum(sum);
    if (lane == 0) atomicAdd(output, sum);
  }
}

}  // namespace

void launch_warp_shuffle(const Args& args, cudaStream_t stream) {
  zero_output(args, stream);
  const auto blocks = static_cast<unsigned>(plan::grid_stride_shuffles(args.shape.n, args.shape.block).blocks);
  if (blocks == 0) return;
  with_dtype(args, [&](auto in, auto out) {
    warpShuffleSum<<<blocks, args.shape.block, 0, stream>>>(in, out, static_cast<int>(args.shape.n));
  });
}

}  // namespace kl::reduction
