// Teaches: grid-stride work distribution: the seed's naiveRiemannSum launched with just enough
// blocks to fill the GPU once (occupancy x SMs), so each thread sums many rectangles in a
// register and issues one atomicAdd, instead of one per interval as in rung 01.
// Seed: 004_f92a7ab1d28b5b9a.txt, "Grid-Stride Optimization" of section 10.3 (Figure 25), on the
// seed's `naiveRiemannSum` loop.
#include "launchers.hpp"

namespace kl::riemann {

void launch_grid_stride(const Args& args, cudaStream_t stream) {
  launch_naive_riemann_sum(args, stream, SeedGrid::fill_gpu_once);
}

}  // namespace kl::riemann
