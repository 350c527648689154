// KL_PROPERTY: a RapidCheck property run as a GoogleTest test. On failure it prints RapidCheck's
// shrunk counterexample and the one-line commands that replay exactly that case:
//   RC_PARAMS="reproduce=..." ctest --preset gpu -R '^kl\.elementwise\.property$' --output-on-failure
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/Configuration.h>
#include <rapidcheck/detail/Results.h>
#include <rapidcheck/detail/TestMetadata.h>

#include <sstream>
#include <string>

namespace kl::prop {

// The replay commands for a failure of RapidCheck test `id` (GoogleTest "Suite/Name").
std::string replay_lines(const std::string& id, const rc::detail::Reproduce& reproduce);

template <class Testable>
void check(Testable&& testable) {
  const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  const rc::detail::TestResult result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata);
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
