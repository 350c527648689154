// Device helpers for the rungs that feed shared memory asynchronously (ldmatrix/cp.async in
// matmul 32; the copy engine, counted on mbarriers, in matmul 33 and reduction 10): a shared
// memory address as PTX wants it, and the mbarrier operations they use (PTX ISA, "mbarrier").
// Include from .cu files only.
#pragma once

#include "kl/watchdog.cuh"

#include <cstdint>

namespace kl {

// The 32-bit shared-window address PTX's shared-memory operands take.
__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

namespace mbarrier {

// bar is a shared_address() of an 8-byte-aligned 64-bit barrier.
__device__ __forceinline__ void init(std::uint32_t bar, std::uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

// One arrival that also tells the barrier to expect this many bytes of asynchronous copies.
__device__ __forceinline__ void arrive_expect_bytes(std::uint32_t bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void arrive(std::uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

// True once the barrier's phase with this parity has completed.
__device__ __forceinline__ bool try_wait(std::uint32_t bar, std::uint32_t parity) {
  std::uint32_t done = 0;
  asm volatile(
      "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(bar), "r"(parity)
      : "memory");
  return done != 0;
}

// Waits for the phase with this parity to complete. A pipeline bug (a wrong byte count, a missed
// arrive) would wait forever: past limit_ns the kernel traps, which the host sees as a failed
// launch.
__device__ __forceinline__ void wait(std::uint32_t bar, std::uint32_t parity, unsigned long long limit_ns) {
  if (try_wait(bar, parity)) return;
  const unsigned long long start = globaltimer_ns();
  while (!try_wait(bar, parity))
    if (globaltimer_ns() - start > limit_ns) __trap();
}

}  // namespace mbarrier
}  // namespace kl
