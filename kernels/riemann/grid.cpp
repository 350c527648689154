// The grid-stride rungs' launch size: one full wave of resident blocks.
#include "launchers.hpp"

#include "kl/riemann.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

namespace kl::riemann {

unsigned resident_grid(const void* kernel, int block, std::int64_t n) {
  static std::mutex mutex;
  static std::map<std::tuple<int, const void*, int>, std::int64_t> cache;
  int device = 0;
  KL_CUDA_CHECK(cudaGetDevice(&device));
  const std::tuple<int, const void*, int> key{device, kernel, block};
  std::int64_t capacity = 0;
  {
    const std::lock_guard lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) capacity = it->second;
  }
  if (capacity == 0) {
    int per_sm = 0, sms = 0;
    KL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
    KL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    capacity = std::max<std::int64_t>(1, std::int64_t{per_sm} * sms);
    const std::lock_guard lock(mutex);
    cache[key] = capacity;
  }
  const std::int64_t covering = (n + block - 1) / block;
  return static_cast<unsigned>(std::max<std::int64_t>(1, std::min(capacity, covering)));
}

}  // namespace kl::riemann
