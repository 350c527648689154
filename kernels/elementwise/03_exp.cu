// Teaches: the canonical guarded 1-D elementwise kernel (what torch.exp compiles to).
// Seed: 002_546f08ca611913b2.txt, kernel `exp_kernel` (launched there as <<<16, 256>>> for 4096).
#include "launchers.hpp"

#include "kl/grid.hpp"

namespace kl::elementwise {
namespace {

__global__ void exp_kernel(float* out, const float* in, int N) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < N) out[tid] = expf(in[tid]);
}

}  // namespace

void launch_exp(const Args& args, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(grid_1d(args.shape.n, args.shape.block));
  if (blocks == 0) return;
  exp_kernel<<<blocks, args.shape.block, 0, stream>>>(args.out, args.a,
                                                      static_cast<int>(args.shape.n));
}

}  // namespace kl::elementwise
