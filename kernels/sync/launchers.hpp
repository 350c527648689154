// Launchers and kernel handles of the sync family; the registry (registry.cpp) is their only caller.
#pragma once

#include "kl/sync_args.hpp"

#include <cuda_runtime_api.h>

namespace kl::sync {
void launch_cpu_oracle(const Args& args, cudaStream_t stream);
void launch_spinlock_seed(const Args& args, cudaStream_t stream);
void launch_intra_block_deadlock(const Args& args, cudaStream_t stream);
void launch_grid_barrier(const Args& args, cudaStream_t stream);
void launch_grid_barrier_cooperative(const Args& args, cudaStream_t stream);
void launch_divergent_barrier(const Args& args, cudaStream_t stream);
void launch_uniform_barrier(const Args& args, cudaStream_t stream);
void launch_grid_barrier_rotating(const Args& args, cudaStream_t stream);
void launch_grid_barrier_early_reset(const Args& args, cudaStream_t stream);

// Launches `kernel` (the family's signature: seen, arrived, watchdog) cooperatively, every block
// resident; a grid above the co-resident capacity is refused with std::invalid_argument naming
// `variant_id`, the grid and the capacity (cudaErrorCooperativeLaunchTooLarge, cleared).
void launch_cooperatively(const void* kernel, const char* variant_id, const Args& args, cudaStream_t stream);

const void* spinlock_seed_kernel();
const void* intra_block_deadlock_kernel();
const void* grid_barrier_kernel();
const void* grid_barrier_cooperative_kernel();
const void* divergent_barrier_kernel();
const void* uniform_barrier_kernel();
const void* grid_barrier_rotating_kernel();
const void* grid_barrier_early_reset_kernel();
}  // namespace kl::sync
