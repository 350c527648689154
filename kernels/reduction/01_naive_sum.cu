// Teaches: the simplest reduction, one atomicAdd per element; every add to the one result is
// serialised. Seed: 004_f92a7ab1d28b5b9a.txt, kernel `naiveSum`.
#include "launchers.hpp"
#include "summation_plan.hpp"

#include "kl/grid.hpp"
#include "kl/perturb_points.cuh"

namespace kl::reduction {
namespace {

template <class T>
__global__ void naiveSum(const T *input, T *output, int n) {
  KL_PERTURB_ENTRY();
  int idx = threadIdx.x;
  idx += blockIdx.x * blockDim.x;
  if (idx < n) {
    KL_PERTURB_POINT("an element is added to the output");
    atomicAdd(output, input[idx]);
  }
}

}  // namespace

void launch_naive_sum(const Args& args, cudaStream_t stream) {
  zero_output(args, stream);
  const auto blocks = static_cast<unsigned>(plan::one_atomic_per_element(args.shape.n, args.shape.block).blocks);
  if (blocks == 0) return;
  with_dtype(args, [&](auto in, auto out) {
    naiveSum<<<blocks, args.shape.block, 0, stream>>>(in, out, static_cast<int>(args.shape.n));
  });
}

}  // namespace kl::reduction
