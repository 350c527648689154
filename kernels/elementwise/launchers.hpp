// Launchers of the elementwise kernels; the registry (registry.cpp) is their only caller.
#pragma once

#include "kl/elementwise_args.hpp"

#include <cuda_runtime_api.h>

namespace kl::elementwise {
void launch_add_unguarded(const Args& args, cudaStream_t stream);
void launch_add(const Args& args, cudaStream_t stream);
void launch_exp(const Args& args, cudaStream_t stream);
void launch_add_vectorized(const Args& args, cudaStream_t stream);
void launch_exp_vectorized(const Args& args, cudaStream_t stream);
void launch_cpu_oracle_add(const Args& args, cudaStream_t stream);
void launch_cpu_oracle_exp(const Args& args, cudaStream_t stream);
}  // namespace kl::elementwise
