// Environment switches shared by tests, properties and the CLI.
#pragma once

#include <cstdlib>
#include <string_view>

namespace kl {

// KL_SANITIZER_SMALL=1 (set by every sanitizer run in ctest, and by the perturb tier's runs):
// shrink cases so those tiers stay within minutes. Anything but unset, "" or "0" turns it on.
inline bool sanitizer_small_mode() {
  const char* v = std::getenv("KL_SANITIZER_SMALL");
  return v != nullptr && std::string_view(v) != "" && std::string_view(v) != "0";
}

// KL_PROPERTY_TIER=slow (set by the ctest entries labelled slow): properties draw the large
// shapes of the slow tier (matmul sides past 512, reductions up to 10^8) in few cases.
inline bool slow_tier() {
  const char* v = std::getenv("KL_PROPERTY_TIER");
  return v != nullptr && std::string_view(v) == "slow";
}

}  // namespace kl
