// Host checks of kl::prop's parameters and replay lines: the slow tier's switch
// (KL_PROPERTY_TIER=slow) selects the large shapes and the small case count, and nothing else
// does; KL_RC_DEFAULTS fills what RC_PARAMS leaves; mostly refused properties fail; and a
// failure's replay lines carry the environment that shaped its cases.
#include "generators.hpp"
#include "property.hpp"

#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
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
  const ScopedEnv no_defaults("KL_RC_DEFAULTS", nullptr);
  {
    const ScopedEnv tier("KL_PROPERTY_TIER", "slow");
    EXPECT_EQ(kl::prop::tier_params().maxSuccess, kl::prop::slow_tier_cases);
  }
  for (const char* other : {"", "normal", "SLOW"}) {
    const ScopedEnv tier("KL_PROPERTY_TIER", other);
    EXPECT_EQ(kl::prop::tier_params().maxSuccess, rc::detail::configuration().testParams.maxSuccess) << other;
  }
}

// The layers of RapidCheck parameters (property.hpp): the registered test's KL_RC_DEFAULTS fill
// every key the user's RC_PARAMS leaves, so a test never needs to set RC_PARAMS itself.
TEST(PropertyTier, DefaultsFillTheKeysRcParamsLeaves) {
  const ScopedEnv tier("KL_PROPERTY_TIER", nullptr);
  const ScopedEnv defaults("KL_RC_DEFAULTS", "max_success=8 max_size=40");
  {
    const ScopedEnv no_rc_params("RC_PARAMS", nullptr);
    EXPECT_EQ(kl::prop::tier_params().maxSuccess, 8);
    EXPECT_EQ(kl::prop::tier_params().maxSize, 40);
  }
  {
    const ScopedEnv user("RC_PARAMS", "max_success=3");
    EXPECT_EQ(kl::prop::tier_params().maxSuccess, 3);
    EXPECT_EQ(kl::prop::tier_params().maxSize, 40);
  }
  {
    // A replay's RC_PARAMS, as the lines print it, with a key of the user's own.
    rc::detail::Configuration replay;
    replay.reproduce["Suite/Name"] = rc::detail::Reproduce{};
    const std::string params = rc::detail::configToMinimalString(replay) + " max_size=7";
    const ScopedEnv user("RC_PARAMS", params.c_str());
    EXPECT_EQ(kl::prop::tier_params().maxSuccess, 8);
    EXPECT_EQ(kl::prop::tier_params().maxSize, 7);
  }
}

TEST(PropertyTier, SlowTierCountYieldsToAnyMaxSuccess) {
  const ScopedEnv tier("KL_PROPERTY_TIER", "slow");
  {
    const ScopedEnv no_rc_params("RC_PARAMS", nullptr);
    const ScopedEnv defaults("KL_RC_DEFAULTS", "max_size=40");
    EXPECT_EQ(kl::prop::tier_params().maxSuccess, kl::prop::slow_tier_cases);
  }
  {
    const ScopedEnv no_rc_params("RC_PARAMS", nullptr);
    const ScopedEnv defaults("KL_RC_DEFAULTS", "max_success=8");
    EXPECT_EQ(kl::prop::tier_params().maxSuccess, 8);
  }
  {
    const ScopedEnv user("RC_PARAMS", "max_success=2");
    const ScopedEnv defaults("KL_RC_DEFAULTS", "max_success=8");
    EXPECT_EQ(kl::prop::tier_params().maxSuccess, 2);
  }
}

TEST(PropertyTier, MalformedDefaultsNameTheirVariable) {
  const ScopedEnv no_rc_params("RC_PARAMS", nullptr);
  const ScopedEnv defaults("KL_RC_DEFAULTS", "max_success=lots");
  try {
    kl::prop::tier_params();
    FAIL() << "max_success=lots was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("KL_RC_DEFAULTS=\"max_success=lots\""), std::string::npos) << e.what();
  }
}

namespace {

// A property that refuses (RC_PRE) three cases of every four, deterministically, and passes the
// rest, checked with the lab's parameters as KL_PROPERTY checks it.
rc::detail::TestResult check_mostly_refused() {
  auto calls = std::make_shared<int>(0);
  const auto property = [calls] { RC_PRE(++*calls % 4 == 0); };
  rc::detail::TestMetadata metadata;
  metadata.id = "PropertyTier/MostlyRefused";
  return rc::detail::checkTestable(property, metadata, kl::prop::tier_params());
}

}  // namespace

