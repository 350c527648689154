// Variant 0: CUB's DeviceReduce::Sum, the reference every rung's bandwidth is a share of.
// Not from a seed: the tuned library reduction the ladder is measured against.
#include "launchers.hpp"

#include "kl/device_buffer.hpp"

#include <cub/cub.cuh>

#include <cstddef>

namespace kl::reduction {

void launch_cub_sum(const Args& args, cudaStream_t stream) {
  with_dtype(args, [&](auto in, auto out) {
    const auto n = static_cast<int>(args.shape.n);
    std::size_t temp_bytes = 0;
    KL_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, n, stream));
    DeviceBuffer<std::byte> temp(temp_bytes);
    KL_CUDA_CHECK(cub::DeviceReduce::Sum(temp.data(), temp_bytes, in, out, n, stream));
    // The temporary storage is freed on return: wait so the reduction never reads freed memory.
    KL_CUDA_CHECK(cudaStreamSynchronize(stream));
  });
}

}  // namespace kl::reduction
