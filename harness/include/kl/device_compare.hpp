// Comparing two device buffers on the GPU: the bench's check of a timed run's output against the
// last output that passed, without downloading either (host-only header).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace kl {

// How many bytes of a[0..bytes) and b[0..bytes) differ (both device pointers), counted on the
// GPU; 0 means the buffers are identical. Synchronises with `stream`. `count` is one device word
// to count in (a caller that compares often keeps one; nullptr: allocated for this call).
std::uint64_t count_differing_bytes(const void* a, const void* b, std::size_t bytes,
                                    unsigned long long* count = nullptr, cudaStream_t stream = nullptr);

}  // namespace kl
