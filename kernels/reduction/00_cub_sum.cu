// Variant 0: CUB's DeviceReduce::Sum, the reference every rung's bandwidth is a share of.
// Not from a seed: the tuned library reduction the ladder is measured against.
#include "launchers.hpp"

#include "kl/device_buffer.hpp"

#include <cub/cub.cuh>

#include <cstddef>

namespace kl::reduction {
namespace {

// CUB's temporary storage, kept between launches so a launch is the reduction alone: no
// cudaMalloc, and no synchronisation before a free, inside a timed region. Reallocated at
// exactly the size asked for whenever it changes (cudaFree waits for pending work first).
void* temp_storage(std::size_t bytes) {
  static DeviceBuffer<std::byte> storage;
  if (storage.size() != bytes) {
    storage = DeviceBuffer<std::byte>();
    storage = DeviceBuffer<std::byte>(bytes);
  }
  return storage.data();
}

}  // namespace

void launch_cub_sum(const Args& args, cudaStream_t stream) {
  with_dtype(args, [&](auto in, auto out) {
    const auto n = static_cast<int>(args.shape.n);
    std::size_t temp_bytes = 0;
    KL_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, n, stream));
    KL_CUDA_CHECK(cub::DeviceReduce::Sum(temp_storage(temp_bytes), temp_bytes, in, out, n, stream));
  });
}

}  // namespace kl::reduction
