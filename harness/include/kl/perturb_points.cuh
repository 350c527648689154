// Schedule perturbation, device side: the points a kernel marks where it publishes or consumes
// across blocks (or across the warps of a ring). Include from .cu files only; kl/perturb.cuh adds
// the Publisher that cross-block stores go through (and <cuda/atomic>, which costs a .cu file
// about five seconds of compile time, so a kernel with points only includes this header).
// How to mark a kernel, and what a point does in a perturbation build: kl/perturb.cuh.
#pragma once

#include "kl/cuda_check.hpp"
#include "kl/perturb.hpp"
#include "kl/watchdog.cuh"

#include <cstdint>

namespace kl::perturb {

// A point's number: FNV-1a of its name, so points are named where they are marked.
__host__ __device__ constexpr std::uint32_t point_id(const char* name) {
  std::uint32_t h = 2166136261u;
  for (; *name != '\0'; ++name) h = (h ^ static_cast<unsigned char>(*name)) * 16777619u;
  return h;
}

// SplitMix64's finaliser: every input bit reaches every output bit.
__host__ __device__ constexpr std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

#if defined(KL_PERTURB)

namespace {
// This unit's copy of the settings, uploaded before every launch (before_launch()).
__constant__ Settings unit_settings;
void upload_unit_settings(const Settings& s, cudaStream_t stream) {
  const cudaError_t status = cudaMemcpyToSymbolAsync(unit_settings, &s, sizeof s, 0, cudaMemcpyHostToDevice, stream);
  // A unit built only for another GPU (matmul's sm_90a rung anywhere else) has no module here:
  // its kernels never launch, so it needs no settings. The error is not sticky: clear it.
  if (status == cudaErrorNoKernelImageForDevice || status == cudaErrorInvalidSymbol) {
    (void)cudaGetLastError();
    return;
  }
  KL_CUDA_CHECK(status);
}
[[maybe_unused]] const bool unit_registered = register_unit(&upload_unit_settings);
}  // namespace

__device__ inline std::uint64_t block_number() {
  return blockIdx.x + static_cast<std::uint64_t>(gridDim.x) * (blockIdx.y + static_cast<std::uint64_t>(gridDim.y) * blockIdx.z);
}

// Waits `ns` nanoseconds on the global timer (the same clock on every SM).
__device__ inline void wait_ns(std::uint64_t ns) {
  if (ns == 0) return;
  const unsigned long long start = globaltimer_ns();
  while (globaltimer_ns() - start < ns) __nanosleep(512);
}

// The delay at a point for `who` (a block, or a warp of it) on visit `visit`: none half the
// time, else up to the maximum.
__device__ inline std::uint64_t delay_ns(std::uint32_t point, std::uint64_t who, std::uint32_t visit) {
  const Settings& s = unit_settings;
  if (s.max_delay_ns == 0) return 0;
  const std::uint64_t h = mix(s.seed ^ mix((static_cast<std::uint64_t>(s.launch) << 32) ^ point) ^
                              mix(who * 0x100000001B3ull ^ visit));
  if ((h & 1) == 0) return 0;
  return (h >> 1) % s.max_delay_ns;
}

// Every thread of the block waits the same time (the delay does not depend on the thread).
__device__ inline void delay_block(std::uint32_t point, std::uint32_t visit) {
  wait_ns(delay_ns(point, block_number() << 6, visit));
}

// The calling thread waits as long as the rest of its warp would at this point.
__device__ inline void delay_warp(std::uint32_t point, std::uint32_t visit) {
  const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  wait_ns(delay_ns(point, (block_number() << 6) | (1 + thread / 32), visit));
}

#define KL_PERTURB_ENTRY()                                                                         \
  do {                                                                                             \
    constexpr std::uint32_t kl_perturb_point_ = ::kl::perturb::point_id("block entry");           \
    ::kl::perturb::delay_block(kl_perturb_point_, 0);                                              \
  } while (false)
#define KL_PERTURB_POINT_AT(name, visit)                                                           \
  do {                                                                                             \
    constexpr std::uint32_t kl_perturb_point_ = ::kl::perturb::point_id(name);                    \
    ::kl::perturb::delay_warp(kl_perturb_point_, static_cast<std::uint32_t>(visit));               \
  } while (false)
#define KL_PERTURB_POINT(name) KL_PERTURB_POINT_AT(name, 0)

#else

#define KL_PERTURB_ENTRY() ((void)0)
#define KL_PERTURB_POINT_AT(name, visit) ((void)0)
#define KL_PERTURB_POINT(name) ((void)0)

#endif

}  // namespace kl::perturb
