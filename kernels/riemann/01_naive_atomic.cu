// Teaches: the naive left Riemann sum: one thread per interval, each adding its rectangle to the
// one double result with atomicAdd, so N atomics on one address are serialised (the slowest bar
// of the seed's Figure 25). Seed: 004_f92a7ab1d28b5b9a.txt, kernel `naiveRiemannSum`
// (section 10.3); the seed's `int` index is 64-bit here so the stride cannot overflow.
#include "device_common.cuh"
#include "launchers.hpp"

#include "kl/grid.hpp"

namespace kl::riemann {
namespace {

__global__ void naiveRiemannSum(double a, double dx, long long N, double *result) {
  long long idx = static_cast<long long>(blockIdx.x) * blockDim.x;
  idx += threadIdx.x;

  double sum = 0.0;
  // Each thread processes multiple intervals using a grid-stride loop (the seed's comment is cut
  // off here); under this rung's launch, one thread per interval, the loop runs at most once.
  for (long long i = idx; i < N; i += static_cast<long long>(blockDim.x) * gridDim.x) {
    double x = a + i * dx;
    sum += f(x) * dx;
  }

  atomicAdd(result, sum);
}

}  // namespace

void launch_naive_riemann_sum(const Args& args, cudaStream_t stream, SeedGrid grid) {
  zero_output(args, stream);
  const int block = args.shape.block;
  const auto blocks = grid == SeedGrid::one_thread_per_interval
                          ? static_cast<unsigned>(grid_1d(args.shape.n, block))
                          : resident_grid(reinterpret_cast<const void*>(naiveRiemannSum), block, args.shape.n);
  naiveRiemannSum<<<blocks, block, 0, stream>>>(a, step(args.shape.n), args.shape.n, args.out);
}

void launch_naive_atomic(const Args& args, cudaStream_t stream) {
  launch_naive_riemann_sum(args, stream, SeedGrid::one_thread_per_interval);
}

}  // namespace kl::riemann
