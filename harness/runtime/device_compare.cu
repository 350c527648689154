// kl::count_differing_bytes (kl/device_compare.hpp): a grid-stride comparison, 16 bytes a load
// where both buffers allow it, one byte at a time where they do not.
#include "kl/check.hpp"
#include "kl/device_buffer.hpp"
#include "kl/device_compare.hpp"

#include <algorithm>

namespace kl {
namespace {

__device__ unsigned differing_bytes(uint4 x, uint4 y) {
  unsigned n = 0;
  for (const unsigned d : {x.x ^ y.x, x.y ^ y.y, x.z ^ y.z, x.w ^ y.w})
    for (int byte = 0; byte < 4; ++byte) n += ((d >> (8 * byte)) & 0xffu) != 0;
  return n;
}

// Vectors of 16 bytes in [0, vectors), then single bytes in [first_byte, bytes).
__global__ void count_differences(const unsigned char* a, const unsigned char* b, std::size_t vectors,
                                  std::size_t first_byte, std::size_t bytes, unsigned long long* count) {
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t tid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long mine = 0;
  const auto* va = reinterpret_cast<const uint4*>(a);
  const auto* vb = reinterpret_cast<const uint4*>(b);
  for (std::size_t i = tid; i < vectors; i += threads) mine += differing_bytes(va[i], vb[i]);
  for (std::size_t i = first_byte + tid; i < bytes; i += threads) mine += a[i] != b[i];
  for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_down_sync(0xffffffffu, mine, offset);
  if (threadIdx.x % 32 == 0 && mine != 0) atomicAdd(count, mine);
}

}  // namespace

std::uint64_t count_differing_bytes(const void* a, const void* b, std::size_t bytes, unsigned long long* count,
                                    cudaStream_t stream) {
  if (bytes == 0) return 0;
  const auto* pa = static_cast<const unsigned char*>(a);
  const auto* pb = static_cast<const unsigned char*>(b);
  const bool aligned = reinterpret_cast<std::uintptr_t>(pa) % 16 == 0 && reinterpret_cast<std::uintptr_t>(pb) % 16 == 0;
  const std::size_t vectors = aligned ? bytes / 16 : 0;
  DeviceBuffer<unsigned long long> own_count(count == nullptr ? 1 : 0);
  if (count == nullptr) count = own_count.data();
  KL_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned long long), stream));
  constexpr int block = 256;
  const std::size_t work = std::max<std::size_t>(vectors, bytes - 16 * vectors);
  const auto blocks = static_cast<unsigned>(std::clamp<std::size_t>((work + block - 1) / block, 1, 4096));
  count_differences<<<blocks, block, 0, stream>>>(pa, pb, vectors, 16 * vectors, bytes, count);
  KL_CUDA_CHECK(cudaGetLastError());
  unsigned long long n = 0;
  KL_CUDA_CHECK(cudaMemcpyAsync(&n, count, sizeof n, cudaMemcpyDeviceToHost, stream));
  KL_CUDA_CHECK(cudaStreamSynchronize(stream));
  return n;
}

}  // namespace kl
