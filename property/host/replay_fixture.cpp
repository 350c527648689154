// A property that fails on purpose, for tests/ci/test_property_replay.sh: with
// KL_REPLAY_FIXTURE_FAIL=1 every count from `failing_from` up fails, so RapidCheck finds one and
// shrinks it to the smallest failing count the tier draws, then prints the replay lines. The
// script runs the printed binary line and expects the same counterexample back, in the plain
// mode, under the sanitizer environment and in the slow tier. Host only: no GPU.
#include "generators.hpp"
#include "property.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

// An edge of kl::gen::count() (a prime) under both the plain and the sanitizer caps: every branch
// of the generator shrinks onto it exactly. Low enough that even a sanitizer run's 8 cases draw a
// failing count all but always (with 1021, about one run in 150 drew none and passed).
constexpr std::int64_t failing_from = 97;

bool fail_on_purpose() {
  const char* v = std::getenv("KL_REPLAY_FIXTURE_FAIL");
  return v != nullptr && std::string_view(v) == "1";
}

}  // namespace

KL_PROPERTY(ReplayFixture, CountsStayInTheirTier, ()) {
  const std::int64_t n = *kl::gen::count_for_tier(1).as("n");
  // Without the failure switch this holds: the tier's own bounds on its counts.
  const std::int64_t most = kl::slow_tier() && !kl::sanitizer_small_mode() ? 100'000'000 : kl::gen::max_count();
  RC_ASSERT(n >= 1 && n <= most);
  if (fail_on_purpose()) RC_ASSERT(n < failing_from);
}
