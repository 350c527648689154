// Teaches: global memory written by thread index. Fixes: the seed launches one block of
// N = 1024 threads, idx = threadIdx.x; here a guarded grid fills any n.
// Seed: 004_f92a7ab1d28b5b9a.txt, kernel `fill_arr`.
#include "launchers.hpp"

namespace kl::basics {
namespace {

__global__ void fill_arr(int *arr, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n) return;
  // accessing value in global memory
  arr[idx] = idx * 2;
}

}  // namespace

void launch_fill_arr(const Args& args, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(grid_1d(args.shape.cols, args.shape.block.x));
  if (blocks == 0) return;
  fill_arr<<<blocks, args.shape.block.x, 0, stream>>>(static_cast<int*>(args.out), args.shape.cols);
}

}  // namespace kl::basics
