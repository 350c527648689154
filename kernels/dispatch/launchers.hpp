// Launchers of the dispatch kernels; the registry (registry.cpp) is their only caller.
#pragma once

#include "kl/dispatch_args.hpp"

#include <cuda_runtime_api.h>

namespace kl::dispatch {
void launch_cpu_oracle(const Args& args, cudaStream_t stream);
void launch_record_thread_coords(const Args& args, cudaStream_t stream);
void launch_record_thread_coords_guarded(const Args& args, cudaStream_t stream);
}  // namespace kl::dispatch
