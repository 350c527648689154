// Process-wide switches a test sets on a variant (matmul's cap_persistent_grid, ...).
//  - kl::ScopedSetting holds one for the test's lifetime and restores what it was before when the
//    guard goes, also when the test fails by throwing (GoogleTest's assertions, RapidCheck's
//    counterexamples), so no later test runs under it. `Set` takes the new value and returns the
//    one it replaced.
//  - kl::TestCap is such a switch for a count a launcher decides (a grid's blocks, the SMs a plan
//    spreads over): the launcher asks applied(count), which is the count itself until a test sets
//    a cap.
#pragma once

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>
#include <utility>

namespace kl {

template <class Value, Value (*Set)(Value)>
class ScopedSetting {
 public:
  explicit ScopedSetting(Value value) : before_(Set(std::move(value))) {}
  ~ScopedSetting() { Set(std::move(before_)); }
  ScopedSetting(const ScopedSetting&) = delete;
  ScopedSetting& operator=(const ScopedSetting&) = delete;

 private:
  Value before_;
};

class TestCap {
 public:
  // `setter` names the function that sets it and `counts` what it counts, for its refusal.
  explicit TestCap(const char* setter, const char* counts = "blocks") : setter_(setter), counts_(counts) {}
  // Caps the count at `cap` (0: no cap); returns the cap it replaced.
  int set(int cap) {
    if (cap < 0)
      throw std::invalid_argument(std::string(setter_) + ": " + counts_ + " must be >= 0 (0: no cap), got " +
                                  std::to_string(cap));
    return cap_.exchange(cap);
  }
  // `count`, or the cap where one is set and lower.
  template <class Count>
  Count applied(Count count) const {
    const int cap = cap_.load();
    return cap > 0 ? std::min<Count>(count, cap) : count;
  }

 private:
  const char* setter_;
  const char* counts_;
  std::atomic<int> cap_{0};
};

}  // namespace kl
