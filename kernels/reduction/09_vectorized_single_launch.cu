// Teaches (beyond the seeds): what a reduction needs to read at the bandwidth limit and to pay
// one launch at any n.
//  - 16-byte loads (float4 / int4): a quarter of the load instructions of rung 08. The input
//    need only be 4-byte aligned, so the elements before the first 16-byte boundary (the head,
//    0..3 of them) and those after the last whole vector (the tail) are read one by one.
//  - Four vectors in flight per thread per step: each thread issues four independent loads
//    before it adds any of them, so enough bytes are in flight to cover DRAM latency.
//  - Warp shuffles for the block's sum (rung 08's lesson).
//  - A single-launch finish: each block stores its partial sum, and the last block to finish
//    (counted with one acquire-release atomic ticket) adds the partials and writes the result. No
//    cudaMemset of the output first, no second kernel: small n pays one launch, and the float
//    sum is the same on every run (the partials are added in block order).
// Seed: 004_f92a7ab1d28b5b9a.txt (the ladder this climbs past); the last-block-done pattern is
// the CUDA samples' threadFenceReduction.
// Planted beside it (reduction.relaxed_ticket): the same kernel with the ticket taken relaxed and
// no fence, so nothing orders a block's partial before its ticket and the last block can add a
// stale partial. On the H100 the store and the atomic reach L2 in order nearly always: every
// test and all four sanitizers pass it. The perturbation build holds the partial back past the
// relaxed ticket, as the memory model allows, and the sum comes out wrong.
#include "vector_sum.cuh"
#include "launchers.hpp"
#include "summation_plan.hpp"

#include "kl/grid.hpp"
#include "kl/perturb.cuh"

#include <cuda/atomic>

#include <type_traits>

namespace kl::reduction {
namespace {

// The finish's scratch: one partial per block and the count of blocks that have stored theirs,
// one set per dtype. Static device memory, so a launch allocates nothing. The last block resets
// its count to 0, so the next launch starts from zero; two launches of this rung on the same
// dtype must therefore not overlap (different streams at once): the lab launches one at a time.
__device__ float float_partials[plan::max_vectorized_blocks];
__device__ int int_partials[plan::max_vectorized_blocks];
__device__ unsigned int float_blocks_done = 0;
__device__ unsigned int int_blocks_done = 0;

__device__ float* partials(float) { return float_partials; }
__device__ int* partials(int) { return int_partials; }
__device__ unsigned int* blocks_done(float) { return &float_blocks_done; }
__device__ unsigned int* blocks_done(int) { return &int_blocks_done; }

// The single-launch finish: the block's total becomes the output directly when the grid is one
// block; otherwise it is stored, and the block that takes the last ticket adds every partial.
// The ticket is one acquire-release atomic: its release half publishes this block's partial
// before the count says so, its acquire half (in the last block, passed on to the block's other
// threads by the barrier) orders the reads of every partial after their stores. Two
// __threadfence() calls around a relaxed atomicAdd did the same at 2^16 about 6% slower (H100).
// __ldcg reads from L2, past an L1 that is not coherent across SMs.
// ticket_order is the ticket's memory order: acq_rel for the rung, relaxed for the planted twin.
template <class T, cuda::memory_order ticket_order>
__device__ void finish(T block_total, T* out) {
  if (gridDim.x == 1) {
    if (threadIdx.x == 0) *out = block_total;
    return;
  }
  __shared__ bool is_last;
  T* block_partials = partials(T{});
  if (threadIdx.x == 0) {
    perturb::Publisher publish;
    publish.store(&block_partials[blockIdx.x], block_total);
    is_last = publish.fetch_add(blocks_done(T{}), 1u, ticket_order) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last) return;
  KL_PERTURB_POINT("the last block reads the partials");
  T sum = T(0);
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) sum += __ldcg(&block_partials[b]);
  sum = block_sum(sum);
  if (threadIdx.x == 0) {
    *out = sum;
    *blocks_done(T{}) = 0;
  }
}

template <class T, cuda::memory_order ticket_order>
__global__ void vectorized_sum(const T* in, T* out, long long n, int head) {
  KL_PERTURB_ENTRY();
  const T sum = block_sum(thread_sum(in, n, head));
  __syncthreads();  // block_sum's shared memory is used again by the finish
  finish<T, ticket_order>(sum, out);
}

template <cuda::memory_order ticket_order>
void launch_with_ticket(const Args& args, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(plan::vectorized_single_launch(args.shape.n, args.shape.block).blocks);
  with_dtype(args, [&](auto in, auto out) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(in)>>;
    const auto head = static_cast<int>(head_to_16_bytes(in, args.shape.n));
    vectorized_sum<T, ticket_order>
        <<<blocks, args.shape.block, 0, stream>>>(in, out, static_cast<long long>(args.shape.n), head);
  });
}

}  // namespace

void launch_vectorized_single_launch(const Args& args, cudaStream_t stream) {
  launch_with_ticket<cuda::memory_order_acq_rel>(args, stream);
}

void launch_relaxed_ticket(const Args& args, cudaStream_t stream) {
  launch_with_ticket<cuda::memory_order_relaxed>(args, stream);
}

}  // namespace kl::reduction
