// The device watchdog: a time budget that lets a kernel which would wait forever give up.
//
// Kernels that can deadlock take a WatchdogView by value and call kl::watchdog_expired()
// (kl/watchdog.cuh) inside every wait loop. The first call anywhere in the grid records the
// start time from %globaltimer; once the budget has elapsed every waiting thread sets the
// tripped flag and leaves its loop. Blocks scheduled only after others gave up find the
// budget already spent, so a deadlocked grid ends in about one budget, not one per wave.
#pragma once

#include "kl/device_buffer.hpp"
#include "kl/watchdog_view.hpp"

namespace kl {

class Watchdog {
 public:
  explicit Watchdog(double budget_ms);
  // Clears the start time and the flag; call before each launch.
  void rearm(cudaStream_t stream = nullptr);
  WatchdogView view() noexcept;
  bool tripped() const;  // reads the flag back (synchronous)
  double budget_ms() const noexcept { return budget_ms_; }

 private:
  double budget_ms_;
  DeviceBuffer<unsigned long long> start_ns_;
  DeviceBuffer<int> tripped_;
};

// Proof that the watchdog works: one block spins on a flag. With release_flag the flag is
// set before the launch and the kernel returns at once; without it nothing ever sets the flag
// and only the watchdog can end the kernel.
struct WatchdogSelfTest {
  bool tripped = false;
  double elapsed_ms = 0;
};
WatchdogSelfTest watchdog_selftest(bool release_flag, double budget_ms);
// The self-test's kernel, for occupancy queries (kl::co_resident_capacity).
const void* watchdog_selftest_kernel();

}  // namespace kl
