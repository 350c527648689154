// Teaches (beyond the seeds): a write-only kernel at the write-bandwidth limit. fill_arr (02)
// stores 4 bytes per thread, one thread per element; here each thread stores 16-byte int4
// vectors in a grid-stride loop (two in flight), the grid no larger than the GPU holds at once.
// The elements before the output's first 16-byte boundary and after its last whole vector are
// stored one by one, in grid-stride loops like the body's, so any 4-byte-aligned output works
// with any grid (a grid of one thread still stores a 3-element head and tail). Read against
// cudaMemset of the same bytes, the fastest write the driver has.
// Seed: 004_f92a7ab1d28b5b9a.txt, kernel `fill_arr` (the same values: arr[idx] = idx * 2).
#include "launchers.hpp"

#include "kl/cuda_check.hpp"
#include "kl/device_facts.hpp"
#include "kl/grid.hpp"

#include <algorithm>
#include <map>

namespace kl::basics {
namespace {

__global__ void fill_vectorized(int* arr, long long n, long long head) {
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  // Head and tail hold up to 3 elements each, more than a grid of 1 or 2 threads (block 1 or 2
  // with n <= 8) covers at one element per thread: loop over the grid as the body does.
  for (long long i = tid; i < head; i += threads) arr[i] = static_cast<int>(i * 2);
  const long long vectors = (n - head) / 4;
  auto* body = reinterpret_cast<int4*>(arr + head);
  // Element head + 4i + j holds 2 * (head + 4i + j).
  const auto vector_at = [head](long long i) {
    const int first = static_cast<int>(2 * (head + 4 * i));
    return make_int4(first, first + 2, first + 4, first + 6);
  };
  long long i = tid;
  for (; i + threads < vectors; i += 2 * threads) {
    body[i] = vector_at(i);
    body[i + threads] = vector_at(i + threads);
  }
  if (i < vectors) body[i] = vector_at(i);
  for (long long j = head + 4 * vectors + tid; j < n; j += threads) arr[j] = static_cast<int>(j * 2);
}

// Blocks of `block` threads the GPU holds at once, asked once per block size.
int resident_blocks(int block) {
  static std::map<int, int> resident;
  auto it = resident.find(block);
  if (it == resident.end())
    it = resident.emplace(block, co_resident_capacity(reinterpret_cast<const void*>(&fill_vectorized), block)).first;
  return it->second;
}

}  // namespace

void launch_fill_vectorized(const Args& args, cudaStream_t stream) {
  const long long n = args.shape.cols;
  if (n == 0) return;
  auto* out = static_cast<int*>(args.out);
  const long long head = head_to_16_bytes(out, n);
  const long long wanted = (n + 4LL * args.shape.block.x - 1) / (4LL * args.shape.block.x);
  const auto blocks = static_cast<unsigned>(std::max(1LL, std::min<long long>(wanted, resident_blocks(args.shape.block.x))));
  fill_vectorized<<<blocks, args.shape.block.x, 0, stream>>>(out, n, head);
}

}  // namespace kl::basics