// "Count refusals": a property whose cases were mostly refused must fail, not pass on the few
// it ran. RapidCheck's own default (10 refusals per case) would let this one pass.
TEST(PropertyTier, APropertyThatRefusesMostCasesGivesUp) {
  const ScopedEnv no_defaults("KL_RC_DEFAULTS", nullptr);
  {
    const ScopedEnv user("RC_PARAMS", "max_success=100");
    EXPECT_EQ(kl::prop::tier_params().maxDiscardRatio, kl::prop::refused_cases_per_case);
    const rc::detail::TestResult result = check_mostly_refused();
    std::ostringstream message;
    rc::detail::printResultMessage(result, message);
    EXPECT_TRUE(result.is<rc::detail::GaveUpResult>()) << message.str();
    EXPECT_NE(message.str().find("Gave up"), std::string::npos) << message.str();
  }
  {
    // The user's max_discard_ratio wins, and with room for the refusals the same property passes.
    const ScopedEnv user("RC_PARAMS", "max_success=100 max_discard_ratio=10");
    EXPECT_EQ(kl::prop::tier_params().maxDiscardRatio, 10);
    EXPECT_TRUE(check_mostly_refused().is<rc::detail::SuccessResult>());
  }
  {
    const ScopedEnv no_rc_params("RC_PARAMS", nullptr);
    const ScopedEnv defaults("KL_RC_DEFAULTS", "max_discard_ratio=4");
    EXPECT_EQ(kl::prop::tier_params().maxDiscardRatio, 4);
  }
}

// The replay lines carry the environment the failing run used.
namespace {

std::string replay_lines() { return kl::prop::replay_lines("Suite/Name", rc::detail::Reproduce{}); }

}  // namespace

TEST(PropertyTierReplay, PlainRunPrintsTheBinaryLineAlone) {
  const ScopedEnv small("KL_SANITIZER_SMALL", nullptr);
  const ScopedEnv tier("KL_PROPERTY_TIER", nullptr);
  const ScopedEnv ctest("KL_CTEST_NAME", nullptr);
  const std::string lines = replay_lines();
  EXPECT_NE(lines.find("\n  RC_PARAMS=\"reproduce="), std::string::npos) << lines;
  EXPECT_NE(lines.find(" --gtest_filter=Suite.Name\n"), std::string::npos) << lines;
  EXPECT_EQ(lines.find("ctest"), std::string::npos) << lines;
  EXPECT_EQ(lines.find("KL_"), std::string::npos) << lines;
}

TEST(PropertyTierReplay, SanitizerRunReplaysItselfAndSmallShapes) {
  const ScopedEnv small("KL_SANITIZER_SMALL", "1");
  const ScopedEnv tier("KL_PROPERTY_TIER", nullptr);
  const ScopedEnv ctest("KL_CTEST_NAME", "kl.x.property.memcheck");
  const std::string lines = replay_lines();
  EXPECT_NE(lines.find("\n  RC_PARAMS=\"reproduce="), std::string::npos) << lines;
  EXPECT_NE(lines.find("\" ctest --preset "), std::string::npos) << lines;
  EXPECT_NE(lines.find(" -R '^kl\\.x\\.property\\.memcheck$' --output-on-failure\n"), std::string::npos) << lines;
  EXPECT_NE(lines.find("\n  KL_SANITIZER_SMALL=1 RC_PARAMS=\"reproduce="), std::string::npos) << lines;
}

TEST(PropertyTierReplay, SlowTierReplaysTheSlowShapes) {
  const ScopedEnv small("KL_SANITIZER_SMALL", nullptr);
  const ScopedEnv tier("KL_PROPERTY_TIER", "slow");
  const std::string lines = replay_lines();
  EXPECT_NE(lines.find("\n  KL_PROPERTY_TIER=slow RC_PARAMS=\"reproduce="), std::string::npos) << lines;
}

TEST(PropertyTierReplay, ValuesAreQuotedForAPosixShell) {
  EXPECT_EQ(kl::prop::shell_word("build/gpu/kl_property_x"), "build/gpu/kl_property_x");
  EXPECT_EQ(kl::prop::shell_word(""), "''");
  EXPECT_EQ(kl::prop::shell_word("a b"), "'a b'");
  EXPECT_EQ(kl::prop::shell_word("it's $HOME"), "'it'\\''s $HOME'");
  const ScopedEnv small("KL_SANITIZER_SMALL", "on; rm -rf x");
  EXPECT_NE(replay_lines().find("KL_SANITIZER_SMALL='on; rm -rf x' RC_PARAMS="), std::string::npos) << replay_lines();
}
