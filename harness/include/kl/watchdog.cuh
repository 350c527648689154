// Device side of kl::Watchdog (see kl/watchdog.hpp): the wait loops' test. Include from .cu files
// only; it needs just the view, so the host class's header (kl/watchdog.hpp) is not included.
#pragma once

#include "kl/watchdog_view.hpp"

namespace kl {

// Nanoseconds from the GPU's global timer (microsecond-scale resolution, same clock on all SMs).
__device__ inline unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// True once the grid's budget is spent; also sets the tripped flag. The first caller arms it.
__device__ inline bool watchdog_expired(WatchdogView w) {
  const unsigned long long now = globaltimer_ns();
  unsigned long long start = *static_cast<volatile unsigned long long*>(w.start_ns);
  if (start == 0) {
    const unsigned long long previous = atomicCAS(w.start_ns, 0ull, now);
    start = previous == 0 ? now : previous;
  }
  // Signed: a thread that read the clock before another thread armed `start` sees now < start.
  if (static_cast<long long>(now - start) <= static_cast<long long>(w.budget_ns)) return false;
  atomicExch(w.tripped, 1);
  return true;
}

}  // namespace kl
