// Variant 0 of the family: std::sort on the host, run on the device buffer through the
// same registry and checks as the kernels.
#include "launchers.hpp"

#include "kl/quicksort.hpp"

#include <algorithm>
#include <vector>

namespace kl::quicksort {

void launch_cpu_oracle(const Args& args, cudaStream_t stream) {
  const auto n = static_cast<std::size_t>(args.shape.n);
  KL_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (n == 0) return;
  std::vector<int> host(n);
  KL_CUDA_CHECK(cudaMemcpy(host.data(), args.data, n * sizeof(int), cudaMemcpyDeviceToHost));
  std::sort(host.begin(), host.end());
  KL_CUDA_CHECK(cudaMemcpy(args.data, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
}

}  // namespace kl::quicksort
