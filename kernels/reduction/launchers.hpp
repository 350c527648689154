// Launchers of the reduction kernels; the registry (registry.cpp) is their only caller.
#pragma once

#include "kl/cuda_check.hpp"
#include "kl/reduction_args.hpp"

#include <cstdint>

namespace kl::reduction {

// Calls f(in, out) with the pointers typed by the shape's dtype: each rung is one template
// over int and float.
template <class F>
void with_dtype(const Args& a, F&& f) {
  if (a.shape.dtype == Dtype::i32)
    f(static_cast<const int*>(a.in), static_cast<int*>(a.out));
  else
    f(static_cast<const float*>(a.in), static_cast<float*>(a.out));
}

// Rungs that combine block sums with atomicAdd start from 0 (all-zero bits is 0 for int and float).
inline void zero_output(const Args& a, cudaStream_t stream) {
  KL_CUDA_CHECK(cudaMemsetAsync(a.out, 0, 4, stream));
}

// Rungs 02..05 (shared_tree_launch.cu): zero the output, then launch the rung's kernel for the
// shape's dtype on ceil(n / (elems_per_thread x block)) blocks with one int or float of dynamic
// shared memory per thread.
using IntRungKernel = void (*)(const int*, int*, int);
using FloatRungKernel = void (*)(const float*, float*, int);
void launch_shared_tree_rung(const Args& args, cudaStream_t stream, int elems_per_thread, IntRungKernel int_kernel,
                             FloatRungKernel float_kernel);

void launch_cub_sum(const Args& args, cudaStream_t stream);
void launch_naive_sum(const Args& args, cudaStream_t stream);
void launch_block_reduction(const Args& args, cudaStream_t stream);
void launch_first_add_during_load(const Args& args, cudaStream_t stream);
void launch_unroll_last_warp(const Args& args, cudaStream_t stream);
void launch_unroll_last_warp_no_volatile(const Args& args, cudaStream_t stream);
void launch_last_warp_syncwarp(const Args& args, cudaStream_t stream);
void launch_complete_unrolling(const Args& args, cudaStream_t stream);
void launch_grid_stride(const Args& args, cudaStream_t stream);
void launch_warp_shuffle(const Args& args, cudaStream_t stream);
void launch_vectorized_single_launch(const Args& args, cudaStream_t stream);
void launch_bulk_copy_ring(const Args& args, cudaStream_t stream);
// Planted twins of rungs 09 and 10, each one ordering step short (see their files).
void launch_relaxed_ticket(const Args& args, cudaStream_t stream);
void launch_add_before_zero(const Args& args, cudaStream_t stream);
void launch_relaxed_zero_flag(const Args& args, cudaStream_t stream);

// Rung 10's plan for a shape on this process's GPU (its grid depends on what the GPU holds at
// once), which its launch and its error bound both follow; "" when this GPU runs rung 10, else
// why it does not apply.

}  // namespace kl::reduction
