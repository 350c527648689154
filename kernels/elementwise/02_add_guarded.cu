// Teaches: the bounds guard that makes over-launching safe; fixes 01's out-of-bounds accesses.
// The seed hard-codes 1000 elements; here n is a parameter.
// Seed: 003_2eb1131b3d611900.txt, kernel `add` (`if (gid >= 1000) return;`).
#include "launchers.hpp"

#include "kl/grid.hpp"

namespace kl::elementwise {
namespace {

__global__ void add(const float *a, const float *b, float *c, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= n) return;
  c[gid] = a[gid] + b[gid];
}

}  // namespace

void launch_add(const Args& args, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(grid_1d(args.shape.n, args.shape.block));
  if (blocks == 0) return;
  add<<<blocks, args.shape.block, 0, stream>>>(args.a, args.b, args.out,
                                               static_cast<int>(args.shape.n));
}

}  // namespace kl::elementwise
