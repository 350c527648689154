// Launchers of the quicksort kernels; the registry (registry.cpp) is their only caller.
#pragma once

#include "kl/quicksort_args.hpp"

#include <cuda_runtime_api.h>

namespace kl::quicksort {
void launch_cpu_oracle(const Args& args, cudaStream_t stream);
void launch_qs_gpu_seed(const Args& args, cudaStream_t stream);
void launch_qs_gpu(const Args& args, cudaStream_t stream);
}  // namespace kl::quicksort
