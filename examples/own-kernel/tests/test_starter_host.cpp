// The starter family on the host: shape rules, the oracle, what the harness derives from the
// family object (catalogue, planted finding, bench cases) and the program's refusals.
#include "starter.hpp"

#include "bench_context.hpp"
#include "cli.hpp"
#include "family.hpp"

#include <gtest/gtest.h>

#include <sstream>

using namespace starter;

TEST(StarterRules, ShapesOutsideTheRulesAreRefusedWithTheRule) {
  const Variant& v = variant("saxpy");
  EXPECT_EQ(v.unsupported({4, 4, {16, 16}}), "");
  EXPECT_EQ(v.unsupported({0, 0, {16, 16}}), "");
  EXPECT_NE(v.unsupported({-1, 4, {16, 16}}).find("rows and cols must be >= 0"), std::string::npos);
  EXPECT_NE(v.unsupported({4, 4, {0, 1}}).find("block"), std::string::npos);
  EXPECT_NE(v.unsupported({4, 4, {64, 32}}).find("block"), std::string::npos);
  EXPECT_NE(v.unsupported({std::int64_t{1} << 16, std::int64_t{1} << 15, {16, 16}}).find("at most 2^30"),
            std::string::npos);
  EXPECT_NE(v.unsupported({70000, 1, {1, 1}}).find("gridDim.y"), std::string::npos);
}

TEST(StarterOracle, HandCheckedValues) {
  const Inputs in{-1.0f, {1, 2, 3, 4}, {1, 1, 1, 1}};
  EXPECT_EQ(oracle(Op::saxpy, {2, 2, {16, 16}}, in), (std::vector<float>{0, -1, -2, -3}));
  EXPECT_EQ(oracle(Op::transpose, {1, 4, {16, 16}}, in), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(oracle(Op::transpose, {2, 2, {16, 16}}, in), (std::vector<float>{1, 3, 2, 4}));
}

TEST(StarterFamily, TheHarnessSeesTheFamilyItsVariantsAndItsPlantedFinding) {
  const kl::Family& f = kl::find_family("starter");
  ASSERT_EQ(f.variants.size(), 3u);
  EXPECT_EQ(kl::find_info("starter.saxpy_off_by_one").role, kl::Role::planted);
  const kl::PlantedFinding p = kl::find_planted("memcheck-saxpy-off-by-one");
  EXPECT_EQ(p.variant->id(), "starter.saxpy_off_by_one");
  EXPECT_EQ(kl::find_info(p.finding->fixed_by).role, kl::Role::teaching);
  // Bench: the two clean variants are measured, the planted one is listed with its reason.
  ASSERT_TRUE(f.benchmarked());
  std::size_t measured = 0;
  for (const kl::cli::BenchCase& c : f.bench_cases()) {
    if (c.skip_reason.empty()) ++measured;
    else EXPECT_EQ(c.variant, "saxpy_off_by_one");
  }
  EXPECT_EQ(measured, 2u);
}

namespace {
int run_cli(const std::vector<std::string>& argv, std::string& out, std::string& err) {
  std::ostringstream o, e;
  const int code = kl::cli::main(argv, o, e);
  out = o.str();
  err = e.str();
  return code;
}
}  // namespace

TEST(StarterCli, ListHelpAndRefusals) {
  std::string out, err;
  ASSERT_EQ(run_cli({"list"}, out, err), 0) << err;
  for (const char* name : {"saxpy", "transpose", "saxpy_off_by_one"}) EXPECT_NE(out.find(name), std::string::npos);
  ASSERT_EQ(run_cli({"help", "run"}, out, err), 0) << err;
  EXPECT_NE(out.find("starter:"), std::string::npos) << out;
  EXPECT_NE(out.find("--rows R"), std::string::npos) << out;
  // Refused before any GPU is touched: the rule is named, exit 2.
  EXPECT_EQ(run_cli({"run", "starter.saxpy", "--block", "64x32"}, out, err), 2);
  EXPECT_NE(err.find("starter.saxpy: block"), std::string::npos) << err;
  EXPECT_EQ(run_cli({"run", "starter.saxpy", "--n", "5"}, out, err), 2);
  EXPECT_NE(err.find("--n"), std::string::npos) << err;
  EXPECT_EQ(run_cli({"run", "starter.nosuch"}, out, err), 2);
  EXPECT_NE(err.find("unknown variant 'starter.nosuch'"), std::string::npos) << err;
}
