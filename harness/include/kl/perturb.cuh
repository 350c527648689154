// Schedule perturbation, device side: the points a kernel marks where it publishes or consumes
// across blocks (or across the warps of a ring), and the Publisher its cross-block stores go
// through. Include from .cu files only.
//
// Marking a kernel (README, "Bugs no sanitizer sees"):
//   KL_PERTURB_ENTRY();               first statement of the kernel: every thread of the block
//                                     waits the same time, so blocks start in a scrambled order
//   KL_PERTURB_POINT("name");         before a store other blocks read, after a load of what
//                                     they wrote, inside a wait loop: this warp waits
//   KL_PERTURB_POINT_AT("name", k);   the same inside a loop: visit k draws its own delay
//   kl::perturb::Publisher publish;   data, then the flag or ticket that says it is there:
//   publish.store(&data, value);      a plain store...
//   publish.fetch_add(&ticket, 1u, cuda::memory_order_acq_rel);   ...published by a release
// Without KL_PERTURB (every normal build) the macros are empty and Publisher is the plain store
// and the cuda::atomic_ref operation it names: the kernel's code is what it was.
// With it, a point that fires (half of them) waits a seeded pseudo-random time up to the
// configured maximum; the delay is a function of (seed, launch number, block, warp, point,
// visit), so a seed draws the same delays again. A Publisher's plain store is held back until
// an operation with release semantics (which publishes it first, as the memory model requires)
// or, past a relaxed one, until after a delay: a missing release shows as a stale read.
#pragma once

#include "kl/check.hpp"
#include "kl/perturb.hpp"
#include "kl/watchdog.cuh"

#include <cuda/atomic>

#include <cstdint>
#include <cstring>

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

// Whether an operation of this order publishes the thread's earlier stores.
__host__ __device__ constexpr bool releases(cuda::memory_order order) {
  return order == cuda::memory_order_release || order == cuda::memory_order_acq_rel ||
         order == cuda::memory_order_seq_cst;
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

// One thread's stores that other blocks read, and the atomic that tells them the stores are
// there. In a normal build each call is the plain store or the cuda::atomic_ref operation at
// device scope it names (before_block_release is nothing). In a perturbation build a plain store
// is held (one at a time) until the next operation that releases or before_block_release(),
// which write it first, or, past a relaxed operation or at the publisher's end, until after a
// delay: later than the atomic, as the memory model allows (it allows later still).
class Publisher {
 public:
  Publisher() = default;
  Publisher(const Publisher&) = delete;
  Publisher& operator=(const Publisher&) = delete;
  // A store still held when its publisher ends was never published: it lands late.
  __device__ ~Publisher() { land_late(); }

  // Data another block reads once a flag or ticket says it is there. T is 4 or 8 bytes.
  template <class T>
  __device__ void store(T* p, T value) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "Publisher::store takes 4- or 8-byte values");
#if defined(KL_PERTURB)
    write_held();
    KL_PERTURB_POINT("before a published store");
    held_ = p;
    held_bytes_ = sizeof(T);
    std::memcpy(&held_bits_, &value, sizeof(T));
#else
    *p = value;
#endif
  }

  // The flag: an atomic store at device scope.
  template <class T>
  __device__ void store_flag(T* p, T value, cuda::memory_order order) {
    before(order);
    cuda::atomic_ref<T, cuda::thread_scope_device>(*p).store(value, order);
    after(order);
  }

  // Before a barrier after which another thread of the block publishes with a release at device
  // scope: the barrier orders this thread's stores before that release, which is cumulative, so
  // the thread needs no fence of its own (no instruction here). In a perturbation build the held
  // store is written here, before the barrier.
  __device__ void before_block_release() { write_held(); }

  // The ticket: an atomic add at device scope; returns the value before it.
  template <class T>
  __device__ T fetch_add(T* p, T value, cuda::memory_order order) {
    before(order);
    const T old = cuda::atomic_ref<T, cuda::thread_scope_device>(*p).fetch_add(value, order);
    after(order);
    return old;
  }

 private:
#if defined(KL_PERTURB)
  __device__ void before(cuda::memory_order order) {
    if (releases(order)) write_held();
    KL_PERTURB_POINT("before a publishing atomic");
  }
  // Past a relaxed atomic, a held store lands later: other blocks may see the atomic first.
  __device__ void after(cuda::memory_order) { land_late(); }
  __device__ void land_late() {
    if (held_ == nullptr) return;
    KL_PERTURB_POINT("a store the memory model lets land late");
    write_held();
  }
  __device__ void write_held() {
    if (held_ == nullptr) return;
    if (held_bytes_ == 4) *static_cast<volatile std::uint32_t*>(held_) = static_cast<std::uint32_t>(held_bits_);
    else *static_cast<volatile std::uint64_t*>(held_) = held_bits_;
    held_ = nullptr;
  }
  void* held_ = nullptr;
  std::uint64_t held_bits_ = 0;
  int held_bytes_ = 0;
#else
  __device__ void before(cuda::memory_order) {}
  __device__ void after(cuda::memory_order) {}
  __device__ void land_late() {}
  __device__ void write_held() {}
#endif
};

}  // namespace kl::perturb
