// kl::ScopedSetting: a process-wide switch a test sets for its own lifetime (a variant's hook such
// as matmul's cap_persistent_grid), restored to what it was before when the guard goes, also when
// the test fails by throwing (GoogleTest's assertions, RapidCheck's counterexamples), so no later
// test runs under it. `Set` takes the new value and returns the one it replaced.
#pragma once

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

}  // namespace kl
