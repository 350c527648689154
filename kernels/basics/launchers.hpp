// Launchers of the basics kernels; the registry (registry.cpp) is their only caller.
#pragma once

#include "kl/basics_args.hpp"

#include <cuda_runtime_api.h>

namespace kl::basics {
void launch_cpu_oracle(const Args& args, cudaStream_t stream);
void launch_hello(const Args& args, cudaStream_t stream);
void launch_fill_arr(const Args& args, cudaStream_t stream);
void launch_matr_seed_launch(const Args& args, cudaStream_t stream);
void launch_matr(const Args& args, cudaStream_t stream);
void launch_sum_matr(const Args& args, cudaStream_t stream);
void launch_coalesced(const Args& args, cudaStream_t stream);
void launch_non_coalesced(const Args& args, cudaStream_t stream);
void launch_sh_mem_ex(const Args& args, cudaStream_t stream);
void launch_vector_dot_product(const Args& args, cudaStream_t stream);
void launch_atomic_counter(const Args& args, cudaStream_t stream);
void launch_fill_vectorized(const Args& args, cudaStream_t stream);
}  // namespace kl::basics
