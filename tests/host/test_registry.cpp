// The registry keeps every list honest: tests, CLI, sanitizer runs and CMake's planted-finding
// targets all derive from it, and these tests fail if any of them drift apart.
#include "args.hpp"
#include "cli.hpp"
#include "family.hpp"
#include "kl/registry.hpp"
#include "kl/scoped_setting.hpp"
#include "regex_support.hpp"
#include "sanitizer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <stdexcept>
#include <utility>

namespace {

bool is_seed_list(const std::string& s) {
  return kl::test::full_match(s, R"(\d{3}_[0-9a-f]{16}\.txt(, \d{3}_[0-9a-f]{16}\.txt)*)");
}

}  // namespace

TEST(Registry, IdsAreUniqueAndEveryFamilyStartsWithItsReference) {
  std::set<std::string> ids;
  std::string previous_family;
  for (const kl::VariantInfo* v : kl::catalogue()) {
    EXPECT_TRUE(ids.insert(v->id()).second) << "duplicate id " << v->id();
    if (v->family != previous_family) {
      EXPECT_EQ(v->role, kl::Role::reference) << v->family << " does not start with its reference";
      previous_family = v->family;
    }
    EXPECT_FALSE(v->lesson.empty()) << v->id();
  }
  EXPECT_GE(ids.size(), 8u);
}

TEST(Registry, EverySeedKernelNamesItsSeedFile) {
  for (const kl::VariantInfo* v : kl::catalogue()) {
    if (v->role == kl::Role::reference) continue;
    EXPECT_TRUE(is_seed_list(v->seed_file)) << v->id() << ": '" << v->seed_file << "'";
    EXPECT_FALSE(v->seed_kernel.empty()) << v->id();
  }
}

TEST(Registry, PlantedAndFlawedVariantsAndOnlyThemCarryFindings) {
  for (const kl::VariantInfo* v : kl::catalogue()) {
    if (v->has_findings())
      EXPECT_FALSE(v->findings.empty()) << v->id() << " is planted/flawed but names no checker";
    else
      EXPECT_TRUE(v->findings.empty()) << v->id() << " is clean but expects findings";
  }
}

TEST(Registry, SanitizerFindingsAreRunnableAndHaveACleanFix) {
  const auto& specs = kl::cli::command_specs();
  for (const kl::PlantedFinding& p : kl::planted_findings()) {
    const kl::ExpectedFinding& f = *p.finding;
    SCOPED_TRACE(p.variant->id());
    if (!kl::is_sanitizer_tool(f.checker)) continue;
    EXPECT_FALSE(f.repro.empty());
    EXPECT_EQ(kl::cli::regular_expression_error(f.report_pattern), "");
    EXPECT_FALSE(f.report_pattern.empty());
    // The fix exists and is clean.
    const kl::VariantInfo& fix = kl::find_info(f.fixed_by);
    EXPECT_FALSE(fix.has_findings());
    // The arguments are a valid `kernel-lab run` command line.
    std::vector<std::string> argv = {"run", p.variant->id()};
    argv.insert(argv.end(), f.run_args.begin(), f.run_args.end());
    EXPECT_NO_THROW(kl::cli::parse(argv, specs));
    EXPECT_EQ(&kl::find_planted(f.repro).variant->family, &p.variant->family);
  }
}

