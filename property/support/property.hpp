// KL_PROPERTY: a RapidCheck property run as a GoogleTest test. On failure it prints RapidCheck's
// shrunk counterexample and the one-line commands that replay exactly that case:
//   RC_PARAMS="reproduce=..." ctest --preset gpu -R '^kl\.elementwise\.property$' --output-on-failure
//
// The slow tier (KL_PROPERTY_TIER=slow, kl/test_env.hpp): generators draw the large shapes and
// each property runs slow_tier_cases cases unless RC_PARAMS sets max_success itself.
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

// RapidCheck's parameters from RC_PARAMS, with the slow tier's case count applied.
rc::detail::TestParams tier_params();

// The replay commands for a failure of RapidCheck test `id` (GoogleTest "Suite/Name").
std::string replay_lines(const std::string& id, const rc::detail::Reproduce& reproduce);

template <class Testable>
void check(Testable&& testable) {
  const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  const rc::detail::TestResult result =
      rc::detail::checkTestable(std::forward<Testable>(testable), metadata, tier_params());
  if (result.template is<rc::detail::SuccessResult>()) return;
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  if (result.template is<rc::detail::FailureResult>())
    message << "\n" << replay_lines(metadata.id, result.template get<rc::detail::FailureResult>().reproduce);
  FAIL() << message.str();
}

}  // namespace kl::prop

#define KL_PROPERTY(Suite, Name, ArgList)                              \
  void kl_property_##Suite##_##Name ArgList;                           \
  TEST(Suite, Name) { ::kl::prop::check(&kl_property_##Suite##_##Name); } \
  void kl_property_##Suite##_##Name ArgList
