// Variant 0 of the family: the left sum computed on the host (check.cpp's left_sum_on_host),
// so the reference goes through the same registry, launcher and guarded-output checks as every
// kernel. Not from a seed: the oracle the ladder is checked against.
#include "launchers.hpp"

#include "kl/riemann.hpp"

namespace kl::riemann {

void launch_cpu_left_sum(const Args& args, cudaStream_t stream) {
  const double sum = left_sum_on_host(args.shape.n).sum;
  KL_CUDA_CHECK(cudaStreamSynchronize(stream));
  KL_CUDA_CHECK(cudaMemcpy(args.out, &sum, sizeof sum, cudaMemcpyHostToDevice));
}

}  // namespace kl::riemann
