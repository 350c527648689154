// Device helper shared by the block-level sync kernels. Include from .cu files only.
#pragma once

namespace kl::sync {

// Counts this thread as through (passed[] starts at zero). The last thread to get through writes
// the count it saw, so out[b] == blockDim.x proves that every thread finished, and an unwritten
// (poisoned) slot shows that some did not.
__device__ inline void publish_passed(unsigned* passed, int* out) {
  const unsigned count = atomicAdd(&passed[blockIdx.x], 1u) + 1;
  if (count == blockDim.x) out[blockIdx.x] = static_cast<int>(count);
}

}  // namespace kl::sync
