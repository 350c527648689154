// Teaches: over-launching. 1000 elements in blocks of 128 need 8 blocks = 1024 threads; with no
// guard the last 24 threads read and write past the arrays. PLANTED BUG: kept as written.
// Seed: 000_4eb26088713d3cd0.txt, kernel `add` (no bounds guard).
#include "launchers.hpp"

#include "kl/grid.hpp"

namespace kl::elementwise {
namespace {

__global__ void add(const float *a, const float *b, float *c) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  c[gid] = a[gid] + b[gid];
}

}  // namespace

void launch_add_unguarded(const Args& args, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(grid_1d(args.shape.n, args.shape.block));
  if (blocks == 0) return;
  add<<<blocks, args.shape.block, 0, stream>>>(args.a, args.b, args.out);
}

}  // namespace kl::elementwise
