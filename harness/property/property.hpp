// KL_PROPERTY: a RapidCheck property run as a GoogleTest test. On failure it prints RapidCheck's
// shrunk counterexample and the one-line commands that replay exactly that case:
//   RC_PARAMS="reproduce=..." ctest --preset gpu -R '^kl\.elementwise\.property$' --output-on-failure
//   KL_SANITIZER_SMALL=1 RC_PARAMS="reproduce=..." build/gpu/property/kl_property_elementwise --gtest_filter=...
// The binary line carries every lab variable that changes what the generators draw
// (KL_SANITIZER_SMALL, KL_PROPERTY_TIER), so it replays the run's shapes, not the default ones.
//
// Parameters, lowest layer first (tier_params()):
//   RapidCheck's defaults;
//   the lab's: max_discard_ratio=1 (a property whose cases are mostly refused gives up, i.e.
//   fails), and in the slow tier (KL_PROPERTY_TIER=slow) slow_tier_cases cases;
//   KL_RC_DEFAULTS, the registered test's defaults ("max_success=8 max_size=40" under every
//   sanitizer run), set by ctest, never typed by a user;
//   RC_PARAMS, the user's: every key it sets wins. Tests never set RC_PARAMS themselves, so a
//   user's RC_PARAMS="reproduce=..." reaches every run, sanitizer runs included.
#pragma once

#include "kl/test_env.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/Configuration.h>
#include <rapidcheck/detail/Results.h>
#include <rapidcheck/detail/TestMetadata.h>

#include <sstream>
#include <string>

namespace kl::prop {

// Cases per property in the slow tier: each may cost seconds of host-side data and oracle work.
inline constexpr int slow_tier_cases = 6;

// Discarded (refused) cases allowed per passing case before RapidCheck gives up: with 1, a
// property that refuses more cases than it runs fails instead of passing on a few survivors.
inline constexpr int refused_cases_per_case = 1;

// RapidCheck's parameters for this run: the layers above, merged key by key.
rc::detail::TestParams tier_params();

// The replay commands for a failure of RapidCheck test `id`, run by the GoogleTest filter
// `gtest_filter` ("Suite.Name"). A test may run several RapidCheck tests under one filter (the
// rows of a covering array, pairwise.hpp), so the filter is not derived from the id.
std::string replay_lines(const std::string& id, const std::string& gtest_filter, const rc::detail::Reproduce& reproduce);
// The same for a test whose id is its GoogleTest "Suite/Name" (KL_PROPERTY's): filter "Suite.Name".
std::string replay_lines(const std::string& id, const rc::detail::Reproduce& reproduce);

// `text` as one POSIX shell word: bare when it needs no quoting, else single-quoted.
std::string shell_word(const std::string& text);

// RapidCheck's verdict on `testable` run as RapidCheck test `id` with `params`: "" when it
// passed, else RapidCheck's message (the shrunk counterexample) and, for a failure, the replay
// lines for `gtest_filter`. A user's RC_PARAMS="reproduce=..." for `id` replays that case.
template <class Testable>
std::string failure_of(const std::string& id, const std::string& gtest_filter, Testable&& testable,
                       const rc::detail::TestParams& params) {
  rc::detail::TestMetadata metadata;
  metadata.id = id;
  metadata.description = id;
  const rc::detail::TestResult result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
  if (result.template is<rc::detail::SuccessResult>()) return "";
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  if (result.template is<rc::detail::FailureResult>())
    message << "\n" << replay_lines(id, gtest_filter, result.template get<rc::detail::FailureResult>().reproduce);
  return message.str();
}

// Runs `testable` as RapidCheck test `id` with the tier's parameters; fails the current
// GoogleTest test with the counterexample and the lines that replay it through `gtest_filter`.
template <class Testable>
void check_as(const std::string& id, const std::string& gtest_filter, Testable&& testable) {
  if (const std::string failure = failure_of(id, gtest_filter, std::forward<Testable>(testable), tier_params());
      !failure.empty())
    FAIL() << failure;
}

// The GoogleTest test running now, as "Suite/Name" (its RapidCheck id) and "Suite.Name" (its filter).
std::string current_test_id();
std::string current_test_filter();

// check_as under the current GoogleTest test's own id and filter: what KL_PROPERTY runs.
template <class Testable>
void check(Testable&& testable) {
  check_as(current_test_id(), current_test_filter(), std::forward<Testable>(testable));
}

}  // namespace kl::prop

#define KL_PROPERTY(Suite, Name, ArgList)                              \
  void kl_property_##Suite##_##Name ArgList;                           \
  TEST(Suite, Name) { ::kl::prop::check(&kl_property_##Suite##_##Name); } \
  void kl_property_##Suite##_##Name ArgList
