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

}  // namespace kl::test
