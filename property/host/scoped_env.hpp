// ScopedEnv: sets (or, given nullptr, unsets) one environment variable for a scope and restores
// it after, so a host test can run generators under each property tier's settings
// (KL_SANITIZER_SMALL, KL_PROPERTY_TIER) without leaking them into the next test.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace kl::test {

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    set(value);
  }
  ~ScopedEnv() { set(old_ ? old_->c_str() : nullptr); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  void set(const char* value) const {
    if (value)
      setenv(name_.c_str(), value, 1);
    else
      unsetenv(name_.c_str());
  }

  std::string name_;
  std::optional<std::string> old_;
};

// One property tier's two variables for a scope: both are set (or unset), so a caller's own
// settings cannot leak in. `sanitizer_small` is KL_SANITIZER_SMALL's value, `property_tier`
// KL_PROPERTY_TIER's; nullptr unsets it.
class InTier {
 public:
  InTier(const char* sanitizer_small, const char* property_tier)
      : small_("KL_SANITIZER_SMALL", sanitizer_small), tier_("KL_PROPERTY_TIER", property_tier) {}

 private:
  ScopedEnv small_;
  ScopedEnv tier_;
};

}  // namespace kl::test
