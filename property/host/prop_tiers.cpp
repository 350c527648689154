// Host checks of the slow property tier's switch (KL_PROPERTY_TIER=slow): it selects the large
// shapes and the small case count, and nothing else does.
#include "generators.hpp"
#include "property.hpp"

#include <cstdlib>
#include <optional>
#include <string>

namespace {

// Sets (or unsets, for nullptr) an environment variable for one scope, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) setenv(name, value, 1); else unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1); else unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace

KL_PROPERTY(PropertyTier, SlowTierDrawsLargeCountsAndTheNormalTierSmallOnes, ()) {
  const bool slow = *rc::gen::arbitrary<bool>().as("slow tier");
  const ScopedEnv tier("KL_PROPERTY_TIER", slow ? "slow" : nullptr);
  const std::int64_t n = *kl::gen::count_for_tier(1).as("n");
  if (slow)
    RC_ASSERT(n > (std::int64_t{1} << 22) && n <= 100'000'000);
  else
    RC_ASSERT(n >= 1 && n <= kl::gen::max_count());
}

TEST(PropertyTier, OnlyTheSlowTierCapsTheCaseCount) {
  const ScopedEnv no_rc_params("RC_PARAMS", nullptr);
  {
    const ScopedEnv tier("KL_PROPERTY_TIER", "slow");
    EXPECT_EQ(kl::prop::tier_params().maxSuccess, kl::prop::slow_tier_cases);
  }
  for (const char* other : {"", "normal", "SLOW"}) {
    const ScopedEnv tier("KL_PROPERTY_TIER", other);
    EXPECT_EQ(kl::prop::tier_params().maxSuccess, rc::detail::configuration().testParams.maxSuccess) << other;
  }
}
