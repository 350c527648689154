// Launchers of the Riemann rungs; the registry (registry.cpp) is their only caller.
#pragma once

#include "kl/cuda_check.hpp"
#include "kl/riemann_args.hpp"

#include <cstdint>

namespace kl::riemann {

// Every GPU rung adds into the result with atomicAdd, so it starts from +0.0 (all-zero bits).
inline void zero_output(const Args& args, cudaStream_t stream) {
  KL_CUDA_CHECK(cudaMemsetAsync(args.out, 0, sizeof(double), stream));
}

// Blocks of `block` threads that fill the GPU once with `kernel` (occupancy x SMs), and no more
// than n threads need. Cached per (device, kernel, block): the grid-stride rungs ask on every
// launch and the CLI times many launches.
unsigned resident_grid(const void* kernel, int block, std::int64_t n);

// The seed's naiveRiemannSum (01_naive_atomic.cu) under either grid: rung 02 differs only there.
enum class SeedGrid { one_thread_per_interval, fill_gpu_once };
void launch_naive_riemann_sum(const Args& args, cudaStream_t stream, SeedGrid grid);

void launch_cpu_left_sum(const Args& args, cudaStream_t stream);
void launch_naive_atomic(const Args& args, cudaStream_t stream);
void launch_grid_stride(const Args& args, cudaStream_t stream);
void launch_unrolled(const Args& args, cudaStream_t stream);
void launch_warp_optimised(const Args& args, cudaStream_t stream);
void launch_shared_memory(const Args& args, cudaStream_t stream);

}  // namespace kl::riemann
