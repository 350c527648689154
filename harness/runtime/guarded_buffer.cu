// Device-side fill for kl::GuardedBuffer: poison and canary words are written by a kernel so
// that poisoning a 1 GB output costs microseconds, not a host-to-device copy.
#include "kl/guarded_buffer.hpp"

#include <stdexcept>

namespace kl::detail {
namespace {

template <class Word>
__global__ void fill_words_kernel(Word* dst, std::size_t count, Word pattern) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x)
    dst[i] = pattern;
}

template <class Word>
void fill(void* dst, std::size_t count, std::uint64_t pattern, cudaStream_t stream) {
  if (count == 0) return;
  constexpr int threads = 256;
  const auto blocks = static_cast<unsigned>(std::min<std::size_t>((count + threads - 1) / threads, 65535));
  fill_words_kernel<Word><<<blocks, threads, 0, stream>>>(static_cast<Word*>(dst), count,
                                                           static_cast<Word>(pattern));
  KL_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void fill_words(void* dst, std::size_t count, std::size_t bytes_per_word, std::uint64_t pattern,
                cudaStream_t stream) {
  switch (bytes_per_word) {
    case 2: return fill<std::uint16_t>(dst, count, pattern, stream);
    case 4: return fill<std::uint32_t>(dst, count, pattern, stream);
    case 8: return fill<std::uint64_t>(dst, count, pattern, stream);
    default: throw std::invalid_argument("fill_words: element size must be 2, 4 or 8 bytes");
  }
}

}  // namespace kl::detail
