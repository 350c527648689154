// What a kernel that can deadlock takes to give up waiting: a view of kl::Watchdog (kl/watchdog.hpp)
// passed by value, read by kl::watchdog_expired() (kl/watchdog.cuh). On its own so that a kernel's
// arguments and its .cu file need no host-side header.
#pragma once

namespace kl {

struct WatchdogView {
  unsigned long long* start_ns;  // 0 until the first waiting thread arms it
  int* tripped;                  // set to 1 when any thread ran out of budget
  unsigned long long budget_ns;
};

}  // namespace kl
