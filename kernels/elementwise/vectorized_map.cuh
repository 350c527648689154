// What the vectorised elementwise rungs (04 add, 05 exp) share: a grid-stride loop over 16-byte
// float4 vectors (with a grid of one vector per thread, so each thread loads its vector, computes
// and stores it once), with the elements before the first 16-byte boundary (the head) and after
// the last whole vector (the tail) done one by one.
// One float4 load serves four elements only where a, b and out sit at the same offset from a
// 16-byte boundary; when they do not (a view that starts one float into an array, say), no
// vector is read and the same loop runs over single floats: right at every offset, fast at the
// common one.
#pragma once

#include "launchers.hpp"

#include "kl/cuda_check.hpp"
#include "kl/grid.hpp"

#include <algorithm>
#include <cstdint>

namespace kl::elementwise {

// Elements before the first 16-byte boundary common to every pointer, or n when the pointers
// are at different offsets from one (then every element is done one by one).
inline long long vector_head(long long n, std::initializer_list<const void*> pointers) {
  const std::int64_t first = head_to_16_bytes(*pointers.begin(), 4);
  for (const void* p : pointers)
    if (head_to_16_bytes(p, 4) != first) return n;
  return std::min<long long>(n, first);
}

// out[i] = f(a[i], b[i]) for i < n (F::binary false: f(a[i]), and b is never read); a + head,
// b + head and out + head are 16-byte aligned (or head == n).
template <class F>
__global__ void vectorized_map(const float* a, const float* b, float* out, long long n, long long head, F f) {
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const auto at = [&](long long i) {
    if constexpr (F::binary) return f(a[i], b[i]);
    else return f(a[i]);
  };
  for (long long i = tid; i < head; i += threads) out[i] = at(i);
  const long long vectors = (n - head) / 4;
  const auto* va = reinterpret_cast<const float4*>(a + head);
  const auto* vb = reinterpret_cast<const float4*>(b + head);
  auto* vout = reinterpret_cast<float4*>(out + head);
  // The vector at index i, computed: both loads issued before any arithmetic.
  const auto vector_at = [&](long long i) {
    if constexpr (F::binary) {
      const float4 x = va[i], y = vb[i];
      return make_float4(f(x.x, y.x), f(x.y, y.y), f(x.z, y.z), f(x.w, y.w));
    } else {
      const float4 x = va[i];
      return make_float4(f(x.x), f(x.y), f(x.z), f(x.w));
    }
  };
  for (long long i = tid; i < vectors; i += threads) vout[i] = vector_at(i);
  for (long long j = head + 4 * vectors + tid; j < n; j += threads) out[j] = at(j);
}

// The grid: one float4 per thread, every vector covered by one launch wave after another. Measured
// on the H100 at 2^26 (share of the copy): this full grid gave add 101%, exp 99.1-99.8%; a grid
// of what the GPU holds at once looping over the rest (two vectors in flight per thread) gave
// add 95.3-97.5%, exp 93.3-94.4%; with four in flight, or half that grid with four, no better;
// __ldcs/__stcs streaming hints cost 3-4 points. Past 2^31 - 1 blocks (n > 2^41 at 1024
// threads) the loop would cover the rest; the family's n stops far below.
inline unsigned vectorized_grid(long long n, int block) {
  const long long wanted = (n + 4LL * block - 1) / (4LL * block);
  return static_cast<unsigned>(std::clamp<long long>(wanted, 1, 0x7fffffffLL));
}

template <class F>
void launch_vectorized_map(const Args& args, cudaStream_t stream, F f) {
  const long long n = args.shape.n;
  if (n == 0) return;
  const long long head =
      F::binary ? vector_head(n, {args.a, args.b, args.out}) : vector_head(n, {args.a, args.out});
  vectorized_map<<<vectorized_grid(n, args.shape.block), args.shape.block, 0, stream>>>(args.a, args.b, args.out, n,
                                                                                       head, f);
}

}  // namespace kl::elementwise
