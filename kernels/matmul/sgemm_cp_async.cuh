// What the SGEMM ladder's pipelined rungs (25-27) and the mma.sync rung (32) share: cp.async copies global -> shared that
// bypass registers, their commit groups, and the launch of a kernel whose tiles need more than
// the default 48 KB of dynamic shared memory.
#pragma once

#include "launchers.hpp"
#include "sgemm_whole_tiles.hpp"

#include "kl/cuda_check.hpp"

namespace kl::matmul::cp_async {

// 4 bytes global -> shared (.ca: the only cache level a 4-byte copy may use).
__device__ inline void copy4(float* shared, const float* global) {
  const auto address = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(address), "l"(global));
}
// 16 bytes global -> shared (.cg: cache in L2 only), of any element type.
__device__ inline void copy16(void* shared, const void* global) {
  const auto address = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(address), "l"(global));
}
__device__ inline void commit() { asm volatile("cp.async.commit_group;\n" ::); }
// Waits until at most `pending` committed groups are still in flight.
template <int pending>
__device__ inline void wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(pending));
}

using WholeTileKernel = void (*)(int, int, int, const float*, const float*, float*);

// Above 48 KB a kernel must opt in to its dynamic shared memory; setting it every time is cheap.
// Any kernel of Cfg's tiles (rung 29's takes other parameters).
template <class Cfg, class Kernel>
void allow_shared_bytes(Kernel kernel) {
  KL_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(Cfg::shared_bytes)));
}

// How many blocks of `kernel`, a kernel of Cfg's tiles, the GPU holds at once (its shared memory
// allowed first, as its launch will): for the grids rungs 28 and 29 plan.
template <class Cfg, class Kernel>
BlockSlots block_slots_of(Kernel kernel) {
  allow_shared_bytes<Cfg>(kernel);
  return block_slots(reinterpret_cast<const void*>(kernel), Cfg::threads, Cfg::shared_bytes);
}

// Launches `kernel` over whole BM x BN tiles of C with Cfg::threads threads and
// Cfg::shared_bytes of dynamic shared memory; `blocks_per_tile` blocks at each tile (blockIdx.z:
// split-K's runs, rung 28).
template <class Cfg>
void launch(WholeTileKernel kernel, int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t stream,
            unsigned blocks_per_tile = 1) {
  allow_shared_bytes<Cfg>(kernel);
  kernel<<<dim3(n / Cfg::BN, m / Cfg::BM, blocks_per_tile), Cfg::threads, Cfg::shared_bytes, stream>>>(m, n, k, a, b,
                                                                                                       c);
}

template <class Cfg>
constexpr TileShape tile_of() {
  return {Cfg::BM, Cfg::BN, Cfg::BK};
}

}  // namespace kl::matmul::cp_async
