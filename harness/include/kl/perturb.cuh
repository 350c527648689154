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

#include "kl/perturb_points.cuh"

#include <cuda/atomic>

#include <cstdint>
#include <cstring>

namespace kl::perturb {

// Whether an operation of this order publishes the thread's earlier stores.
__host__ __device__ constexpr bool releases(cuda::memory_order order) {
  return order == cuda::memory_order_release || order == cuda::memory_order_acq_rel ||
         order == cuda::memory_order_seq_cst;
}

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