// A planted cross-block bug names its repro, a clean fix in its own family, and arguments that make
// a valid `kernel-lab run` line; the fix's run is the same command.
TEST(Registry, PerturbationFindingsAreRunnableAndHaveACleanFix) {
  const auto& specs = kl::cli::command_specs();
  int found = 0;
  for (const kl::PlantedFinding& p : kl::planted_findings()) {
    const kl::ExpectedFinding& f = *p.finding;
    if (f.checker != kl::Checker::perturbation) continue;
    SCOPED_TRACE(p.variant->id());
    ++found;
    EXPECT_TRUE(p.variant->planted());
    EXPECT_EQ(f.repro.rfind("perturb-", 0), 0u) << f.repro;
    EXPECT_TRUE(f.report_pattern.empty()) << "a perturbation finding is a failed check, not a tool's report";
    const kl::VariantInfo& fix = kl::find_info(f.fixed_by);
    EXPECT_FALSE(fix.has_findings());
    EXPECT_EQ(fix.family, p.variant->family);
    for (const std::string& target : {p.variant->id(), fix.id()}) {
      std::vector<std::string> argv = {"run", target};
      argv.insert(argv.end(), f.run_args.begin(), f.run_args.end());
      EXPECT_NO_THROW(kl::cli::parse(argv, specs));
    }
    // parse() takes every family's run flags: each one the finding passes must be the variant's.
    const kl::Family& family = kl::find_family(p.variant->family);
    for (const std::string& arg : f.run_args) {
      if (arg.rfind("--", 0) != 0) continue;
      EXPECT_TRUE(family.run_takes(p.variant->name, arg.substr(2))) << f.repro << ": " << p.variant->id()
                                                                     << " runs take no " << arg;
    }
  }
  EXPECT_GE(found, 5) << "the five planted cross-block bugs of the perturb tier";
}

// CMake's kl_add_planted_finding() and kl_add_perturbation_finding() calls (the kl.expect.* tests)
// must list exactly the registry's sanitizer and perturbation findings, with the same checkers.
TEST(Registry, CMakePlantedFindingsMatchTheRegistry) {
  const char* path = std::getenv("KL_PLANTED_FINDINGS_FILE");
  ASSERT_NE(path, nullptr) << "KL_PLANTED_FINDINGS_FILE is not set (run through ctest)";
  std::ifstream file(path);
  ASSERT_TRUE(file) << "cannot read " << path;
  std::set<std::string> from_cmake;
  for (std::string line; std::getline(file, line);)
    if (!line.empty()) from_cmake.insert(line);
  std::set<std::string> from_registry;
  for (const kl::PlantedFinding& p : kl::planted_findings())
    if (kl::is_sanitizer_tool(p.finding->checker) || p.finding->checker == kl::Checker::perturbation)
      from_registry.insert(p.finding->repro + ":" + std::string(kl::to_string(p.finding->checker)));
  EXPECT_EQ(from_cmake, from_registry);
}

TEST(Registry, UnknownIdsAreRejectedWithTheKnownNames) {
  try {
    kl::find_info("elementwise.nope");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown variant 'elementwise.nope'"), std::string::npos);
  }
  EXPECT_THROW(kl::find_planted("no-such-finding"), std::invalid_argument);
}

namespace {
int test_switch = 0;
int set_test_switch(int value) { return std::exchange(test_switch, value); }
}  // namespace

// The variants' test switches (matmul's cap_persistent_grid, reduction's cap_ring_grid, ...): a
// guard restores the value it replaced, nested or unwound by a throw; a cap leaves counts below it
// alone, clamps those above, is no cap at 0, returns the cap it replaced and refuses a negative one.
TEST(ScopedSetting, RestoresWhatItReplacedAndACapClampsOnlyWhereSet) {
  {
    const kl::ScopedSetting<int, set_test_switch> outer(4);
    EXPECT_EQ(test_switch, 4);
    try {
      const kl::ScopedSetting<int, set_test_switch> inner(8);
      EXPECT_EQ(test_switch, 8);
      throw std::runtime_error("a failing test");
    } catch (const std::runtime_error&) {
    }
    EXPECT_EQ(test_switch, 4) << "the inner guard restores the outer value";
  }
  EXPECT_EQ(test_switch, 0);

  kl::TestCap cap("cap_something");
  EXPECT_EQ(cap.applied(132), 132) << "no cap until one is set";
  EXPECT_EQ(cap.set(8), 0);
  EXPECT_EQ(cap.applied(132), 8);
  EXPECT_EQ(cap.applied(std::int64_t{5}), 5);
  EXPECT_EQ(cap.set(0), 8);
  EXPECT_EQ(cap.applied(132), 132);
  try {
    cap.set(-1);
    ADD_FAILURE() << "a negative cap was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "cap_something: blocks must be >= 0 (0: no cap), got -1");
  }
  kl::TestCap sms("cap_other", "SMs");
  try {
    sms.set(-2);
    ADD_FAILURE() << "a negative cap was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "cap_other: SMs must be >= 0 (0: no cap), got -2");
  }
}
